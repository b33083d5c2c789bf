//! Authentication: API keys are stored only hashed, looked up from the normalized
//! credential, and the middleware in front of every tenant route authenticates,
//! then rate-limits the tenant (failed authentications per source address).

use crate::api::Api;
use crate::api::http::limits::MAX_CREDENTIAL_LEN;
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::http::rate_limit::BucketKey;
use crate::domain::model::Tenant;
use crate::ports::PortRng;
use crate::ports::{Clock, PortError, Random, SecretSource, TenantStore};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::HeaderMap;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use courier_core::ids::TenantId;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The caller's address, for per-source limits. The local runner has it from the
/// connection; the API Lambda puts API Gateway's `sourceIp` here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// The request's source address, if the transport told us.
pub fn client_addr(req: &Request) -> Option<IpAddr> {
    req.extensions()
        .get::<ClientAddr>()
        .map(|c| c.0)
        .or_else(|| req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip()))
}

pub use crate::domain::secrets::hash_key;
pub(crate) use courier_core::hex::encode as hex;

/// The API key of an `Authorization` value: scheme `Bearer` in any case, spaces around
/// and between trimmed. `None` when there is no usable key.
pub fn bearer_key(value: &str) -> Option<&str> {
    let (scheme, key) = value.trim().split_once(' ')?;
    let key = key.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !key.is_empty() && key.len() <= MAX_CREDENTIAL_LEN).then_some(key)
}

/// Creates a tenant and its first API key; returns the key (shown once).
pub async fn create_tenant(
    tenants: &dyn TenantStore,
    secrets: &dyn SecretSource,
    random: &dyn Random,
    clock: &dyn Clock,
    name: &str,
) -> Result<(Tenant, String), PortError> {
    let mut raw = [0u8; 32];
    secrets.fill(&mut raw);
    let key = format!("ck_{}", base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(raw));
    let tenant = Tenant {
        id: TenantId::generate(clock.now(), &mut PortRng(random)),
        name: name.to_owned(),
    };
    tenants.put_tenant_key(&hash_key(&key), &tenant).await?;
    Ok((tenant, key))
}

/// Registers a known key (e.g. a fixed development key) for a tenant.
pub async fn register_key(tenants: &dyn TenantStore, key: &str, tenant: &Tenant) -> Result<(), PortError> {
    tenants.put_tenant_key(&hash_key(key), tenant).await
}

impl Api {
    fn rate_limited(&self, wait: u64, whom: &str) -> ApiError {
        ApiError::new(
            ProblemCode::RateLimited,
            format!(
                "more than {} requests per second {whom}; retry after {wait} s",
                self.settings.rate_per_second
            ),
        )
        .with_retry_after(Some(wait))
    }

    /// Charges `key` one request.
    pub(crate) fn charge(&self, key: BucketKey, whom: &str) -> ApiResult<()> {
        let s = &self.settings;
        self.limiter
            .take(key, s.rate_per_second, s.rate_burst, self.clock.now())
            .map_err(|wait| self.rate_limited(wait, whom))
    }

    /// A failed authentication from `source`: 401, or 429 once that source has
    /// failed too often.
    pub(crate) fn refuse(&self, source: Option<IpAddr>, refusal: ApiError) -> ApiError {
        match self.charge(
            BucketKey::FailedAuth(source),
            "with failed authentication from this address",
        ) {
            Ok(()) => refusal,
            Err(limited) => limited,
        }
    }

    /// The tenant an API key names, or 401 (429 for a source that keeps failing).
    pub(crate) async fn authenticate(&self, headers: &HeaderMap, source: Option<IpAddr>) -> ApiResult<Tenant> {
        let unauthorized = || ApiError::new(ProblemCode::Unauthorized, "send `Authorization: Bearer <api key>`");
        let s = &self.settings;
        // A source that has used up its failures is not even looked up.
        if !self.limiter.has_token(
            &BucketKey::FailedAuth(source),
            s.rate_per_second,
            s.rate_burst,
            self.clock.now(),
        ) {
            return Err(self.refuse(source, unauthorized()));
        }
        let Some(key) = headers
            .get(axum::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(bearer_key)
        else {
            return Err(self.refuse(source, unauthorized()));
        };
        match self.tenants.tenant_by_key(&hash_key(key)).await? {
            Some(t) => Ok(t),
            None => Err(self.refuse(source, ApiError::new(ProblemCode::Unauthorized, "unknown API key"))),
        }
    }
}

/// Middleware of every tenant route: authenticates, then charges the tenant's bucket,
/// and hands the handler the [`Tenant`].
pub(crate) async fn require_tenant(State(api): State<Arc<Api>>, mut req: Request, next: Next) -> Response {
    let source = client_addr(&req);
    let tenant = match api.authenticate(req.headers(), source).await {
        Ok(t) => t,
        Err(e) => return e.into_response(),
    };
    if let Err(e) = api.charge(BucketKey::Tenant(tenant.id.clone()), "for this tenant") {
        return e.into_response();
    }
    req.extensions_mut().insert(tenant);
    next.run(req).await
}

/// Middleware of the completion route (authorised by a token, not a key): each
/// source address has a bucket of its own.
pub(crate) async fn limit_completions(State(api): State<Arc<Api>>, req: Request, next: Next) -> Response {
    let source = client_addr(&req);
    if let Err(e) = api.charge(BucketKey::Completion(source), "of completion reports from this address") {
        return e.into_response();
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_keys_are_read_in_every_spelling_authentication_accepts() {
        for v in ["Bearer K", "bearer K", "BEARER  K", "  Bearer K  ", "Bearer \tK"] {
            assert_eq!(bearer_key(v), Some("K"), "{v:?}");
        }
        for v in ["Bearer", "Bearer ", "Basic K", "K", ""] {
            assert_eq!(bearer_key(v), None, "{v:?}");
        }
        assert_eq!(
            bearer_key(&format!("Bearer {}", "k".repeat(MAX_CREDENTIAL_LEN + 1))),
            None
        );
    }
}
