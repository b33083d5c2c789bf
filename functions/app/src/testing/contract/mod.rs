//! The port contract suite: one set of exact-value checks that every store, queue
//! and timer implementation must pass, the in-memory fakes
//! (`tests/it/contract_memory.rs`) and the AWS adapters against the emulator
//! (`courier-aws`'s `tests/it/contract_aws.rs`) alike. If a fake and its adapter ever
//! disagree, one of them is wrong, and this suite is where that shows.
//!
//! The functions panic on the first broken rule (they are test code shipped in the
//! library so other crates can run them). They use fresh ids from a process-wide
//! counter, so several sections can share one store. The store under test must read
//! "now" (for TTL expiry) from the same [`ManualClock`] passed here. Must not depend
//! on any AWS crate.

use crate::domain::delivery_message::{DeliveryMessage, Trigger};
use crate::domain::model::{
    Attempt, ClaimRecord, Delivery, DeliveryStatus, Endpoint, EndpointState, EventRecord, EventTarget,
    IdempotencyRecord, Page, SecretRecord, SecretState, Tenant,
};
use crate::ports::{
    Claim, Clock, DeliveryStore, EndpointStore, IdempotencyStore, PortError, PortResult, Queue, TenantStore, Timer,
};
use crate::testing::memory::{ManualClock, MemoryQueue, MemoryTimer};
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
        destination: None,
        policy: Policy::preset("greatwait").expect("the greatwait preset exists"),
        latency_class: LatencyClass::Realtime,
        long_running_allowance_seconds: 0,
        timeout_ms: Some(7_500),
        description: Some("contract \u{e9}ndpoint".to_owned()),
        state: EndpointState::Active,
        secrets: vec![SecretRecord {
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into(),
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
        auth: None,
        tls: None,
        credentials: Default::default(),
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
        destination_error: None,
        message_id: None,
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
) -> DeliveryMessage {
    DeliveryMessage {
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

mod applications;
mod credentials;
mod limiter;
mod overdue;
mod queue;
mod schedules;
mod statistics;
mod store_bodies;
mod store_lists;
mod store_records;
mod subscriptions;

pub use applications::*;
pub use credentials::*;
pub use limiter::*;
pub use overdue::*;
pub use queue::*;
pub use schedules::*;
pub use statistics::*;
pub use store_bodies::*;
pub use store_lists::*;
pub use store_records::*;
pub use subscriptions::*;
