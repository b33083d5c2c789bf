//! End-to-end: endpoint health and states on the local stack, with short custom
//! thresholds so each rule plays out in seconds; and the dead-letter queue.

use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::ports::Faults;
use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

const SETTLE: Duration = Duration::from_secs(60);

async fn receiver(script: Vec<Reply>) -> ScriptedReceiver {
    ScriptedReceiver::start(script)
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tanitar_disable_and_revoke_kill_pending_deliveries_without_sending() {
    let h = Harness::start(test_options("tan-states")).await;
    let rx = receiver(vec![Reply::Status(503)]).await;
    for (action, reason) in [("disable", "ENDPOINT_DISABLED"), ("revoke", "ENDPOINT_REVOKED")] {
        let (ep, _) = h
            .endpoint(&rx.url(), json!({"base": "tanitar", "waitsSeconds": [2]}))
            .await;
        let before = rx.received().len();
        let id = h.event(&ep, json!({})).await;
        rx.wait_for(before + 1, Duration::from_secs(20)).await;
        let (s, b) = h
            .call("POST", &format!("/v1/endpoints/{ep}/{action}"), Some(json!({})))
            .await;
        assert_eq!(s, 200, "{b}");
        let d = h.settled(&id, SETTLE).await;
        assert_eq!(d["status"], "failed");
        assert_eq!(d["deadReason"], reason);
        assert_eq!(
            rx.received().len(),
            before + 1,
            "after {action}, no request reached the receiver"
        );
        let a = h.attempts(&id).await;
        assert_eq!(a.len(), 2);
        assert_eq!(
            a[1]["diagnostic"],
            if action == "disable" {
                "endpoint_disabled"
            } else {
                "endpoint_revoked"
            }
        );
        assert!(a[1]["responseStatus"].is_null());
    }
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gavai_breaker_opens_drops_resets_and_closes() {
    let h = Harness::start(test_options("breaker")).await;
    let rx = receiver(vec![Reply::Status(500), Reply::Status(500), Reply::Status(200)]).await;
    let policy = json!({"base": "gavai", "maxAttempts": 1, "health": {"model": "breaker", "exhaustedInARow": 2, "openSeconds": 4}});
    let (ep, _) = h.endpoint(&rx.url(), policy).await;
    for _ in 0..2 {
        let id = h.event(&ep, json!({})).await;
        assert_eq!(h.settled(&id, SETTLE).await["deadReason"], "max_attempts");
    }
    let view = endpoint_once(&h, &ep, "/breaker/state", json!("open"), Duration::from_secs(5)).await;
    assert_eq!(view["breaker"]["state"], "open");
    // While open: new events are recorded as dropped, a test event is refused.
    let dropped = h.event(&ep, json!({"n": "dropped"})).await;
    let d = h.delivery(&dropped).await;
    assert_eq!(
        (d["status"].as_str(), d["deadReason"].as_str()),
        (Some("dropped"), Some("breaker_open"))
    );
    let (s, b) = h
        .call("POST", &format!("/v1/endpoints/{ep}/test"), Some(json!({})))
        .await;
    assert_eq!((s, b["code"].as_str()), (409, Some("breaker_open")));
    let (_, log) = h.call("GET", &format!("/v1/events?endpointId={ep}"), None).await;
    assert_eq!(
        log["items"][0]["deliveries"][0]["outcome"], "dropped",
        "the audit log keeps dropped events"
    );
    assert_eq!(rx.received().len(), 2);
    // After the open period it resets by itself; the next success closes it.
    tokio::time::sleep(Duration::from_secs(4)).await;
    let (_, view) = h.call("GET", &format!("/v1/endpoints/{ep}"), None).await;
    assert_eq!(view["breaker"]["state"], "closed");
    let ok = h.event(&ep, json!({})).await;
    assert_eq!(h.settled(&ok, SETTLE).await["status"], "succeeded");
    let view = endpoint_once(&h, &ep, "/breaker/exhaustedInARow", json!(0), Duration::from_secs(5)).await;
    assert_eq!(view["breaker"]["exhaustedInARow"], 0);
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smartchat_degrades_recovers_and_is_disabled_by_410_then_enabled_with_replay() {
    let h = Harness::start(test_options("smart")).await;
    let rx = receiver(vec![
        Reply::Status(500),
        Reply::Status(500),
        Reply::Status(200),
        Reply::Status(410),
        Reply::Status(200),
    ])
    .await;
    let policy = json!({
        "base": "smartchat",
        "maxAttempts": 3,
        "waitsSeconds": [1, 6],
        "jitter": {"min": 1, "max": 1},
        "health": {"model": "smartchat", "degradeAfterFailures": 2, "pauseAfterFailures": 20, "pauseAfterSeconds": 259200, "disableAfterSeconds": 604800}
    });
    let (ep, _) = h.endpoint(&rx.url(), policy).await;
    let first = h.event(&ep, json!({"n": 1})).await;
    // 500, 500 (degraded after 2 in a row), then, 6 s later, 200 (active again). The
    // degraded spell lasts the whole wait; it is looked for in its first 5 s, which
    // leaves a loaded machine seconds to record the second attempt (it had 2.5 s of
    // a 3 s wait before).
    rx.wait_for(2, SETTLE).await;
    let view = endpoint_once(&h, &ep, "/status", json!("degraded"), Duration::from_secs(5)).await;
    assert_eq!(view["status"], "degraded");
    assert_eq!(h.settled(&first, SETTLE).await["status"], "succeeded");
    let view = endpoint_once(&h, &ep, "/status", json!("active"), Duration::from_secs(5)).await;
    assert_eq!(view["status"], "active");
    // 410 disables the endpoint at once; the delivery fails.
    let gone = h.event(&ep, json!({"n": 2})).await;
    let d = h.settled(&gone, SETTLE).await;
    assert_eq!(
        (d["status"].as_str(), d["deadReason"].as_str()),
        (Some("failed"), Some("endpoint_disabled"))
    );
    let view = endpoint_once(&h, &ep, "/status", json!("disabled"), Duration::from_secs(5)).await;
    assert_eq!(view["status"], "disabled");
    // Events while disabled are not queued.
    let missed = h.event(&ep, json!({"n": 3})).await;
    assert_eq!(h.delivery(&missed).await["status"], "dropped");
    assert_eq!(rx.received().len(), 4);
    // Enable with replaySince re-sends what the endpoint missed (and the 410'd one).
    let since = courier_core::Timestamp(courier_e2e::ms(&h.delivery(&gone).await["createdAt"])).to_rfc3339();
    let (s, b) = h
        .call(
            "POST",
            &format!("/v1/endpoints/{ep}/enable"),
            Some(json!({"replaySince": since})),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["status"], "active");
    assert_eq!(b["replayed"], 2);
    let got = rx.wait_for(6, SETTLE).await;
    assert_eq!(got.len(), 6);
    let bodies: Vec<serde_json::Value> = got[4..]
        .iter()
        .map(|r| serde_json::from_slice(&r.body).unwrap_or_default())
        .collect();
    assert!(bodies.iter().all(|b| b["trigger"] == "replay"));
    let mut ns: Vec<i64> = bodies.iter().filter_map(|b| b["data"]["n"].as_i64()).collect();
    ns.sort();
    assert_eq!(ns, [2, 3]);
    h.stop().await;
}

/// The endpoint's view once the value at `pointer` is `want`, or the last view read
/// when `within` runs out first. Health and breaker state are written after the
/// attempt they follow from, so they may trail the delivery's settled state.
async fn endpoint_once(h: &Harness, ep: &str, pointer: &str, want: Value, within: Duration) -> Value {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        let (_, view) = h.call("GET", &format!("/v1/endpoints/{ep}"), None).await;
        if view.pointer(pointer) == Some(&want) || tokio::time::Instant::now() >= deadline {
            return view;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Fails every step while set, as if storage were down.
struct Outage(AtomicBool);
impl Faults for Outage {
    fn fail_step(&self, _m: &DeliveryMessage) -> bool {
        self.0.load(Ordering::SeqCst)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_that_lands_in_the_dlq_is_visible_and_can_be_redriven() {
    let outage = Arc::new(Outage(AtomicBool::new(true)));
    let mut opts = test_options("dlq");
    opts.faults = outage.clone();
    opts.visibility_timeout_seconds = 1;
    let h = Harness::start(opts).await;
    let rx = receiver(vec![Reply::Status(200)]).await;
    let (ep, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let id = h.event(&ep, json!({})).await;
    // Five failed receives, then SQS moves the message to the DLQ, where the
    // dead-letter handler marks the delivery.
    let deadline = tokio::time::Instant::now() + SETTLE;
    let marked = loop {
        let d = h.delivery(&id).await;
        if !d["deadLetteredAt"].is_null() {
            break d;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the delivery was never marked dead-lettered: {d}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert_eq!(marked["status"], "pending");
    assert_eq!(rx.received().len(), 0);
    outage.0.store(false, Ordering::SeqCst);
    let (s, b) = h
        .call("POST", &format!("/v1/deliveries/{id}/redrive"), Some(json!({})))
        .await;
    assert_eq!(s, 202, "{b}");
    assert!(b["deadLetteredAt"].is_null());
    assert_eq!(h.settled(&id, SETTLE).await["status"], "succeeded");
    assert_eq!(rx.received().len(), 1);
    let (s, b) = h
        .call("POST", &format!("/v1/deliveries/{id}/redrive"), Some(json!({})))
        .await;
    assert_eq!((s, b["code"].as_str()), (409, Some("conflict")));
    h.stop().await;
}
