//! The sender Lambda's handler: an SQS batch in, one attempt per message worked
//! concurrently, and the ids of messages to retry out (`ReportBatchItemFailures`).
//! Shared by the Lambda binary and the local runner, which feeds it real SQS event
//! shapes.

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent, SqsMessage};
use courier_app::delivery::metrics::StepSample;
use courier_app::delivery::{EndpointCache, Sender, StepError, StepOutcome};
use courier_app::domain::fanout_message::FanoutStep;
use courier_app::domain::queue_message::{Message, MessageError};
use courier_app::domain::schedule::FireMessage;
use courier_app::schedules::fire::ScheduleFirer;
use futures_util::stream::FuturesOrdered;
use futures_util::{FutureExt, StreamExt};
use log_format::{JsonLine, JsonMembers};
use std::panic::AssertUnwindSafe;
use std::sync::Mutex;
use tracing::Instrument;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::fmt::{MakeWriter, SubscriberBuilder};

pub mod invocation;
pub mod log_buffer;
pub mod log_format;
pub mod maintenance;
pub mod slow_lane;

/// Where this process's EMF metrics go, set once at start-up from the configuration
/// (the default, namespace `Courier` without a stack dimension, until then).
static METRICS_TARGET: std::sync::OnceLock<courier_app::delivery::metrics::MetricsTarget> = std::sync::OnceLock::new();

/// Sets the metrics namespace and stack dimension (the first call wins).
pub fn set_metrics_target(target: courier_app::delivery::metrics::MetricsTarget) {
    let _ = METRICS_TARGET.set(target);
}

fn metrics_target() -> &'static courier_app::delivery::metrics::MetricsTarget {
    METRICS_TARGET.get_or_init(courier_app::delivery::metrics::MetricsTarget::default)
}

/// The sender Lambda's logging: one JSON line per event on stdout, carrying its
/// time and the current span (with the delivery and attempt ids), in the format of
/// [`log_format`], held while a batch is worked ([`log_buffer`]). Here so that the
/// Lambda and the bench's copy of it cannot drift apart.
pub fn init_logging() {
    logging(&log_buffer::STDOUT).init();
}

/// [`init_logging`]'s subscriber, writing to `writer`.
pub fn logging<W>(writer: W) -> SubscriberBuilder<JsonMembers, JsonLine, LevelFilter, W>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    tracing_subscriber::fmt()
        .fmt_fields(JsonMembers)
        .event_format(JsonLine)
        .with_writer(writer)
}

/// What happened to one record, for logs and the local runner's display.
#[derive(Debug)]
pub struct RecordResult {
    pub message_id: String,
    pub result: Result<StepOutcome, RecordError>,
}

/// Why a record failed and its message is left for retry (SQS redelivers it, or
/// moves it to the dead-letter queue after its receive limit).
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The body is not a queue message (unreadable, of an unknown kind or version):
    /// it can never succeed.
    #[error("unreadable message: {0}")]
    Unreadable(#[from] MessageError),
    /// The step failed (a port unavailable, a conflict that kept recurring).
    #[error(transparent)]
    Step(#[from] StepError),
    /// A fan-out step failed (or this sender works none); redone on redelivery.
    #[error("fan-out step: {0}")]
    Fanout(String),
    /// A schedule firing failed (or this sender has no firer); left for retry.
    #[error("schedule firing: {0}")]
    Fire(String),
    /// The message was to move to the slow lane but could not be sent there.
    #[error("could not move the message to the slow lane")]
    Divert,
    /// The step panicked; the batch's other records keep their outcomes.
    #[error("step panicked: {0}")]
    Panicked(String),
}

/// Works every record of the batch concurrently. A record that fails (storage or
/// queue unavailable, unreadable body) is reported for retry; the rest are consumed.
/// A record whose step panics fails alone: its message comes back, while the
/// batch's other records keep their outcomes (a panic escaping the handler would
/// make SQS redeliver the whole batch, resending webhooks that were delivered).
pub async fn handle_batch(sender: &Sender, event: SqsEvent) -> (SqsBatchResponse, Vec<RecordResult>) {
    handle_batch_with(sender, None, event).await
}

/// [`handle_batch`], with the firer that `schedule_fire` messages go to (without
/// one, such a message fails and is left for retry).
pub async fn handle_batch_with(
    sender: &Sender,
    schedules: Option<&ScheduleFirer>,
    event: SqsEvent,
) -> (SqsBatchResponse, Vec<RecordResult>) {
    handle_batch_in(sender, schedules, None, event).await
}

/// [`handle_batch_with`], taken from `lane`: on the main lane a delivery step whose
/// endpoint is slow or congested is moved to the slow lane instead of attempted
/// (`courier_core::lanes`); every attempt's length is told to the lanes.
pub async fn handle_batch_in(
    sender: &Sender,
    schedules: Option<&ScheduleFirer>,
    lane: Option<slow_lane::Lane<'_>>,
    event: SqsEvent,
) -> (SqsBatchResponse, Vec<RecordResult>) {
    // The batch's log lines are written together when it ends (see `log_buffer`).
    let _log = log_buffer::STDOUT.batch();
    let cache = EndpointCache::default();
    // The steps' metric samples, written as EMF documents when the batch ends.
    let emf = emf_enabled().then(|| Mutex::new(Vec::new()));
    // The records run concurrently in one task, their results kept in record order.
    // Unwind safety: what a panicking step leaves behind is the cache's and the EMF
    // buffer's locks, both read as absent when poisoned, and the ports' own state,
    // which recover from a poisoned lock.
    // The batch's attempts are counted into one statistics write per endpoint-minute,
    // made once every record is done.
    let stats_batch = std::sync::Arc::new(courier_app::pipeline::statistics::StatsBatch::default());
    let batch = lane.map_or(0, |l| l.lanes().batch());
    let moved = slow_lane::Moved::default();
    let caught: Vec<std::thread::Result<Result<StepOutcome, RecordError>>> =
        courier_app::pipeline::statistics::STATS_BATCH
            .scope(
                stats_batch.clone(),
                event
                    .records
                    .iter()
                    .enumerate()
                    .map(|(index, r)| {
                        let at = RecordAt {
                            lane,
                            batch,
                            index,
                            moved: &moved,
                        };
                        AssertUnwindSafe(handle_record(sender, schedules, r, &cache, emf.as_ref(), at)).catch_unwind()
                    })
                    .collect::<FuturesOrdered<_>>()
                    .collect(),
            )
            .await;
    if let Some(stats) = sender.deliveries.stats() {
        let moved = stats_batch.flush(stats).await;
        notify_streaks(sender, moved).await;
    }
    let mut caught = caught;
    if let Some(slow_lane::Lane::Main(slow)) = lane {
        for index in moved.send(slow.queue.as_ref(), sender.clock.now()).await {
            if let Some(r) = caught.get_mut(index) {
                *r = Ok(Err(RecordError::Divert));
            }
        }
    }
    let results: Vec<RecordResult> = caught
        .into_iter()
        .zip(event.records)
        .map(|(result, record)| {
            let message_id = record.message_id.unwrap_or_default();
            let result = result.unwrap_or_else(|panic| {
                let why = panic_message(panic.as_ref());
                tracing::error!(
                    message_id,
                    panic = why,
                    "a record's step panicked; message left for retry"
                );
                Err(RecordError::Panicked(why.to_owned()))
            });
            RecordResult { message_id, result }
        })
        .collect();
    if let Some(samples) = emf.and_then(|m| m.into_inner().ok()).filter(|s| !s.is_empty()) {
        // CloudWatch Logs extracts the metrics from these stdout lines, written with the
        // batch's log lines.
        let mut lines = Vec::new();
        for doc in courier_app::delivery::metrics::batch_metrics_for(&samples, sender.clock.now(), metrics_target()) {
            // Serialised straight into the bytes (a struct of strings and numbers cannot
            // fail to).
            if serde_json::to_writer(&mut lines, &doc).is_ok() {
                lines.push(b'\n');
            }
        }
        log_buffer::STDOUT.write_lines(&lines);
    }
    let mut response = SqsBatchResponse::default();
    for r in &results {
        if r.result.is_err() {
            response.add_failure(r.message_id.clone());
        }
    }
    (response, results)
}

/// Where a record sits: its batch's lane and number, its index, and where a moved
/// message goes.
#[derive(Clone, Copy)]
struct RecordAt<'a> {
    lane: Option<slow_lane::Lane<'a>>,
    batch: u64,
    index: usize,
    moved: &'a slow_lane::Moved,
}

async fn handle_record(
    sender: &Sender,
    schedules: Option<&ScheduleFirer>,
    record: &SqsMessage,
    cache: &EndpointCache,
    emf: Option<&Mutex<Vec<StepSample>>>,
    at: RecordAt<'_>,
) -> Result<StepOutcome, RecordError> {
    let body = record.body.as_deref().unwrap_or("");
    match Message::parse(body) {
        // An unreadable message can never succeed: it is reported as failed so SQS
        // moves it to the dead-letter queue after its receive limit, where it stays
        // visible instead of vanishing.
        Err(e) => {
            let message_id = record.message_id.as_deref().unwrap_or_default();
            tracing::error!(message_id, error = %e, "unreadable queue message");
            Err(RecordError::Unreadable(e))
        }
        Ok(Message::Fanout(step)) => handle_fanout(sender, &step).await,
        Ok(Message::ScheduleFire(m)) => handle_fire(schedules, &m).await,
        Ok(Message::Delivery(m)) => {
            let span = tracing::info_span!("attempt", delivery_id = %m.delivery_id, attempt = m.attempt, trigger = m.trigger.as_str());
            // The span is attached to the future, never held across an await: the batch's
            // records run interleaved on one task, and an entered guard would leak one
            // record's span into another's logs.
            async {
                // A completion check sends nothing: it never waits for a lane.
                let slot = match at.lane {
                    Some(slow_lane::Lane::Main(slow)) if !m.completion_check => {
                        match slow
                            .lanes
                            .enter(&m.tenant_id, &m.endpoint_id, at.batch, || sender.clock.now())
                            .await
                        {
                            courier_app::delivery::lanes::Entry::Go(slot) => Some(slot),
                            courier_app::delivery::lanes::Entry::Divert(cause) => {
                                tracing::info!(cause = cause.as_str(), "moved to the slow lane");
                                at.moved.push(at.index, m.clone());
                                return Ok(StepOutcome::Diverted { cause });
                            }
                        }
                    }
                    _ => None,
                };
                let result = match &slot {
                    Some(slot) => slot.around(sender.handle(&m, cache)).await,
                    None => sender.handle(&m, cache).await,
                };
                if let (Some(lane), Ok(StepOutcome::Attempted { attempt, .. })) = (at.lane, &result) {
                    let timed_out = attempt.error_class.as_deref() == Some("timeout");
                    lane.lanes().observe(
                        &m.tenant_id,
                        &m.endpoint_id,
                        attempt.duration_ms,
                        timed_out,
                        sender.clock.now(),
                    );
                }
                drop(slot);
                match result {
                    Ok(outcome) => {
                        log_outcome(&outcome);
                        // The step's metrics, written with the batch's (see `handle_batch`).
                        if let Some(samples) = emf
                            && let Some(sample) = courier_app::delivery::metrics::step_sample(&outcome, m.not_before)
                            && let Ok(mut samples) = samples.lock()
                        {
                            samples.push(sample);
                        }
                        Ok(outcome)
                    }
                    Err(e) => {
                        // The span names the delivery and the attempt.
                        tracing::warn!(error = %e, "step failed; message left for retry");
                        Err(RecordError::Step(e))
                    }
                }
            }
            .instrument(span)
            .await
        }
    }
}

/// Works one fan-out step message. A failure leaves it for redelivery: the step is
/// redone, writing no delivery twice.
async fn handle_fanout(sender: &Sender, step: &FanoutStep) -> Result<StepOutcome, RecordError> {
    let Some(worker) = &sender.fanout else {
        return Err(RecordError::Fanout("this sender works no fan-out steps".into()));
    };
    let span = tracing::info_span!("fanout", event_id = %step.event_id, processed = step.cursor.processed);
    match worker.step(step).instrument(span).await {
        Ok(done) => Ok(StepOutcome::FanoutStep {
            created: done.created,
            matched: done.matched,
            more: done.next.is_some(),
        }),
        Err(e) => {
            tracing::warn!(event_id = %step.event_id, error = %e, "fan-out step failed; message left for retry");
            Err(RecordError::Fanout(e.to_string()))
        }
    }
}

/// One schedule firing: the occurrence made (or found) and its delivery queued.
async fn handle_fire(schedules: Option<&ScheduleFirer>, m: &FireMessage) -> Result<StepOutcome, RecordError> {
    let Some(firer) = schedules else {
        tracing::error!(schedule_id = %m.schedule_id, "schedule fire message but no schedules configured");
        return Err(RecordError::Fire("no schedule firer configured".into()));
    };
    match firer.fire(m).await {
        Ok(outcome) => {
            tracing::info!(schedule_id = %m.schedule_id, planned_at = %m.planned_at, outcome = ?outcome, "schedule fired");
            Ok(StepOutcome::Fired(Box::new(outcome)))
        }
        Err(e) => {
            tracing::warn!(schedule_id = %m.schedule_id, error = %e, "schedule firing failed; message left for retry");
            Err(RecordError::Fire(e.to_string()))
        }
    }
}

/// What the dead-letter handlers need to recover messages that are not delivery
/// steps (`courier_app::maintenance::dead_letter_kinds`). Without a worker or a firer, such a
/// message is reported failed and stays on its dead-letter queue.
#[derive(Clone, Copy, Default)]
pub struct Recovery<'a> {
    pub fanout: Option<&'a courier_app::fanout::FanoutWorker>,
    pub firer: Option<&'a ScheduleFirer>,
}

impl Recovery<'_> {
    /// Resumes a dead-lettered fan-out step; answers whether it is done with
    /// (false: left on the queue for another try).
    pub async fn fanout(&self, step: &FanoutStep) -> bool {
        use courier_app::maintenance::dead_letter_kinds::{FanoutResumed, resume_fanout};
        let Some(worker) = self.fanout else {
            tracing::error!(event_id = %step.event_id, "dead-lettered fan-out step but no fan-out worker");
            return false;
        };
        match resume_fanout(worker, step).await {
            Ok(FanoutResumed::Stepped(done)) => {
                tracing::warn!(event_id = %step.event_id, processed = step.cursor.processed, created = done.created, more = done.next.is_some(), "dead-lettered fan-out step resumed");
                true
            }
            Ok(FanoutResumed::Abandoned(why)) => {
                tracing::error!(event_id = %step.event_id, error = %why, "dead-lettered fan-out step cannot be resumed; dropped");
                true
            }
            Err(e) => {
                tracing::error!(event_id = %step.event_id, error = %e, "could not resume a dead-lettered fan-out step; left there");
                false
            }
        }
    }

    /// Fires a dead-lettered firing late (or marks its occurrence failed on its
    /// last try, `record`'s receive count); answers whether it is done with.
    pub async fn firing(&self, m: &FireMessage, record: &SqsMessage) -> bool {
        use courier_app::maintenance::dead_letter_kinds::{LateFiring, fire_late};
        let Some(firer) = self.firer else {
            tracing::error!(schedule_id = %m.schedule_id, "dead-lettered firing but no schedule firer");
            return false;
        };
        match fire_late(firer, m, receive_count(record)).await {
            Ok(LateFiring::Fired(outcome)) => {
                tracing::warn!(schedule_id = %m.schedule_id, planned_at = %m.planned_at, outcome = ?outcome, "dead-lettered firing fired late");
                true
            }
            Ok(LateFiring::Failed(o)) => {
                tracing::error!(schedule_id = %m.schedule_id, planned_at = %m.planned_at, failure = ?o.failure, "dead-lettered firing could not be made; occurrence marked failed");
                true
            }
            Err(e) => {
                tracing::warn!(schedule_id = %m.schedule_id, error = %e, "dead-lettered firing failed again; left for another try");
                false
            }
        }
    }
}

/// The record's `ApproximateReceiveCount` (1 when absent).
fn receive_count(record: &SqsMessage) -> u32 {
    record
        .attributes
        .get("ApproximateReceiveCount")
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
}

/// Works a batch from the dead-letter queue, by message kind: a delivery step marks
/// its delivery as dead-lettered (shown by the API, redriven by `POST
/// /v1/deliveries/{id}/redrive`); a fan-out step or a firing is recovered
/// ([`Recovery`]). A message that cannot be read, marked or recovered is reported
/// as failed and stays in the DLQ, where the alarms see it.
pub async fn handle_dead_letters(
    store: &dyn courier_app::ports::DeliveryStore,
    clock: &dyn courier_app::ports::Clock,
    recovery: Recovery<'_>,
    event: SqsEvent,
) -> SqsBatchResponse {
    let mut response = SqsBatchResponse::default();
    for record in &event.records {
        let message_id = record.message_id.clone().unwrap_or_default();
        let body = record.body.as_deref().unwrap_or("");
        let ok = match Message::parse(body) {
            Err(e) => {
                tracing::error!(message_id, error = %e, "unreadable message in the dead-letter queue; left there");
                false
            }
            Ok(Message::Delivery(m)) => match courier_app::pipeline::dead_letter::mark(store, &m, clock.now()).await {
                Ok(outcome) => {
                    tracing::warn!(delivery_id = %m.delivery_id, attempt = m.attempt, outcome = ?outcome, "dead-lettered message");
                    true
                }
                Err(e) => {
                    tracing::error!(delivery_id = %m.delivery_id, error = %e, "could not mark a dead-lettered delivery; message left in the DLQ");
                    false
                }
            },
            Ok(Message::Fanout(step)) => recovery.fanout(&step).await,
            Ok(Message::ScheduleFire(m)) => recovery.firing(&m, record).await,
        };
        if !ok {
            response.add_failure(message_id);
        }
    }
    response
}

/// A panic's message, when it is text.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(not text)")
}

/// EMF lines are for CloudWatch: printed only inside Lambda (or when asked; the
/// deployment's [`MetricsTarget`](courier_app::delivery::metrics::MetricsTarget)).
fn emf_enabled() -> bool {
    metrics_target().print
}

/// The step's outcome line. The record's span already names the delivery, the
/// attempt number and the trigger, so the fields here do not repeat them.
fn log_outcome(outcome: &StepOutcome) {
    match outcome {
        StepOutcome::Attempted { attempt, delivery } | StepOutcome::LostRecorded { attempt, delivery } => {
            tracing::info!(
                attempt_id = %attempt.id,
                state = %attempt.state,
                diagnostic = %attempt.diagnostic,
                status = attempt.response_status,
                duration_ms = attempt.duration_ms,
                delivery_status = delivery.status.as_str(),
                next_attempt_at = delivery.next_attempt_at.map(|t| t.to_rfc3339()).as_deref(),
                "attempt recorded"
            )
        }
        StepOutcome::AwaitingCompletion { .. } => {
            tracing::info!("202 accepted; awaiting completion report")
        }
        StepOutcome::Redelayed { until } => {
            tracing::debug!(until = %until, "early message re-delayed")
        }
        StepOutcome::NotYetWritten { until } => {
            tracing::info!(until = %until, "no delivery yet for a first message sent ahead of its write; looking again")
        }
        StepOutcome::Throttled { until, cause, held_ms } => {
            tracing::info!(until = %until, cause = ?cause, held_ms, "held back by the endpoint's limits; re-delayed")
        }
        StepOutcome::SettledWithoutAttempt { delivery } => {
            tracing::info!(reason = ?delivery.dead_reason, "settled without an attempt")
        }
        StepOutcome::Dropped { why } => {
            tracing::info!(why = ?why, "message dropped")
        }
        StepOutcome::Diverted { cause } => {
            tracing::debug!(cause = cause.as_str(), "moved to the slow lane")
        }
        StepOutcome::FanoutStep { created, matched, more } => {
            tracing::info!(created, matched, more, "fan-out step done")
        }
        StepOutcome::Fired(outcome) => {
            tracing::info!(outcome = ?outcome, "schedule fired")
        }
    }
}

/// Tells `courier.endpoint.failing` / `.recovered` for the endpoints whose run of
/// failed attempts this batch's counts moved across their `failingAfter` (the
/// endpoint is read only then).
async fn notify_streaks(
    sender: &Sender,
    moved: Vec<(
        courier_core::ids::TenantId,
        courier_core::ids::EndpointId,
        Option<courier_app::domain::stats::StreakMove>,
    )>,
) {
    let Some(fanout) = sender.fanout.as_deref() else { return };
    let now = sender.clock.now();
    for (tenant, id, streak) in moved {
        let Some(streak) = streak else { continue };
        // Any endpoint's threshold is at least 1: no run moved, nothing to tell.
        if streak.before == streak.after {
            continue;
        }
        match sender.endpoints.get_endpoint(&tenant, &id).await {
            Ok(Some(e)) => courier_app::delivery::notify_streak(&fanout.notifier(), &e, streak, now).await,
            Ok(None) => {}
            Err(e) => tracing::warn!(endpoint = %id, error = %e, "endpoint not read for its run of failures"),
        }
    }
}
