//! Request building: the envelope for the trigger, the signed headers, and the
//! outbound request an attempt sends.

use super::endpoint_cache::PreparedEndpoint;
use super::{HEADER_ATTEMPT, HEADER_ATTEMPT_ID, USER_AGENT};
use crate::domain::message::{QueueMessage, Trigger};
use crate::domain::model::{Delivery, Endpoint};
use crate::ports::{HeaderText, OutboundRequest, SharedHeaderText};
use bytes::Bytes;
use courier_core::Timestamp;
use courier_core::ids::AttemptId;
use courier_core::signing::{SIGNATURE_LEN, signature_header_keys_into};
use std::borrow::Cow;
use std::fmt::Write as _;
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
    m: &QueueMessage,
    attempt_id: &AttemptId,
    now: Timestamp,
) -> OutboundRequest {
    prepared_request(&PreparedEndpoint::new(endpoint.clone()), delivery, m, attempt_id, now)
}

pub(super) fn prepared_request(
    prepared: &PreparedEndpoint,
    delivery: &Delivery,
    m: &QueueMessage,
    attempt_id: &AttemptId,
    now: Timestamp,
) -> OutboundRequest {
    let endpoint = &prepared.endpoint;
    let body = body_for(delivery, m.trigger);
    let ts = now.millis().div_euclid(1000);
    let webhook_id = delivery.webhook_id.as_str();
    // The attempt's own values are written into one buffer and cut from it: two
    // allocations for the four, and copies of the request's headers count references.
    let mut text = String::with_capacity(webhook_id.len() + 20 + SIGNATURE_LEN + attempt_id.as_str().len());
    text.push_str(webhook_id);
    let id_end = text.len();
    let _ = write!(text, "{ts}");
    let ts_end = text.len();
    signature_header_keys_into(prepared.signing_keys(now), webhook_id, ts, &body, &mut text);
    let signature_end = text.len();
    text.push_str(attempt_id.as_str());
    let end = text.len();
    let text = SharedHeaderText::from(text);
    // The ranges were measured around whole pushes, so they always cut cleanly.
    let cut = |range| text.slice(range).unwrap_or_default();
    let attempt = attempt_text(m.attempt);
    // Room for the policy's attempt header and a completion token too.
    let mut headers = Vec::with_capacity(9);
    headers.extend([
        (
            Cow::Borrowed("content-type"),
            HeaderText::from_static("application/json"),
        ),
        (Cow::Borrowed("user-agent"), HeaderText::from_static(USER_AGENT)),
        (Cow::Borrowed("webhook-id"), cut(0..id_end)),
        (Cow::Borrowed("webhook-timestamp"), cut(id_end..ts_end)),
        (Cow::Borrowed("webhook-signature"), cut(ts_end..signature_end)),
        (Cow::Borrowed(HEADER_ATTEMPT), attempt.clone()),
        (Cow::Borrowed(HEADER_ATTEMPT_ID), cut(signature_end..end)),
    ]);
    if let Some(h) = &endpoint.policy.attempt_header {
        headers.push((Cow::Owned(h.clone()), attempt));
    }
    // The endpoint's own, after Courier's: their names never collide (the API
    // refuses the names Courier sets).
    // A value still sealed is never sent: such an attempt is declined before
    // this (`credentials_unavailable`).
    for h in &endpoint.headers {
        if let Some(value) = h.value.plain() {
            headers.push((Cow::Owned(h.name.clone()), HeaderText::from(value.to_owned())));
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

/// The attempt number as header text: static for the numbers most attempts carry,
/// so those copy nothing.
pub(super) fn attempt_text(number: u32) -> HeaderText {
    const SMALL: [&str; 10] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"];
    match SMALL.get(number as usize) {
        Some(text) => HeaderText::from_static(text),
        None => HeaderText::from(number.to_string()),
    }
}
