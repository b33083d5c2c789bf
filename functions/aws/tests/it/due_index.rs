//! The reconciler's due index (GSI4) on the emulator: the same contract as the
//! memory store, and what an idle run costs in requests.

use courier_app::testing::contract::T0;
use courier_app::testing::contract::overdue_index_contract;
use courier_app::testing::memory::ManualClock;
use courier_aws::DynamoStore;
use courier_aws::bootstrap::{ResourceNames, ensure_resources};
use courier_aws::due_index::DUE_SHARDS;
use courier_aws::testing::Emulator;
use std::sync::Arc;

#[tokio::test]
async fn the_dynamo_store_keeps_the_due_index_contract() {
    let emu = Emulator::start().await.expect("AWS emulator");
    let config = emu.sdk_config().await.unwrap();
    let res = ensure_resources(&config, &ResourceNames::with_prefix("courier-due"))
        .await
        .expect("bootstrap");
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, res.table).with_clock(clock.clone());
    overdue_index_contract(&store, &clock).await;
}

#[tokio::test]
async fn an_idle_reconciler_run_is_one_query_per_shard_and_nothing_else() {
    use courier_app::maintenance::reconcile::{ReconcileSettings, reconcile};
    use courier_app::pipeline::planner::Planner;
    use courier_testkit::counting::RequestCounter;
    let emu = Emulator::start().await.expect("AWS emulator");
    let config = emu.sdk_config().await.unwrap();
    let res = ensure_resources(&config, &ResourceNames::with_prefix("courier-due-idle"))
        .await
        .expect("bootstrap");
    let clock = Arc::new(ManualClock::new(T0));
    let counter = RequestCounter::new(Vec::new());
    let store = DynamoStore::with_client(counter.dynamodb(&config), res.table.clone(), clock.clone());
    let planner = Planner {
        queue: Arc::new(courier_aws::SqsQueue::with_client(
            counter.sqs(&config),
            res.queue_url.clone(),
        )),
        timer: Arc::new(courier_aws::SchedulerTimer::with_client(
            counter.scheduler(&config),
            res.schedule_group.clone(),
            res.queue_arn.clone(),
            res.scheduler_role_arn.clone(),
        )),
        settings: Default::default(),
    };
    let report = reconcile(&store, &store, &planner, clock.as_ref(), ReconcileSettings::default())
        .await
        .expect("run");
    assert_eq!(report.examined, 0);
    let counts = counter.take();
    let query = counts.op("DynamoDB", "Query");
    assert_eq!(
        (query.calls, query.requests),
        (u64::from(DUE_SHARDS), u64::from(DUE_SHARDS))
    );
    let all: u64 = counts
        .services
        .values()
        .flat_map(|ops| ops.values())
        .map(|s| s.calls)
        .sum();
    assert_eq!(all, u64::from(DUE_SHARDS), "{counts:?}");
}

/// 200 deliveries held by their endpoint's limits fill shard 0 and one delivery
/// whose message was lost sits in shard 7: a run requeues the lost one and only
/// it, and the runs inside its grace leave it alone.
#[tokio::test]
async fn held_entries_in_one_shard_do_not_starve_a_lost_delivery_in_another() {
    use courier_app::maintenance::reconcile::{ReconcileSettings, reconcile};
    use courier_app::pipeline::planner::Planner;
    use courier_app::ports::DeliveryStore;
    use courier_app::testing::contract::{Ids, sample_delivery, sample_event};
    use courier_aws::due_index::due_shard;
    use courier_testkit::counting::RequestCounter;
    let emu = Emulator::start().await.expect("AWS emulator");
    let config = emu.sdk_config().await.unwrap();
    let res = ensure_resources(&config, &ResourceNames::with_prefix("courier-due-held"))
        .await
        .expect("bootstrap");
    let clock = Arc::new(ManualClock::new(T0));
    let counter = RequestCounter::new(Vec::new());
    let store = DynamoStore::with_client(counter.dynamodb(&config), res.table.clone(), clock.clone());
    let planner = Planner {
        queue: Arc::new(courier_aws::SqsQueue::with_client(
            counter.sqs(&config),
            res.queue_url.clone(),
        )),
        timer: Arc::new(courier_aws::SchedulerTimer::with_client(
            counter.scheduler(&config),
            res.schedule_group.clone(),
            res.queue_arn.clone(),
            res.scheduler_role_arn.clone(),
        )),
        settings: Default::default(),
    };
    let ids = Ids::new();
    let event = sample_event(&ids.tenant(), &ids.event(), T0, serde_json::json!({"n": 1}));
    store.create_event(&event, &[]).await.expect("event");
    let endpoint = ids.endpoint();
    let an_hour_ago = T0.plus_millis(-3_600_000);
    let overdue = |id| {
        let mut d = sample_delivery(&event, &endpoint, &id, an_hour_ago, "{}".to_owned());
        d.next_attempt_at = Some(an_hour_ago);
        d
    };
    let mut held = 0;
    let mut lost = None;
    while held < 200 || lost.is_none() {
        let id = ids.delivery();
        match due_shard(&id) {
            0 if held < 200 => {
                store.create_delivery(&overdue(id.clone())).await.expect("create held");
                // The hold the sender notes when the endpoint's limits put attempt 1
                // back on the queue for a minute.
                assert!(store.note_hold(&id, 1, T0.plus_millis(60_000), T0).await.expect("hold"));
                held += 1;
            }
            7 if lost.is_none() => {
                store.create_delivery(&overdue(id.clone())).await.expect("create lost");
                lost = Some(id);
            }
            _ => {}
        }
    }
    let lost = lost.expect("a delivery in shard 7");
    counter.take();
    let run = |at| {
        clock.set(at);
        reconcile(&store, &store, &planner, clock.as_ref(), ReconcileSettings::default())
    };
    let report = run(T0).await.expect("run");
    assert_eq!(report.requeued, vec![lost.clone()]);
    let sends = counter.take().op("SQS", "SendMessage").calls;
    assert_eq!(sends, 1, "one message, for the lost delivery");
    // A minute on, inside the grace: the requeued message is on its way.
    let report = run(T0.plus_millis(60_000)).await.expect("second run");
    assert_eq!(report.requeued, Vec::<courier_core::ids::DeliveryId>::new());
    assert_eq!(counter.take().op("SQS", "SendMessage").calls, 0);
}
