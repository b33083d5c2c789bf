//! The axum router: every route of [`super::ROUTES`], its 405 (with `Allow`) for the
//! path's other methods, 404 problem+json for unknown paths, and the middleware in
//! front: the body limit on everything, authentication and the tenant's rate limit on
//! tenant routes, a per-source limit on completion reports.

use crate::api::Api;
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::http::{auth, body, portal_access};
use crate::api::resources::{
    applications, completion, deliveries, endpoint_lifecycle, endpoints, event_types, events, events_batch, portal,
    resend, schedules, stats,
};
use crate::domain::model::Tenant;
use axum::Router;
use axum::body::Body;
use axum::extract::{FromRequestParts, Path, Request, State};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use serde_json::{Value, json};
use std::sync::Arc;

/// A JSON answer.
pub(crate) fn reply(status: StatusCode, value: &Value) -> Response {
    (status, axum::Json(value)).into_response()
}

/// A list's answer, the shape every list route shares: one page of items in their
/// view, and the cursor to the next page (null after the last).
pub(crate) fn page_reply(items: Vec<Value>, next_cursor: Option<&str>) -> Response {
    reply(
        StatusCode::OK,
        &serde_json::json!({"items": items, "nextCursor": next_cursor}),
    )
}

/// The tenant the auth middleware authenticated.
pub(crate) struct Authed(pub Tenant);

impl<S: Send + Sync> FromRequestParts<S> for Authed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<Tenant>()
            .cloned()
            .map(Authed)
            .ok_or_else(|| ApiError::new(ProblemCode::Unauthorized, "send `Authorization: Bearer <api key>`"))
    }
}

/// The one id in the path (checked by the handler: a malformed id is a 404).
pub(crate) struct Id(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Id {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Path::<String>::from_request_parts(parts, state)
            .await
            .map(|Path(id)| Id(id))
            .map_err(|_| ApiError::not_found("route"))
    }
}

/// The two ids in the path.
pub(crate) struct IdPair(pub String, pub String);

impl<S: Send + Sync> FromRequestParts<S> for IdPair {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Path::<(String, String)>::from_request_parts(parts, state)
            .await
            .map(|Path((a, b))| IdPair(a, b))
            .map_err(|_| ApiError::not_found("route"))
    }
}

/// `allow` for the path's other methods. HEAD is only served where listed: a GET
/// route does not answer HEAD unless the table says so.
fn only(methods: MethodRouter<Arc<Api>>, allow: &'static str) -> MethodRouter<Arc<Api>> {
    let refuse = move || async move { ApiError::method_not_allowed(allow) };
    let methods = if allow.split(", ").any(|m| m == "GET") && !allow.contains("HEAD") {
        methods.head(refuse)
    } else {
        methods
    };
    methods.fallback(refuse)
}

async fn healthz(State(api): State<Arc<Api>>) -> ApiResult<Response> {
    // One storage read, so "ok" means the table answers.
    api.tenants.tenant_by_key(&auth::hash_key("healthz-probe")).await?;
    // The sender's static egress addresses, for receivers' allow-lists (the
    // console shows them); addresses every receiver sees anyway, so not secret.
    Ok(reply(
        StatusCode::OK,
        &json!({"status": "ok", "egressIps": api.settings.egress_ips}),
    ))
}

/// A HEAD answer has no content (RFC 9110, section 9.3.2), whichever layer gave it.
async fn head_has_no_content(req: Request, next: Next) -> Response {
    let head = req.method() == Method::HEAD;
    let mut resp = next.run(req).await;
    if head {
        *resp.body_mut() = Body::empty();
    }
    resp
}

impl Api {
    /// The API as an axum [`Router`], served by `lambda_http` in the API Lambda and
    /// by `axum::serve` in the local runner.
    pub fn router(self: Arc<Self>) -> Router {
        // Every tenant route is behind one middleware: an API key, or a portal token
        // checked against the portal's allow-list (anything not on it is refused).
        let tenant_routes = Router::new()
            .route("/v1/events", only(post(events::create).get(events::list), "GET, POST"))
            .route("/v1/portal-links", only(post(portal::create), "POST"))
            .route("/v1/portal-activity", only(get(portal_access::tenant_activity), "GET"))
            .route("/v1/portal/session", only(get(portal::session), "GET"))
            .route(
                "/v1/applications/{id}/portal-links",
                only(post(portal::create_for_application), "POST"),
            )
            .route(
                "/v1/applications/{id}/portal-activity",
                only(get(portal_access::application_activity), "GET"),
            )
            .route("/v1/stats", only(get(stats::tenant), "GET"))
            .route("/v1/applications/{id}/stats", only(get(stats::application), "GET"))
            .route("/v1/endpoints/{id}/stats", only(get(stats::endpoint), "GET"))
            .route("/v1/events/batch", only(post(events_batch::create), "POST"))
            .route("/v1/events/{id}", only(get(events::get), "GET"))
            .route("/v1/events/{id}/deliveries", only(get(events::deliveries), "GET"))
            .route(
                "/v1/schedules",
                only(post(schedules::create).get(schedules::list), "GET, POST"),
            )
            .route(
                "/v1/schedules/{id}",
                only(
                    get(schedules::get).put(schedules::replace).delete(schedules::delete),
                    "DELETE, GET, PUT",
                ),
            )
            .route("/v1/schedules/{id}/pause", only(post(schedules::pause), "POST"))
            .route("/v1/schedules/{id}/resume", only(post(schedules::resume), "POST"))
            .route(
                "/v1/schedules/{id}/occurrences",
                only(get(schedules::occurrences), "GET"),
            )
            .route(
                "/v1/portal-links/{id}",
                only(axum::routing::delete(portal::revoke), "DELETE"),
            )
            .route(
                "/v1/applications",
                only(post(applications::create).get(applications::list), "GET, POST"),
            )
            .route(
                "/v1/applications/{id}",
                only(
                    get(applications::get)
                        .patch(applications::update)
                        .delete(applications::delete),
                    "DELETE, GET, PATCH",
                ),
            )
            .route(
                "/v1/event-types",
                only(post(event_types::create).get(event_types::list), "GET, POST"),
            )
            .route(
                "/v1/event-types/{name}",
                only(get(event_types::get).patch(event_types::update), "GET, PATCH"),
            )
            .route(
                "/v1/endpoints",
                only(post(endpoints::create).get(endpoints::list), "GET, POST"),
            )
            .route(
                "/v1/endpoints/{id}",
                only(
                    get(endpoints::get).patch(endpoints::update).delete(endpoints::delete),
                    "DELETE, GET, PATCH",
                ),
            )
            .route(
                "/v1/endpoints/{id}/deliveries",
                only(get(deliveries::list_for_endpoint), "GET"),
            )
            .route(
                "/v1/endpoints/{id}/disable",
                only(post(endpoint_lifecycle::disable), "POST"),
            )
            .route(
                "/v1/endpoints/{id}/enable",
                only(post(endpoint_lifecycle::enable), "POST"),
            )
            .route(
                "/v1/endpoints/{id}/revoke",
                only(post(endpoint_lifecycle::revoke), "POST"),
            )
            .route(
                "/v1/endpoints/{id}/secrets/rotate",
                only(post(endpoint_lifecycle::rotate_secret), "POST"),
            )
            .route("/v1/endpoints/{id}/test", only(post(endpoint_lifecycle::test), "POST"))
            .route("/v1/endpoints/{id}/replay", only(post(resend::replay), "POST"))
            .route(
                "/v1/endpoints/{id}/replay-dead",
                only(post(resend::replay_dead), "POST"),
            )
            .route("/v1/deliveries/{id}", only(get(deliveries::get), "GET"))
            .route("/v1/deliveries/{id}/attempts", only(get(deliveries::attempts), "GET"))
            .route(
                "/v1/deliveries/{id}/attempts/{attemptId}",
                only(get(deliveries::attempt), "GET"),
            )
            .route("/v1/deliveries/{id}/redeliver", only(post(resend::redeliver), "POST"))
            .route("/v1/deliveries/{id}/redrive", only(post(resend::redrive), "POST"))
            .route_layer(axum::middleware::from_fn_with_state(
                self.clone(),
                portal_access::require_key_or_portal,
            ));
        let completion_routes = Router::new()
            .route(
                "/v1/attempts/{attemptId}/complete",
                only(post(completion::complete), "POST"),
            )
            .route_layer(axum::middleware::from_fn_with_state(
                self.clone(),
                auth::limit_completions,
            ));
        Router::new()
            .route("/healthz", only(get(healthz), "GET, HEAD"))
            .merge(tenant_routes)
            .merge(completion_routes)
            .fallback(crate::api::resources::console::console_or_not_found)
            .layer(axum::middleware::from_fn(body::limit_body))
            .layer(axum::middleware::from_fn(head_has_no_content))
            .with_state(self)
    }
}
