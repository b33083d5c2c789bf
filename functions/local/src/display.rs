//! What the local runner shows while it works: one line per attempt (delivery,
//! number, status, diagnostic, next attempt) and per fired schedule.

use courier_app::delivery::StepOutcome;
use courier_app::domain::delivery_message::DeliveryMessage;
use courier_core::Timestamp;
use courier_sender::RecordResult;
use std::io::Write;

pub trait StepSink: Send + Sync {
    fn step(&self, result: &RecordResult);
    fn fired(&self, _schedule: &str, _message: &DeliveryMessage) {}
}

/// Shows nothing (tests).
pub struct Quiet;
impl StepSink for Quiet {
    fn step(&self, _result: &RecordResult) {}
}

/// Prints to stdout.
pub struct Console;

fn clock_time(t: Timestamp) -> String {
    let s = t.to_rfc3339();
    s.get(11..23).unwrap_or(&s).to_owned()
}

impl StepSink for Console {
    fn step(&self, r: &RecordResult) {
        let line = match &r.result {
            Err(e) => format!("step failed (message will come back): {e}"),
            Ok(StepOutcome::Attempted { attempt, delivery }) | Ok(StepOutcome::LostRecorded { attempt, delivery }) => {
                let status = attempt
                    .response_status
                    .map(|s| s.to_string())
                    .unwrap_or_else(|| attempt.error_class.as_deref().unwrap_or("-").to_owned());
                let next = match (delivery.next_attempt_at, delivery.status.is_settled()) {
                    (_, true) => format!(
                        "delivery {}{}",
                        delivery.status.as_str(),
                        delivery
                            .dead_reason
                            .as_ref()
                            .map(|r| format!(" ({r})"))
                            .unwrap_or_default()
                    ),
                    (Some(at), false) => {
                        let secs = at.millis_since(attempt.started_at) as f64 / 1000.0;
                        format!("next attempt at {} (+{secs:.1}s)", clock_time(at))
                    }
                    (None, false) => delivery.status.as_str().to_owned(),
                };
                format!(
                    "{}  {}  attempt {}  {:<4} {:<18} {:<20} -> {next}",
                    clock_time(attempt.started_at),
                    delivery.id,
                    attempt.number,
                    status,
                    attempt.state,
                    attempt.diagnostic
                )
            }
            Ok(StepOutcome::Diverted { cause }) => format!("moved to the slow lane ({})", cause.as_str()),
            Ok(StepOutcome::SettledWithoutAttempt { delivery }) => format!(
                "{}  settled without an attempt: {:?}",
                delivery.id, delivery.dead_reason
            ),
            Ok(StepOutcome::AwaitingCompletion { delivery }) => format!(
                "{}  attempt {} answered 202: waiting for the receiver's completion report until {}",
                delivery.id,
                delivery.awaiting.as_ref().map(|a| a.number).unwrap_or_default(),
                delivery
                    .awaiting
                    .as_ref()
                    .map(|a| clock_time(a.until))
                    .unwrap_or_default()
            ),
            Ok(StepOutcome::FanoutStep { created, matched, more }) => format!(
                "fan-out step: {created} deliveries written for {matched} subscribers{}",
                if *more {
                    ", next step queued"
                } else {
                    ", fan-out complete"
                }
            ),
            Ok(StepOutcome::Fired(outcome)) => format!("schedule fired: {outcome:?}"),
            Ok(StepOutcome::Redelayed { .. })
            | Ok(StepOutcome::NotYetWritten { .. })
            | Ok(StepOutcome::Throttled { .. })
            | Ok(StepOutcome::Dropped { .. }) => {
                return;
            }
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{line}");
    }

    fn fired(&self, schedule: &str, _message: &DeliveryMessage) {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "timer fired: {schedule}");
    }
}
