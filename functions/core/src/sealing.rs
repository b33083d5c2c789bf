//! Sealing endpoint credentials with a tenant's data key: AES-256-GCM, a fresh
//! 96-bit nonce per value, and the tenant and endpoint as associated data, so a
//! sealed value opens only on the endpoint it was sealed for. The data key comes
//! from the key service (KMS, through the app's `CredentialSealer`); the nonce is
//! an argument, so nothing here reads an entropy source.

use aws_lc_rs::aead::{AES_256_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD_NO_PAD;
use serde::{Deserialize, Serialize};

/// Bytes of a data key (AES-256).
pub const DATA_KEY_LEN: usize = 32;
/// Bytes of a nonce. Random nonces of this size stay safe for 2^32 values under
/// one key, far more credentials than one tenant holds.
pub const NONCE_LEN: usize = 12;
/// Version tag bound into every value's associated data.
const AAD_TAG: &[u8] = b"courier-credential-v1";

/// A credential as stored: the id of the tenant's data key that sealed it, and
/// nonce, ciphertext and tag (base64, no padding).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SealedValue {
    pub kid: String,
    pub ct: String,
}

impl std::fmt::Debug for SealedValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SealedValue(kid {})", self.kid)
    }
}

/// Where a value belongs: it opens only with the same tenant and endpoint.
#[derive(Debug, Clone, Copy)]
pub struct Scope<'a> {
    pub tenant: &'a str,
    pub endpoint: &'a str,
}

impl Scope<'_> {
    fn aad(&self) -> Vec<u8> {
        let mut aad = Vec::with_capacity(AAD_TAG.len() + self.tenant.len() + self.endpoint.len() + 2);
        aad.extend_from_slice(AAD_TAG);
        aad.push(0);
        aad.extend_from_slice(self.tenant.as_bytes());
        aad.push(0);
        aad.extend_from_slice(self.endpoint.as_bytes());
        aad
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SealingError {
    #[error("a data key must be {DATA_KEY_LEN} bytes")]
    BadKey,
    /// Another data key, another tenant or endpoint, or a value changed at rest.
    #[error("the sealed value does not open with this key, tenant and endpoint")]
    DoesNotOpen,
}

/// A tenant's data key in the clear, held only in memory, with the id that
/// sealed values carry.
pub struct DataKey {
    id: String,
    key: LessSafeKey,
}

impl std::fmt::Debug for DataKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DataKey({})", self.id)
    }
}

impl DataKey {
    pub fn new(id: impl Into<String>, bytes: &[u8]) -> Result<Self, SealingError> {
        if bytes.len() != DATA_KEY_LEN {
            return Err(SealingError::BadKey);
        }
        let key = UnboundKey::new(&AES_256_GCM, bytes).map_err(|_| SealingError::BadKey)?;
        Ok(DataKey {
            id: id.into(),
            key: LessSafeKey::new(key),
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// `plaintext` sealed for `scope` under this key with `nonce` (never reuse one
    /// with the same key).
    pub fn seal(&self, nonce: [u8; NONCE_LEN], scope: &Scope<'_>, plaintext: &str) -> SealedValue {
        let mut buf = plaintext.as_bytes().to_vec();
        // Fails only past AES-GCM's length limit (64 GiB), which no credential nears.
        let sealed =
            self.key
                .seal_in_place_append_tag(Nonce::assume_unique_for_key(nonce), Aad::from(scope.aad()), &mut buf);
        let mut out = Vec::with_capacity(NONCE_LEN + buf.len());
        out.extend_from_slice(&nonce);
        if sealed.is_ok() {
            out.extend_from_slice(&buf);
        }
        SealedValue {
            kid: self.id.clone(),
            ct: STANDARD_NO_PAD.encode(out),
        }
    }

    /// The plaintext of a value sealed by [`DataKey::seal`] with this key for this
    /// scope.
    pub fn open(&self, scope: &Scope<'_>, sealed: &SealedValue) -> Result<String, SealingError> {
        if sealed.kid != self.id {
            return Err(SealingError::DoesNotOpen);
        }
        let raw = STANDARD_NO_PAD
            .decode(sealed.ct.as_bytes())
            .map_err(|_| SealingError::DoesNotOpen)?;
        if raw.len() < NONCE_LEN + AES_256_GCM.tag_len() {
            return Err(SealingError::DoesNotOpen);
        }
        let (nonce, rest) = raw.split_at(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(nonce).map_err(|_| SealingError::DoesNotOpen)?;
        let mut buf = rest.to_vec();
        let plain = self
            .key
            .open_in_place(nonce, Aad::from(scope.aad()), &mut buf)
            .map_err(|_| SealingError::DoesNotOpen)?;
        String::from_utf8(plain.to_vec()).map_err(|_| SealingError::DoesNotOpen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HERE: Scope<'static> = Scope {
        tenant: "ten_1",
        endpoint: "ep_1",
    };

    fn key(id: &str, byte: u8) -> DataKey {
        DataKey::new(id, &[byte; DATA_KEY_LEN]).expect("32 bytes")
    }

    #[test]
    fn a_value_opens_only_with_its_key_tenant_and_endpoint() {
        let k = key("k1", 7);
        let sealed = k.seal([1; NONCE_LEN], &HERE, "whsec_abc");
        assert_eq!(sealed.kid, "k1");
        assert!(!sealed.ct.contains("whsec"));
        assert_eq!(k.open(&HERE, &sealed).as_deref(), Ok("whsec_abc"));
        let elsewhere = [
            Scope {
                tenant: "ten_1",
                endpoint: "ep_2",
            },
            Scope {
                tenant: "ten_2",
                endpoint: "ep_1",
            },
            // The separator keeps "ten_1" + "\0ep" apart from "ten_1\0" + "ep".
            Scope {
                tenant: "ten_1\0ep",
                endpoint: "_1",
            },
        ];
        for scope in elsewhere {
            assert_eq!(k.open(&scope, &sealed), Err(SealingError::DoesNotOpen), "{scope:?}");
        }
        // Same id, other bytes (a replaced key): refused, not garbage.
        assert_eq!(key("k1", 8).open(&HERE, &sealed), Err(SealingError::DoesNotOpen));
        assert_eq!(key("k2", 7).open(&HERE, &sealed), Err(SealingError::DoesNotOpen));
    }

    #[test]
    fn changed_or_malformed_values_do_not_open() {
        let k = key("k1", 7);
        let sealed = k.seal([2; NONCE_LEN], &HERE, "value");
        let mut flipped = sealed.clone();
        let last = flipped.ct.pop().expect("text");
        flipped.ct.push(if last == 'A' { 'B' } else { 'A' });
        for bad in [
            flipped,
            SealedValue {
                kid: "k1".into(),
                ct: "!!".into(),
            },
            SealedValue {
                kid: "k1".into(),
                ct: "AAAA".into(),
            },
        ] {
            assert_eq!(k.open(&HERE, &bad), Err(SealingError::DoesNotOpen), "{bad:?}");
        }
        assert_eq!(DataKey::new("k", &[0; 16]).err(), Some(SealingError::BadKey));
    }

    #[test]
    fn each_nonce_gives_another_text_and_debug_shows_no_secret() {
        let k = key("k1", 7);
        let a = k.seal([1; NONCE_LEN], &HERE, "same");
        let b = k.seal([2; NONCE_LEN], &HERE, "same");
        assert_ne!(a.ct, b.ct);
        assert_eq!(k.open(&HERE, &b).as_deref(), Ok("same"));
        assert_eq!(format!("{a:?} {k:?}"), "SealedValue(kid k1) DataKey(k1)");
        let json = serde_json::to_value(&a).expect("json");
        assert_eq!(json.as_object().map(|o| o.len()), Some(2));
        assert_eq!(serde_json::from_value::<SealedValue>(json).ok(), Some(a));
    }
}
