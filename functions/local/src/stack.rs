//! The local stack in one process: the AWS emulator (or any endpoint named by
//! `AWS_ENDPOINT_URL`), resources created idempotently, the API on a local address,
//! SQS pollers that invoke the real sender handler with real SQS event shapes
//! (standing in for Lambda's event source mapping; see `crate::delay_ends` for how
//! its pollers see delayed retries on time), and a timer pump that fires due
//! Scheduler schedules onto the queue and deletes them (the emulator never fires
//! them), a stand-in for Scheduler's recurring schedules (`crate::recurring`),
//! and the reconciler run periodically, as its `rate()` schedule runs it on
//! AWS. Used by `make run` and by the end-to-end tests.

use crate::delay_ends::{DelayEnds, NotingQueue};
use crate::display::StepSink;
use aws_lambda_events::event::sqs::SqsEvent;
use courier_app::api::{Api, ApiSettings};
use courier_app::delivery::{Sender, SenderSettings};
use courier_app::domain::model::Tenant;
use courier_app::pipeline::planner::{Planner, PlannerSettings};
use courier_app::ports::{Clock, Queue as _, Random, SecretSource};
use courier_app::ports::{Faults, NoFaults};
use courier_app::schedules::fire::ScheduleFirer;
use courier_app::wiring::{Outbound, Ports, Settings};
use courier_aws::{DynamoStore, SchedulerTimer, SqsQueue};
use courier_core::ids::TenantId;
use courier_sender::slow_lane::{Lane, SlowLane};
use futures_util::StreamExt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

#[derive(Debug, thiserror::Error)]
pub enum StackError {
    #[error("could not start the AWS emulator: {0}")]
    Emulator(String),
    #[error(transparent)]
    Sdk(#[from] courier_aws::NoHttpClient),
    #[error("could not create the local resources: {0}")]
    Bootstrap(String),
    #[error("could not listen on {addr}: {source}")]
    Listen { addr: SocketAddr, source: std::io::Error },
    #[error("could not create the development tenant: {0}")]
    Tenant(#[source] courier_app::ports::PortError),
}

pub struct StackOptions {
    pub api_addr: SocketAddr,
    /// A fixed development key; a random one is made when absent.
    pub dev_api_key: Option<String>,
    pub planner: PlannerSettings,
    pub sender: SenderSettings,
    /// SQS visibility timeout for the poller: a message whose step failed comes back
    /// after this long.
    pub visibility_timeout_seconds: i32,
    pub faults: Arc<dyn Faults>,
    /// Fault injection for fan-out steps (tests make one crash half-way).
    pub fanout_faults: Arc<dyn courier_app::ports::faults::FanoutFaults>,
    /// Matching endpoints per fan-out step.
    pub fanout_page: usize,
    pub clock: Arc<dyn Clock>,
    pub sink: Arc<dyn StepSink>,
    /// Resource names (distinct per test so stacks can share an emulator).
    pub prefix: String,
    /// How often the reconciler runs (on AWS: the `ReconcileIntervalMinutes` schedule).
    pub reconcile_every: Duration,
    pub reconcile: courier_app::maintenance::reconcile::ReconcileSettings,
    /// Admit only endpoint URLs on 127.0.0.1 or [::1] (for runs fed generated input).
    pub loopback_targets_only: bool,
    /// Admit schedules at `rate(N seconds)` (tests and dev runs only: Scheduler has
    /// no such rate, and the API on AWS never admits it).
    pub second_rates: bool,
    /// The lanes' knobs (`courier_core::lanes`); None works without a slow lane.
    pub lanes: Option<courier_core::lanes::LaneSettings>,
    /// The API's rate limit as (requests per second, burst), 0 per second for none;
    /// None keeps the deployed default (`ApiSettings::default`). Runs that send
    /// thousands of generated requests (make test-conformance) lift it.
    pub api_rate: Option<(u32, u32)>,
}

impl Default for StackOptions {
    fn default() -> Self {
        StackOptions {
            api_addr: SocketAddr::from(([127, 0, 0, 1], 3000)),
            dev_api_key: None,
            planner: PlannerSettings::default(),
            sender: SenderSettings::default(),
            visibility_timeout_seconds: 30,
            faults: Arc::new(NoFaults),
            fanout_faults: Arc::new(courier_app::ports::faults::NoFanoutFaults),
            fanout_page: courier_app::fanout::STEP_PAGE,
            clock: Arc::new(courier_app::adapters::system::SystemClock),
            sink: Arc::new(crate::display::Quiet),
            prefix: "courier-local".into(),
            reconcile_every: Duration::from_secs(60),
            reconcile: courier_app::maintenance::reconcile::ReconcileSettings::default(),
            loopback_targets_only: false,
            second_rates: false,
            lanes: Some(courier_core::lanes::LaneSettings::default()),
            api_rate: None,
        }
    }
}

pub struct Stack {
    pub api_url: String,
    pub api_key: String,
    pub tenant: Tenant,
    pub api: Arc<Api>,
    pub sender: Arc<Sender>,
    pub queue: Arc<SqsQueue>,
    pub timer: Arc<SchedulerTimer>,
    pub store: Arc<DynamoStore>,
    /// Where recurring schedules' firings go (the sender's pollers hand them to it).
    pub firer: Arc<ScheduleFirer>,
    /// The process's lanes and the slow lane's queue (None: no slow lane).
    pub slow_lane: Option<Arc<SlowLane>>,
    /// Keeps the emulator alive for the stack's lifetime (None when external).
    _emulator: Option<courier_aws::testing::Emulator>,
    shutdown: watch::Sender<bool>,
    tasks: Vec<JoinHandle<()>>,
}

impl Stack {
    pub async fn start(opts: StackOptions) -> Result<Stack, StackError> {
        let emulator = if std::env::var_os("AWS_ENDPOINT_URL").is_some() {
            None
        } else {
            Some(
                courier_aws::testing::Emulator::start()
                    .await
                    .map_err(|e| StackError::Emulator(e.to_string()))?,
            )
        };
        let sdk = match &emulator {
            Some(e) => e.sdk_config().await,
            None => courier_aws::aws_config_from_env().await,
        }?;
        let names = courier_aws::bootstrap::ResourceNames::with_prefix(&opts.prefix);
        let res = courier_aws::bootstrap::ensure_resources(&sdk, &names)
            .await
            .map_err(|e| StackError::Bootstrap(e.to_string()))?;
        let store = Arc::new(DynamoStore::new(&sdk, res.table.clone()));
        let queue = Arc::new(SqsQueue::new(&sdk, res.queue_url.clone()));
        let dlq = Arc::new(SqsQueue::new(&sdk, res.dlq_url.clone()));
        let timer = Arc::new(SchedulerTimer::new(
            &sdk,
            res.schedule_group.clone(),
            res.queue_arn.clone(),
            res.scheduler_role_arn.clone(),
        ));
        let random: Arc<dyn Random> = Arc::new(courier_app::adapters::system::OsSeededRandom::new());
        let secrets: Arc<dyn SecretSource> = Arc::new(courier_app::adapters::system::OsSecrets);
        // Retries are sent through a queue that notes when each delay ends, for the
        // pollers (see `crate::delay_ends`).
        let delay_ends = Arc::new(DelayEnds::default());
        let allow_private = true;
        let mut admission: Arc<dyn courier_app::ports::UrlAdmission> =
            Arc::new(courier_http::HttpAdmission::new(courier_http::AdmissionPolicy {
                allow_http: true,
                allow_private,
            }));
        if opts.loopback_targets_only {
            admission = Arc::new(crate::loopback::LoopbackOnly(admission));
        }
        let ports = Ports {
            // As the API Lambda does: key lookups cached per instance.
            tenants: Arc::new(courier_app::adapters::tenant_cache::CachedTenants::new(
                store.clone(),
                opts.clock.clone(),
            )),
            endpoints: store.clone(),
            deliveries: store.clone(),
            idempotency: store.clone(),
            applications: store.clone(),
            subscriptions: store.clone(),
            schedules: store.clone(),
            recurring: timer.clone(),
            queue: Arc::new(NotingQueue::new(queue.clone(), delay_ends.clone())),
            timer: timer.clone(),
            steps: queue.clone(),
            // One sealer for the API and the sender, as one instance of each would
            // cache the same data keys.
            sealer: Arc::new(
                courier_aws::credential_keys::KmsDataKeys::new(&sdk, res.credentials_key.clone(), store.clone())
                    .sealer(secrets.clone()),
            ),
            admission,
            clock: opts.clock.clone(),
            random: random.clone(),
            secrets: secrets.clone(),
        };
        let outbound = Outbound {
            http: Arc::new(courier_http::ReqwestSender::new(allow_private)),
            // The emulator's STS, SQS, SNS, EventBridge, Kinesis and S3 (any role).
            destinations: Arc::new(courier_aws::destinations::AwsDestinations::new(
                &sdk,
                opts.clock.clone(),
            )),
            limiter: Arc::new(courier_aws::DynamoLimiter::new(store.client().clone(), store.table())),
        };
        let settings = Settings {
            planner: opts.planner,
            api: {
                let defaults = ApiSettings::default();
                let (rate_per_second, rate_burst) =
                    opts.api_rate.unwrap_or((defaults.rate_per_second, defaults.rate_burst));
                ApiSettings {
                    allow_http_targets: true,
                    allow_private_targets: allow_private,
                    rate_per_second,
                    rate_burst,
                    ..defaults
                }
            },
            sender: opts.sender,
            second_rates: opts.second_rates,
            // Links in operational events, where the address is known before binding.
            console_url: (opts.api_addr.port() != 0).then(|| format!("http://{}/console", opts.api_addr)),
            fanout_page: opts.fanout_page,
        };
        let api = Arc::new(ports.api(&settings));
        let fanout = Arc::new(ports.fanout_with(&settings, opts.fanout_faults.clone()));
        let firer = Arc::new(ports.firer(&settings));
        let sender = Arc::new(ports.sender_with(&settings, &outbound, Some(fanout), opts.faults.clone()));
        let tenant = Tenant {
            id: TenantId::generate(opts.clock.now(), &mut courier_app::ports::PortRng(random.as_ref())),
            name: "development".into(),
        };
        let api_key = match &opts.dev_api_key {
            Some(k) => k.clone(),
            None => {
                let mut raw = [0u8; 24];
                secrets.fill(&mut raw);
                format!("ck_dev_{}", courier_core::hex::encode(&raw))
            }
        };
        courier_app::api::register_key(store.as_ref(), &api_key, &tenant)
            .await
            .map_err(StackError::Tenant)?;

        let listener = tokio::net::TcpListener::bind(opts.api_addr)
            .await
            .map_err(|source| StackError::Listen {
                addr: opts.api_addr,
                source,
            })?;
        let local = listener.local_addr().map_err(|source| StackError::Listen {
            addr: opts.api_addr,
            source,
        })?;
        let (shutdown, rx) = watch::channel(false);
        let mut tasks = Vec::new();
        {
            // The API Lambda's router, as it is; the peer address feeds the
            // per-source rate limits.
            let app = api
                .clone()
                .router()
                .into_make_service_with_connect_info::<std::net::SocketAddr>();
            let mut rx = rx.clone();
            tasks.push(tokio::spawn(async move {
                let _ = axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = rx.wait_for(|stop| *stop).await;
                    })
                    .await;
            }));
        }
        tasks.push(tokio::spawn(poll_loop(
            Consumer::DeadLetters(store.clone(), opts.clock.clone(), sender.clone(), firer.clone()),
            dlq.clone(),
            res.dlq_arn.clone(),
            opts.visibility_timeout_seconds,
            Polling::Long,
            opts.sink.clone(),
            rx.clone(),
        )));
        let slow_lane = opts.lanes.map(|settings| {
            Arc::new(SlowLane {
                lanes: Arc::new(courier_app::delivery::lanes::Lanes::new(settings)),
                queue: Arc::new(SqsQueue::new(&sdk, res.slow_queue_url.clone())),
            })
        });
        // Lambda's event source mapping starts with five pollers working batches side
        // by side, so messages that come due together do not wait for each other's batches.
        for _ in 0..SENDER_POLLERS {
            tasks.push(tokio::spawn(poll_loop(
                Consumer::Sender(sender.clone(), firer.clone(), slow_lane.clone().map(LaneOf::Main)),
                queue.clone(),
                res.queue_arn.clone(),
                opts.visibility_timeout_seconds,
                Polling::Long,
                opts.sink.clone(),
                rx.clone(),
            )));
        }
        // The slow lane's event source mapping, at its smallest concurrency.
        if let Some(slow) = &slow_lane {
            tasks.push(tokio::spawn(poll_loop(
                Consumer::Sender(sender.clone(), firer.clone(), Some(LaneOf::Slow(slow.clone()))),
                Arc::new(SqsQueue::new(&sdk, res.slow_queue_url.clone())),
                res.slow_queue_arn.clone(),
                opts.visibility_timeout_seconds,
                Polling::Long,
                opts.sink.clone(),
                rx.clone(),
            )));
        }
        // One more, for delayed messages (see `Polling::AtDelayEnds`).
        tasks.push(tokio::spawn(poll_loop(
            Consumer::Sender(sender.clone(), firer.clone(), slow_lane.clone().map(LaneOf::Main)),
            queue.clone(),
            res.queue_arn.clone(),
            opts.visibility_timeout_seconds,
            Polling::AtDelayEnds(delay_ends),
            opts.sink.clone(),
            rx.clone(),
        )));
        tasks.push(tokio::spawn(reconcile_loop(
            store.clone(),
            sender.planner.clone(),
            opts.clock.clone(),
            opts.reconcile,
            opts.reconcile_every,
            rx.clone(),
        )));
        tasks.push(tokio::spawn(crate::recurring::recurring_loop(
            timer.clone(),
            queue.clone(),
            opts.clock.clone(),
            opts.second_rates,
            rx.clone(),
        )));
        tasks.push(tokio::spawn(timer_loop(
            timer.clone(),
            queue.clone(),
            opts.clock.clone(),
            opts.sink.clone(),
            rx.clone(),
        )));
        Ok(Stack {
            api_url: format!("http://{local}"),
            api_key,
            tenant,
            api,
            sender,
            queue,
            timer,
            store,
            firer,
            slow_lane,
            _emulator: emulator,
            shutdown,
            tasks,
        })
    }

    /// Stops the API, the pollers and the timer pump (the emulator stops on drop).
    pub async fn stop(mut self) {
        let _ = self.shutdown.send(true);
        for t in self.tasks.drain(..) {
            let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
        }
    }
}

/// Which lane a sender poller takes its batches from.
#[derive(Clone)]
enum LaneOf {
    Main(Arc<SlowLane>),
    Slow(Arc<SlowLane>),
}

/// What a polled queue feeds: the sender, or the dead-letter handler.
#[derive(Clone)]
enum Consumer {
    Sender(Arc<Sender>, Arc<ScheduleFirer>, Option<LaneOf>),
    /// The delivery DLQ's: marks deliveries; the sender's fan-out worker and the
    /// firer recover the other kinds.
    DeadLetters(Arc<DynamoStore>, Arc<dyn Clock>, Arc<Sender>, Arc<ScheduleFirer>),
}

/// Builds the SQS event Lambda would deliver for these messages.
fn sqs_event(messages: &[courier_aws::sqs::ReceivedMessage], queue_arn: &str) -> Result<SqsEvent, serde_json::Error> {
    let records: Vec<serde_json::Value> = messages
        .iter()
        .map(|m| {
            serde_json::json!({
                "messageId": m.message_id,
                "receiptHandle": m.receipt_handle,
                "body": m.body,
                "attributes": m.attributes,
                "messageAttributes": {},
                "md5OfBody": m.md5_of_body,
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": queue_arn.split(':').nth(3).unwrap_or("us-east-1"),
            })
        })
        .collect();
    serde_json::from_value(serde_json::json!({ "Records": records }))
}

/// Pollers of the delivery queue, as many as Lambda's event source mapping starts with.
const SENDER_POLLERS: usize = 5;

/// The most messages one receive returns (SQS's limit, and Lambda's batch size here).
const RECEIVE_MAX: usize = 10;

/// How long after a noted delay end the delay-end poller asks: the queue's clock
/// counts in whole milliseconds.
const AFTER_DELAY_END: Duration = Duration::from_millis(10);

/// The longest the delay-end poller sleeps before looking at the noted ends again:
/// an end noted while it sleeps is at least a second away (SQS delays are whole
/// seconds), so the poller looks again before it comes due.
const DELAY_END_LOOK: Duration = Duration::from_millis(250);

/// How a poller asks its queue for messages.
enum Polling {
    /// Long polls of a second, which moto answers as soon as a message is sent.
    Long,
    /// Receives without waiting, each as soon as a noted delay end is past: moto
    /// does not answer a long poll when a delayed message's delay ends (real SQS
    /// does), so the long pollers would see such a message only when their polls
    /// ended, up to a second late.
    AtDelayEnds(Arc<DelayEnds>),
}

/// Stands in for one poller of Lambda's SQS event source mapping: polls as `polling`
/// says, hands batches to the handler as real SQS events, deletes what succeeded,
/// leaves the rest to come back after the visibility timeout (and, after 5 receives,
/// to move to the DLQ). A batch's delete runs while the next batch is received and
/// handled (at most one delete under way per poller), so a backlog costs each
/// batch two emulator round trips, not three.
async fn poll_loop(
    consumer: Consumer,
    queue: Arc<SqsQueue>,
    queue_arn: String,
    visibility: i32,
    polling: Polling,
    sink: Arc<dyn StepSink>,
    mut stop: watch::Receiver<bool>,
) {
    let mut deleting: Option<JoinHandle<()>> = None;
    loop {
        if *stop.borrow() {
            break;
        }
        let wait_seconds = match &polling {
            Polling::Long => 1,
            Polling::AtDelayEnds(ends) => {
                let now = tokio::time::Instant::now();
                if ends.take_past(now.checked_sub(AFTER_DELAY_END).unwrap_or(now), RECEIVE_MAX) == 0 {
                    let look = ends.next().map_or(now + DELAY_END_LOOK, |end| {
                        (end + AFTER_DELAY_END).min(now + DELAY_END_LOOK)
                    });
                    tokio::select! {
                        _ = tokio::time::sleep_until(look) => {}
                        _ = stop.changed() => break,
                    }
                    continue;
                }
                0
            }
        };
        let received = tokio::select! {
            r = queue.receive(RECEIVE_MAX as i32, wait_seconds, visibility) => r,
            _ = stop.changed() => break,
        };
        let messages = match received {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(error = %e, "polling a queue failed");
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            }
        };
        if messages.is_empty() {
            continue;
        }
        let event = match sqs_event(&messages, &queue_arn) {
            Ok(e) => e,
            Err(e) => {
                tracing::error!(error = %e, "could not build an SQS event");
                continue;
            }
        };
        let response = match &consumer {
            Consumer::Sender(sender, firer, lane) => {
                let lane = lane.as_ref().map(|l| match l {
                    LaneOf::Main(s) => Lane::Main(s),
                    LaneOf::Slow(s) => Lane::Slow(s),
                });
                let (response, results) = courier_sender::handle_batch_in(sender, Some(firer), lane, event).await;
                for r in &results {
                    sink.step(r);
                }
                response
            }
            Consumer::DeadLetters(store, clock, sender, firer) => {
                let recovery = courier_sender::Recovery {
                    fanout: sender.fanout.as_deref(),
                    firer: Some(firer),
                };
                courier_sender::handle_dead_letters(store.as_ref(), clock.as_ref(), recovery, event).await
            }
        };
        let failed: Vec<&str> = response
            .batch_item_failures
            .iter()
            .map(|f| f.item_identifier.as_str())
            .collect();
        // In one call, as the event source mapping deletes a batch.
        let handled: Vec<String> = messages
            .iter()
            .filter(|m| !failed.contains(&m.message_id.as_str()))
            .map(|m| m.receipt_handle.clone())
            .collect();
        if let Some(previous) = deleting.take() {
            let _ = previous.await;
        }
        let queue = queue.clone();
        deleting = Some(tokio::spawn(async move {
            let handles: Vec<&str> = handled.iter().map(String::as_str).collect();
            for result in queue.delete_batch(&handles).await {
                if let Err(e) = result {
                    tracing::warn!(error = %e, "deleting a handled message failed; it will be seen again and dropped as a duplicate");
                }
            }
        }));
    }
    // Stopping waits for the last delete, so a stopped stack leaves nothing handled
    // on its queues.
    if let Some(last) = deleting {
        let _ = last.await;
    }
}

/// How many due schedules the timer stand-in fires at once.
const CONCURRENT_FIRES: usize = 16;

/// Stands in for EventBridge Scheduler: every half second, due schedules put their
/// message on the queue and are deleted (ActionAfterCompletion DELETE).
async fn timer_loop(
    timer: Arc<SchedulerTimer>,
    queue: Arc<SqsQueue>,
    clock: Arc<dyn Clock>,
    sink: Arc<dyn StepSink>,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_millis(500)) => {}
            _ = stop.changed() => return,
        }
        let due = match timer.list_due(clock.now()).await {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!(error = %e, "listing due schedules failed");
                continue;
            }
        };
        // Fired side by side, as Scheduler fires each schedule on its own: one after
        // another, the last of many due together would wait for all the others'
        // sends and deletes.
        let (queue, sink, timer) = (&queue, &sink, &timer);
        futures_util::stream::iter(due)
            .for_each_concurrent(CONCURRENT_FIRES, |(name, message)| async move {
                if let Err(e) = queue.send(&message, 0).await {
                    tracing::warn!(schedule = %name, error = %e, "firing a schedule failed; will retry");
                    return;
                }
                sink.fired(&name, &message);
                if let Err(e) = timer.delete(&name).await {
                    tracing::warn!(schedule = %name, error = %e, "deleting a fired schedule failed; its message may repeat and be dropped as a duplicate");
                }
            })
            .await;
    }
}

/// Stands in for the reconciler's `rate()` schedule: one run every `every`, through
/// the same function the sender Lambda runs.
async fn reconcile_loop(
    store: Arc<DynamoStore>,
    planner: Planner,
    clock: Arc<dyn Clock>,
    settings: courier_app::maintenance::reconcile::ReconcileSettings,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = stop.changed() => return,
        }
        if let Err(e) =
            courier_sender::maintenance::run_reconcile(store.as_ref(), &planner, clock.as_ref(), settings).await
        {
            tracing::warn!(error = %e, "reconciler run failed; the next one tries again");
        }
    }
}
