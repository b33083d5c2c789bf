//! Recurring schedules (Greatwait's `schedules.*`): the stored schedule and its
//! occurrence markers, the [`ScheduleStore`] port that keeps them, the
//! [`RecurringTimer`] port that makes the cloud fire them (EventBridge Scheduler
//! recurring schedules on AWS), and the fire message each firing puts on the
//! delivery queue.

use crate::domain::model::DeliverySettings;
use courier_core::Timestamp;
use courier_core::decide::LatencyClass;
use courier_core::ids::{DeliveryId, EndpointId, EventId, ScheduleId, TenantId};
use courier_core::recurrence::{Recurrence, RecurrenceError};
use serde::{Deserialize, Serialize};

/// A person's switch on the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScheduleState {
    Active,
    Paused,
}

/// How a schedule recurs, as the API took it (EventBridge Scheduler's syntax).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecurrenceSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cron: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<String>,
    /// An RFC 3339 instant (one firing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

impl RecurrenceSpec {
    /// The parsed recurrence. `second_rates` admits `rate(N second(s))`, which
    /// Scheduler does not have: only the local stack's tests and dev runs set it.
    pub fn parse(&self, second_rates: bool) -> Result<Recurrence, RecurrenceError> {
        if second_rates
            && self.cron.is_none()
            && self.at.is_none()
            && let Some(secs) = self.rate.as_deref().and_then(second_rate)
        {
            return Ok(Recurrence::Rate { every_secs: secs });
        }
        Recurrence::from_fields(
            self.rate.as_deref(),
            self.cron.as_deref(),
            self.at.as_deref(),
            self.timezone.as_deref(),
        )
    }

    /// Scheduler's `ScheduleExpression` and `ScheduleExpressionTimezone`.
    pub fn expression(&self) -> (String, String) {
        let tz = self.timezone.clone().unwrap_or_else(|| "UTC".to_owned());
        match (&self.cron, &self.rate, &self.at) {
            (Some(c), _, _) => (c.clone(), tz),
            (None, Some(r), _) => (r.clone(), "UTC".to_owned()),
            (None, None, Some(a)) => {
                // `at()` takes a wall time in the zone: the instant, in UTC.
                let at = Timestamp::parse_rfc3339(a).map(|t| t.to_rfc3339()).unwrap_or_default();
                (format!("at({})", at.get(..19).unwrap_or_default()), "UTC".to_owned())
            }
            (None, None, None) => (String::new(), tz),
        }
    }
}

/// `rate(N second)` / `rate(N seconds)` -> N (N >= 1).
fn second_rate(rate: &str) -> Option<i64> {
    let body = rate.trim().strip_prefix("rate(")?.strip_suffix(')')?;
    let mut parts = body.split_whitespace();
    let (Some(n), Some(unit), None) = (parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    let n: i64 = n.parse().ok().filter(|n| *n >= 1)?;
    matches!((unit, n), ("second", 1) | ("seconds", _)).then_some(n)
}

/// A stored schedule: where its occurrences go, when, and with what data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    pub id: ScheduleId,
    pub tenant_id: TenantId,
    /// The one endpoint its occurrences go to; none: they are routed by
    /// subscription (its `event_type` to `application_id`'s subscribed endpoints).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint_id: Option<EndpointId>,
    /// For a schedule routed by subscription: the application (`app_...`) whose
    /// endpoints take its occurrences; none: the tenant's endpoints without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub application_id: Option<String>,
    pub recurrence: RecurrenceSpec,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_at: Option<Timestamp>,
    #[serde(default, skip_serializing_if = "Option::is_none", rename = "type")]
    pub event_type: Option<String>,
    /// The data each occurrence sends. `None` when it is gone (lost or made unusable
    /// in storage): occurrences then settle `payload_unavailable` until a replace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payload: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_class: Option<LatencyClass>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_running_allowance_seconds: Option<u64>,
    pub state: ScheduleState,
    pub created_at: Timestamp,
    pub updated_at: Timestamp,
    /// Optimistic concurrency counter, bumped by every update.
    pub version: u64,
}

impl Schedule {
    /// Where rates count from: `startAt`, else the creation instant.
    pub fn anchor(&self) -> Timestamp {
        self.start_at.unwrap_or(self.created_at)
    }

    /// Whether a firing planned at `planned` belongs to the schedule as it is now
    /// (active, inside its window).
    pub fn takes_firing(&self, planned: Timestamp) -> bool {
        self.state == ScheduleState::Active
            && self.start_at.is_none_or(|s| planned >= s)
            && self.end_at.is_none_or(|e| planned <= e)
    }

    /// The name of its Scheduler schedule (its id: `sch_` + 26, within Scheduler's 64).
    pub fn timer_name(&self) -> String {
        self.id.to_string()
    }

    /// Its own delivery settings, which its occurrences' deliveries keep.
    pub fn delivery_settings(&self) -> DeliverySettings {
        DeliverySettings {
            latency_class: self.latency_class,
            long_running_allowance_seconds: self.long_running_allowance_seconds,
        }
    }
}

/// One firing of a schedule: written once per (schedule, planned instant) before its
/// event, so a duplicate firing or a redone step finds it and makes no second one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Occurrence {
    pub schedule_id: ScheduleId,
    pub tenant_id: TenantId,
    pub planned_at: Timestamp,
    /// The event this firing makes, and its delivery when the schedule targets one
    /// endpoint (promised before they are written); a fan-out's deliveries are
    /// found from its event.
    pub event_id: EventId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delivery_id: Option<DeliveryId>,
    pub created_at: Timestamp,
    /// Set when the firing could not be made even late, from the dead-letter
    /// queue (`dead_letter_kinds::fire_late`): its event was never written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<OccurrenceFailure>,
    /// When the marker may be deleted (DynamoDB TTL, epoch seconds): past any
    /// copy of its firing that could still come ([`OCCURRENCE_TTL_SECONDS`]).
    /// Markers written before have none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<i64>,
}

/// How long an occurrence marker is kept: 35 days, longer than any copy of a
/// firing can still arrive (SQS keeps a message at most 14 days, a dead-letter
/// queue's included), so a late copy finds the marker and makes nothing twice.
pub const OCCURRENCE_TTL_SECONDS: i64 = 35 * 86_400;

impl Occurrence {
    /// The expiry of a marker written at `now`.
    pub fn expiry_from(now: Timestamp) -> Option<i64> {
        Some(now.millis() / 1000 + OCCURRENCE_TTL_SECONDS)
    }
}

/// Why an occurrence was never made, and when that was given up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OccurrenceFailure {
    pub reason: String,
    pub at: Timestamp,
}

/// An occurrence's sort key within its schedule: the planned instant inverted, so
/// lists in key order give the newest first.
pub fn occurrence_key(planned: Timestamp) -> String {
    format!("{:019}", i64::MAX - planned.millis().max(0))
}

/// What the cloud's recurring timer is told about one schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecurringSpec {
    /// Scheduler's schedule name.
    pub name: String,
    /// `rate(...)`, `cron(...)` or `at(...)`.
    pub expression: String,
    pub timezone: String,
    pub start: Option<Timestamp>,
    pub end: Option<Timestamp>,
    pub enabled: bool,
    /// The queue message's text, with [`SCHEDULED_TIME`] where the firing instant goes.
    pub input: String,
}

/// Scheduler's context attribute for the instant a firing was planned for.
pub const SCHEDULED_TIME: &str = "<aws.scheduler.scheduled-time>";

/// The message a firing puts on the delivery queue, as
/// `crate::domain::queue_message::Message::ScheduleFire` (`"kind":"schedule_fire"`),
/// which is its one reader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FireMessage {
    pub v: u32,
    pub tenant_id: TenantId,
    pub schedule_id: ScheduleId,
    pub planned_at: Timestamp,
}

impl FireMessage {
    /// The input template Scheduler fills in at each firing.
    pub fn template(tenant: &TenantId, schedule: &ScheduleId) -> String {
        format!(
            // The kind's name as `Message` tags it (its tests compare the two).
            r#"{{"kind":"schedule_fire","v":1,"tenantId":"{tenant}","scheduleId":"{schedule}","plannedAt":"{SCHEDULED_TIME}"}}"#
        )
    }

    /// The message of one firing, as Scheduler makes it from the template.
    pub fn from_template(template: &str, planned: Timestamp) -> String {
        // Scheduler writes whole seconds (`2022-03-22T18:59:43Z`).
        let at = Timestamp::from_millis(planned.millis().div_euclid(1000) * 1000).to_rfc3339();
        template.replace(SCHEDULED_TIME, &at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(rate: &str) -> RecurrenceSpec {
        RecurrenceSpec {
            cron: None,
            timezone: None,
            rate: Some(rate.into()),
            at: None,
        }
    }

    #[test]
    fn second_rates_only_when_admitted() {
        assert_eq!(
            spec("rate(2 seconds)").parse(true),
            Ok(Recurrence::Rate { every_secs: 2 })
        );
        assert_eq!(
            spec("rate(1 second)").parse(true),
            Ok(Recurrence::Rate { every_secs: 1 })
        );
        assert_eq!(spec("rate(2 seconds)").parse(false).map_err(|e| e.field()), Err("rate"));
        assert_eq!(spec("rate(2 second)").parse(true).map_err(|e| e.field()), Err("rate"));
        assert_eq!(
            spec("rate(5 minutes)").parse(true),
            Ok(Recurrence::Rate { every_secs: 300 })
        );
    }

    #[test]
    fn expressions_for_scheduler() {
        assert_eq!(
            spec("rate(5 minutes)").expression(),
            ("rate(5 minutes)".into(), "UTC".into())
        );
        let cron = RecurrenceSpec {
            cron: Some("cron(0 9 * * ? *)".into()),
            timezone: Some("Europe/Berlin".into()),
            rate: None,
            at: None,
        };
        assert_eq!(cron.expression(), ("cron(0 9 * * ? *)".into(), "Europe/Berlin".into()));
        let at = RecurrenceSpec {
            at: Some("2026-12-24T19:00:00+01:00".into()),
            ..spec("x")
        };
        let at = RecurrenceSpec { rate: None, ..at };
        assert_eq!(at.expression(), ("at(2026-12-24T18:00:00)".into(), "UTC".into()));
    }

    #[test]
    fn fire_messages_from_the_template() {
        // The one reader's tests (`domain::delivery_message`) read what this makes.
        let tenant = TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("id");
        let id = ScheduleId::parse("sch_01JBBBBBBBBBBBBBBBBBBBBBBB").expect("id");
        let template = FireMessage::template(&tenant, &id);
        let planned = Timestamp::parse_rfc3339("2026-12-01T08:09:10.500Z").expect("t");
        assert_eq!(
            FireMessage::from_template(&template, planned),
            format!(
                r#"{{"kind":"schedule_fire","v":1,"tenantId":"{tenant}","scheduleId":"{id}","plannedAt":"2026-12-01T08:09:10.000Z"}}"#
            )
        );
    }
}
