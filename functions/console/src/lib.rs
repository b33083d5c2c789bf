//! The operator console: an embedded single-page app (plain HTML, CSS and JS, no
//! build step) served under `/console` by whatever carries the API. [`serve`] is
//! transport-neutral: a GET path and query in, a complete answer (status, headers,
//! body) out, or `None` when the path is not the console's.

mod assets;
mod framing;
mod headers;
mod policy;

pub use assets::{asset_path, index_html};
pub use framing::FrameAncestors;

/// One answer of the console.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// The URL prefix the console lives under.
pub const PREFIX: &str = "/console";

/// [`serve`] for a console that `ancestors` may frame (CSP `frame-ancestors`).
pub fn serve_framed(path: &str, query: Option<&str>, ancestors: &FrameAncestors) -> Option<Reply> {
    let mut reply = serve(path, query)?;
    ancestors.apply(&mut reply.headers);
    Some(reply)
}

/// Answers a GET (or HEAD) for `path` (no query) with `query` (without `?`).
/// `None` when the path is outside `/console`. Never framed.
pub fn serve(path: &str, query: Option<&str>) -> Option<Reply> {
    let rest = path.strip_prefix(PREFIX)?;
    if !(rest.is_empty() || rest.starts_with('/')) {
        // `/consoles` and the like are not ours.
        return None;
    }
    Some(match rest {
        "" | "/" | "/index.html" => assets::index(),
        "/policy/show" => policy::show(query.unwrap_or("")),
        "/policy/simulate" => policy::simulate(query.unwrap_or("")),
        _ => match rest.strip_prefix("/assets/") {
            Some(name) => assets::asset(name).unwrap_or_else(not_found),
            None => not_found(),
        },
    })
}

fn not_found() -> Reply {
    Reply {
        status: 404,
        headers: headers::with_security("text/plain; charset=utf-8", headers::NO_STORE),
        body: b"not found\n".to_vec(),
    }
}
