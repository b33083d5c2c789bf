//! The names of the headers Courier itself sets on an attempt or reads on a
//! completion report, beside Standard Webhooks' `webhook-id`, `webhook-timestamp`
//! and `webhook-signature`.

/// The attempt's number.
pub const HEADER_ATTEMPT: &str = "webhook-attempt";
/// The attempt's id.
pub const HEADER_ATTEMPT_ID: &str = "webhook-attempt-id";
/// Sent to long-running endpoints; the receiver presents it to report completion.
pub const HEADER_COMPLETION_TOKEN: &str = "webhook-completion-token";
