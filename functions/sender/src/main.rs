//! The sender Lambda: SQS-triggered with ReportBatchItemFailures. Reads config once,
//! builds the AWS clients and the HTTP client once (connections are reused across
//! invocations). Each invocation is typed once at the edge (which queue a batch
//! came from, or the reconciler's tick; `courier_sender::invocation`) and handed to
//! its handler: the delivery queue's and the slow lane's batches to the shared
//! handler, the two dead-letter queues (the delivery queue's and Scheduler's) to
//! theirs, and `{"task": "reconcile"}` from its `rate()` schedule to the reconciler.

use courier_app::config::Config;
use courier_app::wiring::Settings;
use courier_sender::invocation::{Answer, Handlers, Invocation, Sources};
use lambda_runtime::{Error, LambdaEvent, service_fn};
use std::sync::Arc;

/// mimalloc rather than glibc's malloc: per-thread free lists, no arena lock.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// tokio's current-thread runtime: an instance works one batch at a time on a share
/// of a vCPU, and no response has to cross threads to wake the batch.
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    courier_sender::init_logging();
    let config = Config::from_env()?;
    let deployment = courier_aws::Deployment::from_config(&config).await?;
    let ports = deployment.ports(&config)?;
    let outbound = deployment.outbound(&config)?;
    let settings = Settings::from_config(&config);
    // Steps to slow or congested endpoints move to the slow lane's queue, which a
    // mapping of small concurrency drains (`courier_core::lanes`).
    let slow_lane = deployment.slow_lane.map(|queue| {
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
    let dlq_store = deployment.store;
    // Fan-out steps and recurring schedules' firings (`"kind":"schedule_fire"`)
    // come on the same queue as delivery steps.
    let fanout = Arc::new(ports.fanout(&settings));
    let firer = Arc::new(ports.firer(&settings));
    let sender = Arc::new(ports.sender(&settings, &outbound, Some(fanout)));
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
