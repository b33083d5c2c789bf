//! Destinations end to end on the moto emulator: an endpoint with a destination is
//! created through the API, an event goes through the sender and the real SDK
//! adapter (STS AssumeRole with the external id, then SQS, SNS, EventBridge,
//! Kinesis or S3), and the test reads the message back where the customer would
//! and checks its signature as a consumer does. Faults moto does not produce (a
//! refused AssumeRole, throttling) are injected at the SDK boundary by an
//! interceptor, and the endpoint's policy settles or retries them.

use aws_sdk_sqs::config::interceptors::BeforeDeserializationInterceptorContextMut;
use aws_sdk_sqs::config::{ConfigBag, Intercept, RuntimeComponents, SharedInterceptor};
use aws_smithy_runtime_api::box_error::BoxError;
use aws_smithy_runtime_api::client::orchestrator::{HttpResponse, Metadata};
use aws_smithy_types::body::SdkBody;
use courier_app::api::{Api, ApiRequest};
use courier_app::delivery::{EndpointCache, Sender, SenderSettings, StepOutcome};
use courier_app::domain::model::Tenant;
use courier_app::ports::Clock;
use courier_app::ports::NoFaults;
use courier_app::testing::memory::{FixedSecrets, ManualClock, MemoryPorts, MemoryQueue, SeededRandom};
use courier_app::wiring::{Ports, Settings};
use courier_aws::destinations::AwsDestinations;
use courier_aws::testing::{ACCOUNT_ID, Emulator};
use courier_core::Timestamp;
use courier_core::ids::TenantId;
use courier_core::signing::{SigningSecret, verify};
use courier_testkit::counting::RequestCounter;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

const KEY: &str = "ck_destinations";
const ROLE: &str = "arn:aws:iam::123456789012:role/courier-delivery";

/// Answers the next calls of one operation with a crafted AWS error instead of
/// what the emulator said.
/// (service, operation, status, body, content-type)
type Fault = (String, String, u16, String, String);

#[derive(Debug, Default, Clone)]
struct Faults {
    queued: Arc<Mutex<VecDeque<Fault>>>,
}

impl Faults {
    fn push(&self, service: &str, operation: &str, status: u16, content_type: &str, body: &str) {
        self.queued.lock().unwrap_or_else(|e| e.into_inner()).push_back((
            service.into(),
            operation.into(),
            status,
            body.into(),
            content_type.into(),
        ));
    }
}

impl Intercept for Faults {
    fn name(&self) -> &'static str {
        "destination faults"
    }

    fn modify_before_deserialization(
        &self,
        context: &mut BeforeDeserializationInterceptorContextMut<'_>,
        _rc: &RuntimeComponents,
        cfg: &mut ConfigBag,
    ) -> Result<(), BoxError> {
        let Some(meta) = cfg.load::<Metadata>() else {
            return Ok(());
        };
        let mut queued = self.queued.lock().unwrap_or_else(|e| e.into_inner());
        let hit = queued
            .iter()
            .position(|(s, o, ..)| s.eq_ignore_ascii_case(meta.service()) && o == meta.name());
        if let Some(i) = hit
            && let Some((_, _, status, body, content_type)) = queued.remove(i)
        {
            let mut r = HttpResponse::new(status.try_into()?, SdkBody::from(body));
            r.headers_mut().insert("content-type", content_type);
            r.headers_mut().insert("x-amzn-requestid", "injected-request-1");
            *context.response_mut() = r;
        }
        Ok(())
    }
}

struct World {
    _emu: Emulator,
    sdk: aws_config::SdkConfig,
    clock: Arc<ManualClock>,
    queue: Arc<MemoryQueue>,
    api: Api,
    sender: Sender,
    faults: Faults,
    counter: RequestCounter,
    destinations: Arc<AwsDestinations>,
}

/// Real time: the credentials moto hands out expire an hour from now.
fn now() -> Timestamp {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    Timestamp::from_millis(ms)
}

impl World {
    async fn new() -> World {
        let emu = Emulator::start().await.expect("moto");
        let sdk = emu.sdk_config().await.expect("sdk config");
        let clock = Arc::new(ManualClock::new(now()));
        let fakes = MemoryPorts::new(clock.clone());
        let queue = fakes.queue.clone();
        let faults = Faults::default();
        let counter = RequestCounter::new(vec![]);
        let destinations = Arc::new(AwsDestinations::with_interceptors(
            &sdk,
            clock.clone(),
            vec![
                SharedInterceptor::new(faults.clone()),
                SharedInterceptor::new(counter.clone()),
            ],
        ));
        let ports = Ports {
            admission: Arc::new(courier_http::HttpAdmission::new(courier_http::AdmissionPolicy::LOCAL)),
            ..fakes.ports()
        };
        let api = ports.api(&Settings::default());
        // The sender runs in its own process: its own secrets and ids.
        let sender_ports = Ports {
            secrets: Arc::new(FixedSecrets::new(9)),
            random: Arc::new(SeededRandom::new(3)),
            ..ports
        };
        let settings = Settings {
            sender: SenderSettings {
                unwritten_min_age_ms: 0,
                ..SenderSettings::default()
            },
            ..Settings::default()
        };
        let outbound = fakes.outbound(Arc::new(courier_http::ReqwestSender::new(true)), destinations.clone());
        let sender = sender_ports.sender_with(&settings, &outbound, None, Arc::new(NoFaults));
        let tenant = Tenant {
            id: TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("tenant"),
            name: "t".into(),
        };
        courier_app::api::register_key(fakes.store.as_ref(), KEY, &tenant)
            .await
            .expect("key");
        World {
            _emu: emu,
            sdk,
            clock,
            queue,
            api,
            sender,
            faults,
            counter,
            destinations,
        }
    }

    async fn call(&self, method: &str, path: &str, body: Value) -> (u16, Value) {
        let r = self
            .api
            .handle(ApiRequest {
                method: method.into(),
                path: path.into(),
                query: None,
                headers: vec![("authorization".into(), format!("Bearer {KEY}"))],
                body: body.to_string().into_bytes(),
            })
            .await;
        (r.status, r.body_json())
    }

    /// Creates the endpoint; its id and signing secret.
    async fn endpoint(&self, destination: Value, policy: Value) -> (String, SigningSecret) {
        let (s, b) = self
            .call(
                "POST",
                "/v1/endpoints",
                json!({"destination": destination, "policy": policy}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
        let secret = SigningSecret::parse(b["secret"].as_str().unwrap_or_default()).expect("secret");
        (b["id"].as_str().unwrap_or_default().to_owned(), secret)
    }

    async fn event(&self, endpoint: &str, payload: Value) -> String {
        let (s, b) = self
            .call(
                "POST",
                "/v1/events",
                json!({"endpointId": endpoint, "type": "order.paid", "payload": payload}),
            )
            .await;
        assert_eq!(s, 202, "{b}");
        b["deliveries"][0]["id"].as_str().unwrap_or_default().to_owned()
    }

    /// Handles every visible message, jumping the clock to the next one until the
    /// queue is empty; the attempts made.
    async fn run(&self, max_steps: usize) -> Vec<courier_app::domain::model::Attempt> {
        let mut attempts = vec![];
        for _ in 0..max_steps {
            let cache = EndpointCache::default();
            for (m, _) in self.queue.drain_visible(self.clock.now()) {
                if let StepOutcome::Attempted { attempt, .. } = self.sender.handle(&m, &cache).await.expect("step") {
                    attempts.push(*attempt);
                }
            }
            match self.queue.next_visible_at() {
                Some(t) if t > self.clock.now() => self.clock.set(t),
                Some(_) => {}
                None => return attempts,
            }
        }
        attempts
    }

    fn sqs(&self) -> aws_sdk_sqs::Client {
        aws_sdk_sqs::Client::new(&self.sdk)
    }

    async fn queue_named(&self, name: &str, fifo: bool) -> (String, String) {
        let mut create = self.sqs().create_queue().queue_name(name);
        if fifo {
            create = create.attributes(aws_sdk_sqs::types::QueueAttributeName::FifoQueue, "true");
        }
        let url = create
            .send()
            .await
            .expect("queue")
            .queue_url()
            .unwrap_or_default()
            .to_owned();
        (url, format!("arn:aws:sqs:us-east-1:{ACCOUNT_ID}:{name}"))
    }

    /// Every message on the queue, with its attributes.
    async fn received(&self, url: &str) -> Vec<aws_sdk_sqs::types::Message> {
        let out = self
            .sqs()
            .receive_message()
            .queue_url(url)
            .max_number_of_messages(10)
            .message_attribute_names("All")
            .message_system_attribute_names(aws_sdk_sqs::types::MessageSystemAttributeName::All)
            .wait_time_seconds(1)
            .send()
            .await
            .expect("receive");
        out.messages().to_vec()
    }
}

fn attr(m: &aws_sdk_sqs::types::Message, name: &str) -> String {
    m.message_attributes()
        .and_then(|a| a.get(name))
        .and_then(|v| v.string_value())
        .unwrap_or_default()
        .to_owned()
}

/// A consumer's check of the attributes and the body they sign.
fn verify_attributes(secret: &SigningSecret, m: &aws_sdk_sqs::types::Message) {
    let ts: i64 = attr(m, "webhook-timestamp").parse().expect("timestamp");
    assert!(verify(
        secret,
        &attr(m, "webhook-id"),
        ts,
        m.body().unwrap_or_default().as_bytes(),
        &attr(m, "webhook-signature")
    ));
}

/// A consumer's check of a `courier` block: the signature covers `signedPayload`.
fn verify_block(secret: &SigningSecret, block: &Value) -> Value {
    let ts: i64 = block["timestamp"]
        .as_str()
        .unwrap_or_default()
        .parse()
        .expect("timestamp");
    let signed = block["signedPayload"].as_str().unwrap_or_default();
    assert!(verify(
        secret,
        block["webhookId"].as_str().unwrap_or_default(),
        ts,
        signed.as_bytes(),
        block["signature"].as_str().unwrap_or_default()
    ));
    serde_json::from_str(signed).expect("signed envelope")
}

#[tokio::test]
async fn sqs_standard_and_fifo_get_the_signed_envelope_with_attributes() {
    let w = World::new().await;
    let (url, _) = w.queue_named("orders", false).await;
    let (ep, secret) = w
        .endpoint(
            json!({"type": "sqs", "queueUrl": url, "roleArn": ROLE}),
            json!("greatwait"),
        )
        .await;
    assert_eq!(w.destinations.clients_built(), 0);
    let delivery = w.event(&ep, json!({"orderId": "o-1"})).await;
    let attempts = w.run(5).await;
    assert_eq!(attempts.len(), 1);
    assert_eq!(attempts[0].state, "succeeded");
    assert_eq!(w.destinations.clients_built(), 1);
    let got = w.received(&url).await;
    assert_eq!(got.len(), 1);
    verify_attributes(&secret, &got[0]);
    assert_eq!(attr(&got[0], "webhook-id"), delivery);
    assert_eq!(attr(&got[0], "webhook-attempt"), "1");
    assert_eq!(attr(&got[0], "type"), "order.paid");
    assert_eq!(attempts[0].message_id.as_deref(), got[0].message_id());
    let envelope: Value = serde_json::from_str(got[0].body().unwrap_or_default()).expect("json");
    assert_eq!(envelope["data"], json!({"orderId": "o-1"}));

    // FIFO: the group is the pointer's value, the deduplication id the attempt's.
    let (fifo, _) = w.queue_named("orders.fifo", true).await;
    let (ep, secret) = w
        .endpoint(
            json!({"type": "sqs", "queueUrl": fifo, "messageGroupPointer": "/data/orderId", "roleArn": ROLE}),
            json!("greatwait"),
        )
        .await;
    w.event(&ep, json!({"orderId": "o-2"})).await;
    let attempts = w.run(5).await;
    assert_eq!(attempts[0].state, "succeeded");
    let got = w.received(&fifo).await;
    assert_eq!(got.len(), 1);
    verify_attributes(&secret, &got[0]);
    let system = got[0].attributes().cloned().unwrap_or_default();
    assert_eq!(
        system
            .get(&aws_sdk_sqs::types::MessageSystemAttributeName::MessageGroupId)
            .map(String::as_str),
        Some("o-2")
    );
    assert_eq!(
        system
            .get(&aws_sdk_sqs::types::MessageSystemAttributeName::MessageDeduplicationId)
            .map(String::as_str),
        Some(attempts[0].id.as_str())
    );
    // Both endpoints share the tenant's external id and role: one AssumeRole.
    assert_eq!(w.counter.snapshot().op("STS", "AssumeRole").calls, 1);
}

#[tokio::test]
async fn eventbridge_detail_carries_the_courier_block_to_a_rule_target() {
    let w = World::new().await;
    let eb = aws_sdk_eventbridge::Client::new(&w.sdk);
    let bus = eb.create_event_bus().name("acme").send().await.expect("bus");
    let bus_arn = bus.event_bus_arn().unwrap_or_default().to_owned();
    let (url, queue_arn) = w.queue_named("from-bus", false).await;
    eb.put_rule()
        .name("courier")
        .event_bus_name("acme")
        .event_pattern(r#"{"source": ["courier.test"]}"#)
        .send()
        .await
        .expect("rule");
    eb.put_targets()
        .rule("courier")
        .event_bus_name("acme")
        .targets(
            aws_sdk_eventbridge::types::Target::builder()
                .id("q")
                .arn(queue_arn)
                .build()
                .expect("target"),
        )
        .send()
        .await
        .expect("targets");
    let (ep, secret) = w
        .endpoint(
            json!({"type": "eventbridge", "eventBusArn": bus_arn, "source": "courier.test", "roleArn": ROLE}),
            json!("greatwait"),
        )
        .await;
    let delivery = w.event(&ep, json!({"orderId": "o-3"})).await;
    let attempts = w.run(5).await;
    assert_eq!(attempts[0].state, "succeeded", "{attempts:?}");
    assert!(attempts[0].message_id.is_some());
    let got = w.received(&url).await;
    assert_eq!(got.len(), 1);
    let event: Value = serde_json::from_str(got[0].body().unwrap_or_default()).expect("event");
    assert_eq!(event["detail-type"], "order.paid");
    assert_eq!(event["source"], "courier.test");
    let block = &event["detail"]["courier"];
    assert_eq!(block["webhookId"], json!(delivery));
    assert_eq!(block["attempt"], 1);
    let signed = verify_block(&secret, block);
    assert_eq!(signed["data"], json!({"orderId": "o-3"}));
    assert_eq!(event["detail"]["data"], json!({"orderId": "o-3"}));
}

#[tokio::test]
async fn sns_kinesis_and_s3_deliver_what_a_consumer_can_verify() {
    let w = World::new().await;
    // SNS, raw delivery to an SQS subscription: the attributes stay attributes.
    let sns = aws_sdk_sns::Client::new(&w.sdk);
    let topic = sns.create_topic().name("orders").send().await.expect("topic");
    let topic_arn = topic.topic_arn().unwrap_or_default().to_owned();
    let (url, queue_arn) = w.queue_named("from-topic", false).await;
    sns.subscribe()
        .topic_arn(&topic_arn)
        .protocol("sqs")
        .endpoint(queue_arn)
        .attributes("RawMessageDelivery", "true")
        .send()
        .await
        .expect("subscribe");
    let (ep, secret) = w
        .endpoint(
            json!({"type": "sns", "topicArn": topic_arn, "roleArn": ROLE}),
            json!("greatwait"),
        )
        .await;
    w.event(&ep, json!({"n": 1})).await;
    let attempts = w.run(5).await;
    assert_eq!(attempts[0].state, "succeeded", "{attempts:?}");
    let got = w.received(&url).await;
    assert_eq!(got.len(), 1);
    verify_attributes(&secret, &got[0]);

    // Kinesis: the record is the envelope with its courier block, keyed by the pointer.
    let kinesis = aws_sdk_kinesis::Client::new(&w.sdk);
    kinesis
        .create_stream()
        .stream_name("events")
        .shard_count(1)
        .send()
        .await
        .expect("stream");
    let stream_arn = format!("arn:aws:kinesis:us-east-1:{ACCOUNT_ID}:stream/events");
    let (ep, secret) = w
        .endpoint(
            json!({"type": "kinesis", "streamArn": stream_arn, "partitionKeyPointer": "/data/n", "roleArn": ROLE}),
            json!("greatwait"),
        )
        .await;
    w.event(&ep, json!({"n": 2})).await;
    let attempts = w.run(5).await;
    assert_eq!(attempts[0].state, "succeeded", "{attempts:?}");
    let shards = kinesis
        .list_shards()
        .stream_name("events")
        .send()
        .await
        .expect("shards");
    let shard = shards.shards()[0].shard_id().to_owned();
    let iterator = kinesis
        .get_shard_iterator()
        .stream_name("events")
        .shard_id(shard)
        .shard_iterator_type(aws_sdk_kinesis::types::ShardIteratorType::TrimHorizon)
        .send()
        .await
        .expect("iterator");
    let records = kinesis
        .get_records()
        .shard_iterator(iterator.shard_iterator().unwrap_or_default())
        .send()
        .await
        .expect("records");
    assert_eq!(records.records().len(), 1);
    let record = &records.records()[0];
    assert_eq!(record.partition_key(), Some("2"));
    assert_eq!(attempts[0].message_id.as_deref(), Some(record.sequence_number()));
    let data: Value = serde_json::from_slice(record.data().as_ref()).expect("record json");
    let signed = verify_block(&secret, &data["courier"]);
    assert_eq!(signed["data"], json!({"n": 2}));

    // S3: one object per event, the attributes as its metadata.
    let s3 = aws_sdk_s3::Client::from_conf(aws_sdk_s3::config::Builder::from(&w.sdk).force_path_style(true).build());
    s3.create_bucket().bucket("acme-events").send().await.expect("bucket");
    let (ep, secret) = w
        .endpoint(
            json!({"type": "s3", "bucket": "acme-events", "prefix": "courier/", "roleArn": ROLE}),
            json!("greatwait"),
        )
        .await;
    w.event(&ep, json!({"n": 3})).await;
    let attempts = w.run(5).await;
    assert_eq!(attempts[0].state, "succeeded", "{attempts:?}");
    let listed = s3
        .list_objects_v2()
        .bucket("acme-events")
        .prefix("courier/")
        .send()
        .await
        .expect("list");
    assert_eq!(listed.contents().len(), 1);
    let key = listed.contents()[0].key().unwrap_or_default().to_owned();
    assert!(key.ends_with(".json") && key.matches('/').count() == 4, "{key}");
    let object = s3
        .get_object()
        .bucket("acme-events")
        .key(&key)
        .send()
        .await
        .expect("get");
    let meta = object.metadata().cloned().unwrap_or_default();
    let body = object.body.collect().await.expect("body").into_bytes();
    let ts: i64 = meta
        .get("webhook-timestamp")
        .map_or("0", String::as_str)
        .parse()
        .expect("ts");
    assert!(verify(
        &secret,
        meta.get("webhook-id").map_or("", String::as_str),
        ts,
        &body,
        meta.get("webhook-signature").map_or("", String::as_str)
    ));
}

const STS_DENIED: &str = r#"<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>not authorized to perform: sts:AssumeRole</Message></Error><RequestId>sts-request-7</RequestId></ErrorResponse>"#;

#[tokio::test]
async fn a_refused_assume_role_settles_under_tanitar_as_a_destination_refusal() {
    let w = World::new().await;
    let (url, _) = w.queue_named("denied", false).await;
    let (ep, _) = w
        .endpoint(
            json!({"type": "sqs", "queueUrl": url, "roleArn": ROLE}),
            json!({"base": "tanitar", "retryable4xx": [429]}),
        )
        .await;
    w.faults.push("sts", "AssumeRole", 403, "text/xml", STS_DENIED);
    w.event(&ep, json!({"n": 1})).await;
    let attempts = w.run(5).await;
    assert_eq!(attempts.len(), 1, "{attempts:?}");
    let a = &attempts[0];
    assert_eq!(a.response_status, Some(403));
    assert_eq!(a.diagnostic, "destination_refused");
    assert_eq!(a.remediation, "review_endpoint");
    assert_eq!(a.state, "terminal_failure");
    let e = a.destination_error.clone().expect("error recorded");
    assert_eq!(
        (e.code.as_str(), e.request_id.as_deref()),
        ("AccessDenied", Some("injected-request-1"))
    );
    assert!(w.received(&url).await.is_empty());
}

#[tokio::test]
async fn throttling_is_retried_by_the_policy_and_credentials_are_reused_until_near_expiry() {
    let w = World::new().await;
    let (url, _) = w.queue_named("busy", false).await;
    let (ep, _) = w
        .endpoint(
            json!({"type": "sqs", "queueUrl": url, "roleArn": ROLE}),
            json!("greatwait"),
        )
        .await;
    w.faults.push(
        "sqs",
        "SendMessage",
        400,
        "application/x-amz-json-1.0",
        r#"{"__type": "com.amazonaws.sqs#ThrottlingException", "message": "Rate exceeded"}"#,
    );
    w.event(&ep, json!({"n": 1})).await;
    let attempts = w.run(10).await;
    let seen: Vec<(&str, Option<u16>, &str)> = attempts
        .iter()
        .map(|a| (a.state.as_ref(), a.response_status, a.diagnostic.as_ref()))
        .collect();
    assert_eq!(
        seen,
        vec![
            ("retryable_failure", Some(429), "destination_throttled"),
            ("succeeded", Some(200), "delivered"),
        ]
    );
    let e = attempts[0].destination_error.clone().expect("error");
    assert_eq!(e.code, "ThrottlingException");
    assert_eq!(e.request_id.as_deref(), Some("injected-request-1"));
    // The fault replaced the answer after moto had queued the message, so the
    // queue holds both attempts: one webhook-id, attempts 1 and 2, the copy a
    // consumer drops by its webhook-id.
    let got = w.received(&url).await;
    let mut seen: Vec<(String, String)> = got
        .iter()
        .map(|m| (attr(m, "webhook-id"), attr(m, "webhook-attempt")))
        .collect();
    seen.sort();
    assert_eq!(seen.len(), 2);
    assert_eq!(seen[0].0, seen[1].0);
    assert_eq!((seen[0].1.as_str(), seen[1].1.as_str()), ("1", "2"));
    // One AssumeRole for both attempts; past the renewal point, another.
    assert_eq!(w.counter.snapshot().op("STS", "AssumeRole").calls, 1);
    w.clock.advance_secs(3600 - 4 * 60);
    w.event(&ep, json!({"n": 2})).await;
    assert_eq!(w.run(5).await[0].state, "succeeded");
    assert_eq!(w.counter.snapshot().op("STS", "AssumeRole").calls, 2);
}

/// Attempts that all find no credentials for a role at once (a busy endpoint's first
/// batch) make one AssumeRole between them, not one each.
#[tokio::test]
async fn concurrent_first_uses_of_a_role_call_sts_once() {
    use courier_aws::destinations::credentials::RoleCredentials;
    let w = World::new().await;
    let counter = RequestCounter::new(vec![]);
    let (sdk, interceptor) = (w.sdk.clone(), SharedInterceptor::new(counter.clone()));
    let sts = courier_aws::lazy_client::LazyClient::new(move || {
        let mut b = aws_sdk_sts::config::Builder::from(&sdk);
        b.push_interceptor(interceptor.clone());
        aws_sdk_sts::Client::from_conf(b.build())
    });
    let roles = RoleCredentials::new(sts, w.clock.clone());
    let role = format!("arn:aws:iam::{ACCOUNT_ID}:role/courier-destination");
    let results = futures_util::future::join_all((0..8).map(|_| roles.credentials_for(&role, "courier-ext"))).await;
    assert!(results.iter().all(Result::is_ok), "{results:?}");
    let keys: std::collections::BTreeSet<String> = results
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|c| c.access_key_id().to_owned())
        .collect();
    assert_eq!(keys.len(), 1, "every attempt got the one fetch's credentials");
    assert_eq!(counter.snapshot().op("STS", "AssumeRole").calls, 1);
}
