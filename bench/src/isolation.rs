//! Isolation on the local stack as `make run` starts it (the emulator, five sender
//! pollers, the slow lane and its poller): `flood` deliveries queued to an endpoint
//! that hangs past its 5 s timeout, then `others` deliveries of another tenant sent
//! at `per_second`; how late each of those reaches its receiver after it was sent.
//! No endpoint has a limit: what holds the flood back is the slow lane alone.

use crate::stats::{Summary, summarize};
use axum::extract::{Request, State};
use axum::http::StatusCode;
use courier_app::domain::model::Tenant;
use courier_core::ids::TenantId;
use courier_local::stack::{Stack, StackOptions};
use serde::Serialize;
use serde_json::{Value, json};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
use tokio::task::JoinHandle;

pub struct Config {
    pub flood: usize,
    pub others: usize,
    pub per_second: f64,
    pub time_limit: Duration,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub flood: usize,
    pub others: usize,
    pub per_second: f64,
    pub hang_timeout_ms: u64,
    /// Send to arrival of the other tenant's deliveries, in ms.
    pub late_ms: Summary,
    pub p99_ms: f64,
    /// Requests the hanging endpoint had received when the last of them arrived.
    pub hanging_requests: usize,
}

const HANG_TIMEOUT_MS: u64 = 5_000;

struct Client {
    http: reqwest::Client,
    base: String,
}

impl Client {
    async fn post(&self, key: &str, path: &str, body: Value) -> Result<Value, String> {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .bearer_auth(key)
            .json(&body)
            .send()
            .await
            .map_err(|e| e.to_string())?;
        let status = r.status().as_u16();
        let body: Value = r.json().await.map_err(|e| e.to_string())?;
        if status >= 300 && status != 207 {
            return Err(format!("{path} answered {status}: {body}"));
        }
        Ok(body)
    }
}

pub async fn run(cfg: &Config) -> Result<Report, String> {
    let hang_rx = Recorder::start().await.map_err(|e| format!("receiver: {e}"))?;
    let ok_rx = Recorder::start().await.map_err(|e| format!("receiver: {e}"))?;
    let stack = Stack::start(StackOptions {
        api_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        prefix: format!("bench-isolation-{}", std::process::id()),
        ..StackOptions::default()
    })
    .await
    .map_err(|e| format!("local stack: {e}"))?;
    let result = measure(cfg, &stack, &hang_rx, &ok_rx).await;
    stack.stop().await;
    result
}

async fn measure(cfg: &Config, stack: &Stack, hang_rx: &Recorder, ok_rx: &Recorder) -> Result<Report, String> {
    let client = Client {
        http: reqwest::Client::new(),
        base: stack.api_url.clone(),
    };
    let other_key = "ck_bench_isolation_other_tenant_0001".to_owned();
    let other = Tenant {
        id: TenantId::generate(
            stack.sender.clock.now(),
            &mut courier_app::ports::PortRng(stack.sender.random.as_ref()),
        ),
        name: "other".into(),
    };
    courier_app::api::register_key(stack.store.as_ref(), &other_key, &other)
        .await
        .map_err(|e| format!("second tenant: {e}"))?;
    let hang = client
        .post(
            &stack.api_key,
            "/v1/endpoints",
            json!({"url": format!("http://{}/hang", hang_rx.addr), "policy": "greatwait", "timeoutMs": HANG_TIMEOUT_MS}),
        )
        .await?;
    let hang_id = hang["id"].as_str().unwrap_or_default().to_owned();
    let ok = client
        .post(
            &other_key,
            "/v1/endpoints",
            json!({"url": format!("http://{}/ok", ok_rx.addr), "policy": "greatwait"}),
        )
        .await?;
    let ok_id = ok["id"].as_str().unwrap_or_default().to_owned();
    // The flood, a hundred events a request.
    let mut queued = 0;
    while queued < cfg.flood {
        let n = (cfg.flood - queued).min(100);
        let events: Vec<Value> = (0..n)
            .map(|i| json!({"endpointId": hang_id, "type": "bench.flood", "payload": {"n": queued + i}}))
            .collect();
        client
            .post(&stack.api_key, "/v1/events/batch", json!({ "events": events }))
            .await?;
        queued += n;
    }
    // The other tenant's deliveries, evenly spaced; each payload carries its send time.
    let gap = Duration::from_secs_f64(1.0 / cfg.per_second.max(0.01));
    let start = Instant::now();
    for i in 0..cfg.others {
        tokio::time::sleep_until((start + gap * i as u32).into()).await;
        let sent = now_ms();
        client
            .post(
                &other_key,
                "/v1/events",
                json!({"endpointId": ok_id, "type": "bench.other", "payload": {"n": i, "sentMs": sent}}),
            )
            .await?;
    }
    let arrived = ok_rx.wait_for(cfg.others, cfg.time_limit).await;
    let late: Vec<f64> = arrived.iter().map(|(sent, at)| (*at - *sent).max(0) as f64).collect();
    let summary = summarize(&late);
    Ok(Report {
        flood: cfg.flood,
        others: cfg.others,
        per_second: cfg.per_second,
        hang_timeout_ms: HANG_TIMEOUT_MS,
        p99_ms: summary.p99,
        late_ms: summary,
        hanging_requests: hang_rx.count(),
    })
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// What a receiver saw: each request's `data.sentMs` (when it has one) and arrival.
type Seen = Arc<Mutex<Vec<(i64, i64)>>>;

/// A loopback receiver that notes every request; `/hang` answers only after 10 s
/// (past the endpoint's timeout), anything else at once with 200.
struct Recorder {
    addr: SocketAddr,
    seen: Seen,
    task: JoinHandle<()>,
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn record(State(seen): State<Seen>, req: Request) -> StatusCode {
    let at = now_ms();
    let hang = req.uri().path() == "/hang";
    let body = axum::body::to_bytes(req.into_body(), 1 << 20).await.unwrap_or_default();
    let sent = serde_json::from_slice::<Value>(&body)
        .ok()
        .and_then(|v| v["data"]["sentMs"].as_i64())
        .unwrap_or(at);
    if let Ok(mut s) = seen.lock() {
        s.push((sent, at));
    }
    if hang {
        tokio::time::sleep(Duration::from_secs(10)).await;
    }
    StatusCode::OK
}

impl Recorder {
    async fn start() -> std::io::Result<Recorder> {
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).await?;
        let addr = listener.local_addr()?;
        let seen = Seen::default();
        let app = axum::Router::new().fallback(record).with_state(seen.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(Recorder { addr, seen, task })
    }

    fn count(&self) -> usize {
        self.seen.lock().map_or(0, |s| s.len())
    }

    /// Waits (polling every 50 ms, at most `limit`) for `n` requests; answers what came.
    async fn wait_for(&self, n: usize, limit: Duration) -> Vec<(i64, i64)> {
        let deadline = Instant::now() + limit;
        while self.count() < n && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }
}
