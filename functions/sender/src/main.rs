//! The sender Lambda: SQS-triggered with ReportBatchItemFailures. Reads config once,
//! builds the AWS clients and the HTTP client once (connections are reused across
//! invocations), then hands each batch to the shared handler. It also drains the
//! two dead-letter queues (the delivery queue's and Scheduler's) and runs the
//! reconciler when its `rate()` schedule invokes it with `{"task": "reconcile"}`.

use aws_lambda_events::event::sqs::SqsBatchResponse;
use courier_app::config::Config;
use courier_app::wiring::Settings;
use courier_sender::maintenance::{self, Invocation};
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
    let slow_queue_url = config.slow_queue_url.clone().unwrap_or_default();
    courier_sender::set_metrics_target(config.metrics.clone());
    let dlq_url = config.dlq_url.clone().unwrap_or_default();
    let schedule_dlq_arn = config.schedule_dlq_arn.clone().unwrap_or_default();
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
        let dlq_url = dlq_url.clone();
        let schedule_dlq_arn = schedule_dlq_arn.clone();
        let slow_lane = slow_lane.clone();
        let slow_queue_url = slow_queue_url.clone();
        async move {
            let clock = courier_app::adapters::system::SystemClock;
            let batch = match event.payload {
                Invocation::Task(_) => {
                    maintenance::run_reconcile(dlq_store.as_ref(), &sender.planner, &clock, reconcile).await?;
                    return Ok::<serde_json::Value, Error>(serde_json::json!({}));
                }
                Invocation::Sqs(batch) => batch,
            };
            let recovery = courier_sender::Recovery {
                fanout: sender.fanout.as_deref(),
                firer: Some(&firer),
            };
            let response: SqsBatchResponse = if courier_sender::from_queue(&batch, &dlq_url) {
                // The delivery queue's DLQ: a delivery step marks its delivery, other
                // kinds are recovered.
                courier_sender::handle_dead_letters(dlq_store.as_ref(), &clock, recovery, batch).await
            } else if maintenance::from_queue_arn(&batch, &schedule_dlq_arn) {
                // Scheduler's DLQ: each message goes back on its way.
                maintenance::handle_schedule_dead_letters(&sender.planner, &clock, recovery, batch).await
            } else {
                use courier_sender::slow_lane::Lane;
                let lane = slow_lane.as_deref().map(|s| {
                    if courier_sender::from_queue(&batch, &slow_queue_url) {
                        Lane::Slow(s)
                    } else {
                        Lane::Main(s)
                    }
                });
                courier_sender::handle_batch_in(&sender, Some(&firer), lane, batch)
                    .await
                    .0
            };
            Ok::<serde_json::Value, Error>(serde_json::to_value(response)?)
        }
    }))
    .await
}
