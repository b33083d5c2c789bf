//! The one table `make bench` prints, and the JSON it writes beside it
//! (`<target>/bench/bench-<time>.json` and `<target>/bench/latest.json`).

use crate::{aws_requests, core_results, lateness, sender_overhead, startup};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A section's figures, or why it could not run.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Section<T> {
    pub result: Option<T>,
    pub error: Option<String>,
}

impl<T> Section<T> {
    pub fn skipped() -> Self {
        Section {
            result: None,
            error: None,
        }
    }
}

impl<T> From<Result<T, String>> for Section<T> {
    fn from(r: Result<T, String>) -> Self {
        match r {
            Ok(v) => Section {
                result: Some(v),
                error: None,
            },
            Err(e) => Section {
                result: None,
                error: Some(e),
            },
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bench {
    pub started_at: String,
    pub cores: usize,
    pub sender: Section<sender_overhead::Report>,
    pub aws: Section<aws_requests::Report>,
    pub lateness: Section<lateness::Report>,
    pub startup: Section<startup::Report>,
    pub core: Section<core_results::Report>,
}

struct Row {
    section: &'static str,
    measure: String,
    value: String,
    target: String,
    verdict: String,
}

fn verdict(met: bool) -> String {
    if met { "met".into() } else { "MISSED".into() }
}

fn n0(x: f64) -> String {
    let s = format!("{:.0}", x.round());
    let (sign, digits) = s.strip_prefix('-').map_or(("", s.as_str()), |d| ("-", d));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

fn rows(b: &Bench) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut row = |section: &'static str, measure: String, value: String, target: &str, verdict: String| {
        rows.push(Row {
            section,
            measure,
            value,
            target: target.to_owned(),
            verdict,
        })
    };
    let err = |e: &Option<String>| {
        e.clone()
            .map(|e| format!("not measured: {e}"))
            .unwrap_or_else(|| "skipped".into())
    };

    match &b.sender.result {
        Some(s) => {
            let label = format!(
                "{} deliveries/variant, {} in flight",
                n0(s.sender.deliveries as f64),
                s.concurrency
            );
            row(
                "1 sender",
                format!("bare reqwest loop ({label})"),
                format!(
                    "{} /s, {:.3} CPU s/1k",
                    n0(s.bare.per_second),
                    s.bare.cpu_seconds_per_1000
                ),
                "",
                String::new(),
            );
            let m = &s.bare_multi_thread;
            row(
                "1 sender",
                "bare reqwest loop, multi-thread runtime (comparison)".into(),
                format!(
                    "{} /s, {:.3} CPU s/1k; sender / it: {:.2}x throughput, {:.2}x CPU",
                    n0(m.per_second),
                    m.cpu_seconds_per_1000,
                    s.multi_thread_throughput_ratio,
                    s.multi_thread_cpu_ratio
                ),
                "",
                String::new(),
            );
            row(
                "1 sender",
                "sender handler".into(),
                format!(
                    "{} /s, {:.3} CPU s/1k",
                    n0(s.sender.per_second),
                    s.sender.cpu_seconds_per_1000
                ),
                "",
                String::new(),
            );
            row(
                "1 sender",
                s.sender_alone.name.clone(),
                format!(
                    "{} /s, {:.1} CPU us/delivery (with the request: {:.1})",
                    n0(s.sender_alone.per_second),
                    s.sender_alone.cpu_seconds_per_1000 * 1000.0,
                    s.sender.cpu_seconds_per_1000 * 1000.0
                ),
                "",
                String::new(),
            );
            let v = &s.sender_with_logs;
            row(
                "1 sender",
                v.name.clone(),
                format!(
                    "{} /s, {:.3} CPU s/1k, {:.0} log bytes/delivery",
                    n0(v.per_second),
                    v.cpu_seconds_per_1000,
                    v.log_bytes_per_delivery
                ),
                "",
                String::new(),
            );
            row(
                "1 sender",
                "throughput sender / bare".into(),
                format!(
                    "{:.2}x, median of {} rounds ({}; with Lambda logging {:.2}x)",
                    s.throughput_ratio,
                    s.round_throughput_ratios.len(),
                    range(&s.round_throughput_ratios),
                    s.logs_throughput_ratio
                ),
                ">= 0.90x",
                verdict(s.throughput_ratio >= 0.9),
            );
            row(
                "1 sender",
                "CPU per delivery sender / bare".into(),
                format!("{:.2}x (with Lambda logging {:.2}x)", s.cpu_ratio, s.logs_cpu_ratio),
                "",
                String::new(),
            );
            row(
                "1 sender",
                "heap allocations per delivery (bytes asked for)".into(),
                format!(
                    "bare {}, sender {}, handler alone {}, with Lambda logging {}",
                    allocations(&s.bare),
                    allocations(&s.sender),
                    allocations(&s.sender_alone),
                    allocations(&s.sender_with_logs)
                ),
                "",
                String::new(),
            );
            let failures: u64 = [
                &s.bare,
                &s.bare_batched,
                &s.bare_multi_thread,
                &s.sender,
                &s.sender_alone,
                &s.sender_with_logs,
            ]
            .iter()
            .map(|v| v.failures)
            .sum();
            if failures > 0 {
                row(
                    "1 sender",
                    "failed deliveries".into(),
                    failures.to_string(),
                    "0",
                    verdict(false),
                );
            }
        }
        None => row(
            "1 sender",
            "sender overhead".into(),
            err(&b.sender.error),
            ">= 0.90x",
            String::new(),
        ),
    }

    match &b.aws.result {
        Some(a) => {
            for p in &a.paths {
                let ddb = p.calls.get("DynamoDB");
                let (wu, iwu) = ddb.map_or((0.0, 0.0), |ops| {
                    (
                        ops.values().map(|o| o.write_units).sum(),
                        ops.values().map(|o| o.index_write_units).sum(),
                    )
                });
                row(
                    "2 aws/delivery",
                    format!("{} ({}/{} settled)", p.name, p.settled, p.deliveries),
                    format!(
                        "DynamoDB {:.1} req ({:.1}+{:.1} idx WRU, {:.1} RRU); SQS {:.1} req (+{:.1} ESM, +{:.1} fired); Scheduler {:.1} req, {:.1} inv",
                        p.dynamodb_requests,
                        wu,
                        iwu,
                        p.usage.dynamodb_read_units,
                        p.sqs_requests,
                        p.esm_receives + p.esm_deletes,
                        p.schedules_fired,
                        p.scheduler_requests,
                        p.usage.scheduler_invocations
                    ),
                    "",
                    if p.settled == p.deliveries {
                        String::new()
                    } else {
                        verdict(false)
                    },
                );
                // The sender's log lines, sized in section 1, are billed by CloudWatch Logs.
                let logs = b.sender.result.as_ref().map_or(String::new(), |s| {
                    let dollars = crate::cost::logs_per_million(
                        p.usage.sender_invocations,
                        s.sender_with_logs.log_bytes_per_delivery,
                    );
                    format!(" + CloudWatch Logs ${dollars:.2}")
                });
                row(
                    "2 cost/1M",
                    format!(
                        "{} (API {:.0} ms, sender {:.0} ms p50)",
                        p.name, p.api_ms.p50, p.sender_ms.p50
                    ),
                    format!(
                        "${:.2} (DynamoDB ${:.2}, SQS ${:.2}, Lambda ${:.2}, API GW ${:.2}, Scheduler ${:.2}){logs} vs EventBridge ${:.2}",
                        p.cost.total,
                        p.cost.dynamodb_writes + p.cost.dynamodb_reads,
                        p.cost.sqs,
                        p.cost.lambda_requests + p.cost.lambda_duration,
                        p.cost.api_gateway,
                        p.cost.scheduler,
                        p.eventbridge_per_million,
                    ),
                    "",
                    String::new(),
                );
            }
        }
        None => row(
            "2 aws/delivery",
            "AWS requests per delivery".into(),
            err(&b.aws.error),
            "",
            String::new(),
        ),
    }

    match &b.lateness.result {
        Some(l) => {
            for p in &l.paths {
                let s = p.lateness_ms;
                row(
                    "3 lateness",
                    format!(
                        "{} ({} s wait, {}/{} measured)",
                        p.name, p.wait_seconds, p.measured, p.deliveries
                    ),
                    format!(
                        "min {:.0} / p50 {:.0} / p99 {:.0} / max {:.0} ms; early {}",
                        s.min, s.p50, s.p99, s.max, p.early
                    ),
                    "0 early",
                    verdict(p.early == 0 && p.measured == p.deliveries),
                );
            }
        }
        None => row(
            "3 lateness",
            "timer lateness".into(),
            err(&b.lateness.error),
            "0 early",
            String::new(),
        ),
    }

    match &b.startup.result {
        Some(s) => {
            for size in &s.sizes {
                row(
                    "4 startup",
                    format!("{} bootstrap size ({})", size.name, size.build),
                    if size.older_than_host {
                        format!(
                            "{} (built before the host binary: may be stale; `make build`)",
                            mb(size.bytes)
                        )
                    } else {
                        mb(size.bytes)
                    },
                    "",
                    String::new(),
                );
            }
            if s.arm64_missing {
                row(
                    "4 startup",
                    "arm64 build".into(),
                    "absent (host sizes shown)".into(),
                    "",
                    String::new(),
                );
            }
            row(
                "4 startup",
                format!("init to first poll, p50 of {} (host release)", s.runs),
                format!(
                    "sender {:.1} ms / hello {:.1} ms = {:.2}x (min {:.1} / {:.1} ms)",
                    s.sender_init_ms.p50, s.hello_init_ms.p50, s.init_ratio, s.sender_init_ms.min, s.hello_init_ms.min
                ),
                "<= 1.5x",
                verdict(s.init_ratio <= 1.5),
            );
            if let (Some(api), Some(ratio)) = (&s.api_init_ms, s.api_init_ratio) {
                row(
                    "4 startup",
                    "API init to first poll, p50 (host release)".into(),
                    format!("{:.1} ms = {ratio:.2}x hello (min {:.1} ms)", api.p50, api.min),
                    "",
                    String::new(),
                );
            }
            if !s.sender_init_steps_ms.is_empty() {
                let steps: Vec<String> = s
                    .sender_init_steps_ms
                    .iter()
                    .map(|(name, ms)| format!("{name} {ms:.1}"))
                    .collect();
                row(
                    "4 startup",
                    "sender init steps, p50 ms".into(),
                    steps.join(", "),
                    "",
                    String::new(),
                );
            }
        }
        None => row(
            "4 startup",
            "binary size, init time".into(),
            err(&b.startup.error),
            "<= 1.5x",
            String::new(),
        ),
    }

    match &b.core.result {
        Some(c) if !c.estimates.is_empty() => {
            for e in &c.estimates {
                row(
                    "5 core",
                    e.id.clone(),
                    format!("{:.0} ns/call", e.mean_ns),
                    "",
                    String::new(),
                );
            }
        }
        Some(c) => row(
            "5 core",
            "criterion estimates".into(),
            format!("none under {}", c.dir),
            "",
            String::new(),
        ),
        None => row(
            "5 core",
            "criterion estimates".into(),
            err(&b.core.error),
            "",
            String::new(),
        ),
    }
    rows
}

/// The table, as aligned text.
pub fn table(b: &Bench) -> String {
    let rows = rows(b);
    let header = ["section", "measure", "value", "target", "verdict"];
    let mut widths = header.map(str::len);
    for r in &rows {
        for (i, cell) in [r.section, &r.measure, &r.value, &r.target, &r.verdict]
            .iter()
            .enumerate()
        {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let line = |cells: [&str; 5]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            let _ = write!(s, "{}{:width$}", if i == 0 { "" } else { " | " }, c, width = widths[i]);
        }
        s.trim_end().to_owned()
    };
    let mut out = String::new();
    let _ = writeln!(out, "{}", line(header));
    let _ = writeln!(out, "{}", widths.map(|w| "-".repeat(w)).join("-+-"));
    for r in &rows {
        let _ = writeln!(
            out,
            "{}",
            line([r.section, &r.measure, &r.value, &r.target, &r.verdict])
        );
    }
    out
}

/// Writes the JSON under `<target>/bench/`; returns the timestamped file.
pub fn write_json(b: &Bench, target: &Path) -> std::io::Result<PathBuf> {
    let dir = target.join("bench");
    std::fs::create_dir_all(&dir)?;
    let text = serde_json::to_string_pretty(b).map_err(std::io::Error::other)?;
    let stamp: String = b
        .started_at
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let file = dir.join(format!("bench-{stamp}.json"));
    std::fs::write(&file, &text)?;
    std::fs::write(dir.join("latest.json"), &text)?;
    Ok(file)
}

/// A variant's allocations per delivery and the bytes they asked for.
fn allocations(v: &sender_overhead::Variant) -> String {
    format!(
        "{:.1} ({} B)",
        v.allocations_per_delivery,
        n0(v.allocated_bytes_per_delivery)
    )
}

/// `min–max` of the rounds' ratios.
fn range(ratios: &[f64]) -> String {
    let min = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let max = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("{min:.2}–{max:.2}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands() {
        assert_eq!(super::n0(1234567.4), "1,234,567");
        assert_eq!(super::n0(999.0), "999");
        assert_eq!(super::n0(-1000.0), "-1,000");
    }
}
