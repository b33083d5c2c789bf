//! The endpoint view as JSON for the portal's activity answer, and which records are
//! past their retention; every other answer is a typed `crate::api::wire` body.

use crate::api::wire::endpoints::EndpointOut;
pub use crate::api::wire::endpoints::endpoint_status;
use crate::domain::model::Endpoint;
use courier_core::Timestamp;
use serde_json::Value;

/// An endpoint as the API shows it ([`EndpointOut`]), as JSON for the callers that
/// still read it so.
pub fn endpoint_view(e: &Endpoint, now: Timestamp) -> Value {
    serde_json::to_value(EndpointOut::at(e, now)).unwrap_or(Value::Null)
}

pub(crate) fn expired(expires_at: Option<i64>, now: Timestamp) -> bool {
    expires_at.is_some_and(|t| t * 1000 <= now.millis())
}
