//! In-memory implementations of every port: the fakes the use-case tests run on
//! (`MemoryStore`, `MemoryQueue`, `MemoryTimer`, `ManualClock`, `SeededRandom`,
//! `FixedSecrets`) and the few production ones that need no cloud service
//! (`SystemClock`, `OsSecrets`, `OsRandom`).
//!
//! The fakes honour every condition the DynamoDB adapter enforces (create conflicts,
//! version checks, the claim rule with lease takeover, outcomes conditional on the
//! claim, TTL-expired items read as absent) and pass the same contract suite
//! ([`crate::contract`]). This module must not depend on any AWS crate.

use crate::message::QueueMessage;
use crate::model::{Attempt, ClaimRecord, Delivery, Endpoint, EventRecord, IdempotencyRecord, Page, Tenant};
use crate::ports::{
    Claim, Clock, DeliveryStore, EndpointStore, IdempotencyStore, PortError, PortResult, Queue, Random, SecretSource,
    TenantStore, Timer,
};
use async_trait::async_trait;
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};
use courier_core::rng::{RandomSource, SharedSplitMix64, SplitMix64};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

// ---------------------------------------------------------------------------------
// Rules shared by every store adapter
// ---------------------------------------------------------------------------------

/// Page sizes are clamped into this range by every list operation.
pub const MAX_PAGE: u32 = 100;

/// Whether an item with this TTL (epoch seconds) is still live at `now`. An item is
/// expired once `expires_at <= now`; DynamoDB deletes expired items lazily (up to
/// days later), so every read treats them as already gone.
pub fn is_live(expires_at: Option<i64>, now: Timestamp) -> bool {
    expires_at.is_none_or(|secs| secs.saturating_mul(1000) > now.millis())
}

/// The claim rule: attempt `number` of `delivery` may be claimed at `now` iff the
/// delivery is not settled, its `next_attempt` is `number`, and it holds no claim or
/// only one whose lease has ended (`lease_until <= now`).
pub fn claim_allowed(delivery: &Delivery, number: u32, now: Timestamp) -> bool {
    !delivery.status.is_settled()
        && delivery.next_attempt == number
        && delivery.claim.as_ref().is_none_or(|c| c.lease_until <= now)
}

/// Whether `delivery` already holds exactly `claim` (number, attempt id and token):
/// a repeated claim call (an SDK retry whose first try did commit) is answered
/// `Claimed` again rather than refused as a duplicate of itself. The token is fresh
/// for every claim a sender makes, so a duplicate copy of a message that carries
/// the same pre-assigned attempt id is still refused while the first copy's lease
/// lives.
pub fn claim_held_by(delivery: &Delivery, claim: &ClaimRecord) -> bool {
    delivery.claim.as_ref().is_some_and(|c| same_claim(c, claim))
}

/// Whether two claims are the same claim: attempt id and token (the token is
/// fresh per claim, so the number, start and lease follow from them).
pub fn same_claim(a: &ClaimRecord, b: &ClaimRecord) -> bool {
    a.attempt_id == b.attempt_id && a.token == b.token
}

/// The delivery as stored after a successful claim: the new claim set, version bumped.
/// (The previous claim, if any, is the lost one reported in `Claim::Claimed`.)
pub fn apply_claim(delivery: &Delivery, claim: &ClaimRecord) -> Delivery {
    let mut d = delivery.clone();
    set_claim(&mut d, claim);
    d
}

/// [`apply_claim`] in place; returns the previous claim.
pub fn set_claim(delivery: &mut Delivery, claim: &ClaimRecord) -> Option<ClaimRecord> {
    delivery.version += 1;
    delivery.claim.replace(claim.clone())
}

/// The delivery as an outcome's record leaves it: the recorder's new state, except
/// for what recording does not own, which stays as stored: the dead-letter mark
/// (set concurrently by the dead-letter handler) and the version, which moves one
/// on from the stored one whatever else wrote meanwhile.
pub fn recorded_onto(stored: &Delivery, new: &Delivery) -> Delivery {
    Delivery {
        dead_lettered_at: stored.dead_lettered_at,
        version: stored.version + 1,
        ..new.clone()
    }
}

/// The record's own millisecond clamp for sort keys (times before 1970 sort first).
fn sort_ms(t: Timestamp) -> i64 {
    t.millis().max(0)
}

/// Whether `t` lies in the half-open window `[since, until)`.
pub fn in_window(t: Timestamp, since: Option<Timestamp>, until: Option<Timestamp>) -> bool {
    since.is_none_or(|s| t >= s) && until.is_none_or(|u| t < u)
}

fn clamp_limit(limit: u32) -> usize {
    limit.clamp(1, MAX_PAGE) as usize
}

fn hex(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<String> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    let bytes: Option<Vec<u8>> = (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect();
    String::from_utf8(bytes?).ok()
}

/// The list a page belongs to: a name for its partition (tenant, endpoint, status
/// filter), which its cursors carry, and the time window asked for, which a
/// cursor's key must lie in. The DynamoDB adapter refuses the same cursors: one
/// whose partition differs, or whose key lies outside the query's key condition
/// (which DynamoDB itself rejects).
struct ListScope {
    name: String,
    since: Option<Timestamp>,
    until: Option<Timestamp>,
}

impl ListScope {
    fn whole(name: String) -> Self {
        ListScope {
            name,
            since: None,
            until: None,
        }
    }

    fn cursor(&self, key: &str) -> String {
        hex(&format!("{}\n{key}", self.name))
    }

    /// The key a cursor continues after, if the cursor is one of this list's.
    fn key_after(&self, cursor: &str) -> PortResult<String> {
        let text = unhex(cursor).ok_or(PortError::BadCursor)?;
        let (name, key) = text.split_once('\n').ok_or(PortError::BadCursor)?;
        if name != self.name {
            return Err(PortError::BadCursor);
        }
        if self.since.is_some() || self.until.is_some() {
            // Time keys start with the instant's milliseconds (`time_key`).
            let ms = key
                .split_once('#')
                .and_then(|(ms, _)| ms.parse::<i64>().ok())
                .ok_or(PortError::BadCursor)?;
            if !in_window(Timestamp(ms), self.since.map(clamp_ms), self.until.map(clamp_ms)) {
                return Err(PortError::BadCursor);
            }
        }
        Ok(key.to_owned())
    }
}

/// An instant as time keys hold it (`sort_ms`), so windows compare like keys do.
fn clamp_ms(t: Timestamp) -> Timestamp {
    Timestamp(sort_ms(t))
}

/// Cuts one page out of `items` (already in list order, each with its sort key):
/// the items after the cursor's key, `limit` of them, and a cursor iff more remain.
fn paginate<T: Clone>(
    items: Vec<(String, T)>,
    scope: &ListScope,
    cursor: Option<&str>,
    limit: u32,
    descending: bool,
) -> PortResult<Page<T>> {
    let after = cursor.map(|c| scope.key_after(c)).transpose()?;
    let limit = clamp_limit(limit);
    let mut rest = items.into_iter().filter(|(k, _)| match &after {
        None => true,
        Some(a) if descending => k < a,
        Some(a) => k > a,
    });
    let page: Vec<(String, T)> = rest.by_ref().take(limit).collect();
    let more = rest.next().is_some();
    let next_cursor = if more {
        page.last().map(|(k, _)| scope.cursor(k))
    } else {
        None
    };
    Ok(Page {
        items: page.into_iter().map(|(_, t)| t).collect(),
        next_cursor,
    })
}

fn time_key(t: Timestamp, id: &str) -> String {
    format!("{:015}#{id}", sort_ms(t))
}

// ---------------------------------------------------------------------------------
// Clocks, randomness, secrets
// ---------------------------------------------------------------------------------

/// A clock tests set and advance by hand.
#[derive(Debug, Default)]
pub struct ManualClock {
    ms: AtomicI64,
}

impl ManualClock {
    pub fn new(now: Timestamp) -> Self {
        ManualClock {
            ms: AtomicI64::new(now.millis()),
        }
    }
    pub fn set(&self, now: Timestamp) {
        self.ms.store(now.millis(), Ordering::SeqCst);
    }
    pub fn advance_millis(&self, ms: i64) {
        self.ms.fetch_add(ms, Ordering::SeqCst);
    }
    pub fn advance_secs(&self, secs: i64) {
        self.advance_millis(secs.saturating_mul(1000));
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        Timestamp(self.ms.load(Ordering::SeqCst))
    }
}

/// The wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        let ms = match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
            Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
        };
        Timestamp(ms)
    }
}

/// A reproducible random source for tests.
#[derive(Debug)]
pub struct SeededRandom {
    rng: SharedSplitMix64,
}

impl SeededRandom {
    pub fn new(seed: u64) -> Self {
        SeededRandom {
            rng: SharedSplitMix64::new(seed),
        }
    }
}

impl Random for SeededRandom {
    fn next_u64(&self) -> u64 {
        self.rng.next_u64()
    }
}

/// Production randomness for ids and jitter: every draw straight from the
/// operating system's CSPRNG. Ids are public (every API answer and webhook carries
/// them), and a seeded generator's output gives its state away: from one id the
/// next ids, another tenant's included, could be computed. A draw is one
/// `getrandom` call (a vDSO call or a short syscall), far below an attempt's cost.
#[derive(Debug, Clone, Copy, Default)]
pub struct OsRandom;

impl OsRandom {
    pub fn new() -> Self {
        OsRandom
    }
}

impl Random for OsRandom {
    fn next_u64(&self) -> u64 {
        let mut bytes = [0u8; 8];
        OsSecrets.fill(&mut bytes);
        u64::from_le_bytes(bytes)
    }
}

/// The name the binaries wire: the OS CSPRNG, as [`OsRandom`].
pub type OsSeededRandom = OsRandom;

/// Deterministic "secret" bytes for tests: a SplitMix64 stream from `seed`, so
/// successive secrets differ but every run sees the same ones.
#[derive(Debug)]
pub struct FixedSecrets {
    rng: Mutex<SplitMix64>,
}

impl FixedSecrets {
    pub fn new(seed: u64) -> Self {
        FixedSecrets {
            rng: Mutex::new(SplitMix64::new(seed)),
        }
    }
}

impl SecretSource for FixedSecrets {
    fn fill(&self, buf: &mut [u8]) {
        let mut rng = lock(&self.rng);
        for chunk in buf.chunks_mut(8) {
            let bytes = rng.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}

/// Secrets from the operating system's CSPRNG.
#[derive(Debug, Clone, Copy, Default)]
pub struct OsSecrets;

impl SecretSource for OsSecrets {
    fn fill(&self, buf: &mut [u8]) {
        // Without OS entropy no secret can be made safely; continuing would mint
        // guessable signing secrets and API keys.
        if let Err(e) = getrandom::fill(buf) {
            panic!("the operating system's random source failed: {e}");
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic in another test thread must not cascade into every later call.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

// ---------------------------------------------------------------------------------
// Store
// ---------------------------------------------------------------------------------

/// The store's id keys are hashed with FxHash instead of SipHash, which cost more
/// than the rest of a lookup. The store holds test, local and bench data, where hash
/// flooding is no concern.
type IdHash = rustc_hash::FxBuildHasher;

/// Deliveries and their attempts are split over this many shards, each behind its
/// own lock: with one lock over everything, concurrent senders spent more time
/// waiting for each other (futex sleeps and wake-ups) than in their lookups.
const SHARDS: usize = 16;

#[derive(Default)]
struct StoreState {
    tenant_keys: HashMap<String, Tenant>,
    endpoints: BTreeMap<(TenantId, EndpointId), Endpoint>,
    events: HashMap<EventId, EventRecord>,
    /// Endpoints an event was created with a delivery for (the audit log's index).
    event_endpoints: HashMap<EventId, Vec<EndpointId>>,
    idempotency: HashMap<String, IdempotencyRecord>,
}

/// One shard of the deliveries, each kept with its attempts, so recording an
/// outcome takes one lock and one lookup. Entries are boxed: the table then holds
/// only keys and pointers (40 bytes a slot instead of about 500), so probing it
/// touches a few cache lines and pages rather than one of each per slot looked at.
#[derive(Default)]
struct DeliveryShard {
    deliveries: HashMap<DeliveryId, Box<StoredDelivery>, IdHash>,
}

/// A delivery and its attempts in (number, id) order. Kept together, recording an
/// attempt updates an entry it has already found instead of inserting into a second
/// map keyed by the same id (which grew, and rehashed, with every first attempt).
struct StoredDelivery {
    delivery: Delivery,
    attempts: Vec<Attempt>,
}

impl DeliveryShard {
    /// Stores a new delivery. An expired one under the same id keeps its attempts, as
    /// DynamoDB keeps attempt items until their own TTL.
    fn put_new(&mut self, d: &Delivery) {
        match self.deliveries.get_mut(&d.id) {
            Some(stored) => overwrite(&mut stored.delivery, d),
            None => {
                let stored = Box::new(StoredDelivery {
                    delivery: d.clone(),
                    attempts: Vec::new(),
                });
                self.deliveries.insert(d.id.clone(), stored);
            }
        }
    }

    fn live_mut(&mut self, id: &DeliveryId, now: &CallNow<'_>) -> Option<&mut StoredDelivery> {
        self.deliveries
            .get_mut(id)
            .map(|s| &mut **s)
            .filter(|s| now.live(s.delivery.expires_at))
    }
}

/// `*to = from.clone()`, reusing the strings `to` already holds (the body above all:
/// it never changes once written). The fields are destructured, so a field added to
/// `Delivery` and not listed here does not compile.
fn overwrite(to: &mut Delivery, from: &Delivery) {
    macro_rules! clone_fields_from {
        ($($field:ident),* $(,)?) => {{
            let Delivery { $($field),* } = from;
            $(to.$field.clone_from($field);)*
        }};
    }
    clone_fields_from!(
        id,
        tenant_id,
        event_id,
        endpoint_id,
        webhook_id,
        status,
        dead_reason,
        trigger,
        attempt_count,
        next_attempt,
        receiver_failures,
        next_attempt_at,
        last_planned,
        claim,
        created_at,
        planned_at,
        settled_at,
        dead_lettered_at,
        awaiting,
        body,
        expires_at,
        version,
    );
}

/// Which shard holds a delivery. Bits 32..36 of the key's hash: the shard's own map
/// indexes its buckets by the low bits and tags them with the top seven, and a shard
/// chosen by either would leave its keys all alike there.
fn shard_of(id: &DeliveryId) -> usize {
    use std::hash::BuildHasher;
    ((IdHash::default().hash_one(id) >> 32) as usize) % SHARDS
}

/// Every store port in memory. Reads consult the injected clock to hide TTL-expired
/// items, exactly like the DynamoDB adapter. Lock order, where a call takes more
/// than one: `state`, then shards in ascending index.
pub struct MemoryStore {
    clock: Arc<dyn Clock>,
    state: Mutex<StoreState>,
    shards: [Mutex<DeliveryShard>; SHARDS],
    /// Fault injection: the next N calls fail with `Unavailable`.
    failures: AtomicU32,
}

#[derive(Debug, thiserror::Error)]
#[error("injected failure (MemoryStore/MemoryQueue/MemoryTimer fault injection)")]
pub struct InjectedFailure;

impl MemoryStore {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        MemoryStore {
            clock,
            state: Mutex::new(StoreState::default()),
            shards: std::array::from_fn(|_| Mutex::new(DeliveryShard::default())),
            failures: AtomicU32::new(0),
        }
    }

    /// Makes the next `n` store calls fail with `PortError::Unavailable`.
    pub fn fail_next(&self, n: u32) {
        self.failures.store(n, Ordering::SeqCst);
    }

    /// Every stored delivery, expired ones included (for test assertions).
    pub fn all_deliveries(&self) -> Vec<Delivery> {
        let mut v: Vec<Delivery> = self
            .shards
            .iter()
            .flat_map(|s| {
                lock(s)
                    .deliveries
                    .values()
                    .map(|stored| stored.delivery.clone())
                    .collect::<Vec<_>>()
            })
            .collect();
        v.sort_by(|a, b| a.id.cmp(&b.id));
        v
    }

    /// Every stored attempt of every delivery, in (delivery, number, id) order.
    pub fn all_attempts(&self) -> Vec<Attempt> {
        let mut by_delivery: Vec<(DeliveryId, Vec<Attempt>)> = self
            .shards
            .iter()
            .flat_map(|s| {
                lock(s)
                    .deliveries
                    .iter()
                    .filter(|(_, stored)| !stored.attempts.is_empty())
                    .map(|(id, stored)| (id.clone(), stored.attempts.clone()))
                    .collect::<Vec<_>>()
            })
            .collect();
        by_delivery.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        by_delivery.into_iter().flat_map(|(_, v)| v).collect()
    }

    /// Every stored event, expired ones included, oldest id first.
    pub fn all_events(&self) -> Vec<EventRecord> {
        let mut v: Vec<EventRecord> = lock(&self.state).events.values().cloned().collect();
        v.sort_by(|a, b| a.id.cmp(&b.id));
        v
    }

    /// Starts a call: fails it when a failure is injected, else reads the clock.
    fn begin_call(&self) -> PortResult<Timestamp> {
        self.check_injected()?;
        Ok(self.clock.now())
    }

    /// Fails the call when a failure is injected.
    fn check_injected(&self) -> PortResult<()> {
        // Read first: a read-modify-write on every call would move the counter's cache
        // line between the cores of concurrent callers even when nothing is injected.
        let injected = self.failures.load(Ordering::SeqCst) > 0
            && self
                .failures
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
        if injected {
            return Err(PortError::Unavailable(Box::new(InjectedFailure)));
        }
        Ok(())
    }

    /// [`Self::begin_call`], then the lock over everything but deliveries.
    fn begin(&self) -> PortResult<(MutexGuard<'_, StoreState>, Timestamp)> {
        let now = self.begin_call()?;
        Ok((lock(&self.state), now))
    }

    /// Fails the call when a failure is injected, else takes the lock of the shard
    /// holding `id`, with the call's "now" left to read when something asks for it.
    fn begin_shard(&self, id: &DeliveryId) -> PortResult<(MutexGuard<'_, DeliveryShard>, CallNow<'_>)> {
        self.check_injected()?;
        Ok((lock(&self.shards[shard_of(id)]), CallNow::unread(self.clock.as_ref())))
    }
}

fn live_delivery<'a>(shard: &'a DeliveryShard, id: &DeliveryId, now: &CallNow<'_>) -> Option<&'a Delivery> {
    shard
        .deliveries
        .get(id)
        .map(|s| &s.delivery)
        .filter(|d| now.live(d.expires_at))
}

/// A shard call's "now", read from the store's clock at most once, and only when an
/// item with a TTL asks. The deliveries a sender claims and records have none until
/// they settle, so those two calls read no clock.
struct CallNow<'a> {
    clock: &'a dyn Clock,
    read: std::cell::Cell<Option<Timestamp>>,
}

impl<'a> CallNow<'a> {
    fn unread(clock: &'a dyn Clock) -> Self {
        CallNow {
            clock,
            read: std::cell::Cell::new(None),
        }
    }

    /// A "now" the call has read already.
    fn known(clock: &'a dyn Clock, now: Timestamp) -> Self {
        CallNow {
            clock,
            read: std::cell::Cell::new(Some(now)),
        }
    }

    fn get(&self) -> Timestamp {
        match self.read.get() {
            Some(now) => now,
            None => {
                let now = self.clock.now();
                self.read.set(Some(now));
                now
            }
        }
    }

    fn live(&self, expires_at: Option<i64>) -> bool {
        expires_at.is_none() || is_live(expires_at, self.get())
    }
}

#[async_trait]
impl TenantStore for MemoryStore {
    async fn put_tenant_key(&self, key_hash: &str, tenant: &Tenant) -> PortResult<()> {
        let (mut st, _) = self.begin()?;
        st.tenant_keys.insert(key_hash.to_owned(), tenant.clone());
        Ok(())
    }

    async fn tenant_by_key(&self, key_hash: &str) -> PortResult<Option<Tenant>> {
        let (st, _) = self.begin()?;
        Ok(st.tenant_keys.get(key_hash).cloned())
    }
}

#[async_trait]
impl EndpointStore for MemoryStore {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()> {
        let (mut st, _) = self.begin()?;
        let key = (endpoint.tenant_id.clone(), endpoint.id.clone());
        if st.endpoints.contains_key(&key) {
            return Err(PortError::Conflict(format!("endpoint {} already exists", endpoint.id)));
        }
        st.endpoints.insert(key, endpoint.clone());
        Ok(())
    }

    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
        let (st, _) = self.begin()?;
        Ok(st.endpoints.get(&(tenant.clone(), id.clone())).cloned())
    }

    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
        let (mut st, _) = self.begin()?;
        let key = (endpoint.tenant_id.clone(), endpoint.id.clone());
        match st.endpoints.get(&key) {
            Some(stored) if stored.version == expected_version => {
                st.endpoints.insert(key, endpoint.clone());
                Ok(())
            }
            Some(stored) => Err(PortError::Conflict(format!(
                "endpoint {} is at version {}, not {expected_version}",
                endpoint.id, stored.version
            ))),
            None => Err(PortError::Conflict(format!("endpoint {} does not exist", endpoint.id))),
        }
    }

    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        let (st, _) = self.begin()?;
        let items = st
            .endpoints
            .iter()
            .filter(|((t, _), _)| t == tenant)
            .map(|((_, id), e)| (id.as_str().to_owned(), e.clone()))
            .collect();
        paginate(
            items,
            &ListScope::whole(format!("endpoints {tenant}")),
            cursor,
            limit,
            false,
        )
    }
}

#[async_trait]
impl DeliveryStore for MemoryStore {
    async fn create_event(&self, event: &EventRecord, deliveries: &[Delivery]) -> PortResult<()> {
        let (mut st, now) = self.begin()?;
        if st.events.get(&event.id).is_some_and(|e| is_live(e.expires_at, now)) {
            return Err(PortError::Conflict(format!("event {} already exists", event.id)));
        }
        // Every shard the event writes to, locked in ascending order (after `state`)
        // for the whole check-then-write, as one transaction.
        let mut wanted = [false; SHARDS];
        for d in deliveries {
            wanted[shard_of(&d.id)] = true;
        }
        let mut shards: [Option<MutexGuard<'_, DeliveryShard>>; SHARDS] = Default::default();
        for (i, guard) in shards.iter_mut().enumerate() {
            if wanted[i] {
                *guard = Some(lock(&self.shards[i]));
            }
        }
        let known_now = CallNow::known(self.clock.as_ref(), now);
        for (i, d) in deliveries.iter().enumerate() {
            let taken = shards[shard_of(&d.id)]
                .as_deref()
                .is_some_and(|shard| live_delivery(shard, &d.id, &known_now).is_some());
            if taken || deliveries[..i].iter().any(|o| o.id == d.id) {
                return Err(PortError::Conflict(format!("delivery {} already exists", d.id)));
            }
        }
        let mut endpoints: Vec<EndpointId> = Vec::new();
        for d in deliveries {
            if !endpoints.contains(&d.endpoint_id) {
                endpoints.push(d.endpoint_id.clone());
            }
            if let Some(shard) = shards[shard_of(&d.id)].as_deref_mut() {
                shard.put_new(d);
            }
        }
        st.event_endpoints.insert(event.id.clone(), endpoints);
        st.events.insert(event.id.clone(), event.clone());
        Ok(())
    }

    async fn create_delivery(&self, delivery: &Delivery) -> PortResult<()> {
        let (mut st, now) = self.begin_shard(&delivery.id)?;
        if live_delivery(&st, &delivery.id, &now).is_some() {
            return Err(PortError::Conflict(format!("delivery {} already exists", delivery.id)));
        }
        st.put_new(delivery);
        Ok(())
    }

    async fn get_event(&self, tenant: &TenantId, id: &EventId) -> PortResult<Option<EventRecord>> {
        let (st, now) = self.begin()?;
        Ok(st
            .events
            .get(id)
            .filter(|e| &e.tenant_id == tenant && is_live(e.expires_at, now))
            .cloned())
    }

    async fn get_delivery(&self, id: &DeliveryId) -> PortResult<Option<Delivery>> {
        let (st, now) = self.begin_shard(id)?;
        Ok(live_delivery(&st, id, &now).cloned())
    }

    async fn claim_attempt(&self, id: &DeliveryId, claim: &ClaimRecord) -> PortResult<Claim> {
        let (mut st, clock_now) = self.begin_shard(id)?;
        // Claimed in place: the one copy made is the delivery handed back.
        let Some(current) = st.live_mut(id, &clock_now).map(|s| &mut s.delivery) else {
            return Ok(Claim::Refused(None));
        };
        if claim_held_by(current, claim) && !current.status.is_settled() {
            return Ok(Claim::Claimed {
                delivery: current.clone(),
                lost: None,
            });
        }
        if !claim_allowed(current, claim.number, claim.started_at) {
            return Ok(Claim::Refused(Some(current.clone())));
        }
        let lost = set_claim(current, claim);
        Ok(Claim::Claimed {
            delivery: current.clone(),
            lost,
        })
    }

    async fn record_attempt(&self, delivery: &Delivery, attempt: &Attempt, held: &ClaimRecord) -> PortResult<()> {
        // Copied before the lock is taken: concurrent steps wait on it.
        let copy = attempt.clone();
        let (mut st, now) = self.begin_shard(&delivery.id)?;
        // One lookup serves the check and both writes.
        let stored = st.live_mut(&delivery.id, &now);
        let holds = stored.as_ref().is_some_and(|s| claim_held_by(&s.delivery, held));
        let stored = match stored {
            Some(stored) if holds => stored,
            other => {
                let repeated = other.is_some_and(|s| s.delivery == *delivery && s.attempts.contains(attempt));
                if repeated {
                    // Exactly this outcome is recorded already: a repeated call.
                    return Ok(());
                }
                return Err(PortError::Conflict(format!(
                    "delivery {} does not hold the claim of {}",
                    delivery.id, held.attempt_id
                )));
            }
        };
        let new = recorded_onto(&stored.delivery, delivery);
        overwrite(&mut stored.delivery, &new);
        let list = &mut stored.attempts;
        if list.capacity() == 0 {
            // Most deliveries end after one attempt.
            list.reserve_exact(1);
        }
        // Replaces an attempt recorded under the same number and id, as a map keyed
        // by them would.
        match list.binary_search_by(|a| (a.number, &a.id).cmp(&(attempt.number, &attempt.id))) {
            Ok(i) => list[i] = copy,
            Err(i) => list.insert(i, copy),
        }
        Ok(())
    }

    async fn update_delivery(&self, delivery: &Delivery, expected_version: u64) -> PortResult<()> {
        let (mut st, now) = self.begin_shard(&delivery.id)?;
        match st.live_mut(&delivery.id, &now).map(|s| &mut s.delivery) {
            // Exactly this state is stored already: a repeated call (see `claim_held_by`).
            Some(stored) if stored == delivery => Ok(()),
            Some(stored) if stored.version == expected_version => {
                overwrite(stored, delivery);
                Ok(())
            }
            Some(stored) => Err(PortError::Conflict(format!(
                "delivery {} is at version {}, not {expected_version}",
                delivery.id, stored.version
            ))),
            None => Err(PortError::Conflict(format!("delivery {} does not exist", delivery.id))),
        }
    }

    async fn list_attempts(&self, delivery: &DeliveryId) -> PortResult<Vec<Attempt>> {
        let (st, now) = self.begin_shard(delivery)?;
        Ok(st
            .deliveries
            .get(delivery)
            .map(|s| s.attempts.iter().filter(|a| now.live(a.expires_at)).cloned().collect())
            .unwrap_or_default())
    }

    async fn list_attempts_page(
        &self,
        delivery: &DeliveryId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Attempt>> {
        let (st, now) = self.begin_shard(delivery)?;
        let items = st
            .deliveries
            .get(delivery)
            .map(|s| {
                s.attempts
                    .iter()
                    .filter(|a| now.live(a.expires_at))
                    .map(|a| (format!("{:010}#{}", a.number, a.id), a.clone()))
                    .collect()
            })
            .unwrap_or_default();
        paginate(
            items,
            &ListScope::whole(format!("attempts {delivery}")),
            cursor,
            limit,
            false,
        )
    }

    async fn get_attempt(&self, delivery: &DeliveryId, id: &AttemptId) -> PortResult<Option<Attempt>> {
        let (st, now) = self.begin_shard(delivery)?;
        Ok(st
            .deliveries
            .get(delivery)
            .and_then(|s| s.attempts.iter().find(|a| &a.id == id && now.live(a.expires_at)))
            .cloned())
    }

    async fn last_attempt(&self, delivery: &DeliveryId) -> PortResult<Option<Attempt>> {
        let (st, now) = self.begin_shard(delivery)?;
        Ok(st
            .deliveries
            .get(delivery)
            .and_then(|s| s.attempts.iter().rev().find(|a| now.live(a.expires_at)))
            .cloned())
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
        let now = self.begin_call()?;
        // Shard by shard, like a DynamoDB index query, which is not a snapshot either.
        let mut items: Vec<(String, Delivery)> = Vec::new();
        for shard in &self.shards {
            items.extend(
                lock(shard)
                    .deliveries
                    .values()
                    .map(|s| &s.delivery)
                    .filter(|d| {
                        &d.endpoint_id == endpoint
                            && is_live(d.expires_at, now)
                            && status.is_none_or(|s| d.status.as_str() == s)
                            && in_window(d.created_at, since, until)
                    })
                    .map(|d| (time_key(d.created_at, d.id.as_str()), d.clone())),
            );
        }
        items.sort_by(|a, b| b.0.cmp(&a.0));
        let scope = ListScope {
            name: format!("deliveries {endpoint} {}", status.unwrap_or("*")),
            since,
            until,
        };
        paginate(items, &scope, cursor, limit, true)
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
        let (st, now) = self.begin()?;
        let mut items: Vec<(String, EventRecord)> = st
            .events
            .values()
            .filter(|e| {
                &e.tenant_id == tenant
                    && is_live(e.expires_at, now)
                    && in_window(e.created_at, since, until)
                    && endpoint.is_none_or(|ep| st.event_endpoints.get(&e.id).is_some_and(|eps| eps.contains(ep)))
            })
            .map(|e| (time_key(e.created_at, e.id.as_str()), e.clone()))
            .collect();
        items.sort_by(|a, b| b.0.cmp(&a.0));
        let scope = ListScope {
            name: format!("events {tenant} {}", endpoint.map_or("*", |e| e.as_str())),
            since,
            until,
        };
        paginate(items, &scope, cursor, limit, true)
    }
}

#[async_trait]
impl IdempotencyStore for MemoryStore {
    async fn put_idempotency(&self, record: &IdempotencyRecord) -> PortResult<Option<IdempotencyRecord>> {
        let (mut st, now) = self.begin()?;
        if let Some(existing) = st
            .idempotency
            .get(&record.key)
            .filter(|r| is_live(Some(r.expires_at), now))
        {
            return Ok(Some(existing.clone()));
        }
        st.idempotency.insert(record.key.clone(), record.clone());
        Ok(None)
    }
}

// ---------------------------------------------------------------------------------
// Queue
// ---------------------------------------------------------------------------------

/// The longest delay SQS accepts (15 minutes).
pub const MAX_DELAY_SECONDS: u32 = 900;

/// A message sitting in a [`MemoryQueue`].
#[derive(Debug, Clone, PartialEq)]
pub struct QueuedMessage {
    pub message: QueueMessage,
    pub delay_seconds: u32,
    pub sent_at: Timestamp,
    pub visible_at: Timestamp,
}

#[derive(Default)]
struct QueueState {
    waiting: Vec<QueuedMessage>,
    sent: Vec<(QueueMessage, u32)>,
    failures: u32,
}

/// The delivery queue in memory: messages become visible `delay_seconds` after the
/// injected clock's "now" at send time. Delays over 900 s are refused, like SQS.
pub struct MemoryQueue {
    clock: Arc<dyn Clock>,
    state: Mutex<QueueState>,
}

impl MemoryQueue {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        MemoryQueue {
            clock,
            state: Mutex::new(QueueState::default()),
        }
    }

    /// Removes and returns every message visible at `now` (visible-at order, then
    /// send order), each with the delay it was sent with.
    pub fn drain_visible(&self, now: Timestamp) -> Vec<(QueueMessage, u32)> {
        self.drain_visible_full(now)
            .into_iter()
            .map(|q| (q.message, q.delay_seconds))
            .collect()
    }

    /// Like [`Self::drain_visible`], with send and visibility times.
    pub fn drain_visible_full(&self, now: Timestamp) -> Vec<QueuedMessage> {
        let mut st = lock(&self.state);
        let (mut due, keep): (Vec<QueuedMessage>, Vec<QueuedMessage>) = std::mem::take(&mut st.waiting)
            .into_iter()
            .partition(|q| q.visible_at <= now);
        st.waiting = keep;
        due.sort_by_key(|q| q.visible_at);
        due
    }

    /// Messages not yet drained, in send order.
    pub fn waiting(&self) -> Vec<QueuedMessage> {
        lock(&self.state).waiting.clone()
    }

    /// Every message ever sent, in send order, with its delay.
    pub fn sent(&self) -> Vec<(QueueMessage, u32)> {
        lock(&self.state).sent.clone()
    }

    /// When the earliest waiting message becomes visible.
    pub fn next_visible_at(&self) -> Option<Timestamp> {
        lock(&self.state).waiting.iter().map(|q| q.visible_at).min()
    }

    pub fn len(&self) -> usize {
        lock(&self.state).waiting.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Makes the next `n` sends fail with `PortError::Unavailable`.
    pub fn fail_next(&self, n: u32) {
        lock(&self.state).failures = n;
    }
}

#[derive(Debug, thiserror::Error)]
#[error("DelaySeconds must be 0..=900, got {0}")]
pub struct DelayOutOfRange(pub u32);

#[async_trait]
impl Queue for MemoryQueue {
    async fn send(&self, message: &QueueMessage, delay_seconds: u32) -> PortResult<()> {
        let mut st = lock(&self.state);
        if st.failures > 0 {
            st.failures -= 1;
            return Err(PortError::Unavailable(Box::new(InjectedFailure)));
        }
        if delay_seconds > MAX_DELAY_SECONDS {
            return Err(PortError::Backend(Box::new(DelayOutOfRange(delay_seconds))));
        }
        let now = self.clock.now();
        st.waiting.push(QueuedMessage {
            message: message.clone(),
            delay_seconds,
            sent_at: now,
            visible_at: now.plus_secs(i64::from(delay_seconds)),
        });
        st.sent.push((message.clone(), delay_seconds));
        Ok(())
    }
}

// ---------------------------------------------------------------------------------
// Timer
// ---------------------------------------------------------------------------------

/// A one-shot schedule held by a [`MemoryTimer`].
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduledMessage {
    pub name: String,
    pub at: Timestamp,
    pub message: QueueMessage,
}

#[derive(Debug, thiserror::Error)]
#[error("schedule name must be 1..=64 of [0-9A-Za-z-_.], got {0:?}")]
pub struct BadScheduleName(pub String);

/// Whether EventBridge Scheduler accepts `name` as a schedule name.
pub fn valid_schedule_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

#[derive(Default)]
struct TimerState {
    schedules: BTreeMap<String, ScheduledMessage>,
    created: Vec<ScheduledMessage>,
    failures: u32,
}

/// Scheduler in memory: one-shot schedules by name. Creating a name that exists is a
/// no-op (the first schedule stays), as the Scheduler adapter treats its conflict.
#[derive(Default)]
pub struct MemoryTimer {
    state: Mutex<TimerState>,
}

impl MemoryTimer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedules due at `now` (`at <= now`), earliest first, without removing them.
    pub fn due(&self, now: Timestamp) -> Vec<ScheduledMessage> {
        let mut v: Vec<ScheduledMessage> = lock(&self.state)
            .schedules
            .values()
            .filter(|s| s.at <= now)
            .cloned()
            .collect();
        v.sort_by(|a, b| (a.at, &a.name).cmp(&(b.at, &b.name)));
        v
    }

    /// Removes and returns the schedules due at `now`, as Scheduler fires them and
    /// `ActionAfterCompletion: DELETE` removes them.
    pub fn take_due(&self, now: Timestamp) -> Vec<ScheduledMessage> {
        let due = self.due(now);
        let mut st = lock(&self.state);
        for s in &due {
            st.schedules.remove(&s.name);
        }
        due
    }

    /// Every schedule not yet taken, by name.
    pub fn pending(&self) -> Vec<ScheduledMessage> {
        lock(&self.state).schedules.values().cloned().collect()
    }

    /// Every schedule ever created (repeats excluded), in creation order.
    pub fn created(&self) -> Vec<ScheduledMessage> {
        lock(&self.state).created.clone()
    }

    pub fn delete(&self, name: &str) -> bool {
        lock(&self.state).schedules.remove(name).is_some()
    }

    /// Makes the next `n` schedule calls fail with `PortError::Unavailable`.
    pub fn fail_next(&self, n: u32) {
        lock(&self.state).failures = n;
    }
}

#[async_trait]
impl Timer for MemoryTimer {
    async fn schedule(&self, name: &str, at: Timestamp, message: &QueueMessage) -> PortResult<()> {
        let mut st = lock(&self.state);
        if st.failures > 0 {
            st.failures -= 1;
            return Err(PortError::Unavailable(Box::new(InjectedFailure)));
        }
        if !valid_schedule_name(name) {
            return Err(PortError::Backend(Box::new(BadScheduleName(name.to_owned()))));
        }
        if st.schedules.contains_key(name) {
            return Ok(());
        }
        let s = ScheduledMessage {
            name: name.to_owned(),
            at,
            message: message.clone(),
        };
        st.schedules.insert(name.to_owned(), s.clone());
        st.created.push(s);
        Ok(())
    }
}

// ---------------------------------------------------------------------------------
// Due index (the reconciler's)
// ---------------------------------------------------------------------------------

#[async_trait]
impl crate::reconcile::OverdueIndex for MemoryStore {
    async fn overdue(&self, before: Timestamp, limit: u32) -> PortResult<Vec<DeliveryId>> {
        let now = self.begin_call()?;
        let mut due: Vec<(Timestamp, DeliveryId)> = self
            .shards
            .iter()
            .flat_map(|s| {
                lock(s)
                    .deliveries
                    .values()
                    .filter(|stored| is_live(stored.delivery.expires_at, now))
                    .filter_map(|stored| {
                        let at = crate::reconcile::due_at(&stored.delivery)?;
                        (at < before).then(|| (at, stored.delivery.id.clone()))
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        due.sort();
        due.truncate(limit as usize);
        Ok(due.into_iter().map(|(_, id)| id).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_hex_round_trips() {
        let k = "000001796020081123#dlv_01";
        assert_eq!(unhex(&hex(k)).as_deref(), Some(k));
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("abc"), None);
    }

    #[test]
    fn liveness_is_exclusive_at_the_expiry_second() {
        let now = Timestamp::from_secs(100);
        assert!(is_live(None, now));
        assert!(is_live(Some(101), now));
        assert!(!is_live(Some(100), now));
        assert!(!is_live(Some(100), now.plus_millis(1)));
        assert!(is_live(Some(100), now.plus_millis(-1)));
    }

    #[test]
    fn fixed_secrets_repeat_per_seed() {
        let (a, b) = (FixedSecrets::new(3), FixedSecrets::new(3));
        let (mut x, mut y) = ([0u8; 13], [0u8; 13]);
        a.fill(&mut x);
        b.fill(&mut y);
        assert_eq!(x, y);
        a.fill(&mut y);
        assert_ne!(x, y);
    }

    #[test]
    fn os_sources_produce_bytes() {
        let mut buf = [0u8; 32];
        OsSecrets.fill(&mut buf);
        assert_ne!(buf, [0u8; 32]);
        let r = OsRandom::new();
        assert_ne!(r.next_u64(), r.next_u64());
        assert!(SystemClock.now().millis() > 1_600_000_000_000);
    }

    /// The inverse of SplitMix64's output function: an output gives its state away.
    fn unmix(mut z: u64) -> u64 {
        fn inverse(a: u64) -> u64 {
            // Newton's iteration for the inverse of an odd number modulo 2^64.
            let mut x = a;
            for _ in 0..6 {
                x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
            }
            x
        }
        z ^= (z >> 31) ^ (z >> 62);
        z = z.wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
        z ^= (z >> 27) ^ (z >> 54);
        z = z.wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
        z ^= (z >> 30) ^ (z >> 60);
        z
    }

    /// The first 64 random bits of an id (the draw right after its 48 time bits).
    fn first_draw(id: &courier_core::ids::AttemptId) -> u64 {
        const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        let body = &id.as_str().as_bytes()[4..];
        let value = body.iter().fold(0u128, |v, c| {
            (v << 5) | ALPHABET.iter().position(|a| a == c).unwrap_or_default() as u128
        });
        ((value >> 16) & u128::from(u64::MAX)) as u64
    }

    #[test]
    fn the_next_id_is_not_predictable_from_the_previous_one() {
        use courier_core::ids::AttemptId;
        use courier_core::rng::RandomSource;
        struct Draws<'a>(&'a dyn Random);
        impl RandomSource for Draws<'_> {
            fn next_u64(&mut self) -> u64 {
                self.0.next_u64()
            }
        }
        const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
        let predict = |id: &AttemptId| {
            // Each id draws twice; the next id's first draw is two steps on.
            let state = unmix(first_draw(id));
            let mut next = courier_core::rng::SplitMix64::new(state.wrapping_add(GAMMA));
            next.next_u64()
        };
        // The attack works on a seeded generator...
        let seeded = SeededRandom::new(42);
        let a = AttemptId::generate(Timestamp(1), &mut Draws(&seeded));
        let b = AttemptId::generate(Timestamp(1), &mut Draws(&seeded));
        assert_eq!(predict(&a), first_draw(&b), "the attack must work where it should");
        // ...and not on production randomness.
        let os = OsRandom::new();
        for _ in 0..16 {
            let a = AttemptId::generate(Timestamp(1), &mut Draws(&os));
            let b = AttemptId::generate(Timestamp(1), &mut Draws(&os));
            assert_ne!(predict(&a), first_draw(&b));
        }
    }
}
