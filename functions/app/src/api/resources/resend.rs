//! Sending again: replay of a time range or of every failed delivery of an endpoint,
//! redelivery of one delivery, and redrive of a dead-lettered one. Replay and
//! redeliver require an `Idempotency-Key`, so a repeated request never sends twice.

use crate::api::Api;
use crate::api::http::auth::hex;
use crate::api::http::body::ApiJson;
use crate::api::http::idempotency::{idempotency_key, replayed_answer};
use crate::api::http::limits::{MAX_PAGE, REPLAY_MAX_DAYS, REPLAY_MAX_EVENTS};
use crate::api::http::problem::{ApiError, ApiResult};
use crate::api::http::query::DeliveryListQuery;
use crate::api::routes::{Authed, Id, reply};
use crate::api::wire::deliveries::DeliveryOut;
use crate::api::wire::resend::{RedeliverIn, RedeliveryAccepted, ReplayAccepted, ReplayDeadAccepted, ReplayIn};
use crate::domain::delivery_message::{DeliveryMessage, Trigger};
use crate::domain::model::{
    Delivery, DeliveryStatus, Endpoint, EventRecord, IdempotencyRecord, PromisedRedelivery, Tenant,
};
use crate::ingest::{self, NewEvent};
use crate::ports::PortRng;
use crate::ports::{PortError, Random};
use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, EventId};
use futures_util::stream::{self, StreamExt, TryStreamExt};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) fn time_field(name: &str, value: &str) -> ApiResult<Timestamp> {
    Timestamp::parse_rfc3339(value).map_err(|e| ApiError::validation(format!("field `{name}`: {e}")))
}

/// `POST /v1/endpoints/{id}/replay`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/endpoints/{id}/replay",
        operation_id = "replayEndpoint",
        tag = "endpoints",
        summary = r#"Replay a time range"#,
        description = r#"Sends the endpoint's events created in [`since`, `until`] again (oldest first), as new deliveries with trigger `replay` that keep the original `webhook-id`. `since` may reach at most 7 days back and the range may hold at most 10,000 events. Requires an `Idempotency-Key`: repeating it with the same body answers the first answer and replays nothing more."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
        ("Idempotency-Key" = crate::api::openapi::schemas::IdempotencyKey, Header, description = r#"Required (400 `idempotency_key_required` without it). 1-255 visible ASCII characters; the same key with the same body within 24 hours answers the first answer and starts nothing new; with another body it answers 422."#),
    ),
        request_body(content = crate::api::wire::resend::ReplayIn, content_type = "application/json"),
        responses(
        (status = 202, description = r#"The events are queued again."#, body = crate::api::wire::resend::ReplayAccepted, headers(("Idempotent-Replayed" = String, description = "`true` when this answer repeats the first one given for the same `Idempotency-Key`."))),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 422, response = crate::api::openapi::responses::Unprocessable),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn replay(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    headers: HeaderMap,
    ApiJson { value, raw }: ApiJson<ReplayIn>,
) -> ApiResult<Response> {
    api.replay(&tenant, &id, &headers, value, &raw).await
}

/// `POST /v1/endpoints/{id}/replay-dead`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/endpoints/{id}/replay-dead",
        operation_id = "replayDead",
        tag = "endpoints",
        summary = r#"Replay failed deliveries"#,
        description = r#"Sends again, once, every message with a `failed` delivery to the endpoint (test deliveries excepted), keeping its `webhook-id`: a message whose earlier replays failed as well goes out once, not once per failed try. Takes no body."#,
        params(
        ("id" = crate::api::openapi::schemas::EndpointId, Path, description = r#"The endpoint id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 202, description = r#"The failed deliveries are queued again."#, body = crate::api::wire::resend::ReplayDeadAccepted),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn replay_dead(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
) -> ApiResult<Response> {
    api.replay_dead(&tenant, &id).await
}

/// `POST /v1/deliveries/{id}/redeliver`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/deliveries/{id}/redeliver",
        operation_id = "redeliver",
        tag = "deliveries",
        summary = r#"Redeliver"#,
        description = r#"Makes one more attempt of a settled delivery (trigger `redelivery`), optionally naming the earlier attempt it follows up on (by default the last one). Requires an `Idempotency-Key`: repeating it with the same body answers the first answer and starts nothing new. The body may be omitted."#,
        params(
        ("id" = crate::api::openapi::schemas::DeliveryId, Path, description = r#"The delivery id. A malformed id answers 404 like an unknown one."#),
        ("Idempotency-Key" = crate::api::openapi::schemas::IdempotencyKey, Header, description = r#"Required (400 `idempotency_key_required` without it). 1-255 visible ASCII characters; the same key with the same body within 24 hours answers the first answer and starts nothing new; with another body it answers 422."#),
    ),
        request_body(content = Option<crate::api::wire::resend::RedeliverIn>, content_type = "application/json"),
        responses(
        (status = 202, description = r#"The new attempt is queued; `attemptId` is its id."#, body = crate::api::wire::resend::RedeliveryAccepted, headers(("Idempotent-Replayed" = String, description = "`true` when this answer repeats the first one given for the same `Idempotency-Key`."))),
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
pub(crate) async fn redeliver(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    headers: HeaderMap,
    ApiJson { value, raw }: ApiJson<RedeliverIn>,
) -> ApiResult<Response> {
    api.redeliver(&tenant, &id, &headers, value, &raw).await
}

/// `POST /v1/deliveries/{id}/redrive`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/deliveries/{id}/redrive",
        operation_id = "redrive",
        tag = "deliveries",
        summary = r#"Redrive from the dead-letter queue"#,
        description = r#"Puts a delivery whose queue message landed in the dead-letter queue (`deadLetteredAt` set) back on the queue at its next step. Takes no body."#,
        params(
        ("id" = crate::api::openapi::schemas::DeliveryId, Path, description = r#"The delivery id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 202, description = r#"The delivery, no longer dead-lettered."#, body = crate::api::wire::deliveries::DeliveryOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 409, response = crate::api::openapi::responses::Conflict),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn redrive(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    api.redrive(&tenant, &id).await
}

impl Api {
    /// Checks a replay range: since within the last 7 days, until after since.
    pub(crate) fn replay_window(
        &self,
        since: Timestamp,
        until: Option<Timestamp>,
    ) -> ApiResult<(Timestamp, Timestamp)> {
        let now = self.clock.now();
        if since < now.plus_secs(-REPLAY_MAX_DAYS * 86_400) {
            return Err(ApiError::validation(format!(
                "`since` may reach at most {REPLAY_MAX_DAYS} days back"
            )));
        }
        let until = until.unwrap_or(now).min(now);
        if since > until {
            return Err(ApiError::validation(
                "`since` must be before `until` (and not in the future)",
            ));
        }
        Ok((since, until))
    }

    /// Events of the endpoint in [since, until] that its subscription wants now (type
    /// filter and channels, as they are at replay time), oldest first, at most the
    /// limit.
    async fn events_in(&self, e: &Endpoint, since: Timestamp, until: Timestamp) -> ApiResult<Vec<EventRecord>> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let q = DeliveryListQuery {
                endpoint_id: Some(e.id.clone()),
                since: Some(since),
                until: Some(until),
                cursor: cursor.take(),
                ..DeliveryListQuery::first(MAX_PAGE)
            };
            let page = q.events(self.deliveries.as_ref(), &e.tenant_id).await?;
            out.extend(page.items.into_iter().filter(|ev| {
                // A stepped fan-out lists no targets; the audit entry names the endpoint.
                let had_delivery = ev.targets.iter().any(|t| t.endpoint_id == e.id) || ev.fanout.is_some();
                had_delivery && crate::fanout::wants_now(e, ev)
            }));
            if out.len() > REPLAY_MAX_EVENTS {
                return Err(ApiError::validation(format!(
                    "the range holds more than {REPLAY_MAX_EVENTS} events; replay a shorter range"
                )));
            }
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        out.reverse();
        Ok(out)
    }

    /// Re-sends `events` to `e` as replay deliveries that keep the original
    /// delivery's webhook-id. With a `seed` (a keyed replay) every delivery id derives
    /// from the seed and its event, so a repeat builds the same deliveries: one that
    /// exists already is queued if it still waits for its first attempt, never
    /// created twice. Deliveries are written `at_once` at a time, started in the
    /// order of `events` (1 keeps a range's oldest-first order exactly). A failed
    /// enqueue marks that delivery and the others still go; the first error is
    /// returned once all were tried.
    async fn replay_events(
        &self,
        e: &Endpoint,
        events: &[EventRecord],
        built_at: Timestamp,
        seed: Option<&str>,
        now: Timestamp,
        at_once: usize,
    ) -> ApiResult<usize> {
        let mut built = Vec::new();
        for ev in events {
            let original = ev
                .targets
                .iter()
                .find(|t| t.endpoint_id == e.id)
                .map(|t| t.delivery_id.clone())
                .or_else(|| {
                    // A stepped fan-out's delivery id is derived, not listed.
                    ev.fanout
                        .as_ref()
                        .map(|f| crate::fanout::delivery_id(f.seed, &ev.id, &e.id, ev.created_at))
                });
            let new = NewEvent {
                event_id: ev.id.clone(),
                event_type: ev.event_type.clone(),
                payload: ev.payload.clone(),
                planned_at: None,
                endpoints: std::slice::from_ref(e),
                trigger: Trigger::Replay,
                webhook_ids: original.map(|w| vec![w]),
                delivery_ids: None,
            };
            let (_, mut deliveries) = match seed {
                Some(seed) => ingest::build(&new, built_at, &KeyedRandom::new(seed, ev.id.as_str())),
                None => ingest::build(&new, built_at, self.random.as_ref()),
            };
            // A schedule's occurrence keeps the schedule's own horizon settings; the
            // horizon counts from the replay, as for any replay.
            if let Some(o) = &ev.occurrence {
                let settings = (!o.settings.is_empty()).then_some(o.settings);
                for d in &mut deliveries {
                    d.delivery_settings = settings;
                }
            }
            built.extend(deliveries);
        }
        let pipeline = self.pipeline();
        let pipeline = &pipeline;
        let written: Vec<Result<(), PortError>> = stream::iter(built)
            .map(|d| async move { pipeline.write_delivery(&d, now).await })
            .buffered(at_once.max(1))
            .collect()
            .await;
        let mut created = 0;
        let mut first_error: Option<PortError> = None;
        for w in written {
            match w {
                Ok(()) => created += 1,
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(created), |e| Err(e.into()))
    }

    pub(crate) async fn replay_range(
        &self,
        e: &Endpoint,
        since: Timestamp,
        until: Timestamp,
        now: Timestamp,
    ) -> ApiResult<usize> {
        let events = self.events_in(e, since, until).await?;
        self.replay_events(e, &events, now, None, now, 1).await
    }

    /// Replays `[since, until]` under an Idempotency-Key. The first call stores its
    /// answer, with the seed its delivery ids derive from, before it writes; a repeat
    /// re-runs the replay the first answer describes under the same ids, so a call
    /// that failed part-way is completed and nothing is created twice. Answers the
    /// stored answer (without the seed) and whether it is a repeat.
    pub(crate) async fn replay_keyed(
        &self,
        e: &Endpoint,
        since: Timestamp,
        until: Timestamp,
        (key, hash): (String, String),
        now: Timestamp,
    ) -> ApiResult<KeyedReplay> {
        let events = self.events_in(e, since, until).await?;
        let mut raw = [0u8; 16];
        self.secrets.fill(&mut raw);
        let seed = hex(&raw);
        let answer = serde_json::to_value(ReplayAccepted {
            endpoint_id: e.id.clone(),
            since,
            until,
            replayed: events.len(),
        })
        .unwrap_or(Value::Null);
        let mut stored = answer.clone();
        stored[REPLAY_SEED] = json!(seed);
        let Some(first) = self.claim_key(key, hash.clone(), &stored, now).await? else {
            self.replay_events(e, &events, now, Some(&seed), now, 1).await?;
            return Ok(KeyedReplay::First(answer));
        };
        if first.request_hash != hash {
            return Err(ApiError::idempotency_key_reused());
        }
        let mut body: Value = serde_json::from_str(&first.response_body).unwrap_or(Value::Null);
        let window = |k: &str| {
            body.get(k)
                .and_then(Value::as_str)
                .and_then(|t| Timestamp::parse_rfc3339(t).ok())
        };
        if let (Some(seed), Some(since), Some(until)) = (
            body.get(REPLAY_SEED).and_then(Value::as_str).map(str::to_owned),
            window("since"),
            window("until"),
        ) {
            let events = self.events_in(e, since, until).await?;
            self.replay_events(e, &events, first.created_at, Some(&seed), now, 1)
                .await?;
        }
        if let Some(obj) = body.as_object_mut() {
            obj.remove(REPLAY_SEED);
        }
        Ok(KeyedReplay::Repeat(IdempotencyRecord {
            response_body: body.to_string(),
            ..first
        }))
    }

    async fn replay(
        &self,
        tenant: &Tenant,
        id: &str,
        headers: &HeaderMap,
        body: ReplayIn,
        raw: &[u8],
    ) -> ApiResult<Response> {
        let since = time_field("since", &body.since)?;
        let until = body.until.as_deref().map(|u| time_field("until", u)).transpose()?;
        let (since, until) = self.replay_window(since, until)?;
        let e = self.load_endpoint(tenant, id).await?;
        let (key, hash) = idempotency_key(tenant, &format!("replay#{}", e.id), headers, raw, true)?
            .ok_or_else(ApiError::idempotency_key_required)?;
        let now = self.clock.now();
        match self.replay_keyed(&e, since, until, (key, hash.clone()), now).await? {
            KeyedReplay::First(answer) => Ok(reply(StatusCode::ACCEPTED, &answer)),
            KeyedReplay::Repeat(first) => replayed_answer(first, &hash),
        }
    }

    async fn replay_dead(&self, tenant: &Tenant, id: &str) -> ApiResult<Response> {
        let e = self.load_endpoint(tenant, id).await?;
        let now = self.clock.now();
        let mut failed = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let q = DeliveryListQuery {
                status: Some("failed".to_owned()),
                cursor: cursor.take(),
                ..DeliveryListQuery::first(MAX_PAGE)
            };
            let page = q.deliveries(self.deliveries.as_ref(), &e.id).await?;
            failed.extend(page.items.into_iter().filter(|d| d.trigger != Trigger::Test));
            if failed.len() > REPLAY_MAX_EVENTS {
                return Err(ApiError::validation(format!(
                    "more than {REPLAY_MAX_EVENTS} failed deliveries; replay a time range instead"
                )));
            }
            match page.next_cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        // A replay keeps its message's webhook-id, so a message whose earlier replays
        // failed too is listed once per try: it goes out once per call, or calls
        // made while the receiver is down would multiply its sends.
        let mut seen = HashSet::new();
        failed.retain(|d| seen.insert(d.webhook_id.clone()));
        let (store, tenant) = (self.deliveries.as_ref(), &e.tenant_id);
        let ids: Vec<EventId> = failed.iter().map(|d| d.event_id.clone()).collect();
        let loaded: Vec<Option<EventRecord>> = stream::iter(ids)
            .map(|id| async move { store.get_event(tenant, &id).await })
            .buffered(REPLAY_DEAD_AT_ONCE)
            .try_collect()
            .await?;
        let mut events = Vec::new();
        for (d, ev) in failed.iter().zip(loaded) {
            if let Some(mut ev) = ev {
                ev.targets.retain(|t| t.endpoint_id == e.id);
                for t in &mut ev.targets {
                    t.delivery_id = d.webhook_id.clone();
                }
                events.push(ev);
            }
        }
        // No order is promised here: the writes overlap, as the reads did.
        let created = self
            .replay_events(&e, &events, now, None, now, REPLAY_DEAD_AT_ONCE)
            .await?;
        Ok(reply(
            StatusCode::ACCEPTED,
            &ReplayDeadAccepted {
                endpoint_id: e.id,
                replayed: created,
            },
        ))
    }

    async fn redeliver(
        &self,
        tenant: &Tenant,
        id: &str,
        headers: &HeaderMap,
        body: RedeliverIn,
        raw: &[u8],
    ) -> ApiResult<Response> {
        let d = self.load_delivery(tenant, id).await?;
        let (key, hash) = idempotency_key(tenant, &format!("redeliver#{}", d.id), headers, raw, true)?
            .ok_or_else(ApiError::idempotency_key_required)?;
        // Two bounded reads, never the whole attempt list.
        let source = match &body.source_attempt_id {
            Some(raw) => {
                let a =
                    AttemptId::parse(raw).map_err(|e| ApiError::validation(format!("field `sourceAttemptId`: {e}")))?;
                if self.deliveries.get_attempt(&d.id, &a).await?.is_none() {
                    return Err(ApiError::validation(format!(
                        "field `sourceAttemptId`: {a} is not an attempt of {}",
                        d.id
                    )));
                }
                Some(a)
            }
            None => self.deliveries.last_attempt(&d.id).await?.map(|a| a.id),
        };
        let now = self.clock.now();
        let attempt_id = AttemptId::generate(now, &mut PortRng(self.random.as_ref()));
        let number = d.attempt_count + 1;
        let accepted = RedeliveryAccepted {
            delivery_id: d.id.clone(),
            attempt_id: attempt_id.clone(),
            attempt_number: number,
            source_attempt_id: source.clone(),
            delivery: None,
        };
        let answer = serde_json::to_value(&accepted).unwrap_or(Value::Null);
        if !d.status.is_settled() {
            let err = ApiError::conflict(format!(
                "delivery {} is still {}; redeliver it once it settles",
                d.id,
                d.status.as_str()
            ));
            if let Some(first) = self
                .claim_key_with(key, hash.clone(), err.status(), &err.body(), now)
                .await?
            {
                return self.finish_redelivery(&d, first, &hash, now).await;
            }
            return Err(err);
        }
        if let Some(first) = self.claim_key(key, hash.clone(), &answer, now).await? {
            return self.finish_redelivery(&d, first, &hash, now).await;
        }
        let step = RedeliveryStep {
            number,
            attempt_id,
            source,
        };
        let updated = self.queue_redelivery(&d, &step, now).await?.unwrap_or(d);
        let out = RedeliveryAccepted {
            delivery: Some(DeliveryOut::from(&updated)),
            ..accepted
        };
        Ok(reply(StatusCode::ACCEPTED, &out))
    }

    /// A repeat of a redeliver call: when the first answer promised an attempt that
    /// was never queued (its enqueue failed, or the call died), that attempt is
    /// queued now under the promised id; then the first answer is given again.
    async fn finish_redelivery(
        &self,
        d: &Delivery,
        first: IdempotencyRecord,
        hash: &str,
        now: Timestamp,
    ) -> ApiResult<Response> {
        if first.request_hash == hash
            && first.status == 202
            && let Some(step) = RedeliveryStep::promised(&first)
        {
            match self.queue_redelivery(d, &step, now).await {
                // The first call (still running) reopened it meanwhile: it queues.
                Err(e) if e.status() == 409 => {}
                other => {
                    other?;
                }
            }
        }
        replayed_answer(first, hash)
    }

    /// Reopens the settled delivery for `step` and queues it. `None` when the step
    /// is not waiting any more (its attempt ran, or the delivery moved on). If the
    /// message cannot be queued the delivery is put back as it was (a succeeded
    /// delivery stays succeeded) and the call answers 503, so a repeat redoes it; if
    /// even that write fails it is marked dead-lettered, and redrive resumes it as
    /// the redelivery it is.
    async fn queue_redelivery(
        &self,
        d: &Delivery,
        step: &RedeliveryStep,
        now: Timestamp,
    ) -> ApiResult<Option<Delivery>> {
        let waiting = d.attempt_count + 1 == step.number;
        let (updated, before) = if d.status.is_settled() && waiting {
            let mut updated = d.clone();
            updated.status = DeliveryStatus::Pending;
            updated.next_attempt = step.number;
            updated.next_attempt_at = Some(now);
            updated.settled_at = None;
            updated.dead_reason = None;
            updated.expires_at = None;
            // Kept on the delivery, so that if this message is lost the reconciler
            // sends the same redelivery under the promised id.
            updated.redelivery = Some(PromisedRedelivery {
                number: step.number,
                attempt_id: step.attempt_id.clone(),
                source: step.source.clone(),
            });
            updated.version += 1;
            match self.deliveries.update_delivery(&updated, d.version).await {
                Ok(()) => {}
                Err(PortError::Conflict(_)) => {
                    return Err(ApiError::conflict(
                        "the delivery changed during this call; retry with a new Idempotency-Key",
                    ));
                }
                Err(e) => return Err(e.into()),
            }
            (updated, Some(d))
        } else if !d.status.is_settled() && waiting && d.next_attempt == step.number && d.awaiting.is_none() {
            // An earlier call reopened it and died before its message was queued.
            (d.clone(), None)
        } else {
            return Ok(None);
        };
        let message = DeliveryMessage {
            v: 1,
            delivery_id: d.id.clone(),
            tenant_id: d.tenant_id.clone(),
            endpoint_id: d.endpoint_id.clone(),
            attempt: step.number,
            not_before: now,
            trigger: Trigger::Redelivery,
            source_attempt_id: step.source.clone(),
            attempt_id: Some(step.attempt_id.clone()),
            completion_check: false,
            body: None,
        };
        if let Err(e) = self.planner.plan(message.clone(), now).await {
            let restored = match before {
                Some(before) => {
                    let restore = Delivery {
                        version: updated.version + 1,
                        ..before.clone()
                    };
                    self.deliveries.update_delivery(&restore, updated.version).await.is_ok()
                }
                None => false,
            };
            if !restored
                && let Err(mark) = crate::pipeline::dead_letter::mark(self.deliveries.as_ref(), &message, now).await
            {
                tracing::error!(delivery_id = %d.id, error = %mark, "could not mark an unqueued redelivery");
            }
            return Err(e.into());
        }
        Ok(Some(updated))
    }

    /// Clears a dead-letter mark and queues the delivery's waiting step; if the
    /// message cannot be queued the mark is set again, so it is never left unmarked
    /// without a message.
    pub(crate) async fn redrive_marked(&self, d: &Delivery, now: Timestamp) -> Result<Delivery, PortError> {
        let message = self.waiting_step(d, now).await?;
        crate::pipeline::dead_letter::redrive_as(self.deliveries.as_ref(), &self.planner, d, message, now).await
    }

    /// The message for the step a dead-lettered delivery waits for. After an attempt
    /// that ended the ladder (it planned nothing after it), the only step that can be
    /// waiting is a redelivery someone asked for: it goes out as one, so the policy's
    /// deadline does not apply and it is a single attempt.
    async fn waiting_step(&self, d: &Delivery, now: Timestamp) -> Result<DeliveryMessage, PortError> {
        let mut m = crate::pipeline::dead_letter::resume_message(d, now);
        // A promised redelivery carries its own id and source already.
        if m.attempt_id.is_none()
            && d.attempt_count > 0
            && d.awaiting.is_none()
            && m.trigger != Trigger::Test
            && let Some(last) = self.deliveries.last_attempt(&d.id).await?
            && last.next_attempt_at.is_none()
            && last.number + 1 == d.next_attempt
        {
            m.trigger = Trigger::Redelivery;
            m.source_attempt_id = Some(last.id);
        }
        Ok(m)
    }

    /// `POST /v1/deliveries/{id}/redrive`: puts a dead-lettered delivery's step back
    /// on the queue.
    async fn redrive(&self, tenant: &Tenant, id: &str) -> ApiResult<Response> {
        let d = self.load_delivery(tenant, id).await?;
        if d.dead_lettered_at.is_none() {
            return Err(ApiError::conflict(format!(
                "delivery {} is not in the dead-letter queue",
                d.id
            )));
        }
        let now = self.clock.now();
        match self.redrive_marked(&d, now).await {
            Ok(updated) => Ok(reply(StatusCode::ACCEPTED, &DeliveryOut::from(&updated))),
            Err(PortError::Conflict(_)) => Err(ApiError::conflict("the delivery changed during this call; retry")),
            Err(e) => Err(e.into()),
        }
    }
}

/// Event reads, then delivery writes, replay-dead keeps in flight: up to 10,000
/// failed messages, a read and a few writes each, one after another would
/// outlast the API's 29-second limit.
const REPLAY_DEAD_AT_ONCE: usize = 16;

/// The stored-answer field holding a keyed replay's id seed (never shown).
const REPLAY_SEED: &str = "replaySeed";

/// What [`Api::replay_keyed`] did: the first call's answer, or the stored first
/// answer of a repeat (work it left undone now done).
pub(crate) enum KeyedReplay {
    First(Value),
    Repeat(IdempotencyRecord),
}

/// The attempt a redeliver call promises.
struct RedeliveryStep {
    number: u32,
    attempt_id: AttemptId,
    source: Option<AttemptId>,
}

impl RedeliveryStep {
    /// The step a stored first answer promised, if it names one.
    fn promised(first: &IdempotencyRecord) -> Option<Self> {
        let v: Value = serde_json::from_str(&first.response_body).ok()?;
        Some(RedeliveryStep {
            number: u32::try_from(v.get("attemptNumber")?.as_u64()?).ok()?,
            attempt_id: AttemptId::parse(v.get("attemptId")?.as_str()?).ok()?,
            source: v
                .get("sourceAttemptId")
                .and_then(Value::as_str)
                .and_then(|s| AttemptId::parse(s).ok()),
        })
    }
}

/// Ids derived from a keyed replay's seed and one event: the same every time, so a
/// repeat of the replay names the same deliveries. The seed came from the OS CSPRNG
/// and is never shown, so the ids are as unguessable as fresh ones.
struct KeyedRandom {
    seed: Vec<u8>,
    counter: AtomicU64,
}

impl KeyedRandom {
    fn new(seed: &str, event: &str) -> Self {
        let mut bytes = seed.as_bytes().to_vec();
        bytes.push(b'#');
        bytes.extend_from_slice(event.as_bytes());
        KeyedRandom {
            seed: bytes,
            counter: AtomicU64::new(0),
        }
    }
}

impl Random for KeyedRandom {
    fn next_u64(&self) -> u64 {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let digest = Sha256::new()
            .chain_update(&self.seed)
            .chain_update(n.to_be_bytes())
            .finalize();
        let mut out = [0u8; 8];
        out.copy_from_slice(&digest[..8]);
        u64::from_be_bytes(out)
    }
}

/// The routes of replays, redeliveries and redrives; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/endpoints/{id}/replay", routing::post(replay))
        .route("/v1/endpoints/{id}/replay-dead", routing::post(replay_dead))
        .route("/v1/deliveries/{id}/redeliver", routing::post(redeliver))
        .route("/v1/deliveries/{id}/redrive", routing::post(redrive))
}
