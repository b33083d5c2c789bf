//! `/v1/applications`: a tenant's own customers. Create, read, list, change and
//! delete them; `{id}` is the application's `app_...` id or the tenant's own `uid`
//! for it. Deleting one is refused while its endpoints have deliveries in flight,
//! unless `?force=true`; deleting it disables its endpoints, so they take no new
//! events.

use crate::api::Api;
use crate::api::http::body::ApiJson;
use crate::api::http::limits::{MAX_APPLICATION_NAME, MAX_METADATA_BYTES, MAX_PORTAL_MAX_ENDPOINTS, MAX_UID_LEN};
use crate::api::http::patch::Patch;
use crate::api::http::problem::{ApiError, ApiResult};
use crate::api::http::query::{list_query, query_params};
use crate::api::resources::endpoint_limits;
use crate::api::routes::{Authed, Id, page_reply, reply};
use crate::api::wire::applications::{ApplicationDeleted, ApplicationIn, ApplicationOut, ApplicationPatch};
use crate::domain::model::EndpointState;
use crate::domain::model::{Application, Endpoint, EndpointDefaults, PORTAL_PRESETS, PortalSettings, Tenant};
use crate::endpoints::application_delete::endpoint_with_deliveries_in_flight;
use crate::ports::PortError;
use crate::ports::PortRng;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use courier_core::ids::{ApplicationId, EndpointId};
use serde_json::Value;
use std::sync::Arc;

fn check_name(name: &str) -> ApiResult<()> {
    let n = name.chars().count();
    if n == 0 || n > MAX_APPLICATION_NAME || name.trim().is_empty() {
        return Err(ApiError::validation(format!(
            "field `name` must be 1-{MAX_APPLICATION_NAME} characters, not only spaces"
        )));
    }
    Ok(())
}

/// Why `uid` is not one, if it is not: 1-256 letters, digits, `-`, `_` and `.`, not
/// starting with `app_` (which application ids start with, so a path names one or
/// the other, never both).
pub(crate) fn uid_problem(uid: &str) -> Option<String> {
    if uid.is_empty() || uid.len() > MAX_UID_LEN {
        return Some(format!("must be 1-{MAX_UID_LEN} characters"));
    }
    if !uid
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    {
        return Some("may hold only letters, digits, `-`, `_` and `.`".to_owned());
    }
    if uid.starts_with(ApplicationId::PREFIX) {
        return Some(format!(
            "must not start with `{}`, which application ids start with",
            ApplicationId::PREFIX
        ));
    }
    None
}

fn check_uid(uid: &str) -> ApiResult<()> {
    match uid_problem(uid) {
        Some(why) => Err(ApiError::validation(format!("field `uid` {why}"))),
        None => Ok(()),
    }
}

fn check_metadata(metadata: &Value) -> ApiResult<()> {
    if !metadata.is_object() {
        return Err(ApiError::validation("field `metadata` must be a JSON object"));
    }
    let size = serde_json::to_vec(metadata).map(|v| v.len()).unwrap_or(usize::MAX);
    if size > MAX_METADATA_BYTES {
        return Err(ApiError::validation(format!(
            "field `metadata` is {size} bytes; the limit is {MAX_METADATA_BYTES}"
        )));
    }
    Ok(())
}

fn uid_taken(uid: &str) -> ApiError {
    ApiError::conflict(format!(
        "field `uid`: {uid:?} is already the uid of another application"
    ))
}

/// `portal` over `current`: each field given replaces its value; 400 naming the
/// first bad one.
fn portal_settings(value: &Value, current: &PortalSettings) -> ApiResult<PortalSettings> {
    let Value::Object(o) = value else {
        return Err(ApiError::validation(
            "field `portal` must be an object {presets?, customPolicies?, maxEndpoints?, endpointDefaults?}",
        ));
    };
    let mut out = current.clone();
    for (k, v) in o {
        match k.as_str() {
            "presets" => {
                let names = v
                    .as_array()
                    .ok_or_else(|| ApiError::validation("field `portal.presets` must be a list of preset names"))?;
                let mut presets: Vec<String> = Vec::with_capacity(names.len());
                for (i, n) in names.iter().enumerate() {
                    match n.as_str() {
                        Some(n) if PORTAL_PRESETS.contains(&n) => {
                            if !presets.iter().any(|p| p == n) {
                                presets.push(n.to_owned());
                            }
                        }
                        _ => {
                            return Err(ApiError::validation(format!(
                                "field `portal.presets[{i}]` must be one of {}",
                                PORTAL_PRESETS.join(", ")
                            )));
                        }
                    }
                }
                out.presets = presets;
            }
            "customPolicies" => {
                out.custom_policies = v
                    .as_bool()
                    .ok_or_else(|| ApiError::validation("field `portal.customPolicies` must be true or false"))?;
            }
            "maxEndpoints" => {
                out.max_endpoints = crate::api::wire::numbers::whole_value(v)
                    .filter(|n| *n <= u64::from(MAX_PORTAL_MAX_ENDPOINTS))
                    .map(|n| n as u32)
                    .ok_or_else(|| {
                        ApiError::validation(format!(
                            "field `portal.maxEndpoints` must be a whole number from 0 to {MAX_PORTAL_MAX_ENDPOINTS}"
                        ))
                    })?;
            }
            "endpointDefaults" => {
                let Value::Object(d) = v else {
                    return Err(ApiError::validation(
                        "field `portal.endpointDefaults` must be an object {rateLimit?, maxInFlight?}",
                    ));
                };
                let mut defaults = EndpointDefaults::default();
                for (k, v) in d {
                    let prefixed = |e: ApiError| ApiError {
                        detail: e.detail.replace("field `", "field `portal.endpointDefaults."),
                        ..e
                    };
                    match k.as_str() {
                        "rateLimit" => endpoint_limits::rate_limit(Patch::Set(v))
                            .map_err(prefixed)?
                            .apply(&mut defaults.rate_limit),
                        "maxInFlight" => endpoint_limits::max_in_flight(Patch::Set(v))
                            .map_err(prefixed)?
                            .apply(&mut defaults.max_in_flight),
                        other => {
                            return Err(ApiError::validation(format!(
                                "field `portal.endpointDefaults.{other}` is not known"
                            )));
                        }
                    }
                }
                out.endpoint_defaults = defaults;
            }
            other => {
                return Err(ApiError::validation(format!("field `portal.{other}` is not known")));
            }
        }
    }
    Ok(out)
}

/// An application as the API shows it, as JSON (the console and tests read it so).
pub fn application_view(a: &Application) -> Value {
    serde_json::to_value(ApplicationOut::from(a)).unwrap_or(Value::Null)
}

/// `POST /v1/applications`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/applications",
        operation_id = "createApplication",
        tag = "applications",
        summary = r#"Create an application"#,
        description = r#"One of your own customers, whose endpoints are grouped under it. `uid` is your own id for the customer: unique among your applications, and accepted wherever an application id is. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        request_body(content = crate::api::wire::applications::ApplicationIn, content_type = "application/json"),
        responses(
        (status = 201, description = r#"The application."#, body = crate::api::wire::applications::ApplicationOut),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn create(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    ApiJson { value: body, .. }: ApiJson<ApplicationIn>,
) -> ApiResult<Response> {
    let name = body
        .name
        .ok_or_else(|| ApiError::validation("field `name` is required"))?;
    check_name(&name)?;
    if let Some(uid) = &body.uid {
        check_uid(uid)?;
    }
    if let Some(m) = &body.metadata {
        check_metadata(m)?;
    }
    let portal = match &body.portal {
        Some(p) => portal_settings(p, &PortalSettings::default())?,
        None => PortalSettings::default(),
    };
    let now = api.clock.now();
    let app = Application {
        id: ApplicationId::generate(now, &mut PortRng(api.random.as_ref())).to_string(),
        tenant_id: tenant.id.clone(),
        name,
        uid: body.uid,
        metadata: body.metadata.filter(|m| !m.is_null()),
        created_at: now,
        updated_at: now,
        version: 1,
        portal,
        live_endpoints: 0,
    };
    match api.applications.create_application(&app).await {
        Ok(()) => Ok(reply(StatusCode::CREATED, &ApplicationOut::from(&app))),
        // Ids are fresh, so a conflict is the uid.
        Err(PortError::Conflict(_)) => Err(uid_taken(app.uid.as_deref().unwrap_or_default())),
        Err(e) => Err(e.into()),
    }
}

/// `GET /v1/applications`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/applications",
        operation_id = "listApplications",
        tag = "applications",
        summary = r#"List applications"#,
        description = r#"Your applications by id, a page at a time. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        params(
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"One page of applications."#, body = crate::api::wire::common::Page<crate::api::wire::applications::ApplicationOut>),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn list(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let q = list_query(query.as_deref(), &["cursor", "limit"])?;
    let page = api
        .applications
        .list_applications(&tenant.id, q.cursor.as_deref(), q.limit)
        .await?;
    let items: Vec<ApplicationOut> = page.items.iter().map(ApplicationOut::from).collect();
    Ok(page_reply(items, page.next_cursor.as_deref()))
}

/// `GET /v1/applications/{id}`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/applications/{id}",
        operation_id = "getApplication",
        tag = "applications",
        summary = r#"Get an application"#,
        description = r#"The application with this id, or with this `uid`. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        params(
        ("id" = crate::api::openapi::schemas::ApplicationRef, Path, description = r#"The application's id (`app_...`) or its `uid`. Anything that cannot be either answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The application."#, body = crate::api::wire::applications::ApplicationOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn get(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let app = api.load_application(&tenant, &id).await?;
    Ok(reply(StatusCode::OK, &ApplicationOut::from(&app)))
}

/// `PATCH /v1/applications/{id}`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        patch,
        path = "/v1/applications/{id}",
        operation_id = "updateApplication",
        tag = "applications",
        summary = r#"Change an application"#,
        description = r#"Changes the name, the uid (`null` removes it, freeing it for another application) or the metadata (`null` removes it; an object replaces it whole). Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        params(
        ("id" = crate::api::openapi::schemas::ApplicationRef, Path, description = r#"The application's id (`app_...`) or its `uid`. Anything that cannot be either answers 404 like an unknown one."#),
    ),
        request_body(content = crate::api::wire::applications::ApplicationPatch, content_type = "application/json"),
        responses(
        (status = 200, description = r#"The application as changed."#, body = crate::api::wire::applications::ApplicationOut),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn update(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    ApiJson { value: body, .. }: ApiJson<ApplicationPatch>,
) -> ApiResult<Response> {
    if let Some(n) = &body.name {
        check_name(n)?;
    }
    let uid = match body.uid {
        Patch::Keep => None,
        Patch::Clear => Some(None),
        Patch::Set(Value::String(u)) => {
            check_uid(&u)?;
            Some(Some(u))
        }
        Patch::Set(_) => return Err(ApiError::validation("field `uid` must be a string or null")),
    };
    let metadata = match body.metadata {
        Patch::Keep => None,
        Patch::Clear => Some(None),
        Patch::Set(m) => {
            check_metadata(&m)?;
            Some(Some(m))
        }
    };
    // Optimistic concurrency: retried when another writer got there first.
    for _ in 0..8 {
        let mut app = api.load_application(&tenant, &id).await?;
        if let Some(p) = &body.portal {
            app.portal = portal_settings(p, &app.portal)?;
        }
        if let Some(Some(u)) = &uid
            && app.uid.as_ref() != Some(u)
            && api
                .applications
                .get_application_by_uid(&tenant.id, u)
                .await?
                .is_some_and(|other| other.id != app.id)
        {
            return Err(uid_taken(u));
        }
        if let Some(n) = &body.name {
            app.name = n.clone();
        }
        if let Some(u) = &uid {
            app.uid = u.clone();
        }
        if let Some(m) = &metadata {
            app.metadata = m.clone();
        }
        let expected = app.version;
        app.version += 1;
        app.updated_at = api.clock.now().max(app.updated_at);
        match api.applications.update_application(&app, expected).await {
            Ok(()) => return Ok(reply(StatusCode::OK, &ApplicationOut::from(&app))),
            Err(PortError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::conflict(
        "the application kept changing underneath this call; retry",
    ))
}

/// `DELETE /v1/applications/{id}[?force=true]`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        delete,
        path = "/v1/applications/{id}",
        operation_id = "deleteApplication",
        tag = "applications",
        summary = r#"Delete an application"#,
        description = r#"Deletes the application and frees its uid. Refused while its endpoints have deliveries in flight (scheduled, pending, retrying or ambiguous) unless `force=true`. Its endpoints stay but are disabled (as by `POST /v1/endpoints/{id}/disable`): they take no new events until enabled again. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        params(
        ("id" = crate::api::openapi::schemas::ApplicationRef, Path, description = r#"The application's id (`app_...`) or its `uid`. Anything that cannot be either answers 404 like an unknown one."#),
        ("force" = Option<bool>, Query, description = r#"Delete even while deliveries are in flight."#),
    ),
        responses(
        (status = 200, description = r#"The application is deleted."#, body = crate::api::wire::applications::ApplicationDeleted),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn delete(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let mut force = false;
    for (k, v) in query_params(query.as_deref()) {
        match (k.as_str(), v.as_str()) {
            ("force", "true") => force = true,
            ("force", "false") => force = false,
            ("force", _) => return Err(ApiError::validation("query parameter `force` must be true or false")),
            _ => {
                return Err(ApiError::validation(format!(
                    "unknown query parameter `{k}`; allowed: force"
                )));
            }
        }
    }
    let app = api.load_application(&tenant, &id).await?;
    let endpoints: Vec<EndpointId> = api
        .application_endpoints(&tenant, &app)
        .await?
        .into_iter()
        .map(|e| e.id)
        .collect();
    if !force && let Some(busy) = endpoint_with_deliveries_in_flight(api.deliveries.as_ref(), &endpoints).await? {
        return Err(ApiError::conflict(format!(
            "endpoint {busy} of application {} has deliveries in flight; delete with `?force=true` to delete it anyway",
            app.id
        )));
    }
    // Its endpoints take no new events from now on: disabled as by
    // `POST /v1/endpoints/{id}/disable`, before the application goes, so a call
    // that stops half-way leaves the application there to delete again.
    for endpoint in &endpoints {
        match api
            .modify_endpoint(&tenant, endpoint.as_str(), |e, _| {
                if e.state != EndpointState::Revoked {
                    e.state = EndpointState::Disabled;
                }
                Ok(())
            })
            .await
        {
            Ok(_) => {}
            // Deleted meanwhile: nothing left to disable.
            Err(e) if e.status() == 404 => {}
            Err(e) => return Err(e),
        }
    }
    if !api.applications.delete_application(&tenant.id, &app.id).await? {
        return Err(ApiError::not_found("application"));
    }
    Ok(reply(
        StatusCode::OK,
        &ApplicationDeleted {
            id: app.id,
            deleted: true,
        },
    ))
}

impl Api {
    /// The application `raw` names: an `app_...` id, or else the tenant's uid for it.
    /// Anything that cannot be either is a 404 like an unknown one.
    pub(crate) async fn load_application(&self, tenant: &Tenant, raw: &str) -> ApiResult<Application> {
        let found = if raw.starts_with(ApplicationId::PREFIX) {
            match ApplicationId::parse(raw) {
                Ok(id) => self.applications.get_application(&tenant.id, id.as_str()).await?,
                Err(_) => None,
            }
        } else if uid_problem(raw).is_none() {
            self.applications.get_application_by_uid(&tenant.id, raw).await?
        } else {
            None
        };
        found
            .filter(|a| a.tenant_id == tenant.id)
            .ok_or_else(|| ApiError::not_found("application"))
    }

    /// The endpoints that belong to `app` (for a delete, whose deliveries in flight
    /// hold it back, and for a portal's list). Read page by page from the tenant's
    /// endpoints, at most [`MAX_ENDPOINT_PAGES`] pages of 100: no index of endpoints
    /// per application is kept, as both are rare next to deliveries.
    /// Counts an endpoint into the application `app_id`. With `enforce` (a portal's
    /// create), refuses with 409 once the application holds `portal.maxEndpoints`;
    /// the count is compare-and-set, so concurrent creates cannot pass it together.
    pub(crate) async fn take_endpoint_slot(&self, tenant: &Tenant, app_id: &str, enforce: bool) -> ApiResult<()> {
        self.move_endpoint_count(tenant, app_id, true, enforce).await
    }

    /// Counts an endpoint out of the application `app_id` (gone already: nothing to do).
    pub(crate) async fn release_endpoint_slot(&self, tenant: &Tenant, app_id: &str) -> ApiResult<()> {
        self.move_endpoint_count(tenant, app_id, false, false).await
    }

    async fn move_endpoint_count(&self, tenant: &Tenant, app_id: &str, up: bool, enforce: bool) -> ApiResult<()> {
        // More tries than other versioned writes: creates into one application
        // all move its count.
        for _ in 0..SLOT_TRIES {
            let mut app = match self.load_application(tenant, app_id).await {
                Ok(app) => app,
                Err(e) if e.status() == 404 && !up => return Ok(()),
                Err(e) => return Err(e),
            };
            if enforce && app.live_endpoints >= app.portal.max_endpoints {
                return Err(ApiError::conflict(format!(
                    "application {} holds {} live endpoints, its most (portal.maxEndpoints); delete one first",
                    app.id, app.live_endpoints
                )));
            }
            app.live_endpoints = if up {
                app.live_endpoints.saturating_add(1)
            } else {
                app.live_endpoints.saturating_sub(1)
            };
            let expected = app.version;
            app.version += 1;
            match self.applications.update_application(&app, expected).await {
                Ok(()) => return Ok(()),
                Err(PortError::Conflict(_)) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        Err(ApiError::conflict(
            "the application kept changing underneath this call; retry",
        ))
    }

    pub(crate) async fn application_endpoints(&self, tenant: &Tenant, app: &Application) -> ApiResult<Vec<Endpoint>> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_ENDPOINT_PAGES {
            let page = self
                .endpoints
                .list_endpoints(&tenant.id, cursor.as_deref(), 100)
                .await?;
            out.extend(
                page.items
                    .into_iter()
                    .filter(|e| e.application_id.as_deref() == Some(app.id.as_str())),
            );
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        Ok(out)
    }
}

/// Compare-and-set tries of an application's endpoint count.
const SLOT_TRIES: usize = 32;

/// Pages of the tenant's endpoints a delete reads to find the application's own.
const MAX_ENDPOINT_PAGES: usize = 100;

/// The routes of `/v1/applications` and one application; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/applications", routing::post(create).get(list))
        .route("/v1/applications/{id}", routing::get(get).patch(update).delete(delete))
}
