//! The API over HTTP, as any client sees it: bearer key, JSON bodies, optional
//! Idempotency-Key, and every error answer turned into one classified line.

use crate::exit::{Class, CliError, CliResult};
use crate::profile::Target;
use serde_json::Value;
use std::time::Duration;

/// A successful answer: parsed, and as sent (so `--json` keeps the API's own field
/// order and number spelling).
pub struct Answer {
    pub value: Value,
    pub raw: String,
}

pub struct Client {
    http: reqwest::Client,
    target: Target,
}

impl Client {
    pub fn new(target: Target) -> CliResult<Client> {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(60))
            .user_agent(concat!("courier-cli/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| CliError::failed(format!("cannot set up the HTTP client: {e}")))?;
        Ok(Client { http, target })
    }

    fn key(&self) -> CliResult<&str> {
        self.target.api_key.as_deref().ok_or_else(|| {
            CliError::usage("no API key: pass --api-key, set COURIER_API_KEY, or give the profile an apiKey")
        })
    }

    pub async fn get(&self, path: &str, query: &[(&str, String)]) -> CliResult<Answer> {
        self.send(reqwest::Method::GET, path, query, None, None).await
    }

    pub async fn post(&self, path: &str, body: Option<Value>, idempotency_key: Option<&str>) -> CliResult<Answer> {
        self.send(reqwest::Method::POST, path, &[], body, idempotency_key).await
    }

    pub async fn patch(&self, path: &str, body: Value) -> CliResult<Answer> {
        self.send(reqwest::Method::PATCH, path, &[], Some(body), None).await
    }

    pub async fn delete(&self, path: &str, query: &[(&str, String)]) -> CliResult<Answer> {
        self.send(reqwest::Method::DELETE, path, query, None, None).await
    }

    async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        query: &[(&str, String)],
        body: Option<Value>,
        idempotency_key: Option<&str>,
    ) -> CliResult<Answer> {
        let key = self.key()?;
        let url = format!("{}{path}{}", self.target.api_url, query_string(query));
        let mut req = self.http.request(method.clone(), &url).bearer_auth(key);
        if let Some(b) = body {
            req = req.header("content-type", "application/json").body(b.to_string());
        }
        if let Some(k) = idempotency_key {
            req = req.header("idempotency-key", k);
        }
        let resp = req.send().await.map_err(|e| {
            CliError::new(
                Class::Unavailable,
                format!("cannot reach the API at {}: {}", self.target.api_url, error_chain(&e)),
            )
        })?;
        let status = resp.status().as_u16();
        let bytes = resp.bytes().await.map_err(|e| {
            CliError::new(
                Class::Unavailable,
                format!("{method} {path}: the answer broke off: {}", error_chain(&e)),
            )
        })?;
        if !(200..300).contains(&status) {
            return Err(CliError::from_answer(status, &bytes));
        }
        let value = serde_json::from_slice(&bytes).map_err(|e| {
            CliError::failed(format!(
                "{method} {path}: the API answered {status} with a body that is not JSON: {e}"
            ))
        })?;
        Ok(Answer {
            value,
            raw: String::from_utf8_lossy(&bytes).into_owned(),
        })
    }
}

/// `?a=1&b=2` with each value percent-encoded; empty when there is nothing.
fn query_string(query: &[(&str, String)]) -> String {
    if query.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = query.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect();
    format!("?{}", parts.join("&"))
}

fn encode(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for b in v.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Path segment: ids are short ASCII, but a typo with a slash must not change the route.
pub fn segment(id: &str) -> String {
    encode(id)
}

/// An error and its causes on one line (reqwest's top-level message alone says
/// little: "error sending request").
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut parts = vec![e.to_string()];
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = s.source();
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_are_percent_encoded() {
        assert_eq!(query_string(&[]), "");
        assert_eq!(
            query_string(&[("since", "2026-11-30T07:00:00+01:00".into()), ("limit", "10".into())]),
            "?since=2026-11-30T07%3A00%3A00%2B01%3A00&limit=10"
        );
        assert_eq!(segment("ep_1/../x"), "ep_1%2F..%2Fx");
    }
}
