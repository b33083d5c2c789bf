//! Replay of an endpoint's failed deliveries: each message goes out once per call,
//! under its own webhook-id, however often earlier replays of it failed.

use crate::common::{World, status};
use serde_json::{Value, json};

/// (webhook-id, trigger) of every delivery of `ep`, sorted.
async fn deliveries(w: &World, ep: &str) -> Vec<(String, String)> {
    let (s, b) = w
        .call("GET", &format!("/v1/endpoints/{ep}/deliveries?limit=100"), json!({}))
        .await;
    assert_eq!(s, 200, "{b}");
    let mut out: Vec<(String, String)> = b["items"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|d| {
            (
                d["webhookId"].as_str().unwrap_or_default().to_owned(),
                d["trigger"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn repeated_replays_of_failed_messages_send_each_message_once_per_call() {
    // Every attempt fails; the policy `{}` makes one attempt, so each delivery
    // settles `failed` at its first step.
    let w = World::new((0..6).map(|_| status(503)).collect(), 0).await;
    let ep = w.endpoint(json!({})).await;
    let first = w.event(&ep).await;
    let second = w.event(&ep).await;
    w.step().await;
    let path = format!("/v1/endpoints/{ep}/replay-dead");
    let (s, b) = w.call("POST", &path, Value::Null).await;
    assert_eq!((s, b), (202, json!({"endpointId": ep, "replayed": 2})));
    w.step().await;
    // Both messages have failed twice now (the original and its replay): they go
    // out once each again, not once per failed delivery.
    let (s, b) = w.call("POST", &path, Value::Null).await;
    assert_eq!((s, b), (202, json!({"endpointId": ep, "replayed": 2})));
    w.step().await;
    let (a, b) = (first.to_string(), second.to_string());
    let mut want = vec![
        (a.clone(), "initial".to_owned()),
        (a.clone(), "replay".to_owned()),
        (a, "replay".to_owned()),
        (b.clone(), "initial".to_owned()),
        (b.clone(), "replay".to_owned()),
        (b, "replay".to_owned()),
    ];
    want.sort();
    assert_eq!(deliveries(&w, &ep).await, want);
}
