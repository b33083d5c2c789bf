//! `SqsQueue::send_batch` against a private moto server: more than ten entries go
//! out in calls of ten, every entry gets its own result in order, and an entry SQS
//! would refuse (a delay over 900 s) fails alone, as a single send of it would; and
//! `SqsQueue::delete_batch` likewise.

use courier_app::domain::delivery_message::{DeliveryMessage, Trigger};
use courier_app::domain::queue_message::Message;
use courier_app::ports::{PortError, Queue};
use courier_app::testing::contract::{Ids, T0};
use courier_aws::SqsQueue;
use courier_aws::bootstrap::{ResourceNames, ensure_resources};
use courier_aws::testing::Emulator;
use courier_core::ids::{EndpointId, TenantId};
use std::collections::BTreeSet;

/// A first attempt's message for a new delivery of `endpoint`.
fn first_attempt(ids: &Ids, tenant: &TenantId, endpoint: &EndpointId) -> DeliveryMessage {
    DeliveryMessage {
        v: 1,
        delivery_id: ids.delivery(),
        tenant_id: tenant.clone(),
        endpoint_id: endpoint.clone(),
        attempt: 1,
        not_before: T0,
        trigger: Trigger::Initial,
        source_attempt_id: None,
        attempt_id: None,
        completion_check: false,
        body: None,
    }
}

#[tokio::test]
async fn send_batch_sends_every_entry_in_calls_of_ten_and_fails_a_bad_one_alone() {
    let emu = Emulator::start().await.expect("AWS emulator");
    let config = emu.sdk_config().await.unwrap();
    let res = ensure_resources(&config, &ResourceNames::with_prefix("courier-batch"))
        .await
        .expect("bootstrap");
    let queue = SqsQueue::new(&config, &res.queue_url);
    let ids = Ids::new();
    let (tenant, endpoint) = (ids.tenant(), ids.endpoint());
    let entries: Vec<(DeliveryMessage, u32)> = (0..23)
        .map(|i| (first_attempt(&ids, &tenant, &endpoint), if i == 5 { 901 } else { 0 }))
        .collect();
    let results = queue.send_batch(&entries).await;
    assert_eq!(results.len(), 23);
    for (i, r) in results.iter().enumerate() {
        if i == 5 {
            assert!(matches!(r, Err(PortError::Backend(_))), "{r:?}");
        } else {
            assert!(r.is_ok(), "entry {i}: {r:?}");
        }
    }
    let expected: BTreeSet<String> = entries
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != 5)
        .map(|(_, (m, _))| m.delivery_id.to_string())
        .collect();
    let mut got = BTreeSet::new();
    // Bounded: at most 10 receives of up to 10 messages each.
    for _ in 0..10 {
        let batch = queue.receive(10, 1, 60).await.unwrap();
        if batch.is_empty() && got.len() == expected.len() {
            break;
        }
        for m in batch {
            let parsed = Message::parse(&m.body).and_then(Message::into_delivery).unwrap();
            got.insert(parsed.delivery_id.to_string());
        }
    }
    assert_eq!(got, expected);
}

/// `SqsQueue::delete_batch` (the local runner's deletes): calls of ten, one result
/// per handle in order, a bad handle failing alone; the deleted never come back.
#[tokio::test]
async fn delete_batch_deletes_in_calls_of_ten_and_fails_a_bad_handle_alone() {
    let emu = Emulator::start().await.expect("AWS emulator");
    let config = emu.sdk_config().await.unwrap();
    let res = ensure_resources(&config, &ResourceNames::with_prefix("courier-delete"))
        .await
        .expect("bootstrap");
    let queue = SqsQueue::new(&config, &res.queue_url);
    let ids = Ids::new();
    let (tenant, endpoint) = (ids.tenant(), ids.endpoint());
    let entries: Vec<(DeliveryMessage, u32)> = (0..12).map(|_| (first_attempt(&ids, &tenant, &endpoint), 0)).collect();
    assert!(queue.send_batch(&entries).await.iter().all(Result::is_ok));
    let mut handles = Vec::new();
    // Bounded: at most 5 receives; each message hidden for a second.
    for _ in 0..5 {
        if handles.len() == 12 {
            break;
        }
        let batch = queue.receive(10, 1, 1).await.unwrap();
        handles.extend(batch.into_iter().map(|m| m.receipt_handle));
    }
    assert_eq!(handles.len(), 12);
    let mut asked: Vec<&str> = handles.iter().map(String::as_str).collect();
    asked.insert(3, "not-a-receipt-handle");
    let results = queue.delete_batch(&asked).await;
    assert_eq!(results.len(), 13);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r.is_ok(), i != 3, "entry {i}: {r:?}");
    }
    // Past the visibility timeout nothing comes back.
    tokio::time::sleep(std::time::Duration::from_millis(1_500)).await;
    let again = queue.receive(10, 1, 30).await.unwrap();
    assert_eq!(again.len(), 0, "{again:?}");
}
