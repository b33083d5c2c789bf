//! Routing by subscription over the memory adapters: endpoint subscription fields
//! and their refusals, which endpoints one event reaches (application, type filters,
//! channels, state), and large fan-outs worked in steps, redone after a crash with
//! each delivery written once.

use crate::common;

use crate::common::{T0, World};
use courier_app::domain::fanout_message::FanoutStep;
use courier_app::domain::model::{Application, FanoutStatus};
use courier_app::fanout::FanoutWorker;
use courier_app::ports::FanoutFaults;
use courier_app::ports::{ApplicationStore, DeliveryStore};
use courier_core::ids::{EventId, TenantId};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

const TENANT: &str = "ten_01JAAAAAAAAAAAAAAAAAAAAAAA";

async fn application(w: &World, id: &str, uid: &str) {
    w.applications
        .create_application(&Application {
            id: id.to_owned(),
            tenant_id: TenantId::parse(TENANT).expect("tenant id"),
            name: uid.to_owned(),
            uid: Some(uid.to_owned()),
            metadata: None,
            created_at: T0,
            updated_at: T0,
            version: 1,
            portal: Default::default(),
            live_endpoints: 0,
        })
        .await
        .expect("application created");
}

async fn subscribed(w: &World, fields: Value) -> String {
    // Under the tenant's request rate limit (50 a second).
    w.clock.advance_millis(25);
    let mut body = json!({"url": "https://receiver.example/hook", "policy": "greatwait"});
    for (k, v) in fields.as_object().expect("object") {
        body[k] = v.clone();
    }
    let (s, b) = w.call("POST", "/v1/endpoints", body).await;
    assert_eq!(s, 201, "{b}");
    b["id"].as_str().expect("id").to_owned()
}

/// The endpoint ids an ingest answer lists deliveries for.
fn reached(answer: &Value) -> BTreeSet<String> {
    answer["deliveries"]
        .as_array()
        .expect("deliveries")
        .iter()
        .map(|d| d["endpointId"].as_str().expect("endpointId").to_owned())
        .collect()
}

fn set(ids: &[&String]) -> BTreeSet<String> {
    ids.iter().map(|s| (*s).clone()).collect()
}

const APP: &str = "app_01JAAAAAAAAAAAAAAAAAAAAAAB";

/// Every page of `GET /v1/events/{id}/deliveries` with `limit` (at most 50 pages):
/// the items, and each page's size.
async fn event_deliveries(w: &World, event_id: &str, limit: usize) -> (Vec<Value>, Vec<usize>) {
    let auth = format!("Bearer {}", common::KEY);
    let path = format!("/v1/events/{event_id}/deliveries");
    let (mut items, mut sizes) = (Vec::new(), Vec::new());
    let mut cursor: Option<String> = None;
    for _ in 0..50 {
        let query = match &cursor {
            Some(c) => format!("limit={limit}&cursor={c}"),
            None => format!("limit={limit}"),
        };
        let (s, b, _) = common::raw(w, "GET", &path, Some(&query), &[("authorization", &auth)], b"").await;
        assert_eq!(s, 200, "{b}");
        let page = b["items"].as_array().expect("items").clone();
        sizes.push(page.len());
        items.extend(page);
        match b["nextCursor"].as_str() {
            Some(c) => cursor = Some(c.to_owned()),
            None => return (items, sizes),
        }
    }
    panic!("more than 50 pages");
}

/// The `endpointId`s of delivery views.
fn endpoints_of(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .map(|d| d["endpointId"].as_str().expect("endpointId").to_owned())
        .collect()
}

#[tokio::test]
async fn one_event_reaches_exactly_the_subscribed_endpoints() {
    let w = World::new(vec![], 10).await;
    application(&w, APP, "customer-42").await;
    let inv = subscribed(&w, json!({"applicationId": APP, "filterTypes": ["invoice.*"]})).await;
    let paid = subscribed(
        &w,
        json!({"applicationId": "customer-42", "filterTypes": ["invoice.paid"]}),
    )
    .await;
    let all = subscribed(&w, json!({"applicationId": APP})).await;
    let order = subscribed(&w, json!({"applicationId": APP, "filterTypes": ["order.*"]})).await;
    let eu = subscribed(&w, json!({"applicationId": APP, "channels": ["eu"]})).await;
    // Both filters match: still one delivery.
    let both = subscribed(
        &w,
        json!({"applicationId": APP, "filterTypes": ["invoice.paid", "invoice.*"]}),
    )
    .await;
    let tenant_wide = subscribed(&w, json!({})).await;
    let disabled = subscribed(&w, json!({"applicationId": APP, "filterTypes": ["invoice.paid"]})).await;
    let (s, b) = w
        .call("POST", &format!("/v1/endpoints/{disabled}/disable"), json!({}))
        .await;
    assert_eq!(s, 200, "{b}");

    let (s, view) = w.call("GET", &format!("/v1/endpoints/{paid}"), Value::Null).await;
    assert_eq!(s, 200);
    assert_eq!(view["applicationId"], APP);
    assert_eq!(view["filterTypes"], json!(["invoice.paid"]));
    assert_eq!(view["channels"], Value::Null);

    let event = |extra: Value| {
        let mut body = json!({"type": "invoice.paid", "payload": {"n": 1}});
        for (k, v) in extra.as_object().expect("object") {
            body[k] = v.clone();
        }
        body
    };
    let (s, a) = w.call("POST", "/v1/events", event(json!({"applicationId": APP}))).await;
    assert_eq!(s, 202, "{a}");
    assert_eq!(reached(&a), set(&[&inv, &paid, &all, &both]));
    assert_eq!(a["fanout"], json!({"status": "complete", "matched": 5}));

    let (s, a) = w
        .call(
            "POST",
            "/v1/events",
            event(json!({"applicationId": "customer-42", "channels": ["eu", "us"]})),
        )
        .await;
    assert_eq!(s, 202, "{a}");
    assert_eq!(reached(&a), set(&[&inv, &paid, &all, &both, &eu]));

    // No application: the tenant's endpoints without one.
    let (s, a) = w.call("POST", "/v1/events", event(json!({}))).await;
    assert_eq!(s, 202, "{a}");
    assert_eq!(reached(&a), set(&[&tenant_wide]));

    // An application without endpoints: the event is kept in the audit log with no
    // delivery.
    application(&w, "app_01JAAAAAAAAAAAAAAAAAAAAAAC", "nobody-subscribed").await;
    let (s, a) = w
        .call(
            "POST",
            "/v1/events",
            json!({"type": "refund.created", "applicationId": "nobody-subscribed", "payload": {}}),
        )
        .await;
    assert_eq!(s, 202, "{a}");
    assert_eq!(reached(&a), BTreeSet::new());
    let id = EventId::parse(a["eventId"].as_str().expect("eventId")).expect("event id");
    let stored = w
        .store
        .get_event(&TenantId::parse(TENANT).expect("tenant"), &id)
        .await
        .expect("read")
        .expect("the event is kept");
    assert_eq!(stored.targets, vec![]);

    // The order endpoint moves to invoices: the index follows the change.
    let (s, b) = w
        .call(
            "PATCH",
            &format!("/v1/endpoints/{order}"),
            json!({"filterTypes": ["invoice.paid"]}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let (s, a) = w.call("POST", "/v1/events", event(json!({"applicationId": APP}))).await;
    assert_eq!(s, 202, "{a}");
    assert_eq!(reached(&a), set(&[&inv, &paid, &all, &both, &order]));
    let (_, a) = w
        .call(
            "POST",
            "/v1/events",
            json!({"type": "order.created", "applicationId": APP, "payload": {}}),
        )
        .await;
    assert_eq!(reached(&a), set(&[&all]));

    // null clears the filter (every type), and a revoked endpoint leaves the index.
    let (s, b) = w
        .call("PATCH", &format!("/v1/endpoints/{order}"), json!({"filterTypes": null}))
        .await;
    assert_eq!((s, b["filterTypes"].clone()), (200, Value::Null), "{b}");
    let (s, b) = w.call("POST", &format!("/v1/endpoints/{all}/revoke"), json!({})).await;
    assert_eq!(s, 200, "{b}");
    let (_, a) = w
        .call(
            "POST",
            "/v1/events",
            json!({"type": "order.created", "applicationId": APP, "payload": {}}),
        )
        .await;
    assert_eq!(reached(&a), set(&[&order]));
}

#[tokio::test]
async fn bad_subscription_fields_and_routes_are_refused_by_name() {
    let w = World::new(vec![], 10).await;
    application(&w, APP, "customer-42").await;
    let cases = [
        (
            json!({"filterTypes": ["a.b", "c.*", "bad type"]}),
            400,
            "filterTypes[2]",
        ),
        (json!({"channels": ["us/east"]}), 400, "channels[0]"),
        (json!({"filterTypes": "invoice.paid"}), 400, "filterTypes"),
        (
            json!({"applicationId": "app_01JAAAAAAAAAAAAAAAAAAAAAZZ"}),
            404,
            "application",
        ),
        (json!({"applicationId": "nobody"}), 404, "application"),
    ];
    for (fields, status, named) in cases {
        let mut body = json!({"url": "https://receiver.example/hook", "policy": "greatwait"});
        for (k, v) in fields.as_object().expect("object") {
            body[k] = v.clone();
        }
        let (s, b) = w.call("POST", "/v1/endpoints", body).await;
        assert_eq!(s, status, "{fields}: {b}");
        assert!(
            b["detail"].as_str().unwrap_or_default().contains(named),
            "{fields}: {b}"
        );
    }
    let ep = subscribed(&w, json!({})).await;
    let (s, b) = w
        .call(
            "PATCH",
            &format!("/v1/endpoints/{ep}"),
            json!({"channels": ["ok", "not ok"]}),
        )
        .await;
    assert_eq!(s, 400, "{b}");
    assert!(b["detail"].as_str().unwrap_or_default().contains("channels[1]"), "{b}");

    let events = [
        (json!({"payload": {}}), 400, "type"),
        (json!({"type": "bad type", "payload": {}}), 400, "type"),
        (
            json!({"type": "a.b", "applicationId": "nobody", "payload": {}}),
            404,
            "application",
        ),
        (
            json!({"type": "a.b", "channels": [""], "payload": {}}),
            400,
            "channels[0]",
        ),
        (
            json!({"type": "a.b", "endpointId": ep, "applicationId": APP, "payload": {}}),
            400,
            "applicationId",
        ),
    ];
    for (body, status, named) in events {
        let (s, b) = w.call("POST", "/v1/events", body.clone()).await;
        assert_eq!(s, status, "{body}: {b}");
        assert!(b["detail"].as_str().unwrap_or_default().contains(named), "{body}: {b}");
    }
}

/// Crashes the step for `page_at` once, after `after` deliveries of its page.
struct CrashOnce {
    after: usize,
    page_at: u64,
    done: AtomicBool,
}

impl FanoutFaults for CrashOnce {
    fn crash_after_writes(&self, step: &FanoutStep, written: usize) -> bool {
        step.cursor.processed == self.page_at && written == self.after && !self.done.swap(true, Ordering::SeqCst)
    }
}

#[tokio::test]
async fn a_thousand_endpoint_fan_out_is_stepped_and_a_crashed_step_redone_writes_each_delivery_once() {
    const N: usize = 1000;
    let w = World::new(vec![], 10).await;
    application(&w, APP, "big").await;
    let mut want = BTreeSet::new();
    for i in 0..N {
        let filter = if i % 2 == 0 {
            json!(["invoice.*"])
        } else {
            json!(["invoice.paid", "invoice.*"])
        };
        want.insert(subscribed(&w, json!({"applicationId": APP, "filterTypes": filter})).await);
    }
    // Not matching: another type, and a channel the event does not carry.
    subscribed(&w, json!({"applicationId": APP, "filterTypes": ["order.*"]})).await;
    subscribed(&w, json!({"applicationId": APP, "channels": ["eu"]})).await;

    let (s, a) = w
        .call(
            "POST",
            "/v1/events",
            json!({"type": "invoice.paid", "applicationId": APP, "payload": {"n": 1}}),
        )
        .await;
    assert_eq!(s, 202, "{a}");
    assert_eq!(a["deliveries"], json!([]));
    assert_eq!(a["fanout"], json!({"status": "in_progress", "matched": N}));
    let event_id = a["eventId"].as_str().expect("eventId").to_owned();

    let worker = FanoutWorker {
        index: w.store.clone(),
        deliveries: w.store.clone(),
        planner: w.api.planner.clone(),
        steps: w.queue.clone(),
        clock: w.clock.clone(),
        faults: Arc::new(CrashOnce {
            after: 37,
            page_at: 500,
            done: AtomicBool::new(false),
        }),
        page: courier_app::fanout::STEP_PAGE,
        console_url: None,
    };
    // The queue redelivers a failed step: bounded, with the crash once.
    let mut pending: Vec<FanoutStep> = w.queue.drain_fanout();
    assert_eq!(pending.len(), 1);
    let first_step = pending[0].clone();
    let mut created = 0;
    let mut crashes = 0;
    for _ in 0..20 {
        let Some(step) = pending.pop() else { break };
        match worker.step(&step).await {
            Ok(done) => {
                created += done.created;
                pending.extend(w.queue.drain_fanout());
            }
            Err(_) => {
                crashes += 1;
                pending.push(step);
            }
        }
    }
    assert!(pending.is_empty());
    assert_eq!(crashes, 1);
    // The crashed try wrote 37 before it died; its redo found them and wrote the rest.
    assert_eq!(created, N - 37);

    let deliveries: Vec<_> = w
        .store
        .all_deliveries()
        .into_iter()
        .filter(|d| d.event_id.as_str() == event_id)
        .collect();
    let per_endpoint: BTreeMap<String, usize> = deliveries.iter().fold(BTreeMap::new(), |mut m, d| {
        *m.entry(d.endpoint_id.to_string()).or_default() += 1;
        m
    });
    assert_eq!(per_endpoint.keys().cloned().collect::<BTreeSet<_>>(), want);
    assert!(per_endpoint.values().all(|n| *n == 1));
    // The crash came before the page was queued: every first attempt queued once.
    assert_eq!(w.queue.sent().len(), N);

    // A copy of the first step arriving late (SQS delivers at least once) writes
    // nothing, queues its page again and leaves the progress where it is.
    let again = worker.step(&first_step).await.expect("redone step");
    assert_eq!((again.created, again.matched), (0, 100));
    let queued: Vec<_> = w.queue.sent();
    assert_eq!(queued.len(), N + 100);
    // Added to a stored event, a stepped fan-out's deliveries keep their own body,
    // so their messages carry none.
    assert!(queued.iter().all(|(m, _)| m.body.is_none()));
    assert!(
        deliveries
            .iter()
            .all(|d| d.body_hash.is_none() && d.body.contains("\"n\":1"))
    );
    let distinct: BTreeSet<_> = queued.iter().map(|(m, _)| m.delivery_id.clone()).collect();
    assert_eq!(distinct.len(), N);
    assert_eq!(w.queue.drain_fanout().len(), 1, "its next step is queued again");

    let (s, e) = w.call("GET", &format!("/v1/events/{event_id}"), Value::Null).await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["fanout"], json!({"status": "complete", "matched": N, "processed": N}));
    // The event's delivery list names each delivery once, from the steps' links, in
    // full pages (the crashed step's link was rewritten by its redo).
    let (listed, sizes) = event_deliveries(&w, &event_id, 100).await;
    assert_eq!(sizes, vec![100; 10]);
    let listed_endpoints = endpoints_of(&listed);
    assert_eq!(listed_endpoints.iter().cloned().collect::<BTreeSet<_>>(), want);
    assert_eq!(listed_endpoints.len(), N);
    let mut by_id: BTreeMap<String, String> = deliveries
        .iter()
        .map(|d| (d.id.to_string(), d.endpoint_id.to_string()))
        .collect();
    for d in &listed {
        let id = d["id"].as_str().expect("id");
        assert_eq!(by_id.remove(id).as_deref(), d["endpointId"].as_str(), "{d}");
        assert_eq!(
            (d["eventId"].as_str(), d["status"].as_str()),
            (Some(event_id.as_str()), Some("pending"))
        );
        assert_eq!(d["attemptCount"], 0);
    }
    assert!(by_id.is_empty(), "every delivery listed");
    // Odd page sizes cross the links' boundaries and list the same.
    let (odd, sizes) = event_deliveries(&w, &event_id, 33).await;
    assert_eq!(sizes.len(), 31);
    assert_eq!(
        odd.iter().map(|d| d["id"].clone()).collect::<Vec<_>>(),
        listed.iter().map(|d| d["id"].clone()).collect::<Vec<_>>()
    );
    let stored = w
        .store
        .get_event(
            &TenantId::parse(TENANT).expect("tenant"),
            &EventId::parse(&event_id).expect("event id"),
        )
        .await
        .expect("read")
        .expect("event");
    assert_eq!(stored.fanout.map(|f| f.status), Some(FanoutStatus::Complete));

    // The duplicate first messages are dropped by the claim: one attempt each.
    let outcomes = w.step().await;
    assert_eq!(outcomes.len(), N + 100);
    assert_eq!(w.http.requests.lock().expect("requests").len(), N);
}

#[tokio::test]
async fn a_replay_honours_the_subscription_the_endpoint_has_then() {
    let w = World::new(vec![], 10).await;
    let ep = subscribed(&w, json!({})).await;
    let mut events = BTreeMap::new();
    for (ty, channels) in [
        ("invoice.paid", json!(["eu"])),
        ("invoice.sent", json!([])),
        ("order.created", json!(["eu"])),
    ] {
        let (s, a) = w
            .call(
                "POST",
                "/v1/events",
                json!({"type": ty, "channels": channels, "payload": {}}),
            )
            .await;
        assert_eq!(s, 202, "{a}");
        assert_eq!(reached(&a), set(&[&ep]));
        events.insert(a["eventId"].as_str().expect("eventId").to_owned(), ty);
    }
    w.clock.advance_millis(1_000);
    let (s, b) = w
        .call(
            "PATCH",
            &format!("/v1/endpoints/{ep}"),
            json!({"filterTypes": ["invoice.*"], "channels": ["eu"]}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let auth = format!("Bearer {}", common::KEY);
    let body = json!({"since": T0.plus_secs(-60)}).to_string();
    let (s, b, _) = common::raw(
        &w,
        "POST",
        &format!("/v1/endpoints/{ep}/replay"),
        None,
        &[
            ("authorization", &auth),
            ("idempotency-key", "replay-1"),
            ("content-type", "application/json"),
        ],
        body.as_bytes(),
    )
    .await;
    assert_eq!(s, 202, "{b}");
    // Only invoice.paid carries `eu` and is an invoice type.
    let replayed: Vec<&str> = w
        .store
        .all_deliveries()
        .into_iter()
        .filter(|d| d.trigger == courier_app::domain::delivery_message::Trigger::Replay)
        .map(|d| events[d.event_id.as_str()])
        .collect();
    assert_eq!(replayed, vec!["invoice.paid"]);
}

#[tokio::test]
async fn an_events_deliveries_are_listed_in_pages_however_it_was_routed() {
    let w = World::new(vec![], 10).await;
    application(&w, APP, "customer-42").await;
    let mut subs = Vec::new();
    for _ in 0..3 {
        subs.push(subscribed(&w, json!({"applicationId": APP, "filterTypes": ["invoice.*"]})).await);
    }
    let answered = |a: &Value| -> Vec<(String, String)> {
        a["deliveries"]
            .as_array()
            .expect("deliveries")
            .iter()
            .map(|d| {
                (
                    d["id"].as_str().expect("id").to_owned(),
                    d["endpointId"].as_str().expect("endpointId").to_owned(),
                )
            })
            .collect()
    };
    let listed_pairs = |items: &[Value]| -> Vec<(String, String)> {
        items
            .iter()
            .map(|d| {
                (
                    d["id"].as_str().expect("id").to_owned(),
                    d["endpointId"].as_str().expect("endpointId").to_owned(),
                )
            })
            .collect()
    };

    // Routed by subscription in the request: the event item names the deliveries.
    let (s, routed) = w
        .call(
            "POST",
            "/v1/events",
            json!({"type": "invoice.paid", "applicationId": APP, "payload": {}}),
        )
        .await;
    assert_eq!(s, 202, "{routed}");
    let routed_id = routed["eventId"].as_str().expect("eventId").to_owned();
    let (items, sizes) = event_deliveries(&w, &routed_id, 2).await;
    assert_eq!(sizes, vec![2, 1]);
    assert_eq!(listed_pairs(&items), answered(&routed));
    assert_eq!(answered(&routed).len(), 3);

    // Named endpoints, in the order named.
    let named = subscribed(&w, json!({})).await;
    let (s, explicit) = w
        .call(
            "POST",
            "/v1/events",
            json!({"endpointIds": [named, subs[1]], "payload": {"n": 2}}),
        )
        .await;
    assert_eq!(s, 202, "{explicit}");
    let explicit_id = explicit["eventId"].as_str().expect("eventId").to_owned();
    let (items, sizes) = event_deliveries(&w, &explicit_id, 100).await;
    assert_eq!(sizes, vec![2]);
    assert_eq!(listed_pairs(&items), answered(&explicit));
    assert_eq!(endpoints_of(&items), vec![named.clone(), subs[1].clone()]);
    assert_eq!(items[0]["status"], "pending");

    // The list shows each delivery as it is now.
    w.step().await;
    let (items, _) = event_deliveries(&w, &explicit_id, 100).await;
    assert_eq!(
        items
            .iter()
            .map(|d| (d["status"].clone(), d["attemptCount"].clone()))
            .collect::<Vec<_>>(),
        vec![(json!("succeeded"), json!(1)), (json!("succeeded"), json!(1))]
    );

    // Refusals: unknown event, malformed cursor, another event's cursor, unknown
    // parameter.
    let auth = format!("Bearer {}", common::KEY);
    let get = |path: String, query: Option<String>| {
        let auth = auth.clone();
        let w = &w;
        async move { common::raw(w, "GET", &path, query.as_deref(), &[("authorization", &auth)], b"").await }
    };
    let (s, b, _) = get("/v1/events/evt_01JAAAAAAAAAAAAAAAAAAAAAZZ/deliveries".into(), None).await;
    assert_eq!((s, b["code"].clone()), (404, json!("not_found")), "{b}");
    let (s, b, _) = get("/v1/events/not-an-id/deliveries".into(), None).await;
    assert_eq!(s, 404, "{b}");
    let (_, first, _) = get(format!("/v1/events/{routed_id}/deliveries"), Some("limit=1".into())).await;
    let cursor = first["nextCursor"].as_str().expect("a cursor").to_owned();
    let (s, b, _) = get(
        format!("/v1/events/{routed_id}/deliveries"),
        Some(format!("limit=1&cursor={cursor}")),
    )
    .await;
    assert_eq!(
        (s, endpoints_of(b["items"].as_array().expect("items"))),
        (200, vec![answered(&routed)[1].1.clone()])
    );
    for query in [
        format!("cursor={cursor}"),
        "cursor=%21%21".to_owned(),
        "cursor=dA".to_owned(),
    ] {
        let (s, b, _) = get(format!("/v1/events/{explicit_id}/deliveries"), Some(query.clone())).await;
        assert_eq!(
            (s, b["code"].clone()),
            (400, json!("validation_failed")),
            "{query}: {b}"
        );
        assert!(
            b["detail"].as_str().unwrap_or_default().contains("cursor"),
            "{query}: {b}"
        );
    }
    let (s, b, _) = get(
        format!("/v1/events/{explicit_id}/deliveries"),
        Some("status=sent".into()),
    )
    .await;
    assert_eq!((s, b["code"].clone()), (400, json!("validation_failed")), "{b}");
    assert!(b["detail"].as_str().unwrap_or_default().contains("status"), "{b}");

    // A status filter keeps each page's deliveries in that status: page by page
    // with the positions' cursors, so pages can be short or empty.
    let filtered = |query: String| get(format!("/v1/events/{explicit_id}/deliveries"), Some(query));
    let (s, b, _) = filtered("status=succeeded".into()).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        endpoints_of(b["items"].as_array().expect("items")),
        vec![named.clone(), subs[1].clone()]
    );
    assert_eq!(b["nextCursor"], Value::Null);
    let (s, b, _) = filtered("status=failed".into()).await;
    assert_eq!(
        (s, b["items"].clone(), b["nextCursor"].clone()),
        (200, json!([]), Value::Null)
    );
    let (_, first, _) = filtered("status=succeeded&limit=1".into()).await;
    assert_eq!(
        endpoints_of(first["items"].as_array().expect("items")),
        vec![named.clone()]
    );
    let cursor = first["nextCursor"].as_str().expect("a cursor").to_owned();
    let (_, second, _) = filtered(format!("status=succeeded&limit=1&cursor={cursor}")).await;
    assert_eq!(
        endpoints_of(second["items"].as_array().expect("items")),
        vec![subs[1].clone()]
    );
    assert_eq!(second["nextCursor"], Value::Null);
    let (_, pending_first, _) = filtered("status=pending&limit=1".into()).await;
    assert_eq!(pending_first["items"], json!([]));
    assert!(pending_first["nextCursor"].is_string(), "{pending_first}");
}

#[tokio::test]
async fn counting_the_matches_stops_at_its_limit() {
    use courier_app::domain::fanout_message::FanoutCursor;
    use courier_app::fanout::{Route, count_from, count_up_to, walk};
    use courier_app::ports::EndpointStore;
    let w = World::new(vec![], 10).await;
    let tenant = TenantId::parse(TENANT).expect("tenant id");
    let mut rng = courier_core::rng::SplitMix64::new(4);
    for i in 0..260 {
        let id = courier_core::ids::EndpointId::generate(T0, &mut rng);
        let mut e = courier_app::testing::contract::sample_endpoint(&tenant, &id, T0);
        e.application_id = Some(APP.to_owned());
        e.filter_types = Some(match i % 4 {
            // Filed under two keys of the lookup: counted once.
            0 => vec!["invoice.paid".to_owned(), "invoice.*".to_owned()],
            _ => vec!["invoice.*".to_owned()],
        });
        // A channel the event does not carry: not a match.
        if i >= 250 {
            e.channels = Some(vec!["eu".to_owned()]);
        }
        w.store.create_endpoint(&e).await.expect("endpoint");
    }
    let route = Route {
        tenant: &tenant,
        application: Some(APP),
        event_type: "invoice.paid",
        channels: &[],
    };
    let index = w.store.as_ref();
    let start = FanoutCursor::default();
    assert_eq!(count_from(index, route, start.clone()).await.expect("count"), 250);
    assert_eq!(
        count_up_to(index, route, start.clone(), 1000).await.expect("count"),
        250
    );
    assert_eq!(count_up_to(index, route, start.clone(), 100).await.expect("count"), 100);
    assert_eq!(count_up_to(index, route, start.clone(), 0).await.expect("count"), 0);
    // From the cursor after ingest's first page, as ingest counts.
    let first = walk(index, route, &start, 51).await.expect("first page");
    let next = first.next.expect("more than one page");
    assert_eq!(
        count_up_to(index, route, next.clone(), u64::MAX).await.expect("count"),
        199
    );
    assert_eq!(count_up_to(index, route, next, 150).await.expect("count"), 150);
}
