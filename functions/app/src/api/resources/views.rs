//! What the API shows of endpoints, deliveries, attempts and events: the JSON views
//! docs/openapi.json describes, and which records are past their retention.

use crate::api::wire::deliveries::{AttemptOut, DeliveryOut};
use crate::api::wire::events::{EventOut, FanoutProgressOut};
use crate::domain::model::{Attempt, Delivery, Endpoint, EndpointState, EventRecord};
use courier_core::Timestamp;
use serde_json::{Value, json};

/// The endpoint's status as the API shows it, derived at `now`.
pub fn endpoint_status(e: &Endpoint, now: Timestamp) -> &'static str {
    match e.state {
        EndpointState::Revoked => return "revoked",
        EndpointState::Disabled => return "disabled",
        EndpointState::Active => {}
    }
    match (e.health, e.policy.health.smart_rules()) {
        (Some(h), Some(rules)) => h.at(rules, now).status.wire_name(),
        _ => "active",
    }
}

pub fn endpoint_view(e: &Endpoint, now: Timestamp) -> Value {
    let policy = if e.policy.is_preset() {
        json!(e.policy.name)
    } else {
        serde_json::to_value(&e.policy).unwrap_or(Value::Null)
    };
    let mut v = json!({
        "id": e.id,
        "url": if e.destination.is_some() { Value::Null } else { json!(e.url) },
        "policy": policy,
        "latencyClass": e.latency_class,
        "longRunningAllowanceSeconds": e.long_running_allowance_seconds,
        "timeoutMs": e.timeout_ms(),
        "description": e.description,
        "rateLimit": e.rate_limit,
        "maxInFlight": e.max_in_flight,
        "status": endpoint_status(e, now),
        "secrets": e.secrets.iter().map(|s| json!({"state": s.state, "createdAt": s.created_at, "expiresAt": s.expires_at})).collect::<Vec<_>>(),
        "createdAt": e.created_at,
        "updatedAt": e.updated_at,
    });
    if e.policy.health.breaker_rules().is_some() {
        let b = e.breaker.unwrap_or_default().at(now);
        v["breaker"] = json!({
            "state": if b.open_until.is_some() { "open" } else { "closed" },
            "openUntil": b.open_until,
            "exhaustedInARow": b.exhausted_in_a_row,
        });
    }
    if let (Some(h), Some(rules)) = (e.health, e.policy.health.smart_rules()) {
        let h = h.at(rules, now);
        v["health"] = json!({"status": h.status, "failuresInARow": h.failures_in_a_row, "since": h.since, "lastSuccessOrEnableAt": h.quiet_since});
    }
    // The subscription: null means no application, every type, no channel filter.
    v["applicationId"] = json!(e.application_id);
    v["filterTypes"] = json!(e.filter_types);
    v["channels"] = json!(e.channels);
    v["failingAfter"] = json!(e.failing_after());
    v["headers"] = crate::api::resources::endpoint_headers::headers_view(&e.headers);
    v["auth"] = crate::api::resources::endpoint_connectivity::auth_view(e.auth.as_ref());
    v["tls"] = crate::api::resources::endpoint_connectivity::tls_view(e.tls.as_ref());
    if let Some(d) = &e.destination {
        let mut shown = serde_json::to_value(d).unwrap_or(Value::Null);
        shown["externalId"] = json!(e.external_id());
        v["destination"] = shown;
    }
    if let Some(at) = e.deleted_at {
        v["deletedAt"] = json!(at);
    }
    v
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
