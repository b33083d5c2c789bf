//! Schemas of what an endpoint's policy, destination, subscription and limits take
//! on the wire, written as JSON Schema text: `courier_core` parses these fields from
//! JSON itself (`Policy::from_value`, `Destination::from_value`, the subscription
//! and rate-limit checks) with its own error texts, so the API keeps reading them as
//! JSON and the document states their shape here. A test holds the numbers that
//! come from code constants to those constants, and every schema to its text.

use std::borrow::Cow;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

/// The schema written as `text`; an empty schema if the text does not read (the
/// tests below read every one).
fn read(text: &str) -> RefOr<Schema> {
    serde_json::from_str(text).unwrap_or_else(|_| RefOr::T(Schema::default()))
}

/// A named schema given as JSON Schema text.
macro_rules! json_schema {
    ($(#[$doc:meta])* $name:ident => $text:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl $name {
            /// The JSON Schema text of this schema.
            pub const TEXT: &'static str = $text;
        }

        impl utoipa::PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                read(Self::TEXT)
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
        }
    };
}

/// A complete policy, as answers show a custom one: [`PolicySpec`]'s fields
/// without `base`, every one present.
pub struct Policy;

impl utoipa::PartialSchema for Policy {
    fn schema() -> RefOr<Schema> {
        let mut spec: serde_json::Value = serde_json::from_str(PolicySpec::TEXT).unwrap_or_default();
        if let Some(props) = spec["properties"].as_object_mut() {
            props.remove("base");
        }
        let required: Vec<String> = spec["properties"]
            .as_object()
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let policy = serde_json::json!({
            "type": "object",
            "description": "A complete delivery policy, as answered for endpoints whose policy is not a preset.",
            "properties": spec["properties"],
            "required": required,
        });
        serde_json::from_value(policy).unwrap_or_else(|_| RefOr::T(Schema::default()))
    }
}

impl utoipa::ToSchema for Policy {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Policy")
    }
}

json_schema!(
    /// A built-in policy's name.
    PresetName => r##"{
    "type": "string",
    "enum": ["greatwait", "tanitar", "gavai", "smartchat"],
    "description": "A built-in delivery policy."
}"##
);

json_schema!(
    /// A status or status class in a policy.
    StatusPattern => r##"{
    "type": "string",
    "pattern": "^\\s*([1-5][0-9]{2}|[1-5][xX]{2})\\s*$",
    "description": "A status (`\"429\"`) or a status class (`\"5xx\"`), as a string."
}"##
);

json_schema!(
    /// A policy's jitter.
    Jitter => r##"{
    "type": "object",
    "description": "Each wait is multiplied by a uniform factor in [min, max] (0 < min <= max <= 10).",
    "properties": {
        "min": {"type": "number", "exclusiveMinimum": 0, "maximum": 10},
        "max": {"type": "number", "exclusiveMinimum": 0, "maximum": 10}
    },
    "required": ["min", "max"],
    "additionalProperties": false
}"##
);

json_schema!(
    /// A policy's `retryAfter` rule.
    RetryAfterRule => r##"{
    "type": "object",
    "description": "On these statuses a receiver's `Retry-After` sets the next wait, up to `capSeconds`.",
    "properties": {
        "statuses": {
            "type": "array",
            "minItems": 1,
            "items": {"$ref": "#/components/schemas/StatusPattern"}
        },
        "capSeconds": {"type": "integer", "minimum": 1, "maximum": 2592000}
    },
    "required": ["statuses", "capSeconds"],
    "additionalProperties": false
}"##
);

json_schema!(
    /// A policy's deadline.
    Deadline => r##"{
    "description": "When a delivery stops being attempted because of time.",
    "oneOf": [
        {
            "type": "object",
            "description": "No time limit.",
            "properties": {
                "kind": {"enum": ["none"], "type": "string"}
            },
            "required": ["kind"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "description": "No attempt starts later than the planned instant plus the horizon of the endpoint's latency class (plus its long-running allowance when enabled); the delivery settles instead.",
            "properties": {
                "kind": {"enum": ["horizon"], "type": "string"},
                "realtimeSeconds": {"type": "integer", "minimum": 1, "maximum": 2592000},
                "bulkSeconds": {"type": "integer", "minimum": 1, "maximum": 2592000},
                "addLongRunningAllowance": {"type": "boolean"}
            },
            "required": ["kind", "realtimeSeconds", "bulkSeconds", "addLongRunningAllowance"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "description": "An attempt that would start after the planned instant plus `afterSeconds` is moved to exactly that instant and is the last one.",
            "properties": {
                "kind": {"enum": ["clampLast"], "type": "string"},
                "afterSeconds": {"type": "integer", "minimum": 1, "maximum": 2592000}
            },
            "required": ["kind", "afterSeconds"],
            "additionalProperties": false
        }
    ]
}"##
);

json_schema!(
    /// A policy's health model.
    HealthModel => r##"{
    "description": "The endpoint health model.",
    "oneOf": [
        {
            "type": "object",
            "description": "No health tracking.",
            "properties": {
                "model": {"enum": ["none"], "type": "string"}
            },
            "required": ["model"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "description": "A circuit breaker that opens for `openSeconds` after that many deliveries in a row used every attempt.",
            "properties": {
                "model": {"enum": ["breaker"], "type": "string"},
                "exhaustedInARow": {"type": "integer", "minimum": 1},
                "openSeconds": {"type": "integer", "minimum": 1, "maximum": 2592000}
            },
            "required": ["model", "exhaustedInARow", "openSeconds"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "description": "active / degraded / paused / disabled, driven by failures in a row and time without a success.",
            "properties": {
                "model": {"enum": ["smartchat"], "type": "string"},
                "degradeAfterFailures": {"type": "integer", "minimum": 1},
                "pauseAfterFailures": {"type": "integer", "minimum": 1},
                "pauseAfterSeconds": {"type": "integer", "minimum": 1, "maximum": 31536000},
                "disableAfterSeconds": {"type": "integer", "minimum": 1, "maximum": 31536000}
            },
            "required": ["model", "degradeAfterFailures", "pauseAfterFailures", "pauseAfterSeconds", "disableAfterSeconds"],
            "additionalProperties": false
        }
    ]
}"##
);

json_schema!(
    /// How much of a failed answer an attempt keeps.
    SnippetLimit => r##"{
    "description": "How much of a failed response body an attempt keeps: at most 16,384 bytes (4,096 characters of up to 4 bytes each).",
    "oneOf": [
        {
            "type": "object",
            "properties": {
                "maxChars": {"type": "integer", "minimum": 1, "maximum": 4096}
            },
            "required": ["maxChars"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "properties": {
                "maxBytes": {"type": "integer", "minimum": 1, "maximum": 16384}
            },
            "required": ["maxBytes"],
            "additionalProperties": false
        }
    ]
}"##
);

json_schema!(
    /// A policy's retention.
    Retention => r##"{
    "type": "object",
    "description": "How long settled deliveries and attempts stay readable, and the policy's replay window.",
    "properties": {
        "settledDays": {"type": "integer", "minimum": 1, "maximum": 365},
        "replayWindowDays": {"type": "integer", "minimum": 1, "maximum": 365}
    },
    "required": ["settledDays", "replayWindowDays"],
    "additionalProperties": false
}"##
);

json_schema!(
    /// A custom policy as sent.
    PolicySpec => r##"{
    "type": "object",
    "description": "A custom policy: every field is optional and overrides `base` (or the neutral defaults). For `retryAfter`, `receiverFailureLimit`, `retryable4xx` and `attemptHeader`, an explicit null clears the base's value. Without `name` the policy is called `<base>-custom` or `custom`.",
    "properties": {
        "base": {
            "$ref": "#/components/schemas/PresetName",
            "description": "The preset to start from; without it, neutral defaults (one attempt, no retries)."
        },
        "name": {"type": "string", "pattern": "^[A-Za-z0-9._-]{1,64}$"},
        "maxAttempts": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Attempts including the first."},
        "waitsSeconds": {
            "type": "array",
            "maxItems": 100,
            "items": {"type": "number", "minimum": 0, "maximum": 2592000},
            "description": "Waits before attempts 2, 3, ...; the last one repeats while attempts remain."
        },
        "waitFrom": {"type": "string", "enum": ["attemptEnd", "attemptStart"], "description": "What a wait is measured from."},
        "jitter": {"$ref": "#/components/schemas/Jitter"},
        "retryAfter": {
            "oneOf": [
                {"$ref": "#/components/schemas/RetryAfterRule"},
                {"type": "null"}
            ]
        },
        "deadline": {"$ref": "#/components/schemas/Deadline"},
        "receiverFailureLimit": {
            "type": ["integer", "null"],
            "minimum": 1,
            "description": "Stop after this many receiver-caused failures; null for no limit."
        },
        "retryable4xx": {
            "type": ["array", "null"],
            "items": {"type": "integer", "minimum": 400, "maximum": 499},
            "description": "When a list, a 4xx not in it is terminal; null retries every non-2xx answer."
        },
        "on410": {
            "type": "string",
            "enum": ["asStatus", "deliveryGone", "disableEndpoint"],
            "description": "How a 410 Gone answer is treated."
        },
        "redirects": {"type": "string", "enum": ["never"], "description": "Redirects are never followed."},
        "timeoutMs": {"type": "integer", "minimum": 1, "maximum": 120000},
        "attemptHeader": {
            "type": ["string", "null"],
            "pattern": "^[A-Za-z0-9-]{1,64}$",
            "description": "An extra request header carrying the attempt number."
        },
        "health": {"$ref": "#/components/schemas/HealthModel"},
        "snippet": {"$ref": "#/components/schemas/SnippetLimit"},
        "reasonStyle": {
            "type": "string",
            "enum": ["tanitar", "cause"],
            "description": "How settle reasons (`deadReason`) are spelled."
        },
        "unusableEndpoint": {
            "type": "string",
            "enum": ["retry", "settle"],
            "description": "What happens when the endpoint cannot be used before sending."
        },
        "retention": {"$ref": "#/components/schemas/Retention"}
    },
    "additionalProperties": false
}"##
);

json_schema!(
    /// `policy` as sent: a preset name or a custom policy.
    PolicyInput => r##"{
    "description": "A preset name or a custom policy object.",
    "oneOf": [
        {"$ref": "#/components/schemas/PresetName"},
        {"$ref": "#/components/schemas/PolicySpec"}
    ]
}"##
);

json_schema!(
    /// A destination in the customer's AWS account.
    Destination => r##"{
    "description": "A queue, topic, bus, stream or bucket in the customer's AWS account, instead of a `url` (docs/destinations.md). The consumer gets the webhook envelope with `webhook-id`, `webhook-timestamp`, `webhook-signature`, `webhook-attempt` and `type` as message attributes (SQS, SNS) or object metadata (S3); EventBridge's `detail` and Kinesis records carry them in a `courier` block with the exact signed bytes (`signedPayload`).",
    "oneOf": [
        {
            "type": "object",
            "description": "Amazon SQS, standard or FIFO.",
            "properties": {
                "type": {"enum": ["sqs"], "type": "string"},
                "queueUrl": {
                    "type": "string",
                    "maxLength": 2048,
                    "description": "`https://sqs.REGION.amazonaws.com/ACCOUNT/NAME` (`.fifo` for FIFO)."
                },
                "messageGroupPointer": {
                    "type": "string",
                    "maxLength": 256,
                    "pattern": "^/",
                    "description": "FIFO: the message group is this envelope field's value (default: the endpoint id); the deduplication id is the attempt's id."
                },
                "roleArn": {
                    "type": "string",
                    "maxLength": 1024,
                    "description": "The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the deployment's `DestinationRolePattern`."
                },
                "region": {
                    "type": "string",
                    "pattern": "^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$",
                    "description": "Default: the ARN's or queue URL's region, else the deployment's."
                },
                "externalId": {
                    "type": "string",
                    "readOnly": true,
                    "description": "Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per application, per tenant for endpoints without one)."
                }
            },
            "required": ["type", "queueUrl", "roleArn"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "description": "Amazon SNS.",
            "properties": {
                "type": {"enum": ["sns"], "type": "string"},
                "topicArn": {"type": "string", "maxLength": 1024},
                "roleArn": {
                    "type": "string",
                    "maxLength": 1024,
                    "description": "The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the deployment's `DestinationRolePattern`."
                },
                "region": {
                    "type": "string",
                    "pattern": "^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$",
                    "description": "Default: the ARN's or queue URL's region, else the deployment's."
                },
                "externalId": {
                    "type": "string",
                    "readOnly": true,
                    "description": "Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per application, per tenant for endpoints without one)."
                }
            },
            "required": ["type", "topicArn", "roleArn"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "description": "Amazon EventBridge (the envelope is the event's `detail`).",
            "properties": {
                "type": {"enum": ["eventbridge"], "type": "string"},
                "eventBusArn": {"type": "string", "maxLength": 1024},
                "detailType": {"type": "string", "minLength": 1, "maxLength": 128, "description": "Default: the event's type."},
                "source": {"type": "string", "minLength": 1, "maxLength": 256, "description": "Default: `courier`."},
                "roleArn": {
                    "type": "string",
                    "maxLength": 1024,
                    "description": "The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the deployment's `DestinationRolePattern`."
                },
                "region": {
                    "type": "string",
                    "pattern": "^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$",
                    "description": "Default: the ARN's or queue URL's region, else the deployment's."
                },
                "externalId": {
                    "type": "string",
                    "readOnly": true,
                    "description": "Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per application, per tenant for endpoints without one)."
                }
            },
            "required": ["type", "eventBusArn", "roleArn"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "description": "Amazon Kinesis Data Streams.",
            "properties": {
                "type": {"enum": ["kinesis"], "type": "string"},
                "streamArn": {"type": "string", "maxLength": 1024},
                "partitionKeyPointer": {
                    "type": "string",
                    "maxLength": 256,
                    "pattern": "^/",
                    "description": "The partition key is this envelope field's value (default: the event id)."
                },
                "roleArn": {
                    "type": "string",
                    "maxLength": 1024,
                    "description": "The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the deployment's `DestinationRolePattern`."
                },
                "region": {
                    "type": "string",
                    "pattern": "^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$",
                    "description": "Default: the ARN's or queue URL's region, else the deployment's."
                },
                "externalId": {
                    "type": "string",
                    "readOnly": true,
                    "description": "Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per application, per tenant for endpoints without one)."
                }
            },
            "required": ["type", "streamArn", "roleArn"],
            "additionalProperties": false
        },
        {
            "type": "object",
            "description": "Amazon S3, one object per event.",
            "properties": {
                "type": {"enum": ["s3"], "type": "string"},
                "bucket": {"type": "string", "minLength": 3, "maxLength": 63},
                "prefix": {
                    "type": "string",
                    "maxLength": 512,
                    "description": "Objects are `{prefix}{yyyy}/{mm}/{dd}/{eventId}.json`."
                },
                "roleArn": {
                    "type": "string",
                    "maxLength": 1024,
                    "description": "The IAM role in your account Courier assumes (with `externalId`) to deliver; it must match the deployment's `DestinationRolePattern`."
                },
                "region": {
                    "type": "string",
                    "pattern": "^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$",
                    "description": "Default: the ARN's or queue URL's region, else the deployment's."
                },
                "externalId": {
                    "type": "string",
                    "readOnly": true,
                    "description": "Shown, never set: what the role's trust policy requires as `sts:ExternalId` (one per application, per tenant for endpoints without one)."
                }
            },
            "required": ["type", "bucket", "roleArn"],
            "additionalProperties": false
        }
    ]
}"##
);

json_schema!(
    /// An endpoint's `rateLimit`.
    RateLimit => r##"{
    "type": "object",
    "description": "A token bucket shared by every sender instance: at most `perSecond` attempts a second on average, `burst` at once after a quiet spell. An attempt over the limit is held back (re-delayed, not sent, not counted as an attempt, not a failure) and starts no earlier than its token. See docs/limits.md.",
    "properties": {
        "perSecond": {
            "type": "number",
            "minimum": 0.1,
            "maximum": 10000,
            "description": "Attempts per second (0.1 to 10,000; kept to 0.001)."
        },
        "burst": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100000,
            "description": "Bucket size; without it, one second of tokens (at least 1)."
        }
    },
    "required": ["perSecond"],
    "additionalProperties": false
}"##
);

json_schema!(
    /// An application's `portal` settings as given (`portal_settings` in
    /// `api::resources::applications`): unknown keys are refused.
    PortalSettingsIn => r##"{
    "type": "object",
    "description": "What the customer may do through a portal link. Each field given replaces its value.",
    "properties": {
        "presets": {
            "type": "array",
            "items": {"$ref": "#/components/schemas/PresetName"},
            "description": "Presets the customer may choose."
        },
        "customPolicies": {"type": "boolean", "description": "Whether the customer may write a custom policy."},
        "maxEndpoints": {
            "type": "integer",
            "minimum": 0,
            "maximum": 1000,
            "description": "Endpoints the customer may have."
        },
        "endpointDefaults": {
            "type": "object",
            "description": "Limits given to the customer's new endpoints.",
            "properties": {
                "rateLimit": {"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/RateLimit"}]},
                "maxInFlight": {"type": ["integer", "null"], "minimum": 1, "maximum": 1000}
            },
            "additionalProperties": false
        }
    },
    "additionalProperties": false
}"##
);

json_schema!(
    /// An endpoint's `filterTypes`.
    FilterTypes => r##"{
    "type": ["array", "null"],
    "maxItems": 50,
    "items": {"type": "string", "maxLength": 128, "pattern": "^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*(\\.\\*)?$"},
    "description": "Event types the endpoint takes: exact names (`invoice.paid`) or a trailing prefix wildcard (`invoice.*`, every type under `invoice.`). null: every type. A bad entry answers 400 naming it (`filterTypes[2]`). Operational events (the reserved `courier.` types: `courier.endpoint.degraded`, `.paused`, `.disabled`, `.enabled`, `.breaker_opened`, `.breaker_closed`, `.failing`, `.recovered`, `courier.delivery.failed`, `courier.fanout.stalled`) go only to endpoints whose filter names them exactly or by a `courier.` prefix wildcard; null (every type) does not include them. An entry naming no operational type of that namespace is 400."
}"##
);

json_schema!(
    /// An endpoint's `channels`.
    Channels => r##"{
    "type": ["array", "null"],
    "maxItems": 50,
    "items": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[A-Za-z0-9_.:-]+$"},
    "description": "With channels, the endpoint takes only events carrying one of them. null: no channel filter. A bad entry answers 400 naming it (`channels[0]`)."
}"##
);

json_schema!(
    /// An endpoint's `latencyClass`.
    LatencyClass => r##"{
    "type": "string",
    "enum": ["realtime", "bulk"],
    "default": "realtime",
    "description": "Chooses the deadline horizon of policies that have one."
}"##
);

json_schema!(
    /// An endpoint's derived `status`.
    EndpointStatus => r##"{
    "type": "string",
    "enum": ["active", "degraded", "paused", "disabled", "revoked"],
    "description": "`revoked` and `disabled` by hand or by the API; otherwise `active`, or the SmartChat health model's status."
}"##
);

json_schema!(
    /// A SmartChat health status.
    SmartHealthStatus => r##"{
    "type": "string",
    "enum": ["active", "degraded", "paused", "disabled"]
}"##
);

json_schema!(
    /// A signing secret's state.
    SecretState => r##"{
    "type": "string",
    "enum": ["active", "retiring"]
}"##
);

json_schema!(
    /// How the OAuth client authenticates at the token endpoint.
    ClientAuth => r##"{
    "type": "string",
    "enum": ["basic", "post"],
    "default": "basic",
    "description": "`basic`: client_secret_basic (HTTP Basic); `post`: client_secret_post (form body)."
}"##
);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};
    use utoipa::PartialSchema;

    fn shown<T: PartialSchema>() -> Value {
        serde_json::to_value(T::schema()).unwrap_or_default()
    }

    fn text(t: &str) -> Value {
        serde_json::from_str(t).unwrap_or_default()
    }

    #[test]
    fn every_schema_reads_as_written() {
        let all = [
            (PresetName::TEXT, shown::<PresetName>()),
            (StatusPattern::TEXT, shown::<StatusPattern>()),
            (Jitter::TEXT, shown::<Jitter>()),
            (RetryAfterRule::TEXT, shown::<RetryAfterRule>()),
            (Deadline::TEXT, shown::<Deadline>()),
            (HealthModel::TEXT, shown::<HealthModel>()),
            (SnippetLimit::TEXT, shown::<SnippetLimit>()),
            (Retention::TEXT, shown::<Retention>()),
            (PolicySpec::TEXT, shown::<PolicySpec>()),
            (PolicyInput::TEXT, shown::<PolicyInput>()),
            (Destination::TEXT, shown::<Destination>()),
            (RateLimit::TEXT, shown::<RateLimit>()),
            (PortalSettingsIn::TEXT, shown::<PortalSettingsIn>()),
            (FilterTypes::TEXT, shown::<FilterTypes>()),
            (Channels::TEXT, shown::<Channels>()),
            (LatencyClass::TEXT, shown::<LatencyClass>()),
            (EndpointStatus::TEXT, shown::<EndpointStatus>()),
            (SmartHealthStatus::TEXT, shown::<SmartHealthStatus>()),
            (SecretState::TEXT, shown::<SecretState>()),
            (ClientAuth::TEXT, shown::<ClientAuth>()),
        ];
        for (t, schema) in all {
            assert_ne!(text(t), Value::Null, "{t}");
            assert_eq!(schema, text(t), "{t}");
        }
        let policy = shown::<Policy>();
        assert!(policy["properties"].get("base").is_none());
        assert_eq!(
            policy["required"].as_array().map(Vec::len),
            text(PolicySpec::TEXT)["properties"].as_object().map(|p| p.len() - 1)
        );
    }

    #[test]
    fn limits_and_names_are_the_code_s() {
        use crate::api::http::limits::MAX_BURST;
        use courier_core::subscription::{MAX_ENTRIES, MAX_NAME_LEN};
        let names = |v: &Value| v["enum"].clone();
        assert_eq!(names(&shown::<PresetName>()), json!(courier_core::policy::PRESET_NAMES));
        assert_eq!(
            names(&shown::<PresetName>()),
            json!(crate::domain::model::PORTAL_PRESETS)
        );
        let rate = shown::<RateLimit>();
        assert_eq!(
            rate["properties"]["perSecond"]["minimum"],
            json!(courier_core::rate_limit::MIN_PER_SECOND)
        );
        assert_eq!(
            rate["properties"]["perSecond"]["maximum"].as_f64(),
            Some(courier_core::rate_limit::MAX_PER_SECOND)
        );
        assert_eq!(rate["properties"]["burst"]["maximum"], json!(MAX_BURST));
        let portal = shown::<PortalSettingsIn>();
        assert_eq!(
            portal["properties"]["maxEndpoints"]["maximum"],
            json!(crate::api::http::limits::MAX_PORTAL_MAX_ENDPOINTS)
        );
        let defaults = &portal["properties"]["endpointDefaults"]["properties"]["maxInFlight"];
        assert_eq!(defaults["minimum"], json!(courier_core::limiter::MIN_IN_FLIGHT));
        assert_eq!(defaults["maximum"], json!(courier_core::limiter::MAX_IN_FLIGHT));
        for list in [shown::<FilterTypes>(), shown::<Channels>()] {
            assert_eq!(list["maxItems"], json!(MAX_ENTRIES));
            assert_eq!(list["items"]["maxLength"], json!(MAX_NAME_LEN));
        }
        let snippet = shown::<SnippetLimit>();
        assert_eq!(
            snippet["oneOf"][1]["properties"]["maxBytes"]["maximum"],
            json!(courier_core::policy::MAX_SNIPPET_BYTES)
        );
        let health: Vec<&str> = courier_core::health::HealthStatus::ALL
            .iter()
            .map(|s| s.wire_name())
            .collect();
        assert_eq!(names(&shown::<SmartHealthStatus>()), json!(health));
        let mut statuses = health.clone();
        statuses.push("revoked");
        assert_eq!(names(&shown::<EndpointStatus>()), json!(statuses));
        assert_eq!(
            names(&shown::<ClientAuth>()),
            json!([
                crate::domain::connectivity::ClientAuth::Basic,
                crate::domain::connectivity::ClientAuth::Post
            ])
        );
        assert_eq!(
            names(&shown::<LatencyClass>()),
            json!([
                courier_core::decide::LatencyClass::Realtime,
                courier_core::decide::LatencyClass::Bulk
            ])
        );
        assert_eq!(
            names(&shown::<SecretState>()),
            json!([
                crate::domain::model::SecretState::Active,
                crate::domain::model::SecretState::Retiring
            ])
        );
    }
}
