//! Sending again: replay of a time range or of every failed delivery of an endpoint,
//! redelivery of one delivery, and redrive of a dead-lettered one. Replay and
//! redeliver require an `Idempotency-Key`, so a repeated request never sends twice.

use super::Api;
use super::body::ApiJson;
use super::idempotency::{idempotency_key, replayed_answer};
use super::limits::{MAX_PAGE, REPLAY_MAX_DAYS, REPLAY_MAX_EVENTS};
use super::problem::{ApiError, ApiResult};
use super::query::DeliveryListQuery;
use super::routes::{Authed, Id, reply};
use super::views::delivery_view;
use crate::ingest::{self, NewEvent};
use crate::message::{QueueMessage, Trigger};
use crate::model::{Delivery, DeliveryStatus, Endpoint, EventRecord, Tenant};
use crate::ports::PortError;
use crate::sender::PortRng;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use courier_core::Timestamp;
use courier_core::ids::AttemptId;
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ReplayBody {
    since: String,
    until: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RedeliverBody {
    source_attempt_id: Option<String>,
}

pub(crate) fn time_field(name: &str, value: &str) -> ApiResult<Timestamp> {
    Timestamp::parse_rfc3339(value).map_err(|e| ApiError::validation(format!("field `{name}`: {e}")))
}

/// `POST /v1/endpoints/{id}/replay`
pub(crate) async fn replay(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    headers: HeaderMap,
    ApiJson { value, raw }: ApiJson<ReplayBody>,
) -> ApiResult<Response> {
    api.replay(&tenant, &id, &headers, value, &raw).await
}

/// `POST /v1/endpoints/{id}/replay-dead`
pub(crate) async fn replay_dead(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
) -> ApiResult<Response> {
    api.replay_dead(&tenant, &id).await
}

/// `POST /v1/deliveries/{id}/redeliver`
pub(crate) async fn redeliver(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    headers: HeaderMap,
    ApiJson { value, raw }: ApiJson<RedeliverBody>,
) -> ApiResult<Response> {
    api.redeliver(&tenant, &id, &headers, value, &raw).await
}

/// `POST /v1/deliveries/{id}/redrive`
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

    /// Events of the endpoint in [since, until], oldest first, at most the limit.
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

    pub(crate) async fn replay_range(
        &self,
        e: &Endpoint,
        since: Timestamp,
        until: Timestamp,
        now: Timestamp,
    ) -> ApiResult<usize> {
        let events = self.events_in(e, since, until).await?;
        Ok(self.replay_events(e, &events, now).await?.len())
    }

    async fn replay(
        &self,
        tenant: &Tenant,
        id: &str,
        headers: &HeaderMap,
        body: ReplayBody,
        raw: &[u8],
    ) -> ApiResult<Response> {
        let since = time_field("since", &body.since)?;
        let until = body.until.as_deref().map(|u| time_field("until", u)).transpose()?;
        let (since, until) = self.replay_window(since, until)?;
        let e = self.load_endpoint(tenant, id).await?;
        let (key, hash) = idempotency_key(tenant, &format!("replay#{}", e.id), headers, raw, true)?
            .ok_or_else(ApiError::idempotency_key_required)?;
        let now = self.clock.now();
        let events = self.events_in(&e, since, until).await?;
        let answer = json!({"endpointId": e.id, "since": since, "until": until, "replayed": events.len()});
        if let Some(first) = self.claim_key(key, hash.clone(), &answer, now).await? {
            return replayed_answer(first, &hash);
        }
        self.replay_events(&e, &events, now).await?;
        Ok(reply(202, &answer))
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
        Ok(reply(202, &json!({"endpointId": e.id, "replayed": created.len()})))
    }

    async fn redeliver(
        &self,
        tenant: &Tenant,
        id: &str,
        headers: &HeaderMap,
        body: RedeliverBody,
        raw: &[u8],
    ) -> ApiResult<Response> {
        let d = self.load_delivery(tenant, id).await?;
        let (key, hash) = idempotency_key(tenant, &format!("redeliver#{}", d.id), headers, raw, true)?
            .ok_or_else(ApiError::idempotency_key_required)?;
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
            let err = ApiError::conflict(format!(
                "delivery {} is still {}; redeliver it once it settles",
                d.id,
                d.status.as_str()
            ));
            if let Some(first) = self
                .claim_key_with(key, hash.clone(), err.status(), &err.body(), now)
                .await?
            {
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
                return Err(ApiError::conflict(
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
        Ok(reply(202, &out))
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
        match crate::dead_letter::redrive(self.deliveries.as_ref(), &self.planner, &d, now).await {
            Ok(updated) => Ok(reply(202, &delivery_view(&updated))),
            Err(PortError::Conflict(_)) => Err(ApiError::conflict("the delivery changed during this call; retry")),
            Err(e) => Err(e.into()),
        }
    }
}
