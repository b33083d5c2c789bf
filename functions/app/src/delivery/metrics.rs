//! CloudWatch metrics as Embedded Metric Format (EMF) log lines, printed to stdout by
//! the Lambda and turned into metrics by CloudWatch Logs with no API call (and no
//! cost beyond the log bytes). One document per batch and kind of outcome, each
//! metric an array of its steps' values: a document per step repeated about 300
//! bytes of metric definitions for every delivery. Pure formatting lives here.
//!
//! Each stack writes under its own [`MetricsTarget`]: a namespace (a parameter of
//! the template) and a `Stack` dimension on every metric, so two stacks in one
//! account never mix their figures.

use crate::delivery::StepOutcome;
use courier_core::Timestamp;
use serde::Serialize;
use std::borrow::Cow;

pub const NAMESPACE: &str = "Courier";

/// Where a stack's metrics go: the namespace, and the value of the `Stack`
/// dimension every metric carries (none when `stack` is absent, as locally).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetricsTarget {
    pub namespace: String,
    pub stack: Option<String>,
    /// Whether the lines are printed: inside Lambda, where CloudWatch Logs turns
    /// them into metrics, or when `COURIER_EMF` asks for them; never otherwise.
    pub print: bool,
}

impl Default for MetricsTarget {
    fn default() -> Self {
        MetricsTarget {
            namespace: NAMESPACE.to_owned(),
            stack: None,
            print: false,
        }
    }
}

/// The name of the dimension naming the stack.
pub const STACK_DIMENSION: &str = "Stack";

/// EMF's limit on the values of one metric in one document.
pub const MAX_VALUES: usize = 100;

/// What one step contributes to the metrics.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepSample {
    /// The attempt's state, when the step made (or recorded) an attempt.
    attempt_state: Option<Cow<'static, str>>,
    /// The delivery's status, when the step settled it.
    delivery_status: Option<&'static str>,
    send_latency_ms: Option<u64>,
    timer_lateness_ms: Option<i64>,
    /// How long an attempt held back by its endpoint's limits was re-delayed for.
    throttled_ms: Option<u64>,
}

/// The step's sample, or None for steps that are not worth a metric (re-delays and
/// dropped duplicates are logged, not counted). `planned` is when the message's
/// attempt was due.
pub fn step_sample(outcome: &StepOutcome, planned: Timestamp) -> Option<StepSample> {
    match outcome {
        StepOutcome::Attempted { attempt, delivery } | StepOutcome::LostRecorded { attempt, delivery } => {
            Some(StepSample {
                attempt_state: Some(attempt.state.clone()),
                delivery_status: delivery.status.is_settled().then(|| delivery.status.as_str()),
                send_latency_ms: Some(attempt.duration_ms),
                timer_lateness_ms: Some(attempt.started_at.millis_since(planned).max(0)),
                throttled_ms: None,
            })
        }
        StepOutcome::Throttled { held_ms, .. } => Some(StepSample {
            attempt_state: None,
            delivery_status: None,
            send_latency_ms: None,
            timer_lateness_ms: None,
            throttled_ms: Some(*held_ms),
        }),
        StepOutcome::SettledWithoutAttempt { delivery } => Some(StepSample {
            attempt_state: None,
            delivery_status: Some(delivery.status.as_str()),
            send_latency_ms: None,
            timer_lateness_ms: None,
            throttled_ms: None,
        }),
        _ => None,
    }
}

/// One EMF document: the steps of a batch that share their dimension values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricsDocument<'a> {
    #[serde(rename = "Attempts", skip_serializing_if = "Vec::is_empty")]
    attempts: Vec<u8>,
    #[serde(rename = "AttemptState", skip_serializing_if = "Option::is_none")]
    attempt_state: Option<&'a str>,
    #[serde(rename = "DeliveriesSettled", skip_serializing_if = "Vec::is_empty")]
    deliveries_settled: Vec<u8>,
    #[serde(rename = "DeliveryStatus", skip_serializing_if = "Option::is_none")]
    delivery_status: Option<&'static str>,
    #[serde(rename = "SendLatency", skip_serializing_if = "Vec::is_empty")]
    send_latency: Vec<u64>,
    #[serde(rename = "TimerLateness", skip_serializing_if = "Vec::is_empty")]
    timer_lateness: Vec<i64>,
    #[serde(rename = "ThrottledMs", skip_serializing_if = "Vec::is_empty")]
    throttled_ms: Vec<u64>,
    #[serde(rename = "Stack", skip_serializing_if = "Option::is_none")]
    stack: Option<&'a str>,
    #[serde(rename = "_aws")]
    aws: Aws<'a>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Aws<'a> {
    timestamp: i64,
    cloud_watch_metrics: [Directive<'a>; 1],
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "PascalCase")]
struct Directive<'a> {
    namespace: &'a str,
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

/// The batch's EMF documents, stamped `now`: one per (attempt state, delivery status)
/// seen, in the order first seen, each holding at most [`MAX_VALUES`] steps. Under
/// the default target (namespace `Courier`, no stack dimension).
pub fn batch_metrics(samples: &[StepSample], now: Timestamp) -> Vec<MetricsDocument<'_>> {
    static DEFAULT: std::sync::OnceLock<MetricsTarget> = std::sync::OnceLock::new();
    batch_metrics_for(samples, now, DEFAULT.get_or_init(MetricsTarget::default))
}

/// [`batch_metrics`] under `target`'s namespace and stack dimension.
pub fn batch_metrics_for<'a>(
    samples: &'a [StepSample],
    now: Timestamp,
    target: &'a MetricsTarget,
) -> Vec<MetricsDocument<'a>> {
    let mut docs: Vec<MetricsDocument<'_>> = Vec::new();
    for sample in samples {
        let state = sample.attempt_state.as_deref();
        let found = docs.iter_mut().rev().find(|d| {
            d.attempt_state == state && d.delivery_status == sample.delivery_status && d.steps() < MAX_VALUES
        });
        let doc = match found {
            Some(doc) => doc,
            None => {
                docs.push(MetricsDocument::new(state, sample.delivery_status, now, target));
                let last = docs.len() - 1;
                &mut docs[last]
            }
        };
        if state.is_some() {
            doc.attempts.push(1);
        }
        if sample.delivery_status.is_some() {
            doc.deliveries_settled.push(1);
        }
        doc.send_latency.extend(sample.send_latency_ms);
        doc.timer_lateness.extend(sample.timer_lateness_ms);
        doc.throttled_ms.extend(sample.throttled_ms);
    }
    docs
}

impl<'a> MetricsDocument<'a> {
    fn new(
        attempt_state: Option<&'a str>,
        delivery_status: Option<&'static str>,
        now: Timestamp,
        target: &'a MetricsTarget,
    ) -> Self {
        let mut metrics = Vec::with_capacity(4);
        let mut dimensions: Vec<&'static [&'static str]> = Vec::with_capacity(3);
        let staged = target.stack.is_some();
        if attempt_state.is_some() {
            metrics.push(Metric {
                name: "Attempts",
                unit: COUNT,
            });
            metrics.push(Metric {
                name: "SendLatency",
                unit: MILLISECONDS,
            });
            metrics.push(Metric {
                name: "TimerLateness",
                unit: MILLISECONDS,
            });
            dimensions.push(if staged {
                &[STACK_DIMENSION, "AttemptState"]
            } else {
                &["AttemptState"]
            });
        }
        if delivery_status.is_some() {
            metrics.push(Metric {
                name: "DeliveriesSettled",
                unit: COUNT,
            });
            dimensions.push(if staged {
                &[STACK_DIMENSION, "DeliveryStatus"]
            } else {
                &["DeliveryStatus"]
            });
        }
        if attempt_state.is_none() && delivery_status.is_none() {
            // Only holds make a step with neither: their waits, by stack alone.
            metrics.push(Metric {
                name: "ThrottledMs",
                unit: MILLISECONDS,
            });
        }
        dimensions.push(if staged { &[STACK_DIMENSION] } else { &[] });
        MetricsDocument {
            attempts: Vec::new(),
            attempt_state,
            deliveries_settled: Vec::new(),
            delivery_status,
            send_latency: Vec::new(),
            timer_lateness: Vec::new(),
            throttled_ms: Vec::new(),
            stack: target.stack.as_deref(),
            aws: Aws {
                timestamp: now.millis(),
                cloud_watch_metrics: [Directive {
                    namespace: &target.namespace,
                    dimensions,
                    metrics,
                }],
            },
        }
    }

    /// Steps counted in this document.
    fn steps(&self) -> usize {
        self.attempts
            .len()
            .max(self.deliveries_settled.len())
            .max(self.throttled_ms.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::delivery_message::Trigger;
    use crate::domain::model::{Attempt, Delivery, DeliveryStatus};
    use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};
    use serde_json::json;

    fn delivery(status: DeliveryStatus) -> Delivery {
        Delivery {
            id: DeliveryId::parse("dlv_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
            tenant_id: TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
            event_id: EventId::parse("evt_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
            endpoint_id: EndpointId::parse("ep_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
            webhook_id: DeliveryId::parse("dlv_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
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
            throttled_until: None,
            created_at: Timestamp(0),
            planned_at: Timestamp(0),
            settled_at: None,
            body: "{}".into(),
            body_hash: None,
            expires_at: None,
            version: 2,

            delivery_settings: None,

            carried_by_queue: false,
            redelivery: None,
        }
    }

    fn attempted(state: &'static str, status: DeliveryStatus, duration_ms: u64, started_ms: i64) -> StepOutcome {
        let d = delivery(status);
        let attempt = Attempt {
            id: AttemptId::parse("att_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
            delivery_id: d.id.clone(),
            tenant_id: d.tenant_id.clone(),
            number: 1,
            trigger: Trigger::Initial,
            source_attempt_id: None,
            state: state.into(),
            response_status: Some(200),
            error_class: None,
            diagnostic: "delivered".into(),
            remediation: "none".into(),
            counts_toward_receiver_failures: false,
            failure_snippet: None,
            truncated: false,
            response_headers: Default::default(),
            destination_error: None,
            message_id: None,
            duration_ms,
            started_at: Timestamp(started_ms),
            next_attempt_at: None,
            expires_at: None,
        };
        StepOutcome::Attempted {
            attempt: Box::new(attempt),
            delivery: Box::new(d),
        }
    }

    fn documents(samples: &[StepSample], now: i64) -> serde_json::Value {
        serde_json::to_value(batch_metrics(samples, Timestamp(now))).unwrap_or_default()
    }

    #[test]
    fn a_batch_gives_one_document_per_kind_of_outcome_with_each_step_s_values() {
        let planned = Timestamp(1_000);
        let outcomes = [
            attempted("succeeded", DeliveryStatus::Succeeded, 42, 1_250),
            attempted("retryable_failure", DeliveryStatus::Retrying, 7, 1_000),
            StepOutcome::Redelayed { until: Timestamp(5) },
            attempted("succeeded", DeliveryStatus::Succeeded, 40, 900),
            StepOutcome::SettledWithoutAttempt {
                delivery: Box::new(delivery(DeliveryStatus::Failed)),
            },
        ];
        let samples: Vec<StepSample> = outcomes.iter().filter_map(|o| step_sample(o, planned)).collect();
        assert_eq!(samples.len(), 4, "a re-delay is not a metric");
        let attempt_metrics = json!([
            {"Name": "Attempts", "Unit": "Count"},
            {"Name": "SendLatency", "Unit": "Milliseconds"},
            {"Name": "TimerLateness", "Unit": "Milliseconds"}
        ]);
        let settled = json!({"Name": "DeliveriesSettled", "Unit": "Count"});
        let mut settling_attempt_metrics = attempt_metrics.clone();
        if let Some(list) = settling_attempt_metrics.as_array_mut() {
            list.push(settled.clone());
        }
        assert_eq!(
            documents(&samples, 1_300),
            json!([
                {
                    "Attempts": [1, 1], "AttemptState": "succeeded",
                    "DeliveriesSettled": [1, 1], "DeliveryStatus": "succeeded",
                    // An attempt that started before its planned instant counts as 0 late.
                    "SendLatency": [42, 40], "TimerLateness": [250, 0],
                    "_aws": {"Timestamp": 1_300, "CloudWatchMetrics": [{
                        "Namespace": "Courier",
                        "Dimensions": [["AttemptState"], ["DeliveryStatus"], []],
                        "Metrics": settling_attempt_metrics
                    }]}
                },
                {
                    "Attempts": [1], "AttemptState": "retryable_failure",
                    "SendLatency": [7], "TimerLateness": [0],
                    "_aws": {"Timestamp": 1_300, "CloudWatchMetrics": [{
                        "Namespace": "Courier",
                        "Dimensions": [["AttemptState"], []],
                        "Metrics": attempt_metrics
                    }]}
                },
                {
                    "DeliveriesSettled": [1], "DeliveryStatus": "failed",
                    "_aws": {"Timestamp": 1_300, "CloudWatchMetrics": [{
                        "Namespace": "Courier",
                        "Dimensions": [["DeliveryStatus"], []],
                        "Metrics": [settled]
                    }]}
                }
            ])
        );
    }

    #[test]
    fn a_stack_s_metrics_carry_its_namespace_and_stack_dimension() {
        let outcome = attempted("succeeded", DeliveryStatus::Succeeded, 5, 1_000);
        let samples: Vec<StepSample> = step_sample(&outcome, Timestamp(1_000)).into_iter().collect();
        let target = MetricsTarget {
            namespace: "Courier/prod".to_owned(),
            stack: Some("courier-prod".to_owned()),
            print: true,
        };
        let docs = serde_json::to_value(batch_metrics_for(&samples, Timestamp(7), &target)).unwrap_or_default();
        assert_eq!(docs[0]["Stack"], json!("courier-prod"));
        assert_eq!(
            docs[0]["_aws"]["CloudWatchMetrics"][0]["Namespace"],
            json!("Courier/prod")
        );
        assert_eq!(
            docs[0]["_aws"]["CloudWatchMetrics"][0]["Dimensions"],
            json!([["Stack", "AttemptState"], ["Stack", "DeliveryStatus"], ["Stack"]])
        );
    }

    #[test]
    fn a_document_holds_at_most_a_hundred_steps() {
        let outcome = attempted("succeeded", DeliveryStatus::Succeeded, 5, 1_000);
        let sample = step_sample(&outcome, Timestamp(1_000)).unwrap_or_else(|| panic!("a metric"));
        let samples = vec![sample; 2 * MAX_VALUES + 1];
        let docs = batch_metrics(&samples, Timestamp(0));
        let sizes: Vec<(usize, usize)> = docs.iter().map(|d| (d.attempts.len(), d.send_latency.len())).collect();
        assert_eq!(sizes, [(100, 100), (100, 100), (1, 1)]);
    }

    #[test]
    fn redelays_and_drops_are_not_metrics() {
        let out = StepOutcome::Redelayed { until: Timestamp(5) };
        assert_eq!(step_sample(&out, Timestamp(0)), None);
        let out = StepOutcome::Dropped {
            why: crate::delivery::DropReason::Stale,
        };
        assert_eq!(step_sample(&out, Timestamp(0)), None);
        assert_eq!(documents(&[], 0), json!([]));
    }

    #[test]
    fn holds_are_throttled_ms_in_a_document_of_their_own() {
        let hold = |ms| StepOutcome::Throttled {
            until: Timestamp(1_000 + ms as i64),
            cause: courier_core::limiter::HoldCause::Rate,
            held_ms: ms,
        };
        let samples: Vec<StepSample> = [
            hold(500),
            attempted("succeeded", DeliveryStatus::Succeeded, 5, 1_000),
            hold(1_000),
        ]
        .iter()
        .filter_map(|o| step_sample(o, Timestamp(1_000)))
        .collect();
        let docs = documents(&samples, 9);
        assert_eq!(docs[0]["ThrottledMs"], json!([500, 1_000]));
        assert_eq!(
            docs[0]["_aws"]["CloudWatchMetrics"][0]["Metrics"],
            json!([{"Name": "ThrottledMs", "Unit": "Milliseconds"}])
        );
        assert_eq!(docs[0]["_aws"]["CloudWatchMetrics"][0]["Dimensions"], json!([[]]));
        assert_eq!(docs[1]["Attempts"], json!([1]));
        assert_eq!(docs[1].get("ThrottledMs"), None);
        assert_eq!(docs.as_array().map(Vec::len), Some(2));
    }
}
