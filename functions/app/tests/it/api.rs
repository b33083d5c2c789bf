//! The API router over the memory fakes: every route, the tenancy rule, idempotency
//! (including concurrent duplicates), lifecycle effects, and malformed input always
//! answering a clear 4xx problem+json, never a 500.

use crate::common::{KEY, T0, World, raw, status};
use courier_app::domain::model::{DeliveryStatus, Tenant};
use courier_app::ports::DeliveryStore;
use courier_core::ids::{DeliveryId, TenantId};
use courier_core::signing::{SigningSecret, verify};
use serde_json::{Value, json};

const OTHER_KEY: &str = "ck_other_tenant";

async fn with_other_tenant(w: &World) {
    let t = Tenant {
        id: TenantId::parse("ten_01JBBBBBBBBBBBBBBBBBBBBBBB").expect("tenant id"),
        name: "other".into(),
    };
    courier_app::api::register_key(w.store.as_ref(), OTHER_KEY, &t)
        .await
        .expect("register the other key");
}

async fn as_key(w: &World, key: &str, method: &str, path: &str, body: Value, idem: Option<&str>) -> (u16, Value) {
    let auth = format!("Bearer {key}");
    let mut headers = vec![("authorization", auth.as_str())];
    if let Some(k) = idem {
        headers.push(("idempotency-key", k));
    }
    let (s, v, _) = raw(w, method, path, None, &headers, body.to_string().as_bytes()).await;
    (s, v)
}

fn assert_problem(status: u16, body: &Value, want_status: u16, code: &str) {
    assert_eq!(status, want_status, "{body}");
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["status"], want_status);
    assert!(body["title"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(body["detail"].as_str().is_some_and(|t| !t.is_empty()));
}

#[tokio::test]
async fn auth_is_required_and_keys_are_checked() {
    let w = World::new(vec![], 0).await;
    let (s, b, h) = raw(&w, "GET", "/v1/endpoints", None, &[], b"").await;
    assert_problem(s, &b, 401, "unauthorized");
    assert!(
        h.iter()
            .any(|(k, v)| k == "content-type" && v == "application/problem+json")
    );
    let (s, b, _) = raw(
        &w,
        "GET",
        "/v1/endpoints",
        None,
        &[("authorization", "Bearer nope")],
        b"",
    )
    .await;
    assert_problem(s, &b, 401, "unauthorized");
    let (s, b, _) = raw(&w, "GET", "/v1/endpoints", None, &[("authorization", "Basic abc")], b"").await;
    assert_problem(s, &b, 401, "unauthorized");
    let (s, _, _) = raw(&w, "GET", "/healthz", None, &[], b"").await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn another_tenants_ids_answer_404_on_every_route() {
    let w = World::new(vec![status(503)], 0).await;
    with_other_tenant(&w).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let id = w.event(&ep).await;
    w.step().await;
    let att = w.store.list_attempts(&id).await.unwrap_or_default()[0].id.to_string();
    let evt = w.delivery(&id).await.event_id;
    let routes: Vec<(&str, String, Value)> = vec![
        ("GET", format!("/v1/endpoints/{ep}"), json!({})),
        (
            "PATCH",
            format!("/v1/endpoints/{ep}"),
            json!({"description": "mine now"}),
        ),
        ("GET", format!("/v1/endpoints/{ep}/deliveries"), json!({})),
        ("POST", format!("/v1/endpoints/{ep}/disable"), json!({})),
        ("POST", format!("/v1/endpoints/{ep}/enable"), json!({})),
        ("POST", format!("/v1/endpoints/{ep}/revoke"), json!({})),
        ("POST", format!("/v1/endpoints/{ep}/secrets/rotate"), json!({})),
        ("POST", format!("/v1/endpoints/{ep}/test"), json!({})),
        (
            "POST",
            format!("/v1/endpoints/{ep}/replay"),
            json!({"since": T0.plus_secs(-60)}),
        ),
        ("POST", format!("/v1/endpoints/{ep}/replay-dead"), json!({})),
        (
            "POST",
            "/v1/events".to_owned(),
            json!({"endpointId": ep, "payload": {}}),
        ),
        ("GET", format!("/v1/events/{evt}/deliveries"), json!({})),
        ("GET", format!("/v1/deliveries/{id}"), json!({})),
        ("GET", format!("/v1/deliveries/{id}/attempts"), json!({})),
        ("GET", format!("/v1/deliveries/{id}/attempts/{att}"), json!({})),
        ("POST", format!("/v1/deliveries/{id}/redeliver"), json!({})),
    ];
    for (m, path, body) in routes {
        let (s, b) = as_key(&w, OTHER_KEY, m, &path, body, Some("k1")).await;
        assert_problem(s, &b, 404, "not_found");
        // The owner still sees it (reads only, to keep state unchanged).
        if m == "GET" {
            let (s, _) = as_key(&w, KEY, m, &path, json!({}), None).await;
            assert_eq!(s, 200, "{path}");
        }
    }
    let (s, b) = as_key(&w, OTHER_KEY, "GET", "/v1/events", json!({}), None).await;
    assert_eq!(s, 200);
    assert_eq!(b["items"], json!([]));
    let (s, b) = as_key(&w, OTHER_KEY, "GET", "/v1/endpoints", json!({}), None).await;
    assert_eq!(s, 200);
    assert_eq!(b["items"], json!([]));
}

#[tokio::test]
async fn a_cursor_from_elsewhere_is_a_400_naming_the_cursor() {
    let w = World::new(vec![], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let other = w.endpoint(json!("tanitar")).await;
    for _ in 0..3 {
        w.event(&ep).await;
    }
    let auth = format!("Bearer {KEY}");
    let h = [("authorization", auth.as_str())];
    let (s, b, _) = raw(
        &w,
        "GET",
        &format!("/v1/endpoints/{ep}/deliveries"),
        Some("limit=1"),
        &h,
        b"",
    )
    .await;
    assert_eq!(s, 200, "{b}");
    let cursor = b["nextCursor"].as_str().unwrap_or_default().to_owned();
    assert!(!cursor.is_empty(), "{b}");
    // The cursor goes on its own list; elsewhere, or made up, it is the caller's mistake.
    let (s, _, _) = raw(
        &w,
        "GET",
        &format!("/v1/endpoints/{ep}/deliveries"),
        Some(&format!("limit=1&cursor={cursor}")),
        &h,
        b"",
    )
    .await;
    assert_eq!(s, 200);
    let refused = [
        (format!("/v1/endpoints/{other}/deliveries"), format!("cursor={cursor}")),
        (
            format!("/v1/endpoints/{ep}/deliveries"),
            format!("status=failed&cursor={cursor}"),
        ),
        (
            format!("/v1/endpoints/{ep}/deliveries"),
            "cursor=2027-01-15T08:00:00Z".to_owned(),
        ),
        ("/v1/endpoints".to_owned(), "cursor=not-a-cursor".to_owned()),
        ("/v1/events".to_owned(), format!("cursor={cursor}")),
    ];
    for (path, query) in refused {
        let (s, b, _) = raw(&w, "GET", &path, Some(&query), &h, b"").await;
        assert_problem(s, &b, 400, "validation_failed");
        assert!(
            b["detail"].as_str().is_some_and(|d| d.contains("`cursor`")),
            "{path}?{query}: {b}"
        );
    }
}

#[tokio::test]
async fn malformed_input_is_a_clear_4xx() {
    let w = World::new(vec![], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let auth = format!("Bearer {KEY}");
    let h = [("authorization", auth.as_str())];
    // (method, path, body, status, code, a word the detail must contain)
    type Case<'a> = (&'a str, String, Vec<u8>, u16, &'a str, &'a str);
    let cases: Vec<Case> = vec![
        (
            "POST",
            "/v1/endpoints".into(),
            b"{".to_vec(),
            400,
            "validation_failed",
            "request body",
        ),
        (
            "POST",
            "/v1/endpoints".into(),
            b"[1,2]".to_vec(),
            400,
            "validation_failed",
            "request body",
        ),
        (
            "POST",
            "/v1/endpoints".into(),
            br#"{"url": 5, "policy": "greatwait"}"#.to_vec(),
            400,
            "validation_failed",
            "url",
        ),
        (
            "POST",
            "/v1/endpoints".into(),
            br#"{"policy": "greatwait"}"#.to_vec(),
            400,
            "validation_failed",
            "url",
        ),
        (
            "POST",
            "/v1/endpoints".into(),
            br#"{"url": "https://x.example", "policy": "nosuch"}"#.to_vec(),
            400,
            "validation_failed",
            "policy",
        ),
        (
            "POST",
            "/v1/endpoints".into(),
            br#"{"url": "https://x.example", "policy": {"maxAttempts": 0}}"#.to_vec(),
            400,
            "validation_failed",
            "policy.maxAttempts",
        ),
        (
            "POST",
            "/v1/endpoints".into(),
            br#"{"url": "https://x.example", "policy": "tanitar", "colour": 1}"#.to_vec(),
            400,
            "validation_failed",
            "colour",
        ),
        (
            "POST",
            "/v1/endpoints".into(),
            br#"{"url": "https://x.example", "policy": "tanitar", "timeoutMs": 5}"#.to_vec(),
            400,
            "validation_failed",
            "timeoutMs",
        ),
        (
            "POST",
            "/v1/endpoints".into(),
            format!(
                r#"{{"url": "https://x.example/{}", "policy": "tanitar"}}"#,
                "a".repeat(3000)
            )
            .into_bytes(),
            400,
            "validation_failed",
            "url",
        ),
        (
            "POST",
            "/v1/events".into(),
            format!(r#"{{"endpointId": "{ep}"}}"#).into_bytes(),
            400,
            "validation_failed",
            "payload",
        ),
        (
            "POST",
            "/v1/events".into(),
            format!(r#"{{"endpointId": "{ep}", "payload": 1, "plannedAt": "tomorrow"}}"#).into_bytes(),
            400,
            "validation_failed",
            "plannedAt",
        ),
        (
            "POST",
            "/v1/events".into(),
            br#"{"endpointId": "ep_bad", "payload": 1}"#.to_vec(),
            400,
            "validation_failed",
            "endpointIds[0]",
        ),
        (
            "POST",
            "/v1/events".into(),
            br#"{"endpointIds": [], "payload": 1}"#.to_vec(),
            400,
            "validation_failed",
            "endpointIds",
        ),
        (
            "POST",
            "/v1/events".into(),
            format!(r#"{{"endpointIds": ["{ep}", "{ep}"], "payload": 1}}"#).into_bytes(),
            400,
            "validation_failed",
            "listed twice",
        ),
        (
            "POST",
            "/v1/events".into(),
            format!(r#"{{"endpointId": "{ep}", "payload": "{}"}}"#, "x".repeat(262_200)).into_bytes(),
            413,
            "payload_too_large",
            "256 KiB",
        ),
        (
            "POST",
            "/v1/events".into(),
            vec![b' '; 400_000],
            413,
            "payload_too_large",
            "limit",
        ),
        (
            "GET",
            "/v1/deliveries/not-an-id".into(),
            vec![],
            404,
            "not_found",
            "delivery",
        ),
        (
            "GET",
            "/v1/deliveries/dlv_01JAAAAAAAAAAAAAAAAAAAAAAA".into(),
            vec![],
            404,
            "not_found",
            "delivery",
        ),
        (
            "DELETE",
            "/v1/endpoints".into(),
            vec![],
            405,
            "method_not_allowed",
            "GET",
        ),
        ("GET", "/v1/nothing".into(), vec![], 404, "not_found", "route"),
        (
            "POST",
            format!("/v1/endpoints/{ep}/replay"),
            br#"{"since": "2020-01-01T00:00:00Z"}"#.to_vec(),
            400,
            "validation_failed",
            "7 days",
        ),
        (
            "POST",
            format!("/v1/endpoints/{ep}/secrets/rotate"),
            br#"{"graceSeconds": -1}"#.to_vec(),
            400,
            "validation_failed",
            "graceSeconds",
        ),
    ];
    for (m, path, body, want, code, mention) in cases {
        let (s, b, _) = raw(&w, m, &path, None, &h, &body).await;
        assert_problem(s, &b, want, code);
        assert!(b["detail"].as_str().unwrap_or("").contains(mention), "{m} {path}: {b}");
    }
    for q in [
        "limit=0",
        "limit=1000",
        "limit=abc",
        "since=yesterday",
        "status=weird",
        "bogus=1",
        "since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z",
    ] {
        let (s, b, _) = raw(&w, "GET", &format!("/v1/endpoints/{ep}/deliveries"), Some(q), &h, b"").await;
        assert_problem(s, &b, 400, "validation_failed");
    }
    let (s, b, _) = raw(
        &w,
        "POST",
        "/v1/endpoints",
        None,
        &[("authorization", auth.as_str()), ("content-type", "text/plain")],
        b"{}",
    )
    .await;
    assert_problem(s, &b, 415, "unsupported_media_type");
}

#[tokio::test]
async fn idempotency_key_replays_the_first_answer_and_refuses_other_bodies() {
    let w = World::new(vec![], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let body = json!({"endpointId": ep, "payload": {"n": 1}});
    let (s1, b1) = as_key(&w, KEY, "POST", "/v1/events", body.clone(), Some("order-1")).await;
    let (s2, b2) = as_key(&w, KEY, "POST", "/v1/events", body.clone(), Some("order-1")).await;
    assert_eq!((s1, s2), (202, 202));
    assert_eq!(b1, b2);
    assert_eq!(w.store.all_events().len(), 1);
    let (s, b) = as_key(
        &w,
        KEY,
        "POST",
        "/v1/events",
        json!({"endpointId": ep, "payload": {"n": 2}}),
        Some("order-1"),
    )
    .await;
    assert_problem(s, &b, 422, "idempotency_key_reused");
    // Concurrent duplicates create exactly one event.
    let calls = (0..8).map(|_| {
        as_key(
            &w,
            KEY,
            "POST",
            "/v1/events",
            json!({"endpointId": ep, "payload": {"n": 3}}),
            Some("order-3"),
        )
    });
    let answers = futures_join(calls).await;
    let ids: std::collections::BTreeSet<String> = answers
        .iter()
        .map(|(s, b)| {
            assert_eq!(*s, 202, "{b}");
            b["eventId"].as_str().unwrap_or_default().to_owned()
        })
        .collect();
    assert_eq!(ids.len(), 1);
    assert_eq!(w.store.all_events().len(), 2);
}

#[tokio::test]
async fn a_repeat_rebuilds_an_event_whose_first_request_died_before_writing() {
    use courier_app::domain::model::IdempotencyRecord;
    use courier_app::ports::{Clock, IdempotencyStore, TenantStore};
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let tenant = w
        .store
        .tenant_by_key(&courier_app::api::hash_key(KEY))
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no tenant"));
    let body = json!({"endpointId": ep, "payload": {"order": 7}});
    // The first request stored its answer under the key, then died: no event, no
    // delivery, nothing queued.
    let promised = json!({
        "eventId": "evt_01JCCCCCCCCCCCCCCCCCCCCCCC",
        "deliveries": [{"id": "dlv_01JCCCCCCCCCCCCCCCCCCCCCCC", "endpointId": ep, "status": "pending"}],
    });
    let first = IdempotencyRecord {
        key: format!("{}#events#died-1", tenant.id),
        request_hash: courier_app::api::fingerprint(body.to_string().as_bytes()),
        status: 202,
        response_body: promised.to_string(),
        created_at: w.clock.now(),
        expires_at: w.clock.now().millis() / 1000 + 3600,
    };
    assert_eq!(w.store.put_idempotency(&first).await.ok(), Some(None));
    assert!(w.store.all_events().is_empty());

    let auth = format!("Bearer {KEY}");
    let headers = [("authorization", auth.as_str()), ("idempotency-key", "died-1")];
    let (s, b, h) = raw(&w, "POST", "/v1/events", None, &headers, body.to_string().as_bytes()).await;
    assert_eq!(s, 202, "{b}");
    assert_eq!(b, promised, "the first answer, as it was");
    assert!(h.iter().any(|(k, v)| k == "idempotent-replayed" && v == "true"));
    // Rebuilt under the promised ids, and delivered.
    let events = w.store.all_events();
    assert_eq!(events.len(), 1);
    assert_eq!(events[0].id.as_str(), "evt_01JCCCCCCCCCCCCCCCCCCCCCCC");
    let dlv = DeliveryId::parse("dlv_01JCCCCCCCCCCCCCCCCCCCCCCC").unwrap();
    w.run(&dlv, 5).await;
    assert_eq!(w.delivery(&dlv).await.status, DeliveryStatus::Succeeded);
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), 1);

    // Repeating again finds it all in place: still one event, nothing sent twice.
    let (s, b, _) = raw(&w, "POST", "/v1/events", None, &headers, body.to_string().as_bytes()).await;
    assert_eq!((s, b), (202, promised));
    w.step().await;
    assert_eq!(w.store.all_events().len(), 1);
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), 1);
}

async fn futures_join<F: std::future::Future>(futs: impl Iterator<Item = F>) -> Vec<F::Output> {
    let handles: Vec<_> = futs.collect();
    let mut out = Vec::new();
    // Polled together on one task: interleaving at every await point is enough to race
    // the conditional writes of the memory store.
    let joined = async {
        let mut pinned: Vec<std::pin::Pin<Box<F>>> = handles.into_iter().map(Box::pin).collect();
        let mut results: Vec<Option<F::Output>> = (0..pinned.len()).map(|_| None).collect();
        std::future::poll_fn(|cx| {
            let mut pending = false;
            for (i, f) in pinned.iter_mut().enumerate() {
                if results[i].is_none() {
                    match f.as_mut().poll(cx) {
                        std::task::Poll::Ready(v) => results[i] = Some(v),
                        std::task::Poll::Pending => pending = true,
                    }
                }
            }
            if pending {
                std::task::Poll::Pending
            } else {
                std::task::Poll::Ready(())
            }
        })
        .await;
        results.into_iter().flatten().collect::<Vec<_>>()
    };
    out.extend(joined.await);
    out
}

#[tokio::test]
async fn rotation_signs_with_both_secrets_until_the_grace_ends() {
    let w = World::new(vec![status(200)], 0).await;
    let (s, created) = w
        .call(
            "POST",
            "/v1/endpoints",
            json!({"url": "https://r.example/h", "policy": "greatwait"}),
        )
        .await;
    assert_eq!(s, 201);
    let ep = created["id"].as_str().unwrap_or_default().to_owned();
    let old = SigningSecret::parse(created["secret"].as_str().unwrap_or_default()).unwrap();
    let (s, rotated) = w
        .call(
            "POST",
            &format!("/v1/endpoints/{ep}/secrets/rotate"),
            json!({"graceSeconds": 60}),
        )
        .await;
    assert_eq!(s, 200, "{rotated}");
    let new = SigningSecret::parse(rotated["secret"].as_str().unwrap_or_default()).unwrap();
    assert_ne!(old, new);
    let states: Vec<&str> = rotated["secrets"]
        .as_array()
        .map(|a| a.iter().filter_map(|s| s["state"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(states, ["retiring", "active"]);
    let id = w.event(&ep).await;
    w.run(&id, 3).await;
    w.clock.advance_secs(61);
    let id2 = w.event(&ep).await;
    w.run(&id2, 3).await;
    let reqs = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    assert_eq!(reqs.len(), 2);
    for (i, r) in reqs.iter().enumerate() {
        let h = |n: &str| {
            r.headers
                .iter()
                .find(|(k, _)| k == n)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let ts: i64 = h("webhook-timestamp").parse().unwrap_or(0);
        let sig = h("webhook-signature");
        assert!(verify(&new, &h("webhook-id"), ts, &r.body, &sig));
        assert_eq!(
            verify(&old, &h("webhook-id"), ts, &r.body, &sig),
            i == 0,
            "old secret signs only during the grace"
        );
        assert_eq!(sig.split(' ').count(), if i == 0 { 2 } else { 1 });
    }
}

#[tokio::test]
async fn redelivery_is_a_new_attempt_with_its_own_trigger() {
    let w = World::new(vec![status(400)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    w.run(&id, 3).await;
    assert_eq!(w.delivery(&id).await.dead_reason.as_deref(), Some("terminal_status"));
    let first = w.store.list_attempts(&id).await.unwrap_or_default()[0].clone();
    let path = format!("/v1/deliveries/{id}/redeliver");
    let (s, b) = as_key(&w, KEY, "POST", &path, json!({}), None).await;
    assert_problem(s, &b, 400, "idempotency_key_required");
    let (s, b) = as_key(&w, KEY, "POST", &path, json!({"sourceAttemptId": first.id}), Some("r1")).await;
    assert_eq!(s, 202, "{b}");
    let (s2, b2) = as_key(&w, KEY, "POST", &path, json!({"sourceAttemptId": first.id}), Some("r1")).await;
    assert_eq!((s2, &b2["attemptId"]), (202, &b["attemptId"]), "same key, same answer");
    *w.http.script.lock().unwrap_or_else(|e| e.into_inner()) = vec![status(200)].into();
    w.run(&id, 3).await;
    let attempts = w.store.list_attempts(&id).await.unwrap_or_default();
    assert_eq!(attempts.len(), 2, "the repeated key started nothing new");
    assert_eq!(attempts[0], first, "earlier attempts are untouched");
    let a = &attempts[1];
    assert_eq!(a.id.as_str(), b["attemptId"].as_str().unwrap_or_default());
    assert_eq!(a.trigger, courier_app::domain::delivery_message::Trigger::Redelivery);
    assert_eq!(a.source_attempt_id.as_ref(), Some(&first.id));
    assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Succeeded);
    let reqs = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    let envelope: Value = serde_json::from_slice(&reqs[1].body).unwrap_or(Value::Null);
    assert_eq!(envelope["trigger"], "redelivery");
    let header = |n: &str| reqs[1].headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.to_string());
    assert_eq!(header("webhook-id"), Some(id.to_string()));
}

#[tokio::test]
async fn test_event_is_refused_while_the_breaker_is_open_and_never_changes_health() {
    let w = World::new(vec![status(500)], 0).await;
    let ep = w.endpoint(json!({"base": "gavai", "maxAttempts": 1, "health": {"model": "breaker", "exhaustedInARow": 1, "openSeconds": 30}})).await;
    let id = w.event(&ep).await;
    w.run(&id, 3).await;
    let (s, b) = w.call("POST", &format!("/v1/endpoints/{ep}/test"), json!({})).await;
    assert_problem(s, &b, 409, "breaker_open");
    w.clock.advance_secs(30);
    let (s, b) = w.call("POST", &format!("/v1/endpoints/{ep}/test"), json!({})).await;
    assert_eq!(s, 202, "{b}");
    let test_id = DeliveryId::parse(b["deliveryId"].as_str().unwrap_or_default()).unwrap();
    w.run(&test_id, 3).await;
    let (_, view) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    // The failed test did not count as an exhausted delivery.
    assert_eq!(
        view["breaker"],
        json!({"state": "closed", "openUntil": null, "exhaustedInARow": 0})
    );
}

#[tokio::test]
async fn smartchat_enable_with_replay_since_resends_missed_events() {
    let w = World::new(vec![status(410)], 0).await;
    let ep = w.endpoint(json!("smartchat")).await;
    let first = w.event(&ep).await;
    w.run(&first, 3).await;
    // A second later, so the audit log orders the two events unambiguously.
    w.clock.advance_secs(1);
    let missed = w.event(&ep).await;
    assert_eq!(w.delivery(&missed).await.status, DeliveryStatus::Dropped);
    *w.http.script.lock().unwrap_or_else(|e| e.into_inner()) = vec![status(200)].into();
    w.clock.advance_secs(10);
    let (s, b) = w
        .call(
            "POST",
            &format!("/v1/endpoints/{ep}/enable"),
            json!({"replaySince": T0}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["status"], "active");
    assert_eq!(b["replayed"], 2);
    for _ in 0..3 {
        w.step().await;
    }
    let reqs = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    assert_eq!(reqs.len(), 3);
    let ids: Vec<String> = reqs[1..]
        .iter()
        .map(|r| {
            r.headers
                .iter()
                .find(|(k, _)| k == "webhook-id")
                .map(|(_, v)| v.to_string())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        ids,
        [first.to_string(), missed.to_string()],
        "replays keep each delivery's webhook-id"
    );
    let envelope: Value = serde_json::from_slice(&reqs[2].body).unwrap_or(Value::Null);
    assert_eq!(envelope["trigger"], "replay");
}

#[tokio::test]
async fn disable_revoke_and_lists() {
    let w = World::new(vec![status(503)], 0).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let id = w.event(&ep).await;
    w.step().await;
    let (s, b) = w.call("POST", &format!("/v1/endpoints/{ep}/revoke"), json!({})).await;
    assert_eq!((s, b["status"].as_str()), (200, Some("revoked")));
    w.run(&id, 5).await;
    let d = w.delivery(&id).await;
    assert_eq!(d.dead_reason.as_deref(), Some("ENDPOINT_REVOKED"));
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), 1);
    let (s, b) = w.call("POST", &format!("/v1/endpoints/{ep}/enable"), json!({})).await;
    assert_problem(s, &b, 409, "conflict");
    let (s, b) = w
        .call("GET", &format!("/v1/endpoints/{ep}/deliveries"), json!({}))
        .await;
    assert_eq!(s, 200);
    assert_eq!(b["items"][0]["id"], json!(id));
    assert_eq!(b["items"][0]["status"], "failed");
    let (s, b) = w.call("GET", "/v1/events", json!({})).await;
    assert_eq!(s, 200);
    assert_eq!(b["items"][0]["deliveries"][0]["deliveryId"], json!(id));
}

#[tokio::test]
async fn each_key_is_rate_limited_with_retry_after() {
    let w = World::new(vec![], 0).await;
    with_other_tenant(&w).await;
    // Default: bursts of 100, refilled at 50 per second.
    for _ in 0..100 {
        let (s, _) = as_key(&w, KEY, "GET", "/v1/endpoints", json!({}), None).await;
        assert_eq!(s, 200);
    }
    let auth = format!("Bearer {KEY}");
    let (s, b, h) = raw(
        &w,
        "GET",
        "/v1/endpoints",
        None,
        &[("authorization", auth.as_str())],
        b"",
    )
    .await;
    assert_problem(s, &b, 429, "rate_limited");
    assert_eq!(b["retryAfterSeconds"], 1);
    assert!(h.iter().any(|(k, v)| k == "retry-after" && v == "1"));
    // Another key is not affected; the first recovers as time passes.
    let (s, _) = as_key(&w, OTHER_KEY, "GET", "/v1/endpoints", json!({}), None).await;
    assert_eq!(s, 200);
    w.clock.advance_millis(20);
    let (s, _) = as_key(&w, KEY, "GET", "/v1/endpoints", json!({}), None).await;
    assert_eq!(s, 200);
}

#[tokio::test]
async fn a_refused_redelivery_stays_refused_under_its_key() {
    let w = World::new(vec![status(503)], 0).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let id = w.event(&ep).await;
    w.step().await;
    let path = format!("/v1/deliveries/{id}/redeliver");
    let (s, b) = as_key(&w, KEY, "POST", &path, json!({}), Some("early")).await;
    assert_problem(s, &b, 409, "conflict");
    // Even once the delivery settles, the same key answers what it answered first.
    *w.http.script.lock().unwrap_or_else(|e| e.into_inner()) = vec![status(200)].into();
    w.run(&id, 10).await;
    let (s, b2) = as_key(&w, KEY, "POST", &path, json!({}), Some("early")).await;
    assert_eq!((s, &b2), (409, &b));
    let (s, _) = as_key(&w, KEY, "POST", &path, json!({}), Some("later")).await;
    assert_eq!(s, 202);
}

#[tokio::test]
async fn patch_changes_url_and_policy_for_the_next_attempts() {
    let w = World::new(vec![status(200)], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let (s, b) = w
        .call(
            "PATCH",
            &format!("/v1/endpoints/{ep}"),
            json!({"url": "https://new.example/hook", "policy": "tanitar", "timeoutMs": 2500}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (b["url"].as_str(), b["policy"].as_str(), b["timeoutMs"].as_u64()),
        (Some("https://new.example/hook"), Some("tanitar"), Some(2500))
    );
    let id = w.event(&ep).await;
    w.run(&id, 3).await;
    let reqs = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    assert_eq!(reqs[0].url, "https://new.example/hook");
    assert_eq!(reqs[0].timeout_ms, 2500);
    assert!(
        reqs[0]
            .headers
            .iter()
            .any(|(k, v)| k == "tanitar-delivery-attempt" && v == "1")
    );
    let (s, b) = w
        .call("PATCH", &format!("/v1/endpoints/{ep}"), json!({"secret": "x"}))
        .await;
    assert_problem(s, &b, 400, "validation_failed");
    // JSON Schema's `integer` counts `2500.0`, so the API takes it; a fraction is
    // still refused, naming the field.
    let (s, b) = w
        .call(
            "PATCH",
            &format!("/v1/endpoints/{ep}"),
            json!({"timeoutMs": 3000.0, "failingAfter": 4.0, "maxInFlight": 7.0, "rateLimit": {"perSecond": 2, "burst": 5.0}}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (
            &b["timeoutMs"],
            &b["failingAfter"],
            &b["maxInFlight"],
            &b["rateLimit"]["burst"]
        ),
        (&json!(3000), &json!(4), &json!(7), &json!(5))
    );
    let (s, b) = w
        .call("PATCH", &format!("/v1/endpoints/{ep}"), json!({"timeoutMs": 3000.5}))
        .await;
    assert_problem(s, &b, 400, "validation_failed");
    assert!(b["detail"].as_str().unwrap_or_default().contains("timeoutMs"), "{b}");
}

/// Headers an endpoint sends with every attempt: checked, sent as set, a secret
/// value never shown again (kept when sent back masked), cleared with null.
#[tokio::test]
async fn custom_headers_are_sent_with_every_attempt_and_secrets_stay_hidden() {
    let w = World::new(vec![status(200), status(200)], 5).await;
    let (s, b) = w
        .call(
            "POST",
            "/v1/endpoints",
            json!({
                "url": "https://receiver.example/hook",
                "policy": "tanitar",
                "headers": [
                    {"name": "Authorization", "value": "Bearer k-123", "secret": true},
                    {"name": "X-Tenant", "value": "acme"},
                ],
            }),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let shown = json!([
        {"name": "Authorization", "value": null, "secret": true},
        {"name": "X-Tenant", "value": "acme", "secret": false},
    ]);
    assert_eq!(b["headers"], shown);
    assert!(!b.to_string().contains("k-123"));
    let ep = b["id"].as_str().unwrap_or_default().to_owned();
    let (_, got) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!(got["headers"], shown);
    let dlv = w.event(&ep).await;
    w.run(&dlv, 3).await;
    let sent = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    let header = |name: &str| {
        sent[0]
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.to_string())
    };
    assert_eq!(header("authorization").as_deref(), Some("Bearer k-123"));
    assert_eq!(header("x-tenant").as_deref(), Some("acme"));
    assert_eq!(header("tanitar-delivery-attempt").as_deref(), Some("1"));
    // The attempt record keeps nothing of it.
    let (_, attempts) = w
        .call("GET", &format!("/v1/deliveries/{dlv}/attempts"), json!({}))
        .await;
    assert!(!attempts.to_string().contains("k-123"), "{attempts}");
    // Sent back as shown: the secret is kept; a new plain header is added.
    let (s, b) = w
        .call(
            "PATCH",
            &format!("/v1/endpoints/{ep}"),
            json!({"headers": [
                {"name": "Authorization", "value": null, "secret": true},
                {"name": "X-Region", "value": "eu"},
            ]}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let dlv = w.event(&ep).await;
    w.run(&dlv, 3).await;
    let sent = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    let last: Vec<(String, String)> = sent[sent.len() - 1]
        .headers
        .iter()
        .filter(|(k, _)| ["authorization", "x-region", "x-tenant"].contains(&k.to_ascii_lowercase().as_str()))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    assert_eq!(
        last,
        vec![
            ("Authorization".to_owned(), "Bearer k-123".to_owned()),
            ("X-Region".to_owned(), "eu".to_owned()),
        ]
    );
    // Refused, naming the entry; null removes them all.
    for (headers, field) in [
        (json!([{"name": "Webhook-Id", "value": "x"}]), "headers[0].name"),
        (json!([{"name": "X-A", "value": "a\r\nX-B: b"}]), "headers[0].value"),
        (json!([{"name": "X-A", "value": "a", "extra": 1}]), "headers"),
    ] {
        let (s, b) = w
            .call("PATCH", &format!("/v1/endpoints/{ep}"), json!({"headers": headers}))
            .await;
        assert_eq!((s, b["code"].clone()), (400, json!("validation_failed")), "{b}");
        assert!(b["detail"].as_str().is_some_and(|d| d.contains(field)), "{field}: {b}");
    }
    let (s, b) = w
        .call("PATCH", &format!("/v1/endpoints/{ep}"), json!({"headers": null}))
        .await;
    assert_eq!((s, b["headers"].clone()), (200, json!([])), "{b}");
}
