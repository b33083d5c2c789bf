//! End-to-end harness: a whole local stack (emulator, API, sender poller, timer
//! pump) per test, driven over real HTTP, with scripted receivers on 127.0.0.1:0.

use courier_local::stack::{Stack, StackOptions};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

pub use courier_local::receiver::{Received, Reply, ScriptedReceiver};

pub struct Harness {
    pub stack: Stack,
    pub http: reqwest::Client,
}

/// Options most end-to-end tests want: an API on a free port, quiet output.
pub fn test_options(name: &str) -> StackOptions {
    StackOptions {
        api_addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        prefix: format!("e2e-{name}"),
        ..StackOptions::default()
    }
}

impl Harness {
    pub async fn start(opts: StackOptions) -> Harness {
        let stack = Stack::start(opts)
            .await
            .unwrap_or_else(|e| panic!("local stack failed to start: {e}"));
        Harness {
            stack,
            http: reqwest::Client::new(),
        }
    }

    pub async fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let url = format!("{}{path}", self.stack.api_url);
        let mut req = self
            .http
            .request(method.parse().unwrap_or(reqwest::Method::GET), url)
            .bearer_auth(&self.stack.api_key);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let status = resp.status().as_u16();
        let bytes = resp.bytes().await.unwrap_or_default();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    /// Creates an endpoint; returns (id, signing secret).
    pub async fn endpoint(&self, url: &str, policy: Value) -> (String, String) {
        let (status, body) = self
            .call("POST", "/v1/endpoints", Some(json!({"url": url, "policy": policy})))
            .await;
        assert_eq!(status, 201, "create endpoint: {body}");
        (
            body["id"].as_str().unwrap_or_default().to_owned(),
            body["secret"].as_str().unwrap_or_default().to_owned(),
        )
    }

    /// Sends an event to one endpoint; returns the delivery id.
    pub async fn event(&self, endpoint: &str, payload: Value) -> String {
        let (status, body) = self
            .call(
                "POST",
                "/v1/events",
                Some(json!({"endpointId": endpoint, "type": "test.event", "payload": payload})),
            )
            .await;
        assert_eq!(status, 202, "send event: {body}");
        body["deliveries"][0]["id"].as_str().unwrap_or_default().to_owned()
    }

    pub async fn delivery(&self, id: &str) -> Value {
        let (status, body) = self.call("GET", &format!("/v1/deliveries/{id}"), None).await;
        assert_eq!(status, 200, "get delivery: {body}");
        body
    }

    pub async fn attempts(&self, id: &str) -> Vec<Value> {
        let (status, body) = self.call("GET", &format!("/v1/deliveries/{id}/attempts"), None).await;
        assert_eq!(status, 200, "list attempts: {body}");
        body["items"].as_array().cloned().unwrap_or_default()
    }

    /// Polls until the delivery settles (succeeded/failed/dropped) or `timeout` passes.
    pub async fn settled(&self, id: &str, timeout: Duration) -> Value {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let d = self.delivery(id).await;
            if matches!(d["status"].as_str(), Some("succeeded" | "failed" | "dropped")) {
                return d;
            }
            if tokio::time::Instant::now() >= deadline {
                panic!("delivery {id} did not settle within {timeout:?}: {d}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn stop(self) {
        self.stack.stop().await;
    }
}

/// Milliseconds since the epoch of an RFC 3339 time in a JSON value.
pub fn ms(v: &Value) -> i64 {
    courier_core::Timestamp::parse_rfc3339(v.as_str().unwrap_or_default())
        .map(|t| t.millis())
        .expect("an RFC 3339 time")
}
