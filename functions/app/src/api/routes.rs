//! The axum router: each resource's routes merged (their method routers answer 405
//! with `Allow` for a path's other methods), 404 problem+json for unknown paths, and
//! the middleware in front: the body limit on everything, authentication and the
//! tenant's rate limit on tenant routes, a per-source limit on completion reports.

use crate::api::Api;
use crate::api::http::problem::{ApiError, ProblemCode};
use crate::api::http::{auth, body, methods, portal_access};
use crate::api::resources::{
    applications, completion, console, deliveries, endpoint_lifecycle, endpoints, event_types, events, events_batch,
    health, portal, resend, schedules, stats,
};
use crate::api::wire::common::Page;
use crate::domain::model::Tenant;
use axum::Router;
use axum::body::Body;
use axum::extract::{FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use tower::Layer;

/// A JSON answer with its status.
pub(crate) fn reply<T: Serialize>(status: StatusCode, value: &T) -> Response {
    (status, axum::Json(value)).into_response()
}

/// A list's answer, the shape every list route shares: one page of items in their
/// view, and the cursor to the next page (null after the last).
pub(crate) fn page_reply<T: Serialize>(items: Vec<T>, next_cursor: Option<&str>) -> Response {
    reply(
        StatusCode::OK,
        &Page {
            items,
            next_cursor: next_cursor.map(str::to_owned),
        },
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
    /// by `axum::serve` in the local runner. Each resource's module owns its routes;
    /// this merges them behind their middleware.
    pub fn router(self: Arc<Self>) -> Router {
        // Every tenant route is behind one middleware: an API key, or a portal token
        // checked against the portal's allow-list (anything not on it is refused).
        let tenant_routes = Router::new()
            .merge(events::router())
            .merge(events_batch::router())
            .merge(portal::router())
            .merge(stats::router())
            .merge(schedules::router())
            .merge(applications::router())
            .merge(event_types::router())
            .merge(endpoints::router())
            .merge(deliveries::router())
            .merge(endpoint_lifecycle::router())
            .merge(resend::router())
            .route_layer(axum::middleware::from_fn_with_state(
                self.clone(),
                portal_access::require_key_or_portal,
            ));
        let completion_routes = completion::router().route_layer(axum::middleware::from_fn_with_state(
            self.clone(),
            auth::limit_completions,
        ));
        // Wrapped whole (a service, not per route) so the layer sees the 405 with the
        // `Allow` the method router sets last.
        let v1 = tenant_routes
            .merge(completion_routes)
            .fallback(console::console_or_not_found)
            .with_state(self.clone());
        let v1 = axum::middleware::from_fn(methods::refuse_implicit_head).layer(v1);
        // `/healthz` has its own method router; everything else (the console, unknown
        // paths) goes through the rest.
        let api = health::router().with_state(self).fallback_service(v1);
        Router::new()
            .fallback_service(axum::middleware::from_fn(methods::method_not_allowed_problem).layer(api))
            .layer(axum::middleware::from_fn(body::limit_body))
            .layer(axum::middleware::from_fn(head_has_no_content))
    }
}
