//! Stands in for EventBridge Scheduler's recurring schedules, which the emulator
//! keeps but never fires: reads them from the emulator, works out with
//! `courier_core::recurrence` which firing instants have come (never one before its
//! instant), and puts each firing's message on the delivery queue as Scheduler
//! would, with the planned instant in place of `<aws.scheduler.scheduled-time>`.

use courier_app::domain::schedule::{FireMessage, RecurrenceSpec};
use courier_app::ports::Clock;
use courier_aws::scheduler::RecurringEntry;
use courier_aws::{SchedulerTimer, SqsQueue};
use courier_core::Timestamp;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;

/// How often the emulator's schedules are looked at.
const LOOK_EVERY: Duration = Duration::from_millis(200);
/// Most firings of one schedule sent in one look (a long pause in the runner does
/// not make a burst; Scheduler does not catch up either).
const MAX_PER_LOOK: usize = 10;

/// The recurrence Scheduler holds, read back from its expression.
fn recurrence_of(entry: &RecurringEntry) -> RecurrenceSpec {
    let e = entry.spec.expression.trim();
    let mut spec = RecurrenceSpec {
        cron: None,
        timezone: None,
        rate: None,
        at: None,
    };
    if e.starts_with("cron(") {
        spec.cron = Some(e.to_owned());
        spec.timezone = Some(entry.spec.timezone.clone());
    } else if e.starts_with("rate(") {
        spec.rate = Some(e.to_owned());
    } else if let Some(inner) = e.strip_prefix("at(").and_then(|s| s.strip_suffix(')')) {
        // Courier writes at() in UTC.
        spec.at = Some(format!("{inner}Z"));
    }
    spec
}

/// Where a rate counts from: the start date, else the creation instant, on the next
/// whole second (Scheduler's firing instants, and its `scheduled-time`, are whole
/// seconds; a fractional start would fire after the instant the message names).
pub fn start_of(entry: &RecurringEntry) -> Timestamp {
    let ms = entry.spec.start.unwrap_or(entry.created).millis();
    Timestamp::from_millis((ms + 999).div_euclid(1000) * 1000)
}

/// The firing instants of `entry` after `last` and at or before `now`, oldest first.
pub fn due_firings(entry: &RecurringEntry, last: Timestamp, now: Timestamp, second_rates: bool) -> Vec<Timestamp> {
    let Ok(recurrence) = recurrence_of(entry).parse(second_rates) else {
        return Vec::new();
    };
    let start = start_of(entry);
    recurrence
        .next_after(last, start, entry.spec.end, MAX_PER_LOOK)
        .into_iter()
        .filter(|t| *t <= now)
        .collect()
}

/// The loop: per schedule, the last instant fired (a schedule first seen counts
/// from just before its start; a disabled one moves on without firing, so resuming
/// does not fire what was missed while paused).
pub async fn recurring_loop(
    timer: Arc<SchedulerTimer>,
    queue: Arc<SqsQueue>,
    clock: Arc<dyn Clock>,
    second_rates: bool,
    mut stop: watch::Receiver<bool>,
) {
    let mut last: HashMap<String, Timestamp> = HashMap::new();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(LOOK_EVERY) => {}
            _ = stop.changed() => return,
        }
        let entries = match timer.list_recurring().await {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!(error = %e, "listing recurring schedules failed");
                continue;
            }
        };
        let now = clock.now();
        last.retain(|name, _| entries.iter().any(|e| &e.spec.name == name));
        for entry in &entries {
            let seen = *last
                .entry(entry.spec.name.clone())
                .or_insert_with(|| start_of(entry).plus_millis(-1));
            if !entry.spec.enabled {
                last.insert(entry.spec.name.clone(), now.max(seen));
                continue;
            }
            for t in due_firings(entry, seen, now, second_rates) {
                let body = FireMessage::from_template(&entry.spec.input, t);
                if let Err(e) = queue.send_text(&body).await {
                    tracing::warn!(schedule = %entry.spec.name, error = %e, "firing a recurring schedule failed; will retry");
                    break;
                }
                last.insert(entry.spec.name.clone(), t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use courier_app::domain::schedule::RecurringSpec;

    fn t(s: &str) -> Timestamp {
        Timestamp::parse_rfc3339(s).unwrap()
    }

    fn entry(expression: &str, timezone: &str, start: Option<Timestamp>) -> RecurringEntry {
        RecurringEntry {
            spec: RecurringSpec {
                name: "sch_x".into(),
                expression: expression.into(),
                timezone: timezone.into(),
                start,
                end: Some(t("2026-12-01T00:00:00Z")),
                enabled: true,
                input: String::new(),
            },
            created: t("2026-11-28T10:00:00.400Z"),
        }
    }

    #[test]
    fn only_instants_that_have_come_fire() {
        // Created at .400: the rate counts from the next whole second.
        let e = entry("rate(2 seconds)", "UTC", None);
        let first = t("2026-11-28T10:00:01Z");
        assert_eq!(start_of(&e), first);
        let from = first.plus_millis(-1);
        assert_eq!(due_firings(&e, from, t("2026-11-28T10:00:00.999Z"), true), vec![]);
        assert_eq!(
            due_firings(&e, from, t("2026-11-28T10:00:05Z"), true),
            vec![first, first.plus_secs(2), first.plus_secs(4)]
        );
        assert_eq!(
            due_firings(&e, first.plus_secs(4), t("2026-11-28T10:00:06.999Z"), true),
            vec![]
        );
        assert_eq!(
            due_firings(&e, from, t("2026-11-28T10:00:05Z"), false),
            vec![],
            "second rates need the flag"
        );
    }

    #[test]
    fn cron_in_its_zone_and_at_in_utc_and_the_end_date() {
        let e = entry("cron(0 9 * * ? *)", "Europe/Berlin", Some(t("2026-11-29T00:00:00Z")));
        assert_eq!(
            due_firings(&e, t("2026-11-29T00:00:00Z"), t("2026-12-05T00:00:00Z"), false),
            vec![t("2026-11-29T08:00:00Z"), t("2026-11-30T08:00:00Z")],
            "nothing after the end date"
        );
        let at = entry("at(2026-11-29T18:00:00)", "UTC", None);
        assert_eq!(
            due_firings(&at, at.created, t("2026-11-30T00:00:00Z"), false),
            vec![t("2026-11-29T18:00:00Z")]
        );
    }
}
