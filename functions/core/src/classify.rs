//! Classification of one attempt outcome under a policy: the attempt's state,
//! diagnostic, remediation, error class and whether it counts as a receiver-caused
//! failure. This is the vocabulary users read in the attempt log.

use crate::decide::SettleReason;
use crate::outcome::{AttemptOutcome, PreSendFailure, ResponseSummary, TokenFailure, TransportFailure};
use crate::policy::{GoneHandling, MAX_SNIPPET_BYTES, Policy, SnippetLimit, UnusableEndpoint};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttemptState {
    Succeeded,
    RetryableFailure,
    TerminalFailure,
    Ambiguous,
    /// A 202 for long-running work; the result comes through the completion call.
    AwaitingCompletion,
}

/// The classified cause. Clients must tolerate values they do not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Diagnostic {
    Delivered,
    HttpRetryable,
    RateLimited,
    HttpRefused,
    HttpTerminal,
    NetworkAmbiguous,
    CompletionTimedOut,
    AcceptedLongRunning,
    /// The receiver reported that long-running work it accepted failed.
    CompletionFailed,
    EndpointUnavailable,
    EndpointUnsafe,
    EndpointGone,
    EndpointDisabled,
    EndpointRevoked,
    EndpointPaused,
    SigningSecretMissing,
    /// The endpoint's credentials could not be opened (key service unreachable):
    /// nothing was sent, a retry follows.
    CredentialsUnavailable,
    BreakerOpen,
    PayloadUnavailable,
    DuplicateInflight,
    IdentityConflict,
    /// The endpoint's OAuth 2.0 token endpoint gave no token (wrong client
    /// credentials, unreachable, an unusable answer): nothing was sent.
    ReceiverAuthFailed,
    /// A destination in the customer's AWS account refused the message (access
    /// denied, a refused AssumeRole, a payload over its limit, a bad parameter).
    DestinationRefused,
    /// The destination's queue, topic, bus, stream or bucket no longer exists.
    DestinationGone,
    /// The destination's service throttled the call.
    DestinationThrottled,
    /// The destination's service failed (its 5xx).
    DestinationUnavailable,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Remediation {
    None,
    InspectReceiver,
    ReviewRetryPolicy,
    ReviewEndpoint,
    ReplacePayload,
    ReviewBeforeRedelivery,
    ContactSupport,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorClass {
    Status,
    Redirect,
    Timeout,
    Tls,
    Network,
    Dns,
    Unknown,
}

macro_rules! wire_names {
    ($($t:ident { $($variant:ident => $wire:literal),* $(,)? })*) => {$(
        impl $t {
            /// The snake_case name used on the wire (serde's name for the variant).
            pub fn wire_name(self) -> &'static str {
                match self {
                    $($t::$variant => $wire,)*
                }
            }
            /// [`Self::wire_name`], owned.
            pub fn as_str(&self) -> String {
                self.wire_name().to_owned()
            }
            /// Every value, in declaration order.
            pub const VARIANTS: &'static [$t] = &[$($t::$variant),*];
        }
    )*};
}
// Spelled out rather than asked of serde on every attempt (a JSON value and two
// strings per name); a test checks each against serde's own.
wire_names! {
    AttemptState {
        Succeeded => "succeeded",
        RetryableFailure => "retryable_failure",
        TerminalFailure => "terminal_failure",
        Ambiguous => "ambiguous",
        AwaitingCompletion => "awaiting_completion",
    }
    Diagnostic {
        Delivered => "delivered",
        HttpRetryable => "http_retryable",
        RateLimited => "rate_limited",
        HttpRefused => "http_refused",
        HttpTerminal => "http_terminal",
        NetworkAmbiguous => "network_ambiguous",
        CompletionTimedOut => "completion_timed_out",
        AcceptedLongRunning => "accepted_long_running",
        CompletionFailed => "completion_failed",
        EndpointUnavailable => "endpoint_unavailable",
        EndpointUnsafe => "endpoint_unsafe",
        EndpointGone => "endpoint_gone",
        EndpointDisabled => "endpoint_disabled",
        EndpointRevoked => "endpoint_revoked",
        EndpointPaused => "endpoint_paused",
        SigningSecretMissing => "signing_secret_missing",
        CredentialsUnavailable => "credentials_unavailable",
        BreakerOpen => "breaker_open",
        PayloadUnavailable => "payload_unavailable",
        DuplicateInflight => "duplicate_inflight",
        IdentityConflict => "identity_conflict",
        ReceiverAuthFailed => "receiver_auth_failed",
        DestinationRefused => "destination_refused",
        DestinationGone => "destination_gone",
        DestinationThrottled => "destination_throttled",
        DestinationUnavailable => "destination_unavailable",
    }
    Remediation {
        None => "none",
        InspectReceiver => "inspect_receiver",
        ReviewRetryPolicy => "review_retry_policy",
        ReviewEndpoint => "review_endpoint",
        ReplacePayload => "replace_payload",
        ReviewBeforeRedelivery => "review_before_redelivery",
        ContactSupport => "contact_support",
    }
    ErrorClass {
        Status => "status",
        Redirect => "redirect",
        Timeout => "timeout",
        Tls => "tls",
        Network => "network",
        Dns => "dns",
        Unknown => "unknown",
    }
}

/// A duplicate queue message for a delivery whose attempt is already in flight is not
/// an attempt: nothing is recorded as a failure, nothing counts toward any limit, and
/// the message is dropped. This is the label the drop carries in logs and metrics.
pub const DUPLICATE_INFLIGHT: (Diagnostic, Remediation) =
    (Diagnostic::DuplicateInflight, Remediation::ReviewBeforeRedelivery);

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Classification {
    pub state: AttemptState,
    pub diagnostic: Diagnostic,
    pub remediation: Remediation,
    pub error_class: Option<ErrorClass>,
    pub counts_toward_receiver_failures: bool,
    /// Set when this outcome settles the delivery at once whatever attempts remain.
    pub settles: Option<SettleReason>,
    /// SmartChat's 410: the endpoint is disabled.
    pub disables_endpoint: bool,
}

fn c(
    state: AttemptState,
    diagnostic: Diagnostic,
    remediation: Remediation,
    error_class: Option<ErrorClass>,
    counts: bool,
) -> Classification {
    Classification {
        state,
        diagnostic,
        remediation,
        error_class,
        counts_toward_receiver_failures: counts,
        settles: None,
        disables_endpoint: false,
    }
}

impl Policy {
    /// Classifies an outcome. `long_running` is true when the endpoint has a
    /// long-running allowance, which turns a 202 into "accepted, not done".
    pub fn classify(&self, outcome: &AttemptOutcome, long_running: bool) -> Classification {
        use AttemptState::*;
        use Diagnostic as D;
        use Remediation as R;
        match outcome {
            AttemptOutcome::Response(r) if r.destination.is_some() => {
                destination_labels(self.classify_status(r.status, false))
            }
            AttemptOutcome::Response(r) => self.classify_status(r.status, long_running),
            AttemptOutcome::Transport { failure } => {
                let (state, diag, rem, class) = match failure {
                    TransportFailure::Timeout => (
                        Ambiguous,
                        D::NetworkAmbiguous,
                        R::ReviewBeforeRedelivery,
                        ErrorClass::Timeout,
                    ),
                    TransportFailure::ResetAfterSend => (
                        Ambiguous,
                        D::NetworkAmbiguous,
                        R::ReviewBeforeRedelivery,
                        ErrorClass::Network,
                    ),
                    TransportFailure::Refused => (
                        RetryableFailure,
                        D::EndpointUnavailable,
                        R::ReviewEndpoint,
                        ErrorClass::Network,
                    ),
                    TransportFailure::Dns => (
                        RetryableFailure,
                        D::EndpointUnavailable,
                        R::ReviewEndpoint,
                        ErrorClass::Dns,
                    ),
                    TransportFailure::Tls => (
                        RetryableFailure,
                        D::EndpointUnavailable,
                        R::ReviewEndpoint,
                        ErrorClass::Tls,
                    ),
                    TransportFailure::Other => (
                        RetryableFailure,
                        D::EndpointUnavailable,
                        R::ReviewEndpoint,
                        ErrorClass::Unknown,
                    ),
                };
                c(state, diag, rem, Some(class), true)
            }
            AttemptOutcome::CompletionTimedOut => c(
                Ambiguous,
                D::CompletionTimedOut,
                R::ReviewBeforeRedelivery,
                Some(ErrorClass::Timeout),
                true,
            ),
            AttemptOutcome::CompletionReported { succeeded: true, .. } => {
                c(Succeeded, D::Delivered, R::None, None, false)
            }
            AttemptOutcome::CompletionReported { succeeded: false, .. } => c(
                RetryableFailure,
                D::CompletionFailed,
                R::InspectReceiver,
                Some(ErrorClass::Unknown),
                true,
            ),
            AttemptOutcome::Lost => c(
                Ambiguous,
                D::NetworkAmbiguous,
                R::ReviewBeforeRedelivery,
                Some(ErrorClass::Unknown),
                true,
            ),
            AttemptOutcome::PreSend { failure } => self.classify_pre_send(*failure),
            // The receiver's own door: a failure of that endpoint like any other,
            // counted as the receiver's, whatever the token endpoint's answer was.
            AttemptOutcome::TokenFailed(failure) => {
                let class = match (failure.status, failure.transport) {
                    (Some(_), _) => ErrorClass::Status,
                    (None, Some(TransportFailure::Timeout)) => ErrorClass::Timeout,
                    (None, Some(TransportFailure::Tls)) => ErrorClass::Tls,
                    (None, Some(TransportFailure::Dns)) => ErrorClass::Dns,
                    (None, Some(TransportFailure::Refused | TransportFailure::ResetAfterSend)) => ErrorClass::Network,
                    (None, _) => ErrorClass::Unknown,
                };
                c(
                    RetryableFailure,
                    D::ReceiverAuthFailed,
                    R::ReviewEndpoint,
                    Some(class),
                    true,
                )
            }
        }
    }

    fn classify_status(&self, status: u16, long_running: bool) -> Classification {
        use AttemptState::*;
        use Diagnostic as D;
        use Remediation as R;
        let st = Some(ErrorClass::Status);
        match status {
            202 if long_running => c(AwaitingCompletion, D::AcceptedLongRunning, R::None, None, false),
            200..=299 => c(Succeeded, D::Delivered, R::None, None, false),
            300..=399 => c(
                RetryableFailure,
                D::HttpRetryable,
                R::ReviewRetryPolicy,
                Some(ErrorClass::Redirect),
                true,
            ),
            410 if self.on_410 == GoneHandling::DeliveryGone => Classification {
                settles: Some(SettleReason::EndpointGone),
                ..c(TerminalFailure, D::EndpointGone, R::InspectReceiver, st, true)
            },
            410 if self.on_410 == GoneHandling::DisableEndpoint => Classification {
                settles: Some(SettleReason::EndpointDisabled),
                disables_endpoint: true,
                ..c(TerminalFailure, D::EndpointGone, R::ReviewEndpoint, st, true)
            },
            429 => c(RetryableFailure, D::RateLimited, R::ReviewRetryPolicy, st, false),
            408 | 500..=599 => c(RetryableFailure, D::HttpRetryable, R::ReviewRetryPolicy, st, true),
            400..=499 => match &self.retryable_4xx {
                Some(list) if !list.contains(&status) => Classification {
                    settles: Some(SettleReason::TerminalStatus),
                    ..c(TerminalFailure, D::HttpTerminal, R::InspectReceiver, st, true)
                },
                _ => c(RetryableFailure, D::HttpRefused, R::InspectReceiver, st, true),
            },
            // 1xx as a final answer, or a status outside the HTTP range.
            _ => c(
                RetryableFailure,
                D::HttpRetryable,
                R::ReviewRetryPolicy,
                Some(ErrorClass::Unknown),
                true,
            ),
        }
    }

    fn classify_pre_send(&self, failure: PreSendFailure) -> Classification {
        use AttemptState::*;
        use Diagnostic as D;
        use Remediation as R;
        let terminal = |diag, rem, reason| Classification {
            settles: Some(reason),
            ..c(TerminalFailure, diag, rem, None, false)
        };
        match failure {
            PreSendFailure::PayloadUnavailable => terminal(
                D::PayloadUnavailable,
                R::ReplacePayload,
                SettleReason::PayloadUnavailable,
            ),
            PreSendFailure::IdentityConflict => {
                terminal(D::IdentityConflict, R::ContactSupport, SettleReason::IdentityConflict)
            }
            PreSendFailure::BreakerOpen => terminal(D::BreakerOpen, R::ReviewEndpoint, SettleReason::BreakerOpen),
            // Courier's own key service, not the receiver nor the endpoint's settings:
            // always retried, never counted against the receiver.
            PreSendFailure::CredentialsUnavailable => c(
                RetryableFailure,
                D::CredentialsUnavailable,
                R::ContactSupport,
                None,
                false,
            ),
            other => {
                let (diag, reason, retry_diag) = match other {
                    PreSendFailure::EndpointDisabled => (
                        D::EndpointDisabled,
                        SettleReason::EndpointDisabled,
                        D::EndpointUnavailable,
                    ),
                    PreSendFailure::EndpointRevoked => (
                        D::EndpointRevoked,
                        SettleReason::EndpointRevoked,
                        D::EndpointUnavailable,
                    ),
                    PreSendFailure::EndpointPaused => {
                        (D::EndpointPaused, SettleReason::EndpointPaused, D::EndpointUnavailable)
                    }
                    PreSendFailure::EndpointUnsafe => {
                        (D::EndpointUnsafe, SettleReason::EndpointUnsafe, D::EndpointUnsafe)
                    }
                    _ => (
                        D::SigningSecretMissing,
                        SettleReason::SigningSecretMissing,
                        D::EndpointUnavailable,
                    ),
                };
                match self.unusable_endpoint {
                    UnusableEndpoint::Retry => c(RetryableFailure, retry_diag, R::ReviewEndpoint, None, false),
                    UnusableEndpoint::Settle => terminal(diag, R::ReviewEndpoint, reason),
                }
            }
        }
    }

    /// The failure snippet of a failed text or JSON answer, and whether it was cut.
    /// Successful answers and binary bodies keep no snippet.
    pub fn failure_snippet(&self, response: &ResponseSummary) -> Option<(String, bool)> {
        if (200..=299).contains(&response.status) || response.body.is_empty() {
            return None;
        }
        let textual = match response.header("content-type") {
            None => true,
            Some(ct) => {
                let ct = ct.to_ascii_lowercase();
                let mime = ct.split(';').next().unwrap_or("").trim();
                mime.starts_with("text/")
                    || mime == "application/json"
                    || mime.ends_with("+json")
                    || mime == "application/problem+json"
                    || mime == "application/xml"
                    || mime.ends_with("+xml")
            }
        };
        if !textual {
            return None;
        }
        Some(cut_snippet(self.snippet, &response.body, response.body_truncated))
    }
}

impl Policy {
    /// The attempt record's snippet for a token endpoint that gave no token: its
    /// status and the start of its answer, or how reaching it failed. A 2xx body
    /// is never kept (it may hold a token), whatever the adapter read.
    pub fn token_failure_snippet(&self, failure: &TokenFailure) -> (String, bool) {
        let head = match (failure.status, failure.transport) {
            (Some(status @ 200..=299), _) => format!("token endpoint answered {status} without a usable token"),
            (Some(status), _) => format!("token endpoint answered {status}"),
            (None, Some(transport)) => format!("token endpoint not reached ({})", transport_name(transport)),
            (None, None) => "token endpoint gave no token".to_owned(),
        };
        let keeps_body = !failure.body.is_empty() && !matches!(failure.status, Some(200..=299));
        if !keeps_body {
            return (head, false);
        }
        let (body, cut) = cut_snippet(self.snippet, &failure.body, failure.body_truncated);
        (format!("{head}: {body}"), cut)
    }
}

fn transport_name(failure: TransportFailure) -> &'static str {
    match failure {
        TransportFailure::Timeout => "timeout",
        TransportFailure::ResetAfterSend => "connection reset",
        TransportFailure::Refused => "connection refused",
        TransportFailure::Dns => "name does not resolve",
        TransportFailure::Tls => "TLS handshake failed",
        TransportFailure::Other => "connection failed",
    }
}

/// The labels of a destination's answer: the policy judged the status it means
/// (state, settling, health); the diagnostic says it was a destination, and a
/// refusal or a vanished target points at the endpoint's configuration (its role,
/// its target), not at a receiver.
fn destination_labels(cls: Classification) -> Classification {
    use Diagnostic as D;
    let (diagnostic, remediation) = match cls.diagnostic {
        D::HttpRetryable => (D::DestinationUnavailable, cls.remediation),
        D::RateLimited => (D::DestinationThrottled, cls.remediation),
        D::HttpRefused | D::HttpTerminal => (D::DestinationRefused, Remediation::ReviewEndpoint),
        D::EndpointGone => (D::DestinationGone, Remediation::ReviewEndpoint),
        other => (other, cls.remediation),
    };
    Classification {
        diagnostic,
        remediation,
        ..cls
    }
}

/// Cuts a body prefix to the limit, never splitting a character. `more_unread` says
/// the receiver sent more than `body`; a read that stopped inside a multi-byte
/// character leaves a partial sequence at the end, which is dropped rather than shown
/// as U+FFFD. Other invalid UTF-8 is replaced by U+FFFD, and the byte limit applies to
/// the text kept, so a snippet never exceeds it.
pub fn cut_snippet(limit: SnippetLimit, body: &[u8], more_unread: bool) -> (String, bool) {
    let body = if more_unread {
        &body[..body.len() - partial_tail(body)]
    } else {
        body
    };
    let text = String::from_utf8_lossy(body);
    let (kept, cut) = match limit {
        SnippetLimit::MaxChars(n) => match text.char_indices().nth(n) {
            Some((idx, _)) => (&text[..idx], true),
            None => (&text[..], more_unread),
        },
        SnippetLimit::MaxBytes(n) => (cut_to_bytes(&text, n), text.len() > n || more_unread),
    };
    // A policy stored before the cap may ask for more: never keep more than it.
    let capped = cut_to_bytes(kept, MAX_SNIPPET_BYTES);
    (capped.to_owned(), cut || capped.len() < kept.len())
}

/// The longest prefix of `text` of at most `n` bytes that ends on a character.
fn cut_to_bytes(text: &str, n: usize) -> &str {
    if text.len() <= n {
        return text;
    }
    let mut end = n;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// How many bytes at the end of `body` begin a multi-byte character without
/// completing it (0 to 3).
fn partial_tail(body: &[u8]) -> usize {
    let n = body.len();
    for back in 1..=n.min(3) {
        let b = body[n - back];
        if b & 0xC0 == 0x80 {
            continue; // a continuation byte: the lead is further back
        }
        let needs = match b {
            0xF0..=0xFF => 4,
            0xE0..=0xEF => 3,
            0xC0..=0xDF => 2,
            _ => 1,
        };
        return if needs > back { back } else { 0 };
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn serde_name<T: Serialize>(v: T) -> String {
        serde_json::to_value(v)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default()
    }

    #[test]
    fn a_failed_token_fetch_is_the_endpoint_s_retryable_failure() {
        let policy = Policy::greatwait();
        let refused = AttemptOutcome::TokenFailed(TokenFailure {
            status: Some(401),
            body: br#"{"error":"invalid_client"}"#.to_vec(),
            ..TokenFailure::default()
        });
        let cls = policy.classify(&refused, false);
        assert_eq!(
            (cls.state, cls.diagnostic, cls.remediation, cls.error_class),
            (
                AttemptState::RetryableFailure,
                Diagnostic::ReceiverAuthFailed,
                Remediation::ReviewEndpoint,
                Some(ErrorClass::Status)
            )
        );
        assert!(cls.counts_toward_receiver_failures);
        assert_eq!(cls.settles, None);
        let AttemptOutcome::TokenFailed(failure) = refused else {
            unreachable!()
        };
        assert_eq!(
            policy.token_failure_snippet(&failure),
            (
                r#"token endpoint answered 401: {"error":"invalid_client"}"#.to_owned(),
                false
            )
        );
        let unreached = TokenFailure {
            transport: Some(TransportFailure::Tls),
            ..TokenFailure::default()
        };
        assert_eq!(
            policy
                .classify(&AttemptOutcome::TokenFailed(unreached.clone()), false)
                .error_class,
            Some(ErrorClass::Tls)
        );
        assert_eq!(
            policy.token_failure_snippet(&unreached),
            ("token endpoint not reached (TLS handshake failed)".to_owned(), false)
        );
        // A 2xx body may carry a token: never kept.
        let unusable = TokenFailure {
            status: Some(200),
            body: br#"{"access_token":"t0k3n"}"#.to_vec(),
            ..TokenFailure::default()
        };
        assert_eq!(
            policy.token_failure_snippet(&unusable),
            ("token endpoint answered 200 without a usable token".to_owned(), false)
        );
    }

    #[test]
    fn wire_names_are_serdes() {
        for v in AttemptState::VARIANTS {
            assert_eq!(v.wire_name(), serde_name(v));
        }
        for v in Diagnostic::VARIANTS {
            assert_eq!(v.wire_name(), serde_name(v));
        }
        for v in Remediation::VARIANTS {
            assert_eq!(v.wire_name(), serde_name(v));
        }
        for v in ErrorClass::VARIANTS {
            assert_eq!(v.as_str(), serde_name(v));
        }
    }
}
