//! What happened when Courier tried (or declined) to send one attempt. Outcomes are
//! data, not errors: a 500 from a receiver is as normal here as a 200.

use serde::{Deserialize, Serialize};

/// The response headers anything reads: classification (`content-type`), the
/// decision (`retry-after`) and the attempt record (those two and the first
/// request-id header, the last three here). Lower-case.
pub const READ_HEADERS: [&str; 5] = [
    "content-type",
    "retry-after",
    "x-request-id",
    "x-amzn-requestid",
    "cf-ray",
];

/// The parts of a receiver's answer that classification and the attempt record need.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ResponseSummary {
    pub status: u16,
    /// Header names lower-cased. Nothing reads any but [`READ_HEADERS`], so an HTTP
    /// adapter may keep only those; the record keeps fewer still (see
    /// [`ResponseSummary::kept_headers`]).
    pub headers: Vec<(String, String)>,
    /// The start of the body, at most what the policy's snippet needs (plus one
    /// character's worth, so truncation can be told).
    pub body: Vec<u8>,
    /// True when the receiver sent more body than was read.
    pub body_truncated: bool,
    /// Set when the attempt went to a destination in the customer's AWS account:
    /// `status` is then the HTTP status AWS's answer means
    /// (`destination::status_for`). Boxed: webhook answers carry none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destination: Option<Box<DestinationAnswer>>,
}

/// What AWS answered an attempt to a destination.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DestinationAnswer {
    /// AWS's error code (none on success).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
    /// The id the service gave the message (SQS, SNS, EventBridge event id, the
    /// Kinesis sequence number, the S3 object's ETag).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
}

impl ResponseSummary {
    pub fn new(status: u16) -> Self {
        ResponseSummary {
            status,
            ..Default::default()
        }
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_ascii_lowercase(), value.to_owned()));
        self
    }

    /// An answer from a destination, as the HTTP status it means.
    pub fn from_destination(status: u16, answer: DestinationAnswer) -> Self {
        ResponseSummary {
            status,
            destination: Some(Box::new(answer)),
            ..Default::default()
        }
    }

    pub fn with_body(mut self, body: &[u8]) -> Self {
        self.body = body.to_vec();
        self
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// content-type, retry-after and the first request-id header found, in that order.
    pub fn kept_headers(&self) -> Vec<(String, String)> {
        let (always, request_ids) = READ_HEADERS.split_at(2);
        let mut kept = Vec::new();
        for name in always {
            if let Some(v) = self.header(name) {
                kept.push(((*name).to_owned(), v.chars().take(256).collect()));
            }
        }
        if let Some((name, v)) = request_ids.iter().find_map(|n| self.header(n).map(|v| (*n, v))) {
            kept.push((name.to_owned(), v.chars().take(256).collect()));
        }
        kept
    }
}

/// A failure of the connection rather than an HTTP answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransportFailure {
    /// No complete answer within the timeout; the request may have been processed.
    Timeout,
    /// The connection dropped after the request was (at least partly) sent.
    ResetAfterSend,
    /// Connection refused: nothing was sent.
    Refused,
    /// The host name did not resolve.
    Dns,
    /// TLS handshake or certificate failure: nothing was sent.
    Tls,
    /// Any other failure before the request was sent.
    Other,
}

/// Reasons Courier declined to send, decided before any byte left.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PreSendFailure {
    EndpointDisabled,
    EndpointRevoked,
    EndpointPaused,
    /// The URL no longer passes admission (e.g. resolves to a private address).
    EndpointUnsafe,
    SigningSecretMissing,
    /// The endpoint's sealed credentials could not be opened (the key service was
    /// unreachable, or a value does not open under this endpoint): never sent
    /// without them, retried like any retryable failure.
    CredentialsUnavailable,
    PayloadUnavailable,
    /// The queue message does not match the stored delivery.
    IdentityConflict,
    /// gavAI breaker open: the delivery is dropped.
    BreakerOpen,
}

/// Why an endpoint's OAuth 2.0 token endpoint gave no token, so nothing was sent to
/// the receiver. Holds only what the token endpoint answered, never what Courier
/// sent it (the client secret travels in the request alone).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TokenFailure {
    /// The token endpoint's status, when it answered.
    pub status: Option<u16>,
    /// How reaching it failed, when it gave no answer.
    pub transport: Option<TransportFailure>,
    /// The start of its answer's body.
    pub body: Vec<u8>,
    /// True when it sent more body than was read.
    pub body_truncated: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum AttemptOutcome {
    Response(ResponseSummary),
    Transport {
        failure: TransportFailure,
    },
    PreSend {
        failure: PreSendFailure,
    },
    /// A long-running attempt (202) whose completion was never reported in time.
    CompletionTimedOut,
    /// The receiver reported the result of long-running work it accepted with 202.
    CompletionReported {
        succeeded: bool,
        detail: Option<String>,
    },
    /// A claimed attempt whose sender vanished (lease expired, no outcome recorded):
    /// the request may or may not have reached the receiver.
    Lost,
    /// The endpoint authenticates with OAuth 2.0 and no token could be had: the
    /// receiver was not contacted.
    TokenFailed(TokenFailure),
}

impl AttemptOutcome {
    pub fn status(&self) -> Option<u16> {
        match self {
            AttemptOutcome::Response(r) => Some(r.status),
            _ => None,
        }
    }

    pub fn response(&self) -> Option<&ResponseSummary> {
        match self {
            AttemptOutcome::Response(r) => Some(r),
            _ => None,
        }
    }

    pub fn transport(failure: TransportFailure) -> Self {
        AttemptOutcome::Transport { failure }
    }

    pub fn pre_send(failure: PreSendFailure) -> Self {
        AttemptOutcome::PreSend { failure }
    }
}
