//! Which handler a delivery-queue message goes to, by its top-level `"kind"`: none
//! is a delivery step (the strict [`courier_app::domain::message::QueueMessage`]);
//! `schedule_fire` is a recurring schedule's firing; `fanout` one page of a large
//! fan-out. Other kinds join this match.

use serde::Deserialize;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MessageKind {
    /// A delivery step (no `kind`).
    Delivery,
    /// A recurring schedule's firing.
    ScheduleFire,
    /// One page of a large fan-out.
    Fanout,
    /// A kind this sender does not know.
    Unknown(String),
}

/// The message's kind. Delivery messages (the hot path) carry no `"kind"` key, so
/// a body without that text is one without parsing it twice.
pub fn kind_of(body: &str) -> MessageKind {
    if !body.contains("\"kind\"") {
        return MessageKind::Delivery;
    }
    #[derive(Deserialize)]
    struct Kind {
        kind: Option<String>,
    }
    match serde_json::from_str::<Kind>(body).ok().and_then(|k| k.kind) {
        None => MessageKind::Delivery,
        Some(k) => match k.as_str() {
            courier_app::domain::schedule::FIRE_KIND => MessageKind::ScheduleFire,
            courier_app::domain::fanout_message::FANOUT_KIND => MessageKind::Fanout,
            _ => MessageKind::Unknown(k),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_by_the_top_level_field() {
        assert_eq!(kind_of(r#"{"v":1,"deliveryId":"dlv_1"}"#), MessageKind::Delivery);
        assert_eq!(kind_of("not json"), MessageKind::Delivery);
        assert_eq!(kind_of(r#"{"kind":"schedule_fire","v":1}"#), MessageKind::ScheduleFire);
        assert_eq!(kind_of(r#"{"v":1,"kind":"fanout"}"#), MessageKind::Fanout);
        assert_eq!(kind_of(r#"{"kind":null,"v":1}"#), MessageKind::Delivery);
        assert_eq!(
            kind_of(r#"{"v":1,"kind":"refund"}"#),
            MessageKind::Unknown("refund".into())
        );
        // A nested "kind" is not the message's.
        assert_eq!(
            kind_of(r#"{"v":1,"x":{"kind":"schedule_fire"}}"#),
            MessageKind::Delivery
        );
    }

    #[test]
    fn a_fan_out_step_as_sent_is_dispatched_as_one() {
        use courier_app::domain::fanout_message::{FanoutCursor, FanoutStep};
        use courier_core::ids::{EventId, TenantId};
        let step = FanoutStep::new(
            TenantId::parse("ten_01HZY0000000000000000000AA").expect("tenant id"),
            EventId::parse("evt_01HZY0000000000000000000AB").expect("event id"),
            FanoutCursor {
                key: 0,
                after: None,
                processed: 0,
            },
        );
        assert_eq!(kind_of(&step.to_json()), MessageKind::Fanout);
    }
}
