//! Ingest: an event for one or more endpoints becomes one delivery per endpoint,
//! written atomically, and attempt 1 of each is queued (just before the write when
//! it is due now, see [`send_ahead`]; after it, or scheduled, otherwise). Endpoints that cannot take events right now (gavAI breaker open,
//! SmartChat paused/disabled) get a `dropped` delivery, visible in the audit log.

pub mod batch;
pub mod payload_schema;
pub mod request_reads;

use crate::domain::message::{QueueMessage, Trigger};
use crate::domain::model::{Delivery, DeliveryStatus, Endpoint, EventRecord, EventTarget};
use crate::pipeline::planner::Planner;
use crate::ports::PortRng;
use crate::ports::{DeliveryStore, PortError, Random};
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
pub fn first_message(d: &Delivery) -> QueueMessage {
    let mut m = bare_first_message(d);
    m.body = crate::domain::shared_body::for_message(d, &m);
    m
}

fn bare_first_message(d: &Delivery) -> QueueMessage {
    QueueMessage {
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

/// How long a first message sent ahead of its delivery's write may find no
/// delivery: longer than any function that sends ahead can run (the API 10 s, the
/// sender 150 s when it fires a schedule), so a message that still finds nothing
/// after it belongs to a write that never happened and is dropped.
pub const AHEAD_WINDOW_MS: i64 = 300_000;

/// Longest wait between two looks for a delivery not written yet.
const AHEAD_RECHECK_MAX_SECONDS: i64 = 60;

/// Sends attempt 1 of each delivery due now before anything is written, and marks
/// those sent `carried_by_queue`: their creating write then gives them no due-index
/// entry, because the message in the queue is what moves them on (docs/cost.md,
/// docs/reliability.md). A delivery whose send fails is left unmarked and gets its
/// entry and the usual send after the write ([`enqueue_waiting`]). Nothing is sent
/// ahead through a queue that only holds messages back (batch ingest's), and a
/// delivery planned for later keeps the usual order.
pub async fn send_ahead(planner: &Planner, deliveries: &mut [Delivery], now: Timestamp) {
    if !planner.queue.sends_at_once() {
        return;
    }
    for d in deliveries.iter_mut().filter(|d| goes_ahead(d, now)) {
        let sent = planner.queue.send(&first_message(d), 0).await;
        note_sent_ahead(d, sent);
    }
}

/// Marks `d` queued ahead when its first message's send ahead succeeded; a failed
/// one leaves it to be written with its due entry and sent after the write.
pub(crate) fn note_sent_ahead(d: &mut Delivery, sent: Result<(), PortError>) {
    match sent {
        Ok(()) => d.carried_by_queue = true,
        Err(e) => {
            tracing::warn!(delivery_id = %d.id, error = %e, "could not queue a first message ahead of its write")
        }
    }
}

/// For a message whose delivery does not exist (yet): when to look again, if it
/// may have been sent ahead of the delivery's write ([`send_ahead`]) and the write
/// could still come. Only an initial first message, and only within
/// [`AHEAD_WINDOW_MS`] of its `notBefore` (the instant ingest planned it for); the
/// waits grow with the message's age, from 1 s to a minute.
pub fn recheck_unwritten(m: &QueueMessage, now: Timestamp) -> Option<Timestamp> {
    let age = now.millis_since(m.not_before);
    if !may_precede_write(m) || !(0..AHEAD_WINDOW_MS).contains(&age) {
        return None;
    }
    Some(now.plus_secs((age / 1000).clamp(1, AHEAD_RECHECK_MAX_SECONDS)))
}

/// Whether `d`'s first message may go out ahead of its write: a new, initial
/// delivery due now (one planned for later is queued, or timed, after the write).
pub fn goes_ahead(d: &Delivery, now: Timestamp) -> bool {
    d.status == DeliveryStatus::Pending
        && d.next_attempt_at.is_none_or(|t| t <= now)
        && d.attempt_count == 0
        && d.trigger == Trigger::Initial
}

/// How long to wait before claiming `m` so that it is `min_age_ms` old (counted
/// from its `notBefore`, the instant ingest planned it for): a first message sent
/// ahead of its write and handed over at once would otherwise claim a delivery
/// the API is still writing, a claim refused and billed. 0 for any other message
/// and for one that old already.
pub fn young_first_wait_ms(m: &QueueMessage, now: Timestamp, min_age_ms: u64) -> u64 {
    let age = now.millis_since(m.not_before);
    match may_precede_write(m) && age >= 0 {
        true => min_age_ms.saturating_sub(age as u64),
        false => 0,
    }
}

/// Whether `m` is a message [`send_ahead`] makes: an initial first message with no
/// pre-assigned attempt.
fn may_precede_write(m: &QueueMessage) -> bool {
    m.attempt == 1
        && m.trigger == Trigger::Initial
        && m.attempt_id.is_none()
        && m.source_attempt_id.is_none()
        && !m.completion_check
}

/// Queues attempt 1 of every delivery still waiting for it. Safe to repeat: a
/// duplicate message is dropped by the sender's claim. A delivery whose message cannot
/// be queued is marked dead-lettered (so the API shows it and `redrive` resumes it),
/// and the others are still queued: one failed enqueue never leaves the rest of an
/// event's deliveries without a message or a mark. The first error is returned once
/// every delivery has been tried.
pub async fn enqueue_waiting(
    store: &dyn DeliveryStore,
    planner: &Planner,
    deliveries: &[Delivery],
    now: Timestamp,
) -> Result<(), PortError> {
    let mut first_error = None;
    for d in deliveries {
        let waiting = matches!(d.status, DeliveryStatus::Pending | DeliveryStatus::Scheduled) && d.attempt_count == 0;
        if waiting && !d.carried_by_queue {
            let m = first_message(d);
            if let Err(e) = planner.plan(m.clone(), now).await {
                if let Err(mark) = crate::pipeline::dead_letter::mark(store, &m, now).await {
                    tracing::error!(delivery_id = %d.id, error = %mark, "could not mark an unqueued delivery");
                }
                first_error.get_or_insert(e);
            }
        }
    }
    first_error.map_or(Ok(()), Err)
}

/// Counts the deliveries an event's write dropped at once into their endpoints'
/// statistics (`crate::domain::stats`); call once, after the write that created them (a
/// repeated write that finds the event stored counts nothing). A failed count is
/// logged and lost, never the event.
pub async fn count_dropped(store: &dyn DeliveryStore, deliveries: &[Delivery], now: Timestamp) {
    let Some(stats) = store.stats() else { return };
    for d in deliveries.iter().filter(|d| d.status == DeliveryStatus::Dropped) {
        if let Some(tally) = crate::domain::stats::StatsTally::of_settled(d, now) {
            crate::pipeline::statistics::add_logged(stats, &tally).await;
        }
    }
}

/// Queues the deliveries due now ([`send_ahead`]), writes the event and its
/// deliveries, then queues the rest.
pub async fn store_and_enqueue(
    store: &dyn DeliveryStore,
    planner: &Planner,
    event: &EventRecord,
    deliveries: &[Delivery],
    now: Timestamp,
) -> Result<(), PortError> {
    let mut deliveries = deliveries.to_vec();
    send_ahead(planner, &mut deliveries, now).await;
    store.create_event(event, &deliveries).await?;
    count_dropped(store, &deliveries, now).await;
    enqueue_waiting(store, planner, &deliveries, now).await
}
