//! End-to-end routing by subscription on the local stack (moto DynamoDB and SQS, the
//! real sender, receivers on 127.0.0.1): one `invoice.paid` event reaches exactly
//! the endpoints subscribed to it, and a 1,000-endpoint fan-out worked in steps
//! survives a step crashing half-way with no delivery made twice.

use courier_app::domain::fanout_message::FanoutStep;
use courier_app::domain::model::Application;
use courier_app::ports::ApplicationStore;
use courier_app::ports::faults::FanoutFaults;
use courier_app::testing::contract;
use courier_core::ids::EndpointId;
use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use std::time::Instant;

const SETTLE: Duration = Duration::from_secs(60);

async fn application(h: &Harness, id: &str, uid: &str) {
    let now = h.stack.api.clock.now();
    h.stack
        .store
        .create_application(&Application {
            id: id.to_owned(),
            tenant_id: h.stack.tenant.id.clone(),
            name: uid.to_owned(),
            uid: Some(uid.to_owned()),
            metadata: None,
            created_at: now,
            updated_at: now,
            version: 1,
            portal: Default::default(),
            live_endpoints: 0,
        })
        .await
        .unwrap_or_else(|e| panic!("application: {e}"));
}

async fn receiver() -> ScriptedReceiver {
    ScriptedReceiver::start(vec![Reply::Status(200)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"))
}

async fn subscribed(h: &Harness, rx: &ScriptedReceiver, fields: Value) -> String {
    let mut body = json!({"url": rx.url(), "policy": {}});
    for (k, v) in fields.as_object().cloned().unwrap_or_default() {
        body[k] = v;
    }
    let (s, b) = h.call("POST", "/v1/endpoints", Some(body)).await;
    assert_eq!(s, 201, "{b}");
    b["id"].as_str().unwrap_or_default().to_owned()
}

/// Sends the event; waits for each of its deliveries to settle; returns the
/// endpoints it reached.
async fn send(h: &Harness, body: Value) -> Vec<String> {
    let (s, a) = h.call("POST", "/v1/events", Some(body)).await;
    assert_eq!(s, 202, "{a}");
    let mut reached = Vec::new();
    for d in a["deliveries"].as_array().cloned().unwrap_or_default() {
        let settled = h.settled(d["id"].as_str().unwrap_or_default(), SETTLE).await;
        assert_eq!(settled["status"], "succeeded", "{settled}");
        reached.push(d["endpointId"].as_str().unwrap_or_default().to_owned());
    }
    reached.sort();
    reached
}

const APP: &str = "app_01JAAAAAAAAAAAAAAAAAAAAAAB";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_invoice_paid_event_reaches_exactly_the_subscribed_endpoints() {
    let h = Harness::start(test_options("fanout-match")).await;
    application(&h, APP, "customer-42").await;
    let names = ["invoices", "paid", "all", "orders", "eu"];
    let mut rx = BTreeMap::new();
    for n in names {
        rx.insert(n, receiver().await);
    }
    let fields = [
        json!({"applicationId": APP, "filterTypes": ["invoice.*"]}),
        json!({"applicationId": "customer-42", "filterTypes": ["invoice.paid"]}),
        json!({"applicationId": APP}),
        json!({"applicationId": APP, "filterTypes": ["order.*"]}),
        json!({"applicationId": APP, "channels": ["eu"]}),
    ];
    let mut ep = BTreeMap::new();
    for (n, f) in names.iter().zip(fields) {
        ep.insert(*n, subscribed(&h, &rx[n], f).await);
    }
    let ids = |ns: &[&str]| {
        let mut v: Vec<String> = ns.iter().map(|n| ep[n].clone()).collect();
        v.sort();
        v
    };

    let reached = send(
        &h,
        json!({"type": "invoice.paid", "applicationId": "customer-42", "payload": {"n": 1}}),
    )
    .await;
    assert_eq!(reached, ids(&["invoices", "paid", "all"]));
    let reached = send(
        &h,
        json!({"type": "invoice.paid", "applicationId": APP, "channels": ["eu"], "payload": {"n": 2}}),
    )
    .await;
    assert_eq!(reached, ids(&["invoices", "paid", "all", "eu"]));

    // What each receiver got: the first event, the second, or both.
    let got = |n: &str| {
        let mut v: Vec<i64> = rx[n]
            .received()
            .iter()
            .map(|r| {
                let body: Value = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
                assert_eq!(body["type"], "invoice.paid");
                body["data"]["n"].as_i64().unwrap_or_default()
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(got("invoices"), vec![1, 2]);
    assert_eq!(got("paid"), vec![1, 2]);
    assert_eq!(got("all"), vec![1, 2]);
    assert_eq!(got("eu"), vec![2]);
    assert_eq!(got("orders"), Vec::<i64>::new());
    h.stop().await;
}

/// Crashes the fan-out step at `page_at` once, after `after` of its deliveries.
struct CrashOnce {
    page_at: u64,
    after: usize,
    crashed: AtomicBool,
}

impl FanoutFaults for CrashOnce {
    fn crash_after_writes(&self, step: &FanoutStep, written: usize) -> bool {
        step.cursor.processed == self.page_at && written == self.after && !self.crashed.swap(true, Ordering::SeqCst)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stepped_fan_out_survives_a_crashed_step_with_no_duplicate() {
    // 1,000 endpoints in steps of 100, the sixth step crashing half-way.
    // FANOUT_E2E_N / FANOUT_E2E_PAGE run other sizes.
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<usize>().ok());
    #[allow(non_snake_case)]
    let N: usize = env("FANOUT_E2E_N").unwrap_or(1000);
    let page = env("FANOUT_E2E_PAGE").unwrap_or(100);
    let started = Instant::now();
    let crash = Arc::new(CrashOnce {
        page_at: (N / 2 / page * page) as u64,
        after: page / 2,
        crashed: AtomicBool::new(false),
    });
    let mut opts = test_options("fanout-1000");
    opts.fanout_faults = crash.clone();
    opts.fanout_page = page;
    // The crashed step's message comes back after the stack's 30 s visibility
    // timeout, while the deliveries of the steps before it are still being sent. A
    // short one (5 s) makes batches still at work on the loaded emulator come back
    // to other pollers: duplicate work, and step messages moved to the DLQ.
    let h = Harness::start(opts).await;
    application(&h, APP, "big").await;
    let rx = receiver().await;

    // The endpoints and their subscription entries are written as plain PutItems
    // (eight endpoints at a time), then listed once through GET /v1/endpoints.
    // Created one by one, each would be a transaction, which the emulator runs by
    // copying the whole table first: 1,000 of them took 117 s in a row (and failed
    // under concurrency), against 13.5 s for plain puts.
    let now = h.stack.api.clock.now();
    let mut rng = courier_core::rng::SplitMix64::new(30);
    let mut endpoints = Vec::new();
    for _ in 0..N {
        let mut e = contract::sample_endpoint(&h.stack.tenant.id, &EndpointId::generate(now, &mut rng), now);
        e.url = rx.url();
        e.application_id = Some(APP.to_owned());
        e.filter_types = Some(vec!["invoice.*".to_owned()]);
        e.version = 1;
        endpoints.push(e);
    }
    for chunk in endpoints.chunks(8) {
        let mut writes = tokio::task::JoinSet::new();
        for e in chunk {
            let (e, store) = (e.clone(), h.stack.store.clone());
            writes.spawn(async move { store.put_endpoint_untransacted(&e).await });
        }
        while let Some(r) = writes.join_next().await {
            r.unwrap().unwrap_or_else(|e| panic!("write endpoint: {e}"));
        }
    }
    eprintln!("{N} endpoints written after {:?}", started.elapsed());
    let mut listed = 0;
    let mut cursor: Option<String> = None;
    for _ in 0..N / 100 + 2 {
        let path = match &cursor {
            Some(c) => format!("/v1/endpoints?limit=100&cursor={c}"),
            None => "/v1/endpoints?limit=100".to_owned(),
        };
        let (s, b) = h.call("GET", &path, None).await;
        assert_eq!(s, 200, "{b}");
        listed += b["items"].as_array().map_or(0, Vec::len);
        match b["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    assert_eq!(listed, N);
    eprintln!("{N} endpoints listed after {:?}", started.elapsed());

    let (s, a) = h
        .call(
            "POST",
            "/v1/events",
            Some(json!({"type": "invoice.paid", "applicationId": APP, "payload": {"big": true}})),
        )
        .await;
    eprintln!("ingest answered after {:?}", started.elapsed());
    assert_eq!(s, 202, "{a}");
    assert_eq!(a["fanout"], json!({"status": "in_progress", "matched": N}));
    let event_id = a["eventId"].as_str().unwrap_or_default().to_owned();

    // Every endpoint's delivery arrives (bounded wait), each webhook-id once.
    rx.wait_for(N, Duration::from_secs(600)).await;
    eprintln!(
        "{} requests received after {:?}",
        rx.received().len(),
        started.elapsed()
    );
    let mut per_id: BTreeMap<String, usize> = BTreeMap::new();
    for r in rx.received() {
        let id = r
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("webhook-id"))
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        *per_id.entry(id).or_default() += 1;
    }
    assert!(crash.crashed.load(Ordering::SeqCst), "the step was made to crash");
    let twice: Vec<_> = per_id.iter().filter(|(_, n)| **n > 1).collect();
    assert_eq!((per_id.len(), twice), (N, vec![]), "each webhook-id once");
    assert!(per_id.values().all(|n| *n == 1), "a webhook-id arrived twice");

    let mut fanout = Value::Null;
    for _ in 0..100 {
        let (s, e) = h.call("GET", &format!("/v1/events/{event_id}"), None).await;
        assert_eq!(s, 200, "{e}");
        fanout = e["fanout"].clone();
        if fanout["status"] == "complete" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(fanout, json!({"status": "complete", "matched": N, "processed": N}));
    // The event's delivery list names each delivery once, as received.
    let mut listed: Vec<String> = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..N / 100 + 2 {
        let path = match &cursor {
            Some(c) => format!("/v1/events/{event_id}/deliveries?limit=100&cursor={c}"),
            None => format!("/v1/events/{event_id}/deliveries?limit=100"),
        };
        let (s, b) = h.call("GET", &path, None).await;
        assert_eq!(s, 200, "{b}");
        for d in b["items"].as_array().cloned().unwrap_or_default() {
            assert_eq!(d["status"], "succeeded", "{d}");
            listed.push(d["id"].as_str().unwrap_or_default().to_owned());
        }
        match b["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => break,
        }
    }
    listed.sort();
    assert_eq!(listed, per_id.keys().cloned().collect::<Vec<_>>());
    // Nothing more arrives once the fan-out is complete.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(rx.received().len(), N);
    h.stop().await;
}

/// Operational events on the local stack: an endpoint whose receiver answers 410
/// (SmartChat disables it) is told, signed like any webhook, to the endpoint that
/// subscribed to `courier.endpoint.disabled` and `courier.delivery.failed`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_endpoint_gone_with_410_is_told_to_the_operations_endpoint() {
    let h = Harness::start(test_options("ops-events")).await;
    let ops = receiver().await;
    let gone = ScriptedReceiver::start(vec![Reply::Status(410)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"));
    let (s, watcher) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({
                "url": ops.url(),
                "policy": "greatwait",
                "filterTypes": ["courier.endpoint.disabled", "courier.delivery.failed"],
            })),
        )
        .await;
    assert_eq!(s, 201, "{watcher}");
    let (ep, _) = h.endpoint(&gone.url(), json!("smartchat")).await;
    let dlv = h.event(&ep, json!({"n": 1})).await;
    let settled = h.settled(&dlv, SETTLE).await;
    assert_eq!(settled["status"], "failed", "{settled}");
    let got = ops.wait_for(2, SETTLE).await;
    let secret = courier_core::signing::SigningSecret::parse(watcher["secret"].as_str().unwrap_or_default()).unwrap();
    let mut told: Vec<(String, Value)> = Vec::new();
    for r in &got {
        let ts: i64 = r.header("webhook-timestamp").and_then(|t| t.parse().ok()).unwrap_or(-1);
        let id = r.header("webhook-id").unwrap_or_default();
        assert!(
            courier_core::signing::verify(&secret, id, ts, &r.body, r.header("webhook-signature").unwrap_or("")),
            "an operational event is signed like any webhook"
        );
        let v: Value = serde_json::from_slice(&r.body).unwrap_or_default();
        told.push((v["type"].as_str().unwrap_or_default().to_owned(), v["data"].clone()));
    }
    told.sort_by(|a, b| a.0.cmp(&b.0));
    let brief: Vec<(&str, &Value, &Value)> = told
        .iter()
        .map(|(t, d)| (t.as_str(), &d["endpointId"], &d["reason"]))
        .collect();
    assert_eq!(
        brief,
        vec![
            ("courier.delivery.failed", &json!(ep), &json!("endpoint_disabled")),
            ("courier.endpoint.disabled", &json!(ep), &json!("gone")),
        ]
    );
    assert_eq!(told[0].1["deliveryId"], json!(dlv));
    // Nothing more: the operational deliveries themselves cause none.
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert_eq!(ops.received().len(), 2);
    h.stop().await;
}
