//! Every operation the generated OpenAPI document lists (the code's own document,
//! which docs/openapi.json must equal: tests/it/openapi.rs), with the statuses it
//! documents: what the route x status and route x credential tables walk.

use serde_json::Value;
use std::sync::LazyLock;

/// One documented operation: its method, its path template and its statuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub method: &'static str,
    pub path: &'static str,
    /// Every status the operation documents, ascending.
    pub statuses: Vec<u16>,
}

/// The document as the code generates it.
pub fn generated() -> Value {
    serde_json::from_str(&courier_app::api::openapi::document_json()).expect("the generated document is JSON")
}

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// Every operation of the generated document.
pub static ROUTES: LazyLock<Vec<Route>> = LazyLock::new(|| {
    let doc = generated();
    let mut routes = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for (method, op) in item.as_object().into_iter().flatten() {
            let mut statuses: Vec<u16> = op["responses"]
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(code, _)| code.parse().ok())
                .collect();
            statuses.sort_unstable();
            routes.push(Route {
                method: leak(&method.to_ascii_uppercase()),
                path: leak(path),
                statuses,
            });
        }
    }
    routes
});

/// The documented route a request hits: the template that matches the path with the
/// most literal segments.
pub fn route_of(method: &str, path: &str) -> &'static Route {
    let segments: Vec<&str> = path.split('/').collect();
    ROUTES
        .iter()
        .filter(|r| r.method == method)
        .filter_map(|r| {
            let t: Vec<&str> = r.path.split('/').collect();
            let fits = t.len() == segments.len()
                && t.iter()
                    .zip(&segments)
                    .all(|(t, p)| t == p || (t.starts_with('{') && !p.is_empty()));
            fits.then(|| (t.iter().filter(|s| !s.starts_with('{')).count(), r))
        })
        .max_by_key(|(literal, _)| *literal)
        .map(|(_, r)| r)
        .unwrap_or_else(|| panic!("{method} {path} is no documented operation"))
}
