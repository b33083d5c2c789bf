//! The console as the API router serves it: `GET /console` and its assets come from
//! `courier_console::serve` with no API key, other methods and other paths keep the
//! API's own answers.

use crate::common::{World, raw};

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

/// Who may frame the console is the deployment's setting, read once with the rest of
/// the configuration: allowed origins are written into the policy; a setting that
/// does not parse frames nowhere.
#[tokio::test]
async fn the_console_is_framed_by_the_configured_origins_only() {
    let mut w = World::new(vec![], 10).await;
    assert!(csp_of(&w.api).await.ends_with("frame-ancestors 'none'"));
    w.api.settings.frame_ancestors =
        courier_app::api::resources::console::frame_ancestors_setting(Some("'self' https://app.example.com"));
    assert!(
        csp_of(&w.api)
            .await
            .ends_with("frame-ancestors 'self' https://app.example.com")
    );
    w.api.settings.frame_ancestors =
        courier_app::api::resources::console::frame_ancestors_setting(Some("http://plain.example"));
    assert!(csp_of(&w.api).await.ends_with("frame-ancestors 'none'"));
}

async fn csp_of(api: &courier_app::api::Api) -> String {
    let r = api
        .handle(courier_app::api::ApiRequest {
            method: "GET".into(),
            path: "/console".into(),
            ..Default::default()
        })
        .await;
    header(&r.headers, "content-security-policy")
        .unwrap_or_default()
        .to_owned()
}

/// The console's own lists of statuses, presets and remediations (the filters, the
/// preset picker, the remediation texts) name exactly what the API answers.
#[tokio::test]
async fn the_consoles_lists_match_the_apis_names() {
    let w = World::new(vec![], 10).await;
    let js = courier_console::asset_path("app.js").unwrap_or_default();
    let r = w
        .api
        .handle(courier_app::api::ApiRequest {
            method: "GET".into(),
            path: js,
            ..Default::default()
        })
        .await;
    assert_eq!(r.status, 200);
    let source = String::from_utf8(r.body).unwrap_or_default();
    let quoted = |from: &str, to: &str| -> Vec<String> {
        let start = source
            .find(from)
            .map(|i| i + from.len())
            .unwrap_or_else(|| panic!("{from} not found"));
        let end = start + source[start..].find(to).unwrap_or_else(|| panic!("{to} after {from}"));
        source[start..end]
            .split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect()
    };
    let statuses: Vec<&str> = courier_app::domain::model::DeliveryStatus::ALL
        .iter()
        .map(|s| s.as_str())
        .collect();
    assert_eq!(quoted("const STATUSES = [", "];"), statuses);
    assert_eq!(quoted("const PRESETS = [", "];"), courier_core::policy::PRESET_NAMES);
    let remedies_start = source.find("const REMEDIES = {").expect("REMEDIES");
    let remedies_end = remedies_start + source[remedies_start..].find("};").expect("end of REMEDIES");
    let keys: Vec<&str> = source[remedies_start..remedies_end]
        .lines()
        .skip(1)
        .filter_map(|l| l.trim().split_once(": \"").map(|(k, _)| k))
        .collect();
    let remediations: Vec<&str> = courier_core::classify::Remediation::VARIANTS
        .iter()
        .map(|r| r.wire_name())
        .collect();
    assert_eq!(keys, remediations);
}
