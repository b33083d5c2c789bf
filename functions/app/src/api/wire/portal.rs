//! Portal links on the wire: what making one takes, the link and its token as
//! answered once, a revocation, the session a portal token reads and the activity
//! its writes leave. The token is shown only in the answer that makes it (it is
//! stored hashed).

use crate::domain::model::PortalActivity;
use courier_core::Timestamp;
use serde::{Deserialize, Serialize};

/// `POST /v1/portal-links`: a link for tenants without applications; its scope is
/// exactly these endpoints, and it cannot create any.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"endpointIds": ["ep_01JD5ZQ7X2M3C9V4B8N6R0T1W2"], "expiresInSeconds": 3600})))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PortalLinkIn {
    /// The endpoints the link may see and manage (each must be one of yours;
    /// repeats count once).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::api::openapi::schemas::EndpointId>, min_items = 1, max_items = 50))]
    pub endpoint_ids: Vec<String>,
    /// How long the link works, at most 24 hours (the older name of
    /// `expiresInSeconds`).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 86400, default = 3600))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub ttl_seconds: Option<u64>,
    /// How long the link works, at most 24 hours (`ttlSeconds` says the same; send
    /// one).
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 86400, default = 3600))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub expires_in_seconds: Option<u64>,
    /// Takes away every write (403 `portal_forbidden`).
    #[cfg_attr(feature = "openapi", schema(default = false))]
    pub read_only: Option<bool>,
}

/// `POST /v1/applications/{id}/portal-links`: the body may be left out.
#[derive(Debug, Default, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(example = json!({"expiresInSeconds": 3600, "readOnly": true})))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ApplicationPortalLinkIn {
    /// How long the link works, at most 24 hours.
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 86400, default = 3600))]
    #[serde(default, deserialize_with = "crate::api::wire::numbers::opt_whole")]
    pub expires_in_seconds: Option<u64>,
    /// Narrows the link to these endpoints of the application (it then manages only
    /// those and cannot create any).
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<crate::api::openapi::schemas::EndpointId>>, min_items = 1, max_items = 50))]
    pub endpoint_ids: Option<Vec<String>>,
    /// Takes away every write (403 `portal_forbidden`).
    #[cfg_attr(feature = "openapi", schema(default = false))]
    pub read_only: Option<bool>,
}

/// A portal link as made: its token is in this answer only.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PortalLinkOut {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::PortalLinkId))]
    pub id: String,
    /// The console with the token in the URL fragment (`…/console#portal=<token>`):
    /// browsers never send a fragment to the server, and the page moves the token
    /// to memory and clears it from the address bar. Built from the `Host` the
    /// request used.
    pub url: String,
    /// Shown once, stored only hashed. Accepted as `Authorization: Bearer <token>`
    /// on the routes a portal may use, inside its scope only (404 for any other
    /// endpoint or delivery); any other route answers 403 `portal_forbidden`.
    #[cfg_attr(feature = "openapi", schema(pattern = r"^cpl_[0-9a-f]{24}\.[A-Za-z0-9_-]{43}$"))]
    pub token: String,
    /// The application whose customer holds the link; null for a link over
    /// endpoint ids only.
    #[cfg_attr(feature = "openapi", schema(pattern = "^app_[0-9A-HJKMNP-TV-Z]{26}$", required))]
    pub application_id: Option<String>,
    /// The endpoints the link is narrowed to; null: every endpoint of its
    /// application.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<crate::api::openapi::schemas::EndpointId>>, required))]
    pub endpoint_ids: Option<Vec<String>>,
    pub read_only: bool,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub expires_at: String,
}

/// What `DELETE /v1/portal-links/{id}` answers.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PortalLinkRevoked {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::PortalLinkId))]
    pub id: String,
    /// Always true.
    pub revoked: bool,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub expires_at: String,
}

/// What a portal link allows, as `GET /v1/portal/session` tells the console.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PortalSession {
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::PortalLinkId))]
    pub link_id: String,
    /// The link's application; null for a link over endpoint ids only.
    #[cfg_attr(feature = "openapi", schema(pattern = "^app_[0-9A-HJKMNP-TV-Z]{26}$", required))]
    pub application_id: Option<String>,
    #[cfg_attr(feature = "openapi", schema(required))]
    pub application_name: Option<String>,
    /// The endpoints the link is narrowed to; null: every endpoint of its
    /// application.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<Vec<crate::api::openapi::schemas::EndpointId>>, required))]
    pub endpoint_ids: Option<Vec<String>>,
    pub read_only: bool,
    pub can_create_endpoints: bool,
    /// Presets the link may choose for an endpoint.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<crate::api::wire::endpoint_schemas::PresetName>))]
    pub presets: Vec<String>,
    /// Whether the link may send a custom policy object.
    pub custom_policies: bool,
    /// The most live endpoints the application may hold when a portal creates one.
    pub max_endpoints: u32,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub expires_at: String,
}

/// One write made with a portal link, as the activity lists show it.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct PortalActivityOut {
    /// `pa_...`, ordered by time.
    #[cfg_attr(feature = "openapi", schema(pattern = "^pa_[0-9]{13}[0-9a-f]{16}$"))]
    pub id: String,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::PortalLinkId))]
    pub link_id: String,
    /// The link's application; null for a link over endpoint ids only.
    #[cfg_attr(feature = "openapi", schema(pattern = "^app_[0-9A-HJKMNP-TV-Z]{26}$", required))]
    pub application_id: Option<String>,
    pub method: String,
    /// The route's template, e.g. `PATCH /v1/endpoints/{id}`.
    pub route: String,
    /// The path the request named.
    pub path: String,
    /// The top-level fields the request body set.
    pub fields: Vec<String>,
    /// The status the write answered.
    pub status: u16,
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub at: Timestamp,
}

impl From<&PortalActivity> for PortalActivityOut {
    fn from(a: &PortalActivity) -> PortalActivityOut {
        PortalActivityOut {
            id: a.id.clone(),
            link_id: a.link_id.clone(),
            application_id: a.application_id.clone(),
            method: a.method.clone(),
            route: a.route.clone(),
            path: a.path.clone(),
            fields: a.fields.clone(),
            status: a.status,
            at: a.at,
        }
    }
}
