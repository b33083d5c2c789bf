//! Policy simulation and description, behind `courier policy simulate` and
//! `courier policy show`: a delivery played against scripted receiver outcomes on a
//! virtual clock, so a user sees a policy's timeline before trusting it.

use crate::classify::{AttemptState, Classification};
use crate::decide::{AttemptFacts, Decision, DeliveryContext, LatencyClass};
use crate::outcome::{AttemptOutcome, ResponseSummary, TransportFailure};
use crate::policy::{Deadline, HealthModel, Policy, WaitFrom};
use crate::rng::RandomSource;
use crate::time::Timestamp;
use serde::Serialize;
use std::fmt::Write;

/// One scripted receiver behaviour.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OutcomeToken {
    Status { status: u16, retry_after: Option<u64> },
    Transport(TransportFailure),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("outcome {position} ({token:?}): {message}")]
pub struct TokenError {
    pub position: usize,
    pub token: String,
    pub message: String,
}

/// Parses `503,429:120,timeout,200`.
pub fn parse_outcomes(list: &str) -> Result<Vec<OutcomeToken>, TokenError> {
    let mut out = Vec::new();
    for (i, raw) in list.split(',').enumerate() {
        let tok = raw.trim();
        let fail = |message: &str| TokenError {
            position: i + 1,
            token: tok.to_owned(),
            message: message.to_owned(),
        };
        let parsed = match tok.to_ascii_lowercase().as_str() {
            "" => return Err(fail("empty outcome")),
            "timeout" => OutcomeToken::Transport(TransportFailure::Timeout),
            "reset" => OutcomeToken::Transport(TransportFailure::ResetAfterSend),
            "refused" => OutcomeToken::Transport(TransportFailure::Refused),
            "dns" => OutcomeToken::Transport(TransportFailure::Dns),
            "tls" => OutcomeToken::Transport(TransportFailure::Tls),
            other => {
                let (status, ra) = match other.split_once(':') {
                    Some((s, r)) => (s, Some(r)),
                    None => (other, None),
                };
                let status: u16 = status.parse().ok().filter(|s| (100..=599).contains(s)).ok_or_else(|| {
                    fail("expected a status 100-599, STATUS:RETRY_AFTER_SECONDS, timeout, reset, refused, dns or tls")
                })?;
                let retry_after = match ra {
                    None => None,
                    Some(r) => Some(
                        r.parse::<u64>()
                            .map_err(|_| fail("Retry-After must be whole seconds"))?,
                    ),
                };
                OutcomeToken::Status { status, retry_after }
            }
        };
        out.push(parsed);
    }
    Ok(out)
}

impl OutcomeToken {
    fn to_outcome(&self) -> AttemptOutcome {
        match self {
            OutcomeToken::Status { status, retry_after } => {
                let mut r = ResponseSummary::new(*status);
                if let Some(ra) = retry_after {
                    r = r.with_header("retry-after", &ra.to_string());
                }
                AttemptOutcome::Response(r)
            }
            OutcomeToken::Transport(f) => AttemptOutcome::transport(*f),
        }
    }

    fn label(&self) -> String {
        match self {
            OutcomeToken::Status {
                status,
                retry_after: Some(ra),
            } => format!("{status} (Retry-After {ra})"),
            OutcomeToken::Status { status, .. } => status.to_string(),
            OutcomeToken::Transport(TransportFailure::ResetAfterSend) => "reset".into(),
            OutcomeToken::Transport(f) => serde_json::to_value(f)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct SimOptions {
    pub attempt_duration_ms: u64,
    pub latency_class: LatencyClass,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimAttempt {
    pub number: u32,
    pub at_seconds: f64,
    pub outcome: String,
    pub state: String,
    pub diagnostic: String,
    pub remediation: String,
    pub error_class: Option<String>,
    pub counts_toward_receiver_failures: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimFinal {
    pub status: String,
    pub reason: Option<String>,
    pub at_seconds: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SimReport {
    pub policy: String,
    pub attempts: Vec<SimAttempt>,
    #[serde(rename = "final")]
    pub final_: SimFinal,
}

fn secs(from: Timestamp, to: Timestamp) -> f64 {
    to.millis_since(from) as f64 / 1000.0
}

/// Plays one delivery planned at t=0. Tokens past the end repeat the last one. An
/// attempt lasts `attempt_duration_ms`, except a timeout, which lasts the policy's
/// timeout (at least). A 202 is an ordinary success here: the simulation has no
/// long-running allowance.
pub fn simulate(policy: &Policy, tokens: &[OutcomeToken], opts: SimOptions, rng: &mut dyn RandomSource) -> SimReport {
    let t0 = Timestamp(0);
    let ctx = DeliveryContext {
        planned_at: t0,
        latency_class: opts.latency_class,
        long_running_allowance_seconds: 0,
    };
    let mut attempts = Vec::new();
    let mut started = t0;
    let mut number = 1u32;
    let mut receiver_failures = 0u32;
    let fallback = OutcomeToken::Status {
        status: 200,
        retry_after: None,
    };
    loop {
        let token = tokens.get(number as usize - 1).or(tokens.last()).unwrap_or(&fallback);
        let outcome = token.to_outcome();
        let duration = match token {
            OutcomeToken::Transport(TransportFailure::Timeout) => opts.attempt_duration_ms.max(policy.timeout_ms),
            _ => opts.attempt_duration_ms,
        };
        let ended = started.plus_millis(i64::try_from(duration).unwrap_or(i64::MAX));
        let cls: Classification = policy.classify(&outcome, false);
        if cls.counts_toward_receiver_failures {
            receiver_failures += 1;
        }
        attempts.push(SimAttempt {
            number,
            at_seconds: secs(t0, started),
            outcome: token.label(),
            state: cls.state.as_str(),
            diagnostic: cls.diagnostic.as_str(),
            remediation: cls.remediation.as_str(),
            error_class: cls.error_class.map(|c| c.as_str()),
            counts_toward_receiver_failures: cls.counts_toward_receiver_failures,
        });
        let facts = AttemptFacts {
            number,
            started_at: started,
            ended_at: ended,
            receiver_failures,
        };
        let final_ = match policy.decide(&ctx, &facts, &outcome, &cls, rng) {
            Decision::Succeeded | Decision::AwaitCompletion { .. } => SimFinal {
                status: "succeeded".into(),
                reason: None,
                at_seconds: secs(t0, ended),
            },
            Decision::Failed { reason } => SimFinal {
                status: "failed".into(),
                reason: Some(reason.label(policy.reason_style)),
                at_seconds: secs(t0, ended),
            },
            Decision::Retry { number: next, at, .. } => {
                number = next;
                started = at;
                continue;
            }
        };
        debug_assert!(cls.state != AttemptState::AwaitingCompletion);
        return SimReport {
            policy: policy.name.clone(),
            attempts,
            final_,
        };
    }
}

fn human(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    let fractional = ms / 1000 * 1000 != ms;
    if ms < 60_000 && fractional {
        return format!("{s:.3}s");
    }
    let total = ms / 1000;
    let (d, h, m, sec) = (total / 86_400, total % 86_400 / 3600, total % 3600 / 60, total % 60);
    let mut out = String::new();
    for (v, u) in [(d, "d"), (h, "h"), (m, "m"), (sec, "s")] {
        if v > 0 {
            let _ = write!(out, "{v}{u}");
        }
    }
    if out.is_empty() { "0s".into() } else { out }
}

/// The plain-text timeline of a simulation.
pub fn render_simulation(report: &SimReport, seed: u64) -> String {
    let mut out = format!(
        "policy {}  (seed {seed}; times in seconds after the planned instant)\n",
        report.policy
    );
    let _ = writeln!(
        out,
        "{:>3}  {:>12}  {:<20} {:<18} {:<22} {:<24} {:<8} counts",
        "#", "at", "outcome", "state", "diagnostic", "remediation", "class"
    );
    for a in &report.attempts {
        let _ = writeln!(
            out,
            "{:>3}  {:>12.3}  {:<20} {:<18} {:<22} {:<24} {:<8} {}",
            a.number,
            a.at_seconds,
            a.outcome,
            a.state,
            a.diagnostic,
            a.remediation,
            a.error_class.as_deref().unwrap_or("-"),
            if a.counts_toward_receiver_failures { "yes" } else { "no" }
        );
    }
    let f = &report.final_;
    let _ = writeln!(
        out,
        "final: {} at {:.3}s{}",
        f.status,
        f.at_seconds,
        f.reason.as_ref().map(|r| format!(" (reason {r})")).unwrap_or_default()
    );
    out
}

/// Description of a policy's ladder and limits, assuming instant attempts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PolicyShow {
    pub policy: Policy,
    pub ladder: Vec<LadderRung>,
    /// Seconds from the first attempt to the last possible one: (shortest, longest).
    pub recovery_window_seconds: (f64, f64),
    pub deadlines: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LadderRung {
    pub attempt: u32,
    pub base_wait_seconds: f64,
    pub min_wait_seconds: f64,
    pub max_wait_seconds: f64,
    /// When this attempt starts at the earliest and latest, with instant attempts.
    pub earliest_at_seconds: f64,
    pub latest_at_seconds: f64,
    /// True when a deadline may cut the ladder before this attempt.
    pub may_be_cut_by_deadline: bool,
}

pub fn show(policy: &Policy, latency_class: LatencyClass) -> PolicyShow {
    let ctx = DeliveryContext {
        planned_at: Timestamp(0),
        latency_class,
        long_running_allowance_seconds: 0,
    };
    let limit = policy.attempt_deadline(&ctx).map(|t| t.millis() as u64);
    let mut ladder = vec![LadderRung {
        attempt: 1,
        base_wait_seconds: 0.0,
        min_wait_seconds: 0.0,
        max_wait_seconds: 0.0,
        earliest_at_seconds: 0.0,
        latest_at_seconds: 0.0,
        may_be_cut_by_deadline: false,
    }];
    let (mut lo, mut hi) = (0u64, 0u64);
    for n in 2..=policy.max_attempts {
        let (wmin, wmax) = policy.wait_bounds_ms(n);
        lo += wmin;
        hi += wmax;
        let mut cut = false;
        let (mut e, mut l) = (lo, hi);
        if let Some(limit) = limit {
            match policy.deadline {
                Deadline::ClampLast { .. } => {
                    cut = hi >= limit;
                    e = e.min(limit);
                    l = l.min(limit);
                }
                _ => {
                    // A retry that would start past the horizon never starts.
                    cut = hi > limit;
                    l = l.min(limit);
                }
            }
            if matches!(policy.deadline, Deadline::Horizon { .. }) && lo > limit {
                break;
            }
        }
        ladder.push(LadderRung {
            attempt: n,
            base_wait_seconds: policy.base_wait_ms(n) as f64 / 1000.0,
            min_wait_seconds: wmin as f64 / 1000.0,
            max_wait_seconds: wmax as f64 / 1000.0,
            earliest_at_seconds: e as f64 / 1000.0,
            latest_at_seconds: l as f64 / 1000.0,
            may_be_cut_by_deadline: cut,
        });
        if matches!(policy.deadline, Deadline::ClampLast { .. }) && limit.is_some_and(|lim| lo >= lim) {
            break;
        }
    }
    let last = ladder
        .last()
        .map(|r| (r.earliest_at_seconds, r.latest_at_seconds))
        .unwrap_or((0.0, 0.0));
    let window_hi = match (policy.deadline, limit) {
        (Deadline::Horizon { .. }, Some(limit)) => last.1.min(limit as f64 / 1000.0),
        _ => last.1,
    };
    let mut deadlines = Vec::new();
    match policy.deadline {
        Deadline::None => deadlines.push("none".into()),
        Deadline::Horizon { realtime_seconds, bulk_seconds, add_long_running_allowance } => deadlines.push(format!(
            "no attempt starts later than planned + {} (realtime) or + {} (bulk){}; a later retry settles the delivery (deadline)",
            human(realtime_seconds * 1000),
            human(bulk_seconds * 1000),
            if add_long_running_allowance { ", plus the endpoint's long-running allowance" } else { "" }
        )),
        Deadline::ClampLast { after_seconds } => deadlines.push(format!(
            "no attempt later than planned + {}: a later one is moved to that instant and is the last",
            human(after_seconds * 1000)
        )),
    }
    if let Some(l) = policy.receiver_failure_limit {
        deadlines.push(format!(
            "stops after {l} receiver-caused failures (429 and pre-send failures do not count)"
        ));
    }
    PolicyShow {
        policy: policy.clone(),
        ladder,
        recovery_window_seconds: (last.0, window_hi),
        deadlines,
    }
}

pub fn render_show(s: &PolicyShow) -> String {
    let p = &s.policy;
    let mut out = format!("policy {}\n", p.name);
    let _ = writeln!(out, "  max attempts       {}", p.max_attempts);
    let _ = writeln!(
        out,
        "  waits measured from {}",
        match p.wait_from {
            WaitFrom::AttemptEnd => "the end of the failed attempt",
            WaitFrom::AttemptStart => "the start of the previous attempt",
        }
    );
    let _ = writeln!(out, "  jitter             x[{}, {}]", p.jitter.min, p.jitter.max);
    let _ = writeln!(
        out,
        "  timeout            {} ms; redirects never followed",
        p.timeout_ms
    );
    match &p.retry_after {
        Some(ra) => {
            let st: Vec<String> = ra.statuses.iter().cloned().map(String::from).collect();
            let _ = writeln!(
                out,
                "  Retry-After        on {} : wait = max(normal, min(Retry-After, {}))",
                st.join(", "),
                human(ra.cap_seconds * 1000)
            );
        }
        None => {
            let _ = writeln!(out, "  Retry-After        ignored");
        }
    }
    let health = match p.health {
        HealthModel::None => "none".to_owned(),
        HealthModel::Breaker {
            exhausted_in_a_row,
            open_seconds,
        } => format!(
            "circuit breaker: opens for {} after {exhausted_in_a_row} exhausted deliveries in a row",
            human(open_seconds * 1000)
        ),
        HealthModel::Smartchat {
            degrade_after_failures,
            pause_after_failures,
            pause_after_seconds,
            disable_after_seconds,
        } => format!(
            "degraded after {degrade_after_failures} failures in a row; paused after {} without success and {pause_after_failures} failures; disabled after {} without success",
            human(pause_after_seconds * 1000),
            human(disable_after_seconds * 1000)
        ),
    };
    let _ = writeln!(out, "  endpoint health    {health}");
    if let Some(h) = &p.attempt_header {
        let _ = writeln!(out, "  attempt header     {h}");
    }
    let _ = writeln!(
        out,
        "\n  {:>7}  {:>10}  {:>10}  {:>10}  {:>12}  {:>12}",
        "attempt", "wait", "min wait", "max wait", "earliest at", "latest at"
    );
    for r in &s.ladder {
        let _ = writeln!(
            out,
            "  {:>7}  {:>10}  {:>10}  {:>10}  {:>12}  {:>12}{}",
            r.attempt,
            human((r.base_wait_seconds * 1000.0) as u64),
            human((r.min_wait_seconds * 1000.0) as u64),
            human((r.max_wait_seconds * 1000.0) as u64),
            human((r.earliest_at_seconds * 1000.0) as u64),
            human((r.latest_at_seconds * 1000.0) as u64),
            if r.may_be_cut_by_deadline {
                "  (deadline may cut/clamp)"
            } else {
                ""
            }
        );
    }
    let (a, b) = s.recovery_window_seconds;
    let _ = writeln!(
        out,
        "\n  recovery window    {} to {} (first attempt to last possible attempt, instant attempts)",
        human((a * 1000.0) as u64),
        human((b * 1000.0) as u64)
    );
    for d in &s.deadlines {
        let _ = writeln!(out, "  limit              {d}");
    }
    out
}
