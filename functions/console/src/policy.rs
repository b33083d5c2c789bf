//! The console's two policy routes, pure computation over the policy core with no
//! stored data and so no API key: `/console/policy/show` (the ladder and recovery
//! window the endpoint page draws) and `/console/policy/simulate` (the policy
//! explorer: the same simulation as `courier policy simulate --json`).
//! Bad input is a problem+json 400 whose `code` is `validation_failed` and whose
//! detail names the query parameter or policy field at fault.

use crate::Reply;
use crate::headers::{NO_STORE, with_security};
use courier_core::Policy;
use courier_core::decide::LatencyClass;
use courier_core::rng::SplitMix64;
use courier_core::simulate::{self, SimOptions};
use serde_json::{Value, json};

/// A policy in a query is at most this long (a complete custom policy is ~1 KB).
pub const MAX_QUERY: usize = 16 * 1024;

/// At most this many scripted outcomes (no policy has more than 100 attempts).
pub const MAX_OUTCOMES: usize = 100;

struct Bad(String);

pub(crate) fn show(query: &str) -> Reply {
    answer(show_json(query))
}

pub(crate) fn simulate(query: &str) -> Reply {
    answer(simulate_json(query))
}

fn show_json(query: &str) -> Result<Value, Bad> {
    let params = params(query, &["policy", "latencyClass"])?;
    let policy = policy_param(&params)?;
    let latency = latency_param(&params)?;
    serde_json::to_value(simulate::show(&policy, latency)).map_err(|e| Bad(e.to_string()))
}

fn simulate_json(query: &str) -> Result<Value, Bad> {
    let params = params(
        query,
        &["policy", "latencyClass", "outcomes", "seed", "attemptDurationMs"],
    )?;
    let policy = policy_param(&params)?;
    let latency = latency_param(&params)?;
    let outcomes = get(&params, "outcomes").ok_or_else(|| Bad("query parameter `outcomes` is required".into()))?;
    let tokens = simulate::parse_outcomes(outcomes).map_err(|e| Bad(format!("query parameter `outcomes`: {e}")))?;
    if tokens.len() > MAX_OUTCOMES {
        return Err(Bad(format!(
            "query parameter `outcomes`: at most {MAX_OUTCOMES} outcomes"
        )));
    }
    let seed = number(&params, "seed", u64::MAX)?.unwrap_or(0);
    let duration = number(&params, "attemptDurationMs", policy.timeout_ms)?.unwrap_or(0);
    let opts = SimOptions {
        attempt_duration_ms: duration,
        latency_class: latency,
    };
    let report = simulate::simulate(&policy, &tokens, opts, &mut SplitMix64::new(seed));
    serde_json::to_value(report).map_err(|e| Bad(e.to_string()))
}

fn answer(result: Result<Value, Bad>) -> Reply {
    let (status, content_type, body) = match result {
        Ok(v) => (200, "application/json", v),
        Err(Bad(detail)) => (
            400,
            "application/problem+json",
            json!({
                "type": "https://courier.dev/problems/validation-failed",
                "title": "Validation failed",
                "status": 400,
                "code": "validation_failed",
                "detail": detail,
            }),
        ),
    };
    Reply {
        status,
        headers: with_security(content_type, NO_STORE),
        body: serde_json::to_vec(&body).unwrap_or_default(),
    }
}

fn params(query: &str, allowed: &[&str]) -> Result<Vec<(String, String)>, Bad> {
    if query.len() > MAX_QUERY {
        return Err(Bad(format!("the query is longer than {MAX_QUERY} bytes")));
    }
    let mut out: Vec<(String, String)> = Vec::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (k, v) = (decode(k), decode(v));
        if !allowed.contains(&k.as_str()) {
            return Err(Bad(format!(
                "unknown query parameter `{k}`; allowed: {}",
                allowed.join(", ")
            )));
        }
        if out.iter().any(|(seen, _)| *seen == k) {
            return Err(Bad(format!("query parameter `{k}` is given twice")));
        }
        out.push((k, v));
    }
    Ok(out)
}

fn decode(s: &str) -> String {
    let spaced = s.replace('+', " ");
    percent_encoding::percent_decode_str(&spaced)
        .decode_utf8_lossy()
        .into_owned()
}

fn get<'a>(params: &'a [(String, String)], name: &str) -> Option<&'a str> {
    params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

/// `policy` is a preset's name (bare or as a JSON string) or a JSON policy object.
fn policy_param(params: &[(String, String)]) -> Result<Policy, Bad> {
    let raw = get(params, "policy").ok_or_else(|| Bad("query parameter `policy` is required".into()))?;
    let value = serde_json::from_str::<Value>(raw).unwrap_or_else(|_| Value::String(raw.trim().to_owned()));
    Policy::from_value(&value).map_err(|e| {
        if e.field == "policy" {
            Bad(format!("query parameter `policy`: {}", e.message))
        } else {
            Bad(format!("query parameter `policy`, field `{}`: {}", e.field, e.message))
        }
    })
}

fn latency_param(params: &[(String, String)]) -> Result<LatencyClass, Bad> {
    match get(params, "latencyClass") {
        None | Some("realtime") => Ok(LatencyClass::Realtime),
        Some("bulk") => Ok(LatencyClass::Bulk),
        Some(other) => Err(Bad(format!(
            "query parameter `latencyClass` must be realtime or bulk, got {other:?}"
        ))),
    }
}

fn number(params: &[(String, String)], name: &str, max: u64) -> Result<Option<u64>, Bad> {
    get(params, name)
        .map(|v| {
            v.parse::<u64>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| Bad(format!("query parameter `{name}` must be a whole number 0-{max}")))
        })
        .transpose()
}
