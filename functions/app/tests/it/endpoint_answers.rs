//! The endpoint and portal answers hold to the schemas the generated document
//! gives them: each answer of a scenario (URL, destination and custom-policy
//! endpoints with headers and OAuth, their lifecycle, portal links and a session)
//! is validated against its operation's 2xx schema, and no answer shows a secret.

use crate::common::{KEY, World, raw, status};
use serde_json::{Value, json};

fn doc() -> Value {
    serde_json::from_str(&courier_app::api::openapi::document_json()).unwrap_or_default()
}

/// Every way `answer` breaks the schema of the operation's `code` answer.
fn errors(doc: &Value, path: &str, method: &str, code: u16, answer: &Value) -> Vec<String> {
    let op = &doc["paths"][path][method];
    let schema = &op["responses"][code.to_string()]["content"]["application/json"]["schema"];
    assert!(schema.is_object(), "{method} {path} {code}: no schema");
    let mut root = schema.clone();
    root["components"] = doc["components"].clone();
    let validator = jsonschema::draft202012::options()
        .with_pattern_options(jsonschema::PatternOptions::regex())
        .build(&root)
        .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
    validator
        .iter_errors(answer)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// Fails naming every way `answer` breaks the schema of the operation's `code` answer.
fn check(doc: &Value, path: &str, method: &str, code: u16, answer: &Value) {
    let errors = errors(doc, path, method, code, answer);
    assert!(errors.is_empty(), "{method} {path} {code}: {errors:?}\n{answer:#}");
}

async fn call_as(w: &World, token: &str, method: &str, path: &str, body: Value) -> (u16, Value) {
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

/// Calls as the API key, checks the status and the answer's schema; the answer.
async fn checked(w: &World, doc: &Value, method: &str, template: &str, path: &str, body: Value, want: u16) -> Value {
    let (s, b) = call_as(w, KEY, method, path, body).await;
    assert_eq!(s, want, "{method} {path}: {b}");
    check(doc, template, &method.to_ascii_lowercase(), want, &b);
    b
}

#[tokio::test]
async fn endpoint_and_portal_answers_match_their_schemas() {
    let doc = doc();
    let w = World::new(vec![status(200); 8], 5).await;
    let secret_header = "h-s3cret-value";
    let client_secret = "oauth-s3cret";
    let with_all = json!({
        "url": "https://receiver.example/hook",
        "policy": {"base": "tanitar", "maxAttempts": 4, "retryAfter": null},
        "description": "all fields",
        "filterTypes": ["invoice.*"],
        "channels": ["eu"],
        "rateLimit": {"perSecond": 2.5, "burst": 5},
        "maxInFlight": 3,
        "failingAfter": 4,
        "headers": [{"name": "X-Key", "value": secret_header, "secret": true}, {"name": "X-Plain", "value": "p"}],
        "auth": {"type": "oauth2_client_credentials", "tokenUrl": "https://auth.example/oauth/token",
                 "clientId": "courier", "clientSecret": client_secret},
    });
    let created = checked(&w, &doc, "POST", "/v1/endpoints", "/v1/endpoints", with_all, 201).await;
    let ep = created["id"].as_str().unwrap_or_default().to_owned();
    let one = format!("/v1/endpoints/{ep}");
    let smart = w.endpoint(json!("smartchat")).await;
    let breaker = w.endpoint(json!("greatwait")).await;
    let sqs = json!({"url": null, "policy": "gavai", "destination": {"type": "sqs",
        "queueUrl": "https://sqs.eu-west-1.amazonaws.com/111122223333/orders",
        "roleArn": "arn:aws:iam::111122223333:role/courier-delivery"}});
    let (s, dest) = call_as(&w, KEY, "POST", "/v1/endpoints", sqs).await;
    assert_eq!(s, 201, "{dest}");
    check(&doc, "/v1/endpoints", "post", 201, &dest);
    assert!(dest["destination"]["externalId"].is_string(), "{dest}");
    // The check is not vacuous: a status the schema does not list fails it.
    let mut broken = dest.clone();
    broken["status"] = json!("sleeping");
    assert!(!errors(&doc, "/v1/endpoints", "post", 201, &broken).is_empty());
    let mut answers = vec![created.clone(), dest];
    for id in [&ep, &smart, &breaker] {
        let path = format!("/v1/endpoints/{id}");
        answers.push(checked(&w, &doc, "GET", "/v1/endpoints/{id}", &path, json!({}), 200).await);
    }
    answers.push(checked(&w, &doc, "GET", "/v1/endpoints", "/v1/endpoints", json!({}), 200).await);
    let patch = json!({"filterTypes": null, "channels": null, "maxInFlight": null, "rateLimit": null,
                       "headers": [{"name": "X-Key", "value": null, "secret": true}]});
    answers.push(checked(&w, &doc, "PATCH", "/v1/endpoints/{id}", &one, patch, 200).await);
    let disable = format!("{one}/disable");
    answers.push(checked(&w, &doc, "POST", "/v1/endpoints/{id}/disable", &disable, json!({}), 200).await);
    let enable = format!("/v1/endpoints/{smart}/enable");
    let now = courier_app::ports::Clock::now(w.clock.as_ref());
    let since = json!({"replaySince": now.plus_secs(-3600).to_rfc3339()});
    let b = checked(&w, &doc, "POST", "/v1/endpoints/{id}/enable", &enable, since, 200).await;
    assert!(b["replayed"].is_u64(), "{b}");
    let enable = format!("{one}/enable");
    answers.push(checked(&w, &doc, "POST", "/v1/endpoints/{id}/enable", &enable, json!({}), 200).await);
    let rotate = format!("{one}/secrets/rotate");
    let rotated = checked(
        &w,
        &doc,
        "POST",
        "/v1/endpoints/{id}/secrets/rotate",
        &rotate,
        json!({}),
        200,
    )
    .await;
    assert!(rotated["secret"].as_str().is_some_and(|s| s.starts_with("whsec_")));
    answers.push(rotated["secrets"].clone());
    let test = format!("/v1/endpoints/{breaker}/test");
    checked(&w, &doc, "POST", "/v1/endpoints/{id}/test", &test, json!({}), 202).await;

    let link = checked(
        &w,
        &doc,
        "POST",
        "/v1/portal-links",
        "/v1/portal-links",
        json!({"endpointIds": [ep], "expiresInSeconds": 600.0}),
        201,
    )
    .await;
    let token = link["token"].as_str().unwrap_or_default().to_owned();
    let (s, session) = call_as(&w, &token, "GET", "/v1/portal/session", json!({})).await;
    assert_eq!(s, 200, "{session}");
    check(&doc, "/v1/portal/session", "get", 200, &session);
    let revoke = format!("/v1/portal-links/{}", link["id"].as_str().unwrap_or_default());
    checked(&w, &doc, "DELETE", "/v1/portal-links/{id}", &revoke, json!({}), 200).await;
    answers.push(
        checked(
            &w,
            &doc,
            "POST",
            "/v1/endpoints/{id}/revoke",
            &format!("{one}/revoke"),
            json!({}),
            200,
        )
        .await,
    );
    answers.push(checked(&w, &doc, "DELETE", "/v1/endpoints/{id}", &one, json!({}), 200).await);

    // Write-only values stay out of every answer.
    for a in &answers {
        let text = a.to_string();
        assert!(!text.contains(secret_header) && !text.contains(client_secret), "{text}");
    }
    assert_eq!(created["headers"][0]["value"], Value::Null);
    assert_eq!(created["auth"]["clientSecret"], Value::Null);
}
