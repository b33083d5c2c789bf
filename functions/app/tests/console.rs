//! The console as the API router serves it: `GET /console` and its assets come from
//! `courier_console::serve` with no API key, other methods and other paths keep the
//! API's own answers.

mod common;

use common::{World, raw};

fn header<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

#[tokio::test]
async fn the_router_serves_the_console_without_a_key() {
    let w = World::new(vec![], 10).await;
    let r = w
        .api
        .handle(courier_app::api::ApiRequest {
            method: "GET".into(),
            path: "/console".into(),
            ..Default::default()
        })
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body, courier_console::index_html().as_bytes());
    assert_eq!(header(&r.headers, "cache-control"), Some("no-store"));
    assert!(header(&r.headers, "content-security-policy").is_some_and(|c| c.contains("script-src 'self'")));

    let js = courier_console::asset_path("app.js").unwrap_or_default();
    let (status, _, headers) = raw(&w, "GET", &js, None, &[], b"").await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("text/javascript; charset=utf-8"));

    let (status, body, _) = raw(&w, "GET", "/console/policy/show", Some("policy=gavai"), &[], b"").await;
    assert_eq!(status, 200);
    assert_eq!(body["ladder"].as_array().map(Vec::len), Some(6));

    let (status, _, headers) = raw(&w, "HEAD", "/console/", None, &[], b"").await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("text/html; charset=utf-8"));
}

#[tokio::test]
async fn other_methods_and_paths_keep_the_apis_answers() {
    let w = World::new(vec![], 10).await;
    for (method, path) in [
        ("POST", "/console"),
        ("DELETE", "/console/"),
        ("GET", "/consoles"),
        ("GET", "/"),
    ] {
        let (status, body, headers) = raw(&w, method, path, None, &[], b"").await;
        assert_eq!(status, 404, "{method} {path}");
        assert_eq!(body["code"], "not_found", "{method} {path}");
        assert_eq!(header(&headers, "content-type"), Some("application/problem+json"));
    }
    let (status, body, _) = raw(&w, "GET", "/console/assets/app.js", None, &[], b"").await;
    assert_eq!(
        (status, body),
        (404, serde_json::Value::Null),
        "an unhashed name is the console's 404"
    );
}
