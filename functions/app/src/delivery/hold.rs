//! The sender's hold: before an attempt to a limited endpoint is claimed, it takes
//! a token and an in-flight slot from the [`Limiter`]; when it may not start yet,
//! its message is put back with an SQS delay to come again when it may (not sent,
//! not counted as an attempt, not a failure), and the delivery shows
//! `throttledUntil` until the attempt is claimed. Endpoints without limits skip
//! this and cost no request.

use super::{Sender, StepError, StepOutcome};
use crate::domain::delivery_message::DeliveryMessage;
use crate::domain::model::Endpoint;
use crate::ports::limiter::Admission;
use courier_core::Timestamp;
use courier_core::limiter::Limits;

/// The most a held message's return is spread past its instant.
const MAX_HOLD_SPREAD_MS: i64 = 1_000;

/// What the hold decided.
pub(super) enum Hold {
    /// Go on; free `slot` once the attempt is over (None: no in-flight cap).
    Go { slot: Option<String> },
    /// Put back until later: the step's outcome.
    Held(StepOutcome),
}

impl Sender {
    /// Takes what `limits` ask for the attempt about to be claimed at `now`, or puts
    /// the message back. The slot's lease is the claim's, so a sender that dies
    /// mid-attempt frees the slot when its claim could be taken over anyway.
    pub(super) async fn hold(
        &self,
        m: &DeliveryMessage,
        endpoint: &Endpoint,
        limits: &Limits,
        now: Timestamp,
    ) -> Result<Hold, StepError> {
        let slot = format!("{:016x}", self.random.next_u64());
        let lease_until = now.plus_millis(endpoint.timeout_ms().saturating_add(self.settings.lease_margin_ms) as i64);
        let admission = self
            .limiter
            .acquire(&m.tenant_id, &m.endpoint_id, limits, &slot, lease_until, now)
            .await
            .map_err(StepError::Store)?;
        match admission {
            Admission::Granted => Ok(Hold::Go {
                slot: limits.max_in_flight.map(|_| slot),
            }),
            Admission::Held { until, cause } => {
                // Never back before `until`: the planner rounds the wait up to whole
                // seconds of SQS delay, and a message back early is re-delayed again.
                let until = until.max(now.plus_millis(1));
                // Messages held together would all wake at one instant and race for
                // the next token or slot: each comes back later by up to a quarter
                // of its wait (at most a second), never earlier.
                let spread = (until.millis_since(now) / 4).clamp(0, MAX_HOLD_SPREAD_MS);
                let until = until.plus_millis((self.random.next_u64() % (spread as u64 + 1)) as i64);
                let next = DeliveryMessage {
                    not_before: until,
                    ..m.clone()
                };
                self.planner.plan(next, now).await.map_err(StepError::Plan)?;
                // Shown on the delivery while it waits; after the message is back
                // on the queue, so a failed note costs only the display. One small
                // conditional `UpdateItem` per hold.
                match self.deliveries.note_hold(&m.delivery_id, m.attempt, until, now).await {
                    Ok(_) => {}
                    Err(e) => tracing::warn!(error = %e, "noting throttledUntil on the delivery failed"),
                }
                Ok(Hold::Held(StepOutcome::Throttled {
                    until,
                    cause,
                    held_ms: until.millis_since(now).max(0) as u64,
                }))
            }
        }
    }

    /// Frees the attempt's in-flight slot. A failure is only logged: the slot's
    /// lease frees it anyway, and the attempt's outcome is already recorded.
    pub(super) async fn release_slot(&self, m: &DeliveryMessage, slot: &str) {
        if let Err(e) = self.limiter.release(&m.tenant_id, &m.endpoint_id, slot).await {
            tracing::warn!(error = %e, "freeing an in-flight slot failed; its lease frees it");
        }
    }
}
