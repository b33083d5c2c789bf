//! The `DestinationSender` port over the AWS SDK: one attempt is one call
//! (SQS SendMessage, SNS Publish, EventBridge PutEvents, Kinesis PutRecord, S3
//! PutObject) in the customer's account, signed with the credentials of their
//! role (`credentials.rs`). The SDK retries nothing: the endpoint's policy decides
//! what a throttled or failed call means (`answer.rs`). A client is built the
//! first time a destination of its type, region and role is used, never at
//! start-up, so a sender with no destinations pays nothing for them.

pub mod answer;
pub mod credentials;
mod eventbridge;
mod kinesis;
mod s3;
mod sns;
mod sqs;

use async_trait::async_trait;
use aws_smithy_runtime_api::client::interceptors::SharedInterceptor;
use courier_app::ports::{Clock, DestinationMessage, DestinationSender, SendResult};
use courier_core::destination::Kind;
use courier_core::outcome::{AttemptOutcome, TransportFailure};
use credentials::{AssumedRole, RoleCredentials};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One service's client for one region and role.
#[derive(Clone)]
enum Client {
    Sqs(aws_sdk_sqs::Client),
    Sns(aws_sdk_sns::Client),
    EventBridge(aws_sdk_eventbridge::Client),
    Kinesis(aws_sdk_kinesis::Client),
    S3(aws_sdk_s3::Client),
}

/// Clients are per service, region, role and external id.
type ClientKey = (Kind, String, String, String);

pub struct AwsDestinations {
    base: aws_config::SdkConfig,
    roles: Arc<RoleCredentials>,
    clients: Mutex<HashMap<ClientKey, Client>>,
    /// The region of a destination that names none (an S3 bucket, an emulator's
    /// queue URL).
    default_region: String,
    /// Added to every client (tests: the request counter, injected faults).
    interceptors: Vec<SharedInterceptor>,
}

impl AwsDestinations {
    /// Builds no client yet; STS's is built on the first AssumeRole.
    pub fn new(base: &aws_config::SdkConfig, clock: Arc<dyn Clock>) -> Self {
        Self::with_interceptors(base, clock, Vec::new())
    }

    /// [`AwsDestinations::new`] with interceptors on every client, STS's too.
    pub fn with_interceptors(
        base: &aws_config::SdkConfig,
        clock: Arc<dyn Clock>,
        interceptors: Vec<SharedInterceptor>,
    ) -> Self {
        let sts_base = base.clone();
        let sts_interceptors = interceptors.clone();
        let sts = crate::lazy_client::LazyClient::new(move || {
            let mut b = aws_sdk_sts::config::Builder::from(&sts_base);
            for i in &sts_interceptors {
                b.push_interceptor(i.clone());
            }
            aws_sdk_sts::Client::from_conf(b.build())
        });
        AwsDestinations {
            default_region: base.region().map_or_else(|| "us-east-1".to_owned(), |r| r.to_string()),
            base: base.clone(),
            roles: Arc::new(RoleCredentials::new(sts, clock)),
            clients: Mutex::new(HashMap::new()),
            interceptors,
        }
    }

    /// How many destination clients have been built (cold start checks).
    pub fn clients_built(&self) -> usize {
        self.clients.lock().map(|c| c.len()).unwrap_or(0)
    }

    fn client(&self, kind: Kind, region: &str, role: &str, external_id: &str) -> Client {
        let key = (kind, region.to_owned(), role.to_owned(), external_id.to_owned());
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        clients
            .entry(key)
            .or_insert_with(|| self.build(kind, region, role, external_id))
            .clone()
    }

    fn build(&self, kind: Kind, region: &str, role: &str, external_id: &str) -> Client {
        let provider = AssumedRole {
            roles: self.roles.clone(),
            role: role.to_owned(),
            external_id: external_id.to_owned(),
        };
        let emulated = self.base.endpoint_url().is_some();
        // The same settings for each service's builder: the role's credentials
        // (cached by `RoleCredentials`, not by the client), the destination's
        // region, no SDK retries.
        macro_rules! conf {
            ($sdk:ident) => {{
                let mut b = $sdk::config::Builder::from(&self.base)
                    .region($sdk::config::Region::new(region.to_owned()))
                    .credentials_provider(provider)
                    .identity_cache($sdk::config::IdentityCache::no_cache())
                    .retry_config(aws_smithy_types::retry::RetryConfig::disabled());
                for i in &self.interceptors {
                    b.push_interceptor(i.clone());
                }
                b
            }};
        }
        match kind {
            Kind::Sqs => Client::Sqs(aws_sdk_sqs::Client::from_conf(conf!(aws_sdk_sqs).build())),
            Kind::Sns => Client::Sns(aws_sdk_sns::Client::from_conf(conf!(aws_sdk_sns).build())),
            Kind::EventBridge => Client::EventBridge(aws_sdk_eventbridge::Client::from_conf(
                conf!(aws_sdk_eventbridge).build(),
            )),
            Kind::Kinesis => Client::Kinesis(aws_sdk_kinesis::Client::from_conf(conf!(aws_sdk_kinesis).build())),
            // An emulator serves every bucket under its one address.
            Kind::S3 => Client::S3(aws_sdk_s3::Client::from_conf(
                conf!(aws_sdk_s3).force_path_style(emulated).build(),
            )),
        }
    }

    async fn call(&self, m: &DestinationMessage) -> AttemptOutcome {
        let d = &m.destination;
        let kind = d.kind();
        if m.body.len() > kind.max_message_bytes() {
            return answer::refused("PayloadTooLarge", None);
        }
        // Resolved here rather than inside the SDK call, so a refused AssumeRole
        // is recorded with STS's own code and request id.
        if let Err(refused) = self.roles.credentials_for(&d.role_arn, &m.external_id).await {
            return refused;
        }
        let region = d.region_or(&self.default_region);
        match self.client(kind, &region, &d.role_arn, &m.external_id) {
            Client::Sqs(c) => sqs::send(&c, m).await,
            Client::Sns(c) => sns::send(&c, m).await,
            Client::EventBridge(c) => eventbridge::send(&c, m).await,
            Client::Kinesis(c) => kinesis::send(&c, m).await,
            Client::S3(c) => s3::send(&c, m).await,
        }
    }
}

#[async_trait]
impl DestinationSender for AwsDestinations {
    async fn send(&self, message: DestinationMessage) -> SendResult {
        let started = Instant::now();
        let budget = Duration::from_millis(message.timeout_ms.max(1));
        let outcome = match tokio::time::timeout(budget, self.call(&message)).await {
            Ok(o) => o,
            Err(_) => AttemptOutcome::transport(TransportFailure::Timeout),
        };
        SendResult {
            outcome,
            peer: None,
            duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        }
    }
}

/// The envelope as text (Courier wrote it: always UTF-8 JSON).
fn body_text(m: &DestinationMessage) -> Result<&str, AttemptOutcome> {
    std::str::from_utf8(&m.body).map_err(|_| answer::refused("PayloadNotText", None))
}

/// The envelope with its `courier` block, checked against the service's limit.
fn wrapped(m: &DestinationMessage) -> Result<String, AttemptOutcome> {
    let text = body_text(m)?;
    let w = m
        .signed()
        .with_courier_block(text)
        .ok_or_else(|| answer::refused("PayloadNotAnObject", None))?;
    if w.len() > m.destination.kind().max_message_bytes() {
        return Err(answer::refused("PayloadTooLarge", None));
    }
    Ok(w)
}
