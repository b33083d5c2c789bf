//! Ingest: an event for one or more endpoints becomes one delivery per endpoint,
//! written atomically, and attempt 1 of each is queued (just before the write when
//! it is due now, see [`send_ahead`]; after it, or scheduled, otherwise). Endpoints that cannot take events right now (gavAI breaker open,
//! SmartChat paused/disabled) get a `dropped` delivery, visible in the audit log.

pub mod batch;
pub mod payload_schema;
pub mod pipeline;
pub mod request_reads;
pub mod send_ahead;

use crate::domain::delivery_message::{DeliveryMessage, Trigger};
use crate::domain::model::{Delivery, DeliveryStatus, Endpoint, EventRecord, EventTarget};
use crate::ports::PortRng;
use crate::ports::Random;
use courier_core::Timestamp;
use courier_core::health::HealthStatus;
use courier_core::ids::{DeliveryId, EventId};
use serde::Serialize;

/// Why an endpoint is not taking new events, if it is not.
pub fn refuses_events(endpoint: &Endpoint, now: Timestamp) -> Option<&'static str> {
    if endpoint.breaker.is_some_and(|b| b.is_open(now)) {
        return Some("breaker_open");
    }
    if let (Some(h), Some(rules)) = (endpoint.health, endpoint.policy.health.smart_rules()) {
        match h.at(rules, now).status {
            HealthStatus::Paused => return Some("endpoint_paused"),
            HealthStatus::Disabled => return Some("endpoint_disabled"),
            _ => {}
        }
    }
    None
}

/// The envelope bytes every automatic attempt of a delivery sends.
pub fn envelope(
    event_id: &EventId,
    event_type: Option<&str>,
    planned_at: Timestamp,
    trigger: Trigger,
    payload: &serde_json::Value,
) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Envelope<'a> {
        id: &'a EventId,
        #[serde(rename = "type")]
        event_type: Option<&'a str>,
        planned_at: Timestamp,
        trigger: &'a str,
        data: &'a serde_json::Value,
    }
    serde_json::to_string(&Envelope {
        id: event_id,
        event_type,
        planned_at,
        trigger: trigger.envelope_name(),
        data: payload,
    })
    .unwrap_or_default()
}

/// A new event as the API accepted it (validated).
pub struct NewEvent<'a> {
    pub event_id: EventId,
    pub event_type: Option<String>,
    pub payload: serde_json::Value,
    pub planned_at: Option<Timestamp>,
    pub endpoints: &'a [Endpoint],
    pub trigger: Trigger,
    /// For replays: the webhook-id each endpoint's delivery keeps.
    pub webhook_ids: Option<Vec<DeliveryId>>,
    /// The delivery id for each endpoint, when an earlier answer already promised
    /// them (an Idempotency-Key repeat rebuilding a first request that died before
    /// writing); fresh ids otherwise.
    pub delivery_ids: Option<Vec<DeliveryId>>,
}

/// Builds the event record and its deliveries (no I/O), with ids from `rng`.
pub fn build(new: &NewEvent<'_>, now: Timestamp, random: &dyn Random) -> (EventRecord, Vec<Delivery>) {
    let mut rng = PortRng(random);
    let planned_at = new.planned_at.filter(|p| *p > now).unwrap_or(now);
    let first = new.endpoints.first().map(|e| e.tenant_id.clone());
    let mut deliveries = Vec::new();
    let mut targets = Vec::new();
    for (i, ep) in new.endpoints.iter().enumerate() {
        let id = match new.delivery_ids.as_ref().and_then(|ids| ids.get(i)) {
            Some(promised) => promised.clone(),
            None => DeliveryId::generate(now, &mut rng),
        };
        let dropped = refuses_events(ep, now);
        let status = match dropped {
            Some(_) => DeliveryStatus::Dropped,
            None if planned_at > now => DeliveryStatus::Scheduled,
            None => DeliveryStatus::Pending,
        };
        let retention = i64::from(ep.policy.retention.settled_days) * 86_400;
        let webhook_id = new
            .webhook_ids
            .as_ref()
            .and_then(|w| w.get(i).cloned())
            .unwrap_or_else(|| id.clone());
        deliveries.push(Delivery {
            id: id.clone(),
            tenant_id: ep.tenant_id.clone(),
            event_id: new.event_id.clone(),
            endpoint_id: ep.id.clone(),
            webhook_id,
            status,
            dead_reason: dropped.map(str::to_owned),
            trigger: new.trigger,
            attempt_count: 0,
            next_attempt: 1,
            receiver_failures: 0,
            next_attempt_at: if dropped.is_none() { Some(planned_at) } else { None },
            last_planned: false,
            claim: None,
            awaiting: None,
            throttled_until: None,
            dead_lettered_at: None,
            created_at: now,
            planned_at,
            settled_at: dropped.map(|_| now),
            body: envelope(
                &new.event_id,
                new.event_type.as_deref(),
                planned_at,
                new.trigger,
                &new.payload,
            )
            .into(),
            body_hash: None,
            expires_at: dropped.map(|_| now.millis() / 1000 + retention),
            version: 1,
            delivery_settings: None,
            carried_by_queue: false,
            redelivery: None,
        });
        targets.push(EventTarget {
            endpoint_id: ep.id.clone(),
            delivery_id: id,
            outcome: match (dropped, planned_at > now) {
                (Some(_), _) => "dropped".into(),
                (None, true) => "scheduled".into(),
                (None, false) => "queued".into(),
            },
            reason: dropped.map(str::to_owned),
        });
    }
    // One envelope for all of them, stored once, in the event item.
    crate::domain::shared_body::share(&mut deliveries);
    let max_retention = new
        .endpoints
        .iter()
        .map(|e| e.policy.retention.settled_days)
        .max()
        .unwrap_or(30);
    let event = EventRecord {
        id: new.event_id.clone(),
        tenant_id: first.unwrap_or_else(|| courier_core::ids::TenantId::generate(now, &mut rng)),
        event_type: new.event_type.clone(),
        payload: new.payload.clone(),
        planned_at,
        created_at: now,
        targets,
        // The audit log, and the body the deliveries send, outlive the deliveries:
        // the longest ladder a policy may have (validated) plus retention.
        expires_at: Some(
            planned_at.millis() / 1000
                + (i64::from(max_retention) + courier_core::policy::MAX_LADDER_SPAN_DAYS as i64) * 86_400,
        ),
        application_id: None,
        channels: None,
        fanout: None,
        occurrence: None,
    };
    (event, deliveries)
}

/// Makes built deliveries of a schedule's occurrence what the occurrence says
/// (nothing for any other event): planned at the firing instant, so the horizon
/// counts from it even when the firing or a fan-out step runs after it; the
/// schedule's own delivery settings; and no body when the stored payload was
/// unusable, which the sender's pre-send check settles `payload_unavailable`. One
/// body text is shared by all of them.
pub fn carry_occurrence(event: &EventRecord, deliveries: &mut [Delivery]) {
    let Some(o) = &event.occurrence else { return };
    let body: std::sync::Arc<str> = match o.payload_unavailable {
        true => "".into(),
        false => envelope(
            &event.id,
            event.event_type.as_deref(),
            event.planned_at,
            Trigger::Initial,
            &event.payload,
        )
        .into(),
    };
    let settings = (!o.settings.is_empty()).then_some(o.settings);
    for d in deliveries.iter_mut() {
        d.planned_at = event.planned_at;
        d.body = body.clone();
        d.delivery_settings = settings;
        d.body_hash = None;
    }
    // The new body is the one the event item keeps; an empty one (payload
    // unavailable) stays with each delivery, whose pre-send check settles it.
    if !o.payload_unavailable {
        crate::domain::shared_body::share(deliveries);
    }
}

/// The queue message for a delivery's first attempt, carrying the delivery's body
/// when the event item holds it and it fits (`shared_body::for_message`).
pub fn first_message(d: &Delivery) -> DeliveryMessage {
    let mut m = bare_first_message(d);
    m.body = crate::domain::shared_body::for_message(d, &m);
    m
}

fn bare_first_message(d: &Delivery) -> DeliveryMessage {
    DeliveryMessage {
        v: 1,
        delivery_id: d.id.clone(),
        tenant_id: d.tenant_id.clone(),
        endpoint_id: d.endpoint_id.clone(),
        attempt: d.next_attempt,
        not_before: d.next_attempt_at.unwrap_or(d.planned_at),
        trigger: d.trigger,
        source_attempt_id: None,
        attempt_id: None,
        completion_check: false,
        body: None,
    }
}
