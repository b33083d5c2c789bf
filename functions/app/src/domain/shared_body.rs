//! A delivery's body stored once, in its event item, instead of in every delivery
//! write: which deliveries of an event share it, the SHA-256 that binds each of
//! them to it, what the first queue message carries of it, and how the sender gets
//! it back (from the message when its hash matches, else from the event).

use crate::domain::delivery_message::DeliveryMessage;
use crate::domain::model::Delivery;
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// The longest queue message (its JSON) that carries the body. SQS takes 256 KiB
/// (262,144 bytes) per message, attributes included; the rest is margin. A larger
/// body is read from the event item by the sender (one read).
pub const MAX_MESSAGE_WITH_BODY: usize = 224 * 1024;

/// The lowercase hex SHA-256 of `body`.
pub fn hash(body: &str) -> String {
    courier_core::hex::encode(&Sha256::digest(body.as_bytes()))
}

/// Marks every delivery to be stored with its body in the event item: sets each
/// one's `body_hash` from its body. Ingest calls it on the deliveries it builds with
/// their event (they all carry the event's envelope).
pub fn share(deliveries: &mut [Delivery]) {
    let mut last: Option<(Arc<str>, String)> = None;
    for d in deliveries {
        let h = match &last {
            // The deliveries of one event usually hold the very same text.
            Some((body, h)) if Arc::ptr_eq(body, &d.body) || **body == *d.body => h.clone(),
            _ => hash(&d.body),
        };
        last = Some((d.body.clone(), h.clone()));
        d.body_hash = Some(h);
    }
}

/// The body an event item stores for `deliveries` created with it: the body of the
/// first delivery marked by [`share`] whose hash is right, and that hash. Stores
/// keep this body once, in the event, for every delivery [`in_event`] accepts; any
/// other delivery keeps its body itself.
pub fn event_body(deliveries: &[Delivery]) -> Option<(Arc<str>, String)> {
    deliveries.iter().find_map(|d| {
        let h = d.body_hash.as_ref()?;
        (hash(&d.body) == *h).then(|| (d.body.clone(), h.clone()))
    })
}

/// Whether `d` is stored without its body, which its event holds (`event` is what
/// [`event_body`] found for the deliveries written with it).
pub fn in_event(d: &Delivery, event: Option<&(Arc<str>, String)>) -> bool {
    match (event, &d.body_hash) {
        (Some((body, h)), Some(own)) => own == h && (Arc::ptr_eq(body, &d.body) || **body == *d.body),
        _ => false,
    }
}

/// `d` as a store holds it: without its body when the event item holds it (marked
/// by `body_hash` and given back empty by reads), else as it is.
pub fn stored_form(d: &Delivery) -> std::borrow::Cow<'_, Delivery> {
    if d.body_hash.is_some() && !d.body.is_empty() {
        let mut bare = d.clone();
        bare.body = Arc::from("");
        std::borrow::Cow::Owned(bare)
    } else {
        std::borrow::Cow::Borrowed(d)
    }
}

/// The body a delivery's first message carries: a body stored in the event item
/// (the message then spares the sender the read), when the message stays within
/// [`MAX_MESSAGE_WITH_BODY`].
pub fn for_message(d: &Delivery, message: &DeliveryMessage) -> Option<Arc<str>> {
    if d.body_hash.is_none() || d.body.is_empty() {
        return None;
    }
    // Escaping may double a body's size in the message's JSON; measure only when
    // it could matter.
    let bare = message.to_json().len();
    if bare + 2 * d.body.len() + 16 <= MAX_MESSAGE_WITH_BODY {
        return Some(d.body.clone());
    }
    let with = DeliveryMessage {
        body: Some(d.body.clone()),
        ..message.clone()
    };
    (with.to_json().len() <= MAX_MESSAGE_WITH_BODY).then(|| d.body.clone())
}

/// The body the message carries, if it is the one `body_hash` names. A message
/// cannot change what is signed: one whose body does not match is ignored.
pub fn from_message(message: &DeliveryMessage, body_hash: &str) -> Option<Arc<str>> {
    message.body.as_ref().filter(|b| hash(b) == body_hash).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_the_hex_sha256() {
        assert_eq!(
            hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(hash("").len(), 64);
    }
}
