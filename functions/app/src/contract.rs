//! The port contract suite: one set of exact-value checks that every store, queue
//! and timer implementation must pass, the in-memory fakes
//! (`tests/contract_memory.rs`) and the AWS adapters against the emulator
//! (`courier-aws`'s `tests/contract_aws.rs`) alike. If a fake and its adapter ever
//! disagree, one of them is wrong, and this suite is where that shows.
//!
//! The functions panic on the first broken rule (they are test code shipped in the
//! library so other crates can run them). They use fresh ids from a process-wide
//! counter, so several sections can share one store. The store under test must read
//! "now" (for TTL expiry) from the same [`ManualClock`] passed here. Must not depend
//! on any AWS crate.

use crate::memory::{ManualClock, MemoryQueue, MemoryTimer};
use crate::message::{QueueMessage, Trigger};
use crate::model::{
    Attempt, ClaimRecord, Delivery, DeliveryStatus, Endpoint, EndpointState, EventRecord, EventTarget,
    IdempotencyRecord, Page, SecretRecord, SecretState, Tenant,
};
use crate::ports::{
    Claim, Clock, DeliveryStore, EndpointStore, IdempotencyStore, PortError, PortResult, Queue, TenantStore, Timer,
};
use async_trait::async_trait;
use courier_core::decide::LatencyClass;
use courier_core::health::{BreakerState, HealthStatus, SmartHealth};
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};
use courier_core::rng::SplitMix64;
use courier_core::{Policy, Timestamp};
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// 2026-11-29T00:00:00Z: every section starts its clock here.
pub const T0: Timestamp = Timestamp::from_secs(1_795_910_400);

/// 256 KiB: the API's payload limit.
pub const MAX_PAYLOAD: usize = 256 * 1024;

// ---------------------------------------------------------------------------------
// Fixtures
// ---------------------------------------------------------------------------------

static SEED: AtomicU64 = AtomicU64::new(0xC0FF_EE00);

/// Fresh, valid ids for one section.
pub struct Ids {
    rng: Mutex<SplitMix64>,
}

impl Default for Ids {
    fn default() -> Self {
        Self::new()
    }
}

impl Ids {
    pub fn new() -> Self {
        let seed = SEED.fetch_add(0x9E37_79B9, Ordering::SeqCst) ^ std::process::id() as u64;
        Ids {
            rng: Mutex::new(SplitMix64::new(seed)),
        }
    }
    fn with<T>(&self, f: impl FnOnce(&mut SplitMix64) -> T) -> T {
        let mut g = self.rng.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut g)
    }
    pub fn tenant(&self) -> TenantId {
        self.with(|r| TenantId::generate(T0, r))
    }
    pub fn endpoint(&self) -> EndpointId {
        self.with(|r| EndpointId::generate(T0, r))
    }
    pub fn event(&self) -> EventId {
        self.with(|r| EventId::generate(T0, r))
    }
    pub fn delivery(&self) -> DeliveryId {
        self.with(|r| DeliveryId::generate(T0, r))
    }
    pub fn attempt(&self) -> AttemptId {
        self.with(|r| AttemptId::generate(T0, r))
    }
}

pub fn sample_endpoint(tenant: &TenantId, id: &EndpointId, now: Timestamp) -> Endpoint {
    Endpoint {
        id: id.clone(),
        tenant_id: tenant.clone(),
        url: format!("https://hooks.example.com/{id}"),
        policy: Policy::preset("greatwait").expect("the greatwait preset exists"),
        latency_class: LatencyClass::Realtime,
        long_running_allowance_seconds: 0,
        timeout_ms: Some(7_500),
        description: Some("contract \u{e9}ndpoint".to_owned()),
        state: EndpointState::Active,
        secrets: vec![SecretRecord {
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".to_owned(),
            state: SecretState::Active,
            created_at: now,
            expires_at: None,
        }],
        breaker: Some(BreakerState::default()),
        health: Some(SmartHealth::new(now)),
        rate_limit: None,
        max_in_flight: None,
        created_at: now,
        updated_at: now,
        version: 0,
        application_id: None,
        filter_types: None,
        channels: None,
        limit_ceiling: None,
        deleted_at: None,
        failing_after: None,
        headers: Vec::new(),
    }
}

pub fn sample_event(tenant: &TenantId, id: &EventId, created_at: Timestamp, payload: serde_json::Value) -> EventRecord {
    EventRecord {
        id: id.clone(),
        tenant_id: tenant.clone(),
        event_type: Some("order.created".to_owned()),
        payload,
        planned_at: created_at,
        created_at,
        targets: Vec::new(),
        expires_at: None,
        application_id: None,
        channels: None,
        fanout: None,
        occurrence: None,
    }
}

pub fn sample_delivery(
    event: &EventRecord,
    endpoint: &EndpointId,
    id: &DeliveryId,
    created_at: Timestamp,
    body: String,
) -> Delivery {
    Delivery {
        id: id.clone(),
        tenant_id: event.tenant_id.clone(),
        event_id: event.id.clone(),
        endpoint_id: endpoint.clone(),
        webhook_id: id.clone(),
        status: DeliveryStatus::Pending,
        dead_reason: None,
        trigger: Trigger::Initial,
        attempt_count: 0,
        next_attempt: 1,
        receiver_failures: 0,
        next_attempt_at: Some(created_at),
        last_planned: false,
        claim: None,
        awaiting: None,
        throttled_until: None,
        dead_lettered_at: None,
        created_at,
        planned_at: created_at,
        settled_at: None,
        body: body.into(),
        body_hash: None,
        expires_at: None,
        version: 0,
        delivery_settings: None,
        carried_by_queue: false,
        redelivery: None,
    }
}

pub fn sample_attempt(delivery: &Delivery, id: &AttemptId, number: u32, started_at: Timestamp) -> Attempt {
    let mut headers = BTreeMap::new();
    headers.insert("content-type".to_owned(), "text/plain".to_owned());
    Attempt {
        id: id.clone(),
        delivery_id: delivery.id.clone(),
        tenant_id: delivery.tenant_id.clone(),
        number,
        trigger: if number == 1 { Trigger::Initial } else { Trigger::Retry },
        source_attempt_id: None,
        state: "failed".into(),
        response_status: Some(503),
        error_class: Some("http_5xx".into()),
        diagnostic: "the receiver answered 503".into(),
        remediation: "check the receiver's health".into(),
        counts_toward_receiver_failures: true,
        failure_snippet: Some("upstream unavailable".to_owned()),
        truncated: false,
        response_headers: headers,
        duration_ms: 42,
        started_at,
        next_attempt_at: Some(started_at.plus_secs(30)),
        expires_at: None,
    }
}

/// A claim on attempt `number` under `attempt_id`, made at `now`. Its token is
/// derived from the attempt id, so the same call twice is the same claim (a
/// retried call); [`claim_with_token`] makes another claim under the same id.
pub fn test_claim(number: u32, attempt_id: &AttemptId, now: Timestamp, lease_until: Timestamp) -> ClaimRecord {
    claim_with_token(number, attempt_id, &format!("token-{attempt_id}"), now, lease_until)
}

pub fn claim_with_token(
    number: u32,
    attempt_id: &AttemptId,
    token: &str,
    now: Timestamp,
    lease_until: Timestamp,
) -> ClaimRecord {
    ClaimRecord {
        number,
        attempt_id: attempt_id.clone(),
        token: token.to_owned(),
        started_at: now,
        lease_until,
    }
}

/// The claim [`test_claim`] made under `attempt_id`, as a record's condition.
pub fn held(attempt_id: &AttemptId) -> ClaimRecord {
    test_claim(0, attempt_id, Timestamp(0), Timestamp(0))
}

/// The envelope-shaped body a delivery carries.
pub fn sample_body(event: &EventRecord) -> String {
    serde_json::json!({
        "id": event.id,
        "type": event.event_type,
        "plannedAt": event.planned_at,
        "trigger": "scheduled",
        "data": event.payload,
    })
    .to_string()
}

pub fn sample_message(
    delivery: &DeliveryId,
    tenant: &TenantId,
    endpoint: &EndpointId,
    attempt: u32,
    not_before: Timestamp,
) -> QueueMessage {
    QueueMessage {
        v: 1,
        delivery_id: delivery.clone(),
        tenant_id: tenant.clone(),
        endpoint_id: endpoint.clone(),
        attempt,
        not_before,
        trigger: if attempt == 1 { Trigger::Initial } else { Trigger::Retry },
        source_attempt_id: None,
        attempt_id: None,
        completion_check: false,
        body: None,
    }
}

/// A JSON payload whose serialised form is exactly `size` bytes, with multi-byte
/// characters so byte and character counts differ.
pub fn payload_of_size(size: usize) -> serde_json::Value {
    let overhead = r#"{"blob":""}"#.len();
    let mut s = String::with_capacity(size);
    while s.len() + overhead + 2 <= size {
        s.push('\u{e9}'); // 2 bytes in UTF-8
        if s.len() + overhead < size {
            s.push('x');
        }
    }
    while s.len() + overhead < size {
        s.push('y');
    }
    let v = serde_json::json!({ "blob": s });
    debug_assert_eq!(v.to_string().len(), size);
    v
}

fn ok<T, E: Debug>(r: Result<T, E>, what: &str) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic!("{what}: expected Ok, got {e:?}"),
    }
}

fn conflict<T: Debug>(r: PortResult<T>, what: &str) {
    match r {
        Err(PortError::Conflict(_)) => {}
        other => panic!("{what}: expected Err(Conflict), got {other:?}"),
    }
}

fn bad_cursor<T: Debug>(r: PortResult<T>, what: &str) {
    match r {
        Err(PortError::BadCursor) => {}
        other => panic!("{what}: expected Err(BadCursor), got {other:?}"),
    }
}

fn backend<T: Debug>(r: PortResult<T>, what: &str) {
    match r {
        Err(PortError::Backend(_)) => {}
        other => panic!("{what}: expected Err(Backend), got {other:?}"),
    }
}

/// Walks every page of a list with the given page size.
async fn all_pages<T, F, Fut>(limit: u32, mut page: F) -> Vec<Vec<T>>
where
    F: FnMut(Option<String>, u32) -> Fut,
    Fut: std::future::Future<Output = PortResult<Page<T>>>,
{
    let mut pages = Vec::new();
    let mut cursor = None;
    loop {
        let p = ok(page(cursor.clone(), limit).await, "listing a page");
        let done = p.next_cursor.is_none();
        pages.push(p.items);
        cursor = p.next_cursor;
        if done {
            return pages;
        }
        assert!(pages.len() <= 1000, "pagination never ends");
    }
}

// ---------------------------------------------------------------------------------
// Store sections
// ---------------------------------------------------------------------------------

/// Runs every store section in turn on one store.
pub async fn store_contract<S>(store: &S, clock: &ManualClock)
where
    S: TenantStore + EndpointStore + DeliveryStore + IdempotencyStore,
{
    tenants(store).await;
    expiring_keys(store, clock).await;
    endpoints(store, clock).await;
    endpoint_pages(store, clock).await;
    smart_health(store, clock).await;
    events_and_deliveries(store, clock).await;
    added_deliveries(store, clock).await;
    claims(store, clock).await;
    claims_by_one_attempt_id(store, clock).await;
    record_attempt(store, clock).await;
    record_keeps_dead_letter_mark(store, clock).await;
    attempt_pages(store, clock).await;
    delivery_versions(store, clock).await;
    hold_notes(store, clock).await;
    idempotency(store, clock).await;
    delivery_log(store, clock).await;
    audit_log(store, clock).await;
    expiry(store, clock).await;
    large_payload(store, clock).await;
    bodies_in_events(store, clock).await;
    statistics(store, clock).await;
}

/// API keys map to tenants; a put replaces.
pub async fn tenants<S: TenantStore>(store: &S) {
    let ids = Ids::new();
    let t1 = Tenant {
        id: ids.tenant(),
        name: "Acme".to_owned(),
    };
    let t2 = Tenant {
        id: ids.tenant(),
        name: "Globex".to_owned(),
    };
    let key = format!("hash-{}", t1.id);
    assert_eq!(ok(store.tenant_by_key(&key).await, "unknown key"), None);
    ok(store.put_tenant_key(&key, &t1).await, "put key");
    assert_eq!(ok(store.tenant_by_key(&key).await, "known key"), Some(t1.clone()));
    ok(store.put_tenant_key(&key, &t2).await, "re-put key");
    assert_eq!(ok(store.tenant_by_key(&key).await, "re-put key"), Some(t2));
}

/// A key put with an expiry is found until then, not from then on.
pub async fn expiring_keys<S: TenantStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let t = Tenant {
        id: ids.tenant(),
        name: "{\"link\": 1}".to_owned(),
    };
    let key = format!("portal#pl_{}", t.id);
    let until = T0.millis() / 1000 + 60;
    ok(store.put_expiring_key(&key, &t, until).await, "put expiring key");
    assert_eq!(ok(store.tenant_by_key(&key).await, "before"), Some(t.clone()));
    clock.set(T0.plus_secs(59));
    assert_eq!(ok(store.tenant_by_key(&key).await, "a second before"), Some(t.clone()));
    clock.set(T0.plus_secs(60));
    assert_eq!(ok(store.tenant_by_key(&key).await, "at its end"), None);
}

/// SmartChat health kept apart from the endpoint record
/// (`EndpointStore::note_smart_success`, `put_smart_health`): reads give it back as
/// the endpoint's `health`; until it is first written apart the record's counts.
pub async fn smart_health<S: EndpointStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let mut e = sample_endpoint(&tenant, &ids.endpoint(), T0);
    e.policy = Policy::preset("smartchat").expect("the smartchat preset exists");
    let created = SmartHealth::new(T0);
    e.health = Some(created);
    ok(store.create_endpoint(&e).await, "create");
    let health = || async {
        ok(store.get_endpoint(&tenant, &e.id).await, "get")
            .expect("the endpoint")
            .health
    };
    let (tenant_ref, id_ref) = (&tenant, &e.id);
    let note = |at: Timestamp| async move { ok(store.note_smart_success(tenant_ref, id_ref, at).await, "note") };
    // Nothing kept apart yet: a success is not noted that way, the record's health
    // is read.
    assert!(!note(T0.plus_secs(1)).await, "no health apart yet");
    assert_eq!(health().await, Some(created));

    // The first write apart takes over from the record's health.
    let failing = SmartHealth {
        failures_in_a_row: 2,
        ..created
    };
    ok(
        store.put_smart_health(&tenant, &e.id, Some(&created), &failing).await,
        "first write apart",
    );
    assert_eq!(health().await, Some(failing));
    // Then only the health that was read may be replaced.
    let other = SmartHealth {
        failures_in_a_row: 3,
        ..created
    };
    conflict(
        store.put_smart_health(&tenant, &e.id, Some(&created), &other).await,
        "replace a health no longer stored",
    );
    assert_eq!(health().await, Some(failing));

    // A later success on an active endpoint: no failures in a row, quiet from now.
    assert!(note(T0.plus_secs(5)).await);
    let noted = SmartHealth {
        status: HealthStatus::Active,
        failures_in_a_row: 0,
        quiet_since: T0.plus_secs(5),
        since: T0,
    };
    assert_eq!(health().await, Some(noted));
    // A success not after the stored one is not noted: the caller reads and decides.
    assert!(!note(T0.plus_secs(5)).await);
    assert!(!note(T0.plus_secs(4)).await);
    assert_eq!(health().await, Some(noted));

    // Not active: not noted either.
    let degraded = SmartHealth {
        status: HealthStatus::Degraded,
        failures_in_a_row: 5,
        quiet_since: T0.plus_secs(5),
        since: T0.plus_secs(6),
    };
    ok(
        store.put_smart_health(&tenant, &e.id, Some(&noted), &degraded).await,
        "replace",
    );
    assert!(!note(T0.plus_secs(10)).await);
    assert_eq!(health().await, Some(degraded));
    // With no health read (an endpoint just given the SmartChat model), whatever is
    // stored is replaced.
    ok(
        store.put_smart_health(&tenant, &e.id, None, &other).await,
        "replace whatever is stored",
    );
    assert_eq!(health().await, Some(other));
    ok(
        store.put_smart_health(&tenant, &e.id, Some(&other), &degraded).await,
        "replace",
    );

    // An update of the record (whose copy of the health is older) leaves the health
    // kept apart as it is, and lists give it too.
    let mut changed = ok(store.get_endpoint(&tenant, &e.id).await, "get").expect("the endpoint");
    let version = changed.version;
    changed.url = "https://hooks.example.com/moved".to_owned();
    changed.health = Some(created);
    changed.version += 1;
    ok(store.update_endpoint(&changed, version).await, "update the record");
    assert_eq!(health().await, Some(degraded));
    let listed = ok(store.list_endpoints(&tenant, None, 10).await, "list");
    assert_eq!(
        listed
            .items
            .iter()
            .map(|x| (x.id.clone(), x.url.clone(), x.health))
            .collect::<Vec<_>>(),
        vec![(
            e.id.clone(),
            "https://hooks.example.com/moved".to_owned(),
            Some(degraded)
        )]
    );
}

/// Create conflicts, tenant scoping and optimistic versions of endpoints.
pub async fn endpoints<S: EndpointStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let e1 = sample_endpoint(&tenant, &ids.endpoint(), T0);
    ok(store.create_endpoint(&e1).await, "create endpoint");
    conflict(store.create_endpoint(&e1).await, "creating the same endpoint id again");
    assert_eq!(ok(store.get_endpoint(&tenant, &e1.id).await, "get"), Some(e1.clone()));
    assert_eq!(
        ok(store.get_endpoint(&other, &e1.id).await, "get from another tenant"),
        None,
        "an endpoint must be invisible to other tenants"
    );
    assert_eq!(
        ok(store.get_endpoint(&tenant, &ids.endpoint()).await, "get unknown"),
        None
    );

    let mut e2 = e1.clone();
    e2.url = "https://hooks.example.com/v2".to_owned();
    e2.state = EndpointState::Disabled;
    e2.updated_at = T0.plus_secs(5);
    e2.version = 1;
    ok(store.update_endpoint(&e2, 0).await, "update at the stored version");
    assert_eq!(
        ok(store.get_endpoint(&tenant, &e1.id).await, "get after update"),
        Some(e2.clone())
    );

    let mut stale = e1.clone();
    stale.url = "https://stale.example.com/".to_owned();
    stale.version = 1;
    conflict(store.update_endpoint(&stale, 0).await, "update with a stale version");
    assert_eq!(
        ok(store.get_endpoint(&tenant, &e1.id).await, "get after stale update"),
        Some(e2.clone())
    );

    let mut foreign = e2.clone();
    foreign.tenant_id = other.clone();
    foreign.version = 2;
    conflict(
        store.update_endpoint(&foreign, 1).await,
        "update through another tenant",
    );
    assert_eq!(
        ok(
            store.get_endpoint(&other, &e1.id).await,
            "foreign update created nothing"
        ),
        None
    );

    let ghost = sample_endpoint(&tenant, &ids.endpoint(), T0);
    conflict(store.update_endpoint(&ghost, 0).await, "update of a missing endpoint");
    assert_eq!(
        ok(store.get_endpoint(&tenant, &ghost.id).await, "update created nothing"),
        None
    );
}

/// Endpoint lists: one tenant only, id order (creation order), exact pages.
pub async fn endpoint_pages<S: EndpointStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let mut mine: Vec<Endpoint> = (0..5).map(|_| sample_endpoint(&tenant, &ids.endpoint(), T0)).collect();
    for e in &mine {
        ok(store.create_endpoint(e).await, "create endpoint");
    }
    ok(
        store
            .create_endpoint(&sample_endpoint(&other, &ids.endpoint(), T0))
            .await,
        "create other",
    );
    mine.sort_by(|a, b| a.id.cmp(&b.id));

    let empty = ok(store.list_endpoints(&ids.tenant(), None, 10).await, "list empty tenant");
    assert_eq!(
        empty,
        Page {
            items: vec![],
            next_cursor: None
        }
    );

    let full = ok(store.list_endpoints(&tenant, None, 100).await, "list all");
    assert_eq!(full.items, mine);
    assert_eq!(full.next_cursor, None, "no cursor when nothing remains");
    let exact = ok(store.list_endpoints(&tenant, None, 5).await, "list exactly all");
    assert_eq!(exact.items, mine);
    assert_eq!(
        exact.next_cursor, None,
        "no cursor when the page ends exactly at the last item"
    );

    let pages = all_pages(2, |c, l| {
        let t = tenant.clone();
        async move { store.list_endpoints(&t, c.as_deref(), l).await }
    })
    .await;
    let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
    assert_eq!(sizes, vec![2, 2, 1]);
    assert_eq!(pages.concat(), mine);

    let one = ok(store.list_endpoints(&tenant, None, 0).await, "limit 0 is clamped to 1");
    assert_eq!(one.items, mine[..1].to_vec());
    assert!(one.next_cursor.is_some());
    let big = ok(
        store.list_endpoints(&tenant, None, 10_000).await,
        "limit is clamped to 100",
    );
    assert_eq!(big.items, mine);

    // A cursor continues only the list that handed it out.
    let first = ok(store.list_endpoints(&tenant, None, 2).await, "first page");
    let cursor = first.next_cursor.unwrap_or_default();
    bad_cursor(
        store.list_endpoints(&other, Some(&cursor), 2).await,
        "another tenant's cursor",
    );
    for garbage in ["not-a-cursor", "", "%%", "zz", "00"] {
        bad_cursor(store.list_endpoints(&tenant, Some(garbage), 2).await, garbage);
    }
}

struct Fixture {
    event: EventRecord,
    deliveries: Vec<Delivery>,
}

fn fixture(
    ids: &Ids,
    tenant: &TenantId,
    endpoints: &[&EndpointId],
    created_at: Timestamp,
    payload: serde_json::Value,
) -> Fixture {
    let mut event = sample_event(tenant, &ids.event(), created_at, payload);
    let body = sample_body(&event);
    let deliveries: Vec<Delivery> = endpoints
        .iter()
        .map(|ep| sample_delivery(&event, ep, &ids.delivery(), created_at, body.clone()))
        .collect();
    event.targets = deliveries
        .iter()
        .map(|d| EventTarget {
            endpoint_id: d.endpoint_id.clone(),
            delivery_id: d.id.clone(),
            outcome: "queued".to_owned(),
            reason: None,
        })
        .collect();
    Fixture { event, deliveries }
}

/// Events and their deliveries are written together, or not at all.
pub async fn events_and_deliveries<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let (ep1, ep2) = (ids.endpoint(), ids.endpoint());
    let f = fixture(
        &ids,
        &tenant,
        &[&ep1, &ep2],
        T0,
        serde_json::json!({"order": 17, "items": ["a", "b"]}),
    );
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    assert_eq!(
        ok(store.get_event(&tenant, &f.event.id).await, "get event"),
        Some(f.event.clone())
    );
    assert_eq!(
        ok(
            store.get_event(&other, &f.event.id).await,
            "get event from another tenant"
        ),
        None
    );
    assert_eq!(
        ok(store.get_event(&tenant, &ids.event()).await, "get unknown event"),
        None
    );
    for d in &f.deliveries {
        assert_eq!(ok(store.get_delivery(&d.id).await, "get delivery"), Some(d.clone()));
    }
    assert_eq!(
        ok(store.get_delivery(&ids.delivery()).await, "get unknown delivery"),
        None
    );
    assert_eq!(
        ok(store.list_attempts(&f.deliveries[0].id).await, "no attempts yet"),
        vec![]
    );

    conflict(
        store.create_event(&f.event, &[]).await,
        "creating the same event id again",
    );

    // A new event whose second delivery reuses an existing id: nothing may be written.
    let mut g = fixture(
        &ids,
        &tenant,
        &[&ep1, &ep2],
        T0.plus_secs(1),
        serde_json::json!({"order": 18}),
    );
    g.deliveries[1].id = f.deliveries[0].id.clone();
    conflict(
        store.create_event(&g.event, &g.deliveries).await,
        "creating an event over an existing delivery id",
    );
    assert_eq!(
        ok(store.get_event(&tenant, &g.event.id).await, "atomicity: event"),
        None
    );
    assert_eq!(
        ok(
            store.get_delivery(&g.deliveries[0].id).await,
            "atomicity: first delivery"
        ),
        None
    );
    assert_eq!(
        ok(
            store.get_delivery(&f.deliveries[0].id).await,
            "atomicity: existing delivery"
        ),
        Some(f.deliveries[0].clone())
    );

    // Duplicate delivery ids inside one event are refused too.
    let mut h = fixture(&ids, &tenant, &[&ep1, &ep2], T0.plus_secs(2), serde_json::json!(null));
    h.deliveries[1].id = h.deliveries[0].id.clone();
    let refused = store.create_event(&h.event, &h.deliveries).await;
    assert!(
        refused.is_err(),
        "duplicate delivery ids in one event must be refused, got {refused:?}"
    );
    assert_eq!(
        ok(store.get_event(&tenant, &h.event.id).await, "atomicity: duplicate ids"),
        None
    );

    // An event with no deliveries (every target dropped at ingest) is fine.
    let lone = fixture(
        &ids,
        &tenant,
        &[],
        T0.plus_secs(3),
        serde_json::json!({"dropped": true}),
    );
    ok(
        store.create_event(&lone.event, &lone.deliveries).await,
        "event without deliveries",
    );
    assert_eq!(
        ok(store.get_event(&tenant, &lone.event.id).await, "get lone event"),
        Some(lone.event)
    );
}

/// Deliveries added to an existing event later (replays): conflicts, reads, logs.
pub async fn added_deliveries<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 9}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let mut replay = sample_delivery(&f.event, &ep, &ids.delivery(), T0.plus_secs(60), sample_body(&f.event));
    replay.trigger = Trigger::Replay;
    replay.webhook_id = f.deliveries[0].id.clone();
    ok(store.create_delivery(&replay).await, "add a delivery");
    assert_eq!(
        ok(store.get_delivery(&replay.id).await, "get added"),
        Some(replay.clone())
    );
    conflict(store.create_delivery(&replay).await, "adding the same delivery again");
    conflict(
        store.create_delivery(&f.deliveries[0]).await,
        "adding over an event's delivery",
    );
    assert_eq!(
        ok(store.get_delivery(&f.deliveries[0].id).await, "original unchanged"),
        Some(f.deliveries[0].clone())
    );
    let log = ok(store.list_deliveries(&ep, None, None, None, None, 100).await, "log");
    assert_eq!(log.items, vec![replay.clone(), f.deliveries[0].clone()]);
    let audit = ok(
        store.list_events(&tenant, Some(&ep), None, None, None, 100).await,
        "audit",
    );
    assert_eq!(
        audit.items,
        vec![f.event.clone()],
        "a replay does not repeat the event in the audit log"
    );
    let a = ids.attempt();
    let claimed = ok(
        store
            .claim_attempt(&replay.id, &test_claim(1, &a, T0, T0.plus_secs(60)))
            .await,
        "claim added",
    );
    assert!(
        matches!(claimed, Claim::Claimed { .. }),
        "an added delivery is claimable, got {claimed:?}"
    );
}

/// The claim rule, exactly: number, settlement, live claims, lease takeover.
pub async fn claims<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep, &ep], T0, serde_json::json!({"k": 1}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let now = T0.plus_secs(1);
    let lease = now.plus_secs(60);

    let wrong = ok(
        store
            .claim_attempt(&d.id, &test_claim(2, &ids.attempt(), now, lease))
            .await,
        "claim wrong number",
    );
    assert_eq!(wrong, Claim::Refused(Some(d.clone())), "attempt 2 is not next");
    let missing = ok(
        store
            .claim_attempt(&ids.delivery(), &test_claim(1, &ids.attempt(), now, lease))
            .await,
        "claim missing",
    );
    assert_eq!(missing, Claim::Refused(None));

    let a1 = ids.attempt();
    let got = ok(
        store.claim_attempt(&d.id, &test_claim(1, &a1, now, lease)).await,
        "first claim",
    );
    let mut claimed = d.clone();
    claimed.claim = Some(test_claim(1, &a1, now, lease));
    claimed.version = d.version + 1;
    assert_eq!(
        got,
        Claim::Claimed {
            delivery: claimed.clone(),
            lost: None
        }
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "get claimed"),
        Some(claimed.clone())
    );

    let dup = ok(
        store
            .claim_attempt(
                &d.id,
                &test_claim(1, &ids.attempt(), now.plus_secs(5), lease.plus_secs(5)),
            )
            .await,
        "dup",
    );
    assert_eq!(
        dup,
        Claim::Refused(Some(claimed.clone())),
        "a live claim refuses a duplicate"
    );
    let again = ok(
        store.claim_attempt(&d.id, &test_claim(1, &a1, now, lease)).await,
        "repeat",
    );
    assert_eq!(
        again,
        Claim::Claimed {
            delivery: claimed.clone(),
            lost: None
        },
        "repeating a claim with the same attempt id (a retried call) answers Claimed, unchanged"
    );
    let early = ok(
        store
            .claim_attempt(
                &d.id,
                &test_claim(1, &ids.attempt(), lease.plus_millis(-1), lease.plus_secs(60)),
            )
            .await,
        "early",
    );
    assert_eq!(
        early,
        Claim::Refused(Some(claimed.clone())),
        "the lease holds until lease_until"
    );

    // At lease_until the claim may be taken over; the old one is reported lost.
    let a2 = ids.attempt();
    let lease2 = lease.plus_secs(60);
    let took = ok(
        store.claim_attempt(&d.id, &test_claim(1, &a2, lease, lease2)).await,
        "takeover",
    );
    let mut taken = claimed.clone();
    taken.claim = Some(test_claim(1, &a2, lease, lease2));
    taken.version = claimed.version + 1;
    assert_eq!(
        took,
        Claim::Claimed {
            delivery: taken.clone(),
            lost: claimed.claim.clone()
        },
        "an expired lease is taken over"
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "get after takeover"), Some(taken));

    // Settled deliveries are never claimable, whatever their next_attempt says.
    let s = f.deliveries[1].clone();
    for status in [
        DeliveryStatus::Succeeded,
        DeliveryStatus::Failed,
        DeliveryStatus::Dropped,
    ] {
        let current = ok(store.get_delivery(&s.id).await, "get").expect("delivery exists");
        let mut settled = current.clone();
        settled.status = status;
        settled.settled_at = Some(now);
        settled.version = current.version + 1;
        ok(store.update_delivery(&settled, current.version).await, "settle");
        let r = ok(
            store
                .claim_attempt(&s.id, &test_claim(1, &ids.attempt(), now, lease))
                .await,
            "claim settled",
        );
        assert_eq!(
            r,
            Claim::Refused(Some(settled)),
            "a {} delivery is not claimable",
            status.as_str()
        );
    }
    // Unsettled statuses are claimable.
    for status in [
        DeliveryStatus::Scheduled,
        DeliveryStatus::Retrying,
        DeliveryStatus::Ambiguous,
    ] {
        let current = ok(store.get_delivery(&s.id).await, "get").expect("delivery exists");
        let mut open = current.clone();
        open.status = status;
        open.settled_at = None;
        open.claim = None;
        open.version = current.version + 1;
        ok(store.update_delivery(&open, current.version).await, "reopen");
        let r = ok(
            store
                .claim_attempt(&s.id, &test_claim(1, &ids.attempt(), now, lease))
                .await,
            "claim open",
        );
        assert!(
            matches!(r, Claim::Claimed { .. }),
            "a {} delivery is claimable, got {r:?}",
            status.as_str()
        );
    }
}

/// Outcomes are recorded only under the claim, together with the delivery's state.
pub async fn record_attempt<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 2}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let now = T0.plus_secs(1);

    // Nothing is claimed yet.
    let a0 = ids.attempt();
    conflict(
        store
            .record_attempt(&d, &sample_attempt(&d, &a0, 1, now), &held(&a0))
            .await,
        "record without any claim",
    );

    let a1 = ids.attempt();
    let Claim::Claimed { delivery: claimed, .. } = ok(
        store
            .claim_attempt(&d.id, &test_claim(1, &a1, now, now.plus_secs(60)))
            .await,
        "claim",
    ) else {
        panic!("claim 1 refused")
    };
    let other = ids.attempt();
    conflict(
        store
            .record_attempt(&claimed, &sample_attempt(&d, &other, 1, now), &held(&other))
            .await,
        "record under another attempt's id",
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "nothing recorded"), vec![]);
    assert_eq!(ok(store.get_delivery(&d.id).await, "unchanged"), Some(claimed.clone()));

    let att1 = sample_attempt(&d, &a1, 1, now);
    let mut after1 = claimed.clone();
    after1.claim = None;
    after1.status = DeliveryStatus::Retrying;
    after1.attempt_count = 1;
    after1.next_attempt = 2;
    after1.receiver_failures = 1;
    after1.next_attempt_at = Some(now.plus_secs(30));
    after1.version = claimed.version + 1;
    ok(
        store.record_attempt(&after1, &att1, &held(&a1)).await,
        "record under the claim",
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after record"),
        Some(after1.clone())
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "one attempt"), vec![att1.clone()]);
    // Repeating exactly the same record (a retried call) succeeds without change;
    // anything else under the released claim is refused.
    ok(
        store.record_attempt(&after1, &att1, &held(&a1)).await,
        "repeating the same record",
    );
    let mut other_outcome = after1.clone();
    other_outcome.status = DeliveryStatus::Succeeded;
    conflict(
        store.record_attempt(&other_outcome, &att1, &held(&a1)).await,
        "another outcome under a released claim",
    );
    let mut other_attempt = att1.clone();
    other_attempt.response_status = Some(200);
    conflict(
        store.record_attempt(&after1, &other_attempt, &held(&a1)).await,
        "another attempt record under a released claim",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "unchanged"), Some(after1.clone()));
    assert_eq!(
        ok(store.list_attempts(&d.id).await, "still one attempt"),
        vec![att1.clone()]
    );

    // Attempt 2: claimed, lease lost, taken over; the lost attempt and the new one are
    // recorded under the new claim, and the old claim id no longer records anything.
    let t2 = now.plus_secs(30);
    let a2 = ids.attempt();
    let Claim::Claimed { .. } = ok(
        store
            .claim_attempt(&d.id, &test_claim(2, &a2, t2, t2.plus_secs(60)))
            .await,
        "claim 2",
    ) else {
        panic!("claim 2 refused")
    };
    let t3 = t2.plus_secs(60);
    let a3 = ids.attempt();
    let Claim::Claimed { delivery: taken, lost } = ok(
        store
            .claim_attempt(&d.id, &test_claim(2, &a3, t3, t3.plus_secs(60)))
            .await,
        "takeover",
    ) else {
        panic!("takeover refused")
    };
    let lost = lost.expect("the expired claim is reported lost");
    assert_eq!(lost.attempt_id, a2);
    conflict(
        store
            .record_attempt(&taken, &sample_attempt(&d, &a2, 2, t2), &held(&a2))
            .await,
        "record under a taken-over claim",
    );
    let mut lost_att = sample_attempt(&d, &a2, 2, t2);
    lost_att.state = "ambiguous".into();
    lost_att.response_status = None;
    let mut still_claimed = taken.clone();
    still_claimed.status = DeliveryStatus::Ambiguous;
    still_claimed.attempt_count = 2;
    still_claimed.version = taken.version + 1;
    ok(
        store.record_attempt(&still_claimed, &lost_att, &held(&a3)).await,
        "record the lost attempt under the new claim, keeping the claim",
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "claim kept"),
        Some(still_claimed.clone())
    );
    let att3 = sample_attempt(&d, &a3, 3, t3);
    let mut done = still_claimed.clone();
    done.claim = None;
    done.status = DeliveryStatus::Succeeded;
    done.attempt_count = 3;
    done.settled_at = Some(t3);
    done.next_attempt_at = None;
    done.version = still_claimed.version + 1;
    ok(
        store.record_attempt(&done, &att3, &held(&a3)).await,
        "record the new attempt",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "settled"), Some(done));
    assert_eq!(
        ok(store.list_attempts(&d.id).await, "attempts oldest first"),
        vec![att1, lost_att, att3],
        "attempts are listed by number"
    );
}

/// Messages with a pre-assigned attempt id (redelivery, replay, test, redrive,
/// Scheduler-fired copies) share that id between their copies: a second claim under
/// the same id is refused while the first lives, however it is presented, and only
/// the claimer's own token records.
pub async fn claims_by_one_attempt_id<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 5}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let a = ids.attempt();
    let now = T0.plus_secs(1);
    let lease = now.plus_secs(30);
    let first = claim_with_token(1, &a, "first-copy", now, lease);
    let Claim::Claimed {
        delivery: claimed,
        lost,
    } = ok(store.claim_attempt(&d.id, &first).await, "first copy")
    else {
        panic!("the first copy's claim was refused")
    };
    assert_eq!(lost, None);
    assert_eq!(claimed.claim.as_ref(), Some(&first));
    // The second copy carries the same attempt id, its own token.
    for at in [now, now.plus_secs(10), lease.plus_millis(-1)] {
        let second = claim_with_token(1, &a, "second-copy", at, at.plus_secs(30));
        assert_eq!(
            ok(store.claim_attempt(&d.id, &second).await, "second copy"),
            Claim::Refused(Some(claimed.clone())),
            "a copy with the same attempt id is refused while the first lease lives ({at:?})"
        );
    }
    // The first copy's own repeated call still answers Claimed, unchanged.
    assert_eq!(
        ok(store.claim_attempt(&d.id, &first).await, "repeat"),
        Claim::Claimed {
            delivery: claimed.clone(),
            lost: None
        }
    );
    // Once the lease ends the second copy takes over; the first is reported lost, and
    // its record (same attempt id, old token) is refused.
    let second = claim_with_token(1, &a, "second-copy", lease, lease.plus_secs(30));
    let Claim::Claimed { delivery: taken, lost } = ok(store.claim_attempt(&d.id, &second).await, "takeover") else {
        panic!("takeover refused")
    };
    assert_eq!(lost, Some(first.clone()));
    // The takeover's own repeated call (its write committed, its answer lost)
    // still learns which attempt it took over, so that attempt is recorded.
    assert_eq!(
        ok(store.claim_attempt(&d.id, &second).await, "repeated takeover"),
        Claim::Claimed {
            delivery: taken.clone(),
            lost: Some(first.clone())
        }
    );
    let mut after = taken.clone();
    after.claim = None;
    after.status = DeliveryStatus::Succeeded;
    after.attempt_count = 1;
    after.settled_at = Some(lease);
    after.version = taken.version + 1;
    let att = sample_attempt(&d, &a, 1, now);
    conflict(
        store.record_attempt(&after, &att, &first).await,
        "the taken-over claimer's record under the same attempt id",
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "nothing recorded"), vec![]);
    ok(store.record_attempt(&after, &att, &second).await, "the holder's record");
    assert_eq!(ok(store.get_delivery(&d.id).await, "recorded"), Some(after));
}

/// Recording an outcome writes only what it owns: a dead-letter mark set while the
/// attempt was in flight survives, and the version moves on from the stored one.
pub async fn record_keeps_dead_letter_mark<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 6}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let a = ids.attempt();
    let claim = test_claim(1, &a, T0, T0.plus_secs(30));
    let Claim::Claimed { delivery: claimed, .. } = ok(store.claim_attempt(&d.id, &claim).await, "claim") else {
        panic!("claim refused")
    };
    // The dead-letter handler marks the delivery meanwhile (a versioned update).
    let mut marked = claimed.clone();
    marked.dead_lettered_at = Some(T0.plus_secs(2));
    marked.version = claimed.version + 1;
    ok(store.update_delivery(&marked, claimed.version).await, "mark");
    let mut after = claimed.clone();
    after.claim = None;
    after.status = DeliveryStatus::Retrying;
    after.attempt_count = 1;
    after.next_attempt = 2;
    after.next_attempt_at = Some(T0.plus_secs(30));
    after.version = claimed.version + 1;
    let att = sample_attempt(&d, &a, 1, T0);
    ok(
        store.record_attempt(&after, &att, &claim).await,
        "record after the mark",
    );
    let mut expected = after.clone();
    expected.dead_lettered_at = marked.dead_lettered_at;
    expected.version = marked.version + 1;
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after record"),
        Some(expected),
        "the mark survives the record and the version moves past the mark's"
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "recorded"), vec![att]);
}

/// A delivery's attempts in bounded reads: pages oldest first, one by id, the last.
pub async fn attempt_pages<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep, &ep], T0, serde_json::json!({"k": 7}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let (d, other) = (f.deliveries[0].clone(), f.deliveries[1].clone());
    let empty = ok(store.list_attempts_page(&d.id, None, 10).await, "no attempts yet");
    assert_eq!(
        empty,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
    assert_eq!(ok(store.last_attempt(&d.id).await, "no last attempt"), None);
    let mut recorded = Vec::new();
    for number in 1..=5u32 {
        let at = T0.plus_secs(i64::from(number));
        let a = ids.attempt();
        let claim = test_claim(number, &a, at, at.plus_secs(30));
        let Claim::Claimed { delivery: claimed, .. } = ok(store.claim_attempt(&d.id, &claim).await, "claim") else {
            panic!("claim {number} refused")
        };
        let mut after = claimed.clone();
        after.claim = None;
        after.status = DeliveryStatus::Retrying;
        after.attempt_count = number;
        after.next_attempt = number + 1;
        after.version = claimed.version + 1;
        let att = sample_attempt(&d, &a, number, at);
        ok(store.record_attempt(&after, &att, &claim).await, "record");
        recorded.push(att);
    }
    let id = &d.id;
    let pages = all_pages(2, |cursor, limit| async move {
        store.list_attempts_page(id, cursor.as_deref(), limit).await
    })
    .await;
    assert_eq!(
        pages,
        vec![recorded[0..2].to_vec(), recorded[2..4].to_vec(), recorded[4..].to_vec()],
        "pages of two, oldest first"
    );
    let first = ok(store.list_attempts_page(&d.id, None, 2).await, "first page");
    assert_eq!(first.items.len(), 2);
    let cursor = first.next_cursor.unwrap_or_default();
    bad_cursor(
        store.list_attempts_page(&other.id, Some(&cursor), 2).await,
        "another delivery's attempts cursor",
    );
    for garbage in ["not-a-cursor", "", "%%", "zz", "00"] {
        bad_cursor(store.list_attempts_page(&d.id, Some(garbage), 2).await, garbage);
    }
    let log = ok(
        store.list_deliveries(&ep, None, None, None, None, 1).await,
        "the endpoint's log",
    );
    bad_cursor(
        store.list_attempts_page(&d.id, log.next_cursor.as_deref(), 2).await,
        "a delivery log cursor on the attempts",
    );
    assert_eq!(
        ok(store.get_attempt(&d.id, &recorded[2].id).await, "by id"),
        Some(recorded[2].clone())
    );
    assert_eq!(
        ok(
            store.get_attempt(&other.id, &recorded[2].id).await,
            "another delivery's"
        ),
        None
    );
    assert_eq!(ok(store.get_attempt(&d.id, &ids.attempt()).await, "unknown id"), None);
    assert_eq!(
        ok(store.last_attempt(&d.id).await, "the last attempt"),
        Some(recorded[4].clone())
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "all of them"), recorded);
}

/// Optimistic versions on deliveries.
pub async fn delivery_versions<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 3}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();

    let mut v1 = d.clone();
    v1.status = DeliveryStatus::Pending;
    v1.trigger = Trigger::Redelivery;
    v1.next_attempt = 4;
    v1.dead_reason = Some("max_attempts".to_owned());
    v1.version = 1;
    ok(store.update_delivery(&v1, 0).await, "update at version 0");
    assert_eq!(ok(store.get_delivery(&d.id).await, "after update"), Some(v1.clone()));
    ok(
        store.update_delivery(&v1, 0).await,
        "repeating the same update (a retried call)",
    );
    let mut stale = d.clone();
    stale.version = 1;
    conflict(store.update_delivery(&stale, 0).await, "stale update");
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after stale update"),
        Some(v1.clone())
    );
    let ghost = sample_delivery(&f.event, &ep, &ids.delivery(), T0, "{}".to_owned());
    conflict(store.update_delivery(&ghost, 0).await, "update of a missing delivery");
    assert_eq!(ok(store.get_delivery(&ghost.id).await, "update created nothing"), None);
}

/// A hold of the next attempt is noted on the delivery (`throttled_until`) only
/// while that attempt could be claimed, leaves the version alone, and the claim
/// clears it.
pub async fn hold_notes<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 4}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let until = T0.plus_millis(1_500);

    assert!(
        !ok(store.note_hold(&d.id, 2, until, T0).await, "note for another attempt"),
        "attempt 2 is not the next one"
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after a refused note"),
        Some(d.clone())
    );
    assert!(
        ok(store.note_hold(&d.id, 1, until, T0).await, "note for attempt 1"),
        "the next attempt is claimable"
    );
    let noted = Delivery {
        throttled_until: Some(until),
        ..d.clone()
    };
    assert_eq!(ok(store.get_delivery(&d.id).await, "after the note"), Some(noted));
    // A later hold moves it on.
    let later = T0.plus_millis(2_000);
    assert!(ok(
        store.note_hold(&d.id, 1, later, T0.plus_millis(1_500)).await,
        "second note"
    ));
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after the second note").and_then(|d| d.throttled_until),
        Some(later)
    );

    let attempt = ids.attempt();
    let claim = test_claim(1, &attempt, later, later.plus_millis(30_000));
    let claimed = match ok(store.claim_attempt(&d.id, &claim).await, "claim") {
        Claim::Claimed { delivery, lost } => {
            assert_eq!(lost, None);
            delivery
        }
        Claim::Refused(other) => panic!("claim refused: {other:?}"),
    };
    assert_eq!(claimed.throttled_until, None, "the claim answers without the note");
    let stored = ok(store.get_delivery(&d.id).await, "after the claim").expect("delivery");
    assert_eq!(stored.throttled_until, None, "the claim clears the note");
    assert_eq!(stored.version, d.version + 1, "only the claim moved the version");
    assert!(
        !ok(
            store.note_hold(&d.id, 1, later.plus_millis(1_000), later).await,
            "note under a live claim"
        ),
        "a claimed attempt is no longer held"
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after the refused note").and_then(|d| d.throttled_until),
        None
    );
    let ghost = ids.delivery();
    assert!(!ok(
        store.note_hold(&ghost, 1, until, T0).await,
        "note on a missing delivery"
    ));
    assert_eq!(ok(store.get_delivery(&ghost).await, "the note created nothing"), None);
}

/// Idempotency keys: the first writer wins until its record expires.
pub async fn idempotency<S: IdempotencyStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let key = format!("{}#events#order-17", ids.tenant());
    let first = IdempotencyRecord {
        key: key.clone(),
        request_hash: "aa".repeat(32),
        status: 202,
        response_body: r#"{"eventId":"evt_1"}"#.to_owned(),
        created_at: T0,
        expires_at: T0.plus_secs(3600).millis() / 1000,
    };
    assert_eq!(ok(store.put_idempotency(&first).await, "first put"), None);
    let mut second = first.clone();
    second.request_hash = "bb".repeat(32);
    second.status = 409;
    assert_eq!(
        ok(store.put_idempotency(&second).await, "second put"),
        Some(first.clone())
    );
    assert_eq!(
        ok(store.put_idempotency(&second).await, "third put"),
        Some(first.clone())
    );
    let mut elsewhere = first.clone();
    elsewhere.key = format!("{key}-2");
    assert_eq!(ok(store.put_idempotency(&elsewhere).await, "other key"), None);

    // Once expired, the key is free again.
    clock.set(T0.plus_secs(3600));
    let mut later = second.clone();
    later.created_at = T0.plus_secs(3600);
    later.expires_at = T0.plus_secs(7200).millis() / 1000;
    assert_eq!(ok(store.put_idempotency(&later).await, "put after expiry"), None);
    assert_eq!(ok(store.put_idempotency(&first).await, "put after re-put"), Some(later));
}

/// The endpoint's delivery log: newest first, status filter, [since, until), pages.
pub async fn delivery_log<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let (ep, other) = (ids.endpoint(), ids.endpoint());
    let statuses = [
        DeliveryStatus::Succeeded,
        DeliveryStatus::Failed,
        DeliveryStatus::Pending,
        DeliveryStatus::Failed,
        DeliveryStatus::Retrying,
        DeliveryStatus::Failed,
        DeliveryStatus::Succeeded,
    ];
    let mut mine = Vec::new();
    for (i, status) in statuses.iter().enumerate() {
        // Two deliveries share each second: ties are ordered by id, newest first.
        let at = T0.plus_secs(10 * (i as i64 / 2));
        let mut f = fixture(&ids, &tenant, &[&ep, &other], at, serde_json::json!({"i": i}));
        f.deliveries[0].status = *status;
        ok(store.create_event(&f.event, &f.deliveries).await, "create event");
        mine.push(f.deliveries[0].clone());
    }
    mine.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));

    let all = ok(
        store.list_deliveries(&ep, None, None, None, None, 100).await,
        "list all",
    );
    assert_eq!(all.items, mine, "newest first, ties by id descending");
    assert_eq!(all.next_cursor, None);

    let pages = all_pages(3, |c, l| {
        let ep = ep.clone();
        async move { store.list_deliveries(&ep, None, None, None, c.as_deref(), l).await }
    })
    .await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![3, 3, 1]);
    assert_eq!(pages.concat(), mine);

    let failed: Vec<Delivery> = mine
        .iter()
        .filter(|d| d.status == DeliveryStatus::Failed)
        .cloned()
        .collect();
    assert_eq!(failed.len(), 3);
    let got = ok(
        store.list_deliveries(&ep, Some("failed"), None, None, None, 100).await,
        "status filter",
    );
    assert_eq!(got.items, failed);
    let pages = all_pages(2, |c, l| {
        let ep = ep.clone();
        async move {
            store
                .list_deliveries(&ep, Some("failed"), None, None, c.as_deref(), l)
                .await
        }
    })
    .await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 1]);
    assert_eq!(pages.concat(), failed);
    let none = ok(
        store.list_deliveries(&ep, Some("bogus"), None, None, None, 100).await,
        "unknown status",
    );
    assert_eq!(
        none,
        Page {
            items: vec![],
            next_cursor: None
        }
    );

    // [since, until): since inclusive, until exclusive.
    let (since, until) = (T0.plus_secs(10), T0.plus_secs(30));
    let window: Vec<Delivery> = mine
        .iter()
        .filter(|d| d.created_at >= since && d.created_at < until)
        .cloned()
        .collect();
    assert_eq!(window.len(), 4);
    let got = ok(
        store
            .list_deliveries(&ep, None, Some(since), Some(until), None, 100)
            .await,
        "window",
    );
    assert_eq!(got.items, window);
    let pages = all_pages(3, |c, l| {
        let ep = ep.clone();
        async move {
            store
                .list_deliveries(&ep, None, Some(since), Some(until), c.as_deref(), l)
                .await
        }
    })
    .await;
    assert_eq!(pages.concat(), window);
    let got = ok(
        store
            .list_deliveries(&ep, Some("failed"), Some(since), None, None, 100)
            .await,
        "status and since",
    );
    let expect: Vec<Delivery> = failed.iter().filter(|d| d.created_at >= since).cloned().collect();
    assert_eq!(got.items, expect);
    let got = ok(
        store.list_deliveries(&ep, None, None, Some(T0), None, 100).await,
        "until excludes its instant",
    );
    assert_eq!(got.items, vec![]);

    // The status index follows updates.
    let mut moved = mine[0].clone();
    moved.status = DeliveryStatus::Failed;
    moved.version += 1;
    ok(store.update_delivery(&moved, mine[0].version).await, "update status");
    let got = ok(
        store.list_deliveries(&ep, Some("failed"), None, None, None, 100).await,
        "after status change",
    );
    let mut expect = vec![moved.clone()];
    expect.extend(failed.iter().cloned());
    assert_eq!(got.items, expect);
    let got = ok(
        store
            .list_deliveries(&ep, Some(mine[0].status.as_str()), None, None, None, 100)
            .await,
        "old status",
    );
    assert!(
        !got.items.iter().any(|d| d.id == moved.id),
        "the old status no longer lists it"
    );

    // A cursor continues only the list that handed it out: not another endpoint's,
    // not another status's, and not from a key outside the window asked for.
    let page = ok(store.list_deliveries(&ep, None, None, None, None, 2).await, "a page");
    let cursor = page.next_cursor.unwrap_or_default();
    bad_cursor(
        store.list_deliveries(&other, None, None, None, Some(&cursor), 2).await,
        "another endpoint's cursor",
    );
    bad_cursor(
        store
            .list_deliveries(&ep, Some("failed"), None, None, Some(&cursor), 2)
            .await,
        "the whole log's cursor on a status list",
    );
    bad_cursor(
        store
            .list_deliveries(&ep, Some("succeeded"), None, None, Some(&cursor), 2)
            .await,
        "the whole log's cursor on the succeeded list",
    );
    // The first page ends with a delivery made at T0 + 20 s: outside a window that
    // ends there or starts later, inside one that starts earlier.
    bad_cursor(
        store
            .list_deliveries(&ep, None, None, Some(T0.plus_secs(20)), Some(&cursor), 2)
            .await,
        "a cursor past the window's end",
    );
    bad_cursor(
        store
            .list_deliveries(&ep, None, Some(T0.plus_secs(31)), None, Some(&cursor), 2)
            .await,
        "a cursor before the window's start",
    );
    let rest = ok(
        store
            .list_deliveries(&ep, None, Some(T0), None, Some(&cursor), 100)
            .await,
        "a cursor inside a wider window",
    );
    assert_eq!(rest.items.len(), mine.len() - 2);
    bad_cursor(
        store
            .list_deliveries(&ep, None, None, None, Some("not-a-cursor"), 2)
            .await,
        "garbage",
    );
}

/// The tenant's audit log: events newest first, per endpoint, [since, until), pages.
pub async fn audit_log<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let (tenant, other_tenant) = (ids.tenant(), ids.tenant());
    let (ep1, ep2) = (ids.endpoint(), ids.endpoint());
    let mut events = Vec::new();
    let mut with_ep1 = Vec::new();
    for i in 0..6i64 {
        let at = T0.plus_secs(60 * (i / 2));
        let targets: Vec<&EndpointId> = match i % 3 {
            0 => vec![&ep1],
            1 => vec![&ep2],
            _ => vec![&ep1, &ep2],
        };
        let f = fixture(&ids, &tenant, &targets, at, serde_json::json!({"i": i}));
        ok(store.create_event(&f.event, &f.deliveries).await, "create event");
        if let Some(d) = f.deliveries.iter().find(|d| d.endpoint_id == ep1) {
            with_ep1.push((d.id.clone(), f.event.clone()));
        }
        events.push(f.event);
    }
    // A replay to ep1 of its newest event: the event is listed once, under its
    // original delivery.
    let newest = with_ep1
        .last()
        .map(|(_, e)| e.clone())
        .unwrap_or_else(|| panic!("events"));
    let mut replay = sample_delivery(&newest, &ep1, &ids.delivery(), T0.plus_secs(600), sample_body(&newest));
    replay.trigger = Trigger::Replay;
    ok(store.create_delivery(&replay).await, "replay");
    let foreign = fixture(&ids, &other_tenant, &[&ep1], T0, serde_json::json!({}));
    ok(
        store.create_event(&foreign.event, &foreign.deliveries).await,
        "create foreign event",
    );
    let newest_first = |v: &mut Vec<EventRecord>| v.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
    newest_first(&mut events);
    // By endpoint: the endpoint's delivery log, newest delivery first.
    with_ep1.sort_by(|a, b| (b.1.created_at, &b.0).cmp(&(a.1.created_at, &a.0)));
    let with_ep1: Vec<EventRecord> = with_ep1.into_iter().map(|(_, e)| e).collect();

    let all = ok(
        store.list_events(&tenant, None, None, None, None, 100).await,
        "list all",
    );
    assert_eq!(all.items, events);
    assert_eq!(all.next_cursor, None);
    let pages = all_pages(4, |c, l| {
        let t = tenant.clone();
        async move { store.list_events(&t, None, None, None, c.as_deref(), l).await }
    })
    .await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![4, 2]);
    assert_eq!(pages.concat(), events);

    let got = ok(
        store.list_events(&tenant, Some(&ep1), None, None, None, 100).await,
        "one endpoint",
    );
    assert_eq!(got.items, with_ep1);
    let pages = all_pages(1, |c, l| {
        let (t, e) = (tenant.clone(), ep1.clone());
        async move { store.list_events(&t, Some(&e), None, None, c.as_deref(), l).await }
    })
    .await;
    assert_eq!(pages.len(), with_ep1.len());
    assert_eq!(pages.concat(), with_ep1);
    // The log's own cursor does not continue the events list, nor the other way.
    let log = ok(store.list_deliveries(&ep1, None, None, None, None, 1).await, "log page");
    let events_page = ok(
        store.list_events(&tenant, Some(&ep1), None, None, None, 1).await,
        "events page",
    );
    bad_cursor(
        store
            .list_events(&tenant, Some(&ep1), None, None, log.next_cursor.as_deref(), 1)
            .await,
        "the log's cursor",
    );
    bad_cursor(
        store
            .list_deliveries(&ep1, None, None, None, events_page.next_cursor.as_deref(), 1)
            .await,
        "the events list's cursor",
    );

    let (since, until) = (T0.plus_secs(60), T0.plus_secs(120));
    let window: Vec<EventRecord> = events
        .iter()
        .filter(|e| e.created_at >= since && e.created_at < until)
        .cloned()
        .collect();
    assert_eq!(window.len(), 2);
    let got = ok(
        store
            .list_events(&tenant, None, Some(since), Some(until), None, 100)
            .await,
        "window",
    );
    assert_eq!(got.items, window);
    let got = ok(
        store
            .list_events(&tenant, Some(&ep1), Some(since), Some(until), None, 100)
            .await,
        "window+ep",
    );
    let expect: Vec<EventRecord> = with_ep1
        .iter()
        .filter(|e| e.created_at >= since && e.created_at < until)
        .cloned()
        .collect();
    assert_eq!(got.items, expect);

    let got = ok(
        store
            .list_events(&other_tenant, Some(&ep1), None, None, None, 100)
            .await,
        "other tenant",
    );
    assert_eq!(got.items, vec![foreign.event]);
    let got = ok(
        store
            .list_events(&tenant, Some(&ids.endpoint()), None, None, None, 100)
            .await,
        "no events",
    );
    assert_eq!(
        got,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
}

/// TTL: an item whose `expires_at <= now` is absent from every read and condition.
pub async fn expiry<S: DeliveryStore + IdempotencyStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let ttl = T0.plus_secs(600).millis() / 1000;

    let mut f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"ttl": true}));
    f.event.expires_at = Some(ttl);
    f.deliveries[0].expires_at = Some(ttl);
    ok(
        store.create_event(&f.event, &f.deliveries).await,
        "create expiring event",
    );
    let d = f.deliveries[0].clone();

    let a1 = ids.attempt();
    let Claim::Claimed { delivery: claimed, .. } = ok(
        store
            .claim_attempt(&d.id, &test_claim(1, &a1, T0, T0.plus_secs(60)))
            .await,
        "claim",
    ) else {
        panic!("claim refused")
    };
    let mut att = sample_attempt(&d, &a1, 1, T0);
    att.expires_at = Some(ttl);
    let mut after = claimed.clone();
    after.claim = None;
    after.attempt_count = 1;
    after.next_attempt = 2;
    after.version += 1;
    ok(store.record_attempt(&after, &att, &held(&a1)).await, "record");

    clock.set(Timestamp::from_secs(ttl).plus_millis(-1));
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "live a moment before"),
        Some(after.clone())
    );
    assert_eq!(
        ok(store.get_event(&tenant, &f.event.id).await, "event live"),
        Some(f.event.clone())
    );

    clock.set(Timestamp::from_secs(ttl));
    assert_eq!(ok(store.get_delivery(&d.id).await, "expired delivery"), None);
    assert_eq!(ok(store.get_event(&tenant, &f.event.id).await, "expired event"), None);
    assert_eq!(ok(store.list_attempts(&d.id).await, "expired attempts"), vec![]);
    let log = ok(
        store.list_deliveries(&ep, None, None, None, None, 100).await,
        "expired log",
    );
    assert_eq!(
        log,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
    let audit = ok(
        store.list_events(&tenant, None, None, None, None, 100).await,
        "expired audit",
    );
    assert_eq!(
        audit,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
    let audit = ok(
        store.list_events(&tenant, Some(&ep), None, None, None, 100).await,
        "expired audit by endpoint",
    );
    assert_eq!(
        audit,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
    let now = clock.now();
    let r = ok(
        store
            .claim_attempt(&d.id, &test_claim(2, &ids.attempt(), now, now.plus_secs(60)))
            .await,
        "claim expired",
    );
    assert_eq!(r, Claim::Refused(None));
    let mut bumped = after.clone();
    bumped.version += 1;
    conflict(store.update_delivery(&bumped, after.version).await, "update expired");

    // An expired id is free: creating over it succeeds and shows the new record.
    let mut again = f.deliveries[0].clone();
    again.expires_at = None;
    again.version = 0;
    let mut event2 = f.event.clone();
    event2.expires_at = None;
    event2.event_type = Some("order.recreated".to_owned());
    ok(
        store.create_event(&event2, std::slice::from_ref(&again)).await,
        "create over expired ids",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "recreated"), Some(again));
    assert_eq!(
        ok(store.get_event(&tenant, &event2.id).await, "recreated event"),
        Some(event2)
    );
}

/// 256 KiB payloads (and envelope bodies a little larger) round-trip byte for byte
/// through every read, claim and record, with several deliveries sharing them.
pub async fn large_payload<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let eps: Vec<EndpointId> = (0..3).map(|_| ids.endpoint()).collect();
    let refs: Vec<&EndpointId> = eps.iter().collect();
    let payload = payload_of_size(MAX_PAYLOAD);
    assert_eq!(payload.to_string().len(), MAX_PAYLOAD);
    let f = fixture(&ids, &tenant, &refs, T0, payload);
    assert!(f.deliveries[0].body.len() > MAX_PAYLOAD);
    ok(store.create_event(&f.event, &f.deliveries).await, "create large event");
    assert_eq!(
        ok(store.get_event(&tenant, &f.event.id).await, "get large event"),
        Some(f.event.clone())
    );
    for d in &f.deliveries {
        assert_eq!(
            ok(store.get_delivery(&d.id).await, "get large delivery"),
            Some(d.clone())
        );
    }
    let d = f.deliveries[0].clone();
    let a1 = ids.attempt();
    let Claim::Claimed { delivery: claimed, .. } = ok(
        store
            .claim_attempt(&d.id, &test_claim(1, &a1, T0, T0.plus_secs(60)))
            .await,
        "claim large",
    ) else {
        panic!("claim refused")
    };
    assert_eq!(claimed.body, d.body);
    let mut after = claimed.clone();
    after.claim = None;
    after.status = DeliveryStatus::Succeeded;
    after.attempt_count = 1;
    after.version += 1;
    ok(
        store
            .record_attempt(&after, &sample_attempt(&d, &a1, 1, T0), &held(&a1))
            .await,
        "record large",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "after record"), Some(after.clone()));

    // A body replaced by an update (a different envelope) round-trips too.
    let mut rebody = after.clone();
    rebody.body = sample_body(&f.event).replace("scheduled", "redelivery").into();
    rebody.version += 1;
    ok(
        store.update_delivery(&rebody, after.version).await,
        "update with a new large body",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "new body"), Some(rebody.clone()));

    let log = ok(
        store.list_deliveries(&eps[0], None, None, None, None, 100).await,
        "large log",
    );
    assert_eq!(log.items, vec![rebody]);
    let log = ok(
        store.list_deliveries(&eps[1], None, None, None, None, 100).await,
        "large log 2",
    );
    assert_eq!(log.items, vec![f.deliveries[1].clone()]);
    let audit = ok(
        store.list_events(&tenant, Some(&eps[2]), None, None, None, 100).await,
        "large audit",
    );
    assert_eq!(audit.items, vec![f.event.clone()]);
    let audit = ok(
        store.list_events(&tenant, None, None, None, None, 100).await,
        "large audit",
    );
    assert_eq!(audit.items, vec![f.event]);
}

/// A delivery created with its event and marked by `shared_body::share` is stored
/// without its body, which the event holds once: reads give it back empty with the
/// body's hash, and writes of it (with the body put back by the sender, or empty)
/// keep it so. Every other delivery keeps its own body, as every delivery written
/// before did (the sections above: unmarked deliveries, inline or shared bodies).
pub async fn bodies_in_events<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    use crate::shared_body;
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    // One endpoint (two puts) and two (a transaction); a small and a large body.
    for (n, size) in [(1, 60), (2, 60), (1, MAX_PAYLOAD), (2, 9_000)] {
        let eps: Vec<EndpointId> = (0..n).map(|_| ids.endpoint()).collect();
        let refs: Vec<&EndpointId> = eps.iter().collect();
        let mut f = fixture(&ids, &tenant, &refs, T0, payload_of_size(size));
        shared_body::share(&mut f.deliveries);
        let body = f.deliveries[0].body.clone();
        let hash = shared_body::hash(&body);
        let case = format!("{n} endpoint(s), {size}-byte payload");
        ok(store.create_event(&f.event, &f.deliveries).await, &case);
        assert_eq!(
            ok(store.get_event(&tenant, &f.event.id).await, &case),
            Some(f.event.clone()),
            "{case}"
        );
        assert_eq!(
            ok(store.event_body(&f.event.id).await, &case).as_deref(),
            Some(&*body),
            "{case}"
        );
        let bare = |d: &Delivery| Delivery {
            body: "".into(),
            body_hash: Some(hash.clone()),
            ..d.clone()
        };
        for d in &f.deliveries {
            assert_eq!(ok(store.get_delivery(&d.id).await, &case), Some(bare(d)), "{case}");
        }
        let log = ok(store.list_deliveries(&eps[0], None, None, None, None, 10).await, &case);
        assert_eq!(log.items, vec![bare(&f.deliveries[0])], "{case}");

        // The sender's round: claim (no body), record with the body put back.
        let d = &f.deliveries[0];
        let a1 = ids.attempt();
        let Claim::Claimed { delivery: claimed, .. } = ok(
            store
                .claim_attempt(&d.id, &test_claim(1, &a1, T0, T0.plus_secs(60)))
                .await,
            &case,
        ) else {
            panic!("{case}: claim refused")
        };
        assert_eq!(
            (&*claimed.body, claimed.body_hash.as_deref()),
            ("", Some(&*hash)),
            "{case}"
        );
        let mut after = Delivery {
            body: body.clone(),
            ..claimed.clone()
        };
        after.claim = None;
        after.status = DeliveryStatus::Succeeded;
        after.attempt_count = 1;
        after.next_attempt = 2;
        after.settled_at = Some(T0);
        after.expires_at = Some(T0.millis() / 1000 + 86_400);
        after.version += 1;
        let attempt = sample_attempt(d, &a1, 1, T0);
        ok(store.record_attempt(&after, &attempt, &held(&a1)).await, &case);
        // A repeat of the same record (an SDK retry) is the same success.
        ok(store.record_attempt(&after, &attempt, &held(&a1)).await, &case);
        assert_eq!(ok(store.get_delivery(&d.id).await, &case), Some(bare(&after)), "{case}");
        // An update with the body put back, and its repeat, store it no differently.
        let mut again = after.clone();
        again.status = DeliveryStatus::Pending;
        again.version += 1;
        ok(store.update_delivery(&again, after.version).await, &case);
        ok(store.update_delivery(&again, after.version).await, &case);
        assert_eq!(ok(store.get_delivery(&d.id).await, &case), Some(bare(&again)), "{case}");
        assert_eq!(
            ok(store.event_body(&f.event.id).await, &case).as_deref(),
            Some(&*body),
            "{case}"
        );
    }

    // Marked, but not the event's body (or written by another create call): a
    // delivery keeps its own body, and reads back as written, unmarked.
    let eps = [ids.endpoint(), ids.endpoint()];
    let mut f = fixture(&ids, &tenant, &[&eps[0], &eps[1]], T0, serde_json::json!({"k": "odd"}));
    f.deliveries[1].body = sample_body(&f.event).replace("scheduled", "replay").into();
    shared_body::share(&mut f.deliveries);
    ok(store.create_event(&f.event, &f.deliveries).await, "two bodies");
    let own = |d: &Delivery| Delivery {
        body_hash: None,
        ..d.clone()
    };
    assert_eq!(
        ok(store.get_delivery(&f.deliveries[1].id).await, "own body"),
        Some(own(&f.deliveries[1]))
    );
    assert_eq!(
        ok(store.get_delivery(&f.deliveries[0].id).await, "event's body").map(|d| d.body_hash),
        Some(f.deliveries[0].body_hash.clone())
    );
    let mut replay = sample_delivery(&f.event, &eps[0], &ids.delivery(), T0, sample_body(&f.event));
    shared_body::share(std::slice::from_mut(&mut replay));
    ok(store.create_delivery(&replay).await, "replay");
    assert_eq!(ok(store.get_delivery(&replay.id).await, "replay"), Some(own(&replay)));

    // No body for an event that stores none, or none at all.
    let plain = fixture(&ids, &tenant, &[&ids.endpoint()], T0, serde_json::json!({"k": 2}));
    ok(store.create_event(&plain.event, &plain.deliveries).await, "plain");
    assert_eq!(ok(store.event_body(&plain.event.id).await, "plain"), None);
    assert_eq!(ok(store.event_body(&ids.event()).await, "unknown"), None);
}

// ---------------------------------------------------------------------------------
// Queue and timer
// ---------------------------------------------------------------------------------

/// How the queue contract observes a queue: take what is visible, let time pass.
#[async_trait]
pub trait QueueProbe: Send + Sync {
    /// Removes and returns every message visible now.
    async fn take_visible(&self) -> PortResult<Vec<QueueMessage>>;
    /// Lets `secs` seconds pass (a manual clock advances; a real queue sleeps).
    async fn wait(&self, secs: u32);
}

/// [`QueueProbe`] over a [`MemoryQueue`] and the manual clock it reads.
pub struct MemoryQueueProbe<'a> {
    pub queue: &'a MemoryQueue,
    pub clock: &'a ManualClock,
}

#[async_trait]
impl QueueProbe for MemoryQueueProbe<'_> {
    async fn take_visible(&self) -> PortResult<Vec<QueueMessage>> {
        Ok(self
            .queue
            .drain_visible(self.clock.now())
            .into_iter()
            .map(|(m, _)| m)
            .collect())
    }
    async fn wait(&self, secs: u32) {
        self.clock.advance_secs(i64::from(secs));
    }
}

/// Messages arrive intact, not before their delay, and delays over 900 s are refused.
pub async fn queue_contract<Q: Queue, P: QueueProbe>(queue: &Q, probe: &P) {
    let ids = Ids::new();
    let (t, e) = (ids.tenant(), ids.endpoint());
    let now = T0;
    let m1 = sample_message(&ids.delivery(), &t, &e, 1, now);
    let mut m2 = sample_message(&ids.delivery(), &t, &e, 3, now.plus_secs(2));
    m2.trigger = Trigger::Redelivery;
    m2.source_attempt_id = Some(ids.attempt());
    let m3 = sample_message(&ids.delivery(), &t, &e, 2, now);

    ok(queue.send(&m1, 0).await, "send without delay");
    ok(queue.send(&m3, 0).await, "send another without delay");
    ok(queue.send(&m2, 3).await, "send with delay");
    backend(queue.send(&m1, 901).await, "a delay over 900 s");

    let mut got = ok(probe.take_visible().await, "take visible");
    got.sort_by(|a, b| a.delivery_id.cmp(&b.delivery_id));
    let mut expect = vec![m1, m3];
    expect.sort_by(|a, b| a.delivery_id.cmp(&b.delivery_id));
    assert_eq!(
        got, expect,
        "undelayed messages are visible at once, the delayed one is not"
    );
    probe.wait(4).await;
    assert_eq!(
        ok(probe.take_visible().await, "take after delay"),
        vec![m2],
        "the delayed message arrives"
    );
    assert_eq!(
        ok(probe.take_visible().await, "take again"),
        vec![],
        "taken messages are gone"
    );
}

/// How the timer contract observes schedules (the local runner's view of Scheduler).
#[async_trait]
pub trait TimerProbe: Send + Sync {
    /// Schedules due at `now` (`at <= now`), earliest first, then by name.
    async fn due(&self, now: Timestamp) -> PortResult<Vec<(String, QueueMessage)>>;
    /// Removes a schedule (as firing with ActionAfterCompletion DELETE does).
    async fn delete(&self, name: &str) -> PortResult<()>;
}

#[async_trait]
impl TimerProbe for MemoryTimer {
    async fn due(&self, now: Timestamp) -> PortResult<Vec<(String, QueueMessage)>> {
        Ok(MemoryTimer::due(self, now)
            .into_iter()
            .map(|s| (s.name, s.message))
            .collect())
    }
    async fn delete(&self, name: &str) -> PortResult<()> {
        MemoryTimer::delete(self, name);
        Ok(())
    }
}

/// The schedules of `due` named in `names` (other tests' schedules may share the
/// group), in `due`'s order.
fn named(due: Vec<(String, QueueMessage)>, names: &[&str]) -> Vec<(String, QueueMessage)> {
    due.into_iter().filter(|(n, _)| names.contains(&n.as_str())).collect()
}

/// One-shot schedules by name: idempotent, due exactly from their second on,
/// reusable once deleted. (Use whole seconds: Scheduler's `at()` has no finer grain.)
pub async fn timer_contract<T: Timer, P: TimerProbe>(timer: &T, probe: &P) {
    let ids = Ids::new();
    let (t, e) = (ids.tenant(), ids.endpoint());
    let d1 = ids.delivery();
    let at1 = T0.plus_secs(3600);
    let at2 = T0.plus_secs(7200);
    let m1 = sample_message(&d1, &t, &e, 2, at1.plus_secs(30));
    let m1b = sample_message(&d1, &t, &e, 2, at2);
    let m2 = sample_message(&ids.delivery(), &t, &e, 5, at2.plus_secs(30));
    let (n1, n2) = (m1.step_name(), m2.step_name());

    ok(timer.schedule(&n1, at1, &m1).await, "schedule");
    ok(
        timer.schedule(&n1, at2, &m1b).await,
        "repeat with the same name is a no-op",
    );
    ok(timer.schedule(&n2, at2, &m2).await, "schedule another");
    backend(
        timer.schedule("not a valid name!", at1, &m1).await,
        "an invalid schedule name",
    );
    backend(timer.schedule(&"x".repeat(65), at1, &m1).await, "a 65-character name");

    let mine = |v: Vec<(String, QueueMessage)>| named(v, &[&n1, &n2]);
    assert_eq!(
        mine(ok(probe.due(at1.plus_secs(-1)).await, "due early")),
        vec![],
        "not due a second early"
    );
    assert_eq!(
        mine(ok(probe.due(at1).await, "due at its second")),
        vec![(n1.clone(), m1.clone())],
        "due at its second, and the first schedule stays as it was created"
    );
    assert_eq!(
        mine(ok(probe.due(at2.plus_secs(-1)).await, "one due")),
        vec![(n1.clone(), m1.clone())]
    );
    assert_eq!(
        mine(ok(probe.due(at2).await, "both due")),
        vec![(n1.clone(), m1.clone()), (n2.clone(), m2.clone())],
        "earliest first"
    );
    ok(probe.delete(&n1).await, "delete");
    assert_eq!(
        mine(ok(probe.due(at2).await, "after delete")),
        vec![(n2.clone(), m2.clone())]
    );
    ok(
        timer.schedule(&n1, at2, &m1b).await,
        "a deleted name can be scheduled again",
    );
    assert_eq!(
        mine(ok(probe.due(at2.plus_secs(-1)).await, "rescheduled later")),
        vec![]
    );
    let mut expect = vec![(n1.clone(), m1b), (n2.clone(), m2)];
    expect.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        mine(ok(probe.due(at2).await, "rescheduled")),
        expect,
        "same second: by name"
    );
    ok(probe.delete(&n1).await, "delete");
    ok(probe.delete(&n2).await, "delete");
    ok(probe.delete(&n2).await, "deleting a deleted schedule is fine");
    assert_eq!(mine(ok(probe.due(at2).await, "all deleted")), vec![]);

    // Many pending at once (more than an adapter reads side by side), created out of
    // time order: exactly the due ones come back, earliest first.
    let base = T0.plus_secs(10_800);
    let many: Vec<(String, Timestamp, QueueMessage)> = (0..40i64)
        .map(|i| {
            let at = base.plus_secs((i * 7) % 40);
            let m = sample_message(&ids.delivery(), &t, &e, 2, at);
            (m.step_name(), at, m)
        })
        .collect();
    for (name, at, m) in &many {
        ok(timer.schedule(name, *at, m).await, "schedule one of many");
    }
    let names: Vec<&str> = many.iter().map(|(n, _, _)| n.as_str()).collect();
    let ours = |v: Vec<(String, QueueMessage)>| named(v, &names);
    let mut due: Vec<&(String, Timestamp, QueueMessage)> =
        many.iter().filter(|(_, at, _)| *at <= base.plus_secs(24)).collect();
    due.sort_by_key(|(_, at, _)| *at);
    assert_eq!(due.len(), 25);
    assert_eq!(
        ours(ok(probe.due(base.plus_secs(24)).await, "many pending")),
        due.iter().map(|(n, _, m)| (n.clone(), m.clone())).collect::<Vec<_>>(),
        "of many pending, the due ones, earliest first"
    );
    for (name, _, _) in &many {
        ok(probe.delete(name).await, "delete one of many");
    }
    assert_eq!(ours(ok(probe.due(base.plus_secs(40)).await, "many deleted")), vec![]);
}

// ---------------------------------------------------------------------------------
// Applications and event types
// ---------------------------------------------------------------------------------

pub fn sample_application(tenant: &TenantId, id: &str, uid: Option<&str>) -> crate::model::Application {
    crate::model::Application {
        id: id.to_owned(),
        tenant_id: tenant.clone(),
        name: format!("customer {id}"),
        uid: uid.map(str::to_owned),
        metadata: Some(serde_json::json!({"plan": "pro"})),
        created_at: T0,
        updated_at: T0,
        version: 1,
        portal: Default::default(),
        live_endpoints: 0,
    }
}

/// Applications: create conflicts (id, uid per tenant), lookups by id and uid,
/// versioned updates that move the uid, deletes that free it, and pages bound to
/// their tenant and list.
pub async fn applications<S: crate::ports::ApplicationStore>(store: &S) {
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let a = sample_application(&tenant, "app_a1", Some("cust-1"));
    store.create_application(&a).await.expect("create");
    assert_eq!(
        store.get_application(&tenant, "app_a1").await.expect("get"),
        Some(a.clone())
    );
    assert_eq!(store.get_application(&other, "app_a1").await.expect("get"), None);
    assert_eq!(
        store.get_application_by_uid(&tenant, "cust-1").await.expect("uid"),
        Some(a.clone())
    );
    assert_eq!(store.get_application_by_uid(&other, "cust-1").await.expect("uid"), None);
    assert!(matches!(
        store.create_application(&a).await,
        Err(PortError::Conflict(_))
    ));
    // The uid is unique per tenant, not across tenants.
    let taken = sample_application(&tenant, "app_a2", Some("cust-1"));
    assert!(matches!(
        store.create_application(&taken).await,
        Err(PortError::Conflict(_))
    ));
    assert_eq!(store.get_application(&tenant, "app_a2").await.expect("get"), None);
    let elsewhere = sample_application(&other, "app_a2", Some("cust-1"));
    store.create_application(&elsewhere).await.expect("other tenant");
    let b = sample_application(&tenant, "app_b1", None);
    store.create_application(&b).await.expect("no uid");

    // Update: version checked, uid moves, a taken uid refused.
    let mut a2 = a.clone();
    a2.uid = Some("cust-9".into());
    a2.name = "renamed".into();
    a2.version = 2;
    assert!(matches!(
        store.update_application(&a2, 7).await,
        Err(PortError::Conflict(_))
    ));
    store.update_application(&a2, 1).await.expect("update");
    assert_eq!(
        store.get_application_by_uid(&tenant, "cust-1").await.expect("uid"),
        None
    );
    assert_eq!(
        store.get_application_by_uid(&tenant, "cust-9").await.expect("uid"),
        Some(a2.clone())
    );
    let mut b2 = b.clone();
    b2.uid = Some("cust-9".into());
    b2.version = 2;
    assert!(matches!(
        store.update_application(&b2, 1).await,
        Err(PortError::Conflict(_))
    ));
    assert_eq!(
        store.get_application(&tenant, "app_b1").await.expect("get"),
        Some(b.clone())
    );

    // Pages: by id, the cursor bound to the tenant.
    let first = store.list_applications(&tenant, None, 1).await.expect("page");
    assert_eq!(first.items, vec![a2.clone()]);
    let cursor = first.next_cursor.expect("more");
    let second = store.list_applications(&tenant, Some(&cursor), 1).await.expect("page");
    assert_eq!(second.items, vec![b.clone()]);
    assert_eq!(second.next_cursor, None);
    assert!(matches!(
        store.list_applications(&other, Some(&cursor), 1).await,
        Err(PortError::BadCursor)
    ));
    assert!(matches!(
        store.list_applications(&tenant, Some("zz"), 1).await,
        Err(PortError::BadCursor)
    ));

    // Delete frees the uid.
    assert!(store.delete_application(&tenant, "app_a1").await.expect("delete"));
    assert!(!store.delete_application(&tenant, "app_a1").await.expect("delete again"));
    assert_eq!(store.get_application(&tenant, "app_a1").await.expect("get"), None);
    assert_eq!(
        store.get_application_by_uid(&tenant, "cust-9").await.expect("uid"),
        None
    );
    let reuse = sample_application(&tenant, "app_c1", Some("cust-9"));
    store.create_application(&reuse).await.expect("uid free again");
}

/// Event types: create conflicts per tenant, replace of existing ones only, pages
/// by name bound to their tenant and list.
/// Portal activity: kept per application (and apart for links without one), listed
/// newest first in pages bound to their list, never across tenants, an id once.
pub async fn portal_activity<S: crate::ports::ApplicationStore>(store: &S) {
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let entry = |t: &TenantId, app: Option<&str>, n: i64| crate::model::PortalActivity {
        id: format!("pa_{:013}{:016x}", T0.millis() + n, n),
        tenant_id: t.clone(),
        link_id: "pl_000000000000000000000001".to_owned(),
        application_id: app.map(str::to_owned),
        method: "PATCH".to_owned(),
        route: "PATCH /v1/endpoints/{id}".to_owned(),
        path: "/v1/endpoints/ep_x".to_owned(),
        fields: vec!["description".to_owned(), "url".to_owned()],
        status: 200,
        at: T0.plus_secs(n),
        // Far ahead: the DynamoDB adapter leaves expired items out of lists.
        expires_at: 4_000_000_000,
    };
    for n in 1..=3 {
        store
            .put_portal_activity(&entry(&tenant, Some("app_a1"), n))
            .await
            .expect("put");
    }
    store.put_portal_activity(&entry(&tenant, None, 4)).await.expect("put");
    store
        .put_portal_activity(&entry(&other, Some("app_a1"), 5))
        .await
        .expect("put");
    assert!(matches!(
        store.put_portal_activity(&entry(&tenant, Some("app_a1"), 2)).await,
        Err(PortError::Conflict(_))
    ));
    let first = store
        .list_portal_activity(&tenant, Some("app_a1"), None, 2)
        .await
        .expect("list");
    assert_eq!(
        first.items,
        vec![entry(&tenant, Some("app_a1"), 3), entry(&tenant, Some("app_a1"), 2)]
    );
    let cursor = first.next_cursor.expect("a second page");
    let second = store
        .list_portal_activity(&tenant, Some("app_a1"), Some(&cursor), 2)
        .await
        .expect("list");
    assert_eq!(second.items, vec![entry(&tenant, Some("app_a1"), 1)]);
    assert_eq!(second.next_cursor, None);
    assert_eq!(
        store
            .list_portal_activity(&tenant, None, None, 10)
            .await
            .expect("list")
            .items,
        vec![entry(&tenant, None, 4)]
    );
    assert_eq!(
        store
            .list_portal_activity(&other, Some("app_a1"), None, 10)
            .await
            .expect("list")
            .items,
        vec![entry(&other, Some("app_a1"), 5)]
    );
    assert!(
        store
            .list_portal_activity(&tenant, Some("app_zz"), None, 10)
            .await
            .expect("list")
            .items
            .is_empty()
    );
    // A cursor of one list does not continue another.
    assert!(matches!(
        store.list_portal_activity(&tenant, None, Some(&cursor), 2).await,
        Err(PortError::BadCursor)
    ));
}

pub async fn event_types<S: crate::ports::ApplicationStore>(store: &S) {
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let ty = |name: &str, t: &TenantId| crate::model::EventType {
        name: name.to_owned(),
        tenant_id: t.clone(),
        description: Some("paid".into()),
        deprecated: false,
        schema: Some(serde_json::json!({"type": "object", "required": ["amount"]})),
        example: None,
        created_at: T0,
        updated_at: T0,
    };
    let paid = ty("invoice.paid", &tenant);
    store.create_event_type(&paid).await.expect("create");
    assert!(matches!(
        store.create_event_type(&paid).await,
        Err(PortError::Conflict(_))
    ));
    store
        .create_event_type(&ty("invoice.paid", &other))
        .await
        .expect("other tenant");
    store.create_event_type(&ty("a.first", &tenant)).await.expect("create");
    assert_eq!(
        store.get_event_type(&tenant, "invoice.paid").await.expect("get"),
        Some(paid.clone())
    );
    assert_eq!(store.get_event_type(&tenant, "nope").await.expect("get"), None);
    let mut changed = paid.clone();
    changed.deprecated = true;
    changed.schema = None;
    store.update_event_type(&changed).await.expect("update");
    assert_eq!(
        store.get_event_type(&tenant, "invoice.paid").await.expect("get"),
        Some(changed.clone())
    );
    assert!(matches!(
        store.update_event_type(&ty("never.made", &tenant)).await,
        Err(PortError::Conflict(_))
    ));
    let first = store.list_event_types(&tenant, None, 1).await.expect("page");
    assert_eq!(first.items, vec![ty("a.first", &tenant)]);
    let cursor = first.next_cursor.expect("more");
    let second = store.list_event_types(&tenant, Some(&cursor), 5).await.expect("page");
    assert_eq!(second.items, vec![changed]);
    assert_eq!(second.next_cursor, None);
    assert!(matches!(
        store.list_event_types(&other, Some(&cursor), 1).await,
        Err(PortError::BadCursor)
    ));
}

// ---------------------------------------------------------------------------------
// Subscription index and fan-out writes
// ---------------------------------------------------------------------------------

fn entry_ids(entries: &[crate::ports::SubscriptionEntry]) -> Vec<EndpointId> {
    entries.iter().map(|e| e.endpoint_id.clone()).collect()
}

fn sorted(mut ids: Vec<EndpointId>) -> Vec<EndpointId> {
    ids.sort();
    ids
}

/// The index follows every endpoint write: entries per (tenant, application, key)
/// in endpoint id order and paged after an id; a filter change moves them, an
/// unchanged update keeps them, revoking removes them; endpoints are read by id in
/// the order asked.
pub async fn subscriptions<S>(store: &S, clock: &ManualClock)
where
    S: EndpointStore + crate::ports::SubscriptionIndex,
{
    let _ = clock;
    let ids = Ids::new();
    let tenant = ids.tenant();
    let app = Some("app_contract");
    let with = |filters: Option<&[&str]>, application: Option<&str>, channels: Option<&[&str]>| {
        let mut e = sample_endpoint(&tenant, &ids.endpoint(), T0);
        e.filter_types = filters.map(|f| f.iter().map(|s| (*s).to_owned()).collect());
        e.application_id = application.map(str::to_owned);
        e.channels = channels.map(|c| c.iter().map(|s| (*s).to_owned()).collect());
        e
    };
    let e1 = with(Some(&["invoice.*", "invoice.paid"]), app, None);
    let e2 = with(None, app, Some(&["eu"]));
    let e3 = with(None, None, None);
    let e4 = with(Some(&["order.*"]), app, None);
    for e in [&e1, &e2, &e3, &e4] {
        ok(store.create_endpoint(e).await, "create endpoint");
    }
    let read = |application: Option<&'static str>, key: &'static str, after: Option<EndpointId>, limit: u32| {
        let tenant = tenant.clone();
        async move {
            ok(
                store
                    .subscriptions(&tenant, application, key, after.as_ref(), limit)
                    .await,
                "read subscriptions",
            )
        }
    };
    let prefix = read(app, "p#invoice.", None, 10).await;
    assert_eq!(
        prefix,
        vec![crate::ports::SubscriptionEntry {
            endpoint_id: e1.id.clone(),
            keys: vec!["p#invoice.".to_owned(), "t#invoice.paid".to_owned()],
            channels: None,
        }]
    );
    assert_eq!(
        entry_ids(&read(app, "t#invoice.paid", None, 10).await),
        vec![e1.id.clone()]
    );
    let all = read(app, "*", None, 10).await;
    assert_eq!(entry_ids(&all), vec![e2.id.clone()]);
    assert_eq!(all[0].channels, Some(vec!["eu".to_owned()]));
    assert_eq!(entry_ids(&read(None, "*", None, 10).await), vec![e3.id.clone()]);
    assert_eq!(read(Some("app_other"), "*", None, 10).await, vec![]);
    assert_eq!(
        ok(
            store.subscriptions(&ids.tenant(), app, "*", None, 10).await,
            "other tenant"
        ),
        vec![]
    );

    // Pages after an id, in id order.
    let many: Vec<Endpoint> = (0..5).map(|_| with(None, Some("app_paged"), None)).collect();
    for e in &many {
        ok(store.create_endpoint(e).await, "create endpoint");
    }
    let want = sorted(many.iter().map(|e| e.id.clone()).collect());
    let p1 = entry_ids(&read(Some("app_paged"), "*", None, 2).await);
    let p2 = entry_ids(&read(Some("app_paged"), "*", p1.last().cloned(), 2).await);
    let p3 = entry_ids(&read(Some("app_paged"), "*", p2.last().cloned(), 2).await);
    assert_eq!([p1, p2, p3].concat(), want);

    // A filter change moves the entries, in the endpoint's own write.
    let mut moved = e1.clone();
    moved.filter_types = Some(vec!["order.*".to_owned()]);
    moved.version = 1;
    ok(store.update_endpoint(&moved, 0).await, "update filters");
    assert_eq!(read(app, "p#invoice.", None, 10).await, vec![]);
    assert_eq!(read(app, "t#invoice.paid", None, 10).await, vec![]);
    assert_eq!(
        entry_ids(&read(app, "p#order.", None, 10).await),
        sorted(vec![e1.id.clone(), e4.id.clone()])
    );
    // A stale version changes nothing.
    let mut stale = e1.clone();
    stale.filter_types = None;
    stale.version = 1;
    conflict(store.update_endpoint(&stale, 0).await, "stale update");
    assert_eq!(read(app, "*", None, 10).await.len(), 1);
    // An update that leaves the subscription alone keeps the entries.
    let mut touched = moved.clone();
    touched.description = Some("touched".into());
    touched.version = 2;
    ok(store.update_endpoint(&touched, 1).await, "update description");
    assert_eq!(
        entry_ids(&read(app, "p#order.", None, 10).await),
        sorted(vec![e1.id.clone(), e4.id.clone()])
    );
    // Channels change in place; moving to another application moves the entries.
    let mut eu = e2.clone();
    eu.channels = Some(vec!["us".to_owned()]);
    eu.version = 1;
    ok(store.update_endpoint(&eu, 0).await, "update channels");
    assert_eq!(read(app, "*", None, 10).await[0].channels, Some(vec!["us".to_owned()]));
    let mut elsewhere = eu.clone();
    elsewhere.application_id = Some("app_other".to_owned());
    elsewhere.version = 2;
    ok(store.update_endpoint(&elsewhere, 1).await, "move application");
    assert_eq!(read(app, "*", None, 10).await, vec![]);
    assert_eq!(
        entry_ids(&read(Some("app_other"), "*", None, 10).await),
        vec![e2.id.clone()]
    );
    // Revoked: no entries.
    let mut revoked = e4.clone();
    revoked.state = EndpointState::Revoked;
    revoked.version = 1;
    ok(store.update_endpoint(&revoked, 0).await, "revoke");
    assert_eq!(entry_ids(&read(app, "p#order.", None, 10).await), vec![e1.id.clone()]);

    let got = ok(
        store
            .get_endpoints(&tenant, &[e3.id.clone(), ids.endpoint(), e1.id.clone()])
            .await,
        "get endpoints",
    );
    assert_eq!(got, vec![e3.clone(), touched.clone()]);
}

/// A schedule's occurrence: its event's occurrence marks and its deliveries' own
/// settings and empty body (payload unavailable) are kept as written, by both
/// writes of an event's deliveries.
pub async fn occurrence_records<S: DeliveryStore>(store: &S) {
    use crate::model::{DeliverySettings, OccurrenceOf};
    let ids = Ids::new();
    let tenant = ids.tenant();
    let mut rng = courier_core::rng::SplitMix64::new(7);
    let mut event = sample_event(&tenant, &ids.event(), T0, serde_json::Value::Null);
    let settings = DeliverySettings {
        latency_class: Some(courier_core::decide::LatencyClass::Bulk),
        long_running_allowance_seconds: Some(120),
    };
    event.occurrence = Some(OccurrenceOf {
        schedule_id: courier_core::ids::ScheduleId::generate(T0, &mut rng),
        settings,
        payload_unavailable: true,
    });
    event.planned_at = T0.plus_millis(-300);
    let mut d = sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, String::new());
    d.planned_at = event.planned_at;
    d.delivery_settings = Some(settings);
    ok(
        store.create_event(&event, std::slice::from_ref(&d)).await,
        "create occurrence",
    );
    assert_eq!(
        ok(store.get_event(&tenant, &event.id).await, "read event"),
        Some(event.clone())
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "read delivery"), Some(d.clone()));
    let mut later = sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, String::new());
    later.delivery_settings = Some(DeliverySettings {
        latency_class: None,
        long_running_allowance_seconds: Some(0),
    });
    ok(store.create_event_delivery(&event, &later).await, "add delivery");
    assert_eq!(ok(store.get_delivery(&later.id).await, "read added"), Some(later));
}

/// Fan-out writes: a delivery added to a stored event once (a second write of its
/// id conflicts) and listed in the endpoint's audit log; the event's progress only
/// moves forward; deliveries read by id; the steps' links.
pub async fn fanout_writes<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    let ids = Ids::new();
    let tenant = ids.tenant();
    let endpoint = ids.endpoint();
    let event = sample_event(&tenant, &ids.event(), T0, serde_json::json!({"n": 1}));
    ok(store.create_event(&event, &[]).await, "create event");
    let d = sample_delivery(&event, &endpoint, &ids.delivery(), T0, sample_body(&event));
    ok(store.create_event_delivery(&event, &d).await, "add delivery");
    conflict(store.create_event_delivery(&event, &d).await, "add it again");
    assert_eq!(ok(store.get_delivery(&d.id).await, "read delivery"), Some(d.clone()));
    let audit = ok(
        store.list_events(&tenant, Some(&endpoint), None, None, None, 10).await,
        "audit log",
    );
    assert_eq!(
        audit.items.iter().map(|e| e.id.clone()).collect::<Vec<_>>(),
        vec![event.id.clone()]
    );

    let progress = |processed, status| crate::model::FanoutProgress {
        status,
        matched: 300,
        processed,
        seed: 7,
    };
    use crate::model::FanoutStatus::{Complete, InProgress};
    let read = || async { ok(store.get_event(&tenant, &event.id).await, "read event").and_then(|e| e.fanout) };
    ok(
        store
            .set_fanout_progress(&tenant, &event.id, &progress(100, InProgress))
            .await,
        "progress",
    );
    assert_eq!(read().await, Some(progress(100, InProgress)));
    // A slower copy of the first step does not move it back.
    ok(
        store
            .set_fanout_progress(&tenant, &event.id, &progress(0, InProgress))
            .await,
        "old progress",
    );
    assert_eq!(read().await, Some(progress(100, InProgress)));
    ok(
        store
            .set_fanout_progress(&tenant, &event.id, &progress(300, Complete))
            .await,
        "complete",
    );
    assert_eq!(read().await, Some(progress(300, Complete)));
    conflict(
        store
            .set_fanout_progress(&tenant, &ids.event(), &progress(1, InProgress))
            .await,
        "unknown event",
    );
    conflict(
        store
            .set_fanout_progress(&ids.tenant(), &event.id, &progress(1, InProgress))
            .await,
        "another tenant's event",
    );

    // Deliveries read by id, in the order asked, missing ones left out.
    let d2 = sample_delivery(&event, &ids.endpoint(), &ids.delivery(), T0, sample_body(&event));
    ok(store.create_event_delivery(&event, &d2).await, "add a second delivery");
    assert_eq!(
        ok(
            store
                .get_deliveries(&[d2.id.clone(), ids.delivery(), d.id.clone()])
                .await,
            "read deliveries"
        ),
        vec![d2.clone(), d.clone()]
    );
    assert_eq!(ok(store.get_deliveries(&[]).await, "read none"), vec![]);

    // Fan-out links: by start, from a position on, replaced when a step is redone,
    // none for another tenant, and gone with the event's expiry.
    let link = |start: u64, endpoints: &[&EndpointId], expires_at: Option<i64>| crate::model::FanoutLink {
        tenant_id: tenant.clone(),
        event_id: event.id.clone(),
        start,
        endpoint_ids: endpoints.iter().map(|e| (*e).clone()).collect(),
        expires_at,
    };
    let (a, b, c) = (ids.endpoint(), ids.endpoint(), ids.endpoint());
    ok(store.put_fanout_link(&link(100, &[&c], None)).await, "link at 100");
    ok(store.put_fanout_link(&link(0, &[&a], None)).await, "link at 0");
    ok(
        store.put_fanout_link(&link(0, &[&a, &b], None)).await,
        "link at 0 redone",
    );
    let links = |tenant: TenantId, from: u64, limit: u32| {
        let event = event.id.clone();
        async move { ok(store.fanout_links(&tenant, &event, from, limit).await, "read links") }
    };
    assert_eq!(
        links(tenant.clone(), 0, 10).await,
        vec![link(0, &[&a, &b], None), link(100, &[&c], None)]
    );
    assert_eq!(links(tenant.clone(), 0, 1).await, vec![link(0, &[&a, &b], None)]);
    assert_eq!(links(tenant.clone(), 1, 10).await, vec![link(100, &[&c], None)]);
    assert_eq!(links(tenant.clone(), 101, 10).await, vec![]);
    assert_eq!(links(ids.tenant(), 0, 10).await, vec![]);
    let ends = clock.now().plus_secs(60).millis() / 1000;
    ok(
        store.put_fanout_link(&link(200, &[&a], Some(ends))).await,
        "link at 200",
    );
    assert_eq!(links(tenant.clone(), 150, 10).await, vec![link(200, &[&a], Some(ends))]);
    clock.advance_secs(60);
    assert_eq!(links(tenant.clone(), 150, 10).await, vec![]);
}

// ---------------------------------------------------------------------------------
// Schedules and occurrences
// ---------------------------------------------------------------------------------

pub fn sample_schedule(
    tenant: &TenantId,
    id: &courier_core::ids::ScheduleId,
    endpoint: &EndpointId,
) -> crate::schedule::Schedule {
    crate::schedule::Schedule {
        id: id.clone(),
        tenant_id: tenant.clone(),
        endpoint_id: Some(endpoint.clone()),
        application_id: None,
        recurrence: crate::schedule::RecurrenceSpec {
            cron: Some("cron(0 9 * * ? *)".into()),
            timezone: Some("Europe/Berlin".into()),
            rate: None,
            at: None,
        },
        start_at: Some(T0),
        end_at: None,
        event_type: Some("reminder.due".into()),
        payload: Some(serde_json::json!({"n": 1})),
        latency_class: Some(courier_core::decide::LatencyClass::Bulk),
        long_running_allowance_seconds: None,
        state: crate::schedule::ScheduleState::Active,
        created_at: T0,
        updated_at: T0,
        version: 1,
    }
}

/// Schedules: create conflicts, tenant-scoped reads, versioned updates, deletes,
/// pages bound to their list; occurrence markers written once per (schedule,
/// planned instant), listed newest first.
pub async fn schedules<S: crate::schedule::ScheduleStore>(store: &S) {
    use crate::schedule::{Occurrence, ScheduleState};
    use courier_core::ids::ScheduleId;
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let mut rng = courier_core::rng::SplitMix64::new(99);
    let (s1, s2) = (
        ScheduleId::generate(T0, &mut rng),
        ScheduleId::generate(T0.plus_secs(1), &mut rng),
    );
    let ep = ids.endpoint();
    let a = sample_schedule(&tenant, &s1, &ep);
    store.create_schedule(&a).await.expect("create");
    conflict(store.create_schedule(&a).await, "create twice");
    assert_eq!(store.get_schedule(&tenant, &s1).await.expect("get"), Some(a.clone()));
    assert_eq!(store.get_schedule(&other, &s1).await.expect("get"), None);
    let mut b = sample_schedule(&tenant, &s2, &ep);
    b.payload = None;
    // Routed by subscription: no endpoint, an application.
    b.endpoint_id = None;
    b.application_id = Some("app_01JAAAAAAAAAAAAAAAAAAAAAAB".into());
    b.recurrence = crate::schedule::RecurrenceSpec {
        cron: None,
        timezone: None,
        rate: Some("rate(5 minutes)".into()),
        at: None,
    };
    store.create_schedule(&b).await.expect("create b");

    // Versioned updates.
    let mut a2 = a.clone();
    a2.state = ScheduleState::Paused;
    a2.payload = Some(serde_json::json!({"n": 2}));
    a2.version = 2;
    conflict(store.update_schedule(&a2, 5).await, "stale version");
    store.update_schedule(&a2, 1).await.expect("update");
    conflict(store.update_schedule(&a2, 1).await, "same version twice");
    assert_eq!(store.get_schedule(&tenant, &s1).await.expect("get"), Some(a2.clone()));
    let ghost = sample_schedule(&other, &s1, &ep);
    conflict(store.update_schedule(&ghost, 1).await, "update of a missing schedule");

    // Pages by id, bound to the tenant.
    let first = store.list_schedules(&tenant, None, 1).await.expect("page");
    assert_eq!(first.items, vec![a2.clone()]);
    let cursor = first.next_cursor.expect("more");
    let second = store.list_schedules(&tenant, Some(&cursor), 1).await.expect("page");
    assert_eq!(second.items, vec![b.clone()]);
    assert_eq!(second.next_cursor, None);
    bad_cursor(
        store.list_schedules(&other, Some(&cursor), 1).await,
        "another tenant's cursor",
    );
    bad_cursor(store.list_schedules(&tenant, Some("zz"), 1).await, "not a cursor");
    assert_eq!(
        store.list_schedules(&other, None, 10).await.expect("page").items,
        vec![]
    );

    // Occurrences: one per (schedule, instant); the first one written wins.
    let occ = |planned: Timestamp, schedule: &ScheduleId| Occurrence {
        schedule_id: schedule.clone(),
        tenant_id: tenant.clone(),
        planned_at: planned,
        event_id: ids.event(),
        delivery_id: Some(ids.delivery()),
        created_at: planned.plus_millis(250),
        failure: None,
        expires_at: Some(planned.millis() / 1000 + crate::schedule::OCCURRENCE_TTL_SECONDS),
    };
    let o1 = occ(T0.plus_secs(60), &s1);
    assert_eq!(store.put_occurrence(&o1).await.expect("put"), None);
    let again = occ(T0.plus_secs(60), &s1);
    assert_eq!(store.put_occurrence(&again).await.expect("put again"), Some(o1.clone()));
    // A failure noted on the marker replaces it; the marker as it was comes back.
    let failed = Occurrence {
        failure: Some(crate::schedule::OccurrenceFailure {
            reason: "storage unavailable".into(),
            at: T0.plus_secs(3_600),
        }),
        ..o1.clone()
    };
    store.replace_occurrence(&failed).await.expect("replace");
    assert_eq!(
        store.put_occurrence(&again).await.expect("put again"),
        Some(failed.clone())
    );
    store.replace_occurrence(&o1).await.expect("replace back");
    let o2 = occ(T0.plus_secs(120), &s1);
    // A fan-out's occurrence names no delivery.
    let o3 = Occurrence {
        delivery_id: None,
        ..occ(T0.plus_secs(180), &s1)
    };
    assert_eq!(store.put_occurrence(&o3).await.expect("put"), None);
    assert_eq!(store.put_occurrence(&o2).await.expect("put"), None);
    let elsewhere = occ(T0.plus_secs(60), &s2);
    assert_eq!(store.put_occurrence(&elsewhere).await.expect("other schedule"), None);
    let (t, s1r) = (&tenant, &s1);
    let pages = all_pages(2, |c, l| async move {
        store.list_occurrences(t, s1r, c.as_deref(), l).await
    })
    .await;
    assert_eq!(pages, vec![vec![o3.clone(), o2.clone()], vec![o1.clone()]]);
    let first = store.list_occurrences(&tenant, &s1, None, 1).await.expect("page");
    let cursor = first.next_cursor.expect("more");
    bad_cursor(
        store.list_occurrences(&tenant, &s2, Some(&cursor), 1).await,
        "another schedule's cursor",
    );
    assert_eq!(
        store.list_occurrences(&other, &s1, None, 10).await.expect("page").items,
        vec![]
    );

    // Delete: the schedule goes, its occurrences stay.
    assert!(store.delete_schedule(&tenant, &s1).await.expect("delete"));
    assert!(!store.delete_schedule(&tenant, &s1).await.expect("delete again"));
    assert_eq!(store.get_schedule(&tenant, &s1).await.expect("get"), None);
    assert_eq!(
        store
            .list_occurrences(&tenant, &s1, None, 10)
            .await
            .expect("page")
            .items
            .len(),
        3
    );
}

// ---------------------------------------------------------------------------------
// Limiter
// ---------------------------------------------------------------------------------

/// The limiter port: a shared token bucket and leased in-flight slots per endpoint,
/// each endpoint apart, both taken or neither, exact under concurrent callers.
pub async fn limiter<L: crate::limiter::Limiter>(limiter: &L, clock: &ManualClock) {
    use crate::limiter::Admission;
    use courier_core::limiter::{HoldCause, IN_FLIGHT_RECHECK_MS, Limits};
    use courier_core::rate_limit::RateLimit;
    let ids = Ids::new();
    let tenant = ids.tenant();
    clock.set(T0);
    let rate = |per_second: f64, burst: u64| RateLimit::new(per_second, Some(burst)).expect("a valid literal limit");
    let lease = |ms: i64| T0.plus_millis(ms);

    // 2/s burst 2: two now, then a hold until the next token, exactly.
    let ep = ids.endpoint();
    let two = Limits {
        rate: Some(rate(2.0, 2)),
        max_in_flight: None,
    };
    for slot in ["r1", "r2"] {
        let got = limiter.acquire(&tenant, &ep, &two, slot, lease(30_000), T0).await;
        assert_eq!(got.expect("acquire"), Admission::Granted, "{slot}");
    }
    let held = limiter.acquire(&tenant, &ep, &two, "r3", lease(30_000), T0).await;
    assert_eq!(
        held.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(500),
            cause: HoldCause::Rate
        }
    );
    let later = limiter
        .acquire(&tenant, &ep, &two, "r3", lease(30_000), T0.plus_millis(500))
        .await;
    assert_eq!(later.expect("acquire"), Admission::Granted);
    // Another endpoint, and the same endpoint id under another tenant, start full.
    let other = ids.endpoint();
    let got = limiter.acquire(&tenant, &other, &two, "o1", lease(30_000), T0).await;
    assert_eq!(got.expect("acquire"), Admission::Granted);
    let got = limiter.acquire(&ids.tenant(), &ep, &two, "t1", lease(30_000), T0).await;
    assert_eq!(got.expect("acquire"), Admission::Granted);

    // maxInFlight 1: the second waits for a release, or for the first's lease to end.
    let ep = ids.endpoint();
    let one = Limits {
        rate: None,
        max_in_flight: Some(1),
    };
    let a = limiter.acquire(&tenant, &ep, &one, "a", lease(10_000), T0).await;
    assert_eq!(a.expect("acquire"), Admission::Granted);
    let b = limiter.acquire(&tenant, &ep, &one, "b", lease(10_000), T0).await;
    assert_eq!(
        b.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(IN_FLIGHT_RECHECK_MS),
            cause: HoldCause::InFlight
        }
    );
    limiter.release(&tenant, &ep, "a").await.expect("release");
    // Releasing again, or a slot never held, changes nothing.
    limiter.release(&tenant, &ep, "a").await.expect("release again");
    limiter
        .release(&tenant, &ids.endpoint(), "x")
        .await
        .expect("release unknown");
    let b = limiter.acquire(&tenant, &ep, &one, "b", lease(2_000), T0).await;
    assert_eq!(b.expect("acquire"), Admission::Granted);
    // "b" crashed without releasing: its slot is held until its lease ends, then free.
    clock.set(T0.plus_millis(1_999));
    let c = limiter
        .acquire(&tenant, &ep, &one, "c", lease(10_000), T0.plus_millis(1_999))
        .await;
    assert_eq!(
        c.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(2_000),
            cause: HoldCause::InFlight
        }
    );
    clock.set(T0.plus_millis(2_000));
    let c = limiter
        .acquire(&tenant, &ep, &one, "c", lease(10_000), T0.plus_millis(2_000))
        .await;
    assert_eq!(c.expect("acquire"), Admission::Granted);

    // Both limits: a cap hold takes no token.
    let ep = ids.endpoint();
    let both = Limits {
        rate: Some(rate(1.0, 1)),
        max_in_flight: Some(1),
    };
    let now = T0.plus_millis(2_000);
    let x = limiter.acquire(&tenant, &ep, &both, "x", lease(60_000), now).await;
    assert_eq!(x.expect("acquire"), Admission::Granted);
    let y = limiter
        .acquire(&tenant, &ep, &both, "y", lease(60_000), now.plus_millis(5_000))
        .await;
    assert!(
        matches!(
            y.expect("acquire"),
            Admission::Held {
                cause: HoldCause::InFlight,
                ..
            }
        ),
        "the cap holds first"
    );
    limiter.release(&tenant, &ep, "x").await.expect("release");
    let y = limiter
        .acquire(&tenant, &ep, &both, "y", lease(60_000), now.plus_millis(5_000))
        .await;
    assert_eq!(y.expect("acquire"), Admission::Granted);
}

/// Concurrent callers: exactly the burst, and exactly the cap, are granted. Run on
/// the memory fake only: the emulator's conditional writes are not atomic under
/// concurrent requests (moto's DynamoDB backend takes no lock), while DynamoDB's
/// are; [`limiter_shared`] checks the adapter's lost-condition path one step at a time.
pub async fn limiter_concurrent<L: crate::limiter::Limiter>(limiter: &L) {
    use crate::limiter::Admission;
    use courier_core::limiter::Limits;
    use courier_core::rate_limit::RateLimit;
    let ids = Ids::new();
    let tenant = ids.tenant();
    let now = T0;
    let lease = |ms: i64| T0.plus_millis(ms);
    let ep = ids.endpoint();
    let five = Limits {
        rate: Some(RateLimit::new(0.1, Some(5)).expect("a valid literal limit")),
        max_in_flight: None,
    };
    let slots: Vec<String> = (0..16).map(|i| format!("p{i}")).collect();
    let answers = futures_util::future::join_all(
        slots
            .iter()
            .map(|s| limiter.acquire(&tenant, &ep, &five, s, lease(60_000), now)),
    )
    .await;
    let granted = answers
        .into_iter()
        .map(|a| a.expect("acquire"))
        .filter(|a| *a == Admission::Granted)
        .count();
    assert_eq!(granted, 5, "burst 5 under 16 concurrent callers");
    let ep = ids.endpoint();
    let three = Limits {
        rate: None,
        max_in_flight: Some(3),
    };
    let answers = futures_util::future::join_all(
        slots
            .iter()
            .map(|s| limiter.acquire(&tenant, &ep, &three, s, lease(60_000), now)),
    )
    .await;
    let granted = answers
        .into_iter()
        .map(|a| a.expect("acquire"))
        .filter(|a| *a == Admission::Granted)
        .count();
    assert_eq!(granted, 3, "maxInFlight 3 under 16 concurrent callers");
}

/// Two limiters over one shared state (two sender instances): each sees what the
/// other took and freed, whatever it remembered of the state before.
pub async fn limiter_shared<A: crate::limiter::Limiter, B: crate::limiter::Limiter>(a: &A, b: &B) {
    use crate::limiter::Admission;
    use courier_core::limiter::{HoldCause, Limits};
    use courier_core::rate_limit::RateLimit;
    let ids = Ids::new();
    let (tenant, ep) = (ids.tenant(), ids.endpoint());
    let limits = Limits {
        rate: Some(RateLimit::new(1.0, Some(2)).expect("a valid literal limit")),
        max_in_flight: Some(1),
    };
    let lease = T0.plus_millis(30_000);
    let got = a.acquire(&tenant, &ep, &limits, "a1", lease, T0).await;
    assert_eq!(got.expect("acquire"), Admission::Granted);
    let got = b.acquire(&tenant, &ep, &limits, "b1", lease, T0).await;
    assert_eq!(
        got.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(1000),
            cause: HoldCause::InFlight
        }
    );
    a.release(&tenant, &ep, "a1").await.expect("release");
    let got = b.acquire(&tenant, &ep, &limits, "b1", lease, T0).await;
    assert_eq!(got.expect("acquire"), Admission::Granted);
    // `a` last saw its own release: its view is out of date, the table is not.
    let got = a.acquire(&tenant, &ep, &limits, "a2", lease, T0).await;
    assert_eq!(
        got.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(1000),
            cause: HoldCause::InFlight
        }
    );
    b.release(&tenant, &ep, "b1").await.expect("release");
    // Both tokens of the burst are spent: the third waits a second for a refill.
    let got = a.acquire(&tenant, &ep, &limits, "a2", lease, T0).await;
    assert_eq!(
        got.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(1000),
            cause: HoldCause::Rate
        }
    );
    let got = a
        .acquire(&tenant, &ep, &limits, "a2", lease, T0.plus_millis(1000))
        .await;
    assert_eq!(got.expect("acquire"), Admission::Granted);
}

// ---------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------

/// Counters per endpoint-minute and endpoint-hour, the streak of failed attempts
/// each count answers, reads by window within retention, and the backlog by status.
pub async fn statistics<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    use crate::stats::{Backlog, Granularity, StatsCounts, StatsTally, StatsWindow, StreakChange, duration_bucket};
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let (ep, other) = (ids.endpoint(), ids.endpoint());
    let stats = store.stats().expect("the store keeps statistics");
    let tally = |at: Timestamp, state: usize, ms: u64, settled: Option<usize>, streak| {
        let mut counts = StatsCounts::default();
        counts.attempts[state] = 1;
        counts.durations[duration_bucket(ms)] = 1;
        if let Some(s) = settled {
            counts.deliveries[s] = 1;
        }
        StatsTally {
            tenant: tenant.clone(),
            endpoint: ep.clone(),
            at,
            counts,
            streak,
        }
    };
    let m0 = T0.plus_secs(10);
    let m1 = T0.plus_secs(70);
    // Two minutes of the first hour, then the next hour.
    let streaks = [
        ok(
            stats.add_stats(&tally(m0, 1, 700, None, StreakChange::Add(1))).await,
            "count 1",
        ),
        ok(
            stats
                .add_stats(&tally(m0.plus_secs(5), 1, 40, None, StreakChange::Add(1)))
                .await,
            "count 2",
        ),
        ok(
            stats.add_stats(&tally(m1, 2, 40, Some(1), StreakChange::Add(1))).await,
            "count 3",
        ),
        ok(
            stats
                .add_stats(&tally(m1.plus_secs(1), 3, 0, None, StreakChange::Keep))
                .await,
            "count 4",
        ),
        ok(
            stats
                .add_stats(&tally(T0.plus_secs(3_700), 0, 40, Some(0), StreakChange::Reset(0)))
                .await,
            "count 5",
        ),
        ok(
            stats
                .add_stats(&tally(T0.plus_secs(3_710), 1, 20, None, StreakChange::Add(1)))
                .await,
            "count 6",
        ),
    ];
    assert_eq!(
        streaks.map(|m| (m.before, m.after)),
        [(0, 1), (1, 2), (2, 3), (3, 3), (3, 0), (0, 1)],
        "the run of failed attempts before and after each count"
    );

    let counts = |a: [u64; 4], d: [u64; 3], durations: &[(u64, u64)]| {
        let mut c = StatsCounts {
            attempts: a,
            deliveries: d,
            ..StatsCounts::default()
        };
        for (ms, n) in durations {
            c.durations[duration_bucket(*ms)] += n;
        }
        c
    };
    clock.set(T0.plus_secs(3_720));
    let minutes = StatsWindow {
        granularity: Granularity::Minute,
        since: T0,
        until: T0.plus_secs(3_720),
    };
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &minutes).await, "minutes"),
        vec![
            (T0, counts([0, 2, 0, 0], [0, 0, 0], &[(700, 1), (40, 1)])),
            (T0.plus_secs(60), counts([0, 0, 1, 1], [0, 1, 0], &[(40, 1), (0, 1)])),
            (
                T0.plus_secs(3_660),
                counts([1, 1, 0, 0], [1, 0, 0], &[(40, 1), (20, 1)])
            ),
        ]
    );
    let hours = StatsWindow {
        granularity: Granularity::Hour,
        since: T0,
        until: T0.plus_secs(3_720),
    };
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &hours).await, "hours"),
        vec![
            (T0, counts([0, 2, 1, 1], [0, 1, 0], &[(700, 1), (40, 2), (0, 1)])),
            (
                T0.plus_secs(3_600),
                counts([1, 1, 0, 0], [1, 0, 0], &[(40, 1), (20, 1)])
            ),
        ]
    );
    // A window of the second minute only; another endpoint has none.
    let one = StatsWindow {
        granularity: Granularity::Minute,
        since: T0.plus_secs(60),
        until: T0.plus_secs(119),
    };
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &one).await, "one minute").len(),
        1
    );
    assert_eq!(ok(stats.endpoint_stats(&tenant, &other, &hours).await, "other"), vec![]);

    // Past the minutes' retention only the hours (and the latest minutes) remain.
    clock.set(T0.plus_secs(3 * 3_600));
    let recent = StatsWindow {
        granularity: Granularity::Minute,
        since: T0.plus_secs(3_600),
        until: T0.plus_secs(3 * 3_600),
    };
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &recent).await, "recent minutes"),
        vec![(
            T0.plus_secs(3_660),
            counts([1, 1, 0, 0], [1, 0, 0], &[(40, 1), (20, 1)])
        )]
    );
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &hours).await, "hours later").len(),
        2
    );

    // The backlog: one delivery of each waiting status, and settled ones not at all.
    clock.set(T0);
    let f = fixture(
        &ids,
        &tenant,
        &[&other, &other, &other, &other, &other],
        T0,
        serde_json::json!({}),
    );
    let mut deliveries = f.deliveries.clone();
    let statuses = [
        DeliveryStatus::Pending,
        DeliveryStatus::Retrying,
        DeliveryStatus::Ambiguous,
        DeliveryStatus::Scheduled,
        DeliveryStatus::Succeeded,
    ];
    for (d, s) in deliveries.iter_mut().zip(statuses) {
        d.status = s;
        if s == DeliveryStatus::Scheduled {
            d.planned_at = T0.plus_secs(600);
            d.next_attempt_at = Some(d.planned_at);
        }
        if s.is_settled() {
            d.settled_at = Some(T0);
            d.next_attempt_at = None;
        }
    }
    ok(store.create_event(&f.event, &deliveries).await, "create event");
    assert_eq!(
        ok(stats.backlog(&tenant, &other).await, "backlog"),
        Backlog {
            pending: 1,
            retrying: 2,
            scheduled: 1
        }
    );
    assert_eq!(ok(stats.backlog(&tenant, &ep).await, "no backlog"), Backlog::default());
}
