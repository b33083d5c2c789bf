//! An endpoint's `rateLimit` and `maxInFlight` as the API reads them: each checked
//! on its own with a 400 naming the field, `null` on `PATCH` removing the setting.

use super::limits::MAX_BURST;
use super::problem::{ApiError, ApiResult};
use crate::model::RateLimitSetting;
use courier_core::limiter::{MAX_IN_FLIGHT, MIN_IN_FLIGHT};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Keeps an explicit `null` (`Some(Value::Null)`) apart from an absent field (`None`).
pub(crate) fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A change to one setting: leave it, clear it, or set it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Change<T> {
    Keep,
    Clear,
    Set(T),
}

impl<T: Copy> Change<T> {
    pub(crate) fn apply(self, current: &mut Option<T>) {
        match self {
            Change::Keep => {}
            Change::Clear => *current = None,
            Change::Set(v) => *current = Some(v),
        }
    }
}

/// `rateLimit`: `{perSecond, burst?}`, perSecond 0.1..=10000, burst 1..=100000.
pub(crate) fn rate_limit(value: Option<&Value>) -> ApiResult<Change<RateLimitSetting>> {
    let obj = match value {
        None => return Ok(Change::Keep),
        Some(Value::Null) => return Ok(Change::Clear),
        Some(Value::Object(o)) => o,
        Some(_) => {
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
    Ok(Change::Set(setting))
}

/// `maxInFlight`: a whole number 1..=1000.
pub(crate) fn max_in_flight(value: Option<&Value>) -> ApiResult<Change<u32>> {
    match value {
        None => Ok(Change::Keep),
        Some(Value::Null) => Ok(Change::Clear),
        Some(v) => v
            .as_u64()
            .filter(|n| (u64::from(MIN_IN_FLIGHT)..=u64::from(MAX_IN_FLIGHT)).contains(n))
            .map(|n| Change::Set(n as u32))
            .ok_or_else(|| {
                ApiError::validation(format!(
                    "field `maxInFlight` must be a whole number from {MIN_IN_FLIGHT} to {MAX_IN_FLIGHT}"
                ))
            }),
    }
}
