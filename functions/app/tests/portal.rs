//! Portal links through the API router: an API key makes and revokes them; the token
//! reads and manages only its endpoints, their deliveries and attempts (404 for the
//! rest), is refused on operator-only routes, and stops working when it expires or
//! is revoked.

mod common;

use common::{KEY, World, raw, status};
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
