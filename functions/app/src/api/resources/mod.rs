//! The API's resources, one module per resource (endpoints and their settings,
//! events, deliveries, resending, completion reports, applications, event types,
//! schedules, statistics, the portal and the console), and the rule their lists
//! share: a record past its retention is not shown.

pub(crate) mod applications;
pub(crate) mod completion;
pub mod console;
pub(crate) mod deliveries;
pub(crate) mod endpoint_connectivity;
pub(crate) mod endpoint_headers;
pub(crate) mod endpoint_lifecycle;
pub(crate) mod endpoint_limits;
pub(crate) mod endpoints;
pub(crate) mod event_types;
pub(crate) mod events;
pub(crate) mod events_batch;
pub(crate) mod fanout;
pub(crate) mod health;
pub(crate) mod portal;
pub(crate) mod portal_fields;
pub(crate) mod resend;
pub(crate) mod schedules;
pub(crate) mod stats;

/// Whether a record whose store may drop it after `expires_at` (epoch seconds) is
/// past it: the store drops such records lazily, so answers leave them out.
pub(crate) fn expired(expires_at: Option<i64>, now: courier_core::Timestamp) -> bool {
    expires_at.is_some_and(|t| t * 1000 <= now.millis())
}
