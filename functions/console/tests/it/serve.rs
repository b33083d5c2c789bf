//! The console's serving contract through its public seam, `serve`: the index and
//! hashed assets with their cache and security headers, what is not the console's,
//! and the policy routes' answers (the same numbers as the policy core's own).

use courier_console::{Reply, asset_path, index_html, serve};
use courier_core::Policy;
use courier_core::decide::LatencyClass;
use courier_core::rng::SplitMix64;
use courier_core::simulate::{self, SimOptions};
use serde_json::Value;

fn header<'a>(r: &'a Reply, name: &str) -> Option<&'a str> {
    r.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn get(path: &str, query: Option<&str>) -> Reply {
    serve(path, query).unwrap_or_else(|| panic!("{path} should be the console's"))
}

fn json(r: &Reply) -> Value {
    serde_json::from_slice(&r.body).unwrap_or_else(|e| panic!("not JSON: {e}"))
}

const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn assert_security_headers(r: &Reply) {
    assert_eq!(header(r, "content-security-policy"), Some(CSP));
    assert_eq!(header(r, "x-content-type-options"), Some("nosniff"));
    assert_eq!(header(r, "x-frame-options"), Some("DENY"));
    assert_eq!(header(r, "referrer-policy"), Some("no-referrer"));
}

#[test]
fn the_index_is_never_cached_and_names_the_hashed_assets() {
    for path in ["/console", "/console/", "/console/index.html"] {
        let r = get(path, None);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(header(&r, "content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(header(&r, "cache-control"), Some("no-store"));
        assert_security_headers(&r);
        assert_eq!(r.body, index_html().as_bytes());
    }
    let html = index_html();
    let js = asset_path("app.js").unwrap_or_default();
    let css = asset_path("app.css").unwrap_or_default();
    assert!(
        html.contains(&format!("<script src=\"{js}\" defer></script>")),
        "{html}"
    );
    assert!(
        html.contains(&format!("<link rel=\"stylesheet\" href=\"{css}\">")),
        "{html}"
    );
    assert!(!html.contains("{{"), "every placeholder is filled: {html}");
}

#[test]
fn hashed_assets_are_served_immutable_with_their_types() {
    for (name, ty) in [
        ("app.js", "text/javascript; charset=utf-8"),
        ("app.css", "text/css; charset=utf-8"),
    ] {
        let path = asset_path(name).unwrap_or_default();
        let (stem, ext) = name.split_once('.').unwrap_or_default();
        let file = path.strip_prefix("/console/assets/").unwrap_or_default();
        let parts: Vec<&str> = file.split('.').collect();
        assert_eq!(parts.len(), 3, "{file}");
        assert_eq!((parts[0], parts[2]), (stem, ext));
        assert_eq!(parts[1].len(), 16);
        assert!(parts[1].bytes().all(|b| b.is_ascii_hexdigit()), "{file}");
        let r = get(&path, None);
        assert_eq!(r.status, 200);
        assert_eq!(header(&r, "content-type"), Some(ty));
        assert_eq!(header(&r, "cache-control"), Some("public, max-age=31536000, immutable"));
        assert_security_headers(&r);
        assert!(!r.body.is_empty());
    }
    assert_eq!(asset_path("nope.js"), None);
}

#[test]
fn unknown_or_stale_asset_names_are_not_found() {
    for path in [
        "/console/assets/app.js",
        "/console/assets/app.0000000000000000.js",
        "/console/assets/../Cargo.toml",
        "/console/nothing",
    ] {
        let r = get(path, None);
        assert_eq!(r.status, 404, "{path}");
        assert_eq!(header(&r, "cache-control"), Some("no-store"));
        assert_security_headers(&r);
    }
}

#[test]
fn paths_outside_the_console_are_left_to_the_api() {
    for path in ["/", "/v1/endpoints", "/consoles", "/console.js", "/healthz"] {
        assert_eq!(serve(path, None), None, "{path}");
    }
}

/// The app builds its pages from elements and text nodes only: no HTML parsing of
/// anything, no string-to-code, nothing fetched from elsewhere.
#[test]
fn the_script_never_parses_markup_or_evaluates_strings() {
    let r = get(&asset_path("app.js").unwrap_or_default(), None);
    let js = String::from_utf8(r.body).unwrap_or_default();
    for banned in [
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "eval(",
        "new Function",
        "localStorage",
        "sessionStorage",
        "document.cookie",
        "http://",
        "https://",
        "console.log",
    ] {
        let hits: Vec<&str> = js
            .lines()
            .filter(|l| l.contains(banned) && !l.contains("http://www.w3.org/2000/svg"))
            .collect();
        assert!(hits.is_empty(), "app.js uses {banned}: {hits:?}");
    }
    let html = index_html();
    assert_eq!(html.matches("<script").count(), 1, "one script, by src: {html}");
    assert!(!html.contains("style="), "no inline style: {html}");
    assert!(!html.contains(" on"), "no inline handlers: {html}");
}

#[test]
fn policy_show_answers_the_cores_ladder() {
    for (query, policy, latency) in [
        ("policy=tanitar", Policy::tanitar(), LatencyClass::Realtime),
        (
            "policy=%22greatwait%22&latencyClass=bulk",
            Policy::greatwait(),
            LatencyClass::Bulk,
        ),
    ] {
        let r = get("/console/policy/show", Some(query));
        assert_eq!(r.status, 200, "{query}: {:?}", String::from_utf8_lossy(&r.body));
        assert_eq!(header(&r, "content-type"), Some("application/json"));
        let expected = serde_json::to_value(simulate::show(&policy, latency)).unwrap_or_default();
        assert_eq!(json(&r), expected, "{query}");
    }
    // Tanitar: 1 min + 5 min + 30 min + 2 h + 6 h + 12 h + 24 h = 44 h 36 min.
    let r = json(&get("/console/policy/show", Some("policy=tanitar")));
    assert_eq!(r["recoveryWindowSeconds"], serde_json::json!([160_560.0, 160_560.0]));
    assert_eq!(r["ladder"].as_array().map(Vec::len), Some(8));
}

#[test]
fn policy_show_takes_a_custom_policy() {
    let custom = r#"{"base":"gavai","name":"fast","waitsSeconds":[1,2]}"#;
    let q = format!("policy={}", percent(custom));
    let r = get("/console/policy/show", Some(&q));
    assert_eq!(r.status, 200);
    let body = json(&r);
    let waits: Vec<f64> = body["ladder"]
        .as_array()
        .map(|l| l.iter().filter_map(|r| r["minWaitSeconds"].as_f64()).collect())
        .unwrap_or_default();
    assert_eq!(waits, vec![0.0, 1.0, 2.0, 2.0, 2.0, 2.0]);
    assert_eq!(body["policy"]["name"], "fast");
}

#[test]
fn policy_simulate_answers_the_cores_report() {
    let r = get(
        "/console/policy/simulate",
        Some("policy=greatwait&outcomes=503,503,429:120,timeout,200&seed=7"),
    );
    assert_eq!(r.status, 200, "{:?}", String::from_utf8_lossy(&r.body));
    let tokens = simulate::parse_outcomes("503,503,429:120,timeout,200").unwrap_or_default();
    let report = simulate::simulate(
        &Policy::greatwait(),
        &tokens,
        SimOptions {
            attempt_duration_ms: 0,
            latency_class: LatencyClass::Realtime,
        },
        &mut SplitMix64::new(7),
    );
    assert_eq!(json(&r), serde_json::to_value(report).unwrap_or_default());
    assert_eq!(json(&r)["final"]["status"], "succeeded");
}

#[test]
fn bad_policy_queries_are_problems_naming_the_parameter() {
    let cases = [
        ("/console/policy/show", "", "query parameter `policy` is required"),
        ("/console/policy/show", "policy=nosuch", "query parameter `policy`"),
        (
            "/console/policy/show",
            "policy=%7B%22base%22%3A%22gavai%22%2C%22waitsSeconds%22%3A%5B-2%5D%7D",
            "field `waitsSeconds[0]`",
        ),
        (
            "/console/policy/show",
            "policy=tanitar&latencyClass=soon",
            "`latencyClass`",
        ),
        (
            "/console/policy/show",
            "policy=tanitar&color=red",
            "unknown query parameter `color`",
        ),
        ("/console/policy/show", "policy=tanitar&policy=gavai", "given twice"),
        (
            "/console/policy/simulate",
            "policy=tanitar",
            "query parameter `outcomes` is required",
        ),
        (
            "/console/policy/simulate",
            "policy=tanitar&outcomes=999",
            "query parameter `outcomes`",
        ),
        (
            "/console/policy/simulate",
            "policy=tanitar&outcomes=503&seed=-1",
            "`seed`",
        ),
        (
            "/console/policy/simulate",
            "policy=tanitar&outcomes=503&attemptDurationMs=999999",
            "`attemptDurationMs`",
        ),
    ];
    for (path, query, needle) in cases {
        let r = get(path, Some(query));
        assert_eq!(r.status, 400, "{path}?{query}");
        assert_eq!(header(&r, "content-type"), Some("application/problem+json"));
        let body = json(&r);
        assert_eq!(body["code"], "validation_failed");
        let detail = body["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(needle), "{path}?{query}: {detail}");
    }
    let long = format!("policy={}", "a".repeat(20_000));
    assert_eq!(get("/console/policy/show", Some(&long)).status, 400);
    let many = format!("policy=tanitar&outcomes={}", vec!["503"; 101].join(","));
    assert_eq!(get("/console/policy/simulate", Some(&many)).status, 400);
}

fn percent(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}
