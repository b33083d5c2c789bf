//! Secrets kept only hashed: API keys, portal link secrets and completion tokens
//! are stored as the SHA-256 of their text and compared by hash.

use courier_core::hex::encode as hex;
use sha2::{Digest, Sha256};

/// sha256 hex of a secret (an API key, a portal secret, a completion token).
pub fn hash_key(key: &str) -> String {
    hex(&Sha256::digest(key.as_bytes()))
}
