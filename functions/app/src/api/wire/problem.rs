//! The RFC 9457 problem document every refusal answers with.

use serde::Serialize;

/// An RFC 9457 problem document; every error answers one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "type": "https://courier.dev/problems/validation-failed",
    "title": "Validation failed",
    "status": 400,
    "code": "validation_failed",
    "detail": "field `url` is required"
})))]
pub struct Problem {
    /// `https://courier.dev/problems/<code with dashes>`.
    #[serde(rename = "type")]
    pub type_uri: String,
    /// A short summary of the code.
    pub title: &'static str,
    /// The HTTP status, repeated.
    pub status: u16,
    /// Machine-readable reason (`validation_failed`, `not_found`, ...).
    pub code: &'static str,
    /// What was wrong, naming the field, header, parameter or limit at fault.
    pub detail: String,
    /// With `rate_limited` and `service_unavailable`: seconds to wait, as `Retry-After`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_seconds: Option<u64>,
    /// With `payload_invalid`: the JSON pointer of the first failing place in the payload.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
}
