//! Portal links through the API router: an API key makes and revokes them; the token
//! reads and manages only its endpoints, their deliveries and attempts (404 for the
//! rest), is refused on operator-only routes, and stops working when it expires or
//! is revoked.

use crate::common;

use crate::common::{KEY, World, raw, status};
use serde_json::{Value, json};

async fn as_token(w: &World, token: &str, method: &str, path: &str, body: Value) -> (u16, Value) {
    let auth = format!("Bearer {token}");
    let (s, b, _) = raw(
        w,
        method,
        path,
        None,
        &[("authorization", &auth), ("host", "api.example")],
        body.to_string().as_bytes(),
    )
    .await;
    (s, b)
}

/// A link over `eps` made with the API key: (id, token, whole answer).
async fn link(w: &World, eps: &[&str], ttl: Option<u64>) -> (String, String, Value) {
    let mut body = json!({"endpointIds": eps});
    if let Some(ttl) = ttl {
        body["ttlSeconds"] = json!(ttl);
    }
    let (s, b) = as_token(w, KEY, "POST", "/v1/portal-links", body).await;
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let token = b["token"].as_str().unwrap_or_default().to_owned();
    (id, token, b)
}

#[tokio::test]
async fn a_link_sees_and_manages_only_its_own_endpoints_and_deliveries() {
    let w = World::new(vec![status(500), status(200)], 10).await;
    let mine = w.endpoint(json!("gavai")).await;
    let other = w.endpoint(json!("gavai")).await;
    let my_delivery = w.event(&mine).await;
    let other_delivery = w.event(&other).await;
    w.run(&my_delivery, 5).await;

    let now = courier_app::ports::Clock::now(w.clock.as_ref());
    let (id, token, answer) = link(&w, &[&mine], None).await;
    assert!(token.starts_with("cpl_"), "{token}");
    assert_eq!(
        answer["url"],
        json!(format!("http://api.example/console#portal={token}"))
    );
    assert_eq!(answer["endpointIds"], json!([mine]));
    // The default lifetime is an hour.
    assert_eq!(answer["expiresAt"], json!(now.plus_secs(3600).to_rfc3339()));
    assert_eq!(answer["id"], json!(id));

    let (s, b) = as_token(&w, &token, "GET", "/v1/endpoints", json!({})).await;
    assert_eq!(s, 200, "{b}");
    let listed: Vec<&str> = b["items"]
        .as_array()
        .map(|a| a.iter().filter_map(|e| e["id"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(listed, vec![mine.as_str()]);

    for path in [
        format!("/v1/endpoints/{mine}"),
        format!("/v1/endpoints/{mine}/deliveries"),
        format!("/v1/deliveries/{my_delivery}"),
        format!("/v1/deliveries/{my_delivery}/attempts"),
    ] {
        let (s, b) = as_token(&w, &token, "GET", &path, json!({})).await;
        assert_eq!(s, 200, "{path}: {b}");
    }
    let (s, b) = as_token(&w, &token, "POST", &format!("/v1/endpoints/{mine}/disable"), json!({})).await;
    assert_eq!((s, b["status"].clone()), (200, json!("disabled")), "{b}");

    for (method, path) in [
        ("GET", format!("/v1/endpoints/{other}")),
        ("GET", format!("/v1/endpoints/{other}/deliveries")),
        ("POST", format!("/v1/endpoints/{other}/disable")),
        ("GET", format!("/v1/deliveries/{other_delivery}")),
        ("GET", format!("/v1/deliveries/{other_delivery}/attempts")),
        ("POST", format!("/v1/deliveries/{other_delivery}/redeliver")),
        ("GET", "/v1/endpoints/not-an-id".to_owned()),
        ("GET", "/v1/deliveries/not-an-id".to_owned()),
    ] {
        let (s, b) = as_token(&w, &token, method, &path, json!({})).await;
        assert_eq!(
            (s, b["code"].clone()),
            (404, json!("not_found")),
            "{method} {path}: {b}"
        );
    }

    // A link over endpoint ids adds none.
    let (s, b) = as_token(
        &w,
        &token,
        "POST",
        "/v1/endpoints",
        json!({"url": "https://r.example/x", "policy": "gavai"}),
    )
    .await;
    assert_eq!((s, b["code"].clone()), (403, json!("portal_forbidden")), "{b}");
    for (method, path) in [
        ("GET", "/v1/events".to_owned()),
        ("POST", "/v1/events".to_owned()),
        ("POST", "/v1/portal-links".to_owned()),
        ("DELETE", format!("/v1/portal-links/{id}")),
        ("POST", "/v1/applications".to_owned()),
        ("GET", "/v1/applications".to_owned()),
        ("GET", "/v1/applications/customer-1".to_owned()),
        ("PATCH", "/v1/applications/customer-1".to_owned()),
        ("DELETE", "/v1/applications/customer-1".to_owned()),
        ("POST", "/v1/event-types".to_owned()),
        ("PATCH", "/v1/event-types/invoice.paid".to_owned()),
    ] {
        let (s, b) = as_token(&w, &token, method, &path, json!({"endpointId": mine, "payload": {}})).await;
        assert_eq!(
            (s, b["code"].clone()),
            (403, json!("portal_forbidden")),
            "{method} {path}: {b}"
        );
        assert!(
            b["detail"].as_str().is_some_and(|d| d.contains("needs an API key")),
            "{method} {path}: {b}"
        );
    }
    // The API key still sees every endpoint.
    let (_, b) = w.call("GET", "/v1/endpoints", json!({})).await;
    assert_eq!(b["items"].as_array().map(Vec::len), Some(2));
}

#[tokio::test]
async fn an_expired_revoked_or_altered_token_is_refused() {
    let w = World::new(vec![], 10).await;
    let ep = w.endpoint(json!("gavai")).await;
    let (_, token, _) = link(&w, &[&ep], Some(60)).await;
    let path = format!("/v1/endpoints/{ep}");
    assert_eq!(as_token(&w, &token, "GET", &path, json!({})).await.0, 200);

    let mut altered = token.clone();
    let last = if altered.ends_with('A') { 'B' } else { 'A' };
    altered.pop();
    altered.push(last);
    for bad in [altered.as_str(), "cpl_", "cpl_00.x", "cpl_zz"] {
        let (s, b) = as_token(&w, bad, "GET", &path, json!({})).await;
        assert_eq!(
            (s, b["detail"].clone()),
            (401, json!("portal link expired or revoked")),
            "{bad}"
        );
    }

    w.clock.advance_secs(60);
    for p in [path.as_str(), "/v1/endpoints"] {
        let (s, b) = as_token(&w, &token, "GET", p, json!({})).await;
        assert_eq!(
            (s, b["detail"].clone()),
            (401, json!("portal link expired or revoked")),
            "{p}"
        );
    }

    let (id, token, _) = link(&w, &[&ep], None).await;
    assert_eq!(as_token(&w, &token, "GET", &path, json!({})).await.0, 200);
    let (s, b) = w.call("DELETE", &format!("/v1/portal-links/{id}"), json!({})).await;
    assert_eq!((s, b["revoked"].clone()), (200, json!(true)), "{b}");
    let (s, _) = as_token(&w, &token, "GET", &path, json!({})).await;
    assert_eq!(s, 401);
    let (s, b) = w
        .call("DELETE", "/v1/portal-links/pl_000000000000000000000000", json!({}))
        .await;
    assert_eq!((s, b["code"].clone()), (404, json!("not_found")), "{b}");
    let (s, _) = w.call("DELETE", "/v1/portal-links/nope", json!({})).await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn link_requests_name_the_field_at_fault() {
    let w = World::new(vec![], 10).await;
    let ep = w.endpoint(json!("gavai")).await;
    for (body, field) in [
        (json!({"endpointIds": []}), "endpointIds"),
        (json!({"endpointIds": ["nope"]}), "endpointIds[0]"),
        (
            json!({"endpointIds": [ep, "ep_01JAAAAAAAAAAAAAAAAAAAAAAA"]}),
            "endpointIds[1]",
        ),
        (json!({"endpointIds": [ep], "ttlSeconds": 0}), "ttlSeconds"),
        (json!({"endpointIds": [ep], "ttlSeconds": 86_401}), "ttlSeconds"),
        (json!({"endpointIds": [ep], "ttlSeconds": -1}), "ttlSeconds"),
        (json!({"endpointIds": [ep], "extra": 1}), "extra"),
        (json!({}), "endpointIds"),
    ] {
        let (s, b) = w.call("POST", "/v1/portal-links", body.clone()).await;
        assert_eq!((s, b["code"].clone()), (400, json!("validation_failed")), "{body}: {b}");
        assert!(b["detail"].as_str().is_some_and(|d| d.contains(field)), "{body}: {b}");
    }
    let (s, b) = w
        .call(
            "POST",
            "/v1/portal-links",
            json!({"endpointIds": [ep], "ttlSeconds": 86_400}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["expiresAt"], json!(common::T0.plus_secs(86_400).to_rfc3339()));
    let (s, _, _) = raw(&w, "POST", "/v1/portal-links", None, &[], b"{}").await;
    assert_eq!(s, 401);
}

/// One application's customer, another's, and the operator: applications `cust-a`
/// and `cust-b` with an endpoint each, a delivery of A's with one attempt, the
/// event type `invoice.paid`, a schedule, and portal links (A's whole application,
/// B's, A's read-only, A's expired, A's revoked).
struct Scene {
    w: World,
    ep_a: String,
    ep_b: String,
    dlv_a: String,
    att_a: String,
    evt_a: String,
    schedule: String,
    revoked_link: String,
    /// By credential: API key, own, other, read-only, expired, revoked.
    credentials: [String; 6],
}

async fn ok(w: &World, method: &str, path: &str, body: Value) -> Value {
    let (s, b) = w.call(method, path, body).await;
    assert!((200..300).contains(&s), "{method} {path}: {s} {b}");
    b
}

async fn app_link(w: &World, app: &str, body: Value) -> (String, String) {
    let b = ok(w, "POST", &format!("/v1/applications/{app}/portal-links"), body).await;
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    (id, b["token"].as_str().unwrap_or_default().to_owned())
}

async fn app_endpoint(w: &World, app: &str) -> String {
    let b = ok(
        w,
        "POST",
        "/v1/endpoints",
        json!({"url": "https://receiver.example/hook", "policy": "gavai", "applicationId": app}),
    )
    .await;
    b["id"].as_str().unwrap_or_default().to_owned()
}

impl Scene {
    async fn new() -> Scene {
        let w = World::new(vec![status(200), status(200), status(200), status(200)], 5).await;
        ok(&w, "POST", "/v1/applications", json!({"name": "A", "uid": "cust-a"})).await;
        ok(&w, "POST", "/v1/applications", json!({"name": "B", "uid": "cust-b"})).await;
        ok(&w, "POST", "/v1/event-types", json!({"name": "invoice.paid"})).await;
        let ep_a = app_endpoint(&w, "cust-a").await;
        let ep_b = app_endpoint(&w, "cust-b").await;
        let dlv = w.event(&ep_a).await;
        w.run(&dlv, 5).await;
        let attempts = ok(&w, "GET", &format!("/v1/deliveries/{dlv}/attempts"), json!({})).await;
        let att_a = attempts["items"][0]["id"].as_str().unwrap_or_default().to_owned();
        let evt_a = w.delivery(&dlv).await.event_id.to_string();
        let auth = format!("Bearer {KEY}");
        let (s, b, _) = raw(
            &w,
            "POST",
            "/v1/schedules",
            None,
            &[("authorization", &auth), ("idempotency-key", "s1")],
            schedule_body(&ep_a).to_string().as_bytes(),
        )
        .await;
        assert_eq!(s, 201, "{b}");
        let schedule = b["id"].as_str().unwrap_or_default().to_owned();
        let (_, own) = app_link(&w, "cust-a", json!({})).await;
        let (_, other) = app_link(&w, "cust-b", json!({})).await;
        let (_, read_only) = app_link(&w, "cust-a", json!({"readOnly": true})).await;
        let (_, expired) = app_link(&w, "cust-a", json!({"expiresInSeconds": 1})).await;
        let (revoked_link, revoked) = app_link(&w, "cust-a", json!({})).await;
        ok(&w, "DELETE", &format!("/v1/portal-links/{revoked_link}"), json!({})).await;
        w.clock.advance_secs(2);
        Scene {
            w,
            ep_a,
            ep_b,
            dlv_a: dlv.to_string(),
            att_a,
            evt_a,
            schedule,
            revoked_link,
            credentials: [KEY.to_owned(), own, other, read_only, expired, revoked],
        }
    }

    fn path(&self, template: &str) -> String {
        let id = match template.split('/').nth(2) {
            Some("endpoints") => self.ep_a.as_str(),
            Some("deliveries") => self.dlv_a.as_str(),
            Some("events") => self.evt_a.as_str(),
            Some("schedules") => self.schedule.as_str(),
            Some("applications") => "cust-a",
            Some("portal-links") => self.revoked_link.as_str(),
            _ => "",
        };
        template
            .replace("{id}", id)
            .replace("{attemptId}", &self.att_a)
            .replace("{name}", "invoice.paid")
    }
}

fn schedule_body(ep: &str) -> Value {
    json!({"endpointId": ep, "cron": "cron(0 9 * * ? *)", "timezone": "Europe/Berlin", "payload": {"n": 1}})
}

const CREDENTIALS: [&str; 6] = [
    "API key",
    "own link",
    "other link",
    "read-only link",
    "expired link",
    "revoked link",
];

/// Every route with each credential: the exact status of each cell.
#[tokio::test]
async fn every_route_answers_each_credential_exactly() {
    const F: u16 = 403;
    let since = common::T0.plus_secs(-60).to_rfc3339();
    let table: Vec<(&str, &str, Value, [u16; 6])> = vec![
        ("GET", "/healthz", json!(null), [200, 200, 200, 200, 200, 200]),
        ("HEAD", "/healthz", json!(null), [200, 200, 200, 200, 200, 200]),
        (
            "POST",
            "/v1/endpoints",
            json!({"url": "https://receiver.example/new", "policy": "gavai"}),
            [201, 201, 201, F, 401, 401],
        ),
        ("GET", "/v1/endpoints", json!(null), [200, 200, 200, 200, 401, 401]),
        ("GET", "/v1/endpoints/{id}", json!(null), [200, 200, 404, 200, 401, 401]),
        (
            "PATCH",
            "/v1/endpoints/{id}",
            json!({"description": "x"}),
            [200, 200, 404, F, 401, 401],
        ),
        (
            "DELETE",
            "/v1/endpoints/{id}",
            json!(null),
            [200, 200, 404, F, 401, 401],
        ),
        (
            "GET",
            "/v1/endpoints/{id}/deliveries",
            json!(null),
            [200, 200, 404, 200, 401, 401],
        ),
        (
            "POST",
            "/v1/endpoints/{id}/disable",
            json!(null),
            [200, 200, 404, F, 401, 401],
        ),
        (
            "POST",
            "/v1/endpoints/{id}/enable",
            json!({}),
            [200, 200, 404, F, 401, 401],
        ),
        (
            "POST",
            "/v1/endpoints/{id}/revoke",
            json!(null),
            [200, 200, 404, F, 401, 401],
        ),
        (
            "POST",
            "/v1/endpoints/{id}/secrets/rotate",
            json!({}),
            [200, 200, 404, F, 401, 401],
        ),
        (
            "POST",
            "/v1/endpoints/{id}/test",
            json!(null),
            [202, 202, 404, F, 401, 401],
        ),
        (
            "POST",
            "/v1/endpoints/{id}/replay",
            json!({"since": since}),
            [202, 202, 404, F, 401, 401],
        ),
        (
            "POST",
            "/v1/endpoints/{id}/replay-dead",
            json!(null),
            [202, 202, 404, F, 401, 401],
        ),
        (
            "GET",
            "/v1/deliveries/{id}",
            json!(null),
            [200, 200, 404, 200, 401, 401],
        ),
        (
            "GET",
            "/v1/deliveries/{id}/attempts",
            json!(null),
            [200, 200, 404, 200, 401, 401],
        ),
        (
            "GET",
            "/v1/deliveries/{id}/attempts/{attemptId}",
            json!(null),
            [200, 200, 404, 200, 401, 401],
        ),
        (
            "POST",
            "/v1/deliveries/{id}/redeliver",
            json!(null),
            [202, 202, 404, F, 401, 401],
        ),
        (
            "POST",
            "/v1/deliveries/{id}/redrive",
            json!(null),
            [409, F, F, F, 401, 401],
        ),
        (
            "POST",
            "/v1/attempts/{attemptId}/complete",
            json!({"outcome": "succeeded"}),
            [401, 401, 401, 401, 401, 401],
        ),
        ("GET", "/v1/event-types", json!(null), [200, 200, 200, 200, 401, 401]),
        (
            "GET",
            "/v1/event-types/{name}",
            json!(null),
            [200, 200, 200, 200, 401, 401],
        ),
        (
            "POST",
            "/v1/event-types",
            json!({"name": "order.shipped"}),
            [201, F, F, F, 401, 401],
        ),
        (
            "PATCH",
            "/v1/event-types/{name}",
            json!({"description": "d"}),
            [200, F, F, F, 401, 401],
        ),
        ("GET", "/v1/portal/session", json!(null), [404, 200, 200, 200, 401, 401]),
        (
            "POST",
            "/v1/portal-links",
            json!({"endpointIds": []}),
            [400, F, F, F, 401, 401],
        ),
        ("DELETE", "/v1/portal-links/{id}", json!(null), [200, F, F, F, 401, 401]),
        ("GET", "/v1/portal-activity", json!(null), [200, F, F, F, 401, 401]),
        (
            "POST",
            "/v1/applications/{id}/portal-links",
            json!({}),
            [201, F, F, F, 401, 401],
        ),
        (
            "GET",
            "/v1/applications/{id}/portal-activity",
            json!(null),
            [200, F, F, F, 401, 401],
        ),
        (
            "POST",
            "/v1/applications",
            json!({"name": "C"}),
            [201, F, F, F, 401, 401],
        ),
        ("GET", "/v1/applications", json!(null), [200, F, F, F, 401, 401]),
        ("GET", "/v1/stats", json!(null), [200, F, F, F, 401, 401]),
        (
            "GET",
            "/v1/applications/{id}/stats",
            json!(null),
            [200, 200, 404, 200, 401, 401],
        ),
        (
            "GET",
            "/v1/endpoints/{id}/stats",
            json!(null),
            [200, 200, 404, 200, 401, 401],
        ),
        ("GET", "/v1/applications/{id}", json!(null), [200, F, F, F, 401, 401]),
        (
            "PATCH",
            "/v1/applications/{id}",
            json!({"name": "A2"}),
            [200, F, F, F, 401, 401],
        ),
        ("DELETE", "/v1/applications/{id}", json!(null), [200, F, F, F, 401, 401]),
        (
            "POST",
            "/v1/events",
            json!({"endpointId": "{ep}", "payload": {}}),
            [202, F, F, F, 401, 401],
        ),
        ("GET", "/v1/events", json!(null), [200, F, F, F, 401, 401]),
        (
            "POST",
            "/v1/events/batch",
            json!({"events": [{"endpointId": "{ep}", "payload": {}}]}),
            [207, F, F, F, 401, 401],
        ),
        ("GET", "/v1/events/{id}", json!(null), [200, F, F, F, 401, 401]),
        (
            "GET",
            "/v1/events/{id}/deliveries",
            json!(null),
            [200, F, F, F, 401, 401],
        ),
        ("POST", "/v1/schedules", json!("{schedule}"), [201, F, F, F, 401, 401]),
        ("GET", "/v1/schedules", json!(null), [200, F, F, F, 401, 401]),
        ("GET", "/v1/schedules/{id}", json!(null), [200, F, F, F, 401, 401]),
        (
            "PUT",
            "/v1/schedules/{id}",
            json!("{schedule}"),
            [200, F, F, F, 401, 401],
        ),
        ("DELETE", "/v1/schedules/{id}", json!(null), [200, F, F, F, 401, 401]),
        (
            "POST",
            "/v1/schedules/{id}/pause",
            json!(null),
            [200, F, F, F, 401, 401],
        ),
        (
            "POST",
            "/v1/schedules/{id}/resume",
            json!(null),
            [200, F, F, F, 401, 401],
        ),
        (
            "GET",
            "/v1/schedules/{id}/occurrences",
            json!(null),
            [200, F, F, F, 401, 401],
        ),
    ];
    let listed: std::collections::BTreeSet<(&str, &str)> = table.iter().map(|(m, p, _, _)| (*m, *p)).collect();
    let routes: std::collections::BTreeSet<(&str, &str)> = crate::common::operations::ROUTES
        .iter()
        .map(|r| (r.method, r.path))
        .collect();
    assert_eq!(listed, routes, "the table covers every route, once");
    for (method, template, body, want) in &table {
        for (i, credential) in CREDENTIALS.iter().enumerate() {
            // A scene of its own per cell: no cell's write changes another's answer.
            let scene = Scene::new().await;
            let path = scene.path(template);
            let text = match body {
                Value::Null => String::new(),
                Value::String(s) if s == "{schedule}" => schedule_body(&scene.ep_a).to_string(),
                other => other.to_string().replace("{ep}", &scene.ep_a),
            };
            let auth = format!("Bearer {}", scene.credentials[i]);
            let (s, b, _) = raw(
                &scene.w,
                method,
                &path,
                None,
                &[
                    ("authorization", &auth),
                    ("idempotency-key", "cell"),
                    ("host", "api.example"),
                ],
                text.as_bytes(),
            )
            .await;
            assert_eq!(s, want[i], "{method} {template} with the {credential}: {b}");
            let code = match s {
                401 => json!("unauthorized"),
                403 => json!("portal_forbidden"),
                404 => json!("not_found"),
                _ => b["code"].clone(),
            };
            assert_eq!(b["code"], code, "{method} {template} with the {credential}: {b}");
        }
    }
    // Other tenants' ids and B's are the same 404 as ids that do not exist.
    let scene = Scene::new().await;
    let own = &scene.credentials[1];
    for path in [
        format!("/v1/endpoints/{}", scene.ep_b),
        "/v1/endpoints/ep_01JAAAAAAAAAAAAAAAAAAAAAAA".to_owned(),
    ] {
        let (s, b) = as_token(&scene.w, own, "GET", &path, json!({})).await;
        assert_eq!((s, b["detail"].clone()), (404, json!("endpoint not found")), "{path}");
    }
}

/// The re-homing found by trying the portal as a customer would: PATCH with
/// another customer's `applicationId` (and cleared limits) answered 200, and from
/// then on B's events were delivered to A's endpoint.
#[tokio::test]
async fn a_portal_token_cannot_move_its_endpoint_into_another_customers_events() {
    let scene = Scene::new().await;
    let w = &scene.w;
    let own = &scene.credentials[1];
    ok(
        w,
        "PATCH",
        &format!("/v1/endpoints/{}", scene.ep_a),
        json!({"rateLimit": {"perSecond": 5}, "maxInFlight": 4}),
    )
    .await;
    let path = format!("/v1/endpoints/{}", scene.ep_a);
    let forbidden = |field: &str| (403, json!("portal_forbidden"), field.to_owned());
    for (body, want) in [
        (json!({"applicationId": "cust-b"}), forbidden("applicationId")),
        (json!({"applicationId": "cust-nobody"}), forbidden("applicationId")),
        (json!({"applicationId": null}), forbidden("applicationId")),
        (
            json!({"applicationId": "cust-b", "filterTypes": null, "rateLimit": null, "maxInFlight": null}),
            forbidden("applicationId"),
        ),
        (json!({"rateLimit": null}), forbidden("rateLimit")),
        (json!({"maxInFlight": null}), forbidden("maxInFlight")),
    ] {
        let (s, b) = as_token(w, own, "PATCH", &path, body.clone()).await;
        let field = format!("field `{}`", want.2);
        assert_eq!((s, b["code"].clone()), (want.0, want.1), "{body}: {b}");
        assert!(
            b["detail"].as_str().is_some_and(|d| d.starts_with(&field)),
            "{body}: {b}"
        );
    }
    // An existing uid and a missing one answer alike: nothing to enumerate.
    let (_, existing) = as_token(w, own, "PATCH", &path, json!({"applicationId": "cust-b"})).await;
    let (_, missing) = as_token(w, own, "PATCH", &path, json!({"applicationId": "cust-nobody"})).await;
    assert_eq!(existing, missing);
    // Sent unchanged, by id or by uid, it is accepted.
    let app_a = ok(w, "GET", "/v1/applications/cust-a", json!({})).await["id"].clone();
    for same in [app_a.clone(), json!("cust-a")] {
        let (s, b) = as_token(
            w,
            own,
            "PATCH",
            &path,
            json!({"applicationId": same, "description": "mine"}),
        )
        .await;
        assert_eq!((s, b["applicationId"].clone()), (200, app_a.clone()), "{b}");
    }
    let stored = ok(w, "GET", &path, json!({})).await;
    assert_eq!(
        (
            stored["applicationId"].clone(),
            stored["rateLimit"].clone(),
            stored["maxInFlight"].clone()
        ),
        (app_a, json!({"perSecond": 5.0}), json!(4))
    );
    // An event for customer B reaches B's endpoint only.
    let sent = ok(
        w,
        "POST",
        "/v1/events",
        json!({"type": "invoice.paid", "applicationId": "cust-b", "payload": {}}),
    )
    .await;
    let targets: Vec<&str> = sent["deliveries"]
        .as_array()
        .map(|d| d.iter().filter_map(|d| d["endpointId"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(targets, vec![scene.ep_b.as_str()], "{sent}");
}

/// What a portal may set on an endpoint: lower limits, offered presets, catalogue
/// types; never past the operator's values, never another field changed.
#[tokio::test]
async fn portal_changes_stay_inside_what_the_operator_allows() {
    let scene = Scene::new().await;
    let w = &scene.w;
    let own = &scene.credentials[1];
    let path = format!("/v1/endpoints/{}", scene.ep_a);
    ok(
        w,
        "PATCH",
        &path,
        json!({"rateLimit": {"perSecond": 5, "burst": 10}, "maxInFlight": 4, "timeoutMs": 5000}),
    )
    .await;
    ok(
        w,
        "PATCH",
        "/v1/applications/cust-a",
        json!({"portal": {"presets": ["gavai", "tanitar"]}}),
    )
    .await;
    ok(
        w,
        "POST",
        "/v1/event-types",
        json!({"name": "invoice.old", "deprecated": true}),
    )
    .await;
    let custom = json!({"base": "gavai", "maxAttempts": 2});
    for (body, status, code, needle) in [
        (
            json!({"rateLimit": {"perSecond": 6}}),
            403,
            "portal_forbidden",
            "field `rateLimit`",
        ),
        (
            json!({"rateLimit": {"perSecond": 5, "burst": 11}}),
            403,
            "portal_forbidden",
            "field `rateLimit`",
        ),
        (
            json!({"maxInFlight": 5}),
            403,
            "portal_forbidden",
            "field `maxInFlight`",
        ),
        (json!({"timeoutMs": 5001}), 403, "portal_forbidden", "field `timeoutMs`"),
        (
            json!({"policy": "smartchat"}),
            403,
            "portal_forbidden",
            "field `policy`",
        ),
        (json!({"policy": custom}), 403, "portal_forbidden", "field `policy`"),
        (
            json!({"latencyClass": "bulk"}),
            403,
            "portal_forbidden",
            "field `latencyClass`",
        ),
        (
            json!({"longRunningAllowanceSeconds": 60}),
            403,
            "portal_forbidden",
            "field `longRunningAllowanceSeconds`",
        ),
        (
            json!({"filterTypes": ["order.nope"]}),
            400,
            "validation_failed",
            "field `filterTypes[0]`",
        ),
        (
            json!({"filterTypes": ["invoice.paid", "invoice.old"]}),
            400,
            "validation_failed",
            "field `filterTypes[1]`",
        ),
        (
            json!({"filterTypes": ["invoice.*"]}),
            400,
            "validation_failed",
            "field `filterTypes[0]`",
        ),
    ] {
        let (s, b) = as_token(w, own, "PATCH", &path, body.clone()).await;
        assert_eq!((s, b["code"].clone()), (status, json!(code)), "{body}: {b}");
        assert!(
            b["detail"].as_str().is_some_and(|d| d.starts_with(needle)),
            "{body}: {b}"
        );
    }
    // Lowering, choosing an offered preset, a catalogue type, a field unchanged.
    let (s, b) = as_token(
        w,
        own,
        "PATCH",
        &path,
        json!({
            "rateLimit": {"perSecond": 2, "burst": 3}, "maxInFlight": 2, "timeoutMs": 4000,
            "policy": "tanitar", "filterTypes": ["invoice.paid"], "latencyClass": "realtime",
            "url": "https://receiver.example/other", "description": "ours", "channels": ["eu"],
        }),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (
            b["rateLimit"].clone(),
            b["maxInFlight"].clone(),
            b["timeoutMs"].clone(),
            b["policy"].clone(),
            b["filterTypes"].clone(),
            b["url"].clone()
        ),
        (
            json!({"perSecond": 2.0, "burst": 3}),
            json!(2),
            json!(4000),
            json!("tanitar"),
            json!(["invoice.paid"]),
            json!("https://receiver.example/other")
        )
    );
    // Operational events about its own endpoints: named like any type.
    let (s, b) = as_token(
        w,
        own,
        "PATCH",
        &path,
        json!({"filterTypes": ["invoice.paid", "courier.endpoint.paused"]}),
    )
    .await;
    assert_eq!(
        (s, b["filterTypes"].clone()),
        (200, json!(["invoice.paid", "courier.endpoint.paused"])),
        "{b}"
    );
    let (s, b) = as_token(
        w,
        own,
        "PATCH",
        &path,
        json!({"filterTypes": ["courier.endpoint.nope"]}),
    )
    .await;
    assert_eq!((s, b["code"].clone()), (400, json!("validation_failed")), "{b}");
    // Back up to the operator's values, not past them.
    let (s, b) = as_token(
        w,
        own,
        "PATCH",
        &path,
        json!({"rateLimit": {"perSecond": 5, "burst": 10}, "maxInFlight": 4, "timeoutMs": 5000}),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    // The operator allows custom policies: then one is accepted.
    ok(
        w,
        "PATCH",
        "/v1/applications/cust-a",
        json!({"portal": {"customPolicies": true}}),
    )
    .await;
    let (s, b) = as_token(w, own, "PATCH", &path, json!({"policy": custom})).await;
    assert_eq!((s, b["policy"]["maxAttempts"].clone()), (200, json!(2)), "{b}");
    // The API key is not bound by any of it.
    ok(
        w,
        "PATCH",
        &path,
        json!({"rateLimit": null, "policy": "smartchat", "latencyClass": "bulk"}),
    )
    .await;
}

/// A whole-application link adds endpoints to its application (with the
/// operator's defaults), up to `portal.maxEndpoints`, even when creates race.
#[tokio::test]
async fn a_portal_adds_endpoints_to_its_application_up_to_the_most() {
    let scene = Scene::new().await;
    let w = &scene.w;
    let own = &scene.credentials[1];
    ok(
        w,
        "PATCH",
        "/v1/applications/cust-a",
        // `4.0` is the whole number 4, as JSON Schema's `integer` counts it.
        json!({"portal": {"maxEndpoints": 4.0, "endpointDefaults": {"rateLimit": {"perSecond": 10}, "maxInFlight": 3}}}),
    )
    .await;
    let new = |n: usize| json!({"url": format!("https://receiver.example/{n}"), "policy": "gavai", "filterTypes": ["invoice.paid"]});
    let (s, b) = as_token(w, own, "POST", "/v1/endpoints", new(0)).await;
    assert_eq!(s, 201, "{b}");
    let app_a = ok(w, "GET", "/v1/applications/cust-a", json!({})).await;
    assert_eq!(
        (
            b["applicationId"].clone(),
            b["rateLimit"].clone(),
            b["maxInFlight"].clone()
        ),
        (app_a["id"].clone(), json!({"perSecond": 10.0}), json!(3))
    );
    assert!(b["secret"].as_str().is_some_and(|s| s.starts_with("whsec_")), "{b}");
    let (s, b) = as_token(
        w,
        own,
        "POST",
        "/v1/endpoints",
        json!({"url": "https://receiver.example/x", "policy": "gavai", "maxInFlight": 4}),
    )
    .await;
    assert_eq!((s, b["code"].clone()), (403, json!("portal_forbidden")), "{b}");
    let (s, b) = as_token(
        w,
        own,
        "POST",
        "/v1/endpoints",
        json!({"url": "https://receiver.example/x", "policy": "gavai", "applicationId": "cust-b"}),
    )
    .await;
    assert_eq!((s, b["code"].clone()), (403, json!("portal_forbidden")), "{b}");
    // Two held already (the scene's and this one): five racing creates for two slots.
    let creates = (1..=5).map(|n| as_token(w, own, "POST", "/v1/endpoints", new(n)));
    let answers = futures_util::future::join_all(creates).await;
    let made = answers.iter().filter(|(s, _)| *s == 201).count();
    let refused: Vec<&Value> = answers.iter().filter(|(s, _)| *s == 409).map(|(_, b)| b).collect();
    assert_eq!((made, refused.len()), (2, 3), "{answers:?}");
    assert!(
        refused
            .iter()
            .all(|b| b["detail"].as_str().is_some_and(|d| d.contains("maxEndpoints")))
    );
    let app = ok(w, "GET", "/v1/applications/cust-a", json!({})).await;
    assert_eq!(app["liveEndpoints"], json!(4));
    let (_, listed) = as_token(w, own, "GET", "/v1/endpoints", json!({})).await;
    assert_eq!(listed["items"].as_array().map(Vec::len), Some(4));
    // Deleting one frees its place.
    let first = listed["items"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["id"].as_str())
        .find(|id| *id != scene.ep_a)
        .unwrap_or_default()
        .to_owned();
    let (s, _) = as_token(w, own, "DELETE", &format!("/v1/endpoints/{first}"), json!({})).await;
    assert_eq!(s, 200);
    assert_eq!(
        ok(w, "GET", "/v1/applications/cust-a", json!({})).await["liveEndpoints"],
        json!(3)
    );
    let (s, b) = as_token(w, own, "POST", "/v1/endpoints", new(9)).await;
    assert_eq!(s, 201, "{b}");
    // Narrowed and read-only links add none.
    let (_, narrowed) = app_link(w, "cust-a", json!({"endpointIds": [scene.ep_a]})).await;
    let (s, b) = as_token(w, &narrowed, "POST", "/v1/endpoints", new(10)).await;
    assert_eq!((s, b["code"].clone()), (403, json!("portal_forbidden")), "{b}");
    let (_, b) = as_token(w, &narrowed, "GET", "/v1/endpoints", json!({})).await;
    assert_eq!(b["items"].as_array().map(|a| a.len()), Some(1));
    assert_eq!(b["items"][0]["id"], json!(scene.ep_a));
}

/// DELETE: the endpoint is revoked at once, its waiting deliveries settle, it
/// leaves every list, and its history stays readable.
#[tokio::test]
async fn a_deleted_endpoint_settles_what_waits_and_leaves_the_lists() {
    let w = World::new(vec![status(500)], 5).await;
    let ep = w.endpoint(json!("tanitar")).await;
    let done = w.event(&ep).await;
    w.step().await;
    let waiting = w.event(&ep).await;
    let (s, b) = w.call("DELETE", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!(
        (s, b["status"].clone(), b["deletedAt"].clone()),
        (
            200,
            json!("revoked"),
            json!(courier_core::Timestamp(common::T0.millis() + 5))
        ),
        "{b}"
    );
    for id in [&done, &waiting] {
        let d = ok(&w, "GET", &format!("/v1/deliveries/{id}"), json!({})).await;
        assert_eq!(
            (d["status"].clone(), d["deadReason"].clone()),
            (json!("failed"), json!("ENDPOINT_REVOKED")),
            "{d}"
        );
    }
    let (_, list) = w.call("GET", "/v1/endpoints", json!({})).await;
    assert_eq!(list["items"], json!([]));
    let (s, b) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!((s, b["status"].clone()), (200, json!("revoked")));
    let (s, b) = w
        .call("GET", &format!("/v1/endpoints/{ep}/deliveries"), json!({}))
        .await;
    assert_eq!((s, b["items"].as_array().map(Vec::len)), (200, Some(2)), "{b}");
    let (s, b) = w.call("DELETE", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!((s, b["code"].clone()), (404, json!("not_found")));
    // It takes no events from then on.
    let (s, b) = w
        .call("POST", "/v1/events", json!({"endpointId": ep, "payload": {}}))
        .await;
    assert_eq!((s, b["detail"].clone()), (404, json!("endpoint not found")), "{b}");
}

/// Every write made with a portal token is kept for the operator; reads are not.
#[tokio::test]
async fn portal_writes_are_in_the_activity_log() {
    let scene = Scene::new().await;
    let w = &scene.w;
    let own = &scene.credentials[1];
    let path = format!("/v1/endpoints/{}", scene.ep_a);
    as_token(w, own, "GET", &path, json!({})).await;
    let at = courier_app::ports::Clock::now(w.clock.as_ref());
    let (s, _) = as_token(
        w,
        own,
        "PATCH",
        &path,
        json!({"description": "ours", "url": "https://receiver.example/b"}),
    )
    .await;
    assert_eq!(s, 200);
    w.clock.advance_secs(1);
    let (s, _) = as_token(w, own, "POST", &format!("{path}/test"), json!({})).await;
    assert_eq!(s, 202);
    // Refused writes change nothing and are not kept.
    as_token(w, own, "PATCH", &path, json!({"applicationId": "cust-b"})).await;
    let log = ok(w, "GET", "/v1/applications/cust-a/portal-activity", json!({})).await;
    let items = log["items"].as_array().cloned().unwrap_or_default();
    let app = ok(w, "GET", "/v1/applications/cust-a", json!({})).await["id"].clone();
    // The link's id is the token's first part, `cpl_<hex>` as `pl_<hex>`.
    let link_id = own.split('.').next().map(|t| t.replacen("cpl_", "pl_", 1));
    let entry = |i: usize, method: &str, route: &str, path: String, fields: Value, status: u16, at| {
        json!({"id": items[i]["id"], "linkId": link_id, "applicationId": app, "method": method,
               "route": route, "path": path, "fields": fields, "status": status, "at": at})
    };
    assert_eq!(
        log,
        json!({"items": [
            entry(0, "POST", "POST /v1/endpoints/{id}/test", format!("{path}/test"), json!([]), 202, at.plus_secs(1)),
            entry(1, "PATCH", "PATCH /v1/endpoints/{id}", path.clone(), json!(["description", "url"]), 200, at),
        ], "nextCursor": null})
    );
    assert!(
        items
            .iter()
            .all(|a| a["id"].as_str().is_some_and(|l| l.starts_with("pa_")))
    );
    // B's log holds none of it.
    assert_eq!(
        ok(w, "GET", "/v1/applications/cust-b/portal-activity", json!({})).await["items"],
        json!([])
    );
}

/// A link's list of endpoints shows each one exactly as the key's read does.
#[tokio::test]
async fn a_links_endpoint_list_shows_the_endpoint_answer() {
    let scene = Scene::new().await;
    let w = &scene.w;
    let one = ok(w, "GET", &format!("/v1/endpoints/{}", scene.ep_a), json!({})).await;
    let (s, listed) = as_token(w, &scene.credentials[1], "GET", "/v1/endpoints", json!({})).await;
    assert_eq!(s, 200, "{listed}");
    assert_eq!(listed, json!({"items": [one], "nextCursor": null}));
}

/// The session tells the console what its link allows; the catalogue shows examples.
#[tokio::test]
async fn the_session_and_catalogue_say_what_a_link_may_do() {
    let scene = Scene::new().await;
    let w = &scene.w;
    ok(
        w,
        "PATCH",
        "/v1/event-types/invoice.paid",
        json!({"schema": {"type": "object", "required": ["amount"]}, "example": {"amount": 5}}),
    )
    .await;
    let (s, b) = w
        .call(
            "PATCH",
            "/v1/event-types/invoice.paid",
            json!({"example": {"total": 5}}),
        )
        .await;
    assert_eq!((s, b["code"].clone()), (400, json!("validation_failed")), "{b}");
    let (_, session) = as_token(w, &scene.credentials[3], "GET", "/v1/portal/session", json!({})).await;
    let app = ok(w, "GET", "/v1/applications/cust-a", json!({})).await;
    assert_eq!(session["applicationId"], app["id"]);
    assert_eq!(
        (
            session["applicationName"].clone(),
            session["endpointIds"].clone(),
            session["readOnly"].clone(),
            session["canCreateEndpoints"].clone(),
            session["presets"].clone(),
            session["customPolicies"].clone(),
            session["maxEndpoints"].clone(),
        ),
        (
            json!("A"),
            Value::Null,
            json!(true),
            json!(false),
            json!(["greatwait", "tanitar", "gavai", "smartchat"]),
            json!(false),
            json!(20)
        )
    );
    let (_, catalogue) = as_token(w, &scene.credentials[1], "GET", "/v1/event-types", json!({})).await;
    assert_eq!(catalogue["items"][0]["example"], json!({"amount": 5}));
}

#[tokio::test]
async fn a_portal_creates_and_edits_destinations_within_the_role_pattern() {
    let mut scene = Scene::new().await;
    scene.w.api.settings.destination_roles =
        courier_core::destination::RolePattern::from_setting(Some("arn:aws:iam::*:role/courier-destination-*"));
    let w = &scene.w;
    let own = &scene.credentials[1];
    let dest = |role: &str| {
        json!({"type": "sqs", "queueUrl": "https://sqs.eu-west-1.amazonaws.com/111122223333/orders",
            "roleArn": format!("arn:aws:iam::111122223333:role/{role}")})
    };
    let (s, b) = as_token(
        w,
        own,
        "POST",
        "/v1/endpoints",
        json!({"destination": dest("courier-destination-a"), "policy": "gavai"}),
    )
    .await;
    assert_eq!(s, 201, "{b}");
    let app_a = ok(w, "GET", "/v1/applications/cust-a", json!({})).await;
    // The portal's endpoint presents its own application's external id.
    assert_eq!(b["destination"]["externalId"], app_a["externalId"]);
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let (s, b) = as_token(
        w,
        own,
        "PATCH",
        &format!("/v1/endpoints/{id}"),
        json!({"destination": dest("admin")}),
    )
    .await;
    assert_eq!(s, 400, "{b}");
    assert!(
        b["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("`destination.roleArn`"),
        "{b}"
    );
    let (s, b) = as_token(
        w,
        own,
        "PATCH",
        &format!("/v1/endpoints/{id}"),
        json!({"destination": dest("courier-destination-b")}),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        b["destination"]["roleArn"],
        "arn:aws:iam::111122223333:role/courier-destination-b"
    );
}
