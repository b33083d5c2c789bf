//! What the API shows of endpoints, deliveries, attempts and events: the JSON views
//! docs/openapi.json describes, and which records are past their retention.

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
