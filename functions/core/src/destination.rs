//! Event destinations in the customer's AWS account (SQS, SNS, EventBridge,
//! Kinesis, S3): the endpoint field as stored, its admission (a well-formed ARN or
//! queue URL, a known region, a role inside the deployment's pattern), the external
//! id Courier assigns per application, what the consumer gets (message attributes,
//! or the `courier` block where a service has none), and how an AWS answer maps
//! onto the HTTP status the delivery policies already judge.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// Where the events go, by service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Target {
    #[serde(rename_all = "camelCase")]
    Sqs {
        queue_url: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_group_pointer: Option<String>,
    },
    #[serde(rename_all = "camelCase")]
    Sns { topic_arn: String },
    #[serde(rename_all = "camelCase")]
    Eventbridge {
        event_bus_arn: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail_type: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        source: Option<String>,
    },
    #[serde(rename_all = "camelCase")]
    Kinesis {
        stream_arn: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        partition_key_pointer: Option<String>,
    },
    #[serde(rename_all = "camelCase")]
    S3 {
        bucket: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        prefix: Option<String>,
    },
}

/// The service a destination is delivered through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Sqs,
    Sns,
    EventBridge,
    Kinesis,
    S3,
}

impl Kind {
    /// The `type` on the wire.
    pub fn wire_name(self) -> &'static str {
        match self {
            Kind::Sqs => "sqs",
            Kind::Sns => "sns",
            Kind::EventBridge => "eventbridge",
            Kind::Kinesis => "kinesis",
            Kind::S3 => "s3",
        }
    }

    /// The most a message to this service may hold (body and attributes), past
    /// which the attempt is a 413 without a call.
    pub fn max_message_bytes(self) -> usize {
        match self {
            Kind::Sqs | Kind::Kinesis => 1024 * 1024,
            Kind::Sns | Kind::EventBridge => 256 * 1024,
            Kind::S3 => 16 * 1024 * 1024,
        }
    }
}

/// An endpoint's destination as stored and shown (without the external id, which
/// is derived from the endpoint's tenant and application, see [`external_id`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Destination {
    #[serde(flatten)]
    pub target: Target,
    pub role_arn: String,
    /// As given; none: from the ARN or queue URL, else the deployment's region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
}

/// The roles a deployment lets its sender assume.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RolePattern {
    /// The local stack and tests: any well-formed role ARN.
    Any,
    /// None: this deployment offers no destinations.
    None,
    /// An IAM-style pattern (`*` any run of characters, `?` one character), as the
    /// sender role's `sts:AssumeRole` statement names it.
    Glob(String),
}

impl RolePattern {
    /// From the deployment's setting: empty is [`RolePattern::None`].
    pub fn from_setting(text: Option<&str>) -> RolePattern {
        match text.map(str::trim) {
            None | Some("") => RolePattern::None,
            Some(p) => RolePattern::Glob(p.to_owned()),
        }
    }

    pub fn allows(&self, role_arn: &str) -> bool {
        match self {
            RolePattern::Any => true,
            RolePattern::None => false,
            RolePattern::Glob(p) => glob(p.as_bytes(), role_arn.as_bytes()),
        }
    }
}

/// IAM's wildcard match, iteratively with one backtrack point.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && (pattern[p] == b'?' || pattern[p] == text[t]) {
            p += 1;
            t += 1;
        } else if p < pattern.len() && pattern[p] == b'*' {
            star = Some((p, t));
            p += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == b'*')
}

/// A refused destination: the field (under `destination`) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("field `{field}`: {message}")]
pub struct DestinationError {
    pub field: String,
    pub message: String,
}

fn refuse(field: &str, message: impl Into<String>) -> DestinationError {
    DestinationError {
        field: format!("destination.{field}"),
        message: message.into(),
    }
}

/// The fields each type takes (beside `type`, `roleArn` and `region`).
fn fields_of(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "sqs" => &["queueUrl", "messageGroupPointer"],
        "sns" => &["topicArn"],
        "eventbridge" => &["eventBusArn", "detailType", "source"],
        "kinesis" => &["streamArn", "partitionKeyPointer"],
        "s3" => &["bucket", "prefix"],
        _ => return None,
    })
}

const TYPES: &str = "sqs, sns, eventbridge, kinesis, s3";

impl Destination {
    /// Checks a `destination` body field, naming the first bad field.
    pub fn from_value(value: &Value, roles: &RolePattern) -> Result<Destination, DestinationError> {
        let obj = value.as_object().ok_or_else(|| DestinationError {
            field: "destination".into(),
            message: "must be an object with a `type`".into(),
        })?;
        let kind = match obj.get("type") {
            Some(Value::String(s)) => s.as_str(),
            Some(_) => return Err(refuse("type", format!("must be one of {TYPES}"))),
            None => return Err(refuse("type", format!("is required: one of {TYPES}"))),
        };
        let fields = fields_of(kind).ok_or_else(|| refuse("type", format!("{kind:?} is not one of {TYPES}")))?;
        if let Some(unknown) = obj.keys().find(|k| {
            !["type", "roleArn", "region", "externalId"].contains(&k.as_str()) && !fields.contains(&k.as_str())
        }) {
            return Err(refuse(unknown, format!("is not a field of a {kind} destination")));
        }
        let text = |name: &str| -> Result<Option<&str>, DestinationError> {
            match obj.get(name) {
                None | Some(Value::Null) => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.as_str())),
                Some(_) => Err(refuse(name, "must be a string")),
            }
        };
        let required = |name: &str| text(name)?.ok_or_else(|| refuse(name, "is required"));
        let target = match kind {
            "sqs" => {
                let queue_url = required("queueUrl")?;
                queue_url_parts(queue_url).map_err(|m| refuse("queueUrl", m))?;
                let pointer = text("messageGroupPointer")?;
                check_pointer("messageGroupPointer", pointer)?;
                Target::Sqs {
                    queue_url: queue_url.to_owned(),
                    message_group_pointer: pointer.map(str::to_owned),
                }
            }
            "sns" => {
                let arn = required("topicArn")?;
                let parts = Arn::parse(arn, "sns").map_err(|m| refuse("topicArn", m))?;
                if !name_ok(
                    parts.resource.strip_suffix(".fifo").unwrap_or(parts.resource),
                    256,
                    b"-_",
                ) {
                    return Err(refuse("topicArn", "names no valid topic"));
                }
                Target::Sns { topic_arn: arn.into() }
            }
            "eventbridge" => {
                let arn = required("eventBusArn")?;
                let parts = Arn::parse(arn, "events").map_err(|m| refuse("eventBusArn", m))?;
                match parts.resource.strip_prefix("event-bus/") {
                    Some(name) if name_ok(name, 256, b"-_./") => {}
                    _ => return Err(refuse("eventBusArn", "must name an event bus (`event-bus/NAME`)")),
                }
                let detail_type = text("detailType")?;
                if detail_type.is_some_and(|d| d.is_empty() || d.chars().count() > 128) {
                    return Err(refuse("detailType", "must hold 1 to 128 characters"));
                }
                let source = text("source")?;
                if let Some(s) = source
                    && (s.is_empty() || s.len() > 256 || s.starts_with("aws."))
                {
                    return Err(refuse(
                        "source",
                        "must hold 1 to 256 characters and not start with `aws.`",
                    ));
                }
                Target::Eventbridge {
                    event_bus_arn: arn.into(),
                    detail_type: detail_type.map(str::to_owned),
                    source: source.map(str::to_owned),
                }
            }
            "kinesis" => {
                let arn = required("streamArn")?;
                let parts = Arn::parse(arn, "kinesis").map_err(|m| refuse("streamArn", m))?;
                match parts.resource.strip_prefix("stream/") {
                    Some(name) if name_ok(name, 128, b"-_.") => {}
                    _ => return Err(refuse("streamArn", "must name a stream (`stream/NAME`)")),
                }
                let pointer = text("partitionKeyPointer")?;
                check_pointer("partitionKeyPointer", pointer)?;
                Target::Kinesis {
                    stream_arn: arn.into(),
                    partition_key_pointer: pointer.map(str::to_owned),
                }
            }
            _ => {
                let bucket = required("bucket")?;
                if !bucket_ok(bucket) {
                    return Err(refuse(
                        "bucket",
                        "must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens",
                    ));
                }
                let prefix = text("prefix")?;
                if prefix.is_some_and(|p| p.len() > 512 || p.starts_with('/') || p.chars().any(char::is_control)) {
                    return Err(refuse(
                        "prefix",
                        "must be at most 512 bytes, not start with `/` and hold no control characters",
                    ));
                }
                Target::S3 {
                    bucket: bucket.into(),
                    prefix: prefix.map(str::to_owned),
                }
            }
        };
        let role_arn = required("roleArn")?;
        let role = Arn::parse(role_arn, "iam").map_err(|m| refuse("roleArn", m))?;
        if !role.region.is_empty() || !role.resource.starts_with("role/") || role.resource.len() <= 5 {
            return Err(refuse(
                "roleArn",
                "must be an IAM role ARN (`arn:aws:iam::ACCOUNT:role/NAME`)",
            ));
        }
        if !roles.allows(role_arn) {
            return Err(refuse(
                "roleArn",
                match roles {
                    RolePattern::None => {
                        "cannot be used: this deployment offers no destinations (DestinationRolePattern is empty)"
                            .to_owned()
                    }
                    RolePattern::Glob(p) => format!("is outside the roles this deployment may assume ({p})"),
                    RolePattern::Any => String::new(),
                },
            ));
        }
        let region = text("region")?;
        if region.is_some_and(|r| !region_ok(r)) {
            return Err(refuse("region", "is not an AWS region name (like `eu-west-1`)"));
        }
        let d = Destination {
            target,
            role_arn: role_arn.into(),
            region: region.map(str::to_owned),
        };
        // A region given beside an ARN that names another one cannot be reached.
        if let (Some(given), Some(named)) = (region, d.named_region())
            && given != named
        {
            return Err(refuse(
                "region",
                format!("is {given} but the destination is in {named}"),
            ));
        }
        Ok(d)
    }

    pub fn kind(&self) -> Kind {
        match self.target {
            Target::Sqs { .. } => Kind::Sqs,
            Target::Sns { .. } => Kind::Sns,
            Target::Eventbridge { .. } => Kind::EventBridge,
            Target::Kinesis { .. } => Kind::Kinesis,
            Target::S3 { .. } => Kind::S3,
        }
    }

    /// The region the ARN or an AWS queue URL names, if any.
    fn named_region(&self) -> Option<String> {
        match &self.target {
            Target::Sqs { queue_url, .. } => queue_url_parts(queue_url).ok().and_then(|p| p.region),
            Target::Sns { topic_arn: a }
            | Target::Eventbridge { event_bus_arn: a, .. }
            | Target::Kinesis { stream_arn: a, .. } => Arn::parse(a, "").ok().map(|p| p.region.to_owned()),
            Target::S3 { .. } => None,
        }
    }

    /// The region to call: as given, else the ARN's or queue URL's, else `default`.
    pub fn region_or(&self, default: &str) -> String {
        self.region
            .clone()
            .or_else(|| self.named_region())
            .unwrap_or_else(|| default.to_owned())
    }

    /// What the console and CLI show instead of a URL: the queue URL, ARN or
    /// `s3://bucket/prefix`.
    pub fn target_text(&self) -> String {
        match &self.target {
            Target::Sqs { queue_url, .. } => queue_url.clone(),
            Target::Sns { topic_arn } => topic_arn.clone(),
            Target::Eventbridge { event_bus_arn, .. } => event_bus_arn.clone(),
            Target::Kinesis { stream_arn, .. } => stream_arn.clone(),
            Target::S3 { bucket, prefix } => format!("s3://{bucket}/{}", prefix.as_deref().unwrap_or("")),
        }
    }

    /// Whether the queue is FIFO (its name ends in `.fifo`).
    pub fn is_fifo(&self) -> bool {
        match &self.target {
            Target::Sqs { queue_url, .. } => queue_url.ends_with(".fifo"),
            Target::Sns { topic_arn } => topic_arn.ends_with(".fifo"),
            _ => false,
        }
    }

    /// The pointer into the envelope for the message group (FIFO) or partition key.
    pub fn key_pointer(&self) -> Option<&str> {
        match &self.target {
            Target::Sqs {
                message_group_pointer: p,
                ..
            } => p.as_deref(),
            Target::Kinesis {
                partition_key_pointer: p,
                ..
            } => p.as_deref(),
            _ => None,
        }
    }
}

/// A parsed ARN (`arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE`).
struct Arn<'a> {
    region: &'a str,
    resource: &'a str,
}

impl<'a> Arn<'a> {
    /// `service` empty: any service.
    fn parse(text: &'a str, service: &str) -> Result<Arn<'a>, String> {
        let mut parts = text.splitn(6, ':');
        let (Some("arn"), Some(partition), Some(svc), Some(region), Some(account), Some(resource)) = (
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
            parts.next(),
        ) else {
            return Err("is not an ARN (`arn:aws:SERVICE:REGION:ACCOUNT:RESOURCE`)".into());
        };
        if !["aws", "aws-cn", "aws-us-gov"].contains(&partition) {
            return Err(format!("names an unknown partition {partition:?}"));
        }
        if !service.is_empty() && svc != service {
            return Err(format!("must be an ARN of service `{service}`, not `{svc}`"));
        }
        if service != "iam" && !service.is_empty() && !region_ok(region) {
            return Err("must name a region".into());
        }
        if account.len() != 12 || !account.bytes().all(|b| b.is_ascii_digit()) {
            return Err("must name a 12-digit account id".into());
        }
        if resource.is_empty() || resource.len() > 1024 || resource.chars().any(|c| c.is_control() || c == ' ') {
            return Err("names no resource".into());
        }
        Ok(Arn { region, resource })
    }
}

/// `eu-west-1`, `us-gov-east-1`, `ap-southeast-4`...
pub fn region_ok(r: &str) -> bool {
    let mut parts = r.split('-');
    let first = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    first.len() == 2
        && first.bytes().all(|b| b.is_ascii_lowercase())
        && rest.len() >= 2
        && rest
            .last()
            .is_some_and(|n| !n.is_empty() && n.len() <= 2 && n.bytes().all(|b| b.is_ascii_digit()))
        && rest[..rest.len() - 1]
            .iter()
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase()))
}

fn name_ok(name: &str, max: usize, extra: &[u8]) -> bool {
    !name.is_empty() && name.len() <= max && name.bytes().all(|b| b.is_ascii_alphanumeric() || extra.contains(&b))
}

fn bucket_ok(b: &str) -> bool {
    (3..=63).contains(&b.len())
        && b.bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'.' || c == b'-')
        && b.bytes().next().is_some_and(|c| c.is_ascii_alphanumeric())
        && b.bytes().last().is_some_and(|c| c.is_ascii_alphanumeric())
        && !b.contains("..")
}

/// A queue URL's parts: the region when the host is AWS's.
struct QueueUrl {
    region: Option<String>,
}

/// `https://sqs.REGION.amazonaws.com/ACCOUNT/NAME` (or `REGION.queue.amazonaws.com`),
/// or a loopback host, which only an emulator serves.
fn queue_url_parts(url: &str) -> Result<QueueUrl, String> {
    let bad = || "must be an SQS queue URL (`https://sqs.REGION.amazonaws.com/ACCOUNT/NAME`)".to_owned();
    let (scheme, rest) = url.split_once("://").ok_or_else(bad)?;
    let (host, path) = rest.split_once('/').ok_or_else(bad)?;
    let (account, name) = path.split_once('/').ok_or_else(bad)?;
    if account.len() != 12 || !account.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if !name_ok(name.strip_suffix(".fifo").unwrap_or(name), 75, b"-_") {
        return Err("names no valid queue (1 to 80 letters, digits, `-` and `_`, `.fifo` for FIFO)".into());
    }
    let host_name = host.rsplit_once(':').map_or(host, |(h, port)| {
        if port.bytes().all(|b| b.is_ascii_digit()) {
            h
        } else {
            host
        }
    });
    if ["127.0.0.1", "localhost", "[::1]"].contains(&host_name) {
        return Ok(QueueUrl { region: None });
    }
    if scheme != "https" || host_name != host {
        return Err(bad());
    }
    let region = host
        .strip_prefix("sqs.")
        .and_then(|h| {
            h.strip_suffix(".amazonaws.com")
                .or_else(|| h.strip_suffix(".amazonaws.com.cn"))
        })
        .or_else(|| host.strip_suffix(".queue.amazonaws.com"))
        .filter(|r| region_ok(r))
        .ok_or_else(bad)?;
    Ok(QueueUrl {
        region: Some(region.to_owned()),
    })
}

fn check_pointer(field: &str, pointer: Option<&str>) -> Result<(), DestinationError> {
    let Some(p) = pointer else { return Ok(()) };
    if p.len() > 256 || !p.starts_with('/') {
        return Err(refuse(
            field,
            "must be a JSON pointer into the envelope, like `/data/orderId`",
        ));
    }
    let bytes = p.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'~' && !matches!(bytes.get(i + 1), Some(b'0' | b'1')) {
            return Err(refuse(field, "has a `~` that is not `~0` or `~1`"));
        }
    }
    Ok(())
}

/// The external id the sender presents when it assumes a customer's role: one per
/// application (per tenant for endpoints without one), derived so it exists before
/// any endpoint does and no customer can choose another's.
pub fn external_id(tenant_id: &str, application_id: Option<&str>) -> String {
    let mut h = Sha256::new();
    h.update(b"courier destination external id\n");
    h.update(tenant_id.as_bytes());
    h.update(b"\n");
    h.update(application_id.unwrap_or("").as_bytes());
    let digest = h.finalize();
    let hex = crate::hex::encode(&digest[..16]);
    format!("courier-{hex}")
}

/// The FIFO message group or Kinesis partition key: the value the pointer names
/// in the envelope (text as is, other values as JSON), else `default`. A value
/// longer than `max` or with characters the services refuse becomes its SHA-256 in
/// hex, so the same value always lands in the same group.
pub fn message_key(envelope: &Value, pointer: Option<&str>, default: &str, max: usize) -> String {
    let found = pointer.and_then(|p| match envelope.pointer(p)? {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    });
    let key = found.unwrap_or_else(|| default.to_owned());
    if !key.is_empty() && key.len() <= max && key.bytes().all(|b| b.is_ascii_graphic()) {
        return key;
    }
    crate::hex::encode(&Sha256::digest(key.as_bytes()))
}

/// The values a consumer checks, as message attributes or the `courier` block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed<'a> {
    pub webhook_id: &'a str,
    pub timestamp: &'a str,
    pub signature: &'a str,
    pub attempt: u32,
    pub event_type: Option<&'a str>,
}

impl Signed<'_> {
    /// SQS/SNS message attributes (S3 object metadata): name and text value.
    pub fn attributes(&self) -> Vec<(&'static str, String)> {
        let mut a = vec![
            ("webhook-id", self.webhook_id.to_owned()),
            ("webhook-timestamp", self.timestamp.to_owned()),
            ("webhook-signature", self.signature.to_owned()),
            ("webhook-attempt", self.attempt.to_string()),
        ];
        if let Some(t) = self.event_type {
            a.push(("type", t.to_owned()));
        }
        a
    }

    /// The envelope with a `courier` block holding these values and the exact
    /// signed bytes (EventBridge's `detail` and Kinesis records, which re-serialise
    /// JSON or carry no attributes). None when the envelope is not a JSON object.
    pub fn with_courier_block(&self, envelope: &str) -> Option<String> {
        let mut obj: Map<String, Value> = serde_json::from_str(envelope).ok()?;
        let mut block = Map::new();
        block.insert("webhookId".into(), Value::from(self.webhook_id));
        block.insert("timestamp".into(), Value::from(self.timestamp));
        block.insert("signature".into(), Value::from(self.signature));
        block.insert("attempt".into(), Value::from(self.attempt));
        block.insert("signedPayload".into(), Value::from(envelope));
        obj.insert("courier".into(), Value::Object(block));
        serde_json::to_string(&obj).ok()
    }
}

/// The HTTP status an AWS answer means, so the endpoint's policy judges it as it
/// would a webhook's: throttling 429, access denied (or a refused AssumeRole) 403,
/// a queue, topic, bus, stream or bucket that no longer exists 410, a payload over
/// the limit 413, a service error 503; another client error keeps AWS's status.
pub fn status_for(code: &str, http_status: Option<u16>) -> u16 {
    const THROTTLED: [&str; 10] = [
        "ThrottlingException",
        "Throttling",
        "ThrottledException",
        "RequestThrottled",
        "AWS.SimpleQueueService.RequestThrottled",
        "ProvisionedThroughputExceededException",
        "KMSThrottlingException",
        "SlowDown",
        "TooManyRequestsException",
        "LimitExceededException",
    ];
    const DENIED: [&str; 11] = [
        "AccessDenied",
        "AccessDeniedException",
        "AuthorizationError",
        "AuthorizationErrorException",
        "KMSAccessDeniedException",
        "KMS.AccessDeniedException",
        "InvalidClientTokenId",
        "UnrecognizedClientException",
        "ExpiredToken",
        "ExpiredTokenException",
        "SignatureDoesNotMatch",
    ];
    const GONE: [&str; 7] = [
        "AWS.SimpleQueueService.NonExistentQueue",
        "QueueDoesNotExist",
        "NonExistentQueue",
        "NotFound",
        "NotFoundException",
        "ResourceNotFoundException",
        "NoSuchBucket",
    ];
    const TOO_BIG: [&str; 3] = [
        "RequestEntityTooLarge",
        "EntityTooLarge",
        "AWS.SimpleQueueService.BatchRequestTooLong",
    ];
    if THROTTLED.contains(&code) {
        429
    } else if DENIED.contains(&code) {
        403
    } else if GONE.contains(&code) {
        410
    } else if TOO_BIG.contains(&code) {
        413
    } else {
        http_status.filter(|s| (400..=499).contains(s)).unwrap_or(503)
    }
}

#[cfg(test)]
mod tests;
