//! The API failure matrix's real-adapter row: ingest to two endpoints on DynamoDB
//! and SQS on the emulator, both sends of the second delivery's first message
//! failing (the one ahead of the write and the one after it). The API answers 503 with the
//! first delivery queued and the second marked; the repeat with the same
//! Idempotency-Key completes the work, and the real sender delivers each exactly
//! once to a real receiver on 127.0.0.1.

use courier_app::api::{Api, ApiRequest};
use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::ports::{PortError, PortResult, Queue};
use courier_e2e::{Harness, Reply, ScriptedReceiver, test_options};
use serde_json::{Value, json};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

#[derive(Debug)]
struct Injected;
impl std::fmt::Display for Injected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("injected queue failure")
    }
}
impl std::error::Error for Injected {}

/// The stack's queue, failing the sends numbered in `fail_at` (from 0) once each.
struct FailingQueue {
    inner: Arc<dyn Queue>,
    sends: AtomicUsize,
    fail_at: Vec<usize>,
}

impl Queue for FailingQueue {
    fn send<'a, 'b, 'c>(
        &'a self,
        message: &'b DeliveryMessage,
        delay_seconds: u32,
    ) -> Pin<Box<dyn Future<Output = PortResult<()>> + Send + 'c>>
    where
        'a: 'c,
        'b: 'c,
    {
        Box::pin(async move {
            if self.fail_at.contains(&self.sends.fetch_add(1, Ordering::SeqCst)) {
                return Err(PortError::Unavailable(Box::new(Injected)));
            }
            self.inner.send(message, delay_seconds).await
        })
    }
}

async fn post_event(api: &Api, key: &str, body: &Value) -> (u16, Value) {
    let r = api
        .handle(ApiRequest {
            method: "POST".into(),
            path: "/v1/events".into(),
            query: None,
            headers: vec![
                ("authorization".into(), format!("Bearer {key}")),
                ("idempotency-key".into(), "aws-row-1".into()),
                ("content-type".into(), "application/json".into()),
            ],
            body: body.to_string().into_bytes(),
        })
        .await;
    (r.status, r.body_json())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ingest_with_a_failed_enqueue_on_the_real_adapters_is_completed_once_by_its_repeat() {
    let h = Harness::start(test_options("api-failures")).await;
    let rx_a = ScriptedReceiver::start(vec![Reply::Status(200)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"));
    let rx_b = ScriptedReceiver::start(vec![Reply::Status(200)])
        .await
        .unwrap_or_else(|e| panic!("receiver: {e}"));
    let (a, _) = h.endpoint(&rx_a.url(), json!({"base": "tanitar"})).await;
    let (b, _) = h.endpoint(&rx_b.url(), json!({"base": "tanitar"})).await;

    let s = &h.stack;
    let mut planner = s.api.planner.clone();
    planner.queue = Arc::new(FailingQueue {
        inner: s.api.planner.queue.clone(),
        sends: AtomicUsize::new(0),
        // Sends: a and b ahead of the write, then b again after it.
        fail_at: vec![1, 2],
    });
    let api = Api {
        tenants: s.api.tenants.clone(),
        endpoints: s.api.endpoints.clone(),
        deliveries: s.api.deliveries.clone(),
        idempotency: s.api.idempotency.clone(),
        applications: s.api.applications.clone(),
        schemas: Default::default(),
        planner,
        clock: s.api.clock.clone(),
        random: s.api.random.clone(),
        secrets: s.api.secrets.clone(),
        sealer: s.api.sealer.clone(),
        admission: s.api.admission.clone(),
        settings: s.api.settings.clone(),
        limiter: Default::default(),
        subscriptions: s.api.subscriptions.clone(),
        fanout_queue: s.api.fanout_queue.clone(),
        schedules: s.api.schedules.clone(),
    };
    let body = json!({"endpointIds": [a, b], "type": "test.event", "payload": {"n": 1}});
    let (status, answer) = post_event(&api, &s.api_key, &body).await;
    assert_eq!(status, 503, "{answer}");
    assert_eq!(answer["code"], "service_unavailable");

    // The first delivery is on its way; the second is visibly marked.
    let events = h.call("GET", &format!("/v1/endpoints/{b}/deliveries"), None).await;
    let marked = events.1["items"][0].clone();
    assert!(marked["deadLetteredAt"].is_string(), "{marked}");
    let first = rx_a.wait_for(1, Duration::from_secs(20)).await;
    assert_eq!(first.len(), 1);

    let (status, repeat) = post_event(&api, &s.api_key, &body).await;
    assert_eq!(status, 202, "{repeat}");
    let ids: Vec<String> = repeat["deliveries"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["id"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(ids.len(), 2, "{repeat}");
    assert_eq!(ids[1], marked["id"].as_str().unwrap_or_default());
    for id in &ids {
        let d = h.settled(id, Duration::from_secs(30)).await;
        assert_eq!(
            (d["status"].as_str(), &d["deadLetteredAt"]),
            (Some("succeeded"), &Value::Null),
            "{d}"
        );
        assert_eq!(h.attempts(id).await.len(), 1, "{id}");
    }
    assert_eq!((rx_a.received().len(), rx_b.received().len()), (1, 1));
    h.stop().await;
}
