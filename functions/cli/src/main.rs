//! `courier`: the command-line client. For now: `courier policy show` and
//! `courier policy simulate`, which run the policy core locally (no AWS, no network).

use clap::{Parser, Subcommand, ValueEnum};
use courier_core::Policy;
use courier_core::decide::LatencyClass;
use courier_core::rng::SplitMix64;
use courier_core::simulate::{self, SimOptions};
use std::io::Write;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "courier",
    version,
    about = "Courier webhook delivery engine: command-line client"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Inspect delivery policies.
    #[command(subcommand)]
    Policy(PolicyCmd),
}

#[derive(Clone, Copy, ValueEnum)]
enum Latency {
    Realtime,
    Bulk,
}

impl From<Latency> for LatencyClass {
    fn from(l: Latency) -> Self {
        match l {
            Latency::Realtime => LatencyClass::Realtime,
            Latency::Bulk => LatencyClass::Bulk,
        }
    }
}

#[derive(Subcommand)]
enum PolicyCmd {
    /// Show a policy's ladder, wait bounds, recovery window and deadlines.
    Show {
        /// A preset (greatwait, tanitar, gavai, smartchat) or a JSON policy file.
        policy: String,
        #[arg(long, value_enum, default_value = "realtime")]
        latency_class: Latency,
        #[arg(long)]
        json: bool,
    },
    /// Play one delivery against scripted receiver outcomes.
    Simulate {
        /// A preset (greatwait, tanitar, gavai, smartchat) or a JSON policy file.
        policy: String,
        /// Comma-separated, one per attempt: 503, 429:120 (Retry-After seconds),
        /// timeout, reset, refused, dns, tls. The last one repeats.
        #[arg(long)]
        outcomes: String,
        /// Seed for the jitter.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// How long each attempt takes (a timeout takes at least the policy timeout).
        #[arg(long, default_value_t = 0)]
        attempt_duration_ms: u64,
        #[arg(long, value_enum, default_value = "realtime")]
        latency_class: Latency,
        /// Print one JSON object instead of a table.
        #[arg(long)]
        json: bool,
    },
}

fn load_policy(arg: &str) -> Result<Policy, String> {
    if let Some(p) = Policy::preset(arg) {
        return Ok(p);
    }
    let text = std::fs::read_to_string(arg).map_err(|e| {
        format!("{arg:?} is neither a preset (greatwait, tanitar, gavai, smartchat) nor a readable file: {e}")
    })?;
    Policy::from_json(&text).map_err(|e| format!("{arg}: {e}"))
}

fn run(cli: Cli) -> Result<String, String> {
    match cli.command {
        Command::Policy(PolicyCmd::Show {
            policy,
            latency_class,
            json,
        }) => {
            let p = load_policy(&policy)?;
            let s = simulate::show(&p, latency_class.into());
            if json {
                serde_json::to_string_pretty(&s).map_err(|e| e.to_string())
            } else {
                Ok(simulate::render_show(&s))
            }
        }
        Command::Policy(PolicyCmd::Simulate {
            policy,
            outcomes,
            seed,
            attempt_duration_ms,
            latency_class,
            json,
        }) => {
            let p = load_policy(&policy)?;
            let tokens = simulate::parse_outcomes(&outcomes).map_err(|e| e.to_string())?;
            if attempt_duration_ms > p.timeout_ms {
                return Err(format!(
                    "--attempt-duration-ms {attempt_duration_ms} is longer than policy {}'s timeout ({} ms): \
                     an attempt that slow is a timeout (use the `timeout` outcome)",
                    p.name, p.timeout_ms
                ));
            }
            let opts = SimOptions {
                attempt_duration_ms,
                latency_class: latency_class.into(),
            };
            let report = simulate::simulate(&p, &tokens, opts, &mut SplitMix64::new(seed));
            if json {
                serde_json::to_string(&report).map_err(|e| e.to_string())
            } else {
                Ok(simulate::render_simulation(&report, seed))
            }
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(out) => {
            // Not println!: a closed pipe (`courier policy show x | head`) is not a panic.
            let mut stdout = std::io::stdout().lock();
            match writeln!(stdout, "{}", out.trim_end()).and_then(|()| stdout.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    let _ = writeln!(std::io::stderr(), "courier: cannot write the output: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "courier: {e}");
            ExitCode::from(2)
        }
    }
}
