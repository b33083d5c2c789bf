//! Puts the next step of a delivery on its way: an SQS message delay for a wait of
//! at most the configured threshold (SQS allows 900 s), otherwise a one-shot
//! Scheduler schedule aimed a little early. The message's `notBefore` makes the
//! sender hold an early arrival back, so no attempt ever starts early.

use crate::domain::delivery_message::DeliveryMessage;
use crate::ports::{PortResult, Queue, Timer};
use courier_core::Timestamp;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlannerSettings {
    pub sqs_max_delay_seconds: u32,
    pub schedule_lead_seconds: u32,
}

impl Default for PlannerSettings {
    fn default() -> Self {
        PlannerSettings {
            sqs_max_delay_seconds: 900,
            schedule_lead_seconds: 60,
        }
    }
}

/// Which path a step took.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Path {
    Queue { delay_seconds: u32 },
    Schedule { fire_at: Timestamp },
}

#[derive(Clone)]
pub struct Planner {
    pub queue: Arc<dyn Queue>,
    pub timer: Arc<dyn Timer>,
    pub settings: PlannerSettings,
}

impl Planner {
    /// The path for a message due at `message.not_before`, seen at `now`.
    pub fn path(&self, not_before: Timestamp, now: Timestamp) -> Path {
        let wait_ms = not_before.millis_since(now).max(0);
        // Round up: SQS delays are whole seconds and a wait is a minimum.
        let wait_s = (wait_ms as u64).div_ceil(1000);
        if wait_s <= u64::from(self.settings.sqs_max_delay_seconds) {
            Path::Queue {
                delay_seconds: wait_s as u32,
            }
        } else {
            // Aim early, but never so early that the sender's re-delay of the early
            // message would need the Scheduler again: at() drops the sub-second part
            // (up to 1 s earlier still), so the lead stays below the SQS threshold.
            let max_lead = i64::from(self.settings.sqs_max_delay_seconds.saturating_sub(1));
            let lead = i64::from(self.settings.schedule_lead_seconds).min(max_lead) * 1000;
            let fire_at = not_before.plus_millis(-lead.min(wait_ms));
            Path::Schedule { fire_at }
        }
    }

    pub async fn plan(&self, message: DeliveryMessage, now: Timestamp) -> PortResult<Path> {
        let path = self.path(message.not_before, now);
        match path {
            Path::Queue { delay_seconds } => self.queue.send(&message, delay_seconds).await?,
            Path::Schedule { fire_at } => {
                // A schedule's input is small (Scheduler takes at most 8,192
                // characters): the sender reads a body from the event instead.
                let message = DeliveryMessage { body: None, ..message };
                self.timer.schedule(&schedule_name(&message), fire_at, &message).await?
            }
        }
        Ok(path)
    }
}

/// Scheduler names allow [0-9a-zA-Z-_.], at most 64 characters. Delivery id, attempt
/// number, trigger and due second make a repeat of the same step collide (and so be a
/// no-op), while a different instant for the same step gets a schedule of its own (so
/// a new schedule can never be swallowed by an old one that is about to be deleted).
pub fn schedule_name(m: &DeliveryMessage) -> String {
    format!(
        "{}-{}-{}-{}",
        m.delivery_id,
        m.attempt,
        m.trigger.as_str(),
        m.not_before.millis().div_euclid(1000)
    )
}
