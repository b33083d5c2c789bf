//! `MemoryStore`: every store port over in-memory maps, with the same
//! conditions as the DynamoDB adapter, and the reconciler's due index over it.

use super::*;

mod indexes;

#[derive(Default)]
struct StoreState {
    tenant_keys: HashMap<String, Tenant>,
    /// Expiry (epoch seconds) of the keys put with one.
    tenant_key_expiry: HashMap<String, i64>,
    endpoints: BTreeMap<(TenantId, EndpointId), Endpoint>,
    events: HashMap<EventId, EventRecord>,
    /// The body an event stores once for the deliveries created with it.
    event_bodies: HashMap<EventId, Arc<str>>,
    idempotency: HashMap<String, IdempotencyRecord>,
    /// The subscription index: (tenant, application or "", key, endpoint) -> entry.
    subscriptions: BTreeMap<(TenantId, String, String, EndpointId), SubscriptionEntry>,
    /// Fan-out links by (event, step start).
    fanout_links: BTreeMap<(EventId, u64), crate::domain::model::FanoutLink>,
    /// SmartChat health kept apart from the endpoint records, as DynamoDB keeps it
    /// in an item of its own (`EndpointStore::put_smart_health`).
    smart_health: HashMap<(TenantId, EndpointId), courier_core::health::SmartHealth>,
    /// Statistics per endpoint: minute and hour buckets by start (ms), and the run
    /// of failed attempts.
    stats: HashMap<(TenantId, EndpointId), EndpointStats>,
}

#[derive(Default)]
struct EndpointStats {
    minutes: BTreeMap<i64, crate::domain::stats::StatsCounts>,
    hours: BTreeMap<i64, crate::domain::stats::StatsCounts>,
    streak: u32,
}

impl StoreState {
    /// The endpoint as read: a SmartChat endpoint's health is the one kept apart,
    /// when there is one.
    fn endpoint_as_read(&self, e: &Endpoint) -> Endpoint {
        let mut e = e.clone();
        if e.policy.health.smart_rules().is_some()
            && let Some(h) = self.smart_health.get(&(e.tenant_id.clone(), e.id.clone()))
        {
            e.health = Some(*h);
        }
        e
    }

    /// Replaces the index entries of `old` (if any) with those of `new`.
    fn reindex(&mut self, old: Option<&Endpoint>, new: &Endpoint) {
        let slot = |e: &Endpoint, k: String| {
            (
                e.tenant_id.clone(),
                e.application_id.clone().unwrap_or_default(),
                k,
                e.id.clone(),
            )
        };
        if let Some(old) = old {
            for (k, _) in crate::fanout::entries_of(old) {
                self.subscriptions.remove(&slot(old, k));
            }
        }
        for (k, entry) in crate::fanout::entries_of(new) {
            self.subscriptions.insert(slot(new, k), entry);
        }
    }
}

/// The deliveries, each kept with its attempts.
#[derive(Default)]
struct Deliveries {
    deliveries: HashMap<DeliveryId, StoredDelivery>,
}

/// A delivery and its attempts in (number, id) order.
struct StoredDelivery {
    delivery: Delivery,
    attempts: Vec<Attempt>,
    /// Whether it has a due-index entry, as DynamoDB's `GSI4` would: none after a
    /// write of a delivery whose next step a queue message carries
    /// (`Delivery::carried_by_queue`), until its next write of the whole record.
    due_entry: bool,
    /// Where the entry was moved to by a hold or a reconciler run (`note_hold`,
    /// `OverdueIndex::move_due`) since the last write of the whole record; `None`:
    /// at `due_at`.
    due_moved: Option<Timestamp>,
    /// The claim the last takeover replaced, as DynamoDB keeps it (`lostClaim`), so
    /// that a repeat of the takeover's call answers it again.
    lost_claim: Option<ClaimRecord>,
}

impl Deliveries {
    /// Stores a new delivery. An expired one under the same id keeps its attempts, as
    /// DynamoDB keeps attempt items until their own TTL.
    fn put_new(&mut self, d: &Delivery) {
        match self.deliveries.get_mut(&d.id) {
            Some(stored) => {
                stored.delivery = Delivery {
                    carried_by_queue: false,
                    ..d.clone()
                };
                stored.due_entry = !d.carried_by_queue;
                stored.due_moved = None;
                stored.lost_claim = None;
            }
            None => {
                let stored = StoredDelivery {
                    delivery: Delivery {
                        carried_by_queue: false,
                        ..d.clone()
                    },
                    attempts: Vec::new(),
                    due_entry: !d.carried_by_queue,
                    due_moved: None,
                    lost_claim: None,
                };
                self.deliveries.insert(d.id.clone(), stored);
            }
        }
    }

    fn live_mut(&mut self, id: &DeliveryId, now: Timestamp) -> Option<&mut StoredDelivery> {
        self.deliveries
            .get_mut(id)
            .filter(|s| is_live(s.delivery.expires_at, now))
    }
}

/// `d` keeping its own body: what every create call but `create_event` stores.
fn with_own_body(d: &Delivery) -> std::borrow::Cow<'_, Delivery> {
    match d.body_hash {
        None => std::borrow::Cow::Borrowed(d),
        Some(_) => std::borrow::Cow::Owned(Delivery {
            body_hash: None,
            ..d.clone()
        }),
    }
}

/// Every store port in memory. Reads consult the injected clock to hide TTL-expired
/// items, exactly like the DynamoDB adapter. Lock order, where a call takes both:
/// `state`, then `deliveries`.
pub struct MemoryStore {
    clock: Arc<dyn Clock>,
    state: Mutex<StoreState>,
    deliveries: Mutex<Deliveries>,
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
            deliveries: Mutex::new(Deliveries::default()),
            failures: AtomicU32::new(0),
        }
    }

    /// Makes the next `n` store calls fail with `PortError::Unavailable`.
    pub fn fail_next(&self, n: u32) {
        self.failures.store(n, Ordering::SeqCst);
    }

    /// Every stored delivery, expired ones included (for test assertions).
    pub fn all_deliveries(&self) -> Vec<Delivery> {
        let mut v: Vec<Delivery> = lock(&self.deliveries)
            .deliveries
            .values()
            .map(|stored| stored.delivery.clone())
            .collect();
        v.sort_by(|a, b| a.id.cmp(&b.id));
        v
    }

    /// Every stored attempt of every delivery, in (delivery, number, id) order.
    pub fn all_attempts(&self) -> Vec<Attempt> {
        let mut by_delivery: Vec<(DeliveryId, Vec<Attempt>)> = lock(&self.deliveries)
            .deliveries
            .iter()
            .filter(|(_, stored)| !stored.attempts.is_empty())
            .map(|(id, stored)| (id.clone(), stored.attempts.clone()))
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
        let injected = self
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

    /// [`Self::begin_call`], then the lock over the deliveries.
    fn begin_deliveries(&self) -> PortResult<(MutexGuard<'_, Deliveries>, Timestamp)> {
        let now = self.begin_call()?;
        Ok((lock(&self.deliveries), now))
    }
}

fn live_delivery<'a>(deliveries: &'a Deliveries, id: &DeliveryId, now: Timestamp) -> Option<&'a Delivery> {
    deliveries
        .deliveries
        .get(id)
        .map(|s| &s.delivery)
        .filter(|d| is_live(d.expires_at, now))
}

#[async_trait]
impl TenantStore for MemoryStore {
    async fn put_tenant_key(&self, key_hash: &str, tenant: &Tenant) -> PortResult<()> {
        let (mut st, _) = self.begin()?;
        st.tenant_keys.insert(key_hash.to_owned(), tenant.clone());
        st.tenant_key_expiry.remove(key_hash);
        Ok(())
    }

    async fn put_expiring_key(&self, key_hash: &str, tenant: &Tenant, expires_at: i64) -> PortResult<()> {
        let (mut st, _) = self.begin()?;
        st.tenant_keys.insert(key_hash.to_owned(), tenant.clone());
        st.tenant_key_expiry.insert(key_hash.to_owned(), expires_at);
        Ok(())
    }

    async fn tenant_by_key(&self, key_hash: &str) -> PortResult<Option<Tenant>> {
        let (st, _) = self.begin()?;
        if !is_live(st.tenant_key_expiry.get(key_hash).copied(), self.clock.now()) {
            return Ok(None);
        }
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
        st.reindex(None, endpoint);
        Ok(())
    }

    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
        let (st, _) = self.begin()?;
        Ok(st
            .endpoints
            .get(&(tenant.clone(), id.clone()))
            .map(|e| st.endpoint_as_read(e)))
    }

    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
        let (mut st, _) = self.begin()?;
        let key = (endpoint.tenant_id.clone(), endpoint.id.clone());
        match st.endpoints.get(&key) {
            Some(stored) if stored.version == expected_version => {
                let old = stored.clone();
                st.endpoints.insert(key, endpoint.clone());
                st.reindex(Some(&old), endpoint);
                Ok(())
            }
            Some(stored) => Err(PortError::Conflict(format!(
                "endpoint {} is at version {}, not {expected_version}",
                endpoint.id, stored.version
            ))),
            None => Err(PortError::Conflict(format!("endpoint {} does not exist", endpoint.id))),
        }
    }

    async fn note_smart_success(&self, tenant: &TenantId, id: &EndpointId, now: Timestamp) -> PortResult<bool> {
        let (mut st, _) = self.begin()?;
        match st.smart_health.get_mut(&(tenant.clone(), id.clone())) {
            Some(h) if h.status == courier_core::health::HealthStatus::Active && h.quiet_since < now => {
                h.failures_in_a_row = 0;
                h.quiet_since = now;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn put_smart_health(
        &self,
        tenant: &TenantId,
        id: &EndpointId,
        expected: Option<&courier_core::health::SmartHealth>,
        new: &courier_core::health::SmartHealth,
    ) -> PortResult<()> {
        let (mut st, _) = self.begin()?;
        let key = (tenant.clone(), id.clone());
        // The first write apart takes over from the record's health, whatever it
        // holds (DynamoDB: the item's condition passes when it does not exist yet).
        if let (Some(stored), Some(expected)) = (st.smart_health.get(&key), expected)
            && stored != expected
        {
            return Err(PortError::Conflict(format!("endpoint {id}'s health has changed")));
        }
        st.smart_health.insert(key, *new);
        Ok(())
    }

    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        let (st, _) = self.begin()?;
        let items = st
            .endpoints
            .iter()
            .filter(|((t, _), _)| t == tenant)
            .map(|((_, id), e)| (id.as_str().to_owned(), st.endpoint_as_read(e)))
            .collect();
        paginate(
            items,
            &ListScope::whole(format!("endpoints {tenant}")),
            cursor,
            limit,
            false,
        )
    }

    async fn scan_endpoints(&self, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        let (st, _) = self.begin()?;
        let mut items: Vec<(String, Endpoint)> = st
            .endpoints
            .iter()
            .map(|((t, id), e)| (format!("{t}/{id}"), st.endpoint_as_read(e)))
            .collect();
        items.sort_by(|a, b| a.0.cmp(&b.0));
        paginate(
            items,
            &ListScope::whole("endpoint scan".to_owned()),
            cursor,
            limit,
            false,
        )
    }
}

#[async_trait]
impl DeliveryStore for MemoryStore {
    fn stats(&self) -> Option<&dyn crate::ports::StatsStore> {
        Some(self)
    }

    async fn create_event(&self, event: &EventRecord, deliveries: &[Delivery]) -> PortResult<()> {
        let (mut st, now) = self.begin()?;
        if st.events.get(&event.id).is_some_and(|e| is_live(e.expires_at, now)) {
            return Err(PortError::Conflict(format!("event {} already exists", event.id)));
        }
        // Held for the whole check-then-write, as one transaction.
        let mut stored = lock(&self.deliveries);
        for (i, d) in deliveries.iter().enumerate() {
            let taken = live_delivery(&stored, &d.id, now).is_some();
            if taken || deliveries[..i].iter().any(|o| o.id == d.id) {
                return Err(PortError::Conflict(format!("delivery {} already exists", d.id)));
            }
        }
        let shared = shared_body::event_body(deliveries);
        for d in deliveries {
            if shared_body::in_event(d, shared.as_ref()) {
                stored.put_new(&shared_body::stored_form(d));
            } else {
                stored.put_new(&with_own_body(d));
            }
        }
        match shared {
            Some((body, _)) => st.event_bodies.insert(event.id.clone(), body),
            None => st.event_bodies.remove(&event.id),
        };
        st.events.insert(event.id.clone(), event.clone());
        Ok(())
    }

    async fn create_delivery(&self, delivery: &Delivery) -> PortResult<()> {
        let (mut st, now) = self.begin_deliveries()?;
        if live_delivery(&st, &delivery.id, now).is_some() {
            return Err(PortError::Conflict(format!("delivery {} already exists", delivery.id)));
        }
        st.put_new(&with_own_body(delivery));
        Ok(())
    }

    async fn create_event_delivery(&self, _event: &EventRecord, delivery: &Delivery) -> PortResult<()> {
        let (mut deliveries, now) = self.begin_deliveries()?;
        if live_delivery(&deliveries, &delivery.id, now).is_some() {
            return Err(PortError::Conflict(format!("delivery {} already exists", delivery.id)));
        }
        deliveries.put_new(&with_own_body(delivery));
        Ok(())
    }

    async fn set_fanout_progress(
        &self,
        tenant: &TenantId,
        event: &EventId,
        progress: &crate::domain::model::FanoutProgress,
    ) -> PortResult<()> {
        let (mut st, now) = self.begin()?;
        match st
            .events
            .get_mut(event)
            .filter(|e| &e.tenant_id == tenant && is_live(e.expires_at, now))
        {
            None => Err(PortError::Conflict(format!("event {event} does not exist"))),
            Some(e) => {
                if e.fanout.as_ref().is_none_or(|f| f.processed <= progress.processed) {
                    e.fanout = Some(progress.clone());
                }
                Ok(())
            }
        }
    }

    async fn put_fanout_link(&self, link: &crate::domain::model::FanoutLink) -> PortResult<()> {
        let (mut st, _) = self.begin()?;
        st.fanout_links
            .insert((link.event_id.clone(), link.start), link.clone());
        Ok(())
    }

    async fn fanout_links(
        &self,
        tenant: &TenantId,
        event: &EventId,
        from: u64,
        limit: u32,
    ) -> PortResult<Vec<crate::domain::model::FanoutLink>> {
        let (st, now) = self.begin()?;
        Ok(st
            .fanout_links
            .range((event.clone(), from)..=(event.clone(), u64::MAX))
            .map(|(_, l)| l)
            .filter(|l| &l.tenant_id == tenant && is_live(l.expires_at, now))
            .take(limit.clamp(1, 10) as usize)
            .cloned()
            .collect())
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
        let (st, now) = self.begin_deliveries()?;
        Ok(live_delivery(&st, id, now).cloned())
    }

    async fn event_body(&self, event: &EventId) -> PortResult<Option<Arc<str>>> {
        let (st, now) = self.begin()?;
        Ok(st
            .events
            .get(event)
            .filter(|e| is_live(e.expires_at, now))
            .and_then(|_| st.event_bodies.get(event).cloned()))
    }

    async fn claim_attempt(&self, id: &DeliveryId, claim: &ClaimRecord) -> PortResult<Claim> {
        let (mut st, clock_now) = self.begin_deliveries()?;
        let Some(stored) = st.live_mut(id, clock_now) else {
            return Ok(Claim::Refused(None));
        };
        let current = &mut stored.delivery;
        if claim_held_by(current, claim) && !current.status.is_settled() {
            // A repeated call: a takeover's answers the claim it replaced again.
            let lost = stored
                .lost_claim
                .clone()
                .filter(|l| l.number == claim.number && l.lease_until <= claim.started_at);
            return Ok(Claim::Claimed {
                delivery: current.clone(),
                lost,
            });
        }
        if !claim_allowed(current, claim.number, claim.started_at) {
            return Ok(Claim::Refused(Some(current.clone())));
        }
        let lost = set_claim(current, claim);
        let delivery = current.clone();
        if lost.is_some() {
            stored.lost_claim.clone_from(&lost);
        }
        Ok(Claim::Claimed { delivery, lost })
    }

    async fn note_hold(&self, id: &DeliveryId, number: u32, until: Timestamp, now: Timestamp) -> PortResult<bool> {
        let (mut st, clock_now) = self.begin_deliveries()?;
        match st.live_mut(id, clock_now) {
            Some(stored) if hold_note_allowed(&stored.delivery, number, now) => {
                stored.delivery.throttled_until = Some(until);
                // The entry moves with the hold, as the DynamoDB note moves `GSI4SK`.
                stored.due_moved = Some(until);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    async fn record_attempt(&self, delivery: &Delivery, attempt: &Attempt, held: &ClaimRecord) -> PortResult<()> {
        let delivery = &*shared_body::stored_form(delivery);
        let (mut st, now) = self.begin_deliveries()?;
        let stored = st.live_mut(&delivery.id, now);
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
        stored.delivery = Delivery {
            carried_by_queue: false,
            ..recorded_onto(&stored.delivery, delivery)
        };
        stored.due_entry = !delivery.carried_by_queue;
        stored.due_moved = None;
        let list = &mut stored.attempts;
        // Replaces an attempt recorded under the same number and id, as a map keyed
        // by them would.
        match list.binary_search_by(|a| (a.number, &a.id).cmp(&(attempt.number, &attempt.id))) {
            Ok(i) => list[i] = attempt.clone(),
            Err(i) => list.insert(i, attempt.clone()),
        }
        Ok(())
    }

    async fn update_delivery(&self, delivery: &Delivery, expected_version: u64) -> PortResult<()> {
        let delivery = &*shared_body::stored_form(delivery);
        let (mut st, now) = self.begin_deliveries()?;
        match st.live_mut(&delivery.id, now) {
            // Exactly this state is stored already: a repeated call (see `claim_held_by`).
            Some(stored) if stored.delivery == *delivery => Ok(()),
            Some(stored) if stored.delivery.version == expected_version => {
                stored.delivery = Delivery {
                    carried_by_queue: false,
                    ..delivery.clone()
                };
                stored.due_entry = !delivery.carried_by_queue;
                stored.due_moved = None;
                Ok(())
            }
            Some(stored) => Err(PortError::Conflict(format!(
                "delivery {} is at version {}, not {expected_version}",
                delivery.id, stored.delivery.version
            ))),
            None => Err(PortError::Conflict(format!("delivery {} does not exist", delivery.id))),
        }
    }

    async fn list_attempts(&self, delivery: &DeliveryId) -> PortResult<Vec<Attempt>> {
        let (st, now) = self.begin_deliveries()?;
        Ok(st
            .deliveries
            .get(delivery)
            .map(|s| {
                s.attempts
                    .iter()
                    .filter(|a| is_live(a.expires_at, now))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default())
    }

    async fn list_attempts_page(
        &self,
        delivery: &DeliveryId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Attempt>> {
        let (st, now) = self.begin_deliveries()?;
        let items = st
            .deliveries
            .get(delivery)
            .map(|s| {
                s.attempts
                    .iter()
                    .filter(|a| is_live(a.expires_at, now))
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
        let (st, now) = self.begin_deliveries()?;
        Ok(st
            .deliveries
            .get(delivery)
            .and_then(|s| s.attempts.iter().find(|a| &a.id == id && is_live(a.expires_at, now)))
            .cloned())
    }

    async fn last_attempt(&self, delivery: &DeliveryId) -> PortResult<Option<Attempt>> {
        let (st, now) = self.begin_deliveries()?;
        Ok(st
            .deliveries
            .get(delivery)
            .and_then(|s| s.attempts.iter().rev().find(|a| is_live(a.expires_at, now)))
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
        let mut items: Vec<(String, Delivery)> = lock(&self.deliveries)
            .deliveries
            .values()
            .map(|s| &s.delivery)
            .filter(|d| {
                &d.endpoint_id == endpoint
                    && is_live(d.expires_at, now)
                    && status.is_none_or(|s| d.status.as_str() == s)
                    && in_window(d.created_at, since, until)
            })
            .map(|d| (time_key(d.created_at, d.id.as_str()), d.clone()))
            .collect();
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
        let live_event = |id: &EventId| {
            st.events
                .get(id)
                .filter(|e| &e.tenant_id == tenant && is_live(e.expires_at, now))
        };
        let mut items: Vec<(String, EventRecord)> = match endpoint {
            None => st
                .events
                .values()
                .filter(|e| live_event(&e.id).is_some() && in_window(e.created_at, since, until))
                .map(|e| (time_key(e.created_at, e.id.as_str()), e.clone()))
                .collect(),
            // The endpoint's delivery log, as DynamoDB reads it: each live delivery
            // of the tenant's but replays, by its creation instant, for its event.
            Some(ep) => {
                let mut items = Vec::new();
                for d in lock(&self.deliveries).deliveries.values().map(|s| &s.delivery) {
                    if &d.endpoint_id != ep
                        || &d.tenant_id != tenant
                        || d.trigger == Trigger::Replay
                        || !is_live(d.expires_at, now)
                        || !in_window(d.created_at, since, until)
                    {
                        continue;
                    }
                    if let Some(e) = live_event(&d.event_id) {
                        items.push((time_key(d.created_at, d.id.as_str()), e.clone()));
                    }
                }
                items
            }
        };
        items.sort_by(|a, b| b.0.cmp(&a.0));
        let scope = ListScope {
            name: format!("events {tenant} {}", endpoint.map_or("*", |e| e.as_str())),
            since,
            until,
        };
        paginate(items, &scope, cursor, limit, true)
    }
}
