use super::*;
use serde_json::json;

const ROLE: &str = "arn:aws:iam::111122223333:role/courier-delivery";

fn parse(v: Value) -> Result<Destination, DestinationError> {
    Destination::from_value(&v, &RolePattern::Any)
}

fn field_of(v: Value) -> String {
    match parse(v) {
        Err(e) => e.field,
        Ok(d) => panic!("accepted {d:?}"),
    }
}

#[test]
fn each_type_parses_into_its_stored_form() {
    let sqs = parse(
        json!({"type": "sqs", "queueUrl": "https://sqs.eu-west-1.amazonaws.com/111122223333/orders.fifo",
        "messageGroupPointer": "/data/orderId", "roleArn": ROLE}),
    )
    .expect("sqs");
    assert_eq!(sqs.kind(), Kind::Sqs);
    assert!(sqs.is_fifo());
    assert_eq!(sqs.region_or("us-east-1"), "eu-west-1");
    assert_eq!(sqs.key_pointer(), Some("/data/orderId"));
    let eb = parse(
        json!({"type": "eventbridge", "eventBusArn": "arn:aws:events:eu-central-1:111122223333:event-bus/default",
        "detailType": "order", "roleArn": ROLE}),
    )
    .expect("eventbridge");
    assert_eq!(eb.region_or("us-east-1"), "eu-central-1");
    let s3 = parse(json!({"type": "s3", "bucket": "acme-events", "prefix": "courier/", "roleArn": ROLE})).expect("s3");
    assert_eq!(s3.region_or("us-east-1"), "us-east-1");
    assert_eq!(s3.target_text(), "s3://acme-events/courier/");
    // Stored and read back unchanged, with the type tag beside the role.
    let stored = serde_json::to_value(&sqs).expect("json");
    assert_eq!(
        stored,
        json!({"type": "sqs", "queueUrl": "https://sqs.eu-west-1.amazonaws.com/111122223333/orders.fifo",
            "messageGroupPointer": "/data/orderId", "roleArn": ROLE})
    );
    assert_eq!(serde_json::from_value::<Destination>(stored).expect("read"), sqs);
    let sns = parse(json!({"type": "sns", "topicArn": "arn:aws:sns:us-west-2:111122223333:orders", "roleArn": ROLE, "region": "us-west-2"}))
        .expect("sns");
    assert_eq!(sns.region.as_deref(), Some("us-west-2"));
    let kinesis = parse(json!({"type": "kinesis", "streamArn": "arn:aws:kinesis:us-east-2:111122223333:stream/orders", "roleArn": ROLE}))
        .expect("kinesis");
    assert_eq!(kinesis.kind().wire_name(), "kinesis");
}

#[test]
fn a_loopback_queue_url_is_an_emulators_and_takes_the_deployment_region() {
    let d = parse(json!({"type": "sqs", "queueUrl": "http://127.0.0.1:5000/123456789012/q", "roleArn": ROLE}))
        .expect("local");
    assert_eq!(d.region_or("us-east-1"), "us-east-1");
}

#[test]
fn bad_destinations_name_their_field() {
    assert_eq!(field_of(json!("sqs")), "destination");
    assert_eq!(field_of(json!({"queueUrl": "x"})), "destination.type");
    assert_eq!(field_of(json!({"type": "pubsub", "roleArn": ROLE})), "destination.type");
    assert_eq!(
        field_of(json!({"type": "sqs", "queueUrl": "https://example.com/111122223333/q", "roleArn": ROLE})),
        "destination.queueUrl"
    );
    assert_eq!(
        field_of(
            json!({"type": "sqs", "queueUrl": "http://sqs.eu-west-1.amazonaws.com/111122223333/q", "roleArn": ROLE})
        ),
        "destination.queueUrl"
    );
    assert_eq!(
        field_of(json!({"type": "sns", "topicArn": "arn:aws:sqs:us-east-1:111122223333:q", "roleArn": ROLE})),
        "destination.topicArn"
    );
    assert_eq!(
        field_of(
            json!({"type": "eventbridge", "eventBusArn": "arn:aws:events:us-east-1:1111:event-bus/x", "roleArn": ROLE})
        ),
        "destination.eventBusArn"
    );
    assert_eq!(
        field_of(
            json!({"type": "eventbridge", "eventBusArn": "arn:aws:events:us-east-1:111122223333:rule/x", "roleArn": ROLE})
        ),
        "destination.eventBusArn"
    );
    assert_eq!(
        field_of(
            json!({"type": "eventbridge", "eventBusArn": "arn:aws:events:us-east-1:111122223333:event-bus/x",
            "source": "aws.s3", "roleArn": ROLE})
        ),
        "destination.source"
    );
    assert_eq!(
        field_of(
            json!({"type": "kinesis", "streamArn": "arn:aws:kinesis:nowhere:111122223333:stream/s", "roleArn": ROLE})
        ),
        "destination.streamArn"
    );
    assert_eq!(
        field_of(
            json!({"type": "kinesis", "streamArn": "arn:aws:kinesis:us-east-1:111122223333:stream/s",
            "partitionKeyPointer": "data", "roleArn": ROLE})
        ),
        "destination.partitionKeyPointer"
    );
    assert_eq!(
        field_of(json!({"type": "s3", "bucket": "Bad_Bucket", "roleArn": ROLE})),
        "destination.bucket"
    );
    assert_eq!(
        field_of(json!({"type": "s3", "bucket": "ok-bucket"})),
        "destination.roleArn"
    );
    assert_eq!(
        field_of(json!({"type": "s3", "bucket": "ok-bucket", "roleArn": "arn:aws:iam::111122223333:user/bob"})),
        "destination.roleArn"
    );
    assert_eq!(
        field_of(json!({"type": "s3", "bucket": "ok-bucket", "roleArn": ROLE, "region": "Europe"})),
        "destination.region"
    );
    assert_eq!(
        field_of(
            json!({"type": "sns", "topicArn": "arn:aws:sns:us-west-2:111122223333:t", "roleArn": ROLE, "region": "eu-west-1"})
        ),
        "destination.region"
    );
    assert_eq!(
        field_of(json!({"type": "s3", "bucket": "ok-bucket", "queueUrl": "x", "roleArn": ROLE})),
        "destination.queueUrl"
    );
}

#[test]
fn the_role_must_match_the_deployments_pattern() {
    let v = json!({"type": "s3", "bucket": "ok-bucket", "roleArn": ROLE});
    let allowed = RolePattern::from_setting(Some("arn:aws:iam::*:role/courier-*"));
    assert!(Destination::from_value(&v, &allowed).is_ok());
    let narrow = RolePattern::from_setting(Some("arn:aws:iam::999999999999:role/*"));
    let refused = Destination::from_value(&v, &narrow).expect_err("outside");
    assert_eq!(refused.field, "destination.roleArn");
    assert_eq!(
        refused.message,
        "is outside the roles this deployment may assume (arn:aws:iam::999999999999:role/*)"
    );
    let none = Destination::from_value(&v, &RolePattern::from_setting(Some(" "))).expect_err("none");
    assert_eq!(none.field, "destination.roleArn");
    assert!(RolePattern::Glob("a?c*".into()).allows("abcdef"));
    assert!(!RolePattern::Glob("a?c*".into()).allows("ac"));
    assert!(RolePattern::Glob("*x*y".into()).allows("zzxzzy"));
    assert!(!RolePattern::Glob("*x*y".into()).allows("zzxzzyz"));
}

#[test]
fn external_ids_differ_per_application_and_tenant_and_never_change() {
    let a = external_id("ten_1", Some("app_1"));
    assert_eq!(a, external_id("ten_1", Some("app_1")));
    assert_eq!(a.len(), "courier-".len() + 32);
    assert_ne!(a, external_id("ten_1", Some("app_2")));
    assert_ne!(a, external_id("ten_2", Some("app_1")));
    assert_ne!(external_id("ten_1", None), a);
}

#[test]
fn message_keys_follow_the_pointer_and_fall_back_to_the_default() {
    let env = &json!({"id": "evt_1", "data": {"orderId": "o-42", "n": 7, "long": "é"}});
    assert_eq!(message_key(env, Some("/data/orderId"), "ep_1", 128), "o-42");
    assert_eq!(message_key(env, Some("/data/n"), "ep_1", 128), "7");
    assert_eq!(message_key(env, Some("/data/missing"), "ep_1", 128), "ep_1");
    assert_eq!(message_key(env, None, "ep_1", 128), "ep_1");
    // A value the services would refuse is hashed, the same each time.
    let hashed = message_key(env, Some("/data/long"), "ep_1", 128);
    assert_eq!(hashed.len(), 64);
    assert_eq!(hashed, message_key(env, Some("/data/long"), "ep_1", 128));
}

#[test]
fn the_courier_block_carries_the_exact_signed_bytes() {
    let signed = Signed {
        webhook_id: "msg_1",
        timestamp: "1800000000",
        signature: "v1,abc",
        attempt: 2,
        event_type: Some("order.paid"),
    };
    let env = r#"{"id":"evt_1", "data":{"a":1}}"#;
    let wrapped: Value = serde_json::from_str(&signed.with_courier_block(env).expect("object")).expect("json");
    assert_eq!(
        wrapped,
        json!({"id": "evt_1", "data": {"a": 1}, "courier": {"webhookId": "msg_1", "timestamp": "1800000000",
            "signature": "v1,abc", "attempt": 2, "signedPayload": env}})
    );
    assert_eq!(signed.with_courier_block("[1]"), None);
    assert_eq!(
        signed.attributes(),
        vec![
            ("webhook-id", "msg_1".to_owned()),
            ("webhook-timestamp", "1800000000".to_owned()),
            ("webhook-signature", "v1,abc".to_owned()),
            ("webhook-attempt", "2".to_owned()),
            ("type", "order.paid".to_owned()),
        ]
    );
}

#[test]
fn aws_answers_map_onto_the_statuses_the_policies_judge() {
    assert_eq!(status_for("ThrottlingException", Some(400)), 429);
    assert_eq!(status_for("AWS.SimpleQueueService.RequestThrottled", Some(400)), 429);
    assert_eq!(status_for("ProvisionedThroughputExceededException", Some(400)), 429);
    assert_eq!(status_for("AccessDenied", Some(403)), 403);
    assert_eq!(status_for("AuthorizationError", Some(403)), 403);
    assert_eq!(status_for("AWS.SimpleQueueService.NonExistentQueue", Some(400)), 410);
    assert_eq!(status_for("NotFound", Some(404)), 410);
    assert_eq!(status_for("ResourceNotFoundException", Some(400)), 410);
    assert_eq!(status_for("NoSuchBucket", Some(404)), 410);
    assert_eq!(status_for("RequestEntityTooLarge", Some(400)), 413);
    assert_eq!(status_for("InternalError", Some(500)), 503);
    assert_eq!(status_for("ServiceUnavailable", None), 503);
    assert_eq!(status_for("InvalidParameterValue", Some(400)), 400);
}

#[test]
fn each_preset_judges_a_destination_answer_as_the_status_it_means() {
    use crate::classify::{AttemptState, Diagnostic, Remediation};
    use crate::decide::SettleReason;
    use crate::outcome::{AttemptOutcome, DestinationAnswer, ResponseSummary};
    use crate::policy::Policy;
    let answer = |status: u16, code: &str| {
        AttemptOutcome::Response(ResponseSummary::from_destination(
            status,
            DestinationAnswer {
                code: Some(code.into()),
                request_id: Some("req-1".into()),
                message_id: None,
            },
        ))
    };
    let tanitar = Policy::preset("tanitar").expect("tanitar");
    let gone = tanitar.classify(&answer(410, "AWS.SimpleQueueService.NonExistentQueue"), false);
    assert_eq!(gone.diagnostic, Diagnostic::DestinationGone);
    assert_eq!(gone.remediation, Remediation::ReviewEndpoint);
    assert_eq!(gone.settles, Some(SettleReason::EndpointGone));
    let smartchat = Policy::preset("smartchat").expect("smartchat");
    let gone = smartchat.classify(&answer(410, "ResourceNotFoundException"), false);
    assert!(gone.disables_endpoint);
    assert_eq!(gone.diagnostic, Diagnostic::DestinationGone);
    let greatwait = Policy::preset("greatwait").expect("greatwait");
    let denied = greatwait.classify(&answer(403, "AccessDenied"), false);
    assert_eq!(
        (denied.diagnostic, denied.remediation),
        (Diagnostic::DestinationRefused, Remediation::ReviewEndpoint)
    );
    let throttled = greatwait.classify(&answer(429, "ThrottlingException"), false);
    assert_eq!(throttled.state, AttemptState::RetryableFailure);
    assert_eq!(throttled.diagnostic, Diagnostic::DestinationThrottled);
    assert!(!throttled.counts_toward_receiver_failures);
    let failed = greatwait.classify(&answer(503, "InternalError"), false);
    assert_eq!(failed.diagnostic, Diagnostic::DestinationUnavailable);
    // A success is delivered, even on an endpoint with a long-running allowance.
    let ok = AttemptOutcome::Response(ResponseSummary::from_destination(202, DestinationAnswer::default()));
    assert_eq!(greatwait.classify(&ok, true).state, AttemptState::Succeeded);
}
