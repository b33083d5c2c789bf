//! The answers of the event and delivery routes are what docs/openapi.json says:
//! each answer of a real flow (ingest, batch, audit log, deliveries, attempts,
//! redeliver, replay, redrive, completion) is validated against the
//! schema the document gives its operation and status.

use crate::common::{KEY, World, raw, status};
use courier_app::ports::Clock;
use serde_json::{Value, json};

fn doc() -> Value {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/openapi.json");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// Checks answers against the document.
struct Checker {
    doc: Value,
    checked: Vec<String>,
}

impl Checker {
    fn new() -> Checker {
        Checker {
            doc: doc(),
            checked: Vec::new(),
        }
    }

    /// The errors of `body` against the schema of `method template`'s `status` answer.
    fn errors(&self, method: &str, template: &str, status: u16, body: &Value) -> Vec<String> {
        let op = &self.doc["paths"][template][method.to_ascii_lowercase()];
        assert!(op.is_object(), "{method} {template} is not in the document");
        let mut answer = &op["responses"][status.to_string()];
        assert!(
            answer.is_object(),
            "{method} {template} does not document {status}: {body}"
        );
        if let Some(r) = answer["$ref"].as_str() {
            answer = self
                .doc
                .pointer(r.trim_start_matches('#'))
                .unwrap_or_else(|| panic!("{r} does not resolve"));
        }
        let content = answer["content"]
            .as_object()
            .and_then(|c| c.values().next())
            .unwrap_or_else(|| panic!("{method} {template} {status} has no content"));
        let mut schema = content["schema"].clone();
        assert!(
            schema.as_object().is_some_and(|o| !o.is_empty()),
            "{method} {template} {status}: the document gives no schema"
        );
        schema["components"] = self.doc["components"].clone();
        schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
        let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{method} {template}: {e}"));
        validator
            .iter_errors(body)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect()
    }

    /// Fails unless `body` fits the schema of `method template`'s `status` answer.
    fn check(&mut self, method: &str, template: &str, status: u16, body: &Value) {
        let errors = self.errors(method, template, status, body);
        assert!(
            errors.is_empty(),
            "{method} {template} {status} does not match the document: {errors:?}\n{body:#}"
        );
        self.checked.push(format!("{method} {template} {status}"));
    }
}

async fn call(w: &World, method: &str, path: &str, headers: &[(&str, &str)], body: Option<Value>) -> (u16, Value) {
    let auth = format!("Bearer {KEY}");
    let mut all = vec![("authorization", auth.as_str())];
    all.extend_from_slice(headers);
    let bytes = body.map(|b| b.to_string()).unwrap_or_default();
    let (s, b, _) = raw(w, method, path, None, &all, bytes.as_bytes()).await;
    (s, b)
}

#[tokio::test]
async fn event_and_delivery_answers_match_the_document() {
    // The first attempt fails (so replay-dead and redeliver have work), the rest succeed.
    let w = World::new(vec![status(500), status(200), status(200), status(200), status(200)], 5).await;
    let mut c = Checker::new();
    // The checker sees a wrong answer.
    let wrong = json!({"eventId": 5, "deliveries": [{"id": "dlv_x"}]});
    assert!(!c.errors("POST", "/v1/events", 202, &wrong).is_empty());
    let (s, ep) = call(
        &w,
        "POST",
        "/v1/endpoints",
        &[],
        Some(json!({"url": "https://receiver.example/hook", "policy": {"model": "tanitar", "maxAttempts": 1}})),
    )
    .await;
    let ep = if s == 201 {
        ep["id"].as_str().unwrap_or_default().to_owned()
    } else {
        // Policies are another resource's; any endpoint that fails once will do.
        w.endpoint(json!("greatwait")).await
    };

    // Ingest, keyed and repeated.
    let body = json!({"endpointId": ep, "type": "invoice.paid", "payload": {"n": 1}});
    let (s, first) = call(
        &w,
        "POST",
        "/v1/events",
        &[("idempotency-key", "k1")],
        Some(body.clone()),
    )
    .await;
    c.check("POST", "/v1/events", s, &first);
    assert_eq!(s, 202);
    let (s, again) = call(&w, "POST", "/v1/events", &[("idempotency-key", "k1")], Some(body)).await;
    c.check("POST", "/v1/events", s, &again);
    assert_eq!(again, first, "a repeat answers the first answer");
    let event = first["eventId"].as_str().unwrap_or_default().to_owned();
    let dlv = first["deliveries"][0]["id"].as_str().unwrap_or_default().to_owned();

    // A refusal answers a problem.
    let (s, b) = call(
        &w,
        "POST",
        "/v1/events",
        &[],
        Some(json!({"payload": null, "endpointId": ep})),
    )
    .await;
    c.check("POST", "/v1/events", s, &b);

    // Routed by subscription: the answer carries the fan-out.
    let (s, routed) = call(
        &w,
        "POST",
        "/v1/events",
        &[],
        Some(json!({"type": "invoice.paid", "payload": 1})),
    )
    .await;
    c.check("POST", "/v1/events", s, &routed);
    assert!(routed["fanout"].is_object(), "{routed}");
    let routed_id = routed["eventId"].as_str().unwrap_or_default().to_owned();

    // A batch: one accepted, one repeated, one refused.
    let (s, batch) = call(
        &w,
        "POST",
        "/v1/events/batch",
        &[],
        Some(json!({"events": [
            {"endpointId": ep, "payload": {"n": 2}, "idempotencyKey": "b1"},
            {"endpointId": ep, "payload": {"n": 2}, "idempotencyKey": "b1"},
            {"endpointId": "ep_nope", "payload": {}},
            7
        ]})),
    )
    .await;
    c.check("POST", "/v1/events/batch", s, &batch);
    assert_eq!(
        batch["results"][0]["eventId"], batch["results"][1]["eventId"],
        "{batch}"
    );

    // The audit log.
    let (s, b) = call(&w, "GET", "/v1/events", &[], None).await;
    c.check("GET", "/v1/events", s, &b);
    let (s, b) = call(&w, "GET", &format!("/v1/events/{event}"), &[], None).await;
    c.check("GET", "/v1/events/{id}", s, &b);
    let (s, b) = call(&w, "GET", &format!("/v1/events/{routed_id}"), &[], None).await;
    c.check("GET", "/v1/events/{id}", s, &b);
    assert!(b["fanout"].is_object(), "{b}");
    let (s, b) = call(&w, "GET", &format!("/v1/events/{event}/deliveries"), &[], None).await;
    c.check("GET", "/v1/events/{id}/deliveries", s, &b);

    // The delivery runs: its first attempt fails, the policy gives up or retries.
    for _ in 0..3 {
        w.step().await;
        if let Some(t) = w.queue.next_visible_at() {
            w.clock.set(t.max(w.clock.now()));
        }
    }
    let (s, b) = call(&w, "GET", &format!("/v1/deliveries/{dlv}"), &[], None).await;
    c.check("GET", "/v1/deliveries/{id}", s, &b);
    let (s, b) = call(&w, "GET", &format!("/v1/endpoints/{ep}/deliveries"), &[], None).await;
    c.check("GET", "/v1/endpoints/{id}/deliveries", s, &b);
    let (s, attempts) = call(&w, "GET", &format!("/v1/deliveries/{dlv}/attempts"), &[], None).await;
    c.check("GET", "/v1/deliveries/{id}/attempts", s, &attempts);
    let att = attempts["items"][0]["id"].as_str().unwrap_or_default().to_owned();
    let (s, b) = call(&w, "GET", &format!("/v1/deliveries/{dlv}/attempts/{att}"), &[], None).await;
    c.check("GET", "/v1/deliveries/{id}/attempts/{attemptId}", s, &b);
    let (s, b) = call(&w, "GET", &format!("/v1/deliveries/{dlv}/attempts/att_nope"), &[], None).await;
    c.check("GET", "/v1/deliveries/{id}/attempts/{attemptId}", s, &b);

    // Sending again: the answers of replay-dead, replay, redeliver (first and repeat).
    let (s, b) = call(&w, "POST", &format!("/v1/endpoints/{ep}/replay-dead"), &[], None).await;
    c.check("POST", "/v1/endpoints/{id}/replay-dead", s, &b);
    let since = courier_app::api::http::limits::REPLAY_MAX_DAYS;
    let since = w.clock.now().plus_secs(-since * 86_400 + 60).to_rfc3339();
    let (s, b) = call(
        &w,
        "POST",
        &format!("/v1/endpoints/{ep}/replay"),
        &[("idempotency-key", "r1")],
        Some(json!({"since": since})),
    )
    .await;
    c.check("POST", "/v1/endpoints/{id}/replay", s, &b);
    assert_eq!(s, 202, "{b}");
    for _ in 0..4 {
        w.step().await;
        if let Some(t) = w.queue.next_visible_at() {
            w.clock.set(t.max(w.clock.now()));
        }
    }
    let (s, b) = call(
        &w,
        "POST",
        &format!("/v1/deliveries/{dlv}/redeliver"),
        &[("idempotency-key", "d1")],
        Some(json!({"sourceAttemptId": att})),
    )
    .await;
    c.check("POST", "/v1/deliveries/{id}/redeliver", s, &b);
    let (s2, b2) = call(
        &w,
        "POST",
        &format!("/v1/deliveries/{dlv}/redeliver"),
        &[("idempotency-key", "d1")],
        Some(json!({"sourceAttemptId": att})),
    )
    .await;
    c.check("POST", "/v1/deliveries/{id}/redeliver", s2, &b2);
    let (s, b) = call(&w, "POST", &format!("/v1/deliveries/{dlv}/redrive"), &[], None).await;
    c.check("POST", "/v1/deliveries/{id}/redrive", s, &b);

    let statuses: Vec<&String> = c
        .checked
        .iter()
        .filter(|k| k.ends_with(" 202") || k.ends_with(" 200") || k.ends_with(" 207"))
        .collect();
    assert!(
        statuses.len() >= 15,
        "too few successful answers checked: {:?}",
        c.checked
    );
}

#[tokio::test]
async fn a_completion_report_answers_what_the_document_says() {
    let w = World::new(vec![status(202)], 0).await;
    let mut c = Checker::new();
    let (s, b) = call(
        &w,
        "POST",
        "/v1/endpoints",
        &[],
        Some(json!({"url": "https://r.example/h", "policy": "greatwait", "longRunningAllowanceSeconds": 60})),
    )
    .await;
    assert_eq!(s, 201, "{b}");
    w.event(b["id"].as_str().unwrap_or_default()).await;
    w.step().await;
    let sent = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    let header = |n: &str| {
        sent.last()
            .and_then(|r| r.headers.iter().find(|(k, _)| k == n))
            .map(|(_, v)| v.to_string())
            .unwrap_or_else(|| panic!("no {n}"))
    };
    let (att, token) = (header("webhook-attempt-id"), header("webhook-completion-token"));
    let path = format!("/v1/attempts/{att}/complete");
    let report = json!({"outcome": "succeeded", "detail": "done"}).to_string();
    let headers = [
        ("webhook-completion-token", token.as_str()),
        ("content-type", "application/json"),
    ];
    let (s, b, _) = raw(&w, "POST", &path, None, &headers, report.as_bytes()).await;
    assert_eq!(s, 200, "{b}");
    c.check("POST", "/v1/attempts/{attemptId}/complete", s, &b);
    // Reported twice: a problem.
    let (s, b, _) = raw(&w, "POST", &path, None, &headers, report.as_bytes()).await;
    c.check("POST", "/v1/attempts/{attemptId}/complete", s, &b);
}

/// The rules `EventIn`'s schema states beyond its fields (not both endpoint
/// fields, `type` required to route, no `applicationId` with named endpoints; null
/// as left out) are the ones the code applies: a body the schema accepts is not
/// refused with 400, and one it refuses is.
#[tokio::test]
async fn event_in_schema_accepts_what_ingest_accepts() {
    let w = World::new(vec![], 0).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let doc = doc();
    let mut schema = doc["components"]["schemas"]["EventIn"].clone();
    schema["components"] = doc["components"].clone();
    schema["$schema"] = json!("https://json-schema.org/draft/2020-12/schema");
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("EventIn: {e}"));
    let bodies = [
        json!({"endpointId": ep, "payload": 1}),
        json!({"endpointIds": [ep], "payload": 1}),
        json!({"endpointId": ep, "endpointIds": null, "payload": 1}),
        json!({"endpointId": null, "endpointIds": [ep], "payload": 1}),
        json!({"endpointId": ep, "endpointIds": [ep], "payload": 1}),
        json!({"endpointId": ep, "applicationId": "acme", "payload": 1}),
        json!({"endpointId": ep, "applicationId": null, "payload": 1}),
        json!({"type": "invoice.paid", "payload": 1}),
        json!({"type": "invoice.paid", "endpointId": null, "payload": 1}),
        json!({"type": "not a type name", "payload": 1}),
        json!({"payload": 1}),
        json!({"type": null, "payload": 1}),
        json!({"endpointId": ep, "type": "any text at all", "payload": 1}),
        json!({"endpointId": ep, "payload": null}),
        json!({"endpointId": ep}),
        json!({"endpointIds": [], "payload": 1}),
        json!({"endpointIds": [ep, ep], "payload": 1}),
        json!({"endpointId": ep, "payload": 1, "extra": true}),
    ];
    for body in bodies {
        let valid = validator.is_valid(&body);
        let (s, answer) = w.call("POST", "/v1/events", body.clone()).await;
        assert_eq!(
            valid,
            s != 400,
            "{body}: the document says valid={valid}; ingest answered {s} {answer}"
        );
    }
}
