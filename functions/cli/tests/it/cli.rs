//! The built `courier` binary: `policy show` for presets and policy files, `policy
//! simulate --json` with its exact object shape and values, and bad inputs that must
//! exit nonzero with a clear message and never panic.

use serde_json::{Value, json};
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn courier(args: &[&str]) -> Out {
    let out = Command::new(env!("CARGO_BIN_EXE_courier"))
        .args(args)
        .output()
        .expect("run courier");
    let o = Out {
        code: out.status.code().expect("exited, not killed"),
        stdout: String::from_utf8(out.stdout).expect("utf-8 stdout"),
        stderr: String::from_utf8(out.stderr).expect("utf-8 stderr"),
    };
    assert!(!o.stderr.contains("panicked"), "courier panicked: {}", o.stderr);
    o
}

fn ok(args: &[&str]) -> String {
    let o = courier(args);
    assert_eq!(o.code, 0, "{args:?}: {}", o.stderr);
    assert_eq!(o.stderr, "", "{args:?}");
    o.stdout
}

fn ok_json(args: &[&str]) -> Value {
    let text = ok(args);
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {text}"))
}

/// Runs a command that must fail: exit code 2, nothing on stdout, one clear line.
fn fails(args: &[&str]) -> String {
    let o = courier(args);
    assert_eq!(o.code, 2, "{args:?} must fail: {}{}", o.stdout, o.stderr);
    assert_eq!(o.stdout, "", "{args:?}");
    o.stderr
}

/// A policy file under the temp dir, removed on drop.
struct TempPolicy(PathBuf);

impl TempPolicy {
    fn new(tag: &str, text: &str) -> TempPolicy {
        let path = std::env::temp_dir().join(format!("courier-cli-test-{}-{tag}.json", std::process::id()));
        std::fs::write(&path, text).expect("write temp policy");
        TempPolicy(path)
    }
    fn path(&self) -> &str {
        self.0.to_str().expect("utf-8 temp path")
    }
}

impl Drop for TempPolicy {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// state, diagnostic, remediation, errorClass, countsTowardReceiverFailures
type Cls<'a> = (&'a str, &'a str, &'a str, Option<&'a str>, bool);

fn attempt(number: u32, at: f64, outcome: &str, cls: Cls) -> Value {
    let (state, diagnostic, remediation, error_class, counts) = cls;
    json!({
        "number": number,
        "atSeconds": at,
        "outcome": outcome,
        "state": state,
        "diagnostic": diagnostic,
        "remediation": remediation,
        "errorClass": error_class,
        "countsTowardReceiverFailures": counts,
    })
}

fn retryable_503(number: u32, at: f64) -> Value {
    attempt(
        number,
        at,
        "503",
        (
            "retryable_failure",
            "http_retryable",
            "review_retry_policy",
            Some("status"),
            true,
        ),
    )
}

fn sim(policy: &str, outcomes: &str, extra: &[&str]) -> Value {
    let mut args = vec!["policy", "simulate", policy, "--outcomes", outcomes, "--json"];
    args.extend_from_slice(extra);
    ok_json(&args)
}

fn report(policy: &str, attempts: Vec<Value>, status: &str, reason: Option<&str>, at: f64) -> Value {
    json!({
        "policy": policy,
        "attempts": attempts,
        "final": {"status": status, "reason": reason, "atSeconds": at},
    })
}

// ---------------------------------------------------------------------------------
// policy simulate --json

#[test]
fn simulate_tanitar_gone_after_one_retry() {
    assert_eq!(
        sim("tanitar", "503,410", &[]),
        report(
            "tanitar",
            vec![
                retryable_503(1, 0.0),
                attempt(
                    2,
                    60.0,
                    "410",
                    (
                        "terminal_failure",
                        "endpoint_gone",
                        "inspect_receiver",
                        Some("status"),
                        true
                    )
                ),
            ],
            "failed",
            Some("ENDPOINT_GONE"),
            60.0
        )
    );
}

#[test]
fn simulate_tanitar_exhausts_its_ladder_measured_from_attempt_starts() {
    // 5 s attempts change nothing: Tanitar measures from the previous start.
    let got = sim("tanitar", "503", &["--attempt-duration-ms", "5000"]);
    let starts = [0.0, 60.0, 360.0, 2160.0, 9360.0, 30960.0, 74160.0, 160560.0];
    let attempts = starts
        .iter()
        .enumerate()
        .map(|(i, at)| retryable_503(i as u32 + 1, *at))
        .collect();
    assert_eq!(
        got,
        report("tanitar", attempts, "failed", Some("RETRY_EXHAUSTED"), 160565.0)
    );
}

#[test]
fn simulate_greatwait_stops_after_five_receiver_failures() {
    // Seed 0 (the default) draws these stretch factors; see core's ladder tests.
    let starts = [0.0, 3.767, 10.925, 26.322, 144.575];
    let attempts: Vec<Value> = starts
        .iter()
        .enumerate()
        .map(|(i, at)| retryable_503(i as u32 + 1, *at))
        .collect();
    let want = report("greatwait", attempts, "failed", Some("receiver_failures"), 144.575);
    assert_eq!(sim("greatwait", "503", &[]), want);
    assert_eq!(sim("greatwait", "503", &["--seed", "0"]), want);
    // Another seed, other times; still 5 attempts.
    let other = sim("greatwait", "503", &["--seed", "1"]);
    let ats: Vec<f64> = other["attempts"]
        .as_array()
        .expect("attempts")
        .iter()
        .map(|a| a["atSeconds"].as_f64().expect("number"))
        .collect();
    assert_eq!(ats, [0.0, 3.134, 11.863, 41.429, 128.091]);
}

#[test]
fn simulate_greatwait_mixed_outcomes_and_durations() {
    // 429 does not count; a timeout lasts the 10 s timeout; waits from the end.
    assert_eq!(
        sim("greatwait", "503,429,timeout,200", &["--attempt-duration-ms", "250"]),
        report(
            "greatwait",
            vec![
                retryable_503(1, 0.0),
                attempt(
                    2,
                    4.017,
                    "429",
                    (
                        "retryable_failure",
                        "rate_limited",
                        "review_retry_policy",
                        Some("status"),
                        false
                    )
                ),
                attempt(
                    3,
                    11.425,
                    "timeout",
                    (
                        "ambiguous",
                        "network_ambiguous",
                        "review_before_redelivery",
                        Some("timeout"),
                        true
                    )
                ),
                attempt(4, 36.822, "200", ("succeeded", "delivered", "none", None, false)),
            ],
            "succeeded",
            None,
            37.072
        )
    );
}

#[test]
fn simulate_greatwait_deadline_by_latency_class() {
    let ra = |n: u32, at: f64| {
        attempt(
            n,
            at,
            "429 (Retry-After 600)",
            (
                "retryable_failure",
                "rate_limited",
                "review_retry_policy",
                Some("status"),
                false,
            ),
        )
    };
    // Realtime: 15 min; the third attempt would start at 20 min.
    assert_eq!(
        sim("greatwait", "429:600", &[]),
        report(
            "greatwait",
            vec![ra(1, 0.0), ra(2, 600.0)],
            "failed",
            Some("deadline"),
            600.0
        )
    );
    // Bulk: 6 h leaves room for all 8 (0, 10 min, ..., 70 min).
    let bulk = sim("greatwait", "429:600", &["--latency-class", "bulk"]);
    let attempts = (0..8).map(|i| ra(i + 1, f64::from(i) * 600.0)).collect();
    assert_eq!(
        bulk,
        report("greatwait", attempts, "failed", Some("max_attempts"), 4200.0)
    );
}

#[test]
fn simulate_gavai_all_failures_uses_six_attempts() {
    let starts = [0.0, 128.0, 384.0, 896.0, 1920.0, 3968.0];
    let attempts = starts
        .iter()
        .enumerate()
        .map(|(i, at)| retryable_503(i as u32 + 1, *at))
        .collect();
    assert_eq!(
        sim("gavai", "503", &[]),
        report("gavai", attempts, "failed", Some("max_attempts"), 3968.0)
    );
    // A timeout lasts 10 s, and the wait counts from its end; 410 is ordinary.
    assert_eq!(
        sim("gavai", "timeout,410,200", &[]),
        report(
            "gavai",
            vec![
                attempt(
                    1,
                    0.0,
                    "timeout",
                    (
                        "ambiguous",
                        "network_ambiguous",
                        "review_before_redelivery",
                        Some("timeout"),
                        true
                    )
                ),
                attempt(
                    2,
                    138.0,
                    "410",
                    (
                        "retryable_failure",
                        "http_refused",
                        "inspect_receiver",
                        Some("status"),
                        true
                    )
                ),
                attempt(3, 394.0, "200", ("succeeded", "delivered", "none", None, false)),
            ],
            "succeeded",
            None,
            394.0
        )
    );
}

#[test]
fn simulate_smartchat_clamp_gone_and_redirect() {
    let ra = |n: u32, at: f64| {
        attempt(
            n,
            at,
            "503 (Retry-After 86400)",
            (
                "retryable_failure",
                "http_retryable",
                "review_retry_policy",
                Some("status"),
                true,
            ),
        )
    };
    // Retry-After is honoured on 5xx (cap 24 h); the 4th attempt falls on event +
    // 72 h and is the last.
    assert_eq!(
        sim("smartchat", "503:86400", &[]),
        report(
            "smartchat",
            vec![ra(1, 0.0), ra(2, 86400.0), ra(3, 172800.0), ra(4, 259200.0)],
            "failed",
            Some("deadline"),
            259200.0
        )
    );
    // A redirect is a failure; 410 disables the endpoint and fails the delivery.
    assert_eq!(
        sim("smartchat", "302,410", &["--seed", "7"]),
        report(
            "smartchat",
            vec![
                attempt(
                    1,
                    0.0,
                    "302",
                    (
                        "retryable_failure",
                        "http_retryable",
                        "review_retry_policy",
                        Some("redirect"),
                        true
                    )
                ),
                attempt(
                    2,
                    28.678,
                    "410",
                    (
                        "terminal_failure",
                        "endpoint_gone",
                        "review_endpoint",
                        Some("status"),
                        true
                    )
                ),
            ],
            "failed",
            Some("endpoint_disabled"),
            28.678
        )
    );
}

#[test]
fn simulate_a_policy_file() {
    let file = TempPolicy::new(
        "sim",
        r#"{"base": "tanitar", "name": "tanitar-short", "maxAttempts": 3, "waitsSeconds": [10, 20]}"#,
    );
    let starts = [0.0, 10.0, 30.0];
    let attempts = starts
        .iter()
        .enumerate()
        .map(|(i, at)| retryable_503(i as u32 + 1, *at))
        .collect();
    assert_eq!(
        sim(file.path(), "503", &[]),
        report("tanitar-short", attempts, "failed", Some("RETRY_EXHAUSTED"), 30.0)
    );
}

#[test]
fn simulate_text_timeline() {
    let text = ok(&["policy", "simulate", "tanitar", "--outcomes", "503,410"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "policy tanitar  (seed 0; times in seconds after the planned instant)"
    );
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[2].starts_with("  1         0.000  503  "), "{}", lines[2]);
    assert!(lines[3].starts_with("  2        60.000  410  "), "{}", lines[3]);
    assert!(lines[3].contains("endpoint_gone"), "{}", lines[3]);
    assert_eq!(lines[4], "final: failed at 60.000s (reason ENDPOINT_GONE)");
}

// ---------------------------------------------------------------------------------
// policy show

#[test]
fn show_greatwait_text() {
    let want = "\
policy greatwait
  max attempts       8
  waits measured from the end of the failed attempt
  jitter             x[1, 2]
  timeout            10000 ms; redirects never followed
  Retry-After        on 429 : wait = max(normal, min(Retry-After, 1h))
  endpoint health    none

  attempt        wait    min wait    max wait   earliest at     latest at
        1          0s          0s          0s            0s            0s
        2          2s          2s          4s            2s            4s
        3          5s          5s         10s            7s           14s
        4         15s         15s         30s           22s           44s
        5          1m          1m          2m         1m22s         2m44s
        6          1m          1m          2m         2m22s         4m44s
        7          1m          1m          2m         3m22s         6m44s
        8          1m          1m          2m         4m22s         8m44s

  recovery window    4m22s to 8m44s (first attempt to last possible attempt, instant attempts)
  limit              no attempt starts later than planned + 15m (realtime) or + 6h (bulk), plus the endpoint's long-running allowance; a later retry settles the delivery (deadline)
  limit              stops after 5 receiver-caused failures (429 and pre-send failures do not count)
";
    assert_eq!(ok(&["policy", "show", "greatwait"]), want);
}

#[test]
fn show_presets_json() {
    // (preset, earliest start of each attempt, latest start, recovery window)
    type Case = (&'static str, Vec<f64>, Vec<f64>, [f64; 2]);
    let cases: Vec<Case> = vec![
        (
            "greatwait",
            vec![0.0, 2.0, 7.0, 22.0, 82.0, 142.0, 202.0, 262.0],
            vec![0.0, 4.0, 14.0, 44.0, 164.0, 284.0, 404.0, 524.0],
            [262.0, 524.0],
        ),
        (
            "tanitar",
            vec![0.0, 60.0, 360.0, 2160.0, 9360.0, 30960.0, 74160.0, 160560.0],
            vec![0.0, 60.0, 360.0, 2160.0, 9360.0, 30960.0, 74160.0, 160560.0],
            [160560.0, 160560.0],
        ),
        (
            "gavai",
            vec![0.0, 128.0, 384.0, 896.0, 1920.0, 3968.0],
            vec![0.0, 128.0, 384.0, 896.0, 1920.0, 3968.0],
            [3968.0, 3968.0],
        ),
        (
            "smartchat",
            vec![0.0, 24.0, 120.0, 600.0, 3480.0, 15000.0, 49560.0, 118680.0, 256920.0],
            vec![0.0, 36.0, 180.0, 900.0, 5220.0, 22500.0, 74340.0, 178020.0, 259200.0],
            [256920.0, 259200.0],
        ),
    ];
    for (name, earliest, latest, window) in cases {
        let v = ok_json(&["policy", "show", name, "--json"]);
        let policy = &v["policy"];
        assert_eq!(policy["name"], name);
        let ladder = v["ladder"].as_array().expect("ladder");
        let col = |k: &str| -> Vec<f64> { ladder.iter().map(|r| r[k].as_f64().expect("number")).collect() };
        assert_eq!(col("earliestAtSeconds"), earliest, "{name}");
        assert_eq!(col("latestAtSeconds"), latest, "{name}");
        assert_eq!(v["recoveryWindowSeconds"], json!(window), "{name}");
        assert_eq!(policy["maxAttempts"].as_u64(), Some(earliest.len() as u64), "{name}");
    }
    let sc = ok_json(&["policy", "show", "smartchat", "--json"]);
    assert_eq!(sc["ladder"][8]["mayBeCutByDeadline"], json!(true));
    assert_eq!(sc["ladder"][7]["mayBeCutByDeadline"], json!(false));
    assert_eq!(sc["policy"]["attemptHeader"], json!("SmartChat-Delivery-Attempt"));
    assert_eq!(
        sc["policy"]["retryAfter"],
        json!({"statuses": ["429", "5xx"], "capSeconds": 86400})
    );
    let g = ok_json(&["policy", "show", "greatwait", "--json"]);
    assert_eq!(
        g["deadlines"][1],
        json!("stops after 5 receiver-caused failures (429 and pre-send failures do not count)")
    );
}

#[test]
fn show_bulk_latency_class() {
    let text = ok(&["policy", "show", "greatwait", "--latency-class", "bulk"]);
    assert!(text.contains("recovery window    4m22s to 8m44s"), "{text}");
}

#[test]
fn show_a_policy_file() {
    let file = TempPolicy::new(
        "show",
        r#"{"base": "gavai", "name": "gavai-fast", "waitsSeconds": [1, 2]}"#,
    );
    let text = ok(&["policy", "show", file.path()]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "policy gavai-fast");
    assert_eq!(lines[1], "  max attempts       6");
    assert_eq!(
        lines[6],
        "  endpoint health    circuit breaker: opens for 1h after 5 exhausted deliveries in a row"
    );
    assert_eq!(
        &lines[9..15],
        [
            "        1          0s          0s          0s            0s            0s",
            "        2          1s          1s          1s            1s            1s",
            "        3          2s          2s          2s            3s            3s",
            "        4          2s          2s          2s            5s            5s",
            "        5          2s          2s          2s            7s            7s",
            "        6          2s          2s          2s            9s            9s",
        ]
    );
    assert!(text.contains("  recovery window    9s to 9s "), "{text}");

    let v = ok_json(&["policy", "show", file.path(), "--json"]);
    assert_eq!(v["policy"]["name"], "gavai-fast");
    assert_eq!(v["policy"]["waitsSeconds"], json!([1.0, 2.0]));
    assert_eq!(v["policy"]["snippet"], json!({"maxBytes": 256}));
    assert_eq!(v["recoveryWindowSeconds"], json!([9.0, 9.0]));

    // A file holding just a preset name is that preset.
    let named = TempPolicy::new("named", r#""tanitar""#);
    assert_eq!(
        ok(&["policy", "show", named.path()]),
        ok(&["policy", "show", "tanitar"])
    );
}

#[test]
fn show_a_ladder_cut_by_a_horizon() {
    // Greatwait's ladder under a 10 s horizon: attempt 3 may start between 7 s and
    // the horizon (not 14 s), and attempt 4 (22 s at the earliest) never happens.
    let file = TempPolicy::new(
        "horizon",
        r#"{"base": "greatwait", "deadline": {"kind": "horizon", "realtimeSeconds": 10, "bulkSeconds": 100, "addLongRunningAllowance": false}}"#,
    );
    let v = ok_json(&["policy", "show", file.path(), "--json"]);
    let ladder = v["ladder"].as_array().expect("ladder");
    let col = |k: &str| -> Vec<Value> { ladder.iter().map(|r| r[k].clone()).collect() };
    assert_eq!(col("attempt"), [json!(1), json!(2), json!(3)]);
    assert_eq!(col("earliestAtSeconds"), [json!(0.0), json!(2.0), json!(7.0)]);
    assert_eq!(col("latestAtSeconds"), [json!(0.0), json!(4.0), json!(10.0)]);
    assert_eq!(col("mayBeCutByDeadline"), [json!(false), json!(false), json!(true)]);
    assert_eq!(v["recoveryWindowSeconds"], json!([7.0, 10.0]));
    // Bulk: 100 s; attempt 5 (82 s to 164 s) may be cut, attempt 6 (142 s) never runs.
    let v = ok_json(&["policy", "show", file.path(), "--json", "--latency-class", "bulk"]);
    let latest: Vec<f64> = v["ladder"]
        .as_array()
        .expect("ladder")
        .iter()
        .map(|r| r["latestAtSeconds"].as_f64().expect("number"))
        .collect();
    assert_eq!(latest, [0.0, 4.0, 14.0, 44.0, 100.0]);
}

// ---------------------------------------------------------------------------------
// Bad inputs.

#[test]
fn unknown_preset_is_a_clear_error() {
    for cmd in [
        vec!["policy", "show", "nosuch"],
        vec!["policy", "simulate", "nosuch", "--outcomes", "503"],
    ] {
        let err = fails(&cmd);
        assert!(
            err.starts_with(
                "courier: \"nosuch\" is neither a preset (greatwait, tanitar, gavai, smartchat) nor a readable file"
            ),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn bad_outcome_tokens_are_named() {
    let cases = [
        ("503,abc", "courier: outcome 2 (\"abc\"): expected a status 100-599"),
        ("503,,200", "courier: outcome 2 (\"\"): empty outcome"),
        ("", "courier: outcome 1 (\"\"): empty outcome"),
        ("700", "courier: outcome 1 (\"700\"): expected a status 100-599"),
        ("99", "courier: outcome 1 (\"99\"): expected a status 100-599"),
        (
            "429:soon",
            "courier: outcome 1 (\"429:soon\"): Retry-After must be whole seconds",
        ),
        (
            "200,429:-1",
            "courier: outcome 2 (\"429:-1\"): Retry-After must be whole seconds",
        ),
        ("timeout,bogus", "courier: outcome 2 (\"bogus\")"),
    ];
    for (outcomes, want) in cases {
        let err = fails(&["policy", "simulate", "tanitar", "--outcomes", outcomes]);
        assert!(err.starts_with(want), "{outcomes:?}: {err}");
    }
}

#[test]
fn invalid_policy_files_name_the_field() {
    let cases = [
        (
            "max",
            r#"{"base": "gavai", "maxAttempts": 0}"#,
            "policy field `maxAttempts`: must be between 1 and 100",
        ),
        (
            "unknown",
            r#"{"base": "gavai", "maxAttemps": 3}"#,
            "policy field `maxAttemps`: unknown field `maxAttemps`",
        ),
        (
            "wait",
            r#"{"maxAttempts": 3, "waitsSeconds": [1, -2]}"#,
            "policy field `waitsSeconds[1]`: must be between 0",
        ),
        (
            "jitter",
            r#"{"base": "tanitar", "jitter": {"min": 2, "max": 1}}"#,
            "policy field `jitter`: needs 0 < min <= max <= 10",
        ),
        (
            "base",
            r#"{"base": "nosuch"}"#,
            "policy field `base`: unknown preset \"nosuch\"",
        ),
        (
            "ra",
            r#"{"base": "tanitar", "retryAfter": {"statuses": ["6xx"], "capSeconds": 1}}"#,
            "policy field `retryAfter.statuses[0]`",
        ),
        ("json", "{not json", "policy field `(document)`: invalid JSON"),
        (
            "type",
            "[1, 2]",
            "policy field `policy`: must be a preset name or a policy object",
        ),
    ];
    for (tag, text, want) in cases {
        let file = TempPolicy::new(tag, text);
        for cmd in [
            vec!["policy", "show", file.path()],
            vec!["policy", "simulate", file.path(), "--outcomes", "503"],
        ] {
            let err = fails(&cmd);
            let prefix = format!("courier: {}: {want}", file.path());
            assert!(err.starts_with(&prefix), "{tag}: {err}");
        }
    }
}

#[test]
fn bad_arguments_fail_without_panicking() {
    // An attempt slower than the timeout is a timeout, not a slow 503.
    let err = fails(&[
        "policy",
        "simulate",
        "tanitar",
        "--outcomes",
        "503",
        "--attempt-duration-ms",
        "18446744073709551615",
    ]);
    assert!(
        err.starts_with(
            "courier: --attempt-duration-ms 18446744073709551615 is longer than policy tanitar's timeout (10000 ms)"
        ),
        "{err}"
    );
    // Exactly the timeout is allowed.
    let v = sim("tanitar", "503,200", &["--attempt-duration-ms", "10000"]);
    assert_eq!(
        v["final"],
        json!({"status": "succeeded", "reason": null, "atSeconds": 70.0})
    );
    // Argument errors from the parser.
    for args in [
        vec!["policy", "simulate", "tanitar"],
        vec!["policy", "simulate", "tanitar", "--outcomes", "503", "--seed", "-1"],
        vec!["policy", "show", "tanitar", "--latency-class", "soon"],
        vec!["policy", "frobnicate"],
    ] {
        let o = courier(&args);
        assert_eq!(o.code, 2, "{args:?}");
        assert!(o.stderr.contains("error:"), "{args:?}: {}", o.stderr);
    }
    // A directory is not a policy file.
    let dir = std::env::temp_dir();
    let err = fails(&["policy", "show", dir.to_str().expect("utf-8")]);
    assert!(err.contains("nor a readable file"), "{err}");
}

#[test]
fn a_closed_stdout_is_not_a_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_courier"))
        .args(["policy", "show", "smartchat", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    let status = child.wait().expect("wait");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{stderr}");
}
