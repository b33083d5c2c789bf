//! The one table `make bench` prints, and the JSON it writes beside it
//! (`<target>/bench/bench-<time>.json` and `<target>/bench/latest.json`).
//! Section 1's throughput ratio and section 4's init ratio are regression guards:
//! `FLAGGED` only past bounds wide enough for a noisy shared machine, `ok` within.
//! Section 3's "never early" is a promise of the product: `MISSED` if broken.

use crate::{aws_requests, core_results, isolation, lateness, sender_overhead, startup};
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
    pub isolation: Section<isolation::Report>,
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

fn guard(within: bool) -> String {
    if within { "ok".into() } else { "FLAGGED".into() }
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
                &format!("guard >= {:.2}x", sender_overhead::GUARD_RATIO),
                guard(s.throughput_ratio >= sender_overhead::GUARD_RATIO),
            );
            row(
                "1 sender",
                "CPU per delivery sender / bare".into(),
                format!("{:.2}x (with Lambda logging {:.2}x)", s.cpu_ratio, s.logs_cpu_ratio),
                "",
                String::new(),
            );
            let failures: u64 = [&s.bare, &s.sender, &s.sender_with_logs]
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
            "",
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
                // With `ApiFunctionUrl=true` the same requests reach the API without
                // API Gateway, whose price is the only difference (deploy.md).
                row(
                    "2 cost/1M",
                    format!(
                        "{} (API {:.0} ms, sender {:.0} ms p50)",
                        p.name, p.api_ms.p50, p.sender_ms.p50
                    ),
                    format!(
                        "${:.2} (DynamoDB ${:.2}, SQS ${:.2}, Lambda ${:.2}, API GW ${:.2}, Scheduler ${:.2}){logs}; ${:.2} through the function URL; vs EventBridge ${:.2}",
                        p.cost.total,
                        p.cost.dynamodb_writes + p.cost.dynamodb_reads,
                        p.cost.sqs,
                        p.cost.lambda_requests + p.cost.lambda_duration,
                        p.cost.api_gateway,
                        p.cost.scheduler,
                        p.cost.total - p.cost.api_gateway,
                        p.eventbridge_per_million,
                    ),
                    "",
                    String::new(),
                );
                if let Some(d) = &p.destination {
                    row(
                        "2 cost/1M",
                        format!("{}: the customer's side", p.name),
                        format!(
                            "{} {:.2} req/delivery: ${:.2} on the customer's bill; STS AssumeRole {:.3}/delivery here (first use), one per role-hour deployed, free",
                            d.service, d.requests, d.customer_per_million, d.assume_role_calls
                        ),
                        "",
                        String::new(),
                    );
                }
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
    if let Some(a) = &b.aws.result {
        // Items over 1 KiB bill a unit per started KiB on every write.
        let bytes = |m: &std::collections::BTreeMap<String, u64>| {
            m.get("(item)").map_or("not seen".to_owned(), |b| format!("{b} bytes"))
        };
        row(
            "2 aws/delivery",
            "delivery item: after a first attempt succeeded / waiting for its retry".into(),
            format!("{} / {}", bytes(&a.delivery_item_bytes), bytes(&a.retrying_item_bytes)),
            "",
            String::new(),
        );
        let ms = |s: &crate::stats::Summary| format!("p50 {:.0} ms, max {:.0} ms (n={})", s.p50, s.max, s.n);
        row(
            "2 limits",
            "first attempt after creation, no limit".into(),
            ms(&a.lateness_unlimited_ms),
            "",
            String::new(),
        );
        row(
            "2 limits",
            "first attempt after creation, rateLimit 2/s burst 2".into(),
            ms(&a.lateness_throttled_ms),
            "",
            String::new(),
        );
        row(
            "2 limits",
            "isolation: another endpoint's first attempt while one hangs (maxInFlight 1)".into(),
            ms(&a.isolation_ms),
            "",
            String::new(),
        );
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

    match &b.isolation.result {
        Some(i) => row(
            "3 isolation",
            format!(
                "another tenant's deliveries ({} at {}/s) behind {} to an endpoint hanging past {} ms",
                i.others, i.per_second, i.flood, i.hang_timeout_ms
            ),
            format!(
                "p50 {:.0} / p99 {:.0} / max {:.0} ms late (n={}); the hanging one got {} requests",
                i.late_ms.p50, i.p99_ms, i.late_ms.max, i.late_ms.n, i.hanging_requests
            ),
            "p99 <= 1000 ms",
            verdict(i.late_ms.n == i.others && i.p99_ms <= 1000.0),
        ),
        None => row(
            "3 isolation",
            "another tenant's deliveries behind a hanging endpoint".into(),
            err(&b.isolation.error),
            "p99 <= 1000 ms",
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
                &format!("guard <= {:.1}x", startup::GUARD_INIT_RATIO),
                guard(s.init_ratio <= startup::GUARD_INIT_RATIO),
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
        }
        None => row(
            "4 startup",
            "binary size, init time".into(),
            err(&b.startup.error),
            "",
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

/// `min–max` of the rounds' ratios.
fn range(ratios: &[f64]) -> String {
    let min = ratios.iter().copied().fold(f64::INFINITY, f64::min);
    let max = ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    format!("{min:.2}–{max:.2}")
}

#[cfg(test)]
mod tests {
    use super::{Bench, Section, table};
    use crate::sender_overhead::{self, Variant};
    use crate::startup;
    use crate::stats::Summary;

    fn ms(p50: f64) -> Summary {
        Summary {
            n: 40,
            min: p50,
            p50,
            p99: p50,
            max: p50,
        }
    }

    /// A bench whose section 1 reads `throughput` (sender / bare) and section 4
    /// `init` (sender / hello), the other sections skipped.
    fn bench(throughput: f64, init: f64) -> Bench {
        let sender = sender_overhead::Report {
            concurrency: 40,
            batch_size: 10,
            rounds: 2,
            bare: Variant::default(),
            sender: Variant::default(),
            sender_with_logs: Variant::default(),
            throughput_ratio: throughput,
            round_throughput_ratios: vec![throughput, throughput],
            cpu_ratio: 1.0,
            logs_throughput_ratio: throughput,
            logs_cpu_ratio: 1.0,
        };
        let startup = startup::Report {
            sizes: Vec::new(),
            arm64_missing: false,
            runs: 40,
            sender_init_ms: ms(init),
            hello_init_ms: ms(1.0),
            init_ratio: init,
            api_init_ms: None,
            api_init_ratio: None,
            init_failures: 0,
        };
        Bench {
            started_at: "2026-12-02T00:00:00Z".into(),
            cores: 2,
            sender: Ok(sender).into(),
            aws: Section::skipped(),
            lateness: Section::skipped(),
            isolation: Section::skipped(),
            startup: Ok(startup).into(),
            core: Section::skipped(),
        }
    }

    /// The table's verdict on the row whose measure starts with `measure`.
    fn verdict(b: &Bench, measure: &str) -> String {
        let text = table(b);
        let line = text
            .lines()
            .find(|l| l.split(" | ").nth(1).is_some_and(|m| m.trim().starts_with(measure)))
            .unwrap_or_else(|| panic!("no row {measure:?} in\n{text}"));
        line.split(" | ").nth(4).unwrap_or("").trim().to_owned()
    }

    #[test]
    fn section_1_is_flagged_only_below_the_guard() {
        for (ratio, expected) in [(0.93, "ok"), (0.60, "ok"), (0.59, "FLAGGED"), (0.43, "FLAGGED")] {
            assert_eq!(
                verdict(&bench(ratio, 1.4), "throughput sender / bare"),
                expected,
                "{ratio}"
            );
        }
    }

    #[test]
    fn section_4_is_flagged_only_above_twice_hello() {
        for (ratio, expected) in [(1.4, "ok"), (2.0, "ok"), (2.01, "FLAGGED"), (4.5, "FLAGGED")] {
            assert_eq!(verdict(&bench(0.85, ratio), "init to first poll"), expected, "{ratio}");
        }
    }

    #[test]
    fn the_guards_are_stated_in_the_target_column() {
        let text = table(&bench(0.85, 1.4));
        assert!(text.contains("guard >= 0.60x"), "{text}");
        assert!(text.contains("guard <= 2.0x"), "{text}");
    }

    #[test]
    fn thousands() {
        assert_eq!(super::n0(1234567.4), "1,234,567");
        assert_eq!(super::n0(999.0), "999");
        assert_eq!(super::n0(-1000.0), "-1,000");
    }
}
