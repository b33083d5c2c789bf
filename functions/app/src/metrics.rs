//! CloudWatch metrics as Embedded Metric Format (EMF) log lines: one JSON object per
//! step, printed to stdout by the Lambda, turned into metrics by CloudWatch Logs with
//! no API call (and no cost beyond the log bytes). Pure formatting lives here.

use crate::sender::StepOutcome;
use courier_core::Timestamp;
use serde_json::{Value, json};

pub const NAMESPACE: &str = "Courier";

/// The EMF document for one step, or None for steps that are not worth a metric
/// (re-delays and dropped duplicates are logged, not counted).
pub fn step_metrics(outcome: &StepOutcome, planned: Timestamp, now: Timestamp) -> Option<Value> {
    let (attempt_state, settled, latency_ms, lateness_ms) = match outcome {
        StepOutcome::Attempted { attempt, delivery } | StepOutcome::LostRecorded { attempt, delivery } => (
            Some(attempt.state.clone()),
            delivery
                .status
                .is_settled()
                .then(|| delivery.status.as_str().to_owned()),
            Some(attempt.duration_ms),
            Some(attempt.started_at.millis_since(planned).max(0)),
        ),
        StepOutcome::SettledWithoutAttempt { delivery } => {
            (None, Some(delivery.status.as_str().to_owned()), None, None)
        }
        _ => return None,
    };
    let mut metrics = Vec::new();
    let mut doc = serde_json::Map::new();
    if let Some(state) = &attempt_state {
        metrics.push(json!({"Name": "Attempts", "Unit": "Count"}));
        doc.insert("Attempts".into(), json!(1));
        doc.insert("AttemptState".into(), json!(state));
    }
    if let Some(status) = &settled {
        metrics.push(json!({"Name": "DeliveriesSettled", "Unit": "Count"}));
        doc.insert("DeliveriesSettled".into(), json!(1));
        doc.insert("DeliveryStatus".into(), json!(status));
    }
    if let Some(ms) = latency_ms {
        metrics.push(json!({"Name": "SendLatency", "Unit": "Milliseconds"}));
        doc.insert("SendLatency".into(), json!(ms));
    }
    if let Some(ms) = lateness_ms {
        metrics.push(json!({"Name": "TimerLateness", "Unit": "Milliseconds"}));
        doc.insert("TimerLateness".into(), json!(ms));
    }
    let mut dimensions = Vec::new();
    if attempt_state.is_some() {
        dimensions.push(json!(["AttemptState"]));
    }
    if settled.is_some() {
        dimensions.push(json!(["DeliveryStatus"]));
    }
    dimensions.push(json!([]));
    doc.insert(
        "_aws".into(),
        json!({
            "Timestamp": now.millis(),
            "CloudWatchMetrics": [{"Namespace": NAMESPACE, "Dimensions": dimensions, "Metrics": metrics}],
        }),
    );
    Some(Value::Object(doc))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Trigger;
    use crate::model::{Attempt, Delivery, DeliveryStatus};
    use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};

    fn delivery(status: DeliveryStatus) -> Delivery {
        Delivery {
            id: DeliveryId::parse("dlv_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap_or_else(|e| panic!("{e}")),
            tenant_id: TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap_or_else(|e| panic!("{e}")),
            event_id: EventId::parse("evt_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap_or_else(|e| panic!("{e}")),
            endpoint_id: EndpointId::parse("ep_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap_or_else(|e| panic!("{e}")),
            webhook_id: "dlv_01JAAAAAAAAAAAAAAAAAAAAAAA".into(),
            status,
            dead_reason: None,
            trigger: Trigger::Initial,
            attempt_count: 1,
            next_attempt: 2,
            receiver_failures: 0,
            next_attempt_at: None,
            last_planned: false,
            claim: None,
            dead_lettered_at: None,
            awaiting: None,
            created_at: Timestamp(0),
            planned_at: Timestamp(0),
            settled_at: None,
            body: "{}".into(),
            expires_at: None,
            version: 2,
        }
    }

    #[test]
    fn an_attempt_that_settles_gives_every_metric() {
        let d = delivery(DeliveryStatus::Succeeded);
        let attempt = Attempt {
            id: AttemptId::parse("att_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap_or_else(|e| panic!("{e}")),
            delivery_id: d.id.clone(),
            tenant_id: d.tenant_id.clone(),
            number: 1,
            trigger: Trigger::Initial,
            source_attempt_id: None,
            state: "succeeded".into(),
            response_status: Some(200),
            error_class: None,
            diagnostic: "delivered".into(),
            remediation: "none".into(),
            counts_toward_receiver_failures: false,
            failure_snippet: None,
            truncated: false,
            response_headers: Default::default(),
            duration_ms: 42,
            started_at: Timestamp(1_250),
            next_attempt_at: None,
            expires_at: None,
        };
        let out = StepOutcome::Attempted {
            attempt: Box::new(attempt),
            delivery: Box::new(d),
        };
        let doc = step_metrics(&out, Timestamp(1_000), Timestamp(1_300)).unwrap_or_default();
        assert_eq!(
            doc,
            json!({
                "Attempts": 1, "AttemptState": "succeeded",
                "DeliveriesSettled": 1, "DeliveryStatus": "succeeded",
                "SendLatency": 42, "TimerLateness": 250,
                "_aws": {"Timestamp": 1_300, "CloudWatchMetrics": [{
                    "Namespace": "Courier",
                    "Dimensions": [["AttemptState"], ["DeliveryStatus"], []],
                    "Metrics": [
                        {"Name": "Attempts", "Unit": "Count"},
                        {"Name": "DeliveriesSettled", "Unit": "Count"},
                        {"Name": "SendLatency", "Unit": "Milliseconds"},
                        {"Name": "TimerLateness", "Unit": "Milliseconds"}
                    ]
                }]}
            })
        );
    }

    #[test]
    fn redelays_and_drops_are_not_metrics() {
        let out = StepOutcome::Redelayed { until: Timestamp(5) };
        assert_eq!(step_metrics(&out, Timestamp(0), Timestamp(0)), None);
        let out = StepOutcome::SettledWithoutAttempt {
            delivery: Box::new(delivery(DeliveryStatus::Failed)),
        };
        let doc = step_metrics(&out, Timestamp(0), Timestamp(9)).unwrap_or_default();
        assert_eq!(doc["DeliveryStatus"], "failed");
        assert!(doc.get("Attempts").is_none());
    }
}
