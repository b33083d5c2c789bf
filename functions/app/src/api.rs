//! The public HTTP API as a transport-neutral router: `ApiRequest` in, `ApiResponse`
//! out. The api Lambda (lambda_http) and the local runner (axum) both adapt their
//! request types to this, so both serve exactly the same routes and errors.
//! Every failure is an RFC 9457 problem+json naming the field or limit at fault;
//! no input reaches a panic or a 500.

use crate::ingest::{self, NewEvent};
use crate::message::Trigger;
use crate::model::{
    Attempt, Delivery, Endpoint, EndpointState, EventRecord, IdempotencyRecord, SecretRecord, SecretState, Tenant,
};
use crate::planner::Planner;
use crate::ports::{
    Clock, DeliveryStore, EndpointStore, IdempotencyStore, PortError, Random, SecretSource, TenantStore, UrlAdmission,
};
use crate::sender::PortRng;
use base64::Engine;
use courier_core::decide::LatencyClass;
use courier_core::health::HealthStatus;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};
use courier_core::signing::SigningSecret;
use courier_core::{Policy, Timestamp};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::sync::Arc;

pub const MAX_BODY_BYTES: usize = 320 * 1024;
pub const MAX_PAYLOAD_BYTES: usize = 256 * 1024;
pub const MAX_URL_LEN: usize = 2048;
pub const MAX_DESCRIPTION: usize = 1024;
pub const MAX_EVENT_TYPE: usize = 256;
pub const MAX_ENDPOINTS_PER_EVENT: usize = 50;
pub const MAX_IDEMPOTENCY_KEY: usize = 255;
pub const MAX_LONG_RUNNING_SECONDS: u64 = 86_400;
pub const IDEMPOTENCY_TTL_SECONDS: i64 = 24 * 3600;
pub const DEFAULT_PAGE: u32 = 50;
pub const MAX_PAGE: u32 = 100;

/// One operation the router serves: its method, its path as an OpenAPI template and
/// every status it can answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Route {
    pub method: &'static str,
    /// OpenAPI path template, e.g. `/v1/endpoints/{id}/disable`.
    pub path: &'static str,
    /// Success and error statuses, ascending. `docs/openapi.json` documents exactly
    /// these (checked by `tests/openapi.rs`). 405 belongs to the path's other methods,
    /// so no operation lists it.
    pub statuses: &'static [u16],
}

/// Every route [`Api::route`] serves. Each authenticated route may answer 401 (no or
/// unknown key), 429 (rate limit) and 503 (storage failure, the key lookup included);
/// a request body brings 400/413/415; an id in the path brings 404 (malformed ids too).
pub const ROUTES: &[Route] = &[
    Route {
        method: "GET",
        path: "/healthz",
        statuses: &[200, 503],
    },
    Route {
        method: "HEAD",
        path: "/healthz",
        statuses: &[200, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints",
        statuses: &[201, 400, 401, 413, 415, 422, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/endpoints",
        statuses: &[200, 400, 401, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/endpoints/{id}",
        statuses: &[200, 401, 404, 429, 503],
    },
    Route {
        method: "PATCH",
        path: "/v1/endpoints/{id}",
        statuses: &[200, 400, 401, 404, 409, 413, 415, 422, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/endpoints/{id}/deliveries",
        statuses: &[200, 400, 401, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/disable",
        statuses: &[200, 401, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/enable",
        statuses: &[200, 400, 401, 404, 409, 413, 415, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/revoke",
        statuses: &[200, 401, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/secrets/rotate",
        statuses: &[200, 400, 401, 404, 409, 413, 415, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/test",
        statuses: &[202, 401, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/replay",
        statuses: &[202, 400, 401, 404, 413, 415, 422, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/endpoints/{id}/replay-dead",
        statuses: &[202, 400, 401, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/events",
        statuses: &[202, 400, 401, 404, 413, 415, 422, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/events",
        statuses: &[200, 400, 401, 404, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/deliveries/{id}",
        statuses: &[200, 401, 404, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/deliveries/{id}/attempts",
        statuses: &[200, 401, 404, 429, 503],
    },
    Route {
        method: "GET",
        path: "/v1/deliveries/{id}/attempts/{attemptId}",
        statuses: &[200, 401, 404, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/deliveries/{id}/redeliver",
        statuses: &[202, 400, 401, 404, 409, 413, 415, 422, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/deliveries/{id}/redrive",
        statuses: &[202, 401, 404, 409, 429, 503],
    },
    Route {
        method: "POST",
        path: "/v1/attempts/{attemptId}/complete",
        statuses: &[200, 400, 401, 404, 409, 413, 415, 503],
    },
];

#[derive(Debug, Clone, Default)]
pub struct ApiRequest {
    pub method: String,
    pub path: String,
    pub query: Option<String>,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl ApiRequest {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct ApiResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl ApiResponse {
    pub fn json(status: u16, value: &Value) -> Self {
        ApiResponse {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: serde_json::to_vec(value).unwrap_or_default(),
        }
    }
    pub fn body_json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// An API refusal, rendered as problem+json.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: u16,
    pub code: &'static str,
    pub detail: String,
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: u16, code: &'static str, detail: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            detail: detail.into(),
            retry_after: None,
        }
    }
    pub fn validation(detail: impl Into<String>) -> Self {
        ApiError::new(400, "validation_failed", detail)
    }
    pub fn not_found(what: &str) -> Self {
        ApiError::new(404, "not_found", format!("{what} not found"))
    }
    fn title(&self) -> &'static str {
        match self.code {
            "validation_failed" => "Validation failed",
            "unauthorized" => "Unauthorized",
            "not_found" => "Not found",
            "conflict" => "Conflict",
            "idempotency_key_required" => "Idempotency-Key required",
            "idempotency_key_reused" => "Idempotency-Key reused with another body",
            "endpoint_unsafe" => "Endpoint URL is not allowed",
            "payload_too_large" => "Payload too large",
            "rate_limited" => "Rate limited",
            "breaker_open" => "Circuit breaker open",
            "method_not_allowed" => "Method not allowed",
            "unsupported_media_type" => "Unsupported media type",
            _ => "Service unavailable",
        }
    }
    pub fn into_response(self) -> ApiResponse {
        let mut body = json!({
            "type": format!("https://courier.dev/problems/{}", self.code.replace('_', "-")),
            "title": self.title(),
            "status": self.status,
            "code": self.code,
            "detail": self.detail,
        });
        let mut headers = vec![("content-type".to_owned(), "application/problem+json".to_owned())];
        if let Some(ra) = self.retry_after {
            body["retryAfterSeconds"] = json!(ra);
            headers.push(("retry-after".into(), ra.to_string()));
        }
        ApiResponse {
            status: self.status,
            headers,
            body: serde_json::to_vec(&body).unwrap_or_default(),
        }
    }
}

impl From<PortError> for ApiError {
    fn from(e: PortError) -> Self {
        if matches!(e, PortError::BadCursor) {
            // Sent back by the caller, so the caller's to fix: a 503 would have it
            // retry the same cursor for ever.
            return ApiError::validation(
                "query parameter `cursor` is not one this list returned (lists with other filters or time windows have cursors of their own); list again without it",
            );
        }
        tracing::error!(error = %e, "storage failure behind the API");
        let mut err = ApiError::new(
            503,
            "service_unavailable",
            "a backing service is unavailable; retry later",
        );
        err.retry_after = Some(1);
        err
    }
}

type ApiResult<T> = Result<T, ApiError>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiSettings {
    pub allow_http_targets: bool,
    pub allow_private_targets: bool,
    /// Requests per second each API key may make on average (0: unlimited).
    pub rate_per_second: u32,
    /// How many requests a key may make in a burst.
    pub rate_burst: u32,
}

impl Default for ApiSettings {
    fn default() -> Self {
        ApiSettings {
            allow_http_targets: false,
            allow_private_targets: false,
            rate_per_second: 50,
            rate_burst: 100,
        }
    }
}

/// Token buckets per API key. Per process: in Lambda each warm instance limits on
/// its own, which bounds abuse without a storage write per request.
#[derive(Default)]
pub struct RateLimiter {
    buckets: std::sync::Mutex<std::collections::HashMap<String, (f64, Timestamp)>>,
}

impl RateLimiter {
    /// `Ok` to go ahead, or `Err(seconds)` to wait before the next token.
    pub fn take(&self, key: &str, rate: u32, burst: u32, now: Timestamp) -> Result<(), u64> {
        if rate == 0 {
            return Ok(());
        }
        let Ok(mut map) = self.buckets.lock() else {
            return Ok(());
        };
        if map.len() > 10_000 {
            // Forget idle keys rather than grow without bound.
            map.retain(|_, (tokens, at)| now.millis_since(*at) < 60_000 || *tokens < f64::from(burst));
        }
        let (tokens, at) = map.entry(key.to_owned()).or_insert((f64::from(burst), now));
        let elapsed = now.millis_since(*at).max(0) as f64 / 1000.0;
        *tokens = (*tokens + elapsed * f64::from(rate)).min(f64::from(burst.max(1)));
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / f64::from(rate)).ceil().max(1.0) as u64)
        }
    }
}

pub struct Api {
    pub tenants: Arc<dyn TenantStore>,
    pub endpoints: Arc<dyn EndpointStore>,
    pub deliveries: Arc<dyn DeliveryStore>,
    pub idempotency: Arc<dyn IdempotencyStore>,
    pub planner: Planner,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
    pub secrets: Arc<dyn SecretSource>,
    pub admission: Arc<dyn UrlAdmission>,
    pub settings: ApiSettings,
    pub limiter: RateLimiter,
}

/// sha256 hex of an API key: keys are stored only hashed.
pub fn hash_key(key: &str) -> String {
    hex(&Sha256::digest(key.as_bytes()))
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Creates a tenant and its first API key; returns the key (shown once).
pub async fn create_tenant(
    tenants: &dyn TenantStore,
    secrets: &dyn SecretSource,
    random: &dyn Random,
    clock: &dyn Clock,
    name: &str,
) -> Result<(Tenant, String), PortError> {
    let mut raw = [0u8; 32];
    secrets.fill(&mut raw);
    let key = format!("ck_{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw));
    let tenant = Tenant {
        id: TenantId::generate(clock.now(), &mut PortRng(random)),
        name: name.to_owned(),
    };
    tenants.put_tenant_key(&hash_key(&key), &tenant).await?;
    Ok((tenant, key))
}

/// Registers a known key (e.g. a fixed development key) for a tenant.
pub async fn register_key(tenants: &dyn TenantStore, key: &str, tenant: &Tenant) -> Result<(), PortError> {
    tenants.put_tenant_key(&hash_key(key), tenant).await
}

pub(crate) fn parse_body<T: DeserializeOwned>(req: &ApiRequest) -> ApiResult<T> {
    if req.body.len() > MAX_BODY_BYTES {
        return Err(ApiError::new(
            413,
            "payload_too_large",
            format!(
                "request body is {} bytes; the limit is {MAX_BODY_BYTES}",
                req.body.len()
            ),
        ));
    }
    if let Some(ct) = req.header("content-type") {
        let mime = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        if !(mime == "application/json" || mime.ends_with("+json")) {
            return Err(ApiError::new(
                415,
                "unsupported_media_type",
                format!("content-type must be application/json, got {mime:?}"),
            ));
        }
    }
    let body: &[u8] = if req.body.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &req.body
    };
    let json: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::validation(format!("request body is not valid JSON: {e}")))?;
    if !json.is_object() {
        return Err(ApiError::validation("request body must be a JSON object"));
    }
    let value = serde_path_to_error::deserialize(json).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path == "?" || path.is_empty() {
            ApiError::validation(format!("request body: {inner}"))
        } else {
            ApiError::validation(format!("field `{path}`: {inner}"))
        }
    })?;
    Ok(value)
}

fn query_params(req: &ApiRequest) -> Vec<(String, String)> {
    req.query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hexpair = std::str::from_utf8(&bytes[i + 1..i + 3])
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hexpair {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub(crate) struct ListQuery {
    since: Option<Timestamp>,
    until: Option<Timestamp>,
    cursor: Option<String>,
    limit: u32,
    status: Option<String>,
    endpoint_id: Option<EndpointId>,
}

pub(crate) fn list_query(req: &ApiRequest, allowed: &[&str]) -> ApiResult<ListQuery> {
    let mut q = ListQuery {
        since: None,
        until: None,
        cursor: None,
        limit: DEFAULT_PAGE,
        status: None,
        endpoint_id: None,
    };
    for (k, v) in query_params(req) {
        if !allowed.contains(&k.as_str()) {
            return Err(ApiError::validation(format!(
                "unknown query parameter `{k}`; allowed: {}",
                allowed.join(", ")
            )));
        }
        let time = |v: &str| {
            Timestamp::parse_rfc3339(v).map_err(|e| ApiError::validation(format!("query parameter `{k}`: {e}")))
        };
        match k.as_str() {
            "since" => q.since = Some(time(&v)?),
            "until" => q.until = Some(time(&v)?),
            "cursor" if v.len() <= 1024 => q.cursor = Some(v),
            "cursor" => return Err(ApiError::validation("query parameter `cursor` is too long")),
            "limit" => {
                q.limit = v
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_PAGE).contains(n))
                    .ok_or_else(|| ApiError::validation(format!("query parameter `limit` must be 1-{MAX_PAGE}")))?;
            }
            "status" => {
                if crate::model::DeliveryStatus::parse(&v).is_none() {
                    return Err(ApiError::validation(
                        "query parameter `status` must be one of scheduled, pending, retrying, ambiguous, succeeded, failed, dropped",
                    ));
                }
                q.status = Some(v);
            }
            "endpointId" => {
                q.endpoint_id = Some(
                    EndpointId::parse(&v)
                        .map_err(|e| ApiError::validation(format!("query parameter `endpointId`: {e}")))?,
                )
            }
            _ => {}
        }
    }
    if let (Some(s), Some(u)) = (q.since, q.until)
        && s > u
    {
        return Err(ApiError::validation("`since` must not be after `until`"));
    }
    Ok(q)
}

pub(crate) fn id_from_path<T>(
    raw: &str,
    parse: impl Fn(&str) -> Result<T, courier_core::ids::IdError>,
    what: &str,
) -> ApiResult<T> {
    // A malformed id cannot name anything: answer 404 like any unknown id.
    parse(raw).map_err(|_| ApiError::not_found(what))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateEndpoint {
    url: String,
    policy: Value,
    latency_class: Option<LatencyClass>,
    long_running_allowance_seconds: Option<u64>,
    timeout_ms: Option<u64>,
    description: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct UpdateEndpoint {
    url: Option<String>,
    policy: Option<Value>,
    latency_class: Option<LatencyClass>,
    long_running_allowance_seconds: Option<u64>,
    timeout_ms: Option<u64>,
    description: Option<String>,
}

fn check_policy(value: &Value) -> ApiResult<Policy> {
    Policy::from_value(value).map_err(|e| {
        let field = if e.field == "policy" {
            "policy".to_owned()
        } else {
            format!("policy.{}", e.field)
        };
        ApiError::validation(format!("field `{field}`: {}", e.message))
    })
}

fn check_description(d: Option<&str>) -> ApiResult<()> {
    match d {
        Some(d) if d.chars().count() > MAX_DESCRIPTION => Err(ApiError::validation(format!(
            "field `description` is longer than {MAX_DESCRIPTION} characters"
        ))),
        _ => Ok(()),
    }
}

fn check_allowance(a: Option<u64>) -> ApiResult<Option<u64>> {
    match a {
        Some(a) if a > MAX_LONG_RUNNING_SECONDS => Err(ApiError::validation(format!(
            "field `longRunningAllowanceSeconds` must be at most {MAX_LONG_RUNNING_SECONDS}"
        ))),
        _ => Ok(a),
    }
}

fn check_timeout(t: Option<u64>) -> ApiResult<()> {
    match t {
        Some(t) if !(100..=60_000).contains(&t) => {
            Err(ApiError::validation("field `timeoutMs` must be between 100 and 60000"))
        }
        _ => Ok(()),
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CreateEvent {
    endpoint_id: Option<String>,
    endpoint_ids: Option<Vec<String>>,
    #[serde(rename = "type")]
    event_type: Option<String>,
    payload: Option<Value>,
    planned_at: Option<String>,
}

/// The endpoint's status as the API shows it, derived at `now`.
pub fn endpoint_status(e: &Endpoint, now: Timestamp) -> &'static str {
    match e.state {
        EndpointState::Revoked => return "revoked",
        EndpointState::Disabled => return "disabled",
        EndpointState::Active => {}
    }
    match (e.health, e.policy.health.smart_rules()) {
        (Some(h), Some(rules)) => match h.at(rules, now).status {
            HealthStatus::Active => "active",
            HealthStatus::Degraded => "degraded",
            HealthStatus::Paused => "paused",
            HealthStatus::Disabled => "disabled",
        },
        _ => "active",
    }
}

pub fn endpoint_view(e: &Endpoint, now: Timestamp) -> Value {
    let policy = if e.policy.is_preset() {
        json!(e.policy.name)
    } else {
        serde_json::to_value(&e.policy).unwrap_or(Value::Null)
    };
    let mut v = json!({
        "id": e.id,
        "url": e.url,
        "policy": policy,
        "latencyClass": e.latency_class,
        "longRunningAllowanceSeconds": e.long_running_allowance_seconds,
        "timeoutMs": e.timeout_ms(),
        "description": e.description,
        "status": endpoint_status(e, now),
        "secrets": e.secrets.iter().map(|s| json!({"state": s.state, "createdAt": s.created_at, "expiresAt": s.expires_at})).collect::<Vec<_>>(),
        "createdAt": e.created_at,
        "updatedAt": e.updated_at,
    });
    if let Some(rules) = e.policy.health.breaker_rules() {
        let b = e.breaker.unwrap_or_default().at(now);
        let _ = rules;
        v["breaker"] = json!({
            "state": if b.open_until.is_some() { "open" } else { "closed" },
            "openUntil": b.open_until,
            "exhaustedInARow": b.exhausted_in_a_row,
        });
    }
    if let (Some(h), Some(rules)) = (e.health, e.policy.health.smart_rules()) {
        let h = h.at(rules, now);
        v["health"] = json!({"status": h.status, "failuresInARow": h.failures_in_a_row, "since": h.since, "lastSuccessOrEnableAt": h.quiet_since});
    }
    v
}

pub fn delivery_view(d: &Delivery) -> Value {
    json!({
        "id": d.id,
        "eventId": d.event_id,
        "endpointId": d.endpoint_id,
        "webhookId": d.webhook_id,
        "status": d.status,
        "deadReason": d.dead_reason,
        "trigger": d.trigger,
        "attemptCount": d.attempt_count,
        "receiverFailures": d.receiver_failures,
        "nextAttemptAt": d.next_attempt_at,
        "createdAt": d.created_at,
        "plannedAt": d.planned_at,
        "settledAt": d.settled_at,
        "deadLetteredAt": d.dead_lettered_at,
    })
}

pub fn attempt_view(a: &Attempt) -> Value {
    let mut v = serde_json::to_value(a).unwrap_or(Value::Null);
    if let Some(o) = v.as_object_mut() {
        o.remove("expiresAt");
        o.remove("tenantId");
    }
    v
}

pub fn event_view(e: &EventRecord) -> Value {
    json!({
        "id": e.id,
        "type": e.event_type,
        "plannedAt": e.planned_at,
        "createdAt": e.created_at,
        "deliveries": e.targets,
    })
}

pub(crate) fn expired(expires_at: Option<i64>, now: Timestamp) -> bool {
    expires_at.is_some_and(|t| t * 1000 <= now.millis())
}

impl Api {
    /// Serves one request. Never panics on input; unexpected storage failures are 503.
    pub async fn handle(&self, req: ApiRequest) -> ApiResponse {
        match self.route(&req).await {
            Ok(r) => r,
            Err(e) => e.into_response(),
        }
    }

    async fn authenticate(&self, req: &ApiRequest) -> ApiResult<Tenant> {
        let unauthorized = || ApiError::new(401, "unauthorized", "send `Authorization: Bearer <api key>`");
        let value = req.header("authorization").ok_or_else(unauthorized)?;
        let (scheme, key) = value.trim().split_once(' ').ok_or_else(unauthorized)?;
        let key = key.trim();
        if !scheme.eq_ignore_ascii_case("bearer") || key.is_empty() || key.len() > 256 {
            return Err(unauthorized());
        }
        self.tenants
            .tenant_by_key(&hash_key(key))
            .await?
            .ok_or_else(|| ApiError::new(401, "unauthorized", "unknown API key"))
    }

    async fn route(&self, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let path = req.path.split('?').next().unwrap_or("");
        let segs: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
        let m = req.method.to_ascii_uppercase();
        if segs == ["healthz"] {
            return match m.as_str() {
                "GET" | "HEAD" => {
                    self.tenants.tenant_by_key(&hash_key("healthz-probe")).await?;
                    Ok(ApiResponse::json(200, &json!({"status": "ok"})))
                }
                _ => Err(method_not_allowed("GET")),
            };
        }
        if segs.first() == Some(&"console")
            && (m == "GET" || m == "HEAD")
            && let Some(r) = courier_console::serve(path, req.query.as_deref())
        {
            return Ok(ApiResponse {
                status: r.status,
                headers: r.headers,
                body: r.body,
            });
        }
        if segs.first() != Some(&"v1") {
            return Err(ApiError::not_found("route"));
        }
        // Authorised by the completion token sent with the attempt, not an API key.
        if let ["attempts", att, "complete"] = &segs[1..] {
            return match m.as_str() {
                "POST" => self.complete_attempt(att, req).await,
                _ => Err(method_not_allowed("POST")),
            };
        }
        let tenant = self.authenticate(req).await?;
        let key = req.header("authorization").unwrap_or_default();
        if let Err(wait) = self.limiter.take(
            &hash_key(key),
            self.settings.rate_per_second,
            self.settings.rate_burst,
            self.clock.now(),
        ) {
            let mut e = ApiError::new(
                429,
                "rate_limited",
                format!(
                    "more than {} requests per second for this API key; retry after {wait} s",
                    self.settings.rate_per_second
                ),
            );
            e.retry_after = Some(wait);
            return Err(e);
        }
        match (m.as_str(), &segs[1..]) {
            ("POST", ["endpoints"]) => self.create_endpoint(&tenant, req).await,
            ("GET", ["endpoints"]) => self.list_endpoints(&tenant, req).await,
            ("GET", ["endpoints", id]) => {
                let e = self.load_endpoint(&tenant, id).await?;
                Ok(ApiResponse::json(200, &endpoint_view(&e, self.clock.now())))
            }
            ("PATCH", ["endpoints", id]) => self.update_endpoint(&tenant, id, req).await,
            ("GET", ["endpoints", id, "deliveries"]) => self.list_deliveries(&tenant, id, req).await,
            ("POST", ["events"]) => self.create_event(&tenant, req).await,
            ("GET", ["events"]) => self.list_events(&tenant, req).await,
            ("GET", ["deliveries", id]) => {
                let d = self.load_delivery(&tenant, id).await?;
                Ok(ApiResponse::json(200, &delivery_view(&d)))
            }
            ("GET", ["deliveries", id, "attempts"]) => {
                let d = self.load_delivery(&tenant, id).await?;
                let now = self.clock.now();
                let attempts: Vec<Value> = self
                    .deliveries
                    .list_attempts(&d.id)
                    .await?
                    .iter()
                    .filter(|a| !expired(a.expires_at, now))
                    .map(attempt_view)
                    .collect();
                Ok(ApiResponse::json(200, &json!({"items": attempts})))
            }
            ("GET", ["deliveries", id, "attempts", att]) => {
                let d = self.load_delivery(&tenant, id).await?;
                let att = id_from_path(att, AttemptId::parse, "attempt")?;
                let now = self.clock.now();
                let a = self
                    .deliveries
                    .list_attempts(&d.id)
                    .await?
                    .into_iter()
                    .find(|a| a.id == att && !expired(a.expires_at, now))
                    .ok_or_else(|| ApiError::not_found("attempt"))?;
                Ok(ApiResponse::json(200, &attempt_view(&a)))
            }
            ("POST", ["endpoints", id, "disable"]) => self.disable_endpoint(&tenant, id).await,
            ("POST", ["endpoints", id, "enable"]) => self.enable_endpoint(&tenant, id, req).await,
            ("POST", ["endpoints", id, "revoke"]) => self.revoke_endpoint(&tenant, id).await,
            ("POST", ["endpoints", id, "secrets", "rotate"]) => self.rotate_secret(&tenant, id, req).await,
            ("POST", ["endpoints", id, "test"]) => self.test_endpoint(&tenant, id).await,
            ("POST", ["endpoints", id, "replay"]) => self.replay(&tenant, id, req).await,
            ("POST", ["endpoints", id, "replay-dead"]) => self.replay_dead(&tenant, id).await,
            ("POST", ["deliveries", id, "redeliver"]) => self.redeliver(&tenant, id, req).await,
            ("POST", ["deliveries", id, "redrive"]) => self.redrive(&tenant, id).await,
            (
                _,
                [
                    "endpoints",
                    _,
                    "disable" | "enable" | "revoke" | "test" | "replay" | "replay-dead",
                ]
                | ["endpoints", _, "secrets", "rotate"]
                | ["deliveries", _, "redeliver" | "redrive"],
            ) => Err(method_not_allowed("POST")),
            (_, ["endpoints"]) => Err(method_not_allowed("GET, POST")),
            (_, ["events"]) => Err(method_not_allowed("GET, POST")),
            (_, ["endpoints", _]) => Err(method_not_allowed("GET, PATCH")),
            (
                _,
                ["deliveries", _]
                | ["deliveries", _, "attempts"]
                | ["deliveries", _, "attempts", _]
                | ["endpoints", _, "deliveries"],
            ) => Err(method_not_allowed("GET")),
            _ => Err(ApiError::not_found("route")),
        }
    }

    pub(crate) async fn load_endpoint(&self, tenant: &Tenant, raw: &str) -> ApiResult<Endpoint> {
        let id = id_from_path(raw, EndpointId::parse, "endpoint")?;
        self.endpoints
            .get_endpoint(&tenant.id, &id)
            .await?
            .filter(|e| e.tenant_id == tenant.id)
            .ok_or_else(|| ApiError::not_found("endpoint"))
    }

    pub(crate) async fn load_delivery(&self, tenant: &Tenant, raw: &str) -> ApiResult<Delivery> {
        let id = id_from_path(raw, DeliveryId::parse, "delivery")?;
        let now = self.clock.now();
        self.deliveries
            .get_delivery(&id)
            .await?
            .filter(|d| d.tenant_id == tenant.id && !expired(d.expires_at, now))
            .ok_or_else(|| ApiError::not_found("delivery"))
    }

    async fn create_endpoint(&self, tenant: &Tenant, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let body: CreateEndpoint = parse_body(req)?;
        let policy = check_policy(&body.policy)?;
        check_description(body.description.as_deref())?;
        let allowance = check_allowance(body.long_running_allowance_seconds)?.unwrap_or(0);
        check_timeout(body.timeout_ms)?;
        let url = self.admit(&body.url).await?;
        let now = self.clock.now();
        let mut raw = [0u8; 32];
        self.secrets.fill(&mut raw);
        let secret = SigningSecret::from_bytes(&raw)
            .map_err(|_| ApiError::new(503, "service_unavailable", "could not create a signing secret"))?;
        let health = policy
            .health
            .smart_rules()
            .map(|_| courier_core::health::SmartHealth::new(now));
        let breaker = policy
            .health
            .breaker_rules()
            .map(|_| courier_core::health::BreakerState::default());
        let endpoint = Endpoint {
            id: EndpointId::generate(now, &mut PortRng(self.random.as_ref())),
            tenant_id: tenant.id.clone(),
            url,
            policy,
            latency_class: body.latency_class.unwrap_or_default(),
            long_running_allowance_seconds: allowance,
            timeout_ms: body.timeout_ms,
            description: body.description,
            state: EndpointState::Active,
            secrets: vec![SecretRecord {
                secret: secret.to_text(),
                state: SecretState::Active,
                created_at: now,
                expires_at: None,
            }],
            breaker,
            health,
            created_at: now,
            updated_at: now,
            version: 1,
        };
        self.endpoints.create_endpoint(&endpoint).await?;
        let mut view = endpoint_view(&endpoint, now);
        view["secret"] = json!(secret.to_text());
        Ok(ApiResponse::json(201, &view))
    }

    /// URL admission, as on create: malformed is 400, an unsafe target 422.
    async fn admit(&self, url: &str) -> ApiResult<String> {
        if url.len() > MAX_URL_LEN {
            return Err(ApiError::validation(format!(
                "field `url` is longer than {MAX_URL_LEN} characters"
            )));
        }
        self.admission.admit(url).await.map_err(|r| {
            if r.unsafe_address {
                ApiError::new(422, "endpoint_unsafe", format!("field `url`: {}", r.detail))
            } else {
                ApiError::validation(format!("field `url`: {}", r.detail))
            }
        })
    }

    /// `PATCH /v1/endpoints/{id}`: changes the URL (through admission again), policy,
    /// timeout, latency class, long-running allowance or description. Health and
    /// secrets are kept; a policy with another health model starts it afresh.
    async fn update_endpoint(&self, tenant: &Tenant, id: &str, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let body: UpdateEndpoint = parse_body(req)?;
        let policy = body.policy.as_ref().map(check_policy).transpose()?;
        check_description(body.description.as_deref())?;
        let allowance = check_allowance(body.long_running_allowance_seconds)?;
        check_timeout(body.timeout_ms)?;
        let url = match &body.url {
            Some(u) => Some(self.admit(u).await?),
            None => None,
        };
        let e = self
            .modify_endpoint(tenant, id, |e, now| {
                if e.state == EndpointState::Revoked {
                    return Err(ApiError::new(409, "conflict", "a revoked endpoint cannot be changed"));
                }
                if let Some(u) = &url {
                    e.url = u.clone();
                }
                if let Some(p) = &policy {
                    if p.health != e.policy.health {
                        e.health = p
                            .health
                            .smart_rules()
                            .map(|_| courier_core::health::SmartHealth::new(now));
                        e.breaker = p
                            .health
                            .breaker_rules()
                            .map(|_| courier_core::health::BreakerState::default());
                    }
                    e.policy = p.clone();
                }
                if let Some(d) = &body.description {
                    e.description = Some(d.clone());
                }
                if let Some(a) = allowance {
                    e.long_running_allowance_seconds = a;
                }
                if let Some(t) = body.timeout_ms {
                    e.timeout_ms = Some(t);
                }
                if let Some(l) = body.latency_class {
                    e.latency_class = l;
                }
                Ok(())
            })
            .await?;
        Ok(ApiResponse::json(200, &endpoint_view(&e, self.clock.now())))
    }

    async fn list_endpoints(&self, tenant: &Tenant, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let q = list_query(req, &["cursor", "limit"])?;
        let page = self
            .endpoints
            .list_endpoints(&tenant.id, q.cursor.as_deref(), q.limit)
            .await?;
        let now = self.clock.now();
        Ok(ApiResponse::json(
            200,
            &json!({"items": page.items.iter().map(|e| endpoint_view(e, now)).collect::<Vec<_>>(), "nextCursor": page.next_cursor}),
        ))
    }

    async fn list_deliveries(&self, tenant: &Tenant, raw: &str, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let e = self.load_endpoint(tenant, raw).await?;
        let q = list_query(req, &["status", "since", "until", "cursor", "limit"])?;
        let page = self
            .deliveries
            .list_deliveries(
                &e.id,
                q.status.as_deref(),
                q.since,
                q.until,
                q.cursor.as_deref(),
                q.limit,
            )
            .await?;
        let now = self.clock.now();
        let items: Vec<Value> = page
            .items
            .iter()
            .filter(|d| !expired(d.expires_at, now))
            .map(delivery_view)
            .collect();
        Ok(ApiResponse::json(
            200,
            &json!({"items": items, "nextCursor": page.next_cursor}),
        ))
    }

    async fn list_events(&self, tenant: &Tenant, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let q = list_query(req, &["endpointId", "since", "until", "cursor", "limit"])?;
        if let Some(ep) = &q.endpoint_id {
            self.load_endpoint(tenant, ep.as_str()).await?;
        }
        let page = self
            .deliveries
            .list_events(
                &tenant.id,
                q.endpoint_id.as_ref(),
                q.since,
                q.until,
                q.cursor.as_deref(),
                q.limit,
            )
            .await?;
        let now = self.clock.now();
        let items: Vec<Value> = page
            .items
            .iter()
            .filter(|e| !expired(e.expires_at, now))
            .map(event_view)
            .collect();
        Ok(ApiResponse::json(
            200,
            &json!({"items": items, "nextCursor": page.next_cursor}),
        ))
    }

    /// Checks an Idempotency-Key: `Ok(Some(response))` replays the first answer.
    pub(crate) async fn idempotency(
        &self,
        tenant: &Tenant,
        scope: &str,
        req: &ApiRequest,
        required: bool,
    ) -> ApiResult<Option<(String, String)>> {
        let Some(key) = req.header("idempotency-key") else {
            return if required {
                Err(ApiError::new(
                    400,
                    "idempotency_key_required",
                    "this call requires an Idempotency-Key header",
                ))
            } else {
                Ok(None)
            };
        };
        let key = key.trim();
        if key.is_empty() || key.len() > MAX_IDEMPOTENCY_KEY || !key.bytes().all(|c| c.is_ascii_graphic()) {
            return Err(ApiError::validation(format!(
                "header `Idempotency-Key` must be 1-{MAX_IDEMPOTENCY_KEY} visible ASCII characters"
            )));
        }
        Ok(Some((
            format!("{}#{scope}#{key}", tenant.id),
            hex(&Sha256::digest(&req.body)),
        )))
    }

    async fn create_event(&self, tenant: &Tenant, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let body: CreateEvent = parse_body(req)?;
        let idem = self.idempotency(tenant, "events", req, false).await?;
        let ids: Vec<String> = match (body.endpoint_id, body.endpoint_ids) {
            (Some(one), None) => vec![one],
            (None, Some(many)) if !many.is_empty() && many.len() <= MAX_ENDPOINTS_PER_EVENT => many,
            (None, Some(_)) => {
                return Err(ApiError::validation(format!(
                    "field `endpointIds` must list 1-{MAX_ENDPOINTS_PER_EVENT} endpoints"
                )));
            }
            (Some(_), Some(_)) => {
                return Err(ApiError::validation(
                    "send either `endpointId` or `endpointIds`, not both",
                ));
            }
            (None, None) => {
                return Err(ApiError::validation(
                    "field `endpointId` (or `endpointIds`) is required",
                ));
            }
        };
        let payload = body
            .payload
            .ok_or_else(|| ApiError::validation("field `payload` is required"))?;
        let payload_len = serde_json::to_vec(&payload).map(|v| v.len()).unwrap_or(usize::MAX);
        if payload_len > MAX_PAYLOAD_BYTES {
            return Err(ApiError::new(
                413,
                "payload_too_large",
                format!("field `payload` is {payload_len} bytes; the limit is {MAX_PAYLOAD_BYTES} (256 KiB)"),
            ));
        }
        if let Some(t) = &body.event_type
            && (t.is_empty() || t.chars().count() > MAX_EVENT_TYPE)
        {
            return Err(ApiError::validation(format!(
                "field `type` must be 1-{MAX_EVENT_TYPE} characters"
            )));
        }
        let now = self.clock.now();
        let planned_at = match &body.planned_at {
            None => None,
            Some(s) => {
                let t =
                    Timestamp::parse_rfc3339(s).map_err(|e| ApiError::validation(format!("field `plannedAt`: {e}")))?;
                if t > now.plus_secs(365 * 86_400) {
                    return Err(ApiError::validation("field `plannedAt` must be within a year from now"));
                }
                Some(t)
            }
        };
        let mut endpoints = Vec::with_capacity(ids.len());
        for (i, raw) in ids.iter().enumerate() {
            let id =
                EndpointId::parse(raw).map_err(|e| ApiError::validation(format!("field `endpointIds[{i}]`: {e}")))?;
            if endpoints.iter().any(|e: &Endpoint| e.id == id) {
                return Err(ApiError::validation(format!(
                    "field `endpointIds[{i}]`: {id} is listed twice"
                )));
            }
            let e = self
                .endpoints
                .get_endpoint(&tenant.id, &id)
                .await?
                .filter(|e| e.tenant_id == tenant.id)
                .ok_or_else(|| ApiError::not_found("endpoint"))?;
            endpoints.push(e);
        }
        let new = NewEvent {
            event_id: EventId::generate(now, &mut PortRng(self.random.as_ref())),
            event_type: body.event_type,
            payload,
            planned_at,
            endpoints: &endpoints,
            trigger: Trigger::Initial,
            webhook_ids: None,
            delivery_ids: None,
        };
        let (event, deliveries) = ingest::build(&new, now, self.random.as_ref());
        let answer = json!({
            "eventId": event.id,
            "deliveries": deliveries.iter().map(|d| json!({"id": d.id, "endpointId": d.endpoint_id, "status": d.status})).collect::<Vec<_>>(),
        });
        if let Some((key, hash)) = idem {
            let record = IdempotencyRecord {
                key,
                request_hash: hash.clone(),
                status: 202,
                response_body: answer.to_string(),
                created_at: now,
                expires_at: now.millis() / 1000 + IDEMPOTENCY_TTL_SECONDS,
            };
            if let Some(first) = self.idempotency.put_idempotency(&record).await? {
                if first.request_hash != hash {
                    return Err(ApiError::new(
                        422,
                        "idempotency_key_reused",
                        "this Idempotency-Key was used with a different request body",
                    ));
                }
                // Same key, same body: make sure what the first answer promised exists
                // and is queued, rebuilding it under the promised ids if the first
                // request died before writing, then give the first answer again.
                if let Some((event_id, delivery_ids)) = promised_ids(&first, &endpoints) {
                    if self.deliveries.get_event(&tenant.id, &event_id).await?.is_some() {
                        self.queue_stored(&delivery_ids, now).await?;
                    } else {
                        let new = NewEvent {
                            event_id,
                            delivery_ids: Some(delivery_ids),
                            ..new
                        };
                        let (event, deliveries) = ingest::build(&new, now, self.random.as_ref());
                        self.write_event(tenant, &event, &deliveries, now).await?;
                    }
                }
                return Ok(ApiResponse {
                    status: first.status,
                    headers: vec![
                        ("content-type".into(), "application/json".into()),
                        ("idempotent-replayed".into(), "true".into()),
                    ],
                    body: first.response_body.into_bytes(),
                });
            }
        }
        self.write_event(tenant, &event, &deliveries, now).await?;
        Ok(ApiResponse::json(202, &answer))
    }

    /// Writes an event and queues its deliveries. When the event exists already (two
    /// requests with one Idempotency-Key both building it), the stored deliveries are
    /// queued instead: a duplicate message is dropped by the sender's claim, so
    /// queueing again is always safe, and a delivery whose first message was lost
    /// goes out.
    async fn write_event(
        &self,
        tenant: &Tenant,
        event: &EventRecord,
        deliveries: &[Delivery],
        now: Timestamp,
    ) -> ApiResult<()> {
        match self.deliveries.create_event(event, deliveries).await {
            Ok(()) => {
                ingest::enqueue_waiting(self.deliveries.as_ref(), &self.planner, deliveries, now).await?;
            }
            Err(PortError::Conflict(why)) => {
                if self.deliveries.get_event(&tenant.id, &event.id).await?.is_none() {
                    return Err(PortError::Conflict(why).into());
                }
                let ids: Vec<DeliveryId> = deliveries.iter().map(|d| d.id.clone()).collect();
                self.queue_stored(&ids, now).await?;
            }
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }

    /// Queues attempt 1 of the stored deliveries that still wait for it.
    async fn queue_stored(&self, ids: &[DeliveryId], now: Timestamp) -> ApiResult<()> {
        let mut stored = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(d) = self.deliveries.get_delivery(id).await? {
                stored.push(d);
            }
        }
        ingest::enqueue_waiting(self.deliveries.as_ref(), &self.planner, &stored, now).await?;
        Ok(())
    }
}

/// The event id and per-endpoint delivery ids a stored first answer promised, in the
/// order of `endpoints`; `None` if the answer does not name them all (then there is
/// nothing to rebuild, and the first answer is replayed as it is).
fn promised_ids(first: &IdempotencyRecord, endpoints: &[Endpoint]) -> Option<(EventId, Vec<DeliveryId>)> {
    let answer: Value = serde_json::from_str(&first.response_body).ok()?;
    let event_id = EventId::parse(answer.get("eventId")?.as_str()?).ok()?;
    let listed = answer.get("deliveries")?.as_array()?;
    let ids = endpoints
        .iter()
        .map(|e| {
            listed.iter().find_map(|d| {
                (d.get("endpointId")?.as_str()? == e.id.as_str())
                    .then(|| DeliveryId::parse(d.get("id")?.as_str()?).ok())
                    .flatten()
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((event_id, ids))
}

pub(crate) fn method_not_allowed(allow: &str) -> ApiError {
    ApiError::new(405, "method_not_allowed", format!("allowed methods: {allow}"))
}
