//! End-to-end: recurring schedules on the local stack (moto keeps the Scheduler
//! schedules, the runner fires them, the real sender delivers). A `rate(2 seconds)`
//! schedule (admitted by the runner's test flag only) delivers at its planned
//! instants and never before them; a duplicate firing makes no second occurrence;
//! replace changes the next occurrence's data; pause stops firings and resume starts
//! them again; a payload lost from storage settles `payload_unavailable` /
//! `replace_payload` until a replace sends data again.

use courier_app::domain::queue_message::Message;
use courier_app::domain::schedule::FireMessage;

use courier_app::ports::ScheduleStore;
use courier_app::schedules::fire::FireOutcome;
use courier_core::Timestamp;
use courier_core::ids::ScheduleId;
use courier_e2e::{Harness, Received, Reply, ScriptedReceiver, ms, test_options};
use serde_json::{Value, json};
use std::time::Duration;

/// What one webhook carried: its planned instant, its event id and its data.
fn envelope(r: &Received) -> (i64, String, Value) {
    let v: Value = serde_json::from_slice(&r.body).expect("a webhook body in JSON");
    (
        ms(&v["plannedAt"]),
        v["id"].as_str().unwrap_or_default().to_owned(),
        v["data"].clone(),
    )
}

/// Waits until a webhook planned after `after_ms` arrives; returns the first such.
async fn next_after(rx: &ScriptedReceiver, after_ms: i64, timeout: Duration) -> (Received, i64, Value) {
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(r) = rx.received().into_iter().find(|r| envelope(r).0 > after_ms) {
            let (planned, _, data) = envelope(&r);
            return (r, planned, data);
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no webhook planned after {after_ms} within {timeout:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn occurrences(h: &Harness, id: &str) -> Vec<Value> {
    let (s, b) = h.call("GET", &format!("/v1/schedules/{id}/occurrences"), None).await;
    assert_eq!(s, 200, "{b}");
    b["items"].as_array().cloned().unwrap_or_default()
}

fn now_ms() -> i64 {
    courier_app::ports::Clock::now(&courier_app::adapters::system::SystemClock).millis()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_rate_schedule_fires_on_time_once_per_instant_and_follows_replace_pause_and_resume() {
    let h = Harness::start(courier_local::stack::StackOptions {
        second_rates: true,
        ..test_options("schedules")
    })
    .await;
    let rx = ScriptedReceiver::start(vec![Reply::Status(200)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"));
    let (ep, _) = h.endpoint(&rx.url(), json!("greatwait")).await;
    let body = json!({"endpointId": ep, "rate": "rate(2 seconds)", "type": "tick", "payload": {"n": 1}});
    let create = |key: &'static str, body: Value| {
        h.http
            .post(format!("{}/v1/schedules", h.stack.api_url))
            .bearer_auth(&h.stack.api_key)
            .header("idempotency-key", key)
            .json(&body)
            .send()
    };
    let resp = create("e2e-1", body.clone()).await.unwrap();
    assert_eq!(resp.status().as_u16(), 201);
    let created: Value = resp.json().await.unwrap();
    let id = created["id"].as_str().unwrap_or_default().to_owned();
    // The same key and body: the same schedule, not a second one.
    let again: Value = create("e2e-1", body.clone())
        .await
        .unwrap()
        .json()
        .await
        .unwrap_or_default();
    assert_eq!(again["id"], created["id"]);
    let (_, list) = h.call("GET", "/v1/schedules", None).await;
    assert_eq!(list["items"].as_array().map(Vec::len), Some(1));

    // Two firings, two seconds apart, each delivered no earlier than planned.
    let got = rx.wait_for(2, Duration::from_secs(10)).await;
    assert!(got.len() >= 2, "two firings within 10 s, got {}", got.len());
    let (p0, e0, d0) = envelope(&got[0]);
    let (p1, _, d1) = envelope(&got[1]);
    assert_eq!(p1 - p0, 2_000, "planned two seconds apart");
    assert_eq!((d0, d1), (json!({"n": 1}), json!({"n": 1})));
    for r in &got {
        let (planned, ..) = envelope(r);
        assert!(
            r.at_ms >= planned,
            "delivered {} ms before its planned instant",
            planned - r.at_ms
        );
    }

    // A duplicate firing (Scheduler delivers at least once) finds the occurrence.
    let sid = ScheduleId::parse(&id).unwrap();
    let template = FireMessage::template(&h.stack.tenant.id, &sid);
    let planned0 = Timestamp::from_millis(p0);
    let dup = match Message::parse(&FireMessage::from_template(&template, planned0)) {
        Ok(Message::ScheduleFire(m)) => m,
        other => panic!("expected a firing, got {other:?}"),
    };
    match h.stack.firer.fire(&dup).await.unwrap() {
        FireOutcome::Repeated(o) => assert_eq!((o.planned_at, o.event_id.to_string()), (planned0, e0.clone())),
        other => panic!("expected the first occurrence again, got {other:?}"),
    }
    h.stack
        .queue
        .send_text(&FireMessage::from_template(&template, planned0))
        .await
        .unwrap();

    // Replace: the next occurrence carries the new data.
    let replaced_at = now_ms();
    let (s, r) = h
        .call(
            "PUT",
            &format!("/v1/schedules/{id}"),
            Some(json!({"endpointId": ep, "rate": "rate(2 seconds)", "type": "tick", "payload": {"n": 2}})),
        )
        .await;
    assert_eq!(s, 200, "{r}");
    let (_, _, data) = next_after(&rx, replaced_at + 1, Duration::from_secs(8)).await;
    assert_eq!(data, json!({"n": 2}));

    // Pause: nothing planned after it fires; resume: firings again.
    let (s, _) = h.call("POST", &format!("/v1/schedules/{id}/pause"), None).await;
    assert_eq!(s, 200);
    let paused_at = now_ms();
    tokio::time::sleep(Duration::from_millis(4_500)).await;
    let during: Vec<i64> = rx
        .received()
        .iter()
        .map(|r| envelope(r).0)
        .filter(|p| *p > paused_at)
        .collect();
    assert_eq!(during, Vec::<i64>::new(), "no firing while paused");
    let (s, _) = h.call("POST", &format!("/v1/schedules/{id}/resume"), None).await;
    assert_eq!(s, 200);
    let resumed_at = now_ms();
    let (r, planned, _) = next_after(&rx, resumed_at, Duration::from_secs(8)).await;
    assert!(r.at_ms >= planned);

    // The stored payload is lost: occurrences settle payload_unavailable.
    let mut stored = h
        .stack
        .store
        .get_schedule(&h.stack.tenant.id, &sid)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("stored schedule"));
    let version = stored.version;
    stored.payload = None;
    stored.version = version + 1;
    h.stack.store.update_schedule(&stored, version).await.unwrap();
    let broken_at = now_ms();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let broken = loop {
        let found = occurrences(&h, &id)
            .await
            .into_iter()
            .find(|o| ms(&o["plannedAt"]) > broken_at && o["status"] == "failed");
        if let Some(o) = found {
            break o;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no payload_unavailable occurrence within 10 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        (
            &broken["lastAttempt"]["state"],
            &broken["lastAttempt"]["diagnostic"],
            &broken["lastAttempt"]["remediation"]
        ),
        (
            &json!("terminal_failure"),
            &json!("payload_unavailable"),
            &json!("replace_payload")
        ),
        "{broken}"
    );
    // schedules.replace sends data again: the next occurrence is delivered with it.
    let fixed_at = now_ms();
    let (s, _) = h
        .call(
            "PUT",
            &format!("/v1/schedules/{id}"),
            Some(json!({"endpointId": ep, "rate": "rate(2 seconds)", "type": "tick", "payload": {"n": 3}})),
        )
        .await;
    assert_eq!(s, 200);
    let (_, _, data) = next_after(&rx, fixed_at + 1, Duration::from_secs(8)).await;
    assert_eq!(data, json!({"n": 3}));

    let (s, _) = h.call("DELETE", &format!("/v1/schedules/{id}"), None).await;
    assert_eq!(s, 200);
    // Every occurrence is one instant: no planned instant twice, no event twice.
    let all = occurrences(&h, &id).await;
    let mut planned: Vec<i64> = all.iter().map(|o| ms(&o["plannedAt"])).collect();
    planned.dedup();
    assert_eq!(planned.len(), all.len(), "one occurrence per instant");
    let mut events: Vec<String> = rx.received().iter().map(|r| envelope(r).1).collect();
    let n = events.len();
    events.sort();
    events.dedup();
    assert_eq!(events.len(), n, "each event delivered once");
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_schedule_for_a_type_reaches_every_subscribed_endpoint_once_per_firing() {
    let h = Harness::start(courier_local::stack::StackOptions {
        second_rates: true,
        ..test_options("schedules-routed")
    })
    .await;
    let (s, t) = h
        .call("POST", "/v1/event-types", Some(json!({"name": "tick.routed"})))
        .await;
    assert_eq!(s, 201, "{t}");
    let (a, b, other) = (
        ScriptedReceiver::start(vec![Reply::Status(200)]).await,
        ScriptedReceiver::start(vec![Reply::Status(200)]).await,
        ScriptedReceiver::start(vec![Reply::Status(200)]).await,
    );
    let (a, b, other) = (a.unwrap(), b.unwrap(), other.unwrap());
    for (rx, filter) in [
        (&a, json!(["tick.*"])),
        (&b, Value::Null),
        (&other, json!(["invoice.*"])),
    ] {
        let (s, e) = h
            .call(
                "POST",
                "/v1/endpoints",
                Some(json!({"url": rx.url(), "policy": "greatwait", "filterTypes": filter})),
            )
            .await;
        assert_eq!(s, 201, "{e}");
    }
    let resp = h
        .http
        .post(format!("{}/v1/schedules", h.stack.api_url))
        .bearer_auth(&h.stack.api_key)
        .header("idempotency-key", "routed-1")
        .json(&json!({"type": "tick.routed", "rate": "rate(2 seconds)", "payload": {"n": 7}}))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 201);
    let created: Value = resp.json().await.unwrap();
    let id = created["id"].as_str().unwrap_or_default().to_owned();
    let got_a = a.wait_for(3, Duration::from_secs(15)).await;
    let got_b = b.wait_for(3, Duration::from_secs(15)).await;
    let (s, _) = h.call("POST", &format!("/v1/schedules/{id}/pause"), None).await;
    assert_eq!(s, 200);
    assert!(
        got_a.len() >= 2 && got_b.len() >= 2,
        "{} and {}",
        got_a.len(),
        got_b.len()
    );
    // Each firing is one event, reaching both subscribed endpoints at its planned
    // instant or after, never before. Two firings' deliveries may arrive in either
    // order on a loaded machine: compared by planned instant.
    let by_planned = |got: &[Received]| {
        let mut v: Vec<(i64, String, Value, i64)> = got
            .iter()
            .map(|r| {
                let (p, e, d) = envelope(r);
                (p, e, d, r.at_ms)
            })
            .collect();
        v.sort_by_key(|x| x.0);
        v
    };
    let (sa, sb) = (by_planned(&got_a), by_planned(&got_b));
    // A firing's delivery to one endpoint may still be on its way when the other's
    // third arrived: the firings both have received are compared.
    let mut common = 0;
    for ra in &sa {
        if let Some(rb) = sb.iter().find(|rb| rb.0 == ra.0) {
            assert_eq!((&ra.1, &ra.2), (&rb.1, &rb.2), "one event per firing, to both");
            assert_eq!(ra.2, json!({"n": 7}));
            assert!(ra.3 >= ra.0 && rb.3 >= rb.0, "delivered before its planned instant");
            common += 1;
        }
    }
    assert!(
        common >= 2,
        "both endpoints received at least two of the same firings: {sa:?} {sb:?}"
    );
    assert_eq!(sa[1].0 - sa[0].0, 2_000);
    assert_eq!(other.received().len(), 0, "not subscribed to the type");
    let all = occurrences(&h, &id).await;
    let oldest = all.last().cloned().unwrap_or_default();
    assert_eq!(
        (
            &oldest["eventId"],
            &oldest["deliveryId"],
            &oldest["fanout"],
            &oldest["payloadUnavailable"]
        ),
        (
            &json!(envelope(&got_a[0]).1),
            &Value::Null,
            &json!({"status": "complete", "matched": 2, "processed": 2}),
            &json!(false)
        ),
        "{all:?}"
    );
    h.stop().await;
}
