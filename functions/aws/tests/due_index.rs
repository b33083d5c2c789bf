//! The reconciler's due index (GSI4) on the emulator: the same contract as the
//! memory store, and what an idle run costs in requests.

use courier_app::contract::T0;
use courier_app::memory::ManualClock;
use courier_app::reconcile::overdue_index_contract;
use courier_aws::DynamoStore;
use courier_aws::bootstrap::{ResourceNames, ensure_resources};
use courier_aws::due_index::DUE_SHARDS;
use courier_aws::testing::Emulator;
use std::sync::Arc;

#[tokio::test]
async fn the_dynamo_store_keeps_the_due_index_contract() {
    let emu = Emulator::start().await.expect("AWS emulator");
    let config = emu.sdk_config().await.unwrap_or_else(|e| panic!("{e}"));
    let res = ensure_resources(&config, &ResourceNames::with_prefix("courier-due"))
        .await
        .expect("bootstrap");
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, res.table).with_clock(clock.clone());
    overdue_index_contract(&store, &clock).await;
}

#[tokio::test]
async fn an_idle_reconciler_run_is_one_query_per_shard_and_nothing_else() {
    use courier_app::planner::Planner;
    use courier_app::reconcile::{ReconcileSettings, reconcile};
    use courier_aws::counting::RequestCounter;
    let emu = Emulator::start().await.expect("AWS emulator");
    let config = emu.sdk_config().await.unwrap_or_else(|e| panic!("{e}"));
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
