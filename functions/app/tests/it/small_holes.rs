//! Smaller holes in the safety nets, each shown through a public seam: a bad
//! completion token makes the table write nothing.

use crate::common;

use crate::common::{World, raw, status};
use async_trait::async_trait;
use courier_app::domain::model::IdempotencyRecord;
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

/// An occurrence marker expires: 35 days after its firing, past any copy of
/// that firing SQS could still hand over.
#[tokio::test]
async fn an_occurrence_marker_gets_a_ttl() {
    use courier_app::domain::schedule::FireMessage;
    use courier_app::ports::Clock;
    use courier_app::ports::ScheduleStore;
    use courier_app::schedules::fire::{FireOutcome, ScheduleFirer};
    use courier_core::ids::{ScheduleId, TenantId};
    let w = World::new(vec![status(200)], 5).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let auth = format!("Bearer {}", common::KEY);
    let body = json!({"endpointId": ep, "cron": "cron(0 9 * * ? *)", "timezone": "UTC",
                      "type": "reminder.due", "payload": {"n": 1}});
    let (s, b, _) = raw(
        &w,
        "POST",
        "/v1/schedules",
        None,
        &[
            ("authorization", auth.as_str()),
            ("content-type", "application/json"),
            ("idempotency-key", "daily"),
        ],
        body.to_string().as_bytes(),
    )
    .await;
    assert_eq!(s, 201, "{b}");
    let id = ScheduleId::parse(b["id"].as_str().unwrap_or_default()).unwrap();
    let tenant = TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap();
    let firer = ScheduleFirer {
        schedules: w.schedules.clone(),
        endpoints: w.store.clone(),
        deliveries: w.store.clone(),
        planner: w.api.planner.clone(),
        clock: w.clock.clone(),
        random: Arc::new(courier_app::testing::memory::SeededRandom::new(5)),
        index: w.store.clone(),
        steps: w.queue.clone(),
        event_types: w.applications.clone(),
        schemas: Default::default(),
    };
    let day = 86_400_000;
    let planned = courier_core::Timestamp::from_millis((w.clock.now().millis() / day + 1) * day + 9 * 3_600_000);
    w.clock.set(planned.plus_millis(300));
    let fired = firer
        .fire(&FireMessage {
            v: 1,
            tenant_id: tenant.clone(),
            schedule_id: id.clone(),
            planned_at: planned,
        })
        .await
        .unwrap();
    assert!(matches!(fired, FireOutcome::Created(_)), "{fired:?}");
    let stored = w.schedules.list_occurrences(&tenant, &id, None, 10).await.unwrap();
    let want = planned.plus_millis(300).millis() / 1000 + 35 * 86_400;
    assert_eq!(
        stored.items.iter().map(|o| o.expires_at).collect::<Vec<_>>(),
        vec![Some(want)]
    );
}
