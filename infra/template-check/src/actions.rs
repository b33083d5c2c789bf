//! Which IAM action each SDK operation needs, and which calls in functions/aws never
//! run inside a deployed Lambda function (and why).

/// SDK operation (the fluent builder's method) -> IAM action. An operation the scan
/// meets that is missing here fails the check: add it, with the action from the
/// service's "Actions, resources, and condition keys" page.
pub const OPERATIONS: &[(&str, &str)] = &[
    // DynamoDB
    ("get_item", "dynamodb:GetItem"),
    ("put_item", "dynamodb:PutItem"),
    ("update_item", "dynamodb:UpdateItem"),
    ("delete_item", "dynamodb:DeleteItem"),
    ("query", "dynamodb:Query"),
    ("batch_get_item", "dynamodb:BatchGetItem"),
    ("batch_write_item", "dynamodb:BatchWriteItem"),
    // IAM has no action for the transactions themselves: each item needs its own
    // operation's action (`TRANSACTION_ITEMS`).
    ("transact_get_items", "dynamodb:GetItem"),
    ("transact_write_items", TRANSACTION),
    ("create_table", "dynamodb:CreateTable"),
    ("describe_table", "dynamodb:DescribeTable"),
    ("describe_time_to_live", "dynamodb:DescribeTimeToLive"),
    ("update_time_to_live", "dynamodb:UpdateTimeToLive"),
    ("delete_table", "dynamodb:DeleteTable"),
    ("list_tables", "dynamodb:ListTables"),
    ("scan", "dynamodb:Scan"),
    // SQS (the batch forms need the single form's action)
    ("send_message", "sqs:SendMessage"),
    ("send_message_batch", "sqs:SendMessage"),
    ("receive_message", "sqs:ReceiveMessage"),
    ("delete_message", "sqs:DeleteMessage"),
    ("delete_message_batch", "sqs:DeleteMessage"),
    ("change_message_visibility", "sqs:ChangeMessageVisibility"),
    ("change_message_visibility_batch", "sqs:ChangeMessageVisibility"),
    ("get_queue_attributes", "sqs:GetQueueAttributes"),
    ("set_queue_attributes", "sqs:SetQueueAttributes"),
    ("get_queue_url", "sqs:GetQueueUrl"),
    ("create_queue", "sqs:CreateQueue"),
    ("delete_queue", "sqs:DeleteQueue"),
    ("purge_queue", "sqs:PurgeQueue"),
    ("list_queues", "sqs:ListQueues"),
    // EventBridge Scheduler
    ("create_schedule", "scheduler:CreateSchedule"),
    ("update_schedule", "scheduler:UpdateSchedule"),
    ("delete_schedule", "scheduler:DeleteSchedule"),
    ("get_schedule", "scheduler:GetSchedule"),
    ("list_schedules", "scheduler:ListSchedules"),
    ("create_schedule_group", "scheduler:CreateScheduleGroup"),
    ("delete_schedule_group", "scheduler:DeleteScheduleGroup"),
    ("get_schedule_group", "scheduler:GetScheduleGroup"),
    // KMS (endpoint credentials' data keys)
    ("generate_data_key", "kms:GenerateDataKey"),
    ("decrypt", "kms:Decrypt"),
    ("describe_key", "kms:DescribeKey"),
    ("create_key", "kms:CreateKey"),
    ("create_alias", "kms:CreateAlias"),
    // Destinations: STS with the sender's role; the rest with the customer's.
    ("assume_role", "sts:AssumeRole"),
    ("publish", "sns:Publish"),
    ("put_events", "events:PutEvents"),
    ("put_record", "kinesis:PutRecord"),
    ("put_object", "s3:PutObject"),
];

/// Stands for "the actions of the transaction's items" in [`OPERATIONS`].
pub const TRANSACTION: &str = "<transaction items>";

/// A `TransactWriteItems` item type (`aws_sdk_dynamodb::types::Put`, ...) -> the IAM
/// action DynamoDB checks for it. A file that calls `transact_write_items` needs the
/// action of every item type it builds.
pub const TRANSACTION_ITEMS: &[(&str, &str)] = &[
    ("Put", "dynamodb:PutItem"),
    ("Update", "dynamodb:UpdateItem"),
    ("Delete", "dynamodb:DeleteItem"),
    ("ConditionCheck", "dynamodb:ConditionCheckItem"),
];

/// Zero-argument calls that hand back the client rather than start an operation.
pub const ACCESSORS: &[&str] = &["client", "clone", "as_ref"];

pub fn action_for(operation: &str) -> Option<&'static str> {
    OPERATIONS.iter().find(|(op, _)| *op == operation).map(|(_, a)| *a)
}

/// Calls in functions/aws that a deployed function never makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Exemption {
    /// File under functions/aws/src.
    pub file: &'static str,
    /// `Type::method`, or `None` for the whole file.
    pub function: Option<&'static str>,
    pub reason: &'static str,
}

pub const EXEMPTIONS: &[Exemption] = &[
    Exemption {
        file: "bootstrap.rs",
        function: None,
        reason: "creates the table, the queues and the schedule group for the local runner and the tests \
                 (CreateTable, DescribeTable, DescribeTimeToLive, UpdateTimeToLive, CreateQueue, GetQueueUrl, \
                 SetQueueAttributes, GetQueueAttributes, CreateScheduleGroup); in AWS template.yaml creates them",
    },
    Exemption {
        file: "sqs.rs",
        function: Some("SqsQueue::receive"),
        reason: "the local runner polls the queue in place of Lambda's SQS event source mapping; in AWS the \
                 mapping receives (its permissions are checked separately, on the sender's role)",
    },
    Exemption {
        file: "sqs.rs",
        function: Some("SqsQueue::delete"),
        reason: "the local runner deletes a batch's succeeded messages in place of the event source mapping",
    },
    Exemption {
        file: "sqs.rs",
        function: Some("SqsQueue::delete_batch"),
        reason: "the local runner deletes a batch's succeeded messages in one call, as the event source \
                 mapping does",
    },
    Exemption {
        file: "sqs.rs",
        function: Some("SqsQueue::change_visibility"),
        reason: "the local runner returns a batch's failed messages in place of the event source mapping",
    },
    Exemption {
        file: "sqs.rs",
        function: Some("SqsQueue::arn"),
        reason: "the local runner fills the synthesised SQS event's eventSourceARN; in AWS the function reads \
                 the ARN from COURIER_QUEUE_ARN",
    },
    Exemption {
        file: "scheduler.rs",
        function: Some("SchedulerTimer::read_group"),
        reason: "the local runner fires due one-shot and recurring schedules because the emulator never does \
                 (ListSchedules, GetSchedule); in AWS Scheduler fires them",
    },
    Exemption {
        file: "scheduler.rs",
        function: Some("SchedulerTimer::delete"),
        reason: "the local runner deletes the schedules it fired; in AWS ActionAfterCompletion=DELETE has \
                 Scheduler delete a fired schedule itself",
    },
];

impl Exemption {
    pub fn covers(&self, file: &str, function: &str) -> bool {
        self.file == file && self.function.is_none_or(|f| f == function)
    }
}

/// Files whose calls run inside the sender, but with a customer's role assumed
/// through STS (destinations/credentials.rs), never with the function's own: they
/// need nothing of the function's role (the customer's role grants them).
pub const CUSTOMER_ROLE_FILES: &[&str] = &[
    "destinations/sqs.rs",
    "destinations/sns.rs",
    "destinations/eventbridge.rs",
    "destinations/kinesis.rs",
    "destinations/s3.rs",
];

/// What Lambda's SQS event source mapping does with the function's role.
pub const SQS_EVENT_SOURCE_ACTIONS: &[&str] = &[
    "sqs:ReceiveMessage",
    "sqs:DeleteMessage",
    "sqs:GetQueueAttributes",
    "sqs:ChangeMessageVisibility",
];

/// What a function needs to write its own logs into a log group the stack creates.
pub const LOG_ACTIONS: &[&str] = &["logs:CreateLogStream", "logs:PutLogEvents"];
