//! `/v1/events`: accept an event for one or more endpoints (idempotent under an
//! `Idempotency-Key`), and list events.

use crate::api::Api;
use crate::api::http::body::ApiJson;
use crate::api::http::idempotency::idempotency_key;
use crate::api::http::limits::{
    IDEMPOTENCY_TTL_SECONDS, MAX_ENDPOINTS_PER_EVENT, MAX_EVENT_TYPE, MAX_PAYLOAD_BYTES, MAX_PLANNED_AHEAD_DAYS,
};
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::http::query::list_query;
use crate::api::resources::expired;
use crate::api::routes::{Authed, page_reply, reply};
use crate::api::wire::events::{DeliveryRef, EventAccepted, EventIn, EventOut, FanoutProgressOut};
use crate::domain::delivery_message::Trigger;
use crate::domain::model::{Delivery, Endpoint, EventRecord, IdempotencyRecord, Tenant};
use crate::ingest::pipeline::Written;
use crate::ingest::{self, NewEvent};
use crate::ports::PortError;
use crate::ports::PortRng;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing;
use courier_core::Timestamp;
use courier_core::ids::{DeliveryId, EndpointId, EventId};
use serde_json::Value;
use std::sync::Arc;

/// What [`Api::prepare_event`] leaves to do.
pub(super) enum Prepared {
    /// Nothing: a repeat of an Idempotency-Key, answered as its first call was.
    Answered(Response),
    /// The write of a new event.
    Write(Box<EventWrite>),
}

/// A new event and its deliveries, built but not written, with the answer its
/// write earns and the instant they were built at.
pub(super) struct EventWrite {
    pub event: EventRecord,
    pub deliveries: Vec<Delivery>,
    pub answer: EventAccepted,
    pub now: Timestamp,
}

/// `GET /v1/events`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/events",
        operation_id = "listEvents",
        tag = "events",
        summary = r#"The audit log"#,
        description = r#"Your tenant's events, newest first, each with its per-endpoint outcome at ingest (dropped ones included), optionally narrowed to one endpoint and a creation-time range."#,
        params(
        ("endpointId" = Option<crate::api::openapi::schemas::EndpointId>, Query, description = r#"Only events sent to this endpoint (an unknown one answers 404), read from the endpoint's delivery log: newest delivery first, `since`/`until` on the delivery's creation (the event's own instant, or a little later for a stepped fan-out), each event once under its original delivery (replays are not listed again)."#),
        ("since" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"Only items created at or after this instant."#),
        ("until" = Option<crate::api::openapi::schemas::Timestamp>, Query, description = r#"Only items created at or before this instant (not before `since`)."#),
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"One page of events."#, body = crate::api::wire::common::Page<crate::api::wire::events::EventOut>),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn list(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let q = list_query(query.as_deref(), &["endpointId", "since", "until", "cursor", "limit"])?;
    if let Some(ep) = &q.endpoint_id {
        api.load_endpoint(&tenant, ep.as_str()).await?;
    }
    let page = q.events(api.deliveries.as_ref(), &tenant.id).await?;
    let now = api.clock.now();
    let items: Vec<EventOut> = page
        .items
        .iter()
        .filter(|e| !expired(e.expires_at, now))
        .map(EventOut::from)
        .collect();
    Ok(page_reply(items, page.next_cursor.as_deref()))
}

/// `GET /v1/events/{id}`: the event with its deliveries at ingest and, for an
/// event routed by subscription, its fan-out's progress.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/events/{id}",
        operation_id = "getEvent",
        tag = "events",
        summary = r#"Get an event"#,
        description = r#"One event of the audit log, with its per-endpoint outcome at ingest and, for an event routed by subscription, its fan-out's progress."#,
        params(
        ("id" = crate::api::openapi::schemas::EventId, Path),
    ),
        responses(
        (status = 200, description = r#"The event."#, body = crate::api::wire::events::EventOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn get(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    crate::api::routes::Id(id): crate::api::routes::Id,
) -> ApiResult<Response> {
    let id = crate::api::resources::endpoints::id_from_path(&id, EventId::parse, "event")?;
    let event = api
        .deliveries
        .get_event(&tenant.id, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("event"))?;
    Ok(reply(StatusCode::OK, &EventOut::from(&event)))
}

/// `GET /v1/events/{id}/deliveries`: the event's deliveries (those named at ingest,
/// then its fan-out steps'), a page (`cursor`, `limit`) at a time.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/events/{id}/deliveries",
        operation_id = "listEventDeliveries",
        tag = "events",
        summary = r#"An event's deliveries"#,
        description = r#"The deliveries the event was routed to: those named at ingest (the endpoints named, or a fan-out done in the request) in that order, then those of a stepped fan-out in subscription index order, a page at a time. While a fan-out is `in_progress` the list holds the pages written so far. A page may be short (an endpoint of a fan-out page that did not take the event has no delivery); the list ends only when `nextCursor` is null. With `status`, a page keeps only its deliveries in that status, so filtered pages can be short or empty while more follow. Replay and test deliveries are in the endpoint's delivery log."#,
        params(
        ("id" = crate::api::openapi::schemas::EventId, Path),
        ("status" = Option<crate::api::openapi::schemas::DeliveryStatus>, Query, description = r#"Only deliveries in this status."#),
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"One page of deliveries."#, body = crate::api::wire::common::Page<crate::api::wire::deliveries::DeliveryOut>),
        (status = 400, response = crate::api::openapi::responses::BadRequest),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, response = crate::api::openapi::responses::NotFound),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn deliveries(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    crate::api::routes::Id(id): crate::api::routes::Id,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let id = crate::api::resources::endpoints::id_from_path(&id, EventId::parse, "event")?;
    let q = list_query(query.as_deref(), &["status", "cursor", "limit"])?;
    let event = api
        .deliveries
        .get_event(&tenant.id, &id)
        .await?
        .ok_or_else(|| ApiError::not_found("event"))?;
    let page = crate::fanout::event_deliveries::page(
        api.deliveries.as_ref(),
        &event,
        q.status.as_deref(),
        q.cursor.as_deref(),
        q.limit,
    )
    .await?;
    Ok(crate::api::resources::deliveries::delivery_page(&api, &page))
}

/// `POST /v1/events`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/events",
        operation_id = "createEvent",
        tag = "events",
        summary = r#"Send an event"#,
        description = r#"Creates one delivery per named endpoint and queues the first attempt of each (or schedules it for a future `plannedAt`). An endpoint that is not taking events (gavAI breaker open, SmartChat paused or disabled) gets a `dropped` delivery, visible in the audit log. With an `Idempotency-Key`, repeating the same body answers the first answer and creates nothing new; if the first request failed before storing the event, the repeat stores it under the ids that answer promised and queues it, so retrying with the same key is always safe. Without named endpoints the event is routed by subscription through the subscription index (see `FanoutProgress`); an event that matches nothing is still kept in the audit log. Fan-out deliveries have ids derived from the event and the endpoint, so a redone fan-out step writes each once."#,
        params(
        ("Idempotency-Key" = Option<crate::api::openapi::schemas::IdempotencyKey>, Header, description = r#"1-255 visible ASCII characters. The same key with the same body within 24 hours answers the first answer (with `Idempotent-Replayed: true`) and creates nothing; with another body it answers 422."#),
    ),
        request_body(content = crate::api::wire::events::EventIn, content_type = "application/json"),
        responses(
        (status = 202, description = r#"The event was accepted."#, body = crate::api::wire::events::EventAccepted, headers(("Idempotent-Replayed" = String, description = "`true` when this answer repeats the first one given for the same `Idempotency-Key`."))),
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
pub(crate) async fn create(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    headers: HeaderMap,
    ApiJson { value: body, raw }: ApiJson<EventIn>,
) -> ApiResult<Response> {
    let idem = idempotency_key(&tenant, "events", &headers, &raw, false)?;
    api.create_event(&tenant, body, idem).await
}

impl Api {
    pub(super) async fn create_event(
        &self,
        tenant: &Tenant,
        body: EventIn,
        idem: Option<(String, String)>,
    ) -> ApiResult<Response> {
        match self.prepare_event(tenant, body, idem).await? {
            Prepared::Answered(resp) => Ok(resp),
            Prepared::Write(w) => {
                self.write_event(&w.event, &w.deliveries, w.now).await?;
                Ok(reply(StatusCode::ACCEPTED, &w.answer))
            }
        }
    }

    /// Everything of `POST /v1/events` but the write of a new event: the checks, the
    /// event and its deliveries built, the Idempotency-Key's record (a repeat is
    /// answered here, finishing what its first call left undone).
    pub(super) async fn prepare_event(
        &self,
        tenant: &Tenant,
        body: EventIn,
        idem: Option<(String, String)>,
    ) -> ApiResult<Prepared> {
        let ids: Vec<String> = match (body.endpoint_id, body.endpoint_ids) {
            // No endpoint named: routed by subscription.
            (None, None) => Vec::new(),
            (Some(one), None) => vec![one],
            (None, Some(many)) if !many.is_empty() && many.len() <= MAX_ENDPOINTS_PER_EVENT => many,
            (None, Some(_)) => {
                return Err(ApiError::validation(format!(
                    "field `endpointIds` must list 1-{MAX_ENDPOINTS_PER_EVENT} endpoints"
                )));
            }
            (Some(_), Some(_)) => {
                return Err(ApiError::validation(
                    "send either `endpointId` or `endpointIds`, not both",
                ));
            }
        };
        if !ids.is_empty() && body.application_id.is_some() {
            return Err(ApiError::validation(
                "field `applicationId` routes an event by subscription: leave it out when naming endpoints",
            ));
        }
        if let Some(c) = &body.channels {
            courier_core::subscription::check_channels("channels", c)
                .map_err(|e| ApiError::validation(e.to_string()))?;
        }
        let payload = checked_payload(body.payload, body.event_type.as_deref())?;
        if let Some(t) = &body.event_type {
            self.check_payload_schema(tenant, t, &payload).await?;
        }
        let now = self.clock.now();
        let planned_at = match &body.planned_at {
            None => None,
            Some(s) => {
                let t =
                    Timestamp::parse_rfc3339(s).map_err(|e| ApiError::validation(format!("field `plannedAt`: {e}")))?;
                if t > now.plus_secs(MAX_PLANNED_AHEAD_DAYS * 86_400) {
                    return Err(ApiError::validation("field `plannedAt` must be within a year from now"));
                }
                Some(t)
            }
        };
        let event_id = EventId::generate(now, &mut PortRng(self.random.as_ref()));
        let routed = match ids.is_empty() {
            true => Some(
                self.route_event(
                    tenant,
                    &event_id,
                    body.event_type.as_deref(),
                    body.application_id.as_deref(),
                    body.channels.as_deref(),
                    now,
                )
                .await?,
            ),
            false => None,
        };
        let mut endpoints = Vec::with_capacity(ids.len());
        for (i, raw) in ids.iter().enumerate() {
            let id =
                EndpointId::parse(raw).map_err(|e| ApiError::validation(format!("field `endpointIds[{i}]`: {e}")))?;
            if endpoints.iter().any(|e: &Endpoint| e.id == id) {
                return Err(ApiError::validation(format!(
                    "field `endpointIds[{i}]`: {id} is listed twice"
                )));
            }
            let e = self
                .endpoints
                .get_endpoint(&tenant.id, &id)
                .await?
                // A deleted endpoint takes no events: it is gone.
                .filter(|e| e.tenant_id == tenant.id && e.deleted_at.is_none())
                .ok_or_else(|| ApiError::not_found("endpoint"))?;
            endpoints.push(e);
        }
        let (endpoints, delivery_ids) = match &routed {
            Some(r) => (r.endpoints.as_slice(), Some(r.delivery_ids.clone())),
            None => (endpoints.as_slice(), None),
        };
        let new = NewEvent {
            event_id,
            event_type: body.event_type,
            payload,
            planned_at,
            endpoints,
            trigger: Trigger::Initial,
            webhook_ids: None,
            delivery_ids,
        };
        let (mut event, deliveries) = ingest::build(&new, now, self.random.as_ref());
        let mut answer = EventAccepted {
            event_id: event.id.clone(),
            deliveries: deliveries
                .iter()
                .map(|d| DeliveryRef {
                    id: d.id.clone(),
                    endpoint_id: d.endpoint_id.clone(),
                    status: d.status,
                })
                .collect(),
            fanout: None,
        };
        if let Some(r) = &routed {
            r.apply(&mut event, tenant);
            answer.fanout = Some(FanoutProgressOut::at_ingest(&r.progress));
        }
        if let Some((key, hash)) = idem {
            let record = IdempotencyRecord {
                key,
                request_hash: hash.clone(),
                status: 202,
                response_body: serde_json::to_string(&answer).unwrap_or_default(),
                created_at: now,
                expires_at: now.millis() / 1000 + IDEMPOTENCY_TTL_SECONDS,
            };
            if let Some(first) = self.idempotency.put_idempotency(&record).await? {
                if first.request_hash != hash {
                    return Err(ApiError::idempotency_key_reused());
                }
                // Same key, same body: make sure what the first answer promised exists
                // and is queued, rebuilding it under the promised ids if the first
                // request died before writing, then give the first answer again.
                if let Some((event_id, delivery_ids)) = promised_ids(&first, endpoints) {
                    if self.deliveries.get_event(&tenant.id, &event_id).await?.is_some() {
                        self.pipeline().requeue(&delivery_ids, now).await?;
                    } else {
                        let new = NewEvent {
                            event_id,
                            delivery_ids: Some(delivery_ids),
                            ..new
                        };
                        let (mut event, deliveries) = ingest::build(&new, now, self.random.as_ref());
                        if let Some(r) = &routed {
                            r.apply(&mut event, tenant);
                        }
                        self.write_event(&event, &deliveries, now).await?;
                    }
                }
                let status = StatusCode::from_u16(first.status).unwrap_or(StatusCode::ACCEPTED);
                let mut resp = (status, first.response_body).into_response();
                resp.headers_mut()
                    .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
                resp.headers_mut()
                    .insert("idempotent-replayed", HeaderValue::from_static("true"));
                return Ok(Prepared::Answered(resp));
            }
        }
        Ok(Prepared::Write(Box::new(EventWrite {
            event,
            deliveries,
            answer,
            now,
        })))
    }

    /// Writes a new event through the ingest pipeline, then starts a large
    /// fan-out's first step when the event is new.
    async fn write_event(&self, event: &EventRecord, deliveries: &[Delivery], now: Timestamp) -> ApiResult<()> {
        if self.pipeline().write_event(event, deliveries, now).await? == Written::New {
            self.start_fanout(event).await?;
        }
        Ok(())
    }

    /// What follows a batch entry's write (`stored`, its result): the pipeline's
    /// queueing, then a large fan-out's first step when the event is new.
    pub(super) async fn finish_write(
        &self,
        event: &EventRecord,
        deliveries: &[Delivery],
        stored: Result<(), PortError>,
        now: Timestamp,
    ) -> ApiResult<()> {
        if self.pipeline().after_write(event, deliveries, stored, now).await? == Written::New {
            self.start_fanout(event).await?;
        }
        Ok(())
    }
}

/// The event id and per-endpoint delivery ids a stored first answer promised, in the
/// order of `endpoints`; `None` if the answer does not name them all (then there is
/// nothing to rebuild, and the first answer is replayed as it is).
fn promised_ids(first: &IdempotencyRecord, endpoints: &[Endpoint]) -> Option<(EventId, Vec<DeliveryId>)> {
    let answer: Value = serde_json::from_str(&first.response_body).ok()?;
    let event_id = EventId::parse(answer.get("eventId")?.as_str()?).ok()?;
    let listed = answer.get("deliveries")?.as_array()?;
    let ids = endpoints
        .iter()
        .map(|e| {
            listed.iter().find_map(|d| {
                (d.get("endpointId")?.as_str()? == e.id.as_str())
                    .then(|| DeliveryId::parse(d.get("id")?.as_str()?).ok())
                    .flatten()
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((event_id, ids))
}

/// An event's `payload` (required, at most 256 KiB serialized) and its `type` (1 to
/// [`MAX_EVENT_TYPE`] characters, outside the reserved `courier.` namespace),
/// checked in that order: what ingest and a
/// schedule's stored event both need.
pub(super) fn checked_payload(payload: Option<Value>, event_type: Option<&str>) -> ApiResult<Value> {
    let payload = payload.ok_or_else(|| ApiError::validation("field `payload` is required"))?;
    let payload_len = serde_json::to_vec(&payload).map(|v| v.len()).unwrap_or(usize::MAX);
    if payload_len > MAX_PAYLOAD_BYTES {
        return Err(ApiError::new(
            ProblemCode::PayloadTooLarge,
            format!("field `payload` is {payload_len} bytes; the limit is {MAX_PAYLOAD_BYTES} (256 KiB)"),
        ));
    }
    if let Some(t) = event_type
        && (t.is_empty() || t.chars().count() > MAX_EVENT_TYPE)
    {
        return Err(ApiError::validation(format!(
            "field `type` must be 1-{MAX_EVENT_TYPE} characters"
        )));
    }
    if let Some(t) = event_type
        && !courier_core::operational::producer_may_use(t)
    {
        return Err(ApiError::validation(format!(
            "field `type`: {t:?} is in the reserved `courier.` namespace; only Courier sends those"
        )));
    }
    Ok(payload)
}

/// The routes of `/v1/events` and one event; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/events", routing::post(create).get(list))
        .route("/v1/events/{id}", routing::get(get))
        .route("/v1/events/{id}/deliveries", routing::get(deliveries))
}
