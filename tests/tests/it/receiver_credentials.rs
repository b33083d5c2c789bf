//! End-to-end: endpoints with OAuth 2.0 client credentials and TLS settings on the
//! local stack: what the API takes and refuses, what it never shows, and what a
//! delivery records when the token endpoint refuses the client.

use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use serde_json::{Value, json};
use std::time::Duration;

const FIXTURES: &str = "../functions/http/tests/fixtures";
const SECRET: &str = "cs_e2e_7c1f0b";

fn fixture(name: &str) -> String {
    let path = format!("{}/{FIXTURES}/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

async fn receiver(script: Vec<Reply>) -> ScriptedReceiver {
    ScriptedReceiver::start(script)
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"))
}

fn json_reply(status: u16, body: &str) -> Reply {
    Reply::Full {
        status,
        headers: vec![("content-type".into(), "application/json".into())],
        body: body.into(),
    }
}

fn detail(body: &Value) -> String {
    body["detail"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_material_is_checked_and_the_key_never_shown() {
    let h = Harness::start(test_options("tls-settings")).await;
    let (cert, key, ca) = (
        fixture("ca-signed-client.crt"),
        fixture("ca-signed-client.key"),
        fixture("test-ca.crt"),
    );
    let create = |tls: Value| json!({"url": "http://127.0.0.1:9999/hook", "policy": "greatwait", "tls": tls});
    let cases = [
        (
            json!({"clientCertificate": "not pem", "clientKey": key}),
            "field `tls.clientCertificate`",
        ),
        (
            json!({"clientCertificate": cert, "clientKey": fixture("other.key")}),
            "field `tls.clientKey`: does not belong",
        ),
        (
            json!({"clientCertificate": fixture("expired-client.crt"), "clientKey": key}),
            "field `tls.clientCertificate`: expired at 2021-01-01T00:00:00.000Z",
        ),
        (json!({"clientCertificate": cert}), "field `tls.clientKey` is required"),
        (json!({"caBundle": key}), "field `tls.caBundle`"),
        (json!({}), "field `tls` needs"),
    ];
    for (tls, expected) in cases {
        let (status, body) = h.call("POST", "/v1/endpoints", Some(create(tls))).await;
        assert_eq!(status, 400, "{body}");
        assert!(detail(&body).starts_with(expected), "{expected}: {body}");
    }
    let (status, body) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(create(
                json!({"clientCertificate": cert, "clientKey": key, "caBundle": ca}),
            )),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["tls"]["clientKey"], Value::Null);
    assert_eq!(body["tls"]["clientCertificate"], json!(cert));
    assert_eq!(body["tls"]["caBundle"], json!(ca));
    assert_eq!(body["tls"]["clientCertificateExpiresAt"], "2126-11-12T07:47:30.000Z");
    assert!(!body.to_string().contains("PRIVATE KEY"), "{body}");
    // A change that leaves the key out keeps it; null removes the settings.
    let id = body["id"].as_str().unwrap_or_default().to_owned();
    let (status, body) = h
        .call(
            "PATCH",
            &format!("/v1/endpoints/{id}"),
            Some(json!({"tls": {"clientCertificate": cert, "caBundle": ca}})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["tls"]["clientCertificateExpiresAt"], "2126-11-12T07:47:30.000Z");
    let (status, body) = h
        .call("PATCH", &format!("/v1/endpoints/{id}"), Some(json!({"tls": null})))
        .await;
    assert_eq!((status, &body["tls"]), (200, &Value::Null), "{body}");
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oauth_tokens_reach_the_receiver_and_the_secret_stays_write_only() {
    let h = Harness::start(test_options("oauth-ok")).await;
    let tokens = receiver(vec![json_reply(
        200,
        r#"{"access_token":"tok-e2e-1","token_type":"Bearer","expires_in":600}"#,
    )])
    .await;
    let rx = receiver(vec![Reply::Status(204), Reply::Status(204)]).await;
    let auth = json!({
        "type": "oauth2_client_credentials",
        "tokenUrl": tokens.url(),
        "clientId": "courier-e2e",
        "clientSecret": SECRET,
        "scope": "hooks:write",
        "clientAuth": "post",
    });
    // The token URL is admitted like an endpoint URL.
    let (status, body) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({"url": rx.url(), "policy": "greatwait",
                        "auth": {"type": "oauth2_client_credentials", "tokenUrl": "http://169.254.169.254/token",
                                 "clientId": "c", "clientSecret": "s"}})),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(detail(&body).starts_with("field `auth.tokenUrl`:"), "{body}");
    let (status, body) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({"url": rx.url(), "policy": "greatwait",
                        "auth": {"type": "oauth2_client_credentials", "tokenUrl": tokens.url(), "clientId": "c"}})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(
        detail(&body).starts_with("field `auth.clientSecret` is required"),
        "{body}"
    );
    let (status, body) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({"url": rx.url(), "policy": "greatwait", "auth": auth})),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["auth"]["clientSecret"], Value::Null);
    assert_eq!(body["auth"]["clientAuth"], "post");
    assert!(!body.to_string().contains(SECRET), "{body}");
    let ep = body["id"].as_str().unwrap_or_default().to_owned();
    // A change leaving the secret out keeps it.
    let mut kept = auth.clone();
    kept["clientSecret"] = Value::Null;
    let (status, body) = h
        .call("PATCH", &format!("/v1/endpoints/{ep}"), Some(json!({"auth": kept})))
        .await;
    assert_eq!(status, 200, "{body}");
    for n in 0..2 {
        let id = h.event(&ep, json!({"n": n})).await;
        let d = h.settled(&id, Duration::from_secs(60)).await;
        assert_eq!(d["status"], "succeeded", "{d}");
        let (_, attempts) = h.call("GET", &format!("/v1/deliveries/{id}/attempts"), None).await;
        assert!(!attempts.to_string().contains(SECRET), "{attempts}");
    }
    // One token fetch, with the stored secret in the form; the token on both sends.
    let fetched = tokens.received();
    assert_eq!(fetched.len(), 1);
    let form: Vec<(String, String)> = url::form_urlencoded::parse(&fetched[0].body).into_owned().collect();
    assert!(form.contains(&("client_secret".into(), SECRET.into())), "{form:?}");
    assert!(form.contains(&("scope".into(), "hooks:write".into())), "{form:?}");
    let presented: Vec<Option<String>> = rx
        .received()
        .iter()
        .map(|r| r.header("authorization").map(str::to_owned))
        .collect();
    assert_eq!(presented, vec![Some("Bearer tok-e2e-1".to_owned()); 2]);
    let (_, shown) = h.call("GET", &format!("/v1/endpoints/{ep}"), None).await;
    assert!(!shown.to_string().contains(SECRET), "{shown}");
    h.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_client_is_an_attempt_with_receiver_auth_failed() {
    let h = Harness::start(test_options("oauth-refused")).await;
    let tokens = receiver(vec![json_reply(401, r#"{"error":"invalid_client"}"#)]).await;
    let rx = receiver(vec![Reply::Status(204)]).await;
    let (status, body) = h
        .call(
            "POST",
            "/v1/endpoints",
            Some(json!({"url": rx.url(), "policy": "greatwait",
                        "auth": {"type": "oauth2_client_credentials", "tokenUrl": tokens.url(),
                                 "clientId": "courier-e2e", "clientSecret": SECRET}})),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let ep = body["id"].as_str().unwrap_or_default().to_owned();
    let id = h.event(&ep, json!({})).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    let first = loop {
        if let Some(a) = h.attempts(&id).await.first() {
            break a.clone();
        }
        assert!(tokio::time::Instant::now() < deadline, "no attempt recorded");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(
        (
            &first["state"],
            &first["diagnostic"],
            &first["remediation"],
            &first["errorClass"]
        ),
        (
            &json!("retryable_failure"),
            &json!("receiver_auth_failed"),
            &json!("review_endpoint"),
            &json!("status")
        ),
        "{first}"
    );
    assert_eq!(first["countsTowardReceiverFailures"], true);
    assert_eq!(
        first["failureSnippet"],
        r#"token endpoint answered 401: {"error":"invalid_client"}"#
    );
    assert_eq!(first["responseStatus"], Value::Null);
    assert!(!first.to_string().contains(SECRET), "{first}");
    assert!(rx.received().is_empty());
    h.stop().await;
}
