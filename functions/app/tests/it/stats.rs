//! Statistics through the public seams: attempts made by the sender are counted
//! once each, and the three stats routes answer the endpoint's, the application's
//! and the tenant's figures with exact values.

use crate::common;

use crate::common::{T0, World, status};
use serde_json::{Value, json};

fn totals(b: &Value) -> Value {
    json!({
        "attempts": b["totals"]["attempts"],
        "deliveries": b["totals"]["deliveries"],
        "p95": b["totals"]["durationMs"]["p95"],
        "backlog": b["backlog"],
    })
}

#[tokio::test]
async fn attempts_are_counted_once_and_summed_per_application_and_tenant() {
    // Tanitar retries a 500: a failure, then a success; the other endpoint's first
    // try succeeds. Every attempt takes 120 ms.
    let w = World::new(vec![status(500), status(200), status(200)], 120).await;
    let (s, app) = w
        .call("POST", "/v1/applications", json!({"name": "Acme", "uid": "acme"}))
        .await;
    assert_eq!(s, 201, "{app}");
    let (s, e) = w
        .call(
            "POST",
            "/v1/endpoints",
            json!({"url": "https://receiver.example/a", "policy": "tanitar", "applicationId": "acme"}),
        )
        .await;
    assert_eq!(s, 201, "{e}");
    let ep = e["id"].as_str().unwrap_or_default().to_owned();
    let other = w.endpoint(json!("tanitar")).await;
    let d = w.event(&ep).await;
    w.run(&d, 10).await;
    let d2 = w.event(&other).await;
    w.run(&d2, 10).await;
    // A duplicate of an already recorded step changes nothing.
    let dup = courier_app::ingest::first_message(&w.delivery(&d).await);
    w.sender
        .handle(&dup, &courier_app::delivery::EndpointCache::default())
        .await
        .unwrap();

    let (s, b) = w
        .call(
            "GET",
            &format!("/v1/endpoints/{ep}/stats?granularity=minute"),
            json!(null),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["granularity"], "minute");
    assert_eq!(
        totals(&b),
        json!({
            "attempts": {"succeeded": 1, "retryable_failure": 1, "terminal_failure": 0, "ambiguous": 0},
            "deliveries": {"succeeded": 1, "failed": 0, "dropped": 0},
            "p95": 250,
            "backlog": {"pending": 0, "retrying": 0, "scheduled": 0},
        })
    );
    let counted: u64 = b["buckets"]
        .as_array()
        .map(|a| a.iter().map(|x| x["attempts"]["succeeded"].as_u64().unwrap_or(0)).sum())
        .unwrap_or(0);
    assert_eq!(counted, 1);

    let (s, b) = w.call("GET", "/v1/applications/acme/stats", json!(null)).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["totals"]["attempts"]["succeeded"], 1);
    let (s, b) = w.call("GET", "/v1/stats?granularity=hour", json!(null)).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b["totals"]["attempts"],
        json!({"succeeded": 2, "retryable_failure": 1, "terminal_failure": 0, "ambiguous": 0})
    );
    assert_eq!(b["totals"]["deliveries"]["succeeded"], 2);
    assert_eq!(b["buckets"].as_array().map(Vec::len), Some(25));
    let first = T0.plus_millis(-T0.millis().rem_euclid(3_600_000)).plus_secs(-24 * 3600);
    assert_eq!(b["buckets"][0]["start"], json!(first.to_rfc3339()));
}

#[tokio::test]
async fn bad_windows_name_the_field() {
    let w = World::new(vec![], 0).await;
    let ep = w.endpoint(json!("tanitar")).await;
    for (query, field) in [
        ("granularity=week", "`granularity`"),
        ("granularity=minute&since=2020-01-01T00:00:00Z", "`since`"),
        ("until=yesterday", "`until`"),
    ] {
        let (s, b) = w
            .call("GET", &format!("/v1/endpoints/{ep}/stats?{query}"), json!(null))
            .await;
        assert_eq!(s, 400, "{query}: {b}");
        assert!(b["detail"].as_str().unwrap_or_default().contains(field), "{query}: {b}");
    }
}

#[tokio::test]
async fn a_delivery_dropped_at_ingest_is_counted_once() {
    // A 410 disables the SmartChat endpoint; its next events are dropped at ingest.
    let w = World::new(vec![status(410)], 10).await;
    let ep = w.endpoint(json!("smartchat")).await;
    let first = w.event(&ep).await;
    w.run(&first, 5).await;
    // Sent twice with one Idempotency-Key: the second finds the event stored.
    for _ in 0..2 {
        let body = json!({"endpointId": ep, "payload": {"k": 1}}).to_string();
        let (s, b, _) = common::raw(
            &w,
            "POST",
            "/v1/events",
            None,
            &[
                ("authorization", &format!("Bearer {}", common::KEY)),
                ("idempotency-key", "drop-once"),
            ],
            body.as_bytes(),
        )
        .await;
        assert_eq!(s, 202, "{b}");
        assert_eq!(b["deliveries"][0]["status"], "dropped", "{b}");
    }
    let (s, b) = w
        .call(
            "GET",
            &format!("/v1/endpoints/{ep}/stats?granularity=minute"),
            json!(null),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b["totals"]["deliveries"],
        json!({"succeeded": 0, "failed": 1, "dropped": 1})
    );
    assert_eq!(
        b["totals"]["attempts"],
        json!({"succeeded": 0, "retryable_failure": 0, "terminal_failure": 1, "ambiguous": 0})
    );
}

#[tokio::test]
async fn summed_figures_are_served_again_for_a_minute() {
    let w = World::new(vec![status(200), status(200)], 10).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let d = w.event(&ep).await;
    w.run(&d, 5).await;
    let read = |path: &'static str| async {
        let (s, b) = w.call("GET", path, json!(null)).await;
        assert_eq!(s, 200, "{b}");
        b["totals"]["attempts"]["succeeded"].as_u64()
    };
    assert_eq!(read("/v1/stats?granularity=hour").await, Some(1));
    let d2 = w.event(&ep).await;
    w.run(&d2, 5).await;
    // The endpoint's own figures are counters, read every time; the tenant's sum
    // is the one computed less than a minute ago.
    let (_, own) = w
        .call(
            "GET",
            &format!("/v1/endpoints/{ep}/stats?granularity=hour"),
            json!(null),
        )
        .await;
    assert_eq!(own["totals"]["attempts"]["succeeded"], 2);
    assert_eq!(read("/v1/stats?granularity=hour").await, Some(1));
    w.clock.advance_secs(60);
    assert_eq!(read("/v1/stats?granularity=hour").await, Some(2));
}
