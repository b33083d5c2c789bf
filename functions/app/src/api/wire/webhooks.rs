//! What Courier POSTs to a receiver (`webhooks.delivery` in the document): the
//! headers and the envelope of every attempt, as typed structs. The request itself
//! is built by `crate::ingest::envelope` and `crate::delivery`; these mirror it for
//! the document, and a test holds the envelope's fields to the ingest's.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::openapi::path::{HttpMethod, Operation, OperationBuilder, ParameterIn, PathItem};
use utoipa::openapi::request_body::RequestBodyBuilder;
use utoipa::openapi::response::{ResponseBuilder, ResponsesBuilder};
use utoipa::openapi::{ContentBuilder, OpenApi as Document, Ref, Required};
use utoipa::{IntoParams, Modify, ToSchema};

/// What `trigger` tells a receiver.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum EnvelopeTrigger {
    Scheduled,
    Redelivery,
    Replay,
    Test,
}

/// The body of every request to a receiver; automatic retries of a delivery send
/// identical bytes.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(example = json!({
    "id": "evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2",
    "type": "invoice.paid",
    "plannedAt": "2026-11-30T06:28:01.000Z",
    "trigger": "scheduled",
    "data": {"invoiceId": "inv_123", "amount": 4200}
}))]
pub struct WebhookEnvelope {
    /// The event id (the same across replays).
    #[schema(value_type = crate::api::openapi::schemas::EventId)]
    pub id: String,
    /// The event type given at ingest (`courier.test` for test events).
    #[serde(rename = "type")]
    #[schema(required)]
    pub event_type: Option<String>,
    #[schema(value_type = crate::api::openapi::schemas::Timestamp)]
    pub planned_at: String,
    /// `scheduled` for the first attempt and automatic retries.
    pub trigger: EnvelopeTrigger,
    /// The event payload, as sent to `POST /v1/events`.
    pub data: Value,
}

/// The headers of every request to a receiver.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code)] // read by the derives only
pub struct WebhookHeaders {
    /// The delivery's id, identical on every attempt and kept by replays: use it to
    /// drop duplicates.
    #[serde(rename = "webhook-id")]
    webhook_id: String,
    /// When this attempt was signed, in Unix seconds.
    #[serde(rename = "webhook-timestamp")]
    #[param(pattern = "^[0-9]+$")]
    webhook_timestamp: String,
    /// Standard Webhooks v1: space-separated `v1,<base64 HMAC-SHA256>` signatures of
    /// `<webhook-id>.<webhook-timestamp>.<body>`, one per signing secret in use (two
    /// during a rotation's grace period). Verify with the official Standard Webhooks
    /// libraries and the endpoint's `whsec_` secret.
    #[serde(rename = "webhook-signature")]
    #[param(pattern = "^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$")]
    webhook_signature: String,
    /// The attempt number, from 1.
    #[serde(rename = "webhook-attempt")]
    #[param(pattern = "^[1-9][0-9]*$")]
    webhook_attempt: String,
    /// This attempt's id; the one to report on when completing long-running work.
    #[serde(rename = "webhook-attempt-id")]
    #[param(value_type = crate::api::openapi::schemas::AttemptId)]
    webhook_attempt_id: String,
    /// Only for endpoints with a long-running allowance (never on test events):
    /// present it to `POST /v1/attempts/{attemptId}/complete` after answering 202.
    #[serde(rename = "webhook-completion-token")]
    #[param(nullable = false)]
    webhook_completion_token: Option<String>,
    /// Sent by the Tanitar preset (a custom policy may name its own header in
    /// `attemptHeader`): the attempt number.
    #[serde(rename = "tanitar-delivery-attempt")]
    #[param(nullable = false)]
    tanitar_delivery_attempt: Option<String>,
    /// Sent by the SmartChat preset: the attempt number.
    #[serde(rename = "SmartChat-Delivery-Attempt")]
    #[param(nullable = false)]
    smartchat_delivery_attempt: Option<String>,
}

/// The `receiveDelivery` operation: what a receiver gets and how its answers count.
fn receive_delivery() -> Operation {
    let body = RequestBodyBuilder::new()
        .required(Some(Required::True))
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name(WebhookEnvelope::name())))
                .build(),
        )
        .build();
    let answers = [
        ("2XX", "Delivered: the delivery succeeds."),
        (
            "202",
            "For endpoints with a long-running allowance: the work was accepted and its result will be reported through `POST /v1/attempts/{attemptId}/complete` (otherwise an ordinary success).",
        ),
        (
            "410",
            "Gone: per the policy's `on410`, a 4xx like any other, the delivery's end (Tanitar), or the endpoint disabled (SmartChat).",
        ),
        (
            "429",
            "Too many requests: retried; a `Retry-After` is honoured where the policy says so.",
        ),
        (
            "default",
            "Any other answer, a timeout or a network failure: retried or settled as the policy says.",
        ),
    ];
    let mut responses = ResponsesBuilder::new();
    for (status, description) in answers {
        responses = responses.response(status, ResponseBuilder::new().description(description).build());
    }
    OperationBuilder::new()
        .operation_id(Some("receiveDelivery"))
        .tag("receivers")
        .summary(Some("What a receiver gets"))
        .description(Some(
            "Courier POSTs each attempt of a delivery to the endpoint's URL. Redirects are never followed. What happens after a failure is the endpoint policy's choice: waits, attempt limits, which statuses are retried, and whether `Retry-After` is honoured.",
        ))
        .parameters(Some(WebhookHeaders::into_params(|| Some(ParameterIn::Header))))
        .request_body(Some(body))
        .responses(responses.build())
        .build()
}

/// Adds the document's `webhooks` (OpenAPI 3.1), which utoipa 5 has no field or
/// derive for: written under the document's extensions, which serialise at its top
/// level under the name given.
pub struct Webhooks;

impl Modify for Webhooks {
    fn modify(&self, doc: &mut Document) {
        let item = PathItem::new(HttpMethod::Post, receive_delivery());
        let webhooks = serde_json::json!({ "delivery": item });
        doc.extensions
            .get_or_insert_with(Default::default)
            .insert("webhooks".to_owned(), webhooks);
    }
}

#[cfg(test)]
mod tests {
    use super::WebhookEnvelope;
    use crate::domain::delivery_message::Trigger;
    use courier_core::Timestamp;
    use courier_core::ids::EventId;
    use serde_json::{Value, json};

    /// The documented envelope has the fields, in the order, that ingest sends.
    #[test]
    fn envelope_matches_what_ingest_sends() {
        let id = EventId::parse("evt_01JD5ZQ7X2M3C9V4B8N6R0T1W2").expect("an id");
        let sent = crate::ingest::envelope(&id, None, Timestamp::from_millis(0), Trigger::Retry, &json!({"a": 1}));
        let sent: Value = serde_json::from_str(&sent).expect("json");
        let documented = serde_json::to_value(WebhookEnvelope {
            id: id.to_string(),
            event_type: None,
            planned_at: "1970-01-01T00:00:00.000Z".to_owned(),
            trigger: super::EnvelopeTrigger::Scheduled,
            data: json!({"a": 1}),
        })
        .expect("json");
        assert_eq!(sent, documented);
    }
}
