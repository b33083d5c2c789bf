//! [`ReceiverConnection`]: what an attempt hands the HTTP adapter to reach a
//! receiver beyond URL, headers and body (an OAuth token request, a TLS client
//! configuration), and the TLS material checks the API asks of that adapter.

use crate::domain::connectivity::ClientAuth;
use courier_core::Timestamp;
use std::sync::Arc;

/// What an attempt needs beyond URL, headers and body to reach its receiver, made
/// once per endpoint read and shared by its attempts.
#[derive(Clone, PartialEq, Eq)]
pub struct ReceiverConnection {
    /// Names the endpoint in the HTTP adapter's caches (tokens, TLS clients).
    pub endpoint_key: String,
    pub oauth: Option<OAuthRequest>,
    pub tls: Option<TlsRequest>,
    /// A hash of `oauth` and `tls`, made once: with `endpoint_key`, what the
    /// adapter keeps a token or a client under (a changed setting is a new entry),
    /// without hashing PEM text at every attempt.
    pub fingerprint: u64,
}

/// A token request's inputs, secret included.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct OAuthRequest {
    pub token_url: String,
    pub client_id: String,
    pub client_secret: String,
    pub scope: Option<String>,
    pub audience: Option<String>,
    pub client_auth: ClientAuth,
}

/// A TLS client configuration's inputs, key included.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct TlsRequest {
    /// Certificate chain and key: both or neither (the API takes them together).
    pub client_certificate: Option<String>,
    pub client_key: Option<String>,
    pub ca_bundle: Option<String>,
}

impl std::fmt::Debug for ReceiverConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReceiverConnection")
            .field("endpoint_key", &self.endpoint_key)
            .field("oauth", &self.oauth.as_ref().map(|o| (&o.token_url, &o.client_id)))
            .field(
                "client_certificate",
                &self.tls.as_ref().is_some_and(|t| t.client_certificate.is_some()),
            )
            .field("ca_bundle", &self.tls.as_ref().is_some_and(|t| t.ca_bundle.is_some()))
            .finish()
    }
}

impl ReceiverConnection {
    pub fn new(endpoint_key: String, oauth: Option<OAuthRequest>, tls: Option<TlsRequest>) -> Self {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&oauth, &tls).hash(&mut hasher);
        ReceiverConnection {
            endpoint_key,
            oauth,
            tls,
            fingerprint: hasher.finish(),
        }
    }

    /// The connection settings of an endpoint, `None` when it has neither OAuth nor
    /// TLS settings (the common case: the adapter's shared client, no token). An
    /// OAuth setting whose secret is missing is still sent to the adapter with an
    /// empty secret: the token endpoint then refuses it, which the attempt records,
    /// rather than the receiver getting a request without its credentials.
    pub fn of(endpoint: &crate::domain::model::Endpoint) -> Option<Arc<ReceiverConnection>> {
        if endpoint.auth.is_none() && endpoint.tls.is_none() {
            return None;
        }
        let secrets = &endpoint.credentials;
        let oauth = endpoint.auth.as_ref().map(|a| OAuthRequest {
            token_url: a.token_url.clone(),
            client_id: a.client_id.clone(),
            // Opened before the attempt (`PreparedEndpoint::opened`); one still sealed
            // never reaches this far (`credentials_unavailable`).
            client_secret: secrets
                .oauth_client_secret
                .as_ref()
                .and_then(crate::domain::credential::Credential::plain)
                .map(str::to_owned)
                .unwrap_or_default(),
            scope: a.scope.clone(),
            audience: a.audience.clone(),
            client_auth: a.client_auth,
        });
        let tls = endpoint.tls.as_ref().map(|t| TlsRequest {
            client_certificate: t.client_certificate.clone(),
            client_key: secrets
                .tls_client_key
                .as_ref()
                .and_then(crate::domain::credential::Credential::plain)
                .map(str::to_owned),
            ca_bundle: t.ca_bundle.clone(),
        });
        Some(Arc::new(ReceiverConnection::new(
            format!("{}/{}", endpoint.tenant_id, endpoint.id),
            oauth,
            tls,
        )))
    }
}

/// TLS material as the API received it, for the adapter that can read it.
#[derive(Debug, Clone, Copy)]
pub struct TlsMaterial<'a> {
    pub client_certificate: Option<&'a str>,
    pub client_key: Option<&'a str>,
    pub ca_bundle: Option<&'a str>,
}

/// What checking TLS material found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TlsFacts {
    /// When the client certificate's leaf stops being valid.
    pub client_certificate_expires_at: Option<Timestamp>,
}

/// Why TLS material is refused: the field at fault (`clientCertificate`,
/// `clientKey` or `caBundle`) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {detail}")]
pub struct TlsRefusal {
    pub field: &'static str,
    pub detail: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::connectivity::OAuthClient;

    #[test]
    fn the_connection_carries_the_credentials_and_changes_with_them() {
        let ids = crate::testing::contract::Ids::new();
        let (tenant, id) = (ids.tenant(), ids.endpoint());
        let mut e = crate::testing::contract::sample_endpoint(&tenant, &id, Timestamp::from_millis(1_800_000_000_000));
        assert_eq!(ReceiverConnection::of(&e), None);
        e.auth = Some(OAuthClient {
            token_url: "https://auth.example/token".into(),
            client_id: "courier".into(),
            scope: None,
            audience: None,
            client_auth: ClientAuth::Post,
        });
        e.credentials.oauth_client_secret = Some("s3cret".into());
        let Some(first) = ReceiverConnection::of(&e) else {
            panic!("an endpoint with OAuth has a connection");
        };
        assert_eq!(first.endpoint_key, format!("{tenant}/{id}"));
        assert_eq!(first.oauth.as_ref().map(|o| o.client_secret.as_str()), Some("s3cret"));
        assert!(first.tls.is_none());
        assert!(!format!("{first:?}").contains("s3cret"));
        assert!(!format!("{:?}", e.credentials).contains("s3cret"));
        e.credentials.oauth_client_secret = Some("rotated".into());
        let second = ReceiverConnection::of(&e).map(|c| c.fingerprint);
        assert_ne!(second, Some(first.fingerprint));
    }
}
