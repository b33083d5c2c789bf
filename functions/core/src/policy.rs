//! The delivery policy: one data type whose values are the four presets and any
//! custom policy a user writes in JSON. The sender never branches on a preset's
//! name; every behaviour difference is a field here.

use serde::{Deserialize, Serialize};
use std::fmt;

pub const PRESET_NAMES: [&str; 4] = ["greatwait", "tanitar", "gavai", "smartchat"];

const DAY: u64 = 86_400;
const MAX_WAIT_SECONDS: f64 = 30.0 * DAY as f64;
const MAX_ATTEMPTS: u32 = 100;
const MAX_TIMEOUT_MS: u64 = 120_000;
/// The longest a policy's ladder may last from the planned instant
/// ([`Policy::longest_span_ms`]): an event keeps the payload its deliveries send
/// this long past its planned instant, plus the longest retention of theirs.
pub const MAX_LADDER_SPAN_DAYS: u64 = 60;

/// The most snippet bytes one attempt keeps, whatever the policy says: 100
/// attempts a page stay well under Lambda's 6 MB answer, and a delivery item with
/// its latest attempt far under DynamoDB's 400 KB item. Greatwait's 4,096
/// characters of up to 4 bytes each fit exactly.
pub const MAX_SNIPPET_BYTES: usize = 16_384;

/// What a wait is measured from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum WaitFrom {
    /// The end of the failed attempt (Greatwait, gavAI, SmartChat).
    AttemptEnd,
    /// The start of the previous attempt (Tanitar).
    AttemptStart,
}

/// Each wait is multiplied by a uniform factor in `[min, max]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Jitter {
    pub min: f64,
    pub max: f64,
}

impl Jitter {
    pub const NONE: Jitter = Jitter { min: 1.0, max: 1.0 };
}

/// Which statuses a Retry-After is honoured on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum StatusPattern {
    Exact(u16),
    /// `"5xx"` style: every status of a class.
    Class(u8),
}

impl StatusPattern {
    pub fn matches(&self, status: u16) -> bool {
        match self {
            StatusPattern::Exact(s) => *s == status,
            StatusPattern::Class(c) => status / 100 == u16::from(*c),
        }
    }
}

impl TryFrom<String> for StatusPattern {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        let lower = s.trim().to_ascii_lowercase();
        let class = Some(&lower)
            .filter(|l| l.len() == 3 && l.ends_with("xx"))
            .and_then(|l| l[..1].parse::<u8>().ok())
            .filter(|c| (1..=5).contains(c));
        if let Some(c) = class {
            return Ok(StatusPattern::Class(c));
        }
        match lower.parse::<u16>() {
            Ok(n) if (100..=599).contains(&n) => Ok(StatusPattern::Exact(n)),
            _ => Err(format!("{s:?} is not a status (100-599) or a class like \"5xx\"")),
        }
    }
}

impl From<StatusPattern> for String {
    fn from(p: StatusPattern) -> String {
        match p {
            StatusPattern::Exact(s) => s.to_string(),
            StatusPattern::Class(c) => format!("{c}xx"),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RetryAfterRule {
    pub statuses: Vec<StatusPattern>,
    pub cap_seconds: u64,
}

/// When a delivery stops being attempted because of time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", deny_unknown_fields)]
pub enum Deadline {
    None,
    /// Greatwait: no attempt may start later than planned instant + horizon (by
    /// latency class), plus the endpoint's long-running allowance when enabled.
    /// A retry that would start later settles the delivery instead.
    #[serde(rename_all = "camelCase")]
    Horizon {
        realtime_seconds: u64,
        bulk_seconds: u64,
        add_long_running_allowance: bool,
    },
    /// SmartChat: an attempt that would start later than planned instant + after is
    /// moved forward to exactly that instant, and is the last one.
    #[serde(rename_all = "camelCase")]
    ClampLast {
        after_seconds: u64,
    },
}

/// How a 410 Gone answer is treated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum GoneHandling {
    /// Classified like any other 4xx by the policy's 4xx rule (Greatwait: terminal).
    AsStatus,
    /// The delivery is dead at once with reason ENDPOINT_GONE (Tanitar).
    DeliveryGone,
    /// The endpoint is disabled at once and the delivery fails (SmartChat).
    DisableEndpoint,
}

/// Whether redirects are followed. Only `never` exists: following a redirect would
/// let a receiver aim Courier at an address admission never checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Redirects {
    Never,
}

/// The per-endpoint health model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "model", deny_unknown_fields)]
pub enum HealthModel {
    None,
    /// gavAI: `exhausted_in_a_row` deliveries that each used every attempt open the
    /// breaker for `open_seconds`.
    #[serde(rename_all = "camelCase")]
    Breaker {
        exhausted_in_a_row: u32,
        open_seconds: u64,
    },
    /// SmartChat: active / degraded / paused / disabled.
    #[serde(rename_all = "camelCase")]
    Smartchat {
        degrade_after_failures: u32,
        pause_after_failures: u32,
        pause_after_seconds: u64,
        disable_after_seconds: u64,
    },
}

/// How much of a failed text/JSON body the attempt record keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum SnippetLimit {
    /// Characters (Unicode scalar values).
    MaxChars(usize),
    /// Bytes, cut back to a character boundary.
    MaxBytes(usize),
}

impl SnippetLimit {
    /// How many body bytes the HTTP client must read to cut the snippet and tell
    /// whether it was truncated.
    pub fn read_bytes(self) -> usize {
        match self {
            SnippetLimit::MaxChars(n) => n.saturating_mul(4).min(MAX_SNIPPET_BYTES) + 1,
            SnippetLimit::MaxBytes(n) => n.min(MAX_SNIPPET_BYTES) + 1,
        }
    }

    /// Whether the limit can need more than [`MAX_SNIPPET_BYTES`] (a custom policy
    /// asking for it is refused; one stored before the cap is cut to it).
    pub fn within_cap(self) -> bool {
        match self {
            SnippetLimit::MaxChars(n) => n.saturating_mul(4) <= MAX_SNIPPET_BYTES,
            SnippetLimit::MaxBytes(n) => n <= MAX_SNIPPET_BYTES,
        }
    }
}

/// How settle reasons are spelled on the delivery.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ReasonStyle {
    /// Tanitar's dead reasons: RETRY_EXHAUSTED, ENDPOINT_GONE, ...
    Tanitar,
    /// snake_case causes: max_attempts, receiver_failures, deadline, ...
    Cause,
}

/// What happens when an endpoint cannot be used before sending (disabled, revoked,
/// unsafe address, no secret).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum UnusableEndpoint {
    /// A retryable failure that does not count toward receiver failures (Greatwait).
    Retry,
    /// The delivery settles at once with the matching reason (Tanitar, SmartChat, gavAI).
    Settle,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Retention {
    /// How long attempts and deliveries stay readable after they settle.
    pub settled_days: u32,
    /// How far back replays may reach.
    pub replay_window_days: u32,
}

/// One delivery policy. Serialised in the same camelCase form a user writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Policy {
    pub name: String,
    /// Attempts including the first.
    pub max_attempts: u32,
    /// Waits before attempts 2, 3, ...; the last one repeats when attempts remain.
    pub waits_seconds: Vec<f64>,
    pub wait_from: WaitFrom,
    pub jitter: Jitter,
    pub retry_after: Option<RetryAfterRule>,
    pub deadline: Deadline,
    /// Stop after this many receiver-caused failures (Greatwait: 5).
    pub receiver_failure_limit: Option<u32>,
    /// When set, a 4xx not in this list is terminal (Greatwait). When absent, every
    /// non-2xx answer is retryable.
    pub retryable_4xx: Option<Vec<u16>>,
    pub on_410: GoneHandling,
    pub redirects: Redirects,
    pub timeout_ms: u64,
    /// Extra header carrying the attempt number (Tanitar, SmartChat).
    pub attempt_header: Option<String>,
    pub health: HealthModel,
    pub snippet: SnippetLimit,
    pub reason_style: ReasonStyle,
    pub unusable_endpoint: UnusableEndpoint,
    pub retention: Retention,
}

/// A custom policy as written: every field optional, merged over `base` (a preset)
/// or over the neutral defaults.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct PolicySpec {
    base: Option<String>,
    name: Option<String>,
    max_attempts: Option<u32>,
    waits_seconds: Option<Vec<f64>>,
    wait_from: Option<WaitFrom>,
    jitter: Option<Jitter>,
    #[serde(default, deserialize_with = "explicit_option")]
    retry_after: Option<Option<RetryAfterRule>>,
    deadline: Option<Deadline>,
    #[serde(default, deserialize_with = "explicit_option")]
    receiver_failure_limit: Option<Option<u32>>,
    #[serde(default, deserialize_with = "explicit_option")]
    retryable_4xx: Option<Option<Vec<u16>>>,
    on_410: Option<GoneHandling>,
    redirects: Option<Redirects>,
    timeout_ms: Option<u64>,
    #[serde(default, deserialize_with = "explicit_option")]
    attempt_header: Option<Option<String>>,
    health: Option<HealthModel>,
    snippet: Option<SnippetLimit>,
    reason_style: Option<ReasonStyle>,
    unusable_endpoint: Option<UnusableEndpoint>,
    retention: Option<Retention>,
}

/// Lets `"field": null` mean "set to none" while an absent field means "keep the base".
fn explicit_option<'de, D, T>(d: D) -> Result<Option<Option<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(d).map(Some)
}

/// A policy that cannot be used, naming the field at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("policy field `{field}`: {message}")]
pub struct PolicyError {
    pub field: String,
    pub message: String,
}

fn err(field: &str, message: impl fmt::Display) -> PolicyError {
    PolicyError {
        field: field.to_owned(),
        message: message.to_string(),
    }
}

/// A number from the request as an error message repeats it: plain below 10^15, in
/// exponent form above, so `1e300` comes back as `1e300` and not as 301 digits.
fn echo_number(n: f64) -> String {
    if n.abs() < 1e15 {
        format!("{n}")
    } else {
        format!("{n:e}")
    }
}

const GREATWAIT_RETRYABLE_4XX: [u16; 12] = [401, 402, 403, 404, 405, 407, 408, 421, 423, 424, 425, 429];

impl Policy {
    pub fn greatwait() -> Policy {
        Policy {
            name: "greatwait".into(),
            max_attempts: 8,
            waits_seconds: vec![2.0, 5.0, 15.0, 60.0],
            wait_from: WaitFrom::AttemptEnd,
            jitter: Jitter { min: 1.0, max: 2.0 },
            retry_after: Some(RetryAfterRule {
                statuses: vec![StatusPattern::Exact(429)],
                cap_seconds: 3600,
            }),
            deadline: Deadline::Horizon {
                realtime_seconds: 900,
                bulk_seconds: 6 * 3600,
                add_long_running_allowance: true,
            },
            receiver_failure_limit: Some(5),
            retryable_4xx: Some(GREATWAIT_RETRYABLE_4XX.to_vec()),
            on_410: GoneHandling::AsStatus,
            redirects: Redirects::Never,
            timeout_ms: 10_000,
            attempt_header: None,
            health: HealthModel::None,
            snippet: SnippetLimit::MaxChars(4096),
            reason_style: ReasonStyle::Cause,
            unusable_endpoint: UnusableEndpoint::Retry,
            retention: Retention {
                settled_days: 30,
                replay_window_days: 7,
            },
        }
    }

    pub fn tanitar() -> Policy {
        Policy {
            name: "tanitar".into(),
            max_attempts: 8,
            waits_seconds: vec![60.0, 300.0, 1800.0, 7200.0, 21_600.0, 43_200.0, 86_400.0],
            wait_from: WaitFrom::AttemptStart,
            jitter: Jitter::NONE,
            retry_after: None,
            deadline: Deadline::None,
            receiver_failure_limit: None,
            retryable_4xx: None,
            on_410: GoneHandling::DeliveryGone,
            redirects: Redirects::Never,
            timeout_ms: 10_000,
            attempt_header: Some("tanitar-delivery-attempt".into()),
            health: HealthModel::None,
            snippet: SnippetLimit::MaxChars(4096),
            reason_style: ReasonStyle::Tanitar,
            unusable_endpoint: UnusableEndpoint::Settle,
            retention: Retention {
                settled_days: 30,
                replay_window_days: 30,
            },
        }
    }

    /// gavAI's published table is missing; the ladder is reconstructed as doubling
    /// from 128 s, which matches the documented "roughly 1 hour 6 minutes" (3,968 s).
    pub fn gavai() -> Policy {
        Policy {
            name: "gavai".into(),
            max_attempts: 6,
            waits_seconds: vec![128.0, 256.0, 512.0, 1024.0, 2048.0],
            wait_from: WaitFrom::AttemptEnd,
            jitter: Jitter::NONE,
            retry_after: None,
            deadline: Deadline::None,
            receiver_failure_limit: None,
            retryable_4xx: None,
            on_410: GoneHandling::AsStatus,
            redirects: Redirects::Never,
            timeout_ms: 10_000,
            attempt_header: None,
            health: HealthModel::Breaker {
                exhausted_in_a_row: 5,
                open_seconds: 3600,
            },
            snippet: SnippetLimit::MaxBytes(256),
            reason_style: ReasonStyle::Cause,
            unusable_endpoint: UnusableEndpoint::Settle,
            retention: Retention {
                settled_days: 7,
                replay_window_days: 7,
            },
        }
    }

    pub fn smartchat() -> Policy {
        Policy {
            name: "smartchat".into(),
            max_attempts: 9,
            waits_seconds: vec![30.0, 120.0, 600.0, 3600.0, 14_400.0, 43_200.0, 86_400.0, 172_800.0],
            wait_from: WaitFrom::AttemptEnd,
            jitter: Jitter { min: 0.8, max: 1.2 },
            retry_after: Some(RetryAfterRule {
                statuses: vec![StatusPattern::Exact(429), StatusPattern::Class(5)],
                cap_seconds: DAY,
            }),
            deadline: Deadline::ClampLast { after_seconds: 3 * DAY },
            receiver_failure_limit: None,
            retryable_4xx: None,
            on_410: GoneHandling::DisableEndpoint,
            redirects: Redirects::Never,
            timeout_ms: 10_000,
            attempt_header: Some("SmartChat-Delivery-Attempt".into()),
            health: HealthModel::Smartchat {
                degrade_after_failures: 5,
                pause_after_failures: 20,
                pause_after_seconds: 3 * DAY,
                disable_after_seconds: 7 * DAY,
            },
            snippet: SnippetLimit::MaxChars(4096),
            reason_style: ReasonStyle::Cause,
            unusable_endpoint: UnusableEndpoint::Settle,
            retention: Retention {
                settled_days: 30,
                replay_window_days: 7,
            },
        }
    }

    /// Neutral defaults a custom policy without `base` starts from.
    fn neutral() -> Policy {
        Policy {
            name: "custom".into(),
            max_attempts: 1,
            waits_seconds: vec![],
            wait_from: WaitFrom::AttemptEnd,
            jitter: Jitter::NONE,
            retry_after: None,
            deadline: Deadline::None,
            receiver_failure_limit: None,
            retryable_4xx: None,
            on_410: GoneHandling::AsStatus,
            redirects: Redirects::Never,
            timeout_ms: 10_000,
            attempt_header: None,
            health: HealthModel::None,
            snippet: SnippetLimit::MaxChars(4096),
            reason_style: ReasonStyle::Cause,
            unusable_endpoint: UnusableEndpoint::Settle,
            retention: Retention {
                settled_days: 30,
                replay_window_days: 7,
            },
        }
    }

    pub fn preset(name: &str) -> Option<Policy> {
        match name {
            "greatwait" => Some(Policy::greatwait()),
            "tanitar" => Some(Policy::tanitar()),
            "gavai" => Some(Policy::gavai()),
            "smartchat" => Some(Policy::smartchat()),
            _ => None,
        }
    }

    /// Reads a custom policy from JSON text (see `from_value`).
    pub fn from_json(text: &str) -> Result<Policy, PolicyError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| err("(document)", format!("invalid JSON: {e}")))?;
        Policy::from_value(&value)
    }

    /// A preset name (a JSON string) or a custom policy object. Unknown fields, wrong
    /// types and out-of-range values are errors naming the field.
    pub fn from_value(value: &serde_json::Value) -> Result<Policy, PolicyError> {
        if let Some(name) = value.as_str() {
            return Policy::preset(name).ok_or_else(|| {
                err(
                    "policy",
                    format!("unknown preset {name:?}; expected one of {}", PRESET_NAMES.join(", ")),
                )
            });
        }
        if !value.is_object() {
            return Err(err("policy", "must be a preset name or a policy object"));
        }
        let spec: PolicySpec = serde_path_to_error::deserialize(value).map_err(|e| {
            let path = e.path().to_string();
            let field = if path == "." { "(document)".to_owned() } else { path };
            err(&field, e.into_inner())
        })?;
        let mut p = match spec.base.as_deref() {
            None => Policy::neutral(),
            Some(b) => Policy::preset(b).ok_or_else(|| {
                err(
                    "base",
                    format!("unknown preset {b:?}; expected one of {}", PRESET_NAMES.join(", ")),
                )
            })?,
        };
        p.name = spec.name.unwrap_or_else(|| match &spec.base {
            Some(b) => format!("{b}-custom"),
            None => "custom".into(),
        });
        macro_rules! take {
            ($($f:ident),*) => { $( if let Some(v) = spec.$f { p.$f = v; } )* };
        }
        take!(
            max_attempts,
            waits_seconds,
            wait_from,
            jitter,
            retry_after,
            deadline,
            receiver_failure_limit,
            retryable_4xx,
            on_410,
            redirects,
            timeout_ms,
            attempt_header,
            health,
            snippet,
            reason_style,
            unusable_endpoint,
            retention
        );
        p.validate()?;
        Ok(p)
    }

    /// Checks every value; presets pass by construction (and by test).
    pub fn validate(&self) -> Result<(), PolicyError> {
        let name_ok = !self.name.is_empty()
            && self.name.len() <= 64
            && self
                .name
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"-_.".contains(&c));
        if !name_ok {
            return Err(err("name", "1-64 characters of letters, digits, '-', '_' or '.'"));
        }
        if !(1..=MAX_ATTEMPTS).contains(&self.max_attempts) {
            return Err(err("maxAttempts", format!("must be between 1 and {MAX_ATTEMPTS}")));
        }
        if self.max_attempts > 1 && self.waits_seconds.is_empty() {
            return Err(err("waitsSeconds", "needs at least one wait when maxAttempts > 1"));
        }
        if self.waits_seconds.len() > MAX_ATTEMPTS as usize {
            return Err(err("waitsSeconds", format!("at most {MAX_ATTEMPTS} waits")));
        }
        for (i, w) in self.waits_seconds.iter().enumerate() {
            if !w.is_finite() || *w < 0.0 || *w > MAX_WAIT_SECONDS {
                return Err(err(
                    &format!("waitsSeconds[{i}]"),
                    format!(
                        "must be between 0 and {MAX_WAIT_SECONDS} seconds, got {}",
                        echo_number(*w)
                    ),
                ));
            }
        }
        let j = self.jitter;
        if !(j.min.is_finite() && j.max.is_finite() && j.min > 0.0 && j.min <= j.max && j.max <= 10.0) {
            return Err(err("jitter", "needs 0 < min <= max <= 10"));
        }
        if let Some(ra) = &self.retry_after {
            if ra.statuses.is_empty() {
                return Err(err("retryAfter.statuses", "must list at least one status"));
            }
            if ra.cap_seconds == 0 || ra.cap_seconds > 30 * DAY {
                return Err(err("retryAfter.capSeconds", "must be between 1 and 2592000"));
            }
        }
        match self.deadline {
            Deadline::None => {}
            Deadline::Horizon {
                realtime_seconds,
                bulk_seconds,
                ..
            } => {
                if realtime_seconds == 0 || realtime_seconds > 30 * DAY {
                    return Err(err("deadline.realtimeSeconds", "must be between 1 and 2592000"));
                }
                if bulk_seconds == 0 || bulk_seconds > 30 * DAY {
                    return Err(err("deadline.bulkSeconds", "must be between 1 and 2592000"));
                }
            }
            Deadline::ClampLast { after_seconds } => {
                if after_seconds == 0 || after_seconds > 30 * DAY {
                    return Err(err("deadline.afterSeconds", "must be between 1 and 2592000"));
                }
            }
        }
        if self.receiver_failure_limit == Some(0) {
            return Err(err("receiverFailureLimit", "must be at least 1 (or null for no limit)"));
        }
        let codes = self.retryable_4xx.as_deref().unwrap_or_default();
        if let Some(bad) = codes.iter().find(|c| !(400..=499).contains(*c)) {
            return Err(err("retryable4xx", format!("{bad} is not a 4xx status")));
        }
        if !(1..=MAX_TIMEOUT_MS).contains(&self.timeout_ms) {
            return Err(err("timeoutMs", format!("must be between 1 and {MAX_TIMEOUT_MS}")));
        }
        if let Some(h) = &self.attempt_header {
            let token = !h.is_empty() && h.len() <= 64 && h.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-');
            if !token {
                return Err(err("attemptHeader", "must be 1-64 letters, digits or '-'"));
            }
        }
        match self.health {
            HealthModel::None => {}
            HealthModel::Breaker {
                exhausted_in_a_row,
                open_seconds,
            } => {
                if exhausted_in_a_row == 0 {
                    return Err(err("health.exhaustedInARow", "must be at least 1"));
                }
                if open_seconds == 0 || open_seconds > 30 * DAY {
                    return Err(err("health.openSeconds", "must be between 1 and 2592000"));
                }
            }
            HealthModel::Smartchat {
                degrade_after_failures,
                pause_after_failures,
                pause_after_seconds,
                disable_after_seconds,
            } => {
                if degrade_after_failures == 0 {
                    return Err(err("health.degradeAfterFailures", "must be at least 1"));
                }
                if pause_after_failures == 0 {
                    return Err(err("health.pauseAfterFailures", "must be at least 1"));
                }
                if pause_after_seconds == 0 || pause_after_seconds > 365 * DAY {
                    return Err(err("health.pauseAfterSeconds", "must be between 1 and 31536000"));
                }
                if disable_after_seconds == 0 || disable_after_seconds > 365 * DAY {
                    return Err(err("health.disableAfterSeconds", "must be between 1 and 31536000"));
                }
            }
        }
        match self.snippet {
            SnippetLimit::MaxChars(n) | SnippetLimit::MaxBytes(n) if n == 0 || !self.snippet.within_cap() => {
                return Err(err(
                    "snippet",
                    format!(
                        "must keep at most {MAX_SNIPPET_BYTES} bytes: maxChars between 1 and {}, maxBytes between 1 and {MAX_SNIPPET_BYTES}",
                        MAX_SNIPPET_BYTES / 4
                    ),
                ));
            }
            _ => {}
        }
        if self.retention.settled_days == 0 || self.retention.settled_days > 365 {
            return Err(err("retention.settledDays", "must be between 1 and 365"));
        }
        if self.retention.replay_window_days == 0 || self.retention.replay_window_days > 365 {
            return Err(err("retention.replayWindowDays", "must be between 1 and 365"));
        }
        let span_ms = self.longest_span_ms();
        if span_ms > MAX_LADDER_SPAN_DAYS * DAY * 1000 {
            return Err(err(
                "waitsSeconds",
                format!(
                    "the ladder may last up to {:.1} days from the planned instant (every attempt at its \
                     longest wait, jitter and Retry-After cap included, and its timeout); at most \
                     {MAX_LADDER_SPAN_DAYS}: an event keeps its payload {MAX_LADDER_SPAN_DAYS} days past \
                     that plus its retention. Lower maxAttempts or the waits, or set a deadline",
                    span_ms as f64 / (DAY * 1000) as f64
                ),
            ));
        }
        Ok(())
    }

    /// The longest a delivery can take from its planned instant to the end of its
    /// last attempt: every wait at its longest (jitter, or the Retry-After cap when
    /// longer) and every attempt at its timeout, cut by a deadline that bounds the
    /// last start. An endpoint's long-running allowance is not included.
    pub fn longest_span_ms(&self) -> u64 {
        let timeout = self.timeout_ms;
        let cap = self
            .retry_after
            .as_ref()
            .map_or(0, |ra| ra.cap_seconds.saturating_mul(1000));
        let mut total = timeout;
        for n in 2..=self.max_attempts {
            let wait = self.wait_bounds_ms(n).1.max(cap);
            total = total.saturating_add(wait).saturating_add(timeout);
        }
        let last_start = match self.deadline {
            Deadline::None => None,
            Deadline::Horizon {
                realtime_seconds,
                bulk_seconds,
                add_long_running_allowance: false,
            } => Some(realtime_seconds.max(bulk_seconds)),
            Deadline::Horizon { .. } => None,
            Deadline::ClampLast { after_seconds } => Some(after_seconds),
        };
        match last_start {
            Some(s) => total.min(s.saturating_mul(1000).saturating_add(timeout)),
            None => total,
        }
    }

    /// The base wait before attempt `number` (2-based), before jitter, in milliseconds.
    pub fn base_wait_ms(&self, number: u32) -> u64 {
        if number < 2 || self.waits_seconds.is_empty() {
            return 0;
        }
        let idx = ((number - 2) as usize).min(self.waits_seconds.len() - 1);
        secs_to_ms(self.waits_seconds[idx])
    }

    /// Lowest and highest possible wait before attempt `number`, jitter included.
    pub fn wait_bounds_ms(&self, number: u32) -> (u64, u64) {
        let base = self.base_wait_ms(number);
        (scale_ceil(base, self.jitter.min), scale_ceil(base, self.jitter.max))
    }

    /// The wait before attempt `number` with the jitter factor drawn from `u` in [0, 1].
    pub fn jittered_wait_ms(&self, number: u32, u: f64) -> u64 {
        let base = self.base_wait_ms(number);
        let u = if u.is_finite() { u.clamp(0.0, 1.0) } else { 0.0 };
        let factor = self.jitter.min + (self.jitter.max - self.jitter.min) * u;
        let (lo, hi) = self.wait_bounds_ms(number);
        scale_ceil(base, factor).clamp(lo, hi)
    }

    /// The attempt-number header sent with attempt `number` (1-based), when the
    /// policy has one: `("tanitar-delivery-attempt", "3")`.
    pub fn attempt_number_header(&self, number: u32) -> Option<(&str, String)> {
        self.attempt_header.as_deref().map(|name| (name, number.to_string()))
    }

    pub fn is_preset(&self) -> bool {
        Policy::preset(&self.name).as_ref() == Some(self)
    }
}

fn secs_to_ms(s: f64) -> u64 {
    (s * 1000.0).round().max(0.0) as u64
}

/// Rounds up so a jittered wait is never a millisecond shorter than its bound.
fn scale_ceil(ms: u64, factor: f64) -> u64 {
    let exact = ms as f64 * factor;
    let nearest = exact.round();
    // Float noise (3000 * 1.1 = 3300.0000000000005) must not add a millisecond.
    if (exact - nearest).abs() < 1e-6 {
        nearest as u64
    } else {
        exact.ceil() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn presets_are_valid_and_round_trip_through_json() {
        for name in PRESET_NAMES {
            let p = Policy::preset(name).expect("preset");
            p.validate().expect("valid");
            assert!(p.is_preset());
            let v = serde_json::to_value(&p).expect("serialise");
            assert_eq!(Policy::from_value(&v).expect("reparse"), p, "{name}");
        }
    }

    #[test]
    fn ladders_are_exact() {
        let g = Policy::greatwait();
        let waits: Vec<u64> = (2..=8).map(|n| g.base_wait_ms(n)).collect();
        assert_eq!(waits, [2_000, 5_000, 15_000, 60_000, 60_000, 60_000, 60_000]);
        assert_eq!(g.wait_bounds_ms(2), (2_000, 4_000));
        let t = Policy::tanitar();
        let waits: Vec<u64> = (2..=8).map(|n| t.base_wait_ms(n) / 1000).collect();
        assert_eq!(waits, [60, 300, 1800, 7200, 21_600, 43_200, 86_400]);
        let gv = Policy::gavai();
        let total: u64 = (2..=6).map(|n| gv.base_wait_ms(n)).sum();
        assert_eq!(total, 3_968_000);
        let s = Policy::smartchat();
        assert_eq!(s.wait_bounds_ms(2), (24_000, 36_000));
        assert_eq!(s.wait_bounds_ms(9), (138_240_000, 207_360_000));
    }

    #[test]
    fn custom_policy_over_a_base() {
        let p = Policy::from_value(&json!({"base": "gavai", "health": {"model": "breaker", "exhaustedInARow": 2, "openSeconds": 5}, "waitsSeconds": [1]}))
            .expect("valid");
        assert_eq!(p.name, "gavai-custom");
        assert_eq!(p.max_attempts, 6);
        assert_eq!(
            p.health,
            HealthModel::Breaker {
                exhausted_in_a_row: 2,
                open_seconds: 5
            }
        );
        let p = Policy::from_value(&json!({"base": "greatwait", "retryAfter": null})).expect("valid");
        assert_eq!(p.retry_after, None);
    }

    #[test]
    fn bad_policies_name_the_field() {
        let cases = [
            (json!("nosuch"), "policy"),
            (json!(42), "policy"),
            (json!({"base": "nosuch"}), "base"),
            (json!({"maxAttempts": 0}), "maxAttempts"),
            (json!({"maxAttempts": -1}), "maxAttempts"),
            (json!({"maxAttempts": 3, "waitsSeconds": [1, -2]}), "waitsSeconds[1]"),
            (json!({"maxAttempts": 3}), "waitsSeconds"),
            (json!({"maxAttemps": 3}), "maxAttemps"),
            (json!({"base": "tanitar", "jitter": {"min": 2, "max": 1}}), "jitter"),
            (
                json!({"base": "tanitar", "jitter": {"min": 1, "max": 1, "x": 1}}),
                "jitter.x",
            ),
            (
                json!({"base": "tanitar", "retryAfter": {"statuses": ["6xx"], "capSeconds": 1}}),
                "retryAfter.statuses[0]",
            ),
            (json!({"base": "tanitar", "timeoutMs": 0}), "timeoutMs"),
            (json!({"base": "tanitar", "waitFrom": "whenever"}), "waitFrom"),
            (
                json!({"base": "tanitar", "health": {"model": "breaker", "exhaustedInARow": 0, "openSeconds": 1}}),
                "health.exhaustedInARow",
            ),
            (json!({"base": "tanitar", "retryable4xx": [500]}), "retryable4xx"),
            (
                json!({"base": "tanitar", "attemptHeader": "bad header"}),
                "attemptHeader",
            ),
        ];
        for (input, field) in cases {
            let e = Policy::from_value(&input).expect_err("must fail");
            // An unknown key is named by its own path.
            assert_eq!(e.field, field, "{input}: {}", e.message);
        }
        assert_eq!(Policy::from_json("{").expect_err("bad json").field, "(document)");
    }

    #[test]
    fn an_out_of_range_wait_is_echoed_compactly() {
        let message = |w: Value| {
            Policy::from_value(&json!({"base": "tanitar", "waitsSeconds": [w]}))
                .expect_err("must fail")
                .message
        };
        assert_eq!(
            message(json!(1e300)),
            "must be between 0 and 2592000 seconds, got 1e300"
        );
        assert_eq!(message(json!(-2.5)), "must be between 0 and 2592000 seconds, got -2.5");
        assert_eq!(
            message(json!(2592001)),
            "must be between 0 and 2592000 seconds, got 2592001"
        );
    }
}
