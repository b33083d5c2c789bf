//! The public HTTP API on axum: [`Api::router`] is the one request path, served by
//! `lambda_http` in the API Lambda and by `axum::serve` in the local runner. One
//! module per resource (endpoints and their lifecycle, events, deliveries, resending,
//! completion reports) plus the problem type, views, authentication, rate limits,
//! query parsing, bodies and the limits themselves.
//! Every failure is an RFC 9457 problem+json naming the field or limit at fault;
//! no input reaches a panic or a 500.

pub mod http;
#[cfg(feature = "openapi")]
pub mod openapi;
pub mod resources;
mod routes;
pub mod wire;

pub use http::auth::{ClientAddr, bearer_key, create_tenant, hash_key, register_key};
pub use http::body::parse_json;
pub use http::idempotency::fingerprint;
pub use http::problem::{ApiError, ApiResult, ProblemCode};
pub use http::query::DeliveryListQuery;
pub use http::rate_limit::{BucketKey, RateLimiter};
pub use resources::applications::application_view;
pub use resources::completion::HEADER_COMPLETION_TOKEN;
pub use resources::event_types::event_type_view;
pub use resources::stats::stats_window;

use crate::ingest::payload_schema::SchemaCache;
use crate::pipeline::planner::Planner;
use crate::ports::{
    ApplicationStore, Clock, DeliveryStore, EndpointStore, FanoutQueue, IdempotencyStore, Random, SecretSource,
    SubscriptionIndex, TenantStore, UrlAdmission,
};
use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Method, Request};
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use serde_json::Value;
use std::sync::Arc;
use tower::ServiceExt;

/// What [`Api::handle`] percent-encodes: controls, space and the characters RFC 3986
/// leaves out of URIs (`%` stays, so encoded input passes as it is).
const NOT_IN_URI: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'<')
    .add(b'>')
    .add(b'\\')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiSettings {
    pub allow_http_targets: bool,
    pub allow_private_targets: bool,
    /// Requests per second each tenant may make on average (0: unlimited); the same
    /// rate bounds failed authentications and completion reports per source address.
    pub rate_per_second: u32,
    /// How many requests may come in a burst.
    pub rate_burst: u32,
    /// The sender's static egress addresses (`COURIER_EGRESS_IPS`), shown by
    /// `/healthz` for the console; empty when the stack has none.
    pub egress_ips: Vec<String>,
    /// The roles a destination may name (`COURIER_DESTINATION_ROLE_PATTERN`, the
    /// template's `DestinationRolePattern`); the local stack and tests allow any.
    pub destination_roles: courier_core::destination::RolePattern,
    /// Who may frame the console (`COURIER_CONSOLE_FRAME_ANCESTORS`): nobody by
    /// default.
    pub frame_ancestors: courier_console::FrameAncestors,
}

impl Default for ApiSettings {
    fn default() -> Self {
        ApiSettings {
            allow_http_targets: false,
            allow_private_targets: false,
            rate_per_second: 50,
            rate_burst: 100,
            egress_ips: Vec::new(),
            destination_roles: courier_core::destination::RolePattern::Any,
            frame_ancestors: courier_console::FrameAncestors::default(),
        }
    }
}

/// Everything the API's use cases run over. Cheap to clone (shared handles; clones
/// share the rate limiter's buckets).
#[derive(Clone)]
pub struct Api {
    pub tenants: Arc<dyn TenantStore>,
    pub endpoints: Arc<dyn EndpointStore>,
    pub deliveries: Arc<dyn DeliveryStore>,
    pub idempotency: Arc<dyn IdempotencyStore>,
    /// Applications and event types.
    pub applications: Arc<dyn ApplicationStore>,
    /// Compiled event type schemas, checked at ingest.
    pub schemas: SchemaCache,
    pub planner: Planner,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
    pub secrets: Arc<dyn SecretSource>,
    /// Seals endpoint credentials before they are stored (`crate::endpoints::credentials`).
    pub sealer: Arc<dyn crate::ports::CredentialSealer>,
    pub admission: Arc<dyn UrlAdmission>,
    pub settings: ApiSettings,
    pub limiter: RateLimiter,
    /// The subscription index fan-outs read.
    pub subscriptions: Arc<dyn SubscriptionIndex>,
    /// Where large fan-outs' first steps go (the delivery queue).
    pub fanout_queue: Arc<dyn FanoutQueue>,
    /// Recurring schedules: their store, the recurring timer and its settings.
    pub schedules: crate::ports::Schedules,
}

/// A [`crate::fanout::operational::Notifier`] with its console address owned.
pub(crate) struct OwnedNotifier<'a> {
    deliveries: &'a dyn DeliveryStore,
    steps: &'a dyn FanoutQueue,
    console_url: Option<String>,
}

impl OwnedNotifier<'_> {
    pub(crate) async fn emit_or_warn(&self, notice: &crate::fanout::operational::Notice) {
        crate::fanout::operational::Notifier {
            deliveries: self.deliveries,
            steps: self.steps,
            console_url: self.console_url.as_deref(),
        }
        .emit_or_warn(notice)
        .await
    }
}

/// A request as plain data, for callers inside the process (tests, the bench, the
/// local demo): [`Api::handle`] turns it into an HTTP request for the router.
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

/// The router's answer as plain data (header names lowercase).
#[derive(Debug, Clone, PartialEq)]
pub struct ApiResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl ApiResponse {
    pub fn body_json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

impl Api {
    /// The ingest pipeline over the API's store and planner.
    pub(crate) fn pipeline(&self) -> crate::ingest::pipeline::Pipeline<'_> {
        crate::ingest::pipeline::Pipeline {
            store: self.deliveries.as_ref(),
            planner: &self.planner,
        }
    }
}

impl Api {
    /// Where operational events the API notices go, with console links built from
    /// the address the caller used.
    pub(crate) fn notifier(&self, headers: &axum::http::HeaderMap) -> OwnedNotifier<'_> {
        let base = resources::portal::console_base(headers);
        OwnedNotifier {
            deliveries: self.deliveries.as_ref(),
            steps: self.fanout_queue.as_ref(),
            console_url: base.starts_with("http").then_some(base),
        }
    }

    /// Serves one request through [`Api::router`], as a client over HTTP would be.
    /// A method or path that cannot be an HTTP request line answers as the router
    /// answers unknown routes; header fields that cannot be sent are left out.
    pub async fn handle(&self, req: ApiRequest) -> ApiResponse {
        // Characters a request line cannot carry are sent percent-encoded, as an HTTP
        // client would send them; the router decodes them back.
        let path = utf8_percent_encode(&req.path, NOT_IN_URI).to_string();
        let uri = match &req.query {
            Some(q) => format!("{path}?{}", utf8_percent_encode(q, NOT_IN_URI)),
            None => path,
        };
        let mut builder = Request::builder().uri(uri);
        builder = match Method::from_bytes(req.method.as_bytes()) {
            Ok(m) => builder.method(m),
            Err(_) => builder.method(Method::from_bytes(b"INVALID").unwrap_or(Method::GET)),
        };
        for (k, v) in &req.headers {
            if let (Ok(k), Ok(v)) = (HeaderName::try_from(k.as_str()), HeaderValue::try_from(v.as_str())) {
                builder = builder.header(k, v);
            }
        }
        let request = match builder.body(Body::from(req.body)) {
            Ok(r) => r,
            // Only a path that is not absolute gets here: it cannot name a route.
            Err(_) => {
                let mut answer = plain(ApiError::not_found("route")).await;
                if req.method == "HEAD" {
                    answer.body.clear();
                }
                return answer;
            }
        };
        let router = Arc::new(self.clone()).router();
        match router.oneshot(request).await {
            Ok(resp) => plain(resp).await,
            Err(never) => match never {},
        }
    }
}

async fn plain(resp: impl axum::response::IntoResponse) -> ApiResponse {
    let resp = resp.into_response();
    let (parts, body) = resp.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .map(|b| b.to_vec())
        .unwrap_or_default();
    ApiResponse {
        status: parts.status.as_u16(),
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body,
    }
}
