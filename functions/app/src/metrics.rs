//! CloudWatch metrics as Embedded Metric Format (EMF) log lines: one JSON object per
//! step, printed to stdout by the Lambda, turned into metrics by CloudWatch Logs with
//! no API call (and no cost beyond the log bytes). Pure formatting lives here.

use crate::sender::StepOutcome;
use courier_core::Timestamp;
use serde::Serialize;

pub const NAMESPACE: &str = "Courier";

/// One step's EMF document. Typed rather than a JSON value: it is written for every
/// step, and a value map cost an allocation per key and per string.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepMetrics<'a> {
    #[serde(rename = "Attempts", skip_serializing_if = "Option::is_none")]
    attempts: Option<u8>,
    #[serde(rename = "AttemptState", skip_serializing_if = "Option::is_none")]
    attempt_state: Option<&'a str>,
    #[serde(rename = "DeliveriesSettled", skip_serializing_if = "Option::is_none")]
    deliveries_settled: Option<u8>,
    #[serde(rename = "DeliveryStatus", skip_serializing_if = "Option::is_none")]
    delivery_status: Option<&'static str>,
    #[serde(rename = "SendLatency", skip_serializing_if = "Option::is_none")]
    send_latency: Option<u64>,
    #[serde(rename = "TimerLateness", skip_serializing_if = "Option::is_none")]
    timer_lateness: Option<i64>,
    #[serde(rename = "_aws")]
    aws: Aws,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Aws {
    timestamp: i64,
    cloud_watch_metrics: [Directive; 1],
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Directive {
    namespace: &'static str,
    dimensions: Vec<&'static [&'static str]>,
    metrics: Vec<Metric>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Metric {
    name: &'static str,
    unit: &'static str,
}

const COUNT: &str = "Count";
const MILLISECONDS: &str = "Milliseconds";

/// The EMF document for one step, or None for steps that are not worth a metric
/// (re-delays and dropped duplicates are logged, not counted).
pub fn step_metrics(outcome: &StepOutcome, planned: Timestamp, now: Timestamp) -> Option<StepMetrics<'_>> {
    let (attempt_state, settled, latency_ms, lateness_ms) = match outcome {
        StepOutcome::Attempted { attempt, delivery } | StepOutcome::LostRecorded { attempt, delivery } => (
            Some(attempt.state.as_ref()),
            delivery.status.is_settled().then(|| delivery.status.as_str()),
            Some(attempt.duration_ms),
            Some(attempt.started_at.millis_since(planned).max(0)),
        ),
        StepOutcome::SettledWithoutAttempt { delivery } => (None, Some(delivery.status.as_str()), None, None),
        _ => return None,
    };
    let mut metrics = Vec::with_capacity(4);
    let mut dimensions: Vec<&'static [&'static str]> = Vec::with_capacity(3);
    if attempt_state.is_some() {
        metrics.push(Metric {
            name: "Attempts",
            unit: COUNT,
        });
        dimensions.push(&["AttemptState"]);
    }
    if settled.is_some() {
        metrics.push(Metric {
            name: "DeliveriesSettled",
            unit: COUNT,
        });
        dimensions.push(&["DeliveryStatus"]);
    }
    dimensions.push(&[]);
    if latency_ms.is_some() {
        metrics.push(Metric {
            name: "SendLatency",
            unit: MILLISECONDS,
        });
    }
    if lateness_ms.is_some() {
        metrics.push(Metric {
            name: "TimerLateness",
            unit: MILLISECONDS,
        });
    }
    Some(StepMetrics {
        attempts: attempt_state.map(|_| 1),
        attempt_state,
        deliveries_settled: settled.map(|_| 1),
        delivery_status: settled,
        send_latency: latency_ms,
        timer_lateness: lateness_ms,
        aws: Aws {
            timestamp: now.millis(),
            cloud_watch_metrics: [Directive {
                namespace: NAMESPACE,
                dimensions,
                metrics,
            }],
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::Trigger;
    use crate::model::{Attempt, Delivery, DeliveryStatus};
    use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};
    use serde_json::json;

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
        let doc = step_metrics(&out, Timestamp(1_000), Timestamp(1_300)).map(|d| serde_json::to_value(d).ok());
        assert_eq!(
            doc.flatten().unwrap_or_default(),
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
        let doc = step_metrics(&out, Timestamp(0), Timestamp(9)).and_then(|d| serde_json::to_value(d).ok());
        assert_eq!(
            doc.unwrap_or_default(),
            json!({
                "DeliveriesSettled": 1, "DeliveryStatus": "failed",
                "_aws": {"Timestamp": 9, "CloudWatchMetrics": [{
                    "Namespace": "Courier",
                    "Dimensions": [["DeliveryStatus"], []],
                    "Metrics": [{"Name": "DeliveriesSettled", "Unit": "Count"}]
                }]}
            })
        );
    }
}
