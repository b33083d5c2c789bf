//! The sender's use case: one queue message -> at most one HTTP attempt, recorded,
//! then the next step planned. Implements the claim/lease protocol that keeps
//! at-least-once delivery honest: duplicates are dropped, nothing is sent twice
//! concurrently, an attempt whose sender vanished is recorded as lost (ambiguous),
//! and the next step is enqueued only after the outcome is durable.

use crate::message::{QueueMessage, Trigger};
use crate::model::{Attempt, AwaitingCompletion, ClaimRecord, Delivery, DeliveryStatus, Endpoint, EndpointState};
use crate::planner::Planner;
use crate::ports::{
    Claim, Clock, DeliveryStore, EndpointStore, HeaderText, HttpSender, OutboundRequest, PortError, Random,
    SharedHeaderText,
};
use bytes::Bytes;
use courier_core::Timestamp;
use courier_core::classify::{AttemptState, Classification};
use courier_core::decide::{AttemptFacts, Decision, DeliveryContext, SettleReason};
use courier_core::health::{BreakerEvent, HealthEvent, HealthStatus};
use courier_core::ids::{AttemptId, EndpointId, TenantId};
use courier_core::outcome::{AttemptOutcome, PreSendFailure};
use courier_core::policy::HealthModel;
use courier_core::rng::RandomSource;
use courier_core::signing::{SIGNATURE_LEN, SigningKey, SigningSecret, signature_header_keys_into};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// Adapts the `Random` port to the core's `RandomSource`.
pub struct PortRng<'a>(pub &'a dyn Random);

impl RandomSource for PortRng<'_> {
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// Fault injection for tests: lets a test make the sender "crash" at a point where a
/// real Lambda could die. Production uses [`NoFaults`].
pub trait Faults: Send + Sync {
    /// Called first: true makes the step fail as if storage were down.
    fn fail_step(&self, _message: &QueueMessage) -> bool {
        false
    }
    /// Called after the HTTP attempt and before the outcome is recorded.
    fn crash_after_send(&self, _message: &QueueMessage) -> bool {
        false
    }
}

pub struct NoFaults;
impl Faults for NoFaults {}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SenderSettings {
    /// Added to the request timeout to form the claim lease: long enough for the
    /// request plus the writes, so a live sender never loses its claim.
    pub lease_margin_ms: u64,
}

impl Default for SenderSettings {
    fn default() -> Self {
        SenderSettings {
            lease_margin_ms: 20_000,
        }
    }
}

/// What one message led to (for logs, metrics and tests).
#[derive(Debug, Clone, PartialEq)]
pub enum StepOutcome {
    /// The message arrived before its notBefore and was put back with a delay.
    Redelayed { until: Timestamp },
    /// An attempt was made (or declined before sending) and recorded.
    Attempted {
        attempt: Box<Attempt>,
        delivery: Box<Delivery>,
    },
    /// A previous sender's attempt was found lost and recorded as ambiguous.
    LostRecorded {
        attempt: Box<Attempt>,
        delivery: Box<Delivery>,
    },
    /// A 202 for long-running work: the attempt waits for the receiver's report.
    AwaitingCompletion { delivery: Box<Delivery> },
    /// Settled without an attempt (e.g. the deadline passed while the timer was late).
    SettledWithoutAttempt { delivery: Box<Delivery> },
    /// Nothing to do: duplicate, stale or unknown; the message is consumed.
    Dropped { why: DropReason },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DropReason {
    UnknownDelivery,
    AlreadySettled,
    /// Attempt N is already recorded (a duplicate message of an earlier step).
    Stale,
    /// Another sender holds a live claim on this attempt (`duplicate_inflight`).
    DuplicateInflight,
    /// Our claim was taken over before we could record (we were too slow).
    ClaimLost,
}

/// A failure that must make SQS redeliver the message (reported as a batch item
/// failure): nothing was lost, the step will be redone idempotently.
#[derive(Debug, thiserror::Error)]
pub enum StepError {
    #[error("storage: {0}")]
    Store(#[source] PortError),
    #[error("planning the next step: {0}")]
    Plan(#[source] PortError),
    #[error("endpoint {0} of the message does not exist")]
    EndpointMissing(EndpointId),
    #[error("fault injected: crash after send")]
    InjectedCrash,
    #[error("fault injected: step failure")]
    InjectedFailure,
}

/// Endpoints read once per batch: most batches target few endpoints. The records of
/// a batch run concurrently, so the first record to need an endpoint reads it and
/// the others wait for that read instead of each making its own (on DynamoDB, ten
/// `GetItem`s for a batch of ten). An endpoint that does not exist is remembered
/// too; a failed read is not, so the next record tries again. Shared, not copied,
/// by the batch's records.
#[derive(Default)]
pub struct EndpointCache {
    /// The event source mapping hands over batches of at most ten records
    /// (template.yaml: BatchSize), so a list scanned in full beats a hash map.
    inner: Mutex<Vec<(TenantId, EndpointId, EndpointCell)>>,
}

/// One endpoint's read, shared by the batch's records: `None` once read means the
/// endpoint does not exist.
type EndpointCell = Arc<OnceCell<Option<Arc<PreparedEndpoint>>>>;

impl EndpointCache {
    /// The slot of this tenant's endpoint, added empty on first use.
    fn slot(&self, tenant: &TenantId, id: &EndpointId) -> EndpointCell {
        let mut slots = self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, _, cell)) = slots.iter().find(|(t, e, _)| e == id && t == tenant) {
            return cell.clone();
        }
        let cell = Arc::new(OnceCell::new());
        slots.push((tenant.clone(), id.clone(), cell.clone()));
        cell
    }
}

/// An endpoint with its signing secrets decoded and keyed, which would otherwise be
/// redone for every attempt of the batch.
pub struct PreparedEndpoint {
    pub endpoint: Endpoint,
    /// One per `endpoint.secrets`, in order; `None` for a secret that does not decode
    /// (it signs nothing, as before).
    keys: Vec<Option<SigningKey>>,
}

impl PreparedEndpoint {
    pub fn new(endpoint: Endpoint) -> Self {
        let keys = endpoint
            .secrets
            .iter()
            .map(|s| SigningSecret::parse(&s.secret).ok().map(|k| k.key()))
            .collect();
        PreparedEndpoint { endpoint, keys }
    }

    /// The keys of the secrets that sign at `now`.
    fn signing_keys(&self, now: Timestamp) -> impl Iterator<Item = &SigningKey> {
        self.endpoint
            .secrets
            .iter()
            .zip(&self.keys)
            .filter(move |(s, _)| s.signs_at(now))
            .filter_map(|(_, k)| k.as_ref())
    }
}

/// [`Claim`] with its delivery boxed (see [`Sender::handle_received`]).
enum BoxedClaim {
    Claimed {
        delivery: Box<Delivery>,
        lost: Option<ClaimRecord>,
    },
    Refused(Option<Box<Delivery>>),
}

impl From<Claim> for BoxedClaim {
    fn from(claim: Claim) -> Self {
        match claim {
            Claim::Claimed { delivery, lost } => BoxedClaim::Claimed {
                delivery: Box::new(delivery),
                lost,
            },
            Claim::Refused(d) => BoxedClaim::Refused(d.map(Box::new)),
        }
    }
}

pub struct Sender {
    pub secrets: Arc<dyn crate::ports::SecretSource>,
    pub deliveries: Arc<dyn DeliveryStore>,
    pub endpoints: Arc<dyn EndpointStore>,
    pub http: Arc<dyn HttpSender>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
    pub planner: Planner,
    pub faults: Arc<dyn Faults>,
    pub settings: SenderSettings,
}

/// What an attempt (or a decision not to send) produced, ready to record.
pub struct AttemptDone {
    pub attempt_id: AttemptId,
    /// The claim the record is conditional on, when it is not the attempt's own id
    /// (a lost attempt recorded by the sender that took its claim over).
    pub claim_id: Option<AttemptId>,
    pub started: Timestamp,
    pub ended: Timestamp,
    pub outcome: AttemptOutcome,
    pub duration_ms: u64,
    /// Set when the request carried a completion token (long-running endpoints).
    pub completion_token: Option<String>,
}

impl AttemptDone {
    /// Declined before sending: no time passes, nothing was sent.
    pub fn declined(attempt_id: &AttemptId, now: Timestamp, outcome: AttemptOutcome) -> Self {
        AttemptDone {
            attempt_id: attempt_id.clone(),
            claim_id: None,
            started: now,
            ended: now,
            outcome,
            duration_ms: 0,
            completion_token: None,
        }
    }
}

/// The `user-agent` every attempt carries.
pub const USER_AGENT: &str = concat!("Courier/", env!("CARGO_PKG_VERSION"));

/// Headers every attempt carries, beside the signature.
pub const HEADER_ATTEMPT: &str = "webhook-attempt";
pub const HEADER_ATTEMPT_ID: &str = "webhook-attempt-id";
/// Sent to long-running endpoints; the receiver presents it to report completion.
pub const HEADER_COMPLETION_TOKEN: &str = "webhook-completion-token";

impl Sender {
    async fn endpoint(&self, m: &QueueMessage, cache: &EndpointCache) -> Result<Arc<PreparedEndpoint>, StepError> {
        let slot = cache.slot(&m.tenant_id, &m.endpoint_id);
        let found = slot
            .get_or_try_init(|| async {
                let read = self
                    .endpoints
                    .get_endpoint(&m.tenant_id, &m.endpoint_id)
                    .await
                    .map_err(StepError::Store)?;
                // An endpoint of another tenant must never serve this message.
                Ok::<_, StepError>(
                    read.filter(|e| e.tenant_id == m.tenant_id)
                        .map(|e| Arc::new(PreparedEndpoint::new(e))),
                )
            })
            .await?;
        found
            .clone()
            .ok_or_else(|| StepError::EndpointMissing(m.endpoint_id.clone()))
    }

    /// Handles one message. `Err` means: leave the message on the queue.
    pub async fn handle(&self, m: &QueueMessage, cache: &EndpointCache) -> Result<StepOutcome, StepError> {
        self.handle_received(m, cache, 1).await
    }

    /// Like [`Sender::handle`], for a message SQS has delivered `receive_count` times.
    /// A repeat delivery of a step whose outcome is already recorded may mean the
    /// previous try failed to plan the next step: it plans it again (idempotent).
    pub async fn handle_received(
        &self,
        m: &QueueMessage,
        cache: &EndpointCache,
        receive_count: u32,
    ) -> Result<StepOutcome, StepError> {
        if self.faults.fail_step(m) {
            return Err(StepError::InjectedFailure);
        }
        let now = self.clock.now();
        // The rarer paths below are boxed: every await inlines its future into this
        // one, which every record of a batch allocates and moves, so the common path
        // (claim, send, record) keeps it a third of the size it would be.
        if m.not_before > now {
            Box::pin(self.planner.plan(m.clone(), now))
                .await
                .map_err(StepError::Plan)?;
            return Ok(StepOutcome::Redelayed { until: m.not_before });
        }
        if m.completion_check {
            return Box::pin(self.check_completion(m, now)).await;
        }
        let prepared = match self.endpoint(m, cache).await {
            Ok(e) => e,
            // The message names an endpoint that is not this tenant's: it cannot be
            // ours to send. Claim and settle as an identity conflict below.
            Err(StepError::EndpointMissing(_)) => return Box::pin(self.identity_conflict(m, cache, now)).await,
            Err(e) => return Err(e),
        };
        let endpoint = &prepared.endpoint;
        let mut rng = PortRng(self.random.as_ref());
        let attempt_id = m
            .attempt_id
            .clone()
            .unwrap_or_else(|| AttemptId::generate(now, &mut rng));
        // The lease is counted from the claim itself, not from the start of the
        // step: a slow endpoint read must not shorten the time the request has.
        let now = self.clock.now().max(now);
        let claim = self.new_claim(m.attempt, &attempt_id, now, endpoint.timeout_ms());
        // Boxed here, not when the outcome is: then it is not held in this future
        // across the request, and the outcome reuses the box. Converted in the same
        // statement as the await, so the unboxed answer (500 bytes) is never a local
        // of this future, whose every record of a batch allocates and moves.
        let claim = BoxedClaim::from(
            self.deliveries
                .claim_attempt(&m.delivery_id, &claim)
                .await
                .map_err(StepError::Store)?,
        );
        let (delivery, lost) = match claim {
            BoxedClaim::Claimed { delivery, lost } => (delivery, lost),
            BoxedClaim::Refused(None) => {
                return Ok(StepOutcome::Dropped {
                    why: DropReason::UnknownDelivery,
                });
            }
            BoxedClaim::Refused(Some(d)) => {
                if receive_count > 1 && !m.completion_check && next_step_unplanned(&d, m) {
                    let next = crate::dead_letter::resume_message(&d, now);
                    Box::pin(self.planner.plan(next, now)).await.map_err(StepError::Plan)?;
                }
                return Ok(StepOutcome::Dropped {
                    why: refusal_reason(&d, m, now),
                });
            }
        };
        if let Some(lost) = lost {
            return Box::pin(self.recorder().record_lost(m, endpoint, *delivery, lost, &attempt_id)).await;
        }
        if delivery.tenant_id != m.tenant_id || delivery.endpoint_id != m.endpoint_id {
            let outcome = AttemptOutcome::pre_send(PreSendFailure::IdentityConflict);
            return self
                .recorder()
                .finish_boxed(m, endpoint, delivery, AttemptDone::declined(&attempt_id, now, outcome))
                .await;
        }
        let ctx = context(&delivery, endpoint);
        if m.trigger != Trigger::Redelivery && m.trigger != Trigger::Test && !endpoint.policy.may_start(&ctx, now) {
            return Box::pin(
                self.recorder()
                    .settle_without_attempt(*delivery, endpoint, SettleReason::Deadline, now),
            )
            .await;
        }
        if let Some(failure) = pre_send_check(endpoint, &delivery, m.trigger, now) {
            let outcome = AttemptOutcome::pre_send(failure);
            return self
                .recorder()
                .finish_boxed(m, endpoint, delivery, AttemptDone::declined(&attempt_id, now, outcome))
                .await;
        }
        let completion_token = self.completion_token(endpoint, &delivery, m);
        let mut request = prepared_request(&prepared, &delivery, m, &attempt_id, now);
        if let Some(token) = &completion_token {
            request
                .headers
                .push((Cow::Borrowed(HEADER_COMPLETION_TOKEN), HeaderText::from(token.clone())));
        }
        let sent = self.http.send(request).await;
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
        self.recorder().finish_boxed(m, endpoint, delivery, done).await
    }

    /// A claim on attempt `number` made at `now`, with a fresh token only this step
    /// knows, leased for the request's timeout plus the margin for the writes.
    fn new_claim(&self, number: u32, attempt_id: &AttemptId, now: Timestamp, timeout_ms: u64) -> ClaimRecord {
        let mut raw = [0u8; 16];
        self.secrets.fill(&mut raw);
        ClaimRecord {
            number,
            attempt_id: attempt_id.clone(),
            token: raw.iter().map(|b| format!("{b:02x}")).collect(),
            started_at: now,
            lease_until: now.plus_millis(timeout_ms.saturating_add(self.settings.lease_margin_ms) as i64),
        }
    }

    /// A fresh, unguessable token for a long-running attempt; its first part names
    /// the delivery so the completion call can find it without an index.
    fn completion_token(&self, endpoint: &Endpoint, delivery: &Delivery, m: &QueueMessage) -> Option<String> {
        if endpoint.long_running_allowance_seconds == 0 || m.trigger == Trigger::Test {
            return None;
        }
        let mut raw = [0u8; 24];
        self.secrets.fill(&mut raw);
        Some(format!(
            "{}.{}",
            delivery.id,
            raw.iter().map(|b| format!("{b:02x}")).collect::<String>()
        ))
    }

    /// A timer for long-running attempt N fired: if no report came, attempt N is
    /// recorded as `completion_timed_out` (ambiguous) and the policy decides.
    async fn check_completion(&self, m: &QueueMessage, now: Timestamp) -> Result<StepOutcome, StepError> {
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
        let msg = QueueMessage {
            trigger: aw.trigger,
            ..m.clone()
        };
        self.recorder().finish(&msg, &endpoint, delivery, done).await
    }

    async fn identity_conflict(
        &self,
        m: &QueueMessage,
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
        let real = QueueMessage {
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
            Claim::Refused(d) => Ok(StepOutcome::Dropped {
                why: d
                    .map(|d| refusal_reason(&d, m, now))
                    .unwrap_or(DropReason::UnknownDelivery),
            }),
        }
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
        }
    }
}

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
}

impl Recorder<'_> {
    /// Records a previous sender's attempt whose lease ran out with no outcome: it may
    /// have reached the receiver, so it is `ambiguous`, and the policy decides.
    pub async fn record_lost(
        &self,
        m: &QueueMessage,
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
        let m = QueueMessage {
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
        Ok(StepOutcome::SettledWithoutAttempt {
            delivery: Box::new(updated),
        })
    }

    pub async fn finish(
        &self,
        m: &QueueMessage,
        endpoint: &Endpoint,
        delivery: Delivery,
        done: AttemptDone,
    ) -> Result<StepOutcome, StepError> {
        self.finish_boxed(m, endpoint, Box::new(delivery), done).await
    }

    /// [`Recorder::finish`] for a delivery already boxed: the outcome reuses the box.
    async fn finish_boxed(
        &self,
        m: &QueueMessage,
        endpoint: &Endpoint,
        mut delivery: Box<Delivery>,
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
            return Box::pin(self.await_completion(
                m,
                endpoint,
                *delivery,
                attempt_id,
                started,
                duration_ms,
                until,
                token,
            ))
            .await;
        }
        // Boxed before the writes, so that neither is held in this future across them.
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
        drop(outcome);
        // The record is conditional on the claim this step holds (the delivery as
        // claimed carries it, with the token only the claimer knows).
        let expected = claim_id.as_ref().unwrap_or(attempt_id);
        let Some(held) = delivery.claim.take().filter(|c| &c.attempt_id == expected) else {
            return Ok(StepOutcome::Dropped {
                why: DropReason::ClaimLost,
            });
        };
        next_delivery(&mut delivery, endpoint, &cls, &decision, receiver_failures, ended);
        match self.deliveries.record_attempt(&delivery, &attempt, &held).await {
            Ok(()) => {}
            Err(PortError::Conflict(_)) => {
                return Ok(StepOutcome::Dropped {
                    why: DropReason::ClaimLost,
                });
            }
            Err(e) => return Err(StepError::Store(e)),
        }
        self.after_record(m, endpoint, &delivery, &cls, &decision, ended)
            .await?;
        Ok(if lost {
            StepOutcome::LostRecorded { attempt, delivery }
        } else {
            StepOutcome::Attempted { attempt, delivery }
        })
    }

    /// A 202 for long-running work: nothing is recorded yet. The claim's lease is
    /// stretched past the allowance (so duplicates stay out), the token's hash is kept,
    /// and a timer is set to give up at the end of the allowance.
    #[allow(clippy::too_many_arguments)]
    async fn await_completion(
        &self,
        m: &QueueMessage,
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
            token_hash: crate::api::hash_key(token),
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
        let check = QueueMessage {
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
        };
        self.planner
            .plan(check, self.clock.now())
            .await
            .map_err(StepError::Plan)?;
        Ok(StepOutcome::AwaitingCompletion {
            delivery: Box::new(updated),
        })
    }

    /// Health bookkeeping, then the next step, both as of now (never before `ended`).
    /// Runs only once the outcome is durable.
    async fn after_record(
        &self,
        m: &QueueMessage,
        endpoint: &Endpoint,
        delivery: &Delivery,
        cls: &Classification,
        decision: &Decision,
        ended: Timestamp,
    ) -> Result<(), StepError> {
        let health = health_events(endpoint, cls, decision).filter(|_| m.trigger != Trigger::Test);
        if health.is_none() && !matches!(decision, Decision::Retry { .. }) {
            // Nothing to write as of a time: most successes.
            return Ok(());
        }
        let now = self.clock.now().max(ended);
        if let Some(events) = health
            && let Err(e) = Box::pin(self.update_health(endpoint, events, now)).await
        {
            // Health is advisory for this delivery; the step itself is durable.
            tracing::warn!(endpoint = %endpoint.id, error = %e, "endpoint health update failed");
        }
        if let Decision::Retry { number, at, .. } = decision {
            let next = QueueMessage {
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
            };
            Box::pin(self.planner.plan(next, now)).await.map_err(StepError::Plan)?;
        }
        Ok(())
    }

    async fn update_health(
        &self,
        endpoint: &Endpoint,
        (breaker_event, health_event): HealthEvents,
        now: Timestamp,
    ) -> Result<(), PortError> {
        // Optimistic concurrency: concurrent senders each re-read and re-apply.
        for _ in 0..8 {
            let Some(mut e) = self.endpoints.get_endpoint(&endpoint.tenant_id, &endpoint.id).await? else {
                return Ok(());
            };
            let mut changed = false;
            if let (Some(ev), Some(rules)) = (breaker_event, e.policy.health.breaker_rules()) {
                let before = e.breaker.unwrap_or_default();
                let after = before.apply(rules, ev, now);
                changed |= after != before;
                e.breaker = Some(after);
            }
            if let (Some(ev), Some(rules)) = (health_event, e.policy.health.smart_rules()) {
                let before = e.health;
                let after = before
                    .unwrap_or_else(|| courier_core::health::SmartHealth::new(e.created_at))
                    .apply(rules, ev, now);
                changed |= before != Some(after);
                e.health = Some(after);
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
                Ok(()) => return Ok(()),
                Err(PortError::Conflict(_)) => continue,
                Err(err) => return Err(err),
            }
        }
        Err(PortError::Conflict("endpoint health update kept conflicting".into()))
    }
}

/// The breaker and health events an outcome carries under the endpoint's health
/// model; `None` when there are none (no endpoint write then).
type HealthEvents = (Option<BreakerEvent>, Option<HealthEvent>);

fn health_events(endpoint: &Endpoint, cls: &Classification, decision: &Decision) -> Option<HealthEvents> {
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

/// The delivery recorded this message's attempt and waits for the next one: if the
/// message is back, planning that next step may have failed.
fn next_step_unplanned(d: &Delivery, m: &QueueMessage) -> bool {
    !d.status.is_settled()
        && d.next_attempt == m.attempt + 1
        && d.claim.is_none()
        && d.awaiting.is_none()
        && d.dead_lettered_at.is_none()
        && d.next_attempt_at.is_some()
}

fn refusal_reason(d: &Delivery, m: &QueueMessage, now: Timestamp) -> DropReason {
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

pub fn context(delivery: &Delivery, endpoint: &Endpoint) -> DeliveryContext {
    DeliveryContext {
        planned_at: delivery.planned_at,
        latency_class: endpoint.latency_class,
        long_running_allowance_seconds: endpoint.long_running_allowance_seconds,
    }
}

/// Redeliveries and test sends are single attempts: they never start a ladder.
fn decide_for(
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

fn pre_send_check(
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

/// The envelope for this trigger: the stored bytes for automatic attempts, the same
/// envelope with `trigger` changed for redeliveries, replays and tests (signed, so the
/// receiver can tell them apart).
fn body_for(delivery: &Delivery, trigger: Trigger) -> Bytes {
    let stored = || Bytes::from_owner(SharedText(delivery.body.clone()));
    let wanted = trigger.envelope_name();
    if delivery.trigger.envelope_name() == wanted {
        return stored();
    }
    match serde_json::from_str::<serde_json::Value>(&delivery.body) {
        Ok(mut v) => {
            if let Some(obj) = v.as_object_mut() {
                obj.insert("trigger".into(), serde_json::Value::String(wanted.into()));
            }
            serde_json::to_vec(&v).map_or_else(|_| stored(), Bytes::from)
        }
        Err(_) => stored(),
    }
}

/// Shared text as the bytes of a request body, without a copy.
struct SharedText(Arc<str>);

impl AsRef<[u8]> for SharedText {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

/// The signed request for this attempt (see [`prepared_request`], which reuses the
/// endpoint's decoded keys).
pub fn build_request(
    endpoint: &Endpoint,
    delivery: &Delivery,
    m: &QueueMessage,
    attempt_id: &AttemptId,
    now: Timestamp,
) -> OutboundRequest {
    prepared_request(&PreparedEndpoint::new(endpoint.clone()), delivery, m, attempt_id, now)
}

fn prepared_request(
    prepared: &PreparedEndpoint,
    delivery: &Delivery,
    m: &QueueMessage,
    attempt_id: &AttemptId,
    now: Timestamp,
) -> OutboundRequest {
    let endpoint = &prepared.endpoint;
    let body = body_for(delivery, m.trigger);
    let ts = now.millis().div_euclid(1000);
    let webhook_id = delivery.webhook_id.as_str();
    // The attempt's own values are written into one buffer and cut from it: two
    // allocations for the four, and copies of the request's headers count references.
    let mut text = String::with_capacity(webhook_id.len() + 20 + SIGNATURE_LEN + attempt_id.as_str().len());
    text.push_str(webhook_id);
    let id_end = text.len();
    let _ = write!(text, "{ts}");
    let ts_end = text.len();
    signature_header_keys_into(prepared.signing_keys(now), webhook_id, ts, &body, &mut text);
    let signature_end = text.len();
    text.push_str(attempt_id.as_str());
    let end = text.len();
    let text = SharedHeaderText::from(text);
    // The ranges were measured around whole pushes, so they always cut cleanly.
    let cut = |range| text.slice(range).unwrap_or_default();
    let attempt = attempt_text(m.attempt);
    // Room for the policy's attempt header and a completion token too.
    let mut headers = Vec::with_capacity(9);
    headers.extend([
        (
            Cow::Borrowed("content-type"),
            HeaderText::from_static("application/json"),
        ),
        (Cow::Borrowed("user-agent"), HeaderText::from_static(USER_AGENT)),
        (Cow::Borrowed("webhook-id"), cut(0..id_end)),
        (Cow::Borrowed("webhook-timestamp"), cut(id_end..ts_end)),
        (Cow::Borrowed("webhook-signature"), cut(ts_end..signature_end)),
        (Cow::Borrowed(HEADER_ATTEMPT), attempt.clone()),
        (Cow::Borrowed(HEADER_ATTEMPT_ID), cut(signature_end..end)),
    ]);
    if let Some(h) = &endpoint.policy.attempt_header {
        headers.push((Cow::Owned(h.clone()), attempt));
    }
    OutboundRequest {
        url: endpoint.url.clone(),
        headers,
        body,
        timeout_ms: endpoint.timeout_ms(),
        read_limit: endpoint.policy.snippet.read_bytes(),
    }
}

/// The attempt number as header text: static for the numbers most attempts carry,
/// so those copy nothing.
fn attempt_text(number: u32) -> HeaderText {
    const SMALL: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    match SMALL.get(number as usize) {
        Some(text) => HeaderText::from_static(text),
        None => HeaderText::from(number.to_string()),
    }
}

#[allow(clippy::too_many_arguments)]
fn attempt_record(
    delivery: &Delivery,
    id: &AttemptId,
    number: u32,
    m: &QueueMessage,
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
        duration_ms,
        started_at,
        next_attempt_at: match decision {
            Decision::Retry { at, .. } => Some(*at),
            _ => None,
        },
        expires_at: Some(started_at.millis() / 1000 + retention_seconds(policy) + 60 * 86_400),
    }
}

fn retention_seconds(policy: &courier_core::Policy) -> i64 {
    i64::from(policy.retention.settled_days) * 86_400
}

fn settle(d: &mut Delivery, endpoint: &Endpoint, status: DeliveryStatus, reason: Option<SettleReason>, now: Timestamp) {
    d.status = status;
    d.dead_reason = reason.map(|r| r.label(endpoint.policy.reason_style));
    d.settled_at = Some(now);
    d.next_attempt_at = None;
    d.expires_at = Some(now.millis() / 1000 + retention_seconds(&endpoint.policy));
}

fn next_delivery(
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
