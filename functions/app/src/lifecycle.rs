//! Endpoint lifecycle and re-sending: disable, enable (with `replaySince`), revoke,
//! secret rotation, test events, replay of a time range or of every failed delivery,
//! and redelivery of one delivery. Routed from [`crate::api`].

use crate::api::{Api, ApiError, ApiRequest, ApiResponse, delivery_view, endpoint_view, hex, parse_body};
use crate::ingest::{self, NewEvent};
use crate::message::{QueueMessage, Trigger};
use crate::model::{
    Delivery, DeliveryStatus, Endpoint, EndpointState, EventRecord, IdempotencyRecord, SecretRecord, SecretState,
    Tenant,
};
use crate::ports::PortError;
use crate::sender::PortRng;
use courier_core::Timestamp;
use courier_core::health::{HealthEvent, SmartHealth};
use courier_core::ids::{AttemptId, EventId};
use courier_core::signing::SigningSecret;
use serde::Deserialize;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

/// How far back a replay may reach, and how many events it may re-send.
pub const REPLAY_MAX_DAYS: i64 = 7;
pub const REPLAY_MAX_EVENTS: usize = 10_000;
pub const DEFAULT_GRACE_SECONDS: u64 = 24 * 3600;
pub const MAX_GRACE_SECONDS: u64 = 7 * 24 * 3600;

type ApiResult<T> = Result<T, ApiError>;

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct EnableBody {
    replay_since: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RotateBody {
    grace_seconds: Option<u64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ReplayBody {
    since: String,
    until: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RedeliverBody {
    source_attempt_id: Option<String>,
}

fn time_field(name: &str, value: &str) -> ApiResult<Timestamp> {
    Timestamp::parse_rfc3339(value).map_err(|e| ApiError::validation(format!("field `{name}`: {e}")))
}

impl Api {
    /// Applies `change` to the stored endpoint with optimistic concurrency, retrying
    /// when a concurrent writer (e.g. a sender updating health) got there first.
    pub(crate) async fn modify_endpoint(
        &self,
        tenant: &Tenant,
        id: &str,
        change: impl Fn(&mut Endpoint, Timestamp) -> ApiResult<()>,
    ) -> ApiResult<Endpoint> {
        for _ in 0..8 {
            let mut e = self.load_endpoint(tenant, id).await?;
            let now = self.clock.now();
            change(&mut e, now)?;
            let expected = e.version;
            e.version += 1;
            e.updated_at = now;
            match self.endpoints.update_endpoint(&e, expected).await {
                Ok(()) => return Ok(e),
                Err(PortError::Conflict(_)) => continue,
                Err(err) => return Err(err.into()),
            }
        }
        Err(ApiError::new(
            409,
            "conflict",
            "the endpoint kept changing underneath this call; retry",
        ))
    }

    pub(crate) async fn disable_endpoint(&self, tenant: &Tenant, id: &str) -> ApiResult<ApiResponse> {
        let e = self
            .modify_endpoint(tenant, id, |e, _| match e.state {
                EndpointState::Revoked => Err(ApiError::new(409, "conflict", "a revoked endpoint cannot be disabled")),
                _ => {
                    e.state = EndpointState::Disabled;
                    Ok(())
                }
            })
            .await?;
        Ok(ApiResponse::json(200, &endpoint_view(&e, self.clock.now())))
    }

    pub(crate) async fn revoke_endpoint(&self, tenant: &Tenant, id: &str) -> ApiResult<ApiResponse> {
        let e = self
            .modify_endpoint(tenant, id, |e, _| {
                e.state = EndpointState::Revoked;
                Ok(())
            })
            .await?;
        Ok(ApiResponse::json(200, &endpoint_view(&e, self.clock.now())))
    }

    pub(crate) async fn enable_endpoint(&self, tenant: &Tenant, id: &str, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let body: EnableBody = parse_body(req)?;
        let since = match &body.replay_since {
            Some(s) => Some(self.replay_window(time_field("replaySince", s)?, None)?),
            None => None,
        };
        let e = self
            .modify_endpoint(tenant, id, |e, now| {
                if e.state == EndpointState::Revoked {
                    return Err(ApiError::new(409, "conflict", "a revoked endpoint cannot be enabled"));
                }
                e.state = EndpointState::Active;
                if let Some(rules) = e.policy.health.smart_rules() {
                    let h = e.health.unwrap_or_else(|| SmartHealth::new(now));
                    e.health = Some(h.apply(rules, HealthEvent::Enable, now));
                }
                Ok(())
            })
            .await?;
        let now = self.clock.now();
        let mut view = endpoint_view(&e, now);
        if let Some((since, until)) = since {
            let n = self.replay_range(&e, since, until, now).await?;
            view["replayed"] = json!(n);
        }
        Ok(ApiResponse::json(200, &view))
    }

    pub(crate) async fn rotate_secret(&self, tenant: &Tenant, id: &str, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let body: RotateBody = parse_body(req)?;
        let grace = body.grace_seconds.unwrap_or(DEFAULT_GRACE_SECONDS);
        if grace > MAX_GRACE_SECONDS {
            return Err(ApiError::validation(format!(
                "field `graceSeconds` must be at most {MAX_GRACE_SECONDS}"
            )));
        }
        let mut raw = [0u8; 32];
        self.secrets.fill(&mut raw);
        let secret = SigningSecret::from_bytes(&raw)
            .map_err(|_| ApiError::new(503, "service_unavailable", "could not create a signing secret"))?;
        let text = secret.to_text();
        let e = self
            .modify_endpoint(tenant, id, |e, now| {
                if e.state == EndpointState::Revoked {
                    return Err(ApiError::new(
                        409,
                        "conflict",
                        "a revoked endpoint has no secrets to rotate",
                    ));
                }
                // Expired retiring secrets are dropped; the current active one retires.
                e.secrets
                    .retain(|s| s.state == SecretState::Active || s.expires_at.is_some_and(|x| now < x));
                for s in e.secrets.iter_mut().filter(|s| s.state == SecretState::Active) {
                    s.state = SecretState::Retiring;
                    s.expires_at = Some(now.plus_secs(grace as i64));
                }
                e.secrets.push(SecretRecord {
                    secret: text.clone(),
                    state: SecretState::Active,
                    created_at: now,
                    expires_at: None,
                });
                Ok(())
            })
            .await?;
        let mut view = endpoint_view(&e, self.clock.now());
        view["secret"] = json!(text);
        Ok(ApiResponse::json(200, &view))
    }

    pub(crate) async fn test_endpoint(&self, tenant: &Tenant, id: &str) -> ApiResult<ApiResponse> {
        let e = self.load_endpoint(tenant, id).await?;
        let now = self.clock.now();
        if e.breaker.is_some_and(|b| b.is_open(now)) {
            let until = e.breaker.and_then(|b| b.at(now).open_until);
            let mut err = ApiError::new(
                409,
                "breaker_open",
                "the endpoint's circuit breaker is open; test events are refused until it resets",
            );
            err.retry_after = until.map(|u| (u.millis_since(now).max(0) as u64).div_ceil(1000));
            return Err(err);
        }
        let new = NewEvent {
            event_id: EventId::generate(now, &mut PortRng(self.random.as_ref())),
            event_type: Some("courier.test".into()),
            payload: json!({"test": true}),
            planned_at: None,
            endpoints: std::slice::from_ref(&e),
            trigger: Trigger::Test,
            webhook_ids: None,
            delivery_ids: None,
        };
        let (mut event, mut deliveries) = ingest::build(&new, now, self.random.as_ref());
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
        ingest::store_and_enqueue(self.deliveries.as_ref(), &self.planner, &event, &deliveries, now).await?;
        Ok(ApiResponse::json(
            202,
            &json!({"eventId": event.id, "deliveryId": deliveries[0].id}),
        ))
    }

    /// Checks a replay range: since within the last 7 days, until after since.
    fn replay_window(&self, since: Timestamp, until: Option<Timestamp>) -> ApiResult<(Timestamp, Timestamp)> {
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

    /// Events of the endpoint in [since, until], oldest first, at most the limit.
    async fn events_in(&self, e: &Endpoint, since: Timestamp, until: Timestamp) -> ApiResult<Vec<EventRecord>> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let page = self
                .deliveries
                .list_events(
                    &e.tenant_id,
                    Some(&e.id),
                    Some(since),
                    Some(until),
                    cursor.as_deref(),
                    100,
                )
                .await?;
            out.extend(
                page.items
                    .into_iter()
                    .filter(|ev| ev.targets.iter().any(|t| t.endpoint_id == e.id)),
            );
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
    /// delivery's webhook-id.
    async fn replay_events(&self, e: &Endpoint, events: &[EventRecord], now: Timestamp) -> ApiResult<Vec<Delivery>> {
        let mut created = Vec::new();
        for ev in events {
            let original = ev
                .targets
                .iter()
                .find(|t| t.endpoint_id == e.id)
                .map(|t| t.delivery_id.clone());
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
            let (_, deliveries) = ingest::build(&new, now, self.random.as_ref());
            for d in deliveries {
                self.deliveries.create_delivery(&d).await?;
                ingest::enqueue_waiting(self.deliveries.as_ref(), &self.planner, std::slice::from_ref(&d), now).await?;
                created.push(d);
            }
        }
        Ok(created)
    }

    async fn replay_range(&self, e: &Endpoint, since: Timestamp, until: Timestamp, now: Timestamp) -> ApiResult<usize> {
        let events = self.events_in(e, since, until).await?;
        Ok(self.replay_events(e, &events, now).await?.len())
    }

    pub(crate) async fn replay(&self, tenant: &Tenant, id: &str, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let body: ReplayBody = parse_body(req)?;
        let since = time_field("since", &body.since)?;
        let until = body.until.as_deref().map(|u| time_field("until", u)).transpose()?;
        let (since, until) = self.replay_window(since, until)?;
        let e = self.load_endpoint(tenant, id).await?;
        let (key, hash) = self
            .idempotency(tenant, &format!("replay#{}", e.id), req, true)
            .await?
            .ok_or_else(|| {
                ApiError::new(
                    400,
                    "idempotency_key_required",
                    "this call requires an Idempotency-Key header",
                )
            })?;
        let now = self.clock.now();
        let events = self.events_in(&e, since, until).await?;
        let answer = json!({"endpointId": e.id, "since": since, "until": until, "replayed": events.len()});
        if let Some(first) = self.claim_key(key, hash.clone(), &answer, now).await? {
            return replayed_answer(first, &hash);
        }
        self.replay_events(&e, &events, now).await?;
        Ok(ApiResponse::json(202, &answer))
    }

    pub(crate) async fn replay_dead(&self, tenant: &Tenant, id: &str) -> ApiResult<ApiResponse> {
        let e = self.load_endpoint(tenant, id).await?;
        let now = self.clock.now();
        let mut failed = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let page = self
                .deliveries
                .list_deliveries(&e.id, Some("failed"), None, None, cursor.as_deref(), 100)
                .await?;
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
        let mut events = Vec::new();
        for d in &failed {
            if let Some(mut ev) = self.deliveries.get_event(&e.tenant_id, &d.event_id).await? {
                // Keep the failed delivery's own webhook-id.
                ev.targets.retain(|t| t.endpoint_id == e.id);
                for t in &mut ev.targets {
                    t.delivery_id = d.id.clone();
                }
                events.push(ev);
            }
        }
        let created = self.replay_events(&e, &events, now).await?;
        Ok(ApiResponse::json(
            202,
            &json!({"endpointId": e.id, "replayed": created.len()}),
        ))
    }

    /// Stores the first answer for an Idempotency-Key; `Some` is an earlier one.
    async fn claim_key(
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
    async fn claim_key_with(
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
            expires_at: now.millis() / 1000 + crate::api::IDEMPOTENCY_TTL_SECONDS,
        };
        Ok(self.idempotency.put_idempotency(&record).await?)
    }

    pub(crate) async fn redeliver(&self, tenant: &Tenant, id: &str, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let body: RedeliverBody = parse_body(req)?;
        let d = self.load_delivery(tenant, id).await?;
        let (key, hash) = self
            .idempotency(tenant, &format!("redeliver#{}", d.id), req, true)
            .await?
            .ok_or_else(|| {
                ApiError::new(
                    400,
                    "idempotency_key_required",
                    "this call requires an Idempotency-Key header",
                )
            })?;
        let attempts = self.deliveries.list_attempts(&d.id).await?;
        let source = match &body.source_attempt_id {
            Some(raw) => {
                let a =
                    AttemptId::parse(raw).map_err(|e| ApiError::validation(format!("field `sourceAttemptId`: {e}")))?;
                if !attempts.iter().any(|x| x.id == a) {
                    return Err(ApiError::validation(format!(
                        "field `sourceAttemptId`: {a} is not an attempt of {}",
                        d.id
                    )));
                }
                Some(a)
            }
            None => attempts.last().map(|a| a.id.clone()),
        };
        let now = self.clock.now();
        let attempt_id = AttemptId::generate(now, &mut PortRng(self.random.as_ref()));
        let number = d.attempt_count + 1;
        let answer =
            json!({"deliveryId": d.id, "attemptId": attempt_id, "attemptNumber": number, "sourceAttemptId": source});
        if !d.status.is_settled() {
            let err = ApiError::new(
                409,
                "conflict",
                format!(
                    "delivery {} is still {}; redeliver it once it settles",
                    d.id,
                    d.status.as_str()
                ),
            );
            let problem = err.clone().into_response();
            let body: Value = serde_json::from_slice(&problem.body).unwrap_or(Value::Null);
            if let Some(first) = self.claim_key_with(key, hash.clone(), 409, &body, now).await? {
                return replayed_answer(first, &hash);
            }
            return Err(err);
        }
        if let Some(first) = self.claim_key(key, hash.clone(), &answer, now).await? {
            return replayed_answer(first, &hash);
        }
        let mut updated = d.clone();
        updated.status = DeliveryStatus::Pending;
        updated.next_attempt = number;
        updated.next_attempt_at = Some(now);
        updated.settled_at = None;
        updated.dead_reason = None;
        updated.expires_at = None;
        updated.version += 1;
        match self.deliveries.update_delivery(&updated, d.version).await {
            Ok(()) => {}
            Err(PortError::Conflict(_)) => {
                return Err(ApiError::new(
                    409,
                    "conflict",
                    "the delivery changed during this call; retry with a new Idempotency-Key",
                ));
            }
            Err(e) => return Err(e.into()),
        }
        let message = QueueMessage {
            v: 1,
            delivery_id: d.id.clone(),
            tenant_id: d.tenant_id.clone(),
            endpoint_id: d.endpoint_id.clone(),
            attempt: number,
            not_before: now,
            trigger: Trigger::Redelivery,
            source_attempt_id: source,
            attempt_id: Some(attempt_id),
            completion_check: false,
        };
        if let Err(e) = self.planner.plan(message.clone(), now).await {
            // Never silently stuck: the API shows it dead-lettered and redrive resumes it.
            if let Err(mark) = crate::dead_letter::mark(self.deliveries.as_ref(), &message, now).await {
                tracing::error!(delivery_id = %d.id, error = %mark, "could not mark an unqueued redelivery");
            }
            return Err(e.into());
        }
        let mut out = answer;
        out["delivery"] = delivery_view(&updated);
        Ok(ApiResponse::json(202, &out))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct CompleteBody {
    outcome: CompletionOutcome,
    detail: Option<String>,
}

#[derive(Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum CompletionOutcome {
    Succeeded,
    Failed,
}

pub const MAX_COMPLETION_DETAIL: usize = 4096;

impl Api {
    /// `POST /v1/attempts/{id}/complete`: a receiver reports long-running work it
    /// accepted with 202. The token it was sent names the delivery and proves it.
    pub(crate) async fn complete_attempt(&self, raw_attempt: &str, req: &ApiRequest) -> ApiResult<ApiResponse> {
        let unauthorized = || {
            ApiError::new(
                401,
                "unauthorized",
                "send the `webhook-completion-token` header received with the attempt",
            )
        };
        let token = req
            .header("webhook-completion-token")
            .map(str::trim)
            .filter(|t| !t.is_empty() && t.len() <= 256)
            .ok_or_else(unauthorized)?;
        let attempt_id = AttemptId::parse(raw_attempt).map_err(|_| ApiError::not_found("attempt"))?;
        let body: CompleteBody = parse_body(req)?;
        if body
            .detail
            .as_ref()
            .is_some_and(|d| d.chars().count() > MAX_COMPLETION_DETAIL)
        {
            return Err(ApiError::validation(format!(
                "field `detail` is longer than {MAX_COMPLETION_DETAIL} characters"
            )));
        }
        let delivery_id = token
            .split_once('.')
            .and_then(|(d, _)| courier_core::ids::DeliveryId::parse(d).ok())
            .ok_or_else(unauthorized)?;
        let delivery = self
            .deliveries
            .get_delivery(&delivery_id)
            .await?
            .ok_or_else(unauthorized)?;
        let Some(aw) = delivery.awaiting.clone() else {
            return Err(ApiError::new(
                409,
                "conflict",
                "this attempt is not waiting for a completion report (already reported or timed out)",
            ));
        };
        if aw.attempt_id != attempt_id {
            return Err(ApiError::not_found("attempt"));
        }
        if crate::api::hash_key(token) != aw.token_hash {
            return Err(unauthorized());
        }
        let endpoint = self
            .endpoints
            .get_endpoint(&delivery.tenant_id, &delivery.endpoint_id)
            .await?
            .ok_or_else(|| ApiError::not_found("endpoint"))?;
        let now = self.clock.now();
        let message = QueueMessage {
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
        };
        let outcome = courier_core::outcome::AttemptOutcome::CompletionReported {
            succeeded: body.outcome == CompletionOutcome::Succeeded,
            detail: body.detail,
        };
        let done = crate::sender::AttemptDone {
            attempt_id: aw.attempt_id.clone(),
            claim_id: None,
            started: aw.started_at,
            ended: now.max(aw.started_at),
            outcome,
            duration_ms: aw.duration_ms,
            completion_token: None,
        };
        let recorder = crate::sender::Recorder {
            deliveries: self.deliveries.as_ref(),
            clock: self.clock.as_ref(),
            endpoints: self.endpoints.as_ref(),
            planner: &self.planner,
            random: self.random.as_ref(),
            lease_margin_ms: 0,
        };
        match recorder.finish(&message, &endpoint, delivery, done).await {
            Ok(crate::sender::StepOutcome::Attempted { attempt, delivery }) => Ok(ApiResponse::json(
                200,
                &json!({"attempt": crate::api::attempt_view(&attempt), "delivery": delivery_view(&delivery)}),
            )),
            Ok(_) => Err(ApiError::new(
                409,
                "conflict",
                "the attempt was settled by another path (e.g. it timed out) while reporting",
            )),
            Err(crate::sender::StepError::Store(e) | crate::sender::StepError::Plan(e)) => Err(e.into()),
            Err(e) => Err(ApiError::new(503, "service_unavailable", e.to_string())),
        }
    }
}

impl Api {
    /// `POST /v1/deliveries/{id}/redrive`: puts a dead-lettered delivery's step back
    /// on the queue.
    pub(crate) async fn redrive(&self, tenant: &Tenant, id: &str) -> ApiResult<ApiResponse> {
        let d = self.load_delivery(tenant, id).await?;
        if d.dead_lettered_at.is_none() {
            return Err(ApiError::new(
                409,
                "conflict",
                format!("delivery {} is not in the dead-letter queue", d.id),
            ));
        }
        let now = self.clock.now();
        match crate::dead_letter::redrive(self.deliveries.as_ref(), &self.planner, &d, now).await {
            Ok(updated) => Ok(ApiResponse::json(202, &delivery_view(&updated))),
            Err(PortError::Conflict(_)) => Err(ApiError::new(
                409,
                "conflict",
                "the delivery changed during this call; retry",
            )),
            Err(e) => Err(e.into()),
        }
    }
}

fn replayed_answer(first: IdempotencyRecord, hash: &str) -> ApiResult<ApiResponse> {
    if first.request_hash != hash {
        return Err(ApiError::new(
            422,
            "idempotency_key_reused",
            "this Idempotency-Key was used with a different request body",
        ));
    }
    let content_type = if first.status >= 400 {
        "application/problem+json"
    } else {
        "application/json"
    };
    Ok(ApiResponse {
        status: first.status,
        headers: vec![
            ("content-type".into(), content_type.into()),
            ("idempotent-replayed".into(), "true".into()),
        ],
        body: first.response_body.into_bytes(),
    })
}

/// sha256 hex, for request fingerprints.
pub fn fingerprint(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}
