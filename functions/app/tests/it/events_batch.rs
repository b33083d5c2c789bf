//! `POST /v1/events/batch` over the in-memory adapters: each entry answered as
//! `POST /v1/events` would answer it, one bad entry never failing the others, the
//! first messages sent in one `send_batch` ahead of the writes, one whose send
//! failed sent again after its write, and one that fails both times handled as a
//! failed single send (its delivery marked dead-lettered, its entry a 503).

use crate::common::{KEY, T0, World, raw, status};
use async_trait::async_trait;
use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::ports::OverdueIndex;
use courier_app::ports::{PortError, PortResult, Queue};
use courier_core::ids::DeliveryId;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

async fn batch(w: &World, body: &Value) -> (u16, Value) {
    w.call("POST", "/v1/events/batch", body.clone()).await
}

fn delivery_id(result: &Value) -> DeliveryId {
    DeliveryId::parse(result["deliveries"][0]["id"].as_str().unwrap_or_default()).expect("delivery id in the answer")
}

#[tokio::test]
async fn each_entry_gets_its_own_result_and_bad_ones_fail_alone() {
    let w = World::new(vec![status(200), status(200), status(200)], 5).await;
    let ep = w.endpoint(json!({})).await;
    let unknown = "ep_01JAAAAAAAAAAAAAAAAAAAAAAA";
    // The key's first use, through the batch.
    let (s, first) = batch(
        &w,
        &json!({"events": [{"endpointId": ep, "payload": {"n": 0}, "idempotencyKey": "k-1"}]}),
    )
    .await;
    assert_eq!(s, 207, "{first}");
    let (s, b) = batch(
        &w,
        &json!({"events": [
            {"endpointId": ep, "payload": {"n": 1}},
            {"endpointId": unknown, "payload": 2},
            {"endpointId": ep},
            {"endpointId": ep, "payload": {"n": 0}, "idempotencyKey": "k-1"},
            {"endpointId": ep, "payload": {"n": 9}, "idempotencyKey": "k-1"},
            "not an object",
            {"endpointId": ep, "payload": 3, "bogus": true},
            {"endpointId": ep, "payload": 4, "idempotencyKey": 7},
            {"endpointId": ep, "payload": {"n": 5}},
        ]}),
    )
    .await;
    assert_eq!(s, 207, "{b}");
    let r = b["results"].as_array().cloned().unwrap_or_default();
    let statuses: Vec<u64> = r.iter().map(|x| x["status"].as_u64().unwrap_or(0)).collect();
    assert_eq!(statuses, [202, 404, 400, 202, 422, 400, 400, 400, 202]);
    let indexes: Vec<u64> = r.iter().map(|x| x["index"].as_u64().unwrap_or(99)).collect();
    assert_eq!(indexes, (0..9).collect::<Vec<u64>>());
    assert_eq!(r[1]["problem"]["code"], "not_found");
    assert_eq!(r[2]["problem"]["code"], "validation_failed");
    assert!(
        r[2]["problem"]["detail"]
            .as_str()
            .unwrap_or("")
            .contains("`events[2].payload`"),
        "{}",
        r[2]
    );
    assert_eq!(r[4]["problem"]["code"], "idempotency_key_reused");
    assert!(r[5]["problem"]["detail"].as_str().unwrap_or("").contains("`events[5]`"));
    assert!(r[6]["problem"]["detail"].as_str().unwrap_or("").contains("bogus"));
    assert!(
        r[7]["problem"]["detail"]
            .as_str()
            .unwrap_or("")
            .contains("`events[7].idempotencyKey`")
    );
    // The repeat of the key answers the first answer: same event, same delivery.
    assert_eq!(r[3]["eventId"], first["results"][0]["eventId"]);
    assert_eq!(r[3]["deliveries"], first["results"][0]["deliveries"]);
    assert!(r[1].get("eventId").is_none() && r[0].get("problem").is_none());

    // Three distinct deliveries (entry 3 is entry 0 of the first batch), each sent once.
    let ids = [
        delivery_id(&first["results"][0]),
        delivery_id(&r[0]),
        delivery_id(&r[8]),
    ];
    // Four messages: the key's repeat queues its stored delivery again (always safe:
    // the sender's claim drops the duplicate, so the receiver still sees three).
    assert_eq!(w.step().await.len(), 4);
    for id in &ids {
        assert_eq!(w.delivery(id).await.status.as_str(), "succeeded", "{id}");
    }
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), 3);
}

#[tokio::test]
async fn a_body_that_is_not_a_list_of_1_to_100_events_is_refused_naming_the_field() {
    let w = World::new(vec![], 5).await;
    let ep = w.endpoint(json!({})).await;
    let (s, b) = batch(&w, &json!({})).await;
    assert_eq!((s, b["code"].as_str()), (400, Some("validation_failed")));
    assert!(b["detail"].as_str().unwrap_or("").contains("`events`"), "{b}");
    let (s, b) = batch(&w, &json!({"events": []})).await;
    assert_eq!((s, b["code"].as_str()), (400, Some("validation_failed")));
    assert!(b["detail"].as_str().unwrap_or("").contains("`events`"), "{b}");
    let (s, b) = batch(&w, &json!({"events": {"endpointId": ep}})).await;
    assert_eq!((s, b["code"].as_str()), (400, Some("validation_failed")));
    assert!(b["detail"].as_str().unwrap_or("").contains("events"), "{b}");
    let (s, b) = batch(&w, &json!({"events": [], "extra": 1})).await;
    assert_eq!(s, 400, "{b}");
    let many: Vec<Value> = (0..101).map(|n| json!({"endpointId": ep, "payload": n})).collect();
    let (s, b) = batch(&w, &json!({"events": many})).await;
    assert_eq!((s, b["code"].as_str()), (413, Some("payload_too_large")));
    assert!(b["detail"].as_str().unwrap_or("").contains("`events`"), "{b}");
    // Nothing of a refused batch was written or queued.
    assert!(w.queue.is_empty());
    let auth = format!("Bearer {KEY}");
    let (s, list, _) = raw(&w, "GET", "/v1/events", None, &[("authorization", &auth)], b"").await;
    assert_eq!(s, 200);
    assert_eq!(list["items"], json!([]));
    // A hundred is the limit, not over it.
    let hundred: Vec<Value> = (0..100).map(|n| json!({"endpointId": ep, "payload": n})).collect();
    let (s, b) = batch(&w, &json!({"events": hundred})).await;
    assert_eq!(s, 207);
    assert_eq!(b["results"].as_array().map(Vec::len), Some(100));
    assert_eq!(w.queue.len(), 100);
}

/// Counts `send_batch` calls and their entries and passes them on (entry by entry)
/// to the inner queue, failing the entries whose place among all entries sent
/// (from 0) is in `fail`.
struct CountingBatches {
    inner: Arc<courier_app::testing::memory::MemoryQueue>,
    batches: AtomicUsize,
    entries: AtomicUsize,
    singles: AtomicUsize,
    fail: Vec<usize>,
}

/// A world whose API sends through a [`CountingBatches`] failing the entries at
/// `fail`, with two endpoints.
async fn counting_world(fail: Vec<usize>) -> (World, Arc<CountingBatches>, String, String) {
    let mut w = World::new(vec![status(200), status(200), status(200)], 5).await;
    let counting = Arc::new(CountingBatches {
        inner: w.queue.clone(),
        batches: AtomicUsize::new(0),
        entries: AtomicUsize::new(0),
        singles: AtomicUsize::new(0),
        fail,
    });
    w.api.planner.queue = counting.clone();
    let ep = w.endpoint(json!({})).await;
    let other = w.endpoint(json!({})).await;
    (w, counting, ep, other)
}

#[async_trait]
impl Queue for CountingBatches {
    async fn send(&self, message: &DeliveryMessage, delay_seconds: u32) -> PortResult<()> {
        self.singles.fetch_add(1, Ordering::SeqCst);
        self.inner.send(message, delay_seconds).await
    }
    async fn send_batch(&self, entries: &[(DeliveryMessage, u32)]) -> Vec<PortResult<()>> {
        self.batches.fetch_add(1, Ordering::SeqCst);
        let mut out = Vec::new();
        for (m, d) in entries {
            let place = self.entries.fetch_add(1, Ordering::SeqCst);
            if self.fail.contains(&place) {
                out.push(Err(PortError::Unavailable("injected".into())));
            } else {
                out.push(self.inner.send(m, *d).await);
            }
        }
        out
    }
}

#[tokio::test]
async fn first_messages_go_ahead_in_one_send_batch_and_one_that_failed_goes_after_its_write() {
    // The second message sent ahead fails (entry 1's delivery to `ep`).
    let (w, counting, ep, other) = counting_world(vec![1]).await;
    let (s, b) = batch(
        &w,
        &json!({"events": [
            {"endpointId": ep, "payload": 1},
            {"endpointIds": [ep, other], "payload": 2},
        ]}),
    )
    .await;
    assert_eq!(s, 207, "{b}");
    let statuses: Vec<Value> = b["results"]
        .as_array()
        .map(|r| r.iter().map(|x| x["status"].clone()).collect())
        .unwrap_or_default();
    assert_eq!(statuses, [json!(202), json!(202)]);
    // Three ahead in one batch, the failed one again in a second after the writes.
    assert_eq!(counting.batches.load(Ordering::SeqCst), 2);
    assert_eq!(counting.entries.load(Ordering::SeqCst), 4);
    assert_eq!(counting.singles.load(Ordering::SeqCst), 0);
    assert_eq!(w.queue.len(), 3);
    let again = DeliveryId::parse(b["results"][1]["deliveries"][0]["id"].as_str().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {b}"));
    let d = w.delivery(&again).await;
    assert_eq!((d.status.as_str(), d.dead_lettered_at), ("pending", None));
    // Only the one not sent ahead has a due-index entry.
    let due = w.store.overdue(T0.plus_secs(3_600), 10).await.unwrap();
    assert_eq!(due, vec![again.clone()]);
    // Each delivered once.
    assert_eq!(w.step().await.len(), 3);
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), 3);
    assert_eq!(w.delivery(&again).await.status.as_str(), "succeeded");
}

#[tokio::test]
async fn a_first_message_that_fails_ahead_and_after_its_write_is_marked_and_its_entry_is_503() {
    // Entry 0's message fails ahead (place 0) and again after the write (place 3).
    let (w, counting, ep, other) = counting_world(vec![0, 3]).await;
    let (s, b) = batch(
        &w,
        &json!({"events": [
            {"endpointId": ep, "payload": 1, "idempotencyKey": "fails-once"},
            {"endpointIds": [ep, other], "payload": 2},
        ]}),
    )
    .await;
    assert_eq!(s, 207, "{b}");
    assert_eq!(counting.batches.load(Ordering::SeqCst), 2);
    assert_eq!(counting.singles.load(Ordering::SeqCst), 0);
    let r = &b["results"];
    assert_eq!(r[0]["status"], 503);
    assert_eq!(r[0]["problem"]["code"], "service_unavailable");
    assert_eq!(r[1]["status"], 202);
    assert_eq!(r[1]["deliveries"].as_array().map(Vec::len), Some(2));
    assert_eq!(w.queue.len(), 2);
    // The unqueued delivery is visibly marked, as a failed single send leaves it.
    let auth = format!("Bearer {KEY}");
    let (_, list, _) = raw(&w, "GET", "/v1/events", None, &[("authorization", &auth)], b"").await;
    // Entry 0's event is the one with a single delivery.
    let single: Vec<Value> = list["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .filter(|e| e["deliveries"].as_array().map(Vec::len) == Some(1))
        .collect();
    assert_eq!(single.len(), 1, "{list}");
    let id = DeliveryId::parse(single[0]["deliveries"][0]["deliveryId"].as_str().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{e}: {list}"));
    assert!(w.delivery(&id).await.dead_lettered_at.is_some());
    // Repeating the entry with its key queues it; it is delivered exactly once.
    let (s, again) = batch(
        &w,
        &json!({"events": [{"endpointId": ep, "payload": 1, "idempotencyKey": "fails-once"}]}),
    )
    .await;
    assert_eq!(s, 207);
    assert_eq!(again["results"][0]["status"], 202, "{again}");
    assert_eq!(w.step().await.len(), 3);
    assert_eq!(w.delivery(&id).await.status.as_str(), "succeeded");
    assert_eq!(w.http.requests.lock().map(|r| r.len()).unwrap_or(0), 3);
    assert!(w.delivery(&id).await.dead_lettered_at.is_none());
}
