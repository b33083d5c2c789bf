//! Portal links: a short-lived, revocable credential a tenant hands to its own
//! customer. `POST /v1/applications/{id}/portal-links` makes one for an application
//! (optionally narrowed to some of its endpoints, optionally read-only);
//! `POST /v1/portal-links` makes one over a list of endpoint ids for tenants without
//! applications; `DELETE /v1/portal-links/{id}` revokes either at once. What a token
//! may do is decided in `portal_access.rs`; `GET /v1/portal/session` tells the
//! console what its link allows.
//!
//! A token is `cpl_<link id>.<secret>`: the id selects the stored link, the secret is
//! kept only as its SHA-256 and compared in constant time. Links are kept in the key
//! table under `portal#<link id>` (never a 64-hex key hash, so no API key lookup can
//! reach one), the link itself as JSON in the item's name; the key cache reads such
//! items every time, so a revocation holds on every instance at once.

use crate::api::Api;
use crate::api::http::auth::{self, hash_key};
use crate::api::http::body::ApiJson;
use crate::api::http::limits::MAX_CREDENTIAL_LEN;
use crate::api::http::portal_access::{self, PORTAL_TOKEN_PREFIX, Portal, PortalAccess};
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::routes::{Authed, Id, reply};
use crate::api::wire::portal::{
    ApplicationPortalLinkIn, PortalLinkIn, PortalLinkOut, PortalLinkRevoked, PortalSession,
};
use crate::domain::model::{Application, PortalSettings, Tenant};
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use axum::routing;
use base64::Engine;
use courier_core::ids::{EndpointId, TenantId};
use courier_core::time::Timestamp;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::Arc;
use subtle::ConstantTimeEq;

/// A link lives at most a day.
pub const MAX_PORTAL_TTL_SECS: u64 = 24 * 3600;
/// A link's lifetime when the request names none.
pub const DEFAULT_PORTAL_TTL_SECS: u64 = 3600;
/// How long a link's item outlives the link, in seconds.
const LINK_KEPT_AFTER_SECS: i64 = 24 * 3600;
/// How many endpoints one link may name.
pub const MAX_PORTAL_ENDPOINTS: usize = 50;

/// A stored portal link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PortalLink {
    id: String,
    /// SHA-256 (hex) of the token's secret part.
    secret_hash: String,
    /// The application whose customer holds the link; none for a link over
    /// endpoint ids only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    application_id: Option<String>,
    /// The endpoints it reaches: exactly these for a link without application; for
    /// an application's link, none means all of the application's endpoints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    endpoint_ids: Option<Vec<EndpointId>>,
    #[serde(default)]
    read_only: bool,
    created_at: Timestamp,
    expires_at: Timestamp,
    revoked: bool,
}

fn link_key(id: &str) -> String {
    format!("portal#{id}")
}

fn link_id_ok(id: &str) -> bool {
    id.len() == 27
        && id.starts_with("pl_")
        && id[3..]
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

impl Api {
    async fn load_link(&self, id: &str) -> ApiResult<Option<(TenantId, PortalLink)>> {
        if !link_id_ok(id) {
            return Ok(None);
        }
        let Some(item) = self.tenants.tenant_by_key(&link_key(id)).await? else {
            return Ok(None);
        };
        // An item that does not read as a link is no link: refused like an unknown one.
        Ok(serde_json::from_str::<PortalLink>(&item.name)
            .ok()
            .filter(|l| l.id == id)
            .map(|l| (item.id, l)))
    }

    async fn store_link(&self, tenant: &TenantId, link: &PortalLink) -> ApiResult<()> {
        let name = serde_json::to_string(link)
            .map_err(|e| ApiError::new(ProblemCode::ServiceUnavailable, format!("portal link: {e}")))?;
        // Kept a day past its end, so revoking an expired link still finds it.
        let until = link.expires_at.millis() / 1000 + LINK_KEPT_AFTER_SECS;
        self.tenants
            .put_expiring_key(
                &link_key(&link.id),
                &Tenant {
                    id: tenant.clone(),
                    name,
                },
                until,
            )
            .await?;
        Ok(())
    }

    /// The tenant and what a portal token reaches, or 401 (expired, revoked or
    /// unknown links, and links whose application is gone, look the same).
    pub(crate) async fn authenticate_portal(&self, token: &str) -> ApiResult<(Tenant, PortalAccess)> {
        let refused = || ApiError::new(ProblemCode::Unauthorized, "portal link expired or revoked");
        let rest = token.strip_prefix(PORTAL_TOKEN_PREFIX).ok_or_else(refused)?;
        let (id, secret) = rest.split_once('.').ok_or_else(refused)?;
        let (tenant_id, link) = self.load_link(&format!("pl_{id}")).await?.ok_or_else(refused)?;
        let given = hash_key(secret);
        let matches: bool = given.as_bytes().ct_eq(link.secret_hash.as_bytes()).into();
        if !matches || link.revoked || self.clock.now() >= link.expires_at {
            return Err(refused());
        }
        let tenant = Tenant {
            id: tenant_id,
            name: String::new(),
        };
        let application = match &link.application_id {
            Some(app) => Some(
                self.applications
                    .get_application(&tenant.id, app)
                    .await?
                    .filter(|a| a.tenant_id == tenant.id)
                    .ok_or_else(refused)?,
            ),
            None => None,
        };
        let access = PortalAccess {
            link_id: link.id,
            application,
            endpoints: link.endpoint_ids.map(|ids| ids.into_iter().collect()),
            read_only: link.read_only,
            expires_at: link.expires_at,
        };
        Ok((tenant, access))
    }

    /// Makes and stores a link; answers its id, token and expiry.
    async fn issue_link(
        &self,
        tenant: &TenantId,
        application: Option<&Application>,
        endpoint_ids: Option<Vec<EndpointId>>,
        read_only: bool,
        ttl: u64,
        headers: &HeaderMap,
    ) -> ApiResult<Response> {
        let mut id_raw = [0u8; 12];
        self.secrets.fill(&mut id_raw);
        let mut secret = [0u8; 32];
        self.secrets.fill(&mut secret);
        let id_hex = auth::hex(&id_raw);
        let secret = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(secret);
        let token = format!("{PORTAL_TOKEN_PREFIX}{id_hex}.{secret}");
        debug_assert!(token.len() <= MAX_CREDENTIAL_LEN);
        let now = self.clock.now();
        let link = PortalLink {
            id: format!("pl_{id_hex}"),
            secret_hash: hash_key(&secret),
            application_id: application.map(|a| a.id.clone()),
            endpoint_ids,
            read_only,
            created_at: now,
            expires_at: now.plus_secs(ttl as i64),
            revoked: false,
        };
        self.store_link(tenant, &link).await?;
        // The token rides in the fragment: browsers never send it to the server.
        let url = format!("{}#portal={token}", console_base(headers));
        Ok(reply(
            StatusCode::CREATED,
            &PortalLinkOut {
                id: link.id,
                url,
                token,
                application_id: link.application_id,
                endpoint_ids: link
                    .endpoint_ids
                    .map(|ids| ids.iter().map(ToString::to_string).collect()),
                read_only: link.read_only,
                expires_at: link.expires_at.to_rfc3339(),
            },
        ))
    }
}

/// Where the console is, as the caller reached the API: the `Host` it used and the
/// scheme the proxy in front reports (API Gateway sends `X-Forwarded-Proto`).
pub(crate) fn console_base(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b)));
    let scheme = match headers.get("x-forwarded-proto").and_then(|v| v.to_str().ok()) {
        Some("https") => "https",
        _ => "http",
    };
    match host {
        Some(host) => format!("{scheme}://{host}/console"),
        None => "/console".to_owned(),
    }
}

fn check_ttl(field: &str, ttl: Option<u64>) -> ApiResult<u64> {
    let ttl = ttl.unwrap_or(DEFAULT_PORTAL_TTL_SECS);
    if ttl == 0 || ttl > MAX_PORTAL_TTL_SECS {
        return Err(ApiError::validation(format!(
            "field `{field}` must be 1..={MAX_PORTAL_TTL_SECS} (24 hours), got {ttl}"
        )));
    }
    Ok(ttl)
}

impl Api {
    /// The endpoint ids a link names, each the tenant's (and the application's, for
    /// an application's link), without repeats; 400 naming the first bad one.
    async fn link_endpoints(
        &self,
        tenant: &TenantId,
        application: Option<&Application>,
        raw: &[String],
    ) -> ApiResult<Vec<EndpointId>> {
        if raw.is_empty() || raw.len() > MAX_PORTAL_ENDPOINTS {
            return Err(ApiError::validation(format!(
                "field `endpointIds` must name 1..={MAX_PORTAL_ENDPOINTS} endpoints, got {}",
                raw.len()
            )));
        }
        let mut ids = Vec::with_capacity(raw.len());
        for (i, raw) in raw.iter().enumerate() {
            let id = EndpointId::parse(raw).map_err(|_| {
                ApiError::validation(format!("field `endpointIds[{i}]` is not an endpoint id: {raw:?}"))
            })?;
            let found = self
                .endpoints
                .get_endpoint(tenant, &id)
                .await?
                .filter(|e| e.tenant_id == *tenant && e.deleted_at.is_none());
            let belongs = match (found, application) {
                (None, _) => false,
                (Some(e), Some(app)) => e.application_id.as_deref() == Some(app.id.as_str()),
                (Some(_), None) => true,
            };
            if !belongs {
                let whose = if application.is_some() {
                    "this application"
                } else {
                    "this tenant"
                };
                return Err(ApiError::validation(format!(
                    "field `endpointIds[{i}]`: no endpoint {raw} in {whose}"
                )));
            }
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
        Ok(ids)
    }
}

/// `POST /v1/portal-links`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/portal-links",
        operation_id = "createPortalLink",
        tag = "portal",
        summary = r#"Make a portal link"#,
        description = r#"A short-lived, revocable link to the console for a tenant's customer, scoped to a set of endpoints. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        request_body(content = crate::api::wire::portal::PortalLinkIn, content_type = "application/json"),
        responses(
        (status = 201, description = r#"The link and its token (shown once)."#, body = crate::api::wire::portal::PortalLinkOut),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
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
    headers: HeaderMap,
    ApiJson { value: body, .. }: ApiJson<PortalLinkIn>,
) -> ApiResult<Response> {
    let ttl = match (body.ttl_seconds, body.expires_in_seconds) {
        (Some(_), Some(_)) => {
            return Err(ApiError::validation(
                "fields `ttlSeconds` and `expiresInSeconds` say the same; send one",
            ));
        }
        (Some(t), None) => check_ttl("ttlSeconds", Some(t))?,
        (None, e) => check_ttl("expiresInSeconds", e)?,
    };
    let ids = api.link_endpoints(&tenant.id, None, &body.endpoint_ids).await?;
    api.issue_link(
        &tenant.id,
        None,
        Some(ids),
        body.read_only.unwrap_or(false),
        ttl,
        &headers,
    )
    .await
}

/// `POST /v1/applications/{id}/portal-links`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/applications/{id}/portal-links",
        operation_id = "createApplicationPortalLink",
        tag = "portal",
        summary = r#"Make a portal link for an application"#,
        description = r#"A short-lived, revocable console link for one application's customer: inside that application it lists, creates, changes and deletes endpoints (within the application's `portal` settings), reads and resends their deliveries and browses the event-type catalogue. `endpointIds` narrows it to some endpoints (then it cannot create any); `readOnly` takes away every write. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        params(
        ("id" = crate::api::openapi::schemas::ApplicationRef, Path, description = r#"The application's id (`app_...`) or its `uid`. Anything that cannot be either answers 404 like an unknown one."#),
    ),
        request_body(content = Option<crate::api::wire::portal::ApplicationPortalLinkIn>, content_type = "application/json"),
        responses(
        (status = 201, description = r#"The link and its token (shown once)."#, body = crate::api::wire::portal::PortalLinkOut),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn create_for_application(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    headers: HeaderMap,
    ApiJson { value: body, .. }: ApiJson<ApplicationPortalLinkIn>,
) -> ApiResult<Response> {
    let app = api.load_application(&tenant, &id).await?;
    let ttl = check_ttl("expiresInSeconds", body.expires_in_seconds)?;
    let ids = match &body.endpoint_ids {
        Some(raw) => Some(api.link_endpoints(&tenant.id, Some(&app), raw).await?),
        None => None,
    };
    api.issue_link(
        &tenant.id,
        Some(&app),
        ids,
        body.read_only.unwrap_or(false),
        ttl,
        &headers,
    )
    .await
}

/// `DELETE /v1/portal-links/{id}`: the link stops working at once.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        delete,
        path = "/v1/portal-links/{id}",
        operation_id = "revokePortalLink",
        tag = "portal",
        summary = r#"Revoke a portal link"#,
        description = r#"The link's token stops working at once; the console shows its "link expired" page. Needs an API key."#,
        params(
        ("id" = crate::api::openapi::schemas::PortalLinkId, Path, description = r#"The portal link id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The link, now revoked."#, body = crate::api::wire::portal::PortalLinkRevoked),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn revoke(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let Some((owner, mut link)) = api.load_link(&id).await?.filter(|(owner, _)| *owner == tenant.id) else {
        return Err(ApiError::not_found("portal link"));
    };
    link.revoked = true;
    api.store_link(&owner, &link).await?;
    Ok(reply(
        StatusCode::OK,
        &PortalLinkRevoked {
            expires_at: link.expires_at.to_rfc3339(),
            id: link.id,
            revoked: true,
        },
    ))
}

/// `GET /v1/portal/session`: what the calling portal link allows, for the console.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/portal/session",
        operation_id = "getPortalSession",
        tag = "portal",
        summary = r#"What this portal link allows"#,
        description = r#"For a portal token: the link's application, scope, whether it is read-only or may create endpoints, the presets it may choose and its expiry. The console reads it on opening a portal link."#,
        responses(
        (status = 200, description = r#"The link's session."#, body = crate::api::wire::portal::PortalSession),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn session(Portal(access): Portal) -> ApiResult<Response> {
    let Some(access) = access else {
        return Err(ApiError::not_found(
            "portal session (this route answers portal tokens only)",
        ));
    };
    let settings = access
        .application
        .as_ref()
        .map(|a| a.portal.clone())
        .unwrap_or_else(PortalSettings::default);
    let endpoints: Option<Vec<String>> = access
        .endpoints
        .as_ref()
        .map(|s: &BTreeSet<EndpointId>| s.iter().map(ToString::to_string).collect());
    Ok(reply(
        StatusCode::OK,
        &PortalSession {
            link_id: access.link_id.clone(),
            application_id: access.application.as_ref().map(|a| a.id.clone()),
            application_name: access.application.as_ref().map(|a| a.name.clone()),
            endpoint_ids: endpoints,
            read_only: access.read_only,
            can_create_endpoints: access.may_create(),
            presets: settings.presets,
            custom_policies: settings.custom_policies,
            max_endpoints: settings.max_endpoints,
            expires_at: access.expires_at.to_rfc3339(),
        },
    ))
}

/// The routes of portal links, the portal session and the portal activity log; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/portal-links", routing::post(create))
        .route("/v1/portal-links/{id}", routing::delete(revoke))
        .route("/v1/portal/session", routing::get(session))
        .route(
            "/v1/applications/{id}/portal-links",
            routing::post(create_for_application),
        )
        .route("/v1/portal-activity", routing::get(portal_access::tenant_activity))
        .route(
            "/v1/applications/{id}/portal-activity",
            routing::get(portal_access::application_activity),
        )
}
