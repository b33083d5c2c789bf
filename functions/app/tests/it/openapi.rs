//! `docs/openapi.json` against the code: it is the document the code generates, every
//! `$ref` resolves and every component is used, every error answer is a problem
//! document, the rules of the code that annotations must repeat (who needs a key,
//! which routes take an Idempotency-Key or a body) hold, and the limits it states are
//! the ones enforced. What handlers really answer is probed in tests/it/status_probes.rs.

use crate::common::operations::ROUTES;
use crate::status_probes::WITH_BODY;
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn doc() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// Follows local `$ref`s (`#/a/b~1c`) until a value without one.
fn deref<'a>(doc: &'a Value, mut v: &'a Value) -> &'a Value {
    while let Some(r) = v.get("$ref").and_then(Value::as_str) {
        v = r
            .strip_prefix('#')
            .and_then(|p| doc.pointer(p))
            .unwrap_or_else(|| panic!("unresolved $ref {r}"));
    }
    v
}

fn collect_refs<'a>(v: &'a Value, out: &mut Vec<&'a str>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                match (k.as_str(), child.as_str()) {
                    ("$ref", Some(r)) => out.push(r),
                    _ => collect_refs(child, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|child| collect_refs(child, out)),
        _ => {}
    }
}

#[test]
fn committed_document_is_the_generated_one() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = courier_app::api::openapi::document_json();
    assert!(
        committed == generated,
        "docs/openapi.json is not the document the code generates; regenerate it with `make openapi`"
    );
}

#[test]
fn every_ref_resolves_and_every_component_is_used() {
    let doc = doc();
    let mut refs = vec![];
    collect_refs(&doc, &mut refs);
    assert!(refs.len() > 100, "only {} $refs found", refs.len());
    for r in &refs {
        let target = r.strip_prefix('#').and_then(|p| doc.pointer(p));
        assert!(target.is_some(), "unresolved $ref {r}");
    }
    let used: BTreeSet<&str> = refs.into_iter().collect();
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
}

/// Rules of the code each annotation must repeat: only health checks and completion
/// reports go without a key (the report is limited per source address instead);
/// these routes take an Idempotency-Key (required or not); a body is documented
/// exactly where the handler reads one (status_probes.rs sends one to each); every
/// error answer is a problem document.
#[test]
fn operations_state_the_rules_of_the_code() {
    let doc = doc();
    let open = [
        ("GET", "/healthz"),
        ("HEAD", "/healthz"),
        ("POST", "/v1/attempts/{attemptId}/complete"),
    ];
    let idempotency = [
        ("POST", "/v1/events", false),
        ("POST", "/v1/endpoints/{id}/enable", false),
        ("POST", "/v1/endpoints/{id}/replay", true),
        ("POST", "/v1/deliveries/{id}/redeliver", true),
        ("POST", "/v1/schedules", true),
    ];
    for r in ROUTES.iter() {
        let key = (r.method, r.path);
        let op = &doc["paths"][r.path][r.method.to_ascii_lowercase()];
        assert!(op["summary"].as_str().is_some_and(|s| !s.is_empty()), "{key:?}");
        assert!(op["operationId"].as_str().is_some_and(|s| !s.is_empty()), "{key:?}");
        if open.contains(&key) {
            assert_eq!(op["security"], json!([]), "{key:?}");
            assert_eq!(r.statuses.contains(&429), r.path.ends_with("/complete"), "{key:?}");
        } else {
            assert!(op.get("security").is_none(), "{key:?} uses the global bearer scheme");
            assert!(r.statuses.contains(&401) && r.statuses.contains(&429), "{key:?}");
        }
        for (code, answer) in op["responses"].as_object().into_iter().flatten() {
            let content = &deref(&doc, answer)["content"];
            if code.starts_with('2') {
                continue;
            }
            if r.method == "HEAD" {
                assert!(content.is_null(), "{key:?} {code}: HEAD answers carry no body");
            } else {
                let schema = &content["application/problem+json"]["schema"]["$ref"];
                assert_eq!(schema, "#/components/schemas/Problem", "{key:?} {code}");
            }
        }
        let params: Vec<&Value> = doc["paths"][r.path]["parameters"]
            .as_array()
            .into_iter()
            .flatten()
            .chain(op["parameters"].as_array().into_iter().flatten())
            .map(|p| deref(&doc, p))
            .collect();
        let path_params: BTreeSet<&str> = params
            .iter()
            .filter(|p| p["in"] == "path" && p["required"] == true)
            .filter_map(|p| p["name"].as_str())
            .collect();
        let placeholders: BTreeSet<&str> = r
            .path
            .split('/')
            .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .collect();
        assert_eq!(path_params, placeholders, "{key:?}");
        let idem: Vec<&Value> = params
            .iter()
            .filter(|p| p["in"] == "header" && p["name"] == "Idempotency-Key")
            .map(|p| &p["required"])
            .collect();
        let expected: Vec<Value> = idempotency
            .iter()
            .filter(|(m, p, _)| (*m, *p) == key)
            .map(|(_, _, required)| json!(required))
            .collect();
        assert_eq!(idem, expected.iter().collect::<Vec<_>>(), "{key:?}: Idempotency-Key");
        match WITH_BODY.iter().find(|(m, p, _)| (*m, *p) == key) {
            Some((_, _, required)) => {
                let body = deref(&doc, &op["requestBody"]);
                assert_eq!(body["required"].as_bool().unwrap_or(false), *required, "{key:?}");
                // Typed bodies refuse unknown fields (deny_unknown_fields).
                let schema = deref(&doc, &body["content"]["application/json"]["schema"]);
                if schema.get("properties").is_some() {
                    assert_eq!(schema["additionalProperties"], false, "{key:?}");
                }
                let statuses = [400, 413, 415].map(|s| r.statuses.contains(&s));
                assert_eq!(statuses, [true; 3], "{key:?}: 400, 413, 415");
            }
            None => {
                assert!(op.get("requestBody").is_none(), "{key:?} takes no body");
                assert!(!r.statuses.contains(&413) && !r.statuses.contains(&415), "{key:?}");
            }
        }
    }
}

/// The limits the API enforces are stated in the document, with the values the code
/// uses, so a request the document calls valid is not refused for a limit it hides.
/// (The scalars' limits are read from `api::http::limits` by the generator; the
/// derive-based schemas take literals, checked here.)
#[test]
fn document_states_the_limits_the_api_enforces() {
    use courier_app::api::http::limits;
    let doc = doc();
    #[rustfmt::skip]
    let stated = [
        ("Cursor/maxLength", json!(limits::MAX_CURSOR_LEN)),
        ("Cursor/pattern", json!("^[A-Za-z0-9_-]+$")),
        ("PageLimit/maximum", json!(limits::MAX_PAGE)),
        ("PageLimit/default", json!(limits::DEFAULT_PAGE)),
        ("IdempotencyKey/maxLength", json!(limits::MAX_IDEMPOTENCY_KEY)),
        ("CompletionToken/maxLength", json!(limits::MAX_CREDENTIAL_LEN)),
        ("EventTypeName/maxLength", json!(courier_core::subscription::MAX_NAME_LEN)),
        ("ApplicationRef/maxLength", json!(limits::MAX_UID_LEN)),
        ("ApplicationIn/properties/name/maxLength", json!(limits::MAX_APPLICATION_NAME)),
        ("ApplicationPatch/properties/name/maxLength", json!(limits::MAX_APPLICATION_NAME)),
        ("ApplicationIn/properties/uid/maxLength", json!(limits::MAX_UID_LEN)),
        ("ApplicationPatch/properties/uid/maxLength", json!(limits::MAX_UID_LEN)),
        ("EventTypeIn/properties/description/maxLength", json!(limits::MAX_DESCRIPTION)),
        ("EventTypePatch/properties/description/maxLength", json!(limits::MAX_DESCRIPTION)),
    ];
    for (pointer, value) in stated {
        let found = doc.pointer(&format!("/components/schemas/{pointer}"));
        assert_eq!(found, Some(&value), "{pointer}");
    }
}
