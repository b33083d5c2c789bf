//! The retry decision: given the policy, where the delivery stands and the outcome
//! of the attempt just made, settle it or plan the next attempt at an exact instant.

use crate::classify::{AttemptState, Classification};
use crate::outcome::AttemptOutcome;
use crate::policy::{Deadline, Policy, ReasonStyle, WaitFrom};
use crate::retry_after::parse_retry_after;
use crate::rng::RandomSource;
use crate::time::Timestamp;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LatencyClass {
    #[default]
    Realtime,
    Bulk,
}

/// Why a delivery settled without success (or was dropped).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SettleReason {
    MaxAttempts,
    ReceiverFailures,
    Deadline,
    TerminalStatus,
    EndpointGone,
    EndpointDisabled,
    EndpointRevoked,
    EndpointPaused,
    EndpointUnsafe,
    SigningSecretMissing,
    PayloadUnavailable,
    IdentityConflict,
    BreakerOpen,
}

impl SettleReason {
    /// The reason as the policy spells it: Tanitar's dead reasons or snake_case causes.
    pub fn label(self, style: ReasonStyle) -> String {
        let cause = serde_json::to_value(self)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        match style {
            ReasonStyle::Cause => cause,
            ReasonStyle::Tanitar => match self {
                SettleReason::MaxAttempts | SettleReason::ReceiverFailures | SettleReason::Deadline => {
                    "RETRY_EXHAUSTED".to_owned()
                }
                _ => cause.to_ascii_uppercase(),
            },
        }
    }
}

/// What the delivery is, independent of any one attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryContext {
    /// The delivery's planned instant (its first attempt; the event time).
    pub planned_at: Timestamp,
    pub latency_class: LatencyClass,
    /// Seconds a receiver may take to report long-running work (0: none).
    pub long_running_allowance_seconds: u64,
}

impl DeliveryContext {
    pub fn immediate(planned_at: Timestamp) -> Self {
        DeliveryContext {
            planned_at,
            latency_class: LatencyClass::Realtime,
            long_running_allowance_seconds: 0,
        }
    }
}

/// The attempt just made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptFacts {
    /// 1-based attempt number within the delivery's automatic ladder.
    pub number: u32,
    pub started_at: Timestamp,
    pub ended_at: Timestamp,
    /// Receiver-caused failures so far, this attempt included.
    pub receiver_failures: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "decision")]
pub enum Decision {
    Succeeded,
    Failed {
        reason: SettleReason,
    },
    /// Attempt `number` at `at`. `last` is true when the deadline clamp made it the
    /// final attempt whatever remains of the ladder.
    Retry {
        number: u32,
        at: Timestamp,
        last: bool,
    },
    /// A 202 for long-running work: wait for the receiver's report until `until`.
    AwaitCompletion {
        until: Timestamp,
    },
}

impl Policy {
    /// The latest instant an attempt may start, if the policy has a deadline.
    pub fn attempt_deadline(&self, ctx: &DeliveryContext) -> Option<Timestamp> {
        match self.deadline {
            Deadline::None => None,
            Deadline::Horizon {
                realtime_seconds,
                bulk_seconds,
                add_long_running_allowance,
            } => {
                let base = match ctx.latency_class {
                    LatencyClass::Realtime => realtime_seconds,
                    LatencyClass::Bulk => bulk_seconds,
                };
                let extra = if add_long_running_allowance {
                    ctx.long_running_allowance_seconds
                } else {
                    0
                };
                Some(ctx.planned_at.plus_secs((base + extra) as i64))
            }
            Deadline::ClampLast { after_seconds } => Some(ctx.planned_at.plus_secs(after_seconds as i64)),
        }
    }

    /// May an attempt due now still start? (A late timer must not start an attempt
    /// past a horizon. A clamped attempt is scheduled exactly at its limit, and a wait
    /// is a minimum, so a clamped attempt whose timer fires a little late still
    /// starts; `decide` then makes it the last.)
    pub fn may_start(&self, ctx: &DeliveryContext, now: Timestamp) -> bool {
        match (self.deadline, self.attempt_deadline(ctx)) {
            (Deadline::Horizon { .. }, Some(limit)) => now <= limit,
            _ => true,
        }
    }

    /// The wait the policy asks for after this attempt, in milliseconds, Retry-After
    /// included: `max(normal, min(retry_after, cap))` on the statuses that honour it.
    pub fn next_wait_ms(
        &self,
        next_number: u32,
        outcome: &AttemptOutcome,
        now: Timestamp,
        rng: &mut dyn RandomSource,
    ) -> u64 {
        let (normal, honoured) = self.wait_parts_ms(next_number, outcome, now, rng);
        normal.max(honoured)
    }

    /// The jittered ladder wait and the honoured (capped) Retry-After, 0 when there is
    /// none, both in milliseconds. Exactly one random draw.
    fn wait_parts_ms(
        &self,
        next_number: u32,
        outcome: &AttemptOutcome,
        now: Timestamp,
        rng: &mut dyn RandomSource,
    ) -> (u64, u64) {
        let normal = self.jittered_wait_ms(next_number, rng.unit());
        let honoured = match (&self.retry_after, outcome.response()) {
            (Some(rule), Some(resp)) if rule.statuses.iter().any(|p| p.matches(resp.status)) => resp
                .header("retry-after")
                .and_then(|v| parse_retry_after(v, now))
                .map(|ra| ra.min(rule.cap_seconds).saturating_mul(1000)),
            _ => None,
        };
        (normal, honoured.unwrap_or(0))
    }

    /// Decides what follows an attempt. Checks run in a fixed order: success,
    /// long-running acceptance, an outcome that settles at once, attempts exhausted,
    /// receiver failures exhausted, the clamped last attempt, then the next instant
    /// against the deadline.
    pub fn decide(
        &self,
        ctx: &DeliveryContext,
        facts: &AttemptFacts,
        outcome: &AttemptOutcome,
        classification: &Classification,
        rng: &mut dyn RandomSource,
    ) -> Decision {
        match classification.state {
            AttemptState::Succeeded => return Decision::Succeeded,
            AttemptState::AwaitingCompletion => {
                return Decision::AwaitCompletion {
                    until: facts.ended_at.plus_secs(ctx.long_running_allowance_seconds as i64),
                };
            }
            _ => {}
        }
        if let Some(reason) = classification.settles {
            return Decision::Failed { reason };
        }
        // When the last attempt is also the 5th receiver-caused failure (Greatwait),
        // both limits hold; the attempt limit is named, as the more familiar one.
        if facts.number >= self.max_attempts {
            return Decision::Failed {
                reason: SettleReason::MaxAttempts,
            };
        }
        if self
            .receiver_failure_limit
            .is_some_and(|limit| facts.receiver_failures >= limit)
        {
            return Decision::Failed {
                reason: SettleReason::ReceiverFailures,
            };
        }
        let deadline = self.attempt_deadline(ctx);
        if let (Deadline::ClampLast { .. }, Some(limit)) = (self.deadline, deadline) {
            // An attempt at (or, from a late timer, after) the clamp instant was the last.
            if facts.started_at >= limit {
                return Decision::Failed {
                    reason: SettleReason::Deadline,
                };
            }
        }
        let next = facts.number + 1;
        let from = match self.wait_from {
            WaitFrom::AttemptEnd => facts.ended_at,
            WaitFrom::AttemptStart => facts.started_at,
        };
        let (normal, honoured) = self.wait_parts_ms(next, outcome, facts.ended_at, rng);
        let ms = |w: u64| w.min(i64::MAX as u64) as i64;
        // The ladder wait counts from the policy's reference point; a Retry-After counts
        // from the answer that carried it (the attempt's end), so it is never shortened
        // by a policy that measures from the start of the attempt. An attempt never
        // starts before the previous one ended.
        let at = from
            .plus_millis(ms(normal))
            .max(facts.ended_at.plus_millis(ms(honoured)))
            .max(facts.ended_at);
        match (self.deadline, deadline) {
            (Deadline::Horizon { .. }, Some(limit)) if at > limit => Decision::Failed {
                reason: SettleReason::Deadline,
            },
            // The attempt is moved forward to the clamp instant; when the previous
            // attempt only ended after that instant there is no room for it.
            (Deadline::ClampLast { .. }, Some(limit)) if at >= limit && facts.ended_at > limit => Decision::Failed {
                reason: SettleReason::Deadline,
            },
            (Deadline::ClampLast { .. }, Some(limit)) if at >= limit => Decision::Retry {
                number: next,
                at: limit,
                last: true,
            },
            _ => Decision::Retry {
                number: next,
                at,
                last: false,
            },
        }
    }
}
