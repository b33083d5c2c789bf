//! Courier's pure core: delivery policies (the four presets and custom ones),
//! classification of attempt outcomes, the retry decision, the endpoint health
//! machines, ids, time and signing.
//!
//! Nothing here performs I/O or reads the clock or an entropy source: time and
//! randomness are arguments, so every rule can be tested exactly. This crate must
//! never depend on tokio, the AWS SDK or reqwest.

pub mod classify;
pub mod decide;
pub mod health;
pub mod ids;
pub mod outcome;
pub mod policy;
pub mod retry_after;
pub mod rng;
pub mod signing;
pub mod simulate;
pub mod time;

pub use classify::{AttemptState, Classification, Diagnostic, ErrorClass, Remediation};
pub use decide::{Decision, DeliveryContext, LatencyClass, SettleReason};
pub use outcome::{AttemptOutcome, PreSendFailure, ResponseSummary, TransportFailure};
pub use policy::{Policy, PolicyError};
pub use rng::{RandomSource, SplitMix64};
pub use time::{TimeParseError, Timestamp};
