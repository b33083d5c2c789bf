//! Failure classes and their exit codes, so scripts can tell "fix your input" from
//! "no such thing" from "not allowed" from "try again later".

use serde_json::Value;

/// Why a command failed; each class has its own exit code (documented in
/// `courier --help` and docs/cli.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Nothing wrong with the input, but the outcome is a failure (a webhook that does
    /// not verify, an answer the CLI cannot read).
    Failed,
    /// Bad arguments or local input, or a request the API rejected as invalid.
    Usage,
    NotFound,
    /// The API understood and declined: unauthorized, conflict, breaker open.
    Refused,
    /// The API could not be reached or asked to come back later (429, 5xx).
    Unavailable,
    /// A `--watch` ran out of time before the delivery settled.
    Unsettled,
    Interrupted,
}

impl Class {
    pub fn code(self) -> u8 {
        match self {
            Class::Failed => 1,
            Class::Usage => 2,
            Class::NotFound => 3,
            Class::Refused => 4,
            Class::Unavailable => 5,
            Class::Unsettled => 6,
            Class::Interrupted => 130,
        }
    }

    /// The class of an HTTP error status.
    pub fn of_status(status: u16) -> Class {
        match status {
            404 => Class::NotFound,
            401 | 403 | 409 => Class::Refused,
            429 | 500..=599 => Class::Unavailable,
            400..=499 => Class::Usage,
            _ => Class::Failed,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    pub class: Class,
    pub message: String,
}

impl CliError {
    pub fn new(class: Class, message: impl Into<String>) -> Self {
        CliError {
            class,
            message: message.into(),
        }
    }

    pub fn usage(message: impl Into<String>) -> Self {
        CliError::new(Class::Usage, message)
    }

    pub fn failed(message: impl Into<String>) -> Self {
        CliError::new(Class::Failed, message)
    }

    /// One line from an API error answer: the problem's code and detail when the body
    /// is problem+json, else the status and the start of the body.
    pub fn from_answer(status: u16, body: &[u8]) -> Self {
        let class = Class::of_status(status);
        let problem: Option<Value> = serde_json::from_slice(body).ok();
        let text = |k: &str| {
            problem
                .as_ref()
                .and_then(|p| p.get(k))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let message = match (text("code"), text("detail")) {
            (Some(code), Some(detail)) => {
                let retry = problem
                    .as_ref()
                    .and_then(|p| p.get("retryAfterSeconds"))
                    .and_then(Value::as_u64)
                    .map(|s| format!(" (retry after {s} s)"))
                    .unwrap_or_default();
                format!("{status} {code}: {detail}{retry}")
            }
            _ => {
                let raw = String::from_utf8_lossy(body);
                let first: String = raw.lines().next().unwrap_or("").chars().take(200).collect();
                if first.is_empty() {
                    format!("the API answered {status}")
                } else {
                    format!("the API answered {status}: {first}")
                }
            }
        };
        CliError { class, message }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

pub type CliResult<T> = Result<T, CliError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_their_class() {
        let cases = [
            (400, 2),
            (413, 2),
            (415, 2),
            (422, 2),
            (405, 2),
            (404, 3),
            (401, 4),
            (403, 4),
            (409, 4),
            (429, 5),
            (500, 5),
            (503, 5),
            (302, 1),
        ];
        for (status, code) in cases {
            assert_eq!(Class::of_status(status).code(), code, "status {status}");
        }
    }

    #[test]
    fn a_problem_becomes_one_line_naming_the_field() {
        let body = br#"{"type":"https://courier.dev/problems/validation-failed","title":"Validation failed","status":422,"code":"validation_failed","detail":"url: must be an absolute http(s) URL"}"#;
        let e = CliError::from_answer(422, body);
        assert_eq!(e.class, Class::Usage);
        assert_eq!(e.message, "422 validation_failed: url: must be an absolute http(s) URL");
    }

    #[test]
    fn retry_after_is_named_and_other_bodies_are_cut_to_a_line() {
        let body = br#"{"code":"rate_limited","detail":"50 requests per second","retryAfterSeconds":2}"#;
        assert_eq!(
            CliError::from_answer(429, body).message,
            "429 rate_limited: 50 requests per second (retry after 2 s)"
        );
        assert_eq!(
            CliError::from_answer(502, b"Bad Gateway\nmore").message,
            "the API answered 502: Bad Gateway"
        );
        assert_eq!(CliError::from_answer(503, b"").message, "the API answered 503");
    }
}
