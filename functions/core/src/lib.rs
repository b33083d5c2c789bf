//! Courier's pure core: delivery policies (the four presets and custom ones),
//! classification of attempt outcomes, the retry decision, the endpoint health
//! machines, ids, time, signing, schedule recurrence, rate limits (with in-flight caps)
//! subscription matching, and sealing credentials with a data key.
//!
//! Nothing here performs I/O or reads the clock or an entropy source: time and
//! randomness are arguments, so every rule can be tested exactly. This crate must
//! never depend on tokio, the AWS SDK or reqwest.

pub mod classify;
pub mod decide;
pub mod destination;
pub mod headers;
pub mod health;
pub mod hex;
pub mod ids;
pub mod lanes;
pub mod limiter;
pub mod operational;
pub mod outcome;
pub mod policy;
pub mod rate_limit;
pub mod recurrence;
pub mod retry_after;
pub mod rng;
pub mod sealing;
pub mod signing;
pub mod simulate;
pub mod subscription;
pub mod time;

/// Deserialises a value parsed from string text as it is read: going through an
/// owned `String` first would allocate for every id and timestamp read. Shared by
/// the ids' and `Timestamp`'s `Deserialize`.
pub(crate) struct ParsedStr<T, E>(pub(crate) fn(&str) -> Result<T, E>);

impl<T, E: std::fmt::Display> serde::de::Visitor<'_> for ParsedStr<T, E> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a string")
    }
    fn visit_str<Er: serde::de::Error>(self, v: &str) -> Result<T, Er> {
        (self.0)(v).map_err(Er::custom)
    }
}

pub use classify::{AttemptState, Classification, Diagnostic, ErrorClass, Remediation};
pub use decide::{Decision, DeliveryContext, LatencyClass, SettleReason};
pub use outcome::{AttemptOutcome, DestinationAnswer, PreSendFailure, ResponseSummary, TransportFailure};
pub use policy::{Policy, PolicyError};
pub use rng::{RandomSource, SplitMix64};
pub use time::{TimeParseError, Timestamp};
