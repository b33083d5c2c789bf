//! What the API shows of endpoints, deliveries, attempts and events: the JSON views
//! docs/openapi.json describes, and which records are past their retention.

use crate::api::wire::deliveries::{AttemptOut, DeliveryOut};
use crate::api::wire::endpoints::EndpointOut;
pub use crate::api::wire::endpoints::endpoint_status;
use crate::api::wire::events::{EventOut, FanoutProgressOut};
use crate::domain::model::{Attempt, Delivery, Endpoint, EventRecord};
use courier_core::Timestamp;
use serde_json::Value;

/// An endpoint as the API shows it ([`EndpointOut`]), as JSON for the callers that
/// still read it so.
pub fn endpoint_view(e: &Endpoint, now: Timestamp) -> Value {
    serde_json::to_value(EndpointOut::at(e, now)).unwrap_or(Value::Null)
}

// Thin wrappers over the typed views (`crate::api::wire`), kept for callers that
// still want JSON values (the crate's re-exports, schedules' occurrences).

/// A delivery as the API shows it ([`DeliveryOut`]), as JSON.
pub fn delivery_view(d: &Delivery) -> Value {
    serde_json::to_value(DeliveryOut::from(d)).unwrap_or(Value::Null)
}

/// An attempt as the API shows it ([`AttemptOut`]), as JSON.
pub fn attempt_view(a: &Attempt) -> Value {
    serde_json::to_value(AttemptOut::from(a)).unwrap_or(Value::Null)
}

/// An audit-log entry as the API shows it ([`EventOut`]), as JSON.
pub fn event_view(e: &EventRecord) -> Value {
    serde_json::to_value(EventOut::from(e)).unwrap_or(Value::Null)
}

/// A fan-out's progress as the API shows it ([`FanoutProgressOut`]; the id seed
/// stays private), as JSON.
pub fn fanout_view(f: &crate::domain::model::FanoutProgress) -> Value {
    serde_json::to_value(FanoutProgressOut::of(f)).unwrap_or(Value::Null)
}

pub(crate) fn expired(expires_at: Option<i64>, now: Timestamp) -> bool {
    expires_at.is_some_and(|t| t * 1000 <= now.millis())
}
