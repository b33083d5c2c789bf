//! Who may frame the console: the deployment names the allowed ancestors (the
//! tenant's own product embedding a portal link), written into the CSP's
//! `frame-ancestors`. The default, `'none'`, forbids every frame and keeps
//! `X-Frame-Options: DENY` for browsers that predate CSP level 2.

/// The allowed ancestors of the console, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameAncestors(String);

impl Default for FrameAncestors {
    fn default() -> Self {
        FrameAncestors("'none'".to_owned())
    }
}

impl FrameAncestors {
    /// Parses a space-separated list of sources: `'none'` alone, or any of `'self'`
    /// and `https://` origins (host, optional `*.` wildcard and port, no path).
    /// Anything else is refused with the source at fault, so a typo cannot widen
    /// the policy or break the header.
    pub fn parse(raw: &str) -> Result<FrameAncestors, String> {
        let sources: Vec<&str> = raw.split_ascii_whitespace().collect();
        if sources.is_empty() {
            return Ok(FrameAncestors::default());
        }
        if sources == ["'none'"] {
            return Ok(FrameAncestors::default());
        }
        for src in &sources {
            if *src == "'self'" {
                continue;
            }
            let Some(host_port) = src.strip_prefix("https://") else {
                return Err(format!("frame ancestor {src:?}: use 'self' or an https:// origin"));
            };
            let (host, port) = match host_port.rsplit_once(':') {
                Some((h, p)) => (h, Some(p)),
                None => (host_port, None),
            };
            let bare = host.strip_prefix("*.").unwrap_or(host);
            let host_ok = !bare.is_empty()
                && bare
                    .split('.')
                    .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'));
            let port_ok = port.is_none_or(|p| !p.is_empty() && p.len() <= 5 && p.bytes().all(|b| b.is_ascii_digit()));
            if !host_ok || !port_ok {
                return Err(format!(
                    "frame ancestor {src:?}: not an https:// origin (host[:port], no path)"
                ));
            }
        }
        Ok(FrameAncestors(sources.join(" ")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_none(&self) -> bool {
        self.0 == "'none'"
    }

    /// Rewrites a reply's framing headers for these ancestors.
    pub(crate) fn apply(&self, headers: &mut Vec<(String, String)>) {
        if self.is_none() {
            return;
        }
        headers.retain(|(k, _)| k != "x-frame-options");
        for (k, v) in headers.iter_mut() {
            if k == "content-security-policy" {
                *v = v.replace("frame-ancestors 'none'", &format!("frame-ancestors {}", self.0));
            }
        }
    }
}
