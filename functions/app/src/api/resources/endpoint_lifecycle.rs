//! An endpoint's lifecycle: disable, enable (optionally replaying what it missed),
//! revoke, secret rotation and test events.

use crate::api::Api;
use crate::api::http::body::ApiJson;
use crate::api::http::idempotency::idempotency_key;
use crate::api::http::limits::{DEFAULT_GRACE_SECONDS, MAX_GRACE_SECONDS};
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::resources::resend::{KeyedReplay, time_field};
use crate::api::routes::{Authed, Id, reply};
use crate::api::wire::endpoints::{
    EnableEndpoint, EndpointEnabled, EndpointOut, EndpointWithSecret, RotateSecret, TestAccepted, endpoint_status,
};
use crate::domain::delivery_message::Trigger;
use crate::domain::model::{DeliveryStatus, EndpointState, SecretRecord, SecretState};
use crate::fanout::operational::Notice;
use crate::ingest::{self, NewEvent};
use crate::ports::PortRng;
use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use courier_core::health::{HealthEvent, SmartHealth};
use courier_core::ids::EventId;
use courier_core::operational::{DisableCause, OperationalType};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// `POST /v1/endpoints/{id}/disable`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/endpoints/{id}/disable",
        operation_id = "disableEndpoint",
        tag = "endpoints",
        summary = r#"Disable an endpoint"#,
        description = r#"Stops sending to the endpoint until it is enabled again. Takes no body."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The endpoint, now `disabled`."#, body = crate::api::wire::endpoints::EndpointOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn disable(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let changed = AtomicBool::new(false);
    let e = api
        .modify_endpoint(&tenant, &id, |e, _| match e.state {
            EndpointState::Revoked => Err(ApiError::conflict("a revoked endpoint cannot be disabled")),
            _ => {
                changed.store(e.state != EndpointState::Disabled, Ordering::Relaxed);
                e.state = EndpointState::Disabled;
                Ok(())
            }
        })
        .await?;
    let now = api.clock.now();
    if changed.load(Ordering::Relaxed) {
        let notice = Notice::disabled(&e, DisableCause::ByHand, e.updated_at, now);
        api.notifier(&headers).emit_or_warn(&notice).await;
    }
    Ok(reply(StatusCode::OK, &EndpointOut::at(&e, now)))
}

/// `POST /v1/endpoints/{id}/revoke`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/endpoints/{id}/revoke",
        operation_id = "revokeEndpoint",
        tag = "endpoints",
        summary = r#"Revoke an endpoint"#,
        description = r#"Permanently stops the endpoint: nothing more is sent and it cannot be enabled again. Takes no body."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The endpoint, now `revoked`."#, body = crate::api::wire::endpoints::EndpointOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn revoke(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let was_live = AtomicBool::new(false);
    let e = api
        .modify_endpoint(&tenant, &id, |e, _| {
            was_live.store(e.state != EndpointState::Revoked, Ordering::Relaxed);
            e.state = EndpointState::Revoked;
            Ok(())
        })
        .await?;
    // A revoked endpoint no longer counts toward its application's most.
    if was_live.load(Ordering::Relaxed)
        && let Some(app) = &e.application_id
    {
        api.release_endpoint_slot(&tenant, app).await?;
    }
    Ok(reply(StatusCode::OK, &EndpointOut::at(&e, api.clock.now())))
}

/// `POST /v1/endpoints/{id}/enable`, with `replaySince` re-sending what the endpoint
/// missed meanwhile.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/endpoints/{id}/enable",
        operation_id = "enableEndpoint",
        tag = "endpoints",
        summary = r#"Enable an endpoint"#,
        description = r#"Makes a disabled (or SmartChat-paused/disabled) endpoint active again. With `replaySince`, the endpoint's events from then until now are sent again (as with replay); `replayed` counts them. The body may be omitted. With `replaySince` and an `Idempotency-Key`, a repeat of the call (same key, same body) finishes a replay that failed part-way (a 503) instead of starting another: every event is re-sent once."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
        ("Idempotency-Key" = Option<crate::api::openapi::schemas::IdempotencyKey>, Header, description = r#"1-255 visible ASCII characters. The same key with the same body within 24 hours answers the first answer (with `Idempotent-Replayed: true`) and creates nothing; with another body it answers 422."#),
    ),
        request_body(content = Option<crate::api::wire::endpoints::EnableEndpoint>, content_type = "application/json"),
        responses(
        (status = 200, description = r#"The endpoint, now active."#, body = crate::api::wire::endpoints::EndpointEnabled),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 422, response = crate::api::openapi::responses::Unprocessable),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn enable(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    headers: HeaderMap,
    ApiJson { value: body, raw }: ApiJson<EnableEndpoint>,
) -> ApiResult<Response> {
    // Optional: with it, a repeat of an enable whose replay failed part-way finishes
    // that replay instead of starting another.
    let idem = idempotency_key(&tenant, &format!("enable#{id}"), &headers, &raw, false)?;
    let since = match &body.replay_since {
        Some(s) => Some(api.replay_window(time_field("replaySince", s)?, None)?),
        None => None,
    };
    let changed = AtomicBool::new(false);
    let e = api
        .modify_endpoint(&tenant, &id, |e, now| {
            if e.state == EndpointState::Revoked {
                return Err(ApiError::conflict("a revoked endpoint cannot be enabled"));
            }
            let held = e.state != EndpointState::Active || endpoint_status(e, now) != "active";
            changed.store(held, Ordering::Relaxed);
            e.state = EndpointState::Active;
            if let Some(rules) = e.policy.health.smart_rules() {
                let h = e.health.unwrap_or_else(|| SmartHealth::new(now));
                e.health = Some(h.apply(rules, HealthEvent::Enable, now));
            }
            Ok(())
        })
        .await?;
    let now = api.clock.now();
    if changed.load(Ordering::Relaxed) {
        let notice =
            Notice::endpoint(OperationalType::EndpointEnabled, &e, e.updated_at, now).with("state", json!("active"));
        api.notifier(&headers).emit_or_warn(&notice).await;
    }
    let mut answer = EndpointEnabled {
        endpoint: EndpointOut::at(&e, now),
        replayed: None,
    };
    if let Some((since, until)) = since {
        answer.replayed = Some(match idem {
            None => json!(api.replay_range(&e, since, until, now).await?),
            Some(idem) => match api.replay_keyed(&e, since, until, idem, now).await? {
                KeyedReplay::First(answer) => answer["replayed"].clone(),
                KeyedReplay::Repeat(first) => serde_json::from_str::<Value>(&first.response_body)
                    .ok()
                    .and_then(|v| v.get("replayed").cloned())
                    .unwrap_or(Value::Null),
            },
        });
    }
    Ok(reply(StatusCode::OK, &answer))
}

/// `POST /v1/endpoints/{id}/secrets/rotate`: a new active secret; the current one
/// keeps signing (as well) until the grace period ends.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/endpoints/{id}/secrets/rotate",
        operation_id = "rotateSecret",
        tag = "endpoints",
        summary = r#"Rotate the signing secret"#,
        description = r#"Creates a new active signing secret (returned once, in `secret`). The previous active secret becomes `retiring`: requests keep carrying a signature made with it too until `graceSeconds` have passed. The body may be omitted."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
    ),
        request_body(content = Option<crate::api::wire::endpoints::RotateSecret>, content_type = "application/json"),
        responses(
        (status = 200, description = r#"The endpoint with its new secret."#, body = crate::api::wire::endpoints::EndpointWithSecret),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn rotate_secret(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    ApiJson { value: body, .. }: ApiJson<RotateSecret>,
) -> ApiResult<Response> {
    let grace = body.grace_seconds.unwrap_or(DEFAULT_GRACE_SECONDS);
    if grace > MAX_GRACE_SECONDS {
        return Err(ApiError::validation(format!(
            "field `graceSeconds` must be at most {MAX_GRACE_SECONDS}"
        )));
    }
    let text = api.new_secret()?.to_text();
    let e = api
        .modify_endpoint(&tenant, &id, |e, now| {
            if e.state == EndpointState::Revoked {
                return Err(ApiError::conflict("a revoked endpoint has no secrets to rotate"));
            }
            // Expired retiring secrets are dropped; the current active one retires.
            e.secrets
                .retain(|s| s.state == SecretState::Active || s.expires_at.is_some_and(|x| now < x));
            for s in e.secrets.iter_mut().filter(|s| s.state == SecretState::Active) {
                s.state = SecretState::Retiring;
                s.expires_at = Some(now.plus_secs(grace as i64));
            }
            e.secrets.push(SecretRecord {
                secret: text.as_str().into(),
                state: SecretState::Active,
                created_at: now,
                expires_at: None,
            });
            Ok(())
        })
        .await?;
    let answer = EndpointWithSecret {
        endpoint: EndpointOut::at(&e, api.clock.now()),
        secret: text,
    };
    Ok(reply(StatusCode::OK, &answer))
}

/// `POST /v1/endpoints/{id}/test`: a `courier.test` event to this endpoint only.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/endpoints/{id}/test",
        operation_id = "testEndpoint",
        tag = "endpoints",
        summary = r#"Send a test event"#,
        description = r#"Sends a `courier.test` event (trigger `test`, payload `{"test": true}`) right away, whatever the endpoint's health (only an open circuit breaker refuses it); its outcome never changes that health. Takes no body."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 202, description = r#"The test event was queued."#, body = crate::api::wire::endpoints::TestAccepted),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn test(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let e = api.load_endpoint(&tenant, &id).await?;
    let now = api.clock.now();
    if e.breaker.is_some_and(|b| b.is_open(now)) {
        let until = e.breaker.and_then(|b| b.at(now).open_until);
        return Err(ApiError::new(
            ProblemCode::BreakerOpen,
            "the endpoint's circuit breaker is open; test events are refused until it resets",
        )
        .with_retry_after(until.map(|u| (u.millis_since(now).max(0) as u64).div_ceil(1000))));
    }
    let new = NewEvent {
        event_id: EventId::generate(now, &mut PortRng(api.random.as_ref())),
        event_type: Some("courier.test".into()),
        payload: json!({"test": true}),
        planned_at: None,
        endpoints: std::slice::from_ref(&e),
        trigger: Trigger::Test,
        webhook_ids: None,
        delivery_ids: None,
    };
    let (mut event, mut deliveries) = ingest::build(&new, now, api.random.as_ref());
    // A test is sent whatever the endpoint's health: it never changes it either.
    for d in &mut deliveries {
        if d.status == DeliveryStatus::Dropped {
            d.status = DeliveryStatus::Pending;
            d.dead_reason = None;
            d.settled_at = None;
            d.expires_at = None;
            d.next_attempt_at = Some(now);
        }
    }
    for t in &mut event.targets {
        t.outcome = "queued".into();
        t.reason = None;
    }
    api.pipeline().write_event(&event, &deliveries, now).await?;
    Ok(reply(
        StatusCode::ACCEPTED,
        &TestAccepted {
            event_id: event.id.to_string(),
            delivery_id: deliveries.first().map(|d| d.id.to_string()),
        },
    ))
}

/// The routes of an endpoint's lifecycle and secrets; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/endpoints/{id}/disable", routing::post(disable))
        .route("/v1/endpoints/{id}/enable", routing::post(enable))
        .route("/v1/endpoints/{id}/revoke", routing::post(revoke))
        .route("/v1/endpoints/{id}/secrets/rotate", routing::post(rotate_secret))
        .route("/v1/endpoints/{id}/test", routing::post(test))
}
