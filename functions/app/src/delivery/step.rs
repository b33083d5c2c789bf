//! The sender's step: claim the delivery, check it may be sent, make the one attempt,
//! and hand the outcome to the recorder; duplicates and stale messages are dropped.

use super::destination::destination_message;
use super::endpoint_cache::{EndpointCache, PreparedEndpoint};
use super::hold;
use super::recorder::{Recorder, context};
use super::request::prepared_request;
use super::{AttemptDone, DropReason, HEADER_COMPLETION_TOKEN, Sender, StepError, StepOutcome};
use crate::domain::delivery_message::{DeliveryMessage, Trigger};
use crate::domain::model::{ClaimRecord, Delivery, DeliverySettings, Endpoint, EndpointState};
use crate::ports::Claim;
use crate::ports::PortRng;
use courier_core::Timestamp;
use courier_core::decide::SettleReason;
use courier_core::health::HealthStatus;
use courier_core::ids::AttemptId;
use courier_core::outcome::{AttemptOutcome, PreSendFailure};
use std::borrow::Cow;
use std::sync::Arc;

impl Sender {
    pub(super) async fn endpoint(
        &self,
        m: &DeliveryMessage,
        cache: &EndpointCache,
    ) -> Result<Arc<PreparedEndpoint>, StepError> {
        let slot = cache.slot(&m.tenant_id, &m.endpoint_id);
        let found = slot
            .get_or_try_init(|| async {
                let read = self
                    .endpoints
                    .get_endpoint(&m.tenant_id, &m.endpoint_id)
                    .await
                    .map_err(StepError::Store)?;
                // An endpoint of another tenant must never serve this message.
                Ok::<_, StepError>(match read.filter(|e| e.tenant_id == m.tenant_id) {
                    Some(e) => Some(Arc::new(PreparedEndpoint::opened(e, self.sealer.as_ref()).await)),
                    None => None,
                })
            })
            .await?;
        found
            .clone()
            .ok_or_else(|| StepError::EndpointMissing(m.endpoint_id.clone()))
    }

    /// Handles one message. `Err` means: leave the message on the queue. A message
    /// whose attempt is already recorded may be back because planning the next step
    /// failed after the record: it plans that step again (idempotent), see
    /// [`Sender::refused`].
    pub async fn handle(&self, m: &DeliveryMessage, cache: &EndpointCache) -> Result<StepOutcome, StepError> {
        if self.faults.fail_step(m) {
            return Err(StepError::InjectedFailure);
        }
        let now = self.clock.now();
        if m.not_before > now {
            self.planner.plan(m.clone(), now).await.map_err(StepError::Plan)?;
            return Ok(StepOutcome::Redelayed { until: m.not_before });
        }
        if m.completion_check {
            return self.check_completion(m, now).await;
        }
        let prepared = match self.endpoint(m, cache).await {
            Ok(e) => e,
            // The message names an endpoint that is not this tenant's: it cannot be
            // ours to send. Claim and settle as an identity conflict below.
            Err(StepError::EndpointMissing(_)) => return self.identity_conflict(m, cache, now).await,
            Err(e) => return Err(e),
        };
        // Limits are checked before the claim, so a held attempt writes nothing to
        // the delivery; an endpoint without limits asks no store.
        let limits = prepared.endpoint.limits(&self.settings.default_limits);
        if limits.is_none() {
            return self.attempt(m, &prepared, now).await;
        }
        let now = self.clock.now().max(now);
        let slot = match self.hold(m, &prepared.endpoint, &limits, now).await? {
            hold::Hold::Held(outcome) => return Ok(outcome),
            hold::Hold::Go { slot } => slot,
        };
        let result = self.attempt(m, &prepared, now).await;
        if let Some(slot) = slot {
            self.release_slot(m, &slot).await;
        }
        result
    }

    /// Claims, checks and makes the attempt, and records it.
    async fn attempt(
        &self,
        m: &DeliveryMessage,
        prepared: &PreparedEndpoint,
        now: Timestamp,
    ) -> Result<StepOutcome, StepError> {
        let endpoint = &prepared.endpoint;
        let mut rng = PortRng(self.random.as_ref());
        let attempt_id = m
            .attempt_id
            .clone()
            .unwrap_or_else(|| AttemptId::generate(now, &mut rng));
        let young = crate::ingest::send_ahead::young_first_wait_ms(m, now, self.settings.unwritten_min_age_ms);
        if young > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(young)).await;
        }
        let mut looked_again = false;
        let (now, claim) = loop {
            // The lease is counted from the claim itself, not from the start of the
            // step: a slow endpoint read must not shorten the time the request has.
            let now = self.clock.now().max(now);
            let claim = self.new_claim(m.attempt, &attempt_id, now, endpoint.timeout_ms());
            let claim = self
                .deliveries
                .claim_attempt(&m.delivery_id, &claim)
                .await
                .map_err(StepError::Store)?;
            // A first message sent ahead of its delivery's write can beat the write
            // by milliseconds: one more look after a short pause.
            let unwritten =
                matches!(claim, Claim::Refused(None)) && crate::ingest::send_ahead::recheck_unwritten(m, now).is_some();
            if unwritten && !looked_again && self.settings.unwritten_pause_ms > 0 {
                looked_again = true;
                tokio::time::sleep(std::time::Duration::from_millis(self.settings.unwritten_pause_ms)).await;
                continue;
            }
            break (now, claim);
        };
        let (delivery, lost) = match claim {
            Claim::Claimed { delivery, lost } => (delivery, lost),
            Claim::Refused(None) => {
                // A first message may be sent just ahead of its delivery's write
                // (`ingest::send_ahead`): look again a little later, within a window.
                if let Some(until) = crate::ingest::send_ahead::recheck_unwritten(m, now) {
                    let wait = until.millis_since(now).div_euclid(1000) as u32;
                    self.planner.queue.send(m, wait).await.map_err(StepError::Plan)?;
                    return Ok(StepOutcome::NotYetWritten { until });
                }
                return Ok(StepOutcome::Dropped {
                    why: DropReason::UnknownDelivery,
                });
            }
            Claim::Refused(Some(d)) => return self.refused(&d, m, now).await,
        };
        if let Some(lost) = lost {
            return self
                .recorder()
                .record_lost(m, endpoint, delivery, lost, &attempt_id)
                .await;
        }
        if delivery.tenant_id != m.tenant_id || delivery.endpoint_id != m.endpoint_id {
            let outcome = AttemptOutcome::pre_send(PreSendFailure::IdentityConflict);
            return self
                .recorder()
                .finish(m, endpoint, delivery, AttemptDone::declined(&attempt_id, now, outcome))
                .await;
        }
        let delivery = self.with_body(delivery, m).await?;
        let ctx = context(&delivery, endpoint);
        if m.trigger != Trigger::Redelivery && m.trigger != Trigger::Test && !endpoint.policy.may_start(&ctx, now) {
            return self
                .recorder()
                .settle_without_attempt(delivery, endpoint, SettleReason::Deadline, now)
                .await;
        }
        let failure = pre_send_check(endpoint, &delivery, m.trigger, now).or(prepared
            .credentials_unavailable
            .then_some(PreSendFailure::CredentialsUnavailable));
        if let Some(failure) = failure {
            let outcome = AttemptOutcome::pre_send(failure);
            return self
                .recorder()
                .finish(m, endpoint, delivery, AttemptDone::declined(&attempt_id, now, outcome))
                .await;
        }
        let completion_token = self.completion_token(endpoint, &delivery, m);
        let mut request = prepared_request(prepared, &delivery, m, &attempt_id, now);
        if let Some(token) = &completion_token {
            request
                .headers
                .push((Cow::Borrowed(HEADER_COMPLETION_TOKEN), Cow::Owned(token.clone())));
        }
        // The request ends no later than the lease minus the margin its writes
        // need: the time since the claim (the body read above) comes off the
        // request, never off that margin, so no copy can take the claim over while
        // this request is still open.
        request.timeout_ms = request_budget_ms(request.timeout_ms, now, self.clock.now());
        // Time at the receiver, for the lanes' congestion rule (`sender::lanes`).
        let request_mark = crate::delivery::lanes::request_begins(self.clock.now());
        let sent = match &endpoint.destination {
            None => self.http.send(request).await,
            Some(d) => {
                let message =
                    destination_message(d, endpoint.external_id(), &delivery, &request, m.attempt, &attempt_id);
                self.destinations.send(message).await
            }
        };
        drop(request_mark);
        if self.faults.crash_after_send(m) {
            return Err(StepError::InjectedCrash);
        }
        let ended = self.clock.now().max(now);
        let done = AttemptDone {
            attempt_id: attempt_id.clone(),
            claim_id: None,
            started: now,
            ended,
            outcome: sent.outcome,
            duration_ms: sent.duration_ms,
            completion_token,
        };
        self.recorder().finish(m, endpoint, delivery, done).await
    }

    /// The claimed delivery with its body: a delivery whose body is stored once, in
    /// its event item (`body_hash` set), comes back from the claim without it. The
    /// message's copy is used when it hashes to `body_hash` (a first message,
    /// usually), else the event's (one read). A body found nowhere, or not the one
    /// the hash names, stays empty, and the pre-send check records the attempt as
    /// `payload_unavailable` rather than send other bytes.
    pub(super) async fn with_body(&self, mut delivery: Delivery, m: &DeliveryMessage) -> Result<Delivery, StepError> {
        let Some(h) = delivery.body_hash.as_deref().filter(|_| delivery.body.is_empty()) else {
            return Ok(delivery);
        };
        let body = match crate::domain::shared_body::from_message(m, h) {
            Some(b) => Some(b),
            None => self
                .deliveries
                .event_body(&delivery.event_id)
                .await
                .map_err(StepError::Store)?
                .filter(|b| crate::domain::shared_body::hash(b) == h),
        };
        if let Some(b) = body {
            delivery.body = b;
        }
        Ok(delivery)
    }

    /// A claim on attempt `number` made at `now`, with a fresh token only this step
    /// knows, leased for the request's timeout plus the margin for the writes.
    pub(super) fn new_claim(
        &self,
        number: u32,
        attempt_id: &AttemptId,
        now: Timestamp,
        timeout_ms: u64,
    ) -> ClaimRecord {
        let mut raw = [0u8; 16];
        self.secrets.fill(&mut raw);
        ClaimRecord {
            number,
            attempt_id: attempt_id.clone(),
            token: courier_core::hex::encode(&raw),
            started_at: now,
            lease_until: now.plus_millis(timeout_ms.saturating_add(self.settings.lease_margin_ms) as i64),
        }
    }

    /// A fresh, unguessable token for a long-running attempt; its first part names
    /// the delivery so the completion call can find it without an index.
    pub(super) fn completion_token(
        &self,
        endpoint: &Endpoint,
        delivery: &Delivery,
        m: &DeliveryMessage,
    ) -> Option<String> {
        let own = delivery.delivery_settings.as_ref();
        if DeliverySettings::long_running_allowance_seconds(own, endpoint) == 0 || m.trigger == Trigger::Test {
            return None;
        }
        let mut raw = [0u8; 24];
        self.secrets.fill(&mut raw);
        Some(format!("{}.{}", delivery.id, courier_core::hex::encode(&raw)))
    }

    /// A timer for long-running attempt N fired: if no report came, attempt N is
    /// recorded as `completion_timed_out` (ambiguous) and the policy decides.
    pub(super) async fn check_completion(&self, m: &DeliveryMessage, now: Timestamp) -> Result<StepOutcome, StepError> {
        let Some(delivery) = self
            .deliveries
            .get_delivery(&m.delivery_id)
            .await
            .map_err(StepError::Store)?
        else {
            return Ok(StepOutcome::Dropped {
                why: DropReason::UnknownDelivery,
            });
        };
        let Some(aw) = delivery.awaiting.clone().filter(|a| a.number == m.attempt) else {
            return Ok(StepOutcome::Dropped { why: DropReason::Stale });
        };
        let Some(endpoint) = self
            .endpoints
            .get_endpoint(&delivery.tenant_id, &delivery.endpoint_id)
            .await
            .map_err(StepError::Store)?
        else {
            return Ok(StepOutcome::Dropped {
                why: DropReason::UnknownDelivery,
            });
        };
        let done = AttemptDone {
            attempt_id: aw.attempt_id.clone(),
            claim_id: None,
            started: aw.started_at,
            ended: now,
            outcome: AttemptOutcome::CompletionTimedOut,
            duration_ms: aw.duration_ms,
            completion_token: None,
        };
        let msg = DeliveryMessage {
            trigger: aw.trigger,
            ..m.clone()
        };
        self.recorder().finish(&msg, &endpoint, delivery, done).await
    }

    pub(super) async fn identity_conflict(
        &self,
        m: &DeliveryMessage,
        cache: &EndpointCache,
        now: Timestamp,
    ) -> Result<StepOutcome, StepError> {
        // Load the stored delivery's own endpoint so the conflict is recorded under
        // the policy the delivery really has.
        let Some(d) = self
            .deliveries
            .get_delivery(&m.delivery_id)
            .await
            .map_err(StepError::Store)?
        else {
            return Ok(StepOutcome::Dropped {
                why: DropReason::UnknownDelivery,
            });
        };
        let real = DeliveryMessage {
            tenant_id: d.tenant_id.clone(),
            endpoint_id: d.endpoint_id.clone(),
            ..m.clone()
        };
        let prepared = match self.endpoint(&real, cache).await {
            Ok(e) => e,
            Err(StepError::EndpointMissing(_)) => {
                return Ok(StepOutcome::Dropped {
                    why: DropReason::UnknownDelivery,
                });
            }
            Err(e) => return Err(e),
        };
        let endpoint = &prepared.endpoint;
        let mut rng = PortRng(self.random.as_ref());
        let attempt_id = AttemptId::generate(now, &mut rng);
        let claim = self.new_claim(m.attempt, &attempt_id, self.clock.now().max(now), 0);
        match self
            .deliveries
            .claim_attempt(&m.delivery_id, &claim)
            .await
            .map_err(StepError::Store)?
        {
            Claim::Claimed { delivery, .. } => {
                let outcome = AttemptOutcome::pre_send(PreSendFailure::IdentityConflict);
                self.recorder()
                    .finish(m, endpoint, delivery, AttemptDone::declined(&attempt_id, now, outcome))
                    .await
            }
            Claim::Refused(Some(d)) => self.refused(&d, m, now).await,
            Claim::Refused(None) => Ok(StepOutcome::Dropped {
                why: DropReason::UnknownDelivery,
            }),
        }
    }

    /// A claim of `m` refused on the stored `d`: the message is dropped. If `d`
    /// recorded `m`'s attempt and waits for a next step that no message may carry
    /// (planning it failed after the record, and `m` is back: SQS hands a message
    /// over again when its step returned `Err`, or a copy comes after a hold), that
    /// step is planned again first. Whatever the receive count: a retry through an
    /// SQS delay has no due-index entry (`Recorder::message_in_hand`), so `m` is the
    /// only thing left that can move `d` on. A duplicate copy of a message whose
    /// next step is planned plans it once more, which its claim makes harmless.
    async fn refused(&self, d: &Delivery, m: &DeliveryMessage, now: Timestamp) -> Result<StepOutcome, StepError> {
        if !m.completion_check && next_step_unplanned(d, m) {
            let next = crate::pipeline::dead_letter::resume_message(d, now);
            self.planner.plan(next, now).await.map_err(StepError::Plan)?;
        }
        Ok(StepOutcome::Dropped {
            why: refusal_reason(d, m, now),
        })
    }

    /// The recording half of the step, shared with the API's completion call.
    pub fn recorder(&self) -> Recorder<'_> {
        Recorder {
            deliveries: self.deliveries.as_ref(),
            clock: self.clock.as_ref(),
            endpoints: self.endpoints.as_ref(),
            planner: &self.planner,
            random: self.random.as_ref(),
            lease_margin_ms: self.settings.lease_margin_ms,
            message_in_hand: true,
            notify: self.fanout.as_deref().map(crate::fanout::FanoutWorker::notifier),
        }
    }
}

/// The delivery recorded this message's attempt and waits for the next one: if the
/// message is back, planning that next step may have failed.
pub(super) fn next_step_unplanned(d: &Delivery, m: &DeliveryMessage) -> bool {
    !d.status.is_settled()
        && d.next_attempt == m.attempt + 1
        && d.claim.is_none()
        && d.awaiting.is_none()
        && d.dead_lettered_at.is_none()
        && d.next_attempt_at.is_some()
}

pub(super) fn refusal_reason(d: &Delivery, m: &DeliveryMessage, now: Timestamp) -> DropReason {
    if d.status.is_settled() {
        DropReason::AlreadySettled
    } else if d
        .claim
        .as_ref()
        .is_some_and(|c| c.number == m.attempt && c.lease_until > now)
    {
        DropReason::DuplicateInflight
    } else {
        DropReason::Stale
    }
}

pub(super) fn pre_send_check(
    endpoint: &Endpoint,
    delivery: &Delivery,
    trigger: Trigger,
    now: Timestamp,
) -> Option<PreSendFailure> {
    match endpoint.state {
        EndpointState::Disabled => return Some(PreSendFailure::EndpointDisabled),
        EndpointState::Revoked => return Some(PreSendFailure::EndpointRevoked),
        EndpointState::Active => {}
    }
    if trigger != Trigger::Test {
        if endpoint.breaker.is_some_and(|b| b.is_open(now)) {
            return Some(PreSendFailure::BreakerOpen);
        }
        if let (Some(h), Some(rules)) = (endpoint.health, endpoint.policy.health.smart_rules()) {
            match h.at(rules, now).status {
                HealthStatus::Paused => return Some(PreSendFailure::EndpointPaused),
                HealthStatus::Disabled => return Some(PreSendFailure::EndpointDisabled),
                _ => {}
            }
        }
    }
    if !endpoint.secrets.iter().any(|s| s.signs_at(now)) {
        return Some(PreSendFailure::SigningSecretMissing);
    }
    // Courier wrote the envelope itself (valid JSON by construction), so a cheap shape
    // check catches a missing or mangled stored body without re-parsing up to 256 KiB
    // on every attempt.
    let body = delivery.body.trim();
    if !(body.starts_with('{') && body.ends_with('}')) {
        return Some(PreSendFailure::PayloadUnavailable);
    }
    None
}

/// What is left of a request's `timeout_ms` at `at` when its claim was made at
/// `claimed` with a lease of that timeout plus the writes' margin: at least 1 ms
/// (a request always goes out; one with no time left times out at once).
pub(crate) fn request_budget_ms(timeout_ms: u64, claimed: Timestamp, at: Timestamp) -> u64 {
    let spent = u64::try_from(at.millis_since(claimed)).unwrap_or(0);
    timeout_ms.saturating_sub(spent).max(1)
}

#[cfg(test)]
mod budget_tests {
    use super::request_budget_ms;
    use courier_core::Timestamp;

    #[test]
    fn the_time_since_the_claim_comes_off_the_request() {
        let claimed = Timestamp::from_millis(1_800_000_000_000);
        assert_eq!(request_budget_ms(10_000, claimed, claimed), 10_000);
        assert_eq!(request_budget_ms(10_000, claimed, claimed.plus_millis(4_000)), 6_000);
        assert_eq!(request_budget_ms(10_000, claimed, claimed.plus_millis(12_000)), 1);
        // A clock read before the claim (never later than it in practice) takes nothing.
        assert_eq!(request_budget_ms(10_000, claimed, claimed.plus_millis(-5)), 10_000);
    }
}
