//! Where results go: stdout line by line (so `--watch` shows rows as they come),
//! colour only when stdout is a terminal and NO_COLOR is unset, and a closed pipe
//! (`courier ... | head`) ends the command quietly instead of failing it.

use crate::exit::{CliError, CliResult};
use crate::table::Style;
use std::io::{IsTerminal, Write};

pub struct Output {
    pub json: bool,
    pub style: Style,
    closed: bool,
}

impl Output {
    pub fn new(json: bool) -> Output {
        let color = !json && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
        Output {
            json,
            style: Style { color },
            closed: false,
        }
    }

    /// Writes one block of text and flushes it.
    pub fn line(&mut self, text: &str) -> CliResult<()> {
        if self.closed {
            return Ok(());
        }
        let mut stdout = std::io::stdout().lock();
        match writeln!(stdout, "{}", text.trim_end()).and_then(|()| stdout.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(e) => Err(CliError::failed(format!("cannot write the output: {e}"))),
        }
    }

    /// True once the reader went away: watchers stop polling.
    pub fn closed(&self) -> bool {
        self.closed
    }

    /// A JSON value, pretty for one object or compact for a stream of lines.
    pub fn json(&mut self, v: &serde_json::Value, compact: bool) -> CliResult<()> {
        let text = if compact {
            serde_json::to_string(v)
        } else {
            serde_json::to_string_pretty(v)
        }
        .map_err(|e| CliError::failed(e.to_string()))?;
        self.line(&text)
    }
}

impl Output {
    /// An API answer: as sent with `--json`, else rendered for people.
    pub fn answer(
        &mut self,
        a: &crate::client::Answer,
        human: impl FnOnce(&serde_json::Value, Style) -> String,
    ) -> CliResult<()> {
        if self.json {
            self.line(&a.raw)
        } else {
            let text = human(&a.value, self.style);
            self.line(&text)
        }
    }
}
