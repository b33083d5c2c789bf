//! The sender function's real binary, run as Lambda runs it: against a stub of the
//! Runtime API on 127.0.0.1, with the environment Lambda gives it and no AWS
//! reachable. Unreadable queue messages need no storage, so they show the runtime,
//! the event's decoding and the partial-batch response end to end.

use courier_aws::runtime_stub::RuntimeApiStub;
use serde_json::{Value, json};
use std::time::Duration;

fn sqs_event(records: &[(&str, &str)]) -> String {
    sqs_event_from("arn:aws:sqs:us-east-1:123456789012:courier-stub-deliveries", records)
}

fn sqs_event_from(queue_arn: &str, records: &[(&str, &str)]) -> String {
    let records: Vec<Value> = records
        .iter()
        .map(|(id, body)| {
            json!({
                "messageId": id,
                "receiptHandle": "rh",
                "body": body,
                "attributes": {"ApproximateReceiveCount": "1"},
                "messageAttributes": {},
                "md5OfBody": "",
                "eventSource": "aws:sqs",
                "eventSourceARN": queue_arn,
                "awsRegion": "us-east-1"
            })
        })
        .collect();
    json!({ "Records": records }).to_string()
}

#[test]
fn unreadable_messages_come_back_as_batch_item_failures() {
    let stub = RuntimeApiStub::start(vec![
        sqs_event(&[("m-1", "not json"), ("m-2", r#"{"deliveryId": 7}"#)]),
        sqs_event(&[("m-3", "")]),
    ])
    .expect("stub");
    let _running = stub
        .run_function(env!("CARGO_BIN_EXE_courier-sender"))
        .expect("spawn courier-sender");
    let posted = stub.wait_posted(2, Duration::from_secs(20));
    let answers: Vec<(&str, Value)> = posted
        .iter()
        .map(|p| (p.path.as_str(), serde_json::from_slice(&p.body).unwrap_or(Value::Null)))
        .collect();
    assert_eq!(
        answers,
        [
            (
                "/2018-06-01/runtime/invocation/req-1/response",
                json!({"batchItemFailures": [{"itemIdentifier": "m-1"}, {"itemIdentifier": "m-2"}]})
            ),
            (
                "/2018-06-01/runtime/invocation/req-2/response",
                json!({"batchItemFailures": [{"itemIdentifier": "m-3"}]})
            ),
        ]
    );
}

/// The Scheduler dead-letter queue's batches go to their own handler (an unreadable
/// message there fails alone), and an invocation that is neither a batch nor a known
/// task is refused as an invocation error rather than handled as anything.
#[test]
fn schedule_dead_letters_and_unknown_invocations_are_told_apart() {
    let stub = RuntimeApiStub::start(vec![
        sqs_event_from(
            "arn:aws:sqs:us-east-1:123456789012:courier-stub-schedule-dlq",
            &[("s-1", "not json")],
        ),
        json!({"task": "drop_table"}).to_string(),
    ])
    .expect("stub");
    let _running = stub
        .run_function(env!("CARGO_BIN_EXE_courier-sender"))
        .expect("spawn courier-sender");
    let posted = stub.wait_posted(2, Duration::from_secs(20));
    let paths: Vec<&str> = posted.iter().map(|p| p.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/2018-06-01/runtime/invocation/req-1/response",
            "/2018-06-01/runtime/invocation/req-2/error",
        ]
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&posted[0].body).unwrap_or(Value::Null),
        json!({"batchItemFailures": [{"itemIdentifier": "s-1"}]})
    );
}
