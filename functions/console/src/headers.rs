//! The headers every console answer carries: a strict Content-Security-Policy (no
//! inline script or style, nothing from another origin, never framed), no sniffing,
//! no referrer, and the cache policy the caller picks.

/// No inline script, no eval, no third-party anything: receiver-controlled text that
/// slipped into markup still could not run. `connect-src 'self'` is the API itself.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; \
img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The index names the current assets, so it is fetched afresh every time.
pub const NO_STORE: &str = "no-store";

/// Hashed asset names change with their content, so a cached copy is never stale.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

pub fn with_security(content_type: &str, cache: &str) -> Vec<(String, String)> {
    [
        ("content-type", content_type),
        ("cache-control", cache),
        ("content-security-policy", CSP),
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        ("cross-origin-opener-policy", "same-origin"),
        ("cross-origin-resource-policy", "same-origin"),
        (
            "permissions-policy",
            "camera=(), microphone=(), geolocation=(), payment=()",
        ),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect()
}
