//! `docs/openapi.json` against the implementation: the document is OpenAPI 3.1 with
//! every `$ref` resolving; it documents exactly the operations and statuses of
//! `api::ROUTES`; the router really serves every entry of that table (and answers 405
//! for the other methods of those paths); and every status a request provokes here is
//! one the table (hence the document) lists for that route.

use crate::common::operations::{ROUTES, Route};
use crate::common::{KEY, T0, World, status};
use async_trait::async_trait;
use courier_app::api::ApiRequest;
use courier_app::ports::{AdmissionRefusal, Clock, UrlAdmission};
use courier_core::ids::{AttemptId, DeliveryId};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

const METHODS: [&str; 8] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const UNKNOWN_EP: &str = "ep_00000000000000000000000000";
const UNKNOWN_DLV: &str = "dlv_00000000000000000000000000";
const UNKNOWN_ATT: &str = "att_00000000000000000000000000";

fn doc() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// Resolves a local `$ref` (`#/a/b~1c`); anything else resolves to nothing.
fn resolve<'a>(doc: &'a Value, reference: &str) -> Option<&'a Value> {
    doc.pointer(reference.strip_prefix('#')?)
}

/// Follows `$ref`s until a value without one.
fn deref<'a>(doc: &'a Value, mut v: &'a Value) -> &'a Value {
    for _ in 0..16 {
        match v.get("$ref").and_then(Value::as_str) {
            Some(r) => v = resolve(doc, r).unwrap_or_else(|| panic!("unresolved $ref {r}")),
            None => return v,
        }
    }
    panic!("$ref chain too long at {v}")
}

fn collect_refs(v: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                if k == "$ref" {
                    out.push((at.to_owned(), child.as_str().unwrap_or("<not a string>").to_owned()));
                } else {
                    collect_refs(child, &format!("{at}/{k}"), out);
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                collect_refs(child, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn route(method: &str, template: &str) -> &'static Route {
    ROUTES
        .iter()
        .find(|r| r.method == method && r.path == template)
        .unwrap_or_else(|| panic!("{method} {template} is not in ROUTES"))
}

fn operation<'a>(doc: &'a Value, r: &Route) -> &'a Value {
    doc["paths"][r.path]
        .get(r.method.to_ascii_lowercase())
        .unwrap_or_else(|| panic!("{} {} is not documented", r.method, r.path))
}

fn placeholders(template: &str) -> BTreeSet<String> {
    template
        .split('/')
        .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
        .map(str::to_owned)
        .collect()
}

/// Whether a concrete path is an instance of a template.
fn matches_template(template: &str, path: &str) -> bool {
    let t: Vec<&str> = template.split('/').collect();
    let p: Vec<&str> = path.split('/').collect();
    t.len() == p.len()
        && t.iter()
            .zip(&p)
            .all(|(t, p)| if t.starts_with('{') { !p.is_empty() } else { t == p })
}

#[test]
fn committed_document_is_the_generated_one() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = courier_app::api::openapi::document_json();
    assert!(
        committed == generated,
        "docs/openapi.json is not the document the code generates; regenerate it with `make openapi` \
         (cargo run -q -p courier-app --features openapi --bin courier-openapi > docs/openapi.json)"
    );
}

#[test]
fn document_is_openapi_3_1_and_every_ref_resolves() {
    let doc = doc();
    let version = doc["openapi"].as_str().unwrap_or_default();
    assert!(version.starts_with("3.1."), "openapi is {version:?}");
    assert_eq!(doc["info"]["title"], "Courier API");
    assert!(doc["info"]["version"].as_str().is_some_and(|v| !v.is_empty()));
    assert_eq!(doc["servers"][0]["url"], "http://127.0.0.1:3000");
    let scheme = &doc["components"]["securitySchemes"]["apiKey"];
    assert_eq!((&scheme["type"], &scheme["scheme"]), (&json!("http"), &json!("bearer")));
    assert_eq!(doc["security"], json!([{"apiKey": []}]));

    // The resolver itself: a real pointer resolves, a wrong or remote one does not.
    assert!(resolve(&doc, "#/components/schemas/Problem").is_some());
    assert!(resolve(&doc, "#/components/schemas/NoSuchSchema").is_none());
    assert!(resolve(&doc, "other.json#/components/schemas/Problem").is_none());

    let mut refs = vec![];
    collect_refs(&doc, "#", &mut refs);
    assert!(refs.len() > 100, "only {} $refs found", refs.len());
    let unresolved: Vec<_> = refs.iter().filter(|(_, r)| resolve(&doc, r).is_none()).collect();
    assert!(unresolved.is_empty(), "unresolved $refs (at, ref): {unresolved:?}");

    // Every component is used somewhere (no dead schema left behind).
    let used: BTreeSet<&str> = refs.iter().map(|(_, r)| r.as_str()).collect();
    for kind in ["schemas", "parameters", "responses", "headers"] {
        for name in doc["components"][kind]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| k)
        {
            let r = format!("#/components/{kind}/{name}");
            assert!(used.contains(r.as_str()), "{r} is never referenced");
        }
    }

    let problem = &doc["components"]["schemas"]["Problem"];
    let props: BTreeSet<&str> = problem["properties"]
        .as_object()
        .map(|m| m.keys().map(String::as_str).collect())
        .unwrap_or_default();
    assert_eq!(
        props,
        BTreeSet::from([
            "type",
            "title",
            "status",
            "code",
            "detail",
            "retryAfterSeconds",
            "pointer"
        ])
    );
    assert_eq!(
        problem["required"],
        json!(["type", "title", "status", "code", "detail"])
    );
}

#[test]
fn routes_table_and_document_agree() {
    let doc = doc();
    let mut table = BTreeSet::new();
    for r in ROUTES.iter() {
        assert!(
            table.insert((r.method, r.path)),
            "{} {} is twice in ROUTES",
            r.method,
            r.path
        );
        assert!(
            r.statuses.windows(2).all(|w| w[0] < w[1]),
            "{} {}: statuses must be ascending and unique",
            r.method,
            r.path
        );
        assert!(
            r.statuses.iter().any(|s| (200..300).contains(s)),
            "{} {}: no success status",
            r.method,
            r.path
        );
        let op = operation(&doc, r);
        let documented: BTreeSet<u16> = op["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{} {}: no responses", r.method, r.path))
            .keys()
            .map(|k| {
                k.parse()
                    .unwrap_or_else(|_| panic!("{} {}: response key {k:?}", r.method, r.path))
            })
            .collect();
        let listed: BTreeSet<u16> = r.statuses.iter().copied().collect();
        assert_eq!(documented, listed, "{} {}: documented vs ROUTES", r.method, r.path);
        assert!(op["summary"].as_str().is_some_and(|s| !s.is_empty()));
        assert!(op["operationId"].as_str().is_some_and(|s| !s.is_empty()));
        // Every error answer is a problem document.
        for (code, resp) in op["responses"].as_object().into_iter().flatten() {
            let resp = deref(&doc, resp);
            let content = &resp["content"];
            if code.starts_with('2') {
                continue;
            }
            if r.method == "HEAD" {
                assert!(content.is_null(), "HEAD answers carry no body");
                continue;
            }
            assert_eq!(
                content["application/problem+json"]["schema"]["$ref"], "#/components/schemas/Problem",
                "{} {} {code}",
                r.method, r.path
            );
        }
    }
    // No stale operations in the document.
    let mut documented_ops = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (key, _) in item.as_object().into_iter().flatten() {
            if METHODS.contains(&key.as_str()) {
                documented_ops.insert((key.to_ascii_uppercase(), path.clone()));
            } else {
                assert_eq!(key, "parameters", "{path}: unexpected key {key}");
            }
        }
    }
    let table_ops: BTreeSet<(String, String)> = table.iter().map(|(m, p)| (m.to_string(), p.to_string())).collect();
    assert_eq!(documented_ops, table_ops);
    assert_eq!(ROUTES.len(), 52);
}

#[test]
fn document_details_follow_the_code() {
    let doc = doc();
    let unauthenticated = BTreeSet::from([
        ("GET", "/healthz"),
        ("HEAD", "/healthz"),
        ("POST", "/v1/attempts/{attemptId}/complete"),
    ]);
    let with_body: BTreeMap<(&str, &str), bool> = BTreeMap::from([
        (("POST", "/v1/endpoints"), true),
        (("PATCH", "/v1/endpoints/{id}"), true),
        (("POST", "/v1/events"), true),
        (("POST", "/v1/endpoints/{id}/enable"), false),
        (("POST", "/v1/endpoints/{id}/secrets/rotate"), false),
        (("POST", "/v1/endpoints/{id}/replay"), true),
        (("POST", "/v1/deliveries/{id}/redeliver"), false),
        (("POST", "/v1/attempts/{attemptId}/complete"), true),
        (("POST", "/v1/portal-links"), true),
        (("POST", "/v1/applications/{id}/portal-links"), false),
        (("POST", "/v1/events/batch"), true),
        (("POST", "/v1/applications"), true),
        (("PATCH", "/v1/applications/{id}"), true),
        (("POST", "/v1/event-types"), true),
        (("PATCH", "/v1/event-types/{name}"), true),
        (("POST", "/v1/schedules"), true),
        (("PUT", "/v1/schedules/{id}"), true),
    ]);
    let idempotency: BTreeMap<(&str, &str), bool> = BTreeMap::from([
        (("POST", "/v1/events"), false),
        (("POST", "/v1/endpoints/{id}/enable"), false),
        (("POST", "/v1/endpoints/{id}/replay"), true),
        (("POST", "/v1/deliveries/{id}/redeliver"), true),
        (("POST", "/v1/schedules"), true),
    ]);
    for r in ROUTES.iter() {
        let key = (r.method, r.path);
        let op = operation(&doc, r);
        let open = unauthenticated.contains(&key);
        if open {
            assert_eq!(op["security"], json!([]), "{key:?}");
            // Completion reports are limited per source address; health checks not at all.
            let limited = r.path == "/v1/attempts/{attemptId}/complete";
            assert_eq!(r.statuses.contains(&429), limited, "{key:?}");
        } else {
            assert!(op.get("security").is_none(), "{key:?} uses the global bearer scheme");
            assert!(r.statuses.contains(&401) && r.statuses.contains(&429), "{key:?}");
        }
        assert!(r.statuses.contains(&503), "{key:?} touches storage");

        // Parameters: path-level and operation-level, resolved.
        let params: Vec<&Value> = doc["paths"][r.path]["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(op["parameters"].as_array().into_iter().flatten())
            .map(|p| deref(&doc, p))
            .collect();
        let path_params: BTreeSet<String> = params
            .iter()
            .filter(|p| p["in"] == "path")
            .map(|p| {
                assert_eq!(p["required"], true);
                p["name"].as_str().unwrap_or_default().to_owned()
            })
            .collect();
        assert_eq!(path_params, placeholders(r.path), "{key:?}");
        for p in params.iter().filter(|p| p["in"] == "path") {
            let pattern = deref(&doc, &p["schema"])["pattern"].as_str().unwrap_or_default();
            if r.path.starts_with("/v1/portal-links/") {
                assert_eq!(pattern, "^pl_[0-9a-f]{24}$", "{key:?}");
                continue;
            }
            if r.path.starts_with("/v1/applications/") {
                // An `app_` id or a uid: both are made of these characters.
                assert_eq!(pattern, "^[A-Za-z0-9._-]{1,256}$", "{key:?}");
                continue;
            }
            if r.path.starts_with("/v1/event-types/") {
                assert_eq!(pattern, "^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$", "{key:?}");
                continue;
            }
            let prefix = match (p["name"].as_str(), r.path.split('/').nth(2)) {
                (Some("attemptId"), _) => "att_",
                (_, Some("endpoints")) => "ep_",
                (_, Some("deliveries")) => "dlv_",
                (_, Some("events")) => "evt_",
                (_, Some("schedules")) => "sch_",
                other => panic!("{key:?}: unexpected path parameter {other:?}"),
            };
            assert_eq!(pattern, format!("^{prefix}[0-9A-HJKMNP-TV-Z]{{26}}$"), "{key:?}");
        }
        let idem: Vec<&&Value> = params
            .iter()
            .filter(|p| p["in"] == "header" && p["name"] == "Idempotency-Key")
            .collect();
        match idempotency.get(&key) {
            Some(required) => {
                assert_eq!(idem.len(), 1, "{key:?}");
                assert_eq!(idem[0]["required"], *required, "{key:?}");
            }
            None => assert!(idem.is_empty(), "{key:?} takes no Idempotency-Key"),
        }
        let token: Vec<&&Value> = params
            .iter()
            .filter(|p| p["in"] == "header" && p["name"] == "webhook-completion-token")
            .collect();
        if r.path == "/v1/attempts/{attemptId}/complete" {
            assert_eq!(token.len(), 1);
            assert_eq!(token[0]["required"], true);
        } else {
            assert!(token.is_empty(), "{key:?}");
        }

        // Request bodies: exactly where the code parses one, closed like deny_unknown_fields.
        match with_body.get(&key) {
            Some(required) => {
                let rb = deref(&doc, &op["requestBody"]);
                assert_eq!(rb["required"].as_bool().unwrap_or(false), *required, "{key:?}");
                // Typed bodies are closed like deny_unknown_fields; the ones still
                // read as free JSON (no wire type yet) have no schema of their own.
                let schema = deref(&doc, &rb["content"]["application/json"]["schema"]);
                if schema.get("properties").is_some() {
                    assert_eq!(schema["type"], "object", "{key:?}");
                    assert_eq!(schema["additionalProperties"], false, "{key:?}");
                }
                assert!(r.statuses.contains(&400) && r.statuses.contains(&413) && r.statuses.contains(&415));
            }
            None => {
                assert!(op.get("requestBody").is_none(), "{key:?} takes no body");
                assert!(!r.statuses.contains(&413) && !r.statuses.contains(&415), "{key:?}");
            }
        }
    }

    let schemas = &doc["components"]["schemas"];
    let required = |name: &str| schemas[name]["required"].clone();
    assert_eq!(required("ApplicationIn"), json!(["name"]));
    assert_eq!(required("EventTypeIn"), json!(["name"]));
    for name in ["ApplicationPatch", "EventTypePatch"] {
        assert!(
            schemas[name].get("required").is_none(),
            "{name}: every field is optional"
        );
    }
}

/// One request, with the template it is meant to hit.
#[derive(Clone)]
struct Call {
    method: &'static str,
    template: &'static str,
    path: String,
    query: Option<String>,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

struct Answer {
    status: u16,
    body: Value,
    headers: Vec<(String, String)>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

impl Call {
    fn new(method: &'static str, template: &'static str, path: impl Into<String>) -> Call {
        let path = path.into();
        assert!(
            matches_template(template, &path),
            "{path} is not an instance of {template}"
        );
        Call {
            method,
            template,
            path,
            query: None,
            headers: vec![("authorization".into(), format!("Bearer {KEY}"))],
            body: vec![],
        }
    }
    /// A request to any path, for checking the router's own misses.
    fn unchecked(method: &'static str, path: &'static str) -> Call {
        Call {
            method,
            template: path,
            path: path.to_owned(),
            query: None,
            headers: vec![("authorization".into(), format!("Bearer {KEY}"))],
            body: vec![],
        }
    }
    fn header(mut self, name: &str, value: &str) -> Call {
        self.headers.retain(|(k, _)| k != name);
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }
    fn anonymous(mut self) -> Call {
        self.headers.retain(|(k, _)| k != "authorization");
        self
    }
    fn json(self, body: Value) -> Call {
        let mut c = self.header("content-type", "application/json");
        c.body = body.to_string().into_bytes();
        c
    }
    fn bytes(mut self, body: Vec<u8>) -> Call {
        self.body = body;
        self
    }
    fn query(mut self, q: &str) -> Call {
        self.query = Some(q.to_owned());
        self
    }
    fn method(mut self, method: &'static str) -> Call {
        self.method = method;
        self
    }
    async fn send(&self, w: &World) -> Answer {
        let r = w
            .api
            .handle(ApiRequest {
                method: self.method.into(),
                path: self.path.clone(),
                query: self.query.clone(),
                headers: self.headers.clone(),
                body: self.body.clone(),
            })
            .await;
        Answer {
            status: r.status,
            body: r.body_json(),
            headers: r.headers.clone(),
        }
    }
}

/// The concrete path of a template with these ids.
fn concrete(template: &str, ep: &str, dlv: &str, att: &str) -> String {
    let id = if template.starts_with("/v1/endpoints/") {
        ep
    } else if template.starts_with("/v1/applications/") {
        "customer-1"
    } else {
        dlv
    };
    template
        .replace("{id}", id)
        .replace("{attemptId}", att)
        .replace("{name}", "invoice.paid")
}

fn is_route_miss(a: &Answer) -> bool {
    a.status == 405 || (a.status == 404 && a.body["detail"] == "route not found")
}

#[tokio::test]
async fn router_serves_every_route_in_the_table() {
    let mut w = World::new(vec![status(400)], 0).await;
    w.api.settings.rate_per_second = 0;
    let ep = w.endpoint(json!("greatwait")).await;
    let dlv = w.event(&ep).await;
    w.run(&dlv, 3).await;
    let att = w.store.all_attempts()[0].id.to_string();

    // The miss detector recognises the router's own answers.
    let miss = Call::unchecked("GET", "/v1/nothing").send(&w).await;
    assert!(is_route_miss(&miss), "{}", miss.body);
    let wrong = Call::new("GET", "/v1/events", "/v1/events")
        .method("DELETE")
        .send(&w)
        .await;
    assert!(is_route_miss(&wrong), "{}", wrong.body);

    let mut by_path: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for r in ROUTES.iter() {
        by_path.entry(r.path).or_default().insert(r.method);
    }
    // Read-only routes first, so lifecycle calls cannot hide them.
    let mut order: Vec<&Route> = ROUTES.iter().collect();
    order.sort_by_key(|r| r.method != "GET" && r.method != "HEAD");
    for r in order {
        let path = concrete(r.path, &ep, dlv.as_str(), &att);
        let mut call = Call::new(r.method, r.path, path);
        if r.method == "POST" {
            call = call.json(json!({}));
        }
        let a = call.send(&w).await;
        assert!(
            !is_route_miss(&a),
            "{} {} not served: {} {}",
            r.method,
            r.path,
            a.status,
            a.body
        );
        assert!(
            r.statuses.contains(&a.status),
            "{} {} answered {} {}, not in ROUTES",
            r.method,
            r.path,
            a.status,
            a.body
        );
    }
    for (template, served) in &by_path {
        let path = concrete(template, &ep, dlv.as_str(), &att);
        let allowed: BTreeSet<&str> = served.iter().copied().filter(|m| *m != "HEAD").collect();
        for m in ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] {
            if served.contains(m) {
                continue;
            }
            let a = Call::new("GET", template, path.clone()).method(m).send(&w).await;
            assert_eq!(a.status, 405, "{m} {path}: {}", a.body);
            // RFC 9110: a 405 names the methods the path serves in `Allow`.
            let allow: BTreeSet<&str> = a.header("allow").map(|v| v.split(", ").collect()).unwrap_or_default();
            assert_eq!(&allow, served, "Allow of {m} {path}");
            assert_eq!(a.header("content-type"), Some("application/problem+json"), "{m} {path}");
            if m == "HEAD" {
                // A HEAD answer has no content (RFC 9110, section 9.3.2).
                assert_eq!(a.body, Value::Null, "{m} {path}");
                continue;
            }
            assert_eq!(a.body["code"], "method_not_allowed");
            let listed: BTreeSet<&str> = a.body["detail"]
                .as_str()
                .and_then(|d| d.strip_prefix("allowed methods: "))
                .map(|d| d.split(", ").collect())
                .unwrap_or_default();
            assert_eq!(listed, allowed, "{m} {path}");
        }
    }
}

struct RefuseUnsafe;

#[async_trait]
impl UrlAdmission for RefuseUnsafe {
    async fn admit(&self, _url: &str) -> Result<String, AdmissionRefusal> {
        Err(AdmissionRefusal {
            unsafe_address: true,
            detail: "host resolves to 10.0.0.7, a private address".into(),
        })
    }
}

type Observed = BTreeSet<(&'static str, &'static str, u16)>;

/// Sends `call`, checks the exact status (and problem code), that the route documents
/// it, and records the pair.
async fn expect(w: &World, call: &Call, want: u16, code: Option<&str>, seen: &mut Observed) -> Answer {
    let a = call.send(w).await;
    let what = format!("{} {} ({})", call.method, call.path, call.template);
    assert_eq!(a.status, want, "{what}: {}", a.body);
    if let Some(code) = code {
        if call.method == "HEAD" {
            // No content in a HEAD answer (RFC 9110, section 9.3.2); the type still shows.
            assert_eq!(a.body, Value::Null, "{what}");
        } else {
            assert_eq!(a.body["code"], code, "{what}: {}", a.body);
            assert_eq!(a.body["status"], want, "{what}");
        }
        assert_eq!(a.header("content-type"), Some("application/problem+json"), "{what}");
    } else {
        assert!((200..300).contains(&a.status), "{what}: an error needs its code");
    }
    let r = route(call.method, call.template);
    assert!(
        r.statuses.contains(&a.status),
        "{what} answered {}, which ROUTES does not list",
        a.status
    );
    seen.insert((r.method, r.path, a.status));
    a
}

#[tokio::test]
async fn every_provoked_status_is_documented_for_its_route() {
    let mut seen = Observed::new();
    let mut w = World::new(vec![status(400)], 0).await;
    w.api.settings.rate_per_second = 0;
    let set_script = |w: &World, s: u16| {
        *w.http.script.lock().unwrap_or_else(|e| e.into_inner()) = vec![status(s)].into();
    };

    // A failed delivery with one attempt (Greatwait: a 400 is terminal).
    let ep = w.endpoint(json!("greatwait")).await;
    let failed = w.event(&ep).await;
    w.run(&failed, 3).await;
    let failed_att = w.store.all_attempts()[0].id.to_string();
    // A gavAI-style breaker opened by one exhausted delivery.
    set_script(&w, 500);
    let breaker = w
        .endpoint(json!({"base": "gavai", "maxAttempts": 1, "health": {"model": "breaker", "exhaustedInARow": 1, "openSeconds": 30}}))
        .await;
    let b = w.event(&breaker).await;
    w.run(&b, 3).await;
    // A long-running attempt waiting for its completion report.
    set_script(&w, 202);
    let lr = Call::new("POST", "/v1/endpoints", "/v1/endpoints")
        .json(json!({"url": "https://r.example/lr", "policy": "greatwait", "longRunningAllowanceSeconds": 60}));
    let lr = expect(&w, &lr, 201, None, &mut seen).await.body["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let waiting = w.event(&lr).await;
    w.step().await;
    let sent = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    let last = sent.last().unwrap_or_else(|| panic!("nothing sent"));
    let sent_header = |n: &str| {
        last.headers
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| panic!("no {n}"))
    };
    let token = sent_header("webhook-completion-token");
    let lr_att = sent_header("webhook-attempt-id");
    assert!(token.starts_with(&format!("{waiting}.")));
    // Still in flight, and one marked dead-lettered.
    let pending = w.event(&ep).await;
    let dead = w.event(&ep).await;
    let m = courier_app::ingest::first_message(&w.delivery(&dead).await);
    let marked = courier_app::pipeline::dead_letter::mark(w.store.as_ref(), &m, w.clock.now())
        .await
        .unwrap();
    assert_eq!(marked, courier_app::pipeline::dead_letter::DeadLetterOutcome::Marked);
    // An endpoint for the lifecycle calls.
    let life = w.endpoint(json!("tanitar")).await;
    let event_of_pending = w.delivery(&pending).await.event_id;

    let ep_path = |suffix: &str| format!("/v1/endpoints/{ep}{suffix}");
    let life_path = |suffix: &str| format!("/v1/endpoints/{life}{suffix}");
    let unknown_ep = |suffix: &str| format!("/v1/endpoints/{UNKNOWN_EP}{suffix}");
    let complete = |att: &str| format!("/v1/attempts/{att}/complete");
    let since = T0.plus_secs(-60);
    let big = vec![b' '; 400_000];

    // Successes.
    let successes = vec![
        (Call::new("GET", "/healthz", "/healthz"), 200),
        (Call::new("HEAD", "/healthz", "/healthz"), 200),
        (
            Call::new("POST", "/v1/endpoints", "/v1/endpoints")
                .json(json!({"url": "https://r.example/x", "policy": "smartchat", "description": "d"})),
            201,
        ),
        (Call::new("GET", "/v1/endpoints", "/v1/endpoints").query("limit=2"), 200),
        (Call::new("GET", "/v1/endpoints/{id}", ep_path("")), 200),
        (
            Call::new("PATCH", "/v1/endpoints/{id}", ep_path("")).json(json!({"description": "changed"})),
            200,
        ),
        (
            Call::new("GET", "/v1/endpoints/{id}/deliveries", ep_path("/deliveries")).query("status=failed"),
            200,
        ),
        (
            Call::new("POST", "/v1/events", "/v1/events").json(json!({"endpointIds": [ep], "payload": {"n": 1}})),
            202,
        ),
        (
            Call::new("GET", "/v1/events", "/v1/events").query(&format!("endpointId={ep}")),
            200,
        ),
        (
            Call::new("GET", "/v1/events/{id}", format!("/v1/events/{event_of_pending}")),
            200,
        ),
        (
            Call::new(
                "GET",
                "/v1/events/{id}/deliveries",
                format!("/v1/events/{event_of_pending}/deliveries"),
            )
            .query("limit=1"),
            200,
        ),
        (
            Call::new("POST", "/v1/events/batch", "/v1/events/batch")
                .json(json!({"events": [{"endpointId": ep, "payload": 1}, {"payload": 2}]})),
            207,
        ),
        (
            Call::new("GET", "/v1/deliveries/{id}", format!("/v1/deliveries/{failed}")),
            200,
        ),
        (
            Call::new(
                "GET",
                "/v1/deliveries/{id}/attempts",
                format!("/v1/deliveries/{failed}/attempts"),
            ),
            200,
        ),
        (
            Call::new(
                "GET",
                "/v1/deliveries/{id}/attempts/{attemptId}",
                format!("/v1/deliveries/{failed}/attempts/{failed_att}"),
            ),
            200,
        ),
        (Call::new("POST", "/v1/endpoints/{id}/test", ep_path("/test")), 202),
        (
            Call::new("POST", "/v1/endpoints/{id}/replay", ep_path("/replay"))
                .header("idempotency-key", "replay-1")
                .json(json!({"since": since})),
            202,
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/replay-dead", ep_path("/replay-dead")),
            202,
        ),
        (
            Call::new(
                "POST",
                "/v1/deliveries/{id}/redeliver",
                format!("/v1/deliveries/{failed}/redeliver"),
            )
            .header("idempotency-key", "redeliver-1"),
            202,
        ),
        (
            Call::new(
                "POST",
                "/v1/deliveries/{id}/redrive",
                format!("/v1/deliveries/{dead}/redrive"),
            ),
            202,
        ),
        (
            Call::new("POST", "/v1/attempts/{attemptId}/complete", complete(&lr_att))
                .anonymous()
                .header("webhook-completion-token", &token)
                .json(json!({"outcome": "succeeded", "detail": "done"})),
            200,
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/disable", life_path("/disable")),
            200,
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/enable", life_path("/enable")).json(json!({"replaySince": since})),
            200,
        ),
        (
            Call::new(
                "POST",
                "/v1/endpoints/{id}/secrets/rotate",
                life_path("/secrets/rotate"),
            )
            .json(json!({"graceSeconds": 60})),
            200,
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/revoke", life_path("/revoke")),
            200,
        ),
    ];
    for (call, want) in &successes {
        expect(&w, call, *want, None, &mut seen).await;
    }
    let made = Call::new("POST", "/v1/portal-links", "/v1/portal-links").json(json!({"endpointIds": [ep]}));
    let link = expect(&w, &made, 201, None, &mut seen).await.body["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let revoke_link = Call::new("DELETE", "/v1/portal-links/{id}", format!("/v1/portal-links/{link}"));
    expect(&w, &revoke_link, 200, None, &mut seen).await;
    // Deleting an endpoint: once, then it is gone (404).
    let doomed = w.endpoint(json!("tanitar")).await;
    let delete = Call::new("DELETE", "/v1/endpoints/{id}", format!("/v1/endpoints/{doomed}"));
    expect(&w, &delete, 200, None, &mut seen).await;
    expect(&w, &delete, 404, Some("not_found"), &mut seen).await;
    expect(
        &w,
        &Call::new("GET", "/v1/portal-activity", "/v1/portal-activity"),
        200,
        None,
        &mut seen,
    )
    .await;
    expect(
        &w,
        &Call::new("GET", "/v1/portal-activity", "/v1/portal-activity").query("limit=0"),
        400,
        Some("validation_failed"),
        &mut seen,
    )
    .await;

    // Applications and event types: every status each route can provoke here.
    let apps = |m: &'static str| Call::new(m, "/v1/applications", "/v1/applications");
    let app = |m: &'static str, id: &str| Call::new(m, "/v1/applications/{id}", format!("/v1/applications/{id}"));
    let types = |m: &'static str| Call::new(m, "/v1/event-types", "/v1/event-types");
    let ty = |m: &'static str, name: &str| Call::new(m, "/v1/event-types/{name}", format!("/v1/event-types/{name}"));
    let made = apps("POST").json(json!({"name": "Acme", "uid": "customer-1", "metadata": {"plan": "pro"}}));
    let acme = expect(&w, &made, 201, None, &mut seen).await.body["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let other = expect(&w, &apps("POST").json(json!({"name": "Other"})), 201, None, &mut seen)
        .await
        .body["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let schema = json!({"type": "object", "required": ["amount"], "properties": {"amount": {"type": "integer"}}});
    let typed = types("POST").json(json!({"name": "invoice.paid", "schema": schema}));
    expect(&w, &typed, 201, None, &mut seen).await;
    // Portal links of an application, its activity and a link's session.
    let app_links = |id: &str| {
        Call::new(
            "POST",
            "/v1/applications/{id}/portal-links",
            format!("/v1/applications/{id}/portal-links"),
        )
    };
    let activity = |id: &str| {
        Call::new(
            "GET",
            "/v1/applications/{id}/portal-activity",
            format!("/v1/applications/{id}/portal-activity"),
        )
    };
    let read_only = expect(
        &w,
        &app_links(&acme).json(json!({"readOnly": true})),
        201,
        None,
        &mut seen,
    )
    .await
    .body["token"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    for (call, want, code) in [
        (
            app_links(&acme).json(json!({"expiresInSeconds": 0})),
            400,
            Some("validation_failed"),
        ),
        (app_links("customer-404"), 404, Some("not_found")),
        (activity(&acme), 200, None),
        (activity(&acme).query("limit=0"), 400, Some("validation_failed")),
        (activity("customer-404"), 404, Some("not_found")),
        (
            Call::new("GET", "/v1/portal/session", "/v1/portal/session"),
            404,
            Some("not_found"),
        ),
        (
            Call::new("GET", "/v1/portal/session", "/v1/portal/session")
                .header("authorization", &format!("Bearer {read_only}")),
            200,
            None,
        ),
    ] {
        expect(&w, &call, want, code, &mut seen).await;
    }
    // Statistics: each route's answer, a bad field and a missing resource.
    let tenant_stats = || Call::new("GET", "/v1/stats", "/v1/stats");
    let app_stats = |id: &str| {
        Call::new(
            "GET",
            "/v1/applications/{id}/stats",
            format!("/v1/applications/{id}/stats"),
        )
    };
    let ep_stats = |id: &str| Call::new("GET", "/v1/endpoints/{id}/stats", format!("/v1/endpoints/{id}/stats"));
    for (call, want, code) in [
        (tenant_stats(), 200, None),
        (tenant_stats().query("granularity=day"), 400, Some("validation_failed")),
        (app_stats(&acme).query("granularity=minute"), 200, None),
        (
            app_stats(&acme).query("since=2020-01-01T00:00:00Z"),
            400,
            Some("validation_failed"),
        ),
        (app_stats("customer-404"), 404, Some("not_found")),
        (ep_stats(&ep), 200, None),
        (ep_stats(&ep).query("bucket=1"), 400, Some("validation_failed")),
        (ep_stats(UNKNOWN_EP), 404, Some("not_found")),
    ] {
        expect(&w, &call, want, code, &mut seen).await;
    }
    // 403: a read-only portal link on every route that is an operator's or a write.
    for r in ROUTES.iter().filter(|r| r.statuses.contains(&403)) {
        let path = concrete(r.path, &ep, failed.as_str(), &failed_att);
        let call = Call::new(r.method, r.path, path)
            .header("authorization", &format!("Bearer {read_only}"))
            .json(json!({}));
        expect(&w, &call, 403, Some("portal_forbidden"), &mut seen).await;
    }
    for (call, want) in [
        (apps("GET").query("limit=1"), 200),
        (app("GET", &acme), 200),
        (app("GET", "customer-1"), 200),
        (app("PATCH", "customer-1").json(json!({"name": "Acme Inc."})), 200),
        (types("GET"), 200),
        (ty("GET", "invoice.paid"), 200),
        (
            ty("PATCH", "invoice.paid").json(json!({"description": "An invoice was paid."})),
            200,
        ),
        (
            Call::new("POST", "/v1/events", "/v1/events")
                .json(json!({"endpointId": ep, "type": "invoice.paid", "payload": {"amount": 5}})),
            202,
        ),
    ] {
        expect(&w, &call, want, None, &mut seen).await;
    }
    for call in [
        apps("POST").json(json!({})),
        apps("GET").query("cursor=zz"),
        app("PATCH", &acme).json(json!({"uid": "app_mine"})),
        app("DELETE", &other).query("force=yes"),
        types("POST").json(json!({"name": "bad name"})),
        types("GET").query("limit=101"),
        ty("PATCH", "invoice.paid").json(json!({"schema": {"type": 5}})),
    ] {
        expect(&w, &call, 400, Some("validation_failed"), &mut seen).await;
    }
    for call in [
        app("GET", "customer-404"),
        Call::new("POST", "/v1/endpoints", "/v1/endpoints")
            .json(json!({"url": "https://r.example/a", "policy": "greatwait", "applicationId": "customer-404"})),
        app("PATCH", "app_00000000000000000000000000").json(json!({})),
        app("DELETE", "no such uid"),
        ty("GET", "invoice.void"),
        ty("PATCH", "invoice.void").json(json!({})),
    ] {
        expect(&w, &call, 404, Some("not_found"), &mut seen).await;
    }
    for call in [
        apps("POST").json(json!({"name": "Copy", "uid": "customer-1"})),
        app("PATCH", &other).json(json!({"uid": "customer-1"})),
        typed.clone(),
    ] {
        expect(&w, &call, 409, Some("conflict"), &mut seen).await;
    }
    let bad_payload = Call::new("POST", "/v1/events", "/v1/events")
        .json(json!({"endpointId": ep, "type": "invoice.paid", "payload": {"amount": "5"}}));
    let a = expect(&w, &bad_payload, 422, Some("payload_invalid"), &mut seen).await;
    assert_eq!(a.body["pointer"], "/amount");
    for call in [
        apps("POST"),
        app("PATCH", &acme),
        types("POST"),
        ty("PATCH", "invoice.paid"),
    ] {
        expect(
            &w,
            &call.clone().bytes(big.clone()),
            413,
            Some("payload_too_large"),
            &mut seen,
        )
        .await;
        let text = call.header("content-type", "text/plain").bytes(b"{}".to_vec());
        expect(&w, &text, 415, Some("unsupported_media_type"), &mut seen).await;
    }
    expect(&w, &app("DELETE", &other), 200, None, &mut seen).await;
    // Schedules: every answer of every route.
    let sched_body = json!({"endpointId": ep, "rate": "rate(5 minutes)", "payload": {"n": 1}});
    let create_sched = |key: &str, body: Value| {
        Call::new("POST", "/v1/schedules", "/v1/schedules")
            .header("idempotency-key", key)
            .json(body)
    };
    let sch = expect(&w, &create_sched("sched-1", sched_body.clone()), 201, None, &mut seen)
        .await
        .body["id"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let sch_path = |suffix: &str| format!("/v1/schedules/{sch}{suffix}");
    let unknown_sch = |suffix: &str| format!("/v1/schedules/sch_01JZZZZZZZZZZZZZZZZZZZZZZZ{suffix}");
    let sched_ok = vec![
        (create_sched("sched-1", sched_body.clone()), 201),
        (Call::new("GET", "/v1/schedules", "/v1/schedules"), 200),
        (Call::new("GET", "/v1/schedules/{id}", sch_path("")), 200),
        (
            Call::new("PUT", "/v1/schedules/{id}", sch_path("")).json(sched_body.clone()),
            200,
        ),
        (Call::new("POST", "/v1/schedules/{id}/pause", sch_path("/pause")), 200),
        (Call::new("POST", "/v1/schedules/{id}/resume", sch_path("/resume")), 200),
        (
            Call::new("GET", "/v1/schedules/{id}/occurrences", sch_path("/occurrences")),
            200,
        ),
    ];
    for (call, want) in &sched_ok {
        expect(&w, call, *want, None, &mut seen).await;
    }
    let sched_bad = vec![
        (
            create_sched(
                "sched-2",
                json!({"endpointId": ep, "cron": "cron(0 25 * * ? *)", "payload": 1}),
            ),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/schedules", "/v1/schedules").json(sched_body.clone()),
            "idempotency_key_required",
        ),
        (
            Call::new("GET", "/v1/schedules", "/v1/schedules").query("limit=0"),
            "validation_failed",
        ),
        (
            Call::new("PUT", "/v1/schedules/{id}", sch_path(""))
                .json(json!({"endpointId": ep, "cron": "cron(0 9 * * ? *)", "timezone": "Nowhere", "payload": 1})),
            "validation_failed",
        ),
        (
            Call::new("GET", "/v1/schedules/{id}/occurrences", sch_path("/occurrences")).query("limit=0"),
            "validation_failed",
        ),
    ];
    for (call, code) in &sched_bad {
        expect(&w, call, 400, Some(code), &mut seen).await;
    }
    let sched_missing = vec![
        create_sched(
            "sched-3",
            json!({"endpointId": UNKNOWN_EP, "rate": "rate(1 hour)", "payload": 1}),
        ),
        Call::new("GET", "/v1/schedules/{id}", unknown_sch("")),
        Call::new("GET", "/v1/schedules/{id}", "/v1/schedules/not-an-id"),
        Call::new("PUT", "/v1/schedules/{id}", unknown_sch("")).json(sched_body.clone()),
        Call::new("DELETE", "/v1/schedules/{id}", unknown_sch("")),
        Call::new("POST", "/v1/schedules/{id}/pause", unknown_sch("/pause")),
        Call::new("POST", "/v1/schedules/{id}/resume", unknown_sch("/resume")),
        Call::new("GET", "/v1/schedules/{id}/occurrences", unknown_sch("/occurrences")),
    ];
    for call in &sched_missing {
        expect(&w, call, 404, Some("not_found"), &mut seen).await;
    }
    // Routed by subscription: an application and a declared type, whose schema the
    // payload must match at create and at replace.
    let routed = json!({"applicationId": "customer-1", "type": "invoice.paid", "rate": "rate(1 hour)", "payload": {"amount": 5}});
    let made = expect(&w, &create_sched("sched-5", routed.clone()), 201, None, &mut seen).await;
    assert_eq!(
        (&made.body["endpointId"], &made.body["applicationId"]),
        (&Value::Null, &json!(acme))
    );
    let mut unknown_type = routed.clone();
    unknown_type["type"] = json!("never.declared");
    expect(
        &w,
        &create_sched("sched-6", unknown_type),
        404,
        Some("not_found"),
        &mut seen,
    )
    .await;
    let mut invalid = routed.clone();
    invalid["payload"] = json!({"amount": "5"});
    for call in [
        create_sched("sched-7", invalid.clone()),
        Call::new("PUT", "/v1/schedules/{id}", sch_path("")).json(invalid.clone()),
    ] {
        let a = expect(&w, &call, 422, Some("payload_invalid"), &mut seen).await;
        assert_eq!(a.body["pointer"], "/amount");
    }
    let sched_big = vec![
        create_sched("sched-4", Value::Null),
        Call::new("PUT", "/v1/schedules/{id}", sch_path("")),
    ];
    for call in &sched_big {
        let huge = call.clone().bytes(vec![b' '; 400_000]);
        expect(&w, &huge, 413, Some("payload_too_large"), &mut seen).await;
        let text = call.clone().header("content-type", "text/plain").bytes(b"{}".to_vec());
        expect(&w, &text, 415, Some("unsupported_media_type"), &mut seen).await;
    }
    let mut other_body = sched_body.clone();
    other_body["payload"] = json!(2);
    expect(
        &w,
        &create_sched("sched-1", other_body),
        422,
        Some("idempotency_key_reused"),
        &mut seen,
    )
    .await;
    expect(
        &w,
        &Call::new("DELETE", "/v1/schedules/{id}", sch_path("")),
        200,
        None,
        &mut seen,
    )
    .await;

    // 400.
    let tok = |c: Call| c.anonymous().header("webhook-completion-token", &token);
    let bad_requests = vec![
        (
            Call::new("PATCH", "/v1/endpoints/{id}", ep_path("")).json(json!({"timeoutMs": 1})),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/endpoints", "/v1/endpoints")
                .json(json!({"url": "https://r.example/x", "policy": "nosuch"})),
            "validation_failed",
        ),
        (
            Call::new("GET", "/v1/endpoints", "/v1/endpoints").query("limit=0"),
            "validation_failed",
        ),
        (
            Call::new("GET", "/v1/endpoints/{id}/deliveries", ep_path("/deliveries")).query("status=lost"),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/events", "/v1/events").json(json!({"payload": 1})),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/events", "/v1/events")
                .header("idempotency-key", "")
                .json(json!({"endpointId": ep, "payload": 1})),
            "validation_failed",
        ),
        (
            Call::new("GET", "/v1/events", "/v1/events").query("bogus=1"),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/events/batch", "/v1/events/batch").json(json!({"events": []})),
            "validation_failed",
        ),
        (
            Call::new(
                "GET",
                "/v1/deliveries/{id}/attempts",
                format!("/v1/deliveries/{failed}/attempts"),
            )
            .query("cursor=AAAAAAAAAAAA"),
            "validation_failed",
        ),
        (
            Call::new(
                "GET",
                "/v1/events/{id}/deliveries",
                format!("/v1/events/{event_of_pending}/deliveries"),
            )
            .query("cursor=AAAAAAAAAAAA"),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/enable", ep_path("/enable"))
                .json(json!({"replaySince": "yesterday"})),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/secrets/rotate", ep_path("/secrets/rotate"))
                .json(json!({"graceSeconds": 604_801})),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/replay", ep_path("/replay"))
                .header("idempotency-key", "replay-2")
                .json(json!({"until": since})),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/replay", ep_path("/replay")).json(json!({"since": since})),
            "idempotency_key_required",
        ),
        (
            Call::new(
                "POST",
                "/v1/deliveries/{id}/redeliver",
                format!("/v1/deliveries/{failed}/redeliver"),
            )
            .json(json!({})),
            "idempotency_key_required",
        ),
        (
            Call::new(
                "POST",
                "/v1/deliveries/{id}/redeliver",
                format!("/v1/deliveries/{failed}/redeliver"),
            )
            .header("idempotency-key", "redeliver-2")
            .json(json!({"sourceAttemptId": UNKNOWN_ATT})),
            "validation_failed",
        ),
        (
            tok(Call::new(
                "POST",
                "/v1/attempts/{attemptId}/complete",
                complete(&lr_att),
            ))
            .json(json!({"outcome": "maybe"})),
            "validation_failed",
        ),
        (
            Call::new("POST", "/v1/portal-links", "/v1/portal-links")
                .json(json!({"endpointIds": [ep], "ttlSeconds": 86_401})),
            "validation_failed",
        ),
    ];
    for (call, code) in &bad_requests {
        expect(&w, call, 400, Some(code), &mut seen).await;
    }

    // 401: every route without credentials.
    for r in ROUTES.iter().filter(|r| r.statuses.contains(&401)) {
        let path = concrete(r.path, &ep, failed.as_str(), &failed_att);
        let call = Call::new(r.method, r.path, path).anonymous().json(json!({}));
        expect(&w, &call, 401, Some("unauthorized"), &mut seen).await;
    }
    let wrong_token = tok(Call::new(
        "POST",
        "/v1/attempts/{attemptId}/complete",
        complete(&lr_att),
    ))
    .header("webhook-completion-token", &format!("{UNKNOWN_DLV}.00"))
    .json(json!({"outcome": "failed"}));
    expect(&w, &wrong_token, 401, Some("unauthorized"), &mut seen).await;
    let other_key = Call::new("GET", "/v1/endpoints", "/v1/endpoints").header("authorization", "Bearer ck_nobody");
    expect(&w, &other_key, 401, Some("unauthorized"), &mut seen).await;

    // 404: unknown (or malformed) ids on every route that takes one.
    let not_found = vec![
        Call::new("GET", "/v1/endpoints/{id}", unknown_ep("")),
        Call::new("PATCH", "/v1/endpoints/{id}", unknown_ep("")).json(json!({})),
        Call::new("GET", "/v1/endpoints/{id}", "/v1/endpoints/not-an-id"),
        Call::new("GET", "/v1/endpoints/{id}/deliveries", unknown_ep("/deliveries")),
        Call::new("POST", "/v1/endpoints/{id}/disable", unknown_ep("/disable")),
        Call::new("POST", "/v1/endpoints/{id}/enable", unknown_ep("/enable")).json(json!({})),
        Call::new("POST", "/v1/endpoints/{id}/revoke", unknown_ep("/revoke")),
        Call::new(
            "POST",
            "/v1/endpoints/{id}/secrets/rotate",
            unknown_ep("/secrets/rotate"),
        )
        .json(json!({})),
        Call::new("POST", "/v1/endpoints/{id}/test", unknown_ep("/test")),
        Call::new("POST", "/v1/endpoints/{id}/replay", unknown_ep("/replay"))
            .header("idempotency-key", "replay-3")
            .json(json!({"since": since})),
        Call::new("POST", "/v1/endpoints/{id}/replay-dead", unknown_ep("/replay-dead")),
        Call::new("POST", "/v1/events", "/v1/events").json(json!({"endpointId": UNKNOWN_EP, "payload": 1})),
        Call::new("GET", "/v1/events", "/v1/events").query(&format!("endpointId={UNKNOWN_EP}")),
        Call::new("GET", "/v1/events/{id}", "/v1/events/evt_01JAAAAAAAAAAAAAAAAAAAAAAA"),
        Call::new(
            "GET",
            "/v1/events/{id}/deliveries",
            "/v1/events/evt_01JAAAAAAAAAAAAAAAAAAAAAAA/deliveries",
        ),
        Call::new("GET", "/v1/deliveries/{id}", format!("/v1/deliveries/{UNKNOWN_DLV}")),
        Call::new(
            "GET",
            "/v1/deliveries/{id}/attempts",
            format!("/v1/deliveries/{UNKNOWN_DLV}/attempts"),
        ),
        Call::new(
            "GET",
            "/v1/deliveries/{id}/attempts/{attemptId}",
            format!("/v1/deliveries/{failed}/attempts/{UNKNOWN_ATT}"),
        ),
        Call::new(
            "POST",
            "/v1/deliveries/{id}/redeliver",
            format!("/v1/deliveries/{UNKNOWN_DLV}/redeliver"),
        )
        .header("idempotency-key", "redeliver-3")
        .json(json!({})),
        Call::new(
            "POST",
            "/v1/deliveries/{id}/redrive",
            format!("/v1/deliveries/{UNKNOWN_DLV}/redrive"),
        ),
        tok(Call::new(
            "POST",
            "/v1/attempts/{attemptId}/complete",
            complete("att_bad"),
        ))
        .json(json!({"outcome": "succeeded"})),
        Call::new(
            "DELETE",
            "/v1/portal-links/{id}",
            "/v1/portal-links/pl_000000000000000000000000",
        ),
    ];
    for call in &not_found {
        expect(&w, call, 404, Some("not_found"), &mut seen).await;
    }

    // 409.
    let conflicts = vec![
        (
            Call::new("PATCH", "/v1/endpoints/{id}", life_path("")).json(json!({"description": "x"})),
            "conflict",
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/disable", life_path("/disable")),
            "conflict",
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/enable", life_path("/enable")),
            "conflict",
        ),
        (
            Call::new(
                "POST",
                "/v1/endpoints/{id}/secrets/rotate",
                life_path("/secrets/rotate"),
            ),
            "conflict",
        ),
        (
            Call::new(
                "POST",
                "/v1/endpoints/{id}/test",
                format!("/v1/endpoints/{breaker}/test"),
            ),
            "breaker_open",
        ),
        (
            Call::new(
                "POST",
                "/v1/deliveries/{id}/redeliver",
                format!("/v1/deliveries/{pending}/redeliver"),
            )
            .header("idempotency-key", "redeliver-4"),
            "conflict",
        ),
        (
            Call::new(
                "POST",
                "/v1/deliveries/{id}/redrive",
                format!("/v1/deliveries/{failed}/redrive"),
            ),
            "conflict",
        ),
        (
            tok(Call::new(
                "POST",
                "/v1/attempts/{attemptId}/complete",
                complete(&lr_att),
            ))
            .json(json!({"outcome": "succeeded"})),
            "conflict",
        ),
    ];
    for (call, code) in &conflicts {
        let a = expect(&w, call, 409, Some(code), &mut seen).await;
        if *code == "breaker_open" {
            assert_eq!(a.body["retryAfterSeconds"], 30);
            assert_eq!(a.header("retry-after"), Some("30"));
        }
    }

    // 413 and 415 on every route that reads a body.
    let with_body = vec![
        Call::new("POST", "/v1/endpoints", "/v1/endpoints"),
        Call::new("PATCH", "/v1/endpoints/{id}", ep_path("")),
        Call::new("POST", "/v1/events", "/v1/events"),
        Call::new("POST", "/v1/endpoints/{id}/enable", ep_path("/enable")),
        Call::new("POST", "/v1/endpoints/{id}/secrets/rotate", ep_path("/secrets/rotate")),
        Call::new("POST", "/v1/endpoints/{id}/replay", ep_path("/replay")).header("idempotency-key", "replay-4"),
        Call::new(
            "POST",
            "/v1/deliveries/{id}/redeliver",
            format!("/v1/deliveries/{failed}/redeliver"),
        )
        .header("idempotency-key", "redeliver-5"),
        tok(Call::new(
            "POST",
            "/v1/attempts/{attemptId}/complete",
            complete(&lr_att),
        )),
        Call::new("POST", "/v1/portal-links", "/v1/portal-links"),
        Call::new(
            "POST",
            "/v1/applications/{id}/portal-links",
            "/v1/applications/customer-1/portal-links",
        ),
        Call::new("POST", "/v1/events/batch", "/v1/events/batch"),
    ];
    for call in &with_body {
        let huge = call.clone().bytes(big.clone());
        expect(&w, &huge, 413, Some("payload_too_large"), &mut seen).await;
        let text = call
            .clone()
            .header("content-type", "text/plain")
            .bytes(br#"{"outcome": "succeeded"}"#.to_vec());
        expect(&w, &text, 415, Some("unsupported_media_type"), &mut seen).await;
    }
    let huge_payload =
        Call::new("POST", "/v1/events", "/v1/events").json(json!({"endpointId": ep, "payload": "x".repeat(262_200)}));
    expect(&w, &huge_payload, 413, Some("payload_too_large"), &mut seen).await;

    // 422: an Idempotency-Key reused with another body.
    let reused = vec![
        (
            Call::new("POST", "/v1/events", "/v1/events")
                .header("idempotency-key", "event-1")
                .json(json!({"endpointId": ep, "payload": 1})),
            Call::new("POST", "/v1/events", "/v1/events")
                .header("idempotency-key", "event-1")
                .json(json!({"endpointId": ep, "payload": 2})),
        ),
        (
            Call::new("POST", "/v1/endpoints/{id}/replay", ep_path("/replay"))
                .header("idempotency-key", "replay-1")
                .json(json!({"since": since})),
            Call::new("POST", "/v1/endpoints/{id}/replay", ep_path("/replay"))
                .header("idempotency-key", "replay-1")
                .json(json!({"since": T0.plus_secs(-30)})),
        ),
        (
            Call::new(
                "POST",
                "/v1/deliveries/{id}/redeliver",
                format!("/v1/deliveries/{failed}/redeliver"),
            )
            .header("idempotency-key", "redeliver-1"),
            Call::new(
                "POST",
                "/v1/deliveries/{id}/redeliver",
                format!("/v1/deliveries/{failed}/redeliver"),
            )
            .header("idempotency-key", "redeliver-1")
            .json(json!({"sourceAttemptId": failed_att})),
        ),
    ];
    for (same, other) in &reused {
        // The same key and body again: the first answer, marked as repeated.
        expect(&w, same, 202, None, &mut seen).await;
        let a = expect(&w, same, 202, None, &mut seen).await;
        assert_eq!(a.header("idempotent-replayed"), Some("true"), "{}", same.path);
        expect(&w, other, 422, Some("idempotency_key_reused"), &mut seen).await;
    }
    // Enable's replay under a key: a repeat re-sends nothing more and answers the
    // first count; another body under the key is refused.
    let enable = |body: Value| {
        Call::new("POST", "/v1/endpoints/{id}/enable", ep_path("/enable"))
            .header("idempotency-key", "enable-1")
            .json(body)
    };
    let first = expect(&w, &enable(json!({"replaySince": since})), 200, None, &mut seen).await;
    let again = expect(&w, &enable(json!({"replaySince": since})), 200, None, &mut seen).await;
    assert_eq!(again.body["replayed"], first.body["replayed"]);
    expect(
        &w,
        &enable(json!({"replaySince": T0.plus_secs(-30)})),
        422,
        Some("idempotency_key_reused"),
        &mut seen,
    )
    .await;
    // An endpoint admitted earlier, in a world whose admission now refuses every URL.
    let (unsafe_world, unsafe_ep) = {
        let mut u = World::new(vec![], 0).await;
        let ep = u.endpoint(json!("greatwait")).await;
        u.api.admission = Arc::new(RefuseUnsafe);
        (u, ep)
    };
    let unsafe_url = Call::new("POST", "/v1/endpoints", "/v1/endpoints")
        .json(json!({"url": "https://internal.example/h", "policy": "greatwait"}));
    expect(&unsafe_world, &unsafe_url, 422, Some("endpoint_unsafe"), &mut seen).await;
    let unsafe_patch = Call::new("PATCH", "/v1/endpoints/{id}", format!("/v1/endpoints/{unsafe_ep}"))
        .json(json!({"url": "https://internal.example/h"}));
    expect(&unsafe_world, &unsafe_patch, 422, Some("endpoint_unsafe"), &mut seen).await;

    // 503: the first store call of each route fails.
    for r in ROUTES.iter() {
        let path = concrete(r.path, &ep, failed.as_str(), &lr_att);
        let mut call = Call::new(r.method, r.path, path);
        if r.method == "POST" {
            call = call.json(json!({}));
        }
        if r.path == "/v1/attempts/{attemptId}/complete" {
            call = tok(call).json(json!({"outcome": "succeeded"}));
        }
        w.store.fail_next(1);
        let a = expect(&w, &call, 503, Some("service_unavailable"), &mut seen).await;
        if r.method != "HEAD" {
            assert_eq!(a.body["retryAfterSeconds"], 1);
        }
        assert_eq!(a.header("retry-after"), Some("1"));
        // The injected failure was used up by this call.
        let health = Call::new("GET", "/healthz", "/healthz").send(&w).await;
        assert_eq!(health.status, 200, "{} {}", r.method, r.path);
    }

    // 429: a key over its rate, on every authenticated route; the others are not limited.
    let mut limited = World::new(vec![], 0).await;
    limited.api.settings.rate_per_second = 1;
    limited.api.settings.rate_burst = 1;
    let first = Call::new("GET", "/v1/endpoints", "/v1/endpoints");
    expect(&limited, &first, 200, None, &mut seen).await;
    for r in ROUTES.iter() {
        let path = concrete(r.path, UNKNOWN_EP, UNKNOWN_DLV, UNKNOWN_ATT);
        let call = Call::new(r.method, r.path, path).json(json!({}));
        if r.statuses.contains(&429) {
            if r.path == "/v1/attempts/{attemptId}/complete" {
                // Limited per source, not per key: the source's first report goes through.
                expect(&limited, &call, 401, Some("unauthorized"), &mut seen).await;
            }
            let a = expect(&limited, &call, 429, Some("rate_limited"), &mut seen).await;
            assert_eq!(a.body["retryAfterSeconds"], 1);
            assert_eq!(a.header("retry-after"), Some("1"));
        } else {
            let a = call.send(&limited).await;
            assert_ne!(a.status, 429, "{} {} is not rate limited", r.method, r.path);
        }
    }

    // What the table lists but these cheap requests cannot provoke: a revoke racing
    // eight concurrent writers, replay-dead over more than 10,000 failed deliveries,
    // deleting an application whose endpoints have deliveries in flight (tested in
    // tests/it/applications.rs), and a schedule change racing another writer.
    let all: Observed = ROUTES
        .iter()
        .flat_map(|r| r.statuses.iter().map(move |s| (r.method, r.path, *s)))
        .collect();
    let missing: Vec<_> = all.difference(&seen).copied().collect();
    assert_eq!(
        missing,
        [
            ("DELETE", "/v1/applications/{id}", 409),
            ("DELETE", "/v1/endpoints/{id}", 409),
            ("POST", "/v1/endpoints/{id}/replay-dead", 400),
            ("POST", "/v1/endpoints/{id}/revoke", 409),
            ("POST", "/v1/schedules/{id}/pause", 409),
            ("POST", "/v1/schedules/{id}/resume", 409),
            ("PUT", "/v1/schedules/{id}", 409),
        ]
    );
    assert!(seen.is_subset(&all));
    // Sanity: the ids used above are well-formed, so the 404s were about existence.
    assert!(DeliveryId::parse(UNKNOWN_DLV).is_ok() && AttemptId::parse(UNKNOWN_ATT).is_ok());
}

/// The limits the API enforces are stated in the document, with the values the code
/// uses, so a request the document calls valid is not refused for a limit it hides.
/// (The scalars' limits are read from `api::http::limits` by the generator; the
/// derive-based schemas take literals, checked here.)
#[test]
fn document_states_the_limits_the_api_enforces() {
    use courier_app::api::http::limits;
    let doc = doc();
    let schemas = &doc["components"]["schemas"];
    let cursor = &schemas["Cursor"];
    assert_eq!(cursor["maxLength"], json!(limits::MAX_CURSOR_LEN));
    assert_eq!(cursor["pattern"], "^[A-Za-z0-9_-]+$");
    let limit = &schemas["PageLimit"];
    assert_eq!(
        (&limit["maximum"], &limit["default"]),
        (&json!(limits::MAX_PAGE), &json!(limits::DEFAULT_PAGE))
    );
    assert_eq!(
        schemas["IdempotencyKey"]["maxLength"],
        json!(limits::MAX_IDEMPOTENCY_KEY)
    );
    assert_eq!(
        schemas["CompletionToken"]["maxLength"],
        json!(limits::MAX_CREDENTIAL_LEN)
    );
    assert_eq!(
        schemas["EventTypeName"]["maxLength"],
        json!(courier_core::subscription::MAX_NAME_LEN)
    );
    assert_eq!(schemas["ApplicationRef"]["maxLength"], json!(limits::MAX_UID_LEN));
    for app in ["ApplicationIn", "ApplicationPatch"] {
        let props = &schemas[app]["properties"];
        assert_eq!(props["name"]["maxLength"], json!(limits::MAX_APPLICATION_NAME), "{app}");
        assert_eq!(props["uid"]["maxLength"], json!(limits::MAX_UID_LEN), "{app}");
    }
    for t in ["EventTypeIn", "EventTypePatch"] {
        assert_eq!(
            schemas[t]["properties"]["description"]["maxLength"],
            json!(limits::MAX_DESCRIPTION),
            "{t}"
        );
    }
}
