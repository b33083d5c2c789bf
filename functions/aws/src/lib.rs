//! AWS adapters for Courier's ports: DynamoDB ([`dynamo::DynamoStore`]), SQS
//! ([`sqs::SqsQueue`]), EventBridge Scheduler ([`scheduler::SchedulerTimer`]), the
//! per-endpoint limiter on DynamoDB ([`limiter::DynamoLimiter`]), endpoint
//! credentials' data keys from KMS ([`credential_keys::KmsDataKeys`]),
//! the idempotent resource bootstrap used by the local runner and the tests
//! ([`bootstrap`]), the SDK's HTTP client ([`http_client`]), the moto emulator
//! harness for tests ([`testing`]), and a stub of the Lambda Runtime API that runs
//! the functions' binaries as Lambda would ([`runtime_stub`]).
//!
//! Every SDK failure becomes a typed `PortError` that keeps the SDK error as its
//! source ([`error`]); nothing here decides by an error's text. Use cases never see
//! this crate: they take the port traits from `courier-app`.

pub mod bootstrap;
pub mod credential_keys;
pub mod destinations;
pub mod due_index;
pub mod dynamo;
pub mod error;
pub mod http_client;
pub mod lazy_client;
pub mod limiter;
/// Test harnesses (a Lambda Runtime API stub, the moto server): behind the
/// `testing` feature, not in the Lambda binaries.
#[cfg(any(test, feature = "testing"))]
pub mod runtime_stub;
pub mod scheduler;
pub mod sqs;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use dynamo::DynamoStore;
pub use limiter::DynamoLimiter;
pub use scheduler::SchedulerTimer;
pub use sqs::SqsQueue;

/// The adapters a deployed function needs, built once at start-up from its config:
/// the table (every store port), the delivery queue and Scheduler. [`Deployment::ports`]
/// hands them to the use cases; the planner's settings come from the config there
/// (`courier_app::wiring::Settings::from_config`).
pub struct Deployment {
    pub store: std::sync::Arc<DynamoStore>,
    /// The delivery queue: delivery steps and fan-out steps.
    pub queue: std::sync::Arc<SqsQueue>,
    /// Scheduler: one-shot timers for long waits and the recurring schedules.
    pub timer: std::sync::Arc<SchedulerTimer>,
    /// The slow lane's queue, when the deployment has one (`COURIER_SLOW_QUEUE_URL`).
    pub slow_lane: Option<std::sync::Arc<SqsQueue>>,
    /// Seals and opens endpoint credentials; its KMS client is built when the
    /// first data key is needed, not here.
    pub sealer: std::sync::Arc<credential_keys::KmsSealer>,
    /// The SDK configuration the adapters were built from (the sender's
    /// destinations build their clients from it when first used).
    pub sdk: aws_config::SdkConfig,
}

impl Deployment {
    /// Fails only when the SDK's HTTP client cannot be built (see [`aws_config_from_env`]).
    pub async fn from_config(config: &courier_app::config::Config) -> Result<Deployment, NoHttpClient> {
        let sdk = aws_config_from_env().await?;
        let queue = SqsQueue::new(&sdk, config.queue_url.clone());
        let mut timer = SchedulerTimer::new(
            &sdk,
            config.schedule_group.clone(),
            config.queue_arn.clone(),
            config.scheduler_role_arn.clone(),
        );
        if let Some(arn) = &config.schedule_dlq_arn {
            timer = timer.with_dead_letter_queue(arn.clone());
        }
        let queue = std::sync::Arc::new(queue);
        let timer = std::sync::Arc::new(timer);
        let store = std::sync::Arc::new(DynamoStore::new(&sdk, config.table.clone()));
        let sealer = credential_keys::KmsDataKeys::new(&sdk, config.credentials_key.clone(), store.clone())
            .sealer(std::sync::Arc::new(courier_app::adapters::system::OsSecrets));
        Ok(Deployment {
            slow_lane: config
                .slow_queue_url
                .as_ref()
                .map(|url| std::sync::Arc::new(SqsQueue::new(&sdk, url.clone()))),
            sdk: sdk.clone(),
            sealer: std::sync::Arc::new(sealer),
            store,
            queue,
            timer,
        })
    }
}

impl Deployment {
    /// Every port of a deployed function, served by AWS and the outbound HTTP
    /// adapters: the table for every store, the delivery queue and Scheduler, the
    /// KMS sealer, the deployment's URL rules, the system clock and randomness. API
    /// keys are looked up once a minute per instance, not on every request. Fails
    /// when `COURIER_ALLOWED_PORTS` cannot be read.
    pub fn ports(&self, config: &courier_app::config::Config) -> Result<courier_app::wiring::Ports, BadSetting> {
        use courier_app::adapters::system::{OsSecrets, OsSeededRandom, SystemClock};
        use std::sync::Arc;
        let clock: Arc<dyn courier_app::ports::Clock> = Arc::new(SystemClock);
        Ok(courier_app::wiring::Ports {
            tenants: Arc::new(courier_app::adapters::tenant_cache::CachedTenants::new(
                self.store.clone(),
                clock.clone(),
            )),
            endpoints: self.store.clone(),
            deliveries: self.store.clone(),
            idempotency: self.store.clone(),
            applications: self.store.clone(),
            subscriptions: self.store.clone(),
            schedules: self.store.clone(),
            recurring: self.timer.clone(),
            queue: self.queue.clone(),
            timer: self.timer.clone(),
            steps: self.queue.clone(),
            sealer: self.sealer.clone(),
            admission: Arc::new(
                courier_http::HttpAdmission::new(admission_policy(config)).with_allowed_ports(allowed_ports(config)?),
            ),
            clock,
            random: Arc::new(OsSeededRandom::new()),
            secrets: Arc::new(OsSecrets),
        })
    }

    /// The sender's own ports: the webhook client (the deployment's URL rules at
    /// every attempt, its trusted CA), destinations in customers' accounts (no
    /// client is built until the first attempt to one) and the limiter.
    pub fn outbound(&self, config: &courier_app::config::Config) -> Result<courier_app::wiring::Outbound, BadSetting> {
        use std::sync::Arc;
        let http = courier_http::ReqwestSender::for_deployment(
            admission_policy(config),
            allowed_ports(config)?,
            config.trusted_ca_pem.clone(),
        )
        .map_err(|e| BadSetting(format!("the webhook client: {e}")))?;
        Ok(courier_app::wiring::Outbound {
            http: Arc::new(http),
            destinations: Arc::new(destinations::AwsDestinations::new(
                &self.sdk,
                Arc::new(courier_app::adapters::system::SystemClock),
            )),
            limiter: Arc::new(DynamoLimiter::new(self.store.client().clone(), self.store.table())),
        })
    }
}

/// A setting the ports are built from is unusable.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct BadSetting(pub String);

fn admission_policy(config: &courier_app::config::Config) -> courier_http::AdmissionPolicy {
    courier_http::AdmissionPolicy {
        allow_http: config.allow_http_targets,
        allow_private: config.allow_private_targets,
    }
}

fn allowed_ports(config: &courier_app::config::Config) -> Result<courier_http::AllowedPorts, BadSetting> {
    match config.allowed_ports.as_deref() {
        Some(text) => courier_http::AllowedPorts::parse(text)
            .map_err(|e| BadSetting(format!("{}: {e}", courier_app::config::ENV_ALLOWED_PORTS))),
        None => Ok(courier_http::AllowedPorts::default()),
    }
}

/// The SDK's HTTP client could not be built: its TLS configuration failed. The SDK
/// crates are built without an HTTP client of their own (only
/// [`http_client::shared`] is linked), so there is nothing to fall back to, and
/// start-up fails rather than every AWS call.
#[derive(Debug, thiserror::Error)]
#[error("could not build the AWS SDK's HTTP client: {0}")]
pub struct NoHttpClient(#[from] pub rustls::Error);

/// The SDK configuration from the environment (credentials chain, region), with
/// `AWS_ENDPOINT_URL` (when set and non-empty) as the endpoint of every service, so
/// the same binaries run against AWS, moto or LocalStack. Requests go through
/// [`http_client::shared`], which shares the webhook client's TLS configuration.
pub async fn aws_config_from_env() -> Result<aws_config::SdkConfig, NoHttpClient> {
    let mut loader = aws_config::defaults(aws_config::BehaviorVersion::latest())
        .http_client(http_client::shared()?)
        .timeout_config(sdk_timeouts());
    // The default credentials chain asks the environment first, and when the keys
    // are there (always, on Lambda) it never asks anything else; building the rest
    // of it (profile, SSO, an STS client for web identity, ECS and IMDS clients)
    // would be init time spent on providers that cannot be reached.
    if env_credentials_present(|name| std::env::var(name).ok()) {
        loader = loader.credentials_provider(aws_config::environment::EnvironmentVariableCredentialsProvider::new());
    }
    // The default region chain asks the environment first too, but building it also
    // builds an instance-metadata client (cold-start time) that a region from the
    // environment (always there on Lambda) never lets it use.
    if let Some(region) = env_region(|name| std::env::var(name).ok()) {
        loader = loader.region(aws_config::Region::new(region));
    }
    if let Ok(url) = std::env::var(courier_app::config::ENV_AWS_ENDPOINT_URL)
        && !url.trim().is_empty()
    {
        loader = loader.endpoint_url(url.trim());
    }
    Ok(loader.load().await)
}

/// Every AWS call's bounds (the SDK sets none by default, so a stalled connection
/// could hold a step, and the claim it made, past its lease): 2 s to connect, 5 s
/// for an answer to start and for one try, 12 s for a call with its retries.
/// The sender's lease margin (20 s) covers a write after the request. The local
/// runner's long polls ask for more on their own call (`SqsQueue::receive`).
pub fn sdk_timeouts() -> aws_smithy_types::timeout::TimeoutConfig {
    use std::time::Duration;
    aws_smithy_types::timeout::TimeoutConfig::builder()
        .connect_timeout(Duration::from_secs(2))
        .read_timeout(Duration::from_secs(5))
        .operation_attempt_timeout(Duration::from_secs(5))
        .operation_timeout(Duration::from_secs(12))
        .build()
}

/// The region the SDK's environment provider would find (`AWS_REGION`, else
/// `AWS_DEFAULT_REGION`), when it is not blank.
fn env_region(var: impl Fn(&str) -> Option<String>) -> Option<String> {
    ["AWS_REGION", "AWS_DEFAULT_REGION"]
        .into_iter()
        .find_map(|name| var(name).map(|v| v.trim().to_owned()).filter(|v| !v.is_empty()))
}

/// Whether the SDK's environment provider would find credentials: an access key id
/// and a secret key (`AWS_SECRET_ACCESS_KEY`, else `SECRET_ACCESS_KEY`), neither
/// blank, as `EnvironmentVariableCredentialsProvider` reads them.
fn env_credentials_present(var: impl Fn(&str) -> Option<String>) -> bool {
    let set = |name: &str| var(name).is_some_and(|v| !v.trim().is_empty());
    set("AWS_ACCESS_KEY_ID") && (set("AWS_SECRET_ACCESS_KEY") || set("SECRET_ACCESS_KEY"))
}

#[cfg(test)]
mod tests {
    use super::{env_credentials_present, env_region};

    fn env(vars: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| (*v).to_owned())
    }

    #[test]
    fn environment_credentials_are_recognised_as_the_sdk_reads_them() {
        assert!(env_credentials_present(env(&[
            ("AWS_ACCESS_KEY_ID", "AKIA"),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
        ])));
        assert!(env_credentials_present(env(&[
            ("AWS_ACCESS_KEY_ID", "AKIA"),
            ("AWS_SECRET_ACCESS_KEY", " "),
            ("SECRET_ACCESS_KEY", "secret"),
        ])));
        // Anything less and the default chain goes on to profiles, SSO, IMDS...
        assert!(!env_credentials_present(env(&[("AWS_ACCESS_KEY_ID", "AKIA")])));
        assert!(!env_credentials_present(env(&[
            ("AWS_ACCESS_KEY_ID", ""),
            ("AWS_SECRET_ACCESS_KEY", "secret"),
        ])));
        assert!(!env_credentials_present(env(&[])));
    }

    #[test]
    fn the_region_comes_from_the_environment_as_the_sdk_reads_it() {
        assert_eq!(
            env_region(env(&[("AWS_REGION", "eu-west-1"), ("AWS_DEFAULT_REGION", "us-east-1")])).as_deref(),
            Some("eu-west-1")
        );
        assert_eq!(
            env_region(env(&[("AWS_DEFAULT_REGION", "us-east-1")])).as_deref(),
            Some("us-east-1")
        );
        assert_eq!(
            env_region(env(&[("AWS_REGION", " "), ("AWS_DEFAULT_REGION", "us-east-1")])).as_deref(),
            Some("us-east-1")
        );
        // Nothing usable: the SDK's default chain (profile, instance metadata) decides.
        assert_eq!(env_region(env(&[("AWS_REGION", "")])), None);
        assert_eq!(env_region(env(&[])), None);
    }
}
