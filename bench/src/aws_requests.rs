//! Section 2: AWS requests and cost per delivery on the local stack. A moto
//! emulator, the real adapters with the counting interceptor
//! (`courier_testkit::counting`) on their clients, the real API router and sender
//! handler, and stand-ins for what AWS runs (Lambda's SQS event source mapping,
//! batch size 1, and Scheduler firing due schedules onto the queue), wired like
//! `courier_local::stack` wires them. The stand-ins use uncounted clients: their
//! requests are tallied by hand and modelled as AWS bills them.
//!
//! Paths, each with `per_path` deliveries: the first attempt succeeds; one retry
//! through an SQS delay; one retry through a Scheduler schedule (which, aimed
//! early, also takes one SQS re-delay); the first attempt succeeding on a gavAI
//! and on a SmartChat endpoint, whose health state a success may update; the batch
//! path (events ingested ten to a `POST /v1/events/batch`, the event source mapping
//! handing the sender batches of ten); a redelivery with an Idempotency-Key; the
//! first attempt to endpoints with limits that never hold (the limiter's requests
//! per attempt), and to one limited to 2/s burst 2 (holds included, with the
//! lateness the holds add). Last, isolation: an endpoint that hangs past its
//! timeout, capped at one attempt in flight, while another endpoint's deliveries go
//! out.

use crate::cost::{self, Breakdown, Usage};
use crate::receiver::Receiver;
use crate::stats::{Summary, summarize};
use aws_lambda_events::event::sqs::SqsEvent;
use aws_sdk_dynamodb::types::AttributeValue;
use courier_app::adapters::system::{OsSeededRandom, SystemClock};
use courier_app::api::{Api, ApiRequest};
use courier_app::delivery::{Sender, StepOutcome};
use courier_app::domain::model::Tenant;
use courier_app::pipeline::planner::PlannerSettings;
use courier_app::ports::PortRng;
use courier_app::ports::{Clock, DeliveryStore, Queue as _, Random};
use courier_app::wiring::Outbound;
use courier_aws::sqs::ReceivedMessage;
use courier_aws::testing::Emulator;
use courier_aws::{DynamoStore, SchedulerTimer, SqsQueue};
use courier_core::ids::{DeliveryId, TenantId};
use courier_testkit::counting::{Counts, RequestCounter};
use serde::Serialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

const API_KEY: &str = "ck_bench_aws_requests";
/// Concurrent stand-in pollers (Lambda runs several).
const POLLERS: usize = 4;
/// Waits up to this long take an SQS delay; longer ones a schedule, aimed this
/// much early. As in production (900 s, 60 s), lead plus the second `at()` drops
/// stays within the SQS threshold, so an early schedule is re-delayed through SQS.
pub const SQS_MAX_DELAY_SECONDS: u32 = 2;
pub const SCHEDULE_LEAD_SECONDS: u32 = 1;

#[derive(Debug, Clone)]
pub struct Config {
    pub per_path: usize,
    /// Bytes of each event's payload JSON; 0 keeps the small default payload.
    pub payload_bytes: usize,
    /// Bound on each path's wait for its deliveries to settle.
    pub time_limit: Duration,
}

/// One operation's counts per delivery.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PerOp {
    pub calls: f64,
    pub requests: f64,
    pub write_units: f64,
    pub index_write_units: f64,
    pub read_units: f64,
}

/// DynamoDB write units per delivery by item kind (`DLV`, `KEY`, `TEN`, ...).
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KindPer {
    pub writes: f64,
    /// Average size of the item written (the larger of before and after), bytes.
    pub avg_bytes: f64,
    pub write_units: f64,
    pub index_write_units: f64,
    pub by_index: BTreeMap<String, f64>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PathReport {
    pub name: String,
    pub deliveries: usize,
    pub settled: usize,
    /// service -> operation -> per delivery (the functions' own calls).
    pub calls: BTreeMap<String, BTreeMap<String, PerOp>>,
    pub dynamodb_kinds: BTreeMap<String, KindPer>,
    /// Per delivery: the functions' requests by service.
    pub dynamodb_requests: f64,
    pub sqs_requests: f64,
    pub scheduler_requests: f64,
    /// Per delivery: what AWS itself does (event source mapping, Scheduler).
    pub esm_receives: f64,
    pub esm_deletes: f64,
    pub schedules_fired: f64,
    pub usage: Usage,
    pub api_ms: Summary,
    pub sender_ms: Summary,
    pub cost: Breakdown,
    pub eventbridge_per_million: f64,
    /// A destination path: what the customer's service and STS were asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination: Option<DestinationCost>,
}

/// Per delivery to a destination, beside Courier's own requests.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DestinationCost {
    /// `SQS SendMessage` or `EventBridge PutEvents`.
    pub service: String,
    pub requests: f64,
    /// As measured (one per role on first use, over this path's deliveries); in
    /// a deployment one per role and hour.
    pub assume_role_calls: f64,
    /// The customer's service bill per million deliveries (STS is free).
    pub customer_per_million: f64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// One delivery item as stored after its first attempt: bytes per attribute
    /// (name plus value), and the whole.
    pub delivery_item_bytes: BTreeMap<String, u64>,
    /// One delivery item of the SQS-delay retry path as stored while it waits for
    /// its retry (after its failed first attempt): what the retry's claim and
    /// outcome are billed on, before the claim's own attributes.
    pub retrying_item_bytes: BTreeMap<String, u64>,
    /// Bytes of each event's payload JSON.
    pub payload_bytes: usize,
    pub sqs_max_delay_seconds: u32,
    pub schedule_lead_seconds: u32,
    pub lambda_memory_mb: u32,
    pub paths: Vec<PathReport>,
    /// First attempt start minus delivery creation, ms: the unlimited path, and the
    /// path limited to 2/s burst 2 (what throttling adds).
    pub lateness_unlimited_ms: Summary,
    pub lateness_throttled_ms: Summary,
    /// The same for deliveries to a healthy endpoint sent while a hanging endpoint
    /// (maxInFlight 1) holds many deliveries.
    pub isolation_ms: Summary,
}

#[derive(Default)]
struct Tally {
    api_ms: Vec<f64>,
    sender_ms: Vec<f64>,
    receives: u64,
    deletes: u64,
    fired: u64,
    http_attempts: u64,
}

struct Harness {
    _emulator: Emulator,
    counter: RequestCounter,
    /// The sender's calls into destinations (STS and the customer's services).
    destination_counter: RequestCounter,
    /// The customer's queue and event bus for the destination paths.
    destination_queue_url: String,
    destination_bus_arn: String,
    api: Arc<Api>,
    check: DynamoStore,
    /// Uncounted, for looking at items.
    plain: aws_sdk_dynamodb::Client,
    table: String,
    tally: Arc<Mutex<Tally>>,
    mapping: Esm,
    busy: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    tasks: Vec<JoinHandle<()>>,
    tenant: TenantId,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn lock(t: &Mutex<Tally>) -> std::sync::MutexGuard<'_, Tally> {
    t.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The SQS event Lambda would hand the sender for these messages.
fn sqs_event(messages: &[ReceivedMessage]) -> Result<SqsEvent, String> {
    let records: Vec<Value> = messages
        .iter()
        .map(|m| {
            json!({
                "messageId": m.message_id,
                "receiptHandle": m.receipt_handle,
                "body": m.body,
                "attributes": {},
                "messageAttributes": {},
                "md5OfBody": m.md5_of_body,
                "eventSource": "aws:sqs",
                "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:bench-deliveries",
                "awsRegion": "us-east-1"
            })
        })
        .collect();
    serde_json::from_value(json!({ "Records": records })).map_err(err)
}

/// How the stand-in event source mapping hands messages over: batches of up to
/// `batch_size`, and none while `hold` is set (so that a batch path's messages are
/// all queued before the first receive, as a batching window would gather them).
#[derive(Clone, Default)]
struct Esm {
    batch_size: Arc<AtomicUsize>,
    hold: Arc<AtomicBool>,
}

/// Lambda's event source mapping: receive up to the batch size, invoke, delete the
/// messages that did not fail (one `DeleteMessageBatch` request per batch).
async fn poll(
    poller: usize,
    sender: Arc<Sender>,
    esm: SqsQueue,
    mapping: Esm,
    tally: Arc<Mutex<Tally>>,
    busy: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
) {
    while !stop.load(Ordering::Relaxed) {
        let size = mapping.batch_size.load(Ordering::SeqCst).clamp(1, 10);
        // Batches of more than one: one poller, so that a batch is not split
        // between pollers that each take a few of the messages.
        if mapping.hold.load(Ordering::SeqCst) || (size > 1 && poller > 0) {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        let got = match esm.receive(i32::try_from(size).unwrap_or(1), 1, 30).await {
            Ok(m) => m,
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        if got.is_empty() {
            continue;
        }
        busy.fetch_add(1, Ordering::SeqCst);
        if let Ok(event) = sqs_event(&got) {
            let started = Instant::now();
            let (response, results) = courier_sender::handle_batch(&sender, event).await;
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            let attempts = results
                .iter()
                .filter(|r| matches!(&r.result, Ok(StepOutcome::Attempted { attempt, .. }) if attempt.response_status.is_some()))
                .count() as u64;
            {
                let mut t = lock(&tally);
                t.receives += 1;
                t.sender_ms.push(ms);
                t.http_attempts += attempts;
            }
            let mut deleted = false;
            for m in &got {
                if response
                    .batch_item_failures
                    .iter()
                    .any(|f| f.item_identifier == m.message_id)
                {
                    continue;
                }
                deleted |= esm.delete(&m.receipt_handle).await.is_ok();
            }
            if deleted {
                lock(&tally).deletes += 1;
            }
        }
        busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Scheduler: due schedules put their message on the queue and are deleted.
async fn pump(
    timer: SchedulerTimer,
    queue: SqsQueue,
    tally: Arc<Mutex<Tally>>,
    busy: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
) {
    while !stop.load(Ordering::Relaxed) {
        tokio::time::sleep(Duration::from_millis(250)).await;
        busy.fetch_add(1, Ordering::SeqCst);
        if let Ok(due) = timer.list_due(SystemClock.now()).await {
            for (name, message) in due {
                if queue.send(&message, 0).await.is_ok() {
                    lock(&tally).fired += 1;
                    let _ = timer.delete(&name).await;
                }
            }
        }
        busy.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Harness {
    async fn start() -> Result<Harness, String> {
        let emulator = Emulator::start().await.map_err(err)?;
        let sdk = emulator.sdk_config().await.map_err(err)?;
        let names = courier_aws::bootstrap::ResourceNames::with_prefix("bench");
        let res = courier_aws::bootstrap::ensure_resources(&sdk, &names)
            .await
            .map_err(err)?;
        let plain = aws_sdk_dynamodb::Client::new(&sdk);
        let spec = courier_testkit::counting::describe_table(&plain, &res.table)
            .await
            .map_err(err)?;
        let counter = RequestCounter::new(vec![spec]);
        let ddb_conf = aws_sdk_dynamodb::config::Builder::from(&sdk)
            .interceptor(counter.clone())
            .build();
        let ddb = aws_sdk_dynamodb::Client::from_conf(ddb_conf);
        let clock: Arc<dyn Clock> = Arc::new(SystemClock);
        let random: Arc<dyn Random> = Arc::new(OsSeededRandom::new());
        let store = Arc::new(DynamoStore::with_client(ddb, res.table.clone(), clock.clone()));
        // Steps, fan-out steps included, on the (counted) delivery queue.
        let ports = crate::bench_ports(
            store.clone(),
            Arc::new(SqsQueue::with_client(counter.sqs(&sdk), res.queue_url.clone())),
            Arc::new(SchedulerTimer::with_client(
                counter.scheduler(&sdk),
                res.schedule_group.clone(),
                res.queue_arn.clone(),
                res.scheduler_role_arn.clone(),
            )),
            Arc::new(SqsQueue::with_client(counter.sqs(&sdk), res.queue_url.clone())),
            clock.clone(),
            random.clone(),
            store.clone(),
        );
        let settings = crate::bench_settings(PlannerSettings {
            sqs_max_delay_seconds: SQS_MAX_DELAY_SECONDS,
            schedule_lead_seconds: SCHEDULE_LEAD_SECONDS,
        });
        let api = Arc::new(ports.api(&settings));
        let fanout = Arc::new(ports.fanout(&settings));
        let destination_counter = RequestCounter::new(vec![]);
        let destinations = Arc::new(courier_aws::destinations::AwsDestinations::with_interceptors(
            &sdk,
            clock.clone(),
            vec![aws_sdk_sqs::config::SharedInterceptor::new(destination_counter.clone())],
        ));
        let destination_queue_url = aws_sdk_sqs::Client::new(&sdk)
            .create_queue()
            .queue_name("bench-customer-queue")
            .send()
            .await
            .map_err(err)?
            .queue_url()
            .unwrap_or_default()
            .to_owned();
        let destination_bus_arn = aws_sdk_eventbridge::Client::new(&sdk)
            .create_event_bus()
            .name("bench-customer-bus")
            .send()
            .await
            .map_err(err)?
            .event_bus_arn()
            .unwrap_or_default()
            .to_owned();
        let outbound = Outbound {
            http: Arc::new(courier_http::ReqwestSender::new(true)),
            destinations,
            limiter: Arc::new(courier_aws::DynamoLimiter::new(store.client().clone(), store.table())),
        };
        let sender = Arc::new(ports.sender(&settings, &outbound, Some(fanout)));
        let tenant = Tenant {
            id: TenantId::generate(clock.now(), &mut PortRng(random.as_ref())),
            name: "bench".into(),
        };
        courier_app::api::register_key(store.as_ref(), API_KEY, &tenant)
            .await
            .map_err(err)?;
        let tally = Arc::new(Mutex::new(Tally::default()));
        let busy = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let mapping = Esm::default();
        mapping.batch_size.store(1, Ordering::SeqCst);
        let mut tasks = Vec::new();
        for poller in 0..POLLERS {
            let esm = SqsQueue::new(&sdk, res.queue_url.clone());
            tasks.push(tokio::spawn(poll(
                poller,
                sender.clone(),
                esm,
                mapping.clone(),
                tally.clone(),
                busy.clone(),
                stop.clone(),
            )));
        }
        let pump_timer = SchedulerTimer::new(
            &sdk,
            res.schedule_group.clone(),
            res.queue_arn.clone(),
            res.scheduler_role_arn.clone(),
        );
        let pump_queue = SqsQueue::new(&sdk, res.queue_url.clone());
        tasks.push(tokio::spawn(pump(
            pump_timer,
            pump_queue,
            tally.clone(),
            busy.clone(),
            stop.clone(),
        )));
        Ok(Harness {
            _emulator: emulator,
            counter,
            destination_counter,
            destination_queue_url,
            destination_bus_arn,
            api,
            check: DynamoStore::with_client(plain.clone(), res.table.clone(), clock),
            plain,
            table: res.table,
            tally,
            mapping,
            busy,
            stop,
            tasks,
            tenant: tenant.id,
        })
    }

    async fn call(
        &self,
        method: &str,
        path: &str,
        body: Value,
        idempotency_key: Option<&str>,
    ) -> Result<Value, String> {
        let mut headers = vec![
            ("authorization".to_owned(), format!("Bearer {API_KEY}")),
            ("content-type".to_owned(), "application/json".to_owned()),
        ];
        if let Some(k) = idempotency_key {
            headers.push(("idempotency-key".to_owned(), k.to_owned()));
        }
        let request = ApiRequest {
            method: method.into(),
            path: path.into(),
            query: None,
            headers,
            body: body.to_string().into_bytes(),
        };
        let started = Instant::now();
        let r = self.api.handle(request).await;
        lock(&self.tally).api_ms.push(started.elapsed().as_secs_f64() * 1000.0);
        if r.status >= 300 {
            return Err(format!(
                "{method} {path}: {} {}",
                r.status,
                String::from_utf8_lossy(&r.body)
            ));
        }
        Ok(r.body_json())
    }

    async fn endpoint(&self, url: &str, policy: Value) -> Result<String, String> {
        self.endpoint_with(url, policy, json!({})).await
    }

    /// An endpoint with `extra` fields (limits, timeout) beside its URL and policy.
    async fn endpoint_with(&self, url: &str, policy: Value, extra: Value) -> Result<String, String> {
        let mut body = json!({"url": url, "policy": policy});
        for (k, v) in extra.as_object().into_iter().flatten() {
            body[k] = v.clone();
        }
        let e = self.call("POST", "/v1/endpoints", body, None).await?;
        Ok(e["id"].as_str().unwrap_or_default().to_owned())
    }

    /// First attempt start minus creation, ms, of each delivery that has one.
    async fn lateness(&self, ids: &[DeliveryId]) -> Summary {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let (Ok(Some(d)), Ok(attempts)) = (self.check.get_delivery(id).await, self.check.list_attempts(id).await)
                && let Some(first) = attempts.first()
            {
                out.push(first.started_at.millis_since(d.created_at) as f64);
            }
        }
        summarize(&out)
    }

    /// Waits (bounded) until every delivery is settled with `attempts` attempts and
    /// the stand-ins are idle; returns how many got there.
    async fn wait_done(&self, ids: &[DeliveryId], attempts: u32, limit: Duration) -> usize {
        let deadline = Instant::now() + limit;
        loop {
            let mut done = 0;
            for id in ids {
                if let Ok(Some(d)) = self.check.get_delivery(id).await
                    && d.status.is_settled()
                    && d.attempt_count >= attempts
                {
                    done += 1;
                }
            }
            if done == ids.len() && self.busy.load(Ordering::SeqCst) == 0 {
                // Once more after a pause: a trailing delete or fire may still run.
                tokio::time::sleep(Duration::from_millis(600)).await;
                if self.busy.load(Ordering::SeqCst) == 0 {
                    return done;
                }
            }
            if Instant::now() >= deadline {
                return done;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    fn reset(&self) {
        self.counter.reset();
        *lock(&self.tally) = Tally::default();
    }

    fn take(&self) -> (Counts, Tally) {
        (self.counter.take(), std::mem::take(&mut *lock(&self.tally)))
    }

    async fn stop(self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.tasks {
            if tokio::time::timeout(Duration::from_secs(3), t).await.is_err() {
                // A poller in a long poll: it holds nothing worth waiting for.
            }
        }
    }
}

fn path_report(name: &str, k: usize, settled: usize, counts: &Counts, tally: &Tally) -> PathReport {
    let per = |x: f64| x / k.max(1) as f64;
    let mut calls = BTreeMap::new();
    for (service, ops) in &counts.services {
        let entry: &mut BTreeMap<String, PerOp> = calls.entry(service.clone()).or_default();
        for (op, s) in ops {
            entry.insert(
                op.clone(),
                PerOp {
                    calls: per(s.calls as f64),
                    requests: per(s.requests as f64),
                    write_units: per(s.write_units as f64),
                    index_write_units: per(s.index_write_units as f64),
                    read_units: per(s.read_units),
                },
            );
        }
    }
    let dynamodb_kinds = counts
        .dynamodb_kinds
        .iter()
        .map(|(kind, u)| {
            (
                kind.clone(),
                KindPer {
                    writes: per(u.writes as f64),
                    avg_bytes: u.bytes as f64 / u.writes.max(1) as f64,
                    write_units: per(u.write_units as f64),
                    index_write_units: per(u.index_write_units as f64),
                    by_index: u.by_index.iter().map(|(i, x)| (i.clone(), per(*x as f64))).collect(),
                },
            )
        })
        .collect();
    let ddb = counts.service("DynamoDB");
    let sqs = counts.service("SQS");
    let scheduler = counts.service("Scheduler");
    // Each message sent is one request per 64 KiB chunk (all of ours are one).
    let sqs_app = (sqs.requests.max(sqs.payload_chunks)) as f64;
    let usage = Usage {
        api_invocations: per(tally.api_ms.len() as f64),
        api_billed_ms: per(tally.api_ms.iter().map(|m| cost::billed_ms(*m)).sum()),
        sender_invocations: per(tally.sender_ms.len() as f64),
        sender_billed_ms: per(tally.sender_ms.iter().map(|m| cost::billed_ms(*m)).sum()),
        dynamodb_write_units: per((ddb.write_units + ddb.index_write_units) as f64),
        dynamodb_read_units: per(ddb.read_units),
        sqs_requests: per(sqs_app + (tally.receives + tally.deletes + tally.fired) as f64),
        scheduler_invocations: per(tally.fired as f64),
        http_attempts: per(tally.http_attempts as f64),
        producer_events: 1.0,
    };
    PathReport {
        name: name.to_owned(),
        deliveries: k,
        settled,
        calls,
        dynamodb_kinds,
        dynamodb_requests: per(ddb.requests as f64),
        sqs_requests: per(sqs.requests as f64),
        scheduler_requests: per(scheduler.requests as f64),
        esm_receives: per(tally.receives as f64),
        esm_deletes: per(tally.deletes as f64),
        schedules_fired: per(tally.fired as f64),
        cost: cost::courier_per_million(&usage),
        eventbridge_per_million: cost::eventbridge_per_million(&usage),
        destination: None,
        usage,
        api_ms: summarize(&tally.api_ms),
        sender_ms: summarize(&tally.sender_ms),
    }
}

/// The payload of the bench's `i`th event: a small object, its `note` padded so
/// that the JSON text is `bytes` long when that is more than the unpadded text.
/// Item sizes, and so write units, follow the payload's size.
pub fn payload(i: usize, bytes: usize) -> Value {
    let note = "a typical small webhook payload";
    let small = json!({"order": i, "note": note, "amount": 1234});
    let pad = bytes.saturating_sub(small.to_string().len());
    if pad == 0 {
        return small;
    }
    json!({"order": i, "note": format!("{note}{}", ".".repeat(pad)), "amount": 1234})
}

async fn events(h: &Harness, endpoint: &str, k: usize, payload_bytes: usize) -> Result<Vec<DeliveryId>, String> {
    let mut ids = Vec::with_capacity(k);
    for i in 0..k {
        let payload = payload(i, payload_bytes);
        let r = h
            .call(
                "POST",
                "/v1/events",
                json!({"endpointId": endpoint, "type": "bench.event", "payload": payload}),
                None,
            )
            .await?;
        let id = r["deliveries"][0]["id"].as_str().unwrap_or_default();
        ids.push(DeliveryId::parse(id).map_err(err)?);
    }
    Ok(ids)
}

/// The batch path's ingest: events ten to a `POST /v1/events/batch` request.
async fn batch_events(h: &Harness, endpoint: &str, k: usize, payload_bytes: usize) -> Result<Vec<DeliveryId>, String> {
    let mut ids = Vec::with_capacity(k);
    let all: Vec<usize> = (0..k).collect();
    for chunk in all.chunks(10) {
        let events: Vec<Value> = chunk
            .iter()
            .map(|i| json!({"endpointId": endpoint, "type": "bench.event", "payload": payload(*i, payload_bytes)}))
            .collect();
        let r = h
            .call("POST", "/v1/events/batch", json!({ "events": events }), None)
            .await?;
        for result in r["results"].as_array().cloned().unwrap_or_default() {
            let id = result["deliveries"][0]["id"]
                .as_str()
                .ok_or_else(|| format!("a batch entry was not accepted: {result}"))?;
            ids.push(DeliveryId::parse(id).map_err(err)?);
        }
    }
    Ok(ids)
}

/// Bytes per attribute of one stored delivery item (read with an uncounted client).
async fn anatomy(h: &Harness, id: &DeliveryId) -> BTreeMap<String, u64> {
    let key = std::collections::HashMap::from([
        ("PK".to_owned(), AttributeValue::S(courier_aws::dynamo::delivery_pk(id))),
        ("SK".to_owned(), AttributeValue::S("DLV".to_owned())),
    ]);
    let item = h
        .plain
        .get_item()
        .table_name(&h.table)
        .set_key(Some(key))
        .send()
        .await
        .ok()
        .and_then(|o| o.item);
    let mut out = BTreeMap::new();
    if let Some(item) = item {
        for (name, value) in &item {
            let one = std::collections::HashMap::from([(name.clone(), value.clone())]);
            out.insert(name.clone(), courier_testkit::counting::item_size(&one));
        }
        out.insert("(item)".to_owned(), courier_testkit::counting::item_size(&item));
    }
    out
}

/// The anatomy of `id`'s item once it waits for its retry (status `retrying`,
/// unclaimed), looked at every 20 ms for at most 2 s; empty if it never does.
async fn retrying_anatomy(h: &Harness, id: &DeliveryId) -> BTreeMap<String, u64> {
    for _ in 0..100 {
        if let Ok(Some(d)) = h.check.get_delivery(id).await
            && d.status.as_str() == "retrying"
            && d.claim.is_none()
        {
            return anatomy(h, id).await;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    BTreeMap::new()
}

/// What [`run_paths`] measured: the paths, the two item anatomies and the figures.
type Measured = (Vec<PathReport>, [BTreeMap<String, u64>; 2], Figures);

async fn run_paths(h: &Harness, receiver: &Receiver, cfg: &Config) -> Result<Measured, String> {
    let k = cfg.per_path.max(1);
    let ok = h.endpoint(&receiver.url("/ok"), json!("greatwait")).await?;
    // Tanitar waits count from the attempt's start and have no jitter: 2 s fits
    // the SQS delay threshold, 5 s does not.
    let via_sqs = h
        .endpoint(
            &receiver.url("/fail-once"),
            json!({"base": "tanitar", "waitsSeconds": [SQS_MAX_DELAY_SECONDS]}),
        )
        .await?;
    let via_schedule = h
        .endpoint(
            &receiver.url("/fail-once"),
            json!({"base": "tanitar", "waitsSeconds": [SQS_MAX_DELAY_SECONDS + 3]}),
        )
        .await?;
    // The presets whose endpoints keep health state: what a success costs them.
    let gavai = h.endpoint(&receiver.url("/ok"), json!("gavai")).await?;
    let smartchat = h.endpoint(&receiver.url("/ok"), json!("smartchat")).await?;
    // Limits that never hold: the limiter's own requests per attempt.
    let rate_only = h
        .endpoint_with(
            &receiver.url("/ok"),
            json!("greatwait"),
            json!({"rateLimit": {"perSecond": 1000, "burst": 1000}}),
        )
        .await?;
    let rate_and_cap = h
        .endpoint_with(
            &receiver.url("/ok"),
            json!("greatwait"),
            json!({"rateLimit": {"perSecond": 1000, "burst": 1000}, "maxInFlight": 100}),
        )
        .await?;
    let throttled = h
        .endpoint_with(
            &receiver.url("/ok"),
            json!("greatwait"),
            json!({"rateLimit": {"perSecond": 2, "burst": 2}}),
        )
        .await?;
    let mut out = Vec::new();
    let mut lateness = BTreeMap::new();
    let mut first_ids: Vec<DeliveryId> = Vec::new();
    let mut retrying_item = BTreeMap::new();
    for (name, endpoint, attempts) in [
        ("first attempt succeeds", &ok, 1),
        ("one retry via SQS delay", &via_sqs, 2),
        ("one retry via Scheduler", &via_schedule, 2),
        ("first attempt succeeds, gavAI (breaker)", &gavai, 1),
        ("first attempt succeeds, SmartChat (health)", &smartchat, 1),
        ("first attempt succeeds, rateLimit never held", &rate_only, 1),
        (
            "first attempt succeeds, rateLimit + maxInFlight never held",
            &rate_and_cap,
            1,
        ),
        ("rateLimit 2/s burst 2 (holds included)", &throttled, 1),
    ] {
        h.reset();
        let ids = events(h, endpoint, k, cfg.payload_bytes).await?;
        if *endpoint == via_sqs
            && let Some(id) = ids.first()
        {
            retrying_item = retrying_anatomy(h, id).await;
        }
        let settled = h.wait_done(&ids, attempts, cfg.time_limit).await;
        let (counts, tally) = h.take();
        out.push(path_report(name, k, settled, &counts, &tally));
        if *endpoint == ok || *endpoint == throttled {
            lateness.insert(endpoint.clone(), h.lateness(&ids).await);
        }
        if first_ids.is_empty() {
            first_ids = ids;
        }
    }
    // The batch path: the mapping holds back while the batches are ingested, then
    // hands the sender batches of ten.
    h.reset();
    h.mapping.hold.store(true, Ordering::SeqCst);
    h.mapping.batch_size.store(10, Ordering::SeqCst);
    // A receive already waiting (1 s long polls) ends before the first event.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let ingested = batch_events(h, &ok, k, cfg.payload_bytes).await;
    h.mapping.hold.store(false, Ordering::SeqCst);
    let ids = ingested?;
    let settled = h.wait_done(&ids, 1, cfg.time_limit).await;
    h.mapping.batch_size.store(1, Ordering::SeqCst);
    let (counts, tally) = h.take();
    out.push(path_report(
        "first attempt succeeds, batch path (10 per ingest request, sender batches of 10)",
        k,
        settled,
        &counts,
        &tally,
    ));
    // Destinations in the customer's account: Courier's requests as for a webhook,
    // and the customer's service and STS on the side.
    let role = "arn:aws:iam::123456789012:role/courier-destination-bench";
    for (name, destination, service, operation, price) in [
        (
            "first attempt succeeds, SQS destination",
            json!({"type": "sqs", "queueUrl": h.destination_queue_url, "roleArn": role}),
            "SQS",
            "SendMessage",
            cost::SQS_REQUEST,
        ),
        (
            "first attempt succeeds, EventBridge destination",
            json!({"type": "eventbridge", "eventBusArn": h.destination_bus_arn, "roleArn": role}),
            "EventBridge",
            "PutEvents",
            cost::EVENTBRIDGE_EVENT,
        ),
    ] {
        let endpoint = h
            .call(
                "POST",
                "/v1/endpoints",
                json!({"destination": destination, "policy": "greatwait"}),
                None,
            )
            .await?["id"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        h.reset();
        h.destination_counter.reset();
        let ids = events(h, &endpoint, k, cfg.payload_bytes).await?;
        let settled = h.wait_done(&ids, 1, cfg.time_limit).await;
        let (counts, tally) = h.take();
        let side = h.destination_counter.take();
        let per = |x: u64| x as f64 / k as f64;
        let requests = per(side.op(service, operation).requests);
        let mut report = path_report(name, k, settled, &counts, &tally);
        report.destination = Some(DestinationCost {
            service: format!("{service} {operation}"),
            requests,
            assume_role_calls: per(side.op("STS", "AssumeRole").calls),
            customer_per_million: requests * price * 1e6,
        });
        out.push(report);
    }
    h.reset();
    for (i, id) in first_ids.iter().enumerate() {
        h.call(
            "POST",
            &format!("/v1/deliveries/{id}/redeliver"),
            json!({}),
            Some(&format!("bench-redeliver-{i}")),
        )
        .await?;
    }
    let settled = h.wait_done(&first_ids, 2, cfg.time_limit).await;
    let (counts, tally) = h.take();
    out.push(path_report("redelivery (Idempotency-Key)", k, settled, &counts, &tally));
    let item = match first_ids.first() {
        Some(id) => anatomy(h, id).await,
        None => BTreeMap::new(),
    };
    let figures = Figures {
        unlimited: lateness.remove(&ok).unwrap_or_else(|| summarize(&[])),
        throttled: lateness.remove(&throttled).unwrap_or_else(|| summarize(&[])),
        ok,
    };
    Ok((out, [item, retrying_item], figures))
}

struct Figures {
    unlimited: Summary,
    throttled: Summary,
    /// The endpoint that always answers 200, for the isolation figure.
    ok: String,
}

/// Deliveries to `ok` sent while an endpoint that hangs past its 2 s timeout, capped
/// at one attempt in flight, holds `4 * k` deliveries: how late their first attempts
/// start. Run after every counted path: the hanging endpoint's deliveries keep
/// retrying (and being held) until the end, which would count in any path after it.
async fn isolation(h: &Harness, receiver: &Receiver, ok: &str, k: usize, cfg: &Config) -> Result<Summary, String> {
    let hang = h
        .endpoint_with(
            &receiver.url("/hang"),
            json!("greatwait"),
            json!({"maxInFlight": 1, "timeoutMs": 2000}),
        )
        .await?;
    events(h, &hang, 4 * k, cfg.payload_bytes).await?;
    // The hanging attempt starts and the held ones begin cycling.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut ids = Vec::with_capacity(k);
    for _ in 0..k {
        ids.extend(events(h, ok, 1, cfg.payload_bytes).await?);
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let deadline = Instant::now() + cfg.time_limit;
    loop {
        let mut done = 0;
        for id in &ids {
            if let Ok(Some(d)) = h.check.get_delivery(id).await
                && d.status.is_settled()
            {
                done += 1;
            }
        }
        if done == ids.len() || Instant::now() >= deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    Ok(h.lateness(&ids).await)
}

/// One `invoice.paid` event routed by subscription to `n` endpoints of an
/// application: the AWS requests and cost per delivery, and (in `api_ms`) the
/// ingest call's latency. Up to 50 matches are written in the request; more by
/// fan-out steps, whose delivery ids are derived, so the bench computes them to
/// wait for the deliveries.
async fn fanout_path(h: &Harness, receiver: &Receiver, cfg: &Config, n: usize) -> Result<PathReport, String> {
    let now = SystemClock.now();
    // A well-formed application id: the API resolves `applicationId` by parsing it.
    let app = courier_core::ids::ApplicationId::generate(now, &mut courier_core::rng::SplitMix64::new(n as u64))
        .as_str()
        .to_owned();
    h.api
        .applications
        .create_application(&courier_app::domain::model::Application {
            id: app.clone(),
            tenant_id: h.tenant.clone(),
            name: app.clone(),
            uid: None,
            metadata: None,
            created_at: now,
            updated_at: now,
            version: 1,
            portal: Default::default(),
            live_endpoints: 0,
        })
        .await
        .map_err(err)?;
    let mut endpoints = Vec::with_capacity(n);
    for _ in 0..n {
        let e = h
            .call(
                "POST",
                "/v1/endpoints",
                json!({"url": receiver.url("/ok"), "policy": "greatwait", "applicationId": app, "filterTypes": ["invoice.*"]}),
                None,
            )
            .await?;
        endpoints.push(courier_core::ids::EndpointId::parse(e["id"].as_str().unwrap_or_default()).map_err(err)?);
    }
    h.reset();
    let answer = h
        .call(
            "POST",
            "/v1/events",
            json!({"type": "invoice.paid", "applicationId": app, "payload": payload(0, cfg.payload_bytes)}),
            None,
        )
        .await?;
    let event_id = courier_core::ids::EventId::parse(answer["eventId"].as_str().unwrap_or_default()).map_err(err)?;
    let event = h
        .check
        .get_event(&h.tenant, &event_id)
        .await
        .map_err(err)?
        .ok_or("the fan-out event is not stored")?;
    let seed = event.fanout.as_ref().map(|f| f.seed).unwrap_or_default();
    let ids: Vec<DeliveryId> = endpoints
        .iter()
        .map(|e| courier_app::fanout::delivery_id(seed, &event.id, e, event.created_at))
        .collect();
    // The emulator takes tens of milliseconds a call: a large fan-out needs longer.
    let limit = cfg.time_limit + Duration::from_millis(600 * n as u64);
    let settled = h.wait_done(&ids, 1, limit).await;
    let (counts, tally) = h.take();
    Ok(path_report(
        &format!(
            "fan-out: one event matching {n} endpoint{}",
            if n == 1 { "" } else { "s" }
        ),
        n,
        settled,
        &counts,
        &tally,
    ))
}

pub async fn run(cfg: &Config) -> Result<Report, String> {
    let receiver = Receiver::start().await.map_err(|e| format!("receiver: {e}"))?;
    let h = Harness::start().await?;
    let mut result = run_paths(&h, &receiver, cfg).await;
    for n in [1, 10, 1000] {
        if let Ok((paths, _, _)) = &mut result {
            match fanout_path(&h, &receiver, cfg, n).await {
                Ok(p) => paths.push(p),
                Err(e) => result = Err(e),
            }
        }
    }
    let isolation = match &result {
        Ok((_, _, figures)) => Some(isolation(&h, &receiver, &figures.ok, cfg.per_path.max(1), cfg).await),
        Err(_) => None,
    };
    h.stop().await;
    let (paths, [delivery_item_bytes, retrying_item_bytes], figures) = result?;
    let isolation = isolation.unwrap_or_else(|| Ok(summarize(&[])))?;
    Ok(Report {
        delivery_item_bytes,
        retrying_item_bytes,
        payload_bytes: payload(0, cfg.payload_bytes).to_string().len(),
        sqs_max_delay_seconds: SQS_MAX_DELAY_SECONDS,
        schedule_lead_seconds: SCHEDULE_LEAD_SECONDS,
        lambda_memory_mb: 256,
        paths,
        lateness_unlimited_ms: figures.unlimited,
        lateness_throttled_ms: figures.throttled,
        isolation_ms: isolation,
    })
}

#[cfg(test)]
mod tests {
    use super::payload;

    #[test]
    fn a_payload_is_padded_to_the_size_asked_for() {
        let small = payload(7, 0).to_string();
        assert_eq!(
            small,
            r#"{"amount":1234,"note":"a typical small webhook payload","order":7}"#
        );
        assert_eq!(
            payload(7, small.len() - 1).to_string(),
            small,
            "never cut below the small payload"
        );
        for bytes in [small.len() + 1, 1024, 8 * 1024 + 1] {
            let text = payload(7, bytes).to_string();
            assert_eq!(text.len(), bytes);
            assert!(text.contains(r#""order":7"#), "{text}");
        }
    }
}
