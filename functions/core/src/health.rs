//! Endpoint health machines as pure functions of (state, event, now): gavAI's
//! circuit breaker and SmartChat's active/degraded/paused/disabled states. Time-based
//! changes are applied by [`BreakerState::at`] / [`SmartHealth::at`] from stored
//! timestamps, so the true state is known on every read with no background job.

use crate::policy::HealthModel;
use crate::time::Timestamp;
use serde::{Deserialize, Serialize};

/// gavAI breaker thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BreakerRules {
    pub exhausted_in_a_row: u32,
    pub open_seconds: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BreakerState {
    /// Set while open; the breaker is closed again from this instant on.
    pub open_until: Option<Timestamp>,
    pub exhausted_in_a_row: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakerEvent {
    /// A delivery used every attempt and failed.
    DeliveryExhausted,
    /// A 2xx from the endpoint (a delivery succeeded).
    Success,
}

impl BreakerState {
    /// The state as of `now`: after the open hour the breaker resets by itself and
    /// the count starts again from zero.
    pub fn at(self, now: Timestamp) -> BreakerState {
        match self.open_until {
            Some(until) if now >= until => BreakerState {
                open_until: None,
                exhausted_in_a_row: 0,
            },
            _ => self,
        }
    }

    pub fn is_open(self, now: Timestamp) -> bool {
        self.at(now).open_until.is_some()
    }

    pub fn apply(self, rules: BreakerRules, event: BreakerEvent, now: Timestamp) -> BreakerState {
        let s = self.at(now);
        match event {
            BreakerEvent::Success => BreakerState {
                open_until: None,
                exhausted_in_a_row: 0,
            },
            // While open nothing is sent, so an exhaustion reported now belongs to
            // attempts made before the breaker opened: it cannot extend the hour.
            BreakerEvent::DeliveryExhausted if s.open_until.is_some() => s,
            BreakerEvent::DeliveryExhausted => {
                let n = s.exhausted_in_a_row + 1;
                if n >= rules.exhausted_in_a_row {
                    BreakerState {
                        open_until: Some(now.plus_secs(rules.open_seconds as i64)),
                        exhausted_in_a_row: n,
                    }
                } else {
                    BreakerState {
                        open_until: None,
                        exhausted_in_a_row: n,
                    }
                }
            }
        }
    }
}

/// SmartChat thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SmartRules {
    pub degrade_after_failures: u32,
    pub pause_after_failures: u32,
    pub pause_after_seconds: u64,
    pub disable_after_seconds: u64,
}

impl HealthModel {
    pub fn breaker_rules(&self) -> Option<BreakerRules> {
        match *self {
            HealthModel::Breaker {
                exhausted_in_a_row,
                open_seconds,
            } => Some(BreakerRules {
                exhausted_in_a_row,
                open_seconds,
            }),
            _ => None,
        }
    }
    pub fn smart_rules(&self) -> Option<SmartRules> {
        match *self {
            HealthModel::Smartchat {
                degrade_after_failures,
                pause_after_failures,
                pause_after_seconds,
                disable_after_seconds,
            } => Some(SmartRules {
                degrade_after_failures,
                pause_after_failures,
                pause_after_seconds,
                disable_after_seconds,
            }),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HealthStatus {
    Active,
    Degraded,
    Paused,
    Disabled,
}

impl HealthStatus {
    pub const ALL: [HealthStatus; 4] = [
        HealthStatus::Active,
        HealthStatus::Degraded,
        HealthStatus::Paused,
        HealthStatus::Disabled,
    ];

    /// The snake_case name on the wire (serde's name for the variant).
    pub fn wire_name(self) -> &'static str {
        match self {
            HealthStatus::Active => "active",
            HealthStatus::Degraded => "degraded",
            HealthStatus::Paused => "paused",
            HealthStatus::Disabled => "disabled",
        }
    }

    /// The status named `name` ([`Self::wire_name`]).
    pub fn from_wire_name(name: &str) -> Option<HealthStatus> {
        HealthStatus::ALL.into_iter().find(|s| s.wire_name() == name)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SmartHealth {
    pub status: HealthStatus,
    pub failures_in_a_row: u32,
    /// "Without a success" is measured from here: the last success, or the
    /// endpoint's creation or last enable if later. Both the 3 days (pause) and the
    /// 7 days (disable) count from this instant, not from when the state began: a
    /// paused endpoint is disabled 7 days after its last success, as SmartChat's
    /// "7 days without a success" reads.
    pub quiet_since: Timestamp,
    /// When the current status began.
    pub since: Timestamp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HealthEvent {
    /// A real attempt (not a test event) failed.
    AttemptFailed,
    AttemptSucceeded,
    /// The receiver answered 410.
    Gone,
    /// The user called enable.
    Enable,
}

impl SmartHealth {
    pub fn new(now: Timestamp) -> Self {
        SmartHealth {
            status: HealthStatus::Active,
            failures_in_a_row: 0,
            quiet_since: now,
            since: now,
        }
    }

    /// Applies the time-based changes due by `now`, each stamped with the exact
    /// instant it became due.
    pub fn at(self, rules: SmartRules, now: Timestamp) -> SmartHealth {
        let mut s = self;
        if s.status == HealthStatus::Degraded && s.failures_in_a_row >= rules.pause_after_failures {
            let due = s.quiet_since.plus_secs(rules.pause_after_seconds as i64).max(s.since);
            if now >= due {
                s.status = HealthStatus::Paused;
                s.since = due;
            }
        }
        if s.status == HealthStatus::Paused {
            let due = s.quiet_since.plus_secs(rules.disable_after_seconds as i64).max(s.since);
            if now >= due {
                s.status = HealthStatus::Disabled;
                s.since = due;
            }
        }
        s
    }

    pub fn receives_events(self, rules: SmartRules, now: Timestamp) -> bool {
        matches!(
            self.at(rules, now).status,
            HealthStatus::Active | HealthStatus::Degraded
        )
    }

    pub fn apply(self, rules: SmartRules, event: HealthEvent, now: Timestamp) -> SmartHealth {
        let mut s = self.at(rules, now);
        let set = |s: &mut SmartHealth, st: HealthStatus| {
            if s.status != st {
                s.status = st;
                s.since = now;
            }
        };
        match event {
            HealthEvent::Gone => set(&mut s, HealthStatus::Disabled),
            HealthEvent::Enable => {
                set(&mut s, HealthStatus::Active);
                s.failures_in_a_row = 0;
                s.quiet_since = now;
            }
            HealthEvent::AttemptSucceeded => {
                s.failures_in_a_row = 0;
                s.quiet_since = now;
                if s.status == HealthStatus::Degraded {
                    set(&mut s, HealthStatus::Active);
                }
            }
            HealthEvent::AttemptFailed => {
                s.failures_in_a_row = s.failures_in_a_row.saturating_add(1);
                if s.status == HealthStatus::Active && s.failures_in_a_row >= rules.degrade_after_failures {
                    set(&mut s, HealthStatus::Degraded);
                }
                if s.status == HealthStatus::Degraded
                    && s.failures_in_a_row >= rules.pause_after_failures
                    && now >= s.quiet_since.plus_secs(rules.pause_after_seconds as i64)
                {
                    set(&mut s, HealthStatus::Paused);
                }
            }
        }
        s.at(rules, now)
    }
}

#[cfg(test)]
mod tests {
    use super::HealthStatus;

    #[test]
    fn status_wire_names_are_serdes_and_read_back() {
        for s in HealthStatus::ALL {
            assert_eq!(serde_json::to_value(s).ok(), Some(serde_json::json!(s.wire_name())));
            assert_eq!(HealthStatus::from_wire_name(s.wire_name()), Some(s));
        }
        assert_eq!(HealthStatus::from_wire_name("Active"), None);
    }
}
