//! End-to-end: `POST /v1/events/batch` on the local stack (moto SQS and DynamoDB,
//! the real sender): every accepted entry reaches the receiver once, signed, while a
//! bad entry is answered alone.

use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use serde_json::{Value, json};
use std::time::Duration;

const SETTLE: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_twelve_delivers_each_accepted_event_once_and_answers_a_bad_one_alone() {
    let h = Harness::start(test_options("batch")).await;
    let rx = ScriptedReceiver::start(vec![Reply::Status(200)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"));
    let (ep, _) = h.endpoint(&rx.url(), json!({})).await;
    // Twelve entries: more than one SendMessageBatch call of ten.
    let mut events: Vec<Value> = (0..11)
        .map(|n| json!({"endpointId": ep, "payload": {"n": n}}))
        .collect();
    events.insert(4, json!({"endpointId": "ep_01JAAAAAAAAAAAAAAAAAAAAAAA", "payload": 0}));
    let (s, b) = h
        .call("POST", "/v1/events/batch", Some(json!({"events": events})))
        .await;
    assert_eq!(s, 207, "{b}");
    let results = b["results"].as_array().cloned().unwrap_or_default();
    assert_eq!(results.len(), 12);
    assert_eq!(results[4]["status"], 404);
    assert_eq!(results[4]["problem"]["code"], "not_found");
    let mut ids = Vec::new();
    for (i, r) in results.iter().enumerate() {
        if i != 4 {
            assert_eq!(r["status"], 202, "{r}");
            ids.push(r["deliveries"][0]["id"].as_str().unwrap_or_default().to_owned());
        }
    }
    for id in &ids {
        let d = h.settled(id, SETTLE).await;
        assert_eq!(d["status"], "succeeded", "{d}");
    }
    rx.wait_for(11, Duration::from_secs(20)).await;
    assert_eq!(rx.received().len(), 11);
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_messages_over_a_megabyte_together_go_in_several_batch_calls() {
    let h = Harness::start(test_options("batchbig")).await;
    let rx = ScriptedReceiver::start(vec![Reply::Status(200)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"));
    let mut eps = Vec::new();
    for _ in 0..6 {
        eps.push(h.endpoint(&rx.url(), json!({})).await.0);
    }
    // One event for six endpoints with a 200 KiB payload: six first messages that
    // each carry the body, over SQS's 1 MiB per SendMessageBatch together.
    let payload = json!({"blob": "x".repeat(200 * 1024)});
    let (s, b) = h
        .call(
            "POST",
            "/v1/events/batch",
            Some(json!({"events": [{"endpointIds": eps, "payload": payload}]})),
        )
        .await;
    assert_eq!(s, 207, "{b}");
    assert_eq!(b["results"][0]["status"], 202, "{b}");
    let ids: Vec<String> = b["results"][0]["deliveries"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|d| d["id"].as_str().unwrap_or_default().to_owned())
        .collect();
    assert_eq!(ids.len(), 6, "{b}");
    for id in &ids {
        let d = h.settled(id, SETTLE).await;
        assert_eq!(
            (d["status"].clone(), d["deadLetteredAt"].clone()),
            (json!("succeeded"), Value::Null),
            "{d}"
        );
    }
    rx.wait_for(6, Duration::from_secs(20)).await;
    assert_eq!(rx.received().len(), 6);
    h.stop().await;
}
