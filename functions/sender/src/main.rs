//! The sender Lambda: SQS-triggered with ReportBatchItemFailures. Reads config once,
//! builds the AWS clients and the HTTP client once (connections are reused across
//! invocations). Each invocation is typed once at the edge (which queue a batch
//! came from, or the reconciler's tick; `courier_sender::invocation`) and handed to
//! its handler: the delivery queue's and the slow lane's batches to the shared
//! handler, the two dead-letter queues (the delivery queue's and Scheduler's) to
//! theirs, and `{"task": "reconcile"}` from its `rate()` schedule to the reconciler.

use courier_app::config::Config;
use courier_app::delivery::{Sender, SenderSettings};
use courier_app::ports::NoFaults;
use courier_sender::invocation::{Answer, Handlers, Invocation, Sources};
use lambda_runtime::{Error, LambdaEvent, service_fn};
use std::sync::Arc;

/// mimalloc rather than glibc's malloc: per-thread free lists with no arena lock,
/// where glibc spent about a quarter of the handler's CPU per delivery (workers
/// freeing what another worker allocated).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// tokio's current-thread runtime: an instance works one batch at a time, with a
/// share of a vCPU at this memory size. On the multi-thread runtime every response
/// crossed threads (the connection's task woke the batch's on another worker), and
/// the bench measured the sender's CPU per delivery 30 % higher (section 1).
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    courier_sender::init_logging();
    let config = Config::from_env()?;
    let allowed_ports = match config.allowed_ports.as_deref() {
        Some(text) => courier_http::AllowedPorts::parse(text)
            .map_err(|e| format!("{}: {e}", courier_app::config::ENV_ALLOWED_PORTS))?,
        None => courier_http::AllowedPorts::default(),
    };
    let courier_aws::Deployment {
        store,
        planner,
        steps,
        slow_lane,
        sealer,
        sdk,
        ..
    } = courier_aws::Deployment::from_config(&config).await?;
    // Steps to slow or congested endpoints move to the slow lane's queue, which a
    // mapping of small concurrency drains (`courier_core::lanes`).
    let slow_lane = slow_lane.map(|queue| {
        Arc::new(courier_sender::slow_lane::SlowLane {
            lanes: Arc::new(courier_app::delivery::lanes::Lanes::default()),
            queue,
        })
    });
    courier_sender::set_metrics_target(config.metrics.clone());
    // Which queue is which, once: each batch is then told by its source ARN alone.
    let sources = Arc::new(Sources::from_config(&config));
    let reconcile = courier_app::maintenance::reconcile::ReconcileSettings {
        grace_ms: i64::from(config.reconcile_grace_seconds) * 1000,
        ..Default::default()
    };
    let dlq_store = store.clone();
    let fanout = Arc::new(courier_app::fanout::FanoutWorker {
        index: store.clone(),
        deliveries: store.clone(),
        planner: planner.clone(),
        steps: steps.clone(),
        clock: Arc::new(courier_app::adapters::system::SystemClock),
        faults: Arc::new(courier_app::ports::faults::NoFanoutFaults),
        page: courier_app::fanout::STEP_PAGE,
        console_url: config.console_url.clone(),
    });
    // Recurring schedules' firings come on the same queue (`"kind":"schedule_fire"`).
    let firer = Arc::new(courier_app::schedules::fire::ScheduleFirer {
        schedules: store.clone(),
        endpoints: store.clone(),
        deliveries: store.clone(),
        planner: planner.clone(),
        clock: Arc::new(courier_app::adapters::system::SystemClock),
        random: Arc::new(courier_app::adapters::system::OsSeededRandom::new()),
        index: store.clone(),
        steps: steps.clone(),
        event_types: store.clone(),
        schemas: Default::default(),
    });
    let limiter = Arc::new(courier_aws::DynamoLimiter::new(store.client().clone(), store.table()));
    let sender = Arc::new(Sender {
        secrets: Arc::new(courier_app::adapters::system::OsSecrets),
        sealer,
        deliveries: store.clone(),
        endpoints: store,
        // The deployment's own rules at every attempt, as the API admits endpoints.
        http: Arc::new(courier_http::ReqwestSender::for_deployment(
            courier_http::AdmissionPolicy {
                allow_http: config.allow_http_targets,
                allow_private: config.allow_private_targets,
            },
            allowed_ports,
            config.trusted_ca_pem.clone(),
        )?),
        // Builds nothing until the first attempt to a destination.
        destinations: Arc::new(courier_aws::destinations::AwsDestinations::new(
            &sdk,
            Arc::new(courier_app::adapters::system::SystemClock),
        )),
        clock: Arc::new(courier_app::adapters::system::SystemClock),
        random: Arc::new(courier_app::adapters::system::OsSeededRandom::new()),
        planner,
        faults: Arc::new(NoFaults),
        fanout: Some(fanout),
        settings: SenderSettings {
            default_limits: config.default_limits,
            ..SenderSettings::default()
        },
        limiter,
    });
    lambda_runtime::run(service_fn(move |event: LambdaEvent<Invocation>| {
        let sender = sender.clone();
        let firer = firer.clone();
        let dlq_store = dlq_store.clone();
        let slow_lane = slow_lane.clone();
        let sources = sources.clone();
        async move {
            let handlers = Handlers {
                sender: &sender,
                firer: Some(&firer),
                store: dlq_store.as_ref(),
                slow_lane: slow_lane.as_deref(),
                reconcile,
            };
            match handlers.handle(sources.work(event.payload)).await? {
                Answer::Reconciled(_) => Ok::<serde_json::Value, Error>(serde_json::json!({})),
                Answer::Batch(response) => Ok(serde_json::to_value(response)?),
            }
        }
    }))
    .await
}
