//! Statistics routes: `GET /v1/stats`, `GET /v1/applications/{id}/stats` and
//! `GET /v1/endpoints/{id}/stats`. An endpoint's figures are its counters; an
//! application's and the tenant's are summed at read time over their endpoints (at
//! most [`MAX_SUMMED_ENDPOINTS`]).

use crate::api::Api;
use crate::api::http::portal_access::Portal;
use crate::api::http::problem::{ApiError, ApiResult};
use crate::api::http::query::query_params;
use crate::api::routes::{Authed, Id, reply};
use crate::api::wire::stats::StatsOut;
use crate::domain::model::{Endpoint, Tenant};
use crate::domain::stats::{Backlog, Granularity, MAX_SUMMED_ENDPOINTS, StatsCounts, StatsWindow};
use crate::ports::PortError;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use courier_core::Timestamp;
use courier_core::ids::EndpointId;
use futures_util::stream::{self, StreamExt, TryStreamExt};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Endpoints whose figures a tenant's or an application's sum reads at once.
const ENDPOINTS_READ_AT_ONCE: usize = 16;

/// The window a query asks for: `granularity` (default `hour`), `until` (default
/// now, never later) and `since` (default a day, or an hour of minutes, before
/// `until`), which must be within the granularity's retention.
pub fn stats_window(query: Option<&str>, now: Timestamp) -> ApiResult<StatsWindow> {
    let (mut granularity, mut since, mut until) = (Granularity::Hour, None, None);
    for (k, v) in query_params(query) {
        let time = |v: &str| {
            Timestamp::parse_rfc3339(v).map_err(|e| ApiError::validation(format!("query parameter `{k}`: {e}")))
        };
        match k.as_str() {
            "granularity" => {
                granularity = Granularity::parse(&v)
                    .ok_or_else(|| ApiError::validation("query parameter `granularity` must be `minute` or `hour`"))?
            }
            "since" => since = Some(time(&v)?),
            "until" => until = Some(time(&v)?),
            _ => {
                return Err(ApiError::validation(format!(
                    "unknown query parameter `{k}`; allowed: since, until, granularity"
                )));
            }
        }
    }
    let until = until.unwrap_or(now).min(now);
    let default_span = match granularity {
        Granularity::Minute => crate::domain::stats::HOUR_MS,
        Granularity::Hour => 24 * crate::domain::stats::HOUR_MS,
    };
    let since = since.unwrap_or_else(|| {
        until
            .plus_millis(-default_span)
            .max(StatsWindow::oldest_kept(granularity, now))
    });
    if since < StatsWindow::oldest_kept(granularity, now) {
        let kept = match granularity {
            Granularity::Minute => "2 hours",
            Granularity::Hour => "30 days",
        };
        return Err(ApiError::validation(format!(
            "query parameter `since` is past retention: {} buckets are kept {kept}",
            granularity.as_str()
        )));
    }
    if since > until {
        return Err(ApiError::validation("`since` must not be after `until` (or now)"));
    }
    Ok(StatsWindow {
        granularity,
        since,
        until,
    })
}

/// How long a summed answer is served again: an application's or tenant's figures
/// read up to two queries per endpoint, and a dashboard asks every few seconds.
pub const SUMMED_FOR_MS: i64 = 60_000;
/// Summed answers kept per process, at most.
const SUMMED_KEPT: usize = 1_000;

/// What identifies a summed answer: the tenant, the endpoints summed (a digest of
/// their ids, so a portal link's narrower scope never reads a wider answer), the
/// granularity and the window's bucket-aligned ends.
type SummedKey = (String, [u8; 32], &'static str, i64, i64);

/// Summed answers of this process, each with the instant it was computed.
fn summed_cache() -> &'static std::sync::Mutex<std::collections::HashMap<SummedKey, (Timestamp, StatsOut)>> {
    static CACHE: std::sync::OnceLock<std::sync::Mutex<std::collections::HashMap<SummedKey, (Timestamp, StatsOut)>>> =
        std::sync::OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fn summed_key(tenant: &Tenant, endpoints: &[Endpoint], window: &StatsWindow) -> SummedKey {
    use sha2::Digest as _;
    let mut ids: Vec<&str> = endpoints
        .iter()
        .take(MAX_SUMMED_ENDPOINTS)
        .map(|e| e.id.as_str())
        .collect();
    ids.sort_unstable();
    let mut h = sha2::Sha256::new();
    for id in ids {
        h.update(id.as_bytes());
        h.update([0]);
    }
    let g = window.granularity;
    (
        tenant.id.to_string(),
        h.finalize().into(),
        g.as_str(),
        g.floor(window.since).0,
        g.floor(window.until).0,
    )
}

impl Api {
    /// The answer for these endpoints' figures summed, served again for a minute.
    async fn summed_stats(&self, tenant: &Tenant, endpoints: &[Endpoint], window: &StatsWindow) -> ApiResult<Response> {
        let now = self.clock.now();
        let key = summed_key(tenant, endpoints, window);
        if let Ok(cache) = summed_cache().lock()
            && let Some((at, answer)) = cache.get(&key)
            && now.0.saturating_sub(at.0) < SUMMED_FOR_MS
            && at.0 <= now.0
        {
            return Ok(reply(StatusCode::OK, answer));
        }
        let answer = self.sum_stats(tenant, endpoints, window).await?;
        if let Ok(mut cache) = summed_cache().lock() {
            if cache.len() >= SUMMED_KEPT {
                cache.retain(|_, (at, _)| now.0.saturating_sub(at.0) < SUMMED_FOR_MS);
                if cache.len() >= SUMMED_KEPT {
                    cache.clear();
                }
            }
            cache.insert(key, (now, answer.clone()));
        }
        Ok(reply(StatusCode::OK, &answer))
    }

    async fn sum_stats(&self, tenant: &Tenant, endpoints: &[Endpoint], window: &StatsWindow) -> ApiResult<StatsOut> {
        let mut buckets: BTreeMap<Timestamp, StatsCounts> = BTreeMap::new();
        let mut backlog = Backlog::default();
        if let Some(stats) = self.deliveries.stats() {
            let tenant = &tenant.id;
            let ids: Vec<EndpointId> = endpoints
                .iter()
                .take(MAX_SUMMED_ENDPOINTS)
                .map(|e| e.id.clone())
                .collect();
            // Each endpoint costs a counter query and a dozen backlog counts: read
            // one after another, a thousand endpoints would take minutes.
            let mut read = stream::iter(ids)
                .map(|id| async move {
                    let counts = stats.endpoint_stats(tenant, &id, window).await?;
                    Ok::<_, PortError>((counts, stats.backlog(tenant, &id).await?))
                })
                .buffered(ENDPOINTS_READ_AT_ONCE);
            while let Some((counts, waiting)) = read.try_next().await? {
                for (start, c) in counts {
                    buckets.entry(start).or_default().add(&c);
                }
                backlog.add(&waiting);
            }
        }
        let buckets: Vec<(Timestamp, StatsCounts)> = buckets.into_iter().collect();
        Ok(StatsOut::new(window, &buckets, &backlog))
    }

    /// The tenant's endpoints, at most [`MAX_SUMMED_ENDPOINTS`], deleted ones too
    /// (their deliveries happened).
    async fn tenant_endpoints(&self, tenant: &Tenant) -> ApiResult<Vec<Endpoint>> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_SUMMED_ENDPOINTS / 100 {
            let page = self
                .endpoints
                .list_endpoints(&tenant.id, cursor.as_deref(), 100)
                .await?;
            out.extend(page.items);
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        Ok(out)
    }
}

/// `GET /v1/stats`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/stats",
        operation_id = "getTenantStats",
        tag = "statistics",
        summary = r#"Statistics of the tenant"#,
        description = r#"Attempts by state, settled deliveries by status and attempt durations per minute or hour, summed over the tenant's endpoints (at most 1,000), and the backlog. Counted as attempts are recorded; a crash between an outcome's record and its count may lose that count. Needs an API key (a portal token gets 403 `portal_forbidden`)."#,
        params(
        ("since" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"The first bucket: the one holding this instant (RFC 3339). Default: `until` less a day (`hour`) or an hour (`minute`). Must be within retention."#),
        ("until" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"The last bucket: the one holding this instant (RFC 3339; default and at most now)."#),
        ("granularity" = Option<crate::api::wire::stats::StatsGranularity>, Query, description = r#"`minute` (kept 2 hours) or `hour` (kept 30 days, the default)."#),
    ),
        responses(
        (status = 200, description = r#"Every bucket of the window, empty ones included, their totals and the backlog now."#, body = StatsOut),
        (status = 400, description = r#"`validation_failed` naming the field: an unknown query parameter, `granularity` not `minute` or `hour`, `since` or `until` not RFC 3339, `since` past retention (minute buckets are kept 2 hours, hour buckets 30 days), or `since` after `until`."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn tenant(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let window = stats_window(query.as_deref(), api.clock.now())?;
    let endpoints = api.tenant_endpoints(&tenant).await?;
    api.summed_stats(&tenant, &endpoints, &window).await
}

/// `GET /v1/applications/{id}/stats`: a portal link's own application only, over
/// the endpoints its scope reaches.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/applications/{id}/stats",
        operation_id = "getApplicationStats",
        tag = "statistics",
        summary = r#"Statistics of an application"#,
        description = r#"The figures of `GET /v1/stats` summed over the application's endpoints (at most 1,000). A portal token reads its own application's (over the endpoints its link reaches); another application answers 404."#,
        params(
        ("id" = crate::api::openapi::schemas::ApplicationRef, Path, description = r#"The application's id (`app_...`) or its `uid`. Anything that cannot be either answers 404 like an unknown one."#),
        ("since" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"The first bucket: the one holding this instant (RFC 3339). Default: `until` less a day (`hour`) or an hour (`minute`). Must be within retention."#),
        ("until" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"The last bucket: the one holding this instant (RFC 3339; default and at most now)."#),
        ("granularity" = Option<crate::api::wire::stats::StatsGranularity>, Query, description = r#"`minute` (kept 2 hours) or `hour` (kept 30 days, the default)."#),
    ),
        responses(
        (status = 200, description = r#"Every bucket of the window, empty ones included, their totals and the backlog now."#, body = StatsOut),
        (status = 400, description = r#"`validation_failed` naming the field: an unknown query parameter, `granularity` not `minute` or `hour`, `since` or `until` not RFC 3339, `since` past retention (minute buckets are kept 2 hours, hour buckets 30 days), or `since` after `until`."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, description = r#"`not_found`: no application with this id or uid in your tenant (or not the portal link's)."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn application(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Portal(portal): Portal,
    Id(id): Id,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let app = api.load_application(&tenant, &id).await?;
    let window = stats_window(query.as_deref(), api.clock.now())?;
    let mut endpoints = api.application_endpoints(&tenant, &app).await?;
    if let Some(access) = &portal {
        endpoints.retain(|e| access.reaches(e));
    }
    api.summed_stats(&tenant, &endpoints, &window).await
}

/// `GET /v1/endpoints/{id}/stats`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/endpoints/{id}/stats",
        operation_id = "getEndpointStats",
        tag = "statistics",
        summary = r#"Statistics of an endpoint"#,
        description = r#"The endpoint's counters per minute or hour and its backlog. A portal token reads those of the endpoints in its link's scope."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
        ("since" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"The first bucket: the one holding this instant (RFC 3339). Default: `until` less a day (`hour`) or an hour (`minute`). Must be within retention."#),
        ("until" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"The last bucket: the one holding this instant (RFC 3339; default and at most now)."#),
        ("granularity" = Option<crate::api::wire::stats::StatsGranularity>, Query, description = r#"`minute` (kept 2 hours) or `hour` (kept 30 days, the default)."#),
    ),
        responses(
        (status = 200, description = r#"Every bucket of the window, empty ones included, their totals and the backlog now."#, body = StatsOut),
        (status = 400, description = r#"`validation_failed` naming the field: an unknown query parameter, `granularity` not `minute` or `hour`, `since` or `until` not RFC 3339, `since` past retention (minute buckets are kept 2 hours, hour buckets 30 days), or `since` after `until`."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, description = r#"`not_found`: no endpoint with this id in your tenant (or outside the portal link's scope)."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn endpoint(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let e = api.load_endpoint(&tenant, &id).await?;
    let window = stats_window(query.as_deref(), api.clock.now())?;
    // One endpoint's figures are its counters, read fresh every time.
    let answer = api.sum_stats(&tenant, std::slice::from_ref(&e), &window).await?;
    Ok(reply(StatusCode::OK, &answer))
}

/// The routes of the statistics of the tenant, an application and an endpoint; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/stats", routing::get(tenant))
        .route("/v1/applications/{id}/stats", routing::get(application))
        .route("/v1/endpoints/{id}/stats", routing::get(endpoint))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_default_and_refuse_past_retention() {
        let now = Timestamp::parse_rfc3339("2026-12-01T12:30:00Z").unwrap_or(Timestamp::from_millis(0));
        let w = stats_window(None, now).map_err(|e| e.detail);
        assert_eq!(
            w.map(|w| (w.granularity, w.since.to_rfc3339(), w.until.to_rfc3339())),
            Ok((
                Granularity::Hour,
                "2026-11-30T12:30:00.000Z".to_owned(),
                "2026-12-01T12:30:00.000Z".to_owned()
            ))
        );
        let e = stats_window(Some("granularity=day"), now).err().map(|e| e.detail);
        assert_eq!(
            e.as_deref(),
            Some("query parameter `granularity` must be `minute` or `hour`")
        );
        let e = stats_window(Some("granularity=minute&since=2026-12-01T10:00:00Z"), now)
            .err()
            .map(|e| e.detail);
        assert_eq!(
            e.as_deref(),
            Some("query parameter `since` is past retention: minute buckets are kept 2 hours")
        );
        let ok = stats_window(Some("granularity=minute&since=2026-12-01T10:30:00Z"), now).map(|w| w.starts().len());
        assert_eq!(ok.map_err(|e| e.detail), Ok(121));
    }
}
