//! Request bodies: the size limit every request meets before anything reads it, and
//! [`ApiJson`], the typed JSON extractor whose refusals are problem+json naming the
//! field at fault.

use crate::api::http::limits::MAX_BODY_BYTES;
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::Value;

fn too_large(len: Option<u64>) -> ApiError {
    let detail = match len {
        Some(n) => format!("request body is {n} bytes; the limit is {MAX_BODY_BYTES}"),
        None => format!("request body is over the limit of {MAX_BODY_BYTES} bytes"),
    };
    ApiError::new(ProblemCode::PayloadTooLarge, detail)
}

/// Middleware in front of every route: a body over [`MAX_BODY_BYTES`] is refused with
/// 413 whatever its content type and whichever route it was sent to, from its
/// `Content-Length` when it says so and otherwise by reading no more than the limit.
pub(crate) async fn limit_body(req: Request, next: Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = declared
        && n > MAX_BODY_BYTES as u64
    {
        return too_large(Some(n)).into_response();
    }
    let (parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_BODY_BYTES).await {
        Ok(b) => b,
        Err(_) => return too_large(None).into_response(),
    };
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

/// A JSON object body decoded into `T`, with the raw bytes kept for request
/// fingerprints (Idempotency-Key). An empty body reads as `{}`; a body without a
/// content type is read as JSON; any other content type than JSON is 415.
pub struct ApiJson<T> {
    pub value: T,
    pub raw: Bytes,
}

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let headers = req.headers().clone();
        let raw = Bytes::from_request(req, state).await.map_err(|_| too_large(None))?;
        let value = parse_json(&headers, &raw)?;
        Ok(ApiJson { value, raw })
    }
}

/// Content-type check, then JSON, then `T` (serde's path names the field).
pub fn parse_json<T: DeserializeOwned>(headers: &HeaderMap, body: &[u8]) -> ApiResult<T> {
    if body.len() > MAX_BODY_BYTES {
        return Err(too_large(Some(body.len() as u64)));
    }
    if let Some(ct) = headers.get(header::CONTENT_TYPE) {
        let ct = String::from_utf8_lossy(ct.as_bytes());
        let mime = ct.split(';').next().unwrap_or("").trim().to_ascii_lowercase();
        if !(mime == "application/json" || mime.ends_with("+json")) {
            return Err(ApiError::new(
                ProblemCode::UnsupportedMediaType,
                format!("content-type must be application/json, got {mime:?}"),
            ));
        }
    }
    let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        body
    };
    let json: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::validation(format!("request body is not valid JSON: {e}")))?;
    if !json.is_object() {
        return Err(ApiError::validation("request body must be a JSON object"));
    }
    serde_path_to_error::deserialize(json).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if path == "." || path == "?" || path.is_empty() {
            ApiError::validation(format!("request body: {inner}"))
        } else {
            ApiError::validation(format!("field `{path}`: {inner}"))
        }
    })
}
