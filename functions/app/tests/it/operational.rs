//! Operational events through the API and the sender: changes of an endpoint's
//! health, its breaker and a delivery's failure become `courier.` events, delivered
//! by the ordinary pipeline only to endpoints whose filter names them (the
//! application's, or the tenant's without one), once per change, never about a
//! delivery of such an event; producers cannot send or declare those types.

use crate::common::{World, status};
use courier_app::fanout::FanoutWorker;
use courier_app::fanout::operational::{Notice, Notifier};
use courier_app::ports::{Clock, EndpointStore};
use serde_json::{Value, json};
use std::sync::Arc;

/// A world whose sender routes operational events (as the Lambda's does).
async fn world(script: Vec<courier_core::outcome::AttemptOutcome>) -> World {
    let mut w = World::new(script, 5).await;
    w.sender.fanout = Some(worker(&w));
    w
}

fn worker(w: &World) -> Arc<FanoutWorker> {
    Arc::new(FanoutWorker {
        index: w.store.clone(),
        deliveries: w.store.clone(),
        planner: w.api.planner.clone(),
        steps: w.queue.clone(),
        clock: w.clock.clone(),
        faults: Arc::new(courier_app::ports::faults::NoFanoutFaults),
        page: courier_app::fanout::STEP_PAGE,
        console_url: Some("https://courier.example/console".to_owned()),
    })
}

/// Works fan-out steps and delivery messages until nothing is left (bounded).
async fn settle(w: &World) {
    let fanout = worker(w);
    for _ in 0..20 {
        let steps = w.queue.drain_fanout();
        for s in &steps {
            fanout.step(s).await.unwrap_or_else(|e| panic!("fan-out step: {e}"));
        }
        let outcomes = w.step().await;
        if steps.is_empty() && outcomes.is_empty() {
            return;
        }
    }
    panic!("still working after 20 rounds");
}

async fn endpoint(w: &World, body: Value) -> String {
    let mut body = body;
    if body.get("url").is_none() {
        body["url"] = json!("https://receiver.example/hook");
    }
    let (s, b) = w.call("POST", "/v1/endpoints", body).await;
    assert_eq!(s, 201, "{b}");
    b["id"].as_str().unwrap_or_default().to_owned()
}

/// The operational events sent to `url`, as (type, data) in the order sent.
fn received(w: &World, url: &str) -> Vec<(String, Value)> {
    let sent = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    sent.iter()
        .filter(|r| r.url == url)
        .filter_map(|r| serde_json::from_slice::<Value>(&r.body).ok())
        .filter(|v| v["type"].as_str().is_some_and(|t| t.starts_with("courier.")))
        .map(|v| (v["type"].as_str().unwrap_or_default().to_owned(), v["data"].clone()))
        .collect()
}

#[tokio::test]
async fn a_smartchat_410_tells_the_subscribed_endpoints_once_with_its_cause() {
    let w = world(vec![status(410), status(200), status(200)]).await;
    let watcher = "https://ops.example/all";
    let quiet = "https://ops.example/quiet";
    endpoint(
        &w,
        json!({"url": watcher, "policy": "greatwait", "filterTypes": ["courier.endpoint.*"]}),
    )
    .await;
    endpoint(&w, json!({"url": quiet, "policy": "greatwait"})).await;
    let gone = endpoint(&w, json!({"policy": "smartchat"})).await;
    w.event(&gone).await;
    settle(&w).await;
    let now = w.clock.now();
    assert_eq!(
        received(&w, watcher),
        vec![(
            "courier.endpoint.disabled".to_owned(),
            json!({
                "endpointId": gone,
                "applicationId": null,
                "at": now.plus_millis(-5),
                "state": "disabled",
                "reason": "gone",
                "consoleUrl": format!("https://courier.example/console#/endpoints/{gone}"),
            })
        )]
    );
    // Taking every type does not include them.
    assert_eq!(received(&w, quiet), vec![]);
}

#[tokio::test]
async fn the_same_change_noticed_twice_is_one_event() {
    let w = world(vec![status(200), status(200)]).await;
    let watcher = "https://ops.example/all";
    endpoint(
        &w,
        json!({"url": watcher, "policy": "greatwait", "filterTypes": ["courier.*"]}),
    )
    .await;
    let ep = endpoint(&w, json!({"policy": "tanitar"})).await;
    let (_, stored) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    let e = w
        .store
        .get_endpoint(
            &courier_core::ids::TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
            &courier_core::ids::EndpointId::parse(&ep).unwrap(),
        )
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no endpoint {stored}"));
    let at = w.clock.now();
    let notice = Notice::endpoint(courier_core::operational::OperationalType::EndpointPaused, &e, at, at);
    let notifier = Notifier {
        deliveries: w.store.as_ref(),
        steps: w.queue.as_ref(),
        console_url: None,
    };
    notifier.emit(&notice).await.unwrap();
    notifier.emit(&notice).await.unwrap();
    settle(&w).await;
    assert_eq!(
        received(&w, watcher),
        vec![(
            "courier.endpoint.paused".to_owned(),
            json!({"endpointId": ep, "applicationId": null, "at": at})
        )]
    );
}

#[tokio::test]
async fn an_application_hears_about_its_own_endpoints_only() {
    let w = world(vec![status(500), status(200), status(200), status(200)]).await;
    for (name, uid) in [("A", "cust-a"), ("B", "cust-b")] {
        let (s, b) = w
            .call("POST", "/v1/applications", json!({"name": name, "uid": uid}))
            .await;
        assert_eq!(s, 201, "{b}");
    }
    let mine = "https://ops.example/a";
    let theirs = "https://ops.example/b";
    let tenants = "https://ops.example/tenant";
    let filter = json!(["courier.endpoint.breaker_opened", "courier.delivery.failed"]);
    endpoint(
        &w,
        json!({"url": mine, "policy": "greatwait", "applicationId": "cust-a", "filterTypes": filter}),
    )
    .await;
    endpoint(
        &w,
        json!({"url": theirs, "policy": "greatwait", "applicationId": "cust-b", "filterTypes": filter}),
    )
    .await;
    endpoint(
        &w,
        json!({"url": tenants, "policy": "greatwait", "filterTypes": filter}),
    )
    .await;
    let failing = endpoint(
        &w,
        json!({
            "policy": {"base": "gavai", "maxAttempts": 1, "health": {"model": "breaker", "exhaustedInARow": 1, "openSeconds": 30}},
            "applicationId": "cust-a",
        }),
    )
    .await;
    let dlv = w.event(&failing).await;
    settle(&w).await;
    let kinds: Vec<String> = received(&w, mine).into_iter().map(|(t, _)| t).collect();
    assert_eq!(
        kinds,
        vec!["courier.delivery.failed", "courier.endpoint.breaker_opened"]
    );
    let failed = received(&w, mine)[0].1.clone();
    let (_, app) = w.call("GET", "/v1/applications/cust-a", json!({})).await;
    assert_eq!(
        (
            failed["deliveryId"].clone(),
            failed["applicationId"].clone(),
            failed["state"].clone(),
            failed["reason"].clone(),
            failed["diagnostic"].clone(),
            failed["remediation"].clone()
        ),
        (
            json!(dlv.to_string()),
            app["id"].clone(),
            json!("failed"),
            json!("max_attempts"),
            json!("http_retryable"),
            json!("review_retry_policy")
        ),
        "{failed}"
    );
    assert_eq!(received(&w, theirs), vec![]);
    assert_eq!(received(&w, tenants), vec![]);
}

#[tokio::test]
async fn a_failed_operational_delivery_causes_none() {
    // The watcher fails every attempt of its operational deliveries.
    let w = world(vec![status(400), status(400), status(400), status(400)]).await;
    let watcher = "https://ops.example/broken";
    let watcher_id = endpoint(
        &w,
        json!({"url": watcher, "policy": "greatwait", "filterTypes": ["courier.delivery.failed"]}),
    )
    .await;
    let ep = endpoint(&w, json!({"policy": "greatwait"})).await;
    w.event(&ep).await;
    settle(&w).await;
    // One event about the first delivery; its own failed delivery says nothing more.
    assert_eq!(received(&w, watcher).len(), 1);
    let (_, log) = w
        .call("GET", &format!("/v1/endpoints/{watcher_id}/deliveries"), json!({}))
        .await;
    assert_eq!(log["items"].as_array().map(Vec::len), Some(1), "{log}");
}

#[tokio::test]
async fn disabling_and_enabling_by_hand_are_told() {
    let w = world(vec![status(200), status(200)]).await;
    let watcher = "https://ops.example/all";
    endpoint(&w, json!({"url": watcher, "policy": "greatwait", "filterTypes": ["courier.endpoint.disabled", "courier.endpoint.enabled"]})).await;
    let ep = endpoint(&w, json!({"policy": "tanitar"})).await;
    let (s, _) = w.call("POST", &format!("/v1/endpoints/{ep}/disable"), json!({})).await;
    assert_eq!(s, 200);
    // Again: nothing changes, nothing is told.
    w.call("POST", &format!("/v1/endpoints/{ep}/disable"), json!({})).await;
    w.clock.advance_secs(1);
    let (s, _) = w.call("POST", &format!("/v1/endpoints/{ep}/enable"), json!({})).await;
    assert_eq!(s, 200);
    settle(&w).await;
    let got: Vec<(String, Value, Value)> = received(&w, watcher)
        .into_iter()
        .map(|(t, d)| (t, d["state"].clone(), d["reason"].clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "courier.endpoint.disabled".to_owned(),
                json!("disabled"),
                json!("by_hand")
            ),
            ("courier.endpoint.enabled".to_owned(), json!("active"), Value::Null),
        ]
    );
}

#[tokio::test]
async fn producers_cannot_send_or_declare_courier_types() {
    let w = World::new(vec![], 5).await;
    let ep = endpoint(&w, json!({"policy": "greatwait"})).await;
    for (path, body, needle) in [
        (
            "/v1/events",
            json!({"endpointId": ep, "type": "courier.endpoint.paused", "payload": {}}),
            "field `type`",
        ),
        (
            "/v1/events",
            json!({"type": "courier.delivery.failed", "payload": {}}),
            "field `type`",
        ),
        ("/v1/event-types", json!({"name": "courier.custom"}), "field `name`"),
        (
            "/v1/endpoints",
            json!({"url": "https://r.example/x", "policy": "greatwait", "filterTypes": ["invoice.paid", "courier.endpoint.nope"]}),
            "field `filterTypes[1]`",
        ),
    ] {
        let (s, b) = w.call("POST", path, body.clone()).await;
        assert_eq!((s, b["code"].clone()), (400, json!("validation_failed")), "{body}: {b}");
        assert!(
            b["detail"].as_str().is_some_and(|d| d.starts_with(needle)),
            "{body}: {b}"
        );
    }
    // Test events keep their reserved type.
    let (s, b) = w
        .call(
            "POST",
            "/v1/events",
            json!({"endpointId": ep, "type": "courier.test", "payload": {}}),
        )
        .await;
    assert_eq!(s, 202, "{b}");
}

#[tokio::test]
async fn a_fan_out_with_no_step_for_its_watch_is_told_and_goes_on() {
    let w = world(vec![]).await;
    let watcher = "https://ops.example/fanouts";
    endpoint(
        &w,
        json!({"url": watcher, "policy": "greatwait", "filterTypes": ["courier.fanout.stalled"]}),
    )
    .await;
    // More subscribers than ingest writes itself: the fan-out goes in steps.
    for n in 0..51 {
        endpoint(
            &w,
            json!({"url": format!("https://receiver.example/{n}"), "policy": "greatwait", "filterTypes": ["invoice.paid"]}),
        )
        .await;
    }
    let (s, a) = w
        .call("POST", "/v1/events", json!({"type": "invoice.paid", "payload": {}}))
        .await;
    assert_eq!(
        (s, a["fanout"].clone()),
        (202, json!({"status": "in_progress", "matched": 51})),
        "{a}"
    );
    let event_id = a["eventId"].as_str().unwrap_or_default().to_owned();
    // The first step is lost; its watch comes after the delay.
    assert_eq!(w.queue.drain_fanout().len(), 1);
    let watches = w.queue.drain_delayed_fanout();
    assert_eq!(watches.len(), 1);
    assert!(watches[0].watch);
    w.clock.advance_secs(300);
    let at = w.clock.now();
    let fanout = worker(&w);
    let done = fanout.step(&watches[0]).await.unwrap();
    assert_eq!((done.created, done.matched), (51, 51));
    settle(&w).await;
    // The watches still to come (the stalled notice's own fan-out's) find their
    // steps done: nothing more.
    for watch in w.queue.drain_delayed_fanout() {
        let again = fanout.step(&watch).await.unwrap();
        assert_eq!((again.created, again.matched), (0, 0));
    }
    assert_eq!(
        received(&w, watcher),
        vec![(
            "courier.fanout.stalled".to_owned(),
            json!({"eventId": event_id, "applicationId": null, "matched": 51, "done": 0, "at": at})
        )]
    );
    let (_, e) = w.call("GET", &format!("/v1/events/{event_id}"), json!({})).await;
    assert_eq!(
        e["fanout"],
        json!({"status": "complete", "matched": 51, "processed": 51}),
        "{e}"
    );
}

#[tokio::test]
async fn a_run_of_failures_is_told_once_and_its_end_once() {
    let w = world(vec![
        status(400),
        status(400),
        status(200),
        status(400),
        status(200),
        status(200),
    ])
    .await;
    let watcher = "https://ops.example/runs";
    endpoint(
        &w,
        json!({"url": watcher, "policy": "greatwait", "filterTypes": ["courier.endpoint.failing", "courier.endpoint.recovered"]}),
    )
    .await;
    let ep = endpoint(&w, json!({"policy": "greatwait", "failingAfter": 2})).await;
    // Greatwait settles a 400 at once: one attempt per event.
    for _ in 0..2 {
        w.event(&ep).await;
        settle(&w).await;
    }
    // The watcher's own delivery took the 200; the next event fails once more
    // (still the same run), then one succeeds.
    w.event(&ep).await;
    settle(&w).await;
    w.event(&ep).await;
    settle(&w).await;
    let told: Vec<(String, Value, Value)> = received(&w, watcher)
        .into_iter()
        .map(|(t, d)| (t, d["endpointId"].clone(), d["failuresInARow"].clone()))
        .collect();
    assert_eq!(
        told,
        vec![
            ("courier.endpoint.failing".to_owned(), json!(ep), json!(2)),
            ("courier.endpoint.recovered".to_owned(), json!(ep), json!(3)),
        ]
    );
}
