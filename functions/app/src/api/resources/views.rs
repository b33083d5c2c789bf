//! What the API shows of endpoints, deliveries, attempts and events: the JSON views
//! docs/openapi.json describes, and which records are past their retention.

use crate::api::wire::endpoints::EndpointOut;
pub use crate::api::wire::endpoints::endpoint_status;
use crate::domain::model::{Attempt, Delivery, Endpoint, EventRecord};
use courier_core::Timestamp;
use serde_json::{Value, json};

/// An endpoint as the API shows it ([`EndpointOut`]), as JSON for the callers that
/// still read it so.
pub fn endpoint_view(e: &Endpoint, now: Timestamp) -> Value {
    serde_json::to_value(EndpointOut::at(e, now)).unwrap_or(Value::Null)
}

pub fn delivery_view(d: &Delivery) -> Value {
    json!({
        "id": d.id,
        "eventId": d.event_id,
        "endpointId": d.endpoint_id,
        "webhookId": d.webhook_id,
        "status": d.status,
        "deadReason": d.dead_reason,
        "trigger": d.trigger,
        "attemptCount": d.attempt_count,
        "receiverFailures": d.receiver_failures,
        "nextAttemptAt": d.next_attempt_at,
        "createdAt": d.created_at,
        "plannedAt": d.planned_at,
        "settledAt": d.settled_at,
        "deadLetteredAt": d.dead_lettered_at,
        "throttledUntil": d.throttled_until,
    })
}

pub fn attempt_view(a: &Attempt) -> Value {
    let mut v = serde_json::to_value(a).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("expiresAt");
        o.remove("tenantId");
    }
    v
}

pub fn event_view(e: &EventRecord) -> Value {
    let mut v = json!({
        "id": e.id,
        "type": e.event_type,
        "plannedAt": e.planned_at,
        "createdAt": e.created_at,
        "deliveries": e.targets,
    });
    if let Some(f) = &e.fanout {
        v["applicationId"] = json!(e.application_id);
        v["channels"] = json!(e.channels);
        v["fanout"] = fanout_view(f);
    }
    v
}

/// A fan-out's progress as the API shows it (the id seed stays private).
pub fn fanout_view(f: &crate::domain::model::FanoutProgress) -> Value {
    json!({"status": f.status, "matched": f.matched, "processed": f.processed})
}

pub(crate) fn expired(expires_at: Option<i64>, now: Timestamp) -> bool {
    expires_at.is_some_and(|t| t * 1000 <= now.millis())
}
