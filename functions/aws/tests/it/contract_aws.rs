//! The port contract suite run against the AWS adapters on a private moto server
//! (one per test), and the adapters' own tests; the DynamoDB layout's tests are
//! in `layout` (it/contract_aws/layout.rs). Needs `make venv` first; fails (does not
//! skip) without it.

mod layout;

use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::domain::queue_message::Message;
use courier_app::ports::{PortError, PortResult};
use courier_app::testing::contract::{self, QueueProbe, T0, TimerProbe};
use courier_app::testing::memory::ManualClock;
use courier_aws::bootstrap::{ResourceNames, Resources, ensure_resources};
use courier_aws::testing::Emulator;
use courier_aws::{DynamoStore, SchedulerTimer, SqsQueue};
use courier_core::Timestamp;
use std::sync::Arc;

async fn setup() -> (Emulator, aws_config::SdkConfig, Resources) {
    let emu = Emulator::start().await.expect("AWS emulator");
    let config = emu.sdk_config().await.expect("emulator");
    let resources = ensure_resources(&config, &ResourceNames::with_prefix("courier-test"))
        .await
        .expect("bootstrap");
    (emu, config, resources)
}

/// Every item of the table (the tests' tables are small: one page).
async fn scan(
    client: &aws_sdk_dynamodb::Client,
    table: &str,
) -> Vec<std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue>> {
    client
        .scan()
        .table_name(table)
        .send()
        .await
        .expect("scan")
        .items
        .unwrap_or_default()
}

#[tokio::test]
async fn store_contract() {
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    contract::store_contract(&store, &clock).await;
}

#[tokio::test]
async fn statistics_contract() {
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    contract::statistics(&store, &clock).await;
    // Every statistics item weighs under 1 KiB, so each counter write is one unit:
    // the head, two rolled-up minutes and the first hour.
    let items = scan(&aws_sdk_dynamodb::Client::new(&config), &res.table).await;
    let mut kinds: Vec<(String, bool)> = items
        .iter()
        .filter(|i| i["PK"].as_s().is_ok_and(|pk| pk.starts_with("STAT#")))
        .map(|i| {
            let sk = i["SK"].as_s().cloned().unwrap_or_default();
            let kind = sk.split('#').next().unwrap_or_default().to_owned();
            (kind, courier_testkit::counting::item_size(i) < 1024)
        })
        .collect();
    kinds.sort();
    let small = |k: &str| (k.to_owned(), true);
    assert_eq!(kinds, vec![small("H"), small("HEAD"), small("M"), small("M")]);
}

/// Counts sent at once, across a minute's end, are all kept: DynamoDB applies each
/// update atomically, and the emulator (`infra/moto/serve.py`) must too.
#[tokio::test]
async fn concurrent_counts_of_one_endpoint_are_all_kept() {
    use courier_app::domain::stats::{Granularity, StatsCounts, StatsTally, StatsWindow, StreakChange};
    use courier_app::ports::DeliveryStore;
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0.plus_secs(600)));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    let ids = contract::Ids::new();
    let (tenant, ep) = (ids.tenant(), ids.endpoint());
    let stats = store.stats().expect("the store keeps statistics");
    let tally = |i: u64| {
        let mut counts = StatsCounts::default();
        counts.attempts[1] = 1;
        counts.deliveries[1] = 1;
        StatsTally {
            tenant: tenant.clone(),
            endpoint: ep.clone(),
            // Half in the first minute, half in the next.
            at: T0.plus_secs(if i.is_multiple_of(2) { 10 } else { 70 }),
            counts,
            streak: StreakChange::Add(1),
        }
    };
    let tallies: Vec<StatsTally> = (0..100).map(tally).collect();
    let results = futures_util::future::join_all(tallies.iter().map(|t| stats.add_stats(t))).await;
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 100, "{results:?}");
    let hours = StatsWindow {
        granularity: Granularity::Hour,
        since: T0,
        until: T0.plus_secs(600),
    };
    let buckets = stats.endpoint_stats(&tenant, &ep, &hours).await.expect("read");
    let total = buckets.iter().fold(StatsCounts::default(), |mut sum, (_, c)| {
        sum.add(c);
        sum
    });
    assert_eq!((total.attempts, total.deliveries), ([0, 100, 0, 0], [0, 100, 0]));
    let last = results.iter().filter_map(|r| r.as_ref().ok()).map(|m| m.after).max();
    assert_eq!(last, Some(100), "the run of failures counts every attempt");
}

/// The emulator applies concurrent updates of one item one after the other, as
/// DynamoDB does (plain moto can lose one of two `ADD`s that meet).
#[tokio::test]
async fn the_emulator_loses_no_concurrent_update() {
    use aws_sdk_dynamodb::types::AttributeValue;
    let (_emu, config, res) = setup().await;
    let client = aws_sdk_dynamodb::Client::new(&config);
    let key = std::collections::HashMap::from([
        ("PK".to_owned(), AttributeValue::S("RACE".to_owned())),
        ("SK".to_owned(), AttributeValue::S("RACE".to_owned())),
    ]);
    let add = |client: aws_sdk_dynamodb::Client, key: std::collections::HashMap<String, AttributeValue>| {
        let table = res.table.clone();
        tokio::spawn(async move {
            for _ in 0..30 {
                client
                    .update_item()
                    .table_name(&table)
                    .set_key(Some(key.clone()))
                    .update_expression("ADD n :one")
                    .expression_attribute_values(":one", AttributeValue::N("1".to_owned()))
                    .send()
                    .await
                    .expect("update");
            }
        })
    };
    let tasks: Vec<_> = (0..32).map(|_| add(client.clone(), key.clone())).collect();
    for t in tasks {
        t.await.expect("task");
    }
    let item = client
        .get_item()
        .table_name(&res.table)
        .set_key(Some(key))
        .consistent_read(true)
        .send()
        .await
        .expect("get")
        .item
        .unwrap_or_default();
    assert_eq!(
        item.get("n").and_then(|v| v.as_n().ok()).map(String::as_str),
        Some("960")
    );
}

#[tokio::test]
async fn subscriptions_and_fanout_contract() {
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let store = DynamoStore::new(&config, &res.table).with_clock(clock.clone());
    contract::subscriptions(&store, &clock).await;
    contract::fanout_writes(&store, &clock).await;
    contract::occurrence_records(&store).await;
}

#[tokio::test]
async fn applications_and_event_types_contract() {
    let (_emu, config, res) = setup().await;
    let store = DynamoStore::new(&config, &res.table);
    contract::applications(&store).await;
    contract::event_types(&store).await;
    contract::portal_activity(&store).await;
}

#[tokio::test]
async fn bootstrap_is_idempotent_and_wires_the_dlq() {
    let (_emu, config, first) = setup().await;
    let again = ensure_resources(&config, &ResourceNames::with_prefix("courier-test"))
        .await
        .expect("second bootstrap");
    assert_eq!(first, again);
    let sqs = aws_sdk_sqs::Client::new(&config);
    let attrs = sqs
        .get_queue_attributes()
        .queue_url(&first.queue_url)
        .attribute_names(aws_sdk_sqs::types::QueueAttributeName::All)
        .send()
        .await
        .expect("queue attributes")
        .attributes
        .unwrap_or_default();
    let redrive: serde_json::Value = serde_json::from_str(
        attrs
            .get(&aws_sdk_sqs::types::QueueAttributeName::RedrivePolicy)
            .expect("redrive policy"),
    )
    .expect("redrive JSON");
    assert_eq!(redrive["deadLetterTargetArn"], first.dlq_arn.as_str());
    assert_eq!(redrive["maxReceiveCount"].to_string().trim_matches('"'), "5");
    let ddb = aws_sdk_dynamodb::Client::new(&config);
    let ttl = ddb
        .describe_time_to_live()
        .table_name(&first.table)
        .send()
        .await
        .expect("ttl")
        .time_to_live_description
        .expect("ttl description");
    assert_eq!(ttl.attribute_name(), Some("expiresAt"));
    let store = DynamoStore::new(&config, &first.table);
    store.ping().await.expect("ping table");
    SqsQueue::new(&config, &first.queue_url)
        .ping()
        .await
        .expect("ping queue");
}

struct SqsProbe<'a>(&'a SqsQueue);

#[async_trait::async_trait]
impl QueueProbe for SqsProbe<'_> {
    async fn take_visible(&self) -> PortResult<Vec<DeliveryMessage>> {
        let mut out = Vec::new();
        loop {
            let batch = self.0.receive(10, 1, 60).await?;
            if batch.is_empty() {
                return Ok(out);
            }
            for m in batch {
                self.0.delete(&m.receipt_handle).await?;
                out.push(
                    Message::parse(&m.body)
                        .and_then(Message::into_delivery)
                        .map_err(|e| PortError::Corrupt(e.to_string()))?,
                );
            }
        }
    }
    async fn wait(&self, secs: u32) {
        tokio::time::sleep(std::time::Duration::from_secs(u64::from(secs))).await;
    }
}

#[tokio::test]
async fn queue_contract() {
    let (_emu, config, res) = setup().await;
    let queue = SqsQueue::new(&config, &res.queue_url);
    contract::queue_contract(&queue, &SqsProbe(&queue)).await;
    // Received messages carry what the Lambda SQS event shape needs.
    let msg = contract::sample_message(
        &courier_core::ids::DeliveryId::parse("dlv_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("id"),
        &courier_core::ids::TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("id"),
        &courier_core::ids::EndpointId::parse("ep_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("id"),
        1,
        T0,
    );
    courier_app::ports::Queue::send(&queue, &msg, 0).await.expect("send");
    let got = queue.receive(10, 1, 30).await.expect("receive");
    assert_eq!(got.len(), 1);
    assert_eq!(
        Message::parse(&got[0].body)
            .and_then(Message::into_delivery)
            .expect("parse"),
        msg
    );
    assert!(!got[0].message_id.is_empty() && !got[0].receipt_handle.is_empty() && !got[0].md5_of_body.is_empty());
    assert_eq!(
        got[0].attributes.get("ApproximateReceiveCount").map(String::as_str),
        Some("1")
    );
    assert!(got[0].attributes.contains_key("SentTimestamp"));
    queue
        .change_visibility(&got[0].receipt_handle, 0)
        .await
        .expect("visibility");
    let again = queue.receive(10, 1, 30).await.expect("receive again");
    assert_eq!(again.len(), 1);
    assert_eq!(
        again[0].attributes.get("ApproximateReceiveCount").map(String::as_str),
        Some("2")
    );
    queue.delete(&again[0].receipt_handle).await.expect("delete");
    assert_eq!(queue.arn().await.expect("arn"), res.queue_arn);
}

struct SchedulerProbe<'a>(&'a SchedulerTimer);

#[async_trait::async_trait]
impl TimerProbe for SchedulerProbe<'_> {
    async fn due(&self, now: Timestamp) -> PortResult<Vec<(String, DeliveryMessage)>> {
        self.0.list_due(now).await
    }
    async fn delete(&self, name: &str) -> PortResult<()> {
        self.0.delete(name).await
    }
}

#[tokio::test]
async fn timer_contract() {
    let (_emu, config, res) = setup().await;
    let timer = SchedulerTimer::new(&config, &res.schedule_group, &res.queue_arn, &res.scheduler_role_arn);
    contract::timer_contract(&timer, &SchedulerProbe(&timer)).await;

    // The schedule as Scheduler stores it: one-shot at() in UTC, no window, deleted
    // after completion, aimed at the delivery queue with the message as input.
    let ids = contract::Ids::new();
    let msg = contract::sample_message(&ids.delivery(), &ids.tenant(), &ids.endpoint(), 2, T0);
    let at = Timestamp::parse_rfc3339("2026-12-01T08:09:10.750Z").expect("time");
    courier_app::ports::Timer::schedule(&timer, &msg.step_name(), at, &msg)
        .await
        .expect("schedule");
    let got = timer
        .client()
        .get_schedule()
        .group_name(&res.schedule_group)
        .name(msg.step_name())
        .send()
        .await
        .expect("get schedule");
    assert_eq!(got.schedule_expression(), Some("at(2026-12-01T08:09:10)"));
    assert_eq!(got.schedule_expression_timezone(), Some("UTC"));
    assert_eq!(
        got.flexible_time_window().map(|w| w.mode().clone()),
        Some(aws_sdk_scheduler::types::FlexibleTimeWindowMode::Off)
    );
    assert_eq!(
        got.action_after_completion(),
        Some(&aws_sdk_scheduler::types::ActionAfterCompletion::Delete)
    );
    let target = got.target().expect("target");
    assert_eq!(target.arn(), res.queue_arn);
    assert_eq!(target.role_arn(), res.scheduler_role_arn);
    assert_eq!(
        Message::parse(target.input().unwrap_or_default())
            .and_then(Message::into_delivery)
            .expect("input"),
        msg
    );
    let due = timer.list_due(at).await.expect("due");
    assert_eq!(
        due,
        vec![(msg.step_name(), msg.clone())],
        "due from its (truncated) second"
    );
    timer.delete(&msg.step_name()).await.expect("delete");
}

#[test]
fn a_missing_moto_binary_names_make_venv() {
    // Checked through the error type, not the environment (tests run in parallel).
    let err = courier_aws::testing::EmulatorError::NotInstalled("/nowhere/moto_server".into());
    assert!(err.to_string().contains("make venv"));
    assert!(
        format!("{err:?}").contains("make venv"),
        "`.expect()` shows the guidance too"
    );
}

#[tokio::test]
async fn schedules_contract() {
    let (_emu, config, res) = setup().await;
    let store = DynamoStore::new(&config, &res.table);
    contract::schedules(&store).await;
}

/// Recurring schedules on Scheduler: created, updated in place (state, expression,
/// window, input), read back by the local runner's listing, deleted (twice is fine),
/// and never taken for one-shot timers.
#[tokio::test]
async fn recurring_schedules_are_created_updated_listed_and_deleted() {
    use courier_app::domain::schedule::RecurringSpec;
    use courier_app::ports::RecurringTimer;
    let (_emu, config, res) = setup().await;
    let timer = SchedulerTimer::new(
        &config,
        res.schedule_group.clone(),
        res.queue_arn.clone(),
        res.scheduler_role_arn.clone(),
    );
    let mut spec = RecurringSpec {
        name: "sch_01JBBBBBBBBBBBBBBBBBBBBBBB".into(),
        expression: "cron(0 9 * * ? *)".into(),
        timezone: "Europe/Berlin".into(),
        start: None,
        end: Some(Timestamp::from_secs(4_102_444_800)),
        enabled: true,
        input: r#"{"kind":"schedule_fire","plannedAt":"<aws.scheduler.scheduled-time>"}"#.into(),
    };
    timer.put_recurring(&spec).await.expect("create");
    let listed = timer.list_recurring().await.expect("list");
    assert_eq!(
        listed.iter().map(|e| e.spec.clone()).collect::<Vec<_>>(),
        vec![spec.clone()]
    );
    assert!(listed[0].created.millis() > 0, "the creation date is read back");
    spec.expression = "rate(5 minutes)".into();
    spec.timezone = "UTC".into();
    spec.enabled = false;
    spec.end = None;
    timer.put_recurring(&spec).await.expect("update");
    let listed = timer.list_recurring().await.expect("list");
    assert_eq!(
        listed.iter().map(|e| e.spec.clone()).collect::<Vec<_>>(),
        vec![spec.clone()]
    );
    // A one-shot timer beside it: list_due sees only the timer.
    let ids = contract::Ids::new();
    let msg = contract::sample_message(&ids.delivery(), &ids.tenant(), &ids.endpoint(), 2, T0);
    courier_app::ports::Timer::schedule(&timer, "one-shot", T0, &msg)
        .await
        .expect("timer");
    let due = timer.list_due(T0.plus_secs(1)).await.expect("due");
    assert_eq!(
        due.into_iter().map(|(n, _)| n).collect::<Vec<_>>(),
        vec!["one-shot".to_owned()]
    );
    timer.delete_recurring(&spec.name).await.expect("delete");
    timer.delete_recurring(&spec.name).await.expect("delete again");
    assert_eq!(timer.list_recurring().await.expect("list"), vec![]);
}

#[tokio::test]
async fn limiter_contract() {
    let (_emu, config, res) = setup().await;
    let clock = Arc::new(ManualClock::new(T0));
    let limiter = courier_aws::DynamoLimiter::new(aws_sdk_dynamodb::Client::new(&config), &res.table);
    contract::limiter(&limiter, &clock).await;
    // A second adapter (another sender instance) remembers nothing: it still sees
    // the first one's slots and bucket through the table.
    let other = courier_aws::DynamoLimiter::new(aws_sdk_dynamodb::Client::new(&config), &res.table);
    contract::limiter_shared(&limiter, &other).await;
}
