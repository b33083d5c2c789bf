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
        self.key().mac(msg_id, timestamp_secs, body)
    }

    /// The key with HMAC's inner and outer pads already hashed, for signing many
    /// messages with one secret.
    pub fn key(&self) -> SigningKey {
        // HMAC accepts keys of any length, so this cannot fail.
        SigningKey(<Hmac<Sha256> as Mac>::new_from_slice(&self.0).unwrap_or_else(|_| unreachable!()))
    }

    pub fn sign(&self, msg_id: &str, timestamp_secs: i64, body: &[u8]) -> String {
        self.key().sign(msg_id, timestamp_secs, body)
    }
}

/// A [`SigningSecret`] prepared for signing: keying HMAC-SHA256 costs two block
/// compressions, paid once per key instead of once per message.
#[derive(Clone)]
pub struct SigningKey(Hmac<Sha256>);

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningKey(..)")
    }
}

impl SigningKey {
    fn mac(&self, msg_id: &str, timestamp_secs: i64, body: &[u8]) -> Hmac<Sha256> {
        let mut mac = self.0.clone();
        mac.update(msg_id.as_bytes());
        mac.update(b".");
        let mut digits = [0u8; 20];
        mac.update(decimal(timestamp_secs, &mut digits));
        mac.update(b".");
        mac.update(body);
        mac
    }

    pub fn sign(&self, msg_id: &str, timestamp_secs: i64, body: &[u8]) -> String {
        let mut out = String::with_capacity(SIGNATURE_LEN);
        self.sign_into(msg_id, timestamp_secs, body, &mut out);
        out
    }

    /// Appends `v1,<base64 signature>` to `out`.
    pub fn sign_into(&self, msg_id: &str, timestamp_secs: i64, body: &[u8], out: &mut String) {
        out.push_str("v1,");
        STANDARD.encode_string(self.mac(msg_id, timestamp_secs, body).finalize().into_bytes(), out);
    }
}

/// `v1,` and the base64 of a 32-byte MAC.
pub const SIGNATURE_LEN: usize = 3 + 44;

/// `n` in decimal ASCII, written into `buf` without allocating (the signed content
/// is hashed once per attempt).
fn decimal(n: i64, buf: &mut [u8; 20]) -> &[u8] {
    let mut v = n.unsigned_abs();
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    if n < 0 {
        i -= 1;
        buf[i] = b'-';
    }
    &buf[i..]
}

/// The `webhook-signature` header value for all given secrets.
pub fn signature_header(secrets: &[SigningSecret], msg_id: &str, timestamp_secs: i64, body: &[u8]) -> String {
    let keys: Vec<SigningKey> = secrets.iter().map(SigningSecret::key).collect();
    signature_header_keys(keys.iter(), msg_id, timestamp_secs, body)
}

/// [`signature_header`] with prepared keys: the signatures, space-separated.
pub fn signature_header_keys<'a>(
    keys: impl IntoIterator<Item = &'a SigningKey>,
    msg_id: &str,
    timestamp_secs: i64,
    body: &[u8],
) -> String {
    let mut out = String::with_capacity(SIGNATURE_LEN);
    signature_header_keys_into(keys, msg_id, timestamp_secs, body, &mut out);
    out
}

/// [`signature_header_keys`], appended to `out` (which may hold other text before).
pub fn signature_header_keys_into<'a>(
    keys: impl IntoIterator<Item = &'a SigningKey>,
    msg_id: &str,
    timestamp_secs: i64,
    body: &[u8],
    out: &mut String,
) {
    let start = out.len();
    for key in keys {
        if out.len() > start {
            out.push(' ');
        }
        key.sign_into(msg_id, timestamp_secs, body, out);
    }
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
    fn timestamps_hash_as_their_decimal_text() {
        let mut buf = [0u8; 20];
        for n in [0, 7, 10, 1_614_265_330, -1, -42, i64::MAX, i64::MIN] {
            assert_eq!(decimal(n, &mut buf), n.to_string().as_bytes());
        }
    }

    #[test]
    fn prepared_keys_sign_like_secrets() {
        let a = SigningSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").expect("secret");
        let b = SigningSecret::from_bytes(&[7u8; 32]).expect("secret");
        let body = b"{}";
        let both = [a.clone(), b.clone()];
        let header = signature_header(&both, "msg_1", 1_614_265_330, body);
        assert_eq!(
            header,
            format!(
                "{} {}",
                a.sign("msg_1", 1_614_265_330, body),
                b.sign("msg_1", 1_614_265_330, body)
            )
        );
        let keys = [a.key(), b.key()];
        assert_eq!(signature_header_keys(&keys, "msg_1", 1_614_265_330, body), header);
        // A prepared key is reused: the second message's MAC starts from the key alone.
        assert_eq!(keys[0].sign("msg_2", 5, body), a.sign("msg_2", 5, body));
        assert_eq!(signature_header_keys(&[], "msg_1", 1, body), "");
        // Appended after whatever the buffer holds, separated only from each other.
        let mut out = String::from("dlv_1");
        signature_header_keys_into(&keys, "msg_1", 1_614_265_330, body, &mut out);
        assert_eq!(out, format!("dlv_1{header}"));
        let mut out = String::from("x");
        signature_header_keys_into(&[], "msg_1", 1, body, &mut out);
        assert_eq!(out, "x");
    }

    #[test]
    fn bad_secrets_are_refused() {
        assert_eq!(SigningSecret::parse("abc"), Err(SecretError::MissingPrefix));
        assert_eq!(SigningSecret::parse("whsec_!!!"), Err(SecretError::NotBase64));
        assert_eq!(SigningSecret::parse("whsec_YWJj"), Err(SecretError::BadLength));
    }
}
