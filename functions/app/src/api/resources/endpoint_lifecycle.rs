//! An endpoint's lifecycle: disable, enable (optionally replaying what it missed),
//! revoke, secret rotation and test events.

use crate::api::Api;
use crate::api::http::body::ApiJson;
use crate::api::http::idempotency::idempotency_key;
use crate::api::http::limits::{DEFAULT_GRACE_SECONDS, MAX_GRACE_SECONDS};
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::resources::resend::{KeyedReplay, time_field};
use crate::api::resources::views::{endpoint_status, endpoint_view};
use crate::api::routes::{Authed, Id, reply};
use crate::domain::delivery_message::Trigger;
use crate::domain::model::{DeliveryStatus, EndpointState, SecretRecord, SecretState};
use crate::fanout::operational::Notice;
use crate::ingest::{self, NewEvent};
use crate::ports::PortRng;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::Response;
use courier_core::health::{HealthEvent, SmartHealth};
use courier_core::ids::EventId;
use courier_core::operational::{DisableCause, OperationalType};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct EnableBody {
    replay_since: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RotateBody {
    grace_seconds: Option<u64>,
}

/// `POST /v1/endpoints/{id}/disable`
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
    Ok(reply(StatusCode::OK, &endpoint_view(&e, now)))
}

/// `POST /v1/endpoints/{id}/revoke`
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
    Ok(reply(StatusCode::OK, &endpoint_view(&e, api.clock.now())))
}

/// `POST /v1/endpoints/{id}/enable`, with `replaySince` re-sending what the endpoint
/// missed meanwhile.
pub(crate) async fn enable(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    headers: HeaderMap,
    ApiJson { value: body, raw }: ApiJson<EnableBody>,
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
    let mut view = endpoint_view(&e, now);
    if let Some((since, until)) = since {
        view["replayed"] = match idem {
            None => json!(api.replay_range(&e, since, until, now).await?),
            Some(idem) => match api.replay_keyed(&e, since, until, idem, now).await? {
                KeyedReplay::First(answer) => answer["replayed"].clone(),
                KeyedReplay::Repeat(first) => serde_json::from_str::<Value>(&first.response_body)
                    .ok()
                    .and_then(|v| v.get("replayed").cloned())
                    .unwrap_or(Value::Null),
            },
        };
    }
    Ok(reply(StatusCode::OK, &view))
}

/// `POST /v1/endpoints/{id}/secrets/rotate`: a new active secret; the current one
/// keeps signing (as well) until the grace period ends.
pub(crate) async fn rotate_secret(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    ApiJson { value: body, .. }: ApiJson<RotateBody>,
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
    let mut view = endpoint_view(&e, api.clock.now());
    view["secret"] = json!(text);
    Ok(reply(StatusCode::OK, &view))
}

/// `POST /v1/endpoints/{id}/test`: a `courier.test` event to this endpoint only.
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
        &json!({"eventId": event.id, "deliveryId": deliveries.first().map(|d| d.id.clone())}),
    ))
}
