//! The fan-out step message: "create the deliveries of this event for the next page
//! of its subscribers", sent on the delivery queue beside delivery messages as
//! `crate::domain::queue_message::Message::Fanout`, which tags it `"kind":"fanout"` and
//! is its one reader.

use courier_core::ids::{EndpointId, EventId, TenantId};
use serde::{Deserialize, Serialize};

/// One page of a fan-out: the subscribers of the event from position `cursor`
/// on. Redoing a step is harmless: its deliveries have ids derived from (event,
/// endpoint) and are created only once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FanoutStep {
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

impl FanoutStep {
    pub fn new(tenant_id: TenantId, event_id: EventId, cursor: FanoutCursor) -> Self {
        FanoutStep {
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
}
