//! End-to-end: endpoint credentials at rest on the local stack (DynamoDB and KMS on
//! the emulator). After a create, a rotation and a write that seals a new secret
//! header value beside a kept one, the table's raw items hold none of the secrets;
//! the receiver still gets them; the migration seals what an older layout stored
//! in the clear.

use courier_app::domain::model::{Credential, CustomHeader};
use courier_app::endpoints::credentials::{MigrationRun, seal_stored};
use courier_app::ports::EndpointStore;
use courier_core::ids::EndpointId;
use courier_core::signing::{SigningSecret, verify};
use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use serde_json::{Value, json};
use std::time::Duration;

/// Every item of the table, as text (the test tables are small: one page).
async fn raw_items(h: &Harness) -> String {
    let out = h
        .stack
        .store
        .client()
        .scan()
        .table_name(h.stack.store.table())
        .send()
        .await
        .unwrap_or_else(|e| panic!("scan: {e}"));
    assert!(out.last_evaluated_key().is_none(), "more than one page");
    format!("{:?}", out.items())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_holds_no_plaintext_secret_after_create_rotate_and_rewrite() {
    let h = Harness::start(test_options("sealed")).await;
    let rx = ScriptedReceiver::start(vec![Reply::Status(200)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"));
    let (s, b) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({
                "url": rx.url(),
                "policy": "greatwait",
                "headers": [
                    {"name": "X-Api-Key", "value": "k-e2e-secret-1", "secret": true},
                    {"name": "X-Team", "value": "plain-team-value"},
                ],
            })),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let ep = b["id"].as_str().unwrap_or_default().to_owned();
    let first = b["secret"].as_str().unwrap_or_default().to_owned();
    let (s, b) = h
        .call(
            "POST",
            &format!("/v1/endpoints/{ep}/secrets/rotate"),
            Some(json!({"graceSeconds": 3600})),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let second = b["secret"].as_str().unwrap_or_default().to_owned();
    // A write that seals a new secret value and keeps the stored one.
    let (s, b) = h
        .call(
            "PATCH",
            &format!("/v1/endpoints/{ep}"),
            Some(json!({"headers": [
                {"name": "X-Api-Key", "value": null, "secret": true},
                {"name": "X-Other-Key", "value": "k-e2e-secret-2", "secret": true},
                {"name": "X-Team", "value": "plain-team-value"},
            ]})),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    // An OAuth client secret, created and then kept through a change of scope.
    let auth = json!({"type": "oauth2_client_credentials", "tokenUrl": format!("{}/token", rx.url()),
        "clientId": "courier-e2e", "clientSecret": "oauth-e2e-secret-3"});
    let (s, b) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({"url": rx.url(), "policy": "greatwait", "auth": auth})),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    assert_eq!(b["auth"]["clientSecret"], Value::Null, "{b}");
    let oauth_ep = b["id"].as_str().unwrap_or_default().to_owned();
    let (s, b) = h
        .call(
            "PATCH",
            &format!("/v1/endpoints/{oauth_ep}"),
            Some(
                json!({"auth": {"type": "oauth2_client_credentials", "tokenUrl": format!("{}/token", rx.url()),
                "clientId": "courier-e2e", "scope": "events.write"}}),
            ),
        )
        .await;
    assert_eq!(s, 200, "{b}");
    let items = raw_items(&h).await;
    assert!(items.contains("plain-team-value"), "the scan reads the endpoint item");
    assert!(items.contains("events.write"), "the scan reads the OAuth endpoint");
    for secret in [
        "k-e2e-secret-1",
        "k-e2e-secret-2",
        "oauth-e2e-secret-3",
        first.as_str(),
        second.as_str(),
    ] {
        assert!(!items.contains(secret), "{secret} is stored in the clear");
    }
    assert!(items.contains("DEK#"), "the tenant's wrapped data key is stored");

    let (s, b) = h
        .call(
            "POST",
            "/v1/events",
            Some(json!({"endpointId": ep, "payload": {"n": 1}})),
        )
        .await;
    assert_eq!(s, 202, "{b}");
    let got = rx.wait_for(1, Duration::from_secs(30)).await;
    let r = &got[0];
    assert_eq!(r.header("x-api-key"), Some("k-e2e-secret-1"));
    assert_eq!(r.header("x-other-key"), Some("k-e2e-secret-2"));
    let ts: i64 = r
        .header("webhook-timestamp")
        .unwrap_or_default()
        .parse()
        .unwrap_or_default();
    let (id, sig) = (
        r.header("webhook-id").unwrap_or_default(),
        r.header("webhook-signature").unwrap_or_default(),
    );
    for s in [&first, &second] {
        let key = SigningSecret::parse(s).unwrap();
        assert!(verify(&key, id, ts, &r.body, sig), "not signed with {s}");
    }
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_migration_seals_credentials_stored_in_the_clear() {
    let h = Harness::start(test_options("migrate")).await;
    let (s, b) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({"url": "http://127.0.0.1:9999/hook", "policy": "greatwait"})),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let id = EndpointId::parse(b["id"].as_str().unwrap_or_default()).unwrap();
    let store = h.stack.store.clone();
    let mut e = store
        .get_endpoint(&h.stack.tenant.id, &id)
        .await
        .ok()
        .flatten()
        .unwrap_or_else(|| panic!("no endpoint"));
    // As the v1 layout stored them: plain text.
    e.secrets[0].secret = Credential::Plain("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw".into());
    e.headers = vec![CustomHeader {
        name: "X-Api-Key".into(),
        value: Credential::Plain("k-v1-plain".into()),
        secret: true,
    }];
    let version = e.version;
    e.version += 1;
    store.update_endpoint(&e, version).await.unwrap();
    let items = raw_items(&h).await;
    assert!(items.contains("k-v1-plain") && items.contains("whsec_MfKQ9r8"));
    let report = seal_stored(
        store.as_ref(),
        h.stack.api.sealer.as_ref(),
        MigrationRun::default(),
        |_| {},
    )
    .await
    .unwrap();
    assert_eq!((report.sealed, report.next_cursor), (1, None));
    let items = raw_items(&h).await;
    assert!(
        !items.contains("k-v1-plain") && !items.contains("whsec_MfKQ9r8"),
        "{items}"
    );
    let again = seal_stored(
        store.as_ref(),
        h.stack.api.sealer.as_ref(),
        MigrationRun::default(),
        |_| {},
    )
    .await
    .unwrap();
    assert_eq!(again.sealed, 0);
    h.stop().await;
}
