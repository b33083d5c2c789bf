//! Schemas of the scalars the API's paths, queries and headers carry (ids, cursors,
//! page sizes, instants), written by hand where a limit comes from
//! `api::http::limits` or an id's shape from `courier_core::ids`: a derive can only
//! take literals, so these read the constants themselves.

use crate::api::http::limits::{
    DEFAULT_PAGE, MAX_CREDENTIAL_LEN, MAX_CURSOR_LEN, MAX_IDEMPOTENCY_KEY, MAX_PAGE, MAX_UID_LEN,
};
use serde_json::json;
use std::borrow::Cow;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};
use utoipa::{PartialSchema, ToSchema};

/// A named schema whose body is a function of the limits.
macro_rules! named_schema {
    ($(#[$doc:meta])* $name:ident => $body:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                RefOr::T(Schema::Object($body))
            }
        }

        impl ToSchema for $name {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($name))
            }
        }
    };
}

/// An id: its prefix and 26 Crockford base-32 characters (a ULID).
fn ulid_id(prefix: &str, what: &str) -> utoipa::openapi::schema::Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(format!("^{prefix}[0-9A-HJKMNP-TV-Z]{{26}}$")))
        .description(Some(format!("{what} id: `{prefix}` and a ULID.")))
        .examples([json!(format!("{prefix}01JD5ZQ7X2M3C9V4B8N6R0T1W2"))])
        .build()
}

named_schema!(EndpointId => ulid_id("ep_", "An endpoint"));
named_schema!(DeliveryId => ulid_id("dlv_", "A delivery"));
named_schema!(AttemptId => ulid_id("att_", "An attempt"));
named_schema!(EventId => ulid_id("evt_", "An event"));
named_schema!(ScheduleId => ulid_id("sch_", "A schedule"));

named_schema!(
    /// A portal link's id: `pl_` and 24 hex digits.
    PortalLinkId => ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some("^pl_[0-9a-f]{24}$"))
        .description(Some("A portal link id."))
        .examples([json!("pl_0123456789abcdef01234567")])
        .build()
);

named_schema!(
    /// What `/v1/applications/{id}` takes: an `app_` id or a uid.
    ApplicationRef => ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_UID_LEN))
        .pattern(Some(format!("^[A-Za-z0-9._-]{{1,{MAX_UID_LEN}}}$")))
        .description(Some(
            "An application's `app_` id or its `uid` (the tenant's own id for the customer).",
        ))
        .examples([json!("app_01JD5ZQ7X2M3C9V4B8N6R0T1W2")])
        .build()
);

named_schema!(
    /// An event type's name, as `filterTypes` matches it.
    EventTypeName => ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(courier_core::subscription::MAX_NAME_LEN))
        .pattern(Some("^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$"))
        .description(Some(
            "Dot-separated segments of letters, digits, `_` and `-` (`invoice.paid`): the same names `filterTypes` matches.",
        ))
        .examples([json!("invoice.paid")])
        .build()
);

named_schema!(
    /// An instant on the wire.
    Timestamp => ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
        .description(Some(
            "RFC 3339. Answers are UTC with milliseconds (`2026-11-30T06:28:01.000Z`); requests may use `Z` or a numeric offset and an optional fraction.",
        ))
        .examples([json!("2026-11-30T06:28:01.000Z")])
        .build()
);

named_schema!(
    /// A list's `cursor` query parameter.
    Cursor => ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_CURSOR_LEN))
        .pattern(Some("^[A-Za-z0-9_-]+$"))
        .build()
);

named_schema!(
    /// A list's `limit` query parameter.
    PageLimit => ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(1))
        .maximum(Some(MAX_PAGE))
        .default(Some(json!(DEFAULT_PAGE)))
        .build()
);

named_schema!(
    /// The `Idempotency-Key` header.
    IdempotencyKey => ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_IDEMPOTENCY_KEY))
        .pattern(Some("^[!-~]+$"))
        .build()
);

named_schema!(
    /// The `webhook-completion-token` header.
    CompletionToken => ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(1))
        .max_length(Some(MAX_CREDENTIAL_LEN))
        .build()
);

named_schema!(
    /// A delivery's status, as the `status` filter takes it.
    DeliveryStatus => ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(crate::domain::model::DeliveryStatus::ALL.map(|s| s.as_str())))
        .description(Some(
            "`failed` covers every way a policy gives up; `dropped` was never sent.",
        ))
        .build()
);

named_schema!(
    /// What started a delivery or an attempt.
    Trigger => ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(["initial", "retry", "redelivery", "replay", "test"]))
        .description(Some("What started the delivery or attempt."))
        .build()
);

named_schema!(
    /// How an attempt ended (`courier_core::AttemptState`).
    AttemptState => ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(courier_core::AttemptState::VARIANTS.iter().map(|v| v.wire_name())))
        .description(Some("How the attempt ended; `awaiting_completion` while long-running work is not reported yet."))
        .build()
);

named_schema!(
    /// An attempt's classified cause (`courier_core::Diagnostic`).
    Diagnostic => ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(courier_core::Diagnostic::VARIANTS.iter().map(|v| v.wire_name())))
        .description(Some(
            "The classified cause, e.g. `delivered`, `http_retryable`, `rate_limited`, `network_ambiguous`. `receiver_auth_failed`: the endpoint's OAuth token endpoint gave no token, nothing was sent. New values may be added: tolerate ones you do not know.",
        ))
        .build()
);

named_schema!(
    /// What to do about an attempt's outcome (`courier_core::Remediation`).
    Remediation => ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(courier_core::Remediation::VARIANTS.iter().map(|v| v.wire_name())))
        .description(Some(
            "What to do about it, e.g. `none`, `inspect_receiver`, `review_before_redelivery`. New values may be added: tolerate ones you do not know.",
        ))
        .build()
);

named_schema!(
    /// How a failed attempt failed (`courier_core::ErrorClass`).
    ErrorClass => ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(courier_core::ErrorClass::VARIANTS.iter().map(|v| v.wire_name())))
        .description(Some("How the attempt failed."))
        .build()
);

named_schema!(
    /// Data the API passes on as it came: any JSON value but null.
    NonNullJson => ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
        .description(Some("Any JSON value except null."))
        // utoipa has no `not`; an extension is written as it is named.
        .extensions(Some(utoipa::openapi::extensions::Extensions::from_iter([(
            "not",
            json!({"type": "null"}),
        )])))
        .build()
);

named_schema!(
    /// Data the API keeps as it came, null included (an event type's `example`).
    AnyJson => ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::AnyValue)
        .description(Some("Any JSON value."))
        .build()
);

named_schema!(
    /// A JSON Schema as a value: an object or a boolean (null where it may be absent).
    JsonSchemaValue => ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::Array(vec![Type::Object, Type::Boolean, Type::Null]))
        .description(Some("A JSON Schema (draft 2020-12): an object or a boolean; null when there is none."))
        .build()
);
