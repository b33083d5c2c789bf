//! The recorder: an attempt's outcome made durable (attempt item, delivery, endpoint
//! health), then the next step planned. Shared by the sender and the completion API.

use super::{AttemptDone, DropReason, StepError, StepOutcome};
use crate::domain::delivery_message::{DeliveryMessage, Trigger};
use crate::domain::model::{
    Attempt, AwaitingCompletion, ClaimRecord, Delivery, DeliverySettings, DeliveryStatus, Endpoint,
};
use crate::fanout::operational::{Notice, Notifier, is_own_event};
use crate::pipeline::planner::Planner;
use crate::ports::PortRng;
use crate::ports::{Clock, DeliveryStore, EndpointStore, PortError, Random};
use courier_core::Timestamp;
use courier_core::classify::{AttemptState, Classification};
use courier_core::decide::{AttemptFacts, Decision, DeliveryContext, SettleReason};
use courier_core::health::{BreakerEvent, HealthEvent, HealthStatus};
use courier_core::ids::AttemptId;
use courier_core::operational::{breaker_change, smart_change, streak_change};
use courier_core::outcome::AttemptOutcome;
use courier_core::policy::HealthModel;
use courier_core::rng::RandomSource;
use std::borrow::Cow;

/// Records an attempt's outcome, updates endpoint health, and plans the next step:
/// everything after the HTTP request. The sender and the completion API both use it.
pub struct Recorder<'a> {
    pub deliveries: &'a dyn DeliveryStore,
    /// The time planning is measured from (the outcome's own instants may be past).
    pub clock: &'a dyn Clock,
    pub endpoints: &'a dyn EndpointStore,
    pub planner: &'a Planner,
    pub random: &'a dyn Random,
    pub lease_margin_ms: u64,
    /// Whether the outcome comes with a queue message in hand that stays on the
    /// queue until this step returns `Ok` (the sender's; the completion call has
    /// none). Such a message comes back if planning the retry fails, and the sender
    /// then plans it again (`next_step_unplanned`), so a retry through an SQS delay
    /// needs no due-index entry: the message in hand carries the delivery until the
    /// retry's message does.
    pub message_in_hand: bool,
    /// Where operational events go (none: not told).
    pub notify: Option<crate::fanout::operational::Notifier<'a>>,
}

impl Recorder<'_> {
    /// Records a previous sender's attempt whose lease ran out with no outcome: it may
    /// have reached the receiver, so it is `ambiguous`, and the policy decides.
    pub async fn record_lost(
        &self,
        m: &DeliveryMessage,
        endpoint: &Endpoint,
        delivery: Delivery,
        lost: ClaimRecord,
        our_claim: &AttemptId,
    ) -> Result<StepOutcome, StepError> {
        let done = AttemptDone {
            attempt_id: lost.attempt_id.clone(),
            claim_id: Some(our_claim.clone()),
            started: lost.started_at,
            ended: lost.lease_until,
            outcome: AttemptOutcome::Lost,
            duration_ms: 0,
            completion_token: None,
        };
        let m = DeliveryMessage {
            attempt: lost.number,
            ..m.clone()
        };
        self.finish(&m, endpoint, delivery, done).await
    }

    /// Replaces the delivery if it still has the version our claim gave it; `false`
    /// when someone took the claim over meanwhile (we were too slow).
    async fn write_held(&self, updated: &Delivery, claimed_version: u64) -> Result<bool, StepError> {
        match self.deliveries.update_delivery(updated, claimed_version).await {
            Ok(()) => Ok(true),
            Err(PortError::Conflict(_)) => Ok(false),
            Err(e) => Err(StepError::Store(e)),
        }
    }

    pub async fn settle_without_attempt(
        &self,
        delivery: Delivery,
        endpoint: &Endpoint,
        reason: SettleReason,
        now: Timestamp,
    ) -> Result<StepOutcome, StepError> {
        let claimed_version = delivery.version;
        let mut updated = delivery;
        settle(&mut updated, endpoint, DeliveryStatus::Failed, Some(reason), now);
        updated.claim = None;
        updated.version += 1;
        if !self.write_held(&updated, claimed_version).await? {
            return Ok(StepOutcome::Dropped {
                why: DropReason::ClaimLost,
            });
        }
        self.count_settled(&updated, now).await;
        if let Some(notify) = self.notify.as_ref().filter(|_| !is_own_event(&updated)) {
            let notice = Notice::delivery_failed(endpoint, &updated, None, None, now);
            notify.emit_or_warn(&notice).await;
        }
        Ok(StepOutcome::SettledWithoutAttempt {
            delivery: Box::new(updated),
        })
    }

    pub async fn finish(
        &self,
        m: &DeliveryMessage,
        endpoint: &Endpoint,
        mut delivery: Delivery,
        done: AttemptDone,
    ) -> Result<StepOutcome, StepError> {
        let AttemptDone {
            claim_id,
            attempt_id,
            started,
            ended,
            outcome,
            duration_ms,
            completion_token,
        } = done;
        let attempt_id = &attempt_id;
        let policy = &endpoint.policy;
        let ctx = context(&delivery, endpoint);
        let cls = policy.classify(&outcome, completion_token.is_some());
        let receiver_failures = delivery.receiver_failures + u32::from(cls.counts_toward_receiver_failures);
        let facts = AttemptFacts {
            number: m.attempt,
            started_at: started,
            ended_at: ended,
            receiver_failures,
        };
        let decision = decide_for(
            m.trigger,
            policy,
            &ctx,
            &facts,
            &outcome,
            &cls,
            &mut PortRng(self.random),
        );
        if let (Decision::AwaitCompletion { until }, Some(token)) = (decision, &completion_token) {
            return self
                .await_completion(m, endpoint, delivery, attempt_id, started, duration_ms, until, token)
                .await;
        }
        let attempt = Box::new(attempt_record(
            &delivery,
            attempt_id,
            m.attempt,
            m,
            &cls,
            &outcome,
            policy,
            duration_ms,
            started,
            &decision,
        ));
        let lost = outcome == AttemptOutcome::Lost;
        // The record is conditional on the claim this step holds (the delivery as
        // claimed carries it, with the token only the claimer knows).
        let expected = claim_id.as_ref().unwrap_or(attempt_id);
        let Some(held) = delivery.claim.take().filter(|c| &c.attempt_id == expected) else {
            return Ok(StepOutcome::Dropped {
                why: DropReason::ClaimLost,
            });
        };
        next_delivery(&mut delivery, endpoint, &cls, &decision, receiver_failures, ended);
        delivery.carried_by_queue = self.retry_carried_by_queue(m, &decision, ended);
        match self.deliveries.record_attempt(&delivery, &attempt, &held).await {
            Ok(()) => {}
            Err(PortError::Conflict(_)) => {
                return Ok(StepOutcome::Dropped {
                    why: DropReason::ClaimLost,
                });
            }
            Err(e) => return Err(StepError::Store(e)),
        }
        // Counted only after the record is written, so a duplicate message or a
        // rewritten outcome (refused above) never counts twice.
        if let (Some(streak), Some(notify)) = (
            self.count_attempt(&delivery, cls.state, duration_ms, ended).await,
            self.notify.as_ref(),
        ) {
            notify_streak(notify, endpoint, streak, self.clock.now().max(ended)).await;
        }
        self.after_record(m, endpoint, &delivery, &cls, &decision, ended)
            .await?;
        Ok(if lost {
            StepOutcome::LostRecorded {
                attempt,
                delivery: Box::new(delivery),
            }
        } else {
            StepOutcome::Attempted {
                attempt,
                delivery: Box::new(delivery),
            }
        })
    }

    /// Adds a recorded attempt to its endpoint's statistics (`crate::domain::stats`) and
    /// answers the endpoint's run of consecutive failed attempts after it (`None`
    /// when the store keeps no statistics, the state is not counted, the counter
    /// write failed, or the count went into the task's sender batch, whose flush
    /// answers the streaks). Call it once per attempt whose record was written: the count
    /// is not idempotent. A failed counter write loses that count and nothing else
    /// (the outcome is durable already; redoing the step would not count it either).
    pub async fn count_attempt(
        &self,
        delivery: &Delivery,
        state: AttemptState,
        duration_ms: u64,
        ended: Timestamp,
    ) -> Option<crate::domain::stats::StreakMove> {
        let stats = self.deliveries.stats()?;
        let mut tally = crate::domain::stats::StatsTally::of_attempt(delivery, state, duration_ms, ended)?;
        // Attempts of operational and test events leave the run of failures alone:
        // they never cause an operational event.
        if delivery.trigger == Trigger::Test || is_own_event(delivery) {
            tally.streak = crate::domain::stats::StreakChange::Keep;
        }
        self.count(stats, tally).await
    }

    /// Adds a delivery settled without an attempt to its endpoint's statistics; once,
    /// after the write that settled it.
    pub async fn count_settled(&self, delivery: &Delivery, at: Timestamp) {
        let Some(stats) = self.deliveries.stats() else { return };
        if let Some(tally) = crate::domain::stats::StatsTally::of_settled(delivery, at) {
            self.count(stats, tally).await;
        }
    }

    async fn count(
        &self,
        stats: &dyn crate::ports::StatsStore,
        tally: crate::domain::stats::StatsTally,
    ) -> Option<crate::domain::stats::StreakMove> {
        // Inside a sender batch the count waits for the batch's one write per
        // endpoint-minute (`StatsBatch::flush` answers the streak then).
        let mut tally = Some(tally);
        let _ = crate::pipeline::statistics::STATS_BATCH.try_with(|b| tally.take().map(|t| b.add(t)));
        let tally = tally?;
        crate::pipeline::statistics::add_logged(stats, &tally).await
    }

    /// A 202 for long-running work: nothing is recorded yet. The claim's lease is
    /// stretched past the allowance (so duplicates stay out), the token's hash is kept,
    /// and a timer is set to give up at the end of the allowance.
    #[allow(clippy::too_many_arguments)]
    async fn await_completion(
        &self,
        m: &DeliveryMessage,
        endpoint: &Endpoint,
        delivery: Delivery,
        attempt_id: &AttemptId,
        started: Timestamp,
        duration_ms: u64,
        until: Timestamp,
        token: &str,
    ) -> Result<StepOutcome, StepError> {
        let claimed_version = delivery.version;
        let mut updated = delivery;
        updated.awaiting = Some(AwaitingCompletion {
            attempt_id: attempt_id.clone(),
            number: m.attempt,
            trigger: m.trigger,
            started_at: started,
            until,
            duration_ms,
            token_hash: crate::domain::secrets::hash_key(token),
        });
        if let Some(c) = updated.claim.as_mut() {
            c.lease_until = until.plus_millis(self.lease_margin_ms as i64);
        }
        updated.version += 1;
        if !self.write_held(&updated, claimed_version).await? {
            return Ok(StepOutcome::Dropped {
                why: DropReason::ClaimLost,
            });
        }
        let check = DeliveryMessage {
            v: 1,
            delivery_id: updated.id.clone(),
            tenant_id: updated.tenant_id.clone(),
            endpoint_id: endpoint.id.clone(),
            attempt: m.attempt,
            not_before: until,
            trigger: m.trigger,
            source_attempt_id: None,
            attempt_id: Some(attempt_id.clone()),
            completion_check: true,
            body: None,
        };
        self.planner
            .plan(check, self.clock.now())
            .await
            .map_err(StepError::Plan)?;
        Ok(StepOutcome::AwaitingCompletion {
            delivery: Box::new(updated),
        })
    }

    /// Whether the retry `decision` plans is carried by a queue message from the
    /// outcome's write on: the message in hand `m` until the retry's own, sent with
    /// an SQS delay. Only a message that, back on the queue, plans the retry again
    /// (`next_step_unplanned`: an attempt message whose number is the one before the
    /// retry's, not a completion check). A wait long enough for a Scheduler schedule
    /// keeps its due-index entry (the schedule, not SQS, holds the retry then), as
    /// does any outcome recorded without a message in hand. The path is chosen as of
    /// now and again, later, when planning: a wait only shrinks, so an SQS delay now
    /// is one then.
    fn retry_carried_by_queue(&self, m: &DeliveryMessage, decision: &Decision, ended: Timestamp) -> bool {
        match decision {
            Decision::Retry { number, at, .. }
                if self.message_in_hand && !m.completion_check && *number == m.attempt + 1 =>
            {
                matches!(
                    self.planner.path(*at, self.clock.now().max(ended)),
                    crate::pipeline::planner::Path::Queue { .. }
                )
            }
            _ => false,
        }
    }

    /// Health bookkeeping, then the next step, both as of now (never before `ended`).
    /// Runs only once the outcome is durable.
    async fn after_record(
        &self,
        m: &DeliveryMessage,
        endpoint: &Endpoint,
        delivery: &Delivery,
        cls: &Classification,
        decision: &Decision,
        ended: Timestamp,
    ) -> Result<(), StepError> {
        let health = health_events(endpoint, cls, decision).filter(|_| m.trigger != Trigger::Test);
        // Deliveries of operational (and test) events never cause one: no loops.
        let tell = self
            .notify
            .as_ref()
            .filter(|_| m.trigger != Trigger::Test && !is_own_event(delivery));
        if let (Some(notify), Decision::Failed { .. }) = (tell, decision)
            && delivery.status == DeliveryStatus::Failed
        {
            let now = self.clock.now().max(ended);
            let notice = Notice::delivery_failed(
                endpoint,
                delivery,
                Some(cls.diagnostic.wire_name()),
                Some(cls.remediation.wire_name()),
                now,
            );
            notify.emit_or_warn(&notice).await;
        }
        if health.is_none() && !matches!(decision, Decision::Retry { .. }) {
            // Nothing to write as of a time: most successes.
            return Ok(());
        }
        let now = self.clock.now().max(ended);
        if let Some(events) = health
            && let Err(e) = self.update_health(endpoint, events, now, tell).await
        {
            // Health is advisory for this delivery; the step itself is durable.
            tracing::warn!(endpoint = %endpoint.id, error = %e, "endpoint health update failed");
        }
        if let Decision::Retry { number, at, .. } = decision {
            let next = DeliveryMessage {
                v: 1,
                delivery_id: delivery.id.clone(),
                tenant_id: delivery.tenant_id.clone(),
                endpoint_id: delivery.endpoint_id.clone(),
                attempt: *number,
                not_before: *at,
                trigger: if m.trigger == Trigger::Replay {
                    Trigger::Replay
                } else {
                    Trigger::Retry
                },
                source_attempt_id: None,
                attempt_id: None,
                completion_check: false,
                body: None,
            };
            self.planner.plan(next, now).await.map_err(StepError::Plan)?;
        }
        Ok(())
    }

    async fn update_health(
        &self,
        endpoint: &Endpoint,
        (breaker_event, health_event): HealthEvents,
        now: Timestamp,
        tell: Option<&Notifier<'_>>,
    ) -> Result<(), PortError> {
        if let Some(ev) = health_event {
            return self.update_smart_health(endpoint, ev, now, tell).await;
        }
        // Optimistic concurrency: concurrent senders each re-read and re-apply.
        for _ in 0..8 {
            let Some(mut e) = self.endpoints.get_endpoint(&endpoint.tenant_id, &endpoint.id).await? else {
                return Ok(());
            };
            let mut changed = false;
            let stored = e.breaker.unwrap_or_default();
            if let (Some(ev), Some(rules)) = (breaker_event, e.policy.health.breaker_rules()) {
                let after = stored.apply(rules, ev, now);
                changed |= after != stored;
                e.breaker = Some(after);
            }
            if !changed {
                // Most often a success on a closed breaker that counts nothing: the
                // write would store the same state (a billed write per delivery).
                return Ok(());
            }
            let expected = e.version;
            e.version += 1;
            e.updated_at = now;
            match self.endpoints.update_endpoint(&e, expected).await {
                Ok(()) => {
                    let after = e.breaker.unwrap_or_default();
                    if let (Some(notify), Some(kind)) = (tell, breaker_change(stored, after, now)) {
                        // The opening's instant names both its events.
                        let episode = after.open_until.or(stored.open_until).unwrap_or(now);
                        notify.emit_or_warn(&Notice::endpoint(kind, &e, episode, now)).await;
                    }
                    return Ok(());
                }
                Err(PortError::Conflict(_)) => continue,
                Err(err) => return Err(err),
            }
        }
        Err(PortError::Conflict("endpoint health update kept conflicting".into()))
    }

    /// SmartChat health kept apart from the endpoint record
    /// (`EndpointStore::put_smart_health`): a success on an `Active` endpoint is one
    /// conditional write with no read (`note_smart_success`), which is what nearly
    /// every success is; anything else reads the health, applies the event and
    /// replaces it if it is still what was read, again on a collision.
    async fn update_smart_health(
        &self,
        endpoint: &Endpoint,
        ev: HealthEvent,
        now: Timestamp,
        tell: Option<&Notifier<'_>>,
    ) -> Result<(), PortError> {
        if ev == HealthEvent::AttemptSucceeded
            && self
                .endpoints
                .note_smart_success(&endpoint.tenant_id, &endpoint.id, now)
                .await?
        {
            return Ok(());
        }
        for _ in 0..8 {
            let Some(e) = self.endpoints.get_endpoint(&endpoint.tenant_id, &endpoint.id).await? else {
                return Ok(());
            };
            let Some(rules) = e.policy.health.smart_rules() else {
                return Ok(());
            };
            // An endpoint created without health starts it now, as before.
            let before = e
                .health
                .unwrap_or_else(|| courier_core::health::SmartHealth::new(e.created_at));
            // A success that a later one, landed first, already stands for: noting
            // this one would move the last success back.
            if ev == HealthEvent::AttemptSucceeded
                && before.status == HealthStatus::Active
                && before.failures_in_a_row == 0
                && before.quiet_since >= now
            {
                return Ok(());
            }
            let after = before.apply(rules, ev, now);
            if e.health == Some(after) {
                return Ok(());
            }
            match self
                .endpoints
                .put_smart_health(&e.tenant_id, &e.id, e.health.as_ref(), &after)
                .await
            {
                Ok(()) => {
                    if let (Some(notify), Some((kind, cause))) = (tell, smart_change(before.status, after.status, ev)) {
                        let notice = match cause {
                            Some(cause) => Notice::disabled(&e, cause, after.since, now),
                            None => Notice::endpoint(kind, &e, after.since, now)
                                .with("state", serde_json::json!(after.status.wire_name())),
                        };
                        notify.emit_or_warn(&notice).await;
                    }
                    return Ok(());
                }
                Err(PortError::Conflict(_)) => continue,
                Err(err) => return Err(err),
            }
        }
        Err(PortError::Conflict("endpoint health update kept conflicting".into()))
    }
}

/// `courier.endpoint.failing` when a run of failed attempts reaches the endpoint's
/// `failingAfter`, `courier.endpoint.recovered` at the success that ends such a run;
/// named by the run's first failure count crossing, so told once per run.
pub async fn notify_streak(
    notify: &Notifier<'_>,
    endpoint: &Endpoint,
    streak: crate::domain::stats::StreakMove,
    now: Timestamp,
) {
    if let Some(kind) = streak_change(streak.before, streak.after, endpoint.failing_after()) {
        let mut notice = Notice::endpoint(kind, endpoint, now, now)
            .with("failuresInARow", serde_json::json!(streak.before.max(streak.after)));
        notice.change_key = format!("{}#{}#{}", kind.name(), endpoint.id, now.millis());
        notify.emit_or_warn(&notice).await;
    }
}

/// The breaker and health events an outcome carries under the endpoint's health
/// model; `None` when there are none (no endpoint write then).
pub(super) type HealthEvents = (Option<BreakerEvent>, Option<HealthEvent>);

pub(super) fn health_events(endpoint: &Endpoint, cls: &Classification, decision: &Decision) -> Option<HealthEvents> {
    let breaker_event = match (endpoint.policy.health, decision) {
        (HealthModel::Breaker { .. }, Decision::Succeeded) => Some(BreakerEvent::Success),
        (
            HealthModel::Breaker { .. },
            Decision::Failed {
                reason: SettleReason::MaxAttempts,
            },
        ) => Some(BreakerEvent::DeliveryExhausted),
        _ => None,
    };
    let health_event = match (endpoint.policy.health, cls.state) {
        (HealthModel::Smartchat { .. }, _) if cls.disables_endpoint => Some(HealthEvent::Gone),
        (HealthModel::Smartchat { .. }, AttemptState::Succeeded) => Some(HealthEvent::AttemptSucceeded),
        // Declining to send (paused, disabled) is not a failure of the receiver.
        (
            HealthModel::Smartchat { .. },
            AttemptState::RetryableFailure | AttemptState::TerminalFailure | AttemptState::Ambiguous,
        ) if cls.error_class.is_some() || cls.state == AttemptState::Ambiguous => Some(HealthEvent::AttemptFailed),
        _ => None,
    };
    (breaker_event.is_some() || health_event.is_some()).then_some((breaker_event, health_event))
}

/// The delivery's context: the endpoint's latency class and long-running allowance,
/// each replaced by the delivery's own setting when it has one (a schedule's).
pub fn context(delivery: &Delivery, endpoint: &Endpoint) -> DeliveryContext {
    let own = delivery.delivery_settings.as_ref();
    DeliveryContext {
        planned_at: delivery.planned_at,
        latency_class: DeliverySettings::latency_class(own, endpoint),
        long_running_allowance_seconds: DeliverySettings::long_running_allowance_seconds(own, endpoint),
    }
}

/// Redeliveries and test sends are single attempts: they never start a ladder.
pub(super) fn decide_for(
    trigger: Trigger,
    policy: &courier_core::Policy,
    ctx: &DeliveryContext,
    facts: &AttemptFacts,
    outcome: &AttemptOutcome,
    cls: &Classification,
    rng: &mut dyn RandomSource,
) -> Decision {
    let d = policy.decide(ctx, facts, outcome, cls, rng);
    match (trigger, d) {
        (Trigger::Redelivery | Trigger::Test, Decision::Retry { .. }) => Decision::Failed {
            reason: cls.settles.unwrap_or(SettleReason::MaxAttempts),
        },
        _ => d,
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn attempt_record(
    delivery: &Delivery,
    id: &AttemptId,
    number: u32,
    m: &DeliveryMessage,
    cls: &Classification,
    outcome: &AttemptOutcome,
    policy: &courier_core::Policy,
    duration_ms: u64,
    started_at: Timestamp,
    decision: &Decision,
) -> Attempt {
    let response = outcome.response();
    let snippet = match outcome {
        AttemptOutcome::CompletionReported {
            succeeded: false,
            detail: Some(d),
        } => Some(courier_core::classify::cut_snippet(policy.snippet, d.as_bytes(), false)),
        AttemptOutcome::TokenFailed(failure) => Some(policy.token_failure_snippet(failure)),
        _ => response.and_then(|r| policy.failure_snippet(r)),
    };
    Attempt {
        id: id.clone(),
        delivery_id: delivery.id.clone(),
        tenant_id: delivery.tenant_id.clone(),
        number,
        trigger: m.trigger,
        source_attempt_id: m.source_attempt_id.clone(),
        state: Cow::Borrowed(cls.state.wire_name()),
        response_status: response.map(|r| r.status),
        error_class: cls.error_class.map(|c| Cow::Borrowed(c.wire_name())),
        diagnostic: Cow::Borrowed(cls.diagnostic.wire_name()),
        remediation: Cow::Borrowed(cls.remediation.wire_name()),
        counts_toward_receiver_failures: cls.counts_toward_receiver_failures,
        truncated: snippet.as_ref().is_some_and(|s| s.1),
        failure_snippet: snippet.map(|s| s.0),
        response_headers: response
            .map(|r| r.kept_headers().into_iter().collect())
            .unwrap_or_default(),
        destination_error: response.and_then(|r| r.destination.as_deref()).and_then(|d| {
            d.code.clone().map(|code| crate::domain::model::DestinationErrorRecord {
                code,
                request_id: d.request_id.clone(),
            })
        }),
        message_id: response
            .and_then(|r| r.destination.as_deref())
            .and_then(|d| d.message_id.clone()),
        duration_ms,
        started_at,
        next_attempt_at: match decision {
            Decision::Retry { at, .. } => Some(*at),
            _ => None,
        },
        expires_at: Some(started_at.millis() / 1000 + retention_seconds(policy) + 60 * 86_400),
    }
}

pub(super) fn retention_seconds(policy: &courier_core::Policy) -> i64 {
    i64::from(policy.retention.settled_days) * 86_400
}

/// Settles `d` with `status` (and the reason in the policy's spelling) at `now`.
pub fn settle(
    d: &mut Delivery,
    endpoint: &Endpoint,
    status: DeliveryStatus,
    reason: Option<SettleReason>,
    now: Timestamp,
) {
    d.status = status;
    d.dead_reason = reason.map(|r| r.label(endpoint.policy.reason_style));
    d.settled_at = Some(now);
    d.next_attempt_at = None;
    d.expires_at = Some(now.millis() / 1000 + retention_seconds(&endpoint.policy));
}

pub(super) fn next_delivery(
    d: &mut Delivery,
    endpoint: &Endpoint,
    cls: &Classification,
    decision: &Decision,
    receiver_failures: u32,
    now: Timestamp,
) {
    d.attempt_count += 1;
    d.receiver_failures = receiver_failures;
    d.claim = None;
    d.awaiting = None;
    // A promised redelivery is over once any attempt is recorded.
    d.redelivery = None;
    d.version += 1;
    match decision {
        Decision::Succeeded | Decision::AwaitCompletion { .. } => {
            settle(d, endpoint, DeliveryStatus::Succeeded, None, now)
        }
        Decision::Failed { reason } => {
            let status = if *reason == SettleReason::BreakerOpen {
                DeliveryStatus::Dropped
            } else {
                DeliveryStatus::Failed
            };
            settle(d, endpoint, status, Some(*reason), now);
        }
        Decision::Retry { number, at, last } => {
            d.status = if cls.state == AttemptState::Ambiguous {
                DeliveryStatus::Ambiguous
            } else {
                DeliveryStatus::Retrying
            };
            d.next_attempt = *number;
            d.next_attempt_at = Some(*at);
            d.last_planned = *last;
        }
    }
}
