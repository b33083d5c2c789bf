//! `/v1/endpoints` on the wire: what creating and changing an endpoint takes, how
//! one is shown, and the bodies of its lifecycle calls (enable, secret rotation,
//! test). An answer never carries a secret's value except the one signing secret a
//! create or a rotation has just made (`secret`, shown that once).

use crate::api::http::patch::Patch;
use crate::api::wire::endpoint_settings::{AuthIn, AuthOut, HeaderIn, HeaderOut, TlsIn, TlsOut};
use crate::domain::model::{Endpoint, EndpointState, RateLimitSetting, SecretRecord, SecretState};
use courier_core::Timestamp;
use courier_core::decide::LatencyClass;
use courier_core::health::HealthStatus;
use courier_core::ids::EndpointId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /v1/endpoints`: a receiver URL (or a destination) and its policy.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "url": "https://example.com/webhooks",
    "policy": "greatwait",
    "description": "Billing receiver",
    "filterTypes": ["invoice.*"]
})))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EndpointIn {
    /// Where deliveries are POSTed. Required unless `destination` is given. No fragment (`#...`):
    /// it is never sent to the receiver.
    #[cfg_attr(feature = "openapi", schema(format = "uri", max_length = 2048, pattern = "^[^#]*$"))]
    pub url: Option<String>,
    /// Instead of `url`: deliver into the customer's AWS account. A body with both
    /// is 400.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::Destination>))]
    pub destination: Option<Value>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::endpoint_schemas::PolicyInput))]
    pub policy: Value,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::LatencyClass>))]
    pub latency_class: Option<LatencyClass>,
    /// When above 0, a 202 answer means accepted long-running work: the receiver
    /// gets a `webhook-completion-token` and has this long to report through
    /// `POST /v1/attempts/{attemptId}/complete`.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 86400, default = 0))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub long_running_allowance_seconds: Option<u64>,
    /// Overrides the policy's request timeout.
    #[cfg_attr(feature = "openapi", schema(minimum = 100, maximum = 60000))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub timeout_ms: Option<u64>,
    /// Free text, at most 1,024 characters.
    #[cfg_attr(feature = "openapi", schema(max_length = 1024))]
    pub description: Option<String>,
    /// The application whose events the endpoint takes (by id or uid; an unknown one
    /// answers 404); stored as its `app_` id. Absent or null: the tenant's events
    /// sent without an application.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::ApplicationRef>))]
    pub application_id: Option<String>,
    // Not `Option<FilterTypes>`: the schema takes null itself, and a second null
    // branch would make `oneOf` refuse null.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::endpoint_schemas::FilterTypes))]
    pub filter_types: Option<Vec<String>>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::endpoint_schemas::Channels))]
    pub channels: Option<Vec<String>>,
    /// Caps attempts per second for this endpoint; `null` removes the limit (the
    /// deployment's default, if any, applies).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::RateLimit>))]
    pub rate_limit: Patch<Value>,
    /// Caps attempts under way at once for this endpoint; an attempt over the cap is
    /// held back and looks again after as long as the newest attempt under way has
    /// run (at least a second). `null` removes the cap (the deployment's default, if
    /// any, applies).
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u32>, minimum = 1, maximum = 1000))]
    pub max_in_flight: Patch<Value>,
    /// Failed attempts in a row after which the endpoint is `failing`: one
    /// `courier.endpoint.failing` operational event per run,
    /// `courier.endpoint.recovered` at its first success after it.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000, default = 3))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub failing_after: Option<u32>,
    /// Headers sent with every attempt (at most 20).
    #[cfg_attr(feature = "openapi", schema(max_items = 20))]
    pub headers: Option<Vec<HeaderIn>>,
    pub auth: Option<AuthIn>,
    pub tls: Option<TlsIn>,
}

/// `PATCH /v1/endpoints/{id}`: fields to change; absent fields keep their value.
/// The URL goes through admission again. For `applicationId`, `filterTypes`,
/// `channels`, `rateLimit`, `maxInFlight`, `headers`, `auth` and `tls`, null clears
/// the field.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"policy": "tanitar", "rateLimit": {"perSecond": 5}, "channels": null})))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EndpointPatch {
    /// A new receiver URL, admitted again exactly as on create. No fragment (`#...`):
    /// it is never sent to the receiver.
    #[cfg_attr(feature = "openapi", schema(format = "uri", max_length = 2048, pattern = "^[^#]*$"))]
    pub url: Option<String>,
    /// A new destination, in place of the URL or the destination.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::Destination>))]
    pub destination: Option<Value>,
    /// A new policy; one with another health model starts that model afresh.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::PolicyInput>))]
    pub policy: Option<Value>,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::LatencyClass>))]
    pub latency_class: Option<LatencyClass>,
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 86400))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub long_running_allowance_seconds: Option<u64>,
    #[cfg_attr(feature = "openapi", schema(minimum = 100, maximum = 60000))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub timeout_ms: Option<u64>,
    #[cfg_attr(feature = "openapi", schema(max_length = 1024))]
    pub description: Option<String>,
    /// A new limit, or null to remove it.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::RateLimit>))]
    pub rate_limit: Patch<Value>,
    /// A new cap, or null to remove it.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u32>, minimum = 1, maximum = 1000))]
    pub max_in_flight: Patch<Value>,
    /// Another application (by id or uid), or null for none. A portal token may
    /// only send its endpoint's own.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::ApplicationRef>))]
    pub application_id: Patch<String>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::endpoint_schemas::FilterTypes))]
    pub filter_types: Patch<Vec<String>>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::endpoint_schemas::Channels))]
    pub channels: Patch<Vec<String>>,
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub failing_after: Option<u32>,
    /// Replaces the list; null removes every header.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<crate::api::wire::endpoint_settings::HeaderIn>>, max_items = 20))]
    pub headers: Patch<Vec<HeaderIn>>,
    /// Replaces the OAuth settings; null removes them.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_settings::AuthIn>))]
    pub auth: Patch<AuthIn>,
    /// Replaces the TLS settings; null removes them.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_settings::TlsIn>))]
    pub tls: Patch<TlsIn>,
}

/// A signing secret's state (never its value). A retiring secret signs until
/// `expiresAt`.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct SecretInfo {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::endpoint_schemas::SecretState))]
    pub state: SecretState,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub created_at: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>, required))]
    pub expires_at: Option<Timestamp>,
}

impl From<&SecretRecord> for SecretInfo {
    fn from(s: &SecretRecord) -> Self {
        SecretInfo {
            state: s.state,
            created_at: s.created_at,
            expires_at: s.expires_at,
        }
    }
}

/// The circuit breaker, for policies with the breaker health model.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = Breaker))]
#[serde(rename_all = "camelCase")]
pub struct BreakerOut {
    #[cfg_attr(feature = "openapi", schema(inline))]
    pub state: BreakerPosition,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>, required))]
    pub open_until: Option<Timestamp>,
    pub exhausted_in_a_row: u32,
}

/// Whether the breaker lets attempts through (`closed`) or holds them (`open`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum BreakerPosition {
    Closed,
    Open,
}

/// Health, for policies with the SmartChat health model.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = SmartHealth))]
#[serde(rename_all = "camelCase")]
pub struct SmartHealthOut {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::endpoint_schemas::SmartHealthStatus))]
    pub status: HealthStatus,
    pub failures_in_a_row: u32,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub since: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub last_success_or_enable_at: Timestamp,
}

/// A receiver URL (or destination) and how deliveries to it behave.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointOut {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EndpointId))]
    pub id: EndpointId,
    /// The webhook's URL; null for a destination endpoint.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub url: Option<String>,
    /// Present on a destination endpoint, with its `externalId`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::Destination>))]
    pub destination: Option<Value>,
    /// The preset's name, or the complete custom policy.
    #[cfg_attr(feature = "openapi", schema(schema_with = policy_shown))]
    pub policy: Value,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::endpoint_schemas::LatencyClass))]
    pub latency_class: LatencyClass,
    pub long_running_allowance_seconds: u64,
    /// The request timeout in effect (the override, or the policy's).
    pub timeout_ms: u64,
    #[cfg_attr(feature = "openapi", schema(required))]
    pub description: Option<String>,
    /// The endpoint's own rate limit (null: none; the deployment's default, if any,
    /// applies).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::RateLimit>, required))]
    pub rate_limit: Option<RateLimitSetting>,
    /// The endpoint's own in-flight cap (null: none; the deployment's default, if
    /// any, applies).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000, required))]
    pub max_in_flight: Option<u32>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::endpoint_schemas::EndpointStatus))]
    pub status: &'static str,
    pub secrets: Vec<SecretInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub breaker: Option<BreakerOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub health: Option<SmartHealthOut>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub created_at: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub updated_at: Timestamp,
    /// The application (`app_` id) whose events the endpoint takes; null: events
    /// sent without an application.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub application_id: Option<String>,
    /// The types taken; null: every type.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub filter_types: Option<Vec<String>>,
    /// The channel filter; null: none.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub channels: Option<Vec<String>>,
    /// Failed attempts in a row after which the endpoint is `failing`: one
    /// `courier.endpoint.failing` operational event per run,
    /// `courier.endpoint.recovered` at its first success after it.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 1000, default = 3))]
    pub failing_after: u32,
    /// Headers sent with every attempt; secret values shown as null.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::api::wire::endpoint_settings::HeaderIn>))]
    pub headers: Vec<HeaderOut>,
    /// OAuth 2.0 client credentials; `clientSecret` shown as null.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_settings::AuthIn>, required))]
    pub auth: Option<AuthOut>,
    /// TLS settings; `clientKey` shown as null.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_settings::TlsIn>, required))]
    pub tls: Option<TlsOut>,
    /// When `DELETE /v1/endpoints/{id}` removed it (it is then `revoked` and in no
    /// list).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>))]
    pub deleted_at: Option<Timestamp>,
}

/// `policy` in an answer: a preset's name or a complete custom policy.
#[cfg(feature = "openapi")]
fn policy_shown() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use crate::api::wire::endpoint_schemas::{Policy, PresetName};
    use utoipa::ToSchema;
    use utoipa::openapi::Ref;
    let one_of = utoipa::openapi::schema::OneOfBuilder::new()
        .item(Ref::from_schema_name(PresetName::name()))
        .item(Ref::from_schema_name(Policy::name()))
        .description(Some("The preset's name, or the complete custom policy."))
        .build();
    utoipa::openapi::RefOr::T(utoipa::openapi::schema::Schema::OneOf(one_of))
}

/// `replaySince`: an instant at most 7 days back, which JSON Schema cannot say but
/// the `x-maxAgeDays` extension does.
#[cfg(feature = "openapi")]
fn replay_since() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::extensions::ExtensionsBuilder;
    use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
        .description(Some(
            format!("Also send again the events created since then: at most {} days back (an earlier instant answers 400 `validation_failed`).", crate::api::http::limits::REPLAY_MAX_DAYS),
        ))
        .extensions(Some(
            ExtensionsBuilder::new()
                .add("x-maxAgeDays", crate::api::http::limits::REPLAY_MAX_DAYS)
                .build(),
        ))
        .into()
}

/// The endpoint's status as the API shows it, derived at `now`.
pub fn endpoint_status(e: &Endpoint, now: Timestamp) -> &'static str {
    match e.state {
        EndpointState::Revoked => return "revoked",
        EndpointState::Disabled => return "disabled",
        EndpointState::Active => {}
    }
    match (e.health, e.policy.health.smart_rules()) {
        (Some(h), Some(rules)) => h.at(rules, now).status.wire_name(),
        _ => "active",
    }
}

impl EndpointOut {
    /// The endpoint as the API shows it at `now` (its status and health derived
    /// then).
    pub fn at(e: &Endpoint, now: Timestamp) -> EndpointOut {
        let policy = if e.policy.is_preset() {
            Value::String(e.policy.name.clone())
        } else {
            serde_json::to_value(&e.policy).unwrap_or(Value::Null)
        };
        let breaker = e.policy.health.breaker_rules().map(|_| {
            let b = e.breaker.unwrap_or_default().at(now);
            BreakerOut {
                state: if b.open_until.is_some() {
                    BreakerPosition::Open
                } else {
                    BreakerPosition::Closed
                },
                open_until: b.open_until,
                exhausted_in_a_row: b.exhausted_in_a_row,
            }
        });
        let health = match (e.health, e.policy.health.smart_rules()) {
            (Some(h), Some(rules)) => {
                let h = h.at(rules, now);
                Some(SmartHealthOut {
                    status: h.status,
                    failures_in_a_row: h.failures_in_a_row,
                    since: h.since,
                    last_success_or_enable_at: h.quiet_since,
                })
            }
            _ => None,
        };
        let destination = e.destination.as_ref().map(|d| {
            let mut shown = serde_json::to_value(d).unwrap_or(Value::Null);
            if let Some(o) = shown.as_object_mut() {
                o.insert("externalId".to_owned(), Value::String(e.external_id()));
            }
            shown
        });
        EndpointOut {
            id: e.id.clone(),
            url: e.destination.is_none().then(|| e.url.clone()),
            destination,
            policy,
            latency_class: e.latency_class,
            long_running_allowance_seconds: e.long_running_allowance_seconds,
            timeout_ms: e.timeout_ms(),
            description: e.description.clone(),
            rate_limit: e.rate_limit,
            max_in_flight: e.max_in_flight,
            status: endpoint_status(e, now),
            secrets: e.secrets.iter().map(SecretInfo::from).collect(),
            breaker,
            health,
            created_at: e.created_at,
            updated_at: e.updated_at,
            application_id: e.application_id.clone(),
            filter_types: e.filter_types.clone(),
            channels: e.channels.clone(),
            failing_after: e.failing_after(),
            headers: e.headers.iter().map(HeaderOut::from).collect(),
            auth: e.auth.as_ref().map(AuthOut::from),
            tls: e.tls.as_ref().map(TlsOut::from),
            deleted_at: e.deleted_at,
        }
    }
}

/// An endpoint with the signing secret just made: what a create and a rotation
/// answer, the one time the secret is shown.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointWithSecret {
    #[serde(flatten)]
    pub endpoint: EndpointOut,
    /// The new signing secret, shown only in this answer.
    #[cfg_attr(feature = "openapi", schema(pattern = "^whsec_"))]
    pub secret: String,
}

/// `POST /v1/endpoints/{id}/enable`: the body may be left out.
#[derive(Debug, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"replaySince": "2026-11-30T06:28:01.000Z"})))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EnableEndpoint {
    /// Also send again the events created since then: at most 7 days back (an
    /// earlier instant answers 400 `validation_failed`).
    #[cfg_attr(feature = "openapi", schema(schema_with = replay_since))]
    pub replay_since: Option<String>,
}

/// What `POST /v1/endpoints/{id}/enable` answers.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointEnabled {
    #[serde(flatten)]
    pub endpoint: EndpointOut,
    /// Events sent again; present only when `replaySince` was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<u64>, minimum = 0))]
    pub replayed: Option<Value>,
}

/// `POST /v1/endpoints/{id}/secrets/rotate`: the body may be left out.
#[derive(Debug, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"graceSeconds": 3600})))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RotateSecret {
    /// How long the previous secret keeps signing.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 604800, default = 86400))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub grace_seconds: Option<u64>,
}

/// What `POST /v1/endpoints/{id}/test` answers: the test event and its delivery.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct TestAccepted {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EventId))]
    pub event_id: String,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::DeliveryId))]
    pub delivery_id: Option<String>,
}
