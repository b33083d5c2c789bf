//! An endpoint's `rateLimit` and `maxInFlight` as the API reads them: each checked
//! on its own with a 400 naming the field, `null` on `PATCH` removing the setting.

use crate::api::http::limits::MAX_BURST;
use crate::api::http::patch::Patch;
use crate::api::http::problem::{ApiError, ApiResult};
use crate::api::wire::numbers::whole_value;
use crate::domain::model::RateLimitSetting;
use courier_core::limiter::{MAX_IN_FLIGHT, MIN_IN_FLIGHT};
use serde_json::Value;

/// `rateLimit`: `{perSecond, burst?}`, perSecond 0.1..=10000, burst 1..=100000.
pub(crate) fn rate_limit(value: Patch<&Value>) -> ApiResult<Patch<RateLimitSetting>> {
    let obj = match value {
        Patch::Keep => return Ok(Patch::Keep),
        Patch::Clear | Patch::Set(Value::Null) => return Ok(Patch::Clear),
        Patch::Set(Value::Object(o)) => o,
        Patch::Set(_) => {
            return Err(ApiError::validation(
                "field `rateLimit` must be an object {perSecond, burst?}",
            ));
        }
    };
    if let Some(k) = obj.keys().find(|k| *k != "perSecond" && *k != "burst") {
        return Err(ApiError::validation(format!("field `rateLimit.{k}` is not known")));
    }
    let per_second = obj
        .get("perSecond")
        .and_then(Value::as_f64)
        .ok_or_else(|| ApiError::validation("field `rateLimit.perSecond` must be a number"))?;
    let burst = match obj.get("burst") {
        None | Some(Value::Null) => None,
        Some(b) => Some(whole_value(b).filter(|b| (1..=MAX_BURST).contains(b)).ok_or_else(|| {
            ApiError::validation(format!(
                "field `rateLimit.burst` must be a whole number from 1 to {MAX_BURST}"
            ))
        })?),
    };
    let setting = RateLimitSetting { per_second, burst };
    setting
        .limit()
        .map_err(|e| ApiError::validation(format!("field `{}` {}", e.field, e.reason)))?;
    Ok(Patch::Set(setting))
}

/// `maxInFlight`: a whole number 1..=1000.
pub(crate) fn max_in_flight(value: Patch<&Value>) -> ApiResult<Patch<u32>> {
    match value {
        Patch::Keep => Ok(Patch::Keep),
        Patch::Clear | Patch::Set(Value::Null) => Ok(Patch::Clear),
        Patch::Set(v) => whole_value(v)
            .filter(|n| (u64::from(MIN_IN_FLIGHT)..=u64::from(MAX_IN_FLIGHT)).contains(n))
            .map(|n| Patch::Set(n as u32))
            .ok_or_else(|| {
                ApiError::validation(format!(
                    "field `maxInFlight` must be a whole number from {MIN_IN_FLIGHT} to {MAX_IN_FLIGHT}"
                ))
            }),
    }
}

/// The endpoint and portal wire types state the limits the handlers enforce, with
/// the values they use (a derive takes only literals).
#[cfg(all(test, feature = "openapi"))]
mod tests {
    use crate::api::http::limits::{
        DEFAULT_GRACE_SECONDS, MAX_DESCRIPTION, MAX_FAILING_AFTER, MAX_GRACE_SECONDS, MAX_LONG_RUNNING_SECONDS,
        MAX_TIMEOUT_MS, MAX_URL_LEN, MIN_TIMEOUT_MS,
    };
    use crate::api::resources::endpoint_connectivity::{MAX_CA_BUNDLE, MAX_CLIENT_SECRET, MAX_OAUTH_TEXT, MAX_PEM};
    use crate::api::resources::endpoint_headers::{MAX_HEADER_NAME, MAX_HEADER_VALUE, MAX_HEADERS};
    use crate::api::resources::portal::{DEFAULT_PORTAL_TTL_SECS, MAX_PORTAL_ENDPOINTS, MAX_PORTAL_TTL_SECS};
    use crate::api::wire::endpoint_settings::{AuthIn, HeaderIn, TlsIn};
    use crate::api::wire::endpoints::{EndpointIn, EndpointOut, EndpointPatch, RotateSecret};
    use crate::api::wire::portal::{ApplicationPortalLinkIn, PortalLinkIn};
    use courier_core::limiter::{MAX_IN_FLIGHT, MIN_IN_FLIGHT};
    use serde_json::{Value, json};
    use utoipa::PartialSchema;

    fn props<T: PartialSchema>() -> Value {
        serde_json::to_value(T::schema()).unwrap_or_default()["properties"].clone()
    }

    #[test]
    fn endpoint_bodies_state_the_enforced_limits() {
        for p in [props::<EndpointIn>(), props::<EndpointPatch>()] {
            assert_eq!(p["url"]["maxLength"], json!(MAX_URL_LEN));
            assert_eq!(p["description"]["maxLength"], json!(MAX_DESCRIPTION));
            assert_eq!(p["timeoutMs"]["minimum"], json!(MIN_TIMEOUT_MS));
            assert_eq!(p["timeoutMs"]["maximum"], json!(MAX_TIMEOUT_MS));
            assert_eq!(
                p["longRunningAllowanceSeconds"]["maximum"],
                json!(MAX_LONG_RUNNING_SECONDS)
            );
            assert_eq!(p["failingAfter"]["maximum"], json!(MAX_FAILING_AFTER));
            assert_eq!(p["maxInFlight"]["minimum"], json!(MIN_IN_FLIGHT));
            assert_eq!(p["maxInFlight"]["maximum"], json!(MAX_IN_FLIGHT));
            assert_eq!(p["headers"]["maxItems"], json!(MAX_HEADERS));
        }
        let out = props::<EndpointOut>();
        assert_eq!(out["maxInFlight"]["maximum"], json!(MAX_IN_FLIGHT));
        assert_eq!(out["failingAfter"]["maximum"], json!(MAX_FAILING_AFTER));
        assert_eq!(
            out["failingAfter"]["default"],
            json!(courier_core::operational::DEFAULT_FAILING_AFTER)
        );
        let header = props::<HeaderIn>();
        assert_eq!(header["name"]["maxLength"], json!(MAX_HEADER_NAME));
        assert_eq!(header["value"]["maxLength"], json!(MAX_HEADER_VALUE));
        let auth = props::<AuthIn>();
        assert_eq!(auth["tokenUrl"]["maxLength"], json!(MAX_URL_LEN));
        for f in ["clientId", "scope", "audience"] {
            assert_eq!(auth[f]["maxLength"], json!(MAX_OAUTH_TEXT), "{f}");
        }
        assert_eq!(auth["clientSecret"]["maxLength"], json!(MAX_CLIENT_SECRET));
        let tls = props::<TlsIn>();
        assert_eq!(tls["clientCertificate"]["maxLength"], json!(MAX_PEM));
        assert_eq!(tls["clientKey"]["maxLength"], json!(MAX_PEM));
        assert_eq!(tls["caBundle"]["maxLength"], json!(MAX_CA_BUNDLE));
        let rotate = props::<RotateSecret>();
        assert_eq!(rotate["graceSeconds"]["maximum"], json!(MAX_GRACE_SECONDS));
        assert_eq!(rotate["graceSeconds"]["default"], json!(DEFAULT_GRACE_SECONDS));
    }

    #[test]
    fn portal_link_bodies_state_the_enforced_limits() {
        let link = props::<PortalLinkIn>();
        let app_link = props::<ApplicationPortalLinkIn>();
        for ttl in [
            &link["ttlSeconds"],
            &link["expiresInSeconds"],
            &app_link["expiresInSeconds"],
        ] {
            assert_eq!(ttl["maximum"], json!(MAX_PORTAL_TTL_SECS));
            assert_eq!(ttl["default"], json!(DEFAULT_PORTAL_TTL_SECS));
        }
        assert_eq!(link["endpointIds"]["maxItems"], json!(MAX_PORTAL_ENDPOINTS));
        assert_eq!(app_link["endpointIds"]["maxItems"], json!(MAX_PORTAL_ENDPOINTS));
    }
}
