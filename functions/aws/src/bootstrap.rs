//! Creates Courier's AWS resources when they are missing: the table (on-demand,
//! with its four GSIs and TTL), the delivery queue and the slow lane's queue with
//! their DLQ and redrive policy, and the schedule group. Idempotent, for the local runner and the tests; a real
//! deployment gets the same resources from `template.yaml`.

use crate::due_index::{GSI_DUE, GSI4PK, GSI4SK};
use crate::dynamo::{
    AUDIT_PROJECTION, GSI_AUDIT, GSI_LOG, GSI_STATUS, GSI1PK, GSI1SK, GSI2PK, GSI2SK, GSI3PK, GSI3SK, PK, SK, TTL_ATTR,
};
use crate::error::from_sdk;
use aws_config::SdkConfig;
use aws_sdk_dynamodb::operation::create_table::CreateTableError;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, BillingMode, GlobalSecondaryIndex, KeySchemaElement, KeyType, Projection, ProjectionType,
    ScalarAttributeType, TableStatus, TimeToLiveSpecification, TimeToLiveStatus,
};
use aws_sdk_scheduler::operation::create_schedule_group::CreateScheduleGroupError;
use aws_sdk_sqs::operation::create_queue::CreateQueueError;
use aws_sdk_sqs::types::QueueAttributeName;
use courier_app::ports::PortError;
use std::collections::HashMap;
use std::time::Duration;

/// After this many receives a message goes to the DLQ.
pub const MAX_RECEIVE_COUNT: u32 = 5;
/// 14 days, the longest SQS keeps a message: the DLQ is for people to look at.
pub const DLQ_RETENTION_SECONDS: u32 = 1_209_600;

/// What to create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResourceNames {
    pub table: String,
    pub queue: String,
    pub dlq: String,
    /// The slow lane's queue (`courier_core::lanes`), drained by a small concurrency.
    pub slow_queue: String,
    pub schedule_group: String,
    /// The role schedules name for delivering to the queue. Not created here (the
    /// emulator does not check IAM); template.yaml creates the real one.
    pub scheduler_role_arn: String,
    /// Must exceed the sender's run time (AWS: 6x the Lambda timeout).
    pub visibility_timeout_seconds: u32,
    /// The alias (`alias/...`) of the KMS key that wraps tenants' data keys.
    pub credentials_key_alias: String,
}

impl ResourceNames {
    /// `<prefix>-table`, `<prefix>-deliveries`, `<prefix>-deliveries-dlq`,
    /// `<prefix>-deliveries-slow`,
    /// `<prefix>-schedules`, role `arn:aws:iam::123456789012:role/<prefix>-scheduler`
    /// (moto's account), visibility 180 s.
    pub fn with_prefix(prefix: &str) -> Self {
        ResourceNames {
            table: format!("{prefix}-table"),
            queue: format!("{prefix}-deliveries"),
            dlq: format!("{prefix}-deliveries-dlq"),
            slow_queue: format!("{prefix}-deliveries-slow"),
            schedule_group: format!("{prefix}-schedules"),
            scheduler_role_arn: format!("arn:aws:iam::123456789012:role/{prefix}-scheduler"),
            visibility_timeout_seconds: 180,
            credentials_key_alias: format!("alias/{prefix}-credentials"),
        }
    }
}

/// What exists afterwards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resources {
    pub table: String,
    pub queue_url: String,
    pub queue_arn: String,
    pub dlq_url: String,
    pub dlq_arn: String,
    pub slow_queue_url: String,
    pub slow_queue_arn: String,
    pub schedule_group: String,
    pub scheduler_role_arn: String,
    /// The credentials key's ARN.
    pub credentials_key: String,
}

#[derive(Debug, thiserror::Error)]
pub enum BootstrapError {
    #[error("bootstrap step `{step}` failed")]
    Aws {
        step: &'static str,
        #[source]
        source: PortError,
    },
    #[error("table {table} exists but lacks index {index}; delete it or fix its definition")]
    TableShape { table: String, index: &'static str },
    #[error("table {0} did not become ACTIVE in time")]
    TableNotActive(String),
    #[error("queue {0} has no ARN")]
    NoArn(String),
}

fn step(step: &'static str) -> impl FnOnce(PortError) -> BootstrapError {
    move |source| BootstrapError::Aws { step, source }
}

fn build_err(step_name: &'static str) -> impl FnOnce(aws_sdk_dynamodb::error::BuildError) -> BootstrapError {
    move |e| BootstrapError::Aws {
        step: step_name,
        source: PortError::Backend(Box::new(e)),
    }
}

/// Creates whatever is missing and returns the names, URLs and ARNs.
pub async fn ensure_resources(config: &SdkConfig, names: &ResourceNames) -> Result<Resources, BootstrapError> {
    ensure_table(&aws_sdk_dynamodb::Client::new(config), &names.table).await?;
    let sqs = aws_sdk_sqs::Client::new(config);
    let (dlq_url, dlq_arn) = ensure_queue(&sqs, &names.dlq, dlq_attributes()).await?;
    let (queue_url, queue_arn) = ensure_queue(&sqs, &names.queue, queue_attributes(names, &dlq_arn)).await?;
    let (slow_queue_url, slow_queue_arn) =
        ensure_queue(&sqs, &names.slow_queue, queue_attributes(names, &dlq_arn)).await?;
    ensure_schedule_group(&aws_sdk_scheduler::Client::new(config), &names.schedule_group).await?;
    let credentials_key =
        ensure_credentials_key(&aws_sdk_kms::Client::new(config), &names.credentials_key_alias).await?;
    Ok(Resources {
        credentials_key,
        table: names.table.clone(),
        queue_url,
        queue_arn,
        dlq_url,
        dlq_arn,
        slow_queue_url,
        slow_queue_arn,
        schedule_group: names.schedule_group.clone(),
        scheduler_role_arn: names.scheduler_role_arn.clone(),
    })
}

fn dlq_attributes() -> HashMap<QueueAttributeName, String> {
    HashMap::from([(
        QueueAttributeName::MessageRetentionPeriod,
        DLQ_RETENTION_SECONDS.to_string(),
    )])
}

fn queue_attributes(names: &ResourceNames, dlq_arn: &str) -> HashMap<QueueAttributeName, String> {
    let redrive = serde_json::json!({
        "deadLetterTargetArn": dlq_arn,
        "maxReceiveCount": MAX_RECEIVE_COUNT.to_string(),
    });
    HashMap::from([
        (
            QueueAttributeName::VisibilityTimeout,
            names.visibility_timeout_seconds.to_string(),
        ),
        (QueueAttributeName::RedrivePolicy, redrive.to_string()),
    ])
}

fn gsi(name: &str, pk: &str, sk: &str, projection: Projection) -> Result<GlobalSecondaryIndex, BootstrapError> {
    GlobalSecondaryIndex::builder()
        .index_name(name)
        .key_schema(key_element(pk, KeyType::Hash)?)
        .key_schema(key_element(sk, KeyType::Range)?)
        .projection(projection)
        .build()
        .map_err(build_err("create table"))
}

fn key_element(name: &str, kind: KeyType) -> Result<KeySchemaElement, BootstrapError> {
    KeySchemaElement::builder()
        .attribute_name(name)
        .key_type(kind)
        .build()
        .map_err(build_err("create table"))
}

/// The table: PK/SK strings, GSI1 (delivery log by time) and GSI2 (by status), both
/// keys only, GSI3 (audit log, keys + eventId), on-demand billing, TTL on `expiresAt`.
pub async fn ensure_table(client: &aws_sdk_dynamodb::Client, table: &str) -> Result<(), BootstrapError> {
    let mut create = client
        .create_table()
        .table_name(table)
        .billing_mode(BillingMode::PayPerRequest)
        .key_schema(key_element(PK, KeyType::Hash)?)
        .key_schema(key_element(SK, KeyType::Range)?)
        .global_secondary_indexes(gsi(
            GSI_LOG,
            GSI1PK,
            GSI1SK,
            Projection::builder().projection_type(ProjectionType::KeysOnly).build(),
        )?)
        .global_secondary_indexes(gsi(
            GSI_STATUS,
            GSI2PK,
            GSI2SK,
            Projection::builder().projection_type(ProjectionType::KeysOnly).build(),
        )?)
        .global_secondary_indexes(gsi(
            GSI_AUDIT,
            GSI3PK,
            GSI3SK,
            Projection::builder()
                .projection_type(ProjectionType::Include)
                .set_non_key_attributes(Some(AUDIT_PROJECTION.iter().map(|s| (*s).to_owned()).collect()))
                .build(),
        )?)
        .global_secondary_indexes(gsi(
            GSI_DUE,
            GSI4PK,
            GSI4SK,
            Projection::builder().projection_type(ProjectionType::KeysOnly).build(),
        )?);
    for attr in [PK, SK, GSI1PK, GSI1SK, GSI2PK, GSI2SK, GSI3PK, GSI3SK, GSI4PK, GSI4SK] {
        create = create.attribute_definitions(
            AttributeDefinition::builder()
                .attribute_name(attr)
                .attribute_type(ScalarAttributeType::S)
                .build()
                .map_err(build_err("create table"))?,
        );
    }
    match create.send().await {
        Ok(_) => {}
        Err(e) if matches!(e.as_service_error(), Some(CreateTableError::ResourceInUseException(_))) => {}
        Err(e) => return Err(step("create table")(from_sdk(e))),
    }

    // Wait for ACTIVE (immediate on moto; seconds on AWS), checking the indexes.
    let mut active = false;
    for _ in 0..120 {
        let desc = client
            .describe_table()
            .table_name(table)
            .send()
            .await
            .map_err(|e| step("describe table")(from_sdk(e)))?;
        let Some(t) = desc.table else { break };
        let have: Vec<&str> = t
            .global_secondary_indexes()
            .iter()
            .filter_map(|g| g.index_name())
            .collect();
        for index in [GSI_LOG, GSI_STATUS, GSI_AUDIT, GSI_DUE] {
            if !have.contains(&index) {
                return Err(BootstrapError::TableShape {
                    table: table.to_owned(),
                    index,
                });
            }
        }
        if t.table_status == Some(TableStatus::Active) {
            active = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    if !active {
        return Err(BootstrapError::TableNotActive(table.to_owned()));
    }

    let ttl = client
        .describe_time_to_live()
        .table_name(table)
        .send()
        .await
        .map_err(|e| step("describe TTL")(from_sdk(e)))?;
    let status = ttl.time_to_live_description.and_then(|d| d.time_to_live_status);
    if !matches!(status, Some(TimeToLiveStatus::Enabled | TimeToLiveStatus::Enabling)) {
        client
            .update_time_to_live()
            .table_name(table)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(TTL_ATTR)
                    .enabled(true)
                    .build()
                    .map_err(build_err("enable TTL"))?,
            )
            .send()
            .await
            .map_err(|e| step("enable TTL")(from_sdk(e)))?;
    }
    Ok(())
}

/// Creates the queue (or brings an existing one's attributes in line); returns its
/// URL and ARN.
pub async fn ensure_queue(
    client: &aws_sdk_sqs::Client,
    name: &str,
    attributes: HashMap<QueueAttributeName, String>,
) -> Result<(String, String), BootstrapError> {
    let url = match client
        .create_queue()
        .queue_name(name)
        .set_attributes(Some(attributes.clone()))
        .send()
        .await
    {
        Ok(out) => out.queue_url.unwrap_or_default(),
        // Exists with other attributes: keep it, update them.
        Err(e) if matches!(e.as_service_error(), Some(CreateQueueError::QueueNameExists(_))) => {
            let url = client
                .get_queue_url()
                .queue_name(name)
                .send()
                .await
                .map_err(|e| step("get queue url")(from_sdk(e)))?
                .queue_url
                .unwrap_or_default();
            client
                .set_queue_attributes()
                .queue_url(&url)
                .set_attributes(Some(attributes))
                .send()
                .await
                .map_err(|e| step("set queue attributes")(from_sdk(e)))?;
            url
        }
        Err(e) => return Err(step("create queue")(from_sdk(e))),
    };
    let arn = client
        .get_queue_attributes()
        .queue_url(&url)
        .attribute_names(QueueAttributeName::QueueArn)
        .send()
        .await
        .map_err(|e| step("get queue arn")(from_sdk(e)))?
        .attributes
        .and_then(|mut a| a.remove(&QueueAttributeName::QueueArn))
        .ok_or_else(|| BootstrapError::NoArn(name.to_owned()))?;
    Ok((url, arn))
}

pub async fn ensure_schedule_group(client: &aws_sdk_scheduler::Client, name: &str) -> Result<(), BootstrapError> {
    match client.create_schedule_group().name(name).send().await {
        Ok(_) => Ok(()),
        Err(e)
            if matches!(
                e.as_service_error(),
                Some(CreateScheduleGroupError::ConflictException(_))
            ) =>
        {
            Ok(())
        }
        Err(e) => Err(step("create schedule group")(from_sdk(e))),
    }
}

/// The symmetric KMS key behind `alias` (created with the alias when missing); its
/// ARN. template.yaml creates the deployed one (`CredentialsKey`).
pub async fn ensure_credentials_key(client: &aws_sdk_kms::Client, alias: &str) -> Result<String, BootstrapError> {
    match client.describe_key().key_id(alias).send().await {
        Ok(out) => {
            if let Some(arn) = out.key_metadata().and_then(|m| m.arn()) {
                return Ok(arn.to_owned());
            }
        }
        Err(e) if e.as_service_error().is_some_and(|s| s.is_not_found_exception()) => {}
        Err(e) => return Err(step("describe credentials key")(crate::error::from_sdk(e))),
    }
    let made = client
        .create_key()
        .description("Courier: wraps tenants' data keys for endpoint credentials")
        .send()
        .await
        .map_err(|e| step("create credentials key")(crate::error::from_sdk(e)))?;
    let meta = made
        .key_metadata()
        .ok_or_else(|| step("create credentials key")(crate::error::corrupt("CreateKey answered no key")))?;
    client
        .create_alias()
        .alias_name(alias)
        .target_key_id(meta.key_id())
        .send()
        .await
        .map_err(|e| step("create credentials key alias")(crate::error::from_sdk(e)))?;
    Ok(meta.arn().unwrap_or(meta.key_id()).to_owned())
}
