//! Query strings of the list routes: one parser, with a clear 400 naming the
//! parameter for anything unknown or malformed, and [`DeliveryListQuery`], the one
//! description of a page of deliveries or events the handlers pass around.

use crate::api::http::limits::{DEFAULT_PAGE, MAX_CURSOR_LEN, MAX_PAGE};
use crate::api::http::problem::{ApiError, ApiResult};
use crate::domain::model::DeliveryStatus;
use crate::domain::model::{Delivery, EventRecord, Page};
use crate::ports::{DeliveryStore, PortResult};
use courier_core::Timestamp;
use courier_core::ids::{EndpointId, TenantId};

/// Which page of a list: filters, time window, cursor and page size. The store
/// traits still take these as separate arguments; [`DeliveryListQuery::deliveries`]
/// and [`DeliveryListQuery::events`] are the one place that spreads them out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryListQuery {
    pub status: Option<String>,
    pub endpoint_id: Option<EndpointId>,
    pub since: Option<Timestamp>,
    pub until: Option<Timestamp>,
    pub cursor: Option<String>,
    pub limit: u32,
}

impl DeliveryListQuery {
    /// The first page of `limit`, no filter.
    pub fn first(limit: u32) -> Self {
        DeliveryListQuery {
            limit,
            ..DeliveryListQuery::default()
        }
    }

    pub async fn deliveries(&self, store: &dyn DeliveryStore, endpoint: &EndpointId) -> PortResult<Page<Delivery>> {
        store
            .list_deliveries(
                endpoint,
                self.status.as_deref(),
                self.since,
                self.until,
                self.cursor.as_deref(),
                self.limit,
            )
            .await
    }

    pub async fn events(&self, store: &dyn DeliveryStore, tenant: &TenantId) -> PortResult<Page<EventRecord>> {
        store
            .list_events(
                tenant,
                self.endpoint_id.as_ref(),
                self.since,
                self.until,
                self.cursor.as_deref(),
                self.limit,
            )
            .await
    }
}

/// `key=value` pairs of a query string, percent-decoded (`+` is a space).
pub fn query_params(query: Option<&str>) -> Vec<(String, String)> {
    query
        .unwrap_or("")
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

fn percent_decode(s: &str) -> String {
    let spaced = s.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8_lossy()
        .into_owned()
}

/// Parses a list's query string, accepting only the parameters in `allowed`.
pub fn list_query(query: Option<&str>, allowed: &[&str]) -> ApiResult<DeliveryListQuery> {
    let mut q = DeliveryListQuery::first(DEFAULT_PAGE);
    for (k, v) in query_params(query) {
        if !allowed.contains(&k.as_str()) {
            return Err(ApiError::validation(format!(
                "unknown query parameter `{k}`; allowed: {}",
                allowed.join(", ")
            )));
        }
        let time = |v: &str| {
            Timestamp::parse_rfc3339(v).map_err(|e| ApiError::validation(format!("query parameter `{k}`: {e}")))
        };
        match k.as_str() {
            "since" => q.since = Some(time(&v)?),
            "until" => q.until = Some(time(&v)?),
            "cursor" if v.len() <= MAX_CURSOR_LEN => q.cursor = Some(v),
            "cursor" => return Err(ApiError::validation("query parameter `cursor` is too long")),
            "limit" => {
                q.limit = v
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_PAGE).contains(n))
                    .ok_or_else(|| ApiError::validation(format!("query parameter `limit` must be 1-{MAX_PAGE}")))?;
            }
            "status" => {
                if DeliveryStatus::parse(&v).is_none() {
                    return Err(ApiError::validation(
                        "query parameter `status` must be one of scheduled, pending, retrying, ambiguous, succeeded, failed, dropped",
                    ));
                }
                q.status = Some(v);
            }
            "endpointId" => {
                q.endpoint_id = Some(
                    EndpointId::parse(&v)
                        .map_err(|e| ApiError::validation(format!("query parameter `endpointId`: {e}")))?,
                )
            }
            _ => {}
        }
    }
    if let (Some(s), Some(u)) = (q.since, q.until)
        && s > u
    {
        return Err(ApiError::validation("`since` must not be after `until`"));
    }
    Ok(q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_percent_decoded_and_checked() {
        let q = list_query(
            Some("limit=7&status=failed&cursor=a%2Bb+c"),
            &["limit", "status", "cursor"],
        );
        let q = q.unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(
            (q.limit, q.status.as_deref(), q.cursor.as_deref()),
            (7, Some("failed"), Some("a+b c"))
        );
        let e = list_query(Some("limit=0"), &["limit"]).err().map(|e| e.detail);
        assert_eq!(e.as_deref(), Some("query parameter `limit` must be 1-100"));
        let e = list_query(Some("x=1"), &["limit"]).err().map(|e| e.detail);
        assert_eq!(e.as_deref(), Some("unknown query parameter `x`; allowed: limit"));
    }
}
