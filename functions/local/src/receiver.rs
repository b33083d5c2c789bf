//! A scripted webhook receiver on 127.0.0.1:0, for the demo and the end-to-end
//! tests: it answers each request with the next scripted reply and records what it
//! received (headers, body, arrival time) so tests can check signatures and timing.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::Notify;

/// One scripted answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    Status(u16),
    /// A status with extra headers (e.g. Retry-After) and a body.
    Full {
        status: u16,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// Hold the request this long before answering 200 (to trigger timeouts).
    Hang(Duration),
}

/// What the receiver saw.
#[derive(Debug, Clone)]
pub struct Received {
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
    /// Arrival, milliseconds since the Unix epoch (wall clock).
    pub at_ms: i64,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

struct Shared {
    script: Vec<Reply>,
    received: Vec<Received>,
}

#[derive(Clone)]
pub struct ScriptedReceiver {
    shared: Arc<Mutex<Shared>>,
    notify: Arc<Notify>,
    pub addr: SocketAddr,
}

impl ScriptedReceiver {
    /// Starts on 127.0.0.1:0. The last reply repeats once the script runs out; an
    /// empty script answers 200.
    pub async fn start(script: Vec<Reply>) -> std::io::Result<ScriptedReceiver> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let rx = ScriptedReceiver {
            shared: Arc::new(Mutex::new(Shared {
                script,
                received: Vec::new(),
            })),
            notify: Arc::new(Notify::new()),
            addr,
        };
        let app = axum::Router::new().fallback(handle).with_state(rx.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(rx)
    }

    pub fn url(&self) -> String {
        format!("http://{}/hook", self.addr)
    }

    pub fn received(&self) -> Vec<Received> {
        self.shared.lock().map(|s| s.received.clone()).unwrap_or_default()
    }

    /// Waits until at least `n` requests arrived, or `timeout` passes.
    pub async fn wait_for(&self, n: usize, timeout: Duration) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            // Registered before the check, so a request landing in between still wakes us.
            let notified = self.notify.notified();
            let got = self.received();
            if got.len() >= n {
                return got;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                return self.received();
            }
        }
    }
}

async fn handle(State(rx): State<ScriptedReceiver>, headers: HeaderMap, body: Bytes) -> Response {
    let at_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    let reply = {
        let Ok(mut s) = rx.shared.lock() else {
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        };
        let idx = s.received.len();
        s.received.push(Received {
            headers: headers
                .iter()
                .map(|(k, v)| {
                    (
                        k.as_str().to_owned(),
                        String::from_utf8_lossy(v.as_bytes()).into_owned(),
                    )
                })
                .collect(),
            body: body.to_vec(),
            at_ms,
        });
        s.script
            .get(idx)
            .or(s.script.last())
            .cloned()
            .unwrap_or(Reply::Status(200))
    };
    rx.notify.notify_waiters();
    // notify_waiters only wakes registered waiters; the check-after-register above covers the rest.
    match reply {
        Reply::Status(s) => StatusCode::from_u16(s).unwrap_or(StatusCode::OK).into_response(),
        Reply::Full { status, headers, body } => {
            let mut resp = (StatusCode::from_u16(status).unwrap_or(StatusCode::OK), body).into_response();
            for (k, v) in headers {
                if let (Ok(k), Ok(v)) = (
                    axum::http::HeaderName::try_from(k),
                    axum::http::HeaderValue::try_from(v),
                ) {
                    resp.headers_mut().insert(k, v);
                }
            }
            resp
        }
        Reply::Hang(d) => {
            tokio::time::sleep(d).await;
            StatusCode::OK.into_response()
        }
    }
}
