//! The port contract suite run against the in-memory fakes.

use courier_app::contract::{self, MemoryQueueProbe, T0};
use courier_app::memory::{ManualClock, MemoryQueue, MemoryStore, MemoryTimer};
use std::sync::Arc;

fn store() -> (MemoryStore, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(T0));
    (MemoryStore::new(clock.clone()), clock)
}

macro_rules! store_section {
    ($name:ident) => {
        #[tokio::test]
        async fn $name() {
            let (s, clock) = store();
            contract::$name(&s, &clock).await;
        }
    };
}

store_section!(endpoints);
store_section!(endpoint_pages);
store_section!(events_and_deliveries);
store_section!(added_deliveries);
store_section!(claims);
store_section!(record_attempt);
store_section!(delivery_versions);
store_section!(idempotency);
store_section!(delivery_log);
store_section!(audit_log);
store_section!(expiry);
store_section!(large_payload);

#[tokio::test]
async fn tenants() {
    let (s, _) = store();
    contract::tenants(&s).await;
}

#[tokio::test]
async fn every_store_section_on_one_store() {
    let (s, clock) = store();
    contract::store_contract(&s, &clock).await;
}

#[tokio::test]
async fn queue() {
    let clock = Arc::new(ManualClock::new(T0));
    let q = MemoryQueue::new(clock.clone());
    contract::queue_contract(
        &q,
        &MemoryQueueProbe {
            queue: &q,
            clock: &clock,
        },
    )
    .await;
}

#[tokio::test]
async fn timer() {
    let t = MemoryTimer::new();
    contract::timer_contract(&t, &t).await;
}
