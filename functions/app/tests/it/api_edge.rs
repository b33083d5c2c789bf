//! The API's edge under hostile input: rate limits that spellings of a key, failed
//! authentications and completion reports cannot escape, completion tokens checked
//! first and alike for every bad one, and the body limit on every route, all through
//! the router as HTTP requests.

use crate::common::{KEY, World, raw, status};
use axum::body::Body;
use axum::http::Request;
use courier_app::api::ClientAddr;
use courier_app::api::http::limits::MAX_BODY_BYTES;
use serde_json::{Value, json};
use std::net::IpAddr;
use std::sync::Arc;
use tower::ServiceExt;

/// One request through the router, from `source`: status, Allow and the body.
async fn from(w: &World, source: Option<IpAddr>, method: &str, path: &str, headers: &[(&str, &str)]) -> (u16, Value) {
    let mut req = Request::builder().method(method).uri(path);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let mut req = req.body(Body::empty()).expect("request");
    if let Some(ip) = source {
        req.extensions_mut().insert(ClientAddr(ip));
    }
    let resp = Arc::new(w.api.clone())
        .router()
        .oneshot(req)
        .await
        .unwrap_or_else(|e| match e {});
    let status = resp.status().as_u16();
    let body = axum::body::to_bytes(resp.into_body(), usize::MAX)
        .await
        .expect("response body");
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

fn ip(last: u8) -> Option<IpAddr> {
    Some(IpAddr::from([192, 0, 2, last]))
}

#[tokio::test]
async fn every_spelling_of_a_key_draws_on_one_bucket() {
    let mut w = World::new(vec![], 0).await;
    w.api.settings.rate_per_second = 1;
    w.api.settings.rate_burst = 3;
    let spellings = [
        format!("Bearer {KEY}"),
        format!("bearer {KEY}"),
        format!("BEARER  {KEY} "),
        format!("  Bearer\t{KEY}"),
    ];
    let mut statuses = vec![];
    for auth in &spellings {
        let (s, _, _) = raw(&w, "GET", "/v1/endpoints", None, &[("authorization", auth)], b"").await;
        statuses.push(s);
    }
    // Tab after the scheme is no separator: that spelling is refused as unauthenticated.
    assert_eq!(statuses, [200, 200, 200, 401]);
    let (s, b, h) = raw(
        &w,
        "GET",
        "/v1/endpoints",
        None,
        &[("authorization", &format!("bEaReR {KEY}"))],
        b"",
    )
    .await;
    assert_eq!((s, b["code"].as_str()), (429, Some("rate_limited")));
    assert!(h.iter().any(|(k, v)| k == "retry-after" && v == "1"), "{h:?}");
}

#[tokio::test]
async fn failed_authentications_are_limited_per_source_address() {
    let mut w = World::new(vec![], 0).await;
    w.api.settings.rate_per_second = 1;
    w.api.settings.rate_burst = 2;
    let wrong = [("authorization", "Bearer ck_guess")];
    let mut seen = vec![];
    for _ in 0..3 {
        seen.push(from(&w, ip(1), "GET", "/v1/endpoints", &wrong).await.0);
    }
    assert_eq!(seen, [401, 401, 429]);
    // Even the right key waits while its source is over its failures...
    let right = format!("Bearer {KEY}");
    let (s, b) = from(&w, ip(1), "GET", "/v1/endpoints", &[("authorization", &right)]).await;
    assert_eq!((s, b["code"].as_str()), (429, Some("rate_limited")));
    // ...while another source is not affected, and the first recovers with time.
    assert_eq!(from(&w, ip(2), "GET", "/v1/endpoints", &wrong).await.0, 401);
    assert_eq!(
        from(&w, ip(2), "GET", "/v1/endpoints", &[("authorization", &right)])
            .await
            .0,
        200
    );
    w.clock.advance_millis(1000);
    assert_eq!(
        from(&w, ip(1), "GET", "/v1/endpoints", &[("authorization", &right)])
            .await
            .0,
        200
    );
}

async fn report(w: &World, attempt: &str, token: &str, body: &str) -> (u16, Value) {
    let (s, b, _) = raw(
        w,
        "POST",
        &format!("/v1/attempts/{attempt}/complete"),
        None,
        &[
            ("webhook-completion-token", token),
            ("content-type", "application/json"),
        ],
        body.as_bytes(),
    )
    .await;
    (s, b)
}

#[tokio::test]
async fn every_bad_completion_token_gets_the_same_answer_before_anything_else() {
    let w = World::new(vec![status(202)], 0).await;
    let (waiting, att, token) = w.waiting_attempt().await;
    // A settled delivery the token could name too.
    let ep = w.endpoint(json!("greatwait")).await;
    *w.http.script.lock().unwrap_or_else(|e| e.into_inner()) = vec![status(200)].into();
    let settled = w.event(&ep).await;
    w.step().await;
    let unknown = "dlv_01JZZZZZZZZZZZZZZZZZZZZZZZ";
    let bad_tokens = [
        format!("{waiting}.00"),
        format!("{settled}.00"),
        format!("{unknown}.00"),
        "not-a-token".to_owned(),
    ];
    let ok = r#"{"outcome": "succeeded"}"#;
    let mut answers = vec![];
    for t in &bad_tokens {
        answers.push(report(&w, &att, t, ok).await);
        // Checked before the id and the body: a malformed id or body changes nothing.
        answers.push(report(&w, "att_bad", t, ok).await);
        answers.push(report(&w, &att, t, r#"{"outcome": "maybe"}"#).await);
    }
    let first = answers[0].clone();
    assert_eq!((first.0, first.1["code"].as_str()), (401, Some("unauthorized")));
    for a in &answers {
        assert_eq!(a, &first);
    }
    // The right token is still good, once; a repeat is told it came twice.
    assert_eq!(report(&w, &att, &token, r#"{"outcome": "maybe"}"#).await.0, 400);
    assert_eq!(report(&w, &att, &token, ok).await.0, 200);
    let (s, b) = report(&w, &att, &token, ok).await;
    assert_eq!((s, b["code"].as_str()), (409, Some("conflict")));
    // And the bad ones still read as they did.
    assert_eq!(report(&w, &att, &bad_tokens[0], ok).await, first);
}

#[tokio::test]
async fn completion_reports_are_limited_per_source_address() {
    let mut w = World::new(vec![status(202)], 0).await;
    let (_, att, _) = w.waiting_attempt().await;
    w.api.settings.rate_per_second = 1;
    w.api.settings.rate_burst = 2;
    let path = format!("/v1/attempts/{att}/complete");
    let bad = [("webhook-completion-token", "dlv_01JZZZZZZZZZZZZZZZZZZZZZZZ.00")];
    let mut seen = vec![];
    for _ in 0..3 {
        seen.push(from(&w, ip(7), "POST", &path, &bad).await.0);
    }
    assert_eq!(seen, [401, 401, 429]);
    assert_eq!(from(&w, ip(8), "POST", &path, &bad).await.0, 401);
}

/// Method, path, headers.
type Case<'a> = (&'a str, String, Vec<(&'a str, &'a str)>);

#[tokio::test]
async fn any_body_over_the_limit_is_413_before_anything_reads_it() {
    let w = World::new(vec![], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let auth = format!("Bearer {KEY}");
    let big = vec![b'x'; MAX_BODY_BYTES + 1];
    let cases: Vec<Case> = vec![
        // Not JSON, on a route that reads JSON.
        (
            "POST",
            "/v1/endpoints".into(),
            vec![("authorization", &auth), ("content-type", "text/plain")],
        ),
        // Routes that read no body at all.
        (
            "POST",
            format!("/v1/endpoints/{ep}/disable"),
            vec![("authorization", &auth)],
        ),
        ("GET", "/v1/endpoints".into(), vec![("authorization", &auth)]),
        // Without credentials, and on a route that does not exist.
        ("POST", "/v1/events".into(), vec![]),
        ("POST", "/v1/nothing".into(), vec![]),
        ("GET", "/healthz".into(), vec![]),
    ];
    for (method, path, headers) in &cases {
        let (s, b, _) = raw(&w, method, path, None, headers, &big).await;
        assert_eq!(
            (s, b["code"].as_str()),
            (413, Some("payload_too_large")),
            "{method} {path}: {b}"
        );
    }
    // The endpoint was not disabled by the refused call.
    let (s, b) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!((s, b["status"].as_str()), (200, Some("active")));
    // A declared length over the limit is refused without reading the body.
    let len = (MAX_BODY_BYTES + 1).to_string();
    let (s, b) = from(&w, None, "POST", "/v1/events", &[("content-length", &len)]).await;
    assert_eq!((s, b["code"].as_str()), (413, Some("payload_too_large")));
}

#[tokio::test]
async fn unknown_routes_are_404_problems_and_405_names_the_methods_in_allow() {
    let w = World::new(vec![], 0).await;
    let (s, b, h) = raw(&w, "GET", "/v2/anything", None, &[], b"").await;
    assert_eq!((s, b["code"].as_str()), (404, Some("not_found")));
    assert!(
        h.iter()
            .any(|(k, v)| k == "content-type" && v == "application/problem+json")
    );
    let auth = format!("Bearer {KEY}");
    let (s, b, h) = raw(&w, "DELETE", "/v1/endpoints", None, &[("authorization", &auth)], b"").await;
    assert_eq!((s, b["detail"].as_str()), (405, Some("allowed methods: GET, POST")));
    assert!(h.iter().any(|(k, v)| k == "allow" && v == "GET, POST"), "{h:?}");
    let (s, _, h) = raw(&w, "PUT", "/healthz", None, &[], b"").await;
    assert_eq!(s, 405);
    assert!(h.iter().any(|(k, v)| k == "allow" && v == "GET, HEAD"), "{h:?}");
}
