//! `/healthz`: the liveness probe, the one route that answers HEAD, and the sender's
//! egress addresses for receivers' allow-lists.

use crate::api::Api;
use crate::api::http::auth;
use crate::api::http::problem::ApiResult;
use crate::api::routes::reply;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use serde_json::json;
use std::sync::Arc;

/// `GET /healthz` (and HEAD, without the content).
pub(crate) async fn healthz(State(api): State<Arc<Api>>) -> ApiResult<Response> {
    // One storage read, so "ok" means the table answers.
    api.tenants.tenant_by_key(&auth::hash_key("healthz-probe")).await?;
    // The sender's static egress addresses, for receivers' allow-lists (the
    // console shows them); addresses every receiver sees anyway, so not secret.
    Ok(reply(
        StatusCode::OK,
        &json!({"status": "ok", "egressIps": api.settings.egress_ips}),
    ))
}

/// The health route: GET, and HEAD through the same handler.
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new().route("/healthz", routing::get(healthz).head(healthz))
}
