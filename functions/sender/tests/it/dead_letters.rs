//! Both dead-letter handlers dispatch on the message's kind: a dead-lettered
//! fan-out step is resumed from its cursor and the fan-out completes; a
//! dead-lettered firing is fired late, or, when it still cannot be on its last
//! try, its occurrence is marked failed with the reason the occurrence list shows.
//! And each invocation goes to its handler: a batch by the queue it came from, the
//! reconciler's tick to the reconciler.

// courier-app's test world; this file uses a part of it.
#[path = "../../../app/tests/it/common/mod.rs"]
#[allow(dead_code)]
mod common;

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use common::{KEY, T0, World, raw, status};
use courier_app::domain::queue_message::Message;
use courier_app::domain::schedule::FireMessage;
use courier_app::fanout::FanoutWorker;
use courier_app::maintenance::reconcile::ReconcileSettings;
use courier_app::ports::{Clock, NoFanoutFaults};
use courier_app::schedules::fire::ScheduleFirer;
use courier_core::Timestamp;
use courier_core::ids::{ScheduleId, TenantId};
use courier_sender::Recovery;
use courier_sender::invocation::{Answer, Handlers, Invocation, Source, Sources, Task, TaskEvent};
use serde_json::{Value, json};
use std::sync::Arc;

const TENANT: &str = "ten_01JAAAAAAAAAAAAAAAAAAAAAAA";

/// One SQS record with `body`, received `receives` times.
fn dead_letter(body: &str, receives: u32) -> SqsEvent {
    serde_json::from_value(json!({"Records": [{
        "messageId": "m0",
        "body": body,
        "attributes": {"ApproximateReceiveCount": receives.to_string()},
        "eventSourceARN": "arn:aws:sqs:eu-west-1:1:dlq",
    }]}))
    .expect("an SQS event")
}

fn failed(r: &SqsBatchResponse) -> Vec<&str> {
    r.batch_item_failures
        .iter()
        .map(|f| f.item_identifier.as_str())
        .collect()
}

fn worker(w: &World) -> FanoutWorker {
    FanoutWorker {
        index: w.store.clone(),
        deliveries: w.store.clone(),
        planner: w.api.planner.clone(),
        steps: w.queue.clone(),
        clock: w.clock.clone(),
        faults: Arc::new(NoFanoutFaults),
        page: 25,
        console_url: None,
    }
}

fn firer(w: &World) -> ScheduleFirer {
    ScheduleFirer {
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
    }
}

#[tokio::test]
async fn a_dead_lettered_fan_out_step_is_resumed_and_the_fan_out_completes() {
    const N: usize = 60;
    let w = World::new(vec![], 0).await;
    let (s, app) = w
        .call("POST", "/v1/applications", json!({"name": "Big", "uid": "big"}))
        .await;
    assert_eq!(s, 201, "{app}");
    for _ in 0..N {
        w.clock.advance_millis(25);
        let (s, b) = w
            .call(
                "POST",
                "/v1/endpoints",
                json!({"url": "https://receiver.example/hook", "policy": "greatwait",
                       "applicationId": app["id"], "filterTypes": ["invoice.*"]}),
            )
            .await;
        assert_eq!(s, 201, "{b}");
    }
    let (s, a) = w
        .call(
            "POST",
            "/v1/events",
            json!({"type": "invoice.paid", "applicationId": app["id"], "payload": {"n": 1}}),
        )
        .await;
    assert_eq!(s, 202, "{a}");
    let event_id = a["eventId"].as_str().unwrap_or_default().to_owned();
    let worker = worker(&w);
    let first = w.queue.drain_fanout();
    assert_eq!(first.len(), 1);
    worker.step(&first[0]).await.unwrap();
    // The second step fails its five receives and lands in the dead-letter queue.
    let second = w.queue.drain_fanout();
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].cursor.processed, 25);
    let recovery = Recovery {
        fanout: Some(&worker),
        firer: None,
    };
    let r = courier_sender::handle_dead_letters(
        w.store.as_ref(),
        w.clock.as_ref(),
        recovery,
        dead_letter(&Message::Fanout(second[0].clone()).to_json(), 1),
    )
    .await;
    assert_eq!(failed(&r), Vec::<&str>::new());
    // Resumed: its page written and the next step queued, which completes it.
    let third = w.queue.drain_fanout();
    assert_eq!(third.len(), 1);
    assert_eq!(third[0].cursor.processed, 50);
    worker.step(&third[0]).await.unwrap();
    assert!(w.queue.drain_fanout().is_empty());
    let (s, e) = w.call("GET", &format!("/v1/events/{event_id}"), Value::Null).await;
    assert_eq!(s, 200, "{e}");
    assert_eq!(e["fanout"], json!({"status": "complete", "matched": N, "processed": N}));
    assert_eq!(w.queue.sent().len(), N, "each first attempt queued once");
}

#[tokio::test]
async fn a_dead_lettered_firing_is_fired_late_or_its_occurrence_marked_failed() {
    let w = World::new(vec![status(200)], 5).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let body = json!({"endpointId": ep, "cron": "cron(0 9 * * ? *)", "timezone": "UTC",
                      "type": "reminder.due", "payload": {"n": 1}});
    let auth = format!("Bearer {KEY}");
    let headers = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
        ("idempotency-key", "daily"),
    ];
    let (s, b, _) = raw(&w, "POST", "/v1/schedules", None, &headers, body.to_string().as_bytes()).await;
    assert_eq!(s, 201, "{b}");
    let id = b["id"].as_str().unwrap_or_default().to_owned();
    let fire = |planned: Timestamp| {
        Message::ScheduleFire(FireMessage {
            v: 1,
            tenant_id: TenantId::parse(TENANT).unwrap(),
            schedule_id: ScheduleId::parse(&id).unwrap(),
            planned_at: planned,
        })
        .to_json()
    };
    let firer = firer(&w);
    let recovery = Recovery {
        fanout: None,
        firer: Some(&firer),
    };
    let day = 86_400_000;
    let on_time = Timestamp::from_millis((T0.millis() / day + 1) * day + 9 * 3_600_000);
    // Came through the Scheduler dead-letter queue an hour late: fired now.
    w.clock.set(on_time.plus_millis(3_600_000));
    let r = courier_sender::maintenance::handle_schedule_dead_letters(
        &w.api.planner,
        w.clock.as_ref(),
        recovery,
        dead_letter(&fire(on_time), 1),
    )
    .await;
    assert_eq!(failed(&r), Vec::<&str>::new());
    let (s, list) = w
        .call("GET", &format!("/v1/schedules/{id}/occurrences"), Value::Null)
        .await;
    assert_eq!(s, 200, "{list}");
    assert_eq!(list["items"].as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list["items"][0]["plannedAt"], json!(on_time));
    assert_eq!(list["items"][0]["status"], json!("pending"));
    assert_eq!(list["items"][0].get("failure"), None);
    assert_eq!(w.queue.waiting().len(), 1, "its delivery is queued");

    // The next day's firing cannot be made (the endpoint's store is down): left
    // for another try while tries are left, then marked failed.
    let next = on_time.plus_millis(day);
    w.clock.set(next.plus_millis(7_200_000));
    for receives in 1..=2 {
        w.store.fail_next(1);
        let r = courier_sender::handle_dead_letters(
            w.store.as_ref(),
            w.clock.as_ref(),
            recovery,
            dead_letter(&fire(next), receives),
        )
        .await;
        assert_eq!(failed(&r), vec!["m0"], "receive {receives}");
    }
    w.store.fail_next(1);
    let r = courier_sender::handle_dead_letters(
        w.store.as_ref(),
        w.clock.as_ref(),
        recovery,
        dead_letter(&fire(next), 3),
    )
    .await;
    assert_eq!(failed(&r), Vec::<&str>::new());
    let (s, list) = w
        .call("GET", &format!("/v1/schedules/{id}/occurrences"), Value::Null)
        .await;
    assert_eq!(s, 200, "{list}");
    let newest = &list["items"][0];
    assert_eq!(newest["plannedAt"], json!(next));
    assert_eq!(newest["deliveryId"], Value::Null);
    assert_eq!(
        newest["failure"],
        json!({"reason": "storage_unavailable", "at": next.plus_millis(7_200_000)})
    );
    // A late copy of the firing makes nothing once it is given up.
    let r = courier_sender::handle_dead_letters(
        w.store.as_ref(),
        w.clock.as_ref(),
        recovery,
        dead_letter(&fire(next), 1),
    )
    .await;
    assert_eq!(failed(&r), Vec::<&str>::new());
    assert_eq!(w.queue.waiting().len(), 1, "no delivery for the failed occurrence");
}

/// The sender's queues as a deployment names them.
fn sources() -> Sources {
    Sources::new(
        Some("https://sqs.eu-west-1.amazonaws.com/1/courier-dlq"),
        Some("arn:aws:sqs:eu-west-1:1:courier-schedule-dlq"),
        Some("https://sqs.eu-west-1.amazonaws.com/1/courier-slow"),
    )
}

fn handlers(w: &World) -> Handlers<'_, courier_app::testing::memory::MemoryStore> {
    Handlers {
        sender: &w.sender,
        firer: None,
        store: w.store.as_ref(),
        slow_lane: None,
        reconcile: ReconcileSettings::default(),
    }
}

/// The same first attempt of a delivery, from each queue: attempted from the
/// delivery queue and the slow lane, its delivery marked from the delivery DLQ, put
/// back on the queue from Scheduler's DLQ.
#[tokio::test]
async fn a_batch_goes_to_the_handler_of_the_queue_it_came_from() {
    for (queue, source, expected) in [
        ("courier-deliveries", Source::Deliveries, (1, false, 0)),
        ("courier-slow", Source::SlowLane, (1, false, 0)),
        ("courier-dlq", Source::DeadLetters, (0, true, 0)),
        ("courier-schedule-dlq", Source::SchedulerDeadLetters, (0, false, 1)),
    ] {
        let w = World::new(vec![status(200)], 5).await;
        let ep = w.endpoint(json!("greatwait")).await;
        let id = w.event(&ep).await;
        let queued = w.queue.drain_visible(w.clock.now());
        assert_eq!(queued.len(), 1, "{queued:?}");
        let event: SqsEvent = serde_json::from_value(json!({"Records": [{
            "messageId": "m0",
            "body": queued[0].0.to_json(),
            "attributes": {"ApproximateReceiveCount": "1"},
            "eventSourceARN": format!("arn:aws:sqs:eu-west-1:1:{queue}"),
        }]}))
        .unwrap();
        let work = sources().work(Invocation::Sqs(event));
        assert!(
            matches!(&work, courier_sender::invocation::Work::Batch(s, _) if *s == source),
            "{queue}: {work:?}"
        );
        let answer = handlers(&w).handle(work).await.unwrap();
        let Answer::Batch(r) = answer else {
            panic!("{queue}: a batch's answer, got {answer:?}")
        };
        assert_eq!(failed(&r), Vec::<&str>::new(), "{queue}");
        let requests = w.http.requests.lock().map(|r| r.len()).unwrap_or_default();
        let dead = w.delivery(&id).await.dead_lettered_at.is_some();
        assert_eq!((requests, dead, w.queue.waiting().len()), expected, "{queue}");
    }
}

/// The reconciler's tick runs the reconciler: a redelivery whose message was lost
/// is put back on its way (as `functions/app/tests/recovery.rs` sets it up).
#[tokio::test]
async fn the_reconciler_s_tick_runs_the_reconciler() {
    let w = World::new(vec![status(200), status(200)], 5).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let id = w.event(&ep).await;
    w.run(&id, 5).await;
    let auth = format!("Bearer {KEY}");
    let headers = [
        ("authorization", auth.as_str()),
        ("content-type", "application/json"),
        ("idempotency-key", "again-1"),
    ];
    let path = format!("/v1/deliveries/{id}/redeliver");
    let (s, answer, _) = raw(&w, "POST", &path, None, &headers, b"{}").await;
    assert_eq!(s, 202, "{answer}");
    assert_eq!(
        w.queue.drain_visible(w.clock.now()).len(),
        1,
        "the redelivery's message, lost"
    );
    w.clock.advance_millis(3_600_000);
    let work = sources().work(Invocation::Task(TaskEvent { task: Task::Reconcile }));
    match handlers(&w).handle(work).await {
        Ok(Answer::Reconciled(report)) => assert_eq!(report.requeued, vec![id.clone()], "{report:?}"),
        other => panic!("expected a reconciler run, got {other:?}"),
    }
    let requeued: Vec<_> = w.queue.waiting().into_iter().map(|q| q.message.delivery_id).collect();
    assert_eq!(requeued, vec![id]);
}
