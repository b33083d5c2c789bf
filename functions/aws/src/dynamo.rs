//! `DynamoStore`: every store port over one DynamoDB table (single-table design).
//! The item layout and each access pattern are documented in `docs/data-model.md`;
//! the constants below are that document's names. Each record is stored as its JSON
//! in `data`, beside the key and condition attributes the expressions need.
//!
//! Rules mirror `courier_app::memory::MemoryStore` exactly (both pass
//! `courier_app::contract`): conditional writes for creates, versions, claims and
//! outcomes; `TransactWriteItems` where two items change together; TTL-expired items
//! (`expiresAt <= now`) read as absent, since DynamoDB deletes them only lazily.

use crate::error::{corrupt, from_build, from_sdk, from_transaction};
use async_trait::async_trait;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{
    AttributeValue, KeysAndAttributes, Put, ReturnValue, ReturnValuesOnConditionCheckFailure, TransactWriteItem, Update,
};
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::SdkError;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use courier_app::memory::{MAX_PAGE, SystemClock, apply_claim, claim_held_by, is_live};
use courier_app::model::{
    Attempt, ClaimRecord, Delivery, DeliveryStatus, Endpoint, EventRecord, IdempotencyRecord, Page, Tenant,
};
use courier_app::ports::{
    Claim, Clock, DeliveryStore, EndpointStore, IdempotencyStore, PortError, PortResult, TenantStore,
};
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};
use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

type Item = HashMap<String, AttributeValue>;

pub const PK: &str = "PK";
pub const SK: &str = "SK";
/// The endpoint's delivery log by creation time (keys only).
pub const GSI_LOG: &str = "GSI1";
/// The endpoint's delivery log by status, then creation time (keys only).
pub const GSI_STATUS: &str = "GSI2";
/// The audit log: events by tenant, and by tenant + endpoint.
pub const GSI_AUDIT: &str = "GSI3";
pub const GSI1PK: &str = "GSI1PK";
pub const GSI1SK: &str = "GSI1SK";
pub const GSI2PK: &str = "GSI2PK";
pub const GSI2SK: &str = "GSI2SK";
pub const GSI3PK: &str = "GSI3PK";
pub const GSI3SK: &str = "GSI3SK";
/// The TTL attribute (epoch seconds), enabled on the table.
pub const TTL_ATTR: &str = "expiresAt";
/// Attributes the audit index projects besides the keys.
pub const AUDIT_PROJECTION: &[&str] = &["eventId"];

const DATA: &str = "data";
const BODY: &str = "body";
const BODY_REF: &str = "bodyRef";
/// On a shared body item: the ids of the deliveries that use it (a string set).
const BODY_USERS: &str = "users";
const VERSION: &str = "version";
const STATUS: &str = "status";
const NEXT_ATTEMPT: &str = "nextAttempt";
const CLAIM_ID: &str = "claimId";
const CLAIM_LEASE: &str = "claimLease";
const CLAIM_NUMBER: &str = "claimNumber";
const CLAIM_STARTED: &str = "claimStarted";
const CLAIM_TOKEN: &str = "claimToken";
/// The dead-letter mark (RFC 3339, as in `data`), an attribute of its own so that recording an
/// outcome, which rewrites `data`, never touches it.
const DEAD_LETTERED: &str = "deadLetteredAt";
const EVENT_ID: &str = "eventId";
const TENANT_ID: &str = "tenantId";

/// Bodies up to this size live inline in the delivery item; larger ones in one
/// content-addressed body item shared by every delivery carrying the same bytes. A
/// 256 KiB envelope per delivery would otherwise cap an event at ~14 deliveries
/// (TransactWriteItems carries at most 4 MB) and make every claim rewrite 256 KiB.
pub const INLINE_BODY_MAX: usize = 8 * 1024;
/// `TransactWriteItems` takes at most 100 actions: the event plus 99 deliveries.
pub const MAX_DELIVERIES_PER_EVENT: usize = 99;

/// An event with more deliveries than one transaction can write.
#[derive(Debug, thiserror::Error)]
#[error("an event can be written with at most {MAX_DELIVERIES_PER_EVENT} deliveries, got {0}")]
pub struct TooManyDeliveries(pub usize);

/// DynamoDB store for tenants, endpoints, events, deliveries, attempts and
/// idempotency records. `clock` decides TTL expiry on reads.
#[derive(Clone)]
pub struct DynamoStore {
    client: Client,
    table: String,
    clock: Arc<dyn Clock>,
    /// Index entries one list page reads at most (see `page`).
    max_examined: usize,
}

fn s(v: impl Into<String>) -> AttributeValue {
    AttributeValue::S(v.into())
}

fn n(v: impl ToString) -> AttributeValue {
    AttributeValue::N(v.to_string())
}

fn key(pk: String, sk: &str) -> Item {
    HashMap::from([(PK.to_owned(), s(pk)), (SK.to_owned(), s(sk))])
}

fn names(pairs: &[(&str, &str)]) -> HashMap<String, String> {
    pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
}

fn to_json<T: Serialize>(v: &T) -> PortResult<String> {
    serde_json::to_string(v).map_err(|e| PortError::Backend(Box::new(e)))
}

fn from_json<T: DeserializeOwned>(item: &Item, what: &str) -> PortResult<T> {
    let text = get_s(item, DATA).ok_or_else(|| corrupt(format!("{what}: no `{DATA}` attribute")))?;
    serde_json::from_str(text).map_err(|e| corrupt(format!("{what}: {e}")))
}

fn get_s<'a>(item: &'a Item, name: &str) -> Option<&'a str> {
    item.get(name).and_then(|v| v.as_s().ok()).map(String::as_str)
}

fn get_n(item: &Item, name: &str) -> Option<i64> {
    item.get(name).and_then(|v| v.as_n().ok()).and_then(|v| v.parse().ok())
}

fn sort_key(t: Timestamp, id: &str) -> String {
    format!("{:015}#{id}", t.millis().max(0))
}

fn time_bound(t: Timestamp) -> String {
    format!("{:015}", t.millis().max(0))
}

fn now_secs(now: Timestamp) -> i64 {
    now.millis().div_euclid(1000)
}

fn body_hash(body: &str) -> String {
    Sha256::digest(body.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `(condition, values)`: the item is absent or expired at `now`.
fn absent_or_expired(now: Timestamp) -> (&'static str, Item) {
    (
        "attribute_not_exists(PK) OR expiresAt <= :now",
        HashMap::from([(":now".to_owned(), n(now_secs(now)))]),
    )
}

pub fn tenant_key_pk(key_hash: &str) -> String {
    format!("KEY#{key_hash}")
}
pub fn tenant_pk(tenant: &TenantId) -> String {
    format!("TEN#{tenant}")
}
pub fn endpoint_sk(id: &EndpointId) -> String {
    format!("EP#{id}")
}
pub fn event_pk(id: &EventId) -> String {
    format!("EVT#{id}")
}
pub fn delivery_pk(id: &DeliveryId) -> String {
    format!("DLV#{id}")
}
pub fn attempt_sk(number: u32, id: &AttemptId) -> String {
    format!("ATT#{number:010}#{id}")
}
pub fn body_pk(hash: &str) -> String {
    format!("BODY#{hash}")
}
pub fn idempotency_pk(key: &str) -> String {
    format!("IDEM#{key}")
}
pub fn log_pk(endpoint: &EndpointId) -> String {
    format!("EP#{endpoint}")
}
pub fn status_pk(endpoint: &EndpointId, status: &str) -> String {
    format!("EP#{endpoint}#{status}")
}
pub fn audit_pk(tenant: &TenantId, endpoint: Option<&EndpointId>) -> String {
    match endpoint {
        None => format!("TEN#{tenant}"),
        Some(ep) => format!("TEN#{tenant}#EP#{ep}"),
    }
}
const TENANT_KEY_SK: &str = "KEY";
const EVENT_SK: &str = "EVT";
const DELIVERY_SK: &str = "DLV";
const BODY_SK: &str = "BODY";
const IDEMPOTENCY_SK: &str = "IDEM";

/// How a delivery's body is stored.
enum BodyPlace {
    Inline(String),
    /// In the body item with this hash.
    Shared(String),
}

fn body_place(body: &str) -> BodyPlace {
    if body.len() <= INLINE_BODY_MAX {
        BodyPlace::Inline(body.to_owned())
    } else {
        BodyPlace::Shared(body_hash(body))
    }
}

/// One entry per distinct large body (by hash): the body and the deliveries that use
/// it, in order.
fn shared_bodies<'a>(
    deliveries: impl IntoIterator<Item = &'a Delivery>,
) -> BTreeMap<String, (&'a str, Vec<&'a Delivery>)> {
    let mut shared: BTreeMap<String, (&str, Vec<&Delivery>)> = BTreeMap::new();
    for d in deliveries {
        if let BodyPlace::Shared(hash) = body_place(&d.body) {
            shared.entry(hash).or_insert((&*d.body, Vec::new())).1.push(d);
        }
    }
    shared
}

/// A delivery using a shared body: its id and its TTL (`None`: not settled).
type BodyUser = (String, Option<i64>);

/// Fields of a delivery's JSON that its item holds anyway: the body (stored beside
/// it or shared), the claim and the version (their own attributes, so that a claim
/// is one conditional `UpdateItem` that never reads or rewrites the document), and
/// the fields the key and the index and condition attributes carry. Left out of
/// `data`, they keep a delivery with a small body under 1 KiB, one write unit per
/// write instead of two; [`delivery_from_item`] puts them back.
const FIELDS_IN_ATTRIBUTES: [&str; 8] = [
    "body",
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
/// instant (all but events planned ahead), and counters and flags at their start
/// value. With these gone a claimed delivery with a 200-byte body still fits 1 KiB.
const TTL_FIELD: &str = "expiresAt";
const WEBHOOK_ID_FIELD: &str = "webhookId";
const PLANNED_AT_FIELD: &str = "plannedAt";
const CREATED_AT_FIELD: &str = "createdAt";
/// Fields left out at their start value, and put back at it.
fn fields_at_start() -> [(&'static str, serde_json::Value); 3] {
    [
        ("lastPlanned", serde_json::Value::Bool(false)),
        ("attemptCount", serde_json::Value::from(0)),
        ("receiverFailures", serde_json::Value::from(0)),
    ]
}

/// The delivery's JSON without what its item's other attributes hold.
fn delivery_data(d: &Delivery) -> PortResult<String> {
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
    serde_json::to_string(&doc).map_err(|e| corrupt(format!("delivery {}: {e}", d.id)))
}

/// The delivery an item holds, its JSON completed from the item's attributes. Items
/// written before `data` left those fields out still carry them there; the
/// attributes agree with them.
fn delivery_from_item(item: &Item) -> PortResult<Delivery> {
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
    serde_json::from_value(Value::Object(doc)).map_err(|e| corrupt(format!("delivery {id}: {e}")))
}

/// The claim held on a delivery item, from its claim attributes.
fn claim_from(item: &Item) -> PortResult<Option<ClaimRecord>> {
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

/// One query over the table or an index, newest or oldest first.
struct QuerySpec {
    index: Option<&'static str>,
    /// Partition attribute and value.
    pk: (&'static str, String),
    /// Sort attribute, and the key condition on it (`None`: the whole partition).
    sk_attr: &'static str,
    sk_cond: Option<SortCondition>,
    forward: bool,
    /// Drop expired items server-side (the index carries `expiresAt`).
    ttl_filter: bool,
    consistent: bool,
    /// The status the caller keeps of the partition's items, when the list is one
    /// status's but the partition holds them all (succeeded deliveries are listed
    /// from the whole log, see [`indexed_status`]). Its cursors carry it, so that a
    /// cursor continues only the list that handed it out.
    status_filter: Option<String>,
}

impl QuerySpec {
    /// The attributes that make up an `ExclusiveStartKey` for this query.
    fn key_attrs(&self) -> Vec<&'static str> {
        let mut v = vec![PK, SK];
        if self.index.is_some() {
            v.push(self.pk.0);
            v.push(self.sk_attr);
        }
        v
    }
}

/// A key condition on a query's sort key. Typed rather than kept as expression
/// text, so that a cursor can be checked against it: DynamoDB refuses a start key
/// outside the condition with a validation error, which would otherwise reach the
/// caller as a failing store.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SortCondition {
    Prefix(&'static str),
    AtLeast(String),
    Below(String),
    /// Both ends included, as DynamoDB's BETWEEN.
    Between(String, String),
}

impl SortCondition {
    fn expression(&self, attr: &str) -> (String, Item) {
        match self {
            SortCondition::Prefix(p) => (
                format!("begins_with({attr}, :prefix)"),
                HashMap::from([(":prefix".to_owned(), s(*p))]),
            ),
            SortCondition::AtLeast(lo) => (
                format!("{attr} >= :lo"),
                HashMap::from([(":lo".to_owned(), s(lo.clone()))]),
            ),
            SortCondition::Below(hi) => (
                format!("{attr} < :hi"),
                HashMap::from([(":hi".to_owned(), s(hi.clone()))]),
            ),
            SortCondition::Between(lo, hi) => (
                format!("{attr} BETWEEN :lo AND :hi"),
                HashMap::from([(":lo".to_owned(), s(lo.clone())), (":hi".to_owned(), s(hi.clone()))]),
            ),
        }
    }

    fn admits(&self, value: &str) -> bool {
        match self {
            SortCondition::Prefix(p) => value.starts_with(p),
            SortCondition::AtLeast(lo) => value >= lo.as_str(),
            SortCondition::Below(hi) => value < hi.as_str(),
            SortCondition::Between(lo, hi) => lo.as_str() <= value && value <= hi.as_str(),
        }
    }
}

/// Window key condition on a time-ordered sort key: `[since, until)`. Sort keys are
/// `<ms>#<id>`, so `BETWEEN "<since>" AND "<until>"` keeps since <= ms < until.
fn window_condition(since: Option<Timestamp>, until: Option<Timestamp>) -> Option<SortCondition> {
    match (since, until) {
        (None, None) => None,
        (Some(a), None) => Some(SortCondition::AtLeast(time_bound(a))),
        (None, Some(b)) => Some(SortCondition::Below(time_bound(b))),
        (Some(a), Some(b)) => Some(SortCondition::Between(time_bound(a), time_bound(b))),
    }
}

fn empty_window(since: Option<Timestamp>, until: Option<Timestamp>) -> bool {
    matches!((since, until), (Some(a), Some(b)) if a.millis().max(0) >= b.millis().max(0))
}

/// The most index entries one page reads before it answers with what it has kept
/// (ten BatchGetItems of 100): bounds a request's time and read units whatever the
/// list leaves out.
pub const MAX_EXAMINED: usize = 1000;

/// The cursor entry naming a filtered list's status (no key attribute has this name).
const CURSOR_STATUS: &str = "status";

fn encode_cursor(item: &Item, spec: &QuerySpec) -> PortResult<String> {
    let mut m = BTreeMap::new();
    for a in spec.key_attrs() {
        let v = get_s(item, a).ok_or_else(|| corrupt(format!("listed item lacks key attribute {a}")))?;
        m.insert(a.to_owned(), v.to_owned());
    }
    if let Some(status) = &spec.status_filter {
        m.insert(CURSOR_STATUS.to_owned(), status.clone());
    }
    Ok(URL_SAFE_NO_PAD.encode(to_json(&m)?))
}

fn decode_cursor(cursor: &str, spec: &QuerySpec) -> PortResult<Item> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| PortError::BadCursor)?;
    let mut m: BTreeMap<String, String> = serde_json::from_slice(&bytes).map_err(|_| PortError::BadCursor)?;
    // The whole log's cursor does not continue a status's list, nor the other way.
    if m.remove(CURSOR_STATUS) != spec.status_filter {
        return Err(PortError::BadCursor);
    }
    let attrs = spec.key_attrs();
    if m.len() != attrs.len() || !attrs.iter().all(|a| m.contains_key(*a)) {
        return Err(PortError::BadCursor);
    }
    // A cursor only continues the list it came from (and never another tenant's),
    // from a key inside the window asked for.
    if m.get(spec.pk.0) != Some(&spec.pk.1) {
        return Err(PortError::BadCursor);
    }
    if let Some(cond) = &spec.sk_cond
        && !m.get(spec.sk_attr).is_some_and(|v| cond.admits(v))
    {
        return Err(PortError::BadCursor);
    }
    if !entry_key_valid(&m, spec) {
        return Err(PortError::BadCursor);
    }
    Ok(m.into_iter().map(|(k, v)| (k, s(v))).collect())
}

/// Whether a cursor's key is one an entry of this list can have: the item's own
/// key names a delivery, event or endpoint by a well-formed id, and an index's
/// sort key is a time key naming the same record. A cursor is plain JSON, so
/// without this an empty or invented value would reach DynamoDB as a start key
/// (which it refuses: a 503 for what is the caller's mistake).
fn entry_key_valid(m: &BTreeMap<String, String>, spec: &QuerySpec) -> bool {
    let (Some(pk), Some(sk)) = (m.get(PK), m.get(SK)) else {
        return false;
    };
    // The id the entry's own key names, by kind.
    let own_id = if let Some(id) = pk.strip_prefix("DLV#") {
        // A delivery's own item, or (listed from its partition) one of its attempts.
        DeliveryId::parse(id).is_ok() && (sk == DELIVERY_SK || (spec.index.is_none() && attempt_sk_valid(sk)))
    } else if let Some(id) = pk.strip_prefix("EVT#") {
        EventId::parse(id).is_ok() && sk == EVENT_SK
    } else {
        // Endpoints: listed from the tenant's partition (checked against the list).
        spec.index.is_none() && sk.strip_prefix("EP#").is_some_and(|id| EndpointId::parse(id).is_ok())
    };
    if !own_id {
        return false;
    }
    if spec.index.is_none() {
        return true;
    }
    // Index sort keys are `<15-digit ms>#<id>`: the delivery's own id on the log
    // indexes, the event's on the audit index (an event's own entry names itself).
    let Some((ms, id)) = m.get(spec.sk_attr).and_then(|v| v.split_once('#')) else {
        return false;
    };
    let time_ok = ms.len() == 15 && ms.bytes().all(|b| b.is_ascii_digit());
    let named = if spec.sk_attr == GSI3SK {
        EventId::parse(id).is_ok() && pk.strip_prefix("EVT#").is_none_or(|own| own == id)
    } else {
        pk.strip_prefix("DLV#") == Some(id)
    };
    time_ok && named
}

impl DynamoStore {
    /// The store over `table`, judging TTL expiry by the system clock.
    pub fn new(config: &aws_config::SdkConfig, table: impl Into<String>) -> Self {
        Self::with_client(Client::new(config), table, Arc::new(SystemClock))
    }

    pub fn with_client(client: Client, table: impl Into<String>, clock: Arc<dyn Clock>) -> Self {
        DynamoStore {
            client,
            table: table.into(),
            clock,
            max_examined: MAX_EXAMINED,
        }
    }

    /// Judges TTL expiry by `clock` instead (tests use a manual clock).
    pub fn with_clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// Reads at most `entries` index entries per list page instead of
    /// [`MAX_EXAMINED`] (tests use a small bound, to see a page cut short).
    pub fn with_max_examined(mut self, entries: usize) -> Self {
        self.max_examined = entries.max(1);
        self
    }

    pub fn table(&self) -> &str {
        &self.table
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    /// A cheap read that proves the table is reachable (for `/healthz`).
    pub async fn ping(&self) -> PortResult<()> {
        self.client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key("HEALTH#ping".to_owned(), "HEALTH")))
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    fn now(&self) -> Timestamp {
        self.clock.now()
    }

    async fn get(&self, pk: String, sk: &str) -> PortResult<Option<Item>> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(pk, sk)))
            .consistent_read(true)
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(out.item)
    }

    /// Puts `item` unless an item with its key exists: `true` if it was written.
    async fn put_new(&self, item: Item) -> PortResult<bool> {
        self.put_if(item, "attribute_not_exists(PK)", None, None).await
    }

    /// Puts `item` if `condition` holds: `true` if it was written, `false` if the
    /// condition failed.
    async fn put_if(
        &self,
        item: Item,
        condition: &str,
        names: Option<HashMap<String, String>>,
        values: Option<Item>,
    ) -> PortResult<bool> {
        let r = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression(condition)
            .set_expression_attribute_names(names)
            .set_expression_attribute_values(values)
            .send()
            .await;
        match r {
            Ok(_) => Ok(true),
            Err(e) if is_put_conflict(&e) => Ok(false),
            Err(e) => Err(from_sdk(e)),
        }
    }

    /// A live item: present and not expired at the clock's now.
    async fn get_live(&self, pk: String, sk: &str) -> PortResult<Option<Item>> {
        let now = self.now();
        Ok(self.get(pk, sk).await?.filter(|i| is_live(get_n(i, TTL_ATTR), now)))
    }

    /// Makes the shared body item `hash` exist for `users` (delivery id, its TTL) and
    /// live as long as every delivery that uses it: no TTL while any of them has none
    /// (is not settled), else the latest of theirs. The item lists its users, so the
    /// last one to settle can tell that none is left pending. Reads the item's small
    /// attributes first and writes only on a change, since a write (even a refused
    /// conditional one) is billed for the whole body.
    async fn ensure_body(&self, hash: &str, body: &str, users: &[BodyUser]) -> PortResult<()> {
        let body_key = key(body_pk(hash), BODY_SK);
        let ids: Vec<String> = users.iter().map(|(id, _)| id.clone()).collect();
        let all_settled = users.iter().all(|(_, e)| e.is_some());
        let given_max = users.iter().filter_map(|(_, e)| *e).max();
        // Two rounds: a lost create race is followed by the update path.
        for _ in 0..2 {
            let stored = self
                .client
                .get_item()
                .table_name(&self.table)
                .set_key(Some(body_key.clone()))
                .projection_expression("PK, #ttl, #users")
                .expression_attribute_names("#ttl", TTL_ATTR)
                .expression_attribute_names("#users", BODY_USERS)
                .consistent_read(true)
                .send()
                .await
                .map_err(from_sdk)?
                .item;
            let Some(stored) = stored else {
                let mut item = body_key.clone();
                item.insert(BODY.to_owned(), s(body));
                item.insert(BODY_USERS.to_owned(), AttributeValue::Ss(ids.clone()));
                if let (true, Some(e)) = (all_settled, given_max) {
                    item.insert(TTL_ATTR.to_owned(), n(e));
                }
                if self.put_new(item).await? {
                    return Ok(());
                }
                continue;
            };
            let known: BTreeSet<String> = match stored.get(BODY_USERS) {
                Some(AttributeValue::Ss(v)) => v.iter().cloned().collect(),
                _ => BTreeSet::new(),
            };
            let stored_ttl = get_n(&stored, TTL_ATTR);
            let desired = match (all_settled, stored_ttl) {
                (false, _) => None,
                (true, Some(t)) => Some(given_max.map_or(t, |g| g.max(t))),
                // Settled users, on a body some user once needed without a TTL: the
                // others decide whether one is still pending.
                (true, None) => {
                    let others: Vec<String> = known.iter().filter(|k| !ids.contains(k)).cloned().collect();
                    let mut latest = given_max;
                    let mut pending = false;
                    for e in self.user_expiries(&others).await? {
                        match e {
                            Some(e) => latest = latest.max(Some(e)),
                            None => pending = true,
                        }
                    }
                    if pending { None } else { latest }
                }
            };
            let new_users: Vec<String> = ids.iter().filter(|i| !known.contains(*i)).cloned().collect();
            if desired == stored_ttl && new_users.is_empty() {
                return Ok(());
            }
            let mut values: Item = HashMap::new();
            let mut names = HashMap::from([("#ttl".to_owned(), TTL_ATTR.to_owned())]);
            let mut expr = Vec::new();
            match desired {
                Some(e) => {
                    values.insert(":ttl".to_owned(), n(e));
                    expr.push("SET #ttl = :ttl".to_owned());
                }
                None => expr.push("REMOVE #ttl".to_owned()),
            }
            if !new_users.is_empty() {
                values.insert(":users".to_owned(), AttributeValue::Ss(new_users));
                names.insert("#users".to_owned(), BODY_USERS.to_owned());
                expr.push("ADD #users :users".to_owned());
            }
            self.client
                .update_item()
                .table_name(&self.table)
                .set_key(Some(body_key))
                .update_expression(expr.join(" "))
                .condition_expression("attribute_exists(PK)")
                .set_expression_attribute_names(Some(names))
                .set_expression_attribute_values((!values.is_empty()).then_some(values))
                .send()
                .await
                .map_err(from_sdk)?;
            return Ok(());
        }
        Err(PortError::Conflict(format!("body item {hash} kept changing")))
    }

    /// The TTL of each delivery in `ids` that still exists (`None`: not settled).
    async fn user_expiries(&self, ids: &[String]) -> PortResult<Vec<Option<i64>>> {
        let keys: Vec<Item> = ids
            .iter()
            .filter_map(|id| DeliveryId::parse(id).ok())
            .map(|id| key(delivery_pk(&id), DELIVERY_SK))
            .collect();
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self
            .batch_get(keys, true)
            .await?
            .iter()
            .map(|i| get_n(i, TTL_ATTR))
            .collect())
    }

    /// After an event's transaction failed: the shared body items set up for its
    /// deliveries must not keep them as users, or an item made for them would keep
    /// no TTL (its users look unsettled) and stay for ever. Only deliveries that are
    /// really absent are released: a failure can be ambiguous (the transaction may
    /// have been applied after all). An item left with no user at all expires now,
    /// set only while it still has none (a user added meanwhile keeps it); one left
    /// with other users has its TTL worked out again from theirs, as when a user
    /// settles, since ours may have been what removed it.
    async fn release_bodies(&self, deliveries: &[Delivery]) -> PortResult<()> {
        let wanted = shared_bodies(deliveries);
        if wanted.is_empty() {
            return Ok(());
        }
        let keys: Vec<Item> = wanted
            .values()
            .flat_map(|(_, users)| users)
            .map(|d| key(delivery_pk(&d.id), DELIVERY_SK))
            .collect();
        let present: HashSet<String> = self
            .batch_get(keys, true)
            .await?
            .iter()
            .filter_map(|i| get_s(i, PK).map(str::to_owned))
            .collect();
        for (hash, (body, users)) in wanted {
            let gone: Vec<String> = users
                .iter()
                .filter(|d| !present.contains(&delivery_pk(&d.id)))
                .map(|d| d.id.to_string())
                .collect();
            if gone.is_empty() {
                continue;
            }
            let body_key = key(body_pk(&hash), BODY_SK);
            let left = self
                .client
                .update_item()
                .table_name(&self.table)
                .set_key(Some(body_key.clone()))
                .update_expression("DELETE #users :gone")
                .condition_expression("attribute_exists(PK)")
                .expression_attribute_names("#users", BODY_USERS)
                .expression_attribute_values(":gone", AttributeValue::Ss(gone))
                .return_values(ReturnValue::AllNew)
                .send()
                .await;
            let item = match left {
                Ok(r) => r.attributes.unwrap_or_default(),
                // The item is gone already: nothing to release.
                Err(e) if is_update_conflict(&e) => continue,
                Err(e) => return Err(from_sdk(e)),
            };
            if get_n(&item, TTL_ATTR).is_some() {
                continue;
            }
            if item.contains_key(BODY_USERS) {
                self.ensure_body(&hash, body, &[]).await?;
                continue;
            }
            let expired = self
                .client
                .update_item()
                .table_name(&self.table)
                .set_key(Some(body_key))
                .update_expression("SET #ttl = :now")
                .condition_expression(
                    "attribute_exists(PK) AND attribute_not_exists(#users) AND attribute_not_exists(#ttl)",
                )
                .set_expression_attribute_names(Some(names(&[("#ttl", TTL_ATTR), ("#users", BODY_USERS)])))
                .expression_attribute_values(":now", n(self.now().millis() / 1000))
                .send()
                .await;
            match expired {
                // A user came meanwhile, or the TTL was set: the item is theirs.
                Ok(_) => {}
                Err(e) if is_update_conflict(&e) => {}
                Err(e) => return Err(from_sdk(e)),
            }
        }
        Ok(())
    }

    async fn ensure_bodies<'a>(&self, deliveries: impl IntoIterator<Item = &'a Delivery>) -> PortResult<()> {
        for (hash, (body, users)) in shared_bodies(deliveries) {
            let users: Vec<BodyUser> = users.iter().map(|d| (d.id.to_string(), d.expires_at)).collect();
            self.ensure_body(&hash, body, &users).await?;
        }
        Ok(())
    }

    /// Shared bodies by hash; the deliveries that use one share its text.
    async fn bodies(&self, hashes: &[String]) -> PortResult<HashMap<String, Arc<str>>> {
        let keys: Vec<Item> = hashes
            .iter()
            .collect::<HashSet<_>>()
            .into_iter()
            .map(|h| key(body_pk(h), BODY_SK))
            .collect();
        let items = self.batch_get(keys, true).await?;
        let mut out = HashMap::new();
        for item in items {
            let (Some(pk), Some(body)) = (get_s(&item, PK), get_s(&item, BODY)) else {
                continue;
            };
            if let Some(hash) = pk.strip_prefix("BODY#") {
                out.insert(hash.to_owned(), Arc::from(body));
            }
        }
        Ok(out)
    }

    /// Decodes delivery items (from the table or the log indexes), fetching shared
    /// bodies in one batch.
    async fn deliveries_from(&self, items: &[Item]) -> PortResult<Vec<Delivery>> {
        let refs: Vec<String> = items
            .iter()
            .filter_map(|i| get_s(i, BODY_REF).map(str::to_owned))
            .collect();
        let shared = if refs.is_empty() {
            HashMap::new()
        } else {
            self.bodies(&refs).await?
        };
        items
            .iter()
            .map(|item| {
                let mut d = delivery_from_item(item)?;
                d.version = get_n(item, VERSION)
                    .and_then(|v| u64::try_from(v).ok())
                    .ok_or_else(|| corrupt(format!("delivery {}: no version", d.id)))?;
                d.claim = claim_from(item)?;
                d.body = match (get_s(item, BODY), get_s(item, BODY_REF)) {
                    (Some(b), _) => Arc::from(b),
                    (None, Some(h)) => shared
                        .get(h)
                        .cloned()
                        .ok_or_else(|| corrupt(format!("delivery {}: body item {h} is missing", d.id)))?,
                    (None, None) => return Err(corrupt(format!("delivery {}: no body", d.id))),
                };
                Ok(d)
            })
            .collect()
    }

    async fn load_delivery(&self, id: &DeliveryId) -> PortResult<Option<Delivery>> {
        match self.get_live(delivery_pk(id), DELIVERY_SK).await? {
            None => Ok(None),
            Some(item) => self.one_delivery(item).await.map(Some),
        }
    }

    async fn one_delivery(&self, item: Item) -> PortResult<Delivery> {
        self.deliveries_from(std::slice::from_ref(&item))
            .await?
            .pop()
            .ok_or_else(|| corrupt("delivery item decoded to nothing"))
    }

    /// BatchGetItem over any number of distinct keys, retrying unprocessed ones.
    async fn batch_get(&self, keys: Vec<Item>, consistent: bool) -> PortResult<Vec<Item>> {
        let mut out = Vec::new();
        for chunk in keys.chunks(100) {
            let mut pending: Vec<Item> = chunk.to_vec();
            let mut round = 0u32;
            while !pending.is_empty() {
                let ka = KeysAndAttributes::builder()
                    .set_keys(Some(pending))
                    .consistent_read(consistent)
                    .build()
                    .map_err(from_build)?;
                let resp = self
                    .client
                    .batch_get_item()
                    .request_items(&self.table, ka)
                    .send()
                    .await
                    .map_err(from_sdk)?;
                if let Some(mut r) = resp.responses {
                    out.extend(r.remove(&self.table).unwrap_or_default());
                }
                pending = resp
                    .unprocessed_keys
                    .and_then(|mut u| u.remove(&self.table))
                    .map(|ka| ka.keys)
                    .unwrap_or_default();
                if !pending.is_empty() {
                    round += 1;
                    // Unprocessed keys mean throttling or the 16 MB response cap:
                    // back off a little, as AWS recommends, then ask again.
                    tokio::time::sleep(std::time::Duration::from_millis(u64::from(20 * round.min(10)))).await;
                }
            }
        }
        Ok(out)
    }

    /// Runs a query until `limit + 1` items survive `resolve` (or the partition
    /// ends), so the page knows exactly whether more remain. A list that keeps few of
    /// the entries it reads (succeeded deliveries of an endpoint that has been
    /// failing for days) stops after `max_examined` entries with what it has: a
    /// short page, even an empty one, whose cursor goes on after the last entry read.
    async fn page<T, F, Fut>(
        &self,
        spec: QuerySpec,
        cursor: Option<&str>,
        limit: u32,
        mut resolve: F,
    ) -> PortResult<Page<T>>
    where
        F: FnMut(Vec<Item>) -> Fut,
        Fut: std::future::Future<Output = PortResult<Vec<(Item, T)>>>,
    {
        let limit = limit.clamp(1, MAX_PAGE) as usize;
        let want = limit + 1;
        let mut start = match cursor {
            Some(c) => Some(decode_cursor(c, &spec)?),
            None => None,
        };
        let now = self.now();
        let mut kept: Vec<(Item, T)> = Vec::new();
        let mut examined = 0usize;
        // Where a page cut short by the examination bound goes on from.
        let mut cut_at: Option<Item> = None;
        loop {
            let mut values: Item = HashMap::from([(":pk".to_owned(), s(spec.pk.1.clone()))]);
            let mut cond = format!("{} = :pk", spec.pk.0);
            if let Some(sk) = &spec.sk_cond {
                let (c, v) = sk.expression(spec.sk_attr);
                cond = format!("{cond} AND {c}");
                values.extend(v);
            }
            let mut q = self
                .client
                .query()
                .table_name(&self.table)
                .set_index_name(spec.index.map(str::to_owned))
                .key_condition_expression(cond)
                .scan_index_forward(spec.forward)
                .consistent_read(spec.consistent)
                .set_exclusive_start_key(start.take())
                .limit(i32::try_from(want - kept.len()).unwrap_or(i32::MAX));
            if spec.ttl_filter {
                q = q.filter_expression("attribute_not_exists(expiresAt) OR expiresAt > :now");
                values.insert(":now".to_owned(), n(now_secs(now)));
            }
            let resp = q
                .set_expression_attribute_values(Some(values))
                .send()
                .await
                .map_err(from_sdk)?;
            let items = resp.items.unwrap_or_default();
            examined += items.len().max(usize::try_from(resp.scanned_count).unwrap_or(0));
            if !items.is_empty() {
                kept.extend(resolve(items).await?);
            }
            match resp.last_evaluated_key {
                Some(k) if kept.len() < want && examined >= self.max_examined => {
                    cut_at = Some(k);
                    break;
                }
                Some(k) if kept.len() < want => start = Some(k),
                _ => break,
            }
        }
        let more = kept.len() > limit;
        kept.truncate(limit);
        let next_cursor = match (more, kept.last(), cut_at) {
            (true, Some((item, _)), _) => Some(encode_cursor(item, &spec)?),
            (false, _, Some(key)) => Some(encode_cursor(&key, &spec)?),
            _ => None,
        };
        Ok(Page {
            items: kept.into_iter().map(|(_, t)| t).collect(),
            next_cursor,
        })
    }

    /// The full delivery item, as created (with the audit-index entry when asked).
    fn delivery_item(&self, d: &Delivery, audit: Option<&EventRecord>) -> PortResult<Item> {
        let mut item = key(delivery_pk(&d.id), DELIVERY_SK);
        let (set, _) = delivery_attributes(d)?;
        item.extend(set);
        if let Some(event) = audit {
            item.insert(GSI3PK.to_owned(), s(audit_pk(&d.tenant_id, Some(&d.endpoint_id))));
            item.insert(GSI3SK.to_owned(), s(sort_key(event.created_at, event.id.as_str())));
            item.insert(EVENT_ID.to_owned(), s(event.id.as_str()));
        }
        Ok(item)
    }

    /// An UpdateItem that replaces the delivery's record and derived attributes,
    /// leaving its audit-index entry as created. `Writes::Outcome` leaves out what
    /// recording an outcome does not own: the dead-letter mark stays as stored and
    /// the version moves on by one from the stored one.
    fn delivery_update(
        &self,
        d: &Delivery,
        writes: Writes,
        condition: &str,
        mut cond_values: Item,
        cond_names: &[(&str, &str)],
    ) -> PortResult<Update> {
        let (mut set, mut remove) = delivery_attributes(d)?;
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

    async fn run_update(&self, u: Update) -> Result<(), SdkError<UpdateItemError, HttpResponse>> {
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

/// The query over a delivery's attempt items, oldest first when `forward`.
fn attempts_spec(delivery: &DeliveryId, forward: bool) -> QuerySpec {
    QuerySpec {
        index: None,
        pk: (PK, delivery_pk(delivery)),
        sk_attr: SK,
        sk_cond: Some(SortCondition::Prefix("ATT#")),
        forward,
        ttl_filter: true,
        consistent: true,
        status_filter: None,
    }
}

/// Whether `sk` is an attempt item's sort key (`ATT#<10-digit number>#<attempt id>`).
fn attempt_sk_valid(sk: &str) -> bool {
    sk.strip_prefix("ATT#")
        .and_then(|rest| rest.split_once('#'))
        .is_some_and(|(number, id)| {
            number.len() == 10 && number.bytes().all(|b| b.is_ascii_digit()) && AttemptId::parse(id).is_ok()
        })
}

/// What a delivery update writes (see [`DynamoStore::delivery_update`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Writes {
    Whole,
    Outcome,
}

/// The delivery's stored attributes (`SET`) and the optional ones it lacks (`REMOVE`).
/// Attributes to `SET` (name, value) and to `REMOVE`.
type AttributeChanges = (Vec<(String, AttributeValue)>, Vec<&'static str>);

/// Whether deliveries in `status` have an entry in the status index (GSI2). A
/// succeeded delivery has none: most deliveries end there, and its entry moving to
/// `succeeded` was a delete and a put (2 write units) on every success; leaving the
/// index is a delete alone. The few lists of succeeded deliveries read the whole log
/// (GSI1), where nearly every delivery is one, keeping only the succeeded ones.
fn indexed_status(status: &str) -> bool {
    status != DeliveryStatus::Succeeded.as_str()
}

fn delivery_attributes(d: &Delivery) -> PortResult<AttributeChanges> {
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
        set.push((GSI2PK.to_owned(), s(status_pk(&d.endpoint_id, d.status.as_str()))));
        set.push((GSI2SK.to_owned(), s(created)));
    } else {
        remove.extend([GSI2PK, GSI2SK]);
    }
    // The reconciler's due index (see `crate::due_index`).
    crate::due_index::extend_attributes(d, &mut set, &mut remove);
    match body_place(&d.body) {
        BodyPlace::Inline(b) => {
            set.push((BODY.to_owned(), s(b)));
            remove.push(BODY_REF);
        }
        BodyPlace::Shared(h) => {
            set.push((BODY_REF.to_owned(), s(h)));
            remove.push(BODY);
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
        None => remove.extend([CLAIM_ID, CLAIM_LEASE, CLAIM_NUMBER, CLAIM_STARTED, CLAIM_TOKEN]),
    }
    match d.dead_lettered_at {
        Some(t) => set.push((DEAD_LETTERED.to_owned(), s(t.to_rfc3339()))),
        None => remove.push(DEAD_LETTERED),
    }
    match d.expires_at {
        Some(e) => set.push((TTL_ATTR.to_owned(), n(e))),
        None => remove.push(TTL_ATTR),
    }
    Ok((set, remove))
}

fn is_update_conflict(e: &SdkError<UpdateItemError, HttpResponse>) -> bool {
    matches!(
        e.as_service_error(),
        Some(UpdateItemError::ConditionalCheckFailedException(_))
    )
}

fn is_put_conflict(e: &SdkError<PutItemError, HttpResponse>) -> bool {
    matches!(
        e.as_service_error(),
        Some(PutItemError::ConditionalCheckFailedException(_))
    )
}

#[async_trait]
impl TenantStore for DynamoStore {
    async fn put_tenant_key(&self, key_hash: &str, tenant: &Tenant) -> PortResult<()> {
        let mut item = key(tenant_key_pk(key_hash), TENANT_KEY_SK);
        item.insert(DATA.to_owned(), s(to_json(tenant)?));
        item.insert(TENANT_ID.to_owned(), s(tenant.id.as_str()));
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    async fn tenant_by_key(&self, key_hash: &str) -> PortResult<Option<Tenant>> {
        match self.get(tenant_key_pk(key_hash), TENANT_KEY_SK).await? {
            None => Ok(None),
            Some(item) => Ok(Some(from_json(&item, "tenant")?)),
        }
    }
}

#[async_trait]
impl EndpointStore for DynamoStore {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()> {
        let mut item = key(tenant_pk(&endpoint.tenant_id), &endpoint_sk(&endpoint.id));
        item.insert(DATA.to_owned(), s(to_json(endpoint)?));
        item.insert(VERSION.to_owned(), n(endpoint.version));
        if self.put_new(item).await? {
            Ok(())
        } else {
            Err(PortError::Conflict(format!("endpoint {} already exists", endpoint.id)))
        }
    }

    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
        match self.get(tenant_pk(tenant), &endpoint_sk(id)).await? {
            None => Ok(None),
            Some(item) => Ok(Some(from_json(&item, "endpoint")?)),
        }
    }

    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
        let mut item = key(tenant_pk(&endpoint.tenant_id), &endpoint_sk(&endpoint.id));
        item.insert(DATA.to_owned(), s(to_json(endpoint)?));
        item.insert(VERSION.to_owned(), n(endpoint.version));
        let written = self
            .put_if(
                item,
                "attribute_exists(PK) AND #v = :expected",
                Some(names(&[("#v", VERSION)])),
                Some(HashMap::from([(":expected".to_owned(), n(expected_version))])),
            )
            .await?;
        if written {
            Ok(())
        } else {
            Err(PortError::Conflict(format!(
                "endpoint {} is missing or not at version {expected_version}",
                endpoint.id
            )))
        }
    }

    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        let spec = QuerySpec {
            index: None,
            pk: (PK, tenant_pk(tenant)),
            sk_attr: SK,
            sk_cond: Some(SortCondition::Prefix("EP#")),
            forward: true,
            ttl_filter: false,
            consistent: true,
            status_filter: None,
        };
        self.page(spec, cursor, limit, |items| async move {
            items
                .into_iter()
                .map(|i| {
                    let e: Endpoint = from_json(&i, "endpoint")?;
                    Ok((i, e))
                })
                .collect()
        })
        .await
    }
}

#[async_trait]
impl DeliveryStore for DynamoStore {
    async fn create_event(&self, event: &EventRecord, deliveries: &[Delivery]) -> PortResult<()> {
        if deliveries.len() > MAX_DELIVERIES_PER_EVENT {
            return Err(PortError::Backend(Box::new(TooManyDeliveries(deliveries.len()))));
        }
        let mut seen = HashSet::new();
        for d in deliveries {
            if !seen.insert(&d.id) {
                return Err(PortError::Conflict(format!(
                    "delivery {} appears twice in one event",
                    d.id
                )));
            }
        }
        // Shared bodies first, which keeps the transaction far below 4 MB. If the
        // transaction then fails, the deliveries it did not write are taken off
        // their body items again (`release_bodies`).
        self.ensure_bodies(deliveries).await?;

        let now = self.now();
        let (cond, values) = absent_or_expired(now);
        let put = |item: Item| -> PortResult<TransactWriteItem> {
            Ok(TransactWriteItem::builder()
                .put(
                    Put::builder()
                        .table_name(&self.table)
                        .set_item(Some(item))
                        .condition_expression(cond)
                        .set_expression_attribute_values(Some(values.clone()))
                        .build()
                        .map_err(from_build)?,
                )
                .build())
        };
        let mut event_item = key(event_pk(&event.id), EVENT_SK);
        event_item.insert(DATA.to_owned(), s(to_json(event)?));
        event_item.insert(TENANT_ID.to_owned(), s(event.tenant_id.as_str()));
        event_item.insert(EVENT_ID.to_owned(), s(event.id.as_str()));
        event_item.insert(GSI3PK.to_owned(), s(audit_pk(&event.tenant_id, None)));
        event_item.insert(GSI3SK.to_owned(), s(sort_key(event.created_at, event.id.as_str())));
        if let Some(e) = event.expires_at {
            event_item.insert(TTL_ATTR.to_owned(), n(e));
        }
        let mut actions = vec![put(event_item)?];
        let mut audited = HashSet::new();
        for d in deliveries {
            // One audit entry per (event, endpoint): the first delivery carries it.
            let audit = audited.insert(&d.endpoint_id).then_some(event);
            actions.push(put(self.delivery_item(d, audit)?)?);
        }
        let written = self
            .client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .send()
            .await;
        if let Err(e) = written {
            if let Err(release) = self.release_bodies(deliveries).await {
                // The event's own error is what the caller needs; an item left
                // behind costs storage, not correctness.
                tracing::warn!(event = %event.id, error = %release, "could not release the shared bodies of a failed event");
            }
            return Err(from_transaction(e, || {
                format!("event {} or one of its deliveries already exists", event.id)
            }));
        }
        Ok(())
    }

    async fn create_delivery(&self, delivery: &Delivery) -> PortResult<()> {
        self.ensure_bodies(std::iter::once(delivery)).await?;
        let (cond, values) = absent_or_expired(self.now());
        if self
            .put_if(self.delivery_item(delivery, None)?, cond, None, Some(values))
            .await?
        {
            Ok(())
        } else {
            Err(PortError::Conflict(format!("delivery {} already exists", delivery.id)))
        }
    }

    async fn get_event(&self, tenant: &TenantId, id: &EventId) -> PortResult<Option<EventRecord>> {
        match self.get_live(event_pk(id), EVENT_SK).await? {
            None => Ok(None),
            Some(item) => {
                let e: EventRecord = from_json(&item, "event")?;
                Ok((&e.tenant_id == tenant).then_some(e))
            }
        }
    }

    async fn get_delivery(&self, id: &DeliveryId) -> PortResult<Option<Delivery>> {
        self.load_delivery(id).await
    }

    async fn claim_attempt(&self, id: &DeliveryId, claim: &ClaimRecord) -> PortResult<Claim> {
        let now = claim.started_at;
        // One conditional UpdateItem: the condition is the shared claim rule
        // (`claim_allowed`) over the item's own attributes, so no read comes first
        // and no race needs a retry. The old image comes back either way: on success
        // it is the state the claim was applied to (and the lost claim, if any); on a
        // refusal it says why, and whether the claim is already ours.
        let values: Item = HashMap::from([
            (":number".to_owned(), n(claim.number)),
            (":succeeded".to_owned(), s("succeeded")),
            (":failed".to_owned(), s("failed")),
            (":dropped".to_owned(), s("dropped")),
            (":nowms".to_owned(), n(now.millis())),
            (":now".to_owned(), n(now_secs(self.now()))),
            (":claimId".to_owned(), s(claim.attempt_id.as_str())),
            (":claimToken".to_owned(), s(claim.token.as_str())),
            (":lease".to_owned(), n(claim.lease_until.millis())),
            (":started".to_owned(), n(now.millis())),
            (":one".to_owned(), n(1)),
        ]);
        let condition = "attribute_exists(PK) AND #nextAttempt = :number \
            AND NOT (#status IN (:succeeded, :failed, :dropped)) \
            AND (attribute_not_exists(#claimLease) OR #claimLease <= :nowms) \
            AND (attribute_not_exists(expiresAt) OR expiresAt > :now)";
        let r = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(delivery_pk(id), DELIVERY_SK)))
            .update_expression(
                "SET #claimId = :claimId, #claimLease = :lease, #claimNumber = :number, \
                 #claimStarted = :started, #claimToken = :claimToken, #version = #version + :one",
            )
            .condition_expression(condition)
            .set_expression_attribute_names(Some(names(&[
                ("#version", VERSION),
                ("#nextAttempt", NEXT_ATTEMPT),
                ("#status", STATUS),
                ("#claimId", CLAIM_ID),
                ("#claimLease", CLAIM_LEASE),
                ("#claimNumber", CLAIM_NUMBER),
                ("#claimStarted", CLAIM_STARTED),
                ("#claimToken", CLAIM_TOKEN),
            ])))
            .set_expression_attribute_values(Some(values))
            .return_values(ReturnValue::AllOld)
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .await;
        match r {
            Ok(out) => {
                let old = out
                    .attributes
                    .ok_or_else(|| corrupt(format!("claim of delivery {id}: no old image returned")))?;
                let current = self.one_delivery(old).await?;
                let claimed = apply_claim(&current, claim);
                Ok(Claim::Claimed {
                    delivery: claimed,
                    lost: current.claim,
                })
            }
            Err(e) => {
                let old = match e.as_service_error() {
                    Some(UpdateItemError::ConditionalCheckFailedException(c)) => c.item.clone(),
                    _ => return Err(from_sdk(e)),
                };
                let Some(old) = old.filter(|i| is_live(get_n(i, TTL_ATTR), self.now())) else {
                    return Ok(Claim::Refused(None));
                };
                let current = self.one_delivery(old).await?;
                // Our own write already landed (the SDK retried a committed update).
                if claim_held_by(&current, claim) && !current.status.is_settled() {
                    return Ok(Claim::Claimed {
                        delivery: current,
                        lost: None,
                    });
                }
                Ok(Claim::Refused(Some(current)))
            }
        }
    }

    async fn record_attempt(&self, delivery: &Delivery, attempt: &Attempt, held: &ClaimRecord) -> PortResult<()> {
        let claim_id = &held.attempt_id;
        // Only settling changes what a shared body must outlive: an unsettled
        // delivery (no TTL) was registered, TTL-less, by the write before its claim.
        if delivery.expires_at.is_some() {
            self.ensure_bodies(std::iter::once(delivery)).await?;
        }
        let mut attempt_item = key(
            delivery_pk(&attempt.delivery_id),
            &attempt_sk(attempt.number, &attempt.id),
        );
        attempt_item.insert(DATA.to_owned(), s(to_json(attempt)?));
        if let Some(e) = attempt.expires_at {
            attempt_item.insert(TTL_ATTR.to_owned(), n(e));
        }
        let values: Item = HashMap::from([
            (":claim".to_owned(), s(claim_id.as_str())),
            (":claimToken".to_owned(), s(held.token.as_str())),
            (":now".to_owned(), n(now_secs(self.now()))),
        ]);
        let update = self.delivery_update(
            delivery,
            Writes::Outcome,
            "#claimId = :claim AND #claimToken = :claimToken \
             AND (attribute_not_exists(expiresAt) OR expiresAt > :now)",
            values,
            &[("#claimId", CLAIM_ID), ("#claimToken", CLAIM_TOKEN)],
        )?;
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(attempt_item))
            .build()
            .map_err(from_build)?;
        let r = self
            .client
            .transact_write_items()
            .transact_items(TransactWriteItem::builder().update(update).build())
            .transact_items(TransactWriteItem::builder().put(put).build())
            .send()
            .await
            .map_err(|e| {
                from_transaction(e, || {
                    format!("delivery {} does not hold the claim for {claim_id}", delivery.id)
                })
            });
        match r {
            Ok(_) => Ok(()),
            // An SDK retry of a transaction that did commit finds the claim gone:
            // if exactly this outcome is stored, the call succeeded.
            Err(PortError::Conflict(why)) => {
                let stored_attempt = self
                    .get(
                        delivery_pk(&attempt.delivery_id),
                        &attempt_sk(attempt.number, &attempt.id),
                    )
                    .await?
                    .map(|i| from_json::<Attempt>(&i, "attempt"))
                    .transpose()?;
                if stored_attempt.as_ref() == Some(attempt)
                    && self.load_delivery(&delivery.id).await?.as_ref() == Some(delivery)
                {
                    Ok(())
                } else {
                    Err(PortError::Conflict(why))
                }
            }
            Err(e) => Err(e),
        }
    }

    async fn update_delivery(&self, delivery: &Delivery, expected_version: u64) -> PortResult<()> {
        self.ensure_bodies(std::iter::once(delivery)).await?;
        let values: Item = HashMap::from([
            (":expected".to_owned(), n(expected_version)),
            (":now".to_owned(), n(now_secs(self.now()))),
        ]);
        let update = self.delivery_update(
            delivery,
            Writes::Whole,
            "attribute_exists(PK) AND #version = :expected AND (attribute_not_exists(expiresAt) OR expiresAt > :now)",
            values,
            &[("#version", VERSION)],
        )?;
        match self.run_update(update).await {
            Ok(()) => Ok(()),
            // Exactly this state is stored already (an SDK retry of a committed update).
            Err(e) if is_update_conflict(&e) && self.load_delivery(&delivery.id).await?.as_ref() == Some(delivery) => {
                Ok(())
            }
            Err(e) if is_update_conflict(&e) => Err(PortError::Conflict(format!(
                "delivery {} is missing or not at version {expected_version}",
                delivery.id
            ))),
            Err(e) => Err(from_sdk(e)),
        }
    }

    async fn list_attempts(&self, delivery: &DeliveryId) -> PortResult<Vec<Attempt>> {
        let now = self.now();
        let mut out = Vec::new();
        let mut start = None;
        loop {
            let resp = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND begins_with(SK, :att)")
                .expression_attribute_values(":pk", s(delivery_pk(delivery)))
                .expression_attribute_values(":att", s("ATT#"))
                .consistent_read(true)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(from_sdk)?;
            for item in resp.items.unwrap_or_default() {
                if is_live(get_n(&item, TTL_ATTR), now) {
                    out.push(from_json(&item, "attempt")?);
                }
            }
            start = resp.last_evaluated_key;
            if start.is_none() {
                return Ok(out);
            }
        }
    }

    async fn list_attempts_page(
        &self,
        delivery: &DeliveryId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Attempt>> {
        let spec = attempts_spec(delivery, true);
        self.page(spec, cursor, limit, |items| async move {
            items
                .into_iter()
                .map(|i| {
                    let a: Attempt = from_json(&i, "attempt")?;
                    Ok((i, a))
                })
                .collect()
        })
        .await
    }

    async fn get_attempt(&self, delivery: &DeliveryId, id: &AttemptId) -> PortResult<Option<Attempt>> {
        // The sort key starts with the number, which the caller does not know: the
        // query keeps only the item whose key ends with the id, so the answer is one
        // item however many attempts the delivery has.
        let mut start = None;
        let now = self.now();
        loop {
            let resp = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND begins_with(SK, :att)")
                .filter_expression("contains(SK, :id) AND (attribute_not_exists(expiresAt) OR expiresAt > :now)")
                .expression_attribute_values(":pk", s(delivery_pk(delivery)))
                .expression_attribute_values(":att", s("ATT#"))
                .expression_attribute_values(":id", s(format!("#{id}")))
                .expression_attribute_values(":now", n(now_secs(now)))
                .consistent_read(true)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(from_sdk)?;
            if let Some(item) = resp.items.unwrap_or_default().into_iter().next() {
                return from_json(&item, "attempt").map(Some);
            }
            start = resp.last_evaluated_key;
            if start.is_none() {
                return Ok(None);
            }
        }
    }

    async fn last_attempt(&self, delivery: &DeliveryId) -> PortResult<Option<Attempt>> {
        let page = self.page(attempts_spec(delivery, false), None, 1, |items| async move {
            items
                .into_iter()
                .map(|i| {
                    let a: Attempt = from_json(&i, "attempt")?;
                    Ok((i, a))
                })
                .collect()
        });
        Ok(page.await?.items.into_iter().next())
    }

    async fn list_deliveries(
        &self,
        endpoint: &EndpointId,
        status: Option<&str>,
        since: Option<Timestamp>,
        until: Option<Timestamp>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Delivery>> {
        let (index, pk, sk, status_filter) = match status {
            Some(st) if indexed_status(st) => (GSI_STATUS, (GSI2PK, status_pk(endpoint, st)), GSI2SK, None),
            // Kept out of the status index: the whole log, filtered below.
            Some(st) => (GSI_LOG, (GSI1PK, log_pk(endpoint)), GSI1SK, Some(st.to_owned())),
            None => (GSI_LOG, (GSI1PK, log_pk(endpoint)), GSI1SK, None),
        };
        if empty_window(since, until) {
            return Ok(Page {
                items: vec![],
                next_cursor: None,
            });
        }
        // Both log indexes project keys only (a claim or an outcome then rewrites no
        // index entry unless the status moves), so a page is a query for keys and one
        // consistent BatchGetItem for the items. An item that expired, or whose status
        // has moved on since the index saw it (or, listed from the whole log, is in
        // another status), is left out: the page shows the table.
        let spec = QuerySpec {
            index: Some(index),
            pk,
            sk_attr: sk,
            sk_cond: window_condition(since, until),
            forward: false,
            ttl_filter: false,
            consistent: false,
            status_filter,
        };
        let now = self.now();
        self.page(spec, cursor, limit, |keys| async move {
            let wanted: Vec<Item> = keys
                .iter()
                .filter_map(|k| Some(key(get_s(k, PK)?.to_owned(), get_s(k, SK)?)))
                .collect();
            let mut found: HashMap<String, Item> = self
                .batch_get(wanted, true)
                .await?
                .into_iter()
                .filter(|i| is_live(get_n(i, TTL_ATTR), now))
                .filter(|i| status.is_none_or(|st| get_s(i, STATUS) == Some(st)))
                .filter_map(|i| Some((get_s(&i, PK)?.to_owned(), i)))
                .collect();
            let mut pairs: Vec<(Item, Item)> = Vec::new();
            for k in keys {
                if let Some(item) = get_s(&k, PK).and_then(|pk| found.remove(pk)) {
                    pairs.push((k, item));
                }
            }
            let items: Vec<Item> = pairs.iter().map(|(_, i)| i.clone()).collect();
            let ds = self.deliveries_from(&items).await?;
            Ok(pairs.into_iter().map(|(k, _)| k).zip(ds).collect())
        })
        .await
    }

    async fn list_events(
        &self,
        tenant: &TenantId,
        endpoint: Option<&EndpointId>,
        since: Option<Timestamp>,
        until: Option<Timestamp>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<EventRecord>> {
        if empty_window(since, until) {
            return Ok(Page {
                items: vec![],
                next_cursor: None,
            });
        }
        let spec = QuerySpec {
            index: Some(GSI_AUDIT),
            pk: (GSI3PK, audit_pk(tenant, endpoint)),
            sk_attr: GSI3SK,
            sk_cond: window_condition(since, until),
            forward: false,
            ttl_filter: false,
            consistent: false,
            status_filter: None,
        };
        let now = self.now();
        self.page(spec, cursor, limit, |entries| async move {
            // The index holds keys and `eventId`; the events (payloads up to 256 KiB)
            // are read from the table, and expiry is judged on the event itself.
            let ids: Vec<String> = entries
                .iter()
                .filter_map(|i| get_s(i, EVENT_ID).map(str::to_owned))
                .collect();
            let unique: HashSet<&String> = ids.iter().collect();
            let keys: Vec<Item> = unique
                .into_iter()
                .map(|id| key(format!("EVT#{id}"), EVENT_SK))
                .collect();
            let mut events: HashMap<String, EventRecord> = HashMap::new();
            for item in self.batch_get(keys, false).await? {
                if !is_live(get_n(&item, TTL_ATTR), now) {
                    continue;
                }
                let e: EventRecord = from_json(&item, "event")?;
                if &e.tenant_id == tenant {
                    events.insert(e.id.to_string(), e);
                }
            }
            Ok(entries
                .into_iter()
                .filter_map(|i| {
                    let e = get_s(&i, EVENT_ID).and_then(|id| events.get(id)).cloned()?;
                    Some((i, e))
                })
                .collect())
        })
        .await
    }
}

#[async_trait]
impl IdempotencyStore for DynamoStore {
    async fn put_idempotency(&self, record: &IdempotencyRecord) -> PortResult<Option<IdempotencyRecord>> {
        let mut item = key(idempotency_pk(&record.key), IDEMPOTENCY_SK);
        item.insert(DATA.to_owned(), s(to_json(record)?));
        item.insert(TTL_ATTR.to_owned(), n(record.expires_at));
        for _ in 0..3 {
            let (cond, values) = absent_or_expired(self.now());
            if self.put_if(item.clone(), cond, None, Some(values)).await? {
                return Ok(None);
            }
            // First writer wins: answer with its record. (If it expired in between,
            // try to become the first writer again.)
            if let Some(existing) = self.get_live(idempotency_pk(&record.key), IDEMPOTENCY_SK).await? {
                return Ok(Some(from_json(&existing, "idempotency record")?));
            }
        }
        Err(PortError::Conflict(format!(
            "idempotency key {} kept changing",
            record.key
        )))
    }
}
