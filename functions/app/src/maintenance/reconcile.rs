//! The reconciler: a periodic safety net that puts overdue deliveries back on the
//! queue. A delivery whose next step is due but whose message was lost (a write
//! that failed between the outcome and the enqueue, a Scheduler invocation dropped,
//! a message deleted by hand) would otherwise wait for ever. Every unsettled,
//! not dead-lettered delivery has one entry in a small "due" index keyed by the
//! instant its next step is due ([`due_at`]); a run reads only the entries older
//! than `now - grace`, so an idle run costs one index query per shard and nothing
//! else, and the table is never scanned.
//!
//! Re-enqueueing is idempotent: the message asks for the delivery's `next_attempt`
//! with no pre-assigned attempt id, so if the original message turns up after all,
//! only one of the two wins the claim (`DeliveryStore::claim_attempt` refuses a
//! second claim of the same attempt while the first is live, and any claim once
//! the attempt is recorded), and the other is dropped as a duplicate.

use crate::domain::delivery_message::DeliveryMessage;
use crate::domain::model::Delivery;
use crate::pipeline::dead_letter::resume_message;
use crate::pipeline::planner::Planner;
use crate::ports::{Clock, DeliveryStore, OverdueIndex, PortError, PortResult};
use courier_core::Timestamp;
use courier_core::ids::DeliveryId;

/// The instant a delivery's next step is due, by which the due index orders it;
/// `None` when it has no entry: settled (nothing more to do) or dead-lettered
/// (waiting for a person's redrive, which gives it an entry again). A long-running
/// attempt waiting for its report is due when its completion check is.
pub fn due_at(d: &Delivery) -> Option<Timestamp> {
    if d.status.is_settled() || d.dead_lettered_at.is_some() {
        return None;
    }
    Some(match &d.awaiting {
        Some(aw) => aw.until,
        None => d.next_attempt_at.unwrap_or(d.planned_at),
    })
}

/// One page of a shard of the due index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReconcileSettings {
    /// How late a step must be before the reconciler acts (ms). Scheduler fires within
    /// about a minute, and a busy queue delays messages a little: a few minutes keeps
    /// the reconciler away from steps that are merely on their way.
    pub grace_ms: i64,
    /// Most deliveries one run re-enqueues (bounds a run's cost and duration; the
    /// next run goes on with the rest). Shared out evenly over the index's shards,
    /// so one busy shard cannot keep a run from the others.
    pub max_per_run: u32,
    /// Most entries one run reads per shard, requeued or left alone (a live claim,
    /// a step that moved on): it pages past those up to this bound.
    pub max_examined_per_shard: u32,
}

impl Default for ReconcileSettings {
    fn default() -> Self {
        ReconcileSettings {
            grace_ms: 5 * 60 * 1000,
            max_per_run: 100,
            max_examined_per_shard: 100,
        }
    }
}

/// What one run did, for its log line and the bench.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReconcileReport {
    /// Entries the index returned.
    pub examined: usize,
    /// Deliveries put back on their way.
    pub requeued: Vec<DeliveryId>,
    /// Entries that were not overdue on a fresh read (moved on, settled, claimed).
    pub skipped: usize,
    /// Deliveries whose re-read or enqueue failed (the next run tries again).
    pub failed: usize,
}

/// Why an overdue entry is left alone on a fresh read, if it is: a live claim, a
/// step that moved on, or a hold by the endpoint's limits whose message is on
/// the queue until `throttled_until`.
fn leave_alone(d: &Delivery, before: Timestamp, now: Timestamp) -> bool {
    let live_claim = d.claim.as_ref().is_some_and(|c| c.lease_until > now);
    let held = d.throttled_until.is_some_and(|until| until >= before);
    live_claim || held || due_at(d).is_none_or(|due| due >= before)
}

/// The shard a run starts with: one further each minute, so that when a run ends
/// early (a failure, the Lambda's time) the next does not favour the same shards.
fn first_shard(now: Timestamp, shards: u32) -> u32 {
    (now.millis().max(0) / 60_000 % i64::from(shards.max(1))) as u32
}

/// The message that moves an overdue delivery on: its completion check when a
/// long-running attempt waits for a report, else its next attempt, due now.
pub fn requeue_message(d: &Delivery, now: Timestamp) -> DeliveryMessage {
    match &d.awaiting {
        Some(aw) => DeliveryMessage {
            v: 1,
            delivery_id: d.id.clone(),
            tenant_id: d.tenant_id.clone(),
            endpoint_id: d.endpoint_id.clone(),
            attempt: aw.number,
            not_before: aw.until.min(now),
            trigger: aw.trigger,
            source_attempt_id: None,
            attempt_id: Some(aw.attempt_id.clone()),
            completion_check: true,
            body: None,
        },
        None => resume_message(d, now),
    }
}

/// Re-reads one overdue entry's delivery and puts it back on its way unless it is
/// to be left alone; answers whether it was requeued. The entry then moves to
/// `now`, so the next runs leave it for a grace: the message just sent is on its
/// way, and a second copy would start a chain of duplicates.
async fn requeue_one(
    index: &dyn OverdueIndex,
    store: &dyn DeliveryStore,
    planner: &Planner,
    id: &DeliveryId,
    before: Timestamp,
    now: Timestamp,
    report: &mut ReconcileReport,
) -> bool {
    let d = match store.get_delivery(id).await {
        Ok(Some(d)) => d,
        Ok(None) => {
            report.skipped += 1;
            return false;
        }
        Err(e) => {
            tracing::warn!(delivery_id = %id, error = %e, "reconciler could not read an overdue delivery");
            report.failed += 1;
            return false;
        }
    };
    if leave_alone(&d, before, now) {
        report.skipped += 1;
        return false;
    }
    match planner.plan(requeue_message(&d, now), now).await {
        Ok(_) => {
            tracing::warn!(delivery_id = %id, next_attempt = d.next_attempt, "overdue delivery re-enqueued");
            report.requeued.push(id.clone());
            // A failure here costs at most one more copy a run later, which the
            // claim drops.
            if let Err(e) = index.move_due(id, now).await {
                tracing::warn!(delivery_id = %id, error = %e, "reconciler could not move a requeued entry");
            }
            true
        }
        Err(e) => {
            tracing::warn!(delivery_id = %id, error = %e, "reconciler could not re-enqueue an overdue delivery");
            report.failed += 1;
            false
        }
    }
}

/// One reconciler run at `clock.now()`.
pub async fn reconcile(
    index: &dyn OverdueIndex,
    store: &dyn DeliveryStore,
    planner: &Planner,
    clock: &dyn Clock,
    settings: ReconcileSettings,
) -> PortResult<ReconcileReport> {
    let now = clock.now();
    let before = now.plus_millis(-settings.grace_ms.max(0));
    let shards = index.due_shards().max(1);
    // Every shard gets its share whatever the others hold: entries that stay
    // overdue without needing a message cannot fill a run.
    let quota = settings.max_per_run.div_ceil(shards).max(1);
    let mut report = ReconcileReport::default();
    let start = first_shard(now, shards);
    for i in 0..shards {
        let shard = (start + i) % shards;
        let mut requeued = 0;
        let mut examined = 0;
        let mut after: Option<String> = None;
        'shard: loop {
            let want = (quota - requeued).min(settings.max_examined_per_shard.saturating_sub(examined));
            if want == 0 {
                break;
            }
            let page = index.overdue_page(shard, before, after.as_deref(), want).await?;
            for id in page.ids {
                examined += 1;
                report.examined += 1;
                if requeue_one(index, store, planner, &id, before, now, &mut report).await {
                    requeued += 1;
                    if requeued == quota {
                        break 'shard;
                    }
                }
            }
            match page.next {
                Some(next) => after = Some(next),
                None => break,
            }
        }
    }
    if report.failed > 0 && report.requeued.is_empty() {
        return Err(PortError::Unavailable(
            format!(
                "reconciler: {} overdue deliveries could not be re-enqueued",
                report.failed
            )
            .into(),
        ));
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::model::{AwaitingCompletion, ClaimRecord, DeliveryStatus};
    use crate::testing::memory::{ManualClock, MemoryQueue, MemoryStore, MemoryTimer};
    use courier_core::ids::{AttemptId, EndpointId, EventId, TenantId};
    use std::sync::Arc;

    const T0: i64 = 1_800_000_000_000;

    /// A valid id of kind `prefix` ending in `last`.
    fn body(last: char) -> String {
        format!("01JAAAAAAAAAAAAAAAAAAAAAA{last}")
    }

    fn dlv(last: char) -> DeliveryId {
        DeliveryId::parse(&format!("dlv_{}", body(last))).unwrap()
    }

    fn delivery(last: char, due: i64) -> Delivery {
        Delivery {
            id: dlv(last),
            tenant_id: TenantId::parse(&format!("ten_{}", body('T'))).unwrap(),
            event_id: EventId::parse(&format!("evt_{}", body('E'))).unwrap(),
            endpoint_id: EndpointId::parse(&format!("ep_{}", body('P'))).unwrap(),
            webhook_id: dlv(last),
            status: DeliveryStatus::Retrying,
            dead_reason: None,
            trigger: crate::domain::delivery_message::Trigger::Initial,
            attempt_count: 1,
            next_attempt: 2,
            receiver_failures: 1,
            next_attempt_at: Some(Timestamp(due)),
            last_planned: false,
            claim: None,
            created_at: Timestamp(T0 - 3_600_000),
            planned_at: Timestamp(T0 - 3_600_000),
            settled_at: None,
            dead_lettered_at: None,
            awaiting: None,
            throttled_until: None,
            body: Arc::from("{}"),
            body_hash: None,
            expires_at: None,
            version: 3,

            delivery_settings: None,

            carried_by_queue: false,
            redelivery: None,
        }
    }

    fn att(last: char) -> AttemptId {
        AttemptId::parse(&format!("att_{}", body(last))).unwrap()
    }

    struct World {
        clock: Arc<ManualClock>,
        store: Arc<MemoryStore>,
        queue: Arc<MemoryQueue>,
        planner: Planner,
    }

    fn world() -> World {
        let clock = Arc::new(ManualClock::new(Timestamp(T0)));
        let store = Arc::new(MemoryStore::new(clock.clone()));
        let queue = Arc::new(MemoryQueue::new(clock.clone()));
        let planner = Planner {
            queue: queue.clone(),
            timer: Arc::new(MemoryTimer::new()),
            settings: Default::default(),
        };
        World {
            clock,
            store,
            queue,
            planner,
        }
    }

    async fn run(w: &World) -> ReconcileReport {
        reconcile(
            w.store.as_ref(),
            w.store.as_ref(),
            &w.planner,
            w.clock.as_ref(),
            ReconcileSettings::default(),
        )
        .await
        .expect("run")
    }

    #[test]
    fn due_at_follows_the_next_step_and_leaves_settled_and_dead_lettered_out() {
        let d = delivery('A', T0);
        assert_eq!(due_at(&d), Some(Timestamp(T0)));
        let mut pending = d.clone();
        pending.next_attempt_at = None;
        assert_eq!(due_at(&pending), Some(pending.planned_at));
        let mut settled = d.clone();
        settled.status = DeliveryStatus::Failed;
        assert_eq!(due_at(&settled), None);
        let mut dead = d.clone();
        dead.dead_lettered_at = Some(Timestamp(T0));
        assert_eq!(due_at(&dead), None);
        let mut waiting = d;
        waiting.awaiting = Some(AwaitingCompletion {
            attempt_id: att('1'),
            number: 1,
            trigger: crate::domain::delivery_message::Trigger::Initial,
            started_at: Timestamp(T0),
            until: Timestamp(T0 + 60_000),
            duration_ms: 5,
            token_hash: "h".into(),
        });
        assert_eq!(due_at(&waiting), Some(Timestamp(T0 + 60_000)));
        let m = requeue_message(&waiting, Timestamp(T0 + 600_000));
        assert!(m.completion_check);
        assert_eq!((m.attempt, m.not_before), (1, Timestamp(T0 + 60_000)));
        assert_eq!(m.attempt_id, Some(att('1')));
    }

    #[tokio::test]
    async fn only_steps_overdue_by_more_than_the_grace_are_requeued_once_per_run() {
        let w = world();
        let grace = ReconcileSettings::default().grace_ms;
        let overdue = delivery('Q', T0 - grace - 1);
        let recent = delivery('R', T0 - grace + 1_000);
        let future = delivery('F', T0 + 60_000);
        let mut claimed = delivery('C', T0 - grace - 1);
        claimed.claim = Some(ClaimRecord {
            number: 2,
            attempt_id: att('V'),
            token: "live-claim".into(),
            started_at: Timestamp(T0 - 1_000),
            lease_until: Timestamp(T0 + 10_000),
        });
        let mut settled = delivery('S', T0 - grace - 1);
        settled.status = DeliveryStatus::Succeeded;
        for d in [&overdue, &recent, &future, &claimed, &settled] {
            w.store.create_delivery(d).await.expect("create");
        }
        let report = run(&w).await;
        assert_eq!(report.requeued, vec![overdue.id.clone()]);
        // The index held the overdue and the claimed one; the claim is live.
        assert_eq!((report.examined, report.skipped, report.failed), (2, 1, 0));
        let sent = w.queue.waiting();
        assert_eq!(sent.len(), 1);
        let m = &sent[0].message;
        assert_eq!(
            (
                &m.delivery_id,
                m.attempt,
                m.trigger,
                m.not_before,
                m.attempt_id.as_ref()
            ),
            (
                &overdue.id,
                2,
                crate::domain::delivery_message::Trigger::Retry,
                Timestamp(T0),
                None
            )
        );
        assert_eq!(sent[0].delay_seconds, 0);
    }

    #[tokio::test]
    async fn a_requeued_delivery_waits_out_its_grace_and_a_held_one_is_left_alone() {
        let w = world();
        let grace = ReconcileSettings::default().grace_ms;
        let lost = delivery('Q', T0 - 3_600_000);
        let held = delivery('H', T0 - 3_600_000);
        for d in [&lost, &held] {
            w.store.create_delivery(d).await.expect("create");
        }
        let until = Timestamp(T0 + 60_000);
        assert!(
            w.store
                .note_hold(&held.id, 2, until, Timestamp(T0))
                .await
                .expect("hold")
        );
        assert_eq!(run(&w).await.requeued, vec![lost.id.clone()]);
        w.clock.set(Timestamp(T0 + grace));
        assert_eq!(run(&w).await.requeued, Vec::<DeliveryId>::new(), "inside the grace");
        // Once the grace is over, each is overdue again: the requeued message and
        // the held one were lost too.
        w.clock.set(Timestamp(T0 + 60_000 + grace + 1));
        let mut again = run(&w).await.requeued;
        again.sort();
        assert_eq!(again, vec![held.id.clone(), lost.id.clone()]);
        assert_eq!(w.queue.waiting().len(), 3);
    }

    #[tokio::test]
    async fn the_memory_store_keeps_the_due_index_contract() {
        let clock = Arc::new(ManualClock::new(Timestamp(T0)));
        let store = MemoryStore::new(clock.clone());
        crate::testing::contract::overdue_index_contract(&store, &clock).await;
    }

    #[tokio::test]
    async fn an_idle_run_asks_the_index_once_and_sends_nothing() {
        let w = world();
        w.store
            .create_delivery(&delivery('F', T0 + 60_000))
            .await
            .expect("create");
        let report = run(&w).await;
        assert_eq!(report, ReconcileReport::default());
        assert!(w.queue.is_empty());
    }

    #[tokio::test]
    async fn a_failed_enqueue_is_reported_and_retried_by_the_next_run() {
        let w = world();
        let d = delivery('Q', T0 - 3_600_000);
        w.store.create_delivery(&d).await.expect("create");
        w.queue.fail_next(1);
        let err = reconcile(
            w.store.as_ref(),
            w.store.as_ref(),
            &w.planner,
            w.clock.as_ref(),
            ReconcileSettings::default(),
        )
        .await
        .expect_err("the only re-enqueue failed");
        assert!(matches!(err, PortError::Unavailable(_)), "{err:?}");
        assert!(w.queue.is_empty());
        assert_eq!(run(&w).await.requeued, vec![d.id]);
    }
}
