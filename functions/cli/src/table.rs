//! Plain-text tables with optional ANSI colour: columns padded to their widest
//! cell, colour added after padding so it never shifts a column.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Plain,
    Good,
    Warn,
    Bad,
    Hint,
    Dim,
}

impl Tone {
    fn ansi(self) -> Option<&'static str> {
        match self {
            Tone::Plain => None,
            Tone::Good => Some("32"),
            Tone::Warn => Some("33"),
            Tone::Bad => Some("31"),
            Tone::Hint => Some("36"),
            Tone::Dim => Some("2"),
        }
    }

    /// The tone of a delivery status or attempt state (unknown values stay plain:
    /// clients must accept values they do not know yet).
    pub fn of_state(s: &str) -> Tone {
        match s {
            "succeeded" => Tone::Good,
            "retryable_failure" | "ambiguous" | "awaiting_completion" | "retrying" | "degraded" | "paused" => {
                Tone::Warn
            }
            "terminal_failure" | "failed" | "dropped" | "disabled" | "revoked" => Tone::Bad,
            _ => Tone::Plain,
        }
    }

    pub fn of_remediation(s: &str) -> Tone {
        match s {
            "none" | "" | "-" => Tone::Dim,
            _ => Tone::Hint,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub fn paint(&self, text: &str, tone: Tone) -> String {
        match (self.color, tone.ansi()) {
            (true, Some(code)) => format!("\x1b[{code}m{text}\x1b[0m"),
            _ => text.to_owned(),
        }
    }
}

pub struct Table {
    headers: Vec<&'static str>,
    rows: Vec<Vec<(String, Tone)>>,
}

impl Table {
    pub fn new(headers: &[&'static str]) -> Table {
        Table {
            headers: headers.to_vec(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<(String, Tone)>) {
        self.rows.push(cells);
    }

    fn widths(&self) -> Vec<usize> {
        let mut w: Vec<usize> = self.headers.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, (text, _)) in row.iter().enumerate() {
                if let Some(slot) = w.get_mut(i) {
                    *slot = (*slot).max(text.chars().count());
                }
            }
        }
        w
    }

    fn line(cells: &[(String, Tone)], widths: &[usize], style: Style) -> String {
        let last = cells.len().saturating_sub(1);
        let mut out = String::new();
        for (i, (text, tone)) in cells.iter().enumerate() {
            let pad = widths.get(i).copied().unwrap_or(0).saturating_sub(text.chars().count());
            out.push_str(&style.paint(text, *tone));
            if i < last {
                out.push_str(&" ".repeat(pad + 2));
            }
        }
        out
    }

    /// The header line and every row.
    pub fn render(&self, style: Style) -> String {
        let widths = self.widths();
        let header: Vec<(String, Tone)> = self.headers.iter().map(|h| ((*h).to_owned(), Tone::Plain)).collect();
        let mut lines = vec![Table::line(&header, &widths, style)];
        for row in &self.rows {
            lines.push(Table::line(row, &widths, style));
        }
        lines.join("\n")
    }

    /// Only the rows, padded to the given widths: `--watch` prints rows as they come.
    pub fn render_row(row: &[(String, Tone)], widths: &[usize], style: Style) -> String {
        Table::line(row, widths, style)
    }

    pub fn header_line(headers: &[&'static str], widths: &[usize], style: Style) -> String {
        let cells: Vec<(String, Tone)> = headers.iter().map(|h| ((*h).to_owned(), Tone::Plain)).collect();
        Table::line(&cells, widths, style)
    }
}

/// `key: value` lines for one object, keys padded to the widest.
pub fn fields(pairs: &[(&str, String, Tone)], style: Style) -> String {
    let w = pairs.iter().map(|(k, _, _)| k.chars().count()).max().unwrap_or(0);
    pairs
        .iter()
        .map(|(k, v, tone)| format!("{k:<w$}  {}", style.paint(v, *tone)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_and_colour_does_not_shift_them() {
        let mut t = Table::new(&["#", "STATE", "NEXT"]);
        t.row(vec![
            ("1".into(), Tone::Plain),
            ("retryable_failure".into(), Tone::Warn),
            ("soon".into(), Tone::Plain),
        ]);
        t.row(vec![
            ("2".into(), Tone::Plain),
            ("succeeded".into(), Tone::Good),
            ("-".into(), Tone::Plain),
        ]);
        assert_eq!(
            t.render(Style { color: false }),
            "#  STATE              NEXT\n1  retryable_failure  soon\n2  succeeded          -"
        );
        assert_eq!(
            t.render(Style { color: true }).lines().nth(2),
            Some("2  \x1b[32msucceeded\x1b[0m          -")
        );
    }

    #[test]
    fn tones_of_states_and_remediations() {
        assert_eq!(Tone::of_state("succeeded"), Tone::Good);
        assert_eq!(Tone::of_state("retryable_failure"), Tone::Warn);
        assert_eq!(Tone::of_state("terminal_failure"), Tone::Bad);
        assert_eq!(Tone::of_state("some_future_state"), Tone::Plain);
        assert_eq!(Tone::of_remediation("none"), Tone::Dim);
        assert_eq!(Tone::of_remediation("inspect_receiver"), Tone::Hint);
    }

    #[test]
    fn fields_pad_their_keys() {
        let s = fields(
            &[
                ("id", "ep_1".into(), Tone::Plain),
                ("status", "active".into(), Tone::Plain),
            ],
            Style { color: false },
        );
        assert_eq!(s, "id      ep_1\nstatus  active");
    }
}
