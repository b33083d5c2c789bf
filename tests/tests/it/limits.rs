//! End-to-end: per-endpoint limits on the local stack (moto, the real DynamoDB
//! limiter, the sender pollers), measured by the receivers' own request-start
//! timestamps: a rate limit never exceeded, an in-flight cap never overlapped, a
//! hanging endpoint under a cap not delaying another endpoint, and one without any
//! limit moved to the slow lane instead of holding every sender.

use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use serde_json::{Value, json};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

async fn receiver(script: Vec<Reply>) -> ScriptedReceiver {
    ScriptedReceiver::start(script)
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"))
}

async fn endpoint(h: &Harness, url: &str, extra: Value) -> String {
    let mut body = json!({"url": url, "policy": "greatwait"});
    for (k, v) in extra.as_object().into_iter().flatten() {
        body[k] = v.clone();
    }
    let (status, b) = h.call("POST", "/v1/endpoints", Some(body)).await;
    assert_eq!(status, 201, "create endpoint: {b}");
    b["id"].as_str().unwrap_or_default().to_owned()
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The most request starts in any window of `window_ms` (starts sorted).
fn most_in_window(starts: &[i64], window_ms: i64) -> usize {
    (0..starts.len())
        .map(|i| starts[i..].iter().take_while(|s| **s < starts[i] + window_ms).count())
        .max()
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_per_second_burst_two_never_exceeds_four_starts_in_a_second() {
    let h = Harness::start(test_options("limit-rate")).await;
    let rx = receiver(vec![Reply::Status(204)]).await;
    let ep = endpoint(&h, &rx.url(), json!({"rateLimit": {"perSecond": 2, "burst": 2}})).await;
    let mut ids = Vec::new();
    for i in 0..20 {
        ids.push(h.event(&ep, json!({"n": i})).await);
    }
    // While they wait their turn, held deliveries show when their attempt may start
    // (20 at 2/s take about 9 s, so some delivery is held for most of that time).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(8);
    let mut held = None;
    'look: while tokio::time::Instant::now() < deadline {
        for id in ids.iter().rev() {
            let d = h.delivery(id).await;
            if !d["throttledUntil"].is_null() {
                held = Some(d);
                break 'look;
            }
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let held = held.expect("a held delivery shows throttledUntil");
    assert!(
        held["throttledUntil"].as_str() > held["createdAt"].as_str(),
        "held until after its creation: {held}"
    );
    assert_eq!(held["attemptCount"], 0, "a hold is not an attempt: {held}");
    let got = rx.wait_for(20, Duration::from_secs(60)).await;
    let mut starts: Vec<i64> = got.iter().map(|r| r.at_ms).collect();
    starts.sort_unstable();
    let most = most_in_window(&starts, 1000);
    println!(
        "rate 2/s burst 2: 20 starts over {} ms, at most {most} in any second",
        starts.last().unwrap_or(&0) - starts.first().unwrap_or(&0)
    );
    assert_eq!(starts.len(), 20, "every delivery arrives once");
    assert!(most <= 4, "{most} starts in one second: {starts:?}");
    for id in &ids {
        let d = h.settled(id, Duration::from_secs(30)).await;
        assert_eq!(
            (
                d["status"].as_str(),
                d["attemptCount"].as_u64(),
                d["throttledUntil"].is_null()
            ),
            (Some("succeeded"), Some(1), true)
        );
    }
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_in_flight_one_never_overlaps_two_requests() {
    let h = Harness::start(test_options("limit-inflight")).await;
    // Each request is answered after 300 ms: a request starting less than 300 ms
    // after the one before overlapped it.
    let rx = receiver(vec![Reply::Hang(Duration::from_millis(300))]).await;
    let ep = endpoint(&h, &rx.url(), json!({"maxInFlight": 1})).await;
    let mut ids = Vec::new();
    for i in 0..8 {
        ids.push(h.event(&ep, json!({"n": i})).await);
    }
    let got = rx.wait_for(8, Duration::from_secs(60)).await;
    let mut starts: Vec<i64> = got.iter().map(|r| r.at_ms).collect();
    starts.sort_unstable();
    assert_eq!(starts.len(), 8);
    let gaps: Vec<i64> = starts.windows(2).map(|w| w[1] - w[0]).collect();
    println!("maxInFlight 1: gaps between starts {gaps:?} ms");
    assert!(gaps.iter().all(|g| *g >= 300), "overlapping requests: gaps {gaps:?}");
    for id in &ids {
        let d = h.settled(id, Duration::from_secs(30)).await;
        assert_eq!(d["status"], "succeeded");
    }
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_endpoint_under_a_cap_does_not_delay_another() {
    let h = Harness::start(test_options("limit-isolation")).await;
    // Hangs past its 3 s timeout on every attempt, with many deliveries waiting.
    let hanging = receiver(vec![Reply::Hang(Duration::from_secs(10))]).await;
    let slow = endpoint(&h, &hanging.url(), json!({"maxInFlight": 2, "timeoutMs": 3000})).await;
    let fast_rx = receiver(vec![Reply::Status(204)]).await;
    let fast = endpoint(&h, &fast_rx.url(), json!({})).await;
    for i in 0..30 {
        h.event(&slow, json!({"n": i})).await;
    }
    // Let the hanging attempts start and the held ones cycle through their re-delays.
    let _ = hanging.wait_for(2, Duration::from_secs(10)).await;
    let mut sent_at = Vec::new();
    for i in 0..10 {
        sent_at.push(now_ms());
        h.event(&fast, json!({"n": i})).await;
        tokio::time::sleep(Duration::from_millis(700)).await;
    }
    let got = fast_rx.wait_for(10, Duration::from_secs(30)).await;
    assert_eq!(got.len(), 10, "every fast delivery arrives");
    let mut arrivals: Vec<i64> = got.iter().map(|r| r.at_ms).collect();
    arrivals.sort_unstable();
    // Each event's own delivery: the n-th arrival belongs to the n-th event (sent
    // 700 ms apart, each within a second).
    let delays: Vec<i64> = sent_at.iter().zip(&arrivals).map(|(s, a)| a - s).collect();
    let overlapping = hanging.received().len();
    println!("isolation: fast endpoint delays {delays:?} ms while the hanging one had {overlapping} requests");
    assert!(
        delays.iter().all(|d| *d <= 1_200),
        "a delivery to the fast endpoint waited: {delays:?}"
    );
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_endpoint_without_limits_moves_to_the_slow_lane() {
    let h = Harness::start(test_options("slow-lane")).await;
    // Every attempt hangs past the endpoint's 15 s timeout; no limit is set.
    let hanging = receiver(vec![Reply::Hang(Duration::from_secs(20))]).await;
    let slow = endpoint(&h, &hanging.url(), json!({"timeoutMs": 15000})).await;
    let fast_rx = receiver(vec![Reply::Status(204)]).await;
    let fast = endpoint(&h, &fast_rx.url(), json!({})).await;
    for i in 0..40 {
        h.event(&slow, json!({"n": i})).await;
    }
    let mut ids = Vec::new();
    for i in 0..5 {
        ids.push(h.event(&fast, json!({"n": i})).await);
    }
    // Without lanes every poller holds a hanging attempt until its 15 s timeout, and
    // nothing else is sent meanwhile.
    let got = fast_rx.wait_for(5, Duration::from_secs(10)).await;
    assert_eq!(
        got.len(),
        5,
        "every fast delivery arrives while the hanging attempts are open"
    );
    let open = hanging.received().len();
    assert!(
        (1..=20).contains(&open),
        "the hanging endpoint holds one batch per lane at most (10 messages each), got {open} requests"
    );
    for id in &ids {
        assert_eq!(h.delivery(id).await["status"], "succeeded");
    }
    h.stop().await;
}
