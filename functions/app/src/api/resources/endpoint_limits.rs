//! An endpoint's `rateLimit` and `maxInFlight` as the API reads them: each checked
//! on its own with a 400 naming the field, `null` on `PATCH` removing the setting.

use crate::api::http::limits::MAX_BURST;
use crate::api::http::patch::Patch;
use crate::api::http::problem::{ApiError, ApiResult};
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
        Some(b) => Some(b.as_u64().filter(|b| (1..=MAX_BURST).contains(b)).ok_or_else(|| {
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
        Patch::Set(v) => v
            .as_u64()
            .filter(|n| (u64::from(MIN_IN_FLIGHT)..=u64::from(MAX_IN_FLIGHT)).contains(n))
            .map(|n| Patch::Set(n as u32))
            .ok_or_else(|| {
                ApiError::validation(format!(
                    "field `maxInFlight` must be a whole number from {MIN_IN_FLIGHT} to {MAX_IN_FLIGHT}"
                ))
            }),
    }
}
