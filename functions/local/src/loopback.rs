//! Admission for a local stack fed untrusted input (the conformance run): endpoint
//! URLs must name a loopback address literally, so nothing generated can make the
//! sender reach, or even resolve, a host outside this machine. Everything else is
//! the ordinary admission's.

use async_trait::async_trait;
use courier_app::ports::{AdmissionRefusal, UrlAdmission};
use std::net::IpAddr;
use std::sync::Arc;

pub struct LoopbackOnly(pub Arc<dyn UrlAdmission>);

/// Whether `url`'s host is 127.0.0.0/8 or ::1, written as an address.
pub fn is_loopback_url(url: &str) -> bool {
    let Ok(u) = url::Url::parse(url) else {
        return false;
    };
    match u.host() {
        Some(url::Host::Ipv4(a)) => IpAddr::V4(a).is_loopback(),
        Some(url::Host::Ipv6(a)) => IpAddr::V6(a).is_loopback(),
        _ => false,
    }
}

#[async_trait]
impl UrlAdmission for LoopbackOnly {
    async fn admit(&self, url: &str) -> Result<String, AdmissionRefusal> {
        if url::Url::parse(url).is_err() {
            return Err(AdmissionRefusal {
                unsafe_address: false,
                detail: "not an absolute URL".into(),
            });
        }
        if !is_loopback_url(url) {
            return Err(AdmissionRefusal {
                unsafe_address: true,
                detail: "this stack only sends to 127.0.0.1 or [::1]".into(),
            });
        }
        self.0.admit(url).await
    }

    fn check_tls(
        &self,
        material: &courier_app::domain::connection::TlsMaterial<'_>,
        now: courier_core::Timestamp,
    ) -> Result<courier_app::domain::connection::TlsFacts, courier_app::domain::connection::TlsRefusal> {
        self.0.check_tls(material, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_literal_loopback_hosts_pass() {
        for ok in ["http://127.0.0.1:9/x", "https://127.8.9.1/", "http://[::1]:80/"] {
            assert!(is_loopback_url(ok), "{ok}");
        }
        for no in [
            "http://localhost/",
            "https://example.com/",
            "http://10.0.0.1/",
            "http://[::2]/",
            "not a url",
        ] {
            assert!(!is_loopback_url(no), "{no}");
        }
    }
}
