//! The sender's use case: one queue message -> at most one HTTP attempt, recorded,
//! then the next step planned. Implements the claim/lease protocol that keeps
//! at-least-once delivery honest: duplicates are dropped, nothing is sent twice
//! concurrently, an attempt whose sender vanished is recorded as lost (ambiguous),
//! and the next step is enqueued only after the outcome is durable.

pub mod metrics;

mod destination;
mod endpoint_cache;
mod hold;
pub mod lanes;
mod recorder;
mod request;
mod step;

pub use destination::destination_message;
pub use endpoint_cache::{EndpointCache, PreparedEndpoint};
pub use recorder::{Recorder, context, notify_streak, settle};
pub use request::build_request;

use crate::domain::model::{Attempt, Delivery};
use crate::pipeline::planner::Planner;
use crate::ports::Faults;
use crate::ports::limiter::Limiter;
use crate::ports::{Clock, CredentialSealer, DeliveryStore, EndpointStore, HttpSender, PortError, Random};
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, EndpointId};
use courier_core::limiter::Limits;
use courier_core::outcome::AttemptOutcome;
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SenderSettings {
    /// Added to the request timeout to form the claim lease: long enough for the
    /// request plus the writes, so a live sender never loses its claim. In-flight
    /// slots are leased as long.
    pub lease_margin_ms: u64,
    /// The deployment's limits for endpoints that set none of their own
    /// (`COURIER_DEFAULT_RATE_LIMIT`, `COURIER_DEFAULT_MAX_IN_FLIGHT`).
    pub default_limits: Limits,
    /// How long a sender waits before its one more look for a delivery that a first
    /// message arrived ahead of (`ingest::send_ahead`): the write after the send
    /// takes milliseconds, and a second look in the same step is cheaper than a
    /// trip through the queue (at least a second later). 0: no second look.
    pub unwritten_pause_ms: u64,
    /// A first message younger than this (since it was planned) waits until it is
    /// this old before its claim: the API writes the delivery just after sending
    /// it, and a claim that comes first is refused (and billed). Only a message
    /// handed over faster than the API's write ever waits. 0: never.
    pub unwritten_min_age_ms: u64,
}

impl Default for SenderSettings {
    fn default() -> Self {
        SenderSettings {
            lease_margin_ms: 20_000,
            default_limits: Limits::default(),
            unwritten_pause_ms: 100,
            unwritten_min_age_ms: 50,
        }
    }
}

/// What one message led to (for logs, metrics and tests).
#[derive(Debug, Clone, PartialEq)]
pub enum StepOutcome {
    /// The message arrived before its notBefore and was put back with a delay.
    Redelayed { until: Timestamp },
    /// A first message found no delivery while its write may still come (it can be
    /// sent just ahead of it, `ingest::send_ahead`): put back to look again at
    /// `until`.
    NotYetWritten { until: Timestamp },
    /// The endpoint's rate limit or in-flight cap held the attempt back: nothing was
    /// sent or counted, and the message was put back to come again at `until`
    /// (`held_ms` after the hold was decided).
    Throttled {
        until: Timestamp,
        cause: courier_core::limiter::HoldCause,
        held_ms: u64,
    },
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
    /// Moved to the slow lane without an attempt: the endpoint's attempts are slow
    /// or congested (`courier_core::lanes`); the slow lane's sender makes it.
    Diverted { cause: courier_core::lanes::DivertCause },
    /// A fan-out step wrote `created` deliveries for `matched` subscribers; `more`:
    /// the next step is queued.
    FanoutStep { created: usize, matched: usize, more: bool },
    /// A recurring schedule's firing (a `schedule_fire` message), not a delivery step.
    Fired(Box<crate::schedules::fire::FireOutcome>),
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

pub struct Sender {
    pub secrets: Arc<dyn crate::ports::SecretSource>,
    /// Asked only for attempts to endpoints with a limit.
    pub limiter: Arc<dyn Limiter>,
    pub deliveries: Arc<dyn DeliveryStore>,
    pub endpoints: Arc<dyn EndpointStore>,
    /// Opens the endpoints' sealed credentials (data keys cached per instance).
    pub sealer: Arc<dyn CredentialSealer>,
    pub http: Arc<dyn HttpSender>,
    /// Attempts to endpoints with a `destination` (queues, topics, buses, streams
    /// and buckets in the customer's AWS account) instead of `http`.
    pub destinations: Arc<dyn crate::ports::DestinationSender>,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
    pub planner: Planner,
    pub faults: Arc<dyn Faults>,
    pub settings: SenderSettings,
    /// Works the fan-out steps that share the delivery queue (none: such a message
    /// is left for retry, and ends in the dead-letter queue).
    pub fanout: Option<Arc<crate::fanout::FanoutWorker>>,
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

pub use courier_core::headers::{HEADER_ATTEMPT, HEADER_ATTEMPT_ID, HEADER_COMPLETION_TOKEN};
