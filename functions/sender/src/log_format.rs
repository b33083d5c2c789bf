//! The sender's JSON log lines, written straight into the line:
//! `{"timestamp":…,"level":…,"fields":{…},"span":{…,"name":…}}`, the shape of
//! tracing-subscriber's JSON format without its span list. That format collects an
//! event's fields into a map of JSON values, and reads each span's stored fields
//! back from JSON text before writing them again. Here span fields are stored as
//! JSON members once, when the span is created, and copied into each line as they are.

use std::fmt::{self, Write};
use tracing::field::{Field, Visit};
use tracing::{Event, Subscriber};
use tracing_subscriber::field::RecordFields;
use tracing_subscriber::fmt::format::Writer;
use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields, FormattedFields};
use tracing_subscriber::registry::LookupSpan;

/// Fields as JSON members (`"name":value,…`, no braces), for spans and events alike.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonMembers;

impl<'writer> FormatFields<'writer> for JsonMembers {
    fn format_fields<R: RecordFields>(&self, writer: Writer<'writer>, fields: R) -> fmt::Result {
        let mut visitor = Members::new(writer);
        fields.record(&mut visitor);
        visitor.result
    }

    /// Values recorded on a span later are appended to its members.
    fn add_fields(
        &self,
        current: &'writer mut FormattedFields<Self>,
        fields: &tracing::span::Record<'_>,
    ) -> fmt::Result {
        let first = current.fields.is_empty();
        let mut visitor = Members::new(current.as_writer());
        visitor.first = first;
        fields.record(&mut visitor);
        visitor.result
    }
}

/// The line format; see the module documentation.
#[derive(Debug, Clone, Copy, Default)]
pub struct JsonLine;

impl<S> FormatEvent<S, JsonMembers> for JsonLine
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, JsonMembers>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        writer.write_str("{\"timestamp\":\"")?;
        SystemTime.format_time(&mut writer)?;
        write!(writer, "\",\"level\":\"{}\",\"fields\":{{", event.metadata().level())?;
        let mut fields = Members::new(writer.by_ref());
        event.record(&mut fields);
        fields.result?;
        writer.write_char('}')?;
        let span = event
            .parent()
            .and_then(|id| ctx.span(id))
            .or_else(|| ctx.lookup_current());
        if let Some(span) = span {
            writer.write_str(",\"span\":{")?;
            let extensions = span.extensions();
            let stored = extensions
                .get::<FormattedFields<JsonMembers>>()
                .map_or("", |f| f.fields.as_str());
            writer.write_str(stored)?;
            if !stored.is_empty() {
                writer.write_char(',')?;
            }
            writer.write_str("\"name\":")?;
            string(&mut writer, span.name())?;
            writer.write_char('}')?;
        }
        writer.write_str("}\n")
    }
}

/// Writes each visited field as a JSON member.
struct Members<'w> {
    writer: Writer<'w>,
    first: bool,
    result: fmt::Result,
}

impl<'w> Members<'w> {
    fn new(writer: Writer<'w>) -> Self {
        Members {
            writer,
            first: true,
            result: Ok(()),
        }
    }

    /// `"name":` and then the value `value` writes.
    fn member(&mut self, field: &Field, value: impl FnOnce(&mut Writer<'w>) -> fmt::Result) {
        if self.result.is_err() {
            return;
        }
        let separator = if self.first { "" } else { "," };
        self.first = false;
        self.result = self
            .writer
            .write_str(separator)
            .and_then(|()| string(&mut self.writer, field.name()))
            .and_then(|()| self.writer.write_char(':'))
            .and_then(|()| value(&mut self.writer));
    }
}

impl Visit for Members<'_> {
    fn record_str(&mut self, field: &Field, value: &str) {
        self.member(field, |w| string(w, value));
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        self.member(field, |w| quoted(w, format_args!("{value:?}")));
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        self.member(field, |w| quoted(w, format_args!("{value}")));
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.member(field, |w| write!(w, "{value}"));
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.member(field, |w| write!(w, "{value}"));
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.member(field, |w| write!(w, "{value}"));
    }

    fn record_f64(&mut self, field: &Field, value: f64) {
        // JSON has no NaN or infinity: those are written as text.
        if value.is_finite() {
            self.member(field, |w| write!(w, "{value}"));
        } else {
            self.member(field, |w| write!(w, "\"{value}\""));
        }
    }
}

/// `text` as a JSON string (written directly: field names and most values are plain
/// text, and going through the formatting machinery would cost each of them).
fn string(w: &mut impl Write, text: &str) -> fmt::Result {
    w.write_char('"')?;
    Escaped(&mut *w).write_str(text)?;
    w.write_char('"')
}

/// Formatted text as a JSON string, escaped as it is written (no intermediate copy).
fn quoted(w: &mut impl Write, text: fmt::Arguments<'_>) -> fmt::Result {
    w.write_char('"')?;
    Escaped(&mut *w).write_fmt(text)?;
    w.write_char('"')
}

/// Writes text escaped for the inside of a JSON string.
struct Escaped<W>(W);

impl<W: Write> Write for Escaped<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let mut rest = s;
        while let Some(at) = rest.find(|c: char| c == '"' || c == '\\' || c < ' ') {
            self.0.write_str(&rest[..at])?;
            let c = rest[at..].chars().next().unwrap_or_default();
            match c {
                '"' => self.0.write_str("\\\"")?,
                '\\' => self.0.write_str("\\\\")?,
                '\n' => self.0.write_str("\\n")?,
                '\r' => self.0.write_str("\\r")?,
                '\t' => self.0.write_str("\\t")?,
                other => write!(self.0, "\\u{:04x}", u32::from(other))?,
            }
            rest = &rest[at + c.len_utf8()..];
        }
        self.0.write_str(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_as_json_strings_are() {
        let text = "quote \" backslash \\ newline \n tab \t bell \u{7} é ✓";
        let mut out = String::new();
        string(&mut out, text).expect("to a string");
        assert_eq!(out, r#""quote \" backslash \\ newline \n tab \t bell \u0007 é ✓""#);
        assert_eq!(serde_json::from_str::<String>(&out).ok().as_deref(), Some(text));
    }

    #[derive(Debug)]
    struct Refused;

    impl fmt::Display for Refused {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("refused \"here\"")
        }
    }

    impl std::error::Error for Refused {}

    #[test]
    fn lines_carry_the_event_s_fields_and_its_span_s_as_written() {
        let buffer = crate::log_buffer::tests::buffer();
        tracing::subscriber::with_default(crate::logging(buffer).finish(), || {
            let span =
                tracing::info_span!("attempt", delivery_id = %"dlv_1", attempt = 2u32, trigger = tracing::field::Empty);
            span.record("trigger", "retry");
            span.in_scope(|| {
                tracing::info!(
                    ok = true,
                    delta = -3i64,
                    ratio = 0.5f64,
                    odd = f64::NAN,
                    error = &Refused as &(dyn std::error::Error + 'static),
                    path = ?"a\\b",
                    "step {} done", 7
                );
            });
            tracing::warn!("outside");
        });
        let lines = crate::log_buffer::tests::writes(buffer);
        // The time varies; the rest is exact.
        let without_time: Vec<String> = lines
            .iter()
            .map(|l| {
                let (head, rest) = l.split_at(l.find(",\"level\"").unwrap_or(0));
                assert!(head.starts_with("{\"timestamp\":\"") && head.ends_with("Z\""), "{head}");
                rest.to_owned()
            })
            .collect();
        assert_eq!(
            without_time,
            [
                concat!(
                    r#","level":"INFO","fields":{"message":"step 7 done","ok":true,"delta":-3,"ratio":0.5,"#,
                    r#""odd":"NaN","error":"refused \"here\"","path":"\"a\\\\b\""},"#,
                    r#""span":{"delivery_id":"dlv_1","attempt":2,"trigger":"retry","name":"attempt"}}"#,
                    "\n"
                ),
                ",\"level\":\"WARN\",\"fields\":{\"message\":\"outside\"}}\n",
            ]
        );
        for line in &lines {
            assert!(serde_json::from_str::<serde_json::Value>(line).is_ok(), "{line}");
        }
    }
}
