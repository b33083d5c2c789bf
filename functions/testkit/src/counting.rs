//! Request counting at the SDK boundary, for benchmarks and cost estimates: an SDK
//! interceptor ([`RequestCounter`]) attached to a client's config counts every
//! operation by service and operation name (calls, HTTP requests including SDK
//! retries, failures), and for DynamoDB works out the request units each call
//! consumes from the item sizes it writes and reads, table and global secondary
//! indexes apart. Nothing in the delivery path uses this module.
//!
//! Unit rules (AWS on-demand billing): a write costs one write unit per started
//! KiB of the larger of the item before and after it, twice that inside
//! `TransactWriteItems`; a read costs one read unit per started 4 KiB when
//! strongly consistent, half when eventually consistent (a missing item still
//! costs the minimum). A GSI entry is 100 bytes plus its projected attributes; a
//! write that changes an index key deletes and re-puts the entry (two writes), one
//! that changes projected attributes rewrites it. To see before-images the counter
//! keeps a shadow copy of every item written through counted clients, so it is
//! exact only when every writer is counted, and it grows with the items written:
//! meant for benchmarks and tests, never for production clients.
//!
//! Depends only on the SDK crates; knows nothing of Courier's data model.

use aws_sdk_dynamodb::config::interceptors::{
    AfterDeserializationInterceptorContextRef, BeforeSerializationInterceptorContextRef,
    BeforeTransmitInterceptorContextRef, FinalizerInterceptorContextRef,
};
use aws_sdk_dynamodb::config::{ConfigBag, Intercept, RuntimeComponents};
use aws_sdk_dynamodb::operation::batch_get_item::{BatchGetItemInput, BatchGetItemOutput};
use aws_sdk_dynamodb::operation::delete_item::DeleteItemInput;
use aws_sdk_dynamodb::operation::get_item::{GetItemInput, GetItemOutput};
use aws_sdk_dynamodb::operation::put_item::PutItemInput;
use aws_sdk_dynamodb::operation::query::{QueryInput, QueryOutput};
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsInput;
use aws_sdk_dynamodb::operation::update_item::UpdateItemInput;
use aws_sdk_dynamodb::types::{AttributeValue, ProjectionType};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::interceptors::context::Input;
use aws_smithy_runtime_api::client::orchestrator::Metadata;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};

type Item = HashMap<String, AttributeValue>;

const WRITE_UNIT_BYTES: u64 = 1024;
const READ_UNIT_BYTES: u64 = 4096;
/// What DynamoDB adds to each index entry when sizing index writes.
const INDEX_ENTRY_OVERHEAD: u64 = 100;
/// SQS bills a request per started 64 KiB of payload.
const SQS_CHUNK_BYTES: u64 = 64 * 1024;

/// What one global secondary index stores.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Projection {
    All,
    KeysOnly,
    Include(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexSpec {
    pub name: String,
    /// The index's key attributes (partition, then sort).
    pub keys: Vec<String>,
    pub projection: Projection,
}

/// A table's key attributes and global secondary indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    pub table: String,
    pub keys: Vec<String>,
    pub indexes: Vec<IndexSpec>,
}

/// Reads a table's key schema and global secondary indexes (`DescribeTable`).
pub async fn describe_table(client: &aws_sdk_dynamodb::Client, table: &str) -> Result<TableSpec, BoxError> {
    let out = client
        .describe_table()
        .table_name(table)
        .send()
        .await
        .map_err(aws_sdk_dynamodb::Error::from)?;
    let t = out
        .table
        .ok_or_else(|| BoxError::from(format!("table {table} has no description")))?;
    let keys = t.key_schema().iter().map(|k| k.attribute_name().to_owned()).collect();
    let indexes = t
        .global_secondary_indexes()
        .iter()
        .map(|g| IndexSpec {
            name: g.index_name().unwrap_or_default().to_owned(),
            keys: g.key_schema().iter().map(|k| k.attribute_name().to_owned()).collect(),
            projection: match g.projection().and_then(|p| p.projection_type()) {
                Some(ProjectionType::KeysOnly) => Projection::KeysOnly,
                Some(ProjectionType::Include) => Projection::Include(
                    g.projection()
                        .map(|p| p.non_key_attributes().to_vec())
                        .unwrap_or_default(),
                ),
                _ => Projection::All,
            },
        })
        .collect();
    Ok(TableSpec {
        table: table.to_owned(),
        keys,
        indexes,
    })
}

/// Counts for one operation of one service.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpStats {
    /// Operations started.
    pub calls: u64,
    /// HTTP requests sent (an SDK retry is another request).
    pub requests: u64,
    /// Operations that ended in an error (conditional-check failures included).
    pub failed: u64,
    /// DynamoDB write units on the table.
    pub write_units: u64,
    /// DynamoDB write units on global secondary indexes.
    pub index_write_units: u64,
    /// DynamoDB read units (consistency applied).
    pub read_units: f64,
    /// SQS: billed 64 KiB payload chunks of the messages sent.
    pub payload_chunks: u64,
    /// DynamoDB reads that were eventually consistent.
    #[serde(skip)]
    eventual_reads: u64,
    /// DynamoDB reads in 4 KiB units before consistency is applied.
    #[serde(skip)]
    read_blocks: u64,
}

/// DynamoDB writes by item kind: the partition and sort key values up to their
/// first `#`, e.g. `DLV/ATT`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KindUnits {
    /// Item sizes written (the larger of before and after), summed.
    pub bytes: u64,
    pub write_units: u64,
    pub index_write_units: u64,
    /// Index write units by index name.
    pub by_index: BTreeMap<String, u64>,
    pub writes: u64,
}

/// Everything counted since the last reset.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Counts {
    /// service -> operation -> counts.
    pub services: BTreeMap<String, BTreeMap<String, OpStats>>,
    /// DynamoDB writes by item kind.
    pub dynamodb_kinds: BTreeMap<String, KindUnits>,
}

impl Counts {
    pub fn op(&self, service: &str, operation: &str) -> OpStats {
        self.services
            .get(service)
            .and_then(|ops| ops.get(operation))
            .cloned()
            .unwrap_or_default()
    }

    /// Sum over the operations of one service.
    pub fn service(&self, service: &str) -> OpStats {
        let mut total = OpStats::default();
        for s in self.services.get(service).into_iter().flat_map(|ops| ops.values()) {
            total.calls += s.calls;
            total.requests += s.requests;
            total.failed += s.failed;
            total.write_units += s.write_units;
            total.index_write_units += s.index_write_units;
            total.read_units += s.read_units;
            total.payload_chunks += s.payload_chunks;
        }
        total
    }
}

#[derive(Default)]
struct State {
    counts: Counts,
    /// (table, canonical key) -> item as last written through a counted client.
    shadow: HashMap<(String, String), Item>,
}

/// The interceptor and its tallies; clones share them. Attach it with
/// [`RequestCounter::dynamodb`], [`RequestCounter::sqs`] and
/// [`RequestCounter::scheduler`] (or `config::Builder::interceptor`).
#[derive(Clone, Default)]
pub struct RequestCounter {
    state: Arc<Mutex<State>>,
    tables: Arc<Vec<TableSpec>>,
}

impl std::fmt::Debug for RequestCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RequestCounter")
            .field("tables", &self.tables)
            .finish_non_exhaustive()
    }
}

impl RequestCounter {
    /// A counter that sizes index writes for these tables (others: table units only).
    pub fn new(tables: Vec<TableSpec>) -> Self {
        RequestCounter {
            state: Arc::default(),
            tables: Arc::new(tables),
        }
    }

    pub fn dynamodb(&self, sdk: &aws_config::SdkConfig) -> aws_sdk_dynamodb::Client {
        let conf = aws_sdk_dynamodb::config::Builder::from(sdk)
            .interceptor(self.clone())
            .build();
        aws_sdk_dynamodb::Client::from_conf(conf)
    }

    pub fn sqs(&self, sdk: &aws_config::SdkConfig) -> aws_sdk_sqs::Client {
        let conf = aws_sdk_sqs::config::Builder::from(sdk)
            .interceptor(self.clone())
            .build();
        aws_sdk_sqs::Client::from_conf(conf)
    }

    pub fn scheduler(&self, sdk: &aws_config::SdkConfig) -> aws_sdk_scheduler::Client {
        let conf = aws_sdk_scheduler::config::Builder::from(sdk)
            .interceptor(self.clone())
            .build();
        aws_sdk_scheduler::Client::from_conf(conf)
    }

    pub fn kms(&self, sdk: &aws_config::SdkConfig) -> aws_sdk_kms::Client {
        let conf = aws_sdk_kms::config::Builder::from(sdk)
            .interceptor(self.clone())
            .build();
        aws_sdk_kms::Client::from_conf(conf)
    }

    /// The tallies so far.
    pub fn snapshot(&self) -> Counts {
        self.lock().counts.clone()
    }

    /// Zeroes the tallies (the shadow items stay: they are the tables' state).
    pub fn reset(&self) {
        self.lock().counts = Counts::default();
    }

    /// The tallies so far, then zeroes them.
    pub fn take(&self) -> Counts {
        std::mem::take(&mut self.lock().counts)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while counting leaves tallies that are still worth reading.
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn table(&self, name: &str) -> Option<&TableSpec> {
        self.tables.iter().find(|t| t.table == name)
    }
}

fn names_of(cfg: &ConfigBag) -> (String, String) {
    match cfg.load::<Metadata>() {
        Some(m) => (m.service().to_owned(), m.name().to_owned()),
        None => ("unknown".to_owned(), "unknown".to_owned()),
    }
}

impl State {
    fn stats(&mut self, service: &str, op: &str) -> &mut OpStats {
        self.counts
            .services
            .entry(service.to_owned())
            .or_default()
            .entry(op.to_owned())
            .or_default()
    }
}

impl Intercept for RequestCounter {
    fn name(&self) -> &'static str {
        "CourierRequestCounter"
    }

    // Not `read_before_execution`: a client-level interceptor runs that before the
    // operation's configuration (and so its name) is in the config bag.
    fn read_before_serialization(
        &self,
        context: &BeforeSerializationInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let (service, op) = names_of(cfg);
        let input = context.input();
        let mut state = self.lock();
        state.stats(&service, &op).calls += 1;
        match service.as_str() {
            "DynamoDB" => self.dynamodb_input(&mut state, &op, input),
            "SQS" => {
                let chunks = input
                    .downcast_ref::<aws_sdk_sqs::operation::send_message::SendMessageInput>()
                    .map(|m| chunks(m.message_body().map_or(0, str::len)))
                    .or_else(|| {
                        input
                            .downcast_ref::<aws_sdk_sqs::operation::send_message_batch::SendMessageBatchInput>()
                            .map(|b| batch_chunks(b.entries().iter().map(|e| e.message_body().len())))
                    })
                    .unwrap_or(0);
                state.stats(&service, &op).payload_chunks += chunks;
            }
            _ => {}
        }
        Ok(())
    }

    fn read_before_transmit(
        &self,
        _context: &BeforeTransmitInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let (service, op) = names_of(cfg);
        self.lock().stats(&service, &op).requests += 1;
        Ok(())
    }

    fn read_after_deserialization(
        &self,
        context: &AfterDeserializationInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let (service, op) = names_of(cfg);
        if service != "DynamoDB" {
            return Ok(());
        }
        let Ok(output) = context.output_or_error() else {
            return Ok(());
        };
        let blocks = if let Some(o) = output.downcast_ref::<GetItemOutput>() {
            read_blocks(o.item().map_or(0, item_size))
        } else if let Some(o) = output.downcast_ref::<QueryOutput>() {
            // A query is sized as a whole: the items it returned, rounded up once.
            read_blocks(o.items().iter().map(item_size).sum())
        } else if let Some(o) = output.downcast_ref::<BatchGetItemOutput>() {
            o.responses()
                .map(|r| r.values().flatten().map(|i| read_blocks(item_size(i))).sum())
                .unwrap_or(0)
        } else {
            0
        };
        self.lock().stats(&service, &op).read_blocks += blocks;
        Ok(())
    }

    fn read_after_execution(
        &self,
        context: &FinalizerInterceptorContextRef<'_>,
        _runtime_components: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let (service, op) = names_of(cfg);
        let mut state = self.lock();
        let stats = state.stats(&service, &op);
        if matches!(context.output_or_error(), Some(Err(_))) {
            stats.failed += 1;
        }
        // Consistency is known from the inputs, sizes from the outputs: weight them.
        if stats.read_blocks > 0 && stats.calls > 0 {
            let consistent = stats.calls.saturating_sub(stats.eventual_reads) as f64;
            let share = (consistent + 0.5 * stats.eventual_reads as f64) / stats.calls as f64;
            stats.read_units = stats.read_blocks as f64 * share;
        }
        Ok(())
    }
}

/// One item write inside a DynamoDB call.
enum Change<'a> {
    Put(&'a Item),
    Update {
        expression: &'a str,
        names: Option<&'a HashMap<String, String>>,
        values: Option<&'a Item>,
    },
    Delete,
}

impl RequestCounter {
    fn dynamodb_input(&self, state: &mut State, op: &str, input: &Input) {
        let mut eventual = false;
        if let Some(i) = input.downcast_ref::<GetItemInput>() {
            eventual = !i.consistent_read().unwrap_or(false);
        } else if let Some(i) = input.downcast_ref::<QueryInput>() {
            eventual = !i.consistent_read().unwrap_or(false);
        } else if let Some(i) = input.downcast_ref::<BatchGetItemInput>() {
            eventual = i
                .request_items()
                .is_none_or(|m| m.values().all(|k| !k.consistent_read().unwrap_or(false)));
        } else if let Some(i) = input.downcast_ref::<PutItemInput>() {
            if let (Some(table), Some(item)) = (i.table_name(), i.item()) {
                let key = self.key_of(table, item);
                self.write(state, op, table, &key, Change::Put(item), false);
            }
        } else if let Some(i) = input.downcast_ref::<UpdateItemInput>() {
            if let (Some(table), Some(key)) = (i.table_name(), i.key()) {
                let change = Change::Update {
                    expression: i.update_expression().unwrap_or_default(),
                    names: i.expression_attribute_names(),
                    values: i.expression_attribute_values(),
                };
                self.write(state, op, table, key, change, false);
            }
        } else if let Some(i) = input.downcast_ref::<DeleteItemInput>() {
            if let (Some(table), Some(key)) = (i.table_name(), i.key()) {
                self.write(state, op, table, key, Change::Delete, false);
            }
        } else if let Some(i) = input.downcast_ref::<TransactWriteItemsInput>() {
            for t in i.transact_items() {
                if let Some(p) = t.put() {
                    let key = self.key_of(p.table_name(), p.item());
                    self.write(state, op, p.table_name(), &key, Change::Put(p.item()), true);
                } else if let Some(u) = t.update() {
                    let change = Change::Update {
                        expression: u.update_expression(),
                        names: u.expression_attribute_names(),
                        values: u.expression_attribute_values(),
                    };
                    self.write(state, op, u.table_name(), u.key(), change, true);
                } else if let Some(d) = t.delete() {
                    self.write(state, op, d.table_name(), d.key(), Change::Delete, true);
                } else if let Some(c) = t.condition_check() {
                    // A condition check reads the item: sized like a write, unchanged.
                    let size = self.shadow_size(state, c.table_name(), c.key());
                    state.stats("DynamoDB", op).write_units += 2 * write_units(size);
                }
            }
        }
        if eventual {
            state.stats("DynamoDB", op).eventual_reads += 1;
        }
    }

    /// The key attributes of a whole item (by the table's key schema).
    fn key_of(&self, table: &str, item: &Item) -> Item {
        match self.table(table) {
            Some(spec) => spec
                .keys
                .iter()
                .filter_map(|k| item.get(k).map(|v| (k.clone(), v.clone())))
                .collect(),
            None => Item::new(),
        }
    }

    fn shadow_size(&self, state: &State, table: &str, key: &Item) -> u64 {
        state
            .shadow
            .get(&(table.to_owned(), canonical(key)))
            .map_or(0, item_size)
    }

    fn write(&self, state: &mut State, op: &str, table: &str, key: &Item, change: Change<'_>, transactional: bool) {
        let spec = self.table(table);
        let shadow_key = (table.to_owned(), canonical(key));
        let before = spec.and_then(|_| state.shadow.get(&shadow_key).cloned());
        let after = match change {
            Change::Put(item) => Some(item.clone()),
            Change::Delete => None,
            Change::Update {
                expression,
                names,
                values,
            } => {
                let mut item = before.clone().unwrap_or_else(|| key.clone());
                let mut updated = item.clone();
                if apply_update(&mut updated, expression, names, values).is_some() {
                    item = updated;
                } else if let Some(values) = values {
                    // An expression this parser does not follow: size it by its values.
                    item.extend(values.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
                Some(item)
            }
        };
        let size = before
            .as_ref()
            .map_or(0, item_size)
            .max(after.as_ref().map_or(0, item_size));
        let units = write_units(size) * if transactional { 2 } else { 1 };
        let mut by_index = Vec::new();
        if let Some(spec) = spec {
            for index in &spec.indexes {
                let u = index_write_units(spec, index, before.as_ref(), after.as_ref());
                if u > 0 {
                    by_index.push((index.name.clone(), u));
                }
            }
        }
        let index_units: u64 = by_index.iter().map(|(_, u)| u).sum();
        let stats = state.stats("DynamoDB", op);
        stats.write_units += units;
        stats.index_write_units += index_units;
        let kind = state.counts.dynamodb_kinds.entry(kind_of(spec, key)).or_default();
        kind.writes += 1;
        kind.bytes += size;
        kind.write_units += units;
        kind.index_write_units += index_units;
        for (name, u) in by_index {
            *kind.by_index.entry(name).or_default() += u;
        }
        if spec.is_some() {
            match after {
                Some(item) => {
                    state.shadow.insert(shadow_key, item);
                }
                None => {
                    state.shadow.remove(&shadow_key);
                }
            }
        }
    }
}

/// Applies `SET a = :v, ...` (also `a = b + :v` on numbers) and `REMOVE a, ...`
/// clauses; `None` for anything else (functions, ADD/DELETE), leaving `item` partly
/// updated.
fn apply_update(
    item: &mut Item,
    expression: &str,
    names: Option<&HashMap<String, String>>,
    values: Option<&Item>,
) -> Option<()> {
    let mut clauses: Vec<(String, String)> = Vec::new();
    for token in expression.split_whitespace() {
        let upper = token.to_ascii_uppercase();
        if matches!(upper.as_str(), "SET" | "REMOVE" | "ADD" | "DELETE") {
            clauses.push((upper, String::new()));
            continue;
        }
        let (_, text) = clauses.last_mut()?;
        text.push_str(token);
        text.push(' ');
    }
    let resolve = |raw: &str| -> Option<String> {
        let raw = raw.trim();
        match raw.strip_prefix('#') {
            Some(_) => names?.get(raw).cloned(),
            None => Some(raw.to_owned()),
        }
    };
    for (keyword, text) in clauses {
        match keyword.as_str() {
            "SET" => {
                for assignment in text.split(',') {
                    let (lhs, rhs) = assignment.split_once('=')?;
                    let operand = |raw: &str| -> Option<AttributeValue> {
                        let raw = raw.trim();
                        if raw.is_empty() || raw.contains(|c: char| c.is_whitespace() || "()+-".contains(c)) {
                            return None;
                        }
                        if raw.starts_with(':') {
                            values?.get(raw).cloned()
                        } else {
                            item.get(&resolve(raw)?).cloned()
                        }
                    };
                    let value = match rhs.split_once('+') {
                        Some((a, b)) => {
                            let number = |v: AttributeValue| v.as_n().ok()?.parse::<i128>().ok();
                            AttributeValue::N((number(operand(a)?)? + number(operand(b)?)?).to_string())
                        }
                        None => operand(rhs)?,
                    };
                    item.insert(resolve(lhs)?, value);
                }
            }
            "REMOVE" => {
                for name in text.split(',') {
                    item.remove(&resolve(name)?);
                }
            }
            _ => return None,
        }
    }
    Some(())
}

/// Write units one write costs on one index, given the item before and after.
fn index_write_units(table: &TableSpec, index: &IndexSpec, before: Option<&Item>, after: Option<&Item>) -> u64 {
    let entry = |item: &Item| -> Option<(String, u64)> {
        let mut key = Item::new();
        for k in &index.keys {
            key.insert(k.clone(), item.get(k)?.clone());
        }
        let projected: Item = match &index.projection {
            Projection::All => item.clone(),
            Projection::KeysOnly | Projection::Include(_) => {
                let extra: &[String] = match &index.projection {
                    Projection::Include(a) => a,
                    _ => &[],
                };
                table
                    .keys
                    .iter()
                    .chain(&index.keys)
                    .chain(extra)
                    .filter_map(|k| item.get(k).map(|v| (k.clone(), v.clone())))
                    .collect()
            }
        };
        Some((
            format!("{}|{}", canonical(&key), canonical(&projected)),
            item_size(&projected) + INDEX_ENTRY_OVERHEAD,
        ))
    };
    let key_part = |s: &str| s.split('|').next().unwrap_or_default().to_owned();
    match (before.and_then(entry), after.and_then(entry)) {
        (None, None) => 0,
        (None, Some((_, a))) => write_units(a),
        (Some((_, b)), None) => write_units(b),
        (Some((kb, b)), Some((ka, a))) if key_part(&kb) != key_part(&ka) => write_units(b) + write_units(a),
        (Some((kb, b)), Some((ka, a))) if kb != ka => write_units(b.max(a)),
        _ => 0,
    }
}

/// A stable text form of a key or item, for map keys and comparisons.
fn canonical(item: &Item) -> String {
    let sorted: BTreeMap<&String, String> = item.iter().map(|(k, v)| (k, format!("{v:?}"))).collect();
    format!("{sorted:?}")
}

/// The item kind: each key value up to its first `#` (`DLV/DLV`, `DLV/ATT`, ...).
fn kind_of(spec: Option<&TableSpec>, key: &Item) -> String {
    let prefix = |v: &AttributeValue| {
        v.as_s()
            .ok()
            .map(|s| s.split('#').next().unwrap_or_default().to_owned())
    };
    let parts: Vec<String> = match spec {
        Some(spec) => spec.keys.iter().filter_map(|k| key.get(k)).filter_map(prefix).collect(),
        None => {
            let sorted: BTreeMap<&String, &AttributeValue> = key.iter().collect();
            sorted.values().filter_map(|v| prefix(v)).collect()
        }
    };
    if parts.is_empty() {
        "other".to_owned()
    } else {
        parts.join("/")
    }
}

fn write_units(bytes: u64) -> u64 {
    bytes.div_ceil(WRITE_UNIT_BYTES).max(1)
}

fn read_blocks(bytes: u64) -> u64 {
    bytes.div_ceil(READ_UNIT_BYTES).max(1)
}

fn chunks(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(SQS_CHUNK_BYTES).max(1)
}

/// A `SendMessageBatch` is billed on its whole payload: up to ten messages in one
/// request per started 64 KiB of all their bodies together, not a request each.
fn batch_chunks(bodies: impl Iterator<Item = usize>) -> u64 {
    chunks(bodies.sum())
}

/// DynamoDB's item size: attribute names plus values (numbers by significant digits).
pub fn item_size(item: &Item) -> u64 {
    item.iter().map(|(k, v)| k.len() as u64 + value_size(v)).sum()
}

fn value_size(v: &AttributeValue) -> u64 {
    match v {
        AttributeValue::S(s) => s.len() as u64,
        AttributeValue::N(n) => number_size(n),
        AttributeValue::B(b) => b.as_ref().len() as u64,
        AttributeValue::Bool(_) | AttributeValue::Null(_) => 1,
        AttributeValue::Ss(v) => v.iter().map(|s| s.len() as u64).sum(),
        AttributeValue::Ns(v) => v.iter().map(|n| number_size(n)).sum(),
        AttributeValue::Bs(v) => v.iter().map(|b| b.as_ref().len() as u64).sum(),
        AttributeValue::L(l) => 3 + l.iter().map(|x| 1 + value_size(x)).sum::<u64>(),
        AttributeValue::M(m) => 3 + m.iter().map(|(k, x)| 1 + k.len() as u64 + value_size(x)).sum::<u64>(),
        _ => 0,
    }
}

/// About one byte per two significant digits, plus one.
fn number_size(n: &str) -> u64 {
    let digits: String = n.chars().filter(char::is_ascii_digit).collect();
    let significant = digits.trim_start_matches('0').trim_end_matches('0').len().max(1) as u64;
    significant.div_ceil(2) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> AttributeValue {
        AttributeValue::S(v.to_owned())
    }

    fn spec() -> TableSpec {
        TableSpec {
            table: "t".into(),
            keys: vec!["PK".into(), "SK".into()],
            indexes: vec![
                IndexSpec {
                    name: "all".into(),
                    keys: vec!["G1".into()],
                    projection: Projection::All,
                },
                IndexSpec {
                    name: "keys".into(),
                    keys: vec!["G2".into()],
                    projection: Projection::KeysOnly,
                },
            ],
        }
    }

    #[test]
    fn sizes_follow_dynamodb_rules() {
        let item = Item::from([
            ("PK".to_owned(), s("abc")),
            ("n".to_owned(), AttributeValue::N("1200".into())),
        ]);
        // "PK" + "abc" = 5; "n" + (2 significant digits -> 2 bytes) = 3.
        assert_eq!(item_size(&item), 8);
        assert_eq!(write_units(0), 1);
        assert_eq!(write_units(1024), 1);
        assert_eq!(write_units(1025), 2);
        assert_eq!(read_blocks(4097), 2);
        assert_eq!(chunks(64 * 1024 + 1), 2);
        assert_eq!(batch_chunks([1024; 10].into_iter()), 1);
        assert_eq!(batch_chunks([40 * 1024, 40 * 1024].into_iter()), 2);
        assert_eq!(batch_chunks(std::iter::empty()), 1);
    }

    #[test]
    fn updates_apply_set_and_remove() {
        let mut item = Item::from([("a".to_owned(), s("1")), ("gone".to_owned(), s("x"))]);
        let names = HashMap::from([("#b".to_owned(), "b".to_owned()), ("#g".to_owned(), "gone".to_owned())]);
        let values = Item::from([(":v".to_owned(), s("2"))]);
        assert!(apply_update(&mut item, "SET #b = :v, a = :v REMOVE #g", Some(&names), Some(&values)).is_some());
        assert_eq!(item.get("b"), Some(&s("2")));
        assert_eq!(item.get("a"), Some(&s("2")));
        assert!(!item.contains_key("gone"));
        assert!(apply_update(&mut item, "SET a = size(a)", Some(&names), Some(&values)).is_none());
        // The claim's version bump: a number attribute plus a number value.
        let mut counted = Item::from([("version".to_owned(), AttributeValue::N("41".into()))]);
        let names = HashMap::from([("#v".to_owned(), "version".to_owned())]);
        let one = Item::from([(":one".to_owned(), AttributeValue::N("1".into()))]);
        assert!(apply_update(&mut counted, "SET #v = #v + :one", Some(&names), Some(&one)).is_some());
        assert_eq!(counted.get("version"), Some(&AttributeValue::N("42".into())));
        // Adding to a string is not followed.
        assert!(apply_update(&mut item, "SET a = a + :v", None, Some(&values)).is_none());
    }

    #[test]
    fn index_writes_count_key_changes_twice() {
        let spec = spec();
        let all = &spec.indexes[0];
        let keys = &spec.indexes[1];
        let base = Item::from([
            ("PK".to_owned(), s("p")),
            ("SK".to_owned(), s("s")),
            ("G1".to_owned(), s("a")),
        ]);
        let mut changed = base.clone();
        changed.insert("data".into(), s("x"));
        assert_eq!(index_write_units(&spec, all, None, Some(&base)), 1);
        assert_eq!(index_write_units(&spec, all, Some(&base), Some(&base)), 0);
        assert_eq!(index_write_units(&spec, all, Some(&base), Some(&changed)), 1);
        let mut moved = changed.clone();
        moved.insert("G1".into(), s("b"));
        assert_eq!(index_write_units(&spec, all, Some(&changed), Some(&moved)), 2);
        // Not in the keys-only index (no G2), and a non-key change leaves it alone.
        assert_eq!(index_write_units(&spec, keys, Some(&base), Some(&changed)), 0);
        let mut with_g2 = base.clone();
        with_g2.insert("G2".into(), s("k"));
        let mut with_g2_changed = with_g2.clone();
        with_g2_changed.insert("data".into(), s("x"));
        assert_eq!(
            index_write_units(&spec, keys, Some(&with_g2), Some(&with_g2_changed)),
            0
        );
    }
}
