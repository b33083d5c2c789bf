//! `courier`: the command-line client of the Courier API, a local webhook receiver
//! and verifier for development, and the policy tools. This file only parses the
//! arguments, runs the chosen command and turns its outcome into an exit code.

mod applications;
mod cli;
mod client;
mod deliveries;
mod docs_gen;
mod endpoints;
mod event_types;
mod events;
mod exit;
mod input;
mod output;
mod paging;
mod policy;
mod profile;
mod receive;
mod render;
mod schedules;
mod stats;
mod table;
mod verify;
mod watch;

use clap::Parser;
use cli::{Cli, Command};
use exit::{CliError, CliResult};
use output::Output;
use std::io::Write;
use std::process::ExitCode;

async fn api(cli: Cli, mut out: Output) -> CliResult<()> {
    let target = profile::from_environment(&cli.conn)?;
    let client = client::Client::new(target)?;
    match cli.command {
        Command::Endpoints(c) => endpoints::run(c, &client, &mut out).await,
        Command::Events(c) => events::run(c, &client, &mut out).await,
        Command::Deliveries(c) => deliveries::run(c, &client, &mut out).await,
        Command::Attempts(c) => deliveries::attempts(c, &client, &mut out).await,
        Command::Applications(c) => applications::run(c, &client, &mut out).await,
        Command::EventTypes(c) => event_types::run(c, &client, &mut out).await,
        Command::Schedules(c) => schedules::run(c, &client, &mut out).await,
        Command::Stats(a) => stats::run(a, &client, &mut out).await,
        _ => Err(CliError::failed("not an API command")),
    }
}

fn runtime() -> CliResult<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::failed(format!("cannot start the async runtime: {e}")))
}

fn run(cli: Cli) -> CliResult<()> {
    let mut out = Output::new(cli.conn.json);
    match cli.command {
        Command::Policy(c) => policy::run(c, &mut out),
        Command::Verify(a) => verify::run(a, &mut out),
        Command::Completions { shell } => docs_gen::completions(shell, &mut out),
        Command::Man { out_dir } => docs_gen::man(out_dir.as_deref(), &mut out),
        Command::Receive(a) => runtime()?.block_on(receive::run(a, out)),
        _ => runtime()?.block_on(api(cli, out)),
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "courier: {e}");
            ExitCode::from(e.class.code())
        }
    }
}
