//! An endpoint's `auth` (OAuth 2.0 client credentials) and `tls` (client
//! certificate, private CA) as the API checks them (their wire shapes are in
//! `api::wire::endpoint_settings`). The token URL passes the same admission as
//! endpoint URLs; TLS material is read by the admission's
//! adapter (PEM, key matching the certificate, not expired). `clientSecret` and
//! `clientKey` are write-only: shown as null, and sent back as null (or left out)
//! they keep the stored value.

use crate::api::Api;
use crate::api::http::patch::Patch;
use crate::api::http::problem::{ApiError, ApiResult, ProblemCode};
use crate::api::wire::endpoint_settings::{AuthIn, AuthType, TlsIn};
use crate::domain::connection::TlsMaterial;
use crate::domain::connectivity::{EndpointCredentials, EndpointTls, OAuthClient};
use crate::domain::model::Credential;
use courier_core::Timestamp;

/// Longest client id, scope or audience, in bytes.
pub const MAX_OAUTH_TEXT: usize = 1024;
/// Longest client secret, in bytes.
pub const MAX_CLIENT_SECRET: usize = 4096;
/// Longest client certificate chain or key, in bytes (PEM).
pub const MAX_PEM: usize = 16 * 1024;
/// Longest CA bundle, in bytes (PEM): the endpoint is one table item (at most
/// 400 KB with everything else it holds).
pub const MAX_CA_BUNDLE: usize = 64 * 1024;

/// One line of printable text, at most `max` bytes, not empty.
fn check_text(field: &str, value: &str, max: usize) -> ApiResult<()> {
    let printable = value.chars().all(|c| !c.is_control());
    if value.is_empty() || value.len() > max || !printable {
        return Err(ApiError::validation(format!(
            "field `{field}` must be 1-{max} bytes of text without control characters"
        )));
    }
    Ok(())
}

/// RFC 6749 3.3: scope tokens of %x21 / %x23-5B / %x5D-7E, separated by spaces.
fn check_scope(scope: &str) -> ApiResult<()> {
    let token_byte = |b: u8| b == 0x21 || (0x23..=0x5b).contains(&b) || (0x5d..=0x7e).contains(&b);
    let ok = !scope.is_empty()
        && scope.len() <= MAX_OAUTH_TEXT
        && scope.split(' ').all(|t| !t.is_empty() && t.bytes().all(token_byte));
    if !ok {
        return Err(ApiError::validation(format!(
            "field `auth.scope` must be scope tokens separated by single spaces (at most {MAX_OAUTH_TEXT} bytes; no quotes, backslashes or control characters)"
        )));
    }
    Ok(())
}

fn check_pem_size(field: &str, value: &str, max: usize) -> ApiResult<()> {
    if value.trim().is_empty() || value.len() > max {
        return Err(ApiError::validation(format!(
            "field `{field}` must be PEM text of at most {max} bytes"
        )));
    }
    Ok(())
}

/// Checked `auth` and `tls`, with the credentials they leave.
pub(crate) struct Connectivity {
    pub(crate) auth: Option<OAuthClient>,
    pub(crate) tls: Option<EndpointTls>,
    pub(crate) credentials: EndpointCredentials,
}

impl Api {
    /// The endpoint's `auth` and `tls` after a write: `auth`/`tls` absent keep the
    /// stored setting (`None`), null removes it (`Some(None)`), an object replaces
    /// it, its write-only value falling back to the stored one when left out.
    /// 400 naming the field at fault (422 for a token URL that points where
    /// Courier does not go).
    pub(crate) async fn connectivity(
        &self,
        auth: Patch<&AuthIn>,
        tls: Patch<&TlsIn>,
        current: Option<&Connectivity>,
        now: Timestamp,
    ) -> ApiResult<Connectivity> {
        let stored = current.map(|c| &c.credentials);
        let mut credentials = stored.cloned().unwrap_or_default();
        let auth = match auth {
            Patch::Keep => current.and_then(|c| c.auth.clone()),
            Patch::Clear => {
                credentials.oauth_client_secret = None;
                None
            }
            Patch::Set(given) => {
                let (client, secret) = self
                    .oauth_client(
                        given,
                        stored
                            .and_then(|c| c.oauth_client_secret.as_ref())
                            .and_then(Credential::plain),
                    )
                    .await?;
                credentials.oauth_client_secret = Some(Credential::Plain(secret));
                Some(client)
            }
        };
        let tls = match tls {
            Patch::Keep => current.and_then(|c| c.tls.clone()),
            Patch::Clear => {
                credentials.tls_client_key = None;
                None
            }
            Patch::Set(given) => {
                let (settings, key) = self.endpoint_tls(
                    given,
                    stored
                        .and_then(|c| c.tls_client_key.as_ref())
                        .and_then(Credential::plain),
                    now,
                )?;
                credentials.tls_client_key = key.map(Credential::Plain);
                Some(settings)
            }
        };
        Ok(Connectivity { auth, tls, credentials })
    }

    async fn oauth_client(&self, given: &AuthIn, stored_secret: Option<&str>) -> ApiResult<(OAuthClient, String)> {
        let AuthType::OAuth2ClientCredentials = given.kind;
        if given.token_url.len() > crate::api::http::limits::MAX_URL_LEN {
            return Err(ApiError::validation(format!(
                "field `auth.tokenUrl` is longer than {} characters",
                crate::api::http::limits::MAX_URL_LEN
            )));
        }
        let token_url = self.admission.admit(&given.token_url).await.map_err(|r| {
            if r.unsafe_address {
                ApiError::new(
                    ProblemCode::EndpointUnsafe,
                    format!("field `auth.tokenUrl`: {}", r.detail),
                )
            } else {
                ApiError::validation(format!("field `auth.tokenUrl`: {}", r.detail))
            }
        })?;
        check_text("auth.clientId", &given.client_id, MAX_OAUTH_TEXT)?;
        let secret = match (&given.client_secret, stored_secret) {
            (Some(s), _) => {
                check_text("auth.clientSecret", s, MAX_CLIENT_SECRET)?;
                s.clone()
            }
            (None, Some(kept)) => kept.to_owned(),
            (None, None) => {
                return Err(ApiError::validation(
                    "field `auth.clientSecret` is required (null only keeps a stored secret)",
                ));
            }
        };
        if let Some(scope) = &given.scope {
            check_scope(scope)?;
        }
        if let Some(audience) = &given.audience {
            check_text("auth.audience", audience, MAX_OAUTH_TEXT)?;
        }
        let client = OAuthClient {
            token_url,
            client_id: given.client_id.clone(),
            scope: given.scope.clone(),
            audience: given.audience.clone(),
            client_auth: given.client_auth.unwrap_or_default(),
        };
        Ok((client, secret))
    }

    fn endpoint_tls(
        &self,
        given: &TlsIn,
        stored_key: Option<&str>,
        now: Timestamp,
    ) -> ApiResult<(EndpointTls, Option<String>)> {
        if let Some(c) = &given.client_certificate {
            check_pem_size("tls.clientCertificate", c, MAX_PEM)?;
        }
        if let Some(k) = &given.client_key {
            check_pem_size("tls.clientKey", k, MAX_PEM)?;
        }
        if let Some(b) = &given.ca_bundle {
            check_pem_size("tls.caBundle", b, MAX_CA_BUNDLE)?;
        }
        let key = match (&given.client_certificate, &given.client_key) {
            (Some(_), Some(k)) => Some(k.clone()),
            (Some(_), None) => match stored_key {
                Some(k) => Some(k.to_owned()),
                None => {
                    return Err(ApiError::validation(
                        "field `tls.clientKey` is required with `tls.clientCertificate`",
                    ));
                }
            },
            (None, Some(_)) => {
                return Err(ApiError::validation(
                    "field `tls.clientCertificate` is required with `tls.clientKey`",
                ));
            }
            (None, None) => None,
        };
        if given.client_certificate.is_none() && given.ca_bundle.is_none() {
            return Err(ApiError::validation(
                "field `tls` needs `clientCertificate` and `clientKey`, or `caBundle`, or all three",
            ));
        }
        let material = TlsMaterial {
            client_certificate: given.client_certificate.as_deref(),
            client_key: key.as_deref(),
            ca_bundle: given.ca_bundle.as_deref(),
        };
        let facts = self
            .admission
            .check_tls(&material, now)
            .map_err(|r| ApiError::validation(format!("field `tls.{}`: {}", r.field, r.detail)))?;
        let settings = EndpointTls {
            client_certificate: given.client_certificate.clone(),
            ca_bundle: given.ca_bundle.clone(),
            client_certificate_expires_at: facts.client_certificate_expires_at,
        };
        Ok((settings, key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::wire::endpoint_settings::{AuthOut, TlsOut};
    use crate::domain::connectivity::ClientAuth;
    use serde_json::{Value, json};

    fn detail(result: ApiResult<()>) -> String {
        match result {
            Err(e) => e.detail,
            Ok(()) => "accepted".to_owned(),
        }
    }

    #[test]
    fn scopes_are_rfc_6749_tokens() {
        assert_eq!(detail(check_scope("read:hooks write")), "accepted");
        for bad in ["", "a  b", " a", "a\"b", "a\\b", "a\tb", "é"] {
            assert!(
                detail(check_scope(bad)).starts_with("field `auth.scope` must be"),
                "{bad:?}"
            );
        }
        assert!(detail(check_scope(&"a".repeat(1025))).starts_with("field `auth.scope`"));
    }

    #[test]
    fn text_fields_are_one_line() {
        assert_eq!(detail(check_text("auth.clientId", "courier-prod", 1024)), "accepted");
        for bad in ["", "a\nb", "a\u{0}"] {
            assert_eq!(
                detail(check_text("auth.clientId", bad, 1024)),
                "field `auth.clientId` must be 1-1024 bytes of text without control characters"
            );
        }
    }

    #[test]
    fn views_hide_the_write_only_values() {
        let auth = OAuthClient {
            token_url: "https://auth.example/token".into(),
            client_id: "courier".into(),
            scope: Some("hooks".into()),
            audience: None,
            client_auth: ClientAuth::Post,
        };
        assert_eq!(
            serde_json::to_value(AuthOut::from(&auth)).unwrap_or_default(),
            json!({"type": "oauth2_client_credentials", "tokenUrl": "https://auth.example/token",
                   "clientId": "courier", "clientSecret": null, "scope": "hooks", "audience": null,
                   "clientAuth": "post"})
        );
        let tls = EndpointTls {
            client_certificate: Some("CERT".into()),
            ca_bundle: None,
            client_certificate_expires_at: Some(Timestamp::from_millis(1_900_000_000_000)),
        };
        let shown = serde_json::to_value(TlsOut::from(&tls)).unwrap_or_default();
        assert_eq!(shown["clientKey"], Value::Null);
        assert_eq!(shown["clientCertificate"], json!("CERT"));
        assert_eq!(
            shown["clientCertificateExpiresAt"],
            json!(Timestamp::from_millis(1_900_000_000_000))
        );
    }
}
