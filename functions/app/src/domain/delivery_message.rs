//! The delivery step message ([`DeliveryMessage`]): which attempt of which delivery to
//! make, and not before when. Versioned so a message from an older sender is still
//! understood. It travels as `crate::domain::queue_message::Message::Delivery`,
//! whose reader is the only one.

use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, TenantId};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    Initial,
    Retry,
    Redelivery,
    Replay,
    Test,
}

impl Trigger {
    /// The value the receiver sees in the envelope's `trigger` field.
    pub fn envelope_name(self) -> &'static str {
        match self {
            Trigger::Initial | Trigger::Retry => "scheduled",
            Trigger::Redelivery => "redelivery",
            Trigger::Replay => "replay",
            Trigger::Test => "test",
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Trigger::Initial => "initial",
            Trigger::Retry => "retry",
            Trigger::Redelivery => "redelivery",
            Trigger::Replay => "replay",
            Trigger::Test => "test",
        }
    }

    pub const ALL: [Trigger; 5] = [
        Trigger::Initial,
        Trigger::Retry,
        Trigger::Redelivery,
        Trigger::Replay,
        Trigger::Test,
    ];

    /// The trigger [`Trigger::as_str`] names `name` (serde's names too).
    pub fn from_name(name: &str) -> Option<Trigger> {
        Trigger::ALL.into_iter().find(|t| t.as_str() == name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DeliveryMessage {
    /// Message format version (1).
    pub v: u32,
    pub delivery_id: DeliveryId,
    pub tenant_id: TenantId,
    /// Carried so the sender can load (and cache) the endpoint before claiming.
    pub endpoint_id: EndpointId,
    /// The attempt number this message asks for.
    pub attempt: u32,
    /// The attempt must not start before this instant; an early message is re-delayed.
    pub not_before: Timestamp,
    pub trigger: Trigger,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_attempt_id: Option<AttemptId>,
    /// A pre-assigned id for the attempt (redeliveries answer it to the caller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attempt_id: Option<AttemptId>,
    /// A timer checking that long-running attempt `attempt` was reported in time.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub completion_check: bool,
    /// The delivery's body, on a first message when it fits
    /// (`shared_body::MAX_MESSAGE_WITH_BODY`): used only if it hashes to the stored
    /// delivery's `bodyHash`, else the sender reads the body from the event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<std::sync::Arc<str>>,
}

impl DeliveryMessage {
    /// The message's wire form: `Message::Delivery`'s, which carries no `kind`
    /// (written here without wrapping it, as the hot path sends it).
    pub fn to_json(&self) -> String {
        // Serialising a struct of strings and numbers cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Idempotency name for the timer and dedup of this step.
    pub fn step_name(&self) -> String {
        format!("{}-{}-{}", self.delivery_id, self.attempt, self.trigger.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::queue_message::{Message, MessageError, MessageKind};
    use courier_core::RandomSource;
    use courier_core::rng::SplitMix64;

    /// A delivery step through the one reader.
    fn delivery(text: &str) -> Result<DeliveryMessage, MessageError> {
        Message::parse(text).and_then(Message::into_delivery)
    }

    fn message() -> DeliveryMessage {
        let mut rng = SplitMix64::new(9);
        let now = Timestamp::from_secs(1_800_000_000);
        DeliveryMessage {
            v: 1,
            delivery_id: DeliveryId::generate(now, &mut rng),
            tenant_id: TenantId::generate(now, &mut rng),
            endpoint_id: EndpointId::generate(now, &mut rng),
            attempt: 3,
            not_before: now.plus_millis(1_234),
            trigger: Trigger::Redelivery,
            source_attempt_id: Some(AttemptId::generate(now, &mut rng)),
            attempt_id: Some(AttemptId::generate(now, &mut rng)),
            completion_check: true,
            body: None,
        }
    }

    #[test]
    fn round_trips_through_its_json() {
        let m = message();
        assert_eq!(delivery(&m.to_json()).ok(), Some(m.clone()));
        let bare = DeliveryMessage {
            source_attempt_id: None,
            attempt_id: None,
            completion_check: false,
            ..m
        };
        assert_eq!(delivery(&bare.to_json()).ok(), Some(bare.clone()));
        // The same from a JSON value, as an adapter might hand it over.
        let value = serde_json::to_value(&bare).unwrap_or_default();
        assert_eq!(serde_json::from_value::<DeliveryMessage>(value).ok(), Some(bare));
    }

    #[test]
    fn null_optional_ids_read_as_absent() {
        let m = message();
        let mut value = serde_json::to_value(&m).unwrap_or_default();
        value["attemptId"] = serde_json::Value::Null;
        value["sourceAttemptId"] = serde_json::Value::Null;
        let parsed = delivery(&value.to_string()).ok();
        assert_eq!(parsed.map(|p| (p.attempt_id, p.source_attempt_id)), Some((None, None)));
    }

    #[test]
    fn bad_fields_are_refused_by_name() {
        let m = message();
        for (field, bad) in [
            ("deliveryId", serde_json::json!("att_01JAAAAAAAAAAAAAAAAAAAAAAA")),
            ("tenantId", serde_json::json!("ten_short")),
            ("endpointId", serde_json::json!(42)),
            ("notBefore", serde_json::json!("yesterday")),
            ("attemptId", serde_json::json!("dlv_01JAAAAAAAAAAAAAAAAAAAAAAA")),
        ] {
            let mut value = serde_json::to_value(&m).unwrap_or_default();
            value[field] = bad;
            let err = delivery(&value.to_string()).map(|_| ()).map_err(|e| e.to_string());
            assert!(err.is_err(), "{field} accepted");
        }
        let escaped = m.to_json().replace("dlv_", "dlv\\u005f");
        assert_eq!(delivery(&escaped).ok(), Some(m));
    }

    fn generated(seed: u64) -> DeliveryMessage {
        let mut rng = SplitMix64::new(seed);
        let now = Timestamp::from_millis((rng.next_u64() % 4_000_000_000_000) as i64);
        let pick = rng.next_u64();
        let mut id = || AttemptId::generate(now, &mut SplitMix64::new(pick));
        DeliveryMessage {
            v: if pick.is_multiple_of(17) { 2 } else { 1 },
            delivery_id: DeliveryId::generate(now, &mut SplitMix64::new(seed)),
            tenant_id: TenantId::generate(now, &mut SplitMix64::new(seed + 1)),
            endpoint_id: EndpointId::generate(now, &mut SplitMix64::new(seed + 2)),
            attempt: [0, 1, 2, 9, 10, 4_294_967_295][(pick % 6) as usize],
            not_before: now.plus_millis((pick % 1000) as i64),
            trigger: Trigger::ALL[(pick / 7 % 5) as usize],
            source_attempt_id: (pick & 8 != 0).then(&mut id),
            attempt_id: (pick & 16 != 0).then(&mut id),
            completion_check: pick & 32 != 0,
            body: (pick & 64 != 0).then(|| std::sync::Arc::from(format!("{{\"data\":\"\u{e9}\\\"{seed}\"}}"))),
        }
    }

    #[test]
    fn every_message_written_reads_back_or_is_refused_for_its_version_or_attempt() {
        for seed in 0..300 {
            let m = generated(seed);
            let text = m.to_json();
            let expected = match (m.v, m.attempt) {
                (1, 1..) => Ok(m.clone()),
                (1, _) => Err(MessageError::AttemptZero.to_string()),
                (version, _) => Err(MessageError::Version {
                    kind: MessageKind::Delivery,
                    version,
                }
                .to_string()),
            };
            assert_eq!(delivery(&text).map_err(|e| e.to_string()), expected, "{text}");
        }
    }
}
