//! The sender's DNS resolver: resolves through [`resolve_checked`] so that reqwest
//! connects only to addresses that passed the SSRF check. Because reqwest connects
//! to exactly the addresses returned here (no second lookup), the checked address is
//! the one connected to: a DNS answer that changes between check and connect (DNS
//! rebinding) cannot slip a private address in.
//!
//! reqwest never calls a resolver for IP-literal hosts; those are checked by
//! [`crate::admission::check_url`] before a request is built.

use crate::admission::resolve_checked;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};

/// A [`Resolve`] that refuses names resolving to refused addresses. Its errors are
/// [`crate::AdmissionError`]s, found again in reqwest's error chain to tell an unsafe
/// target from a name that does not resolve.
#[derive(Debug, Clone, Copy)]
pub struct CheckedResolver {
    allow_private: bool,
}

impl CheckedResolver {
    pub fn new(allow_private: bool) -> Self {
        CheckedResolver { allow_private }
    }
}

impl Resolve for CheckedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let allow_private = self.allow_private;
        let host = name.as_str().to_owned();
        Box::pin(async move {
            // Port 0: reqwest substitutes the URL's port (or the scheme's default).
            let addrs = resolve_checked(&host, 0, allow_private).await?;
            let addrs: Addrs = Box::new(addrs.into_iter());
            Ok(addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AdmissionError;
    use std::str::FromStr;

    async fn resolve(name: &str, allow_private: bool) -> Result<Vec<std::net::SocketAddr>, String> {
        let name = Name::from_str(name).map_err(|e| e.to_string())?;
        match CheckedResolver::new(allow_private).resolve(name).await {
            Ok(addrs) => Ok(addrs.collect()),
            Err(e) => match e.downcast::<AdmissionError>() {
                Ok(admission) => Err(format!("admission: {}", admission.is_unsafe_target())),
                Err(other) => Err(format!("other: {other}")),
            },
        }
    }

    #[tokio::test]
    async fn refuses_loopback_names_unless_allowed() {
        assert_eq!(resolve("localhost", false).await, Err("admission: true".to_owned()));
        let allowed = resolve("localhost", true).await;
        assert!(
            matches!(&allowed, Ok(a) if !a.is_empty() && a.iter().all(|s| s.ip().is_loopback())),
            "{allowed:?}"
        );
    }

    #[tokio::test]
    async fn unresolvable_names_are_admission_resolution_failures() {
        assert_eq!(
            resolve("nonexistent.invalid", true).await,
            Err("admission: false".to_owned())
        );
    }
}
