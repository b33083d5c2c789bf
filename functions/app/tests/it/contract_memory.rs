//! The port contract suite run against the in-memory fakes.

use courier_app::testing::contract::{self, MemoryQueueProbe, T0};
use courier_app::testing::memory::{ManualClock, MemoryQueue, MemoryStore, MemoryTimer};
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
store_section!(endpoint_scan);

#[tokio::test]
async fn credential_sealer() {
    let secrets = Arc::new(courier_app::testing::memory::FixedSecrets::new(5));
    contract::credential_sealer(&courier_app::testing::memory::MemorySealer::in_memory(secrets)).await;
}

#[tokio::test]
async fn credentials_migration() {
    let (s, clock) = store();
    let sealer = courier_app::testing::memory::MemorySealer::in_memory(Arc::new(
        courier_app::testing::memory::FixedSecrets::new(6),
    ));
    contract::credentials_migration(&s, &sealer, &clock).await;
}
store_section!(events_and_deliveries);
store_section!(added_deliveries);
store_section!(claims);
store_section!(claims_by_one_attempt_id);
store_section!(record_attempt);
store_section!(record_keeps_dead_letter_mark);
store_section!(attempt_pages);
store_section!(delivery_versions);
store_section!(idempotency);
store_section!(delivery_log);
store_section!(audit_log);
store_section!(expiry);
store_section!(large_payload);
store_section!(subscriptions);
store_section!(fanout_writes);
store_section!(statistics);

#[tokio::test]
async fn occurrence_records() {
    let (s, _) = store();
    contract::occurrence_records(&s).await;
}

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

// The store keeps deliveries in shards, each behind its own lock. These check what the
// one-lock store gave for free: an event spread over many shards is still written
// all or nothing, and concurrent claims of one attempt still admit exactly one.

fn event_with(
    ids: &contract::Ids,
    deliveries: usize,
) -> (
    courier_app::domain::model::EventRecord,
    Vec<courier_app::domain::model::Delivery>,
) {
    let tenant = ids.tenant();
    let endpoint = ids.endpoint();
    let event = contract::sample_event(&tenant, &ids.event(), T0, serde_json::json!({"n": deliveries}));
    let body = contract::sample_body(&event);
    let list = (0..deliveries)
        .map(|_| contract::sample_delivery(&event, &endpoint, &ids.delivery(), T0, body.clone()))
        .collect();
    (event, list)
}

#[tokio::test]
async fn an_event_over_many_shards_is_written_all_or_nothing() {
    use courier_app::ports::{DeliveryStore, PortError};
    let (s, _) = store();
    let ids = contract::Ids::new();
    let (first, first_deliveries) = event_with(&ids, 3);
    s.create_event(&first, &first_deliveries).await.expect("first event");
    // Forty deliveries land in nearly every shard; the last one reuses an existing id.
    let (second, mut second_deliveries) = event_with(&ids, 40);
    second_deliveries[39].id = first_deliveries[2].id.clone();
    let refused = s.create_event(&second, &second_deliveries).await;
    assert!(matches!(refused, Err(PortError::Conflict(_))), "got {refused:?}");
    assert_eq!(s.get_event(&second.tenant_id, &second.id).await.expect("read"), None);
    for d in &second_deliveries[..39] {
        assert_eq!(s.get_delivery(&d.id).await.expect("read"), None, "{} was written", d.id);
    }
    assert_eq!(
        s.get_delivery(&first_deliveries[2].id).await.expect("read"),
        Some(first_deliveries[2].clone())
    );
    assert_eq!(s.all_deliveries().len(), 3);
    // Without the collision, all forty are written, each readable.
    second_deliveries[39].id = ids.delivery();
    s.create_event(&second, &second_deliveries).await.expect("second event");
    for d in &second_deliveries {
        assert_eq!(s.get_delivery(&d.id).await.expect("read"), Some(d.clone()));
    }
    assert_eq!(s.all_deliveries().len(), 43);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_claims_of_one_attempt_admit_exactly_one() {
    use courier_app::ports::{Claim, DeliveryStore};
    let (s, _) = store();
    let s = Arc::new(s);
    let ids = contract::Ids::new();
    let (event, deliveries) = event_with(&ids, 20);
    s.create_event(&event, &deliveries).await.expect("event");
    for (n, d) in deliveries.iter().enumerate() {
        // Half the deliveries see copies of one message with a pre-assigned attempt
        // id (each copy its own token), the others fresh ids per copy.
        let shared = ids.attempt();
        let claims: Vec<_> = (0..8)
            .map(|copy| {
                let attempt = if n % 2 == 0 { shared.clone() } else { ids.attempt() };
                let claim = contract::claim_with_token(1, &attempt, &format!("copy-{copy}"), T0, T0.plus_secs(30));
                let (s, id) = (s.clone(), d.id.clone());
                tokio::spawn(async move { s.claim_attempt(&id, &claim).await.expect("claim") })
            })
            .collect();
        let mut claimed = 0;
        for c in claims {
            match c.await.expect("task") {
                Claim::Claimed { lost, .. } => {
                    assert_eq!(lost, None);
                    claimed += 1;
                }
                Claim::Refused(Some(_)) => {}
                Claim::Refused(None) => panic!("{} vanished", d.id),
            }
        }
        assert_eq!(claimed, 1, "claims admitted for {}", d.id);
    }
}

#[tokio::test]
async fn applications() {
    contract::applications(&courier_app::testing::memory::MemoryApplications::new()).await;
}

#[tokio::test]
async fn portal_activity() {
    contract::portal_activity(&courier_app::testing::memory::MemoryApplications::new()).await;
}

#[tokio::test]
async fn event_types() {
    contract::event_types(&courier_app::testing::memory::MemoryApplications::new()).await;
}

#[tokio::test]
async fn schedules() {
    contract::schedules(&courier_app::testing::memory::MemorySchedules::new()).await;
}

#[tokio::test]
async fn limiter() {
    let clock = ManualClock::new(T0);
    let limiter = courier_app::testing::memory::MemoryLimiter::new();
    contract::limiter(&limiter, &clock).await;
    contract::limiter_shared(&limiter, &limiter).await;
    contract::limiter_concurrent(&limiter).await;
}
