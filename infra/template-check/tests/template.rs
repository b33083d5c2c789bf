//! template.yaml against the code: environment, IAM, queue, alarms, build wiring
//! (static), and the table against what functions/aws's bootstrap really creates (on
//! the moto emulator). The negative tests break one thing in a copy of the template
//! and check that the checker names it, so a passing run means something.

use courier_template_check::checks::{self, Required};
use courier_template_check::scan::{self, ScanError, SourceFile};
use courier_template_check::{FunctionCode, Inputs, TableShape, Template};
use std::path::PathBuf;

const FUNCTIONS: &[(&str, &str, &str)] = &[
    ("ApiFunction", "courier-api", "functions/api"),
    ("SenderFunction", "courier-sender", "functions/sender"),
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
}

fn template_text() -> String {
    read("template.yaml")
}

fn sources(rel: &str) -> Vec<SourceFile> {
    checks::read_sources(&root().join(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
}

fn functions() -> Vec<FunctionCode> {
    FUNCTIONS
        .iter()
        .map(|(id, bin, dir)| FunctionCode {
            logical_id: (*id).to_owned(),
            binary: (*bin).to_owned(),
            dir: (*dir).to_owned(),
            sources: sources(&format!("{dir}/src")),
        })
        .collect()
}

fn scan_aws() -> (Vec<SourceFile>, Vec<courier_template_check::SdkCall>) {
    let files = sources("functions/aws/src");
    match scan::scan(&files) {
        Ok(calls) => (files, calls),
        Err(errors) => panic!(
            "functions/aws/src has SDK calls the scan cannot map to IAM actions:\n{}",
            errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n")
        ),
    }
}

/// Everything the checks read, loaded from the workspace; tests may alter a part.
struct Fixture {
    template: Template,
    build_mk: String,
    aws_sources: Vec<SourceFile>,
    app_sources: Vec<SourceFile>,
    calls: Vec<courier_template_check::SdkCall>,
    functions: Vec<FunctionCode>,
}

impl Fixture {
    fn load(template_text: &str) -> Fixture {
        let (aws_sources, calls) = scan_aws();
        Fixture {
            template: Template::parse(template_text).expect("template parses"),
            build_mk: read("infra/build.mk"),
            aws_sources,
            app_sources: sources("functions/app/src"),
            calls,
            functions: functions(),
        }
    }

    fn inputs(&self) -> Inputs<'_> {
        Inputs {
            template: &self.template,
            build_mk: &self.build_mk,
            all_env: &courier_app::config::ALL_ENV,
            aws_sources: &self.aws_sources,
            app_sources: &self.app_sources,
            calls: &self.calls,
            functions: &self.functions,
            max_receive_count: courier_aws::bootstrap::MAX_RECEIVE_COUNT,
            dlq_retention_seconds: courier_aws::bootstrap::DLQ_RETENTION_SECONDS,
        }
    }
}

/// Runs every static check on `text` as the template.
fn check(text: &str) -> (Vec<String>, Required) {
    checks::run(&Fixture::load(text).inputs())
}

fn assert_reported(findings: &[String], needle: &str) {
    assert!(
        findings.iter().any(|f| f.contains(needle)),
        "expected a finding containing {needle:?}, got:\n{}",
        findings.join("\n")
    );
}

/// Removes the first line whose trimmed text is `line`.
fn without_line(text: &str, line: &str) -> String {
    let mut removed = false;
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            if !removed && l.trim() == line {
                removed = true;
                return false;
            }
            true
        })
        .collect();
    assert!(removed, "template has no line {line:?}");
    kept.join("\n") + "\n"
}

fn replaced(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "template has no {from:?}");
    text.replacen(from, to, 1)
}

#[test]
fn template_matches_the_code() {
    let (findings, required) = check(&template_text());
    for (function, actions) in &required {
        println!("{function} needs:");
        for (action, why) in actions {
            println!("  {action:<32} {why}");
        }
    }
    assert!(
        findings.is_empty(),
        "template.yaml disagrees with the code:\n{}",
        findings.join("\n")
    );
}

#[test]
fn every_sdk_call_in_functions_aws_is_accounted_for() {
    let (_, calls) = scan_aws();
    for line in checks::describe_calls(&calls) {
        println!("{line}");
    }
    // The adapters' core calls must be seen, or the scan has gone blind.
    for op in [
        "put_item",
        "query",
        "transact_write_items",
        "send_message",
        "create_schedule",
        "create_table",
    ] {
        assert!(
            calls.iter().any(|c| c.operation == op),
            "the scan found no {op} call in functions/aws/src"
        );
    }
}

/// The crates a deployed function links besides functions/aws, whose sources the IAM
/// check does not read: they must make no SDK call (none of their `.send()` chains),
/// or a call there could need an action the template lacks.
const NON_AWS_CRATES: [&str; 5] = [
    "functions/api/src",
    "functions/sender/src",
    "functions/app/src",
    "functions/http/src",
    "functions/core/src",
];

/// SDK calls (or `.send()` chains the scan cannot read) in `files`, one line each.
fn sdk_calls_in(files: &[SourceFile]) -> Vec<String> {
    match scan::scan(files) {
        Ok(calls) => checks::describe_calls(&calls),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

#[test]
fn sdk_calls_live_only_in_functions_aws() {
    for dir in NON_AWS_CRATES {
        let found = sdk_calls_in(&sources(dir));
        assert!(
            found.is_empty(),
            "{dir} calls the AWS SDK, which the IAM check only looks for in functions/aws; move the call there:\n{}",
            found.join("\n")
        );
    }
    // The same look finds a call placed in one of them.
    let mut files = sources("functions/sender/src");
    files.push(SourceFile {
        name: "shortcut.rs".to_owned(),
        text: "async fn peek(c: &Client) { c.get_item().table_name(\"t\").send().await; }".to_owned(),
    });
    let found = sdk_calls_in(&files);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("get_item"), "{found:?}");
}

// ---- negative self-tests: each breaks one thing and expects the finding ----------

#[test]
fn a_missing_action_is_reported() {
    let text = without_line(&template_text(), "- dynamodb:Query");
    let (findings, _) = check(&text);
    assert_reported(&findings, "ApiFunction (ApiRole): missing dynamodb:Query");
}

#[test]
fn a_missing_event_source_action_is_reported() {
    let text = without_line(&template_text(), "- sqs:ChangeMessageVisibility");
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "SenderFunction (SenderRole): missing sqs:ChangeMessageVisibility",
    );
}

#[test]
fn an_action_nothing_needs_is_reported() {
    let text = replaced(
        &template_text(),
        "- dynamodb:Query\n",
        "- dynamodb:Query\n                  - dynamodb:Scan\n",
    );
    let (findings, _) = check(&text);
    assert_reported(&findings, "allows dynamodb:Scan, which nothing in the code needs");
}

#[test]
fn a_wildcard_resource_is_reported() {
    let text = replaced(
        &template_text(),
        "Resource: !GetAtt DeliveryQueue.Arn",
        "Resource: \"*\"",
    );
    let (findings, _) = check(&text);
    assert_reported(&findings, "Resource \"*\"");
}

#[test]
fn a_missing_or_unknown_variable_is_reported() {
    let text = without_line(
        &template_text(),
        "COURIER_SCHEDULE_LEAD_SECONDS: !Ref ScheduleLeadSeconds",
    );
    let (findings, _) = check(&text);
    assert_reported(&findings, "environment variable COURIER_SCHEDULE_LEAD_SECONDS");
    let text = replaced(
        &template_text(),
        "COURIER_TABLE: !Ref Table\n",
        "COURIER_TABLE: !Ref Table\n        COURIER_TABEL: !Ref Table\n",
    );
    let (findings, _) = check(&text);
    assert_reported(&findings, "COURIER_TABEL is not in courier_app::config::ALL_ENV");
}

#[test]
fn a_miswired_variable_is_reported() {
    let text = replaced(
        &template_text(),
        "COURIER_QUEUE_ARN: !GetAtt DeliveryQueue.Arn",
        "COURIER_QUEUE_ARN: !GetAtt DeliveryDeadLetterQueue.Arn",
    );
    let (findings, _) = check(&text);
    assert_reported(&findings, "name different queues");
}

#[test]
fn a_visibility_timeout_not_six_times_the_sender_timeout_is_reported() {
    let text = replaced(&template_text(), "VisibilityTimeout: 900", "VisibilityTimeout: 300");
    let (findings, _) = check(&text);
    assert_reported(&findings, "should be 6 x SenderFunction's Timeout");
}

#[test]
fn a_scheduler_role_that_can_do_more_is_reported() {
    let text = replaced(
        &template_text(),
        "Action: sqs:SendMessage\n                Resource:\n                  - !GetAtt DeliveryQueue.Arn\n                  - !GetAtt ScheduleDeadLetterQueue.Arn\n",
        "Action: [sqs:SendMessage, sqs:DeleteMessage]\n                Resource:\n                  - !GetAtt DeliveryQueue.Arn\n                  - !GetAtt ScheduleDeadLetterQueue.Arn\n",
    );
    let (findings, _) = check(&text);
    assert_reported(&findings, "the Scheduler role may only sqs:SendMessage");
}

#[test]
fn a_missing_build_target_is_reported() {
    let mut fixture = Fixture::load(&template_text());
    fixture.build_mk = fixture.build_mk.replace("build-SenderFunction:", "build-Sender:");
    assert_reported(
        &checks::check_build(&fixture.inputs()),
        "infra/build.mk has no `build-SenderFunction:` target",
    );
}

#[test]
fn a_lambda_reaching_exempt_code_is_reported() {
    // The sender calling the queue's `arn` would need GetQueueAttributes, which the
    // IAM check exempts as local-runner-only.
    let mut fixture = Fixture::load(&template_text());
    fixture.functions[1].sources.push(SourceFile {
        name: "probe.rs".to_owned(),
        text: "async fn p(q: &SqsQueue) { q.arn().await; }".to_owned(),
    });
    assert_reported(
        &checks::check_exemptions(&fixture.inputs()),
        "functions/sender/src/probe.rs calls `.arn(`",
    );
}

#[test]
fn a_stale_exemption_is_reported() {
    let mut fixture = Fixture::load(&template_text());
    fixture.calls.retain(|c| c.function != "SqsQueue::receive");
    assert_reported(
        &checks::check_exemptions(&fixture.inputs()),
        "exemption sqs.rs SqsQueue::receive matches no SDK call",
    );
}

#[test]
fn an_unknown_sdk_call_fails_the_scan() {
    let mut files = sources("functions/aws/src");
    files.push(SourceFile {
        name: "new_adapter.rs".to_owned(),
        text: "impl Store { async fn all(&self) { self.client.export_table_to_point_in_time().table_arn(&self.table).send().await; } }"
            .to_owned(),
    });
    let errors = scan::scan(&files).expect_err("an unmapped operation must fail the scan");
    assert!(
        errors
            .iter()
            .any(|e| matches!(e, ScanError::UnknownOperation { operation, .. } if operation == "export_table_to_point_in_time")),
        "{errors:?}"
    );
}

#[test]
fn a_different_table_shape_is_reported() {
    let original = Template::parse(&template_text()).expect("parses");
    let shape = TableShape::from_template(&original, "Table").expect("table");
    for (from, to, needle) in [
        ("ProjectionType: INCLUDE", "ProjectionType: ALL", "GSI GSI3"),
        ("AttributeName: expiresAt", "AttributeName: ttl", "TTL attribute"),
        ("KeyType: RANGE}", "KeyType: HASH}", "key schema"),
    ] {
        let changed = Template::parse(&replaced(&template_text(), from, to)).expect("parses");
        let other = TableShape::from_template(&changed, "Table").expect("table");
        let diff = TableShape::diff(&shape, &other);
        assert_reported(&diff, needle);
    }
}

// ---- the table against the bootstrap, on the emulator ----------------------------

fn shape_of(
    table: &aws_sdk_dynamodb::types::TableDescription,
    ttl: Option<&aws_sdk_dynamodb::types::TimeToLiveDescription>,
) -> TableShape {
    use aws_sdk_dynamodb::types::{KeySchemaElement, Projection};
    let key = |ks: &[KeySchemaElement]| -> Vec<(String, String)> {
        ks.iter()
            .map(|k| (k.attribute_name().to_owned(), k.key_type().as_str().to_owned()))
            .collect()
    };
    let index = |ks: &[KeySchemaElement], p: Option<&Projection>| checks::IndexShape {
        key: key(ks),
        projection: p
            .and_then(|p| p.projection_type())
            .map_or("ALL", |t| t.as_str())
            .to_owned(),
        non_key_attributes: p
            .map(|p| p.non_key_attributes().iter().cloned().collect())
            .unwrap_or_default(),
    };
    TableShape {
        billing_mode: table
            .billing_mode_summary()
            .and_then(|b| b.billing_mode())
            .map_or("PROVISIONED", |b| b.as_str())
            .to_owned(),
        attributes: table
            .attribute_definitions()
            .iter()
            .map(|a| (a.attribute_name().to_owned(), a.attribute_type().as_str().to_owned()))
            .collect(),
        key: key(table.key_schema()),
        indexes: table
            .global_secondary_indexes()
            .iter()
            .map(|g| {
                (
                    g.index_name().unwrap_or_default().to_owned(),
                    index(g.key_schema(), g.projection()),
                )
            })
            .collect(),
        local_indexes: table
            .local_secondary_indexes()
            .iter()
            .map(|g| {
                (
                    g.index_name().unwrap_or_default().to_owned(),
                    index(g.key_schema(), g.projection()),
                )
            })
            .collect(),
        ttl_attribute: ttl
            .filter(|t| {
                matches!(
                    t.time_to_live_status(),
                    Some(
                        aws_sdk_dynamodb::types::TimeToLiveStatus::Enabled
                            | aws_sdk_dynamodb::types::TimeToLiveStatus::Enabling
                    )
                )
            })
            .and_then(|t| t.attribute_name())
            .map(str::to_owned),
    }
}

#[tokio::test]
async fn the_table_is_what_the_bootstrap_creates() {
    let emulator = courier_aws::testing::Emulator::start()
        .await
        .expect("AWS emulator (run `make venv`)");
    let sdk = emulator.sdk_config().await.expect("SDK configuration");
    let client = aws_sdk_dynamodb::Client::new(&sdk);
    courier_aws::bootstrap::ensure_table(&client, "courier-template-check")
        .await
        .expect("bootstrap creates the table");
    let described = client
        .describe_table()
        .table_name("courier-template-check")
        .send()
        .await
        .expect("describe table");
    let ttl = client
        .describe_time_to_live()
        .table_name("courier-template-check")
        .send()
        .await
        .expect("describe TTL");
    let code = shape_of(described.table().expect("a table"), ttl.time_to_live_description());

    let template = Template::parse(&template_text()).expect("parses");
    let tables = template.of_type("AWS::DynamoDB::Table");
    assert_eq!(tables.len(), 1, "one table expected, found {tables:?}");
    let declared = TableShape::from_template(&template, &tables[0]).expect("table properties");
    println!("bootstrap: {code:#?}");
    let diff = TableShape::diff(&code, &declared);
    assert!(
        diff.is_empty(),
        "template.yaml's {} differs from the bootstrap's table:\n{}",
        tables[0],
        diff.join("\n")
    );
}

#[test]
fn an_event_source_queue_missing_from_the_role_is_reported() {
    let text = replaced(
        &template_text(),
        "                  - !GetAtt SlowQueue.Arn\n                  - !GetAtt DeliveryDeadLetterQueue.Arn\n",
        "                  - !GetAtt SlowQueue.Arn\n",
    );
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "should be allowed on exactly the event source queues: DeliveryDeadLetterQueue, DeliveryQueue, ScheduleDeadLetterQueue, SlowQueue",
    );
}

// ---- deployability on AWS: every event source, schedules, alarms, limits -------

/// The DLQ as the stack first had it: SQS's default 30 s visibility timeout, below
/// the sender's 150 s, which Lambda refuses for an event source mapping.
#[test]
fn a_drained_dead_letter_queue_with_the_default_visibility_timeout_is_reported() {
    let text = replaced(
        &template_text(),
        "  DeliveryDeadLetterQueue:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 900\n",
        "  DeliveryDeadLetterQueue:\n    Type: AWS::SQS::Queue\n    Properties:\n",
    );
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "DeliveryDeadLetterQueue: VisibilityTimeout None (SQS default 30) is below SenderFunction's Timeout 150: \
         Lambda refuses this event source mapping",
    );
    // And the third event source is looked at too.
    let text = replaced(
        &template_text(),
        "  ScheduleDeadLetterQueue:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 900\n",
        "  ScheduleDeadLetterQueue:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 300\n",
    );
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "ScheduleDeadLetterQueue: VisibilityTimeout Some(300) should be 6 x SenderFunction's Timeout",
    );
}

#[test]
fn a_depth_alarm_on_a_drained_dead_letter_queue_is_reported() {
    let text = replaced(
        &template_text(),
        "      MetricName: NumberOfMessagesReceived\n      Dimensions:\n        - Name: QueueName\n          Value: !GetAtt DeliveryDeadLetterQueue.QueueName",
        "      MetricName: ApproximateNumberOfMessagesVisible\n      Dimensions:\n        - Name: QueueName\n          Value: !GetAtt DeliveryDeadLetterQueue.QueueName",
    );
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "DeliveryDeadLetterQueue: needs an alarm on NumberOfMessagesReceived > 0 (the sender drains it",
    );
    let text = without_line(&template_text(), "Value: !GetAtt DeadLetterParkingQueue.QueueName");
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "DeadLetterParkingQueue: needs an alarm on ApproximateNumberOfMessagesVisible > 0",
    );
}

#[test]
fn a_schedule_without_a_dead_letter_queue_or_retry_policy_is_reported() {
    let text = without_line(&template_text(), "Arn: !GetAtt DeadLetterParkingQueue.Arn");
    let (findings, _) = check(&text);
    assert_reported(&findings, "SenderFunction.Events.Reconcile: needs DeadLetterConfig.Arn");
    let text = replaced(
        &template_text(),
        "            RetryPolicy:\n",
        "            RetryPolicyX:\n",
    );
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "SenderFunction.Events.Reconcile: needs an explicit RetryPolicy",
    );
    // One-shot retry schedules get theirs from the code: the DLQ's ARN must be wired.
    let text = without_line(
        &template_text(),
        "COURIER_SCHEDULE_DLQ_ARN: !GetAtt ScheduleDeadLetterQueue.Arn",
    );
    let (findings, _) = check(&text);
    assert_reported(&findings, "COURIER_SCHEDULE_DLQ_ARN should be !GetAtt <queue>.Arn");
}

#[test]
fn too_little_reserved_concurrency_no_throttling_or_no_deletion_protection_is_reported() {
    let text = replaced(
        &template_text(),
        "    \"100\": {\"2\": 107, \"5\": 110, \"10\": 115}",
        "    \"100\": {\"2\": 107, \"5\": 109, \"10\": 115}",
    );
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "SenderFunction: ReservedConcurrentExecutions Some(109) should be at least 110 with SenderMaxConcurrency=100, SlowLaneMaxConcurrency=5",
    );
    let text = without_line(&template_text(), "ThrottlingRateLimit: !Ref ApiThrottlingRateLimit");
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "HttpApi: DefaultRouteSettings.ThrottlingRateLimit should be !Ref a parameter",
    );
    let text = replaced(
        &template_text(),
        "  TableDeletionProtection:\n    Type: String\n    Default: \"true\"",
        "  TableDeletionProtection:\n    Type: String\n    Default: \"false\"",
    );
    let (findings, _) = check(&text);
    assert_reported(&findings, "Table: DeletionProtectionEnabled should be on");
}

#[test]
fn an_api_function_updated_before_the_sender_is_reported() {
    let text = without_line(&template_text(), "DependsOn: SenderFunction");
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "ApiFunction: DependsOn should name SenderFunction (the sender is updated first)",
    );
}

#[test]
fn a_function_without_an_errors_alarm_is_reported() {
    let text = replaced(
        &template_text(),
        "      MetricName: Errors\n      Dimensions:\n        - Name: FunctionName\n          Value: !Ref SenderFunction\n",
        "      MetricName: Duration\n      Dimensions:\n        - Name: FunctionName\n          Value: !Ref SenderFunction\n",
    );
    let (findings, _) = check(&text);
    assert_reported(&findings, "SenderFunction: needs an alarm on its AWS/Lambda Errors");
}

#[test]
fn a_reconcile_role_trusting_any_schedule_is_reported() {
    let text = without_line(&template_text(), "aws:SourceArn: !GetAtt ReconcileScheduleGroup.Arn");
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "ReconcileSchedulerRole: assumed by SenderFunction.Events.Reconcile; its trust should name the schedule's group as aws:SourceArn",
    );
}

/// Actions are required per binary, from the calls its code can reach: the
/// sender never changes a recurring schedule (the API does), so its role may not.
#[test]
fn an_action_only_another_binary_needs_is_reported() {
    let text = replaced(
        &template_text(),
        "                Action: scheduler:CreateSchedule\n",
        "                Action: [scheduler:CreateSchedule, scheduler:UpdateSchedule]\n",
    );
    let (findings, required) = check(&text);
    assert_reported(
        &findings,
        "SenderFunction (SenderRole): allows scheduler:UpdateSchedule, which nothing in the code needs",
    );
    assert!(required["ApiFunction"].contains_key("scheduler:UpdateSchedule"));
    assert!(!required["SenderFunction"].contains_key("scheduler:UpdateSchedule"));
}

#[test]
fn a_slow_lane_that_dead_letters_elsewhere_or_sends_nowhere_allowed_is_reported() {
    let text = replaced(
        &template_text(),
        "  SlowQueue:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 900\n      MessageRetentionPeriod: 345600\n      SqsManagedSseEnabled: true\n      RedrivePolicy:\n        deadLetterTargetArn: !GetAtt DeliveryDeadLetterQueue.Arn",
        "  SlowQueue:\n    Type: AWS::SQS::Queue\n    Properties:\n      VisibilityTimeout: 900\n      MessageRetentionPeriod: 345600\n      SqsManagedSseEnabled: true\n      RedrivePolicy:\n        deadLetterTargetArn: !GetAtt ScheduleDeadLetterQueue.Arn",
    );
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "SenderFunction: COURIER_SLOW_QUEUE_URL names SlowQueue, whose RedrivePolicy should send to DeliveryDeadLetterQueue like the delivery queue's",
    );
    let text = replaced(
        &template_text(),
        "                Action: sqs:SendMessage\n                Resource:\n                  - !GetAtt DeliveryQueue.Arn\n                  - !GetAtt SlowQueue.Arn",
        "                Action: sqs:SendMessage\n                Resource:\n                  - !GetAtt DeliveryQueue.Arn\n                  - !GetAtt DeadLetterParkingQueue.Arn",
    );
    let (findings, _) = check(&text);
    assert_reported(
        &findings,
        "SenderFunction (SenderRole): sqs:SendMessage should be allowed on !GetAtt DeliveryQueue.Arn (and the slow lane's queue) only",
    );
}

/// `StaticEgressIps`, checked with it on and off: the sender's VpcConfig only under
/// the condition, never on the API, and the endpoints and outputs it relies on.
#[test]
fn static_egress_ips_are_checked_under_both_settings() {
    use courier_template_check::egress::check_static_egress;
    let text = template_text();
    let t = |s: &str| Template::parse(s).expect("template parses");
    assert_eq!(check_static_egress(&t(&text)), Vec::<String>::new());
    // Unconditional: the sender would sit in a VPC that does not exist when off.
    let always = replaced(
        &text,
        "      VpcConfig: !If\n        - HasStaticEgressIps\n        - SubnetIds: [!Ref PrivateSubnetA, !Ref PrivateSubnetB]\n          SecurityGroupIds: [!Ref SenderSecurityGroup]\n        - !Ref AWS::NoValue\n",
        "      VpcConfig:\n        SubnetIds: [!Ref PrivateSubnetA, !Ref PrivateSubnetB]\n        SecurityGroupIds: [!Ref SenderSecurityGroup]\n",
    );
    assert_reported(
        &check_static_egress(&t(&always)),
        "SenderFunction: with StaticEgressIps=false it must have no VpcConfig",
    );
    // Left out: the option would change nothing.
    let never = replaced(
        &text,
        "      VpcConfig: !If\n        - HasStaticEgressIps\n        - SubnetIds: [!Ref PrivateSubnetA, !Ref PrivateSubnetB]\n          SecurityGroupIds: [!Ref SenderSecurityGroup]\n        - !Ref AWS::NoValue\n",
        "",
    );
    assert_reported(
        &check_static_egress(&t(&never)),
        "SenderFunction: with StaticEgressIps=true it needs a VpcConfig",
    );
    // The API placed in the VPC too.
    let api = replaced(
        &text,
        "      Description: Courier API (every route of the HTTP API).\n",
        "      Description: Courier API (every route of the HTTP API).\n      VpcConfig: !If [HasStaticEgressIps, {SubnetIds: [!Ref PrivateSubnetA, !Ref PrivateSubnetB], SecurityGroupIds: [!Ref SenderSecurityGroup]}, !Ref AWS::NoValue]\n",
    );
    assert_reported(
        &check_static_egress(&t(&api)),
        "ApiFunction: with StaticEgressIps=true it must have no VpcConfig",
    );
    // A missing endpoint: the sender could not reach KMS from its subnets.
    let no_kms = replaced(
        &text,
        "com.amazonaws.${AWS::Region}.kms",
        "com.amazonaws.${AWS::Region}.ssm",
    );
    assert_reported(&check_static_egress(&t(&no_kms)), "no Interface VPC endpoint for kms");
    // The role cannot place the function.
    let no_eni = replaced(&text, "                    - ec2:CreateNetworkInterface\n", "");
    assert_reported(
        &check_static_egress(&t(&no_eni)),
        "SenderFunction: its role needs ec2:CreateNetworkInterface",
    );
}
