//! End-to-end: the reconciler on the local stack. A delivery whose queue message is
//! lost (the test purges the queue while the message waits out its delay) is found
//! overdue in the due index, put back on the queue and delivered, once.

use courier_app::adapters::system::SystemClock;
use courier_app::maintenance::reconcile::ReconcileSettings;
use courier_app::ports::Clock;
use courier_app::testing::memory::ManualClock;
use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_delivery_whose_message_was_deleted_is_requeued_by_the_reconciler_and_delivered() {
    let clock = Arc::new(ManualClock::new(SystemClock.now()));
    let grace = ReconcileSettings::default().grace_ms;
    let h = Harness::start(courier_local::stack::StackOptions {
        clock: clock.clone(),
        reconcile_every: Duration::from_millis(200),
        ..test_options("reconcile")
    })
    .await;
    let rx = ScriptedReceiver::start(vec![Reply::Status(200)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"));
    let (ep, _) = h.endpoint(&rx.url(), json!({"base": "tanitar"})).await;
    // Planned ten minutes ahead: an SQS message delayed 600 s holds the first attempt.
    let planned = clock.now().plus_secs(600);
    let (status, body) = h
        .call(
            "POST",
            "/v1/events",
            Some(json!({
                "endpointId": ep,
                "type": "test.event",
                "payload": {"n": 1},
                "plannedAt": planned.to_rfc3339(),
            })),
        )
        .await;
    assert_eq!(status, 202, "{body}");
    let id = body["deliveries"][0]["id"].as_str().unwrap_or_default().to_owned();
    assert_eq!(h.delivery(&id).await["status"], "scheduled");

    // The message is lost: the test deletes everything on the delivery queue.
    h.stack
        .queue
        .client()
        .purge_queue()
        .queue_url(h.stack.queue.queue_url())
        .send()
        .await
        .unwrap_or_else(|e| panic!("purge: {e}"));

    // Overdue by more than the reconciler's grace (the memory-store tests show a
    // step inside the grace is left alone): re-enqueued, claimed and delivered.
    clock.advance_millis(600_000 + grace + 1_000);
    let d = h.settled(&id, Duration::from_secs(30)).await;
    assert_eq!(d["status"], "succeeded", "{d}");
    assert_eq!(rx.received().len(), 1, "delivered exactly once");
    let attempts = h.attempts(&id).await;
    assert_eq!(attempts.len(), 1);
    assert_eq!(attempts[0]["state"], "succeeded");

    h.stop().await;
}
