//! `/v1/schedules`: Greatwait's recurring schedules. Create (Idempotency-Key
//! required), list, read (with the next firing instants), replace, pause, resume,
//! delete, and each schedule's occurrences with their deliveries' status (or their
//! fan-out's progress, for a schedule routed by type to an application). Every
//! change is stored first, then told to the recurring timer (EventBridge Scheduler);
//! a repeat of a create under its key makes sure both exist.

use crate::api::Api;
use crate::api::http::body::ApiJson;
use crate::api::http::idempotency::{idempotency_key, replayed_answer};
use crate::api::http::limits::MAX_LONG_RUNNING_SECONDS;
use crate::api::http::problem::{ApiError, ApiResult};
use crate::api::http::query::list_query;
use crate::api::resources::events::checked_payload;
use crate::api::routes::{Authed, Id, page_reply, reply};
use crate::api::wire::events::FanoutProgressOut;
use crate::api::wire::schedules::{
    LastAttempt, OccurrenceFailureOut, OccurrenceOut, ScheduleDeleted, ScheduleIn, ScheduleOut,
};
use crate::domain::model::Tenant;
use crate::domain::schedule::{FireMessage, Occurrence, RecurrenceSpec, RecurringSpec, Schedule, ScheduleState};
use crate::ports::PortError;
use crate::ports::PortRng;
use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing;
use courier_core::Timestamp;
use courier_core::decide::LatencyClass;
use courier_core::ids::{EndpointId, ScheduleId};
use serde_json::Value;
use std::sync::Arc;

/// How many upcoming firing instants a schedule's view shows.
pub const NEXT_FIRINGS: usize = 5;

/// A body checked field by field (nothing stored yet).
struct Checked {
    endpoint_id: Option<EndpointId>,
    application_id: Option<String>,
    recurrence: RecurrenceSpec,
    start_at: Option<Timestamp>,
    end_at: Option<Timestamp>,
    event_type: Option<String>,
    payload: Value,
    latency_class: Option<LatencyClass>,
    long_running_allowance_seconds: Option<u64>,
}

fn instant(field: &str, value: Option<&String>) -> ApiResult<Option<Timestamp>> {
    value
        .map(|v| Timestamp::parse_rfc3339(v).map_err(|e| ApiError::validation(format!("field `{field}`: {e}"))))
        .transpose()
}

impl Api {
    /// Checks a body: the target (exactly one of `endpointId` and a route by `type`),
    /// the recurrence (400 naming the field: `cron.minutes`, `timezone`, ...), the
    /// window, the payload, then that the endpoint, or the application and the event
    /// type, exist (404), then the payload against the type's schema (422).
    async fn check_schedule(&self, tenant: &Tenant, body: ScheduleIn) -> ApiResult<Checked> {
        let endpoint_id = match (&body.endpoint_id, &body.application_id, &body.event_type) {
            (Some(raw), None, _) => {
                Some(EndpointId::parse(raw).map_err(|e| ApiError::validation(format!("field `endpointId`: {e}")))?)
            }
            (Some(_), Some(_), _) => {
                return Err(ApiError::validation(
                    "send either `endpointId` or `applicationId` with `type` (to route by subscription), not both",
                ));
            }
            (None, _, Some(t)) => {
                courier_core::subscription::check_type_name(t)
                    .map_err(|m| ApiError::validation(format!("field `type`: {m}")))?;
                None
            }
            (None, _, None) => {
                return Err(ApiError::validation(
                    "field `endpointId` or `type` (to route by subscription) is required",
                ));
            }
        };
        if body.timezone.is_some() && body.cron.is_none() {
            return Err(ApiError::validation("field `timezone` goes with `cron` only"));
        }
        if body.at.is_some() {
            // `at` is an RFC 3339 instant here (the zone is in it).
            instant("at", body.at.as_ref())?;
        }
        let recurrence = RecurrenceSpec {
            cron: body.cron,
            timezone: body.timezone,
            rate: body.rate,
            at: body.at,
        };
        recurrence.parse(self.schedules.second_rates).map_err(|e| {
            let detail = match (
                &e,
                recurrence.cron.is_none() && recurrence.rate.is_none() && recurrence.at.is_none(),
            ) {
                (_, true) => "send exactly one of `cron` (with `timezone`), `rate` and `at`".to_owned(),
                (courier_core::recurrence::RecurrenceError::Invalid { field, message }, _) => {
                    format!("field `{field}`: {message}")
                }
            };
            ApiError::validation(detail)
        })?;
        let start_at = instant("startAt", body.start_at.as_ref())?;
        let end_at = instant("endAt", body.end_at.as_ref())?;
        if let (Some(s), Some(e)) = (start_at, end_at)
            && e <= s
        {
            return Err(ApiError::validation("field `endAt` must be after `startAt`"));
        }
        let payload = checked_payload(body.payload, body.event_type.as_deref())?;
        if body
            .long_running_allowance_seconds
            .is_some_and(|a| a > MAX_LONG_RUNNING_SECONDS)
        {
            return Err(ApiError::validation(format!(
                "field `longRunningAllowanceSeconds` must be at most {MAX_LONG_RUNNING_SECONDS}"
            )));
        }
        let mut application_id = None;
        match &endpoint_id {
            Some(id) => {
                self.endpoints
                    .get_endpoint(&tenant.id, id)
                    .await?
                    .filter(|e| e.tenant_id == tenant.id)
                    .ok_or_else(|| ApiError::not_found("endpoint"))?;
            }
            None => {
                if let Some(raw) = &body.application_id {
                    application_id = Some(self.resolve_application(tenant, raw).await?.id);
                }
                // A routed schedule fires for a long time: a type never declared
                // (a typo) would reach no one, or only catch-all endpoints, unseen.
                let t = body.event_type.as_deref().unwrap_or_default();
                self.applications
                    .get_event_type(&tenant.id, t)
                    .await?
                    .ok_or_else(|| ApiError::not_found("event type"))?;
            }
        }
        if let Some(t) = &body.event_type {
            self.check_payload_schema(tenant, t, &payload).await?;
        }
        Ok(Checked {
            endpoint_id,
            application_id,
            recurrence,
            start_at,
            end_at,
            event_type: body.event_type,
            payload,
            latency_class: body.latency_class,
            long_running_allowance_seconds: body.long_running_allowance_seconds,
        })
    }

    async fn load_schedule(&self, tenant: &Tenant, id: &str) -> ApiResult<Schedule> {
        let id = ScheduleId::parse(id).map_err(|_| ApiError::not_found("schedule"))?;
        self.schedules
            .store
            .get_schedule(&tenant.id, &id)
            .await?
            .ok_or_else(|| ApiError::not_found("schedule"))
    }

    /// Tells the recurring timer what the stored schedule now is.
    async fn sync_timer(&self, s: &Schedule) -> ApiResult<()> {
        let (expression, timezone) = s.recurrence.expression();
        let now = self.clock.now();
        self.schedules
            .timer
            .put_recurring(&RecurringSpec {
                name: s.timer_name(),
                expression,
                timezone,
                // Scheduler refuses a StartDate more than 5 minutes past; one in the
                // past changes nothing anyway (the store's window check stays).
                start: s.start_at.filter(|t| *t > now.plus_secs(-240)),
                end: s.end_at,
                enabled: s.state == ScheduleState::Active,
                input: FireMessage::template(&s.tenant_id, &s.id),
            })
            .await?;
        Ok(())
    }

    /// The schedule's view with its next firing instants (none while paused).
    pub(crate) fn schedule_view(&self, s: &Schedule) -> ScheduleOut {
        let now = self.clock.now();
        let next: Vec<Timestamp> = match (s.state, s.recurrence.parse(self.schedules.second_rates)) {
            (ScheduleState::Active, Ok(r)) => r.next_after(now, s.anchor(), s.end_at, NEXT_FIRINGS),
            _ => Vec::new(),
        };
        ScheduleOut::new(s, next)
    }

    /// Changes a stored schedule (version-checked), then the timer.
    async fn modify_schedule(&self, tenant: &Tenant, id: &str, change: impl Fn(&mut Schedule)) -> ApiResult<Schedule> {
        let old = self.load_schedule(tenant, id).await?;
        let mut s = old.clone();
        change(&mut s);
        s.updated_at = self.clock.now();
        s.version = old.version + 1;
        match self.schedules.store.update_schedule(&s, old.version).await {
            Ok(()) => {}
            Err(PortError::Conflict(_)) => {
                return Err(ApiError::conflict(
                    "the schedule changed meanwhile; read it and try again",
                ));
            }
            Err(e) => return Err(e.into()),
        }
        self.sync_timer(&s).await?;
        Ok(s)
    }
}

/// `POST /v1/schedules`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/schedules",
        operation_id = "createSchedule",
        tag = "schedules",
        summary = r#"Create a schedule"#,
        description = r#"A recurring schedule (`cron` in a time zone, `rate`) or a single `at`, in EventBridge Scheduler's syntax. Each firing becomes one occurrence: an event with `plannedAt` = the firing instant (the delivery horizon counts from it, by the schedule's `latencyClass` and `longRunningAllowanceSeconds` when set), for the endpoint or fanned out by subscription to every endpoint of the application that takes its `type`, sent under each endpoint's policy, made once per (schedule, instant) even when a firing comes twice. Requires an `Idempotency-Key`: repeating it with the same body answers the first answer and creates nothing more. The target is `endpointId`, or `type` with an optional `applicationId`."#,
        params(
        ("Idempotency-Key" = crate::api::openapi::schemas::IdempotencyKey, Header, description = r#"Required (400 `idempotency_key_required` without it). 1-255 visible ASCII characters; the same key with the same body within 24 hours answers the first answer and starts nothing new; with another body it answers 422."#),
    ),
        request_body(content = ScheduleIn, content_type = "application/json"),
        responses(
        (status = 201, description = r#"The schedule, with its next firing instants."#, body = ScheduleOut, headers(("Idempotent-Replayed" = String, description = "`true` when this answer repeats the first one given for the same `Idempotency-Key`.")),
            links(
                ("GetSchedule" = (operation_id = "getSchedule", parameters(("id" = "$response.body#/id")), description = "Read the schedule created.")),
                ("ReplaceSchedule" = (operation_id = "replaceSchedule", parameters(("id" = "$response.body#/id")), description = "Replace the schedule created.")),
                ("PauseSchedule" = (operation_id = "pauseSchedule", parameters(("id" = "$response.body#/id")), description = "Pause the schedule created.")),
                ("ResumeSchedule" = (operation_id = "resumeSchedule", parameters(("id" = "$response.body#/id")), description = "Resume the schedule created.")),
                ("ListOccurrences" = (operation_id = "listOccurrences", parameters(("id" = "$response.body#/id")), description = "List the schedule's occurrences.")),
                ("DeleteSchedule" = (operation_id = "deleteSchedule", parameters(("id" = "$response.body#/id")), description = "Delete the schedule created."))
            )),
        (status = 400, description = r#"`validation_failed` (a field named in `detail`: `cron.minutes`, `timezone`, `rate`, `endAt`, ...) or `idempotency_key_required`. Nothing is created; both `endpointId` and `applicationId`, neither `endpointId` nor `type`, or a `type` that is not a type name when routing by subscription."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, description = r#"`not_found`: no endpoint with this `endpointId`, no application with this `applicationId`, or (routing by subscription) no event type named `type`, in your tenant."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 422, description = r#"`idempotency_key_reused`: this key was used with a different body; or `payload_invalid`: `payload` does not match the schema of event type `type`; `pointer` names the first failing place in it. Nothing is changed."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn create(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    headers: HeaderMap,
    ApiJson { value: body, raw }: ApiJson<ScheduleIn>,
) -> ApiResult<Response> {
    let (key, hash) =
        idempotency_key(&tenant, "schedules", &headers, &raw, true)?.ok_or_else(ApiError::idempotency_key_required)?;
    let c = api.check_schedule(&tenant, body).await?;
    let now = api.clock.now();
    let schedule = Schedule {
        id: ScheduleId::generate(now, &mut PortRng(api.random.as_ref())),
        tenant_id: tenant.id.clone(),
        endpoint_id: c.endpoint_id,
        application_id: c.application_id,
        recurrence: c.recurrence,
        start_at: c.start_at,
        end_at: c.end_at,
        event_type: c.event_type,
        payload: Some(c.payload),
        latency_class: c.latency_class,
        long_running_allowance_seconds: c.long_running_allowance_seconds,
        state: ScheduleState::Active,
        created_at: now,
        updated_at: now,
        version: 1,
    };
    let answer = api.schedule_view(&schedule);
    // A struct of strings, numbers and JSON values always serializes.
    let recorded = serde_json::to_value(&answer).map_err(|e| ApiError::unavailable(e.to_string()))?;
    if let Some(first) = api.claim_key_with(key, hash.clone(), 201, &recorded, now).await? {
        if first.request_hash == hash {
            // The first request may have died before writing: make sure what its
            // answer promised is stored and on the timer.
            let promised: Option<Value> = serde_json::from_str(&first.response_body).ok();
            let id = promised
                .as_ref()
                .and_then(|a| a.get("id"))
                .and_then(Value::as_str)
                .and_then(|id| ScheduleId::parse(id).ok());
            if let Some(id) = id {
                let stored = match api.schedules.store.get_schedule(&tenant.id, &id).await? {
                    Some(s) => Some(s),
                    None if first.status == 201 => {
                        let s = Schedule { id, ..schedule };
                        match api.schedules.store.create_schedule(&s).await {
                            Ok(()) | Err(PortError::Conflict(_)) => Some(s),
                            Err(e) => return Err(e.into()),
                        }
                    }
                    None => None,
                };
                if let Some(s) = stored {
                    api.sync_timer(&s).await?;
                }
            }
        }
        return replayed_answer(first, &hash);
    }
    api.schedules.store.create_schedule(&schedule).await?;
    api.sync_timer(&schedule).await?;
    Ok(reply(StatusCode::CREATED, &answer))
}

/// `GET /v1/schedules`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/schedules",
        operation_id = "listSchedules",
        tag = "schedules",
        summary = r#"List schedules"#,
        description = r#"Your schedules by id, with their next firing instants."#,
        params(
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"A page of schedules."#, body = crate::api::wire::common::Page<crate::api::wire::schedules::ScheduleOut>),
        (status = 400, description = r#"`validation_failed`: a bad `cursor` or `limit`."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
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
    let q = list_query(query.as_deref(), &["cursor", "limit"])?;
    let cursor = q.cursor.as_deref();
    // Each schedule's view carries its payload: bounded by bytes too.
    let (items, next) = crate::api::http::list_bytes::bounded_page(
        q.limit,
        |limit| api.schedules.store.list_schedules(&tenant.id, cursor, limit),
        // A struct of strings, numbers and JSON values always serializes.
        |s| serde_json::to_value(api.schedule_view(s)).ok(),
    )
    .await?;
    Ok(page_reply(items, next.as_deref()))
}

/// `GET /v1/schedules/{id}`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/schedules/{id}",
        operation_id = "getSchedule",
        tag = "schedules",
        summary = r#"Get a schedule"#,
        description = r#"The schedule and its next firing instants (none while paused)."#,
        params(
        ("id" = crate::api::openapi::schemas::ScheduleId, Path, description = r#"The schedule id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The schedule."#, body = ScheduleOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, description = r#"`not_found`: no schedule with this id in your tenant (a malformed id, or another tenant's, answers the same)."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn get(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let s = api.load_schedule(&tenant, &id).await?;
    Ok(reply(StatusCode::OK, &api.schedule_view(&s)))
}

/// `PUT /v1/schedules/{id}`: new data and recurrence, same id (Greatwait's
/// `schedules.replace`, which also repairs a payload that became unusable).
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        put,
        path = "/v1/schedules/{id}",
        operation_id = "replaceSchedule",
        tag = "schedules",
        summary = r#"Replace a schedule"#,
        description = r#"Greatwait's `schedules.replace`: new target, recurrence, window and data under the same id (the status is kept). The next occurrences use them; this is how an occurrence that settled `payload_unavailable` (remediation `replace_payload`) is fixed."#,
        params(
        ("id" = crate::api::openapi::schemas::ScheduleId, Path, description = r#"The schedule id. A malformed id answers 404 like an unknown one."#),
    ),
        request_body(content = ScheduleIn, content_type = "application/json"),
        responses(
        (status = 200, description = r#"The schedule as replaced."#, body = ScheduleOut),
        (status = 400, description = r#"`validation_failed`: the body is not a JSON object of this shape, or a field (named in `detail`) is invalid: a cron field such as `cron.minutes`, `timezone`, `rate`, `at`, `endAt` not after `startAt`, a missing `payload`. Checked before anything is created; both `endpointId` and `applicationId`, neither `endpointId` nor `type`, or a `type` that is not a type name when routing by subscription."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, description = r#"`not_found`: no schedule with this id, or no endpoint with this `endpointId`, no application with this `applicationId`, or (routing by subscription) no event type named `type`, in your tenant."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 409, description = r#"`conflict`: the schedule changed during the call; read it and try again."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 413, response = crate::api::openapi::responses::PayloadTooLarge),
        (status = 415, response = crate::api::openapi::responses::UnsupportedMediaType),
        (status = 422, description = r#"`payload_invalid`: `payload` does not match the schema of event type `type`; `pointer` names the first failing place in it. Nothing is changed."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn replace(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    ApiJson { value: body, .. }: ApiJson<ScheduleIn>,
) -> ApiResult<Response> {
    api.load_schedule(&tenant, &id).await?;
    let c = api.check_schedule(&tenant, body).await?;
    let payload = Some(c.payload);
    let s = api
        .modify_schedule(&tenant, &id, |s| {
            s.endpoint_id = c.endpoint_id.clone();
            s.application_id = c.application_id.clone();
            s.recurrence = c.recurrence.clone();
            s.start_at = c.start_at;
            s.end_at = c.end_at;
            s.event_type = c.event_type.clone();
            s.payload = payload.clone();
            s.latency_class = c.latency_class;
            s.long_running_allowance_seconds = c.long_running_allowance_seconds;
        })
        .await?;
    Ok(reply(StatusCode::OK, &api.schedule_view(&s)))
}

/// `POST /v1/schedules/{id}/pause`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/schedules/{id}/pause",
        operation_id = "pauseSchedule",
        tag = "schedules",
        summary = r#"Pause a schedule"#,
        description = r#"No firing while paused (a firing already on its way finds the pause and does nothing). Pausing a paused schedule changes nothing."#,
        params(
        ("id" = crate::api::openapi::schemas::ScheduleId, Path, description = r#"The schedule id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The paused schedule."#, body = ScheduleOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, description = r#"`not_found`: no schedule with this id in your tenant (a malformed id, or another tenant's, answers the same)."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 409, description = r#"`conflict`: the schedule changed during the call; read it and try again."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn pause(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let s = api
        .modify_schedule(&tenant, &id, |s| s.state = ScheduleState::Paused)
        .await?;
    Ok(reply(StatusCode::OK, &api.schedule_view(&s)))
}

/// `POST /v1/schedules/{id}/resume`
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        post,
        path = "/v1/schedules/{id}/resume",
        operation_id = "resumeSchedule",
        tag = "schedules",
        summary = r#"Resume a schedule"#,
        description = r#"Firings start again from the next instant; the ones missed while paused are not made up."#,
        params(
        ("id" = crate::api::openapi::schemas::ScheduleId, Path, description = r#"The schedule id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"The active schedule."#, body = ScheduleOut),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, description = r#"`not_found`: no schedule with this id in your tenant (a malformed id, or another tenant's, answers the same)."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 409, description = r#"`conflict`: the schedule changed during the call; read it and try again."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn resume(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let s = api
        .modify_schedule(&tenant, &id, |s| s.state = ScheduleState::Active)
        .await?;
    Ok(reply(StatusCode::OK, &api.schedule_view(&s)))
}

/// `DELETE /v1/schedules/{id}`: the timer first, so nothing fires for a schedule
/// that is gone (a firing already on its way finds no schedule and does nothing).
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        delete,
        path = "/v1/schedules/{id}",
        operation_id = "deleteSchedule",
        tag = "schedules",
        summary = r#"Delete a schedule"#,
        description = r#"Stops its firings; its occurrences stay readable."#,
        params(
        ("id" = crate::api::openapi::schemas::ScheduleId, Path, description = r#"The schedule id. A malformed id answers 404 like an unknown one."#),
    ),
        responses(
        (status = 200, description = r#"Deleted."#, body = ScheduleDeleted),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, description = r#"`not_found`: no schedule with this id in your tenant (a malformed id, or another tenant's, answers the same)."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn delete(State(api): State<Arc<Api>>, Authed(tenant): Authed, Id(id): Id) -> ApiResult<Response> {
    let s = api.load_schedule(&tenant, &id).await?;
    api.schedules.timer.delete_recurring(&s.timer_name()).await?;
    api.schedules.store.delete_schedule(&tenant.id, &s.id).await?;
    Ok(reply(
        StatusCode::OK,
        &ScheduleDeleted {
            id: s.id,
            deleted: true,
        },
    ))
}

/// `GET /v1/schedules/{id}/occurrences`: newest planned instant first, each with its
/// event and its delivery's status and last attempt's diagnostic and remediation,
/// or for a routed schedule its fan-out's progress.
#[cfg_attr(
    feature = "openapi",
    utoipa::path(
        get,
        path = "/v1/schedules/{id}/occurrences",
        operation_id = "listOccurrences",
        tag = "schedules",
        summary = r#"List a schedule's occurrences"#,
        description = r#"Each firing, newest planned instant first: the planned instant and the event it made; for a schedule with one endpoint, its delivery, the delivery's status and its last attempt's state, diagnostic and remediation; for a schedule routed by subscription, the fan-out's progress and whether the payload was unusable. A deleted schedule's occurrences stay readable."#,
        params(
        ("id" = crate::api::openapi::schemas::ScheduleId, Path, description = r#"The schedule id. A malformed id answers 404 like an unknown one."#),
        ("cursor" = Option<crate::api::openapi::schemas::Cursor>, Query, description = r#"`nextCursor` of the previous page, sent with the same filters and window: an opaque string of URL-safe characters. A cursor this list did not hand out (another list's, an altered one, or one outside the window asked for) answers 400 `validation_failed` naming `cursor`, as do unknown query parameters."#),
        ("limit" = Option<crate::api::openapi::schemas::PageLimit>, Query, description = r#"Page size."#),
    ),
        responses(
        (status = 200, description = r#"A page of occurrences."#, body = crate::api::wire::common::Page<crate::api::wire::schedules::OccurrenceOut>),
        (status = 400, description = r#"`validation_failed`: a bad `cursor` or `limit`."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 401, response = crate::api::openapi::responses::Unauthorized),
        (status = 403, response = crate::api::openapi::responses::PortalForbidden),
        (status = 404, description = r#"`not_found`: no schedule with this id in your tenant (a malformed id, or another tenant's, answers the same)."#, body = crate::api::wire::problem::Problem, content_type = "application/problem+json"),
        (status = 429, response = crate::api::openapi::responses::RateLimited),
        (status = 503, response = crate::api::openapi::responses::ServiceUnavailable),
    ),
    )
)]
pub(crate) async fn occurrences(
    State(api): State<Arc<Api>>,
    Authed(tenant): Authed,
    Id(id): Id,
    RawQuery(query): RawQuery,
) -> ApiResult<Response> {
    let q = list_query(query.as_deref(), &["cursor", "limit"])?;
    // A deleted schedule's occurrences stay readable by its id.
    let sid = ScheduleId::parse(&id).map_err(|_| ApiError::not_found("schedule"))?;
    let page = api
        .schedules
        .store
        .list_occurrences(&tenant.id, &sid, q.cursor.as_deref(), q.limit)
        .await?;
    if page.items.is_empty() && q.cursor.is_none() {
        api.load_schedule(&tenant, &id).await?;
    }
    let mut items = Vec::with_capacity(page.items.len());
    for o in &page.items {
        items.push(api.occurrence_view(&tenant, o).await?);
    }
    Ok(page_reply(items, page.next_cursor.as_deref()))
}

impl Api {
    /// One occurrence as the API shows it: for one endpoint, its delivery's status
    /// and last attempt; for a fan-out, its progress (how many subscribed endpoints
    /// matched and how many have their delivery) and whether the payload was
    /// unusable at the firing, from the event (one read, however many endpoints).
    async fn occurrence_view(&self, tenant: &Tenant, o: &Occurrence) -> ApiResult<OccurrenceOut> {
        let mut v = OccurrenceOut {
            planned_at: o.planned_at,
            event_id: o.event_id.clone(),
            delivery_id: o.delivery_id.clone(),
            status: None,
            attempt_count: None,
            last_attempt: None,
            fanout: None,
            payload_unavailable: None,
            created_at: o.created_at,
            // Only on an occurrence given up from the dead-letter queue.
            failure: o.failure.as_ref().map(OccurrenceFailureOut::from),
        };
        match &o.delivery_id {
            Some(id) => {
                let delivery = self.deliveries.get_delivery(id).await?;
                let last = match &delivery {
                    Some(d) if d.attempt_count > 0 => self.deliveries.last_attempt(&d.id).await?,
                    _ => None,
                };
                v.status = delivery.as_ref().map(|d| d.status.as_str());
                v.attempt_count = delivery.as_ref().map(|d| d.attempt_count);
                v.last_attempt = last.map(|a| LastAttempt {
                    started_at: a.started_at,
                    state: a.state.into_owned(),
                    diagnostic: a.diagnostic.into_owned(),
                    remediation: a.remediation.into_owned(),
                });
            }
            None => {
                if let Some(event) = self.deliveries.get_event(&tenant.id, &o.event_id).await? {
                    v.fanout = event.fanout.as_ref().map(FanoutProgressOut::of);
                    v.payload_unavailable = Some(event.occurrence.as_ref().is_some_and(|x| x.payload_unavailable));
                }
            }
        }
        Ok(v)
    }
}

/// The routes of `/v1/schedules` and one schedule; the method router answers the path's other methods (405
/// with `Allow`).
pub(crate) fn router() -> Router<Arc<Api>> {
    Router::new()
        .route("/v1/schedules", routing::post(create).get(list))
        .route("/v1/schedules/{id}", routing::get(get).put(replace).delete(delete))
        .route("/v1/schedules/{id}/pause", routing::post(pause))
        .route("/v1/schedules/{id}/resume", routing::post(resume))
        .route("/v1/schedules/{id}/occurrences", routing::get(occurrences))
}
