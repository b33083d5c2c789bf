//! An endpoint's OAuth 2.0 client credentials through the API router: checked,
//! handed to the HTTP adapter with every attempt, the secret write-only (kept when
//! left out), a failed token fetch recorded as the receiver's failure, and a portal
//! link allowed to set them on its own endpoint. (TLS material is checked by the
//! HTTP adapter: see functions/http and the end-to-end tests.)

use crate::common::{KEY, World, raw, status};
use courier_app::domain::connectivity::ClientAuth;
use courier_core::outcome::{AttemptOutcome, TokenFailure};
use serde_json::{Value, json};

const SECRET: &str = "cs_live_5f1e";

fn auth(secret: Option<&str>) -> Value {
    json!({
        "type": "oauth2_client_credentials",
        "tokenUrl": "https://auth.example/oauth/token",
        "clientId": "courier",
        "clientSecret": secret,
        "scope": "hooks:write",
        "audience": "https://receiver.example",
        "clientAuth": "post",
    })
}

/// The OAuth settings of each request the adapter got: (client id, secret, auth).
fn sent_oauth(w: &World) -> Vec<Option<(String, String, ClientAuth)>> {
    w.http
        .requests
        .lock()
        .map(|r| {
            r.iter()
                .map(|q| {
                    q.connection
                        .as_ref()
                        .and_then(|c| c.oauth.as_ref())
                        .map(|o| (o.client_id.clone(), o.client_secret.clone(), o.client_auth))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test]
async fn oauth_settings_reach_the_adapter_and_the_secret_is_never_shown() {
    let token_refused = AttemptOutcome::TokenFailed(TokenFailure {
        status: Some(401),
        body: br#"{"error":"invalid_client"}"#.to_vec(),
        ..TokenFailure::default()
    });
    let w = World::new(vec![status(200), token_refused, status(200)], 5).await;
    let (s, b) = w
        .call(
            "POST",
            "/v1/endpoints",
            json!({"url": "https://receiver.example/hook", "policy": "tanitar", "auth": auth(Some(SECRET))}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let shown = json!({
        "type": "oauth2_client_credentials",
        "tokenUrl": "https://auth.example/oauth/token",
        "clientId": "courier",
        "clientSecret": null,
        "scope": "hooks:write",
        "audience": "https://receiver.example",
        "clientAuth": "post",
    });
    assert_eq!(b["auth"], shown);
    assert_eq!(b["tls"], Value::Null);
    assert!(!b.to_string().contains(SECRET), "{b}");
    let ep = b["id"].as_str().unwrap_or_default().to_owned();
    let (_, got) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!({})).await;
    assert_eq!(got["auth"], shown);
    let dlv = w.event(&ep).await;
    w.run(&dlv, 3).await;
    assert_eq!(
        sent_oauth(&w),
        vec![Some(("courier".to_owned(), SECRET.to_owned(), ClientAuth::Post))]
    );
    // Sent back as shown (secret null) with another client id: the secret is kept.
    let mut changed = shown.clone();
    changed["clientId"] = json!("courier-2");
    changed["clientAuth"] = json!("basic");
    let (s, b) = w
        .call("PATCH", &format!("/v1/endpoints/{ep}"), json!({"auth": changed}))
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["auth"]["clientId"], "courier-2");
    let dlv = w.event(&ep).await;
    w.run(&dlv, 3).await;
    assert_eq!(
        sent_oauth(&w).last().cloned().flatten(),
        Some(("courier-2".to_owned(), SECRET.to_owned(), ClientAuth::Basic))
    );
    // That attempt's token fetch was refused: the receiver's failure, with the token
    // endpoint's status and answer as the snippet.
    let (_, attempts) = w
        .call("GET", &format!("/v1/deliveries/{dlv}/attempts"), json!({}))
        .await;
    let first = &attempts["items"][0];
    assert_eq!(
        (
            &first["state"],
            &first["diagnostic"],
            &first["remediation"],
            &first["countsTowardReceiverFailures"]
        ),
        (
            &json!("retryable_failure"),
            &json!("receiver_auth_failed"),
            &json!("review_endpoint"),
            &json!(true)
        ),
        "{attempts}"
    );
    assert_eq!(
        first["failureSnippet"],
        r#"token endpoint answered 401: {"error":"invalid_client"}"#
    );
    assert!(!attempts.to_string().contains(SECRET), "{attempts}");
    // null removes the settings and the secret with them.
    let (s, b) = w
        .call("PATCH", &format!("/v1/endpoints/{ep}"), json!({"auth": null}))
        .await;
    assert_eq!((s, &b["auth"]), (200, &Value::Null), "{b}");
    let (s, b) = w
        .call("PATCH", &format!("/v1/endpoints/{ep}"), json!({"auth": auth(None)}))
        .await;
    assert_eq!(s, 400, "{b}");
    assert!(
        b["detail"]
            .as_str()
            .is_some_and(|d| d.starts_with("field `auth.clientSecret` is required")),
        "{b}"
    );
}

#[tokio::test]
async fn oauth_and_tls_fields_are_refused_naming_the_field() {
    let w = World::new(vec![status(200)], 5).await;
    let base = auth(Some(SECRET));
    let with = |key: &str, value: Value| {
        let mut a = base.clone();
        a[key] = value;
        json!({"url": "https://receiver.example/hook", "policy": "tanitar", "auth": a})
    };
    for (body, needle) in [
        (with("scope", json!("a  b")), "field `auth.scope`"),
        (with("scope", json!("a\"b")), "field `auth.scope`"),
        (with("clientId", json!("")), "field `auth.clientId`"),
        (with("clientSecret", json!("line\nbreak")), "field `auth.clientSecret`"),
        (with("audience", json!("x".repeat(1025))), "field `auth.audience`"),
        (with("tokenUrl", json!("x".repeat(3000))), "field `auth.tokenUrl`"),
        (with("type", json!("password")), "auth"),
        (with("clientAuth", json!("jwt")), "auth"),
        (
            json!({"url": "https://receiver.example/hook", "policy": "tanitar", "tls": {"caBundle": "x", "extra": 1}}),
            "tls",
        ),
        // This deployment's admission cannot read TLS material: refused, never stored.
        (
            json!({"url": "https://receiver.example/hook", "policy": "tanitar", "tls": {"caBundle": "-----BEGIN CERTIFICATE-----"}}),
            "field `tls.clientCertificate`: TLS settings cannot be checked",
        ),
    ] {
        let (s, b) = w.call("POST", "/v1/endpoints", body.clone()).await;
        assert_eq!((s, &b["code"]), (400, &json!("validation_failed")), "{body}: {b}");
        assert!(
            b["detail"].as_str().is_some_and(|d| d.contains(needle)),
            "{needle}: {b}"
        );
    }
}

#[tokio::test]
async fn a_portal_link_sets_oauth_on_its_own_endpoint() {
    let w = World::new(vec![status(200)], 5).await;
    let (s, b) = w
        .call(
            "POST",
            "/v1/endpoints",
            json!({"url": "https://receiver.example/hook", "policy": "tanitar"}),
        )
        .await;
    assert_eq!(s, 201, "{b}");
    let ep = b["id"].as_str().unwrap_or_default().to_owned();
    let as_token = |token: String, method: &'static str, path: String, body: Value| {
        let w = &w;
        async move {
            let bearer = format!("Bearer {token}");
            let (s, b, _) = raw(
                w,
                method,
                &path,
                None,
                &[("authorization", &bearer), ("host", "api.example")],
                body.to_string().as_bytes(),
            )
            .await;
            (s, b)
        }
    };
    let (s, link) = as_token(
        KEY.to_owned(),
        "POST",
        "/v1/portal-links".to_owned(),
        json!({"endpointIds": [ep]}),
    )
    .await;
    assert_eq!(s, 201, "{link}");
    let token = link["token"].as_str().unwrap_or_default().to_owned();
    let (s, b) = as_token(
        token,
        "PATCH",
        format!("/v1/endpoints/{ep}"),
        json!({"auth": auth(Some(SECRET))}),
    )
    .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["auth"]["clientId"], "courier");
    assert!(!b.to_string().contains(SECRET), "{b}");
}
