//! Standard Webhooks signatures: `v1,<base64 HMAC-SHA256>` over
//! `"{webhook-id}.{webhook-timestamp}.{body}"`, keyed by the base64 part of a
//! `whsec_` secret. Several secrets (active + retiring) give several signatures,
//! space-separated, so receivers verify across a rotation.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, Mac};
use sha2::Sha256;

pub const SECRET_PREFIX: &str = "whsec_";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    #[error("signing secret must start with {SECRET_PREFIX}")]
    MissingPrefix,
    #[error("signing secret is not valid base64 after {SECRET_PREFIX}")]
    NotBase64,
    #[error("signing secret must hold 24 to 64 bytes")]
    BadLength,
}

/// A decoded signing key.
#[derive(Clone, PartialEq, Eq)]
pub struct SigningSecret(Vec<u8>);

impl std::fmt::Debug for SigningSecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningSecret(..)")
    }
}

impl SigningSecret {
    /// From raw key bytes (drawn from the OS at the edge).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SecretError> {
        if !(24..=64).contains(&bytes.len()) {
            return Err(SecretError::BadLength);
        }
        Ok(SigningSecret(bytes.to_vec()))
    }

    pub fn parse(text: &str) -> Result<Self, SecretError> {
        let b64 = text.strip_prefix(SECRET_PREFIX).ok_or(SecretError::MissingPrefix)?;
        let bytes = STANDARD.decode(b64).map_err(|_| SecretError::NotBase64)?;
        SigningSecret::from_bytes(&bytes)
    }

    pub fn to_text(&self) -> String {
        format!("{SECRET_PREFIX}{}", STANDARD.encode(&self.0))
    }

    fn mac(&self, msg_id: &str, timestamp_secs: i64, body: &[u8]) -> Hmac<Sha256> {
        // HMAC accepts keys of any length, so this cannot fail.
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.0).unwrap_or_else(|_| unreachable!());
        mac.update(msg_id.as_bytes());
        mac.update(b".");
        mac.update(timestamp_secs.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        mac
    }

    pub fn sign(&self, msg_id: &str, timestamp_secs: i64, body: &[u8]) -> String {
        format!(
            "v1,{}",
            STANDARD.encode(self.mac(msg_id, timestamp_secs, body).finalize().into_bytes())
        )
    }
}

/// The `webhook-signature` header value for all given secrets.
pub fn signature_header(secrets: &[SigningSecret], msg_id: &str, timestamp_secs: i64, body: &[u8]) -> String {
    secrets
        .iter()
        .map(|s| s.sign(msg_id, timestamp_secs, body))
        .collect::<Vec<_>>()
        .join(" ")
}

/// True when any `v1,` signature in the header verifies under `secret`
/// (constant-time comparison through the MAC itself).
pub fn verify(secret: &SigningSecret, msg_id: &str, timestamp_secs: i64, body: &[u8], header: &str) -> bool {
    header
        .split_whitespace()
        .filter_map(|s| s.strip_prefix("v1,"))
        .any(|sig| match STANDARD.decode(sig) {
            Ok(bytes) => secret.mac(msg_id, timestamp_secs, body).verify_slice(&bytes).is_ok(),
            Err(_) => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_webhooks_reference_vector() {
        // Test vector published with the Standard Webhooks reference libraries.
        let secret = SigningSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").expect("secret");
        let body = br#"{"test": 2432232314}"#;
        let sig = secret.sign("msg_p5jXN8AQM9LWM0D4loKWxJek", 1_614_265_330, body);
        assert_eq!(sig, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assert!(verify(
            &secret,
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            body,
            &format!("v1,bad {sig}")
        ));
        assert!(!verify(&secret, "msg_other", 1_614_265_330, body, &sig));
    }

    #[test]
    fn bad_secrets_are_refused() {
        assert_eq!(SigningSecret::parse("abc"), Err(SecretError::MissingPrefix));
        assert_eq!(SigningSecret::parse("whsec_!!!"), Err(SecretError::NotBase64));
        assert_eq!(SigningSecret::parse("whsec_YWJj"), Err(SecretError::BadLength));
    }
}
