//! Portal links: a short-lived, revocable credential for a tenant's customer, scoped
//! to a set of endpoint ids (until applications exist). `POST /v1/portal-links` and
//! `DELETE /v1/portal-links/{id}` (API key) make and revoke them, and
//! [`require_key_or_portal`] admits a link's token on the read and manage routes of
//! its endpoints, their deliveries and attempts, answering 404 outside its scope.
//!
//! A token is `cpl_<link id>.<secret>`: the id selects the stored link, the secret is
//! kept only as its SHA-256 and compared in constant time. Links are kept in the key
//! table under `portal#<link id>` (never a 64-hex key hash, so no API key lookup can
//! reach one), the link itself as JSON in the item's name; the key cache reads such
//! items every time, so a revocation holds on every instance at once.

use super::Api;
use super::auth::{self, client_addr, hash_key};
use super::body::ApiJson;
use super::limits::MAX_CREDENTIAL_LEN;
use super::problem::{ApiError, ApiResult, ProblemCode};
use super::rate_limit::BucketKey;
use super::routes::{Authed, Id, page_reply, reply};
use super::views::endpoint_view;
use crate::model::Tenant;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use courier_core::ids::{DeliveryId, EndpointId, TenantId};
use courier_core::time::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeSet;
use std::sync::Arc;
use subtle::ConstantTimeEq;

/// The prefix every portal token starts with (API keys start with `ck_`).
pub const PORTAL_TOKEN_PREFIX: &str = "cpl_";
/// A link lives at most a day.
pub const MAX_PORTAL_TTL_SECS: u64 = 24 * 3600;
/// A link's lifetime when the request names none.
pub const DEFAULT_PORTAL_TTL_SECS: u64 = 3600;
/// How many endpoints one link may name.
pub const MAX_PORTAL_ENDPOINTS: usize = 50;

/// A stored portal link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct PortalLink {
    id: String,
    /// SHA-256 (hex) of the token's secret part.
    secret_hash: String,
    endpoint_ids: Vec<EndpointId>,
    created_at: Timestamp,
    expires_at: Timestamp,
    revoked: bool,
}

/// What a request authorised by a portal token may reach.
#[derive(Debug, Clone)]
struct PortalScope {
    endpoints: BTreeSet<EndpointId>,
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
        self.tenants
            .put_tenant_key(
                &link_key(&link.id),
                &Tenant {
                    id: tenant.clone(),
                    name,
                },
            )
            .await?;
        Ok(())
    }

    /// The tenant and scope of a portal token, or 401 (expired, revoked or unknown
    /// links look the same).
    async fn authenticate_portal(&self, token: &str) -> ApiResult<(Tenant, PortalScope)> {
        let refused = || ApiError::new(ProblemCode::Unauthorized, "portal link expired or revoked");
        let rest = token.strip_prefix(PORTAL_TOKEN_PREFIX).ok_or_else(refused)?;
        let (id, secret) = rest.split_once('.').ok_or_else(refused)?;
        let (tenant, link) = self.load_link(&format!("pl_{id}")).await?.ok_or_else(refused)?;
        let given = hash_key(secret);
        let matches: bool = given.as_bytes().ct_eq(link.secret_hash.as_bytes()).into();
        if !matches || link.revoked || self.clock.now() >= link.expires_at {
            return Err(refused());
        }
        let scope = PortalScope {
            endpoints: link.endpoint_ids.into_iter().collect(),
        };
        Ok((
            Tenant {
                id: tenant,
                name: String::new(),
            },
            scope,
        ))
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

/// Middleware of the routes a portal link may use: an API key goes through the
/// ordinary authentication; a portal token is checked, the path's endpoint or
/// delivery must be in its scope (404 otherwise), and the endpoint list is answered
/// here with only the link's endpoints.
pub(crate) async fn require_key_or_portal(State(api): State<Arc<Api>>, req: Request, next: Next) -> Response {
    let Some(token) = portal_token(req.headers()).map(str::to_owned) else {
        return auth::require_tenant(State(api), req, next).await;
    };
    match portal_request(&api, &token, req, next).await {
        Ok(resp) | Err(resp) => resp,
    }
}

async fn portal_request(api: &Arc<Api>, token: &str, mut req: Request, next: Next) -> Result<Response, Response> {
    let source = client_addr(&req);
    let (tenant, scope) = match api.authenticate_portal(token).await {
        Ok(found) => found,
        Err(e) if e.problem == ProblemCode::Unauthorized => return Err(api.refuse(source, e).into_response()),
        Err(e) => return Err(e.into_response()),
    };
    api.charge(BucketKey::Tenant(tenant.id.clone()), "for this tenant")
        .map_err(IntoResponse::into_response)?;
    let path = req.uri().path().to_owned();
    let segments: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    match segments.as_slice() {
        ["v1", "endpoints"] => {
            if req.method() != Method::GET {
                return Err(operator_only());
            }
            return list_scoped(api, &tenant, &scope)
                .await
                .map_err(IntoResponse::into_response);
        }
        ["v1", "endpoints", id, ..] => {
            let in_scope = EndpointId::parse(id).is_ok_and(|id| scope.endpoints.contains(&id));
            if !in_scope {
                return Err(ApiError::not_found("endpoint").into_response());
            }
        }
        ["v1", "deliveries", id, ..] => {
            let delivery = match DeliveryId::parse(id) {
                Ok(id) => api
                    .deliveries
                    .get_delivery(&id)
                    .await
                    .map_err(|e| ApiError::from(e).into_response())?,
                Err(_) => None,
            };
            let in_scope =
                delivery.is_some_and(|d| d.tenant_id == tenant.id && scope.endpoints.contains(&d.endpoint_id));
            if !in_scope {
                return Err(ApiError::not_found("delivery").into_response());
            }
        }
        _ => return Err(operator_only()),
    }
    req.extensions_mut().insert(tenant);
    Ok(next.run(req).await)
}

/// What a portal token gets on a route only an API key may use.
fn operator_only() -> Response {
    ApiError::new(
        ProblemCode::Unauthorized,
        "this route needs an API key; a portal link cannot use it",
    )
    .into_response()
}

/// Middleware of the routes only an API key may use: a portal token is refused
/// with a detail saying so, anything else goes through the ordinary authentication.
pub(crate) async fn require_key(State(api): State<Arc<Api>>, req: Request, next: Next) -> Response {
    if portal_token(req.headers()).is_some() {
        return operator_only();
    }
    auth::require_tenant(State(api), req, next).await
}

/// `GET /v1/endpoints` for a portal link: its endpoints that still exist, one page.
async fn list_scoped(api: &Api, tenant: &Tenant, scope: &PortalScope) -> ApiResult<Response> {
    let now = api.clock.now();
    let mut items = Vec::with_capacity(scope.endpoints.len());
    for id in &scope.endpoints {
        if let Some(e) = api.endpoints.get_endpoint(&tenant.id, id).await?
            && e.tenant_id == tenant.id
        {
            items.push(endpoint_view(&e, now));
        }
    }
    Ok(page_reply(items, None))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct CreateLink {
    endpoint_ids: Vec<String>,
    ttl_seconds: Option<u64>,
}

/// Where the console is, as the caller reached the API: the `Host` it used and the
/// scheme the proxy in front reports (API Gateway sends `X-Forwarded-Proto`).
fn console_base(headers: &HeaderMap) -> String {
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

/// `POST /v1/portal-links`
pub(crate) async fn create(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    headers: HeaderMap,
    ApiJson { value: body, .. }: ApiJson<CreateLink>,
) -> ApiResult<Response> {
    let ttl = body.ttl_seconds.unwrap_or(DEFAULT_PORTAL_TTL_SECS);
    if ttl == 0 || ttl > MAX_PORTAL_TTL_SECS {
        return Err(ApiError::validation(format!(
            "ttlSeconds must be 1..={MAX_PORTAL_TTL_SECS} (24 hours), got {ttl}"
        )));
    }
    if body.endpoint_ids.is_empty() || body.endpoint_ids.len() > MAX_PORTAL_ENDPOINTS {
        return Err(ApiError::validation(format!(
            "endpointIds must name 1..={MAX_PORTAL_ENDPOINTS} endpoints, got {}",
            body.endpoint_ids.len()
        )));
    }
    let mut ids = Vec::with_capacity(body.endpoint_ids.len());
    for (i, raw) in body.endpoint_ids.iter().enumerate() {
        let id = EndpointId::parse(raw)
            .map_err(|_| ApiError::validation(format!("endpointIds[{i}] is not an endpoint id: {raw:?}")))?;
        // Only the tenant's own endpoints: a link cannot reach another tenant's.
        match api.endpoints.get_endpoint(&tenant.id, &id).await? {
            Some(e) if e.tenant_id == tenant.id => {}
            _ => {
                return Err(ApiError::validation(format!(
                    "endpointIds[{i}]: no endpoint {raw} in this tenant"
                )));
            }
        }
        if !ids.contains(&id) {
            ids.push(id);
        }
    }
    let mut id_raw = [0u8; 12];
    api.secrets.fill(&mut id_raw);
    let mut secret = [0u8; 32];
    api.secrets.fill(&mut secret);
    let id_hex = auth::hex(&id_raw);
    let secret = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(secret);
    let token = format!("{PORTAL_TOKEN_PREFIX}{id_hex}.{secret}");
    debug_assert!(token.len() <= MAX_CREDENTIAL_LEN);
    let now = api.clock.now();
    let link = PortalLink {
        id: format!("pl_{id_hex}"),
        secret_hash: hash_key(&secret),
        endpoint_ids: ids,
        created_at: now,
        expires_at: now.plus_secs(ttl as i64),
        revoked: false,
    };
    api.store_link(&tenant.id, &link).await?;
    // The token rides in the fragment: browsers never send it to the server.
    let url = format!("{}#portal={token}", console_base(&headers));
    Ok(reply(
        201,
        &json!({
            "id": link.id,
            "url": url,
            "token": token,
            "endpointIds": link.endpoint_ids,
            "expiresAt": link.expires_at.to_rfc3339(),
        }),
    ))
}

/// `DELETE /v1/portal-links/{id}`: the link stops working at once.
pub(crate) async fn revoke(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let Some((owner, mut link)) = api.load_link(&id).await?.filter(|(owner, _)| *owner == tenant.id) else {
        return Err(ApiError::not_found("portal link"));
    };
    link.revoked = true;
    api.store_link(&owner, &link).await?;
    Ok(reply(
        200,
        &json!({"id": link.id, "revoked": true, "expiresAt": link.expires_at.to_rfc3339()}),
    ))
}
