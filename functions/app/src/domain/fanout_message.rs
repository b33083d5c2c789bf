//! The fan-out step message: "create the deliveries of this event for the next page
//! of its subscribers", sent on the delivery queue beside delivery messages. It
//! carries a top-level `"kind": "fanout"`; a message without `kind` is a delivery
//! message ([`crate::domain::message::QueueMessage`]); the sender dispatches on the kind
//! ([`FANOUT_KIND`]) first.

use courier_core::ids::{EndpointId, EventId, TenantId};
use serde::{Deserialize, Serialize};

/// The top-level `kind` of a fan-out step message (what [`FanoutKind::Fanout`]
/// serialises to), for the sender's dispatch.
pub const FANOUT_KIND: &str = "fanout";

/// The only value of [`FanoutStep::kind`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FanoutKind {
    Fanout,
}

/// One page of a fan-out: the subscribers of the event from position `cursor`
/// on. Redoing a step is harmless: its deliveries have ids derived from (event,
/// endpoint) and are created only once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FanoutStep {
    pub kind: FanoutKind,
    /// Message format version (1).
    pub v: u32,
    pub tenant_id: TenantId,
    pub event_id: EventId,
    pub cursor: FanoutCursor,
    /// A watch copy, sent [`WATCH_DELAY_SECONDS`] after its step: when it arrives
    /// and the step has not been done, the fan-out has stalled (it is told, and the
    /// watch does the step).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub watch: bool,
}

/// How long a fan-out may go without a step before it counts as stalled.
pub const WATCH_DELAY_SECONDS: u32 = 300;

/// A position in an event's subscribers: the index of the lookup key being read
/// (in `courier_core::subscription::lookup_keys` order), the last endpoint id read
/// under it, and how many matching endpoints came before.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FanoutCursor {
    pub key: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<EndpointId>,
    pub processed: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum FanoutMessageError {
    #[error("fan-out message is not valid JSON for the v1 format: {0}")]
    Malformed(#[from] serde_json::Error),
    #[error("fan-out message version {0} is not supported")]
    Version(u32),
}

impl FanoutStep {
    pub fn new(tenant_id: TenantId, event_id: EventId, cursor: FanoutCursor) -> Self {
        FanoutStep {
            kind: FanoutKind::Fanout,
            v: 1,
            tenant_id,
            event_id,
            cursor,
            watch: false,
        }
    }

    /// The watch copy of this step.
    pub fn watch(&self) -> Self {
        FanoutStep {
            watch: true,
            ..self.clone()
        }
    }

    pub fn parse(body: &str) -> Result<Self, FanoutMessageError> {
        let m: FanoutStep = serde_json::from_str(body)?;
        if m.v != 1 {
            return Err(FanoutMessageError::Version(m.v));
        }
        Ok(m)
    }

    pub fn to_json(&self) -> String {
        // A struct of strings and numbers always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::message::QueueMessage;

    #[test]
    fn steps_round_trip_and_are_not_delivery_messages() {
        let step = FanoutStep::new(
            TenantId::parse("ten_01HZY0000000000000000000AA").expect("tenant id"),
            EventId::parse("evt_01HZY0000000000000000000AB").expect("event id"),
            FanoutCursor {
                key: 2,
                after: Some(EndpointId::parse("ep_01HZY0000000000000000000AC").expect("endpoint id")),
                processed: 100,
            },
        );
        let text = step.to_json();
        assert!(
            text.starts_with(&format!(r#"{{"kind":"{FANOUT_KIND}","v":1,"#)),
            "{text}"
        );
        assert_eq!(FanoutStep::parse(&text).expect("parses"), step);
        let delivery = r#"{"v":1,"deliveryId":"dlv_01HZY0000000000000000000AD","tenantId":"ten_01HZY0000000000000000000AA","endpointId":"ep_01HZY0000000000000000000AC","attempt":1,"notBefore":"2026-01-01T00:00:00Z","trigger":"initial"}"#;
        assert!(QueueMessage::parse(delivery).is_ok());
        // A fan-out step is not a delivery message, and the other way round.
        assert!(QueueMessage::parse(&text).is_err());
        assert!(FanoutStep::parse(delivery).is_err());
        assert!(matches!(
            FanoutStep::parse(&text.replace("\"v\":1", "\"v\":2")),
            Err(FanoutMessageError::Version(2))
        ));
        assert!(FanoutStep::parse(&text.replace("\"v\":1", "\"v\":1,\"extra\":1")).is_err());
    }
}
