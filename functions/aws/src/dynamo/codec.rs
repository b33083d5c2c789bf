//! The item codec: a record's JSON in `data` beside the attributes that keys,
//! indexes and conditions need, and back; the delivery update expressions.
//!
//! A delivery item is rewritten on every claim and outcome, and DynamoDB bills a
//! write unit per started KiB of it, so its encoding is compact: `data` keeps
//! instants as epoch milliseconds and leaves out what other attributes hold or
//! what is at its start value, the embedded latest attempt uses short keys, and
//! `bodyHash` is binary. This is layout v1 (docs/data-model.md): no other form is
//! read.

use super::*;
use aws_sdk_dynamodb::primitives::Blob;
use courier_core::hex::encode as hex;
use std::borrow::Cow;

pub(super) fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

pub(super) fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

pub(super) fn key(pk: String, sk: &str) -> Item {
    HashMap::from([(PK.to_owned(), s(pk)), (SK.to_owned(), s(sk))])
}

pub(super) fn names(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

pub(super) fn to_json<T: Serialize>(v: &T) -> PortResult<String> {
    serde_json::to_string(v).map_err(|e| PortError::Backend(Box::new(e)))
}

pub(super) fn from_json<T: DeserializeOwned>(item: &Item, what: &str) -> PortResult<T> {
    let text = get_s(item, DATA).ok_or_else(|| corrupt(format!("{what}: no `{DATA}` attribute")))?;
    serde_json::from_str(text).map_err(|e| corrupt(format!("{what}: {e}")))
}

pub(super) fn get_s<'a>(item: &'a Item, name: &str) -> Option<&'a str> {
    item.get(name).and_then(|v| v.as_s().ok()).map(String::as_str)
}

pub(super) fn get_n(item: &Item, name: &str) -> Option<i64> {
    item.get(name).and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok())
}

pub(super) fn sort_key(t: Timestamp, id: &str) -> String {
    format!("{:015}#{id}", t.millis().max(0))
}

pub(super) fn time_bound(t: Timestamp) -> String {
    format!("{:015}", t.millis().max(0))
}

pub(super) fn now_secs(now: Timestamp) -> i64 {
    now.millis().div_euclid(1000)
}

pub(super) fn body_hash(body: &str) -> String {
    courier_app::shared_body::hash(body)
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
pub(super) fn body_hash_of(item: &Item) -> PortResult<Option<String>> {
    match item.get(BODY_HASH) {
        None => Ok(None),
        Some(AttributeValue::B(bytes)) => Ok(Some(hex(bytes.as_ref()))),
        Some(_) => Err(corrupt(format!("delivery: `{BODY_HASH}` is not binary"))),
    }
}

/// `(condition, values)`: the item is absent or expired at `now`.
pub(super) fn absent_or_expired(now: Timestamp) -> (&'static str, Item) {
    (
        "attribute_not_exists(PK) OR expiresAt <= :now",
        HashMap::from([(":now".to_owned(), n(now_secs(now)))]),
    )
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
pub(super) fn shared_bodies<'a>(
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
pub(super) fn with_own_body(d: &Delivery) -> Delivery {
    Delivery {
        body_hash: None,
        ..d.clone()
    }
}

/// A delivery using a shared body: its id and its TTL (`None`: not settled).
pub(super) type BodyUser = (String, Option<i64>);

/// Fields of a delivery's JSON that its item holds anyway: the body (stored beside
/// it or shared), the claim and the version (their own attributes, so that a claim
/// is one conditional `UpdateItem` that never reads or rewrites the document), and
/// the fields the key and the index and condition attributes carry. Left out of
/// `data`, they keep a delivery with a small body under 1 KiB, one write unit per
/// write instead of two; [`delivery_from_item`] puts them back.
pub(super) const FIELDS_IN_ATTRIBUTES: [&str; 10] = [
    "body",
    THROTTLED_UNTIL,
    "bodyHash",
    "claim",
    "version",
    "id",
    "tenantId",
    "status",
    "nextAttempt",
    DEAD_LETTERED,
];
/// Also left out: the TTL (an attribute when set), the webhook id when it is the
/// delivery's own id (all but replays), the planned instant when it is the creation
/// instant (all but events planned ahead), and the trigger, counters and flags at
/// their start value. With these gone a claimed delivery with a 200-byte body still
/// fits 1 KiB.
pub(super) const TTL_FIELD: &str = "expiresAt";
pub(super) const WEBHOOK_ID_FIELD: &str = "webhookId";
pub(super) const PLANNED_AT_FIELD: &str = "plannedAt";
pub(super) const CREATED_AT_FIELD: &str = "createdAt";
const TRIGGER_FIELD: &str = "trigger";
/// Fields left out at their start value, and put back at it.
pub(super) fn fields_at_start() -> [(&'static str, serde_json::Value); 4] {
    [
        ("lastPlanned", serde_json::Value::Bool(false)),
        ("attemptCount", serde_json::Value::from(0)),
        ("receiverFailures", serde_json::Value::from(0)),
        (TRIGGER_FIELD, serde_json::Value::from(Trigger::Initial.as_str())),
    ]
}

/// The instants of a delivery's `data`, stored as epoch milliseconds: 13 digits
/// instead of 26 characters of quoted RFC 3339. Reading turns them back into the
/// text `Delivery` reads.
const INSTANT_FIELDS: [&str; 4] = [CREATED_AT_FIELD, PLANNED_AT_FIELD, "nextAttemptAt", "settledAt"];

/// `d`'s values of [`INSTANT_FIELDS`], in that order.
fn instants(d: &Delivery) -> [Option<Timestamp>; 4] {
    [Some(d.created_at), Some(d.planned_at), d.next_attempt_at, d.settled_at]
}

/// The delivery's JSON without what its item's other attributes hold (and without
/// the webhook id and the planned instant where they repeat the id and the creation
/// instant, and fields at their start value), its instants in milliseconds.
pub(super) fn delivery_data(d: &Delivery) -> PortResult<String> {
    let mut doc = match serde_json::to_value(d).map_err(|e| corrupt(format!("delivery {}: {e}", d.id)))? {
        serde_json::Value::Object(map) => map,
        _ => return Err(corrupt(format!("delivery {} is not a JSON object", d.id))),
    };
    for field in FIELDS_IN_ATTRIBUTES.iter().chain([&TTL_FIELD]) {
        doc.remove(*field);
    }
    if d.webhook_id == d.id {
        doc.remove(WEBHOOK_ID_FIELD);
    }
    if d.planned_at == d.created_at {
        doc.remove(PLANNED_AT_FIELD);
    }
    for (field, start) in fields_at_start() {
        if doc.get(field) == Some(&start) {
            doc.remove(field);
        }
    }
    for (field, instant) in INSTANT_FIELDS.into_iter().zip(instants(d)) {
        if let (Some(value), Some(t)) = (doc.get_mut(field), instant) {
            *value = serde_json::Value::from(t.millis());
        }
    }
    serde_json::to_string(&doc).map_err(|e| corrupt(format!("delivery {}: {e}", d.id)))
}

/// The delivery an item holds, its JSON completed from the item's attributes.
pub(super) fn delivery_from_item(item: &Item) -> PortResult<Delivery> {
    use serde_json::Value;
    let text = get_s(item, DATA).ok_or_else(|| corrupt(format!("delivery: no `{DATA}` attribute")))?;
    let mut doc: serde_json::Map<String, Value> =
        serde_json::from_str(text).map_err(|e| corrupt(format!("delivery: {e}")))?;
    let id = get_s(item, PK)
        .and_then(|pk| pk.strip_prefix("DLV#"))
        .ok_or_else(|| corrupt("delivery: the key is not a delivery's"))?;
    let text_of = |name: &str| {
        get_s(item, name)
            .map(|v| Value::String(v.to_owned()))
            .ok_or_else(|| corrupt(format!("delivery {id}: no `{name}` attribute")))
    };
    let number_of = |name: &str| get_n(item, name).map(Value::from);
    let restored = [
        ("id", Some(Value::String(id.to_owned()))),
        (TENANT_ID, Some(text_of(TENANT_ID)?)),
        (STATUS, Some(text_of(STATUS)?)),
        (NEXT_ATTEMPT, number_of(NEXT_ATTEMPT)),
        (TTL_FIELD, number_of(TTL_ATTR)),
        (
            DEAD_LETTERED,
            get_s(item, DEAD_LETTERED).map(|v| Value::String(v.to_owned())),
        ),
        (
            THROTTLED_UNTIL,
            get_n(item, THROTTLED_UNTIL).map(|ms| Value::String(Timestamp::from_millis(ms).to_rfc3339())),
        ),
        (WEBHOOK_ID_FIELD, Some(Value::String(id.to_owned()))),
        ("body", Some(Value::String(String::new()))),
        ("version", Some(Value::from(0))),
    ];
    for (field, value) in restored {
        if let Some(value) = value {
            doc.entry(field).or_insert(value);
        }
    }
    if let Some(created) = doc.get(CREATED_AT_FIELD).cloned() {
        doc.entry(PLANNED_AT_FIELD).or_insert(created);
    }
    for (field, start) in fields_at_start() {
        doc.entry(field).or_insert(start);
    }
    for field in INSTANT_FIELDS {
        if let Some(value) = doc.get_mut(field) {
            let ms = value
                .as_i64()
                .ok_or_else(|| corrupt(format!("delivery {id}: `{field}` is not whole milliseconds")))?;
            *value = Value::String(Timestamp::from_millis(ms).to_rfc3339());
        }
    }
    serde_json::from_value(Value::Object(doc)).map_err(|e| corrupt(format!("delivery {id}: {e}")))
}

/// The event item for `event`, holding `body` (the one body of the deliveries
/// written with it, if any) once. When the body's `data` is the event's payload
/// (ingest's envelope), `data` leaves the payload out, so the event item does not
/// hold it twice; [`event_from_item`] takes it back from the body.
pub(super) fn event_item(event: &EventRecord, body: Option<&str>) -> PortResult<Item> {
    let mut item = key(event_pk(&event.id), EVENT_SK);
    let mut data = to_json(event)?;
    if let Some(body) = body {
        if payload_of_body(body).as_ref() == Some(&event.payload) {
            let mut doc = match serde_json::to_value(event).map_err(|e| corrupt(format!("event {}: {e}", event.id)))? {
                serde_json::Value::Object(map) => map,
                _ => return Err(corrupt(format!("event {} is not a JSON object", event.id))),
            };
            doc.remove(PAYLOAD_FIELD);
            data = serde_json::to_string(&doc).map_err(|e| corrupt(format!("event {}: {e}", event.id)))?;
        }
        item.insert(BODY.to_owned(), s(body));
    }
    item.insert(DATA.to_owned(), s(data));
    item.insert(TENANT_ID.to_owned(), s(event.tenant_id.as_str()));
    item.insert(EVENT_ID.to_owned(), s(event.id.as_str()));
    item.insert(GSI3PK.to_owned(), s(audit_pk(&event.tenant_id)));
    item.insert(GSI3SK.to_owned(), s(sort_key(event.created_at, event.id.as_str())));
    if let Some(e) = event.expires_at {
        item.insert(TTL_ATTR.to_owned(), n(e));
    }
    Ok(item)
}

/// The event's JSON field its payload is in (left out of `data` when the body holds it).
const PAYLOAD_FIELD: &str = "payload";

/// The payload an envelope carries (its `data`), if it is one.
fn payload_of_body(body: &str) -> Option<serde_json::Value> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        data: serde_json::Value,
    }
    serde_json::from_str::<Envelope>(body).ok().map(|e| e.data)
}

/// The event an event item holds: `data`, with the payload taken from the item's
/// body when `data` leaves it out (see [`event_item`]).
pub(super) fn event_from_item(item: &Item) -> PortResult<EventRecord> {
    let text = get_s(item, DATA).ok_or_else(|| corrupt(format!("event: no `{DATA}` attribute")))?;
    let mut doc: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(text).map_err(|e| corrupt(format!("event: {e}")))?;
    if !doc.contains_key(PAYLOAD_FIELD) {
        let payload = get_s(item, BODY)
            .and_then(payload_of_body)
            .ok_or_else(|| corrupt("event: no payload in `data` nor in its body"))?;
        doc.insert(PAYLOAD_FIELD.to_owned(), payload);
    }
    serde_json::from_value(serde_json::Value::Object(doc)).map_err(|e| corrupt(format!("event: {e}")))
}

/// A delivery item's event id and trigger, read from `data` alone (no trigger there:
/// the start value, which [`delivery_data`] leaves out).
pub(super) fn event_and_trigger(item: &Item) -> Option<(String, Trigger)> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Fields {
        event_id: String,
        trigger: Option<Trigger>,
    }
    let f: Fields = serde_json::from_str(get_s(item, DATA)?).ok()?;
    Some((f.event_id, f.trigger.unwrap_or(Trigger::Initial)))
}

/// The claim held on a delivery item, from its claim attributes.
pub(super) fn claim_from(item: &Item) -> PortResult<Option<ClaimRecord>> {
    let Some(id) = get_s(item, CLAIM_ID) else {
        return Ok(None);
    };
    let bad = |what: &str| corrupt(format!("delivery claim: {what}"));
    let attempt_id = AttemptId::parse(id).map_err(|e| bad(&format!("claimId: {e}")))?;
    let number = get_n(item, CLAIM_NUMBER)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| bad("claimNumber missing"))?;
    let started = get_n(item, CLAIM_STARTED).ok_or_else(|| bad("claimStarted missing"))?;
    let lease = get_n(item, CLAIM_LEASE).ok_or_else(|| bad("claimLease missing"))?;
    Ok(Some(ClaimRecord {
        number,
        attempt_id,
        token: get_s(item, CLAIM_TOKEN).unwrap_or_default().to_owned(),
        started_at: Timestamp::from_millis(started),
        lease_until: Timestamp::from_millis(lease),
    }))
}

/// The `lostClaim` attribute's text for `c`.
pub(super) fn lost_claim_text(c: &ClaimRecord) -> String {
    format!(
        "{}|{}|{}|{}|{}",
        c.attempt_id,
        c.number,
        c.started_at.millis(),
        c.lease_until.millis(),
        c.token
    )
}

/// The claim a takeover replaced, from the item's `lostClaim` attribute.
pub(super) fn lost_claim_from(item: &Item) -> Option<ClaimRecord> {
    let mut parts = get_s(item, LOST_CLAIM)?.splitn(5, '|');
    let attempt_id = AttemptId::parse(parts.next()?).ok()?;
    let number = parts.next()?.parse().ok()?;
    let started = parts.next()?.parse().ok()?;
    let lease = parts.next()?.parse().ok()?;
    Some(ClaimRecord {
        number,
        attempt_id,
        started_at: Timestamp::from_millis(started),
        lease_until: Timestamp::from_millis(lease),
        token: parts.next()?.to_owned(),
    })
}

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
    destination_error: Option<courier_app::model::DestinationErrorRecord>,
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
pub(super) fn embedded_attempt_data(a: &Attempt) -> PortResult<String> {
    serde_json::to_string(&StoredAttempt::of(a)).map_err(|e| corrupt(format!("attempt {}: {e}", a.id)))
}

/// The latest attempt embedded in a delivery item (a [`StoredAttempt`]), if it has
/// one: none before its first outcome.
pub(super) fn embedded_attempt(item: &Item) -> PortResult<Option<Attempt>> {
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
pub(super) fn attempt_item(a: &Attempt) -> PortResult<Item> {
    let mut item = key(delivery_pk(&a.delivery_id), &attempt_sk(a.number, &a.id));
    item.insert(DATA.to_owned(), s(to_json(a)?));
    if let Some(e) = a.expires_at {
        item.insert(TTL_ATTR.to_owned(), n(e));
    }
    Ok(item)
}

/// What a delivery update writes (see [`DynamoStore::delivery_update`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Writes {
    Whole,
    Outcome,
}

/// The delivery's stored attributes (`SET`) and the optional ones it lacks (`REMOVE`).
/// Attributes to `SET` (name, value) and to `REMOVE`.
pub(super) type AttributeChanges = (Vec<(String, AttributeValue)>, Vec<&'static str>);

/// Whether deliveries in `status` have an entry in the status index (GSI2). A
/// succeeded or pending delivery has none: most deliveries go from pending to
/// succeeded, and an entry for either would be index writes (a put at ingest, a
/// delete or a move at the outcome) on nearly every delivery. Lists of those two
/// statuses read the whole log (GSI1) instead, keeping only theirs: nearly every
/// delivery there is succeeded, and pending ones are the newest, at the head of a
/// log read newest first.
pub(super) fn indexed_status(status: &str) -> bool {
    status != DeliveryStatus::Succeeded.as_str() && status != DeliveryStatus::Pending.as_str()
}

pub(super) fn delivery_attributes(d: &Delivery) -> PortResult<AttributeChanges> {
    let created = sort_key(d.created_at, d.id.as_str());
    let mut set = vec![
        (DATA.to_owned(), s(delivery_data(d)?)),
        (VERSION.to_owned(), n(d.version)),
        (STATUS.to_owned(), s(d.status.as_str())),
        (NEXT_ATTEMPT.to_owned(), n(d.next_attempt)),
        (TENANT_ID.to_owned(), s(d.tenant_id.as_str())),
        (GSI1PK.to_owned(), s(log_pk(&d.endpoint_id))),
        (GSI1SK.to_owned(), s(created.clone())),
    ];
    let mut remove = Vec::new();
    if indexed_status(d.status.as_str()) {
        set.push((
            GSI2PK.to_owned(),
            s(status_shard_pk(&d.endpoint_id, d.status.as_str(), &d.id)),
        ));
        set.push((GSI2SK.to_owned(), s(created)));
    } else {
        remove.extend([GSI2PK, GSI2SK]);
    }
    // The reconciler's due index (see `crate::due_index`).
    crate::due_index::extend_attributes(d, &mut set, &mut remove);
    match (&d.body_hash, body_place(&d.body)) {
        // Stored once, in the event item: the delivery keeps its hash only.
        (Some(h), _) => {
            set.push((BODY_HASH.to_owned(), body_hash_value(h)?));
            remove.extend([BODY, BODY_REF]);
        }
        (None, BodyPlace::Inline(b)) => {
            set.push((BODY.to_owned(), s(b)));
            remove.extend([BODY_REF, BODY_HASH]);
        }
        (None, BodyPlace::Shared(h)) => {
            set.push((BODY_REF.to_owned(), s(body_ref(&d.tenant_id, &h))));
            remove.extend([BODY, BODY_HASH]);
        }
    }
    match &d.claim {
        Some(c) => {
            set.push((CLAIM_ID.to_owned(), s(c.attempt_id.as_str())));
            set.push((CLAIM_LEASE.to_owned(), n(c.lease_until.millis())));
            set.push((CLAIM_NUMBER.to_owned(), n(c.number)));
            set.push((CLAIM_STARTED.to_owned(), n(c.started_at.millis())));
            set.push((CLAIM_TOKEN.to_owned(), s(c.token.as_str())));
        }
        None => remove.extend([
            CLAIM_ID,
            CLAIM_LEASE,
            CLAIM_NUMBER,
            CLAIM_STARTED,
            CLAIM_TOKEN,
            LOST_CLAIM,
        ]),
    }
    match d.dead_lettered_at {
        Some(t) => set.push((DEAD_LETTERED.to_owned(), s(t.to_rfc3339()))),
        None => remove.push(DEAD_LETTERED),
    }
    match d.throttled_until {
        Some(t) => set.push((THROTTLED_UNTIL.to_owned(), n(t.millis()))),
        None => remove.push(THROTTLED_UNTIL),
    }
    match d.expires_at {
        Some(e) => set.push((TTL_ATTR.to_owned(), n(e))),
        None => remove.push(TTL_ATTR),
    }
    Ok((set, remove))
}

impl DynamoStore {
    /// The full delivery item, as created. It has no audit-index entry: the events
    /// of an endpoint are read from its delivery log (`list_events`).
    pub(super) fn delivery_item(&self, d: &Delivery) -> PortResult<Item> {
        let mut item = key(delivery_pk(&d.id), DELIVERY_SK);
        let (set, _) = delivery_attributes(d)?;
        item.extend(set);
        Ok(item)
    }

    /// An UpdateItem that replaces the delivery's record and derived attributes.
    /// `Writes::Outcome` leaves out what
    /// recording an outcome does not own: the dead-letter mark stays as stored and
    /// the version moves on by one from the stored one.
    pub(super) fn delivery_update(
        &self,
        d: &Delivery,
        writes: Writes,
        condition: &str,
        cond_values: Item,
        cond_names: &[(&str, &str)],
    ) -> PortResult<Update> {
        self.delivery_update_also(d, writes, Vec::new(), condition, cond_values, cond_names)
    }

    /// [`Self::delivery_update`] that also sets `extra` attributes (an outcome's
    /// embedded attempt).
    pub(super) fn delivery_update_also(
        &self,
        d: &Delivery,
        writes: Writes,
        extra: Vec<(String, AttributeValue)>,
        condition: &str,
        mut cond_values: Item,
        cond_names: &[(&str, &str)],
    ) -> PortResult<Update> {
        let (mut set, mut remove) = delivery_attributes(d)?;
        set.extend(extra);
        let mut names: HashMap<String, String> = names(cond_names);
        let mut sets = Vec::new();
        if writes == Writes::Outcome {
            set.retain(|(attr, _)| attr != VERSION && attr != DEAD_LETTERED);
            remove.retain(|attr| *attr != DEAD_LETTERED);
            names.insert("#ownVersion".to_owned(), VERSION.to_owned());
            cond_values.insert(":ownOne".to_owned(), n(1));
            sets.push("#ownVersion = #ownVersion + :ownOne".to_owned());
        }
        for (i, (attr, value)) in set.into_iter().enumerate() {
            names.insert(format!("#a{i}"), attr);
            cond_values.insert(format!(":a{i}"), value);
            sets.push(format!("#a{i} = :a{i}"));
        }
        let mut expr = format!("SET {}", sets.join(", "));
        if !remove.is_empty() {
            let mut rem = Vec::new();
            for (i, attr) in remove.into_iter().enumerate() {
                names.insert(format!("#r{i}"), attr.to_owned());
                rem.push(format!("#r{i}"));
            }
            expr = format!("{expr} REMOVE {}", rem.join(", "));
        }
        Update::builder()
            .table_name(&self.table)
            .set_key(Some(key(delivery_pk(&d.id), DELIVERY_SK)))
            .update_expression(expr)
            .condition_expression(condition)
            .set_expression_attribute_names(Some(names))
            .set_expression_attribute_values(Some(cond_values))
            .build()
            .map_err(from_build)
    }

    pub(super) async fn run_update(&self, u: Update) -> Result<(), SdkError<UpdateItemError, HttpResponse>> {
        self.client
            .update_item()
            .table_name(u.table_name)
            .set_key(Some(u.key))
            .update_expression(u.update_expression)
            .set_condition_expression(u.condition_expression)
            .set_expression_attribute_names(u.expression_attribute_names)
            .set_expression_attribute_values(u.expression_attribute_values)
            .send()
            .await
            .map(|_| ())
    }
}

#[cfg(test)]
mod tests;
