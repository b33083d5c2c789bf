//! The delivery queue message: which attempt of which delivery to make, and not
//! before when. Versioned so a message from an older sender is still understood.

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
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct QueueMessage {
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
}

#[derive(Debug, thiserror::Error)]
pub enum MessageError {
    #[error("queue message is not valid JSON for the v1 format: {0}")]
    Malformed(#[from] serde_json::Error),
    #[error("queue message version {0} is not supported")]
    Version(u32),
    #[error("queue message attempt number must be at least 1")]
    AttemptZero,
}

impl QueueMessage {
    pub fn parse(body: &str) -> Result<Self, MessageError> {
        let m: QueueMessage = serde_json::from_str(body)?;
        if m.v != 1 {
            return Err(MessageError::Version(m.v));
        }
        if m.attempt == 0 {
            return Err(MessageError::AttemptZero);
        }
        Ok(m)
    }

    pub fn to_json(&self) -> String {
        // Serialising a struct of strings and numbers cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Idempotency name for the timer and dedup of this step.
    pub fn step_name(&self) -> String {
        format!("{}-{}-{}", self.delivery_id, self.attempt, self.trigger.as_str())
    }
}
