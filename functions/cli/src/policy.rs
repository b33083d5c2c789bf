//! `courier policy show|simulate`: the policy core run locally (no AWS, no network).

use crate::cli::{Latency, PolicyCmd};
use crate::exit::{CliError, CliResult};
use crate::output::Output;
use courier_core::Policy;
use courier_core::decide::LatencyClass;
use courier_core::rng::SplitMix64;
use courier_core::simulate::{self, SimOptions};

impl From<Latency> for LatencyClass {
    fn from(l: Latency) -> Self {
        match l {
            Latency::Realtime => LatencyClass::Realtime,
            Latency::Bulk => LatencyClass::Bulk,
        }
    }
}

fn load_policy(arg: &str) -> CliResult<Policy> {
    if let Some(p) = Policy::preset(arg) {
        return Ok(p);
    }
    let text = std::fs::read_to_string(arg).map_err(|e| {
        CliError::usage(format!(
            "{arg:?} is neither a preset (greatwait, tanitar, gavai, smartchat) nor a readable file: {e}"
        ))
    })?;
    Policy::from_json(&text).map_err(|e| CliError::usage(format!("{arg}: {e}")))
}

pub fn run(cmd: PolicyCmd, out: &mut Output) -> CliResult<()> {
    match cmd {
        PolicyCmd::Show { policy, latency_class } => {
            let p = load_policy(&policy)?;
            let s = simulate::show(&p, latency_class.into());
            if out.json {
                let text = serde_json::to_string_pretty(&s).map_err(|e| CliError::failed(e.to_string()))?;
                out.line(&text)
            } else {
                out.line(&simulate::render_show(&s))
            }
        }
        PolicyCmd::Simulate {
            policy,
            outcomes,
            seed,
            attempt_duration_ms,
            latency_class,
        } => {
            let p = load_policy(&policy)?;
            let tokens = simulate::parse_outcomes(&outcomes).map_err(|e| CliError::usage(e.to_string()))?;
            if attempt_duration_ms > p.timeout_ms {
                return Err(CliError::usage(format!(
                    "--attempt-duration-ms {attempt_duration_ms} is longer than policy {}'s timeout ({} ms): \
                     an attempt that slow is a timeout (use the `timeout` outcome)",
                    p.name, p.timeout_ms
                )));
            }
            let opts = SimOptions {
                attempt_duration_ms,
                latency_class: latency_class.into(),
            };
            let report = simulate::simulate(&p, &tokens, opts, &mut SplitMix64::new(seed));
            if out.json {
                let text = serde_json::to_string(&report).map_err(|e| CliError::failed(e.to_string()))?;
                out.line(&text)
            } else {
                out.line(&simulate::render_simulation(&report, seed))
            }
        }
    }
}
