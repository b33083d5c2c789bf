//! `/v1/schedules` over the memory adapters: exact answers, every refusal (nothing
//! created by a refused call), Idempotency-Key repeats, the recurring timer kept in
//! step, and firings made into exactly one occurrence each.

use crate::common;

use crate::common::{KEY, World, raw, status};
use courier_app::domain::schedule::{FireMessage, Occurrence, RecurringSpec};
use courier_app::ports::ScheduleStore;
use courier_app::schedules::fire::{FireOutcome, ScheduleFirer};
use courier_app::testing::memory::MemoryRecurring;
use courier_core::Timestamp;
use courier_core::ids::{DeliveryId, ScheduleId, TenantId};
use serde_json::{Value, json};
use std::sync::Arc;

const TENANT: &str = "ten_01JAAAAAAAAAAAAAAAAAAAAAAA";

fn t(s: &str) -> Timestamp {
    Timestamp::parse_rfc3339(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

async fn create(w: &World, key: Option<&str>, body: &Value) -> (u16, Value, Vec<(String, String)>) {
    let auth = format!("Bearer {KEY}");
    let mut headers = vec![("authorization", auth.as_str()), ("content-type", "application/json")];
    if let Some(k) = key {
        headers.push(("idempotency-key", k));
    }
    raw(w, "POST", "/v1/schedules", None, &headers, body.to_string().as_bytes()).await
}

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

async fn world_with_endpoint() -> (World, String) {
    let w = World::new(vec![status(200), status(200), status(200)], 5).await;
    let ep = w.endpoint(json!("greatwait")).await;
    (w, ep)
}

fn cron_body(ep: &str) -> Value {
    json!({
        "endpointId": ep,
        "cron": "cron(0 9 * * ? *)",
        "timezone": "Europe/Berlin",
        "type": "reminder.due",
        "payload": {"n": 1},
        "latencyClass": "bulk",
    })
}

fn nothing_created(w: &World, recurring: &MemoryRecurring) -> impl std::future::Future<Output = ()> {
    let store = w.schedules.clone();
    let empty = recurring.all().is_empty();
    async move {
        let tenant = TenantId::parse(TENANT).expect("tenant id");
        let page = store.list_schedules(&tenant, None, 100).await.expect("list schedules");
        assert_eq!(page.items, vec![]);
        assert!(empty, "no recurring timer");
    }
}

#[tokio::test]
async fn create_answers_the_schedule_with_its_next_firings_and_sets_the_timer() {
    let (w, ep) = world_with_endpoint().await;
    let (s, b, _) = create(&w, Some("k1"), &cron_body(&ep)).await;
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    assert!(id.starts_with("sch_"), "{id}");
    assert_eq!(
        b,
        json!({
            "id": id,
            "endpointId": ep,
            "applicationId": null,
            "cron": "cron(0 9 * * ? *)",
            "timezone": "Europe/Berlin",
            "rate": null,
            "at": null,
            "startAt": null,
            "endAt": null,
            "type": "reminder.due",
            "payload": {"n": 1},
            "latencyClass": "bulk",
            "longRunningAllowanceSeconds": null,
            "status": "active",
            "createdAt": "2027-01-15T08:00:00.000Z",
            "updatedAt": "2027-01-15T08:00:00.000Z",
            // 09:00 in Berlin is 08:00 UTC in winter.
            "nextFirings": [
                "2027-01-16T08:00:00.000Z",
                "2027-01-17T08:00:00.000Z",
                "2027-01-18T08:00:00.000Z",
                "2027-01-19T08:00:00.000Z",
                "2027-01-20T08:00:00.000Z",
            ],
        })
    );
    assert_eq!(
        w.recurring.get(&id),
        Some(RecurringSpec {
            name: id.clone(),
            expression: "cron(0 9 * * ? *)".into(),
            timezone: "Europe/Berlin".into(),
            start: None,
            end: None,
            enabled: true,
            input: format!(
                r#"{{"kind":"schedule_fire","v":1,"tenantId":"{TENANT}","scheduleId":"{id}","plannedAt":"<aws.scheduler.scheduled-time>"}}"#
            ),
        })
    );
    let (s, got) = w.call("GET", &format!("/v1/schedules/{id}"), Value::Null).await;
    assert_eq!((s, &got), (200, &b));
    let (s, list) = w.call("GET", "/v1/schedules", Value::Null).await;
    assert_eq!((s, list), (200, json!({"items": [b], "nextCursor": null})));
}

#[tokio::test]
async fn every_bad_input_is_refused_naming_the_field_and_creates_nothing() {
    let (w, ep) = world_with_endpoint().await;
    let with = |patch: Value| {
        let mut b = cron_body(&ep);
        for (k, v) in patch.as_object().cloned().unwrap_or_default() {
            if v.is_null() {
                b.as_object_mut().map(|o| o.remove(&k));
            } else {
                b[k] = v;
            }
        }
        b
    };
    let cases: Vec<(Value, u16, &str, &str)> = vec![
        (
            with(json!({"cron": "cron(61 9 * * ? *)"})),
            400,
            "validation_failed",
            "field `cron.minutes`: \"61\" is not a value in 0-59",
        ),
        (
            with(json!({"cron": "cron(0 9 * *)"})),
            400,
            "validation_failed",
            "field `cron`: expected six fields: minutes hours day-of-month month day-of-week year",
        ),
        (
            with(json!({"timezone": "Mars/Olympus"})),
            400,
            "validation_failed",
            "field `timezone`: not an IANA time zone name, e.g. Europe/Berlin",
        ),
        (
            with(json!({"cron": null, "timezone": null, "rate": "rate(0 minutes)"})),
            400,
            "validation_failed",
            "field `rate`: N must be a whole number >= 1",
        ),
        (
            with(json!({"cron": null, "timezone": null, "rate": "rate(5 seconds)"})),
            400,
            "validation_failed",
            "field `rate`: unit must be minute, minutes, hour, hours, day or days (singular only for 1)",
        ),
        (
            with(json!({"rate": "rate(5 minutes)"})),
            400,
            "validation_failed",
            "field `rate`: exactly one of rate, cron and at is required",
        ),
        (
            with(json!({"cron": null, "timezone": null})),
            400,
            "validation_failed",
            "send exactly one of `cron` (with `timezone`), `rate` and `at`",
        ),
        (
            with(json!({"cron": null})),
            400,
            "validation_failed",
            "field `timezone` goes with `cron` only",
        ),
        (
            with(json!({"cron": null, "timezone": null, "at": "tomorrow"})),
            400,
            "validation_failed",
            "field `at`: not an RFC 3339 time (expected e.g. 2026-01-31T12:00:00Z): \"tomorrow\"",
        ),
        (
            with(json!({"startAt": "2027-01-19T00:00:00Z", "endAt": "2027-01-18T00:00:00Z"})),
            400,
            "validation_failed",
            "field `endAt` must be after `startAt`",
        ),
        (
            with(json!({"startAt": "soon"})),
            400,
            "validation_failed",
            "field `startAt`: not an RFC 3339 time (expected e.g. 2026-01-31T12:00:00Z): \"soon\"",
        ),
        (
            with(json!({"payload": null})),
            400,
            "validation_failed",
            "field `payload` is required",
        ),
        (
            with(json!({"endpointId": null, "type": null})),
            400,
            "validation_failed",
            "field `endpointId` or `type` (to route by subscription) is required",
        ),
        (
            with(json!({"applicationId": "customer-42"})),
            400,
            "validation_failed",
            "send either `endpointId` or `applicationId` with `type` (to route by subscription), not both",
        ),
        (
            with(json!({"endpointId": null, "type": "reminder due"})),
            400,
            "validation_failed",
            "field `type`: must be dot-separated segments of letters, digits, `_` and `-`",
        ),
        (
            with(json!({"endpointId": null, "applicationId": "customer-nope"})),
            404,
            "not_found",
            "application not found",
        ),
        (
            with(json!({"endpointId": null})),
            404,
            "not_found",
            "event type not found",
        ),
        (
            with(json!({"type": ""})),
            400,
            "validation_failed",
            "field `type` must be 1-256 characters",
        ),
        (
            with(json!({"longRunningAllowanceSeconds": 86401})),
            400,
            "validation_failed",
            "field `longRunningAllowanceSeconds` must be at most 86400",
        ),
        (
            with(json!({"endpointId": "ep_01JZZZZZZZZZZZZZZZZZZZZZZZ"})),
            404,
            "not_found",
            "endpoint not found",
        ),
    ];
    for (i, (body, want_status, code, detail)) in cases.into_iter().enumerate() {
        let (s, b, _) = create(&w, Some(&format!("key-{i}")), &body).await;
        assert_eq!(
            (s, b["code"].as_str(), b["detail"].as_str()),
            (want_status, Some(code), Some(detail)),
            "case {i}: {body}"
        );
    }
    let (s, b, _) = create(&w, None, &cron_body(&ep)).await;
    assert_eq!((s, b["code"].as_str()), (400, Some("idempotency_key_required")), "{b}");
    nothing_created(&w, &w.recurring).await;
}

#[tokio::test]
async fn one_key_one_schedule_and_another_body_is_refused() {
    let (w, ep) = world_with_endpoint().await;
    let (s1, first, h1) = create(&w, Some("same"), &cron_body(&ep)).await;
    assert_eq!(s1, 201, "{first}");
    assert_eq!(header(&h1, "idempotent-replayed"), None);
    let (s2, again, h2) = create(&w, Some("same"), &cron_body(&ep)).await;
    assert_eq!((s2, &again), (201, &first));
    assert_eq!(header(&h2, "idempotent-replayed"), Some("true"));
    let mut other = cron_body(&ep);
    other["payload"] = json!({"n": 2});
    let (s3, b, _) = create(&w, Some("same"), &other).await;
    assert_eq!((s3, b["code"].as_str()), (422, Some("idempotency_key_reused")), "{b}");
    let (_, list) = w.call("GET", "/v1/schedules", Value::Null).await;
    assert_eq!(list["items"].as_array().map(Vec::len), Some(1));
    assert_eq!(w.recurring.all().len(), 1);
}

#[tokio::test]
async fn replace_pause_resume_and_delete_keep_the_timer_in_step() {
    let (w, ep) = world_with_endpoint().await;
    let (_, b, _) = create(&w, Some("k"), &cron_body(&ep)).await;
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let path = format!("/v1/schedules/{id}");

    let (s, p) = w.call("POST", &format!("{path}/pause"), Value::Null).await;
    assert_eq!(
        (s, &p["status"], &p["nextFirings"]),
        (200, &json!("paused"), &json!([])),
        "{p}"
    );
    assert_eq!(w.recurring.get(&id).map(|r| r.enabled), Some(false));
    let (s, r) = w.call("POST", &format!("{path}/resume"), Value::Null).await;
    assert_eq!((s, &r["status"]), (200, &json!("active")), "{r}");
    assert_eq!(w.recurring.get(&id).map(|r| r.enabled), Some(true));

    let replacement = json!({
        "endpointId": ep,
        "rate": "rate(6 hours)",
        "startAt": "2027-01-15T09:30:00Z",
        "endAt": "2027-01-16T10:00:00Z",
        "payload": {"n": 2},
    });
    let (s, r) = w.call("PUT", &path, replacement).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(
        (&r["id"], &r["payload"], &r["cron"], &r["type"]),
        (&json!(id), &json!({"n": 2}), &Value::Null, &Value::Null)
    );
    assert_eq!(
        r["nextFirings"],
        json!([
            "2027-01-15T09:30:00.000Z",
            "2027-01-15T15:30:00.000Z",
            "2027-01-15T21:30:00.000Z",
            "2027-01-16T03:30:00.000Z",
            "2027-01-16T09:30:00.000Z"
        ])
    );
    let spec = w.recurring.get(&id).unwrap_or_else(|| panic!("timer"));
    assert_eq!(
        (
            spec.expression.as_str(),
            spec.timezone.as_str(),
            spec.start,
            spec.end,
            spec.enabled
        ),
        (
            "rate(6 hours)",
            "UTC",
            Some(t("2027-01-15T09:30:00Z")),
            Some(t("2027-01-16T10:00:00Z")),
            true
        )
    );
    let (s, bad) = w
        .call(
            "PUT",
            &path,
            json!({"endpointId": ep, "cron": "cron(0 9 * * ? *)", "timezone": "Nowhere/Else", "payload": {}}),
        )
        .await;
    assert_eq!(
        (s, bad["detail"].as_str()),
        (
            400,
            Some("field `timezone`: not an IANA time zone name, e.g. Europe/Berlin")
        )
    );

    let (s, d) = w.call("DELETE", &path, Value::Null).await;
    assert_eq!((s, d), (200, json!({"id": id, "deleted": true})));
    assert_eq!(w.recurring.get(&id), None);
    for (method, p) in [
        ("GET", path.clone()),
        ("DELETE", path.clone()),
        ("POST", format!("{path}/pause")),
        ("GET", "/v1/schedules/sch_nope".into()),
    ] {
        let (s, b) = w.call(method, &p, Value::Null).await;
        assert_eq!((s, b["code"].as_str()), (404, Some("not_found")), "{method} {p}");
    }
}

fn firer(w: &World) -> ScheduleFirer {
    ScheduleFirer {
        schedules: w.schedules.clone(),
        endpoints: w.store.clone(),
        deliveries: w.store.clone(),
        planner: w.api.planner.clone(),
        clock: w.clock.clone(),
        random: Arc::new(courier_app::testing::memory::SeededRandom::new(5)),
        index: w.store.clone(),
        steps: w.queue.clone(),
        event_types: w.applications.clone(),
        schemas: Default::default(),
    }
}

/// The delivery of an occurrence of a schedule for one endpoint.
fn dlv(o: &Occurrence) -> DeliveryId {
    o.delivery_id.clone().unwrap_or_else(|| panic!("no delivery: {o:?}"))
}

fn fire_message(id: &str, planned: Timestamp) -> FireMessage {
    FireMessage {
        v: 1,
        tenant_id: TenantId::parse(TENANT).expect("tenant id"),
        schedule_id: ScheduleId::parse(id).expect("schedule id"),
        planned_at: planned,
    }
}

#[tokio::test]
async fn a_firing_makes_one_occurrence_even_when_it_comes_twice() {
    let (w, ep) = world_with_endpoint().await;
    let (_, b, _) = create(&w, Some("k"), &cron_body(&ep)).await;
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let planned = t("2027-01-16T08:00:00Z");
    w.clock.set(planned.plus_millis(300));
    let f = firer(&w);
    let first = f.fire(&fire_message(&id, planned)).await.unwrap();
    let FireOutcome::Created(occ) = first else {
        panic!("{first:?}")
    };
    let second = f.fire(&fire_message(&id, planned)).await.unwrap();
    assert_eq!(second, FireOutcome::Repeated(occ.clone()));
    let starts = w.run(&dlv(&occ), 10).await;
    assert_eq!(
        starts,
        vec![planned.plus_millis(300)],
        "one attempt, not before the planned instant"
    );
    let d = w.delivery(&dlv(&occ)).await;
    assert_eq!(d.planned_at, planned, "the horizon counts from the planned instant");
    let sent: Value = serde_json::from_slice(&w.http.requests.lock().map(|r| r[0].body.to_vec()).unwrap_or_default())
        .unwrap_or_default();
    assert_eq!(
        sent,
        json!({"id": occ.event_id, "type": "reminder.due", "plannedAt": "2027-01-16T08:00:00.000Z", "trigger": "scheduled", "data": {"n": 1}})
    );
    let (s, list) = w
        .call("GET", &format!("/v1/schedules/{id}/occurrences"), Value::Null)
        .await;
    assert_eq!(s, 200, "{list}");
    assert_eq!(
        list,
        json!({"items": [{
            "plannedAt": "2027-01-16T08:00:00.000Z",
            "eventId": occ.event_id,
            "deliveryId": occ.delivery_id,
            "status": "succeeded",
            "attemptCount": 1,
            "lastAttempt": {"startedAt": "2027-01-16T08:00:00.300Z", "state": "succeeded", "diagnostic": "delivered", "remediation": "none"},
            "fanout": null,
            "createdAt": "2027-01-16T08:00:00.300Z",
        }], "nextCursor": null})
    );
}

#[tokio::test]
async fn paused_deleted_and_out_of_window_firings_do_nothing() {
    let (w, ep) = world_with_endpoint().await;
    let mut body = cron_body(&ep);
    body["endAt"] = json!("2027-01-18T00:00:00Z");
    let (_, b, _) = create(&w, Some("k"), &body).await;
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let f = firer(&w);
    let late = f.fire(&fire_message(&id, t("2027-01-18T08:00:00Z"))).await.unwrap();
    assert_eq!(late, FireOutcome::Skipped { why: "outside_window" });
    w.call("POST", &format!("/v1/schedules/{id}/pause"), Value::Null).await;
    let paused = f.fire(&fire_message(&id, t("2027-01-16T08:00:00Z"))).await.unwrap();
    assert_eq!(paused, FireOutcome::Skipped { why: "schedule_paused" });
    w.call("DELETE", &format!("/v1/schedules/{id}"), Value::Null).await;
    let gone = f.fire(&fire_message(&id, t("2027-01-16T08:00:00Z"))).await.unwrap();
    assert_eq!(
        gone,
        FireOutcome::Skipped {
            why: "schedule_deleted"
        }
    );
    let (s, list) = w
        .call("GET", &format!("/v1/schedules/{id}/occurrences"), Value::Null)
        .await;
    assert_eq!((s, list["code"].as_str()), (404, Some("not_found")));
}

/// Fires schedule `id` at `planned` (the clock set there) and answers the
/// occurrence the firing created.
async fn fire_created(w: &World, id: &str, planned: Timestamp) -> Occurrence {
    w.clock.set(planned);
    match firer(w).fire(&fire_message(id, planned)).await.expect("fire") {
        FireOutcome::Created(o) => o,
        _ => panic!("the firing did not create an occurrence"),
    }
}

/// Fires schedule `id` at `planned` with a payload that cannot be used and runs its
/// occurrence's delivery: nothing may be sent. Answers the occurrences list.
async fn fire_unusable(w: &World, id: &str, planned: Timestamp) -> Value {
    let broken = fire_created(w, id, planned).await;
    w.run(&dlv(&broken), 10).await;
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(9), 0, "nothing sent");
    w.call("GET", &format!("/v1/schedules/{id}/occurrences"), Value::Null)
        .await
        .1
}

#[tokio::test]
async fn an_unusable_payload_settles_payload_unavailable_until_replaced() {
    let (w, ep) = world_with_endpoint().await;
    let (_, b, _) = create(&w, Some("k"), &cron_body(&ep)).await;
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let tenant = TenantId::parse(TENANT).unwrap();
    let sid = ScheduleId::parse(&id).unwrap();
    // The stored data is lost.
    let mut stored = w
        .schedules
        .get_schedule(&tenant, &sid)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("stored"));
    stored.payload = None;
    stored.version = 2;
    w.schedules.update_schedule(&stored, 1).await.unwrap();
    let list = fire_unusable(&w, &id, t("2027-01-16T08:00:00Z")).await;
    assert_eq!(list["items"][0]["status"], "failed");
    assert_eq!(
        list["items"][0]["lastAttempt"],
        json!({"startedAt": "2027-01-16T08:00:00.000Z", "state": "terminal_failure", "diagnostic": "payload_unavailable", "remediation": "replace_payload"})
    );
    // schedules.replace sends data again: the next occurrence is delivered.
    let (s, _) = w.call("PUT", &format!("/v1/schedules/{id}"), cron_body(&ep)).await;
    assert_eq!(s, 200);
    let next = t("2027-01-17T08:00:00Z");
    w.clock.set(next);
    let f = firer(&w);
    let FireOutcome::Created(fixed) = f.fire(&fire_message(&id, next)).await.unwrap() else {
        panic!("created")
    };
    w.run(&dlv(&fixed), 10).await;
    let (_, list) = w
        .call("GET", &format!("/v1/schedules/{id}/occurrences"), Value::Null)
        .await;
    let statuses: Vec<&str> = list["items"]
        .as_array()
        .map(|a| a.iter().filter_map(|o| o["status"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(statuses, vec!["succeeded", "failed"], "newest first");
}

const APP: &str = "app_01JAAAAAAAAAAAAAAAAAAAAAAB";

async fn application(w: &World) {
    use courier_app::ports::ApplicationStore;
    w.applications
        .create_application(&courier_app::domain::model::Application {
            id: APP.to_owned(),
            tenant_id: TenantId::parse(TENANT).expect("tenant id"),
            name: "customer 42".to_owned(),
            uid: Some("customer-42".to_owned()),
            metadata: None,
            created_at: common::T0,
            updated_at: common::T0,
            version: 1,
            portal: Default::default(),
            live_endpoints: 0,
        })
        .await
        .expect("create the application");
}

/// An endpoint with these subscription fields (and `policy` greatwait).
async fn subscribed(w: &World, fields: Value) -> String {
    // Under the tenant's request rate limit (50 a second).
    w.clock.advance_millis(25);
    let mut body = json!({"url": "https://receiver.example/hook", "policy": "greatwait"});
    for (k, v) in fields.as_object().cloned().unwrap_or_default() {
        body[k] = v;
    }
    let (s, b) = w.call("POST", "/v1/endpoints", body).await;
    assert_eq!(s, 201, "{b}");
    b["id"].as_str().unwrap_or_default().to_owned()
}

fn routed_body() -> Value {
    json!({
        "applicationId": "customer-42",
        "type": "reminder.due",
        "cron": "cron(0 9 * * ? *)",
        "timezone": "Europe/Berlin",
        "payload": {"n": 1},
    })
}

#[tokio::test]
async fn a_schedule_for_an_application_and_type_fans_each_occurrence_out_once() {
    let w = World::new(vec![status(200)], 5).await;
    application(&w).await;
    let (s, b) = w.call("POST", "/v1/event-types", json!({"name": "reminder.due"})).await;
    assert_eq!(s, 201, "{b}");
    let wants = subscribed(&w, json!({"applicationId": APP, "filterTypes": ["reminder.*"]})).await;
    let all = subscribed(&w, json!({"applicationId": APP})).await;
    // Not matching: another type, another application's (none), another channel.
    subscribed(&w, json!({"applicationId": APP, "filterTypes": ["invoice.*"]})).await;
    subscribed(&w, json!({"filterTypes": ["reminder.*"]})).await;
    subscribed(&w, json!({"applicationId": APP, "channels": ["eu"]})).await;

    let (s, b, _) = create(&w, Some("k"), &routed_body()).await;
    assert_eq!(s, 201, "{b}");
    // The application is stored by its id, whichever way it was named.
    assert_eq!(
        (&b["endpointId"], &b["applicationId"], &b["type"]),
        (&Value::Null, &json!(APP), &json!("reminder.due"))
    );
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let planned = t("2027-01-16T08:00:00Z");
    w.clock.set(planned.plus_millis(300));
    let f = firer(&w);
    let FireOutcome::Created(occ) = f.fire(&fire_message(&id, planned)).await.unwrap() else {
        panic!("created")
    };
    assert_eq!(occ.delivery_id, None, "a fan-out's deliveries are found from its event");
    // A duplicate firing finds the occurrence: no second event, no second delivery.
    let again = f.fire(&fire_message(&id, planned)).await.unwrap();
    assert_eq!(again, FireOutcome::Repeated(occ.clone()));
    let (s, ev) = w
        .call("GET", &format!("/v1/events/{}", occ.event_id), Value::Null)
        .await;
    assert_eq!(s, 200, "{ev}");
    assert_eq!(
        (&ev["plannedAt"], &ev["applicationId"], &ev["fanout"]),
        (
            &json!("2027-01-16T08:00:00.000Z"),
            &json!(APP),
            &json!({"status": "complete", "matched": 2, "processed": 2})
        )
    );
    let mut reached: Vec<String> = ev["deliveries"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|d| d["endpointId"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    reached.sort();
    let mut want = vec![wants, all];
    want.sort();
    assert_eq!(reached, want);
    // Both delivered once each (the duplicate firing's messages are dropped).
    for _ in 0..3 {
        w.step().await;
    }
    let sent: Vec<Value> = w
        .http
        .requests
        .lock()
        .map(|r| {
            r.iter()
                .map(|q| serde_json::from_slice(&q.body).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(
        sent,
        vec![
            json!({"id": occ.event_id, "type": "reminder.due", "plannedAt": "2027-01-16T08:00:00.000Z", "trigger": "scheduled", "data": {"n": 1}});
            2
        ]
    );
    let (s, list) = w
        .call("GET", &format!("/v1/schedules/{id}/occurrences"), Value::Null)
        .await;
    assert_eq!(s, 200, "{list}");
    assert_eq!(
        list,
        json!({"items": [{
            "plannedAt": "2027-01-16T08:00:00.000Z",
            "eventId": occ.event_id,
            "deliveryId": null,
            "status": null,
            "attemptCount": null,
            "lastAttempt": null,
            "fanout": {"status": "complete", "matched": 2, "processed": 2},
            "payloadUnavailable": false,
            "createdAt": "2027-01-16T08:00:00.300Z",
        }], "nextCursor": null})
    );
}

#[tokio::test]
async fn a_large_fan_out_writes_its_later_deliveries_as_the_occurrence_says() {
    use courier_app::fanout::FanoutWorker;
    let w = World::new(vec![status(200)], 5).await;
    application(&w).await;
    w.call("POST", "/v1/event-types", json!({"name": "reminder.due"})).await;
    // One more than ingest writes in the request: the rest go by fan-out steps.
    let n = courier_app::fanout::SYNC_LIMIT + 1;
    for _ in 0..n {
        subscribed(&w, json!({"applicationId": APP})).await;
    }
    let mut body = routed_body();
    body["latencyClass"] = json!("bulk");
    body["longRunningAllowanceSeconds"] = json!(30);
    let (s, b, _) = create(&w, Some("k"), &body).await;
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let planned = t("2027-01-16T08:00:00Z");
    w.clock.set(planned.plus_millis(300));
    let f = firer(&w);
    let FireOutcome::Created(occ) = f.fire(&fire_message(&id, planned)).await.unwrap() else {
        panic!("created")
    };
    let steps = w.queue.drain_fanout();
    assert_eq!(steps.len(), 1, "the first step is queued");
    // A duplicate firing before any step ran queues the first step again (the step
    // that was lost with a crashed firing); steps write each delivery once.
    let again = f.fire(&fire_message(&id, planned)).await.unwrap();
    assert_eq!(again, FireOutcome::Repeated(occ.clone()));
    assert_eq!(w.queue.drain_fanout(), steps);
    // The step runs later than the firing; its deliveries still count from the
    // planned instant and keep the schedule's settings.
    w.clock.set(planned.plus_secs(5));
    let worker = FanoutWorker {
        index: w.store.clone(),
        deliveries: w.store.clone(),
        planner: w.api.planner.clone(),
        steps: w.queue.clone(),
        clock: w.clock.clone(),
        faults: Arc::new(courier_app::ports::faults::NoFanoutFaults),
        page: courier_app::fanout::STEP_PAGE,
        console_url: None,
    };
    let done = worker.step(&steps[0]).await.unwrap();
    assert_eq!((done.created, done.next), (n, None));
    // Once a step has recorded progress, a duplicate firing queues none.
    let again = f.fire(&fire_message(&id, planned)).await.unwrap();
    assert_eq!(again, FireOutcome::Repeated(occ.clone()));
    assert_eq!(w.queue.drain_fanout(), vec![]);
    let (_, list) = w
        .call("GET", &format!("/v1/schedules/{id}/occurrences"), Value::Null)
        .await;
    assert_eq!(
        list["items"][0]["fanout"],
        json!({"status": "complete", "matched": n, "processed": n})
    );
    let mut seen = 0;
    for _ in 0..3 {
        for o in w.step().await {
            if let courier_app::delivery::StepOutcome::Attempted { delivery, .. } = o {
                assert_eq!(delivery.event_id, occ.event_id);
                assert_eq!(delivery.planned_at, planned);
                assert_eq!(
                    delivery.delivery_settings,
                    Some(courier_app::domain::model::DeliverySettings {
                        latency_class: Some(courier_core::decide::LatencyClass::Bulk),
                        long_running_allowance_seconds: Some(30),
                    })
                );
                seen += 1;
            }
        }
    }
    assert_eq!(seen, n);
    let bodies: Vec<Value> = w
        .http
        .requests
        .lock()
        .map(|r| {
            r.iter()
                .map(|q| serde_json::from_slice(&q.body).unwrap_or_default())
                .collect()
        })
        .unwrap_or_default();
    assert!(
        bodies
            .iter()
            .all(|b| b["plannedAt"] == "2027-01-16T08:00:00.000Z" && b["data"] == json!({"n": 1})),
        "{bodies:?}"
    );
}

/// Fires one occurrence of a schedule (extra fields `schedule`) for an endpoint
/// (extra fields `endpoint`) that always answers 503 under a ladder of one attempt
/// every five minutes; answers how many attempts ran, the last one's offset from the planned
/// instant in seconds, and why the delivery settled.
async fn attempts_until_the_horizon(endpoint: Value, schedule: Value) -> (usize, i64, Option<String>) {
    let w = World::new(vec![status(503)], 0).await;
    let mut e = json!({
        "url": "https://receiver.example/hook",
        "policy": {"base": "greatwait", "maxAttempts": 100, "receiverFailureLimit": null, "waitsSeconds": [300], "jitter": {"min": 1, "max": 1}},
    });
    for (k, v) in endpoint.as_object().cloned().unwrap_or_default() {
        e[k] = v;
    }
    let (s, b) = w.call("POST", "/v1/endpoints", e).await;
    assert_eq!(s, 201, "{b}");
    let ep = b["id"].as_str().unwrap_or_default().to_owned();
    let mut body = cron_body(&ep);
    body.as_object_mut().map(|o| o.remove("latencyClass"));
    for (k, v) in schedule.as_object().cloned().unwrap_or_default() {
        body[k] = v;
    }
    let (s, b, _) = create(&w, Some("k"), &body).await;
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let planned = t("2027-01-16T08:00:00Z");
    let occ = fire_created(&w, &id, planned).await;
    let starts = w.run(&dlv(&occ), 1000).await;
    let last = starts.last().map(|s| s.millis_since(planned) / 1000).unwrap_or(-1);
    (starts.len(), last, w.delivery(&dlv(&occ)).await.dead_reason)
}

#[tokio::test]
async fn the_horizon_counts_from_the_planned_instant_by_the_schedules_own_settings() {
    let deadline = Some("deadline".to_owned());
    let cases = [
        // Neither sets anything: the endpoint's realtime class, 15 minutes.
        (json!({}), json!({}), (4, 900)),
        // The schedule's bulk class over the endpoint's realtime: 6 hours.
        (json!({}), json!({"latencyClass": "bulk"}), (73, 21_600)),
        // The schedule's realtime class over the endpoint's bulk: 15 minutes.
        (
            json!({"latencyClass": "bulk"}),
            json!({"latencyClass": "realtime"}),
            (4, 900),
        ),
        // Unset on the schedule: the endpoint's bulk class.
        (json!({"latencyClass": "bulk"}), json!({}), (73, 21_600)),
        // The schedule's long-running allowance is added (the endpoint has none)...
        (json!({}), json!({"longRunningAllowanceSeconds": 300}), (5, 1_200)),
        // ...and replaces the endpoint's, when set.
        (
            json!({"longRunningAllowanceSeconds": 600}),
            json!({"longRunningAllowanceSeconds": 0}),
            (4, 900),
        ),
        (json!({"longRunningAllowanceSeconds": 600}), json!({}), (6, 1_500)),
    ];
    for (endpoint, schedule, (count, last)) in cases {
        assert_eq!(
            attempts_until_the_horizon(endpoint.clone(), schedule.clone()).await,
            (count, last, deadline.clone()),
            "endpoint {endpoint}, schedule {schedule}"
        );
    }
}

#[tokio::test]
async fn a_payload_its_types_schema_no_longer_takes_settles_payload_unavailable_until_replaced() {
    let (w, ep) = world_with_endpoint().await;
    let schema = json!({"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}});
    let (s, b) = w
        .call(
            "POST",
            "/v1/event-types",
            json!({"name": "reminder.due", "schema": schema}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    // At create and at replace, a payload the schema refuses is 422 with its place.
    let mut bad = cron_body(&ep);
    bad["payload"] = json!({"n": "one"});
    let (s, b, _) = create(&w, Some("bad"), &bad).await;
    assert_eq!(
        (s, &b["code"], &b["pointer"], &b["detail"]),
        (
            422,
            &json!("payload_invalid"),
            &json!("/n"),
            &json!(
                "field `payload` does not match the schema of event type \"reminder.due\" at \"/n\": \"one\" is not of type \"integer\""
            )
        )
    );
    nothing_created(&w, &w.recurring).await;
    let (s, b, _) = create(&w, Some("k"), &cron_body(&ep)).await;
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let (s, b) = w.call("PUT", &format!("/v1/schedules/{id}"), bad.clone()).await;
    assert_eq!((s, &b["pointer"]), (422, &json!("/n")), "{b}");

    // The type's schema changes: the stored payload no longer matches it.
    let (s, _) = w
        .call(
            "PATCH",
            "/v1/event-types/reminder.due",
            json!({"schema": {"type": "object", "required": ["when"]}}),
        )
        .await;
    assert_eq!(s, 200);
    let list = fire_unusable(&w, &id, t("2027-01-16T08:00:00Z")).await;
    assert_eq!(
        (&list["items"][0]["status"], &list["items"][0]["lastAttempt"]),
        (
            &json!("failed"),
            &json!({"startedAt": "2027-01-16T08:00:00.000Z", "state": "terminal_failure", "diagnostic": "payload_unavailable", "remediation": "replace_payload"})
        )
    );
    // schedules.replace with data the new schema takes: the next one is delivered.
    let mut fixed = cron_body(&ep);
    fixed["payload"] = json!({"when": "today"});
    let (s, b) = w.call("PUT", &format!("/v1/schedules/{id}"), fixed).await;
    assert_eq!(s, 200, "{b}");
    let next = t("2027-01-17T08:00:00Z");
    w.clock.set(next);
    let f = firer(&w);
    let FireOutcome::Created(ok) = f.fire(&fire_message(&id, next)).await.unwrap() else {
        panic!("created")
    };
    w.run(&dlv(&ok), 10).await;
    let sent: Value = serde_json::from_slice(&w.http.requests.lock().map(|r| r[0].body.to_vec()).unwrap_or_default())
        .unwrap_or_default();
    assert_eq!(sent["data"], json!({"when": "today"}));
    assert_eq!(w.delivery(&dlv(&ok)).await.status.as_str(), "succeeded");
}

#[tokio::test]
async fn a_routed_occurrence_whose_payload_is_unusable_says_so_and_sends_nothing() {
    let w = World::new(vec![status(200)], 5).await;
    application(&w).await;
    w.call(
        "POST",
        "/v1/event-types",
        json!({"name": "reminder.due", "schema": {"type": "object", "required": ["n"]}}),
    )
    .await;
    let ep = subscribed(&w, json!({"applicationId": APP})).await;
    let (_, b, _) = create(&w, Some("k"), &routed_body()).await;
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    w.call(
        "PATCH",
        "/v1/event-types/reminder.due",
        json!({"schema": {"type": "array"}}),
    )
    .await;
    let planned = t("2027-01-16T08:00:00Z");
    let occ = fire_created(&w, &id, planned).await;
    let (_, ev) = w
        .call("GET", &format!("/v1/events/{}", occ.event_id), Value::Null)
        .await;
    let d = DeliveryId::parse(ev["deliveries"][0]["deliveryId"].as_str().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {ev}"));
    assert_eq!(ev["deliveries"][0]["endpointId"], json!(ep));
    w.run(&d, 10).await;
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(9), 0, "nothing sent");
    let (_, list) = w
        .call("GET", &format!("/v1/schedules/{id}/occurrences"), Value::Null)
        .await;
    assert_eq!(list["items"][0]["payloadUnavailable"], json!(true));
    let (_, attempts) = w
        .call("GET", &format!("/v1/deliveries/{d}/attempts"), Value::Null)
        .await;
    assert_eq!(
        (
            &attempts["items"][0]["diagnostic"],
            &attempts["items"][0]["remediation"]
        ),
        (&json!("payload_unavailable"), &json!("replace_payload")),
        "{attempts}"
    );
}

/// A replay of an occurrence's event keeps the schedule's own horizon settings.
#[tokio::test]
async fn a_replayed_occurrence_keeps_the_schedules_own_settings() {
    let (w, ep) = world_with_endpoint().await;
    let mut body = cron_body(&ep);
    body["longRunningAllowanceSeconds"] = json!(120);
    let (s, b, _) = create(&w, Some("k"), &body).await;
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let planned = t("2027-01-16T08:00:00Z");
    let occ = fire_created(&w, &id, planned).await;
    w.run(&dlv(&occ), 10).await;
    let settings = w.delivery(&dlv(&occ)).await.delivery_settings;
    assert_eq!(
        settings,
        Some(courier_app::domain::model::DeliverySettings {
            latency_class: Some(courier_core::decide::LatencyClass::Bulk),
            long_running_allowance_seconds: Some(120),
        })
    );

    w.clock.set(t("2027-01-16T08:10:00Z"));
    let auth = format!("Bearer {KEY}");
    let headers = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
        ("idempotency-key", "replay-1"),
    ];
    let replay = json!({"since": "2027-01-16T07:59:00Z", "until": "2027-01-16T08:01:00Z"});
    let (s, b, _) = raw(
        &w,
        "POST",
        &format!("/v1/endpoints/{ep}/replay"),
        None,
        &headers,
        replay.to_string().as_bytes(),
    )
    .await;
    assert_eq!((s, &b["replayed"]), (202, &json!(1)), "{b}");
    let (_, list) = w
        .call("GET", &format!("/v1/endpoints/{ep}/deliveries"), Value::Null)
        .await;
    let replayed: Vec<DeliveryId> = list["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["trigger"] == "replay")
        .filter_map(|d| DeliveryId::parse(d["id"].as_str()?).ok())
        .collect();
    assert_eq!(replayed.len(), 1, "{list}");
    let copy = w.delivery(&replayed[0]).await;
    assert_eq!((copy.delivery_settings, copy.event_id), (settings, occ.event_id));
}
