//! The reliability matrix: every message kind (one row of [`KINDS`]) against every
//! way a copy can repeat or a sender can die (one test each), on the real adapters
//! (DynamoDB, SQS and Scheduler on a private moto server) and a real HTTP receiver
//! on 127.0.0.1. After each case the delivery must have settled, every request the
//! receiver saw must be recorded as an attempt, no attempt reached it twice and
//! no two requests of one delivery were in flight at once.

use courier_app::adapters::system::OsSecrets;
use courier_app::delivery::{DropReason, EndpointCache, Sender, SenderSettings, StepError, StepOutcome};
use courier_app::domain::delivery_message::{DeliveryMessage, Trigger};
use courier_app::domain::model::{Delivery, DeliveryStatus, Endpoint};
use courier_app::domain::queue_message::Message;
use courier_app::pipeline::planner::Planner;
use courier_app::ports::OverdueIndex;
use courier_app::ports::{Claim, Clock, DeliveryStore, EndpointStore, PortError, PortResult, Queue, Random, Timer};
use courier_app::ports::{Faults, NoFaults};
use courier_app::testing::contract::{self, T0};
use courier_app::testing::memory::{ManualClock, MemoryPorts, MemorySealer};
use courier_app::wiring::{Ports, Settings};
use courier_aws::bootstrap::{ResourceNames, Resources, ensure_resources};
use courier_aws::testing::Emulator;
use courier_aws::{DynamoStore, SchedulerTimer, SqsQueue};
use courier_core::Policy;
use courier_core::Timestamp;
use courier_http::{AdmissionPolicy, ReqwestSender, SenderOptions};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

// ---------------------------------------------------------------------------------
// The receiver: a real HTTP server on 127.0.0.1:0
// ---------------------------------------------------------------------------------

/// One request as the receiver saw it.
#[derive(Debug, Clone)]
struct Seen {
    webhook_id: String,
    attempt_id: String,
}

#[derive(Default)]
struct ReceiverState {
    seen: Mutex<Vec<Seen>>,
    /// Requests in flight now, and the most ever at once.
    inflight: AtomicUsize,
    max_inflight: AtomicUsize,
    /// Answer 503 to this many requests, then 200.
    fail_next: AtomicU32,
    /// When set, the next request is held until `release` (after `entered`).
    hold_next: AtomicBool,
    entered: tokio::sync::Notify,
    release: tokio::sync::Notify,
}

struct Receiver {
    url: String,
    state: Arc<ReceiverState>,
}

impl Receiver {
    async fn start() -> Receiver {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("http://{}/hook", listener.local_addr().expect("address"));
        let state = Arc::new(ReceiverState::default());
        let shared = state.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, shared.clone()));
            }
        });
        Receiver { url, state }
    }

    fn seen_for(&self, d: &Delivery) -> Vec<Seen> {
        let seen = self.state.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.iter()
            .filter(|s| s.webhook_id == d.webhook_id.as_str())
            .cloned()
            .collect()
    }
}

/// Reads one request (headers, then `content-length` bytes), answers, closes.
async fn serve(mut socket: tokio::net::TcpStream, state: Arc<ReceiverState>) {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    // Bounded: a request of this suite is a few KiB.
    for _ in 0..256 {
        let Ok(n) = socket.read(&mut chunk).await else { return };
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&buf[..end]).into_owned();
        let header = |name: &str| {
            head.lines()
                .filter_map(|l| l.split_once(':'))
                .find(|(n, _)| n.trim().eq_ignore_ascii_case(name))
                .map(|(_, v)| v.trim().to_owned())
                .unwrap_or_default()
        };
        let length: usize = header("content-length").parse().unwrap_or(0);
        if buf.len() < end + 4 + length {
            continue;
        }
        let seen = Seen {
            webhook_id: header("webhook-id"),
            attempt_id: header("webhook-attempt-id"),
        };
        state.seen.lock().unwrap_or_else(|e| e.into_inner()).push(seen);
        let now = state.inflight.fetch_add(1, Ordering::SeqCst) + 1;
        state.max_inflight.fetch_max(now, Ordering::SeqCst);
        if state.hold_next.swap(false, Ordering::SeqCst) {
            state.entered.notify_one();
            state.release.notified().await;
        }
        let failing = state
            .fail_next
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
            .is_ok();
        state.inflight.fetch_sub(1, Ordering::SeqCst);
        let status = if failing { "503 Service Unavailable" } else { "200 OK" };
        let answer = format!("HTTP/1.1 {status}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
        let _ = socket.write_all(answer.as_bytes()).await;
        let _ = socket.shutdown().await;
        return;
    }
}

// ---------------------------------------------------------------------------------
// The world: real adapters on moto, a manual clock
// ---------------------------------------------------------------------------------

/// Lowest jitter, so waits are shortest. It also makes every copy of a message
/// draw the same attempt id at the same instant: the worst case, where only the
/// claim's token tells two copies apart.
struct Zero;
impl Random for Zero {
    fn next_u64(&self) -> u64 {
        0
    }
}

/// A queue or timer that fails every write while `down` is set (the sender "dies"
/// between recording an outcome and planning the next step).
struct Switchable<T> {
    inner: Arc<T>,
    down: Arc<AtomicBool>,
}

fn unavailable() -> PortError {
    PortError::Unavailable("planning switched off by the test".into())
}

#[async_trait::async_trait]
impl Queue for Switchable<SqsQueue> {
    async fn send(&self, message: &DeliveryMessage, delay_seconds: u32) -> PortResult<()> {
        if self.down.load(Ordering::SeqCst) {
            return Err(unavailable());
        }
        self.inner.send(message, delay_seconds).await
    }
}

#[async_trait::async_trait]
impl Timer for Switchable<SchedulerTimer> {
    async fn schedule(&self, name: &str, at: Timestamp, message: &DeliveryMessage) -> PortResult<()> {
        if self.down.load(Ordering::SeqCst) {
            return Err(unavailable());
        }
        self.inner.schedule(name, at, message).await
    }
}

/// Crashes the first step after its request (before the outcome is recorded).
struct CrashOnceAfterSend(AtomicBool);
impl Faults for CrashOnceAfterSend {
    fn crash_after_send(&self, _message: &DeliveryMessage) -> bool {
        self.0.swap(false, Ordering::SeqCst)
    }
}

const LEASE_MARGIN_MS: u64 = 5_000;

struct World {
    _emu: Emulator,
    res: Resources,
    config: aws_config::SdkConfig,
    clock: Arc<ManualClock>,
    store: Arc<DynamoStore>,
    queue: Arc<SqsQueue>,
    timer: Arc<SchedulerTimer>,
    planning_down: Arc<AtomicBool>,
    receiver: Receiver,
    ids: contract::Ids,
}

impl World {
    async fn new() -> World {
        let emu = Emulator::start().await.expect("AWS emulator");
        let config = emu.sdk_config().await.expect("emulator");
        let res = ensure_resources(&config, &ResourceNames::with_prefix("courier-matrix"))
            .await
            .expect("bootstrap");
        let clock = Arc::new(ManualClock::new(T0));
        World {
            store: Arc::new(DynamoStore::new(&config, &res.table).with_clock(clock.clone())),
            queue: Arc::new(SqsQueue::new(&config, &res.queue_url)),
            timer: Arc::new(SchedulerTimer::new(
                &config,
                &res.schedule_group,
                &res.queue_arn,
                &res.scheduler_role_arn,
            )),
            planning_down: Arc::new(AtomicBool::new(false)),
            receiver: Receiver::start().await,
            ids: contract::Ids::new(),
            _emu: emu,
            res,
            config,
            clock,
        }
    }

    fn planner(&self) -> Planner {
        self.ports().planner(&Self::settings())
    }

    /// The AWS adapters under test, with planning switchable off; ports the matrix
    /// does not exercise come from the in-memory fakes.
    fn ports(&self) -> Ports {
        let fakes = MemoryPorts::new(self.clock.clone());
        Ports {
            endpoints: self.store.clone(),
            deliveries: self.store.clone(),
            queue: Arc::new(Switchable {
                inner: self.queue.clone(),
                down: self.planning_down.clone(),
            }),
            timer: Arc::new(Switchable {
                inner: self.timer.clone(),
                down: self.planning_down.clone(),
            }),
            clock: self.clock.clone(),
            random: Arc::new(Zero),
            // Claim tokens as in production: no two senders share one.
            secrets: Arc::new(OsSecrets),
            sealer: Arc::new(MemorySealer::in_memory(Arc::new(OsSecrets))),
            ..fakes.ports()
        }
    }

    fn settings() -> Settings {
        Settings {
            sender: SenderSettings {
                lease_margin_ms: LEASE_MARGIN_MS,
                ..SenderSettings::default()
            },
            ..Settings::default()
        }
    }

    fn sender(&self, faults: Arc<dyn Faults>) -> Sender {
        let http = Arc::new(ReqwestSender::try_new(SenderOptions::new(AdmissionPolicy::LOCAL)).expect("client"));
        let fakes = MemoryPorts::new(self.clock.clone());
        let outbound = fakes.outbound(http, Arc::new(courier_app::ports::NoDestinations));
        self.ports().sender_with(&Self::settings(), &outbound, None, faults)
    }

    async fn endpoint(&self, policy: &str) -> Endpoint {
        let tenant = self.ids.tenant();
        let mut e = contract::sample_endpoint(&tenant, &self.ids.endpoint(), T0);
        e.url = self.receiver.url.clone();
        e.policy = Policy::from_json(policy).unwrap_or_else(|err| panic!("{policy}: {err}"));
        e.timeout_ms = Some(2_000);
        self.store.create_endpoint(&e).await.expect("endpoint");
        e
    }

    /// A fresh event with one delivery to `e`, triggered as `trigger`, its body
    /// stored once in the event item, as ingest writes it.
    async fn delivery(&self, e: &Endpoint, trigger: Trigger) -> Delivery {
        self.delivery_stored(e, trigger, true).await
    }

    /// [`World::delivery`], its body in the event item (`in_event`) or in the
    /// delivery item itself, as every delivery was stored before bodies moved to
    /// their events.
    async fn delivery_stored(&self, e: &Endpoint, trigger: Trigger, in_event: bool) -> Delivery {
        let now = self.clock.now();
        let event = contract::sample_event(&e.tenant_id, &self.ids.event(), now, serde_json::json!({"n": 1}));
        let mut d = contract::sample_delivery(&event, &e.id, &self.ids.delivery(), now, contract::sample_body(&event));
        d.trigger = trigger;
        if in_event {
            courier_app::domain::shared_body::share(std::slice::from_mut(&mut d));
        }
        self.store
            .create_event(&event, std::slice::from_ref(&d))
            .await
            .expect("event");
        d
    }

    async fn get(&self, d: &Delivery) -> Delivery {
        self.store
            .get_delivery(&d.id)
            .await
            .expect("read")
            .expect("the delivery")
    }

    /// The next messages for `d` off the real transports: due schedules (fired as
    /// the local runner fires them), then the queue, polled a bounded number of
    /// times (SQS delays are real seconds). The clock moves to their notBefore.
    async fn next_messages(&self, d: &Delivery) -> Vec<(DeliveryMessage, Option<String>)> {
        let mut out = Vec::new();
        let far = self.clock.now().plus_secs(86_400);
        for (name, m) in self.timer.list_due(far).await.expect("list schedules") {
            self.timer.delete(&name).await.expect("delete schedule");
            if m.delivery_id == d.id {
                out.push((m, None));
            }
        }
        for _ in 0..6 {
            if !out.is_empty() {
                break;
            }
            for r in self.queue.receive(10, 1, 30).await.expect("receive") {
                let m = Message::parse(&r.body)
                    .and_then(Message::into_delivery)
                    .expect("a queue message");
                if m.delivery_id == d.id {
                    out.push((m, Some(r.receipt_handle)));
                } else {
                    self.queue.delete(&r.receipt_handle).await.expect("delete");
                }
            }
        }
        for (m, _) in &out {
            if m.not_before > self.clock.now() {
                self.clock.set(m.not_before);
            }
        }
        out
    }

    /// Handles `d`'s messages as SQS would hand them over until it settles
    /// (bounded), then checks what must hold whatever happened before.
    async fn settle_and_check(&self, d: &Delivery, case: &str) {
        let sender = self.sender(Arc::new(NoFaults));
        for _ in 0..8 {
            if self.get(d).await.status.is_settled() {
                break;
            }
            let messages = self.next_messages(d).await;
            assert!(
                !messages.is_empty(),
                "{case}: unsettled with no message: {:?}",
                self.get(d).await
            );
            for (m, receipt) in messages {
                let out = sender.handle(&m, &EndpointCache::default()).await;
                match (out, receipt) {
                    (Ok(_), Some(r)) => self.queue.delete(&r).await.expect("delete"),
                    (Ok(_), None) => {}
                    (Err(e), _) => panic!("{case}: a step failed while settling: {e}"),
                }
            }
        }
        let stored = self.get(d).await;
        assert!(stored.status.is_settled(), "{case}: not settled: {stored:?}");
        assert_eq!(stored.claim, None, "{case}: a claim is left");
        assert_eq!(stored.dead_lettered_at, None, "{case}: left dead-lettered");
        let recorded: Vec<String> = self
            .store
            .list_attempts(&d.id)
            .await
            .expect("attempts")
            .iter()
            .map(|a| a.id.to_string())
            .collect();
        let seen = self.receiver.seen_for(&stored);
        let mut once: HashMap<&str, usize> = HashMap::new();
        for s in &seen {
            *once.entry(&s.attempt_id).or_default() += 1;
            assert!(
                recorded.contains(&s.attempt_id),
                "{case}: request {} reached the receiver but is not recorded ({recorded:?})",
                s.attempt_id
            );
        }
        assert!(
            once.values().all(|n| *n == 1),
            "{case}: an attempt was sent twice: {seen:?}"
        );
        assert_eq!(
            self.receiver.state.max_inflight.load(Ordering::SeqCst),
            1,
            "{case}: two requests were in flight at once"
        );
    }
}

// ---------------------------------------------------------------------------------
// The rows: one per message kind
// ---------------------------------------------------------------------------------

/// A kind of message: how a delivery gets to the point where this message is
/// handed to the sender, and the message as it comes off the transport.
struct Kind {
    name: &'static str,
    /// The endpoint's policy (JSON).
    policy: &'static str,
    prepare: for<'a> fn(&'a World, &'a Endpoint) -> futures_util::future::BoxFuture<'a, (Delivery, DeliveryMessage)>,
}

const GREATWAIT: &str = r#"{"base": "greatwait"}"#;
/// Long waits: every retry goes through a Scheduler schedule.
const SCHEDULED: &str = r#"{"base": "tanitar", "waitsSeconds": [1000]}"#;

const KINDS: &[Kind] = &[
    Kind {
        name: "initial",
        policy: GREATWAIT,
        prepare: |w, e| Box::pin(initial(w, e, Trigger::Initial)),
    },
    Kind {
        name: "initial, sent ahead of its write (no due-index entry)",
        policy: GREATWAIT,
        prepare: |w, e| Box::pin(initial_sent_ahead(w, e)),
    },
    Kind {
        name: "initial, body in the delivery item (stored before bodies moved to events)",
        policy: GREATWAIT,
        prepare: |w, e| Box::pin(initial_stored_before(w, e)),
    },
    Kind {
        name: "retry via SQS delay",
        policy: GREATWAIT,
        prepare: |w, e| Box::pin(retry(w, e)),
    },
    Kind {
        name: "retry via Scheduler",
        policy: SCHEDULED,
        prepare: |w, e| Box::pin(retry(w, e)),
    },
    Kind {
        name: "redelivery",
        policy: GREATWAIT,
        prepare: |w, e| Box::pin(redelivery(w, e)),
    },
    Kind {
        name: "redelivery whose message was lost, requeued by the reconciler",
        policy: GREATWAIT,
        prepare: |w, e| Box::pin(redelivery_reconciled(w, e)),
    },
    Kind {
        name: "replay",
        policy: GREATWAIT,
        prepare: |w, e| Box::pin(initial(w, e, Trigger::Replay)),
    },
    Kind {
        name: "test event",
        policy: GREATWAIT,
        prepare: |w, e| Box::pin(initial(w, e, Trigger::Test)),
    },
    Kind {
        name: "redrive from the DLQ",
        policy: GREATWAIT,
        prepare: |w, e| Box::pin(redrive(w, e)),
    },
];

/// The one message of `d` the transports hold now.
async fn only_message(w: &World, d: &Delivery) -> DeliveryMessage {
    let mut messages = w.next_messages(d).await;
    assert_eq!(messages.len(), 1, "one message for {}", d.id);
    let (m, receipt) = messages.remove(0);
    if let Some(r) = receipt {
        w.queue.delete(&r).await.expect("delete");
    }
    m
}

/// A new delivery's first message, through SQS.
async fn initial(w: &World, e: &Endpoint, trigger: Trigger) -> (Delivery, DeliveryMessage) {
    let d = w.delivery(e, trigger).await;
    let now = w.clock.now();
    let planner = w.planner();
    let pipeline = courier_app::ingest::pipeline::Pipeline {
        store: w.store.as_ref(),
        planner: &planner,
    };
    pipeline
        .enqueue_waiting(std::slice::from_ref(&d), now)
        .await
        .expect("enqueue");
    let m = only_message(w, &d).await;
    // The body, stored in the event, rides with the first message.
    assert_eq!(m.body.as_deref(), Some(&*d.body));
    (d, m)
}

/// A new delivery's first message sent ahead of the delivery's write
/// (`ingest::send_ahead::send_ahead`, the API's order for an event due now): the item is
/// written without a due-index entry.
async fn initial_sent_ahead(w: &World, e: &Endpoint) -> (Delivery, DeliveryMessage) {
    let now = w.clock.now();
    let event = contract::sample_event(&e.tenant_id, &w.ids.event(), now, serde_json::json!({"n": 1}));
    let mut d = contract::sample_delivery(&event, &e.id, &w.ids.delivery(), now, contract::sample_body(&event));
    courier_app::domain::shared_body::share(std::slice::from_mut(&mut d));
    courier_app::ingest::send_ahead::send_ahead(&w.planner(), std::slice::from_mut(&mut d), now).await;
    assert!(d.carried_by_queue, "sent ahead");
    w.store
        .create_event(&event, std::slice::from_ref(&d))
        .await
        .expect("event");
    let item = aws_sdk_dynamodb::Client::new(&w.config)
        .get_item()
        .table_name(&w.res.table)
        .key(
            "PK",
            aws_sdk_dynamodb::types::AttributeValue::S(format!("DLV#{}", d.id)),
        )
        .key("SK", aws_sdk_dynamodb::types::AttributeValue::S("DLV".into()))
        .consistent_read(true)
        .send()
        .await
        .expect("raw read");
    let item = item.item().expect("the item");
    assert!(item.contains_key("GSI1PK") && !item.contains_key("GSI4PK"), "{item:?}");
    let m = only_message(w, &d).await;
    assert_eq!(m.body.as_deref(), Some(&*d.body));
    (d, m)
}

/// A first message of a delivery stored with its own body, in the message shape
/// of before (no body in it).
async fn initial_stored_before(w: &World, e: &Endpoint) -> (Delivery, DeliveryMessage) {
    let d = w.delivery_stored(e, Trigger::Initial, false).await;
    let now = w.clock.now();
    let planner = w.planner();
    let pipeline = courier_app::ingest::pipeline::Pipeline {
        store: w.store.as_ref(),
        planner: &planner,
    };
    pipeline
        .enqueue_waiting(std::slice::from_ref(&d), now)
        .await
        .expect("enqueue");
    let m = only_message(w, &d).await;
    assert_eq!(m.body, None, "no body in the message of a delivery that holds its own");
    (d, m)
}

/// Attempt 2's message, planned by the sender after a 503 (SQS delay or
/// Scheduler, by the policy's wait).
async fn retry(w: &World, e: &Endpoint) -> (Delivery, DeliveryMessage) {
    let (d, first) = initial(w, e, Trigger::Initial).await;
    w.receiver.state.fail_next.store(1, Ordering::SeqCst);
    let out = w
        .sender(Arc::new(NoFaults))
        .handle(&first, &EndpointCache::default())
        .await;
    assert!(matches!(out, Ok(StepOutcome::Attempted { .. })), "{out:?}");
    let m = only_message(w, &d).await;
    assert_eq!((m.attempt, m.trigger), (2, Trigger::Retry));
    (d, m)
}

/// A settled delivery sent again, as the API's redeliver does: the delivery
/// reopened for the next number, the message carrying its attempt id.
async fn redelivery(w: &World, e: &Endpoint) -> (Delivery, DeliveryMessage) {
    let (d, first) = initial(w, e, Trigger::Initial).await;
    let out = w
        .sender(Arc::new(NoFaults))
        .handle(&first, &EndpointCache::default())
        .await;
    assert!(matches!(out, Ok(StepOutcome::Attempted { .. })), "{out:?}");
    let settled = w.get(&d).await;
    assert_eq!(settled.status, DeliveryStatus::Succeeded);
    let now = w.clock.now();
    let number = settled.attempt_count + 1;
    let mut reopened = settled.clone();
    reopened.status = DeliveryStatus::Pending;
    reopened.next_attempt = number;
    reopened.next_attempt_at = Some(now);
    reopened.settled_at = None;
    reopened.dead_reason = None;
    reopened.expires_at = None;
    reopened.version += 1;
    w.store
        .update_delivery(&reopened, settled.version)
        .await
        .expect("reopen");
    let message = DeliveryMessage {
        v: 1,
        delivery_id: d.id.clone(),
        tenant_id: d.tenant_id.clone(),
        endpoint_id: d.endpoint_id.clone(),
        attempt: number,
        not_before: now,
        trigger: Trigger::Redelivery,
        source_attempt_id: None,
        attempt_id: Some(w.ids.attempt()),
        completion_check: false,
        body: None,
    };
    w.planner().plan(message, now).await.expect("plan");
    let m = only_message(w, &d).await;
    (reopened, m)
}

/// A redelivery whose message was lost after the API reopened the delivery: the
/// reconciler finds it overdue and sends it as the redelivery it is, under the
/// attempt id the API promised.
async fn redelivery_reconciled(w: &World, e: &Endpoint) -> (Delivery, DeliveryMessage) {
    let (d, first) = initial(w, e, Trigger::Initial).await;
    let out = w
        .sender(Arc::new(NoFaults))
        .handle(&first, &EndpointCache::default())
        .await;
    assert!(matches!(out, Ok(StepOutcome::Attempted { .. })), "{out:?}");
    let settled = w.get(&d).await;
    let now = w.clock.now();
    let number = settled.attempt_count + 1;
    let promised = w.ids.attempt();
    let mut reopened = settled.clone();
    reopened.status = DeliveryStatus::Pending;
    reopened.next_attempt = number;
    reopened.next_attempt_at = Some(now);
    reopened.settled_at = None;
    reopened.dead_reason = None;
    reopened.expires_at = None;
    reopened.redelivery = Some(courier_app::domain::model::PromisedRedelivery {
        number,
        attempt_id: promised.clone(),
        source: None,
    });
    reopened.version += 1;
    w.store
        .update_delivery(&reopened, settled.version)
        .await
        .expect("reopen");
    // No message: it was lost. The reconciler's next run after the grace finds it.
    let settings = courier_app::maintenance::reconcile::ReconcileSettings::default();
    w.clock.set(now.plus_millis(settings.grace_ms + 1_000));
    let report = courier_app::maintenance::reconcile::reconcile(
        w.store.as_ref(),
        w.store.as_ref(),
        &w.planner(),
        w.clock.as_ref(),
        settings,
    )
    .await
    .expect("reconcile");
    assert!(report.requeued.contains(&d.id), "{report:?}");
    let m = only_message(w, &d).await;
    assert_eq!(
        (m.attempt, m.trigger, m.attempt_id.as_ref()),
        (number, Trigger::Redelivery, Some(&promised))
    );
    (w.get(&d).await, m)
}

/// A message that exhausted its receives: it lands in the DLQ, the delivery is
/// marked, and redrive puts its step back on the queue.
async fn redrive(w: &World, e: &Endpoint) -> (Delivery, DeliveryMessage) {
    let d = w.delivery(e, Trigger::Initial).await;
    let dlq = SqsQueue::new(&w.config, &w.res.dlq_url);
    dlq.send(&courier_app::ingest::first_message(&d), 0)
        .await
        .expect("to the DLQ");
    let dead = dlq.receive(1, 1, 30).await.expect("receive from the DLQ");
    assert_eq!(dead.len(), 1);
    let m = Message::parse(&dead[0].body)
        .and_then(Message::into_delivery)
        .expect("message");
    let now = w.clock.now();
    let marked = courier_app::pipeline::dead_letter::mark(w.store.as_ref(), &m, now)
        .await
        .expect("mark");
    assert_eq!(marked, courier_app::pipeline::dead_letter::DeadLetterOutcome::Marked);
    dlq.delete(&dead[0].receipt_handle).await.expect("delete");
    let marked = w.get(&d).await;
    courier_app::pipeline::dead_letter::redrive(w.store.as_ref(), &w.planner(), &marked, now)
        .await
        .expect("redrive");
    let m = only_message(w, &d).await;
    (w.get(&d).await, m)
}

// ---------------------------------------------------------------------------------
// The columns: one test each, over every row
// ---------------------------------------------------------------------------------

/// A duplicate copy handed over while the first copy's request is in flight is
/// dropped: the receiver sees one request.
#[tokio::test]
async fn a_duplicate_copy_in_flight_is_dropped_for_every_kind() {
    let w = World::new().await;
    for kind in KINDS {
        let e = w.endpoint(kind.policy).await;
        let (d, m) = (kind.prepare)(&w, &e).await;
        let before = w.receiver.seen_for(&d).len();
        let sender = w.sender(Arc::new(NoFaults));
        w.receiver.state.hold_next.store(true, Ordering::SeqCst);
        let state = w.receiver.state.clone();
        let cache = EndpointCache::default();
        let (first, second) = tokio::join!(sender.handle(&m, &cache), async {
            state.entered.notified().await;
            let second = sender.handle(&m, &EndpointCache::default()).await;
            state.release.notify_one();
            second
        });
        assert!(
            matches!(first, Ok(StepOutcome::Attempted { .. })),
            "{}: the first copy: {first:?}",
            kind.name
        );
        assert!(
            matches!(
                second,
                Ok(StepOutcome::Dropped {
                    why: DropReason::DuplicateInflight
                })
            ),
            "{}: the second copy: {second:?}",
            kind.name
        );
        assert_eq!(w.receiver.seen_for(&d).len(), before + 1, "{}: one request", kind.name);
        w.settle_and_check(&d, kind.name).await;
    }
}

/// A sender that died right after its claim: the copy SQS hands over again is a
/// duplicate while the lease lives, then takes over and records the lost attempt.
#[tokio::test]
async fn a_sender_killed_after_its_claim_for_every_kind() {
    let w = World::new().await;
    for kind in KINDS {
        let e = w.endpoint(kind.policy).await;
        let (d, m) = (kind.prepare)(&w, &e).await;
        // The dead sender's claim, exactly as it would have made it.
        let now = w.clock.now();
        let lease = now.plus_millis(2_000 + LEASE_MARGIN_MS as i64);
        let dead = contract::claim_with_token(m.attempt, &w.ids.attempt(), "dead-sender", now, lease);
        let claimed = w.store.claim_attempt(&d.id, &dead).await.expect("claim");
        assert!(
            matches!(claimed, Claim::Claimed { lost: None, .. }),
            "{}: {claimed:?}",
            kind.name
        );
        let sender = w.sender(Arc::new(NoFaults));
        let early = sender.handle(&m, &EndpointCache::default()).await;
        assert!(
            matches!(
                early,
                Ok(StepOutcome::Dropped {
                    why: DropReason::DuplicateInflight
                })
            ),
            "{}: while the lease lives: {early:?}",
            kind.name
        );
        w.clock.set(lease);
        let late = sender.handle(&m, &EndpointCache::default()).await;
        let Ok(StepOutcome::LostRecorded { attempt, .. }) = late else {
            panic!("{}: after the lease: {late:?}", kind.name)
        };
        assert_eq!((attempt.id, attempt.state.as_ref()), (dead.attempt_id, "ambiguous"));
        w.settle_and_check(&d, kind.name).await;
    }
}

/// A sender that died after its request and before recording it: that request is
/// recorded as lost (ambiguous) under its own attempt id once the lease ends.
#[tokio::test]
async fn a_sender_killed_after_its_request_for_every_kind() {
    let w = World::new().await;
    for kind in KINDS {
        let e = w.endpoint(kind.policy).await;
        let (d, m) = (kind.prepare)(&w, &e).await;
        let crashing = w.sender(Arc::new(CrashOnceAfterSend(AtomicBool::new(true))));
        let out = crashing.handle(&m, &EndpointCache::default()).await;
        assert!(matches!(out, Err(StepError::InjectedCrash)), "{}: {out:?}", kind.name);
        let sent = w
            .receiver
            .seen_for(&d)
            .last()
            .cloned()
            .expect("the request reached the receiver");
        let sender = w.sender(Arc::new(NoFaults));
        let early = sender.handle(&m, &EndpointCache::default()).await;
        assert!(
            matches!(
                early,
                Ok(StepOutcome::Dropped {
                    why: DropReason::DuplicateInflight
                })
            ),
            "{}: while the lease lives: {early:?}",
            kind.name
        );
        let lease = w.get(&d).await.claim.expect("the claim stays").lease_until;
        w.clock.set(lease);
        let late = sender.handle(&m, &EndpointCache::default()).await;
        let Ok(StepOutcome::LostRecorded { attempt, .. }) = late else {
            panic!("{}: after the lease: {late:?}", kind.name)
        };
        assert_eq!(attempt.id.to_string(), sent.attempt_id, "{}", kind.name);
        assert_eq!(attempt.state, "ambiguous");
        w.settle_and_check(&d, kind.name).await;
    }
}

/// A sender that died after recording a failure and before planning the retry
/// (here: planning fails): the message comes back and the next step is planned.
#[tokio::test]
async fn a_sender_killed_after_recording_for_every_kind() {
    let w = World::new().await;
    for kind in KINDS {
        let e = w.endpoint(kind.policy).await;
        let (d, m) = (kind.prepare)(&w, &e).await;
        w.receiver.state.fail_next.store(1, Ordering::SeqCst);
        w.planning_down.store(true, Ordering::SeqCst);
        let out = w.sender(Arc::new(NoFaults)).handle(&m, &EndpointCache::default()).await;
        w.planning_down.store(false, Ordering::SeqCst);
        let single = matches!(m.trigger, Trigger::Redelivery | Trigger::Test);
        if single {
            // One attempt only: nothing to plan, the failure settles it.
            assert!(
                matches!(out, Ok(StepOutcome::Attempted { .. })),
                "{}: {out:?}",
                kind.name
            );
        } else {
            assert!(matches!(out, Err(StepError::Plan(_))), "{}: {out:?}", kind.name);
            assert_eq!(
                w.get(&d).await.next_attempt,
                m.attempt + 1,
                "{}: the outcome is recorded",
                kind.name
            );
            // A retry through an SQS delay is written without a due-index entry
            // (the message coming back carries it); one through a schedule with one.
            let due = w
                .store
                .overdue(w.clock.now().plus_secs(86_400), 1_000)
                .await
                .expect("due index");
            assert_eq!(
                due.contains(&d.id),
                kind.policy == SCHEDULED,
                "{}: a due-index entry only for a retry through a schedule",
                kind.name
            );
            let again = w.sender(Arc::new(NoFaults)).handle(&m, &EndpointCache::default()).await;
            assert!(
                matches!(again, Ok(StepOutcome::Dropped { why: DropReason::Stale })),
                "{}: the message back: {again:?}",
                kind.name
            );
        }
        w.settle_and_check(&d, kind.name).await;
    }
}

/// A sender that died after planning, before the message was deleted: the copy
/// SQS hands over again changes nothing and sends nothing.
#[tokio::test]
async fn a_sender_killed_after_planning_for_every_kind() {
    let w = World::new().await;
    for kind in KINDS {
        let e = w.endpoint(kind.policy).await;
        let (d, m) = (kind.prepare)(&w, &e).await;
        w.receiver.state.fail_next.store(1, Ordering::SeqCst);
        let sender = w.sender(Arc::new(NoFaults));
        let out = sender.handle(&m, &EndpointCache::default()).await;
        assert!(
            matches!(out, Ok(StepOutcome::Attempted { .. })),
            "{}: {out:?}",
            kind.name
        );
        let seen = w.receiver.seen_for(&d).len();
        let stored = w.get(&d).await;
        let again = sender.handle(&m, &EndpointCache::default()).await;
        assert!(
            matches!(
                again,
                Ok(StepOutcome::Dropped {
                    why: DropReason::Stale | DropReason::AlreadySettled
                })
            ),
            "{}: the copy: {again:?}",
            kind.name
        );
        assert_eq!(w.receiver.seen_for(&d).len(), seen, "{}: nothing sent", kind.name);
        assert_eq!(w.get(&d).await, stored, "{}: nothing changed", kind.name);
        w.settle_and_check(&d, kind.name).await;
    }
}
