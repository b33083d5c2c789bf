//! `courier stats`: the statistics routes of the API as a table of buckets (only
//! those with attempts or settled deliveries), the totals and the backlog.

use crate::cli::{Granularity, StatsArgs};
use crate::client::{Client, segment};
use crate::exit::CliResult;
use crate::output::Output;
use crate::table::{Style, Table, Tone};
use serde_json::Value;

pub async fn run(args: StatsArgs, client: &Client, out: &mut Output) -> CliResult<()> {
    let path = match (&args.endpoint, &args.application) {
        (Some(e), _) => format!("/v1/endpoints/{}/stats", segment(e)),
        (None, Some(a)) => format!("/v1/applications/{}/stats", segment(a)),
        (None, None) => "/v1/stats".to_owned(),
    };
    let granularity = match args.granularity {
        Granularity::Minute => "minute",
        Granularity::Hour => "hour",
    };
    let mut query = vec![("granularity", granularity.to_owned())];
    if let Some(s) = args.since {
        query.push(("since", s));
    }
    if let Some(u) = args.until {
        query.push(("until", u));
    }
    let a = client.get(&path, &query).await?;
    out.answer(&a, render)
}

fn n(v: &Value, group: &str, key: &str) -> u64 {
    v[group][key].as_u64().unwrap_or(0)
}

/// One row's cells: attempts by state, deliveries by status, the success rate of
/// settled deliveries and the duration percentiles.
fn cells(label: String, v: &Value) -> Vec<(String, Tone)> {
    let (ok, failed, dropped) = (
        n(v, "deliveries", "succeeded"),
        n(v, "deliveries", "failed"),
        n(v, "deliveries", "dropped"),
    );
    let settled = ok + failed + dropped;
    let rate = if settled == 0 {
        "-".to_owned()
    } else {
        format!("{:.1}%", ok as f64 * 100.0 / settled as f64)
    };
    let tone = if failed + dropped > 0 { Tone::Bad } else { Tone::Plain };
    let plain = |x: u64| (x.to_string(), Tone::Plain);
    vec![
        (label, Tone::Plain),
        plain(n(v, "attempts", "succeeded")),
        plain(n(v, "attempts", "retryable_failure")),
        plain(n(v, "attempts", "terminal_failure")),
        plain(n(v, "attempts", "ambiguous")),
        plain(ok),
        (failed.to_string(), tone),
        (dropped.to_string(), tone),
        (rate, Tone::Plain),
        plain(n(v, "durationMs", "p50")),
        plain(n(v, "durationMs", "p95")),
        plain(n(v, "durationMs", "p99")),
    ]
}

fn busy(v: &Value) -> bool {
    ["attempts", "deliveries"].iter().any(|g| {
        v[g].as_object()
            .is_some_and(|o| o.values().any(|x| x.as_u64() != Some(0)))
    })
}

pub fn render(v: &Value, style: Style) -> String {
    let mut t = Table::new(&[
        "START",
        "OK",
        "RETRY",
        "TERMINAL",
        "AMBIG",
        "DELIVERED",
        "FAILED",
        "DROPPED",
        "SUCCESS",
        "P50MS",
        "P95MS",
        "P99MS",
    ]);
    for b in v["buckets"].as_array().map_or(&[][..], Vec::as_slice) {
        if busy(b) {
            t.row(cells(b["start"].as_str().unwrap_or("-").to_owned(), b));
        }
    }
    t.row(cells("total".to_owned(), &v["totals"]));
    let backlog = &v["backlog"];
    format!(
        "{}\nbacklog: {} pending, {} retrying, {} scheduled ({} buckets)",
        t.render(style),
        backlog["pending"].as_u64().unwrap_or(0),
        backlog["retrying"].as_u64().unwrap_or(0),
        backlog["scheduled"].as_u64().unwrap_or(0),
        v["granularity"].as_str().unwrap_or("-"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn busy_buckets_and_the_totals_are_rows() {
        let figures = |ok: u64, failed: u64| {
            json!({
                "attempts": {"succeeded": ok, "retryable_failure": failed, "terminal_failure": 0, "ambiguous": 0},
                "deliveries": {"succeeded": ok, "failed": failed, "dropped": 0},
                "durationMs": {"p50": 50, "p95": 250, "p99": 250},
            })
        };
        let mut quiet = figures(0, 0);
        quiet["start"] = json!("2026-12-01T10:00:00.000Z");
        let mut busy = figures(3, 1);
        busy["start"] = json!("2026-12-01T11:00:00.000Z");
        let v = json!({
            "granularity": "hour",
            "buckets": [quiet, busy],
            "totals": figures(3, 1),
            "backlog": {"pending": 1, "retrying": 2, "scheduled": 0},
        });
        let text = render(&v, Style { color: false });
        let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(rows.len(), 4, "{text}");
        assert_eq!(
            rows[1],
            vec![
                "2026-12-01T11:00:00.000Z",
                "3",
                "1",
                "0",
                "0",
                "3",
                "1",
                "0",
                "75.0%",
                "50",
                "250",
                "250"
            ]
        );
        assert_eq!(rows[2][0], "total");
        assert_eq!(
            rows[3],
            vec![
                "backlog:",
                "1",
                "pending,",
                "2",
                "retrying,",
                "0",
                "scheduled",
                "(hour",
                "buckets)"
            ]
        );
    }
}
