//! OAuth 2.0 client credentials against real counterparts on 127.0.0.1: a token
//! server that checks the client's credentials (HTTP Basic or form body) and
//! issues expiring tokens, and a receiver that takes only the bearer tokens that
//! server issued and has not expired. The sender's clock is a manual one.

use crate::common;

use crate::common::{WAIT, accept, bind, read_request, response};
use base64::Engine as _;
use courier_app::domain::connection::{OAuthRequest, ReceiverConnection};
use courier_app::domain::connectivity::ClientAuth;
use courier_app::ports::{Clock, HttpSender, OutboundRequest};
use courier_core::Policy;
use courier_core::Timestamp;
use courier_core::classify::{AttemptState, Diagnostic, Remediation};
use courier_core::outcome::{AttemptOutcome, PreSendFailure, TokenFailure};
use courier_http::{AdmissionPolicy, ReqwestSender, SenderOptions};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::io::AsyncWriteExt;

const CLIENT_ID: &str = "courier-client";
const CLIENT_SECRET: &str = "s3cret:with&odd=chars";
const EXPIRES_IN: u64 = 600;

/// What the token server and the receiver saw and hold.
#[derive(Default)]
struct World {
    /// Token requests, each as its form fields.
    fetches: Vec<HashMap<String, String>>,
    /// How each fetch authenticated: `basic` or `post`.
    client_auth: Vec<&'static str>,
    /// Tokens issued and not expired.
    valid: Vec<String>,
    issued: u32,
    /// The `authorization` of each request the receiver got.
    presented: Vec<String>,
}

type Shared = Arc<Mutex<World>>;

/// The sender's clock, moved by hand.
struct ManualClock(std::sync::atomic::AtomicI64);

impl ManualClock {
    fn advance_secs(&self, secs: i64) {
        self.0.fetch_add(secs * 1000, std::sync::atomic::Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        Timestamp::from_millis(self.0.load(std::sync::atomic::Ordering::SeqCst))
    }
}

fn lock(world: &Shared) -> std::sync::MutexGuard<'_, World> {
    world.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Serves `answer` for every connection made to it, one request per connection.
async fn serve(
    world: Shared,
    answer: fn(&Shared, &common::Received) -> Vec<u8>,
) -> (std::net::SocketAddr, tokio::task::JoinHandle<()>) {
    let (listener, addr) = bind().await;
    let task = tokio::spawn(async move {
        loop {
            let Ok(Ok((mut stream, _))) = tokio::time::timeout(WAIT * 4, listener.accept()).await else {
                return;
            };
            let world = world.clone();
            tokio::spawn(async move {
                let received = read_request(&mut stream).await;
                let bytes = answer(&world, &received);
                let _ = stream.write_all(&bytes).await;
                let _ = stream.flush().await;
            });
        }
    });
    (addr, task)
}

fn json_answer(status: &str, body: &str) -> Vec<u8> {
    response(
        status,
        &[("content-type", "application/json"), ("connection", "close")],
        body.as_bytes(),
    )
}

/// The token server: `client_credentials` only, the right id and secret only.
fn token_endpoint(world: &Shared, request: &common::Received) -> Vec<u8> {
    let form: HashMap<String, String> = url::form_urlencoded::parse(&request.body).into_owned().collect();
    let (how, id, secret) = match request.header("authorization").and_then(|a| a.strip_prefix("Basic ")) {
        Some(encoded) => {
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .ok()
                .and_then(|d| String::from_utf8(d).ok())
                .unwrap_or_default();
            let (id, secret) = decoded.split_once(':').unwrap_or_default();
            // RFC 6749 2.3.1: each form-urlencoded before Basic encoding.
            let plain = |s: &str| {
                url::form_urlencoded::parse(format!("x={s}").as_bytes())
                    .next()
                    .map(|(_, v)| v.into_owned())
            };
            ("basic", plain(id), plain(secret))
        }
        None => (
            "post",
            form.get("client_id").cloned(),
            form.get("client_secret").cloned(),
        ),
    };
    let mut w = lock(world);
    w.fetches.push(form.clone());
    w.client_auth.push(how);
    if form.get("grant_type").map(String::as_str) != Some("client_credentials") {
        return json_answer("400 Bad Request", r#"{"error":"unsupported_grant_type"}"#);
    }
    if id.as_deref() != Some(CLIENT_ID) || secret.as_deref() != Some(CLIENT_SECRET) {
        return json_answer(
            "401 Unauthorized",
            r#"{"error":"invalid_client","error_description":"bad client credentials"}"#,
        );
    }
    w.issued += 1;
    let token = format!("tok-{}", w.issued);
    w.valid.push(token.clone());
    json_answer(
        "200 OK",
        &format!(r#"{{"access_token":"{token}","token_type":"Bearer","expires_in":{EXPIRES_IN}}}"#),
    )
}

/// The receiver: 200 to a valid bearer token, 401 to anything else.
fn receiver(world: &Shared, request: &common::Received) -> Vec<u8> {
    let presented = request.header("authorization").unwrap_or_default().to_owned();
    let mut w = lock(world);
    w.presented.push(presented.clone());
    let valid = presented
        .strip_prefix("Bearer ")
        .is_some_and(|t| w.valid.iter().any(|v| v == t));
    if valid {
        json_answer("200 OK", r#"{"ok":true}"#)
    } else {
        json_answer("401 Unauthorized", r#"{"error":"invalid_token"}"#)
    }
}

struct Setup {
    world: Shared,
    clock: Arc<ManualClock>,
    sender: ReqwestSender,
    receiver_url: String,
    token_url: String,
}

async fn setup() -> Setup {
    let world = Shared::default();
    let (token_addr, _t) = serve(world.clone(), token_endpoint).await;
    let (receiver_addr, _r) = serve(world.clone(), receiver).await;
    let clock = Arc::new(ManualClock(1_900_000_000_000.into()));
    let sender = ReqwestSender::try_new(SenderOptions::new(AdmissionPolicy::LOCAL))
        .expect("client builds")
        .with_clock(clock.clone());
    Setup {
        world,
        clock,
        sender,
        receiver_url: format!("http://{receiver_addr}/hook"),
        token_url: format!("http://{token_addr}/oauth/token"),
    }
}

fn oauth(token_url: &str, secret: &str, client_auth: ClientAuth) -> OAuthRequest {
    OAuthRequest {
        token_url: token_url.to_owned(),
        client_id: CLIENT_ID.to_owned(),
        client_secret: secret.to_owned(),
        scope: Some("hooks:write hooks:read".to_owned()),
        audience: Some("https://receiver.example".to_owned()),
        client_auth,
    }
}

fn request(url: &str, oauth: OAuthRequest) -> OutboundRequest {
    OutboundRequest {
        url: url.to_owned(),
        headers: vec![("content-type".into(), "application/json".into())],
        body: br#"{"id":"evt_1","data":{}}"#.to_vec().into(),
        timeout_ms: 5_000,
        read_limit: 4_096,
        connection: Some(Arc::new(ReceiverConnection::new(
            "ten_1/ep_1".to_owned(),
            Some(oauth),
            None,
        ))),
    }
}

fn status(outcome: &AttemptOutcome) -> Option<u16> {
    outcome.status()
}

#[tokio::test]
async fn a_token_is_fetched_once_reused_and_fetched_again_after_a_401() {
    let s = setup().await;
    let auth = oauth(&s.token_url, CLIENT_SECRET, ClientAuth::Basic);
    // First attempt: one fetch, the token presented.
    let first = s.sender.send(request(&s.receiver_url, auth.clone())).await;
    assert_eq!(status(&first.outcome), Some(200));
    {
        let w = lock(&s.world);
        assert_eq!(w.fetches.len(), 1);
        assert_eq!(w.client_auth, vec!["basic"]);
        let form = &w.fetches[0];
        assert_eq!(form.get("grant_type").map(String::as_str), Some("client_credentials"));
        assert_eq!(form.get("scope").map(String::as_str), Some("hooks:write hooks:read"));
        assert_eq!(
            form.get("audience").map(String::as_str),
            Some("https://receiver.example")
        );
        // Basic authentication keeps the secret out of the form.
        assert_eq!(form.get("client_secret"), None);
        assert_eq!(w.presented, vec!["Bearer tok-1".to_owned()]);
    }
    // The next attempts reuse it.
    for _ in 0..2 {
        let again = s.sender.send(request(&s.receiver_url, auth.clone())).await;
        assert_eq!(status(&again.outcome), Some(200));
    }
    assert_eq!(lock(&s.world).fetches.len(), 1);
    // The server expires its tokens (the sender's clock says it is still fresh):
    // the receiver answers 401, the token is fetched anew and the same request
    // sent once more, all in one attempt.
    lock(&s.world).valid.clear();
    let refreshed = s.sender.send(request(&s.receiver_url, auth.clone())).await;
    assert_eq!(status(&refreshed.outcome), Some(200));
    {
        let w = lock(&s.world);
        assert_eq!(w.fetches.len(), 2);
        assert_eq!(
            w.presented,
            [
                "Bearer tok-1",
                "Bearer tok-1",
                "Bearer tok-1",
                "Bearer tok-1",
                "Bearer tok-2"
            ]
        );
    }
    // Shortly before it expires (by the sender's clock) a token is fetched anew
    // without waiting for a 401.
    s.clock.advance_secs(EXPIRES_IN as i64 - 29);
    let renewed = s.sender.send(request(&s.receiver_url, auth)).await;
    assert_eq!(status(&renewed.outcome), Some(200));
    let w = lock(&s.world);
    assert_eq!(w.fetches.len(), 3);
    assert_eq!(w.presented.last().map(String::as_str), Some("Bearer tok-3"));
}

#[tokio::test]
async fn a_second_401_is_the_outcome_and_a_fresh_token_is_not_retried() {
    let s = setup().await;
    let auth = oauth(&s.token_url, CLIENT_SECRET, ClientAuth::Post);
    // Every token is refused at once: the fresh one's 401 is the outcome.
    lock(&s.world).issued = 0;
    let receiver_refusing = {
        let world = Shared::default();
        let (addr, _task) = serve(world.clone(), |w, r| {
            lock(w)
                .presented
                .push(r.header("authorization").unwrap_or_default().to_owned());
            json_answer("401 Unauthorized", r#"{"error":"invalid_token"}"#)
        })
        .await;
        (world, format!("http://{addr}/hook"))
    };
    let fresh = s.sender.send(request(&receiver_refusing.1, auth.clone())).await;
    assert_eq!(status(&fresh.outcome), Some(401));
    // A token just fetched is not fetched again on a 401.
    assert_eq!(lock(&receiver_refusing.0).presented, vec!["Bearer tok-1".to_owned()]);
    assert_eq!(lock(&s.world).client_auth, vec!["post"]);
    // A kept token refused: one fresh token, one more send, whose 401 stands.
    let kept = s.sender.send(request(&receiver_refusing.1, auth)).await;
    assert_eq!(status(&kept.outcome), Some(401));
    assert_eq!(
        lock(&receiver_refusing.0).presented,
        ["Bearer tok-1", "Bearer tok-1", "Bearer tok-2"]
    );
    assert_eq!(lock(&s.world).fetches.len(), 2);
}

#[tokio::test]
async fn a_wrong_secret_is_receiver_auth_failed_and_never_shown() {
    let s = setup().await;
    let wrong = "not-the-secret-9f8e7d";
    let sent = s
        .sender
        .send(request(&s.receiver_url, oauth(&s.token_url, wrong, ClientAuth::Basic)))
        .await;
    let expected = TokenFailure {
        status: Some(401),
        transport: None,
        body: br#"{"error":"invalid_client","error_description":"bad client credentials"}"#.to_vec(),
        body_truncated: false,
    };
    assert_eq!(sent.outcome, AttemptOutcome::TokenFailed(expected.clone()));
    assert_eq!(sent.peer, None);
    // The receiver was never contacted.
    assert!(lock(&s.world).presented.is_empty());
    let policy = Policy::greatwait();
    let cls = policy.classify(&sent.outcome, false);
    assert_eq!(
        (cls.state, cls.diagnostic, cls.remediation),
        (
            AttemptState::RetryableFailure,
            Diagnostic::ReceiverAuthFailed,
            Remediation::ReviewEndpoint
        )
    );
    assert!(cls.counts_toward_receiver_failures);
    let (snippet, _) = policy.token_failure_snippet(&expected);
    assert_eq!(
        snippet,
        r#"token endpoint answered 401: {"error":"invalid_client","error_description":"bad client credentials"}"#
    );
    // Nothing the attempt keeps holds the secret.
    assert!(!format!("{:?}", sent).contains(wrong));
    assert!(
        !format!(
            "{:?}",
            request(&s.receiver_url, oauth(&s.token_url, wrong, ClientAuth::Basic))
        )
        .contains(wrong)
    );
}

#[tokio::test]
async fn an_unreachable_or_unsafe_token_url_sends_nothing() {
    let s = setup().await;
    // Nothing listens there: refused, before the receiver.
    let (listener, addr) = bind().await;
    drop(listener);
    let closed = format!("http://{addr}/token");
    let sent = s
        .sender
        .send(request(
            &s.receiver_url,
            oauth(&closed, CLIENT_SECRET, ClientAuth::Basic),
        ))
        .await;
    assert_eq!(
        sent.outcome,
        AttemptOutcome::TokenFailed(TokenFailure {
            transport: Some(courier_core::outcome::TransportFailure::Refused),
            ..TokenFailure::default()
        })
    );
    // The metadata address is refused by admission, as an endpoint URL would be.
    let unsafe_url = "http://169.254.169.254/latest/api/token";
    let refused = s
        .sender
        .send(request(
            &s.receiver_url,
            oauth(unsafe_url, CLIENT_SECRET, ClientAuth::Basic),
        ))
        .await;
    assert_eq!(
        refused.outcome,
        AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe)
    );
    // A name resolving to loopback is refused by the checked resolver when the
    // deployment does not allow private targets.
    let strict = ReqwestSender::try_new(SenderOptions::new(AdmissionPolicy {
        allow_http: true,
        allow_private: false,
    }))
    .expect("client builds");
    let port = s
        .token_url
        .rsplit(':')
        .next()
        .and_then(|p| p.split('/').next())
        .unwrap_or_default();
    let by_name = format!("http://localhost:{port}/oauth/token");
    let pinned = strict
        .send(request(
            "http://93.184.215.14/hook",
            oauth(&by_name, CLIENT_SECRET, ClientAuth::Basic),
        ))
        .await;
    assert_eq!(pinned.outcome, AttemptOutcome::pre_send(PreSendFailure::EndpointUnsafe));
    assert!(lock(&s.world).fetches.is_empty());
    assert!(lock(&s.world).presented.is_empty());
    let _ = accept; // the helper set is shared with the other test binaries
}

#[tokio::test]
async fn concurrent_attempts_share_one_fetch() {
    let s = setup().await;
    let auth = oauth(&s.token_url, CLIENT_SECRET, ClientAuth::Basic);
    let tasks: Vec<_> = (0..5)
        .map(|_| {
            let (sender, request) = (s.sender.clone(), request(&s.receiver_url, auth.clone()));
            tokio::spawn(async move { sender.send(request).await.outcome.status() })
        })
        .collect();
    for task in tasks {
        assert_eq!(task.await.ok().flatten(), Some(200));
    }
    let w = lock(&s.world);
    assert_eq!(w.fetches.len(), 1);
    assert_eq!(w.presented, vec!["Bearer tok-1".to_owned(); 5]);
}
