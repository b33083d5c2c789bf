//! The sender and ingest use cases over the in-memory fakes with a manual clock:
//! exact instants, the SQS-vs-Scheduler split, the claim protocol, health effects.

use crate::common;

use crate::common::{T0, World, status};
use courier_app::delivery::{DropReason, EndpointCache, StepOutcome};
use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::domain::model::DeliveryStatus;
use courier_app::domain::model::{Endpoint, Page};
use courier_app::ports::{Clock, DeliveryStore, EndpointStore, OutboundRequest, PortResult};
use courier_core::ids::{EndpointId, TenantId};
use courier_core::outcome::{AttemptOutcome, TransportFailure};
use serde_json::json;

#[tokio::test]
async fn greatwait_ladder_at_exact_instants_with_lowest_jitter() {
    let w = World::new(vec![status(503)], 250).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    let starts = w.run(&id, 50).await;
    // 5 receiver-caused failures stop Greatwait; waits 2, 5, 15, 60 s from each end.
    let rel: Vec<i64> = starts.iter().map(|t| t.millis_since(T0)).collect();
    assert_eq!(rel, [0, 2_250, 7_500, 22_750, 83_000]);
    let d = w.delivery(&id).await;
    assert_eq!(d.status, DeliveryStatus::Failed);
    assert_eq!(d.dead_reason.as_deref(), Some("receiver_failures"));
    assert_eq!(d.attempt_count, 5);
    // All waits fit SQS delays: nothing went through the Scheduler.
    assert!(w.timer.created().is_empty());
    let delays: Vec<u32> = w.queue.sent().iter().map(|(_, d)| *d).collect();
    assert_eq!(delays, [0, 2, 5, 15, 60]);
}

#[tokio::test]
async fn tanitar_long_waits_use_the_scheduler_aimed_early_and_never_start_early() {
    let w = World::new(vec![status(500), status(500), status(500), status(200)], 100).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let id = w.event(&ep).await;
    let starts = w.run(&id, 50).await;
    let rel: Vec<i64> = starts.iter().map(|t| t.millis_since(T0)).collect();
    // From each attempt's start: 1 min, 5 min, 30 min. An SQS delay is whole seconds,
    // counted from the end of the 100 ms attempt and rounded up, so those arrive up to
    // a second late, never early.
    assert_eq!(rel, [0, 60_100, 360_200, 2_160_200]);
    let created = w.timer.created();
    // 1 and 5 min fit an SQS delay (<= 900 s); 30 min goes through Scheduler, aimed
    // 60 s early, and the sender holds the early message back to its notBefore.
    assert_eq!(created.len(), 1);
    assert_eq!(created[0].at.millis_since(T0), 2_160_200 - 60_000);
    assert_eq!(created[0].message.not_before.millis_since(T0), 2_160_200);
    assert_eq!(
        created[0].name,
        format!("{id}-4-retry-{}", created[0].message.not_before.millis() / 1000)
    );
    let delays: Vec<u32> = w.queue.sent().iter().map(|(_, d)| *d).collect();
    assert_eq!(delays, [0, 60, 300, 0, 60]);
    let d = w.delivery(&id).await;
    assert_eq!(d.status, DeliveryStatus::Succeeded);
    let reqs = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    let header = |r: &OutboundRequest, n: &str| r.headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.to_string());
    assert_eq!(
        reqs.iter()
            .map(|r| header(r, "tanitar-delivery-attempt"))
            .collect::<Vec<_>>(),
        ["1", "2", "3", "4"].map(|s| Some(s.to_owned()))
    );
}

#[tokio::test]
async fn an_early_message_is_redelayed_to_its_not_before() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    let (m, _) = w.queue.drain_visible(T0).remove(0);
    let early = DeliveryMessage {
        not_before: T0.plus_millis(2_500),
        ..m
    };
    let out = w.sender.handle(&early, &EndpointCache::default()).await.unwrap();
    assert_eq!(
        out,
        StepOutcome::Redelayed {
            until: T0.plus_millis(2_500)
        }
    );
    // Whole seconds, rounded up, so never early.
    assert_eq!(w.queue.sent().last().map(|(_, d)| *d), Some(3));
    assert!(w.http.requests.lock().map(|r| r.is_empty()).unwrap_or(false));
    assert_eq!(w.delivery(&id).await.attempt_count, 0);
}

#[tokio::test]
async fn duplicates_are_dropped_and_a_lost_attempt_is_recorded_ambiguous() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!({"base": "greatwait", "timeoutMs": 1000})).await;
    let id = w.event(&ep).await;
    let (m, _) = w.queue.drain_visible(T0).remove(0);
    // A sender claims attempt 1 and dies before recording anything.
    let dead = courier_core::ids::AttemptId::parse("att_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap();
    let claim = w
        .store
        .claim_attempt(
            &id,
            &courier_app::testing::contract::test_claim(1, &dead, T0, T0.plus_millis(6_000)),
        )
        .await
        .unwrap();
    assert!(matches!(claim, courier_app::ports::Claim::Claimed { lost: None, .. }));
    // While its lease lives, the same message is a duplicate in flight.
    let out = w.sender.handle(&m, &EndpointCache::default()).await.unwrap();
    assert_eq!(
        out,
        StepOutcome::Dropped {
            why: DropReason::DuplicateInflight
        }
    );
    // After the lease: the lost attempt is recorded as ambiguous and a retry planned.
    w.clock.set(T0.plus_millis(6_000));
    let out = w.sender.handle(&m, &EndpointCache::default()).await.unwrap();
    let StepOutcome::LostRecorded { attempt, delivery } = out else {
        panic!("expected a lost attempt, got {out:?}")
    };
    assert_eq!(attempt.id, dead);
    assert_eq!(attempt.state, "ambiguous");
    assert_eq!(attempt.diagnostic, "network_ambiguous");
    assert_eq!(delivery.status, DeliveryStatus::Ambiguous);
    // Greatwait: 2 s after the lost attempt's end (its lease end).
    assert_eq!(delivery.next_attempt_at, Some(T0.plus_millis(8_000)));
    // A third copy of the attempt-1 message is now stale.
    let out = w.sender.handle(&m, &EndpointCache::default()).await.unwrap();
    assert_eq!(out, StepOutcome::Dropped { why: DropReason::Stale });
    let starts = w.run(&id, 10).await;
    assert_eq!(starts, [T0.plus_millis(8_000)]);
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), 1);
}

#[tokio::test]
async fn tanitar_disabled_endpoint_kills_pending_delivery_without_sending() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let id = w.event(&ep).await;
    // Disable behind the API's back (the lifecycle routes are their own issue).
    let tenant = w.delivery(&id).await.tenant_id;
    let mut e =
        courier_app::ports::EndpointStore::get_endpoint(w.store.as_ref(), &tenant, &w.delivery(&id).await.endpoint_id)
            .await
            .ok()
            .flatten()
            .unwrap_or_else(|| panic!("endpoint"));
    let v = e.version;
    e.state = courier_app::domain::model::EndpointState::Disabled;
    e.version += 1;
    courier_app::ports::EndpointStore::update_endpoint(w.store.as_ref(), &e, v)
        .await
        .unwrap();
    w.run(&id, 5).await;
    let d = w.delivery(&id).await;
    assert_eq!(d.status, DeliveryStatus::Failed);
    assert_eq!(d.dead_reason.as_deref(), Some("ENDPOINT_DISABLED"));
    assert!(
        w.http.requests.lock().map(|r| r.is_empty()).unwrap_or(false),
        "nothing may be sent"
    );
}

#[tokio::test]
async fn smartchat_410_disables_the_endpoint_and_fails_the_delivery() {
    let w = World::new(vec![status(410)], 0).await;
    let ep = w.endpoint(json!("smartchat")).await;
    let id = w.event(&ep).await;
    w.run(&id, 5).await;
    let d = w.delivery(&id).await;
    assert_eq!(d.status, DeliveryStatus::Failed);
    assert_eq!(d.dead_reason.as_deref(), Some("endpoint_disabled"));
    let (_, view) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!(view["status"], "disabled");
    // New events are not queued for a disabled SmartChat endpoint.
    let id2 = w.event(&ep).await;
    assert_eq!(w.delivery(&id2).await.status, DeliveryStatus::Dropped);
}

#[tokio::test]
async fn gavai_breaker_opens_drops_and_resets_itself() {
    let w = World::new(vec![status(500)], 0).await;
    let ep = w.endpoint(json!({"base": "gavai", "maxAttempts": 1, "health": {"model": "breaker", "exhaustedInARow": 2, "openSeconds": 5}})).await;
    for _ in 0..2 {
        let id = w.event(&ep).await;
        w.run(&id, 3).await;
        assert_eq!(w.delivery(&id).await.dead_reason.as_deref(), Some("max_attempts"));
    }
    let (_, view) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!(view["breaker"]["state"], "open");
    assert_eq!(view["breaker"]["openUntil"], json!(T0.plus_secs(5)));
    let dropped = w.event(&ep).await;
    assert_eq!(w.delivery(&dropped).await.status, DeliveryStatus::Dropped);
    assert_eq!(w.delivery(&dropped).await.dead_reason.as_deref(), Some("breaker_open"));
    w.clock.advance_secs(5);
    let (_, view) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!(view["breaker"]["state"], "closed");
    assert_eq!(view["breaker"]["exhaustedInARow"], 0);
    let sent = w.http.requests.lock().map(|r| r.len()).unwrap_or(0);
    assert_eq!(sent, 2, "nothing was sent while the breaker was open");
}

#[tokio::test]
async fn gavai_success_writes_the_breaker_only_when_it_changes() {
    let w = World::new(vec![status(500), status(200)], 0).await;
    let ep = w.endpoint(json!({"base": "gavai", "maxAttempts": 1, "health": {"model": "breaker", "exhaustedInARow": 3, "openSeconds": 60}})).await;
    let path = format!("/v1/endpoints/{ep}");
    assert_eq!(w.call("GET", &path, json!({})).await.1["updatedAt"], json!(T0));
    // One delivery a second: the first exhausts (counts one), the second succeeds
    // (resets the count: a write), the third succeeds and changes nothing, so the
    // endpoint is not written again.
    let steps = [
        (DeliveryStatus::Failed, 1, 1),
        (DeliveryStatus::Succeeded, 0, 2),
        (DeliveryStatus::Succeeded, 0, 2),
    ];
    for (i, (settled, count, written_at)) in steps.into_iter().enumerate() {
        w.clock.advance_secs(1);
        let id = w.event(&ep).await;
        w.run(&id, 3).await;
        assert_eq!(w.delivery(&id).await.status, settled, "delivery {i}");
        let v = w.call("GET", &path, json!({})).await.1;
        assert_eq!(v["breaker"]["exhaustedInARow"], count, "after delivery {i}");
        assert_eq!(v["updatedAt"], json!(T0.plus_secs(written_at)), "after delivery {i}");
    }
}

#[tokio::test]
async fn greatwait_deadline_settles_instead_of_a_late_attempt() {
    // 1 attempt per minute forever, 15 min horizon: attempts at 0, 1, ... 15 min.
    let w = World::new(vec![status(503)], 0).await;
    let ep = w.endpoint(json!({"base": "greatwait", "maxAttempts": 100, "receiverFailureLimit": null, "waitsSeconds": [60], "jitter": {"min": 1, "max": 1}})).await;
    let id = w.event(&ep).await;
    let starts = w.run(&id, 100).await;
    assert_eq!(starts.len(), 16);
    assert_eq!(starts.last().map(|t| t.millis_since(T0)), Some(900_000));
    assert_eq!(w.delivery(&id).await.dead_reason.as_deref(), Some("deadline"));
}

#[tokio::test]
async fn timeout_outcome_is_ambiguous_and_counts() {
    let w = World::new(
        vec![AttemptOutcome::transport(TransportFailure::Timeout), status(200)],
        0,
    )
    .await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    let starts = w.run(&id, 10).await;
    assert_eq!(starts.len(), 2);
    let attempts = w.store.list_attempts(&id).await.unwrap_or_default();
    assert_eq!(attempts[0].state, "ambiguous");
    assert_eq!(attempts[0].error_class.as_deref(), Some("timeout"));
    assert!(attempts[0].counts_toward_receiver_failures);
    assert_ne!(attempts[0].id, attempts[1].id);
}

fn header(r: &OutboundRequest, name: &str) -> Option<String> {
    r.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.to_string())
}

#[tokio::test]
async fn long_running_202_waits_for_the_receivers_report() {
    let w = World::new(vec![status(202)], 40).await;
    let (s, b) = w
        .call(
            "POST",
            "/v1/endpoints",
            json!({"url": "https://r.example/h", "policy": "greatwait", "longRunningAllowanceSeconds": 60}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let ep = b["id"].as_str().unwrap_or_default().to_owned();
    let id = w.event(&ep).await;
    let out = w.step().await;
    assert!(matches!(out[0], StepOutcome::AwaitingCompletion { .. }), "{out:?}");
    assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Pending);
    let req = w.http.requests.lock().map(|r| r[0].clone()).unwrap();
    let token = header(&req, "webhook-completion-token").unwrap_or_default();
    let att = header(&req, "webhook-attempt-id").unwrap_or_default();
    assert!(token.starts_with(&format!("{id}.")));
    let path = format!("/v1/attempts/{att}/complete");
    let call = |tok: &str, body: serde_json::Value| {
        let req = courier_app::api::ApiRequest {
            method: "POST".into(),
            path: path.clone(),
            query: None,
            headers: vec![("webhook-completion-token".into(), tok.to_owned())],
            body: body.to_string().into_bytes(),
        };
        w.api.handle(req)
    };
    let r = call(&format!("{id}.00"), json!({"outcome": "succeeded"})).await;
    assert_eq!(r.status, 401, "a wrong token is refused");
    let r = call(&token, json!({"outcome": "maybe"})).await;
    assert_eq!(r.status, 400);
    w.clock.advance_secs(30);
    let r = call(&token, json!({"outcome": "succeeded"})).await;
    assert_eq!(r.status, 200, "{:?}", r.body_json());
    let d = w.delivery(&id).await;
    assert_eq!(d.status, DeliveryStatus::Succeeded);
    let a = w.store.list_attempts(&id).await.unwrap_or_default();
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].id.as_str(), att);
    assert_eq!(a[0].state, "succeeded");
    let r = call(&token, json!({"outcome": "succeeded"})).await;
    assert_eq!(r.status, 409, "a second report is refused");
    // The timer that would have given up finds nothing to do.
    w.clock.advance_secs(31);
    assert!(matches!(w.step().await.as_slice(), [StepOutcome::Dropped { .. }]));
}

#[tokio::test]
async fn long_running_without_a_report_is_ambiguous_completion_timed_out_then_retried() {
    let w = World::new(vec![status(202), status(200)], 0).await;
    let (_, b) = w
        .call(
            "POST",
            "/v1/endpoints",
            json!({"url": "https://r.example/h", "policy": "greatwait", "longRunningAllowanceSeconds": 60}),
        )
        .await;
    let ep = b["id"].as_str().unwrap_or_default().to_owned();
    let id = w.event(&ep).await;
    w.step().await;
    // Attempt 1 is recorded when the allowance ends (it started at T0); attempt 2
    // follows Greatwait's 2 s wait after that and answers 200 outright.
    let starts = w.run(&id, 10).await;
    assert_eq!(starts, [T0, T0.plus_secs(62)]);
    let a = w.store.list_attempts(&id).await.unwrap_or_default();
    assert_eq!(a.len(), 2);
    assert_eq!(a[0].state, "ambiguous");
    assert_eq!(a[0].diagnostic, "completion_timed_out");
    assert_eq!(a[0].remediation, "review_before_redelivery");
    assert_eq!(a[1].state, "succeeded");
}

/// Successes on a healthy SmartChat endpoint move its last success in the health
/// kept apart from the endpoint record: the record is not rewritten (its
/// `updatedAt` stays), and the endpoint reads back with the last success.
#[tokio::test]
async fn smartchat_successes_move_the_last_success_without_rewriting_the_endpoint() {
    let w = World::new(vec![status(200), status(200), status(200)], 0).await;
    let ep = w.endpoint(json!("smartchat")).await;
    let path = format!("/v1/endpoints/{ep}");
    let before = w.call("GET", &path, json!({})).await.1;
    let mut last = T0;
    for i in 1..=3 {
        w.clock.set(T0.plus_secs(60 * i));
        let id = w.event(&ep).await;
        w.run(&id, 3).await;
        assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Succeeded);
        last = w.clock.now();
    }
    let after = w.call("GET", &path, json!({})).await.1;
    assert_eq!(after["updatedAt"], before["updatedAt"], "the record is not rewritten");
    assert_eq!(
        after["health"],
        json!({"status": "active", "failuresInARow": 0, "since": T0, "lastSuccessOrEnableAt": last})
    );
}

/// An endpoint moved off SmartChat and back starts its health afresh, although
/// the health it kept apart before is still stored.
#[tokio::test]
async fn smartchat_health_starts_afresh_after_a_round_trip_through_another_model() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("smartchat")).await;
    let path = format!("/v1/endpoints/{ep}");
    w.clock.set(T0.plus_secs(60));
    let id = w.event(&ep).await;
    w.run(&id, 3).await;
    let v = w.call("GET", &path, json!({})).await.1;
    assert_eq!(v["health"]["lastSuccessOrEnableAt"], json!(w.clock.now()));
    w.clock.set(T0.plus_secs(600));
    let (s, _) = w.call("PATCH", &path, json!({"policy": "greatwait"})).await;
    assert_eq!(s, 200);
    w.clock.set(T0.plus_secs(900));
    let (s, v) = w.call("PATCH", &path, json!({"policy": "smartchat"})).await;
    assert_eq!(s, 200, "{v}");
    let v = w.call("GET", &path, json!({})).await.1;
    assert_eq!(
        v["health"],
        json!({"status": "active", "failuresInARow": 0, "since": T0.plus_secs(900), "lastSuccessOrEnableAt": T0.plus_secs(900)})
    );
}

/// A success recorded after a later one (two senders finishing together, the later
/// instant landing first) leaves the later last success in place.
#[tokio::test]
async fn smartchat_last_success_never_moves_back() {
    let w = World::new(vec![status(200), status(200)], 0).await;
    let ep = w.endpoint(json!("smartchat")).await;
    let path = format!("/v1/endpoints/{ep}");
    w.clock.set(T0.plus_secs(100));
    let first = w.event(&ep).await;
    w.run(&first, 3).await;
    let later = w.clock.now();
    // The other sender's success, at an earlier instant, comes second.
    w.clock.set(T0.plus_secs(50));
    let second = w.event(&ep).await;
    w.run(&second, 3).await;
    assert_eq!(w.delivery(&second).await.status, DeliveryStatus::Succeeded);
    w.clock.set(later);
    let v = w.call("GET", &path, json!({})).await.1;
    assert_eq!(v["health"]["lastSuccessOrEnableAt"], json!(later));
}

#[tokio::test]
async fn smartchat_pauses_after_three_quiet_days_and_twenty_failures_then_disables_with_no_traffic() {
    // One attempt per delivery so each failed delivery is one failed attempt.
    let w = World::new(vec![status(500)], 0).await;
    let ep = w.endpoint(json!({"base": "smartchat", "maxAttempts": 1})).await;
    let path = format!("/v1/endpoints/{ep}");
    for i in 0..20 {
        let id = w.event(&ep).await;
        w.run(&id, 3).await;
        w.clock.advance_secs(3600);
        if i == 4 {
            assert_eq!(
                w.call("GET", &path, json!({})).await.1["status"],
                "degraded",
                "5 failures in a row"
            );
        }
    }
    // 20 failures, but only 20 h without a success: still degraded.
    assert_eq!(w.call("GET", &path, json!({})).await.1["status"], "degraded");
    // Time alone: exactly 3 days after creation (the last success baseline), paused.
    w.clock.set(T0.plus_secs(3 * 86_400 - 1));
    assert_eq!(w.call("GET", &path, json!({})).await.1["status"], "degraded");
    w.clock.set(T0.plus_secs(3 * 86_400));
    let v = w.call("GET", &path, json!({})).await.1;
    assert_eq!(v["status"], "paused");
    assert_eq!(v["health"]["since"], json!(T0.plus_secs(3 * 86_400)));
    // While paused, new events are not queued.
    let id = w.event(&ep).await;
    let d = w.delivery(&id).await;
    assert_eq!(
        (d.status, d.dead_reason.as_deref()),
        (DeliveryStatus::Dropped, Some("endpoint_paused"))
    );
    // 7 days without a success: disabled, again with no traffic.
    w.clock.set(T0.plus_secs(7 * 86_400));
    let v = w.call("GET", &path, json!({})).await.1;
    assert_eq!(v["status"], "disabled");
    assert_eq!(v["health"]["since"], json!(T0.plus_secs(7 * 86_400)));
    let (s, v) = w.call("POST", &format!("/v1/endpoints/{ep}/enable"), json!({})).await;
    assert_eq!((s, v["status"].as_str()), (200, Some("active")));
}

#[tokio::test]
async fn smartchat_waiting_delivery_fails_with_endpoint_paused() {
    let w = World::new(vec![status(500)], 0).await;
    let ep = w.endpoint(json!({"base": "smartchat", "health": {"model": "smartchat", "degradeAfterFailures": 1, "pauseAfterFailures": 2, "pauseAfterSeconds": 60, "disableAfterSeconds": 3600}})).await;
    // Attempt 1 at T0 fails (degraded); attempt 2 is due 24 s later (lowest jitter).
    let waiting = w.event(&ep).await;
    w.step().await;
    // At T0+61 s one batch holds attempt 2 and another delivery's attempt 1. Attempt 2
    // fails: 2 failures in a row and 61 s without a success pause the endpoint. The
    // other attempt goes out too: a batch works from one snapshot of the endpoint.
    w.clock.advance_secs(61);
    let other = w.event(&ep).await;
    assert_eq!(w.step().await.len(), 2);
    let (_, v) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!(v["status"], "paused");
    w.run(&waiting, 10).await;
    let d = w.delivery(&waiting).await;
    assert_eq!(
        (d.status, d.dead_reason.as_deref()),
        (DeliveryStatus::Failed, Some("endpoint_paused"))
    );
    assert_eq!(
        w.http.requests.lock().map(|r| r.len()).unwrap_or(0),
        3,
        "nothing sent after the paused batch"
    );
    w.run(&other, 10).await;
    assert_eq!(w.delivery(&other).await.dead_reason.as_deref(), Some("endpoint_paused"));
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), 3);
}

#[tokio::test]
async fn tanitar_unsafe_url_and_missing_secret_are_dead_before_sending() {
    use courier_core::outcome::PreSendFailure;
    // The HTTP port refuses the address at send time (it now resolves privately).
    let w = World::new(vec![AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe)], 0).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let id = w.event(&ep).await;
    w.run(&id, 3).await;
    let d = w.delivery(&id).await;
    assert_eq!(
        (d.status, d.dead_reason.as_deref()),
        (DeliveryStatus::Failed, Some("ENDPOINT_UNSAFE"))
    );
    let a = w.store.list_attempts(&id).await.unwrap_or_default();
    assert_eq!(
        (a[0].diagnostic.as_ref(), a[0].response_status),
        ("endpoint_unsafe", None)
    );

    // No active or retiring secret left: dead before any request is built.
    let id = w.event(&ep).await;
    let tenant = w.delivery(&id).await.tenant_id;
    let eid = w.delivery(&id).await.endpoint_id;
    let mut e = courier_app::ports::EndpointStore::get_endpoint(w.store.as_ref(), &tenant, &eid)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("endpoint"));
    let v = e.version;
    e.secrets.clear();
    e.version += 1;
    courier_app::ports::EndpointStore::update_endpoint(w.store.as_ref(), &e, v)
        .await
        .unwrap();
    let sent_before = w.http.requests.lock().map(|r| r.len()).unwrap_or(0);
    w.run(&id, 3).await;
    assert_eq!(
        w.delivery(&id).await.dead_reason.as_deref(),
        Some("SIGNING_SECRET_MISSING")
    );
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), sent_before);
}

#[tokio::test]
async fn settled_deliveries_expire_after_the_policys_retention_even_before_ttl_deletes_them() {
    for (policy, days) in [("gavai", 7), ("tanitar", 30), ("smartchat", 30)] {
        let w = World::new(vec![status(400)], 0).await;
        let ep = w.endpoint(json!({"base": policy, "maxAttempts": 1})).await;
        let id = w.event(&ep).await;
        w.run(&id, 3).await;
        let settled_at = w.delivery(&id).await.settled_at.unwrap_or_else(|| panic!("settled"));
        let path = format!("/v1/deliveries/{id}");
        w.clock.set(settled_at.plus_secs(days * 86_400 - 1));
        assert_eq!(w.call("GET", &path, json!({})).await.0, 200, "{policy}: still readable");
        assert_eq!(w.call("GET", &format!("{path}/attempts"), json!({})).await.0, 200);
        w.clock.set(settled_at.plus_secs(days * 86_400));
        assert_eq!(
            w.call("GET", &path, json!({})).await.0,
            404,
            "{policy}: expired after {days} days"
        );
        assert_eq!(w.call("GET", &format!("{path}/attempts"), json!({})).await.0, 404);
        // The item is still physically there: only the read hides it (TTL is lazy).
        assert!(w.store.all_deliveries().iter().any(|d| d.id == id));
    }
}

#[tokio::test]
async fn a_failed_plan_is_redone_when_the_message_comes_back() {
    let w = World::new(vec![status(503), status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    let (m, _) = w.queue.drain_visible(T0).remove(0);
    // Attempt 1 is recorded, then queueing attempt 2 fails: the step reports failure
    // so SQS brings the message back.
    w.queue.fail_next(1);
    let err = w.sender.handle(&m, &EndpointCache::default()).await;
    assert!(matches!(err, Err(courier_app::delivery::StepError::Plan(_))), "{err:?}");
    assert_eq!(w.delivery(&id).await.next_attempt, 2);
    assert!(w.queue.is_empty());
    // No due-index entry (a retry through an SQS delay): the message is all that
    // carries the delivery on.
    let overdue = courier_app::ports::OverdueIndex::overdue(w.store.as_ref(), T0.plus_secs(86_400), 10).await;
    assert_eq!(overdue.ok(), Some(vec![]));
    // Handed over again (its receive count does not matter: a copy a hold puts back
    // starts at one), it finds attempt 1 recorded and plans attempt 2 again.
    let out = w.sender.handle(&m, &EndpointCache::default()).await;
    assert!(
        matches!(out, Ok(StepOutcome::Dropped { why: DropReason::Stale })),
        "{out:?}"
    );
    assert_eq!(w.queue.waiting().len(), 1);
    assert_eq!(w.queue.waiting()[0].message.attempt, 2);
    assert_eq!(w.queue.waiting()[0].message.not_before, T0.plus_secs(2));
    let starts = w.run(&id, 5).await;
    assert_eq!(starts, [T0.plus_secs(2)]);
    assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Succeeded);
}

#[tokio::test]
async fn an_event_whose_message_cannot_be_queued_is_marked_and_can_be_redriven() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    // Both sends fail: the one ahead of the write and the one after it.
    w.queue.fail_next(2);
    let (s, b) = w
        .call("POST", "/v1/events", json!({"endpointId": ep, "payload": {}}))
        .await;
    assert_eq!((s, b["code"].as_str()), (503, Some("service_unavailable")));
    let d = w
        .store
        .all_deliveries()
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("the delivery was written"));
    assert_eq!(d.dead_lettered_at, Some(T0));
    let (s, b) = w
        .call("POST", &format!("/v1/deliveries/{}/redrive", d.id), json!({}))
        .await;
    assert_eq!(s, 202, "{b}");
    w.run(&d.id, 5).await;
    assert_eq!(w.delivery(&d.id).await.status, DeliveryStatus::Succeeded);
}

#[test]
fn schedules_are_aimed_early_but_never_past_the_sqs_threshold() {
    use courier_app::pipeline::planner::{Path, Planner, PlannerSettings};
    let clock = std::sync::Arc::new(courier_app::testing::memory::ManualClock::new(T0));
    let planner = |sqs_max_delay_seconds, schedule_lead_seconds| Planner {
        queue: std::sync::Arc::new(courier_app::testing::memory::MemoryQueue::new(clock.clone())),
        timer: std::sync::Arc::new(courier_app::testing::memory::MemoryTimer::new()),
        settings: PlannerSettings {
            sqs_max_delay_seconds,
            schedule_lead_seconds,
        },
    };
    let p = planner(900, 60);
    assert_eq!(p.path(T0.plus_secs(900), T0), Path::Queue { delay_seconds: 900 });
    assert_eq!(p.path(T0.plus_millis(899_001), T0), Path::Queue { delay_seconds: 900 });
    assert_eq!(
        p.path(T0.plus_secs(901), T0),
        Path::Schedule {
            fire_at: T0.plus_secs(841)
        }
    );
    // A tiny threshold caps the lead, so the held-back message always fits SQS.
    let p = planner(1, 60);
    assert_eq!(
        p.path(T0.plus_secs(3), T0),
        Path::Schedule {
            fire_at: T0.plus_secs(3)
        }
    );
    let p = planner(5, 60);
    assert_eq!(
        p.path(T0.plus_secs(30), T0),
        Path::Schedule {
            fire_at: T0.plus_secs(26)
        }
    );
}

#[tokio::test]
async fn a_mangled_stored_payload_is_terminal_payload_unavailable_without_sending() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    let mut d = w.delivery(&id).await;
    let v = d.version;
    // Stored as the delivery's own body (not the event's, which is intact).
    d.body = "truncated{".into();
    d.body_hash = None;
    d.version += 1;
    w.store.update_delivery(&d, v).await.unwrap();
    w.run(&id, 3).await;
    let d = w.delivery(&id).await;
    assert_eq!(
        (d.status, d.dead_reason.as_deref()),
        (DeliveryStatus::Failed, Some("payload_unavailable"))
    );
    let a = w.store.list_attempts(&id).await.unwrap_or_default();
    assert_eq!(
        (a[0].diagnostic.as_ref(), a[0].remediation.as_ref()),
        ("payload_unavailable", "replace_payload")
    );
    assert!(w.http.requests.lock().map(|r| r.is_empty()).unwrap_or(false));
}

/// An endpoint store that answers only after yielding once, as a read over the
/// network would, and counts its reads.
struct SlowEndpoints {
    inner: std::sync::Arc<courier_app::testing::memory::MemoryStore>,
    reads: std::sync::atomic::AtomicUsize,
}

#[async_trait::async_trait]
impl EndpointStore for SlowEndpoints {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()> {
        self.inner.create_endpoint(endpoint).await
    }
    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
        self.reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        tokio::task::yield_now().await;
        self.inner.get_endpoint(tenant, id).await
    }
    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
        self.inner.update_endpoint(endpoint, expected_version).await
    }
    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        self.inner.list_endpoints(tenant, cursor, limit).await
    }
}

#[tokio::test]
async fn a_batch_reads_each_endpoint_once_while_its_records_run_concurrently() {
    let w = World::new(vec![status(200); 10], 0).await;
    let a = w.endpoint(json!("greatwait")).await;
    let b = w.endpoint(json!("tanitar")).await;
    for i in 0..10 {
        w.event(if i % 3 == 0 { &b } else { &a }).await;
    }
    let slow = std::sync::Arc::new(SlowEndpoints {
        inner: w.store.clone(),
        reads: Default::default(),
    });
    let sender = courier_app::delivery::Sender {
        endpoints: slow.clone(),
        ..w.sender
    };
    let messages: Vec<DeliveryMessage> = w.queue.drain_visible(T0).into_iter().map(|(m, _)| m).collect();
    assert_eq!(messages.len(), 10);
    // One batch: every record is started before any endpoint read has answered.
    let cache = EndpointCache::default();
    let outcomes = futures_util::future::join_all(messages.iter().map(|m| sender.handle(m, &cache))).await;
    let succeeded = outcomes
        .iter()
        .filter(|o| matches!(o, Ok(StepOutcome::Attempted { attempt, .. }) if attempt.state == "succeeded"))
        .count();
    assert_eq!(succeeded, 10);
    assert_eq!(slow.reads.load(std::sync::atomic::Ordering::SeqCst), 2);

    // An endpoint that does not exist is read once for the batch too, and so is the
    // delivery's real endpoint, which the conflict path reads.
    let unknown = EndpointId::generate(T0, &mut courier_core::rng::SplitMix64::new(5));
    let strays: Vec<DeliveryMessage> = (0..3)
        .map(|_| {
            let d = messages[0].delivery_id.clone();
            DeliveryMessage {
                endpoint_id: unknown.clone(),
                delivery_id: d,
                ..messages[0].clone()
            }
        })
        .collect();
    let cache = EndpointCache::default();
    let outcomes = futures_util::future::join_all(strays.iter().map(|m| sender.handle(m, &cache))).await;
    assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
    assert_eq!(slow.reads.load(std::sync::atomic::Ordering::SeqCst), 4);
}

/// One event to a fresh endpoint of `policy`: its first queue message, the delivery,
/// the endpoint and an attempt id, ready for `build_request`.
async fn first_step(
    policy: &str,
) -> (
    DeliveryMessage,
    courier_app::domain::model::Delivery,
    Endpoint,
    courier_core::ids::AttemptId,
) {
    let w = World::new(vec![], 0).await;
    let ep = w.endpoint(json!(policy)).await;
    let id = w.event(&ep).await;
    let (m, _) = w.queue.drain_visible(T0).remove(0);
    let mut delivery = w.delivery(&id).await;
    // Stored once, in the event: the first message carries it, as the sender reads it.
    delivery.body = m.body.clone().unwrap_or_else(|| panic!("no body in {m:?}"));
    let endpoint = w
        .store
        .get_endpoint(&delivery.tenant_id, &delivery.endpoint_id)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no endpoint {ep}"));
    let attempt_id = courier_core::ids::AttemptId::generate(T0, &mut courier_core::rng::SplitMix64::new(2));
    (m, delivery, endpoint, attempt_id)
}

#[tokio::test]
async fn the_attempt_headers_carry_the_number_below_and_above_ten() {
    let (m, delivery, endpoint, attempt_id) = first_step("tanitar").await;
    for (number, text) in [(1, "1"), (9, "9"), (10, "10"), (123, "123")] {
        let m = DeliveryMessage {
            attempt: number,
            ..m.clone()
        };
        let r = courier_app::delivery::build_request(&endpoint, &delivery, &m, &attempt_id, T0);
        assert_eq!(header(&r, "webhook-attempt").as_deref(), Some(text));
        assert_eq!(header(&r, "tanitar-delivery-attempt").as_deref(), Some(text));
    }
}

#[tokio::test]
async fn an_automatic_attempt_sends_the_stored_body_itself_and_a_redelivery_its_own() {
    let (m, delivery, endpoint, attempt_id) = first_step("greatwait").await;
    let r = courier_app::delivery::build_request(&endpoint, &delivery, &m, &attempt_id, T0);
    assert_eq!(&r.body[..], delivery.body.as_bytes());
    // Shared with the delivery, not copied (bodies run to 256 KiB).
    assert_eq!(r.body.as_ptr(), delivery.body.as_ptr());

    let again = DeliveryMessage {
        trigger: courier_app::domain::delivery_message::Trigger::Redelivery,
        ..m
    };
    let r = courier_app::delivery::build_request(&endpoint, &delivery, &again, &attempt_id, T0);
    let envelope: serde_json::Value = serde_json::from_slice(&r.body).unwrap_or_default();
    assert_eq!(envelope["trigger"], "redelivery");
    assert_eq!(envelope["data"], json!({"k": 1}));
}

/// Lets the first request in, holds it until released, and answers 200; later
/// requests pass straight through. Every request is kept.
struct GatedHttp {
    entered: tokio::sync::Notify,
    release: tokio::sync::Notify,
    requests: std::sync::Mutex<Vec<OutboundRequest>>,
}

#[async_trait::async_trait]
impl courier_app::ports::HttpSender for GatedHttp {
    async fn send(&self, request: OutboundRequest) -> courier_app::ports::SendResult {
        let first = {
            let mut r = self.requests.lock().unwrap_or_else(|e| e.into_inner());
            r.push(request);
            r.len() == 1
        };
        if first {
            self.entered.notify_one();
            self.release.notified().await;
        }
        courier_app::ports::SendResult {
            outcome: status(200),
            peer: None,
            duration_ms: 0,
        }
    }
}

/// The world's sender, rewired to another HTTP sender, endpoint store or faults.
fn sender_with(
    w: &common::World,
    http: std::sync::Arc<dyn courier_app::ports::HttpSender>,
    endpoints: std::sync::Arc<dyn EndpointStore>,
    faults: std::sync::Arc<dyn courier_app::ports::Faults>,
) -> courier_app::delivery::Sender {
    courier_app::delivery::Sender {
        secrets: std::sync::Arc::new(courier_app::testing::memory::FixedSecrets::new(11)),
        sealer: w.sealer.clone(),
        deliveries: w.store.clone(),
        endpoints,
        http,
        destinations: std::sync::Arc::new(courier_app::ports::NoDestinations),
        clock: w.clock.clone(),
        random: std::sync::Arc::new(common::Zero),
        planner: w.sender.planner.clone(),
        faults,
        settings: w.sender.settings,
        fanout: None,
        limiter: w.limiter.clone(),
    }
}

#[tokio::test]
async fn a_second_copy_of_a_redelivery_is_refused_while_the_first_is_in_flight() {
    let w = World::new(vec![status(400)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    w.run(&id, 3).await;
    let auth = format!("Bearer {}", common::KEY);
    let (s, b, _) = common::raw(
        &w,
        "POST",
        &format!("/v1/deliveries/{id}/redeliver"),
        None,
        &[("authorization", &auth), ("idempotency-key", "again-1")],
        b"{}",
    )
    .await;
    assert_eq!(s, 202, "{b}");
    let (m, _) = w
        .queue
        .drain_visible(courier_app::ports::Clock::now(w.clock.as_ref()))
        .remove(0);
    assert!(m.attempt_id.is_some(), "a redelivery carries its attempt id");
    let http = std::sync::Arc::new(GatedHttp {
        entered: tokio::sync::Notify::new(),
        release: tokio::sync::Notify::new(),
        requests: std::sync::Mutex::new(vec![]),
    });
    let sender = sender_with(
        &w,
        http.clone(),
        w.store.clone(),
        std::sync::Arc::new(courier_app::ports::NoFaults),
    );
    let cache = EndpointCache::default();
    let (first, second) = tokio::join!(sender.handle(&m, &cache), async {
        http.entered.notified().await;
        // The same message again (an SQS redelivery of it) while the first waits.
        let second = sender.handle(&m, &EndpointCache::default()).await;
        http.release.notify_one();
        second
    });
    let second = second.unwrap();
    assert_eq!(
        second,
        StepOutcome::Dropped {
            why: DropReason::DuplicateInflight
        }
    );
    assert!(
        matches!(first, Ok(StepOutcome::Attempted { .. })),
        "the first copy records its attempt, got {first:?}"
    );
    let requests = http.requests.lock().map(|r| r.len()).unwrap_or(0);
    assert_eq!(requests, 1, "the receiver saw one request for the attempt");
    let attempts = w.store.list_attempts(&id).await.unwrap_or_default();
    assert_eq!(attempts.len(), 2);
    assert_eq!(Some(&attempts[1].id), m.attempt_id.as_ref());
    assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Succeeded);
}

/// An endpoint store whose reads take `delay_ms` of the manual clock.
struct SlowEndpointReads {
    inner: std::sync::Arc<courier_app::testing::memory::MemoryStore>,
    clock: std::sync::Arc<courier_app::testing::memory::ManualClock>,
    delay_ms: i64,
}

#[async_trait::async_trait]
impl EndpointStore for SlowEndpointReads {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()> {
        self.inner.create_endpoint(endpoint).await
    }
    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
        self.clock.advance_millis(self.delay_ms);
        self.inner.get_endpoint(tenant, id).await
    }
    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
        self.inner.update_endpoint(endpoint, expected_version).await
    }
    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        self.inner.list_endpoints(tenant, cursor, limit).await
    }
}

/// Crashes every step after its request, so the claim stays as taken.
struct CrashAfterSend;
impl courier_app::ports::Faults for CrashAfterSend {
    fn crash_after_send(&self, _message: &DeliveryMessage) -> bool {
        true
    }
}

#[tokio::test]
async fn the_lease_is_counted_from_the_claim_not_from_before_the_endpoint_read() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!({"base": "greatwait", "timeoutMs": 2000})).await;
    let id = w.event(&ep).await;
    let (m, _) = w.queue.drain_visible(T0).remove(0);
    let slow = std::sync::Arc::new(SlowEndpointReads {
        inner: w.store.clone(),
        clock: w.clock.clone(),
        delay_ms: 3_000,
    });
    let sender = sender_with(&w, w.http.clone(), slow, std::sync::Arc::new(CrashAfterSend));
    let out = sender.handle(&m, &EndpointCache::default()).await;
    assert!(
        matches!(out, Err(courier_app::delivery::StepError::InjectedCrash)),
        "{out:?}"
    );
    let claim = w.delivery(&id).await.claim.unwrap_or_else(|| panic!("the claim stays"));
    // Read at T0, the endpoint arrives at T0 + 3 s: the claim starts then, and its
    // lease is the 2 s timeout plus the 5 s margin from there.
    assert_eq!(claim.started_at, T0.plus_millis(3_000));
    assert_eq!(claim.lease_until, T0.plus_millis(3_000 + 2_000 + 5_000));
    assert_eq!(claim.token.len(), 32, "a fresh 128-bit token");
}

/// The one request the world's receiver got, as its body's JSON.
fn sent_envelopes(w: &World) -> Vec<serde_json::Value> {
    w.http
        .requests
        .lock()
        .map(|r| {
            r.iter()
                .map(|q| serde_json::from_slice(&q.body).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn the_body_is_stored_once_in_the_event_and_carried_by_the_first_message() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    let d = w.delivery(&id).await;
    let m = w.queue.drain_visible(T0).remove(0).0;
    let stored = w
        .store
        .event_body(&d.event_id)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no event body"));
    // The delivery holds the hash of the event's body, not the body.
    assert_eq!(&*d.body, "");
    assert_eq!(d.body_hash, Some(courier_app::domain::shared_body::hash(&stored)));
    assert_eq!(m.body.as_deref(), Some(&*stored));
    let outcome = w.sender.handle(&m, &EndpointCache::default()).await;
    assert!(matches!(outcome, Ok(StepOutcome::Attempted { .. })), "{outcome:?}");
    let sent = sent_envelopes(&w);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["data"], json!({"k": 1}));
    assert_eq!(
        serde_json::to_vec(&sent[0]).ok(),
        serde_json::to_vec(&serde_json::from_str::<serde_json::Value>(&stored).unwrap_or_default()).ok()
    );
}

#[tokio::test]
async fn a_message_cannot_change_what_is_signed_and_one_without_the_body_reads_the_event() {
    for carried in [Some("{\"data\":{\"k\":666}}"), None] {
        let w = World::new(vec![status(200)], 0).await;
        let ep = w.endpoint(json!("greatwait")).await;
        let id = w.event(&ep).await;
        let d = w.delivery(&id).await;
        let m = w.queue.drain_visible(T0).remove(0).0;
        let stored = w.store.event_body(&d.event_id).await.ok().flatten().unwrap_or_default();
        let m = DeliveryMessage {
            body: carried.map(std::sync::Arc::from),
            ..m
        };
        let outcome = w.sender.handle(&m, &EndpointCache::default()).await;
        assert!(matches!(outcome, Ok(StepOutcome::Attempted { .. })), "{outcome:?}");
        let sent: Vec<Vec<u8>> = w
            .http
            .requests
            .lock()
            .map(|r| r.iter().map(|q| q.body.to_vec()).collect())
            .unwrap_or_default();
        // The event's bytes exactly, whatever the message said.
        assert_eq!(sent, vec![stored.as_bytes().to_vec()], "{carried:?}");
    }
}

#[tokio::test]
async fn a_body_that_is_not_the_one_its_hash_names_is_never_sent() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    let mut d = w.delivery(&id).await;
    let v = d.version;
    d.body_hash = Some(courier_app::domain::shared_body::hash("something else"));
    d.version += 1;
    w.store.update_delivery(&d, v).await.unwrap();
    w.run(&id, 3).await;
    let d = w.delivery(&id).await;
    assert_eq!(
        (d.status, d.dead_reason.as_deref()),
        (DeliveryStatus::Failed, Some("payload_unavailable"))
    );
    assert!(sent_envelopes(&w).is_empty());
}

/// An event for `ep` built at the clock's instant, its first message sent ahead of
/// any write (`ingest::send_ahead`), nothing written yet.
async fn sent_ahead(
    w: &World,
    ep: &str,
) -> (
    courier_app::domain::model::EventRecord,
    Vec<courier_app::domain::model::Delivery>,
) {
    use courier_app::ingest::send_ahead::send_ahead;
    use courier_app::ingest::{NewEvent, build};
    let tenant = TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("tenant id");
    let id = EndpointId::parse(ep).expect("endpoint id");
    let endpoint = w
        .store
        .get_endpoint(&tenant, &id)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no endpoint {ep}"));
    let now = w.clock.now();
    let random = courier_app::testing::memory::SeededRandom::new(3);
    let new = NewEvent {
        event_id: courier_core::ids::EventId::generate(now, &mut courier_app::ports::PortRng(&random)),
        event_type: None,
        payload: json!({"k": 1}),
        planned_at: None,
        endpoints: std::slice::from_ref(&endpoint),
        trigger: courier_app::domain::delivery_message::Trigger::Initial,
        webhook_ids: None,
        delivery_ids: None,
    };
    let (event, mut deliveries) = build(&new, now, &random);
    send_ahead(&w.api.planner, &mut deliveries, now).await;
    (event, deliveries)
}

/// A retry planned through an SQS delay is carried by the sender's message in hand
/// until the retry's message is sent, so its outcome writes no due-index entry; a
/// retry through a Scheduler schedule keeps one.
#[tokio::test]
async fn a_retry_through_an_sqs_delay_has_no_due_entry_and_one_through_a_schedule_has_one() {
    let w = World::new(vec![status(503), status(503)], 0).await;
    let quick = w.endpoint(json!("greatwait")).await;
    let slow = w.endpoint(json!({"base": "tanitar", "waitsSeconds": [1000]})).await;
    let by_queue = w.event(&quick).await;
    let by_schedule = w.event(&slow).await;
    for (m, _) in w.queue.drain_visible(T0) {
        let out = w.sender.handle(&m, &EndpointCache::default()).await;
        assert!(matches!(out, Ok(StepOutcome::Attempted { .. })), "{out:?}");
    }
    let waiting = w.queue.waiting();
    assert_eq!(
        waiting
            .iter()
            .map(|q| (q.message.delivery_id.clone(), q.message.attempt, q.message.not_before))
            .collect::<Vec<_>>(),
        vec![(by_queue.clone(), 2, T0.plus_secs(2))]
    );
    let timed: Vec<_> = w.timer.pending().into_iter().map(|s| s.message.delivery_id).collect();
    assert_eq!(timed, vec![by_schedule.clone()]);
    let overdue = courier_app::ports::OverdueIndex::overdue(w.store.as_ref(), T0.plus_secs(86_400), 10).await;
    assert_eq!(overdue.ok(), Some(vec![by_schedule]));
}

#[tokio::test]
async fn a_first_message_sent_ahead_of_its_write_is_looked_at_again_and_sent_once_the_write_lands() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let (event, deliveries) = sent_ahead(&w, &ep).await;
    let id = deliveries[0].id.clone();
    assert!(deliveries[0].carried_by_queue);
    assert_eq!(
        w.queue.waiting().len(),
        1,
        "the message is queued before anything is written"
    );
    // It arrives before the write: looked at again a second later, unchanged.
    let until = T0.plus_secs(1);
    assert_eq!(w.step().await, vec![StepOutcome::NotYetWritten { until }]);
    let waiting = w.queue.waiting();
    assert_eq!(
        (waiting.len(), waiting[0].visible_at, waiting[0].message.not_before),
        (1, until, T0)
    );
    w.store.create_event(&event, &deliveries).await.unwrap();
    // No due-index entry: the message on the queue is what moves it on.
    let overdue = courier_app::ports::OverdueIndex::overdue(w.store.as_ref(), T0.plus_secs(3_600), 10).await;
    assert_eq!(overdue.ok(), Some(vec![]));
    assert_eq!(w.run(&id, 5).await, [until]);
    assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Succeeded);
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or_default(), 1);
}

#[tokio::test]
async fn a_first_message_whose_write_never_comes_is_looked_at_with_growing_waits_then_dropped() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let _never_written = sent_ahead(&w, &ep).await;
    let mut looks = vec![];
    let mut last = vec![];
    for _ in 0..20 {
        looks.push(w.clock.now().millis_since(T0) / 1000);
        last = w.step().await;
        match w.queue.next_visible_at() {
            Some(t) => w.clock.set(t),
            None => break,
        }
    }
    // Waits of the message's age, from 1 s to a minute, until 300 s after it was
    // planned; then it is dropped.
    assert_eq!(looks, [0, 1, 2, 4, 8, 16, 32, 64, 124, 184, 244, 304]);
    assert_eq!(
        last,
        vec![StepOutcome::Dropped {
            why: DropReason::UnknownDelivery
        }]
    );
    assert!(w.queue.waiting().is_empty());
    assert!(w.http.requests.lock().map(|r| r.is_empty()).unwrap_or_default());
}

#[tokio::test]
async fn only_an_initial_first_message_waits_for_its_write() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let (_, deliveries) = sent_ahead(&w, &ep).await;
    let first = w.queue.drain_visible(T0).remove(0).0;
    assert_eq!(deliveries[0].id, first.delivery_id);
    let later = [
        DeliveryMessage {
            attempt: 2,
            trigger: courier_app::domain::delivery_message::Trigger::Retry,
            ..first.clone()
        },
        DeliveryMessage {
            trigger: courier_app::domain::delivery_message::Trigger::Redelivery,
            ..first.clone()
        },
        DeliveryMessage {
            completion_check: true,
            ..first.clone()
        },
    ];
    for m in later {
        let out = w.sender.handle(&m, &EndpointCache::default()).await;
        assert_eq!(
            out.ok(),
            Some(StepOutcome::Dropped {
                why: DropReason::UnknownDelivery
            }),
            "{m:?}"
        );
    }
    assert!(w.queue.waiting().is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_first_message_a_moment_ahead_of_its_write_is_sent_in_the_same_step() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let (event, deliveries) = sent_ahead(&w, &ep).await;
    let id = deliveries[0].id.clone();
    let m = w.queue.drain_visible(T0).remove(0).0;
    // The write lands 20 ms into the step, inside the sender's 100 ms pause.
    let store = w.store.clone();
    let write = tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        store.create_event(&event, &deliveries).await
    });
    let out = w.sender.handle(&m, &EndpointCache::default()).await;
    assert!(matches!(out, Ok(StepOutcome::Attempted { .. })), "{out:?}");
    assert!(matches!(write.await, Ok(Ok(()))));
    assert!(w.queue.waiting().is_empty(), "no trip through the queue");
    assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Succeeded);
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or_default(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_first_message_handed_over_at_once_waits_until_it_is_50_ms_old_before_its_claim() {
    let mut w = World::new(vec![status(200)], 0).await;
    // The production wait, and no second look: a claim made before the write
    // would end the step as `NotYetWritten`.
    w.sender.settings.unwritten_min_age_ms = 50;
    w.sender.settings.unwritten_pause_ms = 0;
    let ep = w.endpoint(json!("greatwait")).await;
    let (event, deliveries) = sent_ahead(&w, &ep).await;
    let id = deliveries[0].id.clone();
    let m = w.queue.drain_visible(T0).remove(0).0;
    // Handed over 20 ms after it was planned; the write lands 25 ms later.
    w.clock.set(T0.plus_millis(20));
    let store = w.store.clone();
    let write = tokio::spawn(async move {
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        store.create_event(&event, &deliveries).await
    });
    let started = tokio::time::Instant::now();
    let out = w.sender.handle(&m, &EndpointCache::default()).await;
    assert!(matches!(out, Ok(StepOutcome::Attempted { .. })), "{out:?}");
    assert_eq!(
        started.elapsed(),
        std::time::Duration::from_millis(30),
        "waited the 30 ms it lacked"
    );
    assert!(matches!(write.await, Ok(Ok(()))));
    assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Succeeded);
    // A message already that old, or not a first one, does not wait.
    use courier_app::ingest::send_ahead::young_first_wait_ms;
    assert_eq!(young_first_wait_ms(&m, T0.plus_millis(50), 50), 0);
    assert_eq!(young_first_wait_ms(&m, T0.plus_millis(49), 50), 1);
    let retry = DeliveryMessage {
        attempt: 2,
        trigger: courier_app::domain::delivery_message::Trigger::Retry,
        ..m
    };
    assert_eq!(young_first_wait_ms(&retry, T0, 50), 0);
}
