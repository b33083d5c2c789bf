//! Where a delivery's body is stored (inline, in a shared body item, or in its
//! event item, the delivery keeping only `bodyHash`) and that hash's attribute.

use crate::dynamo::schema::{BODY_HASH, INLINE_BODY_MAX, Item, body_ref};
use crate::error::corrupt;
use aws_sdk_dynamodb::primitives::Blob;
use aws_sdk_dynamodb::types::AttributeValue;
use courier_app::domain::model::Delivery;
use courier_app::ports::PortResult;
use courier_core::hex::encode as hex;
use std::collections::BTreeMap;

pub(in crate::dynamo) fn body_hash(body: &str) -> String {
    courier_app::domain::shared_body::hash(body)
}

/// The bytes of a SHA-256 in lowercase hex (what [`hex`] gives back exactly); `None`
/// for any other text.
fn sha256_bytes(hash: &str) -> Option<Vec<u8>> {
    if hash.len() != 64 || hash.bytes().any(|c| c.is_ascii_uppercase()) {
        return None;
    }
    courier_core::hex::decode(hash)
}

/// A delivery's [`BODY_HASH`] as stored: the SHA-256's 32 bytes as Binary (40 bytes
/// with the name instead of 72 as hex). Ingest's hashes are always lowercase hex
/// SHA-256 (`shared_body::hash`); anything else is refused rather than stored in a
/// form nothing reads.
pub(super) fn body_hash_value(hash: &str) -> PortResult<AttributeValue> {
    sha256_bytes(hash)
        .map(|bytes| AttributeValue::B(Blob::new(bytes)))
        .ok_or_else(|| {
            corrupt(format!(
                "delivery: `{BODY_HASH}` {hash:?} is not a lowercase hex SHA-256"
            ))
        })
}

/// A delivery item's [`BODY_HASH`], as hex.
pub(in crate::dynamo) fn body_hash_of(item: &Item) -> PortResult<Option<String>> {
    match item.get(BODY_HASH) {
        None => Ok(None),
        Some(AttributeValue::B(bytes)) => Ok(Some(hex(bytes.as_ref()))),
        Some(_) => Err(corrupt(format!("delivery: `{BODY_HASH}` is not binary"))),
    }
}

/// How a delivery's body is stored.
pub(super) enum BodyPlace {
    Inline(String),
    /// In the body item with this hash.
    Shared(String),
}

pub(super) fn body_place(body: &str) -> BodyPlace {
    if body.len() <= INLINE_BODY_MAX {
        BodyPlace::Inline(body.to_owned())
    } else {
        BodyPlace::Shared(body_hash(body))
    }
}

/// One entry per distinct large body of a tenant (by [`body_ref`]): the body and
/// the deliveries that use it, in order.
pub(in crate::dynamo) fn shared_bodies<'a>(
    deliveries: impl IntoIterator<Item = &'a Delivery>,
) -> BTreeMap<String, (&'a str, Vec<&'a Delivery>)> {
    let mut shared: BTreeMap<String, (&str, Vec<&Delivery>)> = BTreeMap::new();
    // A delivery whose body its event item holds has no body of its own to share.
    for d in deliveries.into_iter().filter(|d| d.body_hash.is_none()) {
        if let BodyPlace::Shared(hash) = body_place(&d.body) {
            shared
                .entry(body_ref(&d.tenant_id, &hash))
                .or_insert((&*d.body, Vec::new()))
                .1
                .push(d);
        }
    }
    shared
}

/// `d` keeping its own body (not its event's): what every create call but
/// `create_event` stores, and what `create_event` stores for a delivery whose body
/// is not the event's one.
pub(in crate::dynamo) fn with_own_body(d: &Delivery) -> Delivery {
    Delivery {
        body_hash: None,
        ..d.clone()
    }
}

/// A delivery using a shared body: its id and its TTL (`None`: not settled).
pub(in crate::dynamo) type BodyUser = (String, Option<i64>);
