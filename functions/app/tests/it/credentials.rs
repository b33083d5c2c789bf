//! Endpoint credentials at rest and in the sender, on the in-memory fakes: stored
//! sealed, opened for the attempt (signature and headers as set), an unreachable
//! key service declines the attempt as `credentials_unavailable` (nothing sent), and
//! in steady state a sender asks the key service nothing.

use crate::common::{World, status};
use courier_app::adapters::envelope::EnvelopeSealer;
use courier_app::delivery::StepOutcome;
use courier_app::ports::EndpointStore;
use courier_app::testing::memory::FixedSecrets;
use courier_core::ids::EndpointId;
use courier_core::signing::{SigningSecret, verify};
use serde_json::{Value, json};
use std::sync::Arc;

async fn endpoint_with_key(w: &World) -> (String, String) {
    let (s, b) = w
        .call(
            "POST",
            "/v1/endpoints",
            json!({
                "url": "https://receiver.example/hook",
                "policy": "tanitar",
                "headers": [{"name": "X-Api-Key", "value": "k-secret-123", "secret": true}],
            }),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    (
        b["id"].as_str().unwrap_or_default().to_owned(),
        b["secret"].as_str().unwrap_or_default().to_owned(),
    )
}

/// The endpoint as the store holds it, as JSON text.
async fn stored(w: &World, ep: &str) -> String {
    let id = EndpointId::parse(ep).expect("endpoint id");
    let e = w
        .store
        .get_endpoint(&w.api_tenant(), &id)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no endpoint {ep}"));
    serde_json::to_string(&e).unwrap_or_default()
}

trait TenantOf {
    fn api_tenant(&self) -> courier_core::ids::TenantId;
}

impl TenantOf for World {
    fn api_tenant(&self) -> courier_core::ids::TenantId {
        courier_core::ids::TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("tenant id")
    }
}

fn header(req: &courier_app::ports::OutboundRequest, name: &str) -> Option<String> {
    req.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.to_string())
}

#[tokio::test]
async fn credentials_are_stored_sealed_and_opened_for_the_attempt() {
    let w = World::new(vec![status(200), status(200)], 5).await;
    let (ep, secret) = endpoint_with_key(&w).await;
    assert!(secret.starts_with("whsec_"));
    let text = stored(&w, &ep).await;
    assert!(!text.contains("k-secret-123") && !text.contains(&secret), "{text}");
    let (s, rotated) = w
        .call(
            "POST",
            &format!("/v1/endpoints/{ep}/secrets/rotate"),
            json!({"graceSeconds": 3600}),
        )
        .await;
    assert_eq!(s, 200, "{rotated}");
    let new_secret = rotated["secret"].as_str().unwrap_or_default().to_owned();
    let text = stored(&w, &ep).await;
    for plain in ["k-secret-123", secret.as_str(), new_secret.as_str()] {
        assert!(!text.contains(plain), "{plain} is stored in the clear: {text}");
    }
    let sealed: Value = serde_json::from_str(&text).unwrap_or_default();
    assert_eq!(sealed["secrets"].as_array().map(Vec::len), Some(2));
    for s in sealed["secrets"].as_array().into_iter().flatten() {
        assert!(s["secret"]["ct"].is_string(), "{s}");
    }
    // The attempt carries the header as set and both signatures.
    let dlv = w.event(&ep).await;
    w.run(&dlv, 3).await;
    let sent = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    let req = &sent[0];
    assert_eq!(header(req, "x-api-key").as_deref(), Some("k-secret-123"));
    let (id, ts, sig) = (
        header(req, "webhook-id").unwrap_or_default(),
        header(req, "webhook-timestamp").unwrap_or_default(),
        header(req, "webhook-signature").unwrap_or_default(),
    );
    let ts: i64 = ts.parse().unwrap_or_default();
    for s in [&secret, &new_secret] {
        let key = SigningSecret::parse(s).unwrap();
        assert!(verify(&key, &id, ts, &req.body, &sig), "not signed with {s}");
    }
}

#[tokio::test]
async fn an_unreachable_key_service_declines_the_attempt_and_sends_nothing() {
    let mut w = World::new(vec![status(200)], 5).await;
    let (ep, _) = endpoint_with_key(&w).await;
    // Another sender instance: its cache is empty, and the key service is down.
    let keys = w.sealer.source().clone();
    keys.set_unavailable(true);
    let fresh = Arc::new(EnvelopeSealer::new(keys.clone(), Arc::new(FixedSecrets::new(21))));
    w.sender.sealer = fresh;
    let dlv = w.event(&ep).await;
    let outcomes = w.step().await;
    let [StepOutcome::Attempted { attempt, delivery }] = outcomes.as_slice() else {
        panic!("{outcomes:?}");
    };
    assert_eq!(
        (&*attempt.state, &*attempt.diagnostic, &*attempt.remediation),
        ("retryable_failure", "credentials_unavailable", "contact_support")
    );
    assert!(!attempt.counts_toward_receiver_failures);
    assert_eq!(delivery.status.as_str(), "retrying");
    assert!(
        w.http.requests.lock().map(|r| r.is_empty()).unwrap_or(false),
        "sent without credentials"
    );
    // Back: the retry goes out with the header.
    keys.set_unavailable(false);
    w.run(&dlv, 5).await;
    assert_eq!(w.delivery(&dlv).await.status.as_str(), "succeeded");
    let sent = w.http.requests.lock().map(|r| r.clone()).unwrap_or_default();
    assert_eq!(sent.len(), 1);
    assert_eq!(header(&sent[0], "x-api-key").as_deref(), Some("k-secret-123"));
}

#[tokio::test]
async fn a_sender_asks_the_key_service_once_per_tenant_then_never() {
    let mut w = World::new(vec![status(200); 6], 5).await;
    let (a, _) = endpoint_with_key(&w).await;
    let (b, _) = endpoint_with_key(&w).await;
    let keys = w.sealer.source().clone();
    w.sender.sealer = Arc::new(EnvelopeSealer::new(keys.clone(), Arc::new(FixedSecrets::new(22))));
    let before = keys.requests();
    for ep in [&a, &b, &a, &b, &a, &b] {
        let dlv = w.event(ep).await;
        w.run(&dlv, 3).await;
    }
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), 6);
    assert_eq!(
        keys.requests() - before,
        1,
        "one data key fetch for the tenant, then none"
    );
}

#[tokio::test]
async fn a_value_moved_to_another_endpoint_does_not_open_there() {
    let mut w = World::new(vec![status(200)], 5).await;
    let (a, _) = endpoint_with_key(&w).await;
    let (b, _) = endpoint_with_key(&w).await;
    let tenant = w.api_tenant();
    let read = |id: &str| {
        let store = w.store.clone();
        let tenant = tenant.clone();
        let id = EndpointId::parse(id).unwrap();
        async move {
            store
                .get_endpoint(&tenant, &id)
                .await
                .ok()
                .flatten()
                .unwrap_or_else(|| panic!("gone"))
        }
    };
    let from = read(&a).await;
    let mut to = read(&b).await;
    // Copy a's sealed header value into b, as someone with write access to the
    // table might.
    to.headers = from.headers.clone();
    let version = to.version;
    to.version += 1;
    w.store.update_endpoint(&to, version).await.unwrap();
    w.sender.sealer = Arc::new(EnvelopeSealer::new(
        w.sealer.source().clone(),
        Arc::new(FixedSecrets::new(23)),
    ));
    let _ = w.event(&b).await;
    let outcomes = w.step().await;
    let [StepOutcome::Attempted { attempt, .. }] = outcomes.as_slice() else {
        panic!("{outcomes:?}");
    };
    assert_eq!(&*attempt.diagnostic, "credentials_unavailable");
    assert!(w.http.requests.lock().map(|r| r.is_empty()).unwrap_or(false));
}
