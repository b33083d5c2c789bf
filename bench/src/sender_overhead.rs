//! Section 1: the sender's overhead. The same deliveries go to a loopback
//! receiver (in a child process, so its CPU is not counted) in alternating rounds
//! of one run: a bare reqwest loop posting the same prepared bytes; the real
//! sender handler (`courier_sender::handle_batch` with
//! `courier_app::delivery::Sender` over the in-memory ports and the real
//! `courier_http::ReqwestSender`); and that handler with the sender Lambda's
//! logging, in a child process whose stdout is a pipe as on Lambda: the JSON
//! subscriber of `functions/sender/src/main.rs` plus the EMF metric lines. Same
//! concurrency everywhere: `concurrency` requests in flight, the handler working
//! batches of 10 as SQS hands them to Lambda. The log variant also counts the bytes
//! logged per delivery, which CloudWatch Logs bills (docs/cost.md). Every variant
//! runs on the sender Lambda's runtime, tokio's current-thread one
//! (`functions/sender/src/main.rs`), so the ratio compares like with like. The
//! ratio is a regression guard, not a target to chase: the table flags it only
//! below [`GUARD_RATIO`].

use crate::cpu::{Spent, Usage};
use crate::receiver::ChildReceiver;
use aws_lambda_events::event::sqs::SqsEvent;
use courier_app::adapters::system::{OsSeededRandom, SystemClock};
use courier_app::api::{Api, ApiRequest};
use courier_app::delivery::StepOutcome;
use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::domain::model::Tenant;
use courier_app::domain::queue_message::Message;
use courier_app::pipeline::planner::PlannerSettings;
use courier_app::ports::PortRng;
use courier_app::ports::{Clock, DeliveryStore, EndpointStore, HttpSender, Random};
use courier_app::testing::memory::{MemoryQueue, MemoryStore, MemoryTimer};
use courier_app::wiring::{Outbound, Ports, Settings};
use courier_core::ids::{AttemptId, EndpointId, TenantId};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// SQS hands Lambda up to 10 messages per batch (template.yaml: BatchSize 10).
pub const BATCH_SIZE: usize = 10;
/// Below this sender / bare throughput the table flags section 1. Runs on a shared
/// two-core machine read 0.61-0.93 for the same code, so the guard sits at the
/// bottom of that spread: a median below it says the sender itself got slower.
pub const GUARD_RATIO: f64 = 0.6;
const API_KEY: &str = "ck_bench_sender_overhead";

#[derive(Debug, Clone)]
pub struct Config {
    /// Deliveries per variant (split over the rounds).
    pub deliveries: usize,
    /// Requests in flight (the handler runs `concurrency / 10` batches at once).
    pub concurrency: usize,
    pub rounds: usize,
    /// Bound on each variant's run in each round.
    pub time_limit: Duration,
}

#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Variant {
    pub name: String,
    pub deliveries: u64,
    pub failures: u64,
    pub wall_seconds: f64,
    pub cpu_seconds: f64,
    pub per_second: f64,
    pub cpu_seconds_per_1000: f64,
    /// Bytes written to stdout (logs and EMF lines) per delivery.
    pub log_bytes_per_delivery: f64,
    #[serde(default)]
    log_bytes: u64,
}

impl Variant {
    fn named(name: &str) -> Variant {
        Variant {
            name: name.to_owned(),
            ..Variant::default()
        }
    }

    fn add(&mut self, ok: u64, failed: u64, spent: Spent, log_bytes: u64) {
        self.deliveries += ok;
        self.failures += failed;
        self.wall_seconds += spent.wall_seconds;
        self.cpu_seconds += spent.cpu_seconds;
        self.log_bytes += log_bytes;
        let attempts = (self.deliveries + self.failures).max(1) as f64;
        self.per_second = self.deliveries as f64 / self.wall_seconds.max(1e-9);
        self.cpu_seconds_per_1000 = self.cpu_seconds * 1000.0 / (self.deliveries.max(1) as f64);
        self.log_bytes_per_delivery = self.log_bytes as f64 / attempts;
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub concurrency: usize,
    pub batch_size: usize,
    pub rounds: usize,
    pub bare: Variant,
    pub sender: Variant,
    pub sender_with_logs: Variant,
    /// Sender deliveries per second over bare (flagged below [`GUARD_RATIO`]): the
    /// median of the rounds' ratios, so one round disturbed by something else on
    /// the machine does not decide it.
    pub throughput_ratio: f64,
    /// Each round's sender deliveries per second over that round's bare loop's.
    pub round_throughput_ratios: Vec<f64>,
    /// Sender CPU per delivery over bare.
    pub cpu_ratio: f64,
    pub logs_throughput_ratio: f64,
    pub logs_cpu_ratio: f64,
}

/// The in-memory world: deliveries created through the real API, their first
/// queue messages already cut into SQS batches.
struct World {
    ports: Ports,
    settings: Settings,
    /// One queue of batches per round.
    batches: Vec<Vec<SqsEvent>>,
    body: Vec<u8>,
    headers: Vec<(String, String)>,
}

async fn api_call(api: &Api, method: &str, path: &str, body: Value) -> Result<Value, String> {
    let r = api
        .handle(ApiRequest {
            method: method.into(),
            path: path.into(),
            query: None,
            headers: vec![
                ("authorization".into(), format!("Bearer {API_KEY}")),
                ("content-type".into(), "application/json".into()),
            ],
            body: body.to_string().into_bytes(),
        })
        .await;
    if r.status >= 300 {
        return Err(format!(
            "{method} {path}: {} {}",
            r.status,
            String::from_utf8_lossy(&r.body)
        ));
    }
    Ok(r.body_json())
}

fn sqs_event(messages: &[DeliveryMessage], first_id: usize) -> Result<SqsEvent, String> {
    let records: Vec<Value> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            json!({
                "messageId": format!("m-{}", first_id + i),
                "receiptHandle": "rh",
                "body": m.to_json(),
                "attributes": {},
                "messageAttributes": {},
                "md5OfBody": "",
                "eventSource": "aws:sqs",
                "eventSourceARN": "arn:aws:sqs:us-east-1:000000000000:courier-bench",
                "awsRegion": "us-east-1"
            })
        })
        .collect();
    serde_json::from_value(json!({ "Records": records })).map_err(|e| e.to_string())
}

async fn world(url: &str, per_queue: &[usize]) -> Result<World, String> {
    let clock: Arc<dyn Clock> = Arc::new(SystemClock);
    let random: Arc<dyn Random> = Arc::new(OsSeededRandom::new());
    let store = Arc::new(MemoryStore::new(clock.clone()));
    let queue = Arc::new(MemoryQueue::new(clock.clone()));
    let ports = crate::bench_ports(
        store.clone(),
        queue.clone(),
        Arc::new(MemoryTimer::new()),
        queue.clone(),
        clock.clone(),
        random.clone(),
        Arc::new(courier_app::testing::memory::MemoryApplications::new()),
    );
    let settings = crate::bench_settings(PlannerSettings::default());
    let api = ports.api(&settings);
    let tenant = Tenant {
        id: TenantId::generate(clock.now(), &mut PortRng(random.as_ref())),
        name: "bench".into(),
    };
    courier_app::api::register_key(store.as_ref(), API_KEY, &tenant)
        .await
        .map_err(|e| e.to_string())?;
    let endpoint = api_call(
        &api,
        "POST",
        "/v1/endpoints",
        json!({"url": url, "policy": "greatwait"}),
    )
    .await?;
    let endpoint_id = endpoint["id"].as_str().unwrap_or_default().to_owned();
    let mut batches = Vec::new();
    for (q, &count) in per_queue.iter().enumerate() {
        for i in 0..count {
            let payload = json!({"order": i, "queue": q, "note": "a typical small webhook payload", "amount": 1234});
            api_call(
                &api,
                "POST",
                "/v1/events",
                json!({"endpointId": endpoint_id, "type": "bench.event", "payload": payload}),
            )
            .await?;
        }
        let messages: Vec<DeliveryMessage> = queue.drain_visible(clock.now()).into_iter().map(|(m, _)| m).collect();
        let mut events = Vec::new();
        for (i, chunk) in messages.chunks(BATCH_SIZE).enumerate() {
            events.push(sqs_event(chunk, i * BATCH_SIZE)?);
        }
        batches.push(events);
    }
    // The bare loop sends exactly what the sender would send for one delivery.
    let first = batches
        .first()
        .and_then(|b| b.first())
        .and_then(|e| e.records.first())
        .and_then(|r| r.body.as_deref())
        .ok_or("no delivery was created")?;
    let m = Message::parse(first)
        .and_then(Message::into_delivery)
        .map_err(|e| e.to_string())?;
    let ep_id = EndpointId::parse(&endpoint_id).map_err(|e| e.to_string())?;
    let ep = store
        .get_endpoint(&tenant.id, &ep_id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("endpoint vanished")?;
    let d = store
        .get_delivery(&m.delivery_id)
        .await
        .map_err(|e| e.to_string())?
        .ok_or("delivery vanished")?;
    let now = clock.now();
    let request = courier_app::delivery::build_request(
        &ep,
        &d,
        &m,
        &AttemptId::generate(now, &mut PortRng(random.as_ref())),
        now,
    );
    Ok(World {
        ports,
        settings,
        batches,
        body: request.body.to_vec(),
        headers: request
            .headers
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.to_string()))
            .collect(),
    })
}

/// The sender Lambda's runtime flavour, for every variant.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}

fn bare_client() -> Result<reqwest::Client, String> {
    reqwest::Client::builder()
        .no_proxy()
        .redirect(reqwest::redirect::Policy::none())
        .retry(reqwest::retry::never())
        .build()
        .map_err(|e| e.to_string())
}

fn header_map(headers: &[(String, String)]) -> reqwest::header::HeaderMap {
    let mut map = reqwest::header::HeaderMap::new();
    for (k, v) in headers {
        if let (Ok(k), Ok(v)) = (
            reqwest::header::HeaderName::from_bytes(k.as_bytes()),
            reqwest::header::HeaderValue::from_str(v),
        ) {
            map.append(k, v);
        }
    }
    map
}

/// What the bare loop sends with, made before its run: like the handler's client,
/// which a Lambda builds once at init, building it is not part of the run.
struct Bare {
    client: reqwest::Client,
    map: reqwest::header::HeaderMap,
    body: Vec<u8>,
}

impl Bare {
    fn new(w: &World) -> Result<Bare, String> {
        Ok(Bare {
            client: bare_client()?,
            map: header_map(&w.headers),
            body: w.body.clone(),
        })
    }
}

/// The bare client: `workers` loops, each keeping one request in flight until `n`
/// deliveries have been taken.
async fn run_bare(bare: Bare, url: String, n: usize, workers: usize, limit: Duration) -> (u64, u64) {
    let Bare { client, map, body } = bare;
    let next = Arc::new(AtomicUsize::new(0));
    let ok = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + limit;
    let mut tasks = Vec::new();
    for _ in 0..workers {
        let (client, map, body, url) = (client.clone(), map.clone(), body.clone(), url.clone());
        let (next, ok, failed) = (next.clone(), ok.clone(), failed.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < deadline {
                if next.fetch_add(1, Ordering::Relaxed) >= n {
                    break;
                }
                let good = post_once(&client, &url, &map, &body).await;
                if good { &ok } else { &failed }.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    (ok.load(Ordering::Relaxed), failed.load(Ordering::Relaxed))
}

/// One bare POST, its body read to the end: whether it answered 200.
async fn post_once(client: &reqwest::Client, url: &str, map: &reqwest::header::HeaderMap, body: &[u8]) -> bool {
    let sent = client
        .post(url)
        .headers(map.clone())
        .body(body.to_vec())
        .timeout(Duration::from_secs(30))
        .send()
        .await;
    match sent {
        Ok(r) => {
            let good = r.status() == reqwest::StatusCode::OK;
            let _ = r.bytes().await;
            good
        }
        Err(_) => false,
    }
}

async fn run_sender(
    ports: &Ports,
    settings: &Settings,
    http: Arc<dyn HttpSender>,
    batches: Vec<SqsEvent>,
    workers: usize,
    limit: Duration,
) -> (u64, u64) {
    let outbound = Outbound {
        http,
        destinations: Arc::new(courier_app::ports::NoDestinations),
        limiter: Arc::new(courier_app::testing::memory::MemoryLimiter::new()),
    };
    let sender = Arc::new(ports.sender(settings, &outbound, None));
    let queue = Arc::new(Mutex::new(VecDeque::from(batches)));
    let ok = Arc::new(AtomicU64::new(0));
    let failed = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + limit;
    let mut tasks = Vec::new();
    for _ in 0..workers {
        let (sender, queue, ok, failed) = (sender.clone(), queue.clone(), ok.clone(), failed.clone());
        tasks.push(tokio::spawn(async move {
            while Instant::now() < deadline {
                let Some(event) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
                    break;
                };
                let (_, results) = courier_sender::handle_batch(&sender, event).await;
                for r in results {
                    let good =
                        matches!(&r.result, Ok(StepOutcome::Attempted { attempt, .. }) if attempt.state == "succeeded");
                    if good { &ok } else { &failed }.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    (ok.load(Ordering::Relaxed), failed.load(Ordering::Relaxed))
}

/// The child-process side of the log variant (`courier-bench sender-child
/// <deliveries> <concurrency> <url>`): logs to stdout like the Lambda (its
/// subscriber and metric lines, functions/sender/src/main.rs), prints its figures as `RESULT <json>`
/// on stderr.
pub fn child(args: &[String]) -> Result<(), String> {
    let [n, concurrency, url] = args else {
        return Err("usage: sender-child <deliveries> <concurrency> <url>".into());
    };
    let n: usize = n.parse().map_err(|_| format!("bad count {n}"))?;
    let concurrency: usize = concurrency
        .parse()
        .map_err(|_| format!("bad concurrency {concurrency}"))?;
    let rt = runtime()?;
    let w = rt.block_on(world(url, &[n]))?;
    let batches = w.batches.into_iter().next().unwrap_or_default();
    courier_sender::init_logging();
    // Metric lines printed, as on Lambda.
    courier_sender::set_metrics_target(courier_app::delivery::metrics::MetricsTarget {
        print: true,
        ..Default::default()
    });
    let u = Usage::start();
    let (ok, failed) = rt.block_on(run_sender(
        &w.ports,
        &w.settings,
        Arc::new(courier_http::ReqwestSender::new(true)),
        batches,
        concurrency.div_ceil(BATCH_SIZE),
        Duration::from_secs(90),
    ));
    let mut v = Variant::named("lambda logging");
    v.add(ok, failed, u.stop(), 0);
    eprintln!("RESULT {}", serde_json::to_string(&v).map_err(|e| e.to_string())?);
    Ok(())
}

/// Runs a log variant in a child process, counting what it writes to stdout.
fn run_child(n: usize, concurrency: usize, url: &str) -> Result<Variant, String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut child = Command::new(exe)
        .args(["sender-child", &n.to_string(), &concurrency.to_string(), url])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut stdout = child.stdout.take().ok_or("child has no stdout")?;
    let stderr = child.stderr.take().ok_or("child has no stderr")?;
    let counter = std::thread::spawn(move || {
        let mut total = 0u64;
        let mut buf = vec![0u8; 1 << 16];
        while let Ok(k) = stdout.read(&mut buf) {
            if k == 0 {
                break;
            }
            total += k as u64;
        }
        total
    });
    let mut result = None;
    let mut last = String::new();
    for line in BufReader::new(stderr).lines().map_while(Result::ok) {
        match line.strip_prefix("RESULT ") {
            Some(json) => result = serde_json::from_str::<Variant>(json).ok(),
            None => {
                // A panic message or the like: show it, it explains missing deliveries.
                eprintln!("courier-bench: sender child: {line}");
                last = line;
            }
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let bytes = counter.join().unwrap_or(0);
    let mut v = result.ok_or_else(|| format!("sender child ({status}) gave no result: {last}"))?;
    // The bytes the child wrote before its run (none: it logs only while sending).
    v.log_bytes = bytes;
    v.log_bytes_per_delivery = bytes as f64 / (v.deliveries + v.failures).max(1) as f64;
    Ok(v)
}

pub fn run(cfg: &Config) -> Result<Report, String> {
    let receiver = ChildReceiver::spawn().map_err(|e| format!("receiver: {e}"))?;
    let url = receiver.url("/ok");
    let rounds = cfg.rounds.max(1);
    let per_round = cfg.deliveries.div_ceil(rounds).max(1);
    let concurrency = cfg.concurrency.max(1);
    let workers = concurrency.div_ceil(BATCH_SIZE);
    let setup = runtime()?;
    let mut w = setup.block_on(world(&url, &vec![per_round; rounds]))?;
    drop(setup);
    let mut report = Report {
        concurrency,
        batch_size: BATCH_SIZE,
        rounds,
        bare: Variant::named("bare reqwest loop"),
        sender: Variant::named("sender handler"),
        sender_with_logs: Variant::named("sender handler + Lambda logging"),
        throughput_ratio: f64::NAN,
        round_throughput_ratios: Vec::with_capacity(rounds),
        cpu_ratio: f64::NAN,
        logs_throughput_ratio: f64::NAN,
        logs_cpu_ratio: f64::NAN,
    };
    let mut queues = std::mem::take(&mut w.batches).into_iter();
    // A bare loop's run of `n` deliveries on a fresh runtime: its deliveries per second
    // go into `v`, and are returned for the round's ratio.
    let bare_run = |n: usize, v: &mut Variant| {
        let rt = runtime()?;
        let bare = Bare::new(&w)?;
        let u = Usage::start();
        let (ok, failed) = rt.block_on(run_bare(bare, url.clone(), n, concurrency, cfg.time_limit));
        let spent = u.stop();
        v.add(ok, failed, spent, 0);
        Ok::<f64, String>(ok as f64 / spent.wall_seconds.max(1e-9))
    };
    // The handler's run on a fresh runtime, with the round's queue of batches: its
    // deliveries per second go into `v`, and are returned. Its client is built
    // before the run is timed, as a Lambda builds it once at init.
    let sender_run = |batches: Vec<SqsEvent>, v: &mut Variant| {
        let rt = runtime()?;
        let http: Arc<dyn HttpSender> = Arc::new(courier_http::ReqwestSender::new(true));
        let u = Usage::start();
        let (ok, failed) = rt.block_on(run_sender(
            &w.ports,
            &w.settings,
            http,
            batches,
            workers,
            cfg.time_limit,
        ));
        let spent = u.stop();
        v.add(ok, failed, spent, 0);
        Ok::<f64, String>(ok as f64 / spent.wall_seconds.max(1e-9))
    };
    for round in 0..rounds {
        // A short bare run first, not counted: what comes before the pair (the
        // previous round's child process above all) leaves the machine colder for
        // whichever of the two runs first, by about a tenth when measured.
        bare_run(per_round.div_ceil(8), &mut Variant::default())?;
        // The two runs whose ratio is the guard run back to back, and in turn
        // first: whatever else on the machine drifts during a round (another
        // process waking, the host's load) then falls on both alike, and neither
        // always runs second, after the other has warmed or cooled the caches.
        let sender_batches = queues.next().unwrap_or_default();
        let bare_rate;
        let sender_rate;
        if round % 2 == 0 {
            bare_rate = bare_run(per_round, &mut report.bare)?;
            sender_rate = sender_run(sender_batches, &mut report.sender)?;
        } else {
            sender_rate = sender_run(sender_batches, &mut report.sender)?;
            bare_rate = bare_run(per_round, &mut report.bare)?;
        }
        report.round_throughput_ratios.push(sender_rate / bare_rate);

        let r = run_child(per_round, concurrency, &url)?;
        let spent = Spent {
            wall_seconds: r.wall_seconds,
            cpu_seconds: r.cpu_seconds,
        };
        report
            .sender_with_logs
            .add(r.deliveries, r.failures, spent, r.log_bytes);
    }
    // (throughput, CPU per delivery) of `v` over `base`'s.
    let ratio = |v: &Variant, base: &Variant| {
        (
            v.per_second / base.per_second,
            v.cpu_seconds_per_1000 / base.cpu_seconds_per_1000,
        )
    };
    (_, report.cpu_ratio) = ratio(&report.sender, &report.bare);
    report.throughput_ratio = crate::stats::median(&report.round_throughput_ratios);
    (report.logs_throughput_ratio, report.logs_cpu_ratio) = ratio(&report.sender_with_logs, &report.bare);
    drop(receiver);
    Ok(report)
}
