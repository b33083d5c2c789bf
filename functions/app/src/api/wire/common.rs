//! Shapes every resource shares: a page of a list, and fields a body may not give
//! together.

use serde::Serialize;

/// One page of a list, in the list's own order: the items and the cursor to the
/// next page (null after the last).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct Page<T> {
    pub items: Vec<T>,
    /// Send it back as `cursor` for the next page; null after the last. Always present.
    #[cfg_attr(feature = "openapi", schema(required = true))]
    pub next_cursor: Option<String>,
}

/// The JSON Schema for "`field` is given and not null", which the body rules below
/// and [`crate::api::wire::events::EventInRules`] combine.
#[cfg(feature = "openapi")]
pub(crate) fn given(field: &str) -> serde_json::Value {
    serde_json::json!({"required": [field], "properties": {field: {"not": {"type": "null"}}}})
}

/// Pairs of fields a body may not give together (both present and not null; 400
/// naming them): `url` and `destination` of an endpoint, `ttlSeconds` and
/// `expiresInSeconds` of a portal link (two names for one value); and what TLS
/// settings need. utoipa has no `not`, so each body's schema gets one as an
/// extension.
#[cfg(feature = "openapi")]
pub struct ExclusiveFields;

#[cfg(feature = "openapi")]
impl utoipa::Modify for ExclusiveFields {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use crate::api::wire::endpoints::{EndpointIn, EndpointPatch};
        use crate::api::wire::portal::PortalLinkIn;
        use serde_json::json;
        use utoipa::ToSchema;
        use utoipa::openapi::RefOr;
        use utoipa::openapi::schema::Schema;
        let pairs = [
            (EndpointIn::name(), "url", "destination"),
            (EndpointPatch::name(), "url", "destination"),
            (PortalLinkIn::name(), "ttlSeconds", "expiresInSeconds"),
        ];
        for (name, a, b) in pairs {
            let schema = doc.components.as_mut().and_then(|c| c.schemas.get_mut(name.as_ref()));
            if let Some(RefOr::T(Schema::Object(o))) = schema {
                o.extensions
                    .get_or_insert_with(Default::default)
                    .insert("not".to_owned(), json!({"allOf": [given(a), given(b)]}));
            }
        }
        // TLS settings: a client certificate or a CA bundle (or both), and a key only
        // with its certificate (400 naming the field otherwise).
        let tls = doc.components.as_mut().and_then(|c| c.schemas.get_mut("EndpointTls"));
        if let Some(RefOr::T(Schema::Object(o))) = tls {
            let rules = json!([
                {"anyOf": [given("clientCertificate"), given("caBundle")]},
                {"if": given("clientKey"), "then": given("clientCertificate")}
            ]);
            o.extensions
                .get_or_insert_with(Default::default)
                .insert("allOf".to_owned(), rules);
        }
    }
}
