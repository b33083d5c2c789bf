//! Shell completions and man pages, generated from the command definitions so they
//! never drift from what the parser accepts.

use crate::cli::Cli;
use crate::exit::{CliError, CliResult};
use crate::output::Output;
use clap::CommandFactory;
use std::path::Path;

pub fn completions(shell: clap_complete::Shell, out: &mut Output) -> CliResult<()> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "courier", &mut buf);
    out.line(&String::from_utf8_lossy(&buf))
}

fn page(cmd: &clap::Command) -> CliResult<Vec<u8>> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut buf)
        .map_err(|e| CliError::failed(format!("cannot render the man page: {e}")))?;
    Ok(buf)
}

/// Writes `courier.1` and one page per subcommand (`courier-endpoints-create.1`, ...);
/// returns the file names written.
pub fn write_pages(dir: &Path) -> CliResult<Vec<String>> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::usage(format!("--out-dir {}: {e}", dir.display())))?;
    let mut cmd = Cli::command();
    cmd.build();
    let mut written = Vec::new();
    write_tree(&cmd, "courier", dir, &mut written)?;
    Ok(written)
}

fn write_tree(cmd: &clap::Command, name: &str, dir: &Path, written: &mut Vec<String>) -> CliResult<()> {
    let named = cmd.clone().name(name.to_owned()).version(env!("CARGO_PKG_VERSION"));
    let file = format!("{name}.1");
    std::fs::write(dir.join(&file), page(&named)?)
        .map_err(|e| CliError::usage(format!("--out-dir {}: {e}", dir.display())))?;
    written.push(file);
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        write_tree(sub, &format!("{name}-{}", sub.get_name()), dir, written)?;
    }
    Ok(())
}

pub fn man(out_dir: Option<&Path>, out: &mut Output) -> CliResult<()> {
    match out_dir {
        Some(dir) => {
            let written = write_pages(dir)?;
            out.line(&written.join("\n"))
        }
        None => {
            let top = page(&Cli::command())?;
            out.line(&String::from_utf8_lossy(&top))
        }
    }
}
