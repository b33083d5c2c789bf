//! End-to-end: the delivery pipeline on the local stack (moto emulator, real SDK
//! adapters, real HTTP receivers on 127.0.0.1:0).

use courier_app::delivery::SenderSettings;
use courier_app::domain::delivery_message::{DeliveryMessage, Trigger};
use courier_app::pipeline::planner::PlannerSettings;
use courier_app::ports::Faults;
use courier_app::ports::Queue;
use courier_core::ids::{DeliveryId, EndpointId};
use courier_core::signing::{SigningSecret, verify};
use courier_e2e::{Harness, Reply, ScriptedReceiver, ms, test_options};
use courier_local::display::StepSink;
use courier_sender::RecordResult;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

const SETTLE: Duration = Duration::from_secs(60);

async fn receiver(script: Vec<Reply>) -> ScriptedReceiver {
    ScriptedReceiver::start(script)
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_attempt_succeeds_with_a_verifiable_signature() {
    let h = Harness::start(test_options("first-ok")).await;
    let rx = receiver(vec![Reply::Status(204)]).await;
    let (ep, secret) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let id = h.event(&ep, json!({"order": 42, "note": "héllo"})).await;
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded");
    assert_eq!(d["attemptCount"], 1);
    let got = rx.received();
    assert_eq!(got.len(), 1);
    let r = &got[0];
    assert_eq!(r.header("webhook-id"), Some(id.as_str()));
    assert_eq!(r.header("webhook-attempt"), Some("1"));
    assert_eq!(r.header("content-type"), Some("application/json"));
    let attempts = h.attempts(&id).await;
    assert_eq!(attempts.len(), 1);
    assert_eq!(r.header("webhook-attempt-id"), attempts[0]["id"].as_str());
    assert_eq!(attempts[0]["state"], "succeeded");
    assert_eq!(attempts[0]["diagnostic"], "delivered");
    assert_eq!(attempts[0]["responseStatus"], 204);
    let ts: i64 = r.header("webhook-timestamp").and_then(|t| t.parse().ok()).unwrap_or(-1);
    let secret = SigningSecret::parse(&secret).unwrap();
    assert!(
        verify(&secret, &id, ts, &r.body, r.header("webhook-signature").unwrap_or("")),
        "signature must verify"
    );
    assert!(
        !verify(
            &secret,
            &id,
            ts + 1,
            &r.body,
            r.header("webhook-signature").unwrap_or("")
        ),
        "a changed timestamp must not verify"
    );
    let envelope: Value = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
    assert_eq!(envelope["data"], json!({"order": 42, "note": "héllo"}));
    assert_eq!(envelope["trigger"], "scheduled");
    assert_eq!(envelope["type"], "test.event");
    assert_eq!(envelope["id"], d["eventId"]);
    h.stop().await;
}

/// An endpoint's own headers reach a real receiver as set, beside the signed ones;
/// a secret value is in no API answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn custom_headers_reach_the_receiver() {
    let h = Harness::start(test_options("custom-headers")).await;
    let rx = receiver(vec![Reply::Status(200)]).await;
    let (s, b) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({
                "url": rx.url(),
                "policy": "greatwait",
                "headers": [
                    {"name": "X-Api-Key", "value": "rk_live_42", "secret": true},
                    {"name": "X-Team", "value": "payments"},
                ],
            })),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert!(!b.to_string().contains("rk_live_42"), "{b}");
    let ep = b["id"].as_str().unwrap_or_default().to_owned();
    let id = h.event(&ep, json!({"n": 1})).await;
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded", "{d}");
    let got = rx.received();
    assert_eq!(got.len(), 1);
    assert_eq!(
        (
            got[0].header("x-api-key"),
            got[0].header("x-team"),
            got[0].header("webhook-id")
        ),
        (Some("rk_live_42"), Some("payments"), Some(id.as_str()))
    );
    let (_, attempts) = h.call("GET", &format!("/v1/deliveries/{id}/attempts"), None).await;
    assert!(!attempts.to_string().contains("rk_live_42"), "{attempts}");
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn greatwait_retries_at_its_waits_never_early() {
    let h = Harness::start(test_options("gw-ladder")).await;
    let rx = receiver(vec![Reply::Status(503), Reply::Status(503), Reply::Status(200)]).await;
    let (ep, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let id = h.event(&ep, json!({})).await;
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded");
    let a = h.attempts(&id).await;
    assert_eq!(a.len(), 3);
    let states: Vec<&str> = a.iter().map(|x| x["state"].as_str().unwrap_or("")).collect();
    assert_eq!(states, ["retryable_failure", "retryable_failure", "succeeded"]);
    // Greatwait waits 2 s then 5 s after each failed attempt's end, stretched x1..x2.
    for (i, (lo, hi)) in [(2_000, 4_000), (5_000, 10_000)].into_iter().enumerate() {
        let end = ms(&a[i]["startedAt"]) + a[i]["durationMs"].as_i64().unwrap_or(0);
        let planned = ms(&a[i]["nextAttemptAt"]);
        let wait = planned - end;
        // The wait counts from the sender's own timestamp after the request, which can
        // trail start + duration a little on a busy machine (never precede it).
        assert!(
            wait >= lo - 50 && wait <= hi + 1_000,
            "wait before attempt {} was {wait} ms",
            i + 2
        );
        let started = ms(&a[i + 1]["startedAt"]);
        assert!(
            started >= planned,
            "attempt {} started {} ms early",
            i + 2,
            planned - started
        );
        assert!(
            started - planned < 5_000,
            "attempt {} started {} ms late",
            i + 2,
            started - planned
        );
    }
    assert_eq!(rx.received().len(), 3);
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limited_answer_waits_for_retry_after() {
    let h = Harness::start(test_options("gw-429")).await;
    let rx = receiver(vec![
        Reply::Full {
            status: 429,
            headers: vec![
                ("retry-after".into(), "5".into()),
                ("x-request-id".into(), "req-1".into()),
            ],
            body: "{\"error\":\"slow down\"}".into(),
        },
        Reply::Status(200),
    ])
    .await;
    let (ep, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let id = h.event(&ep, json!({})).await;
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded");
    let a = h.attempts(&id).await;
    assert_eq!(a.len(), 2);
    assert_eq!(a[0]["diagnostic"], "rate_limited");
    assert_eq!(a[0]["countsTowardReceiverFailures"], false);
    assert_eq!(a[0]["responseHeaders"]["retry-after"], "5");
    assert_eq!(a[0]["responseHeaders"]["x-request-id"], "req-1");
    assert_eq!(a[0]["failureSnippet"], "{\"error\":\"slow down\"}");
    let end = ms(&a[0]["startedAt"]) + a[0]["durationMs"].as_i64().unwrap_or(0);
    // Normal wait is 2-4 s; Retry-After 5 s is longer, so it wins.
    assert!(ms(&a[0]["nextAttemptAt"]) - end >= 5_000 - 50);
    assert!(ms(&a[1]["startedAt"]) >= ms(&a[0]["nextAttemptAt"]));
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tanitar_410_kills_the_delivery_without_another_attempt() {
    let h = Harness::start(test_options("tan-410")).await;
    let rx = receiver(vec![Reply::Status(410)]).await;
    let (ep, _) = h
        .endpoint(&rx.url(), json!({"base": "tanitar", "waitsSeconds": [1]}))
        .await;
    let id = h.event(&ep, json!({})).await;
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "failed");
    assert_eq!(d["deadReason"], "ENDPOINT_GONE");
    // Longer than the 1 s ladder: nothing more may arrive.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert_eq!(rx.received().len(), 1);
    assert_eq!(rx.received()[0].header("tanitar-delivery-attempt"), Some("1"));
    let a = h.attempts(&id).await;
    assert_eq!(a.len(), 1);
    assert_eq!(a[0]["diagnostic"], "endpoint_gone");
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeout_is_ambiguous_then_retried_with_same_webhook_id() {
    let h = Harness::start(test_options("timeout")).await;
    let rx = receiver(vec![Reply::Hang(Duration::from_secs(3)), Reply::Status(200)]).await;
    let (ep, _) = h
        .endpoint(&rx.url(), json!({"base": "greatwait", "timeoutMs": 500}))
        .await;
    let id = h.event(&ep, json!({})).await;
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded");
    let a = h.attempts(&id).await;
    assert_eq!(a.len(), 2);
    assert_eq!(a[0]["state"], "ambiguous");
    assert_eq!(a[0]["diagnostic"], "network_ambiguous");
    assert_eq!(a[0]["errorClass"], "timeout");
    assert_eq!(a[0]["remediation"], "review_before_redelivery");
    let got = rx.received();
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].header("webhook-id"), got[1].header("webhook-id"));
    assert_ne!(got[0].header("webhook-attempt-id"), got[1].header("webhook-attempt-id"));
    assert_eq!(got[0].body, got[1].body, "automatic retries send identical bytes");
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_queue_message_sends_nothing_twice() {
    let h = Harness::start(test_options("dup")).await;
    let rx = receiver(vec![Reply::Hang(Duration::from_millis(800)), Reply::Status(200)]).await;
    let (ep, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let id = h.event(&ep, json!({})).await;
    let dup = DeliveryMessage {
        v: 1,
        delivery_id: DeliveryId::parse(&id).unwrap(),
        tenant_id: h.stack.tenant.id.clone(),
        endpoint_id: EndpointId::parse(&ep).unwrap(),
        attempt: 1,
        not_before: courier_core::Timestamp(0),
        trigger: Trigger::Initial,
        source_attempt_id: None,
        attempt_id: None,
        completion_check: false,
        body: None,
    };
    // Twice more, once attempt 1 is in flight (the receiver holds it 800 ms): one
    // lands while it is, one after it. Not before: two claims of the same instant
    // would meet in moto, whose server handles requests on threads without making a
    // conditional write atomic (DynamoDB does), and both could pass.
    assert_eq!(
        rx.wait_for(1, Duration::from_secs(5)).await.len(),
        1,
        "attempt 1 is in flight"
    );
    h.stack.queue.send(&dup, 0).await.unwrap();
    h.stack.queue.send(&dup, 1).await.unwrap();
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded");
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(rx.received().len(), 1, "the receiver must see attempt 1 once");
    assert_eq!(h.attempts(&id).await.len(), 1);
    h.stop().await;
}

/// Crashes the first attempt of every delivery after the request went out.
struct CrashOnce(AtomicBool);
impl Faults for CrashOnce {
    fn crash_after_send(&self, m: &DeliveryMessage) -> bool {
        m.attempt == 1 && !self.0.swap(true, Ordering::SeqCst)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn crash_after_send_is_recorded_ambiguous_and_retried() {
    let mut opts = test_options("crash");
    opts.faults = Arc::new(CrashOnce(AtomicBool::new(false)));
    // Lease = timeout (1 s) + 500 ms; the message comes back after 2 s, past the lease.
    opts.sender = SenderSettings {
        lease_margin_ms: 500,
        ..SenderSettings::default()
    };
    opts.visibility_timeout_seconds = 2;
    let h = Harness::start(opts).await;
    let rx = receiver(vec![Reply::Status(200)]).await;
    let (ep, _) = h
        .endpoint(&rx.url(), json!({"base": "greatwait", "timeoutMs": 1000}))
        .await;
    let id = h.event(&ep, json!({})).await;
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded");
    let a = h.attempts(&id).await;
    assert_eq!(a.len(), 2, "{a:?}");
    assert_eq!(a[0]["number"], 1);
    assert_eq!(a[0]["state"], "ambiguous");
    assert_eq!(a[0]["diagnostic"], "network_ambiguous");
    assert_eq!(a[1]["number"], 2);
    assert_eq!(a[1]["state"], "succeeded");
    let got = rx.received();
    assert_eq!(got.len(), 2);
    assert_eq!(
        got[0].header("webhook-attempt-id"),
        a[0]["id"].as_str(),
        "the lost attempt keeps the id the receiver saw"
    );
    assert_eq!(got[0].header("webhook-id"), got[1].header("webhook-id"));
    h.stop().await;
}

#[derive(Default)]
struct FiredSchedules(Mutex<Vec<String>>);
impl StepSink for FiredSchedules {
    fn step(&self, _r: &RecordResult) {}
    fn fired(&self, schedule: &str, _m: &DeliveryMessage) {
        if let Ok(mut v) = self.0.lock() {
            v.push(schedule.to_owned());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_wait_goes_through_a_schedule_and_fires_on_time() {
    let sink = Arc::new(FiredSchedules::default());
    let mut opts = test_options("sched");
    // Any wait over 1 s takes the Scheduler path, aimed 1 s early.
    opts.planner = PlannerSettings {
        sqs_max_delay_seconds: 1,
        schedule_lead_seconds: 1,
    };
    opts.sink = sink.clone();
    let h = Harness::start(opts).await;
    let rx = receiver(vec![Reply::Status(500), Reply::Status(200)]).await;
    let (ep, _) = h
        .endpoint(&rx.url(), json!({"base": "tanitar", "waitsSeconds": [3]}))
        .await;
    let id = h.event(&ep, json!({})).await;
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded");
    let a = h.attempts(&id).await;
    assert_eq!(a.len(), 2);
    // Tanitar counts from the previous attempt's start.
    let planned = ms(&a[0]["nextAttemptAt"]);
    assert_eq!(planned - ms(&a[0]["startedAt"]), 3_000);
    let started = ms(&a[1]["startedAt"]);
    assert!(started >= planned, "attempt 2 started {} ms early", planned - started);
    assert!(
        started - planned < 3_000,
        "attempt 2 started {} ms late",
        started - planned
    );
    let fired = sink.0.lock().map(|v| v.clone()).unwrap_or_default();
    assert_eq!(fired, vec![format!("{id}-2-retry-{}", planned / 1000)]);
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_256_kib_payload_is_delivered_intact_to_several_endpoints() {
    let h = Harness::start(test_options("big")).await;
    let rx = receiver(vec![Reply::Status(200)]).await;
    let (a, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let (b, _) = h.endpoint(&rx.url(), json!("tanitar")).await;
    // A JSON string payload whose encoding is exactly 256 KiB (quotes included).
    let text = "x".repeat(256 * 1024 - 2);
    let (s, body) = h
        .call(
            "POST",
            "/v1/events",
            Some(json!({"endpointIds": [a, b], "payload": text})),
        )
        .await;
    assert_eq!(s, 202, "{body}");
    for d in body["deliveries"].as_array().cloned().unwrap_or_default() {
        let id = d["id"].as_str().unwrap_or_default().to_owned();
        assert_eq!(h.settled(&id, SETTLE).await["status"], "succeeded");
    }
    let got = rx.received();
    assert_eq!(got.len(), 2);
    for r in &got {
        let envelope: Value = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
        assert_eq!(envelope["data"].as_str().map(str::len), Some(256 * 1024 - 2));
    }
    // One byte more is refused with 413.
    let (s, body) = h
        .call(
            "POST",
            "/v1/events",
            Some(json!({"endpointId": a, "payload": "x".repeat(256 * 1024 - 1)})),
        )
        .await;
    assert_eq!((s, body["code"].as_str()), (413, Some("payload_too_large")));
    h.stop().await;
}
