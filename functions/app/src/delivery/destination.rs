//! The dispatch point between a webhook and a destination: an endpoint with a
//! `destination` gets the attempt's signed envelope as one message in the
//! customer's AWS account (through the `DestinationSender` port) instead of the
//! HTTP request. Signing is the request's own, so a consumer verifies the same
//! bytes and values a webhook receiver does.

use crate::domain::model::Delivery;
use crate::ports::{DestinationMessage, OutboundRequest};
use courier_core::destination::{Destination, Kind, message_key};
use courier_core::ids::AttemptId;

/// FIFO message group ids hold at most 128 characters, Kinesis partition keys 256.
const MAX_GROUP: usize = 128;
const MAX_PARTITION_KEY: usize = 256;

/// The message for `destination` carrying what `request` (already signed for this
/// attempt) would have sent.
pub fn destination_message(
    destination: &Destination,
    external_id: String,
    delivery: &Delivery,
    request: &OutboundRequest,
    attempt: u32,
    attempt_id: &AttemptId,
) -> DestinationMessage {
    let header = |name: &str| {
        request
            .headers
            .iter()
            .find(|(n, _)| n.as_ref() == name)
            .map(|(_, v)| v.to_string())
            .unwrap_or_default()
    };
    let envelope: serde_json::Value = serde_json::from_slice(&request.body).unwrap_or_default();
    let event_type = envelope.get("type").and_then(|t| t.as_str()).map(str::to_owned);
    let key = match destination.kind() {
        Kind::Kinesis => message_key(
            &envelope,
            destination.key_pointer(),
            delivery.event_id.as_str(),
            MAX_PARTITION_KEY,
        ),
        _ => message_key(
            &envelope,
            destination.key_pointer(),
            delivery.endpoint_id.as_str(),
            MAX_GROUP,
        ),
    };
    DestinationMessage {
        destination: destination.clone(),
        external_id,
        body: request.body.clone(),
        webhook_id: header("webhook-id"),
        timestamp: header("webhook-timestamp"),
        signature: header("webhook-signature"),
        attempt,
        attempt_id: attempt_id.as_str().to_owned(),
        event_type,
        key,
        object_key: object_key(destination, delivery),
        timeout_ms: request.timeout_ms,
    }
}

/// `{prefix}{yyyy}/{mm}/{dd}/{event id}.json`, dated by the delivery's planned
/// instant: one object per event, the same key on every attempt.
fn object_key(destination: &Destination, delivery: &Delivery) -> String {
    let prefix = match &destination.target {
        courier_core::destination::Target::S3 { prefix, .. } => prefix.as_deref().unwrap_or(""),
        _ => "",
    };
    let date = delivery.planned_at.to_rfc3339();
    let day = date.get(..10).unwrap_or("0000-00-00").replace('-', "/");
    format!("{prefix}{day}/{}.json", delivery.event_id)
}
