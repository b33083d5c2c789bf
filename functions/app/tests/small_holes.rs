//! Smaller holes in the safety nets, each shown through a public seam: a bad
//! completion token makes the table write nothing.

mod common;

use async_trait::async_trait;
use common::{World, raw, status};
use courier_app::model::IdempotencyRecord;
use courier_app::ports::{IdempotencyStore, PortResult};
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts the idempotency writes made through it.
struct CountingKeys {
    inner: Arc<dyn IdempotencyStore>,
    puts: AtomicUsize,
}

#[async_trait]
impl IdempotencyStore for CountingKeys {
    async fn put_idempotency(&self, record: &IdempotencyRecord) -> PortResult<Option<IdempotencyRecord>> {
        self.puts.fetch_add(1, Ordering::SeqCst);
        self.inner.put_idempotency(record).await
    }
    async fn get_idempotency(&self, key: &str) -> PortResult<Option<IdempotencyRecord>> {
        self.inner.get_idempotency(key).await
    }
}

#[tokio::test]
async fn a_bad_completion_token_on_an_existing_delivery_writes_nothing() {
    let mut w = World::new(vec![status(200)], 5).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    w.run(&id, 5).await;
    let keys = Arc::new(CountingKeys {
        inner: w.store.clone(),
        puts: AtomicUsize::new(0),
    });
    w.api.idempotency = keys.clone();
    let token = format!("{id}.{}", "ab".repeat(32));
    let path = "/v1/attempts/att_01JAAAAAAAAAAAAAAAAAAAAAAA/complete";
    for _ in 0..3 {
        let (s, b, _) = raw(
            &w,
            "POST",
            path,
            None,
            &[
                ("webhook-completion-token", token.as_str()),
                ("content-type", "application/json"),
            ],
            br#"{"outcome": "succeeded"}"#,
        )
        .await;
        assert_eq!((s, b["code"].as_str()), (401, Some("unauthorized")), "{b}");
    }
    assert_eq!(keys.puts.load(Ordering::SeqCst), 0);
}
