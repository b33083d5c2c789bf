//! Attempts: the latest one embedded in its delivery item in a compact form
//! (`lastAttempt`), the others as items of their own (`ATT#...`).

use super::attributes::{get_s, key, n, s, to_json};
use crate::dynamo::schema::{DATA, Item, LAST_ATTEMPT, PK, TENANT_ID, TTL_ATTR, attempt_sk, delivery_pk};
use crate::error::corrupt;
use courier_app::domain::delivery_message::Trigger;
use courier_app::domain::model::Attempt;
use courier_app::ports::PortResult;
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, TenantId};
use serde::Serialize;
use std::borrow::Cow;
use std::collections::BTreeMap;

/// The embedded latest attempt ([`LAST_ATTEMPT`]) as stored: short keys, instants as
/// epoch milliseconds, and fields at their default left out, since the delivery
/// item holding it is rewritten on every claim and outcome. The classification's
/// names are kept as their wire names. The delivery and tenant ids come from the
/// item's key and `tenantId`.
//
// | key  | `Attempt` field                   | left out when |
// |------|-----------------------------------|---------------|
// | `i`  | `id`                              | never         |
// | `n`  | `number`                          | never         |
// | `t`  | `trigger`                         | never         |
// | `sa` | `source_attempt_id`               | `None`        |
// | `s`  | `state`                           | never         |
// | `rs` | `response_status`                 | `None`        |
// | `ec` | `error_class`                     | `None`        |
// | `dg` | `diagnostic`                      | never         |
// | `rm` | `remediation`                     | never         |
// | `cf` | `counts_toward_receiver_failures` | `false`       |
// | `fs` | `failure_snippet`                 | `None`        |
// | `tr` | `truncated`                       | `false`       |
// | `rh` | `response_headers`                | empty         |
// | `de` | `destination_error`               | `None`        |
// | `mi` | `message_id`                      | `None`        |
// | `d`  | `duration_ms`                     | never         |
// | `at` | `started_at` (epoch ms)           | never         |
// | `na` | `next_attempt_at` (epoch ms)      | `None`        |
// | `x`  | `expires_at` (epoch s)            | `None`        |
#[derive(Serialize, serde::Deserialize)]
struct StoredAttempt {
    #[serde(rename = "i")]
    id: AttemptId,
    #[serde(rename = "n")]
    number: u32,
    #[serde(rename = "t")]
    trigger: Trigger,
    #[serde(rename = "sa", default, skip_serializing_if = "Option::is_none")]
    source_attempt_id: Option<AttemptId>,
    #[serde(rename = "s")]
    state: Cow<'static, str>,
    #[serde(rename = "rs", default, skip_serializing_if = "Option::is_none")]
    response_status: Option<u16>,
    #[serde(rename = "ec", default, skip_serializing_if = "Option::is_none")]
    error_class: Option<Cow<'static, str>>,
    #[serde(rename = "dg")]
    diagnostic: Cow<'static, str>,
    #[serde(rename = "rm")]
    remediation: Cow<'static, str>,
    #[serde(rename = "cf", default, skip_serializing_if = "std::ops::Not::not")]
    counts_toward_receiver_failures: bool,
    #[serde(rename = "fs", default, skip_serializing_if = "Option::is_none")]
    failure_snippet: Option<String>,
    #[serde(rename = "tr", default, skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
    #[serde(rename = "rh", default, skip_serializing_if = "BTreeMap::is_empty")]
    response_headers: BTreeMap<String, String>,
    #[serde(rename = "de", default, skip_serializing_if = "Option::is_none")]
    destination_error: Option<courier_app::domain::model::DestinationErrorRecord>,
    #[serde(rename = "mi", default, skip_serializing_if = "Option::is_none")]
    message_id: Option<String>,
    #[serde(rename = "d")]
    duration_ms: u64,
    #[serde(rename = "at")]
    started_at: i64,
    #[serde(rename = "na", default, skip_serializing_if = "Option::is_none")]
    next_attempt_at: Option<i64>,
    #[serde(rename = "x", default, skip_serializing_if = "Option::is_none")]
    expires_at: Option<i64>,
}

impl StoredAttempt {
    fn of(a: &Attempt) -> Self {
        StoredAttempt {
            id: a.id.clone(),
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
            destination_error: a.destination_error.clone(),
            message_id: a.message_id.clone(),
            duration_ms: a.duration_ms,
            started_at: a.started_at.millis(),
            next_attempt_at: a.next_attempt_at.map(Timestamp::millis),
            expires_at: a.expires_at,
        }
    }

    fn into_attempt(self, delivery_id: DeliveryId, tenant_id: TenantId) -> Attempt {
        Attempt {
            id: self.id,
            delivery_id,
            tenant_id,
            number: self.number,
            trigger: self.trigger,
            source_attempt_id: self.source_attempt_id,
            state: self.state,
            response_status: self.response_status,
            error_class: self.error_class,
            diagnostic: self.diagnostic,
            remediation: self.remediation,
            counts_toward_receiver_failures: self.counts_toward_receiver_failures,
            failure_snippet: self.failure_snippet,
            truncated: self.truncated,
            response_headers: self.response_headers,
            destination_error: self.destination_error,
            message_id: self.message_id,
            duration_ms: self.duration_ms,
            started_at: Timestamp::from_millis(self.started_at),
            next_attempt_at: self.next_attempt_at.map(Timestamp::from_millis),
            expires_at: self.expires_at,
        }
    }
}

/// The text stored in [`LAST_ATTEMPT`] for `a`: its [`StoredAttempt`].
pub(in crate::dynamo) fn embedded_attempt_data(a: &Attempt) -> PortResult<String> {
    serde_json::to_string(&StoredAttempt::of(a)).map_err(|e| corrupt(format!("attempt {}: {e}", a.id)))
}

/// The latest attempt embedded in a delivery item (a [`StoredAttempt`]), if it has
/// one: none before its first outcome.
pub(in crate::dynamo) fn embedded_attempt(item: &Item) -> PortResult<Option<Attempt>> {
    let Some(text) = get_s(item, LAST_ATTEMPT) else {
        return Ok(None);
    };
    let id = get_s(item, PK)
        .and_then(|pk| pk.strip_prefix("DLV#"))
        .ok_or_else(|| corrupt("embedded attempt: the key is not a delivery's"))?;
    let tenant = get_s(item, TENANT_ID).ok_or_else(|| corrupt(format!("delivery {id}: no `{TENANT_ID}` attribute")))?;
    let bad = |e: &dyn std::fmt::Display| corrupt(format!("delivery {id}: embedded attempt: {e}"));
    let stored: StoredAttempt = serde_json::from_str(text).map_err(|e| bad(&e))?;
    let delivery_id = DeliveryId::parse(id).map_err(|e| bad(&e))?;
    let tenant_id = TenantId::parse(tenant).map_err(|e| bad(&e))?;
    Ok(Some(stored.into_attempt(delivery_id, tenant_id)))
}

/// An attempt's own item (`ATT#<number>#<id>` in its delivery's partition).
pub(in crate::dynamo) fn attempt_item(a: &Attempt) -> PortResult<Item> {
    let mut item = key(delivery_pk(&a.delivery_id), &attempt_sk(a.number, &a.id));
    item.insert(DATA.to_owned(), s(to_json(a)?));
    if let Some(e) = a.expires_at {
        item.insert(TTL_ATTR.to_owned(), n(e));
    }
    Ok(item)
}
