//! Dead-lettered messages that are not delivery steps, recovered by kind: a
//! fan-out step is resumed from its cursor (the step is idempotent, so the pages
//! already written are found, not written again); a recurring schedule's firing
//! is fired late, and when it cannot be even after a few tries, its occurrence is
//! marked failed with the reason, which the occurrence list shows. Without this
//! a dead-lettered fan-out left its event `in_progress` for ever and a
//! dead-lettered firing lost its occurrence.

use crate::domain::fanout_message::FanoutStep;
use crate::domain::schedule::{FireMessage, Occurrence, OccurrenceFailure};
use crate::fanout::{FanoutError, FanoutWorker, StepDone};
use crate::ports::PortRng;
use crate::ports::{PortError, PortResult};
use crate::schedules::fire::{FireOutcome, ScheduleFirer};
use courier_core::ids::EventId;

/// Receives of a dead-lettered firing (`ApproximateReceiveCount` on the
/// dead-letter queue) before it is given up and marked failed: a short outage
/// gets a few tries, a firing that cannot work stops coming back.
pub const FIRING_TRIES: u32 = 3;

/// What became of a dead-lettered fan-out step.
#[derive(Debug)]
pub enum FanoutResumed {
    /// The step ran: its page is written and the next step queued (or the
    /// fan-out marked complete).
    Stepped(StepDone),
    /// The event is gone or is not a fan-out: nothing can resume it.
    Abandoned(FanoutError),
}

/// Resumes a dead-lettered fan-out step. An error (storage unavailable) leaves
/// the message on the dead-letter queue for another try.
pub async fn resume_fanout(worker: &FanoutWorker, step: &FanoutStep) -> Result<FanoutResumed, FanoutError> {
    match worker.step(step).await {
        Ok(done) => Ok(FanoutResumed::Stepped(done)),
        Err(e @ (FanoutError::EventMissing(_) | FanoutError::NotFanout(_))) => Ok(FanoutResumed::Abandoned(e)),
        Err(e) => Err(e),
    }
}

/// What became of a dead-lettered firing.
#[derive(Debug, PartialEq)]
pub enum LateFiring {
    /// Fired now, late (or found fired, or skipped as a firing on time would be).
    Fired(FireOutcome),
    /// Given up: the occurrence is marked failed.
    Failed(Occurrence),
}

/// Fires a dead-lettered firing late, on its `receives`-th receive from the
/// dead-letter queue. While tries are left an error is returned (the message
/// comes back); on the last, the occurrence is marked failed with the error as
/// its reason.
pub async fn fire_late(firer: &ScheduleFirer, m: &FireMessage, receives: u32) -> PortResult<LateFiring> {
    match firer.fire(m).await {
        Ok(outcome) => Ok(LateFiring::Fired(outcome)),
        Err(e) if receives < FIRING_TRIES => Err(e),
        Err(e) => {
            tracing::warn!(schedule_id = %m.schedule_id, error = %e, "a dead-lettered firing is given up");
            mark_failed(firer, m, failure_reason(&e)).await.map(LateFiring::Failed)
        }
    }
}

/// The reason an occurrence list shows for a firing given up: the kind of the
/// last error, without the service's own text (request ids, internal names),
/// which goes to the log.
pub fn failure_reason(e: &PortError) -> &'static str {
    match e {
        PortError::Conflict(_) => "storage_conflict",
        PortError::Unavailable(_) => "storage_unavailable",
        PortError::Corrupt(_) => "stored_item_corrupt",
        PortError::BadCursor | PortError::Backend(_) => "storage_error",
    }
}

/// Marks the occurrence of `m` failed with `reason`: a new marker when the firing
/// never got as far as writing one, else the failure noted on the one it wrote.
pub async fn mark_failed(firer: &ScheduleFirer, m: &FireMessage, reason: &str) -> PortResult<Occurrence> {
    let now = firer.clock.now();
    let failure = Some(OccurrenceFailure {
        reason: reason.to_owned(),
        at: now,
    });
    let marker = Occurrence {
        schedule_id: m.schedule_id.clone(),
        tenant_id: m.tenant_id.clone(),
        planned_at: m.planned_at,
        event_id: EventId::generate(now, &mut PortRng(firer.random.as_ref())),
        delivery_id: None,
        created_at: now,
        failure: failure.clone(),
        expires_at: Occurrence::expiry_from(now),
    };
    match firer.schedules.put_occurrence(&marker).await? {
        None => Ok(marker),
        Some(earlier) if earlier.failure.is_some() => Ok(earlier),
        Some(earlier) => {
            let failed = Occurrence { failure, ..earlier };
            firer.schedules.replace_occurrence(&failed).await?;
            Ok(failed)
        }
    }
}
