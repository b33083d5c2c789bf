//! Every message on the delivery queue as one enum, [`Message`], tagged by its
//! top-level `kind`, with its one reader ([`Message::parse`]) and one error type
//! ([`MessageError`]). The kinds' fields live beside their rules: the delivery step
//! in `message`, the fan-out step in `fanout_message`, the firing in `schedule`.

use crate::domain::delivery_message::DeliveryMessage;
use crate::domain::fanout_message::FanoutStep;
use crate::domain::schedule::FireMessage;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Every message on the delivery queue, tagged by its top-level `kind`. A delivery
/// step carries no `kind`: EventBridge Scheduler's one-shot timers and messages
/// already queued hold that form, so it stays the untagged variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Message {
    /// One page of a large fan-out (`"kind":"fanout"`).
    Fanout(FanoutStep),
    /// A recurring schedule's firing (`"kind":"schedule_fire"`).
    ScheduleFire(FireMessage),
    /// One attempt of a delivery (no `kind`). Last: serde requires an untagged
    /// variant to follow the tagged ones.
    #[serde(untagged)]
    Delivery(DeliveryMessage),
}

/// The kinds of [`Message`], for errors and logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    Delivery,
    Fanout,
    ScheduleFire,
}

impl MessageKind {
    /// The `kind` on the wire (`delivery` stands for its absence).
    pub fn as_str(self) -> &'static str {
        match self {
            MessageKind::Delivery => "delivery",
            MessageKind::Fanout => "fanout",
            MessageKind::ScheduleFire => "schedule_fire",
        }
    }
}

impl std::fmt::Display for MessageKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a queue message could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MessageError {
    /// Not JSON, not an object, or a `kind` that is not text.
    #[error("queue message is not a JSON object with a text `kind` or none: {0}")]
    NotAnObject(serde_json::Error),
    #[error("queue message kind {0:?} is not known")]
    UnknownKind(String),
    /// The fields do not fit the kind's v1 format (missing, unknown, mistyped).
    #[error("{kind} message is not valid JSON for the v1 format: {source}")]
    Malformed {
        kind: MessageKind,
        source: serde_json::Error,
    },
    #[error("{kind} message version {version} is not supported")]
    Version { kind: MessageKind, version: u32 },
    #[error("delivery message attempt number must be at least 1")]
    AttemptZero,
    /// A message of another kind where only a delivery step may be.
    #[error("a {0} message where a delivery step was expected")]
    NotADelivery(MessageKind),
}

/// The top-level `kind` alone (the rest is skipped unread).
#[derive(Deserialize)]
struct KindField<'a> {
    #[serde(borrow, default)]
    kind: Option<Cow<'a, str>>,
}

/// The tagged kinds as serde reads them; [`Message::parse`] comes here only for a
/// `kind` it knows, so serde's own tag errors never show.
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Tagged {
    Fanout(FanoutStep),
    ScheduleFire(FireMessage),
}

impl Message {
    /// The one reader of queue messages: the `kind` first (none: a delivery step),
    /// then that kind's v1 fields, version and rules.
    pub fn parse(body: &str) -> Result<Message, MessageError> {
        // Delivery steps are nearly every message and carry the payload: read them
        // in one pass. A message that is not one (a `kind` is an unknown field to
        // it) takes the full reading below, which also gives every error.
        let message = match serde_json::from_str::<DeliveryMessage>(body) {
            Ok(m) => Message::Delivery(m),
            Err(_) => Self::parse_by_kind(body)?,
        };
        message.checked()
    }

    /// The `kind` first (none: a delivery step), then that kind's v1 fields.
    fn parse_by_kind(body: &str) -> Result<Message, MessageError> {
        let kind = serde_json::from_str::<KindField<'_>>(body)
            .map_err(MessageError::NotAnObject)?
            .kind;
        let kind = match kind.as_deref() {
            None => MessageKind::Delivery,
            Some("fanout") => MessageKind::Fanout,
            Some("schedule_fire") => MessageKind::ScheduleFire,
            Some(other) => return Err(MessageError::UnknownKind(other.to_owned())),
        };
        let malformed = |source| MessageError::Malformed { kind, source };
        let message = match kind {
            MessageKind::Delivery => Message::Delivery(serde_json::from_str(body).map_err(malformed)?),
            MessageKind::Fanout | MessageKind::ScheduleFire => {
                match serde_json::from_str::<Tagged>(body).map_err(malformed)? {
                    Tagged::Fanout(step) => Message::Fanout(step),
                    Tagged::ScheduleFire(m) => Message::ScheduleFire(m),
                }
            }
        };
        Ok(message)
    }

    /// The version and rules every kind's fields must meet.
    fn checked(self) -> Result<Message, MessageError> {
        let kind = self.kind();
        let version = match &self {
            Message::Delivery(m) => m.v,
            Message::Fanout(step) => step.v,
            Message::ScheduleFire(m) => m.v,
        };
        if version != 1 {
            return Err(MessageError::Version { kind, version });
        }
        if let Message::Delivery(m) = &self
            && m.attempt == 0
        {
            return Err(MessageError::AttemptZero);
        }
        Ok(self)
    }

    /// The message's kind.
    pub fn kind(&self) -> MessageKind {
        match self {
            Message::Delivery(_) => MessageKind::Delivery,
            Message::Fanout(_) => MessageKind::Fanout,
            Message::ScheduleFire(_) => MessageKind::ScheduleFire,
        }
    }

    /// The delivery step, for the places only one may be (a one-shot timer's input).
    pub fn into_delivery(self) -> Result<DeliveryMessage, MessageError> {
        match self {
            Message::Delivery(m) => Ok(m),
            other => Err(MessageError::NotADelivery(other.kind())),
        }
    }

    /// The wire form: the tagged kinds with their `kind` first, a delivery step
    /// without one.
    pub fn to_json(&self) -> String {
        // An enum of structs of strings and numbers always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::{Message, MessageError, MessageKind};
    use crate::domain::delivery_message::{DeliveryMessage, Trigger};
    use crate::domain::fanout_message::{FanoutCursor, FanoutStep};
    use crate::domain::schedule::FireMessage;
    use courier_core::Timestamp;
    use courier_core::ids::{DeliveryId, EndpointId, EventId, ScheduleId, TenantId};

    const TENANT: &str = "ten_01HZY0000000000000000000AA";
    const EVENT: &str = "evt_01HZY0000000000000000000AB";
    const ENDPOINT: &str = "ep_01HZY0000000000000000000AC";
    const DELIVERY: &str = "dlv_01HZY0000000000000000000AD";
    const SCHEDULE: &str = "sch_01HZY0000000000000000000AE";

    /// Each kind as it is on the wire, byte for byte, and the value it reads as.
    fn wire_forms() -> Vec<(String, Message)> {
        let tenant = TenantId::parse(TENANT).expect("tenant id");
        let endpoint = EndpointId::parse(ENDPOINT).expect("endpoint id");
        vec![
            (
                format!(
                    r#"{{"v":1,"deliveryId":"{DELIVERY}","tenantId":"{TENANT}","endpointId":"{ENDPOINT}","attempt":3,"notBefore":"2026-12-02T09:30:00.000Z","trigger":"retry"}}"#
                ),
                Message::Delivery(DeliveryMessage {
                    v: 1,
                    delivery_id: DeliveryId::parse(DELIVERY).expect("delivery id"),
                    tenant_id: tenant.clone(),
                    endpoint_id: endpoint.clone(),
                    attempt: 3,
                    not_before: Timestamp::parse_rfc3339("2026-12-02T09:30:00Z").expect("t"),
                    trigger: Trigger::Retry,
                    source_attempt_id: None,
                    attempt_id: None,
                    completion_check: false,
                    body: None,
                }),
            ),
            (
                format!(
                    r#"{{"kind":"fanout","v":1,"tenantId":"{TENANT}","eventId":"{EVENT}","cursor":{{"key":2,"after":"{ENDPOINT}","processed":100}},"watch":true}}"#
                ),
                Message::Fanout(FanoutStep {
                    v: 1,
                    tenant_id: tenant.clone(),
                    event_id: EventId::parse(EVENT).expect("event id"),
                    cursor: FanoutCursor {
                        key: 2,
                        after: Some(endpoint),
                        processed: 100,
                    },
                    watch: true,
                }),
            ),
            (
                format!(
                    r#"{{"kind":"schedule_fire","v":1,"tenantId":"{TENANT}","scheduleId":"{SCHEDULE}","plannedAt":"2026-12-01T08:09:10.000Z"}}"#
                ),
                Message::ScheduleFire(FireMessage {
                    v: 1,
                    tenant_id: tenant,
                    schedule_id: ScheduleId::parse(SCHEDULE).expect("schedule id"),
                    planned_at: Timestamp::parse_rfc3339("2026-12-01T08:09:10Z").expect("t"),
                }),
            ),
        ]
    }

    #[test]
    fn every_kind_reads_as_its_value_and_writes_its_exact_text() {
        for (text, value) in wire_forms() {
            assert_eq!(Message::parse(&text).ok(), Some(value.clone()), "{text}");
            assert_eq!(value.to_json(), text);
        }
        // The delivery step is written on the hot path without the enum: the same text.
        let (text, value) = wire_forms().remove(0);
        assert_eq!(value.into_delivery().map(|m| m.to_json()).ok(), Some(text));
    }

    #[test]
    fn what_scheduler_fills_in_reads_as_the_firing() {
        let template = FireMessage::template(
            &TenantId::parse(TENANT).expect("tenant id"),
            &ScheduleId::parse(SCHEDULE).expect("schedule id"),
        );
        let planned = Timestamp::parse_rfc3339("2026-12-01T08:09:10.500Z").expect("t");
        let fired = FireMessage::from_template(&template, planned);
        // The instant in whole seconds, as Scheduler has it; the text is the enum's.
        let (text, value) = wire_forms().remove(2);
        assert_eq!(fired, text);
        assert_eq!(Message::parse(&fired).ok(), Some(value));
        // Scheduler's own form of the instant reads the same.
        assert_eq!(
            Message::parse(&fired.replace(".000Z", "Z")).ok(),
            Message::parse(&text).ok()
        );
    }

    #[test]
    fn a_message_that_is_not_one_gets_the_error_naming_why() {
        let forms = wire_forms();
        let (delivery_text, fanout_text, fire_text) = (&forms[0].0, &forms[1].0, &forms[2].0);
        let cases: Vec<(String, &str)> = vec![
            ("not json".into(), "NotAnObject"),
            ("".into(), "NotAnObject"),
            ("[1,2]".into(), "NotAnObject"),
            (r#"{"kind":42,"v":1}"#.into(), "NotAnObject"),
            (format!("{delivery_text} trailing"), "NotAnObject"),
            (r#"{"kind":"refund","v":1}"#.into(), "UnknownKind(refund)"),
            (r#"{"v":1,"kind":"Fanout"}"#.into(), "UnknownKind(Fanout)"),
            // A `kind` of null is not a delivery step's field.
            (
                delivery_text.replacen('{', r#"{"kind":null,"#, 1),
                "Malformed(delivery)",
            ),
            (r#"{"v":1,"deliveryId":7}"#.into(), "Malformed(delivery)"),
            (
                fanout_text.replace(r#","watch":true"#, r#","extra":1"#),
                "Malformed(fanout)",
            ),
            (r#"{"kind":"schedule_fire"}"#.into(), "Malformed(schedule_fire)"),
            // A fan-out's fields under a firing's kind, and the other way round.
            (
                fanout_text.replace("\"fanout\"", "\"schedule_fire\""),
                "Malformed(schedule_fire)",
            ),
            (
                fire_text.replace("\"schedule_fire\"", "\"fanout\""),
                "Malformed(fanout)",
            ),
            (delivery_text.replace("\"v\":1", "\"v\":2"), "Version(delivery, 2)"),
            (fanout_text.replace("\"v\":1", "\"v\":2"), "Version(fanout, 2)"),
            (fire_text.replace("\"v\":1", "\"v\":0"), "Version(schedule_fire, 0)"),
            (delivery_text.replace("\"attempt\":3", "\"attempt\":0"), "AttemptZero"),
        ];
        for (text, expected) in cases {
            let got = match Message::parse(&text) {
                Ok(m) => format!("Ok({:?})", m.kind()),
                Err(MessageError::NotAnObject(_)) => "NotAnObject".into(),
                Err(MessageError::UnknownKind(k)) => format!("UnknownKind({k})"),
                Err(MessageError::Malformed { kind, .. }) => format!("Malformed({kind})"),
                Err(MessageError::Version { kind, version }) => format!("Version({kind}, {version})"),
                Err(MessageError::AttemptZero) => "AttemptZero".into(),
                Err(MessageError::NotADelivery(kind)) => format!("NotADelivery({kind})"),
            };
            assert_eq!(got, expected, "{text}");
        }
        assert!(matches!(
            Message::parse(fanout_text).and_then(Message::into_delivery),
            Err(MessageError::NotADelivery(MessageKind::Fanout))
        ));
        assert_eq!(
            Message::parse(r#"{"kind":"refund"}"#)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Err(r#"queue message kind "refund" is not known"#.to_owned())
        );
    }
}
