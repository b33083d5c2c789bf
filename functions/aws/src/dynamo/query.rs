//! Queries and cursors: one query spec over the table or an index, sort-key windows,
//! opaque cursors checked against the list they came from, and the page loop.

use super::*;

/// One query over the table or an index, newest or oldest first.
pub(super) struct QuerySpec {
    pub(super) index: Option<&'static str>,
    /// Partition attribute and value.
    pub(super) pk: (&'static str, String),
    /// Sort attribute, and the key condition on it (`None`: the whole partition).
    pub(super) sk_attr: &'static str,
    pub(super) sk_cond: Option<SortCondition>,
    pub(super) forward: bool,
    /// Drop expired items server-side (the index carries `expiresAt`).
    pub(super) ttl_filter: bool,
    pub(super) consistent: bool,
    /// The status the caller keeps of the partition's items, when the list is one
    /// status's but the partition holds them all (succeeded deliveries are listed
    /// from the whole log, see [`indexed_status`]). Its cursors carry it, so that a
    /// cursor continues only the list that handed it out.
    pub(super) status_filter: Option<String>,
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
pub(super) enum SortCondition {
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

/// A query's key condition and its values: the partition `pk_attr = pk` and, when
/// given, the condition on the sort key `sk_attr`.
fn key_condition(pk_attr: &str, pk: &str, sk_attr: &str, sk: Option<&SortCondition>) -> (String, Item) {
    let mut values: Item = HashMap::from([(":pk".to_owned(), s(pk))]);
    let mut cond = format!("{pk_attr} = :pk");
    if let Some(sk) = sk {
        let (c, v) = sk.expression(sk_attr);
        cond = format!("{cond} AND {c}");
        values.extend(v);
    }
    (cond, values)
}

/// Window key condition on a time-ordered sort key: `[since, until)`. Sort keys are
/// `<ms>#<id>`, so `BETWEEN "<since>" AND "<until>"` keeps since <= ms < until.
pub(super) fn window_condition(since: Option<Timestamp>, until: Option<Timestamp>) -> Option<SortCondition> {
    match (since, until) {
        (None, None) => None,
        (Some(a), None) => Some(SortCondition::AtLeast(time_bound(a))),
        (None, Some(b)) => Some(SortCondition::Below(time_bound(b))),
        (Some(a), Some(b)) => Some(SortCondition::Between(time_bound(a), time_bound(b))),
    }
}

pub(super) fn empty_window(since: Option<Timestamp>, until: Option<Timestamp>) -> bool {
    matches!((since, until), (Some(a), Some(b)) if a.millis().max(0) >= b.millis().max(0))
}

/// The most index entries one page reads before it answers with what it has kept
/// (ten BatchGetItems of 100): bounds a request's time and read units whatever the
/// list leaves out.
pub const MAX_EXAMINED: usize = 1000;

/// The cursor entry naming a filtered list's status (no key attribute has this name).
pub(super) const CURSOR_STATUS: &str = "status";

pub(super) fn encode_cursor(item: &Item, spec: &QuerySpec) -> PortResult<String> {
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

pub(super) fn decode_cursor(cursor: &str, spec: &QuerySpec) -> PortResult<Item> {
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
pub(super) fn entry_key_valid(m: &BTreeMap<String, String>, spec: &QuerySpec) -> bool {
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
        spec.index.is_none()
            && (sk.strip_prefix("EP#").is_some_and(|id| EndpointId::parse(id).is_ok())
                // Applications, event types, schedules, occurrences and portal
                // activity, listed from the same partition.
                || ["APP#", "ETYPE#", "SCH#", "OCC#", "PACT#"]
                    .iter()
                    .any(|p| sk.strip_prefix(p).is_some_and(|rest| !rest.is_empty())))
    };
    if !own_id {
        return false;
    }
    if spec.index.is_none() {
        return true;
    }
    // Index sort keys are `<15-digit ms>#<id>`: the delivery's own id on the log
    // indexes, the event's own on the audit index (only event items are in it).
    let Some((ms, id)) = m.get(spec.sk_attr).and_then(|v| v.split_once('#')) else {
        return false;
    };
    let time_ok = ms.len() == 15 && ms.bytes().all(|b| b.is_ascii_digit());
    let named = if spec.sk_attr == GSI3SK {
        pk.strip_prefix("EVT#") == Some(id)
    } else {
        pk.strip_prefix("DLV#") == Some(id)
    };
    time_ok && named
}

impl DynamoStore {
    /// BatchGetItem over any number of distinct keys, retrying unprocessed ones.
    pub(super) async fn batch_get(&self, keys: Vec<Item>, consistent: bool) -> PortResult<Vec<Item>> {
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

    /// One page of the tenant's items whose sort key starts with `prefix`, in key
    /// order, each decoded from its `data` as `what`.
    pub(super) async fn list_data<T: DeserializeOwned + Send + 'static>(
        &self,
        tenant: &TenantId,
        prefix: &'static str,
        what: &'static str,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<T>> {
        let spec = QuerySpec {
            index: None,
            pk: (PK, tenant_pk(tenant)),
            sk_attr: SK,
            sk_cond: Some(SortCondition::Prefix(prefix)),
            forward: true,
            ttl_filter: false,
            consistent: true,
            status_filter: None,
        };
        self.page(spec, cursor, limit, move |items| async move {
            items
                .into_iter()
                .map(|i| {
                    let v: T = from_json(&i, what)?;
                    Ok((i, v))
                })
                .collect()
        })
        .await
    }

    /// Runs a query until `limit + 1` items survive `resolve` (or the partition
    /// ends), so the page knows exactly whether more remain. A list that keeps few of
    /// the entries it reads (succeeded deliveries of an endpoint that has been
    /// failing for days) stops after `max_examined` entries with what it has: a
    /// short page, even an empty one, whose cursor goes on after the last entry read.
    pub(super) async fn page<T, F, Fut>(
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
            let (cond, mut values) = key_condition(spec.pk.0, &spec.pk.1, spec.sk_attr, spec.sk_cond.as_ref());
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
}

impl DynamoStore {
    /// One page of a list kept under several partition values of an index that share
    /// one sort-key space (a status list's shards, `status_pks`),
    /// newest first. Each value is queried once, for the `limit + 1` newest entries
    /// inside `base`'s window and below the cursor; the entries are merged by sort
    /// key. Entries at or above the newest of the oldest keys read from a value that
    /// has more are all known, so only those are resolved; a page whose entries
    /// `resolve` drops (stale index entries) may come out short, and its cursor goes
    /// on from there. The cursor is the one [`Self::page`] hands out for `base` (its
    /// partition value the list's own key), so it names the list, not a shard.
    pub(super) async fn merged_page<T, F, Fut>(
        &self,
        base: QuerySpec,
        values: Vec<String>,
        cursor: Option<&str>,
        limit: u32,
        resolve: F,
    ) -> PortResult<Page<T>>
    where
        F: FnOnce(Vec<Item>) -> Fut,
        Fut: std::future::Future<Output = PortResult<Vec<(Item, T)>>>,
    {
        let limit = limit.clamp(1, MAX_PAGE) as usize;
        let want = limit + 1;
        let sk_attr = base.sk_attr;
        let sort_key = |i: &Item| get_s(i, sk_attr).unwrap_or_default().to_owned();
        let below = match cursor {
            Some(c) => Some(
                decode_cursor(c, &base)?
                    .get(sk_attr)
                    .and_then(|v| v.as_s().ok())
                    .cloned()
                    .ok_or(PortError::BadCursor)?,
            ),
            None => None,
        };
        // The window, cut at the cursor (which the window admits: `decode_cursor`).
        // BETWEEN includes its upper end, so the cursor's own entry is dropped below.
        let cond = match (base.sk_cond.clone(), &below) {
            (cond, None) => cond,
            (None, Some(b)) => Some(SortCondition::Below(b.clone())),
            (Some(SortCondition::Below(hi)), Some(b)) => Some(SortCondition::Below(hi.min(b.clone()))),
            (Some(SortCondition::AtLeast(lo)), Some(b)) => Some(SortCondition::Between(lo, b.clone())),
            (Some(SortCondition::Between(lo, hi)), Some(b)) => Some(SortCondition::Between(lo, hi.min(b.clone()))),
            (Some(SortCondition::Prefix(_)), Some(_)) => return Err(PortError::BadCursor),
        };
        let mut candidates: Vec<Item> = Vec::new();
        // The newest of the oldest keys read from values that have more entries.
        let mut known_down_to: Option<String> = None;
        for value in values {
            let (key_cond, values) = key_condition(base.pk.0, &value, sk_attr, cond.as_ref());
            let resp = self
                .client
                .query()
                .table_name(&self.table)
                .set_index_name(base.index.map(str::to_owned))
                .key_condition_expression(key_cond)
                .scan_index_forward(false)
                .consistent_read(base.consistent)
                .limit(i32::try_from(want).unwrap_or(i32::MAX))
                .set_expression_attribute_values(Some(values))
                .send()
                .await
                .map_err(from_sdk)?;
            let items = resp.items.unwrap_or_default();
            if resp.last_evaluated_key.is_some()
                && let Some(oldest) = items.last().map(sort_key)
                && known_down_to.as_ref().is_none_or(|k| oldest > *k)
            {
                known_down_to = Some(oldest);
            }
            candidates.extend(
                items
                    .into_iter()
                    .filter(|i| below.as_ref().is_none_or(|b| sort_key(i) < *b)),
            );
        }
        candidates.sort_by_key(|i| std::cmp::Reverse(sort_key(i)));
        if let Some(k) = &known_down_to {
            candidates.retain(|i| sort_key(i) >= *k);
        }
        // Where a short page goes on from: the oldest entry looked at, named under
        // the list's own key.
        let last_seen = candidates.last().cloned().map(|mut i| {
            i.insert(base.pk.0.to_owned(), s(base.pk.1.clone()));
            i
        });
        let mut kept = resolve(candidates).await?;
        let more = kept.len() > limit;
        kept.truncate(limit);
        let next_cursor = match (more, kept.last(), known_down_to.and(last_seen)) {
            (true, Some((item, _)), _) => {
                let mut item = item.clone();
                item.insert(base.pk.0.to_owned(), s(base.pk.1.clone()));
                Some(encode_cursor(&item, &base)?)
            }
            (false, _, Some(seen)) => Some(encode_cursor(&seen, &base)?),
            _ => None,
        };
        Ok(Page {
            items: kept.into_iter().map(|(_, t)| t).collect(),
            next_cursor,
        })
    }
}

/// The query over a delivery's attempt items, oldest first when `forward`, and the
/// delivery item itself, which sorts after them and holds the latest attempt.
pub(super) fn attempts_spec(delivery: &DeliveryId, forward: bool) -> QuerySpec {
    QuerySpec {
        index: None,
        pk: (PK, delivery_pk(delivery)),
        sk_attr: SK,
        sk_cond: Some(SortCondition::Between("ATT#".to_owned(), DELIVERY_SK.to_owned())),
        forward,
        // The delivery item's expiry is not its latest attempt's: callers judge.
        ttl_filter: false,
        consistent: true,
        status_filter: None,
    }
}

/// Whether `sk` is an attempt item's sort key (`ATT#<10-digit number>#<attempt id>`).
pub(super) fn attempt_sk_valid(sk: &str) -> bool {
    sk.strip_prefix("ATT#")
        .and_then(|rest| rest.split_once('#'))
        .is_some_and(|(number, id)| {
            number.len() == 10 && number.bytes().all(|b| b.is_ascii_digit()) && AttemptId::parse(id).is_ok()
        })
}
