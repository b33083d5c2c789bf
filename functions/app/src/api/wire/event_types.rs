//! `/v1/event-types` on the wire: what declaring and changing an event type takes,
//! and how one is shown.

use crate::api::http::patch::Patch;
use crate::domain::model::EventType;
use courier_core::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /v1/event-types`: a kind of event, with an optional payload schema.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({
    "name": "invoice.paid",
    "description": "An invoice was paid.",
    "schema": {"type": "object", "required": ["invoiceId"]},
    "example": {"invoiceId": "inv_1"}
})))]
pub struct EventTypeIn {
    /// The type's name (required); not in the reserved `courier.` namespace.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::EventTypeName, required))]
    pub name: Option<String>,
    /// At most 1024 characters.
    #[cfg_attr(feature = "openapi", schema(max_length = 1024))]
    pub description: Option<String>,
    /// Shown in the catalogue; events of the type are still accepted.
    pub deprecated: Option<bool>,
    /// A JSON Schema (draft 2020-12) payloads of this type must match; no remote `$ref`s.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::JsonSchemaValue, required = false))]
    pub schema: Option<Value>,
    /// An example payload (at most 16 KiB), which must match the schema: any JSON.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::AnyJson, required = false))]
    pub example: Option<Value>,
}

/// `PATCH /v1/event-types/{name}`: fields left out keep their value; `null` clears
/// `description`, `schema` and `example`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({"deprecated": true, "example": null})))]
pub struct EventTypePatch {
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, max_length = 1024))]
    pub description: Patch<Value>,
    pub deprecated: Option<bool>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::JsonSchemaValue))]
    pub schema: Patch<Value>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::AnyJson))]
    pub example: Patch<Value>,
}

/// An event type as the API shows it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct EventTypeOut {
    pub name: String,
    pub description: Option<String>,
    pub deprecated: bool,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::JsonSchemaValue))]
    pub schema: Option<Value>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::AnyJson))]
    pub example: Option<Value>,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub created_at: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub updated_at: Timestamp,
}

impl From<&EventType> for EventTypeOut {
    fn from(t: &EventType) -> Self {
        EventTypeOut {
            name: t.name.clone(),
            description: t.description.clone(),
            deprecated: t.deprecated,
            schema: t.schema.clone(),
            example: t.example.clone(),
            created_at: t.created_at,
            updated_at: t.updated_at,
        }
    }
}
