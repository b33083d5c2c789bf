//! The API-side failure matrix: for every operation that writes (ingest to several
//! endpoints, redeliver, replay, enable with `replaySince`), a queue or table failure
//! at each of its writes in turn. The API must answer 503 (problem+json), leave every
//! delivery queued or visibly marked, and a repeat of the same request with the same
//! Idempotency-Key must complete the work exactly once: each promised request reaches
//! the receiver once, nothing is created twice, nothing stays dead-lettered.
//!
//! The writes of an operation are found by running it once through a recording
//! wrapper, so a new write in a handler is covered without touching this file, and a
//! new operation is one row of [`operations`].

use crate::common::{KEY, T0, World, raw, status};
use async_trait::async_trait;
use courier_app::api::{Api, ApiSettings};
use courier_app::domain::delivery_message::{DeliveryMessage, Trigger};
use courier_app::domain::model::{
    Attempt, ClaimRecord, Delivery, Endpoint, EventRecord, IdempotencyRecord, Page, Tenant,
};
use courier_app::pipeline::planner::{Planner, PlannerSettings};
use courier_app::ports::{
    Claim, Clock, DeliveryStore, EndpointStore, IdempotencyStore, PortError, PortResult, Queue, TenantStore,
};
use courier_app::testing::memory::{FixedSecrets, MemoryStore, SeededRandom};
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, thiserror::Error)]
#[error("injected failure at a write")]
struct Injected;

/// Counts the writes going through it and fails those numbered in `fail_at` (once each).
#[derive(Default)]
struct Faults {
    seen: Mutex<Vec<&'static str>>,
    fail_at: Mutex<Vec<usize>>,
    fired: AtomicUsize,
    /// Calls of the unbounded attempt read, which the API must not make.
    unbounded_reads: AtomicUsize,
}

impl Faults {
    fn write(&self, name: &'static str) -> PortResult<()> {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let index = seen.len();
        seen.push(name);
        let mut fail_at = self.fail_at.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(at) = fail_at.iter().position(|i| *i == index) {
            fail_at.remove(at);
            self.fired.fetch_add(1, Ordering::SeqCst);
            return Err(PortError::Unavailable(Box::new(Injected)));
        }
        Ok(())
    }
    fn writes(&self) -> Vec<&'static str> {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// The memory store and queue behind a write-failure wrapper (reads pass through).
struct Flaky {
    store: Arc<MemoryStore>,
    queue: Arc<dyn Queue>,
    faults: Arc<Faults>,
}

#[async_trait]
impl DeliveryStore for Flaky {
    async fn create_event(&self, event: &EventRecord, deliveries: &[Delivery]) -> PortResult<()> {
        // An operational event about the change the call made is told after the
        // call's own work is durable: its writes are counted apart.
        let own = event
            .event_type
            .as_deref()
            .is_some_and(courier_core::operational::is_reserved);
        self.faults.write(if own { "create_notice" } else { "create_event" })?;
        self.store.create_event(event, deliveries).await
    }
    async fn create_delivery(&self, delivery: &Delivery) -> PortResult<()> {
        self.faults.write("create_delivery")?;
        self.store.create_delivery(delivery).await
    }
    async fn get_event(&self, tenant: &TenantId, id: &EventId) -> PortResult<Option<EventRecord>> {
        self.store.get_event(tenant, id).await
    }
    async fn get_delivery(&self, id: &DeliveryId) -> PortResult<Option<Delivery>> {
        self.store.get_delivery(id).await
    }
    async fn event_body(&self, event: &EventId) -> PortResult<Option<std::sync::Arc<str>>> {
        self.store.event_body(event).await
    }
    async fn create_event_delivery(&self, event: &EventRecord, delivery: &Delivery) -> PortResult<()> {
        self.faults.write("create_event_delivery")?;
        self.store.create_event_delivery(event, delivery).await
    }
    async fn set_fanout_progress(
        &self,
        tenant: &TenantId,
        event: &EventId,
        progress: &courier_app::domain::model::FanoutProgress,
    ) -> PortResult<()> {
        self.faults.write("set_fanout_progress")?;
        self.store.set_fanout_progress(tenant, event, progress).await
    }
    async fn put_fanout_link(&self, link: &courier_app::domain::model::FanoutLink) -> PortResult<()> {
        self.faults.write("put_fanout_link")?;
        self.store.put_fanout_link(link).await
    }
    async fn fanout_links(
        &self,
        tenant: &TenantId,
        event: &EventId,
        from: u64,
        limit: u32,
    ) -> PortResult<Vec<courier_app::domain::model::FanoutLink>> {
        self.store.fanout_links(tenant, event, from, limit).await
    }
    async fn claim_attempt(&self, id: &DeliveryId, claim: &ClaimRecord) -> PortResult<Claim> {
        self.faults.write("claim_attempt")?;
        self.store.claim_attempt(id, claim).await
    }
    async fn note_hold(&self, id: &DeliveryId, number: u32, until: Timestamp, now: Timestamp) -> PortResult<bool> {
        self.faults.write("note_hold")?;
        self.store.note_hold(id, number, until, now).await
    }
    async fn record_attempt(&self, delivery: &Delivery, attempt: &Attempt, held: &ClaimRecord) -> PortResult<()> {
        self.faults.write("record_attempt")?;
        self.store.record_attempt(delivery, attempt, held).await
    }
    async fn update_delivery(&self, delivery: &Delivery, expected_version: u64) -> PortResult<()> {
        self.faults.write("update_delivery")?;
        self.store.update_delivery(delivery, expected_version).await
    }
    async fn list_attempts(&self, delivery: &DeliveryId) -> PortResult<Vec<Attempt>> {
        self.faults.unbounded_reads.fetch_add(1, Ordering::SeqCst);
        self.store.list_attempts(delivery).await
    }
    async fn list_attempts_page(
        &self,
        delivery: &DeliveryId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Attempt>> {
        self.store.list_attempts_page(delivery, cursor, limit).await
    }
    async fn get_attempt(&self, delivery: &DeliveryId, id: &AttemptId) -> PortResult<Option<Attempt>> {
        self.store.get_attempt(delivery, id).await
    }
    async fn last_attempt(&self, delivery: &DeliveryId) -> PortResult<Option<Attempt>> {
        self.store.last_attempt(delivery).await
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
        self.store
            .list_deliveries(endpoint, status, since, until, cursor, limit)
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
        self.store
            .list_events(tenant, endpoint, since, until, cursor, limit)
            .await
    }
}

#[async_trait]
impl IdempotencyStore for Flaky {
    async fn put_idempotency(&self, record: &IdempotencyRecord) -> PortResult<Option<IdempotencyRecord>> {
        self.faults.write("put_idempotency")?;
        self.store.put_idempotency(record).await
    }
    async fn get_idempotency(&self, key: &str) -> PortResult<Option<IdempotencyRecord>> {
        self.store.get_idempotency(key).await
    }
}

#[async_trait]
impl EndpointStore for Flaky {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()> {
        self.faults.write("create_endpoint")?;
        self.store.create_endpoint(endpoint).await
    }
    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
        self.store.get_endpoint(tenant, id).await
    }
    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
        self.faults.write("update_endpoint")?;
        self.store.update_endpoint(endpoint, expected_version).await
    }
    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        self.store.list_endpoints(tenant, cursor, limit).await
    }
    async fn scan_endpoints(&self, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        self.store.scan_endpoints(cursor, limit).await
    }
}

#[async_trait]
impl TenantStore for Flaky {
    async fn put_tenant_key(&self, key_hash: &str, tenant: &Tenant) -> PortResult<()> {
        self.store.put_tenant_key(key_hash, tenant).await
    }
    async fn put_expiring_key(&self, key_hash: &str, tenant: &Tenant, expires_at: i64) -> PortResult<()> {
        self.store.put_expiring_key(key_hash, tenant, expires_at).await
    }
    async fn tenant_by_key(&self, key_hash: &str) -> PortResult<Option<Tenant>> {
        self.store.tenant_by_key(key_hash).await
    }
}

#[async_trait]
impl Queue for Flaky {
    async fn send(&self, message: &DeliveryMessage, delay_seconds: u32) -> PortResult<()> {
        self.faults.write("queue_send")?;
        self.queue.send(message, delay_seconds).await
    }
}

/// An API over `w`'s store and queue with every write going through `faults`.
fn flaky_api(w: &World, faults: &Arc<Faults>) -> Api {
    let flaky = Arc::new(Flaky {
        store: w.store.clone(),
        queue: w.queue.clone(),
        faults: faults.clone(),
    });
    Api {
        tenants: flaky.clone(),
        endpoints: flaky.clone(),
        deliveries: flaky.clone(),
        idempotency: flaky.clone(),
        applications: w.api.applications.clone(),
        schemas: Default::default(),
        planner: Planner {
            queue: flaky,
            timer: w.timer.clone(),
            settings: PlannerSettings::default(),
        },
        clock: w.clock.clone(),
        random: Arc::new(SeededRandom::new(99)),
        secrets: Arc::new(FixedSecrets::new(11)),
        sealer: w.sealer.clone(),
        admission: Arc::new(courier_app::testing::memory::AdmitAll),
        settings: ApiSettings::default(),
        limiter: Default::default(),
        subscriptions: w.store.clone(),
        fanout_queue: w.queue.clone(),
        schedules: w.api.schedules.clone(),
    }
}

/// One request as an operation sends it.
struct Request {
    method: &'static str,
    path: String,
    body: Value,
}

async fn send(api: &Api, r: &Request) -> (u16, Value, Vec<(String, String)>) {
    let auth = format!("Bearer {KEY}");
    let resp = api
        .handle(courier_app::api::ApiRequest {
            method: r.method.into(),
            path: r.path.clone(),
            query: None,
            headers: vec![
                ("authorization".into(), auth),
                ("idempotency-key".into(), "matrix-key-1".into()),
            ],
            body: r.body.to_string().into_bytes(),
        })
        .await;
    (resp.status, resp.body_json(), resp.headers)
}

/// Handles every queued message (jumping the clock to the next visible one) until
/// the queue is empty; bounded.
async fn drain(w: &World) {
    for _ in 0..50 {
        w.step().await;
        match w.queue.next_visible_at() {
            Some(t) => {
                if t > w.clock.now() {
                    w.clock.set(t);
                }
            }
            None => return,
        }
    }
    panic!("the queue did not drain in 50 steps");
}

fn requests(w: &World) -> usize {
    w.http.requests.lock().map(|r| r.len()).unwrap_or(0)
}

/// Every delivery either has a message waiting or is visibly marked dead-lettered
/// (or is settled): none is stuck unseen.
fn none_stuck(w: &World, context: &str) {
    let waiting: Vec<DeliveryId> = w.queue.waiting().into_iter().map(|q| q.message.delivery_id).collect();
    for d in w.store.all_deliveries() {
        assert!(
            d.status.is_settled() || d.dead_lettered_at.is_some() || waiting.contains(&d.id),
            "{context}: delivery {} is {} with no message and no mark",
            d.id,
            d.status.as_str()
        );
    }
}

/// What a row prepared: the request, and what must hold once the repeat was drained.
struct Prepared {
    request: Request,
    /// Requests the receiver had seen before the operation.
    before: usize,
    check: fn(&World, &Prepared),
}

type Setup = fn(&World) -> std::pin::Pin<Box<dyn std::future::Future<Output = Prepared> + '_>>;

/// The operations under test: one row each.
fn operations() -> Vec<(&'static str, Setup)> {
    vec![
        ("ingest to three endpoints", |w| Box::pin(setup_ingest(w))),
        ("redeliver a succeeded delivery", |w| Box::pin(setup_redeliver(w))),
        ("replay a time range", |w| Box::pin(setup_replay(w))),
        ("enable with replaySince", |w| Box::pin(setup_enable(w))),
    ]
}

async fn settled_events(w: &World, n: usize) -> (String, Vec<DeliveryId>) {
    let ep = w.endpoint(json!("tanitar")).await;
    let mut ids = vec![];
    for _ in 0..n {
        let id = w.event(&ep).await;
        w.run(&id, 10).await;
        ids.push(id);
    }
    (ep, ids)
}

async fn setup_ingest(w: &World) -> Prepared {
    let mut eps = vec![];
    for _ in 0..3 {
        eps.push(w.endpoint(json!("tanitar")).await);
    }
    Prepared {
        request: Request {
            method: "POST",
            path: "/v1/events".into(),
            body: json!({"endpointIds": eps, "payload": {"order": 7}}),
        },
        before: 0,
        check: |w, p| {
            assert_eq!(w.store.all_events().len(), 1, "one event");
            let ds = w.store.all_deliveries();
            assert_eq!(ds.len(), 3, "one delivery per endpoint");
            for d in &ds {
                assert_eq!(
                    (d.status.as_str(), d.attempt_count, d.dead_lettered_at),
                    ("succeeded", 1, None),
                    "{}",
                    d.id
                );
            }
            assert_eq!(requests(w) - p.before, 3, "each endpoint got exactly one request");
        },
    }
}

async fn setup_redeliver(w: &World) -> Prepared {
    let (_, ids) = settled_events(w, 1).await;
    let id = ids[0].clone();
    Prepared {
        request: Request {
            method: "POST",
            path: format!("/v1/deliveries/{id}/redeliver"),
            body: json!({}),
        },
        before: requests(w),
        check: |w, p| {
            let ds = w.store.all_deliveries();
            assert_eq!(ds.len(), 1);
            assert_eq!(
                (ds[0].status.as_str(), ds[0].attempt_count, ds[0].dead_lettered_at),
                ("succeeded", 2, None)
            );
            let attempts = w.store.all_attempts();
            assert_eq!(
                attempts.iter().map(|a| a.trigger).collect::<Vec<_>>(),
                vec![Trigger::Initial, Trigger::Redelivery]
            );
            assert_eq!(requests(w) - p.before, 1, "the redelivery was sent exactly once");
        },
    }
}

fn check_replayed(w: &World, p: &Prepared) {
    let ds = w.store.all_deliveries();
    let replays: Vec<&Delivery> = ds.iter().filter(|d| d.trigger == Trigger::Replay).collect();
    assert_eq!(ds.len(), 6, "three originals and three replays, none twice");
    assert_eq!(replays.len(), 3);
    let mut events: Vec<&EventId> = replays.iter().map(|d| &d.event_id).collect();
    events.dedup();
    assert_eq!(events.len(), 3, "one replay per event");
    for d in &ds {
        assert_eq!(
            (d.status.as_str(), d.attempt_count, d.dead_lettered_at),
            ("succeeded", 1, None),
            "{}",
            d.id
        );
    }
    assert_eq!(requests(w) - p.before, 3, "each event was replayed exactly once");
}

async fn setup_replay(w: &World) -> Prepared {
    let (ep, _) = settled_events(w, 3).await;
    w.clock.advance_millis(60_000);
    Prepared {
        request: Request {
            method: "POST",
            path: format!("/v1/endpoints/{ep}/replay"),
            body: json!({"since": T0.plus_secs(-60)}),
        },
        before: requests(w),
        check: check_replayed,
    }
}

async fn setup_enable(w: &World) -> Prepared {
    let (ep, _) = settled_events(w, 3).await;
    let (s, b) = w.call("POST", &format!("/v1/endpoints/{ep}/disable"), json!({})).await;
    assert_eq!(s, 200, "{b}");
    w.clock.advance_millis(60_000);
    Prepared {
        request: Request {
            method: "POST",
            path: format!("/v1/endpoints/{ep}/enable"),
            body: json!({"replaySince": T0.plus_secs(-60)}),
        },
        before: requests(w),
        check: check_replayed,
    }
}

/// Whether write `i` is a first message sent ahead of the event's write
/// (`ingest::send_ahead`).
fn sent_ahead(writes: &[&str], i: usize) -> bool {
    let created = writes.iter().position(|w| *w == "create_event");
    writes[i] == "queue_send" && created.is_some_and(|c| i < c)
}

#[tokio::test]
async fn a_failure_at_any_write_answers_503_and_a_repeat_completes_the_work_exactly_once() {
    for (name, setup) in operations() {
        // Dry run: the writes this operation makes, in order.
        let w = World::new(vec![status(200)], 10).await;
        let p = setup(&w).await;
        let faults = Arc::new(Faults::default());
        let (s, b, _) = send(&flaky_api(&w, &faults), &p.request).await;
        assert!((200..300).contains(&s), "{name}: dry run answered {s} {b}");
        drain(&w).await;
        (p.check)(&w, &p);
        let writes = faults.writes();
        assert!(writes.contains(&"queue_send"), "{name}: writes {writes:?}");
        assert!(writes.contains(&"put_idempotency"), "{name}: writes {writes:?}");

        for (i, write) in writes.iter().enumerate() {
            let case = format!("{name}, failure at write {i} ({write})");
            let w = World::new(vec![status(200)], 10).await;
            let p = setup(&w).await;
            let faults = Arc::new(Faults::default());
            *faults.fail_at.lock().unwrap_or_else(|e| e.into_inner()) = vec![i];
            let api = flaky_api(&w, &faults);
            let (s, b, headers) = send(&api, &p.request).await;
            assert_eq!(
                faults.fired.load(Ordering::SeqCst),
                1,
                "{case}: the failure was injected"
            );
            if *write == "create_notice" {
                // Best effort once the call's work is done: the answer and the work
                // are the dry run's, only the notice is lost.
                assert!((200..300).contains(&s), "{case}: {b}");
                drain(&w).await;
                (p.check)(&w, &p);
                continue;
            }
            if sent_ahead(&writes, i) {
                // A first message that could not go ahead of the write goes after it,
                // in the same call: nothing for a repeat to finish.
                assert_eq!(s, 202, "{case}: {b}");
                drain(&w).await;
                (p.check)(&w, &p);
                continue;
            }
            assert_eq!(s, 503, "{case}: {b}");
            assert_eq!(b["code"], "service_unavailable", "{case}: {b}");
            assert!(
                headers
                    .iter()
                    .any(|(k, v)| k.eq_ignore_ascii_case("content-type") && v == "application/problem+json"),
                "{case}: {headers:?}"
            );
            none_stuck(&w, &case);
            let (s, b, _) = send(&api, &p.request).await;
            assert!((200..300).contains(&s), "{case}: the repeat answered {s} {b}");
            drain(&w).await;
            (p.check)(&w, &p);
            // A third call changes nothing more.
            let (s, _, _) = send(&api, &p.request).await;
            assert!((200..300).contains(&s), "{case}: a third call answered {s}");
            drain(&w).await;
            (p.check)(&w, &p);
            assert_eq!(faults.unbounded_reads.load(Ordering::SeqCst), 0, "{case}");
        }
    }
}

/// #2: one failed enqueue among several endpoints: the others are still queued and
/// the failed one is marked, all before any repeat.
#[tokio::test]
async fn one_failed_enqueue_leaves_every_other_delivery_queued_and_the_failed_one_marked() {
    let w = World::new(vec![status(200)], 10).await;
    let p = setup_ingest(&w).await;
    let faults = Arc::new(Faults::default());
    // Writes: put_idempotency, one queue_send per delivery ahead of create_event,
    // then a queue_send for each one not sent ahead. The second delivery's two
    // sends fail.
    *faults.fail_at.lock().unwrap_or_else(|e| e.into_inner()) = vec![2, 5];
    let (s, b, _) = send(&flaky_api(&w, &faults), &p.request).await;
    assert_eq!(s, 503, "{b}");
    let ds = w.store.all_deliveries();
    let waiting: Vec<DeliveryId> = w.queue.waiting().into_iter().map(|q| q.message.delivery_id).collect();
    let marked: Vec<&Delivery> = ds.iter().filter(|d| d.dead_lettered_at.is_some()).collect();
    assert_eq!((ds.len(), marked.len(), waiting.len()), (3, 1, 2));
    assert!(!waiting.contains(&marked[0].id));
    // Redrive alone (no repeat) resumes the marked one as its first attempt.
    let auth = format!("Bearer {KEY}");
    let (s, b, _) = raw(
        &w,
        "POST",
        &format!("/v1/deliveries/{}/redrive", marked[0].id),
        None,
        &[("authorization", &auth)],
        b"",
    )
    .await;
    assert_eq!(s, 202, "{b}");
    drain(&w).await;
    for d in w.store.all_deliveries() {
        assert_eq!((d.status.as_str(), d.attempt_count), ("succeeded", 1), "{}", d.id);
    }
    assert_eq!(requests(&w), 3);
}

/// #3: a redelivery whose message landed in the dead-letter queue is redriven as a
/// redelivery: the policy deadline does not stop it, and a delivery that had
/// succeeded is sent again rather than turning `failed` with nothing sent.
#[tokio::test]
async fn a_redriven_dead_lettered_redelivery_stays_a_redelivery_past_the_deadline() {
    let w = World::new(vec![status(200)], 10).await;
    let (_, ids) = settled_events(&w, 1).await;
    let id = ids[0].clone();
    let (s, b) = call_keyed(&w, "POST", &format!("/v1/deliveries/{id}/redeliver"), "k1").await;
    assert_eq!(s, 202, "{b}");
    // The redelivery message is lost to the DLQ, which marks the delivery; much later
    // (past any automatic-retry deadline) someone redrives it.
    let lost = w.queue.drain_visible(w.clock.now());
    assert_eq!(lost.len(), 1);
    let outcome = courier_app::pipeline::dead_letter::mark(w.store.as_ref(), &lost[0].0, w.clock.now()).await;
    assert_eq!(
        outcome.ok(),
        Some(courier_app::pipeline::dead_letter::DeadLetterOutcome::Marked)
    );
    w.clock.advance_millis(30 * 86_400_000);
    let auth = format!("Bearer {KEY}");
    let (s, b, _) = raw(
        &w,
        "POST",
        &format!("/v1/deliveries/{id}/redrive"),
        None,
        &[("authorization", &auth)],
        b"",
    )
    .await;
    assert_eq!(s, 202, "{b}");
    let before = requests(&w);
    drain(&w).await;
    assert_eq!(requests(&w) - before, 1, "the redelivery was sent");
    let d = w.delivery(&id).await;
    assert_eq!((d.status.as_str(), d.attempt_count), ("succeeded", 2));
    let attempts = w.store.all_attempts();
    assert_eq!(attempts.last().map(|a| a.trigger), Some(Trigger::Redelivery));
}

/// #3: a redeliver whose enqueue failed leaves the delivery as it was (succeeded),
/// and its repeat queues the promised attempt instead of answering 202 for nothing.
#[tokio::test]
async fn a_failed_redeliver_enqueue_keeps_the_delivery_settled_and_the_repeat_queues_the_promised_attempt() {
    let w = World::new(vec![status(200)], 10).await;
    let (_, ids) = settled_events(&w, 1).await;
    let id = ids[0].clone();
    w.queue.fail_next(1);
    let path = format!("/v1/deliveries/{id}/redeliver");
    let (s, b) = call_keyed(&w, "POST", &path, "k2").await;
    assert_eq!(s, 503, "{b}");
    let d = w.delivery(&id).await;
    assert_eq!((d.status.as_str(), d.dead_lettered_at), ("succeeded", None));
    let (s, first) = call_keyed(&w, "POST", &path, "k2").await;
    assert_eq!(s, 202, "{first}");
    let queued = w.queue.waiting();
    assert_eq!(queued.len(), 1);
    assert_eq!(
        queued[0].message.attempt_id.as_ref().map(|a| a.as_str().to_owned()),
        first["attemptId"].as_str().map(str::to_owned)
    );
    assert_eq!(queued[0].message.trigger, Trigger::Redelivery);
}

async fn call_keyed(w: &World, method: &str, path: &str, key: &str) -> (u16, Value) {
    let auth = format!("Bearer {KEY}");
    let (s, b, _) = raw(
        w,
        method,
        path,
        None,
        &[("authorization", &auth), ("idempotency-key", key)],
        b"{}",
    )
    .await;
    (s, b)
}

/// #7: a delivery's attempts come one page at a time, in order, and neither the list,
/// one attempt nor redeliver reads every attempt at once.
#[tokio::test]
async fn attempts_are_listed_in_pages_and_no_call_reads_them_all() {
    let w = World::new(vec![status(503), status(503), status(200)], 10).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let id = w.event(&ep).await;
    w.run(&id, 20).await;
    let all: Vec<String> = w.store.all_attempts().iter().map(|a| a.id.to_string()).collect();
    assert_eq!(all.len(), 3, "two failures then a success");
    let faults = Arc::new(Faults::default());
    let api = flaky_api(&w, &faults);
    let auth = format!("Bearer {KEY}");
    let get = |query: Option<String>, path: String| {
        let api = &api;
        let auth = auth.clone();
        async move {
            let r = api
                .handle(courier_app::api::ApiRequest {
                    method: "GET".into(),
                    path,
                    query,
                    headers: vec![("authorization".into(), auth)],
                    body: vec![],
                })
                .await;
            (r.status, r.body_json())
        }
    };
    let mut listed = vec![];
    let mut cursor: Option<String> = None;
    for _ in 0..10 {
        let query = match &cursor {
            Some(c) => format!("limit=1&cursor={c}"),
            None => "limit=1".to_owned(),
        };
        let (s, b) = get(Some(query), format!("/v1/deliveries/{id}/attempts")).await;
        assert_eq!(s, 200, "{b}");
        let items = b["items"].as_array().cloned().unwrap_or_default();
        assert!(items.len() <= 1, "{b}");
        listed.extend(items.iter().filter_map(|a| a["id"].as_str().map(str::to_owned)));
        match b["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(listed, all);
    let (s, b) = get(None, format!("/v1/deliveries/{id}/attempts/{}", all[1])).await;
    assert_eq!((s, b["id"].as_str()), (200, Some(all[1].as_str())));
    let (s, b) = get(
        Some("cursor=AAAAAAAAAAAAAAAA".into()),
        format!("/v1/deliveries/{id}/attempts"),
    )
    .await;
    assert_eq!((s, b["code"].as_str()), (400, Some("validation_failed")), "{b}");
    let r = api
        .handle(courier_app::api::ApiRequest {
            method: "POST".into(),
            path: format!("/v1/deliveries/{id}/redeliver"),
            query: None,
            headers: vec![
                ("authorization".into(), auth.clone()),
                ("idempotency-key".into(), "paged-1".into()),
            ],
            body: json!({"sourceAttemptId": all[0]}).to_string().into_bytes(),
        })
        .await;
    assert_eq!(r.status, 202, "{:?}", r.body_json());
    assert_eq!(r.body_json()["sourceAttemptId"].as_str(), Some(all[0].as_str()));
    assert_eq!(faults.unbounded_reads.load(Ordering::SeqCst), 0);
}
