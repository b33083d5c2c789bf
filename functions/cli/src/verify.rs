//! Standard Webhooks verification as a receiver does it: the three `webhook-*`
//! headers, the timestamp within a tolerance of now, and a `v1,` signature that
//! matches under the endpoint's secret. Used by `courier verify` and `courier receive`.

use crate::cli::VerifyArgs;
use crate::exit::{CliError, CliResult};
use crate::output::Output;
use courier_core::signing::{self, SigningSecret};
use serde_json::{Value, json};
use std::io::Read;

/// The signed parts of one webhook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signed {
    pub id: String,
    pub timestamp: String,
    pub signature: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// A header is missing (names it).
    Missing(&'static str),
    TimestampNotANumber(String),
    /// How far the timestamp is from now, in seconds (negative: in the future).
    Stale {
        age_seconds: i64,
        tolerance: u64,
    },
    NoMatch,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Missing(h) => write!(f, "header {h} is missing"),
            Failure::TimestampNotANumber(t) => write!(f, "header webhook-timestamp {t:?} is not whole seconds"),
            Failure::Stale { age_seconds, tolerance } if *age_seconds < 0 => write!(
                f,
                "header webhook-timestamp is {} s in the future (tolerance {tolerance} s)",
                -age_seconds
            ),
            Failure::Stale { age_seconds, tolerance } => write!(
                f,
                "header webhook-timestamp is {age_seconds} s old (tolerance {tolerance} s)"
            ),
            Failure::NoMatch => f.write_str("header webhook-signature: no v1 signature matches this secret and body"),
        }
    }
}

/// Finds the three headers, by name in any case.
pub fn signed_from(headers: &[(String, String)]) -> Result<Signed, Failure> {
    let get = |name: &'static str| {
        headers
            .iter()
            .find(|(k, _)| k.trim().eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim().to_owned())
            .ok_or(Failure::Missing(name))
    };
    Ok(Signed {
        id: get("webhook-id")?,
        timestamp: get("webhook-timestamp")?,
        signature: get("webhook-signature")?,
    })
}

/// Checks one webhook at `now_secs`; `tolerance` None skips the timestamp check.
pub fn check(
    secret: &SigningSecret,
    signed: &Signed,
    body: &[u8],
    now_secs: i64,
    tolerance: Option<u64>,
) -> Result<i64, Failure> {
    let ts: i64 = signed
        .timestamp
        .parse()
        .map_err(|_| Failure::TimestampNotANumber(signed.timestamp.clone()))?;
    if let Some(tol) = tolerance {
        let age = now_secs.saturating_sub(ts);
        if age.unsigned_abs() > tol {
            return Err(Failure::Stale {
                age_seconds: age,
                tolerance: tol,
            });
        }
    }
    if signing::verify(secret, &signed.id, ts, body, &signed.signature) {
        Ok(ts)
    } else {
        Err(Failure::NoMatch)
    }
}

pub fn parse_secret(text: &str) -> CliResult<SigningSecret> {
    SigningSecret::parse(text.trim()).map_err(|e| CliError::usage(format!("--secret: {e}")))
}

/// Headers from a file: a JSON object of strings, or `name: value` lines (an HTTP
/// request's head pasted as is; a request line or blank lines are skipped).
pub fn parse_headers(text: &str) -> CliResult<Vec<(String, String)>> {
    if text.trim_start().starts_with('{') {
        let v: Value =
            serde_json::from_str(text).map_err(|e| CliError::usage(format!("--headers: not a JSON object: {e}")))?;
        let obj = v
            .as_object()
            .ok_or_else(|| CliError::usage("--headers: not a JSON object"))?;
        return obj
            .iter()
            .map(|(k, v)| match v.as_str() {
                Some(s) => Ok((k.clone(), s.to_owned())),
                None => Err(CliError::usage(format!("--headers: header {k} must be a string"))),
            })
            .collect();
    }
    Ok(text
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(k, _)| !k.trim().is_empty() && !k.contains(' '))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect())
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

pub fn run(args: VerifyArgs, out: &mut Output) -> CliResult<()> {
    let secret = parse_secret(&args.secret)?;
    let mut headers = match &args.headers {
        Some(p) => {
            let text = std::fs::read_to_string(p)
                .map_err(|e| CliError::usage(format!("--headers: cannot read {}: {e}", p.display())))?;
            parse_headers(&text)?
        }
        None => Vec::new(),
    };
    // Flags come first, so they win over the file.
    for (name, v) in [
        ("webhook-id", &args.webhook_id),
        ("webhook-timestamp", &args.webhook_timestamp),
        ("webhook-signature", &args.webhook_signature),
    ] {
        if let Some(v) = v {
            headers.insert(0, (name.to_owned(), v.clone()));
        }
    }
    let signed = signed_from(&headers).map_err(|f| {
        CliError::usage(format!(
            "{f} (give --headers FILE or --{})",
            match f {
                Failure::Missing(h) => h,
                _ => "webhook-id",
            }
        ))
    })?;
    let body = if args.body == "-" {
        let mut b = Vec::new();
        std::io::stdin()
            .read_to_end(&mut b)
            .map_err(|e| CliError::usage(format!("--body: cannot read stdin: {e}")))?;
        b
    } else {
        std::fs::read(&args.body).map_err(|e| CliError::usage(format!("--body: cannot read {}: {e}", args.body)))?
    };
    let tolerance = (!args.ignore_timestamp).then_some(args.tolerance_seconds);
    match check(&secret, &signed, &body, now_secs(), tolerance) {
        Ok(ts) => {
            if out.json {
                out.json(&json!({"valid": true, "webhookId": signed.id, "timestamp": ts}), true)
            } else {
                out.line(&format!("valid: webhook-id {} signed at {ts}", signed.id))
            }
        }
        Err(f) => {
            if out.json {
                out.json(
                    &json!({"valid": false, "webhookId": signed.id, "reason": f.to_string()}),
                    true,
                )?;
            }
            Err(CliError::failed(format!("not valid: {f}")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The Standard Webhooks reference vector.
    const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const BODY: &[u8] = br#"{"test": 2432232314}"#;
    const SIG: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
    const TS: i64 = 1_614_265_330;

    fn signed(sig: &str) -> Signed {
        Signed {
            id: "msg_p5jXN8AQM9LWM0D4loKWxJek".into(),
            timestamp: TS.to_string(),
            signature: sig.into(),
        }
    }

    #[test]
    fn the_reference_vector_verifies_within_the_tolerance() {
        let s = parse_secret(SECRET).expect("secret");
        assert_eq!(check(&s, &signed(SIG), BODY, TS + 300, Some(300)), Ok(TS));
        assert_eq!(check(&s, &signed(&format!("v1,bad {SIG}")), BODY, TS, Some(0)), Ok(TS));
        assert_eq!(check(&s, &signed(SIG), BODY, TS + 10_000, None), Ok(TS));
    }

    #[test]
    fn stale_forged_and_malformed_webhooks_are_named() {
        let s = parse_secret(SECRET).expect("secret");
        assert_eq!(
            check(&s, &signed(SIG), BODY, TS + 301, Some(300)),
            Err(Failure::Stale {
                age_seconds: 301,
                tolerance: 300
            })
        );
        assert_eq!(
            check(&s, &signed(SIG), BODY, TS - 400, Some(300)).map_err(|f| f.to_string()),
            Err("header webhook-timestamp is 400 s in the future (tolerance 300 s)".to_owned())
        );
        assert_eq!(check(&s, &signed(SIG), b"{}", TS, Some(300)), Err(Failure::NoMatch));
        let mut bad = signed(SIG);
        bad.timestamp = "soon".into();
        assert_eq!(
            check(&s, &bad, BODY, TS, None),
            Err(Failure::TimestampNotANumber("soon".into()))
        );
        assert_eq!(
            parse_secret("abc").map_err(|e| e.message),
            Err("--secret: signing secret must start with whsec_".to_owned())
        );
    }

    #[test]
    fn headers_come_as_lines_or_json() {
        let lines = "POST /hook HTTP/1.1\nWebhook-Id: msg_1\nwebhook-timestamp: 5\r\nwebhook-signature: v1,abc\n\n";
        let h = parse_headers(lines).expect("lines");
        assert_eq!(
            signed_from(&h),
            Ok(Signed {
                id: "msg_1".into(),
                timestamp: "5".into(),
                signature: "v1,abc".into()
            })
        );
        let h = parse_headers(r#"{"webhook-id": "msg_2", "webhook-timestamp": "6"}"#).expect("json");
        assert_eq!(signed_from(&h), Err(Failure::Missing("webhook-signature")));
        let e = parse_headers(r#"{"webhook-id": 1}"#).expect_err("not a string");
        assert_eq!(e.message, "--headers: header webhook-id must be a string");
    }
}
