//! `POST /v1/events/batch`: up to [`MAX_EVENTS_PER_BATCH`] events in one request,
//! each ingested exactly as `POST /v1/events` would (its own optional
//! `idempotencyKey`, its own result), so one bad event never fails the others. All
//! are checked and built first; the first messages of all of them then go out
//! together through `send_batch`, ahead of the writes, and the writes are made at
//! once (crate::ingest::batch). The request reads each endpoint and event type once.

use crate::api::Api;
use crate::api::http::body::ApiJson;
use crate::api::http::idempotency::idempotency_key;
use crate::api::http::limits::MAX_EVENTS_PER_BATCH;
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::resources::events::{EventWrite, Prepared};
use crate::api::routes::{Authed, reply};
use crate::api::wire::events::{EventAccepted, EventBatchIn, EventBatchResult, EventBatchResults, EventIn};
use crate::domain::model::Tenant;
use crate::ingest::batch::{HeldQueue, send_held};
use crate::ingest::request_reads::{OnceEndpoints, OnceEventTypes};
use crate::ingest::send_ahead::send_ahead_batch;
use axum::Router;
use axum::extract::State;
use axum::http::StatusCode;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::Response;
use axum::routing;
use serde_json::{Map, Value};
use std::sync::Arc;

/// `POST /v1/events/batch`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/events/batch",
        operation_id = "createEventBatch",
        tag = "events",
        summary = r#"Send up to 100 events in one request"#,
        description = r#"Each entry of `events` is ingested exactly as `POST /v1/events` ingests its body, with its own optional `idempotencyKey` (the same keys as the `Idempotency-Key` header of `POST /v1/events`, fingerprinted over the entry without the key) and its own result: one bad entry (a bad field, an unknown endpoint, a reused key, a storage failure) never fails the others. The answer is 207 with one result per entry, in order. The first attempts of every entry are queued together (SQS `SendMessageBatch`, ten messages per call). The whole body must still fit in 320 KiB."#,
        request_body(content = crate::api::wire::events::EventBatchIn, content_type = "application/json"),
        responses(
        (status = 207, description = r#"One result per entry of `events`, in order."#, body = crate::api::wire::events::EventBatchResults),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn create(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    ApiJson { value: body, .. }: ApiJson<EventBatchIn>,
) -> ApiResult<Response> {
    let events = body
        .events
        .ok_or_else(|| ApiError::validation("field `events` is required"))?;
    if events.len() > MAX_EVENTS_PER_BATCH {
        return Err(ApiError::new(
            ProblemCode::PayloadTooLarge,
            format!(
                "field `events` lists {} events; the limit is {MAX_EVENTS_PER_BATCH}",
                events.len()
            ),
        ));
    }
    if events.is_empty() {
        return Err(ApiError::validation(format!(
            "field `events` must list 1-{MAX_EVENTS_PER_BATCH} events"
        )));
    }
    let held = Arc::new(HeldQueue::default());
    let mut holding = (*api).clone();
    holding.planner.queue = held.clone();
    // Events of one request for the same endpoints and types read them once.
    holding.endpoints = Arc::new(OnceEndpoints::new(api.endpoints.clone()));
    holding.applications = Arc::new(OnceEventTypes::new(api.applications.clone()));
    let mut results = Vec::with_capacity(events.len());
    let mut writes: Vec<(usize, Box<EventWrite>)> = Vec::new();
    for (index, event) in events.into_iter().enumerate() {
        held.start_entry(index);
        let result = match holding.prepare_one(&tenant, index, event).await {
            Ok(One::Answered(status, body)) => Answer::Stored(status, body),
            Ok(One::Write(w)) => {
                let ok = Answer::Accepted(w.answer.clone());
                writes.push((index, w));
                ok
            }
            Err(e) => Answer::Refused(e.status(), e.body()),
        };
        results.push(result);
    }
    let now = api.clock.now();
    send_ahead_batch(
        api.planner.queue.as_ref(),
        writes.iter_mut().flat_map(|(_, w)| w.deliveries.iter_mut()).collect(),
        now,
    )
    .await;
    // All at once: a message sent ahead should find its delivery written.
    let stored = futures_util::future::join_all(
        writes
            .iter()
            .map(|(_, w)| api.deliveries.create_event(&w.event, &w.deliveries)),
    )
    .await;
    for ((index, w), stored) in writes.iter().zip(stored) {
        held.start_entry(*index);
        if let Err(e) = holding.finish_write(&w.event, &w.deliveries, stored, w.now).await
            && let Some(r) = results.get_mut(*index)
        {
            *r = Answer::Refused(e.status(), e.body());
        }
    }
    let failed = send_held(api.deliveries.as_ref(), api.planner.queue.as_ref(), held.take(), now).await;
    for (index, error) in failed {
        if let Some(r) = results.get_mut(index) {
            let e = ApiError::from(error);
            *r = Answer::Refused(e.status(), e.body());
        }
    }
    let results: Vec<EventBatchResult> = results
        .into_iter()
        .enumerate()
        .map(|(index, answer)| answer.result(index))
        .collect();
    Ok(reply(StatusCode::MULTI_STATUS, &EventBatchResults { results }))
}

/// One entry's answer before it is shown: accepted now, a stored first answer (a
/// repeat of its `idempotencyKey`), or a problem.
enum Answer {
    Accepted(EventAccepted),
    Stored(u16, Value),
    Refused(u16, Value),
}

impl Answer {
    fn result(self, index: usize) -> EventBatchResult {
        let (status, accepted, problem) = match self {
            Answer::Accepted(a) => (202, Some(a), None),
            // A stored answer is one `POST /v1/events` gave: an `EventAccepted`.
            Answer::Stored(status, body) if status < 300 => (status, serde_json::from_value(body).ok(), None),
            Answer::Stored(status, body) | Answer::Refused(status, body) => (status, None, Some(body)),
        };
        EventBatchResult {
            index,
            status,
            event_id: accepted.as_ref().map(|a| a.event_id.clone()),
            deliveries: status
                .lt(&300)
                .then(|| accepted.map(|a| a.deliveries).unwrap_or_default()),
            problem,
        }
    }
}

/// A batch entry after its checks: answered already (a repeat of its
/// `idempotencyKey`), or a new event to write.
enum One {
    Answered(u16, Value),
    Write(Box<EventWrite>),
}

impl Api {
    /// One batch entry through the single-event use case up to its write: its
    /// status and answer (the same body `POST /v1/events` would give), or the write
    /// that earns its answer.
    async fn prepare_one(&self, tenant: &Tenant, index: usize, event: Value) -> ApiResult<One> {
        let Value::Object(mut fields) = event else {
            return Err(ApiError::validation(format!(
                "field `events[{index}]` must be a JSON object"
            )));
        };
        let idem = match fields.remove("idempotencyKey") {
            None => None,
            Some(Value::String(key)) => {
                let mut headers = HeaderMap::new();
                let value = HeaderValue::from_str(&key).map_err(|_| {
                    ApiError::validation(format!(
                        "field `events[{index}].idempotencyKey` must be visible ASCII characters"
                    ))
                })?;
                headers.insert("idempotency-key", value);
                // The fingerprint is the event without its key, in one canonical form.
                let canonical = serde_json::to_vec(&Value::Object(Map::from_iter(fields.clone()))).unwrap_or_default();
                idempotency_key(tenant, "events", &headers, &canonical, false).map_err(|e| {
                    ApiError::new(
                        e.problem,
                        format!("field `events[{index}].idempotencyKey`: {}", e.detail),
                    )
                })?
            }
            Some(_) => {
                return Err(ApiError::validation(format!(
                    "field `events[{index}].idempotencyKey` must be a string"
                )));
            }
        };
        let body: EventIn = serde_path_to_error::deserialize(Value::Object(fields)).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            if path == "." || path == "?" || path.is_empty() {
                ApiError::validation(format!("field `events[{index}]`: {inner}"))
            } else {
                ApiError::validation(format!("field `events[{index}].{path}`: {inner}"))
            }
        })?;
        let prepared = self.prepare_event(tenant, body, idem).await.map_err(|e| {
            // Field names in the single-event path's refusals are the event's own.
            ApiError {
                detail: e.detail.replacen("field `", &format!("field `events[{index}]."), 1),
                ..e
            }
        })?;
        let resp = match prepared {
            Prepared::Answered(resp) => resp,
            Prepared::Write(w) => return Ok(One::Write(w)),
        };
        let status = resp.status().as_u16();
        let bytes = axum::body::to_bytes(resp.into_body(), usize::MAX)
            .await
            .map_err(|_| ApiError::unavailable("could not read the event's answer"))?;
        let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Ok(One::Answered(status, body))
    }
}

/// The routes of `/v1/events/batch`; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new().route("/v1/events/batch", routing::post(create))
}
