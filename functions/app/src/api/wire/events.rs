//! `/v1/events` on the wire: what sending one event or a batch takes, what ingest
//! answers, and how the audit log shows an event and its fan-out.

use crate::domain::model::{DeliveryStatus, EventRecord, EventTarget, FanoutProgress, FanoutStatus};
use courier_core::Timestamp;
use courier_core::ids::{DeliveryId, EndpointId, EventId};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /v1/events`. Name endpoints with `endpointId` or `endpointIds` (not both),
/// or name neither and give `type` (with `applicationId` for an application's
/// endpoints, none for the tenant's endpoints without an application) to route the
/// event by subscription: every endpoint whose `filterTypes` and `channels` want it
/// gets a delivery.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "endpointId": "ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "type": "invoice.paid",
    "payload": {"invoiceId": "inv_123", "amount": 4200}
})))]
pub struct EventIn {
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::EndpointId>))]
    pub endpoint_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(schema_with = endpoint_ids))]
    pub endpoint_ids: Option<Vec<String>>,
    /// The event type, passed to receivers in the envelope. To route by
    /// subscription it must be dot-separated segments of letters, digits, `_` and
    /// `-` (at most 128 characters); outside the reserved `courier.` namespace.
    #[serde(rename = "type")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, min_length = 1, max_length = 256))]
    pub event_type: Option<String>,
    /// Required.
    #[cfg_attr(feature = "openapi", schema(schema_with = payload, required))]
    pub payload: Option<Value>,
    #[cfg_attr(feature = "openapi", schema(schema_with = planned_at))]
    pub planned_at: Option<String>,
    /// Routing by subscription only: the application whose endpoints get the event
    /// (by id or uid; an unknown one answers 404).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::ApplicationRef>))]
    pub application_id: Option<String>,
    /// The channels the event carries: an endpoint with a channel filter takes it
    /// only if one of them is among its channels.
    #[cfg_attr(feature = "openapi", schema(schema_with = channels))]
    pub channels: Option<Vec<String>>,
}

/// What `EventIn`'s derive cannot say, as the code checks it (null counts as
/// left out): `endpointId` and `endpointIds` are never both given; without either
/// the event is routed by subscription, so `type` is required and must be an event
/// type name; with either, `applicationId` is refused. Each broken rule answers
/// 400. utoipa has no `not` or `if`, so they are written as an extension, which
/// serialises under the name given.
#[cfg(feature = "openapi")]
pub struct EventInRules;

#[cfg(feature = "openapi")]
impl utoipa::Modify for EventInRules {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use crate::api::openapi::schemas::EventTypeName;
        use crate::api::wire::common::given;
        use serde_json::json;
        use utoipa::ToSchema;
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::Schema;
        let schema = doc
            .components
            .as_mut()
            .and_then(|c| c.schemas.get_mut(EventIn::name().as_ref()));
        let Some(RefOr::T(Schema::Object(o))) = schema else {
            return;
        };
        let type_name = format!("#/components/schemas/{}", EventTypeName::name());
        // One extension key: extensions are a hash map, so several would come out
        // in a different order each run.
        let rules = json!([
            {"not": {"allOf": [given("endpointId"), given("endpointIds")]}},
            {
                "if": {"anyOf": [given("endpointId"), given("endpointIds")]},
                "then": {"properties": {"applicationId": {"type": "null"}}},
                "else": {"required": ["type"], "properties": {"type": {"$ref": type_name}}}
            }
        ]);
        o.extensions
            .get_or_insert_with(Default::default)
            .insert("allOf".to_owned(), rules);
    }
}

/// `endpointIds`: 1 to `MAX_ENDPOINTS_PER_EVENT` distinct endpoints.
#[cfg(feature = "openapi")]
fn endpoint_ids() -> utoipa::openapi::schema::Array {
    use crate::api::http::limits::MAX_ENDPOINTS_PER_EVENT;
    use crate::api::openapi::schemas::EndpointId;
    use utoipa::ToSchema;
    use utoipa::openapi::Ref;
    use utoipa::openapi::schema::{ArrayBuilder, SchemaType, Type};
    // null reads as left out.
    ArrayBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Array, Type::Null]))
        .items(Ref::from_schema_name(EndpointId::name()))
        .min_items(Some(1))
        .max_items(Some(MAX_ENDPOINTS_PER_EVENT))
        .unique_items(true)
        .description(Some(format!(
            "1-{MAX_ENDPOINTS_PER_EVENT} distinct endpoints (a repeat answers 400 naming it)."
        )))
        .build()
}

/// `payload`: any JSON value but null, at most `MAX_PAYLOAD_BYTES` serialised.
#[cfg(feature = "openapi")]
fn payload() -> utoipa::openapi::schema::Object {
    use crate::api::http::limits::MAX_PAYLOAD_BYTES;
    use utoipa::openapi::extensions::Extensions;
    use utoipa::openapi::schema::{ObjectBuilder, SchemaType};
    // utoipa has no `not`; extensions are written as they are named.
    let not_null = Extensions::from_iter([("not", serde_json::json!({"type": "null"}))]);
    ObjectBuilder::new()
        .schema_type(SchemaType::AnyValue)
        .description(Some(format!(
            "Any JSON value except null, at most {} KiB ({MAX_PAYLOAD_BYTES} bytes) serialised (413 `payload_too_large` beyond); receivers get it as `data`.",
            MAX_PAYLOAD_BYTES / 1024
        )))
        .extensions(Some(not_null))
        .build()
}

/// `plannedAt`, with the limit the code enforces (`MAX_PLANNED_AHEAD_DAYS`) as
/// `x-maxAheadDays`: a window relative to now, which JSON Schema cannot state.
#[cfg(feature = "openapi")]
fn planned_at() -> utoipa::openapi::schema::Object {
    use crate::api::http::limits::MAX_PLANNED_AHEAD_DAYS;
    use utoipa::openapi::extensions::ExtensionsBuilder;
    use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, SchemaType, Type};
    // null reads as left out.
    ObjectBuilder::new()
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
        .description(Some(format!(
            "When to make the first attempt (RFC 3339); a past instant means now. At most {MAX_PLANNED_AHEAD_DAYS} days ahead (a later instant answers 400 `validation_failed`)."
        )))
        .extensions(Some(
            ExtensionsBuilder::new()
                .add("x-maxAheadDays", MAX_PLANNED_AHEAD_DAYS)
                .build(),
        ))
        .build()
}

/// `channels`: the limits of `courier_core::subscription`.
#[cfg(feature = "openapi")]
fn channels() -> utoipa::openapi::schema::Array {
    use courier_core::subscription::{MAX_ENTRIES, MAX_NAME_LEN};
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, SchemaType, Type};
    // null reads as left out.
    ArrayBuilder::new()
        .schema_type(SchemaType::from_iter([Type::Array, Type::Null]))
        .max_items(Some(MAX_ENTRIES))
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(MAX_NAME_LEN))
                .pattern(Some("^[A-Za-z0-9_.:-]+$")),
        )
        .description(Some(
            "The channels the event carries: an endpoint with a channel filter takes it only if one of them is among its channels. A bad entry answers 400 naming it (`channels[0]`).",
        ))
        .build()
}

/// One delivery an ingest created: its id, its endpoint and its status.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeliveryRef {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::DeliveryId))]
    pub id: DeliveryId,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EndpointId))]
    pub endpoint_id: EndpointId,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::DeliveryStatus))]
    pub status: DeliveryStatus,
}

/// Where a fan-out stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum FanoutStatusOut {
    InProgress,
    Complete,
}

impl From<FanoutStatus> for FanoutStatusOut {
    fn from(s: FanoutStatus) -> Self {
        match s {
            FanoutStatus::InProgress => FanoutStatusOut::InProgress,
            FanoutStatus::Complete => FanoutStatusOut::Complete,
        }
    }
}

/// Where an event routed by subscription stands: `matched` endpoints subscribed to
/// it, the first `processed` of which have their delivery. Up to 50 matches are
/// written in the ingest request (`complete` at once); more are written by fan-out
/// steps on the delivery queue, 100 endpoints a step (`in_progress` until the
/// last). Ingest counts at most 10,051 matches: beyond that `matched` is the number
/// counted while `in_progress` (never below `processed`), and exact once
/// `complete`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({"status": "in_progress", "matched": 240, "processed": 100})))]
pub struct FanoutProgressOut {
    pub status: FanoutStatusOut,
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub matched: u64,
    /// Left out of ingest's answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = u64, minimum = 0))]
    pub processed: Option<u64>,
}

impl FanoutProgressOut {
    /// The progress as the audit log shows it (the id seed stays private).
    pub fn of(f: &FanoutProgress) -> Self {
        FanoutProgressOut {
            status: f.status.into(),
            matched: f.matched,
            processed: Some(f.processed),
        }
    }

    /// The progress as ingest answers it: without `processed`.
    pub fn at_ingest(f: &FanoutProgress) -> Self {
        FanoutProgressOut {
            processed: None,
            ..FanoutProgressOut::of(f)
        }
    }
}

/// What `POST /v1/events` answers (202): the event id and a delivery per endpoint
/// named or matched in the request.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "eventId": "evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "deliveries": [{
        "id": "dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
        "endpointId": "ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
        "status": "pending"
    }]
})))]
pub struct EventAccepted {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EventId))]
    pub event_id: EventId,
    pub deliveries: Vec<DeliveryRef>,
    /// Present when the event was routed by subscription (`processed` is left out
    /// here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = FanoutProgressOut))]
    pub fanout: Option<FanoutProgressOut>,
}

/// `POST /v1/events/batch`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({"events": [
    {"endpointId": "ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2", "type": "invoice.paid", "payload": {"invoiceId": "inv_123"}, "idempotencyKey": "inv_123-paid"},
    {"type": "invoice.paid", "payload": {"invoiceId": "inv_124"}}
]})))]
pub struct EventBatchIn {
    /// The events: each an `EventIn` body plus an optional `idempotencyKey` (1-255
    /// visible ASCII characters). An entry that is not one is answered in its own
    /// result, not refused with the request. More than 100 answer 413
    /// `payload_too_large`.
    #[cfg_attr(
        feature = "openapi",
        schema(value_type = Vec<serde_json::Value>, min_items = 1, max_items = 100, required)
    )]
    pub events: Option<Vec<Value>>,
}

/// One entry's result in a batch: what `POST /v1/events` would have answered.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EventBatchResult {
    /// The entry's position in `events`.
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub index: usize,
    /// What `POST /v1/events` would have answered for this entry: 202, or a
    /// problem's status.
    pub status: u16,
    /// Accepted entries only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EventId))]
    pub event_id: Option<EventId>,
    /// Accepted entries only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<DeliveryRef>))]
    pub deliveries: Option<Vec<DeliveryRef>>,
    /// Refused entries only: the problem `POST /v1/events` would have answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::wire::problem::Problem))]
    pub problem: Option<Value>,
}

/// What `POST /v1/events/batch` answers (207): one result per entry, in order.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"results": [
    {"index": 0, "status": 202, "eventId": "evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2", "deliveries": [{"id": "dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2", "endpointId": "ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2", "status": "pending"}]},
    {"index": 1, "status": 404, "problem": {"type": "https://courier.dev/problems/not-found", "title": "Not found", "status": 404, "code": "not_found", "detail": "endpoint not found"}}
]})))]
pub struct EventBatchResults {
    pub results: Vec<EventBatchResult>,
}

/// One endpoint's outcome at ingest.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EventTargetOut {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EndpointId))]
    pub endpoint_id: EndpointId,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::DeliveryId))]
    pub delivery_id: DeliveryId,
    #[cfg_attr(feature = "openapi", schema(schema_with = target_outcome))]
    pub outcome: String,
    /// Why it was dropped, e.g. `breaker_open`, `endpoint_paused`,
    /// `endpoint_disabled`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub reason: Option<String>,
}

#[cfg(feature = "openapi")]
fn target_outcome() -> utoipa::openapi::schema::Object {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(["queued", "scheduled", "dropped"]))
        .build()
}

impl From<&EventTarget> for EventTargetOut {
    fn from(t: &EventTarget) -> Self {
        EventTargetOut {
            endpoint_id: t.endpoint_id.clone(),
            delivery_id: t.delivery_id.clone(),
            outcome: t.outcome.clone(),
            reason: t.reason.clone(),
        }
    }
}

/// An audit-log entry: an event with its per-endpoint outcome at ingest.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "id": "evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "type": "invoice.paid",
    "plannedAt": "2026-11-30T06:28:01.000Z",
    "createdAt": "2026-11-30T06:28:01.000Z",
    "deliveries": [{
        "endpointId": "ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
        "deliveryId": "dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
        "outcome": "queued"
    }]
})))]
pub struct EventOut {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EventId))]
    pub id: EventId,
    #[serde(rename = "type")]
    #[cfg_attr(feature = "openapi", schema(required))]
    pub event_type: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub planned_at: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub created_at: Timestamp,
    /// The endpoints named at ingest, or those a fan-out wrote in the request.
    pub deliveries: Vec<EventTargetOut>,
    /// Routed events only: the application (null for the tenant's endpoints
    /// without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>))]
    pub application_id: Option<Option<String>>,
    /// Routed events only: the channels carried.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<String>>))]
    pub channels: Option<Option<Vec<String>>>,
    /// Routed events only.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = FanoutProgressOut))]
    pub fanout: Option<FanoutProgressOut>,
}

impl From<&EventRecord> for EventOut {
    fn from(e: &EventRecord) -> Self {
        let routed = e.fanout.is_some();
        EventOut {
            id: e.id.clone(),
            event_type: e.event_type.clone(),
            planned_at: e.planned_at,
            created_at: e.created_at,
            deliveries: e.targets.iter().map(EventTargetOut::from).collect(),
            application_id: routed.then(|| e.application_id.clone()),
            channels: routed.then(|| e.channels.clone()),
            fanout: e.fanout.as_ref().map(FanoutProgressOut::of),
        }
    }
}

/// The limits the derives take as literals are the ones the code enforces; the
/// enums the document lists are the ones the code writes.
#[cfg(test)]
mod tests {
    use crate::api::http::limits::{MAX_COMPLETION_DETAIL, MAX_EVENT_TYPE, MAX_EVENTS_PER_BATCH};
    use crate::domain::delivery_message::Trigger;
    use serde_json::{Value, json};

    /// The committed document (a test in tests/it/openapi.rs holds it to the
    /// generated one), read rather than generated here so that the wire types do
    /// not import the document that imports them.
    fn schemas() -> Value {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
        let text = std::fs::read_to_string(path).expect("docs/openapi.json");
        let doc: Value = serde_json::from_str(&text).expect("the document is JSON");
        doc["components"]["schemas"].clone()
    }

    #[test]
    fn literal_limits_are_the_codes() {
        let s = schemas();
        assert_eq!(
            s["EventBatchIn"]["properties"]["events"]["maxItems"],
            json!(MAX_EVENTS_PER_BATCH)
        );
        assert_eq!(s["EventIn"]["properties"]["type"]["maxLength"], json!(MAX_EVENT_TYPE));
        assert_eq!(
            s["CompleteIn"]["properties"]["detail"]["maxLength"],
            json!(MAX_COMPLETION_DETAIL)
        );
    }

    #[test]
    fn the_trigger_enum_is_the_codes() {
        let all = [
            Trigger::Initial,
            Trigger::Retry,
            Trigger::Redelivery,
            Trigger::Replay,
            Trigger::Test,
        ];
        // A new trigger fails to compile here: list it above and in the schema.
        for t in all {
            match t {
                Trigger::Initial | Trigger::Retry | Trigger::Redelivery | Trigger::Replay | Trigger::Test => {}
            }
        }
        let wire: Vec<Value> = all.iter().map(|t| serde_json::to_value(t).expect("a string")).collect();
        assert_eq!(schemas()["Trigger"]["enum"], json!(wire));
    }
}
