//! `Limiter` on DynamoDB: one item per limited endpoint holding its token bucket,
//! its leased in-flight slots and a version, changed only by a conditional
//! `UpdateItem` on the version it was decided from. The decision is
//! `courier_core::limiter`'s, the same the memory fake makes.
//!
//! The adapter remembers the last state it saw per endpoint, so an acquire is one
//! `UpdateItem` when nobody else changed the item meanwhile. When somebody did, the
//! failed condition returns the item as stored (ReturnValuesOnConditionCheckFailure)
//! and the decision is made again from it, with no extra read. A hold decided from
//! a remembered state is confirmed by one consistent `GetItem` first, since the
//! remembered state may be out of date. A release is one `UpdateItem`, whose answer
//! (the new state) is remembered. Both what it remembers and its per-endpoint
//! locks are bounded ([`MAX_REMEMBERED_ENDPOINTS`], least recently used out).

use crate::error::{corrupt, from_sdk};
use async_trait::async_trait;
use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::operation::update_item::UpdateItemError;
use aws_sdk_dynamodb::types::{AttributeValue, ReturnValue, ReturnValuesOnConditionCheckFailure};
use courier_app::ports::limiter::{Admission, Limiter};
use courier_app::ports::{PortError, PortResult};
use courier_core::Timestamp;
use courier_core::ids::{EndpointId, TenantId};
use courier_core::limiter::{Admit, LimitState, Limits, admit};
use courier_core::rate_limit::Bucket;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

type Item = HashMap<String, AttributeValue>;

/// Attribute names of the limiter item (docs/data-model.md).
const PK: &str = "PK";
const SK: &str = "SK";
const SK_LIMIT: &str = "LIMIT";
const TOKENS: &str = "tokens";
const REFILLED: &str = "refilledAt";
const SLOTS: &str = "slots";
const VER: &str = "ver";
const TTL: &str = "expiresAt";

/// An item idle this long is deleted by TTL (a bucket idle a day is full again for
/// any rate of at least 0.1/s up to a burst of 8640, and every lease has ended).
const IDLE_TTL_SECONDS: i64 = 86_400;

/// Tries per call before giving up as `Unavailable` (each lost try means another
/// sender changed the item; the next try decides from what it wrote).
const MAX_TRIES: usize = 8;

/// The item's key: `LIMIT#<tenant>#<endpoint>`, one partition per endpoint.
pub fn limit_pk(tenant: &TenantId, endpoint: &EndpointId) -> String {
    format!("LIMIT#{tenant}#{endpoint}")
}

/// A stored state and the version it was read at (None: no item yet).
#[derive(Debug, Clone)]
struct Seen {
    state: LimitState,
    version: Option<u64>,
    /// Read from the table by this call, not remembered from an earlier one.
    fresh: bool,
}

/// Most endpoints one process remembers a state and keeps a lock for: a sender
/// working for many endpoints would otherwise grow both maps for ever.
pub const MAX_REMEMBERED_ENDPOINTS: usize = 10_000;

/// A map of at most `cap` keys (while entries can be dropped), the least recently
/// used dropped first. Dropping goes down to seven eighths of `cap` at once, so
/// its sort is paid once per `cap / 8` new keys, not on every one.
pub struct Lru<V> {
    map: HashMap<String, (V, u64)>,
    tick: u64,
    cap: usize,
}

impl<V> Lru<V> {
    pub fn new(cap: usize) -> Self {
        Lru {
            map: HashMap::new(),
            tick: 0,
            cap: cap.max(1),
        }
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// The value under `key`, now the most recently used.
    pub fn get(&mut self, key: &str) -> Option<&V> {
        self.tick += 1;
        let tick = self.tick;
        self.map.get_mut(key).map(|(v, used)| {
            *used = tick;
            &*v
        })
    }

    pub fn remove(&mut self, key: &str) -> Option<V> {
        self.map.remove(key).map(|(v, _)| v)
    }

    /// Stores `value` under `key`, then drops the least recently used entries
    /// that `droppable` allows while there are more than `cap`.
    pub fn insert(&mut self, key: String, value: V, droppable: impl Fn(&V) -> bool) {
        self.tick += 1;
        self.map.insert(key, (value, self.tick));
        if self.map.len() > self.cap {
            let keep = self.cap - self.cap / 8;
            let mut ages: Vec<(u64, String)> = self
                .map
                .iter()
                .filter(|(_, (v, _))| droppable(v))
                .map(|(k, (_, used))| (*used, k.clone()))
                .collect();
            ages.sort_unstable();
            let excess = self.map.len().saturating_sub(keep);
            for (_, k) in ages.into_iter().take(excess) {
                self.map.remove(&k);
            }
        }
    }
}

/// The last state seen per item key, with its version.
type Remembered = Arc<Mutex<Lru<(LimitState, Option<u64>)>>>;
/// One lock per item key, taken by this process's calls on that item.
type KeyLocks = Arc<Mutex<Lru<Arc<tokio::sync::Mutex<()>>>>>;

#[derive(Clone)]
pub struct DynamoLimiter {
    client: Client,
    table: String,
    seen: Remembered,
    /// The records of a batch (and, locally, the stack's pollers) share this
    /// adapter: taking turns per endpoint here keeps them from losing conditions to
    /// each other, so their writes race only other instances'.
    locks: KeyLocks,
}

impl DynamoLimiter {
    pub fn new(client: Client, table: impl Into<String>) -> Self {
        DynamoLimiter {
            client,
            table: table.into(),
            seen: Arc::new(Mutex::new(Lru::new(MAX_REMEMBERED_ENDPOINTS))),
            locks: Arc::new(Mutex::new(Lru::new(MAX_REMEMBERED_ENDPOINTS))),
        }
    }

    fn lock_for(&self, pk: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.locks.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(lock) = locks.get(pk) {
            return lock.clone();
        }
        let lock = Arc::new(tokio::sync::Mutex::new(()));
        // A lock some call holds (or waits on) stays: dropping it would let the
        // next call on that endpoint take another.
        locks.insert(pk.to_owned(), lock.clone(), |l| Arc::strong_count(l) == 1);
        lock
    }

    fn remembered(&self, pk: &str) -> Option<Seen> {
        let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        seen.get(pk).map(|(state, version)| Seen {
            state: state.clone(),
            version: *version,
            fresh: false,
        })
    }

    fn remember(&self, pk: &str, state: LimitState, version: Option<u64>) {
        let mut seen = self.seen.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        // A state dropped costs only a read the next time.
        seen.insert(pk.to_owned(), (state, version), |_| true);
    }

    fn key(pk: &str) -> Item {
        HashMap::from([
            (PK.to_owned(), AttributeValue::S(pk.to_owned())),
            (SK.to_owned(), AttributeValue::S(SK_LIMIT.to_owned())),
        ])
    }

    async fn read(&self, pk: &str) -> PortResult<Seen> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(Self::key(pk)))
            .consistent_read(true)
            .send()
            .await
            .map_err(from_sdk)?;
        let (state, version) = match out.item {
            Some(item) => decode(&item)?,
            None => (LimitState::default(), None),
        };
        self.remember(pk, state.clone(), version);
        Ok(Seen {
            state,
            version,
            fresh: true,
        })
    }

    /// Writes `next` if the item is still at `from`'s version: Ok(None) when written,
    /// Ok(Some(stored)) when someone else changed it first.
    async fn write(&self, pk: &str, from: &Seen, next: &LimitState, now: Timestamp) -> PortResult<Option<Seen>> {
        let version = from.version.unwrap_or(0) + 1;
        let mut values: Item = HashMap::from([
            (":v".to_owned(), AttributeValue::N(version.to_string())),
            (":slots".to_owned(), encode_slots(next)),
            (
                ":ttl".to_owned(),
                AttributeValue::N((now.millis().div_euclid(1000) + IDLE_TTL_SECONDS).to_string()),
            ),
        ]);
        let mut set = format!("{VER} = :v, {SLOTS} = :slots, {TTL} = :ttl");
        let mut remove = String::new();
        match next.bucket {
            Some(b) => {
                values.insert(":t".to_owned(), AttributeValue::N(b.milli_tokens.to_string()));
                values.insert(":r".to_owned(), AttributeValue::N(b.updated_at.millis().to_string()));
                set.push_str(&format!(", {TOKENS} = :t, {REFILLED} = :r"));
            }
            None => remove = format!(" REMOVE {TOKENS}, {REFILLED}"),
        }
        let condition = match from.version {
            Some(v) => {
                values.insert(":expected".to_owned(), AttributeValue::N(v.to_string()));
                format!("{VER} = :expected")
            }
            None => format!("attribute_not_exists({PK})"),
        };
        let r = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(Self::key(pk)))
            .update_expression(format!("SET {set}{remove}"))
            .condition_expression(condition)
            .set_expression_attribute_values(Some(values))
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .await;
        match r {
            Ok(_) => {
                self.remember(pk, next.clone(), Some(version));
                Ok(None)
            }
            Err(e) => match e.as_service_error() {
                Some(UpdateItemError::ConditionalCheckFailedException(c)) => {
                    let (state, version) = match &c.item {
                        Some(item) => decode(item)?,
                        None => (LimitState::default(), None),
                    };
                    self.remember(pk, state.clone(), version);
                    Ok(Some(Seen {
                        state,
                        version,
                        fresh: true,
                    }))
                }
                _ => Err(from_sdk(e)),
            },
        }
    }
}

#[async_trait]
impl Limiter for DynamoLimiter {
    async fn acquire(
        &self,
        tenant: &TenantId,
        endpoint: &EndpointId,
        limits: &Limits,
        slot: &str,
        lease_until: Timestamp,
        now: Timestamp,
    ) -> PortResult<Admission> {
        let pk = limit_pk(tenant, endpoint);
        let lock = self.lock_for(&pk);
        let _turn = lock.lock().await;
        // Nothing remembered: assume no item yet (a first write creates it; if one
        // exists, the failed condition hands it back).
        let mut seen = self.remembered(&pk).unwrap_or(Seen {
            state: LimitState::default(),
            version: None,
            fresh: false,
        });
        for _ in 0..MAX_TRIES {
            match admit(limits, &seen.state, slot, lease_until, now) {
                Admit::Held { until, cause } if seen.fresh => return Ok(Admission::Held { until, cause }),
                Admit::Held { .. } => seen = self.read(&pk).await?,
                Admit::Granted { state } => match self.write(&pk, &seen, &state, now).await? {
                    None => return Ok(Admission::Granted),
                    Some(stored) => seen = stored,
                },
            }
        }
        Err(PortError::Unavailable(
            format!("the limiter item of endpoint {endpoint} kept changing").into(),
        ))
    }

    async fn release(&self, tenant: &TenantId, endpoint: &EndpointId, slot: &str) -> PortResult<()> {
        let pk = limit_pk(tenant, endpoint);
        let lock = self.lock_for(&pk);
        let _turn = lock.lock().await;
        let r = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(Self::key(&pk)))
            .update_expression(format!("REMOVE {SLOTS}.#s SET {VER} = {VER} + :one"))
            .condition_expression(format!("attribute_exists({SLOTS}.#s)"))
            .expression_attribute_names("#s", slot)
            .expression_attribute_values(":one", AttributeValue::N("1".to_owned()))
            .return_values(ReturnValue::AllNew)
            .send()
            .await;
        match r {
            Ok(out) => {
                if let Some(item) = out.attributes {
                    let (state, version) = decode(&item)?;
                    self.remember(&pk, state, version);
                }
                Ok(())
            }
            // Not held (freed by its lease, or never taken): nothing to free.
            Err(e)
                if matches!(
                    e.as_service_error(),
                    Some(UpdateItemError::ConditionalCheckFailedException(_))
                ) =>
            {
                // What was remembered may still list it: forget, the next call reads.
                self.seen
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .remove(&pk);
                Ok(())
            }
            Err(e) => Err(from_sdk(e)),
        }
    }
}

fn encode_slots(state: &LimitState) -> AttributeValue {
    AttributeValue::M(
        state
            .slots
            .iter()
            .map(|(id, lease)| (id.clone(), AttributeValue::N(lease.millis().to_string())))
            .collect(),
    )
}

fn number(item: &Item, name: &str) -> PortResult<Option<i64>> {
    match item.get(name) {
        None => Ok(None),
        Some(v) => v
            .as_n()
            .ok()
            .and_then(|n| n.parse().ok())
            .map(Some)
            .ok_or_else(|| corrupt(format!("limiter item: `{name}` is not a number"))),
    }
}

fn decode(item: &Item) -> PortResult<(LimitState, Option<u64>)> {
    let version = number(item, VER)?.map(|v| v.max(0) as u64);
    let bucket = match (number(item, TOKENS)?, number(item, REFILLED)?) {
        (Some(t), Some(r)) => Some(Bucket {
            milli_tokens: t.max(0) as u64,
            updated_at: Timestamp::from_millis(r),
        }),
        _ => None,
    };
    let slots = match item.get(SLOTS) {
        None => Default::default(),
        Some(AttributeValue::M(m)) => m
            .iter()
            .map(|(id, v)| {
                v.as_n()
                    .ok()
                    .and_then(|n| n.parse::<i64>().ok())
                    .map(|ms| (id.clone(), Timestamp::from_millis(ms)))
                    .ok_or_else(|| corrupt(format!("limiter item: slot `{id}` has no lease")))
            })
            .collect::<PortResult<_>>()?,
        Some(_) => return Err(corrupt("limiter item: `slots` is not a map")),
    };
    Ok((LimitState { bucket, slots }, version))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_keeps_at_most_its_cap_dropping_the_least_recently_used() {
        let mut lru: Lru<u32> = Lru::new(MAX_REMEMBERED_ENDPOINTS);
        for i in 0..MAX_REMEMBERED_ENDPOINTS as u32 {
            lru.insert(format!("LIMIT#t#ep{i}"), i, |_| true);
        }
        assert_eq!(lru.len(), 10_000);
        // Endpoint 0 used again: the least recently used is now endpoint 1.
        assert_eq!(lru.get("LIMIT#t#ep0"), Some(&0));
        lru.insert("LIMIT#t#new".to_owned(), 10_000, |_| true);
        // Down to seven eighths at once: 8,750 kept, the most recently used.
        assert_eq!(lru.len(), 8_750);
        assert_eq!(lru.get("LIMIT#t#ep0"), Some(&0));
        assert_eq!(lru.get("LIMIT#t#new"), Some(&10_000));
        assert_eq!(lru.get("LIMIT#t#ep1"), None);
        assert_eq!(lru.get("LIMIT#t#ep1251"), None);
        assert_eq!(lru.get("LIMIT#t#ep1252"), Some(&1_252));
    }

    #[test]
    fn an_entry_that_may_not_be_dropped_stays() {
        let mut lru: Lru<Arc<()>> = Lru::new(2);
        let held = Arc::new(());
        lru.insert("a".to_owned(), held.clone(), |l| Arc::strong_count(l) == 1);
        lru.insert("b".to_owned(), Arc::new(()), |l| Arc::strong_count(l) == 1);
        lru.insert("c".to_owned(), Arc::new(()), |l| Arc::strong_count(l) == 1);
        assert!(lru.get("a").is_some(), "a lock in use is never dropped");
        assert_eq!(lru.len(), 2);
        drop(held);
    }
}
