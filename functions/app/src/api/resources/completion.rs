//! `POST /v1/attempts/{attemptId}/complete`: a receiver reports the long-running work
//! it accepted with 202. The `webhook-completion-token` sent with the attempt names the
//! delivery and proves the caller got that attempt; it is checked before anything
//! else, in constant time, and every bad token gets the same answer whether or not
//! the delivery it names exists.

use crate::api::Api;
use crate::api::http::auth::{client_addr, hash_key};
use crate::api::http::body::parse_json;
use crate::api::http::limits::{MAX_COMPLETION_DETAIL, MAX_CREDENTIAL_LEN};
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::resources::endpoints::id_from_path;
use crate::api::routes::{Id, reply};
use crate::api::wire::deliveries::{AttemptOut, CompleteIn, CompletionOutcome, CompletionRecorded, DeliveryOut};
use crate::delivery::{AttemptDone, Recorder, StepError, StepOutcome};
use crate::domain::delivery_message::DeliveryMessage;
use crate::domain::model::{AwaitingCompletion, Delivery};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use courier_core::ids::{AttemptId, DeliveryId};
use serde_json::json;
use std::sync::Arc;
use subtle::ConstantTimeEq;

pub use courier_core::headers::HEADER_COMPLETION_TOKEN;

/// Compared against when the token names no waiting attempt, so that path does the
/// same work as a real comparison.
const NO_HASH: &str = "0000000000000000000000000000000000000000000000000000000000000000";

/// What the presented token proves.
enum Token {
    /// It is the token of the attempt the delivery waits on.
    Waiting(Box<Delivery>, AwaitingCompletion),
    /// It was the token of an attempt already reported.
    Spent,
    Bad,
}

fn unauthorized() -> ApiError {
    ApiError::new(
        ProblemCode::Unauthorized,
        "send the `webhook-completion-token` header received with the attempt",
    )
}

fn hashes_match(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// The record of a token once used, so a repeated report is told it came twice
/// (409) while a forged one is not told anything (401).
fn spent_key(delivery: &DeliveryId, token_hash: &str) -> String {
    format!("complete#{delivery}#{token_hash}")
}

/// The route's handler: the token first (401 for any bad one), then the id, then
/// the body, then whether the attempt still waits.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/attempts/{attemptId}/complete",
        operation_id = "completeAttempt",
        tag = "receivers",
        summary = r#"Report long-running work"#,
        description = r#"Called by a receiver, not with an API key: it answered an attempt with 202 to say the work goes on, and reports the result here before the endpoint's long-running allowance ends, authorised by the `webhook-completion-token` header that came with that attempt. The report settles the attempt as the policy decides (success, or a failure that may be retried)."#,
        params(
        ("attemptId" = crate::api::openapi::schemas::AttemptId, Path, description = r#"The id the receiver got in `webhook-attempt-id`."#),
        ("webhook-completion-token" = crate::api::openapi::schemas::CompletionToken, Header, description = r#"The token received in the attempt's `webhook-completion-token` header (at most 256 characters)."#),
    ),
        request_body(content = crate::api::wire::deliveries::CompleteIn, content_type = "application/json"),
        responses(
        (status = 200, description = r#"The report was recorded."#, body = crate::api::wire::deliveries::CompletionRecorded),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
        security(()),
    )
)]
pub(crate) async fn complete(State(api): State<Arc<Api>>, Id(raw_attempt): Id, req: Request) -> ApiResult<Response> {
    let source = client_addr(&req);
    let token = req
        .headers()
        .get(HEADER_COMPLETION_TOKEN)
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= MAX_CREDENTIAL_LEN)
        .map(str::to_owned);
    let headers = req.headers().clone();
    let body = axum::body::to_bytes(req.into_body(), crate::api::http::limits::MAX_BODY_BYTES)
        .await
        .unwrap_or_else(|_| Bytes::new());
    let Some(token) = token else {
        return Err(api.refuse(source, unauthorized()));
    };
    let verdict = match api.check_token(&token).await? {
        Token::Bad => return Err(api.refuse(source, unauthorized())),
        good => good,
    };
    let attempt_id = id_from_path(&raw_attempt, AttemptId::parse, "attempt")?;
    let body: CompleteIn = parse_json(&headers, &body)?;
    if body
        .detail
        .as_ref()
        .is_some_and(|d| d.chars().count() > MAX_COMPLETION_DETAIL)
    {
        return Err(ApiError::validation(format!(
            "field `detail` is longer than {MAX_COMPLETION_DETAIL} characters"
        )));
    }
    let (delivery, aw) = match verdict {
        Token::Waiting(d, aw) => (*d, aw),
        _ => {
            return Err(ApiError::conflict(
                "this attempt is not waiting for a completion report (already reported or timed out)",
            ));
        }
    };
    if aw.attempt_id != attempt_id {
        return Err(ApiError::not_found("attempt"));
    }
    api.record_completion(delivery, aw, &token, body).await
}

impl Api {
    /// Reads the delivery the token names and compares the token's hash with the
    /// waiting attempt's, in constant time. A token that does not match is looked up
    /// among spent ones only when its delivery exists and waits for nothing.
    async fn check_token(&self, token: &str) -> ApiResult<Token> {
        let hash = hash_key(token);
        let delivery = match token.split_once('.').and_then(|(d, _)| DeliveryId::parse(d).ok()) {
            Some(id) => self.deliveries.get_delivery(&id).await?,
            None => None,
        };
        let expected = delivery
            .as_ref()
            .and_then(|d| d.awaiting.as_ref())
            .map_or(NO_HASH, |aw| aw.token_hash.as_str());
        let matches = hashes_match(&hash, expected);
        match delivery {
            Some(d) if matches => match d.awaiting.clone() {
                Some(aw) => Ok(Token::Waiting(Box::new(d), aw)),
                None => Ok(Token::Bad),
            },
            Some(d) if d.awaiting.is_none() => {
                // Only a token that was spent has a record under its own hash. A read:
                // an unauthenticated caller must not make the table write.
                let probe = self.idempotency.get_idempotency(&spent_key(&d.id, &hash)).await?;
                Ok(match probe {
                    Some(first) if first.status == 200 && hashes_match(&first.request_hash, &hash) => Token::Spent,
                    _ => Token::Bad,
                })
            }
            _ => Ok(Token::Bad),
        }
    }

    async fn record_completion(
        &self,
        delivery: Delivery,
        aw: AwaitingCompletion,
        token: &str,
        body: CompleteIn,
    ) -> ApiResult<Response> {
        let endpoint = self
            .endpoints
            .get_endpoint(&delivery.tenant_id, &delivery.endpoint_id)
            .await?
            .ok_or_else(|| ApiError::not_found("endpoint"))?;
        let now = self.clock.now();
        // Spent before it is used: a report repeated after this one gets 409.
        self.claim_key_with(
            spent_key(&delivery.id, &aw.token_hash),
            hash_key(token),
            200,
            &json!({}),
            now,
        )
        .await?;
        let message = DeliveryMessage {
            v: 1,
            delivery_id: delivery.id.clone(),
            tenant_id: delivery.tenant_id.clone(),
            endpoint_id: delivery.endpoint_id.clone(),
            attempt: aw.number,
            not_before: now,
            trigger: aw.trigger,
            source_attempt_id: None,
            attempt_id: Some(aw.attempt_id.clone()),
            completion_check: false,
            body: None,
        };
        let outcome = courier_core::outcome::AttemptOutcome::CompletionReported {
            succeeded: body.outcome == CompletionOutcome::Succeeded,
            detail: body.detail,
        };
        let done = AttemptDone {
            attempt_id: aw.attempt_id.clone(),
            claim_id: None,
            started: aw.started_at,
            ended: now.max(aw.started_at),
            outcome,
            duration_ms: aw.duration_ms,
            completion_token: None,
        };
        let recorder = Recorder {
            deliveries: self.deliveries.as_ref(),
            clock: self.clock.as_ref(),
            endpoints: self.endpoints.as_ref(),
            planner: &self.planner,
            random: self.random.as_ref(),
            lease_margin_ms: 0,
            message_in_hand: false,
            notify: Some(crate::fanout::operational::Notifier {
                deliveries: self.deliveries.as_ref(),
                steps: self.fanout_queue.as_ref(),
                console_url: None,
            }),
        };
        match recorder.finish(&message, &endpoint, delivery, done).await {
            Ok(StepOutcome::Attempted { attempt, delivery }) => Ok(reply(
                StatusCode::OK,
                &CompletionRecorded {
                    attempt: AttemptOut::from(attempt.as_ref()),
                    delivery: DeliveryOut::from(delivery.as_ref()),
                },
            )),
            Ok(_) => Err(ApiError::conflict(
                "the attempt was settled by another path (e.g. it timed out) while reporting",
            )),
            Err(StepError::Store(e) | StepError::Plan(e)) => Err(e.into()),
            Err(e) => Err(ApiError::unavailable(e.to_string())),
        }
    }
}

/// The routes of `/v1/attempts/{attemptId}/complete`, limited per source address; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new().route("/v1/attempts/{attemptId}/complete", routing::post(complete))
}
