//! Where the sender's log lines go: stdout, but gathered while a batch is worked and
//! written in one go when it ends. On Lambda, stdout is a pipe, and a write per line
//! would cost a system call and a wake-up of the log collector for every delivery.
//!
//! Lines are still written in the order they were logged, and never later than the
//! end of their batch: warnings and errors go out at once (after what is held, to
//! keep the order), as does anything logged outside a batch, and a batch's lines go
//! out early when they pass [`FLUSH_BYTES`]. Each line carries its own timestamp, so
//! CloudWatch's arrival time is not the only time a held line has.

use std::io::Write;
use std::sync::{Mutex, MutexGuard};
use tracing_subscriber::fmt::MakeWriter;

/// Held lines are written once they pass this size, so a large batch neither holds
/// much memory nor writes everything at its very end.
pub const FLUSH_BYTES: usize = 64 * 1024;

/// A line sink that holds lines while any batch is open (see [`LogBuffer::batch`]).
pub struct LogBuffer<S> {
    state: Mutex<State<S>>,
}

struct State<S> {
    sink: S,
    held: Vec<u8>,
    /// Batches open now (a process may work several at once).
    open_batches: usize,
}

impl<S: Write> State<S> {
    /// Writes what is held. A failed write loses log lines, never deliveries, and
    /// there is nowhere left to report it: the lines are dropped either way.
    fn flush(&mut self) {
        if !self.held.is_empty() {
            let _ = self.sink.write_all(&self.held);
            let _ = self.sink.flush();
            self.held.clear();
        }
    }

    fn line(&mut self, line: &[u8], urgent: bool) {
        if self.open_batches == 0 || urgent {
            if self.held.is_empty() {
                let _ = self.sink.write_all(line);
                let _ = self.sink.flush();
            } else {
                // The held lines go first, in the same write as this one.
                self.held.extend_from_slice(line);
                self.flush();
            }
            return;
        }
        self.held.extend_from_slice(line);
        if self.held.len() >= FLUSH_BYTES {
            self.flush();
        }
    }
}

impl<S: Write> LogBuffer<S> {
    pub const fn new(sink: S) -> Self {
        LogBuffer {
            state: Mutex::new(State {
                sink,
                held: Vec::new(),
                open_batches: 0,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<S>> {
        // A panic while the lock was held left at worst a partly written line.
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Holds lines until the returned guard is dropped or they pass [`FLUSH_BYTES`];
    /// dropping it writes everything held, other open batches' lines included.
    pub fn batch(&self) -> BatchGuard<'_, S> {
        self.lock().open_batches += 1;
        BatchGuard(self)
    }

    /// Writes `lines` (whole lines, newline-terminated), held like logged ones.
    pub fn write_lines(&self, lines: &[u8]) {
        self.lock().line(lines, false);
    }

    /// The sink, for tests that look at what was written.
    pub fn with_sink<T>(&self, f: impl FnOnce(&S) -> T) -> T {
        f(&self.lock().sink)
    }
}

/// An open batch: what is logged while it lives is held (see [`LogBuffer::batch`]).
pub struct BatchGuard<'a, S: Write>(&'a LogBuffer<S>);

impl<S: Write> Drop for BatchGuard<'_, S> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.open_batches = state.open_batches.saturating_sub(1);
        // Each batch's end writes everything held, its own lines and any other open
        // batch's so far: a batch's lines are out before its handler answers.
        state.flush();
    }
}

/// One log line on its way to the buffer: the formatter writes each event in one
/// `write_all`, so each call here is a whole line.
pub struct LineWriter<'a, S: Write> {
    buffer: &'a LogBuffer<S>,
    urgent: bool,
}

impl<S: Write> Write for LineWriter<'_, S> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.buffer.lock().line(buf, self.urgent);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The subscriber's writer: one buffer for the process, hence `'static`.
impl<S: Write + 'static> MakeWriter<'_> for &'static LogBuffer<S> {
    type Writer = LineWriter<'static, S>;

    fn make_writer(&self) -> Self::Writer {
        LineWriter {
            buffer: self,
            urgent: false,
        }
    }

    fn make_writer_for(&self, meta: &tracing::Metadata<'_>) -> Self::Writer {
        LineWriter {
            buffer: self,
            // Warnings and errors are what someone reads while things go wrong: not held.
            urgent: *meta.level() <= tracing::Level::WARN,
        }
    }
}

/// Stdout, written with its lock held for each write.
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::io::stdout().lock().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        std::io::stdout().lock().write_all(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().lock().flush()
    }
}

/// The sender process's log output.
pub static STDOUT: LogBuffer<Stdout> = LogBuffer::new(Stdout);

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A sink that keeps each write apart, to count writes as well as bytes.
    #[derive(Default)]
    pub(crate) struct Writes(pub(crate) Vec<Vec<u8>>);

    impl Write for Writes {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.push(buf.to_vec());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// A buffer of the process's kind (`'static`), one per test.
    pub(crate) fn buffer() -> &'static LogBuffer<Writes> {
        Box::leak(Box::new(LogBuffer::new(Writes::default())))
    }

    pub(crate) fn writes(buffer: &LogBuffer<Writes>) -> Vec<String> {
        buffer.with_sink(|s| s.0.iter().map(|w| String::from_utf8_lossy(w).into_owned()).collect())
    }

    fn log(buffer: &'static LogBuffer<Writes>, line: &str) {
        buffer.make_writer().write_all(line.as_bytes()).expect("in memory");
    }

    #[test]
    fn lines_outside_a_batch_are_written_at_once() {
        let buffer = buffer();
        log(buffer, "a\n");
        log(buffer, "b\n");
        assert_eq!(writes(buffer), ["a\n", "b\n"]);
    }

    #[test]
    fn a_batch_s_lines_are_written_together_when_it_ends() {
        let buffer = buffer();
        let batch = buffer.batch();
        log(buffer, "a\n");
        buffer.write_lines(b"metrics 1\nmetrics 2\n");
        log(buffer, "b\n");
        assert!(writes(buffer).is_empty());
        drop(batch);
        assert_eq!(writes(buffer), ["a\nmetrics 1\nmetrics 2\nb\n"]);
        log(buffer, "c\n");
        assert_eq!(writes(buffer), ["a\nmetrics 1\nmetrics 2\nb\n", "c\n"]);
    }

    #[test]
    fn held_lines_are_written_once_they_pass_the_limit() {
        let buffer = buffer();
        let _batch = buffer.batch();
        let line = format!("{}\n", "x".repeat(999));
        let lines_to_limit = FLUSH_BYTES.div_ceil(line.len());
        for _ in 0..lines_to_limit - 1 {
            log(buffer, &line);
        }
        assert!(writes(buffer).is_empty());
        log(buffer, &line);
        assert_eq!(
            writes(buffer).iter().map(String::len).collect::<Vec<_>>(),
            [lines_to_limit * 1000]
        );
    }

    #[test]
    fn an_urgent_line_goes_out_with_what_is_held_in_one_write() {
        let buffer = buffer();
        let _batch = buffer.batch();
        log(buffer, "a\n");
        log(buffer, "b\n");
        let mut urgent = LineWriter { buffer, urgent: true };
        urgent.write_all(b"warn\n").expect("in memory");
        assert_eq!(writes(buffer), ["a\nb\nwarn\n"]);
        // With nothing held, an urgent line is written as it is.
        urgent.write_all(b"error\n").expect("in memory");
        assert_eq!(writes(buffer), ["a\nb\nwarn\n", "error\n"]);
    }

    #[test]
    fn each_batch_s_end_writes_what_is_held_while_others_stay_open() {
        let buffer = buffer();
        let first = buffer.batch();
        let second = buffer.batch();
        log(buffer, "a\n");
        drop(first);
        assert_eq!(writes(buffer), ["a\n"]);
        // The second batch is still open: its lines are held.
        log(buffer, "b\n");
        assert_eq!(writes(buffer), ["a\n"]);
        drop(second);
        assert_eq!(writes(buffer), ["a\n", "b\n"]);
    }

    #[test]
    fn the_sender_s_subscriber_holds_info_lines_and_writes_warnings_at_once() {
        let buffer = buffer();
        let subscriber = crate::logging(buffer).finish();
        tracing::subscriber::with_default(subscriber, || {
            let batch = buffer.batch();
            tracing::info_span!("attempt", delivery_id = "dlv_1", attempt = 2).in_scope(|| {
                tracing::info!(status = 200, "attempt recorded");
                assert!(writes(buffer).is_empty(), "an info line is held");
                tracing::warn!("step failed; message left for retry");
            });
            let written = writes(buffer);
            assert_eq!(written.len(), 1, "the held line and the warning, in one write");
            assert_eq!(written[0].lines().count(), 2, "{written:?}");
            tracing::info!("held again");
            drop(batch);
        });
        let lines: Vec<serde_json::Value> = writes(buffer)
            .iter()
            .flat_map(|w| w.lines().map(str::to_owned).collect::<Vec<_>>())
            .map(|l| serde_json::from_str(&l).expect("one JSON object per line"))
            .collect();
        assert_eq!(writes(buffer).len(), 2, "the batch's end wrote what it held since");
        let shape: Vec<_> = lines
            .iter()
            .map(|l| {
                (
                    l["level"].clone(),
                    l["fields"]["message"].clone(),
                    l["span"]["delivery_id"].clone(),
                )
            })
            .collect();
        use serde_json::json;
        assert_eq!(
            shape,
            [
                (json!("INFO"), json!("attempt recorded"), json!("dlv_1")),
                (
                    json!("WARN"),
                    json!("step failed; message left for retry"),
                    json!("dlv_1")
                ),
                (json!("INFO"), json!("held again"), serde_json::Value::Null),
            ]
        );
        // Held lines carry the time they were logged, not only the time they reach
        // CloudWatch.
        for line in &lines {
            let time = line["timestamp"].as_str().unwrap_or_default();
            assert!(courier_core::Timestamp::parse_rfc3339(time).is_ok(), "{line}");
        }
        assert_eq!(lines[0]["fields"]["status"], json!(200));
    }
}
