//! What the safety nets put back on the queue keeps the nature of what was lost:
//! a redelivery whose message was lost after the delivery was reopened goes out,
//! when the reconciler finds it, as that redelivery under the attempt id the 202
//! promised.

use crate::common::{KEY, World, raw, status};
use courier_app::delivery::StepOutcome;
use courier_app::domain::delivery_message::Trigger;
use courier_app::maintenance::reconcile::{ReconcileSettings, reconcile};
use courier_app::ports::Clock;
use serde_json::json;

#[tokio::test]
async fn a_reopened_redelivery_recovered_by_the_reconciler_keeps_its_promised_attempt() {
    let w = World::new(vec![status(200)], 5).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    w.run(&id, 5).await;
    assert_eq!(w.delivery(&id).await.attempt_count, 1);
    let auth = format!("Bearer {KEY}");
    let headers = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
        ("idempotency-key", "again-1"),
    ];
    let path = format!("/v1/deliveries/{id}/redeliver");
    let (s, answer, _) = raw(&w, "POST", &path, None, &headers, b"{}").await;
    assert_eq!(s, 202, "{answer}");
    let promised = answer["attemptId"].as_str().unwrap_or_default().to_owned();
    assert_eq!(answer["attemptNumber"], json!(2));
    // The redelivery's message is lost.
    assert_eq!(w.queue.drain_visible(w.clock.now()).len(), 1);
    // Greatwait's realtime horizon (planned + 15 min) is long past by the time the
    // reconciler looks: a plain retry would settle by deadline without a request.
    w.clock.advance_millis(3_600_000);
    let report = reconcile(
        w.store.as_ref(),
        w.store.as_ref(),
        &w.api.planner,
        w.clock.as_ref(),
        ReconcileSettings::default(),
    )
    .await
    .unwrap();
    assert_eq!(report.requeued, vec![id.clone()]);
    let waiting = w.queue.waiting();
    assert_eq!(waiting.len(), 1);
    let m = &waiting[0].message;
    assert_eq!(
        (m.attempt, m.trigger, m.attempt_id.as_ref().map(|a| a.to_string())),
        (2, Trigger::Redelivery, Some(promised.clone()))
    );
    let outcomes = w.step().await;
    let [StepOutcome::Attempted { attempt, .. }] = outcomes.as_slice() else {
        panic!("{outcomes:?}")
    };
    assert_eq!((attempt.id.to_string(), attempt.number), (promised, 2));
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or_default(), 2);
    let d = w.delivery(&id).await;
    assert_eq!(
        (d.status.as_str(), d.attempt_count, d.redelivery),
        ("succeeded", 2, None)
    );
}
