//! An endpoint's `headers`, `auth` (OAuth 2.0 client credentials) and `tls`
//! (client certificate, private CA) on the wire. Answers never carry a write-only
//! value: a secret header's value, `clientSecret` and `clientKey` are shown as null.

use crate::domain::connectivity::{ClientAuth, EndpointTls, OAuthClient};
use crate::domain::model::CustomHeader;
use courier_core::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One entry of `headers` as sent: a secret entry sent back with `value: null`
/// keeps the value stored under its name.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = CustomHeader, example = json!({"name": "X-Api-Key", "value": "k-123", "secret": true})))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HeaderIn {
    /// An HTTP field name. Refused (400 naming it): names Courier sets
    /// (`content-type`, `content-length`, `content-encoding`, `host`, `user-agent`,
    /// `webhook-*`, the presets' attempt headers and the endpoint policy's own) and
    /// hop-by-hop ones (`connection`, `keep-alive`, `proxy-*`, `te`, `trailer`,
    /// `transfer-encoding`, `upgrade`, `expect`); names are unique, ignoring case.
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, max_length = 256, pattern = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
    )]
    pub name: String,
    /// One line (no CR, LF, NUL or other control characters but tab), at most 4,096
    /// bytes. Shown as null when `secret`; sending null back for a secret header
    /// keeps its stored value.
    #[cfg_attr(feature = "openapi", schema(max_length = 4096, required))]
    pub value: Option<String>,
    /// Write-only: never shown or logged again.
    #[cfg_attr(feature = "openapi", schema(default = false))]
    pub secret: Option<bool>,
}

/// A header as answers show it: a secret one's value as null.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeaderOut {
    pub name: String,
    pub value: Option<String>,
    pub secret: bool,
}

impl From<&CustomHeader> for HeaderOut {
    fn from(h: &CustomHeader) -> Self {
        HeaderOut {
            name: h.name.clone(),
            value: h.value.plain().filter(|_| !h.secret).map(str::to_owned),
            secret: h.secret,
        }
    }
}

/// The one grant offered.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum AuthType {
    /// The OAuth 2.0 grant: client credentials (RFC 6749 4.4).
    #[serde(rename = "oauth2_client_credentials")]
    OAuth2ClientCredentials,
}

/// OAuth 2.0 client credentials: every attempt carries `Authorization: Bearer
/// <token>` (in place of an `Authorization` among `headers`). The token endpoint's
/// certificate is checked against the public roots (and the deployment's trusted
/// CA), not the endpoint's `tls.caBundle`. The token is kept until shortly before it
/// expires; a 401 to a kept token gets one fresh token and the same request once
/// more. A token endpoint that gives no token makes the attempt
/// `retryable_failure` / `receiver_auth_failed` / `review_endpoint`, with its status
/// and the start of its answer as the snippet.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = EndpointAuth, example = json!({
    "type": "oauth2_client_credentials",
    "tokenUrl": "https://auth.example.com/oauth/token",
    "clientId": "courier",
    "clientSecret": "s3cret",
    "scope": "webhooks:write"
})))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AuthIn {
    #[serde(rename = "type")]
    pub kind: AuthType,
    /// The token endpoint. Admitted like endpoint URLs (400 malformed, 422
    /// `endpoint_unsafe` for a target Courier does not send to), and again at every
    /// fetch; the fetch connects to the address that was checked.
    #[cfg_attr(feature = "openapi", schema(max_length = 2048))]
    pub token_url: String,
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 1024))]
    pub client_id: String,
    /// Write-only: shown as null. Required when the endpoint has no stored secret;
    /// null or left out keeps the stored one.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 4096))]
    pub client_secret: Option<String>,
    /// Scopes asked for, separated by single spaces (RFC 6749 3.3).
    #[cfg_attr(feature = "openapi", schema(max_length = 1024))]
    pub scope: Option<String>,
    /// Sent as the `audience` parameter.
    #[cfg_attr(feature = "openapi", schema(max_length = 1024))]
    pub audience: Option<String>,
    #[cfg_attr(feature = "openapi", schema(value_type = Option<crate::api::wire::endpoint_schemas::ClientAuth>))]
    pub client_auth: Option<ClientAuth>,
}

/// `auth` as answers show it: the client secret as null.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuthOut {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub token_url: String,
    pub client_id: String,
    /// Always null: write-only.
    pub client_secret: Option<String>,
    pub scope: Option<String>,
    pub audience: Option<String>,
    pub client_auth: ClientAuth,
}

impl From<&OAuthClient> for AuthOut {
    fn from(a: &OAuthClient) -> Self {
        AuthOut {
            kind: "oauth2_client_credentials",
            token_url: a.token_url.clone(),
            client_id: a.client_id.clone(),
            client_secret: None,
            scope: a.scope.clone(),
            audience: a.audience.clone(),
            client_auth: a.client_auth,
        }
    }
}

/// TLS settings: a client certificate and key (mutual TLS), a CA bundle, or both.
/// `clientCertificateExpiresAt` is what answers show; sent back unchanged, it is
/// ignored (it follows from the certificate).
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = EndpointTls, example = json!({
    "caBundle": "-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n"
})))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TlsIn {
    /// PEM certificate chain to present, leaf first; with `clientKey`. 400 naming
    /// the field when it is not PEM, or expired or not yet valid.
    #[cfg_attr(feature = "openapi", schema(max_length = 16384))]
    pub client_certificate: Option<String>,
    /// PEM private key (PKCS#8, PKCS#1 or SEC1) of the client certificate.
    /// Write-only: shown as null; left out with an unchanged certificate, the stored
    /// one is kept. 400 when it does not belong to the certificate.
    #[cfg_attr(feature = "openapi", schema(max_length = 16384))]
    pub client_key: Option<String>,
    /// PEM CA certificates that replace the public roots for this receiver's server
    /// certificate (not the token endpoint's).
    #[cfg_attr(feature = "openapi", schema(max_length = 65536))]
    pub ca_bundle: Option<String>,
    /// When the client certificate stops being valid (shown; ignored when sent).
    #[serde(default, rename = "clientCertificateExpiresAt")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, format = DateTime, read_only))]
    pub expires_at: Option<Value>,
}

/// `tls` as answers show it: the client key as null, the certificate's end of
/// validity beside it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TlsOut {
    pub client_certificate: Option<String>,
    /// Always null: write-only.
    pub client_key: Option<String>,
    pub ca_bundle: Option<String>,
    pub client_certificate_expires_at: Option<Timestamp>,
}

impl From<&EndpointTls> for TlsOut {
    fn from(t: &EndpointTls) -> Self {
        TlsOut {
            client_certificate: t.client_certificate.clone(),
            client_key: None,
            ca_bundle: t.ca_bundle.clone(),
            client_certificate_expires_at: t.client_certificate_expires_at,
        }
    }
}
