//! Attribute values every record's item is made of: strings, numbers, keys,
//! `data` as JSON, time-ordered sort keys, and the absent-or-expired condition.

use crate::dynamo::schema::{DATA, Item, PK, SK};
use crate::error::corrupt;
use aws_sdk_dynamodb::types::AttributeValue;
use courier_app::ports::{PortError, PortResult};
use courier_core::Timestamp;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;

pub(in crate::dynamo) fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

pub(in crate::dynamo) fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

pub(in crate::dynamo) fn key(pk: String, sk: &str) -> Item {
    HashMap::from([(PK.to_owned(), s(pk)), (SK.to_owned(), s(sk))])
}

pub(in crate::dynamo) fn names(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

pub(in crate::dynamo) fn to_json<T: Serialize>(v: &T) -> PortResult<String> {
    serde_json::to_string(v).map_err(|e| PortError::Backend(Box::new(e)))
}

pub(in crate::dynamo) fn from_json<T: DeserializeOwned>(item: &Item, what: &str) -> PortResult<T> {
    let text = get_s(item, DATA).ok_or_else(|| corrupt(format!("{what}: no `{DATA}` attribute")))?;
    serde_json::from_str(text).map_err(|e| corrupt(format!("{what}: {e}")))
}

pub(in crate::dynamo) fn get_s<'a>(item: &'a Item, name: &str) -> Option<&'a str> {
    item.get(name).and_then(|v| v.as_s().ok()).map(String::as_str)
}

pub(in crate::dynamo) fn get_n(item: &Item, name: &str) -> Option<i64> {
    item.get(name).and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok())
}

pub(in crate::dynamo) fn sort_key(t: Timestamp, id: &str) -> String {
    format!("{:015}#{id}", t.millis().max(0))
}

pub(in crate::dynamo) fn time_bound(t: Timestamp) -> String {
    format!("{:015}", t.millis().max(0))
}

pub(in crate::dynamo) fn now_secs(now: Timestamp) -> i64 {
    now.millis().div_euclid(1000)
}

/// `(condition, values)`: the item is absent or expired at `now`.
pub(in crate::dynamo) fn absent_or_expired(now: Timestamp) -> (&'static str, Item) {
    (
        "attribute_not_exists(PK) OR expiresAt <= :now",
        HashMap::from([(":now".to_owned(), n(now_secs(now)))]),
    )
}
