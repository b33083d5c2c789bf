//! Request building: the envelope for the trigger, the signed headers, and the
//! outbound request an attempt sends.

use super::endpoint_cache::PreparedEndpoint;
use super::{HEADER_ATTEMPT, HEADER_ATTEMPT_ID, USER_AGENT};
use crate::domain::delivery_message::{DeliveryMessage, Trigger};
use crate::domain::model::{Delivery, Endpoint};
use crate::ports::{OutboundHeader, OutboundRequest};
use bytes::Bytes;
use courier_core::Timestamp;
use courier_core::ids::AttemptId;
use courier_core::signing::signature_header_keys;
use std::borrow::Cow;
use std::sync::Arc;

/// The envelope for this trigger: the stored bytes for automatic attempts, the same
/// envelope with `trigger` changed for redeliveries, replays and tests (signed, so the
/// receiver can tell them apart).
pub(super) fn body_for(delivery: &Delivery, trigger: Trigger) -> Bytes {
    let stored = || Bytes::from_owner(SharedText(delivery.body.clone()));
    let wanted = trigger.envelope_name();
    if delivery.trigger.envelope_name() == wanted {
        return stored();
    }
    match serde_json::from_str::<serde_json::Value>(&delivery.body) {
        Ok(mut v) => {
            if let Some(obj) = v.as_object_mut() {
                obj.insert("trigger".into(), serde_json::Value::String(wanted.into()));
            }
            serde_json::to_vec(&v).map_or_else(|_| stored(), Bytes::from)
        }
        Err(_) => stored(),
    }
}

/// Shared text as the bytes of a request body, without a copy.
pub(super) struct SharedText(Arc<str>);

impl AsRef<[u8]> for SharedText {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

/// The signed request for this attempt (see [`prepared_request`], which reuses the
/// endpoint's decoded keys).
pub fn build_request(
    endpoint: &Endpoint,
    delivery: &Delivery,
    m: &DeliveryMessage,
    attempt_id: &AttemptId,
    now: Timestamp,
) -> OutboundRequest {
    prepared_request(&PreparedEndpoint::new(endpoint.clone()), delivery, m, attempt_id, now)
}

pub(super) fn prepared_request(
    prepared: &PreparedEndpoint,
    delivery: &Delivery,
    m: &DeliveryMessage,
    attempt_id: &AttemptId,
    now: Timestamp,
) -> OutboundRequest {
    let endpoint = &prepared.endpoint;
    let body = body_for(delivery, m.trigger);
    let ts = now.millis().div_euclid(1000);
    let webhook_id = delivery.webhook_id.as_str();
    let signature = signature_header_keys(prepared.signing_keys(now), webhook_id, ts, &body);
    let attempt = m.attempt.to_string();
    let mut headers: Vec<OutboundHeader> = vec![
        (Cow::Borrowed("content-type"), Cow::Borrowed("application/json")),
        (Cow::Borrowed("user-agent"), Cow::Borrowed(USER_AGENT)),
        (Cow::Borrowed("webhook-id"), Cow::Owned(webhook_id.to_owned())),
        (Cow::Borrowed("webhook-timestamp"), Cow::Owned(ts.to_string())),
        (Cow::Borrowed("webhook-signature"), Cow::Owned(signature)),
        (Cow::Borrowed(HEADER_ATTEMPT), Cow::Owned(attempt.clone())),
        (
            Cow::Borrowed(HEADER_ATTEMPT_ID),
            Cow::Owned(attempt_id.as_str().to_owned()),
        ),
    ];
    if let Some(h) = &endpoint.policy.attempt_header {
        headers.push((Cow::Owned(h.clone()), Cow::Owned(attempt)));
    }
    // The endpoint's own, after Courier's: their names never collide (the API
    // refuses the names Courier sets).
    // A value still sealed is never sent: such an attempt is declined before
    // this (`credentials_unavailable`).
    for h in &endpoint.headers {
        if let Some(value) = h.value.plain() {
            headers.push((Cow::Owned(h.name.clone()), Cow::Owned(value.to_owned())));
        }
    }
    OutboundRequest {
        url: endpoint.url.clone(),
        headers,
        body,
        timeout_ms: endpoint.timeout_ms(),
        read_limit: endpoint.policy.snippet.read_bytes(),
        connection: prepared.connection.clone(),
    }
}
