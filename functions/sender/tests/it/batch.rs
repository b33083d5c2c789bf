//! `handle_batch` through its public seam: results in record order, failures
//! reported per record, and a record that panics failing alone.

use async_trait::async_trait;
use aws_lambda_events::event::sqs::SqsEvent;
use courier_app::adapters::system::{OsSecrets, OsSeededRandom, SystemClock};
use courier_app::delivery::{DropReason, Sender, SenderSettings, StepOutcome};
use courier_app::domain::delivery_message::{DeliveryMessage, Trigger};
use courier_app::pipeline::planner::{Planner, PlannerSettings};
use courier_app::ports::Faults;
use courier_app::ports::{Clock, HttpSender, OutboundRequest, SendResult};
use courier_app::testing::memory::{MemoryQueue, MemoryStore, MemoryTimer};
use courier_core::Timestamp;
use courier_core::ids::{DeliveryId, EndpointId, TenantId};
use courier_core::outcome::{AttemptOutcome, ResponseSummary};
use courier_core::rng::SplitMix64;
use std::sync::Arc;

/// Never reached here: every message names a delivery the store does not have.
struct Unreachable;

#[async_trait]
impl HttpSender for Unreachable {
    async fn send(&self, _request: OutboundRequest) -> SendResult {
        SendResult {
            outcome: AttemptOutcome::Response(ResponseSummary::new(200)),
            peer: None,
            duration_ms: 0,
        }
    }
}

/// Panics on the step of one delivery, as a bug in a record's handling would.
struct PanicOn(DeliveryId);

impl Faults for PanicOn {
    fn fail_step(&self, m: &DeliveryMessage) -> bool {
        assert!(m.delivery_id != self.0, "a bug in this record's step");
        false
    }
}

fn sender(panic_on: DeliveryId) -> Arc<Sender> {
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let store = Arc::new(MemoryStore::new(clock.clone()));
    Arc::new(Sender {
        secrets: Arc::new(OsSecrets),
        sealer: Arc::new(courier_app::testing::memory::MemorySealer::in_memory(Arc::new(
            OsSecrets,
        ))),
        deliveries: store.clone(),
        endpoints: store,
        http: Arc::new(Unreachable),
        destinations: std::sync::Arc::new(courier_app::ports::NoDestinations),
        clock: clock.clone(),
        random: Arc::new(OsSeededRandom::new()),
        planner: Planner {
            queue: Arc::new(MemoryQueue::new(clock)),
            timer: Arc::new(MemoryTimer::new()),
            settings: PlannerSettings::default(),
        },
        faults: Arc::new(PanicOn(panic_on)),
        settings: SenderSettings::default(),
        fanout: None,
        limiter: Arc::new(courier_app::testing::memory::MemoryLimiter::new()),
    })
}

fn message(delivery_id: &DeliveryId, rng: &mut SplitMix64) -> String {
    let now = Timestamp::from_millis(1_700_000_000_000);
    DeliveryMessage {
        v: 1,
        delivery_id: delivery_id.clone(),
        tenant_id: TenantId::generate(now, rng),
        endpoint_id: EndpointId::generate(now, rng),
        attempt: 1,
        not_before: now,
        trigger: Trigger::Initial,
        source_attempt_id: None,
        attempt_id: None,
        completion_check: false,
        body: None,
    }
    .to_json()
}

fn event(bodies: &[String]) -> SqsEvent {
    let records: Vec<serde_json::Value> = bodies
        .iter()
        .enumerate()
        .map(|(i, body)| {
            serde_json::json!({
                "messageId": format!("m{i}"),
                "receiptHandle": "rh",
                "body": body,
                "attributes": {},
                "messageAttributes": {},
                "eventSource": "aws:sqs",
                "eventSourceARN": "arn:aws:sqs:us-east-1:000000000000:courier",
                "awsRegion": "us-east-1"
            })
        })
        .collect();
    serde_json::from_value(serde_json::json!({ "Records": records })).expect("an SQS event")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_record_fails_alone_and_results_keep_record_order() {
    let mut rng = SplitMix64::new(3);
    let now = Timestamp::from_millis(1_700_000_000_000);
    let ids: Vec<DeliveryId> = (0..4).map(|_| DeliveryId::generate(now, &mut rng)).collect();
    let mut bodies: Vec<String> = ids.iter().map(|id| message(id, &mut rng)).collect();
    bodies[3] = "{not json".to_owned();
    let (response, results) = courier_sender::handle_batch(&sender(ids[1].clone()), event(&bodies)).await;
    // The handler returned (the panic did not escape it), with one result per record.

    let ids_of_results: Vec<&str> = results.iter().map(|r| r.message_id.as_str()).collect();
    assert_eq!(ids_of_results, ["m0", "m1", "m2", "m3"]);
    for i in [0, 2] {
        assert!(
            matches!(
                results[i].result,
                Ok(StepOutcome::Dropped {
                    why: DropReason::UnknownDelivery
                })
            ),
            "record {i}: {:?}",
            results[i].result
        );
    }
    let failed = |i: usize| {
        results[i]
            .result
            .as_ref()
            .err()
            .map(ToString::to_string)
            .unwrap_or_default()
    };
    assert_eq!(failed(1), "step panicked: a bug in this record's step");
    assert!(failed(3).starts_with("unreadable message"), "{}", failed(3));
    let retried: Vec<&str> = response
        .batch_item_failures
        .iter()
        .map(|f| f.item_identifier.as_str())
        .collect();
    assert_eq!(retried, ["m1", "m3"]);
}
