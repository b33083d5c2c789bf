//! Endpoint URL admission: the syntactic check (`check_url`, pure) and the checked
//! resolution (`resolve_checked`) that both the API's admission and the sender's
//! connect-time resolver use, so a URL is judged by the same rule when it is stored
//! and every time it is sent to. Address rules live in [`crate::address`].

use crate::address::{Refusal, address_refusal};
use async_trait::async_trait;
use courier_app::ports::{AdmissionRefusal, UrlAdmission};
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use url::{Host, Url};

/// Longest URL accepted, in bytes.
pub const MAX_URL_LEN: usize = 2048;

/// Bound on one name lookup. getaddrinfo can otherwise block for the resolver's
/// retries (several seconds per server), which an API request must not wait for.
pub const DNS_LOOKUP_TIMEOUT: Duration = Duration::from_secs(5);

/// What the deployment allows beyond public https targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AdmissionPolicy {
    /// Accept `http://` URLs (the local runner; never in production).
    pub allow_http: bool,
    /// Accept loopback and private-network targets (RFC 1918, ULA, CGNAT). Never
    /// link-local or metadata addresses.
    pub allow_private: bool,
}

impl AdmissionPolicy {
    /// Public https targets only: the production setting.
    pub const STRICT: AdmissionPolicy = AdmissionPolicy {
        allow_http: false,
        allow_private: false,
    };
    /// http and private targets allowed: the local runner's setting.
    pub const LOCAL: AdmissionPolicy = AdmissionPolicy {
        allow_http: true,
        allow_private: true,
    };
}

/// Why a URL is not admitted. Each variant names the reason so the API can say which
/// rule the URL broke.
#[derive(Debug, thiserror::Error)]
pub enum AdmissionError {
    #[error("URL is {len} bytes long; at most {max} are allowed")]
    TooLong { len: usize, max: usize },
    /// Whitespace or control characters: the URL parser would silently drop or
    /// trim them, so what is stored would differ from what was submitted.
    #[error("URL contains whitespace or control characters")]
    InvalidCharacters,
    #[error("not a valid absolute URL: {0}")]
    NotAUrl(#[source] url::ParseError),
    #[error("URL scheme {scheme:?} is not allowed: {}", if *.http_allowed { "use https or http" } else { "use https" })]
    SchemeNotAllowed { scheme: String, http_allowed: bool },
    /// Credentials in a URL end up in logs and dashboards; receivers authenticate
    /// Courier by the signature instead.
    #[error("URL must not contain a user name or password")]
    UserinfoPresent,
    #[error("URL has no host")]
    NoHost,
    #[error("port 0 is not a valid destination port")]
    PortZero,
    /// The deployment's allowed ports (see [`AllowedPorts`]) leave this one out.
    #[error("port {port} is not allowed for endpoints; allowed ports: {allowed}")]
    PortNotAllowed { port: u16, allowed: String },
    /// A fragment is never sent to the receiver; accepting it would suggest otherwise.
    #[error("URL must not contain a fragment (#...)")]
    FragmentPresent,
    #[error("{host} is a {refusal} address ({ip}), which Courier does not deliver to")]
    UnsafeAddress { host: String, ip: IpAddr, refusal: Refusal },
    #[error("host {host} does not resolve")]
    DoesNotResolve {
        host: String,
        #[source]
        source: Option<std::io::Error>,
    },
    #[error("resolving host {host} took longer than {}ms", .timeout.as_millis())]
    ResolveTimedOut { host: String, timeout: Duration },
}

impl AdmissionError {
    /// The URL is well-formed but points where Courier must not go (the API answers
    /// 422 `endpoint_unsafe`), as opposed to a malformed or unresolvable URL.
    pub fn is_unsafe_target(&self) -> bool {
        matches!(
            self,
            AdmissionError::UnsafeAddress { .. } | AdmissionError::PortNotAllowed { .. }
        )
    }

    /// The host name could not be resolved (now): may succeed later.
    pub fn is_resolution_failure(&self) -> bool {
        matches!(
            self,
            AdmissionError::DoesNotResolve { .. } | AdmissionError::ResolveTimedOut { .. }
        )
    }
}

/// The syntactic admission check: no I/O. Host names are not resolved here (see
/// [`resolve_checked`] / [`admit_url`]); IP-literal hosts are judged immediately.
pub fn check_url(url: &str, policy: AdmissionPolicy) -> Result<Url, AdmissionError> {
    if url.len() > MAX_URL_LEN {
        return Err(AdmissionError::TooLong {
            len: url.len(),
            max: MAX_URL_LEN,
        });
    }
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(AdmissionError::InvalidCharacters);
    }
    let parsed = Url::parse(url).map_err(AdmissionError::NotAUrl)?;
    match parsed.scheme() {
        "https" => {}
        "http" if policy.allow_http => {}
        other => {
            return Err(AdmissionError::SchemeNotAllowed {
                scheme: other.to_owned(),
                http_allowed: policy.allow_http,
            });
        }
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(AdmissionError::UserinfoPresent);
    }
    if parsed.fragment().is_some() {
        return Err(AdmissionError::FragmentPresent);
    }
    if parsed.port() == Some(0) {
        return Err(AdmissionError::PortZero);
    }
    // The url crate has already normalised IPv4 spellings (0x7f.1, 2130706433, ...)
    // into `Host::Ipv4`, and reqwest sends to that serialised form, so this check
    // sees exactly the address that would be connected to.
    let ip = match parsed.host() {
        None => return Err(AdmissionError::NoHost),
        Some(Host::Domain("")) => return Err(AdmissionError::NoHost),
        Some(Host::Domain(_)) => None,
        Some(Host::Ipv4(v4)) => Some(IpAddr::V4(v4)),
        Some(Host::Ipv6(v6)) => Some(IpAddr::V6(v6)),
    };
    if let Some(ip) = ip {
        check_ip(parsed.host_str().unwrap_or_default(), ip, policy.allow_private)?;
    }
    Ok(parsed)
}

/// Resolves `host` and checks every address it resolves to. Refuses the whole host
/// when any address is refused: a mix of public and private answers is how DNS
/// rebinding looks, and admission promises "resolves only to public addresses".
/// IP literals (bare or in brackets) are checked without a lookup. The returned
/// addresses carry `port`.
pub async fn resolve_checked(host: &str, port: u16, allow_private: bool) -> Result<Vec<SocketAddr>, AdmissionError> {
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    if let Ok(ip) = bare.parse::<IpAddr>() {
        check_ip(host, ip, allow_private)?;
        return Ok(vec![SocketAddr::new(ip, port)]);
    }
    let resolved = tokio::time::timeout(DNS_LOOKUP_TIMEOUT, tokio::net::lookup_host((bare, port)))
        .await
        .map_err(|_| AdmissionError::ResolveTimedOut {
            host: host.to_owned(),
            timeout: DNS_LOOKUP_TIMEOUT,
        })?
        .map_err(|e| AdmissionError::DoesNotResolve {
            host: host.to_owned(),
            source: Some(e),
        })?;
    let mut addrs: Vec<SocketAddr> = Vec::new();
    for addr in resolved {
        check_ip(host, addr.ip(), allow_private)?;
        if !addrs.contains(&addr) {
            addrs.push(addr);
        }
    }
    if addrs.is_empty() {
        return Err(AdmissionError::DoesNotResolve {
            host: host.to_owned(),
            source: None,
        });
    }
    Ok(addrs)
}

/// The full admission of an endpoint URL: [`check_url`], then [`resolve_checked`] on
/// its host (so a name pointing at a private address is refused when stored, not
/// only when sent to).
pub async fn admit_url(url: &str, policy: AdmissionPolicy) -> Result<Url, AdmissionError> {
    let parsed = check_url(url, policy)?;
    let host = parsed.host_str().ok_or(AdmissionError::NoHost)?;
    let port = parsed.port_or_known_default().unwrap_or(443);
    resolve_checked(host, port, policy.allow_private).await?;
    Ok(parsed)
}

/// The destination ports endpoints may use: a deployment setting, by default the
/// web ports and the unprivileged range (80, 443, 1024-65535). Well-known service
/// ports below 1024 (22 ssh, 25 smtp, ...) on a public host are how a webhook
/// sender gets used to knock on other people's services.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllowedPorts {
    /// Inclusive ranges.
    ranges: Vec<(u16, u16)>,
}

impl Default for AllowedPorts {
    fn default() -> Self {
        AllowedPorts {
            ranges: vec![(80, 80), (443, 443), (1024, 65535)],
        }
    }
}

impl AllowedPorts {
    /// Comma-separated ports and inclusive ranges: `80,443,1024-65535`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let port = |p: &str| {
            p.trim()
                .parse::<u16>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| format!("{p:?} is not a port (1-65535)"))
        };
        let mut ranges = Vec::new();
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let range = match part.split_once('-') {
                Some((lo, hi)) => (port(lo)?, port(hi)?),
                None => (port(part)?, port(part)?),
            };
            if range.0 > range.1 {
                return Err(format!("port range {part:?} runs backwards"));
            }
            ranges.push(range);
        }
        if ranges.is_empty() {
            return Err("no port is allowed".to_owned());
        }
        Ok(AllowedPorts { ranges })
    }

    pub fn allows(&self, port: u16) -> bool {
        self.ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&port))
    }
}

impl std::fmt::Display for AllowedPorts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (lo, hi)) in self.ranges.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            if lo == hi {
                write!(f, "{sep}{lo}")?;
            } else {
                write!(f, "{sep}{lo}-{hi}")?;
            }
        }
        Ok(())
    }
}

/// The [`UrlAdmission`] port over [`admit_url`], for the API, with the
/// deployment's allowed ports.
#[derive(Debug, Clone)]
pub struct HttpAdmission {
    policy: AdmissionPolicy,
    ports: AllowedPorts,
}

impl HttpAdmission {
    /// Admission with the default allowed ports.
    pub fn new(policy: AdmissionPolicy) -> Self {
        HttpAdmission {
            policy,
            ports: AllowedPorts::default(),
        }
    }

    pub fn with_allowed_ports(mut self, ports: AllowedPorts) -> Self {
        self.ports = ports;
        self
    }
}

#[async_trait]
impl UrlAdmission for HttpAdmission {
    /// The normalised URL (lower-case scheme and host, canonical IP spelling).
    /// An unresolvable host is refused as malformed rather than unsafe: it may be
    /// registered before its DNS exists, and the caller can retry.
    async fn admit(&self, url: &str) -> Result<String, AdmissionRefusal> {
        let admitted = async {
            // The port is judged after the syntax (a malformed URL stays a 400) and
            // before the lookup: a refused port needs no DNS answer.
            let parsed = check_url(url, self.policy)?;
            if let Some(port) = parsed.port_or_known_default()
                && !self.ports.allows(port)
            {
                return Err(AdmissionError::PortNotAllowed {
                    port,
                    allowed: self.ports.to_string(),
                });
            }
            admit_url(url, self.policy).await
        }
        .await;
        admitted.map(String::from).map_err(|e| AdmissionRefusal {
            unsafe_address: e.is_unsafe_target(),
            detail: e.to_string(),
        })
    }

    fn check_tls(
        &self,
        material: &courier_app::domain::connection::TlsMaterial<'_>,
        now: courier_core::Timestamp,
    ) -> Result<courier_app::domain::connection::TlsFacts, courier_app::domain::connection::TlsRefusal> {
        crate::endpoint_tls::check_material(material, now)
    }
}

fn check_ip(host: &str, ip: IpAddr, allow_private: bool) -> Result<(), AdmissionError> {
    match address_refusal(ip, allow_private) {
        None => Ok(()),
        Some(refusal) => Err(AdmissionError::UnsafeAddress {
            host: host.to_owned(),
            ip,
            refusal,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: AdmissionPolicy = AdmissionPolicy::STRICT;
    const LOCAL: AdmissionPolicy = AdmissionPolicy::LOCAL;

    /// A short name for the variant, so the table can state expectations.
    fn reason(result: &Result<Url, AdmissionError>) -> &'static str {
        match result {
            Ok(_) => "ok",
            Err(AdmissionError::TooLong { .. }) => "too_long",
            Err(AdmissionError::InvalidCharacters) => "invalid_characters",
            Err(AdmissionError::NotAUrl(_)) => "not_a_url",
            Err(AdmissionError::SchemeNotAllowed { .. }) => "scheme",
            Err(AdmissionError::UserinfoPresent) => "userinfo",
            Err(AdmissionError::NoHost) => "no_host",
            Err(AdmissionError::PortZero) => "port_zero",
            Err(AdmissionError::FragmentPresent) => "fragment",
            Err(AdmissionError::UnsafeAddress { .. }) => "unsafe",
            Err(AdmissionError::DoesNotResolve { .. }) => "does_not_resolve",
            Err(AdmissionError::ResolveTimedOut { .. }) => "resolve_timed_out",
            Err(AdmissionError::PortNotAllowed { .. }) => "port_not_allowed",
        }
    }

    #[test]
    fn check_url_table() {
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_LEN));
        let cases: &[(&str, AdmissionPolicy, &str)] = &[
            ("https://example.com/hooks", STRICT, "ok"),
            ("https://example.com:8443/hooks?x=1", STRICT, "ok"),
            ("https://93.184.215.14/hook", STRICT, "ok"),
            ("https://[2606:4700:4700::1111]/hook", STRICT, "ok"),
            ("HTTPS://Example.COM/", STRICT, "ok"),
            ("http://example.com/", STRICT, "scheme"),
            ("http://example.com/", LOCAL, "ok"),
            ("ftp://example.com/", LOCAL, "scheme"),
            ("file:///etc/passwd", LOCAL, "scheme"),
            ("javascript:alert(1)", LOCAL, "scheme"),
            ("example.com/hook", STRICT, "not_a_url"),
            ("", STRICT, "not_a_url"),
            ("https://", STRICT, "not_a_url"),
            ("https://exa mple.com/", STRICT, "invalid_characters"),
            (" https://example.com/", STRICT, "invalid_characters"),
            ("https://example.com/\nx", STRICT, "invalid_characters"),
            ("https://user@example.com/", STRICT, "userinfo"),
            ("https://user:pw@example.com/", STRICT, "userinfo"),
            ("https://:pw@example.com/", STRICT, "userinfo"),
            ("https://example.com:0/", STRICT, "port_zero"),
            ("https://example.com/#frag", STRICT, "fragment"),
            ("https://example.com:99999/", STRICT, "not_a_url"),
            ("https://127.0.0.1/", STRICT, "unsafe"),
            ("https://127.0.0.1/", LOCAL, "ok"),
            (
                "http://127.1/",
                AdmissionPolicy {
                    allow_http: true,
                    allow_private: false,
                },
                "unsafe",
            ),
            ("https://0x7f.0.0.1/", STRICT, "unsafe"),
            ("https://2130706433/", STRICT, "unsafe"),
            ("https://0/", STRICT, "unsafe"),
            ("https://10.0.0.1/", STRICT, "unsafe"),
            ("https://169.254.169.254/latest/meta-data/", STRICT, "unsafe"),
            ("https://169.254.169.254/latest/meta-data/", LOCAL, "unsafe"),
            ("https://100.100.100.200/", LOCAL, "unsafe"),
            ("https://[::1]/", STRICT, "unsafe"),
            ("https://[::1]/", LOCAL, "ok"),
            ("https://[::ffff:127.0.0.1]/", STRICT, "unsafe"),
            ("https://[::ffff:169.254.169.254]/", LOCAL, "unsafe"),
            ("https://[fd00:ec2::254]/", LOCAL, "unsafe"),
            ("https://[fe80::1]/", LOCAL, "unsafe"),
            ("https://[64:ff9b::a9fe:a9fe]/", LOCAL, "unsafe"),
            ("https://localhost/", STRICT, "ok"), // a name: refused at resolution
            (long.as_str(), STRICT, "too_long"),
        ];
        let mut failures = Vec::new();
        for (url, policy, expected) in cases {
            let got = check_url(url, *policy);
            if reason(&got) != *expected {
                failures.push(format!("{url:?} {policy:?}: expected {expected}, got {got:?}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn unsafe_address_names_the_refusal() {
        match check_url("https://[::ffff:169.254.169.254]/", LOCAL) {
            Err(AdmissionError::UnsafeAddress { refusal, ip, .. }) => {
                assert_eq!(refusal, Refusal::CloudMetadata);
                assert_eq!(
                    ip,
                    "::ffff:169.254.169.254"
                        .parse::<IpAddr>()
                        .unwrap_or(IpAddr::from([0; 4]))
                );
            }
            other => panic!("expected UnsafeAddress, got {other:?}"),
        }
        let err = check_url("https://10.1.2.3/", STRICT).err();
        assert!(err.as_ref().is_some_and(AdmissionError::is_unsafe_target));
        assert!(err.is_some_and(|e| e.to_string().contains("private")));
    }

    #[test]
    fn length_limit_is_inclusive() {
        let base = "https://example.com/";
        let exact = format!("{base}{}", "a".repeat(MAX_URL_LEN - base.len()));
        assert_eq!(exact.len(), MAX_URL_LEN);
        assert!(check_url(&exact, STRICT).is_ok());
        let over = format!("{exact}a");
        assert!(
            matches!(check_url(&over, STRICT), Err(AdmissionError::TooLong { len, max }) if len == MAX_URL_LEN + 1 && max == MAX_URL_LEN)
        );
    }

    #[tokio::test]
    async fn resolve_checked_judges_literals_without_lookup() {
        let ok = resolve_checked("127.0.0.1", 8080, true).await;
        assert!(matches!(ok.as_deref(), Ok([addr]) if addr.port() == 8080 && addr.ip().is_loopback()));
        let bracketed = resolve_checked("[::1]", 80, false).await;
        assert!(matches!(
            bracketed,
            Err(AdmissionError::UnsafeAddress {
                refusal: Refusal::Loopback,
                ..
            })
        ));
        let metadata = resolve_checked("169.254.169.254", 80, true).await;
        assert!(matches!(
            metadata,
            Err(AdmissionError::UnsafeAddress {
                refusal: Refusal::CloudMetadata,
                ..
            })
        ));
    }

    #[tokio::test]
    async fn resolve_checked_refuses_localhost_unless_private_allowed() {
        let strict = resolve_checked("localhost", 443, false).await;
        assert!(
            matches!(
                strict,
                Err(AdmissionError::UnsafeAddress {
                    refusal: Refusal::Loopback,
                    ..
                })
            ),
            "{strict:?}"
        );
        let local = resolve_checked("localhost", 443, true).await;
        assert!(
            matches!(&local, Ok(addrs) if !addrs.is_empty() && addrs.iter().all(|a| a.ip().is_loopback() && a.port() == 443)),
            "{local:?}"
        );
    }

    #[tokio::test]
    async fn resolve_checked_reports_unresolvable_names() {
        let err = resolve_checked("nonexistent.invalid", 443, true).await;
        assert!(
            err.as_ref().is_err_and(AdmissionError::is_resolution_failure),
            "{err:?}"
        );
    }

    #[tokio::test]
    async fn admission_refuses_ports_the_deployment_does_not_allow() {
        // IP literals need no lookup: public addresses, so only the port decides.
        let strict = HttpAdmission::new(STRICT);
        for port in [22u16, 25, 79, 81, 442, 444, 1023] {
            let refused = strict.admit(&format!("https://93.184.216.34:{port}/hook")).await;
            let Err(r) = refused else {
                panic!("port {port} was admitted")
            };
            assert!(r.unsafe_address, "port {port} is an unsafe target (422): {r:?}");
            assert_eq!(
                r.detail,
                format!("port {port} is not allowed for endpoints; allowed ports: 80, 443, 1024-65535")
            );
        }
        for url in [
            "https://93.184.216.34/hook",
            "https://93.184.216.34:443/hook",
            "https://93.184.216.34:80/hook",
            "https://93.184.216.34:1024/hook",
            "https://93.184.216.34:65535/hook",
        ] {
            assert!(strict.admit(url).await.is_ok(), "{url} is allowed by default");
        }
        // A malformed URL stays malformed, whatever its port.
        let malformed = strict.admit("https://user@93.184.216.34:22/").await;
        assert!(matches!(&malformed, Err(r) if !r.unsafe_address), "{malformed:?}");
        // The deployment's own setting.
        let narrow = strict
            .clone()
            .with_allowed_ports(AllowedPorts::parse("443, 8000-8999").unwrap_or_default());
        assert!(narrow.admit("https://93.184.216.34:8443/").await.is_ok());
        let refused = narrow.admit("https://93.184.216.34:1024/").await;
        assert!(
            matches!(&refused, Err(r) if r.unsafe_address && r.detail.contains("port 1024") && r.detail.contains("443, 8000-8999")),
            "{refused:?}"
        );
    }

    #[test]
    fn allowed_ports_parse_and_refuse_nonsense() {
        assert_eq!(AllowedPorts::parse("80,443,1024-65535"), Ok(AllowedPorts::default()));
        let p = AllowedPorts::parse(" 8443 ,9000-9001").unwrap_or_default();
        assert!(p.allows(8443) && p.allows(9000) && p.allows(9001));
        assert!(!p.allows(443) && !p.allows(8999) && !p.allows(9002));
        assert_eq!(p.to_string(), "8443, 9000-9001");
        for bad in ["", ",", "0", "65536", "http", "10-5", "1-", "-1"] {
            assert!(AllowedPorts::parse(bad).is_err(), "{bad:?} parsed");
        }
    }

    #[tokio::test]
    async fn http_admission_port() {
        let strict = HttpAdmission::new(STRICT);
        let refused = strict.admit("https://localhost/hook").await;
        assert!(
            matches!(&refused, Err(r) if r.unsafe_address && r.detail.contains("loopback")),
            "{refused:?}"
        );
        let malformed = strict.admit("https://user@example.com/").await;
        assert!(matches!(&malformed, Err(r) if !r.unsafe_address), "{malformed:?}");
        let local = HttpAdmission::new(LOCAL).admit("HTTP://LOCALHOST:8080").await;
        assert_eq!(local.ok().as_deref(), Some("http://localhost:8080/"));
    }

    #[tokio::test]
    async fn admit_url_resolves_the_host() {
        let strict = admit_url("https://localhost:8443/hook", STRICT).await;
        assert!(
            strict.as_ref().is_err_and(AdmissionError::is_unsafe_target),
            "{strict:?}"
        );
        let local = admit_url("http://localhost:8443/hook", LOCAL).await;
        assert!(local.is_ok(), "{local:?}");
        let scheme = admit_url("http://localhost/", STRICT).await;
        assert!(matches!(scheme, Err(AdmissionError::SchemeNotAllowed { .. })));
    }
}
