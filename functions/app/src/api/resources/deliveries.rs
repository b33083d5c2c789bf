//! Reading deliveries and their attempts: one delivery, an endpoint's deliveries,
//! a delivery's attempts and one attempt. Records past their retention read as gone.

use crate::api::Api;
use crate::api::http::problem::{ApiError, ApiResult};
use crate::api::http::query::list_query;
use crate::api::resources::endpoints::id_from_path;
use crate::api::resources::expired;
use crate::api::routes::{Authed, Id, IdPair, page_reply, reply};
use crate::api::wire::deliveries::{AttemptOut, DeliveryOut};
use crate::domain::model::{Delivery, Tenant};
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use courier_core::ids::{AttemptId, DeliveryId};
use serde_json::Value;
use std::sync::Arc;

/// `GET /v1/endpoints/{id}/deliveries`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/endpoints/{id}/deliveries",
        operation_id = "listEndpointDeliveries",
        tag = "deliveries",
        summary = r#"An endpoint's delivery log"#,
        description = r#"Deliveries to this endpoint, newest first, optionally narrowed to one status and a creation-time range."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
        ("status" = Option<crate::api::openapi::schemas::DeliveryStatus>, Query, description = r#"Only deliveries in this status."#),
        ("since" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"Only items created at or after this instant."#),
        ("until" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"Only items created at or before this instant (not before `since`)."#),
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"One page of deliveries."#, body = crate::api::wire::common::Page<crate::api::wire::deliveries::DeliveryOut>),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn list_for_endpoint(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let e = api.load_endpoint(&tenant, &id).await?;
    let q = list_query(query.as_deref(), &["status", "since", "until", "cursor", "limit"])?;
    let page = q.deliveries(api.deliveries.as_ref(), &e.id).await?;
    Ok(delivery_page(&api, &page))
}

/// A page of deliveries as the lists answer it: live ones in their view, and the
/// cursor to the next page.
pub(crate) fn delivery_page(api: &Api, page: &crate::domain::model::Page<Delivery>) -> Response {
    let now = api.clock.now();
    let items: Vec<DeliveryOut> = page
        .items
        .iter()
        .filter(|d| !expired(d.expires_at, now))
        .map(DeliveryOut::from)
        .collect();
    page_reply(items, page.next_cursor.as_deref())
}

/// `GET /v1/deliveries/{id}`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/deliveries/{id}",
        operation_id = "getDelivery",
        tag = "deliveries",
        summary = r#"Get a delivery"#,
        description = r#"Where one delivery of an event to an endpoint stands."#,
        params(
        ("id" = crate::api::openapi::schemas::DeliveryId, Path, description = r#"The delivery id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The delivery."#, body = crate::api::wire::deliveries::DeliveryOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn get(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let d = api.load_delivery(&tenant, &id).await?;
    Ok(reply(StatusCode::OK, &DeliveryOut::from(&d)))
}

/// `GET /v1/deliveries/{id}/attempts`: one page (`limit`, `cursor`), oldest first,
/// at most `list_bytes::MAX_LIST_BYTES` of attempts, so an answer stays far below
/// Lambda's response limit however many attempts (and how large their response
/// snippets) a delivery has.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/deliveries/{id}/attempts",
        operation_id = "listAttempts",
        tag = "deliveries",
        summary = r#"A delivery's attempts"#,
        description = r#"The delivery's attempts, oldest first, one page at a time: pass `nextCursor` back as `cursor` for the next page. Pages keep every answer small however many attempts (and how large their response snippets) a delivery has."#,
        params(
        ("id" = crate::api::openapi::schemas::DeliveryId, Path, description = r#"The delivery id. A malformed id answers 404 like an unknown one."#),
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"The attempts."#, body = crate::api::wire::common::Page<crate::api::wire::deliveries::AttemptOut>),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn attempts(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let d = api.load_delivery(&tenant, &id).await?;
    let q = list_query(query.as_deref(), &["cursor", "limit"])?;
    let now = api.clock.now();
    let cursor = q.cursor.as_deref();
    let (items, next) = crate::api::http::list_bytes::bounded_page(
        q.limit,
        |limit| api.deliveries.list_attempts_page(&d.id, cursor, limit),
        // Measured as JSON: the page is cut by its size.
        |a| (!expired(a.expires_at, now)).then(|| serde_json::to_value(AttemptOut::from(a)).unwrap_or(Value::Null)),
    )
    .await?;
    Ok(page_reply(items, next.as_deref()))
}

/// `GET /v1/deliveries/{id}/attempts/{attemptId}`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/deliveries/{id}/attempts/{attemptId}",
        operation_id = "getAttempt",
        tag = "deliveries",
        summary = r#"Get one attempt"#,
        description = r#"One attempt of the delivery."#,
        params(
        ("id" = crate::api::openapi::schemas::DeliveryId, Path, description = r#"The delivery id. A malformed id answers 404 like an unknown one."#),
        ("attemptId" = crate::api::openapi::schemas::AttemptId, Path, description = r#"The attempt id."#),
    ),
        responses(
        (status = 200, description = r#"The attempt."#, body = crate::api::wire::deliveries::AttemptOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn attempt(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    IdPair(id, att): IdPair,
) -> ApiResult<Response> {
    let d = api.load_delivery(&tenant, &id).await?;
    let att = id_from_path(&att, AttemptId::parse, "attempt")?;
    let now = api.clock.now();
    let a = api
        .deliveries
        .get_attempt(&d.id, &att)
        .await?
        .filter(|a| !expired(a.expires_at, now))
        .ok_or_else(|| ApiError::not_found("attempt"))?;
    Ok(reply(StatusCode::OK, &AttemptOut::from(&a)))
}

impl Api {
    pub(crate) async fn load_delivery(&self, tenant: &Tenant, raw: &str) -> ApiResult<Delivery> {
        let id = id_from_path(raw, DeliveryId::parse, "delivery")?;
        let now = self.clock.now();
        self.deliveries
            .get_delivery(&id)
            .await?
            .filter(|d| d.tenant_id == tenant.id && !expired(d.expires_at, now))
            .ok_or_else(|| ApiError::not_found("delivery"))
    }
}

/// The routes of deliveries and their attempts; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/endpoints/{id}/deliveries", routing::get(list_for_endpoint))
        .route("/v1/deliveries/{id}", routing::get(get))
        .route("/v1/deliveries/{id}/attempts", routing::get(attempts))
        .route("/v1/deliveries/{id}/attempts/{attemptId}", routing::get(attempt))
}
