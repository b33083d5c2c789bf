//! What a portal token may do: one allow-list of routes, checked in front of every
//! tenant route (default deny: a route not listed answers 403 `portal_forbidden`),
//! the link's scope (an endpoint or delivery outside it answers 404 like a missing
//! one), read-only links (every write is 403), and the activity log that keeps every
//! write a portal token made. Field rules for endpoint bodies are in
//! `portal_fields.rs`; the handlers call them with the [`PortalAccess`] this
//! middleware hands over.

use crate::api::Api;
use crate::api::http::auth::{self, client_addr};
use crate::api::http::limits::{MAX_BODY_BYTES, PORTAL_ACTIVITY_RETENTION_DAYS};
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::http::query::list_query;
use crate::api::http::rate_limit::BucketKey;
use crate::api::routes::{Authed, Id, page_reply};
use crate::api::wire::endpoints::EndpointOut;
use crate::api::wire::portal::PortalActivityOut;
use crate::domain::model::{Application, Endpoint, PortalActivity, PortalSettings, Tenant};
use axum::body::Body;
use axum::extract::{FromRequestParts, RawQuery, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use courier_core::ids::{DeliveryId, EndpointId};
use courier_core::time::Timestamp;
use serde_json::Value;
use std::collections::BTreeSet;
use std::convert::Infallible;
use std::sync::Arc;

/// The prefix every portal token starts with (API keys start with `ck_`).
pub const PORTAL_TOKEN_PREFIX: &str = "cpl_";

/// What a request authorised by a portal token may reach, handed to the handlers.
#[derive(Debug, Clone)]
pub(crate) struct PortalAccess {
    pub(crate) link_id: String,
    /// The link's application (read when the token was checked).
    pub(crate) application: Option<Application>,
    /// For a narrowed link (and every link without application): these endpoints only.
    pub(crate) endpoints: Option<BTreeSet<EndpointId>>,
    pub(crate) read_only: bool,
    pub(crate) expires_at: Timestamp,
}

impl PortalAccess {
    /// Only a link over a whole application, not read-only, adds endpoints.
    pub(crate) fn may_create(&self) -> bool {
        self.application.is_some() && self.endpoints.is_none() && !self.read_only
    }

    /// Whether the endpoint is inside the link's scope.
    pub(crate) fn reaches(&self, e: &Endpoint) -> bool {
        let in_application = match &self.application {
            Some(app) => e.application_id.as_deref() == Some(app.id.as_str()),
            None => true,
        };
        in_application && self.endpoints.as_ref().is_none_or(|ids| ids.contains(&e.id))
    }

    /// The operator's portal settings that apply (the defaults for a link without
    /// application).
    pub(crate) fn settings(&self) -> PortalSettings {
        self.application.as_ref().map(|a| a.portal.clone()).unwrap_or_default()
    }
}

/// The portal access of the request, if a portal token authorised it.
pub(crate) struct Portal(pub Option<PortalAccess>);

impl<S: Send + Sync> FromRequestParts<S> for Portal {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Portal(parts.extensions.get::<PortalAccess>().cloned()))
    }
}

/// What a route of the allow-list touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target<'a> {
    /// Nothing of an endpoint's (the session, the catalogue).
    Nothing,
    /// The link's endpoint list.
    List,
    /// A new endpoint of the link's application.
    Create,
    Endpoint(&'a str),
    Delivery(&'a str),
    /// The link's own application (by id or uid).
    Application(&'a str),
}

/// One allowed route: whether it writes, and what it touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Allowed<'a> {
    write: bool,
    target: Target<'a>,
    /// The route's template, for the activity log.
    route: &'static str,
}

/// The allow-list: every route a portal token may use. Anything else is refused.
fn allowed<'a>(method: &Method, segments: &[&'a str]) -> Option<Allowed<'a>> {
    let read = |target, route| {
        Some(Allowed {
            write: false,
            target,
            route,
        })
    };
    let write = |target, route| {
        Some(Allowed {
            write: true,
            target,
            route,
        })
    };
    match (method.as_str(), segments) {
        ("GET", ["v1", "portal", "session"]) => read(Target::Nothing, "GET /v1/portal/session"),
        ("GET", ["v1", "event-types"]) => read(Target::Nothing, "GET /v1/event-types"),
        ("GET", ["v1", "event-types", _]) => read(Target::Nothing, "GET /v1/event-types/{name}"),
        ("GET", ["v1", "endpoints"]) => read(Target::List, "GET /v1/endpoints"),
        ("POST", ["v1", "endpoints"]) => write(Target::Create, "POST /v1/endpoints"),
        ("GET", ["v1", "endpoints", id]) => read(Target::Endpoint(id), "GET /v1/endpoints/{id}"),
        ("PATCH", ["v1", "endpoints", id]) => write(Target::Endpoint(id), "PATCH /v1/endpoints/{id}"),
        ("DELETE", ["v1", "endpoints", id]) => write(Target::Endpoint(id), "DELETE /v1/endpoints/{id}"),
        ("GET", ["v1", "endpoints", id, "deliveries"]) => {
            read(Target::Endpoint(id), "GET /v1/endpoints/{id}/deliveries")
        }
        ("GET", ["v1", "endpoints", id, "stats"]) => read(Target::Endpoint(id), "GET /v1/endpoints/{id}/stats"),
        ("GET", ["v1", "applications", id, "stats"]) => {
            read(Target::Application(id), "GET /v1/applications/{id}/stats")
        }
        ("POST", ["v1", "endpoints", id, action]) => {
            let route = match *action {
                "enable" => "POST /v1/endpoints/{id}/enable",
                "disable" => "POST /v1/endpoints/{id}/disable",
                "revoke" => "POST /v1/endpoints/{id}/revoke",
                "test" => "POST /v1/endpoints/{id}/test",
                "replay" => "POST /v1/endpoints/{id}/replay",
                "replay-dead" => "POST /v1/endpoints/{id}/replay-dead",
                _ => return None,
            };
            write(Target::Endpoint(id), route)
        }
        ("POST", ["v1", "endpoints", id, "secrets", "rotate"]) => {
            write(Target::Endpoint(id), "POST /v1/endpoints/{id}/secrets/rotate")
        }
        ("GET", ["v1", "deliveries", id]) => read(Target::Delivery(id), "GET /v1/deliveries/{id}"),
        ("GET", ["v1", "deliveries", id, "attempts"]) => read(Target::Delivery(id), "GET /v1/deliveries/{id}/attempts"),
        ("GET", ["v1", "deliveries", id, "attempts", _]) => {
            read(Target::Delivery(id), "GET /v1/deliveries/{id}/attempts/{attemptId}")
        }
        ("POST", ["v1", "deliveries", id, "redeliver"]) => {
            write(Target::Delivery(id), "POST /v1/deliveries/{id}/redeliver")
        }
        _ => None,
    }
}

/// The portal token of a request, if its bearer credential is one.
fn portal_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(auth::bearer_key)
        .filter(|k| k.starts_with(PORTAL_TOKEN_PREFIX))
}

/// Middleware of every tenant route: an API key goes through the ordinary
/// authentication; a portal token is checked against the allow-list and its scope.
pub(crate) async fn require_key_or_portal(State(api): State<Arc<Api>>, req: Request, next: Next) -> Response {
    let Some(token) = portal_token(req.headers()).map(str::to_owned) else {
        return auth::require_tenant(State(api), req, next).await;
    };
    match portal_request(&api, &token, req, next).await {
        Ok(resp) | Err(resp) => resp,
    }
}

async fn portal_request(api: &Arc<Api>, token: &str, req: Request, next: Next) -> Result<Response, Response> {
    let source = client_addr(&req);
    let (tenant, access) = match api.authenticate_portal(token).await {
        Ok(found) => found,
        Err(e) if e.problem == ProblemCode::Unauthorized => return Err(api.refuse(source, e).into_response()),
        Err(e) => return Err(e.into_response()),
    };
    api.charge(BucketKey::Tenant(tenant.id.clone()), "for this tenant")
        .map_err(IntoResponse::into_response)?;
    let path = req.uri().path().to_owned();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    let Some(rule) = allowed(req.method(), &segments) else {
        return Err(ApiError::portal_forbidden(format!(
            "{} {path} needs an API key; a portal link cannot use it",
            req.method()
        ))
        .into_response());
    };
    if rule.write && access.read_only {
        return Err(ApiError::portal_forbidden("this portal link is read-only").into_response());
    }
    let inside = match rule.target {
        Target::Nothing => Ok(()),
        Target::List => {
            return list_scoped(api, &tenant, &access, req.uri().query())
                .await
                .map_err(IntoResponse::into_response);
        }
        Target::Create if !access.may_create() => {
            return Err(ApiError::portal_forbidden(
                "this portal link cannot create endpoints (it is narrowed to some endpoints, or has no application)",
            )
            .into_response());
        }
        Target::Create => Ok(()),
        Target::Endpoint(id) => endpoint_in_scope(api, &tenant, &access, id).await,
        Target::Delivery(id) => delivery_in_scope(api, &tenant, &access, id).await,
        // Another application reads as missing, as an endpoint outside the scope does.
        Target::Application(id) => match &access.application {
            Some(app) if app.id.as_str() == id || app.uid.as_deref() == Some(id) => Ok(()),
            _ => Err(ApiError::not_found("application")),
        },
    };
    inside.map_err(IntoResponse::into_response)?;
    let (mut parts, body) = req.into_parts();
    parts.extensions.insert(tenant.clone());
    parts.extensions.insert(access.clone());
    if !rule.write {
        return Ok(next.run(Request::from_parts(parts, body)).await);
    }
    // Writes are logged with the fields their body set: the body is read here (the
    // size limit in front already bounded it) and handed on unchanged.
    let bytes = axum::body::to_bytes(body, MAX_BODY_BYTES)
        .await
        .map_err(|_| ApiError::new(ProblemCode::PayloadTooLarge, "request body is over the limit").into_response())?;
    let fields = body_fields(&bytes);
    let resp = next.run(Request::from_parts(parts, Body::from(bytes))).await;
    if resp.status().is_success() {
        api.note_portal_write(&tenant, &access, rule.route, &path, fields, resp.status().as_u16())
            .await;
    }
    Ok(resp)
}

/// The top-level fields of a JSON object body, sorted.
fn body_fields(bytes: &[u8]) -> Vec<String> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(o)) => o.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

async fn endpoint_in_scope(api: &Api, tenant: &Tenant, access: &PortalAccess, raw: &str) -> ApiResult<()> {
    let found = match EndpointId::parse(raw) {
        Ok(id) => api.endpoints.get_endpoint(&tenant.id, &id).await?,
        Err(_) => None,
    };
    match found {
        Some(e) if e.tenant_id == tenant.id && access.reaches(&e) => Ok(()),
        _ => Err(ApiError::not_found("endpoint")),
    }
}

async fn delivery_in_scope(api: &Api, tenant: &Tenant, access: &PortalAccess, raw: &str) -> ApiResult<()> {
    let delivery = match DeliveryId::parse(raw) {
        Ok(id) => api.deliveries.get_delivery(&id).await?,
        Err(_) => None,
    };
    let Some(d) = delivery.filter(|d| d.tenant_id == tenant.id) else {
        return Err(ApiError::not_found("delivery"));
    };
    match api.endpoints.get_endpoint(&tenant.id, &d.endpoint_id).await? {
        Some(e) if e.tenant_id == tenant.id && access.reaches(&e) => Ok(()),
        _ => Err(ApiError::not_found("delivery")),
    }
}

/// `GET /v1/endpoints` for a portal link: the endpoints in its scope that are not
/// deleted, in one page.
async fn list_scoped(api: &Api, tenant: &Tenant, access: &PortalAccess, query: Option<&str>) -> ApiResult<Response> {
    list_query(query, &["cursor", "limit"])?;
    let now = api.clock.now();
    let endpoints = match (&access.endpoints, &access.application) {
        (Some(ids), _) => {
            let mut found = Vec::with_capacity(ids.len());
            for id in ids {
                if let Some(e) = api.endpoints.get_endpoint(&tenant.id, id).await? {
                    found.push(e);
                }
            }
            found
        }
        (None, Some(app)) => api.application_endpoints(tenant, app).await?,
        (None, None) => Vec::new(),
    };
    let items: Vec<EndpointOut> = endpoints
        .iter()
        .filter(|e| e.tenant_id == tenant.id && e.deleted_at.is_none() && access.reaches(e))
        .map(|e| EndpointOut::at(e, now))
        .collect();
    Ok(page_reply(items, None))
}

impl Api {
    /// Keeps a portal write in the activity log. The write itself is done; a log
    /// that cannot be written is reported, not turned into a failed answer.
    async fn note_portal_write(
        &self,
        tenant: &Tenant,
        access: &PortalAccess,
        route: &str,
        path: &str,
        fields: Vec<String>,
        status: u16,
    ) {
        let now = self.clock.now();
        let mut raw = [0u8; 8];
        self.secrets.fill(&mut raw);
        let activity = PortalActivity {
            // Milliseconds first, zero-padded: ids sort by time.
            id: format!("pa_{:013}{}", now.millis().max(0), auth::hex(&raw)),
            tenant_id: tenant.id.clone(),
            link_id: access.link_id.clone(),
            application_id: access.application.as_ref().map(|a| a.id.clone()),
            method: route.split(' ').next().unwrap_or_default().to_owned(),
            route: route.to_owned(),
            path: path.to_owned(),
            fields,
            status,
            at: now,
            expires_at: now.millis() / 1000 + PORTAL_ACTIVITY_RETENTION_DAYS * 86_400,
        };
        if let Err(e) = self.applications.put_portal_activity(&activity).await {
            tracing::error!(error = %e, link = %access.link_id, route, "portal activity not recorded");
        }
    }
}

/// One page of the activity of `application`'s links (none: links without one).
async fn activity_page(
    api: &Api,
    tenant: &Tenant,
    application: Option<&str>,
    query: Option<&str>,
) -> ApiResult<Response> {
    let q = list_query(query, &["cursor", "limit"])?;
    let page = api
        .applications
        .list_portal_activity(&tenant.id, application, q.cursor.as_deref(), q.limit)
        .await?;
    let items: Vec<PortalActivityOut> = page.items.iter().map(PortalActivityOut::from).collect();
    Ok(page_reply(items, page.next_cursor.as_deref()))
}

/// `GET /v1/applications/{id}/portal-activity`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/applications/{id}/portal-activity",
        operation_id = "listApplicationPortalActivity",
        tag = "portal",
        summary = r#"Portal activity of an application"#,
        description = r#"Every write made with a portal link of this application (link, route, fields set, answer, instant), newest first, kept 90 days. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        params(
        ("id" = crate::api::openapi::schemas::ApplicationRef, Path, description = r#"The application's id (`app_...`) or its `uid`. Anything that cannot be either answers 404 like an unknown one."#),
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"One page of activity."#, body = crate::api::wire::common::Page<crate::api::wire::portal::PortalActivityOut>),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn application_activity(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    list_query(query.as_deref(), &["cursor", "limit"])?;
    let app = api.load_application(&tenant, &id).await?;
    activity_page(&api, &tenant, Some(&app.id), query.as_deref()).await
}

/// `GET /v1/portal-activity`: writes through links without an application.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/portal-activity",
        operation_id = "listPortalActivity",
        tag = "portal",
        summary = r#"Portal activity of links without an application"#,
        description = r#"Every write made with a portal link made by `POST /v1/portal-links` (link, route, fields set, answer, instant), newest first, kept 90 days. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        params(
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"One page of activity."#, body = crate::api::wire::common::Page<crate::api::wire::portal::PortalActivityOut>),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn tenant_activity(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    activity_page(&api, &tenant, None, query.as_deref()).await
}
