//! `/healthz`: the liveness probe, the one route that answers HEAD, and the sender's
//! egress addresses for receivers' allow-lists.

use crate::api::Api;
use crate::api::http::auth;
use crate::api::http::problem::ApiResult;
use crate::api::routes::reply;
use crate::api::wire::health::HealthOut;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use std::sync::Arc;

/// `GET /healthz` (and HEAD, without the content).
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/healthz",
        operation_id = "getHealth",
        tag = "health",
        summary = r#"Health check"#,
        description = r#"Answers 200 once the service can reach its store. Needs no API key."#,
        responses(
        (status = 200, description = r#"The service is up."#, body = crate::api::wire::health::HealthOut),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
        security(()),
    )
)]
pub(crate) async fn healthz(State(api): State<Arc<Api>>) -> ApiResult<Response> {
    // One storage read, so "ok" means the table answers.
    api.tenants.tenant_by_key(&auth::hash_key("healthz-probe")).await?;
    // The sender's static egress addresses, for receivers' allow-lists (the
    // console shows them); addresses every receiver sees anyway, so not secret.
    Ok(reply(
        StatusCode::OK,
        &HealthOut {
            status: "ok",
            egress_ips: api.settings.egress_ips.clone(),
        },
    ))
}

/// `HEAD /healthz`: the same check; the answer's content is dropped on the way out.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        head,
        path = "/healthz",
        operation_id = "headHealth",
        tag = "health",
        summary = r#"Health check (headers only)"#,
        description = r#"The same check as `GET /healthz`, for probes that only look at the status."#,
        responses(
        (status = 200, description = r#"The service is up."#),
        (status = 503, description = r#"`service_unavailable`: the store could not be reached."#),
    ),
        security(()),
    )
)]
pub(crate) async fn healthz_head(state: State<Arc<Api>>) -> ApiResult<Response> {
    healthz(state).await
}

/// The health route: GET, and HEAD (documented as an operation of its own).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new().route("/healthz", routing::get(healthz).head(healthz_head))
}
