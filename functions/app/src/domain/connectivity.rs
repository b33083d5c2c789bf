//! How the sender reaches a receiver that guards its door, beyond custom headers:
//! OAuth 2.0 client credentials (a bearer token on every attempt) and TLS settings
//! (a client certificate, a private CA). The settings an endpoint shows
//! ([`OAuthClient`], [`EndpointTls`]) are kept apart from their write-only halves
//! ([`EndpointCredentials`]), the one place a stored credential of these lives, and
//! what an attempt hands the HTTP adapter is in [`crate::domain::connection`].

use crate::domain::credential::Credential;
use courier_core::Timestamp;
use serde::{Deserialize, Serialize};

/// How the client authenticates at the token endpoint (RFC 6749 2.3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClientAuth {
    /// `client_secret_basic`: HTTP Basic authentication.
    #[default]
    Basic,
    /// `client_secret_post`: `client_id` and `client_secret` in the form body.
    Post,
}

/// An endpoint's OAuth 2.0 client credentials grant, without its secret (which is
/// in [`EndpointCredentials::oauth_client_secret`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OAuthClient {
    /// Admitted like endpoint URLs, when stored and at every fetch.
    pub token_url: String,
    pub client_id: String,
    /// Space-separated scopes asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Sent as the `audience` parameter (Auth0, Okta and others ask for it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<String>,
    #[serde(default)]
    pub client_auth: ClientAuth,
}

/// An endpoint's TLS settings, without the client key (in
/// [`EndpointCredentials::tls_client_key`]): PEM text as given.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct EndpointTls {
    /// The client certificate chain, leaf first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_certificate: Option<String>,
    /// CA certificates that replace the public roots for this receiver.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ca_bundle: Option<String>,
    /// When the client certificate (its leaf) stops being valid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_certificate_expires_at: Option<Timestamp>,
}

/// The endpoint's write-only credentials for reaching its receiver: the API takes
/// them and never shows them again, and `Debug` never prints them. Kept together
/// so that sealing stored credentials touches this one type.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct EndpointCredentials {
    /// `auth.clientSecret`, sealed at rest (`crate::endpoints::credentials`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oauth_client_secret: Option<Credential>,
    /// `tls.clientKey`: the PEM private key of the client certificate, sealed at rest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_client_key: Option<Credential>,
}

impl EndpointCredentials {
    pub fn is_empty(&self) -> bool {
        self.oauth_client_secret.is_none() && self.tls_client_key.is_none()
    }
}

impl std::fmt::Debug for EndpointCredentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = |v: &Option<Credential>| if v.is_some() { "<hidden>" } else { "none" };
        f.debug_struct("EndpointCredentials")
            .field("oauth_client_secret", &shown(&self.oauth_client_secret))
            .field("tls_client_key", &shown(&self.tls_client_key))
            .finish()
    }
}
