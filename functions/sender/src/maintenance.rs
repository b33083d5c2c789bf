//! The sender's maintenance work besides delivery batches: the reconciler run that
//! an EventBridge Scheduler `rate()` schedule invokes (`{"task": "reconcile"}`),
//! and the Scheduler dead-letter queue, whose messages are queue messages a
//! one-shot schedule could not put on the delivery queue, put back on their way.
//! Shared by the Lambda binary and the local runner.

use aws_lambda_events::event::sqs::{SqsBatchResponse, SqsEvent};
use courier_app::domain::queue_message::Message;
use courier_app::maintenance::reconcile::{ReconcileReport, ReconcileSettings, reconcile};
use courier_app::pipeline::planner::Planner;
use courier_app::ports::OverdueIndex;
use courier_app::ports::{Clock, DeliveryStore};

/// One reconciler run, logged. An error is returned (and the invocation fails, which
/// Scheduler retries and Lambda counts in `Errors`) only when nothing could be done.
pub async fn run_reconcile<S>(
    store: &S,
    planner: &Planner,
    clock: &dyn Clock,
    settings: ReconcileSettings,
) -> Result<ReconcileReport, courier_app::ports::PortError>
where
    S: OverdueIndex + DeliveryStore,
{
    // The line the stack's ReconcilerFailureMetric counts (template.yaml).
    let report = reconcile(store, store, planner, clock, settings)
        .await
        .inspect_err(|e| tracing::error!(error = %e, "reconciler run failed"))?;
    tracing::info!(
        examined = report.examined,
        requeued = report.requeued.len(),
        skipped = report.skipped,
        failed = report.failed,
        "reconciler run"
    );
    Ok(report)
}

/// Works a batch from the Scheduler dead-letter queue, by message kind: a delivery
/// step goes back to the planner as of now (an overdue step becomes an immediate
/// queue message; one still far off gets a new schedule); a recurring schedule's
/// firing is fired late, or its occurrence marked failed, and a fan-out step is
/// resumed ([`crate::Recovery`]). A message that cannot be read, re-planned or
/// recovered is reported failed: it comes back, and after its receives it moves
/// to the parking queue, where its alarm sees it.
pub async fn handle_schedule_dead_letters(
    planner: &Planner,
    clock: &dyn Clock,
    recovery: crate::Recovery<'_>,
    event: SqsEvent,
) -> SqsBatchResponse {
    let mut response = SqsBatchResponse::default();
    for record in &event.records {
        let message_id = record.message_id.clone().unwrap_or_default();
        let body = record.body.as_deref().unwrap_or("");
        let ok = match Message::parse(body) {
            Err(e) => {
                tracing::error!(message_id, error = %e, "unreadable message in the Scheduler dead-letter queue");
                false
            }
            Ok(Message::Delivery(m)) => match planner.plan(m.clone(), clock.now()).await {
                Ok(path) => {
                    tracing::warn!(delivery_id = %m.delivery_id, attempt = m.attempt, path = ?path, "schedule dead letter put back on its way");
                    true
                }
                Err(e) => {
                    tracing::error!(delivery_id = %m.delivery_id, error = %e, "could not re-plan a schedule dead letter");
                    false
                }
            },
            Ok(Message::Fanout(step)) => recovery.fanout(&step).await,
            Ok(Message::ScheduleFire(m)) => recovery.firing(&m, record).await,
        };
        if !ok {
            response.add_failure(message_id);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use courier_app::testing::memory::{ManualClock, MemoryQueue, MemoryTimer};
    use courier_core::Timestamp;
    use std::sync::Arc;

    fn sqs(arn: &str, bodies: &[&str]) -> SqsEvent {
        let records: Vec<serde_json::Value> = bodies
            .iter()
            .enumerate()
            .map(|(i, b)| serde_json::json!({"messageId": format!("m{i}"), "body": b, "eventSourceARN": arn}))
            .collect();
        serde_json::from_value(serde_json::json!({ "Records": records })).unwrap()
    }

    #[tokio::test]
    async fn a_schedule_dead_letter_goes_back_to_the_queue_and_garbage_stays_failed() {
        let clock = Arc::new(ManualClock::new(Timestamp::from_secs(1_800_000_000)));
        let queue = Arc::new(MemoryQueue::new(clock.clone()));
        let planner = Planner {
            queue: queue.clone(),
            timer: Arc::new(MemoryTimer::new()),
            settings: Default::default(),
        };
        let m = r#"{"v":1,"deliveryId":"dlv_01JAAAAAAAAAAAAAAAAAAAAAAA","tenantId":"ten_01JAAAAAAAAAAAAAAAAAAAAAAA","endpointId":"ep_01JAAAAAAAAAAAAAAAAAAAAAAA","attempt":3,"notBefore":"2027-01-15T08:00:00Z","trigger":"retry"}"#;
        let event = sqs("arn:aws:sqs:r:1:sdlq", &[m, "not json"]);
        let response = handle_schedule_dead_letters(&planner, clock.as_ref(), crate::Recovery::default(), event).await;
        let failed: Vec<&str> = response
            .batch_item_failures
            .iter()
            .map(|f| f.item_identifier.as_str())
            .collect();
        assert_eq!(failed, ["m1"]);
        let sent = queue.waiting();
        assert_eq!(sent.len(), 1);
        assert_eq!(
            sent[0].message,
            Message::parse(m).and_then(Message::into_delivery).unwrap()
        );
        assert_eq!(sent[0].delay_seconds, 0, "an overdue step goes at once");
    }
}
