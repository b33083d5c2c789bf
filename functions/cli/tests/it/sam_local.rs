//! The `sam local` material at the repository root: every sample under `events/`
//! parses as the Lambda event type its function receives (the API Gateway HTTP API
//! payload lambda_http reads, SQS batches for the sender), every queue message in
//! them is accepted by the sender's real message decoding and comes from the queue
//! the env file names, and `env.json` names exactly the variables the functions read.

use aws_lambda_events::event::sqs::SqsEvent;
use courier_app::config::{ALL_ENV, Config};
use courier_app::domain::delivery_message::{DeliveryMessage, Trigger};
use courier_app::domain::queue_message::Message;
use courier_sender::invocation::{Source, Sources};
use lambda_http::request::LambdaRequest;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The env file's variables (SAM's `Parameters` section applies to every function).
fn env_file() -> HashMap<String, String> {
    let v: Value = serde_json::from_str(&read(&root().join("env.json"))).expect("env.json is JSON");
    let top: Vec<&String> = v.as_object().expect("an object").keys().collect();
    assert_eq!(top, ["Parameters"], "one section for all functions");
    v["Parameters"]
        .as_object()
        .expect("Parameters is an object")
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_str().unwrap_or_else(|| panic!("{k} must be a string")).to_owned(),
            )
        })
        .collect()
}

fn samples() -> Vec<(String, String)> {
    let dir = root().join("events");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            let path = e.expect("dir entry").path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .expect("utf-8 name")
                .to_owned();
            (name, read(&path))
        })
        .collect();
    out.sort();
    out
}

fn sqs(name: &str, text: &str) -> SqsEvent {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{name} is not an SQS event: {e}"))
}

#[test]
fn env_file_names_exactly_the_variables_the_functions_read() {
    let vars = env_file();
    let named: BTreeSet<&str> = vars.keys().map(String::as_str).collect();
    // The configuration's variables, and the endpoint override that sends the SDK's
    // calls to LocalStack.
    let read: BTreeSet<&str> = ALL_ENV
        .into_iter()
        .chain([courier_app::config::ENV_AWS_ENDPOINT_URL])
        .collect();
    assert_eq!(named, read);
    assert_eq!(
        vars.get(courier_app::config::ENV_AWS_ENDPOINT_URL).map(String::as_str),
        Some("http://localstack:4566")
    );
    let config = Config::from_map(&vars).unwrap_or_else(|e| panic!("env.json: {e}"));
    assert_eq!(config.table, "courier-local-table");
    assert!(config.allow_http_targets && config.allow_private_targets);
    assert_eq!(config.trusted_ca_pem, None);
}

#[test]
fn every_sample_event_parses_as_its_lambda_event_type() {
    let samples = samples();
    let names: Vec<&str> = samples.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "api-get-healthz.json",
            "api-post-event.json",
            "scheduler-fired-message.json",
            "sqs-delivery-batch.json"
        ],
        "a new sample needs its check here"
    );
    let env = env_file();
    let queue_arn = env.get("COURIER_QUEUE_ARN").expect("queue arn");
    let var = |name: &str| env.get(name).map(String::as_str);
    let sources = Sources::new(
        var("COURIER_DLQ_URL"),
        var("COURIER_SCHEDULE_DLQ_ARN"),
        var("COURIER_SLOW_QUEUE_URL"),
    );
    for (name, text) in &samples {
        if name.starts_with("api-") {
            let req: LambdaRequest =
                serde_json::from_str(text).unwrap_or_else(|e| panic!("{name} is not an API Gateway request: {e}"));
            assert!(
                matches!(req, LambdaRequest::ApiGatewayV2(_)),
                "{name}: an HTTP API (v2) payload"
            );
            let http: lambda_http::Request = req.into();
            match name.as_str() {
                "api-get-healthz.json" => {
                    assert_eq!((http.method().as_str(), http.uri().path()), ("GET", "/healthz"));
                }
                _ => {
                    assert_eq!((http.method().as_str(), http.uri().path()), ("POST", "/v1/events"));
                    assert_eq!(http.headers()["authorization"], "Bearer ck_dev_example");
                    let body: Value = serde_json::from_slice(http.body().as_ref()).expect("the body is JSON");
                    assert_eq!(body["payload"]["orderId"], 1001);
                }
            }
        } else {
            let event = sqs(name, text);
            assert!(!event.records.is_empty(), "{name}: at least one record");
            assert!(
                event
                    .records
                    .iter()
                    .all(|r| r.event_source_arn.as_deref() == Some(queue_arn.as_str())),
                "{name}: from the delivery queue env.json names"
            );
            assert_eq!(
                sources.source_of(&event),
                Source::Deliveries,
                "{name}: the sender sends rather than dead-letters"
            );
        }
    }
}

#[test]
fn queue_messages_in_the_samples_are_accepted_by_the_sender() {
    let samples: HashMap<String, String> = samples().into_iter().collect();
    let decode = |name: &str| -> Vec<DeliveryMessage> {
        sqs(name, &samples[name])
            .records
            .iter()
            .map(|r| {
                Message::parse(r.body.as_deref().unwrap_or_default())
                    .and_then(Message::into_delivery)
                    .unwrap_or_else(|e| panic!("{name}: {e}"))
            })
            .collect()
    };
    let batch = decode("sqs-delivery-batch.json");
    let steps: Vec<(u32, Trigger)> = batch.iter().map(|m| (m.attempt, m.trigger)).collect();
    assert_eq!(steps, [(1, Trigger::Initial), (2, Trigger::Retry)]);
    let fired = decode("scheduler-fired-message.json");
    assert_eq!(fired.len(), 1);
    assert_eq!((fired[0].attempt, fired[0].trigger), (3, Trigger::Retry));
    // What the timer writes is what the sample holds, byte for byte.
    let body = sqs("scheduler-fired-message.json", &samples["scheduler-fired-message.json"]).records[0]
        .body
        .clone()
        .unwrap_or_default();
    assert_eq!(fired[0].to_json(), body);
}
