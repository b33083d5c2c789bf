//! Stored records: tenants, endpoints, events, deliveries, attempts and idempotency
//! records, as the use cases see them. Adapters map them to items; the API's answers
//! are built from them in `api::views` (camelCase, RFC 3339 times): field by field,
//! except the attempt view, which starts from this JSON.

pub use crate::domain::connectivity::{ClientAuth, EndpointCredentials, EndpointTls, OAuthClient};
pub use crate::domain::credential::Credential;
use crate::domain::delivery_message::Trigger;
use courier_core::decide::LatencyClass;
use courier_core::health::{BreakerState, SmartHealth};
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, ScheduleId, TenantId};
use courier_core::limiter::Limits;
use courier_core::rate_limit::RateLimit;
use courier_core::{Policy, Timestamp};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::sync::Arc;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tenant {
    pub id: TenantId,
    pub name: String,
}

/// A page of a list and the cursor for the next one.
#[derive(Debug, Clone, PartialEq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next_cursor: Option<String>,
}

/// The state a person set on the endpoint (health is separate and derived).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndpointState {
    Active,
    Disabled,
    Revoked,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SecretState {
    Active,
    Retiring,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SecretRecord {
    /// `whsec_...`, sealed at rest.
    pub secret: Credential,
    pub state: SecretState,
    pub created_at: Timestamp,
    /// For a retiring secret: when it stops being used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<Timestamp>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    pub id: EndpointId,
    pub tenant_id: TenantId,
    /// The webhook's URL; empty for a destination endpoint.
    pub url: String,
    /// A queue, topic, bus, stream or bucket in the customer's AWS account, instead
    /// of a URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination: Option<courier_core::destination::Destination>,
    pub policy: Policy,
    pub latency_class: LatencyClass,
    pub long_running_allowance_seconds: u64,
    /// Overrides the policy's timeout when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub state: EndpointState,
    pub secrets: Vec<SecretRecord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub breaker: Option<BreakerState>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub health: Option<SmartHealth>,
    /// At most this many attempts per second (a token bucket shared by every sender).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<RateLimitSetting>,
    /// At most this many attempts under way at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_in_flight: Option<u32>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    /// Optimistic concurrency counter, bumped by every update.
    pub version: u64,
    /// The application (`app_...`) whose events this endpoint takes; none: the
    /// tenant's events sent without an application.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub application_id: Option<String>,
    /// Event types taken (exact names or `prefix.*`); none: every type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter_types: Option<Vec<String>>,
    /// Only events carrying one of these channels; none: no channel filter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels: Option<Vec<String>>,
    /// The limits the operator set (or the application's defaults for an endpoint a
    /// portal created): a portal token may lower the endpoint's limits, never past
    /// these. None: the endpoint's own values are the ceiling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit_ceiling: Option<LimitCeiling>,
    /// When `DELETE /v1/endpoints/{id}` removed it: revoked, left out of every list,
    /// its history still readable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deleted_at: Option<Timestamp>,
    /// Failed attempts in a row that make it `failing` (an operational event);
    /// none: [`courier_core::operational::DEFAULT_FAILING_AFTER`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failing_after: Option<u32>,
    /// Headers sent with every attempt (an API key the receiver asks for, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<CustomHeader>,
    /// OAuth 2.0 client credentials: every attempt carries a bearer token.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth: Option<OAuthClient>,
    /// A TLS client certificate and/or a private CA for this receiver.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls: Option<EndpointTls>,
    /// The write-only halves of `auth` and `tls` (client secret, client key).
    #[serde(default, skip_serializing_if = "EndpointCredentials::is_empty")]
    pub credentials: EndpointCredentials,
}

/// One header an endpoint sends with every attempt. A secret value is write-only:
/// the API never shows it again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomHeader {
    pub name: String,
    /// Sealed at rest when `secret`; plain otherwise.
    pub value: Credential,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub secret: bool,
}

impl Endpoint {
    /// The external id the sender presents when it assumes this endpoint's role.
    pub fn external_id(&self) -> String {
        courier_core::destination::external_id(self.tenant_id.as_str(), self.application_id.as_deref())
    }

    /// Failed attempts in a row that make it `failing`.
    pub fn failing_after(&self) -> u32 {
        self.failing_after
            .unwrap_or(courier_core::operational::DEFAULT_FAILING_AFTER)
    }
}

/// The most a portal token may set an endpoint's limits to.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct LimitCeiling {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<RateLimitSetting>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_in_flight: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

/// An endpoint's `rateLimit` as set (validated by [`RateLimit::new`] when set).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RateLimitSetting {
    pub per_second: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burst: Option<u64>,
}

impl RateLimitSetting {
    /// The bucket it describes; `rateLimit.*` names the field a bad value is in.
    pub fn limit(&self) -> Result<RateLimit, courier_core::rate_limit::RateLimitError> {
        RateLimit::new(self.per_second, self.burst)
    }
}

impl Endpoint {
    /// The limits attempts to this endpoint keep: its own where set, else the
    /// deployment's `default` (a stored setting that no longer validates counts as
    /// unset rather than stopping delivery).
    pub fn limits(&self, default: &Limits) -> Limits {
        Limits {
            rate: match &self.rate_limit {
                Some(r) => r.limit().ok().or(default.rate),
                None => default.rate,
            },
            max_in_flight: self.max_in_flight.or(default.max_in_flight),
        }
    }

    pub fn timeout_ms(&self) -> u64 {
        self.timeout_ms.unwrap_or(self.policy.timeout_ms)
    }
}

impl SecretRecord {
    /// Whether attempts made at `now` are signed with this secret.
    pub fn signs_at(&self, now: Timestamp) -> bool {
        self.state == SecretState::Active || self.expires_at.is_some_and(|e| now < e)
    }
}

/// Where a delivery stands. Serialised as the API's `status`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// Waiting for a first attempt planned in the future.
    Scheduled,
    /// Waiting for its first attempt (or a redelivery) now.
    Pending,
    /// A retry is planned.
    Retrying,
    /// The last attempt's result is unknown; another attempt is planned.
    Ambiguous,
    Succeeded,
    Failed,
    /// Never sent: breaker open or endpoint paused when it came due.
    Dropped,
}

impl DeliveryStatus {
    /// Every status, in the order of their life (the console lists them so).
    pub const ALL: [DeliveryStatus; 7] = [
        DeliveryStatus::Scheduled,
        DeliveryStatus::Pending,
        DeliveryStatus::Retrying,
        DeliveryStatus::Ambiguous,
        DeliveryStatus::Succeeded,
        DeliveryStatus::Failed,
        DeliveryStatus::Dropped,
    ];

    pub fn is_settled(self) -> bool {
        matches!(
            self,
            DeliveryStatus::Succeeded | DeliveryStatus::Failed | DeliveryStatus::Dropped
        )
    }
    pub fn as_str(self) -> &'static str {
        match self {
            DeliveryStatus::Scheduled => "scheduled",
            DeliveryStatus::Pending => "pending",
            DeliveryStatus::Retrying => "retrying",
            DeliveryStatus::Ambiguous => "ambiguous",
            DeliveryStatus::Succeeded => "succeeded",
            DeliveryStatus::Failed => "failed",
            DeliveryStatus::Dropped => "dropped",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        serde_json::from_value(serde_json::Value::String(s.to_owned())).ok()
    }
}

/// The sender's hold on attempt `number`, valid until `lease_until`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClaimRecord {
    pub number: u32,
    pub attempt_id: AttemptId,
    /// Fresh random text per claim, known only to the sender that claimed: two
    /// copies of one message carry the same pre-assigned `attempt_id` (redelivery,
    /// replay, test, redrive), so the id alone cannot tell the claimer's own repeated
    /// call from a duplicate copy, nor its own record from one of a taken-over claim.
    #[serde(default)]
    pub token: String,
    pub started_at: Timestamp,
    pub lease_until: Timestamp,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    pub id: DeliveryId,
    pub tenant_id: TenantId,
    pub event_id: EventId,
    pub endpoint_id: EndpointId,
    /// The `webhook-id` the receiver sees: this delivery's id, or the original
    /// delivery's for a replay, so receivers dedupe across replays too.
    pub webhook_id: DeliveryId,
    pub status: DeliveryStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dead_reason: Option<String>,
    pub trigger: Trigger,
    /// Attempts recorded so far.
    pub attempt_count: u32,
    /// The number of the next automatic attempt the ladder allows.
    pub next_attempt: u32,
    pub receiver_failures: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_attempt_at: Option<Timestamp>,
    /// The clamp made the planned attempt the last one.
    #[serde(default)]
    pub last_planned: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<ClaimRecord>,
    pub created_at: Timestamp,
    pub planned_at: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settled_at: Option<Timestamp>,
    /// Set when the delivery's queue message exhausted its receives and landed in the
    /// dead-letter queue: nothing moves it on until someone redrives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dead_lettered_at: Option<Timestamp>,
    /// Set while a long-running attempt (answered 202) waits for the receiver's report.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub awaiting: Option<AwaitingCompletion>,
    /// Set while the next attempt is held back by the endpoint's rate limit or
    /// in-flight cap: not before this instant. The claim of the attempt clears it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throttled_until: Option<Timestamp>,
    /// The exact envelope bytes sent on every automatic attempt (UTF-8 JSON).
    /// Shared, not copied: a claimed delivery, a stored one and the request of an
    /// attempt all hold the same text (up to 256 KiB).
    /// Empty as read from a store when the body is stored once, in the event item
    /// (`body_hash` set): the sender gets it back from the queue message or the event.
    pub body: Arc<str>,
    /// SHA-256 (hex) of the body, set when the body is stored in the event item and
    /// not in the delivery's own: it binds the delivery to those exact bytes, so a
    /// queue message carrying the body cannot change what is signed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body_hash: Option<String>,
    /// When the item may be deleted (DynamoDB TTL, epoch seconds); reads treat an
    /// expired item as absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
    pub version: u64,
    /// A schedule's own settings, carried by its occurrences' deliveries: each one
    /// set replaces the endpoint's in the delivery's horizon and long-running wait.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery_settings: Option<DeliverySettings>,
    /// Set on a delivery being written whose next step a queue message carries
    /// already: its first message, sent ahead of the creating write
    /// (`ingest::send_ahead`), or the sender's message in hand when an outcome plans
    /// a retry through an SQS delay (that message stays on the queue, and comes back,
    /// until the retry's message is sent). The write gives it no due-index entry,
    /// and removes one it had, since the message is what moves it on. Never stored
    /// or read back, so every later write of the whole record files the entry by
    /// `reconcile::due_at`.
    #[serde(skip)]
    pub carried_by_queue: bool,
    /// The redelivery the delivery was reopened for (`POST .../redeliver`), kept
    /// until an attempt is recorded, so that whoever queues its step again (the
    /// reconciler, a redrive) sends it as that redelivery under the attempt id
    /// the call promised, not as a retry of the ladder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redelivery: Option<PromisedRedelivery>,
}

/// The attempt a redeliver call promised: its number, its id and the attempt it
/// sends again.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PromisedRedelivery {
    pub number: u32,
    pub attempt_id: AttemptId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<AttemptId>,
}

/// Delivery settings that replace the endpoint's for one delivery (a schedule's
/// `latencyClass` and `longRunningAllowanceSeconds`); unset ones keep the endpoint's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliverySettings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_class: Option<LatencyClass>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_running_allowance_seconds: Option<u64>,
}

impl DeliverySettings {
    pub fn is_empty(&self) -> bool {
        self.latency_class.is_none() && self.long_running_allowance_seconds.is_none()
    }

    /// The latency class a delivery to `endpoint` keeps.
    pub fn latency_class(settings: Option<&Self>, endpoint: &Endpoint) -> LatencyClass {
        settings.and_then(|s| s.latency_class).unwrap_or(endpoint.latency_class)
    }

    /// The long-running allowance a delivery to `endpoint` keeps.
    pub fn long_running_allowance_seconds(settings: Option<&Self>, endpoint: &Endpoint) -> u64 {
        settings
            .and_then(|s| s.long_running_allowance_seconds)
            .unwrap_or(endpoint.long_running_allowance_seconds)
    }
}

/// What an event made by a schedule's firing carries beyond an ordinary event's,
/// so that every delivery of it (those written at the firing and those a fan-out
/// step writes later) is built the same way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OccurrenceOf {
    pub schedule_id: ScheduleId,
    #[serde(default, skip_serializing_if = "DeliverySettings::is_empty")]
    pub settings: DeliverySettings,
    /// The schedule's stored payload could not be used at the firing (missing, or
    /// no longer valid for its type's schema): the deliveries carry no body, and the
    /// sender settles them `payload_unavailable` / `replace_payload`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub payload_unavailable: bool,
}

/// A 202 for long-running work, waiting for `POST /v1/attempts/{id}/complete`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AwaitingCompletion {
    pub attempt_id: AttemptId,
    pub number: u32,
    pub trigger: Trigger,
    pub started_at: Timestamp,
    pub until: Timestamp,
    pub duration_ms: u64,
    /// sha256 hex of the completion token sent to the receiver.
    pub token_hash: String,
}

/// One attempt as recorded. The classification's names (state, error class,
/// diagnostic, remediation) are static strings when the sender makes the record, so
/// copying an attempt does not copy them; read back from storage they are owned.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    pub id: AttemptId,
    pub delivery_id: DeliveryId,
    pub tenant_id: TenantId,
    pub number: u32,
    pub trigger: Trigger,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source_attempt_id: Option<AttemptId>,
    pub state: Cow<'static, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_status: Option<u16>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_class: Option<Cow<'static, str>>,
    pub diagnostic: Cow<'static, str>,
    pub remediation: Cow<'static, str>,
    pub counts_toward_receiver_failures: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_snippet: Option<String>,
    #[serde(default)]
    pub truncated: bool,
    #[serde(default)]
    pub response_headers: std::collections::BTreeMap<String, String>,
    /// A destination's AWS error (code and request id) for a failed attempt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination_error: Option<DestinationErrorRecord>,
    /// The id the destination's service gave the message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    pub duration_ms: u64,
    pub started_at: Timestamp,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_attempt_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
}

/// What AWS answered a failed attempt to a destination.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DestinationErrorRecord {
    pub code: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

/// Per-endpoint outcome of an event, as the audit log shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventTarget {
    pub endpoint_id: EndpointId,
    pub delivery_id: DeliveryId,
    /// `queued`, `scheduled` or `dropped` at ingest.
    pub outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventRecord {
    pub id: EventId,
    pub tenant_id: TenantId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[serde(rename = "type")]
    pub event_type: Option<String>,
    pub payload: serde_json::Value,
    pub planned_at: Timestamp,
    pub created_at: Timestamp,
    pub targets: Vec<EventTarget>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
    /// The application the event was sent for (fan-out events only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub application_id: Option<String>,
    /// The channels the event carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channels: Option<Vec<String>>,
    /// Set on events routed by subscription (no endpoint named).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fanout: Option<FanoutProgress>,
    /// Set on a schedule's occurrences.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub occurrence: Option<OccurrenceOf>,
}

/// Where an event's fan-out stands: `matched` endpoints subscribed to it, of which
/// the first `processed` (in index order) have their delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FanoutProgress {
    pub status: FanoutStatus,
    pub matched: u64,
    pub processed: u64,
    /// Secret bits mixed into the fan-out's delivery ids, which are derived from
    /// (event, endpoint) so that a redone step writes the same deliveries again.
    pub seed: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FanoutStatus {
    InProgress,
    Complete,
}

/// What one fan-out step covered: the matching endpoints of its page, in index
/// order, which are the matches from position `start` (the matches before the step)
/// on. Their delivery ids derive from (event, endpoint), so the link names the
/// step's deliveries without a write per delivery; a redone step writes the same
/// `start` and replaces it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FanoutLink {
    pub tenant_id: TenantId,
    pub event_id: EventId,
    pub start: u64,
    pub endpoint_ids: Vec<EndpointId>,
    /// The event's own expiry (the link goes with it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
}

/// The first answer given for an Idempotency-Key, replayed for repeats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IdempotencyRecord {
    /// `<tenant>#<scope>#<key>`.
    pub key: String,
    /// SHA-256 of the request body (hex).
    pub request_hash: String,
    pub status: u16,
    pub response_body: String,
    pub created_at: Timestamp,
    pub expires_at: i64,
}

/// One of a tenant's own customers: its endpoints are grouped under it, and events
/// for it fan out to them. `uid` is the tenant's own id for the customer (unique per
/// tenant), accepted wherever the application id is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Application {
    /// `app_...`.
    pub id: String,
    pub tenant_id: TenantId,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<serde_json::Value>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    /// Optimistic concurrency counter, bumped by every update.
    pub version: u64,
    /// What the application's customer may do through a portal link.
    #[serde(default)]
    pub portal: PortalSettings,
    /// Endpoints of the application that are not revoked, counted as they join and
    /// leave it (a crash between the two writes can leave it one too high, never
    /// too low), so `portal.maxEndpoints` holds under concurrent creates.
    #[serde(default)]
    pub live_endpoints: u32,
}

/// The four presets, the default offer to a portal.
pub const PORTAL_PRESETS: [&str; 4] = ["greatwait", "tanitar", "gavai", "smartchat"];
/// How many live endpoints an application may hold by default.
pub const DEFAULT_PORTAL_MAX_ENDPOINTS: u32 = 20;

/// The operator's settings for an application's portal.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PortalSettings {
    /// Presets a portal may choose for an endpoint.
    pub presets: Vec<String>,
    /// Whether a portal may send a custom policy object.
    pub custom_policies: bool,
    /// The most live endpoints the application may hold when a portal creates one.
    pub max_endpoints: u32,
    /// Limits put on endpoints a portal creates (and their ceiling).
    #[serde(default)]
    pub endpoint_defaults: EndpointDefaults,
}

impl Default for PortalSettings {
    fn default() -> Self {
        PortalSettings {
            presets: PORTAL_PRESETS.iter().map(|p| (*p).to_owned()).collect(),
            custom_policies: false,
            max_endpoints: DEFAULT_PORTAL_MAX_ENDPOINTS,
            endpoint_defaults: EndpointDefaults::default(),
        }
    }
}

/// Limits given to an endpoint a portal creates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct EndpointDefaults {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<RateLimitSetting>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_in_flight: Option<u32>,
}

/// One write made through a portal link, kept for the operator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PortalActivity {
    /// `pa_...`, ordered by time.
    pub id: String,
    pub tenant_id: TenantId,
    pub link_id: String,
    /// The link's application; none for links over endpoint ids only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub application_id: Option<String>,
    pub method: String,
    /// The route's template, e.g. `PATCH /v1/endpoints/{id}`.
    pub route: String,
    pub path: String,
    /// The top-level fields the request body set.
    pub fields: Vec<String>,
    pub status: u16,
    pub at: Timestamp,
    /// Epoch seconds after which the store may drop it.
    pub expires_at: i64,
}

/// A kind of event a tenant sends, by name (`invoice.paid`), with an optional JSON
/// Schema its payloads must match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EventType {
    pub name: String,
    pub tenant_id: TenantId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default)]
    pub deprecated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<serde_json::Value>,
    /// An example payload, shown in the catalogue.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<serde_json::Value>,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
}
