//! RFC 9457 problem+json: [`ProblemCode`] owns each refusal's status, title and code,
//! and [`ApiError`] is one refusal with its detail, rendered as an axum response.

use crate::api::wire::problem::Problem;
use crate::ports::PortError;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Every kind of refusal the API answers with. The code is what clients match on; the
/// status and title follow from it, so they cannot disagree anywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemCode {
    ValidationFailed,
    Unauthorized,
    NotFound,
    MethodNotAllowed,
    Conflict,
    BreakerOpen,
    IdempotencyKeyRequired,
    IdempotencyKeyReused,
    EndpointUnsafe,
    PayloadTooLarge,
    UnsupportedMediaType,
    RateLimited,
    ServiceUnavailable,
    PayloadInvalid,
    /// A portal token asked for a route or a field its link may not touch.
    PortalForbidden,
}

impl ProblemCode {
    pub const ALL: [ProblemCode; 15] = [
        ProblemCode::ValidationFailed,
        ProblemCode::Unauthorized,
        ProblemCode::NotFound,
        ProblemCode::MethodNotAllowed,
        ProblemCode::Conflict,
        ProblemCode::BreakerOpen,
        ProblemCode::IdempotencyKeyRequired,
        ProblemCode::IdempotencyKeyReused,
        ProblemCode::EndpointUnsafe,
        ProblemCode::PayloadTooLarge,
        ProblemCode::UnsupportedMediaType,
        ProblemCode::RateLimited,
        ProblemCode::ServiceUnavailable,
        ProblemCode::PayloadInvalid,
        ProblemCode::PortalForbidden,
    ];

    pub const fn status(self) -> u16 {
        match self {
            ProblemCode::ValidationFailed | ProblemCode::IdempotencyKeyRequired => 400,
            ProblemCode::Unauthorized => 401,
            ProblemCode::PortalForbidden => 403,
            ProblemCode::NotFound => 404,
            ProblemCode::MethodNotAllowed => 405,
            ProblemCode::Conflict | ProblemCode::BreakerOpen => 409,
            ProblemCode::PayloadTooLarge => 413,
            ProblemCode::UnsupportedMediaType => 415,
            ProblemCode::IdempotencyKeyReused | ProblemCode::EndpointUnsafe | ProblemCode::PayloadInvalid => 422,
            ProblemCode::RateLimited => 429,
            ProblemCode::ServiceUnavailable => 503,
        }
    }

    pub const fn code(self) -> &'static str {
        match self {
            ProblemCode::ValidationFailed => "validation_failed",
            ProblemCode::Unauthorized => "unauthorized",
            ProblemCode::NotFound => "not_found",
            ProblemCode::MethodNotAllowed => "method_not_allowed",
            ProblemCode::Conflict => "conflict",
            ProblemCode::BreakerOpen => "breaker_open",
            ProblemCode::IdempotencyKeyRequired => "idempotency_key_required",
            ProblemCode::IdempotencyKeyReused => "idempotency_key_reused",
            ProblemCode::EndpointUnsafe => "endpoint_unsafe",
            ProblemCode::PayloadTooLarge => "payload_too_large",
            ProblemCode::UnsupportedMediaType => "unsupported_media_type",
            ProblemCode::RateLimited => "rate_limited",
            ProblemCode::ServiceUnavailable => "service_unavailable",
            ProblemCode::PayloadInvalid => "payload_invalid",
            ProblemCode::PortalForbidden => "portal_forbidden",
        }
    }

    pub const fn title(self) -> &'static str {
        match self {
            ProblemCode::ValidationFailed => "Validation failed",
            ProblemCode::Unauthorized => "Unauthorized",
            ProblemCode::NotFound => "Not found",
            ProblemCode::MethodNotAllowed => "Method not allowed",
            ProblemCode::Conflict => "Conflict",
            ProblemCode::BreakerOpen => "Circuit breaker open",
            ProblemCode::IdempotencyKeyRequired => "Idempotency-Key required",
            ProblemCode::IdempotencyKeyReused => "Idempotency-Key reused with another body",
            ProblemCode::EndpointUnsafe => "Endpoint URL is not allowed",
            ProblemCode::PayloadTooLarge => "Payload too large",
            ProblemCode::UnsupportedMediaType => "Unsupported media type",
            ProblemCode::RateLimited => "Rate limited",
            ProblemCode::ServiceUnavailable => "Service unavailable",
            ProblemCode::PayloadInvalid => "Payload does not match its event type's schema",
            ProblemCode::PortalForbidden => "Not allowed through a portal link",
        }
    }

    /// The problem's `type` URI.
    pub fn type_uri(self) -> String {
        format!("https://courier.dev/problems/{}", self.code().replace('_', "-"))
    }
}

/// An API refusal, rendered as problem+json.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub problem: ProblemCode,
    pub detail: String,
    pub retry_after: Option<u64>,
    /// The `Allow` header of a 405 (RFC 9110, section 15.5.6).
    pub allow: Option<String>,
    /// For `payload_invalid`: the JSON pointer of the first failing place in the
    /// payload, shown as the problem's `pointer`.
    pub pointer: Option<String>,
}

impl ApiError {
    pub fn new(problem: ProblemCode, detail: impl Into<String>) -> Self {
        ApiError {
            problem,
            detail: detail.into(),
            retry_after: None,
            allow: None,
            pointer: None,
        }
    }
    pub fn validation(detail: impl Into<String>) -> Self {
        ApiError::new(ProblemCode::ValidationFailed, detail)
    }
    pub fn not_found(what: &str) -> Self {
        ApiError::new(ProblemCode::NotFound, format!("{what} not found"))
    }
    pub fn conflict(detail: impl Into<String>) -> Self {
        ApiError::new(ProblemCode::Conflict, detail)
    }
    /// 403 `portal_forbidden`: what a portal link may not do, naming the field or route.
    pub fn portal_forbidden(detail: impl Into<String>) -> Self {
        ApiError::new(ProblemCode::PortalForbidden, detail)
    }
    pub fn unavailable(detail: impl Into<String>) -> Self {
        ApiError::new(ProblemCode::ServiceUnavailable, detail)
    }
    pub fn idempotency_key_required() -> Self {
        ApiError::new(
            ProblemCode::IdempotencyKeyRequired,
            "this call requires an Idempotency-Key header",
        )
    }
    pub fn idempotency_key_reused() -> Self {
        ApiError::new(
            ProblemCode::IdempotencyKeyReused,
            "this Idempotency-Key was used with a different request body",
        )
    }
    /// A 405 whose `Allow` header is `allow` (comma-separated); the detail names the
    /// methods besides HEAD.
    pub fn method_not_allowed(allow: &str) -> Self {
        let listed: Vec<&str> = allow.split(", ").filter(|m| *m != "HEAD").collect();
        ApiError {
            allow: Some(allow.to_owned()),
            ..ApiError::new(
                ProblemCode::MethodNotAllowed,
                format!("allowed methods: {}", listed.join(", ")),
            )
        }
    }
    /// A payload refused by its event type's schema, at `pointer`.
    pub fn payload_invalid(pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        ApiError {
            pointer: Some(pointer.into()),
            ..ApiError::new(ProblemCode::PayloadInvalid, detail)
        }
    }
    pub fn with_retry_after(mut self, seconds: Option<u64>) -> Self {
        self.retry_after = seconds;
        self
    }
    pub fn status(&self) -> u16 {
        self.problem.status()
    }
    pub fn code(&self) -> &'static str {
        self.problem.code()
    }
    /// The problem+json document.
    pub fn problem_document(&self) -> Problem {
        Problem {
            type_uri: self.problem.type_uri(),
            title: self.problem.title(),
            status: self.problem.status(),
            code: self.problem.code(),
            detail: self.detail.clone(),
            retry_after_seconds: self.retry_after,
            pointer: self.pointer.clone(),
        }
    }
    /// The problem+json document as JSON.
    pub fn body(&self) -> serde_json::Value {
        serde_json::to_value(self.problem_document()).unwrap_or(serde_json::Value::Null)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::to_vec(&self.problem_document()).unwrap_or_default();
        let status = StatusCode::from_u16(self.problem.status()).unwrap_or(StatusCode::SERVICE_UNAVAILABLE);
        let mut resp = (status, body).into_response();
        let headers = resp.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        if let Some(ra) = self.retry_after {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(ra));
        }
        if let Some(allow) = self.allow.as_deref().and_then(|a| HeaderValue::from_str(a).ok()) {
            headers.insert(header::ALLOW, allow);
        }
        resp
    }
}

impl From<PortError> for ApiError {
    fn from(e: PortError) -> Self {
        if matches!(e, PortError::BadCursor) {
            // Sent back by the caller, so the caller's to fix: a 503 would have it
            // retry the same cursor for ever.
            return ApiError::validation(
                "query parameter `cursor` is not one this list returned (lists with other filters or time windows have cursors of their own); list again without it",
            );
        }
        tracing::error!(error = %e, "storage failure behind the API");
        ApiError::unavailable("a backing service is unavailable; retry later").with_retry_after(Some(1))
    }
}

impl From<crate::ports::SealError> for ApiError {
    fn from(e: crate::ports::SealError) -> Self {
        tracing::error!(error = %e, "endpoint credentials could not be sealed");
        ApiError::unavailable("the key service that seals endpoint credentials is unavailable; retry later")
            .with_retry_after(Some(1))
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_own_status_title_and_type() {
        let mut codes = std::collections::BTreeSet::new();
        for p in ProblemCode::ALL {
            assert!(codes.insert(p.code()), "{} twice", p.code());
            assert!((400..600).contains(&p.status()));
            assert!(!p.title().is_empty());
            assert_eq!(
                p.type_uri(),
                format!("https://courier.dev/problems/{}", p.code().replace('_', "-"))
            );
        }
        assert_eq!(ProblemCode::PayloadTooLarge.status(), 413);
        assert_eq!(ProblemCode::BreakerOpen.status(), 409);
    }

    #[test]
    fn a_405_carries_the_allow_header_and_retry_after_is_a_header_too() {
        let r = ApiError::method_not_allowed("GET, POST").into_response();
        assert_eq!(r.status(), 405);
        assert_eq!(r.headers()[header::ALLOW], "GET, POST");
        assert_eq!(r.headers()[header::CONTENT_TYPE], "application/problem+json");
        let r = ApiError::new(ProblemCode::RateLimited, "slow down")
            .with_retry_after(Some(3))
            .into_response();
        assert_eq!(r.headers()[header::RETRY_AFTER], "3");
    }
}
