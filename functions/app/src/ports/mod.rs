//! Ports: the capabilities use cases need, split so each handler takes only what it
//! uses. Every trait has an AWS (or reqwest) adapter and an in-memory fake, and both
//! pass the same contract tests.

pub mod faults;
pub mod limiter;
pub mod overdue;
pub mod schedules;

pub use faults::{FanoutFaults, Faults, NoFanoutFaults, NoFaults};
pub use limiter::{Admission, Limiter};
pub use overdue::{OverdueIndex, OverduePage};
pub use schedules::{RecurringTimer, ScheduleStore, Schedules};

use crate::domain::delivery_message::DeliveryMessage;
use crate::domain::model::{Attempt, ClaimRecord, Delivery, Endpoint, EventRecord, IdempotencyRecord, Page, Tenant};
use async_trait::async_trait;
use bytes::Bytes;
use courier_core::Timestamp;
use courier_core::health::SmartHealth;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, TenantId};
use courier_core::outcome::AttemptOutcome;
use courier_core::rng::RandomSource;
use courier_core::sealing::{Scope, SealedValue};
use std::borrow::Cow;
use std::net::SocketAddr;
use std::sync::Arc;

/// An adapter failure. Outcomes of HTTP attempts are never errors; these are
/// failures to reach Courier's own infrastructure.
#[derive(Debug, thiserror::Error)]
pub enum PortError {
    /// A conditional write lost (someone else changed the item first).
    #[error("conditional write failed: {0}")]
    Conflict(String),
    /// Throttled or temporarily unavailable: worth retrying later.
    #[error("service unavailable: {0}")]
    Unavailable(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// Stored data could not be decoded.
    #[error("stored item is corrupt: {0}")]
    Corrupt(String),
    /// A list's cursor that this list did not hand out: not one at all, another
    /// list's (another tenant's, endpoint's or status's), or one outside the time
    /// window asked for. The caller's mistake, not the store's.
    #[error("cursor is not one this list returned")]
    BadCursor,
    /// Anything else from the service.
    #[error("backend error: {0}")]
    Backend(#[source] Box<dyn std::error::Error + Send + Sync>),
}

pub type PortResult<T> = Result<T, PortError>;

pub trait Clock: Send + Sync {
    fn now(&self) -> Timestamp;
}

/// Randomness for ids and jitter (signing secrets come from [`SecretSource`]).
pub trait Random: Send + Sync {
    fn next_u64(&self) -> u64;
}

/// Adapts the `Random` port to the core's `RandomSource`.
pub struct PortRng<'a>(pub &'a dyn Random);

impl RandomSource for PortRng<'_> {
    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }
}

/// Cryptographically strong bytes for signing secrets and API keys.
pub trait SecretSource: Send + Sync {
    fn fill(&self, buf: &mut [u8]);
}

/// Why a credential could not be sealed or opened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealError {
    /// The key service (or the tenant's data key item) could not be reached: worth
    /// retrying later; nothing is sent meanwhile.
    #[error("credentials unavailable: {0}")]
    Unavailable(String),
    /// The value does not open here: another tenant's or endpoint's, sealed under a
    /// data key that is not the tenant's, or changed at rest.
    #[error("the sealed value does not open for this tenant and endpoint")]
    Refused,
}

/// Envelope encryption of endpoint credentials: each tenant has one data key,
/// itself encrypted by the deployment's key (KMS) with the tenant as encryption
/// context; values are sealed under it with the tenant and endpoint bound in
/// (`courier_core::sealing`), so a value opens only where it was sealed. Data keys
/// are kept per instance once opened: a delivery asks the key service nothing in
/// steady state.
#[async_trait]
pub trait CredentialSealer: Send + Sync {
    async fn seal(&self, scope: Scope<'_>, plaintext: &str) -> Result<SealedValue, SealError>;
    async fn open(&self, scope: Scope<'_>, sealed: &SealedValue) -> Result<String, SealError>;
}

#[async_trait]
pub trait TenantStore: Send + Sync {
    async fn put_tenant_key(&self, key_hash: &str, tenant: &Tenant) -> PortResult<()>;
    /// [`TenantStore::put_tenant_key`] for a credential that ends (a portal link):
    /// from `expires_at` (epoch seconds) on, reads no longer find it and the store
    /// may drop the item.
    async fn put_expiring_key(&self, key_hash: &str, tenant: &Tenant, expires_at: i64) -> PortResult<()>;
    async fn tenant_by_key(&self, key_hash: &str) -> PortResult<Option<Tenant>>;
}

#[async_trait]
pub trait EndpointStore: Send + Sync {
    /// Fails with `Conflict` if the id exists.
    async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()>;
    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>>;
    /// Replaces the endpoint if its stored `version` is `expected_version`
    /// (the new item carries `expected_version + 1`); otherwise `Conflict`.
    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()>;
    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>>;
    /// Every endpoint of every tenant, deleted ones included, in the store's own
    /// order, a page at a time (`limit` clamped to 1..=100; a page may hold fewer
    /// even when more follow): for maintenance passes over the stored data (the
    /// credentials migration, `crate::endpoints::credentials::seal_stored`), never for a request.
    /// The default, for wrappers that never serve a migration, refuses.
    async fn scan_endpoints(&self, _cursor: Option<&str>, _limit: u32) -> PortResult<Page<Endpoint>> {
        Err(PortError::Backend("this endpoint store cannot scan".into()))
    }

    /// A success on a SmartChat endpoint whose health is `Active` with its last
    /// success before `now`: `failures_in_a_row` 0 and `quiet_since` `now`, in one
    /// conditional write that reads nothing and touches no other endpoint field, so
    /// a busy endpoint's successes neither collide nor rewrite the endpoint record.
    /// `false` when the stored health is not that (another status, a later success,
    /// none kept apart yet): the caller reads the endpoint and uses
    /// [`Self::put_smart_health`]. A store that keeps health inside the endpoint
    /// record answers `false` always.
    async fn note_smart_success(&self, _tenant: &TenantId, _id: &EndpointId, _now: Timestamp) -> PortResult<bool> {
        Ok(false)
    }

    /// Replaces a SmartChat endpoint's health with `new` if the stored one is still
    /// `expected`, the health as read (`Conflict` otherwise), or whatever is stored
    /// when `expected` is `None` (an endpoint read without health: one just given
    /// the SmartChat model starts afresh). Reads of the endpoint give it back as
    /// `health`. The default keeps it in the endpoint record (a versioned read and
    /// update).
    async fn put_smart_health(
        &self,
        tenant: &TenantId,
        id: &EndpointId,
        expected: Option<&SmartHealth>,
        new: &SmartHealth,
    ) -> PortResult<()> {
        let Some(mut e) = self.get_endpoint(tenant, id).await? else {
            return Err(PortError::Conflict(format!("endpoint {id} does not exist")));
        };
        // Already stored (the endpoint's own update carried it): nothing to do.
        if e.health.as_ref() == Some(new) {
            return Ok(());
        }
        if expected.is_some_and(|h| e.health.as_ref() != Some(h)) {
            return Err(PortError::Conflict(format!("endpoint {id}'s health has changed")));
        }
        let version = e.version;
        e.health = Some(*new);
        e.version += 1;
        self.update_endpoint(&e, version).await
    }
}

/// One entry of the subscription index: an endpoint filed under one of its index
/// keys (see `courier_core::subscription`), with what a fan-out needs to tell
/// whether the endpoint wants an event without reading it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriptionEntry {
    pub endpoint_id: EndpointId,
    /// Every index key the endpoint is filed under (so a reader of one key can tell
    /// whether an earlier key of the same lookup already named it).
    pub keys: Vec<String>,
    /// The endpoint's channel filter.
    pub channels: Option<Vec<String>>,
}

/// The subscription index: endpoints by (tenant, application or none, index key),
/// kept by the [`EndpointStore`] in the same write as the endpoint (a revoked
/// endpoint has no entries), so a fan-out reads only the keys an event type can
/// match.
#[async_trait]
pub trait SubscriptionIndex: Send + Sync {
    /// Entries under `(tenant, application, key)` in endpoint id order, after
    /// `after` when given; at most `limit` (clamped to 1..=1000), fewer only when
    /// the key has no more.
    async fn subscriptions(
        &self,
        tenant: &TenantId,
        application: Option<&str>,
        key: &str,
        after: Option<&EndpointId>,
        limit: u32,
    ) -> PortResult<Vec<SubscriptionEntry>>;
    /// The tenant's endpoints with these ids (missing ones left out), in the order
    /// asked.
    async fn get_endpoints(&self, tenant: &TenantId, ids: &[EndpointId]) -> PortResult<Vec<Endpoint>>;
}

/// Result of trying to claim attempt N of a delivery.
#[derive(Debug, Clone, PartialEq)]
pub enum Claim {
    /// Ours: the delivery as stored after the claim. `lost` is the previous claim
    /// when it was taken over because its lease had ended with no attempt recorded:
    /// that attempt's request may have reached the receiver, and the caller records
    /// it as lost (ambiguous) before going on.
    Claimed {
        delivery: Delivery,
        lost: Option<ClaimRecord>,
    },
    /// Not claimable: settled, attempt N already recorded, or a live claim exists.
    /// The delivery as stored (None if it does not exist).
    Refused(Option<Delivery>),
}

#[async_trait]
pub trait DeliveryStore: Send + Sync {
    /// Writes the event and all its deliveries atomically. Deliveries marked by
    /// `shared_body::share` that carry the event's one body (`shared_body::event_body`)
    /// are stored without it, the event item holding it once; reads give them back
    /// with `body_hash` set and an empty body. Every other delivery, and every
    /// delivery written by the other create calls, keeps its own body (`body_hash`
    /// cleared).
    async fn create_event(&self, event: &EventRecord, deliveries: &[Delivery]) -> PortResult<()>;
    /// Adds a delivery to an existing event (replays). `Conflict` if the id exists.
    async fn create_delivery(&self, delivery: &Delivery) -> PortResult<()>;
    async fn get_event(&self, tenant: &TenantId, id: &courier_core::ids::EventId) -> PortResult<Option<EventRecord>>;
    async fn get_delivery(&self, id: &DeliveryId) -> PortResult<Option<Delivery>>;
    /// The body the event item stores once for the deliveries written with it by
    /// [`DeliveryStore::create_event`] (those read back with `body_hash` set and an
    /// empty body); `None` when the event is absent, expired or stores none.
    async fn event_body(&self, event: &courier_core::ids::EventId) -> PortResult<Option<std::sync::Arc<str>>>;
    /// Adds a fan-out delivery to its stored event, with the event's audit-log entry
    /// for the endpoint. `Conflict` if the id exists (a redone fan-out step).
    async fn create_event_delivery(&self, event: &EventRecord, delivery: &Delivery) -> PortResult<()>;
    /// Stores the event's fan-out progress unless the stored one has processed more
    /// already (a slower copy of an earlier step: then nothing changes). `Conflict`
    /// if the event does not exist.
    async fn set_fanout_progress(
        &self,
        tenant: &TenantId,
        event: &courier_core::ids::EventId,
        progress: &crate::domain::model::FanoutProgress,
    ) -> PortResult<()>;
    /// Stores the record of one fan-out step's page, keyed by (event, `start`): a
    /// redone step replaces it. Goes with the event (its `expires_at`).
    async fn put_fanout_link(&self, link: &crate::domain::model::FanoutLink) -> PortResult<()>;
    /// The live fan-out links of the tenant's event with `start >= from`, by
    /// `start`, at most `limit` (clamped to 1..=10). Another tenant's event has none.
    async fn fanout_links(
        &self,
        tenant: &TenantId,
        event: &courier_core::ids::EventId,
        from: u64,
        limit: u32,
    ) -> PortResult<Vec<crate::domain::model::FanoutLink>>;
    /// The live deliveries with these ids, in the order asked (missing and expired
    /// ones left out). Adapters with a batch read override it; the default reads
    /// them one by one.
    async fn get_deliveries(&self, ids: &[DeliveryId]) -> PortResult<Vec<Delivery>> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(d) = self.get_delivery(id).await? {
                out.push(d);
            }
        }
        Ok(out)
    }
    /// Claims attempt `claim.number` when the delivery is unsettled, its
    /// `next_attempt` is that number and no claim is live at `claim.started_at` (a
    /// claim whose lease ended may be taken over: the caller then records the lost
    /// attempt). Stores `claim`. Calling again with exactly the same claim (same
    /// attempt id and token) answers `Claimed` unchanged; any other claim, even one
    /// with the same attempt id, is refused while the stored lease lives.
    async fn claim_attempt(&self, id: &DeliveryId, claim: &ClaimRecord) -> PortResult<Claim>;
    /// Notes that attempt `number` of the delivery is held back by its endpoint's
    /// limits until `until` (`throttled_until`), when that attempt could still be
    /// claimed at `now` (`store_rules::hold_note_allowed`); answers whether it was
    /// noted. The version stays: the note is for display, and must not fail a
    /// concurrent versioned update. The attempt's claim clears it.
    async fn note_hold(&self, id: &DeliveryId, number: u32, until: Timestamp, now: Timestamp) -> PortResult<bool>;
    /// Atomically stores the attempt and the delivery's new state, conditional on the
    /// stored delivery still holding `held` (same attempt id and token: the claim
    /// the caller made, which differs from `attempt.id` when recording a lost attempt
    /// after a takeover); `Conflict` otherwise. Writes only what recording owns: a
    /// dead-letter mark set meanwhile stays, and the stored version moves on by one.
    async fn record_attempt(&self, delivery: &Delivery, attempt: &Attempt, held: &ClaimRecord) -> PortResult<()>;
    /// Replaces the delivery if it still holds `expected_version` (`Conflict` otherwise).
    async fn update_delivery(&self, delivery: &Delivery, expected_version: u64) -> PortResult<()>;
    /// Every live attempt of the delivery, oldest first. Unbounded: kept for callers
    /// not yet moved to [`DeliveryStore::list_attempts_page`], [`DeliveryStore::get_attempt`]
    /// and [`DeliveryStore::last_attempt`], whose reads are bounded.
    async fn list_attempts(&self, delivery: &DeliveryId) -> PortResult<Vec<Attempt>>;
    /// One page of the delivery's live attempts, oldest first (by number, then id);
    /// `limit` is clamped to 1..=100. A cursor of another list is `BadCursor`.
    async fn list_attempts_page(
        &self,
        delivery: &DeliveryId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Attempt>>;
    /// The delivery's live attempt with this id, if it has one.
    async fn get_attempt(&self, delivery: &DeliveryId, id: &AttemptId) -> PortResult<Option<Attempt>>;
    /// The delivery's latest live attempt (highest number), if any.
    async fn last_attempt(&self, delivery: &DeliveryId) -> PortResult<Option<Attempt>>;
    /// The endpoint's delivery log, newest first, optionally one status only.
    async fn list_deliveries(
        &self,
        endpoint: &EndpointId,
        status: Option<&str>,
        since: Option<Timestamp>,
        until: Option<Timestamp>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Delivery>>;
    /// The statistics kept beside the deliveries, when this store keeps them.
    fn stats(&self) -> Option<&dyn StatsStore> {
        None
    }
    /// Events of a tenant (optionally one endpoint), newest first: the audit log.
    async fn list_events(
        &self,
        tenant: &TenantId,
        endpoint: Option<&EndpointId>,
        since: Option<Timestamp>,
        until: Option<Timestamp>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<EventRecord>>;
}

/// Delivery statistics per endpoint (`crate::domain::stats`): counters added by the
/// recorder once an attempt's record is written, per minute (kept 2 hours) and per
/// hour (kept 30 days), and the backlog counted from the status index.
#[async_trait]
pub trait StatsStore: Send + Sync {
    /// Adds the tally to its endpoint's minute and hour and moves the endpoint's run
    /// of consecutive failed attempts; answers that run after the change (the
    /// `endpoint.failing` / `endpoint.recovered` streak). One counter write: a
    /// retried call may count twice, so callers call it once per recorded attempt.
    async fn add_stats(&self, tally: &crate::domain::stats::StatsTally)
    -> PortResult<crate::domain::stats::StreakMove>;
    /// The endpoint's buckets in the window (only those with counts), by start.
    /// Buckets past retention at the store's "now" are left out.
    async fn endpoint_stats(
        &self,
        tenant: &TenantId,
        endpoint: &EndpointId,
        window: &crate::domain::stats::StatsWindow,
    ) -> PortResult<Vec<(Timestamp, crate::domain::stats::StatsCounts)>>;
    /// The endpoint's deliveries waiting now: `pending`, `retrying`, `scheduled`,
    /// counted from the status index (count queries, no scan of the log).
    async fn backlog(&self, tenant: &TenantId, endpoint: &EndpointId) -> PortResult<crate::domain::stats::Backlog>;
}

#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// Stores the record unless one exists for the same key; returns the existing one.
    async fn put_idempotency(&self, record: &IdempotencyRecord) -> PortResult<Option<IdempotencyRecord>>;
    /// The live record under `key`, if any (a read: nothing is written).
    async fn get_idempotency(&self, key: &str) -> PortResult<Option<IdempotencyRecord>>;
}

/// Applications and event types of a tenant.
#[async_trait]
pub trait ApplicationStore: Send + Sync {
    /// `Conflict` if the id exists or another application of the tenant has its `uid`.
    async fn create_application(&self, app: &crate::domain::model::Application) -> PortResult<()>;
    async fn get_application(
        &self,
        tenant: &TenantId,
        id: &str,
    ) -> PortResult<Option<crate::domain::model::Application>>;
    async fn get_application_by_uid(
        &self,
        tenant: &TenantId,
        uid: &str,
    ) -> PortResult<Option<crate::domain::model::Application>>;
    /// Replaces the application if its stored `version` is `expected_version` (the new
    /// item carries `expected_version + 1`) and its `uid` is not another's; otherwise
    /// `Conflict`.
    async fn update_application(
        &self,
        app: &crate::domain::model::Application,
        expected_version: u64,
    ) -> PortResult<()>;
    /// Removes it (and frees its `uid`); false if there was none.
    async fn delete_application(&self, tenant: &TenantId, id: &str) -> PortResult<bool>;
    /// The tenant's applications by id; `limit` clamped to 1..=100.
    async fn list_applications(
        &self,
        tenant: &TenantId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<crate::domain::model::Application>>;
    /// `Conflict` if the tenant has a type of that name.
    async fn create_event_type(&self, event_type: &crate::domain::model::EventType) -> PortResult<()>;
    async fn get_event_type(
        &self,
        tenant: &TenantId,
        name: &str,
    ) -> PortResult<Option<crate::domain::model::EventType>>;
    /// Replaces an existing type (`Conflict` if it does not exist).
    async fn update_event_type(&self, event_type: &crate::domain::model::EventType) -> PortResult<()>;
    /// The tenant's event types by name; `limit` clamped to 1..=100.
    async fn list_event_types(
        &self,
        tenant: &TenantId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<crate::domain::model::EventType>>;
    /// Keeps one write made through a portal link until its `expires_at`.
    async fn put_portal_activity(&self, activity: &crate::domain::model::PortalActivity) -> PortResult<()>;
    /// The portal activity of the tenant's links for `application` (`None`: links
    /// without one), newest first; `limit` clamped to 1..=100.
    async fn list_portal_activity(
        &self,
        tenant: &TenantId,
        application: Option<&str>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<crate::domain::model::PortalActivity>>;
}

#[async_trait]
pub trait Queue: Send + Sync {
    /// Sends a message, visible after `delay_seconds` (0..=900).
    async fn send(&self, message: &DeliveryMessage, delay_seconds: u32) -> PortResult<()>;

    /// Sends several messages, one result per entry in order (one failed entry never
    /// fails the others). Adapters with a batch call (SQS `SendMessageBatch`) override
    /// it; the default sends one by one.
    async fn send_batch(&self, entries: &[(DeliveryMessage, u32)]) -> Vec<PortResult<()>> {
        let mut results = Vec::with_capacity(entries.len());
        for (message, delay_seconds) in entries {
            results.push(self.send(message, *delay_seconds).await);
        }
        results
    }

    /// Whether a successful `send` means the message is on the queue. A queue that
    /// only holds messages back to send them later (batch ingest's) answers false,
    /// and nothing is then taken as queued ahead of its write (`ingest::send_ahead`).
    fn sends_at_once(&self) -> bool {
        true
    }
}

/// Puts fan-out steps on the delivery queue (beside delivery messages; the sender
/// tells them apart by their `kind`).
#[async_trait]
pub trait FanoutQueue: Send + Sync {
    /// Queues the step, visible after `delay_seconds` (at most 900).
    async fn send_fanout(&self, step: &crate::domain::fanout_message::FanoutStep, delay_seconds: u32)
    -> PortResult<()>;
}

#[async_trait]
pub trait Timer: Send + Sync {
    /// Creates a one-shot schedule that puts `message` on the delivery queue at `at`.
    /// `name` is derived from delivery id + attempt number, so a repeat is a no-op.
    async fn schedule(&self, name: &str, at: Timestamp, message: &DeliveryMessage) -> PortResult<()>;
}

/// One header of an outbound request, name then value: static text for what every
/// attempt carries, owned for what changes.
pub type OutboundHeader = (Cow<'static, str>, Cow<'static, str>);

/// One outbound webhook request, fully prepared (body signed, headers set).
#[derive(Debug, Clone)]
pub struct OutboundRequest {
    pub url: String,
    pub headers: Vec<OutboundHeader>,
    /// Usually the delivery's stored body itself, shared rather than copied.
    pub body: Bytes,
    pub timeout_ms: u64,
    /// How many body bytes to read at most (the policy's snippet need).
    pub read_limit: usize,
    /// The endpoint's OAuth and TLS settings, when it has any.
    pub connection: Option<Arc<crate::domain::connection::ReceiverConnection>>,
}

/// What one HTTP attempt produced.
#[derive(Debug, Clone, PartialEq)]
pub struct SendResult {
    pub outcome: AttemptOutcome,
    /// The address actually connected to, when a connection was made.
    pub peer: Option<SocketAddr>,
    pub duration_ms: u64,
}

/// Makes one HTTP attempt. Never follows redirects; refuses unsafe addresses with
/// `AttemptOutcome::PreSend { EndpointUnsafe }` before connecting.
#[async_trait]
pub trait HttpSender: Send + Sync {
    async fn send(&self, request: OutboundRequest) -> SendResult;
}

/// One message for a destination in the customer's AWS account: the signed
/// envelope and what the consumer checks it with (see `sender::destination`).
#[derive(Debug, Clone, PartialEq)]
pub struct DestinationMessage {
    pub destination: courier_core::destination::Destination,
    /// Presented when assuming `destination.role_arn` (`sts:ExternalId`).
    pub external_id: String,
    /// The exact signed envelope bytes.
    pub body: Bytes,
    pub webhook_id: String,
    /// Seconds since the epoch, as signed.
    pub timestamp: String,
    pub signature: String,
    pub attempt: u32,
    /// The attempt's id: the FIFO deduplication id.
    pub attempt_id: String,
    pub event_type: Option<String>,
    /// The FIFO message group or Kinesis partition key (the pointer's value, else
    /// the endpoint id or event id).
    pub key: String,
    /// The S3 object key (prefix, date, event id).
    pub object_key: String,
    pub timeout_ms: u64,
}

impl DestinationMessage {
    /// The values a consumer checks, for attributes or the `courier` block.
    pub fn signed(&self) -> courier_core::destination::Signed<'_> {
        courier_core::destination::Signed {
            webhook_id: &self.webhook_id,
            timestamp: &self.timestamp,
            signature: &self.signature,
            attempt: self.attempt,
            event_type: self.event_type.as_deref(),
        }
    }
}

/// Sends one attempt to a destination: AWS's answer comes back as the HTTP status
/// it means with a `DestinationAnswer` (code, request id, message id), a network
/// failure as a transport outcome, as for webhooks.
#[async_trait]
pub trait DestinationSender: Send + Sync {
    async fn send(&self, message: DestinationMessage) -> SendResult;
}

/// A deployment without destinations: an attempt to one fails as unreachable.
pub struct NoDestinations;

#[async_trait]
impl DestinationSender for NoDestinations {
    async fn send(&self, _message: DestinationMessage) -> SendResult {
        SendResult {
            outcome: AttemptOutcome::transport(courier_core::outcome::TransportFailure::Other),
            peer: None,
            duration_ms: 0,
        }
    }
}

/// Why a URL was refused at endpoint admission.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{detail}")]
pub struct AdmissionRefusal {
    /// True when the URL is well-formed but points at an address Courier must not
    /// reach (answered 422 `endpoint_unsafe`); false for a malformed URL (400).
    pub unsafe_address: bool,
    pub detail: String,
}

/// URL admission for endpoint create/update: syntax, scheme, userinfo, and that the
/// host resolves only to allowed addresses (endpoint and token URLs alike); and the
/// check of the TLS material an endpoint connects with, by the adapter that reads it.
#[async_trait]
pub trait UrlAdmission: Send + Sync {
    /// The normalised URL, or why it is refused.
    async fn admit(&self, url: &str) -> Result<String, AdmissionRefusal>;

    /// Parses `material` as PEM, checks that the key belongs to the certificate
    /// and that the certificate is valid at `now`. An admission that cannot read
    /// TLS material refuses every piece of it.
    fn check_tls(
        &self,
        material: &crate::domain::connection::TlsMaterial<'_>,
        now: Timestamp,
    ) -> Result<crate::domain::connection::TlsFacts, crate::domain::connection::TlsRefusal> {
        let _ = (material, now);
        Err(crate::domain::connection::TlsRefusal {
            field: "clientCertificate",
            detail: "TLS settings cannot be checked by this deployment".to_owned(),
        })
    }
}
