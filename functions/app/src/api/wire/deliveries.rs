//! Deliveries and attempts on the wire: how a delivery and an attempt are shown,
//! and what a receiver's completion report takes and answers.

use crate::domain::delivery_message::Trigger;
use crate::domain::model::{Attempt, Delivery, DeliveryStatus, DestinationErrorRecord};
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// One event on its way to one endpoint.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "id": "dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "eventId": "evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "endpointId": "ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "webhookId": "dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "status": "succeeded",
    "deadReason": null,
    "trigger": "initial",
    "attemptCount": 1,
    "receiverFailures": 0,
    "nextAttemptAt": null,
    "createdAt": "2026-11-30T06:28:01.000Z",
    "plannedAt": "2026-11-30T06:28:01.000Z",
    "settledAt": "2026-11-30T06:28:01.350Z",
    "deadLetteredAt": null,
    "throttledUntil": null
})))]
pub struct DeliveryOut {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::DeliveryId))]
    pub id: DeliveryId,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EventId))]
    pub event_id: EventId,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EndpointId))]
    pub endpoint_id: EndpointId,
    /// The `webhook-id` receivers see: this delivery's id, or the original delivery's
    /// for a replay.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub webhook_id: DeliveryId,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::DeliveryStatus))]
    pub status: DeliveryStatus,
    /// Why it settled without success or was dropped, spelled as the policy's
    /// `reasonStyle` says.
    #[cfg_attr(feature = "openapi", schema(required))]
    pub dead_reason: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Trigger))]
    pub trigger: Trigger,
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub attempt_count: u32,
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub receiver_failures: u32,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>, required))]
    pub next_attempt_at: Option<Timestamp>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub created_at: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub planned_at: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>, required))]
    pub settled_at: Option<Timestamp>,
    /// Set while the delivery's queue message sits in the dead-letter queue; see
    /// redrive.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>, required))]
    pub dead_lettered_at: Option<Timestamp>,
    /// Set while the next attempt is held back by the endpoint's `rateLimit` or
    /// `maxInFlight`: it starts no earlier than this. Cleared when the attempt starts.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::openapi::schemas::Timestamp>, required))]
    pub throttled_until: Option<Timestamp>,
}

impl From<&Delivery> for DeliveryOut {
    fn from(d: &Delivery) -> Self {
        DeliveryOut {
            id: d.id.clone(),
            event_id: d.event_id.clone(),
            endpoint_id: d.endpoint_id.clone(),
            webhook_id: d.webhook_id.clone(),
            status: d.status,
            dead_reason: d.dead_reason.clone(),
            trigger: d.trigger,
            attempt_count: d.attempt_count,
            receiver_failures: d.receiver_failures,
            next_attempt_at: d.next_attempt_at,
            created_at: d.created_at,
            planned_at: d.planned_at,
            settled_at: d.settled_at,
            dead_lettered_at: d.dead_lettered_at,
            throttled_until: d.throttled_until,
        }
    }
}

/// A destination's failed call: AWS's error code and request id.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct DestinationErrorOut {
    pub code: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub request_id: Option<String>,
}

impl From<&DestinationErrorRecord> for DestinationErrorOut {
    fn from(e: &DestinationErrorRecord) -> Self {
        DestinationErrorOut {
            code: e.code.clone(),
            request_id: e.request_id.clone(),
        }
    }
}

/// One request to the receiver (or one declined before sending). Fields without a
/// value are left out.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "id": "att_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "deliveryId": "dlv_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "number": 1,
    "trigger": "initial",
    "state": "succeeded",
    "responseStatus": 200,
    "diagnostic": "delivered",
    "remediation": "none",
    "countsTowardReceiverFailures": false,
    "truncated": false,
    "responseHeaders": {"content-type": "application/json"},
    "durationMs": 342,
    "startedAt": "2026-11-30T06:28:01.000Z"
})))]
pub struct AttemptOut {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::AttemptId))]
    pub id: AttemptId,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::DeliveryId))]
    pub delivery_id: DeliveryId,
    #[cfg_attr(feature = "openapi", schema(minimum = 1))]
    pub number: u32,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Trigger))]
    pub trigger: Trigger,
    /// For a redelivery: the attempt it follows up on.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::AttemptId))]
    pub source_attempt_id: Option<AttemptId>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::AttemptState))]
    pub state: Cow<'static, str>,
    /// The receiver's HTTP status, when it answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = u16))]
    pub response_status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::ErrorClass))]
    pub error_class: Option<Cow<'static, str>>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Diagnostic))]
    pub diagnostic: Cow<'static, str>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Remediation))]
    pub remediation: Cow<'static, str>,
    pub counts_toward_receiver_failures: bool,
    /// The start of a failed text or JSON response body.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub failure_snippet: Option<String>,
    /// The snippet was cut.
    pub truncated: bool,
    pub response_headers: BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = DestinationErrorOut))]
    pub destination_error: Option<DestinationErrorOut>,
    /// The id the destination's service gave the message (SQS/SNS message id,
    /// EventBridge event id, Kinesis sequence number, S3 ETag).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub message_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(minimum = 0))]
    pub duration_ms: u64,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub started_at: Timestamp,
    /// When the next automatic attempt is planned, if one is.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub next_attempt_at: Option<Timestamp>,
}

impl From<&Attempt> for AttemptOut {
    fn from(a: &Attempt) -> Self {
        AttemptOut {
            id: a.id.clone(),
            delivery_id: a.delivery_id.clone(),
            number: a.number,
            trigger: a.trigger,
            source_attempt_id: a.source_attempt_id.clone(),
            state: a.state.clone(),
            response_status: a.response_status,
            error_class: a.error_class.clone(),
            diagnostic: a.diagnostic.clone(),
            remediation: a.remediation.clone(),
            counts_toward_receiver_failures: a.counts_toward_receiver_failures,
            failure_snippet: a.failure_snippet.clone(),
            truncated: a.truncated,
            response_headers: a.response_headers.clone(),
            destination_error: a.destination_error.as_ref().map(DestinationErrorOut::from),
            message_id: a.message_id.clone(),
            duration_ms: a.duration_ms,
            started_at: a.started_at,
            next_attempt_at: a.next_attempt_at,
        }
    }
}

/// How the long-running work ended.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum CompletionOutcome {
    Succeeded,
    Failed,
}

/// `POST /v1/attempts/{attemptId}/complete`: the result of the work a receiver
/// accepted with 202.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({"outcome": "succeeded", "detail": "invoice archived"})))]
pub struct CompleteIn {
    pub outcome: CompletionOutcome,
    /// Free text kept with the attempt, at most 4096 characters.
    #[cfg_attr(feature = "openapi", schema(max_length = 4096))]
    pub detail: Option<String>,
}

/// What a completion report answers: the attempt as settled and its delivery.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CompletionRecorded {
    pub attempt: AttemptOut,
    pub delivery: DeliveryOut,
}
