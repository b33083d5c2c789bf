//! The smallest lambda_runtime function (echoes its event): the baseline the
//! sender's init time is compared with in `make bench`.

use lambda_runtime::{Error, LambdaEvent, service_fn};

/// On the sender's runtime flavour (current-thread), so that the ratio compares the
/// functions' own init, not two runtimes' start-up (a multi-thread one starts a
/// worker thread per core).
#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    lambda_runtime::run(service_fn(|event: LambdaEvent<serde_json::Value>| async move {
        Ok::<serde_json::Value, Error>(event.payload)
    }))
    .await
}
