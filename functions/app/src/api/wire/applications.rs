//! `/v1/applications` on the wire: what creating and changing an application
//! takes, and how one is shown.

use crate::api::http::patch::Patch;
use crate::domain::model::{Application, PortalSettings};
use courier_core::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `POST /v1/applications`: one of your own customers.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({"name": "Acme Corp", "uid": "acme"})))]
pub struct ApplicationIn {
    /// 1-200 characters, not only spaces. Required (null is refused).
    #[cfg_attr(feature = "openapi", schema(value_type = String, min_length = 1, max_length = 200, required))]
    pub name: Option<String>,
    /// Your own id for the customer: 1-256 letters, digits, `-`, `_` and `.`, not
    /// starting with `app_`; unique per tenant (409 otherwise).
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 256, pattern = "^[A-Za-z0-9._-]+$")
    )]
    pub uid: Option<String>,
    /// Any JSON object, at most 8 KiB serialized.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub metadata: Option<Value>,
    /// What the customer may do through a portal link: `presets`, `customPolicies`,
    /// `maxEndpoints` (0-1000), `endpointDefaults` (`rateLimit`, `maxInFlight`).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::PortalSettingsIn>))]
    pub portal: Option<Value>,
}

/// `PATCH /v1/applications/{id}`: fields left out keep their value; `null` clears
/// `uid` and `metadata`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", schema(example = json!({"name": "Acme Inc.", "metadata": null})))]
pub struct ApplicationPatch {
    /// 1-200 characters, not only spaces.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 200))]
    pub name: Option<String>,
    /// A new uid, or null to remove it.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, min_length = 1, max_length = 256, pattern = "^[A-Za-z0-9._-]+$"))]
    pub uid: Patch<Value>,
    /// A JSON object (at most 8 KiB serialized), or null to remove it.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub metadata: Patch<Value>,
    /// Portal settings: each field given replaces its value; fields left out keep theirs.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::PortalSettingsIn>))]
    pub portal: Option<Value>,
}

/// An application as the API shows it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApplicationOut {
    /// `app_...`.
    pub id: String,
    pub name: String,
    pub uid: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Object>))]
    pub metadata: Option<Value>,
    /// What the customer may do through a portal link.
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub portal: PortalSettings,
    /// Endpoints of the application that are not revoked.
    pub live_endpoints: u32,
    /// What the customer's role trust policy names (`sts:ExternalId`) for this
    /// application's destinations, shown before any endpoint exists.
    pub external_id: String,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub created_at: Timestamp,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub updated_at: Timestamp,
}

impl From<&Application> for ApplicationOut {
    fn from(a: &Application) -> Self {
        ApplicationOut {
            id: a.id.clone(),
            name: a.name.clone(),
            uid: a.uid.clone(),
            metadata: a.metadata.clone(),
            portal: a.portal.clone(),
            live_endpoints: a.live_endpoints,
            external_id: courier_core::destination::external_id(a.tenant_id.as_str(), Some(&a.id)),
            created_at: a.created_at,
            updated_at: a.updated_at,
        }
    }
}

/// What `DELETE /v1/applications/{id}` answers.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct ApplicationDeleted {
    pub id: String,
    /// Always true.
    pub deleted: bool,
}
