//! Destination endpoints through the API and the sender with a scripted
//! destination port: admission (400 naming the field), the external id, the
//! message the port is given (signed as a webhook is), and each AWS answer judged
//! by the endpoint's policy as the HTTP status it means.

use crate::common::{World, status};
use courier_app::domain::model::DeliveryStatus;
use courier_core::ids::DeliveryId;
use courier_core::outcome::{AttemptOutcome, DestinationAnswer, ResponseSummary};
use courier_core::signing::{SigningSecret, verify};
use serde_json::{Value, json};

const ROLE: &str = "arn:aws:iam::111122223333:role/courier-delivery";

fn sqs(queue: &str) -> Value {
    json!({"type": "sqs", "queueUrl": format!("https://sqs.eu-west-1.amazonaws.com/111122223333/{queue}"), "roleArn": ROLE})
}

fn answer(status: u16, code: &str) -> AttemptOutcome {
    AttemptOutcome::Response(ResponseSummary::from_destination(
        status,
        DestinationAnswer {
            code: Some(code.into()),
            request_id: Some("req-9".into()),
            message_id: None,
        },
    ))
}

async fn create(w: &World, body: Value) -> (u16, Value) {
    w.call("POST", "/v1/endpoints", body).await
}

fn refused_field(s: u16, b: &Value) -> String {
    assert_eq!(s, 400, "{b}");
    assert_eq!(b["code"], "validation_failed", "{b}");
    let detail = b["detail"].as_str().unwrap_or_default();
    detail
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no field named in {detail}"))
        .to_owned()
}

async fn attempts(w: &World, id: &DeliveryId) -> Vec<Value> {
    let (s, b) = w.call("GET", &format!("/v1/deliveries/{id}/attempts"), json!({})).await;
    assert_eq!(s, 200, "{b}");
    b["items"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn bad_destinations_are_refused_naming_the_field() {
    let w = World::new(vec![], 0).await;
    let (s, b) = create(
        &w,
        json!({"url": "https://receiver.example/hook", "destination": sqs("q"), "policy": "greatwait"}),
    )
    .await;
    assert_eq!(refused_field(s, &b), "destination");
    let (s, b) = create(
        &w,
        json!({"destination": {"type": "pubsub", "roleArn": ROLE}, "policy": "greatwait"}),
    )
    .await;
    assert_eq!(refused_field(s, &b), "destination.type");
    let (s, b) = create(
        &w,
        json!({"destination": {"type": "sns", "topicArn": "arn:aws:sns:eu-west-1:42:t", "roleArn": ROLE}, "policy": "greatwait"}),
    )
    .await;
    assert_eq!(refused_field(s, &b), "destination.topicArn");
    let (s, b) = create(
        &w,
        json!({"destination": {"type": "sqs", "queueUrl": "https://example.com/111122223333/q", "roleArn": ROLE}, "policy": "greatwait"}),
    )
    .await;
    assert_eq!(refused_field(s, &b), "destination.queueUrl");
    let (s, b) = create(&w, json!({"policy": "greatwait"})).await;
    assert_eq!(refused_field(s, &b), "url");
    let (s, b) = create(
        &w,
        json!({"destination": sqs("q"), "policy": "greatwait", "headers": [{"name": "x-api-key", "value": "k"}]}),
    )
    .await;
    assert_eq!(refused_field(s, &b), "headers");
    let oauth = json!({"type": "oauth2_client_credentials", "tokenUrl": "https://auth.example.com/token",
                       "clientId": "c", "clientSecret": "s"});
    let (s, b) = create(
        &w,
        json!({"destination": sqs("q"), "policy": "greatwait", "auth": oauth.clone()}),
    )
    .await;
    assert_eq!(refused_field(s, &b), "auth");
    let (s, b) = create(
        &w,
        json!({"destination": sqs("q"), "policy": "greatwait", "tls": {"caBundle": "x"}}),
    )
    .await;
    assert_eq!(refused_field(s, &b), "tls");
    // Nor can a webhook's OAuth be kept when it becomes a destination.
    let (s, hook) = create(
        &w,
        json!({"url": "https://example.com/hook", "policy": "greatwait", "auth": oauth}),
    )
    .await;
    assert_eq!(s, 201, "{hook}");
    let path = format!("/v1/endpoints/{}", hook["id"].as_str().unwrap_or_default());
    let (s, b) = w.call("PATCH", &path, json!({"destination": sqs("q")})).await;
    assert_eq!(refused_field(s, &b), "auth");
    let (s, b) = w
        .call("PATCH", &path, json!({"destination": sqs("q"), "auth": null}))
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!((&b["auth"], &b["destination"]["type"]), (&Value::Null, &json!("sqs")));
}

#[tokio::test]
async fn a_role_outside_the_deployments_pattern_is_refused() {
    let mut w = World::new(vec![], 0).await;
    w.api.settings.destination_roles =
        courier_core::destination::RolePattern::from_setting(Some("arn:aws:iam::*:role/courier-*"));
    let (s, b) = create(&w, json!({"destination": sqs("q"), "policy": "greatwait"})).await;
    assert_eq!(s, 201, "{b}");
    let mut other = sqs("q");
    other["roleArn"] = json!("arn:aws:iam::111122223333:role/admin");
    let (s, b) = create(&w, json!({"destination": other, "policy": "greatwait"})).await;
    assert_eq!(refused_field(s, &b), "destination.roleArn");
    w.api.settings.destination_roles = courier_core::destination::RolePattern::None;
    let (s, b) = create(&w, json!({"destination": sqs("q"), "policy": "greatwait"})).await;
    assert_eq!(refused_field(s, &b), "destination.roleArn");
}

#[tokio::test]
async fn the_external_id_is_shown_on_the_application_before_any_endpoint() {
    let w = World::new(vec![], 0).await;
    let (s, app) = w.call("POST", "/v1/applications", json!({"name": "Acme"})).await;
    assert_eq!(s, 201, "{app}");
    let external = app["externalId"].as_str().unwrap_or_default().to_owned();
    assert!(external.starts_with("courier-"), "{app}");
    let (s, ep) = create(
        &w,
        json!({"destination": sqs("orders"), "policy": "greatwait", "applicationId": app["id"]}),
    )
    .await;
    assert_eq!(s, 201, "{ep}");
    assert_eq!(ep["url"], Value::Null);
    assert_eq!(ep["destination"]["externalId"], json!(external));
    assert_eq!(ep["destination"]["type"], "sqs");
    assert_eq!(ep["destination"]["roleArn"], ROLE);
    // Endpoints without an application share their tenant's id, another one.
    let (_, bare) = create(&w, json!({"destination": sqs("orders"), "policy": "greatwait"})).await;
    let tenant_id = bare["destination"]["externalId"].as_str().unwrap_or_default();
    assert!(tenant_id.starts_with("courier-"));
    assert_ne!(tenant_id, external);
    // A destination endpoint can be turned back into a webhook, and back again.
    let id = bare["id"].as_str().unwrap_or_default();
    let (s, b) = w
        .call(
            "PATCH",
            &format!("/v1/endpoints/{id}"),
            json!({"url": "https://receiver.example/x"}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (b["url"].clone(), b.get("destination").cloned()),
        (json!("https://receiver.example/x"), None)
    );
    let (s, b) = w
        .call(
            "PATCH",
            &format!("/v1/endpoints/{id}"),
            json!({"destination": sqs("other")}),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["url"], Value::Null);
    assert_eq!(
        b["destination"]["queueUrl"],
        "https://sqs.eu-west-1.amazonaws.com/111122223333/other"
    );
}

#[tokio::test]
async fn the_destination_gets_the_signed_envelope_instead_of_a_request() {
    let w = World::new(vec![], 0).await;
    let mut dest = sqs("orders.fifo");
    dest["messageGroupPointer"] = json!("/data/k");
    let (s, ep) = create(&w, json!({"destination": dest, "policy": "greatwait"})).await;
    assert_eq!(s, 201, "{ep}");
    let secret = SigningSecret::parse(ep["secret"].as_str().unwrap_or_default()).expect("secret");
    let id = w.event(ep["id"].as_str().unwrap_or_default()).await;
    w.run(&id, 3).await;
    assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Succeeded);
    assert!(
        w.http.requests.lock().map(|r| r.is_empty()).unwrap_or(false),
        "no HTTP request"
    );
    let sent = w.destinations.messages.lock().map(|m| m.clone()).unwrap_or_default();
    assert_eq!(sent.len(), 1);
    let m = &sent[0];
    assert_eq!(m.webhook_id, id.to_string());
    assert_eq!(m.attempt, 1);
    // The event's payload is {"k": 1}: the group is the pointer's value.
    assert_eq!(m.key, "1");
    assert_eq!(
        m.external_id,
        ep["destination"]["externalId"].as_str().unwrap_or_default()
    );
    let ts: i64 = m.timestamp.parse().expect("timestamp");
    assert!(verify(&secret, &m.webhook_id, ts, &m.body, &m.signature));
    let envelope: Value = serde_json::from_slice(&m.body).expect("envelope");
    assert_eq!(envelope["data"], json!({"k": 1}));
    let a = attempts(&w, &id).await;
    assert_eq!(a[0]["state"], "succeeded");
    assert_eq!(a[0]["responseStatus"], 200);
    assert_eq!(a[0]["messageId"], "msg-ok");
    assert_eq!(a[0].get("destinationError"), None);
}

#[tokio::test]
async fn throttling_is_retried_and_the_aws_error_is_recorded() {
    let w = World::new(vec![], 0).await;
    *w.destinations.script.lock().unwrap_or_else(|e| e.into_inner()) =
        vec![answer(429, "ThrottlingException"), answer(503, "InternalError")].into();
    let (_, ep) = create(&w, json!({"destination": sqs("q"), "policy": "greatwait"})).await;
    let id = w.event(ep["id"].as_str().unwrap_or_default()).await;
    w.run(&id, 10).await;
    assert_eq!(w.delivery(&id).await.status, DeliveryStatus::Succeeded);
    let a = attempts(&w, &id).await;
    let seen: Vec<(Value, Value, Value)> = a
        .iter()
        .map(|a| (a["state"].clone(), a["diagnostic"].clone(), a["responseStatus"].clone()))
        .collect();
    assert_eq!(
        seen,
        vec![
            (json!("retryable_failure"), json!("destination_throttled"), json!(429)),
            (json!("retryable_failure"), json!("destination_unavailable"), json!(503)),
            (json!("succeeded"), json!("delivered"), json!(200)),
        ]
    );
    assert_eq!(
        a[0]["destinationError"],
        json!({"code": "ThrottlingException", "requestId": "req-9"})
    );
    assert_eq!(a[0]["countsTowardReceiverFailures"], false);
}

#[tokio::test]
async fn a_refused_role_is_a_destination_refusal_to_review_the_endpoint() {
    let w = World::new(vec![], 0).await;
    *w.destinations.script.lock().unwrap_or_else(|e| e.into_inner()) = vec![answer(403, "AccessDenied")].into();
    let (_, ep) = create(
        &w,
        json!({"destination": sqs("q"), "policy": {"base": "tanitar", "maxAttempts": 1}}),
    )
    .await;
    let id = w.event(ep["id"].as_str().unwrap_or_default()).await;
    w.run(&id, 5).await;
    let a = attempts(&w, &id).await;
    assert_eq!(a[0]["diagnostic"], "destination_refused");
    assert_eq!(a[0]["remediation"], "review_endpoint");
    assert_eq!(a[0]["destinationError"]["code"], "AccessDenied");
}

#[tokio::test]
async fn a_vanished_queue_is_gone_under_tanitar_and_disables_under_smartchat() {
    let w = World::new(vec![], 0).await;
    *w.destinations.script.lock().unwrap_or_else(|e| e.into_inner()) = vec![
        answer(410, "AWS.SimpleQueueService.NonExistentQueue"),
        answer(410, "AWS.SimpleQueueService.NonExistentQueue"),
    ]
    .into();
    let (_, tanitar) = create(&w, json!({"destination": sqs("q"), "policy": "tanitar"})).await;
    let id = w.event(tanitar["id"].as_str().unwrap_or_default()).await;
    w.run(&id, 5).await;
    let d = w.delivery(&id).await;
    assert_eq!(d.status, DeliveryStatus::Failed);
    assert_eq!(d.dead_reason.as_deref(), Some("ENDPOINT_GONE"));
    assert_eq!(attempts(&w, &id).await[0]["diagnostic"], "destination_gone");
    let (_, smartchat) = create(&w, json!({"destination": sqs("q2"), "policy": "smartchat"})).await;
    let sid = smartchat["id"].as_str().unwrap_or_default().to_owned();
    let id = w.event(&sid).await;
    w.run(&id, 5).await;
    let (_, view) = w.call("GET", &format!("/v1/endpoints/{sid}"), json!({})).await;
    assert_eq!(view["status"], "disabled", "{view}");
}

#[tokio::test]
async fn a_test_message_goes_to_the_destination() {
    let w = World::new(vec![status(500)], 0).await;
    let (_, ep) = create(&w, json!({"destination": sqs("q"), "policy": "greatwait"})).await;
    let epid = ep["id"].as_str().unwrap_or_default();
    let (s, b) = w.call("POST", &format!("/v1/endpoints/{epid}/test"), json!({})).await;
    assert_eq!(s, 202, "{b}");
    let id = DeliveryId::parse(b["deliveryId"].as_str().unwrap_or_default()).expect("id");
    w.run(&id, 3).await;
    let a = attempts(&w, &id).await;
    assert_eq!(a[0]["trigger"], "test");
    assert_eq!(a[0]["messageId"], "msg-ok");
    let sent = w.destinations.messages.lock().map(|m| m.len()).unwrap_or(0);
    assert_eq!(sent, 1);
}
