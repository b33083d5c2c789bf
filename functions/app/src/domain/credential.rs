//! A write-only value (a secret header, an OAuth client secret, a TLS key) as it
//! is held: plain, or sealed under the tenant's data key.

use serde::{Deserialize, Serialize};

/// A write-only value as held: plain text (as given, or opened for an attempt; in
/// the table only until the credentials migration seals it) or sealed under the
/// tenant's data key (`crate::endpoints::credentials`). Stored as a JSON string when plain and
/// as `{"kid", "ct"}` when sealed, so the two are never mistaken for each other.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Credential {
    Plain(String),
    Sealed(courier_core::sealing::SealedValue),
}

impl Credential {
    /// The text, when it is plain.
    pub fn plain(&self) -> Option<&str> {
        match self {
            Credential::Plain(text) => Some(text),
            Credential::Sealed(_) => None,
        }
    }

    pub fn is_sealed(&self) -> bool {
        matches!(self, Credential::Sealed(_))
    }
}

impl From<String> for Credential {
    fn from(text: String) -> Self {
        Credential::Plain(text)
    }
}

impl From<&str> for Credential {
    fn from(text: &str) -> Self {
        Credential::Plain(text.to_owned())
    }
}

/// Never the text itself: these values must not reach a log.
impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credential::Plain(_) => f.write_str("Plain(..)"),
            Credential::Sealed(s) => write!(f, "{s:?}"),
        }
    }
}
