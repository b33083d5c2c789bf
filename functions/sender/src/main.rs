//! The sender Lambda: SQS-triggered with ReportBatchItemFailures. Reads config once,
//! builds the AWS clients and the HTTP client once (connections are reused across
//! invocations), then hands each batch to the shared handler.

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use courier_app::config::Config;
use courier_app::sender::{NoFaults, Sender, SenderSettings};
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
/// the bench measured the sender's CPU per delivery 30 % higher (docs/bench-history.md,
/// section 1).
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    courier_sender::init_logging();
    let config = Config::from_env()?;
    let courier_aws::Deployment { store, planner } = courier_aws::Deployment::from_config(&config).await?;
    let dlq_url = config.dlq_url.clone().unwrap_or_default();
    let dlq_store = store.clone();
    let sender = Arc::new(Sender {
        secrets: Arc::new(courier_app::memory::OsSecrets),
        deliveries: store.clone(),
        endpoints: store,
        http: Arc::new(courier_http::ReqwestSender::with_trusted_ca(
            config.allow_private_targets,
            config.trusted_ca_pem.clone(),
        )?),
        clock: Arc::new(courier_app::memory::SystemClock),
        random: Arc::new(courier_app::memory::OsSeededRandom::new()),
        planner,
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
