//! End-to-end: event type schemas on the local stack (moto DynamoDB, the real HTTP
//! API, the sender): a type declared with a schema through the API refuses an event
//! whose payload does not match (422 `payload_invalid` with the pointer, nothing
//! stored or sent) and accepts one that does, which reaches the receiver; an
//! application is created, found by its uid and deleted on the same table.

use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use serde_json::json;
use std::time::Duration;

const SETTLE: Duration = Duration::from_secs(60);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declared_schema_refuses_a_bad_payload_with_its_pointer_and_lets_a_good_one_through() {
    let h = Harness::start(test_options("event-types")).await;
    let rx = ScriptedReceiver::start(vec![Reply::Status(200)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"));
    let (ep, _) = h.endpoint(&rx.url(), json!({})).await;
    let schema = json!({
        "type": "object",
        "required": ["amount", "currency"],
        "properties": {
            "amount": {"type": "integer", "minimum": 1},
            "currency": {"enum": ["EUR", "USD"]}
        }
    });
    let (s, b) = h
        .call(
            "POST",
            "/v1/event-types",
            Some(json!({"name": "invoice.paid", "description": "An invoice was paid.", "schema": schema})),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["schema"], schema);
    let (s, b) = h.call("GET", "/v1/event-types/invoice.paid", None).await;
    assert_eq!((s, b["deprecated"].clone()), (200, json!(false)), "{b}");

    let bad = json!({"endpointId": ep, "type": "invoice.paid", "payload": {"amount": 0, "currency": "EUR"}});
    let (s, b) = h.call("POST", "/v1/events", Some(bad)).await;
    assert_eq!(s, 422, "{b}");
    assert_eq!(b["code"], "payload_invalid");
    assert_eq!(b["type"], "https://courier.dev/problems/payload-invalid");
    assert_eq!(b["pointer"], "/amount");
    assert_eq!(
        b["detail"],
        "field `payload` does not match the schema of event type \"invoice.paid\" at \"/amount\": 0 is less than the minimum of 1"
    );
    let (_, events) = h.call("GET", "/v1/events", None).await;
    assert_eq!(events["items"], json!([]), "a refused event is not stored");

    let good = json!({"endpointId": ep, "type": "invoice.paid", "payload": {"amount": 1200, "currency": "EUR"}});
    let (s, b) = h.call("POST", "/v1/events", Some(good)).await;
    assert_eq!(s, 202, "{b}");
    let id = b["deliveries"][0]["id"].as_str().unwrap_or_default().to_owned();
    let d = h.settled(&id, SETTLE).await;
    assert_eq!(d["status"], "succeeded", "{d}");
    rx.wait_for(1, Duration::from_secs(20)).await;
    let received = rx.received();
    assert_eq!(received.len(), 1);
    let envelope: serde_json::Value = serde_json::from_slice(&received[0].body).unwrap_or_default();
    assert_eq!(envelope["type"], "invoice.paid");
    assert_eq!(envelope["data"], json!({"amount": 1200, "currency": "EUR"}));

    // Applications on the same table: created, found by uid, the uid unique, deleted.
    let (s, b) = h
        .call(
            "POST",
            "/v1/applications",
            Some(json!({"name": "Acme", "uid": "cust-42"})),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let app = b["id"].as_str().unwrap_or_default().to_owned();
    let (s, b) = h.call("GET", "/v1/applications/cust-42", None).await;
    assert_eq!((s, b["id"].clone()), (200, json!(app)), "{b}");
    let (s, b) = h
        .call(
            "POST",
            "/v1/applications",
            Some(json!({"name": "Copy", "uid": "cust-42"})),
        )
        .await;
    assert_eq!((s, b["code"].clone()), (409, json!("conflict")), "{b}");
    let (s, b) = h.call("DELETE", "/v1/applications/cust-42", None).await;
    assert_eq!((s, b), (200, json!({"id": app, "deleted": true})));
    let (s, _) = h.call("GET", &format!("/v1/applications/{app}"), None).await;
    assert_eq!(s, 404);
    h.stop().await;
}
