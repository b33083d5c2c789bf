//! The sender Lambda: SQS-triggered with ReportBatchItemFailures. Reads config once,
//! builds the AWS clients and the HTTP client once (connections are reused across
//! invocations), then hands each batch to the shared handler.

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use courier_app::config::Config;
use courier_app::planner::{Planner, PlannerSettings};
use courier_app::sender::{NoFaults, Sender, SenderSettings};
use courier_aws::{DynamoStore, SchedulerTimer, SqsQueue};
use lambda_runtime::{Error, LambdaEvent, service_fn};
use std::sync::Arc;

#[tokio::main]
async fn main() -> Result<(), Error> {
    tracing_subscriber::fmt()
        .json()
        .with_current_span(true)
        .with_target(false)
        .without_time()
        .init();
    let config = Config::from_env()?;
    let sdk = courier_aws::aws_config_from_env().await;
    let store = Arc::new(DynamoStore::new(&sdk, config.table.clone()));
    let queue = Arc::new(SqsQueue::new(&sdk, config.queue_url.clone()));
    let timer = Arc::new(SchedulerTimer::new(
        &sdk,
        config.schedule_group.clone(),
        config.queue_arn.clone(),
        config.scheduler_role_arn.clone(),
    ));
    let dlq_url = config.dlq_url.clone().unwrap_or_default();
    let dlq_store = store.clone();
    let sender = Arc::new(Sender {
        secrets: Arc::new(courier_app::memory::OsSecrets),
        deliveries: store.clone(),
        endpoints: store,
        http: Arc::new(courier_http::ReqwestSender::new(config.allow_private_targets)),
        clock: Arc::new(courier_app::memory::SystemClock),
        random: Arc::new(courier_app::memory::OsSeededRandom::new()),
        planner: Planner {
            queue,
            timer,
            settings: PlannerSettings {
                sqs_max_delay_seconds: config.sqs_max_delay_seconds,
                schedule_lead_seconds: config.schedule_lead_seconds,
            },
        },
        faults: Arc::new(NoFaults),
        settings: SenderSettings::default(),
    });
    lambda_runtime::run(service_fn(move |event: LambdaEvent<SqsEvent>| {
        let sender = sender.clone();
        let dlq_store = dlq_store.clone();
        let dlq_url = dlq_url.clone();
        async move {
            // The same function is subscribed to the dead-letter queue.
            if courier_sender::from_queue(&event.payload, &dlq_url) {
                let clock = courier_app::memory::SystemClock;
                return Ok::<SqsBatchResponse, Error>(
                    courier_sender::handle_dead_letters(dlq_store.as_ref(), &clock, event.payload).await,
                );
            }
            let (response, _) = courier_sender::handle_batch(&sender, event.payload).await;
            Ok::<SqsBatchResponse, Error>(response)
        }
    }))
    .await
}
