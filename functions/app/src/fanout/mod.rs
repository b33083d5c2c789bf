//! Fan-out: an event sent with a type and no endpoint goes to every endpoint whose
//! subscription wants it. The subscription index is read key by key (the event
//! type's lookup keys), so the reads grow with the endpoints an event matches, not
//! with the endpoints that exist. Small fan-outs are written in the ingest request;
//! larger ones by [`FanoutWorker`] steps from the delivery queue, a page at a time.
//! Fan-out delivery ids are derived from (event, endpoint), so a redone step writes
//! each delivery once and re-enqueues harmlessly (the sender's claim drops a
//! duplicate message).

pub mod event_deliveries;
pub mod operational;

use crate::domain::delivery_message::Trigger;
use crate::domain::fanout_message::{FanoutCursor, FanoutStep, WATCH_DELAY_SECONDS};
use crate::domain::model::{Delivery, Endpoint, EndpointState, EventRecord, FanoutLink, FanoutProgress, FanoutStatus};
use crate::ingest::pipeline::Pipeline;
use crate::ingest::{self, NewEvent};
use crate::pipeline::planner::Planner;
use crate::ports::FanoutFaults;
use crate::ports::{
    Clock, DeliveryStore, FanoutQueue, PortError, PortResult, Random, SubscriptionEntry, SubscriptionIndex,
};
use courier_core::Timestamp;
use courier_core::ids::{DeliveryId, EndpointId, EventId, TenantId};
use courier_core::rng::RandomSource;
use courier_core::subscription::{self, lookup_keys};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// Most matching endpoints whose deliveries ingest writes in the request (the same
/// as the most endpoints an event may name); more go through fan-out steps.
pub const SYNC_LIMIT: usize = 50;
/// Matching endpoints per fan-out step.
pub const STEP_PAGE: usize = 100;
/// Matches ingest counts beyond its first page at most, so a large fan-out's ingest
/// reads a bounded part of the index; the steps raise `matched` past it.
pub const COUNT_LIMIT: u64 = 10_000;
/// Deliveries a fan-out step writes at once.
const WRITE_CONCURRENCY: usize = 10;

/// The index keys an endpoint is filed under: none when revoked (it never takes
/// events again), else one per type filter (or the all-types key). A stored filter
/// that no longer parses is left out rather than failing every write of the
/// endpoint.
pub fn index_keys_of(e: &Endpoint) -> Vec<String> {
    if e.state == EndpointState::Revoked {
        return Vec::new();
    }
    let filters: Option<Vec<_>> = e
        .filter_types
        .as_ref()
        .map(|f| f.iter().filter_map(|t| subscription::parse_filter(t).ok()).collect());
    subscription::index_keys(filters.as_deref())
}

/// The index entries of an endpoint, one per key.
pub fn entries_of(e: &Endpoint) -> Vec<(String, SubscriptionEntry)> {
    let keys = index_keys_of(e);
    keys.iter()
        .map(|k| {
            (
                k.clone(),
                SubscriptionEntry {
                    endpoint_id: e.id.clone(),
                    keys: keys.clone(),
                    channels: e.channels.clone(),
                },
            )
        })
        .collect()
}

/// Whether an entry read under `lookup[at]` is a match counted there: the
/// endpoint's channels accept the event, and no earlier lookup key files the same
/// endpoint (an endpoint subscribed to `invoice.*` and `invoice.paid` is counted
/// once, under the first).
pub fn counts_here(entry: &SubscriptionEntry, lookup: &[String], at: usize, event_channels: &[String]) -> bool {
    let earlier = lookup.iter().take(at).any(|k| entry.keys.contains(k));
    !earlier && subscription::wants(None, entry.channels.as_deref(), "", event_channels)
}

/// Random bits from a hash, for ids that must come out the same every time.
struct HashRng {
    state: [u8; 32],
    taken: usize,
}

impl RandomSource for HashRng {
    fn next_u64(&mut self) -> u64 {
        if self.taken + 8 > self.state.len() {
            self.state = Sha256::digest(self.state).into();
            self.taken = 0;
        }
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.state[self.taken..self.taken + 8]);
        self.taken += 8;
        u64::from_be_bytes(b)
    }
}

/// The delivery id a fan-out gives `endpoint` for `event`: the event's creation
/// time, then bits of SHA-256(seed, event, endpoint). The seed is the event's secret,
/// so the ids of other endpoints' deliveries cannot be told from one.
pub fn delivery_id(seed: u64, event: &EventId, endpoint: &EndpointId, created_at: Timestamp) -> DeliveryId {
    let mut h = Sha256::new();
    h.update(seed.to_be_bytes());
    h.update(event.as_str().as_bytes());
    h.update(b"#");
    h.update(endpoint.as_str().as_bytes());
    let mut rng = HashRng {
        state: h.finalize().into(),
        taken: 0,
    };
    DeliveryId::generate(created_at, &mut rng)
}

/// Who an event is routed to: the tenant, the application (none: the tenant's
/// endpoints without one), the type and the event's channels.
#[derive(Debug, Clone, Copy)]
pub struct Route<'a> {
    pub tenant: &'a TenantId,
    pub application: Option<&'a str>,
    pub event_type: &'a str,
    pub channels: &'a [String],
}

impl<'a> Route<'a> {
    /// The route an event was stored with.
    pub fn of(event: &'a EventRecord) -> Option<Self> {
        Some(Route {
            tenant: &event.tenant_id,
            application: event.application_id.as_deref(),
            event_type: event.event_type.as_deref()?,
            channels: event.channels.as_deref().unwrap_or_default(),
        })
    }
}

/// Matching endpoint ids from a cursor on, and the cursor after them (none: the
/// index has no more).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matches {
    pub ids: Vec<EndpointId>,
    pub next: Option<FanoutCursor>,
}

/// Reads the index from `cursor` until `limit` matching endpoints are found or
/// every lookup key is read.
pub async fn walk(
    index: &dyn SubscriptionIndex,
    route: Route<'_>,
    cursor: &FanoutCursor,
    limit: usize,
) -> PortResult<Matches> {
    let keys = lookup_keys(route.event_type);
    let mut at = cursor.key as usize;
    let mut after = cursor.after.clone();
    let mut ids = Vec::new();
    while at < keys.len() {
        let want = (limit - ids.len()).clamp(1, 1000);
        let entries = index
            .subscriptions(route.tenant, route.application, &keys[at], after.as_ref(), want as u32)
            .await?;
        let exhausted = entries.len() < want;
        for entry in entries {
            after = Some(entry.endpoint_id.clone());
            if counts_here(&entry, &keys, at, route.channels) {
                ids.push(entry.endpoint_id);
                if ids.len() == limit {
                    let next = FanoutCursor {
                        key: at as u32,
                        after,
                        processed: cursor.processed + ids.len() as u64,
                    };
                    return Ok(Matches { ids, next: Some(next) });
                }
            }
        }
        if exhausted {
            at += 1;
            after = None;
        }
    }
    Ok(Matches { ids, next: None })
}

/// Counts every matching endpoint from `cursor` on (keys read a thousand at a time).
pub async fn count_from(index: &dyn SubscriptionIndex, route: Route<'_>, cursor: FanoutCursor) -> PortResult<u64> {
    count_up_to(index, route, cursor, u64::MAX).await
}

/// Counts the matching endpoints from `cursor` on, stopping at `limit`: at most
/// `limit / 1000 + 1` index reads, whatever the fan-out's size.
pub async fn count_up_to(
    index: &dyn SubscriptionIndex,
    route: Route<'_>,
    cursor: FanoutCursor,
    limit: u64,
) -> PortResult<u64> {
    let mut total = 0;
    let mut next = Some(cursor);
    while let Some(c) = next {
        let want = (limit - total).min(1000);
        if want == 0 {
            break;
        }
        let m = walk(index, route, &c, want as usize).await?;
        total += m.ids.len() as u64;
        next = m.next;
    }
    Ok(total)
}

/// Whether the endpoint, as stored now, wants an event on `route`: its
/// application, type filter and channels (an index entry left behind by a change
/// in flight must not route an event to an endpoint that no longer wants it).
pub fn endpoint_wants(e: &Endpoint, route: Route<'_>) -> bool {
    let filters: Option<Vec<_>> = e
        .filter_types
        .as_ref()
        .map(|f| f.iter().filter_map(|t| subscription::parse_filter(t).ok()).collect());
    e.application_id.as_deref() == route.application
        && subscription::wants(
            filters.as_deref(),
            e.channels.as_deref(),
            route.event_type,
            route.channels,
        )
}

/// Whether the endpoint's subscription as it is now wants a stored event (replays
/// honour it): its type filter against the event's type (an untyped event matches
/// only an endpoint without one) and its channels against the event's.
pub fn wants_now(e: &Endpoint, event: &EventRecord) -> bool {
    let filters: Option<Vec<_>> = e
        .filter_types
        .as_ref()
        .map(|f| f.iter().filter_map(|t| subscription::parse_filter(t).ok()).collect());
    subscription::wants(
        filters.as_deref(),
        e.channels.as_deref(),
        event.event_type.as_deref().unwrap_or_default(),
        event.channels.as_deref().unwrap_or_default(),
    )
}

/// The endpoints of `ids` that take the event (missing, disabled and revoked ones,
/// and any whose subscription changed away from it, left out), in order.
pub async fn load_takers(
    index: &dyn SubscriptionIndex,
    route: Route<'_>,
    ids: &[EndpointId],
) -> PortResult<Vec<Endpoint>> {
    let mut out = Vec::with_capacity(ids.len());
    for chunk in ids.chunks(100) {
        out.extend(
            index.get_endpoints(route.tenant, chunk).await?.into_iter().filter(|e| {
                &e.tenant_id == route.tenant && e.state == EndpointState::Active && endpoint_wants(e, route)
            }),
        );
    }
    Ok(out)
}

/// The event's deliveries to `endpoints`, with the fan-out's derived ids.
pub fn build_deliveries(event: &EventRecord, seed: u64, endpoints: &[Endpoint], now: Timestamp) -> Vec<Delivery> {
    let ids = endpoints
        .iter()
        .map(|e| delivery_id(seed, &event.id, &e.id, event.created_at))
        .collect();
    let new = NewEvent {
        event_id: event.id.clone(),
        event_type: event.event_type.clone(),
        payload: event.payload.clone(),
        planned_at: Some(event.planned_at),
        endpoints,
        trigger: Trigger::Initial,
        webhook_ids: None,
        delivery_ids: Some(ids),
    };
    // The ids are all given, so no randomness is drawn.
    let mut deliveries = ingest::build(&new, now, &NoRandom).1;
    ingest::carry_occurrence(event, &mut deliveries);
    deliveries
}

struct NoRandom;
impl Random for NoRandom {
    fn next_u64(&self) -> u64 {
        0
    }
}

/// Who takes a new event routed by subscription, as the request (ingest, or a
/// schedule's firing) writes it: up to [`SYNC_LIMIT`] matching endpoints are loaded
/// with their derived delivery ids, to be written with the event; beyond that they
/// are only counted, and fan-out steps write them.
#[derive(Debug, Clone, PartialEq)]
pub struct FirstTakers {
    pub endpoints: Vec<Endpoint>,
    pub delivery_ids: Vec<DeliveryId>,
    pub progress: FanoutProgress,
}

/// Reads the index for a new event's first takers (see [`FirstTakers`]); `seed` is
/// the fan-out's secret for its delivery ids, `created_at` the event's creation.
pub async fn first_takers(
    index: &dyn SubscriptionIndex,
    route: Route<'_>,
    event_id: &EventId,
    seed: u64,
    created_at: Timestamp,
) -> PortResult<FirstTakers> {
    let first = walk(index, route, &FanoutCursor::default(), SYNC_LIMIT + 1).await?;
    let (endpoints, progress) = match first.next {
        None => {
            let endpoints = load_takers(index, route, &first.ids).await?;
            let matched = first.ids.len() as u64;
            let progress = FanoutProgress {
                status: FanoutStatus::Complete,
                matched,
                processed: matched,
                seed,
            };
            (endpoints, progress)
        }
        Some(next) => {
            // Bounded: beyond the limit `matched` is the number counted, and the
            // steps raise it as they pass it (exact once complete).
            let rest = count_up_to(index, route, next, COUNT_LIMIT).await?;
            let progress = FanoutProgress {
                status: FanoutStatus::InProgress,
                matched: first.ids.len() as u64 + rest,
                processed: 0,
                seed,
            };
            (Vec::new(), progress)
        }
    };
    let delivery_ids = endpoints
        .iter()
        .map(|e| delivery_id(seed, event_id, &e.id, created_at))
        .collect();
    Ok(FirstTakers {
        endpoints,
        delivery_ids,
        progress,
    })
}

/// Queues the first step of a stepped fan-out (nothing for any other event).
pub async fn start_steps(steps: &dyn FanoutQueue, event: &EventRecord) -> PortResult<()> {
    if event
        .fanout
        .as_ref()
        .is_some_and(|f| f.status == FanoutStatus::InProgress)
    {
        let step = FanoutStep::new(event.tenant_id.clone(), event.id.clone(), FanoutCursor::default());
        steps.send_fanout(&step, 0).await?;
        steps.send_fanout(&step.watch(), WATCH_DELAY_SECONDS).await?;
    }
    Ok(())
}

/// What one fan-out step did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepDone {
    /// Deliveries this step wrote (a redone step writes fewer: the rest exist).
    pub created: usize,
    /// Matching endpoints this step covered.
    pub matched: usize,
    /// The next step's cursor, or none when the fan-out is complete.
    pub next: Option<FanoutCursor>,
}

#[derive(Debug, thiserror::Error)]
pub enum FanoutError {
    #[error("fan-out of event {0}: the event does not exist")]
    EventMissing(EventId),
    #[error("fan-out of event {0}: the event has no type or fan-out record")]
    NotFanout(EventId),
    #[error("fan-out storage: {0}")]
    Store(#[from] PortError),
    #[error("fault injected: fan-out step crashed")]
    InjectedCrash,
}

/// Works fan-out steps from the delivery queue (in the sender Lambda).
pub struct FanoutWorker {
    pub index: Arc<dyn SubscriptionIndex>,
    pub deliveries: Arc<dyn DeliveryStore>,
    pub planner: Planner,
    pub steps: Arc<dyn FanoutQueue>,
    pub clock: Arc<dyn Clock>,
    pub faults: Arc<dyn FanoutFaults>,
    /// Matching endpoints per step ([`STEP_PAGE`]; tests use fewer).
    pub page: usize,
    /// The console's address, for the links operational events carry (they are
    /// routed by these steps; `COURIER_CONSOLE_URL`).
    pub console_url: Option<String>,
}

impl FanoutWorker {
    /// Where operational events go: this worker's store and steps.
    pub fn notifier(&self) -> crate::fanout::operational::Notifier<'_> {
        crate::fanout::operational::Notifier {
            deliveries: self.deliveries.as_ref(),
            steps: self.steps.as_ref(),
            console_url: self.console_url.as_deref(),
        }
    }
}

impl FanoutWorker {
    /// One page: write the page's deliveries (an existing one is a redone step's,
    /// left as it is), queue their first attempts, record the progress, then queue
    /// the next step or mark the fan-out complete. Any failure leaves the message
    /// to be redone, which writes nothing twice.
    pub async fn step(&self, step: &FanoutStep) -> Result<StepDone, FanoutError> {
        let event = self
            .deliveries
            .get_event(&step.tenant_id, &step.event_id)
            .await?
            .ok_or_else(|| FanoutError::EventMissing(step.event_id.clone()))?;
        let (Some(route), Some(progress)) = (Route::of(&event), event.fanout.clone()) else {
            return Err(FanoutError::NotFanout(step.event_id.clone()));
        };
        let now = self.clock.now();
        if step.watch {
            if progress.status == FanoutStatus::Complete || progress.processed > step.cursor.processed {
                // Its step was done: the fan-out moves.
                return Ok(StepDone {
                    created: 0,
                    matched: 0,
                    next: None,
                });
            }
            // No step for the watch's delay: told once per position, then done here.
            if !courier_core::operational::is_reserved(route.event_type) {
                let notice = crate::fanout::operational::Notice::fanout_stalled(&event, &progress, now);
                self.notifier().emit_or_warn(&notice).await;
            }
        }
        let page = walk(self.index.as_ref(), route, &step.cursor, self.page.max(1)).await?;
        // The step's link first (the same key when redone), so every delivery it
        // writes is named for the event's delivery list whatever happens next.
        if !page.ids.is_empty() {
            self.deliveries
                .put_fanout_link(&FanoutLink {
                    tenant_id: event.tenant_id.clone(),
                    event_id: event.id.clone(),
                    start: step.cursor.processed,
                    endpoint_ids: page.ids.clone(),
                    expires_at: event.expires_at,
                })
                .await?;
        }
        let endpoints = load_takers(self.index.as_ref(), route, &page.ids).await?;
        let mut deliveries = build_deliveries(&event, progress.seed, &endpoints, now);
        // Added to a stored event, they keep their own body (the event item holds
        // none), so their first messages do not carry it either.
        for d in &mut deliveries {
            d.body_hash = None;
        }
        // Written WRITE_CONCURRENCY at a time (a page's writes one after another
        // made a step of 100 take seconds); the crash seam still stops the step
        // after exactly the writes before the one it names.
        let mut created = 0;
        for (c, chunk) in deliveries.chunks(WRITE_CONCURRENCY).enumerate() {
            let base = c * WRITE_CONCURRENCY;
            let crash_at = (0..chunk.len()).find(|j| self.faults.crash_after_writes(step, base + j));
            let writing = &chunk[..crash_at.unwrap_or(chunk.len())];
            let results = futures_util::future::join_all(
                writing.iter().map(|d| self.deliveries.create_event_delivery(&event, d)),
            )
            .await;
            for r in results {
                match r {
                    Ok(()) => created += 1,
                    // Written by an earlier try of this step: queued again below,
                    // which the sender's claim makes harmless.
                    Err(PortError::Conflict(_)) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            if crash_at.is_some() {
                return Err(FanoutError::InjectedCrash);
            }
        }
        let pipeline = Pipeline {
            store: self.deliveries.as_ref(),
            planner: &self.planner,
        };
        if let Err(e) = pipeline.enqueue_waiting_batched(&deliveries, now).await {
            // The unqueued ones are marked dead-lettered (redrive resumes them); the
            // fan-out goes on.
            tracing::warn!(event_id = %event.id, error = %e, "some fan-out deliveries could not be queued");
        }
        let processed = step.cursor.processed + page.ids.len() as u64;
        let status = if page.next.is_some() {
            FanoutStatus::InProgress
        } else {
            FanoutStatus::Complete
        };
        let new_progress = FanoutProgress {
            status,
            matched: progress.matched.max(processed),
            processed,
            seed: progress.seed,
        };
        // Progress first: a crash before the next step is queued redoes this step,
        // which records the same progress and queues the next step then.
        self.deliveries
            .set_fanout_progress(&step.tenant_id, &step.event_id, &new_progress)
            .await?;
        if let Some(next) = &page.next {
            let next = FanoutStep::new(step.tenant_id.clone(), step.event_id.clone(), next.clone());
            self.steps.send_fanout(&next, 0).await?;
            self.steps.send_fanout(&next.watch(), WATCH_DELAY_SECONDS).await?;
        }
        Ok(StepDone {
            created,
            matched: page.ids.len(),
            next: page.next,
        })
    }
}
