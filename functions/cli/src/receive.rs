//! `courier receive`: a local webhook receiver for development. It verifies each
//! request's Standard Webhooks signature, prints it, and answers the scripted
//! statuses in turn (the last one repeats); a request that does not verify gets 401
//! and does not use up the script.

use crate::cli::ReceiveArgs;
use crate::exit::{Class, CliError, CliResult};
use crate::output::Output;
use crate::verify::{self, Failure};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use courier_core::signing::SigningSecret;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// `503,503,200` as statuses; each must be a valid HTTP status (100 to 599).
pub fn parse_answers(text: &str) -> CliResult<Vec<u16>> {
    let statuses: Vec<u16> = text
        .split(',')
        .map(|t| {
            let t = t.trim();
            t.parse::<u16>()
                .ok()
                .filter(|s| (100..=599).contains(s))
                .ok_or_else(|| CliError::usage(format!("--answer: {t:?} is not an HTTP status (100 to 599)")))
        })
        .collect::<CliResult<_>>()?;
    // `split` yields at least one token, so the script is never empty.
    Ok(statuses)
}

/// The scripted answers: the n-th verified webhook (from 0) gets the n-th status,
/// or the last one once the script has run out.
pub fn answer_for(script: &[u16], n: usize) -> u16 {
    script.get(n).or_else(|| script.last()).copied().unwrap_or(200)
}

struct Receiver {
    secret: SigningSecret,
    script: Vec<u16>,
    tolerance: u64,
    /// (requests seen, verified webhooks answered so far)
    counts: Mutex<(usize, usize)>,
    out: Mutex<Output>,
}

fn now_secs() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

async fn handle(
    State(r): State<Arc<Receiver>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> (StatusCode, &'static str) {
    let pairs: Vec<(String, String)> = headers
        .iter()
        .map(|(k, v)| {
            (
                k.as_str().to_owned(),
                String::from_utf8_lossy(v.as_bytes()).into_owned(),
            )
        })
        .collect();
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("-")
            .to_owned()
    };
    let result =
        verify::signed_from(&pairs).and_then(|s| verify::check(&r.secret, &s, &body, now_secs(), Some(r.tolerance)));
    let (n, status) = {
        let mut c = r.counts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        c.0 += 1;
        let status = match result {
            Ok(_) => {
                let s = answer_for(&r.script, c.1);
                c.1 += 1;
                s
            }
            Err(_) => 401,
        };
        (c.0, status)
    };
    let verdict = match &result {
        Ok(_) => "valid".to_owned(),
        Err(f) => format!("INVALID ({f})"),
    };
    let text = String::from_utf8_lossy(&body).into_owned();
    let mut out = r.out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let printed = if out.json {
        let parsed: Value = serde_json::from_slice(&body).unwrap_or(Value::String(text));
        out.json(
            &json!({
                "n": n,
                "method": method.as_str(),
                "path": uri.path(),
                "webhookId": header("webhook-id"),
                "attempt": header("webhook-attempt"),
                "attemptId": header("webhook-attempt-id"),
                "signatureValid": result.is_ok(),
                "failure": result.as_ref().err().map(Failure::to_string),
                "answered": status,
                "body": parsed,
            }),
            true,
        )
    } else {
        out.line(&format!(
            "#{n} {method} {}  webhook-id {}  attempt {}  signature {verdict}  -> {status}\n    {text}",
            uri.path(),
            header("webhook-id"),
            header("webhook-attempt"),
        ))
    };
    drop(out);
    // A print that failed is no reason to answer differently.
    let _ = printed;
    let code = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    (code, "")
}

pub async fn run(args: ReceiveArgs, out: Output) -> CliResult<()> {
    let secret = verify::parse_secret(&args.secret)?;
    let script = parse_answers(&args.answer)?;
    let addr = SocketAddr::new(args.host, args.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| CliError::new(Class::Unavailable, format!("cannot listen on {addr}: {e}")))?;
    let local = listener
        .local_addr()
        .map_err(|e| CliError::new(Class::Unavailable, format!("cannot read the listening address: {e}")))?;
    let receiver = Arc::new(Receiver {
        secret,
        script,
        tolerance: args.tolerance_seconds,
        counts: Mutex::new((0, 0)),
        out: Mutex::new(out),
    });
    {
        let mut out = receiver.out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let url = format!("http://{local}");
        if out.json {
            out.json(&json!({"listening": url}), true)?;
        } else {
            out.line(&format!("listening on {url} (Ctrl-C stops)"))?;
        }
    }
    let app = axum::Router::new().fallback(handle).with_state(receiver);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| CliError::new(Class::Unavailable, format!("the receiver stopped: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_runs_in_turn_and_its_last_status_repeats() {
        let s = parse_answers("503, 503,200").expect("script");
        assert_eq!(s, [503, 503, 200]);
        let answered: Vec<u16> = (0..5).map(|n| answer_for(&s, n)).collect();
        assert_eq!(answered, [503, 503, 200, 200, 200]);
    }

    #[test]
    fn bad_scripts_name_the_token() {
        assert_eq!(
            parse_answers("503,ok").map_err(|e| e.message),
            Err("--answer: \"ok\" is not an HTTP status (100 to 599)".to_owned())
        );
        assert_eq!(
            parse_answers("600").map_err(|e| e.message),
            Err("--answer: \"600\" is not an HTTP status (100 to 599)".to_owned())
        );
        assert_eq!(
            parse_answers("").map_err(|e| e.message),
            Err("--answer: \"\" is not an HTTP status (100 to 599)".to_owned())
        );
    }
}
