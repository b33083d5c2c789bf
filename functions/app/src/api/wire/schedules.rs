//! `/v1/schedules` on the wire: what creating or replacing a schedule takes, how a
//! schedule and its occurrences are shown.

use crate::api::wire::events::FanoutProgressOut;
use crate::domain::schedule::{OccurrenceFailure, Schedule, ScheduleState};
use courier_core::Timestamp;
use courier_core::decide::LatencyClass;
use courier_core::ids::{DeliveryId, EndpointId, EventId, ScheduleId};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /v1/schedules` and `PUT /v1/schedules/{id}`: exactly one of `cron` (with an
/// optional `timezone`), `rate` and `at`; and exactly one target: `endpointId`, or
/// `type` (with an optional `applicationId`) to route each occurrence by
/// subscription. Every field is checked by the handler so that a wrong one answers
/// 400 naming it.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "endpointId": "ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "cron": "cron(0 9 * * ? *)",
    "timezone": "Europe/Berlin",
    "type": "report.daily",
    "payload": {"report": "daily"}
})))]
pub struct ScheduleIn {
    /// Where each occurrence goes (one endpoint). Leave it out to route by
    /// subscription (`type`, `applicationId`).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::EndpointId>))]
    pub endpoint_id: Option<String>,
    /// Routing by subscription (no `endpointId`): the application, by its `app_` id
    /// or its `uid`, whose endpoints subscribed to `type` take each occurrence; leave
    /// it out for the tenant's endpoints without an application. Stored as the `app_`
    /// id.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 256))]
    pub application_id: Option<String>,
    /// EventBridge Scheduler's six-field cron, e.g. `cron(0 9 * * ? *)`, evaluated in
    /// `timezone`.
    #[cfg_attr(feature = "openapi", schema(examples("cron(0 9 * * ? *)")))]
    pub cron: Option<String>,
    /// IANA time zone of `cron` (UTC when absent), e.g. `Europe/Berlin`; only with
    /// `cron`.
    #[cfg_attr(feature = "openapi", schema(examples("Europe/Berlin")))]
    pub timezone: Option<String>,
    /// `rate(N minute|minutes|hour|hours|day|days)`, counted from `startAt` (or the
    /// creation instant).
    #[cfg_attr(feature = "openapi", schema(examples("rate(5 minutes)")))]
    pub rate: Option<String>,
    /// One firing at this instant.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>))]
    pub at: Option<String>,
    /// No firing before this instant.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>))]
    pub start_at: Option<String>,
    /// No firing after this instant; must be after `startAt`.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>))]
    pub end_at: Option<String>,
    /// The event type of each occurrence. Required when routing by subscription, and
    /// then it must be a declared event type (`/v1/event-types`). When the type has a
    /// schema, `payload` must match it (422 `payload_invalid`), and it is checked
    /// again at each firing.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 256))]
    pub event_type: Option<String>,
    /// Any JSON value except null, at most 256 KiB serialised; each occurrence sends
    /// it as `data`. Required.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::NonNullJson, required))]
    pub payload: Option<Value>,
    /// The latency class of the occurrences' deliveries: the Greatwait horizon counts
    /// from each planned instant by this class when set, else by the endpoint's.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<LatencyClassName>))]
    pub latency_class: Option<LatencyClass>,
    /// The long-running allowance of the occurrences' deliveries (added to the
    /// Greatwait horizon, and how long a 202 waits for completion) when set, else the
    /// endpoint's.
    #[cfg_attr(feature = "openapi", schema(minimum = 0, maximum = 86400))]
    pub long_running_allowance_seconds: Option<u64>,
}

/// A delivery's latency class.
#[cfg(feature = "openapi")]
#[derive(utoipa::ToSchema)]
#[schema(as = LatencyClass)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)] // only its schema is used
pub enum LatencyClassName {
    Realtime,
    Bulk,
}

/// Whether a schedule fires.
#[cfg(feature = "openapi")]
#[derive(utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)] // only its schema is used
pub enum ScheduleStatus {
    Active,
    Paused,
}

/// A schedule as the API shows it, with its next firing instants.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ScheduleOut {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::ScheduleId))]
    pub id: ScheduleId,
    /// The one endpoint of each occurrence; null when routed by subscription.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::EndpointId>, required))]
    pub endpoint_id: Option<EndpointId>,
    /// Routed by subscription: the application (`app_` id) whose subscribed endpoints
    /// take each occurrence; null with `endpointId` null: the tenant's endpoints
    /// without an application.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub application_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(required))]
    pub cron: Option<String>,
    #[cfg_attr(feature = "openapi", schema(required))]
    pub timezone: Option<String>,
    #[cfg_attr(feature = "openapi", schema(required))]
    pub rate: Option<String>,
    #[cfg_attr(feature = "openapi", schema(required))]
    pub at: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>, required))]
    pub start_at: Option<Timestamp>,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>, required))]
    pub end_at: Option<Timestamp>,
    #[serde(rename = "type")]
    #[cfg_attr(feature = "openapi", schema(required))]
    pub event_type: Option<String>,
    /// The data each occurrence sends (null when the stored data was lost:
    /// occurrences then settle `payload_unavailable` until a replace).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::NonNullJson>, required))]
    pub payload: Option<Value>,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<LatencyClassName>, required))]
    pub latency_class: Option<LatencyClass>,
    #[cfg_attr(feature = "openapi", schema(required))]
    pub long_running_allowance_seconds: Option<u64>,
    #[cfg_attr(feature = "openapi", schema(value_type = ScheduleStatus))]
    pub status: ScheduleState,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub created_at: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub updated_at: Timestamp,
    /// The next firing instants (none while paused).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::api::openapi::schemas::Timestamp>, max_items = 5))]
    pub next_firings: Vec<Timestamp>,
}

impl ScheduleOut {
    /// The stored schedule with the firing instants computed for it.
    pub fn new(s: &Schedule, next_firings: Vec<Timestamp>) -> Self {
        ScheduleOut {
            id: s.id.clone(),
            endpoint_id: s.endpoint_id.clone(),
            application_id: s.application_id.clone(),
            cron: s.recurrence.cron.clone(),
            timezone: s.recurrence.timezone.clone(),
            rate: s.recurrence.rate.clone(),
            at: s.recurrence.at.clone(),
            start_at: s.start_at,
            end_at: s.end_at,
            event_type: s.event_type.clone(),
            payload: s.payload.clone(),
            latency_class: s.latency_class,
            long_running_allowance_seconds: s.long_running_allowance_seconds,
            status: s.state,
            created_at: s.created_at,
            updated_at: s.updated_at,
            next_firings,
        }
    }
}

/// What `DELETE /v1/schedules/{id}` answers.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScheduleDeleted {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::ScheduleId))]
    pub id: ScheduleId,
    /// Always true.
    pub deleted: bool,
}

/// One firing: an event planned at the firing instant, and its delivery (one
/// endpoint) or its fan-out (routed by subscription).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct OccurrenceOut {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub planned_at: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EventId))]
    pub event_id: EventId,
    /// The delivery to the schedule's endpoint; null for a fan-out, whose deliveries
    /// are listed by its event (`GET /v1/events/{id}`).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::DeliveryId>, required))]
    pub delivery_id: Option<DeliveryId>,
    /// The delivery's status; null for a fan-out.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::DeliveryStatus>, required))]
    pub status: Option<&'static str>,
    /// The delivery's attempts so far; null for a fan-out.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub attempt_count: Option<u32>,
    /// The delivery's last attempt; null before the first and for a fan-out.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub last_attempt: Option<LastAttempt>,
    /// For a fan-out: how many subscribed endpoints matched and how many have their
    /// delivery; null for one endpoint.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub fanout: Option<FanoutProgressOut>,
    /// For a fan-out only: the stored payload could not be used at the firing
    /// (missing, or no longer valid for its type's schema), so each delivery settles
    /// `payload_unavailable` / `replace_payload`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload_unavailable: Option<bool>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub created_at: Timestamp,
    /// Present only when the firing reached the dead-letter queue and could not be
    /// made even late: no event was written for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failure: Option<OccurrenceFailureOut>,
}

/// An occurrence's delivery's last attempt.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct LastAttempt {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub started_at: Timestamp,
    /// `succeeded`, `retryable_failure`, `terminal_failure` or `ambiguous`.
    pub state: String,
    /// `payload_unavailable` when the schedule's stored data could not be used.
    pub diagnostic: String,
    /// `replace_payload`: replace the schedule (PUT), sending data again.
    pub remediation: String,
}

/// Why a firing could not be made.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OccurrenceFailureOut {
    /// Why the firing could not be made (the last error).
    pub reason: String,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub at: Timestamp,
}

impl From<&OccurrenceFailure> for OccurrenceFailureOut {
    fn from(f: &OccurrenceFailure) -> Self {
        OccurrenceFailureOut {
            reason: f.reason.clone(),
            at: f.at,
        }
    }
}

/// What [`ScheduleIn`]'s derived schema cannot say: exactly one of `cron` (with its
/// optional `timezone`), `rate` and `at`, and exactly one target, `endpointId`
/// (without `applicationId`) or `type` (without `endpointId`), as one `oneOf` over
/// their six pairs. A field sent as null counts as left out, as the API reads it.
#[cfg(feature = "openapi")]
pub struct ScheduleInRules;

#[cfg(feature = "openapi")]
impl utoipa::Modify for ScheduleInRules {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use serde_json::json;
        use utoipa::ToSchema;
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::Schema;
        let string = json!({"type": "string"});
        let none = json!({"type": "null"});
        let recurrences = [
            json!({"cron": string, "rate": none, "at": none}),
            json!({"rate": string, "cron": none, "at": none, "timezone": none}),
            json!({"at": string, "cron": none, "rate": none, "timezone": none}),
        ];
        let targets = [
            ("endpointId", json!({"endpointId": string, "applicationId": none})),
            // Routed by subscription, `type` must be a declared type's name.
            (
                "type",
                json!({"type": {"$ref": "#/components/schemas/EventTypeName"}, "endpointId": none}),
            ),
        ];
        let mut branches = Vec::new();
        for (recurrence, properties) in ["cron", "rate", "at"].iter().zip(&recurrences) {
            for (target, target_properties) in &targets {
                let mut p = properties.clone();
                if let (Some(p), Some(t)) = (p.as_object_mut(), target_properties.as_object()) {
                    p.extend(t.clone());
                }
                branches.push(json!({"required": [recurrence, target], "properties": p}));
            }
        }
        let Some(components) = doc.components.as_mut() else {
            return;
        };
        if let Some(RefOr::T(Schema::Object(object))) = components.schemas.get_mut(ScheduleIn::name().as_ref()) {
            // `oneOf` beside `properties`, as OpenAPI 3.1 (JSON Schema) allows and
            // utoipa's object has no field for.
            object
                .extensions
                .get_or_insert_with(Default::default)
                .insert("oneOf".to_owned(), serde_json::Value::Array(branches));
        }
    }
}
