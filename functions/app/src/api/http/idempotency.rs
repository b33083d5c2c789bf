//! `Idempotency-Key`: the header's check, the request fingerprint, and storing or
//! replaying the first answer given under a key.

use crate::api::Api;
use crate::api::http::auth::hex;
use crate::api::http::limits::{IDEMPOTENCY_TTL_SECONDS, MAX_IDEMPOTENCY_KEY};
use crate::api::http::problem::{ApiError, ApiResult};
use crate::domain::model::{IdempotencyRecord, Tenant};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use courier_core::Timestamp;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// sha256 hex, for request fingerprints.
pub fn fingerprint(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The stored key for this tenant, scope and header, and the body's fingerprint;
/// `None` without the header (a 400 when `required`).
pub(crate) fn idempotency_key(
    tenant: &Tenant,
    scope: &str,
    headers: &HeaderMap,
    body: &[u8],
    required: bool,
) -> ApiResult<Option<(String, String)>> {
    let Some(key) = headers.get("idempotency-key") else {
        return if required {
            Err(ApiError::idempotency_key_required())
        } else {
            Ok(None)
        };
    };
    let key = std::str::from_utf8(key.as_bytes()).unwrap_or("").trim();
    if key.is_empty() || key.len() > MAX_IDEMPOTENCY_KEY || !key.bytes().all(|c| c.is_ascii_graphic()) {
        return Err(ApiError::validation(format!(
            "header `Idempotency-Key` must be 1-{MAX_IDEMPOTENCY_KEY} visible ASCII characters"
        )));
    }
    Ok(Some((format!("{}#{scope}#{key}", tenant.id), fingerprint(body))))
}

/// The answer stored first under a key, given again.
pub(crate) fn replayed_answer(first: IdempotencyRecord, hash: &str) -> ApiResult<Response> {
    if first.request_hash != hash {
        return Err(ApiError::idempotency_key_reused());
    }
    let content_type = if first.status >= 400 {
        "application/problem+json"
    } else {
        "application/json"
    };
    let status = StatusCode::from_u16(first.status).unwrap_or(StatusCode::OK);
    let mut resp = (status, first.response_body).into_response();
    resp.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    resp.headers_mut()
        .insert("idempotent-replayed", HeaderValue::from_static("true"));
    Ok(resp)
}

impl Api {
    /// Stores the first answer for an Idempotency-Key; `Some` is an earlier one.
    pub(crate) async fn claim_key(
        &self,
        key: String,
        hash: String,
        answer: &Value,
        now: Timestamp,
    ) -> ApiResult<Option<IdempotencyRecord>> {
        self.claim_key_with(key, hash, 202, answer, now).await
    }

    /// Stores `status` + `answer` as the key's first answer (errors too, so a repeat of
    /// a refused call is refused the same way instead of acting later).
    pub(crate) async fn claim_key_with(
        &self,
        key: String,
        hash: String,
        status: u16,
        answer: &Value,
        now: Timestamp,
    ) -> ApiResult<Option<IdempotencyRecord>> {
        let record = IdempotencyRecord {
            key,
            request_hash: hash,
            status,
            response_body: answer.to_string(),
            created_at: now,
            expires_at: now.millis() / 1000 + IDEMPOTENCY_TTL_SECONDS,
        };
        Ok(self.idempotency.put_idempotency(&record).await?)
    }
}
