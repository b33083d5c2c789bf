//! The delivery item: its compact `data` (what other attributes hold, start
//! values and the webhook id left out; instants as epoch milliseconds), its key,
//! index, claim and body attributes, and the update expressions that rewrite it.

use super::attributes::{get_n, get_s, key, n, names, s, sort_key};
use super::body::{BodyPlace, body_hash_value, body_place};
use crate::dynamo::DynamoStore;
use crate::dynamo::schema::{
    BODY, BODY_HASH, BODY_REF, CLAIM_ID, CLAIM_LEASE, CLAIM_NUMBER, CLAIM_STARTED, CLAIM_TOKEN, DATA, DEAD_LETTERED,
    DELIVERY_SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, Item, LOST_CLAIM, NEXT_ATTEMPT, PK, STATUS, TENANT_ID,
    THROTTLED_UNTIL, TTL_ATTR, VERSION, body_ref, delivery_pk, log_pk, status_shard_pk,
};
use crate::error::{corrupt, from_build};
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{AttributeValue, Update};
use aws_smithy_runtime_api::client::orchestrator::HttpResponse;
use aws_smithy_runtime_api::client::result::SdkError;
use courier_app::domain::delivery_message::Trigger;
use courier_app::domain::model::{Delivery, DeliveryStatus};
use courier_app::ports::PortResult;
use courier_core::Timestamp;
use std::collections::HashMap;

/// Fields of a delivery's JSON that its item holds anyway: the body (stored beside
/// it or shared), the claim and the version (their own attributes, so that a claim
/// is one conditional `UpdateItem` that never reads or rewrites the document), and
/// the fields the key and the index and condition attributes carry. Left out of
/// `data`, they keep a delivery with a small body under 1 KiB, one write unit per
/// write instead of two; [`delivery_from_item`] puts them back.
const FIELDS_IN_ATTRIBUTES: [&str; 10] = [
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
const TTL_FIELD: &str = "expiresAt";
const WEBHOOK_ID_FIELD: &str = "webhookId";
const PLANNED_AT_FIELD: &str = "plannedAt";
const CREATED_AT_FIELD: &str = "createdAt";
const TRIGGER_FIELD: &str = "trigger";
/// Fields left out at their start value, and put back at it.
fn fields_at_start() -> [(&'static str, serde_json::Value); 4] {
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
pub(in crate::dynamo) fn delivery_from_item(item: &Item) -> PortResult<Delivery> {
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

/// A delivery item's event id and trigger, read from `data` alone (no trigger there:
/// the start value, which [`delivery_data`] leaves out).
pub(in crate::dynamo) fn event_and_trigger(item: &Item) -> Option<(String, Trigger)> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Fields {
        event_id: String,
        trigger: Option<Trigger>,
    }
    let f: Fields = serde_json::from_str(get_s(item, DATA)?).ok()?;
    Some((f.event_id, f.trigger.unwrap_or(Trigger::Initial)))
}

/// What a delivery update writes (see [`DynamoStore::delivery_update`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::dynamo) enum Writes {
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
pub(in crate::dynamo) fn indexed_status(status: &str) -> bool {
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
    pub(in crate::dynamo) fn delivery_item(&self, d: &Delivery) -> PortResult<Item> {
        let mut item = key(delivery_pk(&d.id), DELIVERY_SK);
        let (set, _) = delivery_attributes(d)?;
        item.extend(set);
        Ok(item)
    }

    /// An UpdateItem that replaces the delivery's record and derived attributes.
    /// `Writes::Outcome` leaves out what
    /// recording an outcome does not own: the dead-letter mark stays as stored and
    /// the version moves on by one from the stored one.
    pub(in crate::dynamo) fn delivery_update(
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
    pub(in crate::dynamo) fn delivery_update_also(
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

    pub(in crate::dynamo) async fn run_update(&self, u: Update) -> Result<(), SdkError<UpdateItemError, HttpResponse>> {
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
