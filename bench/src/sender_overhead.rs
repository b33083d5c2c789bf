//! Section 1: the sender's overhead. The same deliveries go to a loopback
//! receiver (in a child process, so its CPU is not counted) in alternating rounds
//! of one run: a bare reqwest loop posting the same prepared bytes; the real
//! sender handler (`courier_sender::handle_batch` with
//! `courier_app::sender::Sender` over the in-memory ports and the real
//! `courier_http::ReqwestSender`); and that handler with the sender Lambda's
//! logging, in a child process whose stdout is a pipe as on Lambda: the JSON
//! subscriber of `functions/sender/src/main.rs` plus the EMF metric lines. Same
//! concurrency everywhere: `concurrency` requests in flight, the handler working
//! batches of 10 as SQS hands them to Lambda. The log variant also counts the bytes
//! logged per delivery. One more
//! in-process variant runs the handler alone, every attempt answered 200 at once by
//! an in-process stand-in: its CPU per delivery is the handler's own cost. A second bare
//! loop posts in the handler's shape, batches of 10 that each wait for their
//! slowest request: the gap between the two bare loops is what working in SQS
//! batches costs any handler, the gap from it to the handler is the handler's own.
//! Every variant runs on the sender Lambda's runtime, tokio's current-thread one
//! (`functions/sender/src/main.rs`), so the ratios compare like with like; one more
//! bare loop runs on tokio's multi-thread runtime, what `#[tokio::main]` gives a
//! program that does not choose, for comparison only.

use crate::cpu::{Spent, Usage};
use crate::receiver::ChildReceiver;
use aws_lambda_events::event::sqs::SqsEvent;
use courier_app::api::{Api, ApiRequest};
use courier_app::memory::{MemoryQueue, MemoryStore, MemoryTimer, OsSecrets, OsSeededRandom, SystemClock};
use courier_app::message::QueueMessage;
use courier_app::model::Tenant;
use courier_app::planner::{Planner, PlannerSettings};
use courier_app::ports::{Clock, DeliveryStore, EndpointStore, HttpSender, OutboundRequest, Random, SendResult};
use courier_app::sender::{NoFaults, PortRng, Sender, SenderSettings, StepOutcome};
use courier_core::ids::{AttemptId, EndpointId, TenantId};
use courier_core::outcome::{AttemptOutcome, ResponseSummary};
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
    /// Heap allocations (reallocations included) per delivery, and the bytes they
    /// asked for, on the runtime's thread: every variant but the multi-thread one,
    /// whose work runs on worker threads the tally does not follow (near zero there).
    #[serde(default)]
    pub allocations_per_delivery: f64,
    #[serde(default)]
    pub allocated_bytes_per_delivery: f64,
    #[serde(default)]
    log_bytes: u64,
    #[serde(default)]
    allocations: u64,
    #[serde(default)]
    allocated_bytes: u64,
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
        self.allocations += spent.allocations;
        self.allocated_bytes += spent.allocated_bytes;
        let attempts = (self.deliveries + self.failures).max(1) as f64;
        self.per_second = self.deliveries as f64 / self.wall_seconds.max(1e-9);
        self.cpu_seconds_per_1000 = self.cpu_seconds * 1000.0 / (self.deliveries.max(1) as f64);
        self.log_bytes_per_delivery = self.log_bytes as f64 / attempts;
        self.allocations_per_delivery = self.allocations as f64 / attempts;
        self.allocated_bytes_per_delivery = self.allocated_bytes as f64 / attempts;
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub concurrency: usize,
    pub batch_size: usize,
    pub rounds: usize,
    pub bare: Variant,
    /// The bare loop in batches of 10, `concurrency / 10` batches at once.
    pub bare_batched: Variant,
    /// The bare loop on tokio's multi-thread runtime (two workers here).
    pub bare_multi_thread: Variant,
    pub sender: Variant,
    /// The handler with an in-process stand-in answering 200 at once: its CPU per
    /// delivery is the handler's own cost, without the request's.
    pub sender_alone: Variant,
    pub sender_with_logs: Variant,
    /// Sender deliveries per second over bare (target >= 0.9): the median of the
    /// rounds' ratios, so one round disturbed by something else on the machine does
    /// not decide it.
    pub throughput_ratio: f64,
    /// Each round's sender deliveries per second over that round's bare loop's.
    pub round_throughput_ratios: Vec<f64>,
    /// All rounds' sender deliveries over all rounds' bare ones, per second.
    pub pooled_throughput_ratio: f64,
    /// Sender CPU per delivery over bare.
    pub cpu_ratio: f64,
    pub logs_throughput_ratio: f64,
    pub logs_cpu_ratio: f64,
    /// Sender deliveries per second over the batch-shaped bare loop's.
    pub batched_throughput_ratio: f64,
    pub batched_cpu_ratio: f64,
    /// Sender deliveries per second over the multi-thread bare loop's (the sender on
    /// its own runtime against a loop on another: for comparison, not the target).
    pub multi_thread_throughput_ratio: f64,
    pub multi_thread_cpu_ratio: f64,
}

/// The in-memory world: deliveries created through the real API, their first
/// queue messages already cut into SQS batches.
struct World {
    store: Arc<MemoryStore>,
    planner: Planner,
    /// One queue of batches per (round, in-process sender variant).
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

fn sqs_event(messages: &[QueueMessage], first_id: usize) -> Result<SqsEvent, String> {
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
    let planner = Planner {
        queue: queue.clone(),
        timer: Arc::new(MemoryTimer::new()),
        settings: PlannerSettings::default(),
    };
    let api = crate::bench_api(store.clone(), planner.clone(), clock.clone(), random.clone());
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
        let messages: Vec<QueueMessage> = queue.drain_visible(clock.now()).into_iter().map(|(m, _)| m).collect();
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
    let m = QueueMessage::parse(first).map_err(|e| e.to_string())?;
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
    let request = courier_app::sender::build_request(
        &ep,
        &d,
        &m,
        &AttemptId::generate(now, &mut PortRng(random.as_ref())),
        now,
    );
    Ok(World {
        store,
        planner,
        batches,
        body: request.body.to_vec(),
        headers: request
            .headers
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.to_string()))
            .collect(),
    })
}

/// The sender Lambda's runtime flavour, for every variant but one.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())
}

/// tokio's multi-thread runtime, a worker per core: the comparison bare loop's.
fn multi_thread_runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
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

/// The bare client: `workers` loops, each taking the next `batch` deliveries and
/// waiting for all of them before taking more. A batch of 1 is the continuous loop
/// (each worker keeps one request in flight); `BATCH_SIZE` is the handler's shape,
/// a batch's requests polled together in one task as a handler works its batch.
async fn run_bare(
    bare: Bare,
    url: String,
    n: usize,
    workers: usize,
    batch: usize,
    limit: Duration,
) -> Result<(u64, u64), String> {
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
                let start = next.fetch_add(batch, Ordering::Relaxed);
                if start >= n {
                    break;
                }
                let count = |good: bool| {
                    if good { &ok } else { &failed }.fetch_add(1, Ordering::Relaxed);
                };
                if batch == 1 {
                    // No join wrapper around a single request: the baseline stays bare.
                    count(post_once(&client, &url, &map, &body).await);
                } else {
                    let requests = (start..(start + batch).min(n)).map(|_| post_once(&client, &url, &map, &body));
                    futures_util::future::join_all(requests)
                        .await
                        .into_iter()
                        .for_each(count);
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    Ok((ok.load(Ordering::Relaxed), failed.load(Ordering::Relaxed)))
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

/// The handler-alone variant's stand-in for the network: every attempt is answered
/// 200 with no body, after yielding once so that each record still suspends (and is
/// woken) as it would on a real request. What is left is the handler's own work.
struct InstantReceiver;

#[async_trait::async_trait]
impl HttpSender for InstantReceiver {
    async fn send(&self, request: OutboundRequest) -> SendResult {
        // The request is built and dropped, as the real client consumes it.
        drop(request);
        tokio::task::yield_now().await;
        SendResult {
            outcome: AttemptOutcome::Response(ResponseSummary::new(200)),
            peer: None,
            duration_ms: 0,
        }
    }
}

async fn run_sender(
    store: Arc<MemoryStore>,
    planner: Planner,
    http: Arc<dyn HttpSender>,
    batches: Vec<SqsEvent>,
    workers: usize,
    limit: Duration,
) -> (u64, u64) {
    let sender = Arc::new(Sender {
        secrets: Arc::new(OsSecrets),
        deliveries: store.clone(),
        endpoints: store,
        http,
        clock: Arc::new(SystemClock),
        random: Arc::new(OsSeededRandom::new()),
        planner,
        faults: Arc::new(NoFaults),
        settings: SenderSettings::default(),
    });
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
/// subscriber, functions/sender/src/main.rs), prints its figures as `RESULT <json>`
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
    let u = Usage::start();
    let (ok, failed) = rt.block_on(run_sender(
        w.store,
        w.planner,
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
        // What makes the handler print its EMF lines, as on Lambda.
        .env("COURIER_EMF", "1")
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
    // Two queues of batches per round: the sender's, and the handler-alone variant's.
    let mut w = setup.block_on(world(&url, &vec![per_round; 2 * rounds]))?;
    drop(setup);
    let mut report = Report {
        concurrency,
        batch_size: BATCH_SIZE,
        rounds,
        bare: Variant::named("bare reqwest loop"),
        bare_batched: Variant::named("bare reqwest loop in batches of 10"),
        bare_multi_thread: Variant::named("bare reqwest loop, multi-thread runtime"),
        sender: Variant::named("sender handler"),
        sender_alone: Variant::named("sender handler alone (instant 200, no network)"),
        sender_with_logs: Variant::named("sender handler + Lambda logging"),
        throughput_ratio: f64::NAN,
        round_throughput_ratios: Vec::with_capacity(rounds),
        pooled_throughput_ratio: f64::NAN,
        cpu_ratio: f64::NAN,
        logs_throughput_ratio: f64::NAN,
        logs_cpu_ratio: f64::NAN,
        batched_throughput_ratio: f64::NAN,
        batched_cpu_ratio: f64::NAN,
        multi_thread_throughput_ratio: f64::NAN,
        multi_thread_cpu_ratio: f64::NAN,
    };
    let mut queues = std::mem::take(&mut w.batches).into_iter();
    // A bare loop's run of `n` deliveries on a fresh runtime: its deliveries per second
    // go into `v`, and are returned for the round's ratio.
    let bare_run = |n: usize, rt: tokio::runtime::Runtime, v: &mut Variant, workers: usize, batch: usize| {
        let bare = Bare::new(&w)?;
        let u = Usage::start();
        let (ok, failed) = rt.block_on(run_bare(bare, url.clone(), n, workers, batch, cfg.time_limit))?;
        let spent = u.stop();
        v.add(ok, failed, spent, 0);
        Ok::<f64, String>(ok as f64 / spent.wall_seconds.max(1e-9))
    };
    // An in-process handler variant's run on a fresh runtime, with the next queue
    // of batches: its deliveries per second go into `v`, and are returned.
    let sender_run = |batches: Vec<SqsEvent>, http: Arc<dyn HttpSender>, v: &mut Variant| {
        let rt = runtime()?;
        let u = Usage::start();
        let (ok, failed) = rt.block_on(run_sender(
            w.store.clone(),
            w.planner.clone(),
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
        // previous round's child process above all) left the machine colder for
        // whichever of the two ran first, by about a tenth in the eleventh session.
        bare_run(
            per_round.div_ceil(8),
            runtime()?,
            &mut Variant::default(),
            concurrency,
            1,
        )?;
        // The two runs whose ratio is the target run back to back, and in turn
        // first: whatever else on the machine drifts during a round (another
        // process waking, the host's load) then falls on both alike, and neither
        // always runs second, after the other has warmed or cooled the caches.
        let sender_http: Arc<dyn HttpSender> = Arc::new(courier_http::ReqwestSender::new(true));
        let sender_batches = queues.next().unwrap_or_default();
        let bare_rate;
        let sender_rate;
        if round % 2 == 0 {
            bare_rate = bare_run(per_round, runtime()?, &mut report.bare, concurrency, 1)?;
            sender_rate = sender_run(sender_batches, sender_http, &mut report.sender)?;
        } else {
            sender_rate = sender_run(sender_batches, sender_http, &mut report.sender)?;
            bare_rate = bare_run(per_round, runtime()?, &mut report.bare, concurrency, 1)?;
        }
        report.round_throughput_ratios.push(sender_rate / bare_rate);
        bare_run(per_round, runtime()?, &mut report.bare_batched, workers, BATCH_SIZE)?;
        let multi = multi_thread_runtime()?;
        bare_run(per_round, multi, &mut report.bare_multi_thread, concurrency, 1)?;
        let alone_batches = queues.next().unwrap_or_default();
        sender_run(alone_batches, Arc::new(InstantReceiver), &mut report.sender_alone)?;

        let r = run_child(per_round, concurrency, &url)?;
        let spent = Spent {
            wall_seconds: r.wall_seconds,
            cpu_seconds: r.cpu_seconds,
            allocations: r.allocations,
            allocated_bytes: r.allocated_bytes,
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
    (report.pooled_throughput_ratio, report.cpu_ratio) = ratio(&report.sender, &report.bare);
    report.throughput_ratio = crate::stats::median(&report.round_throughput_ratios);
    (report.logs_throughput_ratio, report.logs_cpu_ratio) = ratio(&report.sender_with_logs, &report.bare);
    (report.batched_throughput_ratio, report.batched_cpu_ratio) = ratio(&report.sender, &report.bare_batched);
    (report.multi_thread_throughput_ratio, report.multi_thread_cpu_ratio) =
        ratio(&report.sender, &report.bare_multi_thread);
    // The table (report.rs) shows the continuous loop; this shape is in the JSON and here.
    eprintln!(
        "courier-bench: bare loop in batches of 10: {:.0} /s, {:.3} CPU s/1k; sender / it: {:.2}x throughput, {:.2}x CPU",
        report.bare_batched.per_second,
        report.bare_batched.cpu_seconds_per_1000,
        report.batched_throughput_ratio,
        report.batched_cpu_ratio
    );
    drop(receiver);
    Ok(report)
}
