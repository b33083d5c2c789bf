//! Framing through `serve_framed`: the deployment's allowed ancestors go into the
//! CSP's `frame-ancestors` (and `X-Frame-Options` goes), `'none'` keeps both
//! refusals, and a source that is not `'self'` or an https origin is refused.

use courier_console::{FrameAncestors, Reply, serve_framed};

fn header<'a>(r: &'a Reply, name: &str) -> Option<&'a str> {
    r.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

#[test]
fn allowed_ancestors_are_written_into_the_policy() {
    let a = FrameAncestors::parse("'self'  https://app.example.com https://*.tenant.example:8443").unwrap();
    assert_eq!(
        a.as_str(),
        "'self' https://app.example.com https://*.tenant.example:8443"
    );
    for path in ["/console", "/console/nothing"] {
        let r = serve_framed(path, None, &a).unwrap_or_else(|| panic!("{path}"));
        let csp = header(&r, "content-security-policy").unwrap_or_default();
        assert!(
            csp.ends_with("frame-ancestors 'self' https://app.example.com https://*.tenant.example:8443"),
            "{csp}"
        );
        assert!(
            !csp.contains("frame-ancestors 'none'") && csp.starts_with("default-src 'none'"),
            "{csp}"
        );
        assert_eq!(header(&r, "x-frame-options"), None, "{path}");
    }
    assert!(serve_framed("/v1/endpoints", None, &a).is_none());
}

#[test]
fn the_default_frames_nowhere() {
    for raw in ["", "  ", "'none'"] {
        let a = FrameAncestors::parse(raw).unwrap();
        assert_eq!(a, FrameAncestors::default());
        let r = serve_framed("/console", None, &a).unwrap_or_else(|| panic!("console"));
        assert!(
            header(&r, "content-security-policy").is_some_and(|c| c.ends_with("frame-ancestors 'none'")),
            "{raw:?}"
        );
        assert_eq!(header(&r, "x-frame-options"), Some("DENY"));
    }
}

#[test]
fn sources_that_are_not_self_or_an_https_origin_are_refused() {
    for raw in [
        "*",
        "http://app.example.com",
        "https://app.example.com/path",
        "https://",
        "https://a..b",
        "https://app.example.com:",
        "https://app.example.com:123456",
        "'self'; script-src *",
        "'none' 'self'",
        "'unsafe-inline'",
        "data:",
    ] {
        let err = FrameAncestors::parse(raw).expect_err(raw);
        assert!(err.starts_with("frame ancestor "), "{raw}: {err}");
    }
}
