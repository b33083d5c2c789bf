//! The statistics answer on the wire (`GET /v1/stats`, `/v1/applications/{id}/stats`,
//! `/v1/endpoints/{id}/stats`): every bucket of the window, their totals and the
//! backlog, built from the counts `crate::domain::stats` keeps.

use crate::domain::stats::{Backlog, StatsCounts, StatsWindow};
use courier_core::Timestamp;
use serde::Serialize;

/// Every bucket of the window (empty ones too), their totals and the backlog now.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatsOut {
    /// `minute` or `hour`.
    #[cfg_attr(feature = "openapi", schema(value_type = StatsGranularity))]
    pub granularity: &'static str,
    pub buckets: Vec<StatsBucket>,
    pub totals: StatsFigures,
    pub backlog: StatsBacklog,
}

/// The figures of one bucket and the instant it starts.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatsBucket {
    /// The first instant of the bucket.
    #[cfg_attr(feature = "openapi", schema(value_type = crate::api::openapi::schemas::Timestamp))]
    pub start: Timestamp,
    #[serde(flatten)]
    pub figures: StatsFigures,
}

/// The figures of a bucket, or of the window's totals.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatsFigures {
    pub attempts: AttemptCounts,
    pub deliveries: SettledCounts,
    pub duration_ms: DurationPercentiles,
}

/// Attempts recorded, by state.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AttemptCounts {
    pub succeeded: u64,
    pub retryable_failure: u64,
    pub terminal_failure: u64,
    pub ambiguous: u64,
}

/// Deliveries settled by an attempt, by status.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SettledCounts {
    pub succeeded: u64,
    pub failed: u64,
    pub dropped: u64,
}

/// Attempt duration percentiles from fixed buckets (10, 25, 50, 100, 250, 500, 1000,
/// 2500, 5000, 10000, 30000 ms): the upper bound of the bucket the percentile falls
/// in, 60000 past the last; 0 without attempts.
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DurationPercentiles {
    pub p50: u64,
    pub p95: u64,
    pub p99: u64,
}

/// Deliveries waiting now, counted from the status index (an ambiguous delivery,
/// whose next attempt is planned, counts as retrying).
#[derive(Debug, Clone, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct StatsBacklog {
    pub pending: u64,
    pub retrying: u64,
    pub scheduled: u64,
}

/// A bucket's width, as the answer names it.
#[cfg(feature = "openapi")]
#[derive(utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
#[allow(dead_code)] // only its schema is used
pub enum StatsGranularity {
    Minute,
    Hour,
}

impl From<&StatsCounts> for StatsFigures {
    fn from(c: &StatsCounts) -> Self {
        // The arrays are in the order of `ATTEMPT_STATES` and `DELIVERY_STATUSES`.
        let [succeeded, retryable_failure, terminal_failure, ambiguous] = c.attempts;
        let [delivered, failed, dropped] = c.deliveries;
        StatsFigures {
            attempts: AttemptCounts {
                succeeded,
                retryable_failure,
                terminal_failure,
                ambiguous,
            },
            deliveries: SettledCounts {
                succeeded: delivered,
                failed,
                dropped,
            },
            duration_ms: DurationPercentiles {
                p50: c.duration_quantile(0.50),
                p95: c.duration_quantile(0.95),
                p99: c.duration_quantile(0.99),
            },
        }
    }
}

impl StatsOut {
    /// The answer for these buckets (any order, several per start summed) over the
    /// window, with the backlog.
    pub fn new(window: &StatsWindow, buckets: &[(Timestamp, StatsCounts)], backlog: &Backlog) -> Self {
        let mut totals = StatsCounts::default();
        let buckets = window
            .starts()
            .into_iter()
            .map(|start| {
                let mut c = StatsCounts::default();
                for (_, b) in buckets.iter().filter(|(s, _)| *s == start) {
                    c.add(b);
                }
                totals.add(&c);
                StatsBucket {
                    start,
                    figures: StatsFigures::from(&c),
                }
            })
            .collect();
        StatsOut {
            granularity: window.granularity.as_str(),
            buckets,
            totals: StatsFigures::from(&totals),
            backlog: StatsBacklog {
                pending: backlog.pending,
                retrying: backlog.retrying,
                scheduled: backlog.scheduled,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::stats::{ATTEMPT_STATES, DELIVERY_STATUSES};

    /// The counts' arrays and the answer's fields name the same states in the same
    /// order.
    #[test]
    fn figures_name_the_counted_states() {
        let c = StatsCounts {
            attempts: [1, 2, 3, 4],
            deliveries: [5, 6, 7],
            ..StatsCounts::default()
        };
        let v = serde_json::to_value(StatsFigures::from(&c)).unwrap_or_default();
        for (i, name) in ATTEMPT_STATES.iter().enumerate() {
            assert_eq!(v["attempts"][name], serde_json::json!(i + 1), "{name}");
        }
        for (i, name) in DELIVERY_STATUSES.iter().enumerate() {
            assert_eq!(v["deliveries"][name], serde_json::json!(i + 5), "{name}");
        }
        assert_eq!(v["durationMs"]["p99"], serde_json::json!(0));
    }
}
