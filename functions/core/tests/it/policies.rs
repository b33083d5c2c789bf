//! docs/policies.md, row by row, through the public API only: every knob of the four
//! presets, every wait of every ladder (jitter bounds and fixed seeds), what a wait is
//! measured from, Retry-After, deadlines, the Greatwait stop rule and classification
//! table, 410 and redirects, Tanitar's dead reasons, failure snippets, attempt
//! headers, the gavAI breaker and SmartChat's health states, all with exact values.

use courier_core::classify::{DUPLICATE_INFLIGHT, cut_snippet};
use courier_core::decide::AttemptFacts;
use courier_core::health::{
    BreakerEvent, BreakerRules, BreakerState, HealthEvent, HealthStatus, SmartHealth, SmartRules,
};
use courier_core::policy::{
    Deadline, GoneHandling, HealthModel, Jitter, ReasonStyle, Redirects, Retention, RetryAfterRule, SnippetLimit,
    StatusPattern, UnusableEndpoint, WaitFrom,
};
use courier_core::rng::Fixed;
use courier_core::{
    AttemptOutcome, AttemptState, Classification, Decision, DeliveryContext, Diagnostic, ErrorClass, LatencyClass,
    Policy, PreSendFailure, RandomSource, Remediation, ResponseSummary, SettleReason, SplitMix64, Timestamp,
    TransportFailure,
};

/// The planned instant of every delivery here (2027-01-15T08:00:00Z).
const T0: Timestamp = Timestamp::from_secs(1_800_000_000);
const MIN: i64 = 60;
const HOUR: i64 = 3_600;
const DAY: i64 = 86_400;

fn s(secs: i64) -> i64 {
    secs * 1000
}

fn status(code: u16) -> AttemptOutcome {
    AttemptOutcome::Response(ResponseSummary::new(code))
}

fn with_retry_after(code: u16, value: &str) -> AttemptOutcome {
    AttemptOutcome::Response(ResponseSummary::new(code).with_header("Retry-After", value))
}

fn transport(f: TransportFailure) -> AttemptOutcome {
    AttemptOutcome::transport(f)
}

fn pre_send(f: PreSendFailure) -> AttemptOutcome {
    AttemptOutcome::pre_send(f)
}

fn preset(name: &str) -> Policy {
    Policy::preset(name).expect("preset exists")
}

/// Outcome and duration (ms) of each attempt; the last entry repeats.
type Script = Vec<(AttemptOutcome, i64)>;

/// One delivery played through `classify` + `decide`, as the sender does it.
#[derive(Debug)]
struct Run {
    /// Attempt start times, milliseconds after the planned instant.
    starts: Vec<i64>,
    /// The `last` flag each attempt was scheduled with (false for the first).
    lasts: Vec<bool>,
    counts: Vec<bool>,
    end: Decision,
    /// When the final attempt ended, milliseconds after the planned instant.
    ended: i64,
}

/// Plays a delivery: `script[i]` is the outcome and duration (ms) of attempt i+1; the
/// last entry repeats.
fn play(policy: &Policy, ctx: &DeliveryContext, script: &[(AttemptOutcome, i64)], rng: &mut dyn RandomSource) -> Run {
    let mut run = Run {
        starts: vec![],
        lasts: vec![],
        counts: vec![],
        end: Decision::Succeeded,
        ended: 0,
    };
    let mut started = ctx.planned_at;
    let mut number = 1;
    let mut last = false;
    let mut receiver_failures = 0;
    loop {
        assert!(number <= 200, "runaway delivery");
        let (outcome, duration) = &script[(number as usize - 1).min(script.len() - 1)];
        let ended = started.plus_millis(*duration);
        let cls = policy.classify(outcome, ctx.long_running_allowance_seconds > 0);
        if cls.counts_toward_receiver_failures {
            receiver_failures += 1;
        }
        run.starts.push(started.millis_since(ctx.planned_at));
        run.lasts.push(last);
        run.counts.push(cls.counts_toward_receiver_failures);
        let facts = AttemptFacts {
            number,
            started_at: started,
            ended_at: ended,
            receiver_failures,
        };
        match policy.decide(ctx, &facts, outcome, &cls, rng) {
            Decision::Retry {
                number: next,
                at,
                last: l,
            } => {
                assert_eq!(next, number + 1);
                number = next;
                started = at;
                last = l;
            }
            end => {
                run.end = end;
                run.ended = ended.millis_since(ctx.planned_at);
                return run;
            }
        }
    }
}

fn failed(reason: SettleReason) -> Decision {
    Decision::Failed { reason }
}

fn immediate() -> DeliveryContext {
    DeliveryContext::immediate(T0)
}

// ---------------------------------------------------------------------------------
// Side by side: the knobs.

#[test]
fn preset_knobs_match_the_side_by_side_table() {
    let g = preset("greatwait");
    assert_eq!(g.name, "greatwait");
    assert_eq!(g.max_attempts, 8);
    assert_eq!(g.waits_seconds, [2.0, 5.0, 15.0, 60.0]);
    assert_eq!(g.wait_from, WaitFrom::AttemptEnd);
    assert_eq!(g.jitter, Jitter { min: 1.0, max: 2.0 });
    assert_eq!(
        g.retry_after,
        Some(RetryAfterRule {
            statuses: vec![StatusPattern::Exact(429)],
            cap_seconds: 3600
        })
    );
    assert_eq!(
        g.deadline,
        Deadline::Horizon {
            realtime_seconds: 900,
            bulk_seconds: 21_600,
            add_long_running_allowance: true
        }
    );
    assert_eq!(g.receiver_failure_limit, Some(5));
    assert_eq!(
        g.retryable_4xx,
        Some(vec![401, 402, 403, 404, 405, 407, 408, 421, 423, 424, 425, 429])
    );
    assert_eq!(g.on_410, GoneHandling::AsStatus);
    assert_eq!(g.redirects, Redirects::Never);
    assert_eq!(g.timeout_ms, 10_000);
    assert_eq!(g.attempt_header, None);
    assert_eq!(g.health, HealthModel::None);
    assert_eq!(g.snippet, SnippetLimit::MaxChars(4096));
    assert_eq!(g.reason_style, ReasonStyle::Cause);
    assert_eq!(g.unusable_endpoint, UnusableEndpoint::Retry);

    let t = preset("tanitar");
    assert_eq!(t.max_attempts, 8);
    assert_eq!(
        t.waits_seconds,
        [60.0, 300.0, 1800.0, 7200.0, 21_600.0, 43_200.0, 86_400.0]
    );
    assert_eq!(t.wait_from, WaitFrom::AttemptStart);
    assert_eq!(t.jitter, Jitter::NONE);
    assert_eq!(t.retry_after, None);
    assert_eq!(t.deadline, Deadline::None);
    assert_eq!(t.receiver_failure_limit, None);
    assert_eq!(t.retryable_4xx, None);
    assert_eq!(t.on_410, GoneHandling::DeliveryGone);
    assert_eq!(t.redirects, Redirects::Never);
    assert_eq!(t.timeout_ms, 10_000);
    assert_eq!(t.attempt_header.as_deref(), Some("tanitar-delivery-attempt"));
    assert_eq!(t.health, HealthModel::None);
    assert_eq!(t.snippet, SnippetLimit::MaxChars(4096));
    assert_eq!(t.reason_style, ReasonStyle::Tanitar);
    assert_eq!(t.unusable_endpoint, UnusableEndpoint::Settle);
    assert_eq!(
        t.retention,
        Retention {
            settled_days: 30,
            replay_window_days: 30
        }
    );

    let gv = preset("gavai");
    assert_eq!(gv.max_attempts, 6);
    assert_eq!(gv.waits_seconds, [128.0, 256.0, 512.0, 1024.0, 2048.0]);
    assert_eq!(gv.waits_seconds.iter().sum::<f64>(), 3968.0);
    assert_eq!(gv.wait_from, WaitFrom::AttemptEnd);
    assert_eq!(gv.jitter, Jitter::NONE);
    assert_eq!(gv.retry_after, None);
    assert_eq!(gv.deadline, Deadline::None);
    assert_eq!(gv.receiver_failure_limit, None);
    assert_eq!(gv.retryable_4xx, None);
    assert_eq!(gv.on_410, GoneHandling::AsStatus);
    assert_eq!(gv.timeout_ms, 10_000);
    assert_eq!(gv.attempt_header, None);
    assert_eq!(
        gv.health,
        HealthModel::Breaker {
            exhausted_in_a_row: 5,
            open_seconds: 3600
        }
    );
    assert_eq!(gv.snippet, SnippetLimit::MaxBytes(256));
    assert_eq!(gv.reason_style, ReasonStyle::Cause);
    assert_eq!(gv.retention.replay_window_days, 7);

    let sc = preset("smartchat");
    assert_eq!(sc.max_attempts, 9);
    assert_eq!(
        sc.waits_seconds,
        [30.0, 120.0, 600.0, 3600.0, 14_400.0, 43_200.0, 86_400.0, 172_800.0]
    );
    assert_eq!(sc.wait_from, WaitFrom::AttemptEnd);
    assert_eq!(sc.jitter, Jitter { min: 0.8, max: 1.2 });
    assert_eq!(
        sc.retry_after,
        Some(RetryAfterRule {
            statuses: vec![StatusPattern::Exact(429), StatusPattern::Class(5)],
            cap_seconds: 86_400
        })
    );
    assert_eq!(sc.deadline, Deadline::ClampLast { after_seconds: 259_200 });
    assert_eq!(sc.receiver_failure_limit, None);
    assert_eq!(sc.retryable_4xx, None);
    assert_eq!(sc.on_410, GoneHandling::DisableEndpoint);
    assert_eq!(sc.timeout_ms, 10_000);
    assert_eq!(sc.attempt_header.as_deref(), Some("SmartChat-Delivery-Attempt"));
    assert_eq!(
        sc.health,
        HealthModel::Smartchat {
            degrade_after_failures: 5,
            pause_after_failures: 20,
            pause_after_seconds: 3 * 86_400,
            disable_after_seconds: 7 * 86_400
        }
    );
    assert_eq!(sc.snippet, SnippetLimit::MaxChars(4096));
    assert_eq!(sc.unusable_endpoint, UnusableEndpoint::Settle);
    assert_eq!(
        sc.retention,
        Retention {
            settled_days: 30,
            replay_window_days: 7
        }
    );

    for p in [&g, &t, &gv, &sc] {
        p.validate().expect("presets are valid");
        assert!(p.is_preset(), "{}", p.name);
    }
    assert!(Policy::preset("GreatWait").is_none());
    assert!(Policy::preset("custom").is_none());
}

// ---------------------------------------------------------------------------------
// Ladders: every wait, at both jitter bounds and with fixed seeds.

#[test]
fn base_waits_and_jitter_bounds_of_every_rung() {
    // (preset, [(attempt, base ms, min ms, max ms)])
    /// (attempt, base ms, min ms, max ms)
    type Rung = (u32, u64, u64, u64);
    let table: [(&str, Vec<Rung>); 4] = [
        (
            "greatwait",
            vec![
                (2, 2_000, 2_000, 4_000),
                (3, 5_000, 5_000, 10_000),
                (4, 15_000, 15_000, 30_000),
                (5, 60_000, 60_000, 120_000),
                (6, 60_000, 60_000, 120_000),
                (7, 60_000, 60_000, 120_000),
                (8, 60_000, 60_000, 120_000),
            ],
        ),
        (
            "tanitar",
            vec![
                (2, 60_000, 60_000, 60_000),
                (3, 300_000, 300_000, 300_000),
                (4, 1_800_000, 1_800_000, 1_800_000),
                (5, 7_200_000, 7_200_000, 7_200_000),
                (6, 21_600_000, 21_600_000, 21_600_000),
                (7, 43_200_000, 43_200_000, 43_200_000),
                (8, 86_400_000, 86_400_000, 86_400_000),
            ],
        ),
        (
            "gavai",
            vec![
                (2, 128_000, 128_000, 128_000),
                (3, 256_000, 256_000, 256_000),
                (4, 512_000, 512_000, 512_000),
                (5, 1_024_000, 1_024_000, 1_024_000),
                (6, 2_048_000, 2_048_000, 2_048_000),
            ],
        ),
        (
            "smartchat",
            vec![
                (2, 30_000, 24_000, 36_000),
                (3, 120_000, 96_000, 144_000),
                (4, 600_000, 480_000, 720_000),
                (5, 3_600_000, 2_880_000, 4_320_000),
                (6, 14_400_000, 11_520_000, 17_280_000),
                (7, 43_200_000, 34_560_000, 51_840_000),
                (8, 86_400_000, 69_120_000, 103_680_000),
                (9, 172_800_000, 138_240_000, 207_360_000),
            ],
        ),
    ];
    for (name, rungs) in table {
        let p = preset(name);
        assert_eq!(rungs.len() as u32, p.max_attempts - 1, "{name}");
        assert_eq!(p.base_wait_ms(1), 0, "{name}: attempt 1 is immediate");
        for (n, base, lo, hi) in rungs {
            assert_eq!(p.base_wait_ms(n), base, "{name} #{n}");
            assert_eq!(p.wait_bounds_ms(n), (lo, hi), "{name} #{n}");
            assert_eq!(p.jittered_wait_ms(n, 0.0), lo, "{name} #{n}");
            assert_eq!(p.jittered_wait_ms(n, 1.0), hi, "{name} #{n}");
        }
    }
    // A factor that is not exact in binary must not add a millisecond.
    let p = Policy::from_json(r#"{"maxAttempts": 2, "waitsSeconds": [3], "jitter": {"min": 1.1, "max": 1.1}}"#)
        .expect("valid");
    assert_eq!(p.wait_bounds_ms(2), (3_300, 3_300));
    assert_eq!(p.jittered_wait_ms(2, 0.5), 3_300);
}

#[test]
fn ladders_at_the_jitter_bounds_with_instant_attempts() {
    let all_fail = |code| vec![(status(code), 0)];
    // (preset, rng fraction, outcome, starts in seconds, clamp flags, end)
    type Case = (&'static str, f64, u16, Vec<i64>, Vec<bool>, Decision);
    let cases: Vec<Case> = vec![
        // Greatwait: 429 never counts toward the 5, so the whole ladder of 8 runs.
        (
            "greatwait",
            0.0,
            429,
            vec![0, 2, 7, 22, 82, 142, 202, 262],
            vec![false; 8],
            failed(SettleReason::MaxAttempts),
        ),
        (
            "greatwait",
            1.0,
            429,
            vec![0, 4, 14, 44, 164, 284, 404, 524],
            vec![false; 8],
            failed(SettleReason::MaxAttempts),
        ),
        (
            "tanitar",
            0.0,
            503,
            vec![
                0,
                MIN,
                6 * MIN,
                36 * MIN,
                2 * HOUR + 36 * MIN,
                8 * HOUR + 36 * MIN,
                20 * HOUR + 36 * MIN,
                44 * HOUR + 36 * MIN,
            ],
            vec![false; 8],
            failed(SettleReason::MaxAttempts),
        ),
        (
            "tanitar",
            1.0,
            503,
            vec![0, 60, 360, 2_160, 9_360, 30_960, 74_160, 160_560],
            vec![false; 8],
            failed(SettleReason::MaxAttempts),
        ),
        (
            "gavai",
            0.0,
            503,
            vec![0, 128, 384, 896, 1_920, 3_968],
            vec![false; 6],
            failed(SettleReason::MaxAttempts),
        ),
        (
            "gavai",
            1.0,
            503,
            vec![0, 128, 384, 896, 1_920, 3_968],
            vec![false; 6],
            failed(SettleReason::MaxAttempts),
        ),
        // SmartChat at the shortest waits: all 9 attempts fit before event + 72 h.
        (
            "smartchat",
            0.0,
            503,
            vec![0, 24, 120, 600, 3_480, 15_000, 49_560, 118_680, 256_920],
            vec![false; 9],
            failed(SettleReason::MaxAttempts),
        ),
        // At the longest waits the 9th attempt would fall at 385,380 s: clamped to 72 h.
        (
            "smartchat",
            1.0,
            503,
            vec![0, 36, 180, 900, 5_220, 22_500, 74_340, 178_020, 3 * DAY],
            vec![false, false, false, false, false, false, false, false, true],
            failed(SettleReason::MaxAttempts),
        ),
        // Unjittered (factor 1.0): 321,150 s would be past 72 h too.
        (
            "smartchat",
            0.5,
            503,
            vec![0, 30, 150, 750, 4_350, 18_750, 61_950, 148_350, 3 * DAY],
            vec![false, false, false, false, false, false, false, false, true],
            failed(SettleReason::MaxAttempts),
        ),
    ];
    for (name, u, code, starts, lasts, end) in cases {
        let run = play(&preset(name), &immediate(), &all_fail(code), &mut Fixed(u));
        let want: Vec<i64> = starts.iter().map(|x| s(*x)).collect();
        assert_eq!(run.starts, want, "{name} u={u}");
        assert_eq!(run.lasts, lasts, "{name} u={u}");
        assert_eq!(run.end, end, "{name} u={u}");
    }
}

#[test]
fn ladders_with_fixed_seeds() {
    // Independently computed with a reference SplitMix64 (one draw per retry,
    // factor = min + (max - min) * (x >> 11) / (2^53 - 1), rounded up to the ms).
    let cases: Vec<(&str, u64, u16, Vec<i64>, bool)> = vec![
        (
            "greatwait",
            0,
            429,
            vec![0, 3_767, 10_925, 26_322, 144_575, 210_956, 290_596, 361_029],
            false,
        ),
        (
            "greatwait",
            1,
            429,
            vec![0, 3_134, 11_863, 41_429, 128_091, 214_747, 320_521, 433_162],
            false,
        ),
        (
            "greatwait",
            42,
            429,
            vec![0, 3_484, 9_284, 28_464, 109_116, 171_398, 283_492, 356_597],
            false,
        ),
        (
            "smartchat",
            7,
            503,
            vec![
                0,
                28_678,
                125_484,
                821_667,
                4_541_087,
                18_667_153,
                57_537_330,
                142_829_786,
                259_200_000,
            ],
            true,
        ),
        (
            "smartchat",
            2026,
            503,
            vec![
                0,
                34_295,
                152_934,
                793_097,
                4_227_173,
                20_306_817,
                67_419_082,
                169_475_105,
                259_200_000,
            ],
            true,
        ),
        // No jitter: every seed gives the documented ladder.
        (
            "tanitar",
            99,
            503,
            vec![
                0,
                60_000,
                360_000,
                2_160_000,
                9_360_000,
                30_960_000,
                74_160_000,
                160_560_000,
            ],
            false,
        ),
        (
            "gavai",
            99,
            503,
            vec![0, 128_000, 384_000, 896_000, 1_920_000, 3_968_000],
            false,
        ),
    ];
    for (name, seed, code, starts_ms, clamped_last) in cases {
        let p = preset(name);
        let run = play(&p, &immediate(), &[(status(code), 0)], &mut SplitMix64::new(seed));
        assert_eq!(run.starts, starts_ms, "{name} seed {seed}");
        assert_eq!(run.lasts.last().copied(), Some(clamped_last), "{name} seed {seed}");
        assert_eq!(run.end, failed(SettleReason::MaxAttempts), "{name} seed {seed}");
        // Every wait lies within the rung's bounds (the clamped one aside).
        for (i, pair) in starts_ms.windows(2).enumerate() {
            let n = i as u32 + 2;
            let (lo, hi) = p.wait_bounds_ms(n);
            let wait = (pair[1] - pair[0]) as u64;
            if !(clamped_last && n == p.max_attempts) {
                assert!(lo <= wait && wait <= hi, "{name} seed {seed} #{n}: {wait}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// What a wait is measured from.

#[test]
fn waits_are_measured_from_the_end_or_the_start_of_the_attempt() {
    // Every attempt lasts 1.5 s.
    let cases: Vec<(&str, Vec<i64>)> = vec![
        // From the end of the failed attempt: each start moves 1.5 s per attempt.
        (
            "greatwait",
            vec![0, 3_500, 10_000, 26_500, 88_000, 149_500, 211_000, 272_500],
        ),
        // From the start of the previous attempt: the duration changes nothing.
        (
            "tanitar",
            vec![
                0,
                60_000,
                360_000,
                2_160_000,
                9_360_000,
                30_960_000,
                74_160_000,
                160_560_000,
            ],
        ),
        ("gavai", vec![0, 129_500, 387_000, 900_500, 1_926_000, 3_975_500]),
        (
            "smartchat",
            vec![
                0,
                25_500,
                123_000,
                604_500,
                3_486_000,
                15_007_500,
                49_569_000,
                118_690_500,
                256_932_000,
            ],
        ),
    ];
    for (name, starts) in cases {
        let run = play(&preset(name), &immediate(), &[(status(429), 1_500)], &mut Fixed(0.0));
        assert_eq!(run.starts, starts, "{name}");
    }
    // A Tanitar attempt that takes its whole 10 s timeout: the next still starts 60 s
    // after the previous one started.
    let run = play(
        &preset("tanitar"),
        &immediate(),
        &[(transport(TransportFailure::Timeout), 10_000)],
        &mut Fixed(0.0),
    );
    assert_eq!(&run.starts[..3], &[0, 60_000, 360_000]);
    assert_eq!(run.ended, 160_570_000);
}

// ---------------------------------------------------------------------------------
// Retry-After.

#[test]
fn retry_after_is_honoured_per_preset_with_its_cap() {
    let now = Timestamp::from_secs(1_445_412_480); // Wed, 21 Oct 2015 07:28:00 GMT
    let in_two_hours = "Wed, 21 Oct 2015 09:28:00 GMT";
    let in_two_minutes = "Wed, 21 Oct 2015 07:30:00 GMT";
    let in_the_past = "Wed, 21 Oct 2015 07:00:00 GMT";
    // (preset, next attempt number, status, Retry-After, rng fraction, expected wait ms)
    let cases: Vec<(&str, u32, u16, &str, f64, u64)> = vec![
        // Greatwait: 429 only, wait = max(normal, min(RA, 1h)).
        ("greatwait", 2, 429, "30", 0.0, 30_000),
        ("greatwait", 2, 429, "30", 1.0, 30_000),
        ("greatwait", 2, 429, "1", 0.0, 2_000),
        ("greatwait", 2, 429, "1", 1.0, 4_000),
        ("greatwait", 2, 429, "3", 1.0, 4_000),
        ("greatwait", 5, 429, "30", 0.0, 60_000),
        ("greatwait", 2, 429, "3600", 0.0, 3_600_000),
        ("greatwait", 2, 429, "7200", 0.0, 3_600_000),
        ("greatwait", 2, 429, "99999999999999999999999", 0.0, 3_600_000),
        ("greatwait", 2, 429, in_two_minutes, 0.0, 120_000),
        ("greatwait", 2, 429, in_two_hours, 0.0, 3_600_000),
        ("greatwait", 2, 429, in_the_past, 0.0, 2_000),
        ("greatwait", 2, 503, "30", 0.0, 2_000),
        ("greatwait", 2, 500, "30", 0.0, 2_000),
        ("greatwait", 2, 404, "30", 0.0, 2_000),
        // Bad values are ignored.
        ("greatwait", 2, 429, "soon", 0.0, 2_000),
        ("greatwait", 2, 429, "-5", 0.0, 2_000),
        ("greatwait", 2, 429, "1.5", 0.0, 2_000),
        ("greatwait", 2, 429, "", 0.0, 2_000),
        ("greatwait", 2, 429, "Wed, 99 Oct 2015 07:30:00 GMT", 0.0, 2_000),
        // Tanitar and gavAI never honour it.
        ("tanitar", 2, 429, "600", 0.0, 60_000),
        ("tanitar", 2, 503, "600", 0.0, 60_000),
        ("tanitar", 2, 503, in_two_hours, 0.0, 60_000),
        ("gavai", 2, 429, "600", 0.0, 128_000),
        ("gavai", 2, 503, "600", 0.0, 128_000),
        ("gavai", 3, 503, in_two_hours, 0.0, 256_000),
        // SmartChat: 429 and 5xx, cap 24 h.
        ("smartchat", 2, 429, "100", 0.0, 100_000),
        ("smartchat", 2, 429, "100", 1.0, 100_000),
        ("smartchat", 2, 503, "100", 0.0, 100_000),
        ("smartchat", 2, 500, "100", 0.0, 100_000),
        ("smartchat", 2, 599, "100", 0.0, 100_000),
        ("smartchat", 2, 503, "10", 0.0, 24_000),
        ("smartchat", 2, 503, "10", 1.0, 36_000),
        ("smartchat", 9, 503, "100", 0.0, 138_240_000),
        ("smartchat", 2, 503, "200000", 0.0, 86_400_000),
        ("smartchat", 4, 429, "86400", 0.0, 86_400_000),
        ("smartchat", 2, 503, in_two_hours, 0.0, 7_200_000),
        ("smartchat", 2, 503, in_the_past, 0.0, 24_000),
        ("smartchat", 2, 503, "tomorrow", 0.0, 24_000),
        ("smartchat", 2, 404, "100", 0.0, 24_000),
        ("smartchat", 2, 408, "100", 0.0, 24_000),
        ("smartchat", 2, 302, "100", 0.0, 24_000),
    ];
    for (name, next, code, ra, u, want) in cases {
        let p = preset(name);
        let got = p.next_wait_ms(next, &with_retry_after(code, ra), now, &mut Fixed(u));
        assert_eq!(got, want, "{name} #{next} {code} Retry-After {ra:?} u={u}");
    }
    // The HTTP-date form counts from the instant the answer arrived, rounded up to
    // the second: an answer at 07:28:00.500 asking for 07:30:00 waits 120 s.
    let p = preset("smartchat");
    let late = now.plus_millis(500);
    assert_eq!(
        p.next_wait_ms(2, &with_retry_after(503, in_two_minutes), late, &mut Fixed(0.0)),
        120_000
    );
}

#[test]
fn retry_after_through_decide_counts_from_the_answer() {
    // Greatwait (bulk, so the 1 h cap is not cut by the 15 min horizon): 429 with
    // Retry-After 7200 after a 2 s attempt -> next attempt 1 h after the answer.
    let g = preset("greatwait");
    let ctx = DeliveryContext {
        planned_at: T0,
        latency_class: LatencyClass::Bulk,
        long_running_allowance_seconds: 0,
    };
    let outcome = with_retry_after(429, "7200");
    let facts = AttemptFacts {
        number: 1,
        started_at: T0,
        ended_at: T0.plus_secs(2),
        receiver_failures: 0,
    };
    let cls = g.classify(&outcome, false);
    assert_eq!(
        g.decide(&ctx, &facts, &outcome, &cls, &mut Fixed(0.0)),
        Decision::Retry {
            number: 2,
            at: T0.plus_secs(2 + 3600),
            last: false
        }
    );
    // A custom policy that measures waits from the attempt's start and honours
    // Retry-After: the Retry-After still counts from the answer, so a slow attempt
    // cannot shorten it (60 s ladder, 10 s attempt, Retry-After 120 -> 130 s).
    let p = Policy::from_json(r#"{"base": "tanitar", "retryAfter": {"statuses": ["429"], "capSeconds": 3600}}"#)
        .expect("valid");
    let outcome = with_retry_after(429, "120");
    let facts = AttemptFacts {
        number: 1,
        started_at: T0,
        ended_at: T0.plus_secs(10),
        receiver_failures: 1,
    };
    let cls = p.classify(&outcome, false);
    assert_eq!(
        p.decide(&immediate(), &facts, &outcome, &cls, &mut Fixed(0.0)),
        Decision::Retry {
            number: 2,
            at: T0.plus_secs(130),
            last: false
        }
    );
    // A short Retry-After leaves the start-measured ladder alone.
    let outcome = with_retry_after(429, "5");
    assert_eq!(
        p.decide(&immediate(), &facts, &outcome, &cls, &mut Fixed(0.0)),
        Decision::Retry {
            number: 2,
            at: T0.plus_secs(60),
            last: false
        }
    );
}

// ---------------------------------------------------------------------------------
// Deadlines.

#[test]
fn greatwait_deadline_is_planned_plus_horizon_plus_allowance() {
    let g = preset("greatwait");
    let ctx = |latency_class, allowance| DeliveryContext {
        planned_at: T0,
        latency_class,
        long_running_allowance_seconds: allowance,
    };
    let rt = ctx(LatencyClass::Realtime, 0);
    assert_eq!(g.attempt_deadline(&rt), Some(T0.plus_secs(900)));
    assert_eq!(
        g.attempt_deadline(&ctx(LatencyClass::Bulk, 0)),
        Some(T0.plus_secs(21_600))
    );
    assert_eq!(
        g.attempt_deadline(&ctx(LatencyClass::Realtime, 120)),
        Some(T0.plus_secs(1_020))
    );
    assert_eq!(
        g.attempt_deadline(&ctx(LatencyClass::Bulk, 120)),
        Some(T0.plus_secs(21_720))
    );
    assert!(g.may_start(&rt, T0.plus_secs(900)));
    assert!(!g.may_start(&rt, T0.plus_millis(900_001)));
    for name in ["tanitar", "gavai"] {
        assert_eq!(preset(name).attempt_deadline(&rt), None, "{name}");
        assert!(preset(name).may_start(&rt, T0.plus_secs(365 * DAY)), "{name}");
    }

    // (context, script, starts in seconds)
    let cases: Vec<(DeliveryContext, Script, Vec<i64>)> = vec![
        // 429 asking for 10 min: the third attempt would start at 20 min > 15 min.
        (rt, vec![(with_retry_after(429, "600"), 0)], vec![0, 600]),
        // An attempt exactly at the horizon still starts.
        (rt, vec![(with_retry_after(429, "450"), 0)], vec![0, 450, 900]),
        // Measured from the end: 5 s attempts push the third one to 902 s.
        (rt, vec![(with_retry_after(429, "446"), 5_000)], vec![0, 451]),
        // A 10 min long-running allowance stretches the horizon to 25 min.
        (
            ctx(LatencyClass::Realtime, 600),
            vec![(with_retry_after(429, "600"), 0)],
            vec![0, 600, 1_200],
        ),
        // Bulk: 6 h.
        (
            ctx(LatencyClass::Bulk, 0),
            vec![(with_retry_after(429, "3600"), 0)],
            vec![0, 3_600, 7_200, 10_800, 14_400, 18_000, 21_600],
        ),
    ];
    for (ctx, script, starts) in cases {
        let run = play(&g, &ctx, &script, &mut Fixed(0.0));
        let want: Vec<i64> = starts.iter().map(|x| s(*x)).collect();
        assert_eq!(run.starts, want, "{ctx:?}");
        assert_eq!(run.end, failed(SettleReason::Deadline), "{ctx:?}");
        assert_eq!(SettleReason::Deadline.label(g.reason_style), "deadline");
    }
}

#[test]
fn greatwait_long_running_acceptance_waits_for_the_allowance() {
    let g = preset("greatwait");
    let ctx = DeliveryContext {
        planned_at: T0,
        latency_class: LatencyClass::Realtime,
        long_running_allowance_seconds: 300,
    };
    let outcome = status(202);
    let cls = g.classify(&outcome, true);
    assert_eq!(cls.state, AttemptState::AwaitingCompletion);
    assert_eq!(cls.diagnostic, Diagnostic::AcceptedLongRunning);
    assert!(!cls.counts_toward_receiver_failures);
    let facts = AttemptFacts {
        number: 1,
        started_at: T0,
        ended_at: T0.plus_secs(1),
        receiver_failures: 0,
    };
    assert_eq!(
        g.decide(&ctx, &facts, &outcome, &cls, &mut Fixed(0.0)),
        Decision::AwaitCompletion {
            until: T0.plus_secs(301)
        }
    );
    // Without an allowance a 202 is a plain success.
    assert_eq!(g.classify(&outcome, false).state, AttemptState::Succeeded);
}

#[test]
fn smartchat_clamps_to_planned_plus_72h_as_the_last_attempt() {
    let sc = preset("smartchat");
    let ctx = immediate();
    let limit = T0.plus_secs(3 * DAY);
    assert_eq!(sc.attempt_deadline(&ctx), Some(limit));

    // (script, starts in ms, clamp flags)
    let cases: Vec<(Script, Vec<i64>, Vec<bool>)> = vec![
        // Retry-After 24 h on every 5xx: the 4th attempt lands exactly on 72 h and is
        // the last even though 5 more remain on the ladder.
        (
            vec![(with_retry_after(503, "86400"), 0)],
            vec![0, s(DAY), s(2 * DAY), s(3 * DAY)],
            vec![false, false, false, true],
        ),
        // A longer Retry-After is capped at 24 h first.
        (
            vec![(with_retry_after(429, "200000"), 0)],
            vec![0, s(DAY), s(2 * DAY), s(3 * DAY)],
            vec![false, false, false, true],
        ),
        // With 1 s attempts the 4th would fall at 72 h + 3 s: moved forward to 72 h.
        (
            vec![(with_retry_after(503, "86400"), 1_000)],
            vec![0, s(DAY + 1), s(2 * DAY + 2), s(3 * DAY)],
            vec![false, false, false, true],
        ),
    ];
    for (script, starts, lasts) in cases {
        let run = play(&sc, &ctx, &script, &mut Fixed(0.0));
        assert_eq!(run.starts, starts);
        assert_eq!(run.lasts, lasts);
        assert_eq!(run.end, failed(SettleReason::Deadline));
    }
    // The clamped attempt can still succeed.
    let run = play(
        &sc,
        &ctx,
        &[
            (with_retry_after(503, "86400"), 0),
            (with_retry_after(503, "86400"), 0),
            (with_retry_after(503, "86400"), 0),
            (status(204), 0),
        ],
        &mut Fixed(0.0),
    );
    assert_eq!(run.starts.last().copied(), Some(s(3 * DAY)));
    assert_eq!(run.end, Decision::Succeeded);

    // An attempt that started before 72 h but ended after it leaves no room: the
    // delivery settles instead of attempting after the clamp instant.
    let outcome = status(503);
    let cls = sc.classify(&outcome, false);
    let facts = AttemptFacts {
        number: 3,
        started_at: limit.plus_secs(-5),
        ended_at: limit.plus_secs(5),
        receiver_failures: 3,
    };
    assert_eq!(
        sc.decide(&ctx, &facts, &outcome, &cls, &mut Fixed(0.0)),
        failed(SettleReason::Deadline)
    );
    // Ending exactly at the clamp instant still allows the clamped attempt.
    let facts = AttemptFacts {
        ended_at: limit,
        ..facts
    };
    assert_eq!(
        sc.decide(&ctx, &facts, &outcome, &cls, &mut Fixed(0.0)),
        Decision::Retry {
            number: 4,
            at: limit,
            last: true
        }
    );
}

// ---------------------------------------------------------------------------------
// Greatwait: 5 receiver-caused failures.

#[test]
fn greatwait_stops_at_five_receiver_caused_failures() {
    let g = preset("greatwait");
    // 429 and pre-send failures do not count toward the 5 but do toward the 8.
    let script = vec![
        (status(429), 0),
        (pre_send(PreSendFailure::EndpointUnsafe), 0),
        (status(503), 0),
        (transport(TransportFailure::ResetAfterSend), 0),
        (status(408), 0),
        (status(302), 0),
        (transport(TransportFailure::Dns), 0),
    ];
    let run = play(&g, &immediate(), &script, &mut Fixed(0.0));
    assert_eq!(run.counts, [false, false, true, true, true, true, true]);
    assert_eq!(run.starts, [0, 2_000, 7_000, 22_000, 82_000, 142_000, 202_000]);
    assert_eq!(run.end, failed(SettleReason::ReceiverFailures));
    assert_eq!(
        SettleReason::ReceiverFailures.label(ReasonStyle::Cause),
        "receiver_failures"
    );

    // Five 5xx in a row: five attempts.
    let run = play(&g, &immediate(), &[(status(503), 0)], &mut Fixed(0.0));
    assert_eq!(run.starts, [0, 2_000, 7_000, 22_000, 82_000]);
    assert_eq!(run.end, failed(SettleReason::ReceiverFailures));

    // Only uncounted failures: the full 8.
    let script = vec![
        (status(429), 0),
        (pre_send(PreSendFailure::EndpointDisabled), 0),
        (pre_send(PreSendFailure::EndpointUnsafe), 0),
        (status(429), 0),
    ];
    let run = play(&g, &immediate(), &script, &mut Fixed(0.0));
    assert_eq!(run.starts.len(), 8);
    assert_eq!(run.counts, [false; 8]);
    assert_eq!(run.end, failed(SettleReason::MaxAttempts));

    // Both limits reached by the 8th attempt: the attempt limit is named (it is
    // checked first; either is true).
    let script = vec![(status(429), 0), (status(429), 0), (status(429), 0), (status(500), 0)];
    let run = play(&g, &immediate(), &script, &mut Fixed(0.0));
    assert_eq!(run.starts.len(), 8);
    assert_eq!(run.end, failed(SettleReason::MaxAttempts));

    // Directly: 4 counted failures retry, the 5th settles.
    let outcome = status(500);
    let cls = g.classify(&outcome, false);
    let facts = |receiver_failures| AttemptFacts {
        number: 6,
        started_at: T0.plus_secs(100),
        ended_at: T0.plus_secs(100),
        receiver_failures,
    };
    assert_eq!(
        g.decide(&immediate(), &facts(4), &outcome, &cls, &mut Fixed(0.0)),
        Decision::Retry {
            number: 7,
            at: T0.plus_secs(160),
            last: false
        }
    );
    assert_eq!(
        g.decide(&immediate(), &facts(5), &outcome, &cls, &mut Fixed(0.0)),
        failed(SettleReason::ReceiverFailures)
    );

    // No other preset has the rule: eight 5xx make eight Tanitar attempts.
    let run = play(&preset("tanitar"), &immediate(), &[(status(503), 0)], &mut Fixed(0.0));
    assert_eq!(run.starts.len(), 8);
}

// ---------------------------------------------------------------------------------
// 410 Gone, redirects.

#[test]
fn gone_is_handled_per_preset() {
    let gone = status(410);

    let g = preset("greatwait");
    let cls = g.classify(&gone, false);
    assert_eq!(
        cls,
        Classification {
            state: AttemptState::TerminalFailure,
            diagnostic: Diagnostic::HttpTerminal,
            remediation: Remediation::InspectReceiver,
            error_class: Some(ErrorClass::Status),
            counts_toward_receiver_failures: true,
            settles: Some(SettleReason::TerminalStatus),
            disables_endpoint: false,
        }
    );
    let run = play(&g, &immediate(), &[(gone.clone(), 0)], &mut Fixed(0.0));
    assert_eq!(run.starts, [0]);
    assert_eq!(run.end, failed(SettleReason::TerminalStatus));

    let t = preset("tanitar");
    let cls = t.classify(&gone, false);
    assert_eq!(cls.state, AttemptState::TerminalFailure);
    assert_eq!(cls.diagnostic, Diagnostic::EndpointGone);
    assert_eq!(cls.error_class, Some(ErrorClass::Status));
    assert_eq!(cls.settles, Some(SettleReason::EndpointGone));
    assert!(!cls.disables_endpoint);
    let run = play(
        &t,
        &immediate(),
        &[(status(503), 0), (gone.clone(), 0)],
        &mut Fixed(0.0),
    );
    assert_eq!(run.starts, [0, 60_000]);
    assert_eq!(run.end, failed(SettleReason::EndpointGone));
    assert_eq!(SettleReason::EndpointGone.label(t.reason_style), "ENDPOINT_GONE");

    // gavAI: an ordinary failure, the ladder goes on.
    let gv = preset("gavai");
    let cls = gv.classify(&gone, false);
    assert_eq!(cls.state, AttemptState::RetryableFailure);
    assert_eq!(cls.diagnostic, Diagnostic::HttpRefused);
    assert_eq!(cls.settles, None);
    assert!(!cls.disables_endpoint);
    let run = play(&gv, &immediate(), &[(gone.clone(), 0)], &mut Fixed(0.0));
    assert_eq!(run.starts, [0, 128_000, 384_000, 896_000, 1_920_000, 3_968_000]);
    assert_eq!(run.end, failed(SettleReason::MaxAttempts));

    // SmartChat: the endpoint is disabled at once and the delivery fails.
    let sc = preset("smartchat");
    let cls = sc.classify(&gone, false);
    assert_eq!(cls.state, AttemptState::TerminalFailure);
    assert_eq!(cls.diagnostic, Diagnostic::EndpointGone);
    assert_eq!(cls.settles, Some(SettleReason::EndpointDisabled));
    assert!(cls.disables_endpoint);
    let run = play(&sc, &immediate(), &[(gone, 0)], &mut Fixed(0.0));
    assert_eq!(run.starts, [0]);
    assert_eq!(run.end, failed(SettleReason::EndpointDisabled));
    assert_eq!(
        SettleReason::EndpointDisabled.label(sc.reason_style),
        "endpoint_disabled"
    );
    for p in [&g, &t, &gv] {
        assert!(!p.classify(&status(410), false).disables_endpoint, "{}", p.name);
    }
}

#[test]
fn redirects_are_never_followed_and_are_retryable_failures() {
    for name in courier_core::policy::PRESET_NAMES {
        let p = preset(name);
        assert_eq!(p.redirects, Redirects::Never);
        for code in [300, 301, 302, 303, 304, 307, 308] {
            assert_eq!(
                p.classify(&status(code), false),
                Classification {
                    state: AttemptState::RetryableFailure,
                    diagnostic: Diagnostic::HttpRetryable,
                    remediation: Remediation::ReviewRetryPolicy,
                    error_class: Some(ErrorClass::Redirect),
                    counts_toward_receiver_failures: true,
                    settles: None,
                    disables_endpoint: false,
                },
                "{name} {code}"
            );
        }
    }
    let run = play(&preset("tanitar"), &immediate(), &[(status(301), 0)], &mut Fixed(0.0));
    assert_eq!(run.starts.len(), 8);
    assert_eq!(run.end, failed(SettleReason::MaxAttempts));
    assert_eq!(ErrorClass::Redirect.as_str(), "redirect");
}

// ---------------------------------------------------------------------------------
// Greatwait: classification table.

/// (state, diagnostic, remediation, counts) as wire names.
type Row = (&'static str, &'static str, &'static str, bool);

fn wire(c: &Classification) -> (String, String, String, bool) {
    (
        c.state.as_str(),
        c.diagnostic.as_str(),
        c.remediation.as_str(),
        c.counts_toward_receiver_failures,
    )
}

fn row(r: Row) -> (String, String, String, bool) {
    (r.0.to_owned(), r.1.to_owned(), r.2.to_owned(), r.3)
}

#[test]
fn greatwait_classification_table() {
    let g = preset("greatwait");
    const SUCCEEDED: Row = ("succeeded", "delivered", "none", false);
    const RETRYABLE: Row = ("retryable_failure", "http_retryable", "review_retry_policy", true);
    const RATE_LIMITED: Row = ("retryable_failure", "rate_limited", "review_retry_policy", false);
    const REFUSED: Row = ("retryable_failure", "http_refused", "inspect_receiver", true);
    const TERMINAL: Row = ("terminal_failure", "http_terminal", "inspect_receiver", true);
    let refused = [401, 402, 403, 404, 405, 407, 421, 423, 424, 425];

    for code in 200..=299u16 {
        let c = g.classify(&status(code), false);
        assert_eq!(wire(&c), row(SUCCEEDED), "{code}");
        assert_eq!(c.error_class, None);
        assert_eq!(
            g.decide(
                &immediate(),
                &AttemptFacts {
                    number: 1,
                    started_at: T0,
                    ended_at: T0,
                    receiver_failures: 0
                },
                &status(code),
                &c,
                &mut Fixed(0.0)
            ),
            Decision::Succeeded
        );
    }
    for code in 300..=399u16 {
        assert_eq!(wire(&g.classify(&status(code), false)), row(RETRYABLE), "{code}");
    }
    for code in 400..=499u16 {
        let c = g.classify(&status(code), false);
        let want = match code {
            408 => RETRYABLE,
            429 => RATE_LIMITED,
            c if refused.contains(&c) => REFUSED,
            _ => TERMINAL,
        };
        assert_eq!(wire(&c), row(want), "{code}");
        assert_eq!(c.error_class, Some(ErrorClass::Status), "{code}");
        let settles = (want == TERMINAL).then_some(SettleReason::TerminalStatus);
        assert_eq!(c.settles, settles, "{code}");
    }
    for code in [400, 409, 410, 413] {
        assert_eq!(wire(&g.classify(&status(code), false)), row(TERMINAL), "{code}");
    }
    for code in 500..=599u16 {
        let c = g.classify(&status(code), false);
        assert_eq!(wire(&c), row(RETRYABLE), "{code}");
        assert_eq!(c.settles, None);
    }

    let others: Vec<(AttemptOutcome, Row, Option<ErrorClass>, Option<SettleReason>)> = vec![
        (
            transport(TransportFailure::Timeout),
            ("ambiguous", "network_ambiguous", "review_before_redelivery", true),
            Some(ErrorClass::Timeout),
            None,
        ),
        (
            transport(TransportFailure::ResetAfterSend),
            ("ambiguous", "network_ambiguous", "review_before_redelivery", true),
            Some(ErrorClass::Network),
            None,
        ),
        (
            AttemptOutcome::CompletionTimedOut,
            ("ambiguous", "completion_timed_out", "review_before_redelivery", true),
            Some(ErrorClass::Timeout),
            None,
        ),
        (
            transport(TransportFailure::Dns),
            ("retryable_failure", "endpoint_unavailable", "review_endpoint", true),
            Some(ErrorClass::Dns),
            None,
        ),
        (
            transport(TransportFailure::Refused),
            ("retryable_failure", "endpoint_unavailable", "review_endpoint", true),
            Some(ErrorClass::Network),
            None,
        ),
        (
            transport(TransportFailure::Tls),
            ("retryable_failure", "endpoint_unavailable", "review_endpoint", true),
            Some(ErrorClass::Tls),
            None,
        ),
        (
            pre_send(PreSendFailure::EndpointDisabled),
            ("retryable_failure", "endpoint_unavailable", "review_endpoint", false),
            None,
            None,
        ),
        (
            pre_send(PreSendFailure::EndpointUnsafe),
            ("retryable_failure", "endpoint_unsafe", "review_endpoint", false),
            None,
            None,
        ),
        (
            pre_send(PreSendFailure::PayloadUnavailable),
            ("terminal_failure", "payload_unavailable", "replace_payload", false),
            None,
            Some(SettleReason::PayloadUnavailable),
        ),
        (
            pre_send(PreSendFailure::IdentityConflict),
            ("terminal_failure", "identity_conflict", "contact_support", false),
            None,
            Some(SettleReason::IdentityConflict),
        ),
    ];
    for (outcome, want, class, settles) in others {
        let c = g.classify(&outcome, false);
        assert_eq!(wire(&c), row(want), "{outcome:?}");
        assert_eq!(c.error_class, class, "{outcome:?}");
        assert_eq!(c.settles, settles, "{outcome:?}");
        assert!(!c.disables_endpoint);
    }
    // A duplicate message for an attempt in flight is dropped, not recorded.
    let (diagnostic, remediation) = DUPLICATE_INFLIGHT;
    assert_eq!(diagnostic.as_str(), "duplicate_inflight");
    assert_eq!(remediation.as_str(), "review_before_redelivery");

    // Terminal and settling outcomes end the delivery at once.
    for (outcome, reason) in [
        (status(409), SettleReason::TerminalStatus),
        (
            pre_send(PreSendFailure::PayloadUnavailable),
            SettleReason::PayloadUnavailable,
        ),
        (
            pre_send(PreSendFailure::IdentityConflict),
            SettleReason::IdentityConflict,
        ),
    ] {
        let run = play(&g, &immediate(), &[(outcome, 0)], &mut Fixed(0.0));
        assert_eq!(run.starts, [0]);
        assert_eq!(run.end, failed(reason));
    }
    // An ambiguous attempt is retried.
    let run = play(
        &g,
        &immediate(),
        &[(transport(TransportFailure::Timeout), 10_000), (status(200), 0)],
        &mut Fixed(0.0),
    );
    assert_eq!(run.starts, [0, 12_000]);
    assert_eq!(run.end, Decision::Succeeded);
}

// ---------------------------------------------------------------------------------
// Tanitar: dead reasons.

#[test]
fn tanitar_dead_reason_labels() {
    let cases = [
        (SettleReason::MaxAttempts, "RETRY_EXHAUSTED", "max_attempts"),
        (SettleReason::ReceiverFailures, "RETRY_EXHAUSTED", "receiver_failures"),
        (SettleReason::Deadline, "RETRY_EXHAUSTED", "deadline"),
        (SettleReason::EndpointGone, "ENDPOINT_GONE", "endpoint_gone"),
        (SettleReason::EndpointDisabled, "ENDPOINT_DISABLED", "endpoint_disabled"),
        (SettleReason::EndpointRevoked, "ENDPOINT_REVOKED", "endpoint_revoked"),
        (SettleReason::EndpointUnsafe, "ENDPOINT_UNSAFE", "endpoint_unsafe"),
        (
            SettleReason::SigningSecretMissing,
            "SIGNING_SECRET_MISSING",
            "signing_secret_missing",
        ),
        (SettleReason::EndpointPaused, "ENDPOINT_PAUSED", "endpoint_paused"),
        (SettleReason::TerminalStatus, "TERMINAL_STATUS", "terminal_status"),
        (
            SettleReason::PayloadUnavailable,
            "PAYLOAD_UNAVAILABLE",
            "payload_unavailable",
        ),
        (SettleReason::IdentityConflict, "IDENTITY_CONFLICT", "identity_conflict"),
        (SettleReason::BreakerOpen, "BREAKER_OPEN", "breaker_open"),
    ];
    for (reason, tanitar, cause) in cases {
        assert_eq!(reason.label(ReasonStyle::Tanitar), tanitar, "{reason:?}");
        assert_eq!(reason.label(ReasonStyle::Cause), cause, "{reason:?}");
    }

    // The 8th failed attempt: RETRY_EXHAUSTED.
    let t = preset("tanitar");
    let run = play(&t, &immediate(), &[(status(500), 0)], &mut Fixed(0.0));
    assert_eq!(run.starts.len(), 8);
    assert_eq!(run.end, failed(SettleReason::MaxAttempts));
    assert_eq!(SettleReason::MaxAttempts.label(t.reason_style), "RETRY_EXHAUSTED");

    // The four decided before sending: dead at once, nothing counted as sent.
    for (failure, label, diagnostic) in [
        (
            PreSendFailure::EndpointDisabled,
            "ENDPOINT_DISABLED",
            Diagnostic::EndpointDisabled,
        ),
        (
            PreSendFailure::EndpointRevoked,
            "ENDPOINT_REVOKED",
            Diagnostic::EndpointRevoked,
        ),
        (
            PreSendFailure::EndpointUnsafe,
            "ENDPOINT_UNSAFE",
            Diagnostic::EndpointUnsafe,
        ),
        (
            PreSendFailure::SigningSecretMissing,
            "SIGNING_SECRET_MISSING",
            Diagnostic::SigningSecretMissing,
        ),
    ] {
        let c = t.classify(&pre_send(failure), false);
        assert_eq!(c.state, AttemptState::TerminalFailure, "{failure:?}");
        assert_eq!(c.diagnostic, diagnostic, "{failure:?}");
        assert_eq!(c.remediation, Remediation::ReviewEndpoint, "{failure:?}");
        assert_eq!(c.error_class, None, "{failure:?}");
        assert!(!c.counts_toward_receiver_failures);
        let run = play(
            &t,
            &immediate(),
            &[(status(503), 0), (pre_send(failure), 0)],
            &mut Fixed(0.0),
        );
        assert_eq!(run.starts, [0, 60_000], "{failure:?}");
        match run.end {
            Decision::Failed { reason } => assert_eq!(reason.label(t.reason_style), label),
            other => panic!("{failure:?}: {other:?}"),
        }
    }

    // Tanitar's error classes.
    for (outcome, class) in [
        (status(500), ErrorClass::Status),
        (status(404), ErrorClass::Status),
        (status(302), ErrorClass::Redirect),
        (transport(TransportFailure::Timeout), ErrorClass::Timeout),
        (transport(TransportFailure::Tls), ErrorClass::Tls),
        (transport(TransportFailure::Refused), ErrorClass::Network),
        (transport(TransportFailure::ResetAfterSend), ErrorClass::Network),
        (transport(TransportFailure::Dns), ErrorClass::Dns),
        (transport(TransportFailure::Other), ErrorClass::Unknown),
    ] {
        assert_eq!(t.classify(&outcome, false).error_class, Some(class), "{outcome:?}");
        assert_eq!(t.classify(&outcome, false).settles, None, "{outcome:?}");
    }
}

#[test]
fn unusable_endpoints_settle_with_the_matching_reason_outside_greatwait() {
    for name in ["smartchat", "gavai"] {
        let p = preset(name);
        for (failure, reason) in [
            (PreSendFailure::EndpointPaused, "endpoint_paused"),
            (PreSendFailure::EndpointDisabled, "endpoint_disabled"),
            (PreSendFailure::EndpointUnsafe, "endpoint_unsafe"),
            (PreSendFailure::BreakerOpen, "breaker_open"),
        ] {
            let c = p.classify(&pre_send(failure), false);
            assert_eq!(c.state, AttemptState::TerminalFailure, "{name} {failure:?}");
            assert!(!c.counts_toward_receiver_failures);
            assert_eq!(
                c.settles.map(|r| r.label(p.reason_style)).as_deref(),
                Some(reason),
                "{name} {failure:?}"
            );
        }
    }
}

// ---------------------------------------------------------------------------------
// Failure snippets and headers.

fn answer(code: u16, content_type: Option<&str>, body: &[u8], more: bool) -> ResponseSummary {
    let mut r = ResponseSummary::new(code).with_body(body);
    if let Some(ct) = content_type {
        r = r.with_header("Content-Type", ct);
    }
    r.body_truncated = more;
    r
}

#[test]
fn failure_snippets_are_cut_to_the_policy_limit() {
    let g = preset("greatwait");
    let gv = preset("gavai");
    let long = "x".repeat(5_000);
    let json = Some("application/json; charset=utf-8");

    let snip = |p: &Policy, r: &ResponseSummary| p.failure_snippet(r);

    // 4,096 characters.
    assert_eq!(
        snip(&g, &answer(500, Some("text/plain"), long.as_bytes(), false)),
        Some(("x".repeat(4_096), true))
    );
    assert_eq!(
        snip(&g, &answer(500, json, "y".repeat(4_096).as_bytes(), false)),
        Some(("y".repeat(4_096), false))
    );
    // Exactly the limit, but the receiver sent more than was read.
    assert_eq!(
        snip(&g, &answer(500, json, "y".repeat(4_096).as_bytes(), true)),
        Some(("y".repeat(4_096), true))
    );
    // Characters, not bytes: 4,096 two-byte characters.
    assert_eq!(
        snip(&g, &answer(400, json, "é".repeat(5_000).as_bytes(), false)),
        Some(("é".repeat(4_096), true))
    );
    // A read that stopped inside a character does not show half of it.
    let mut body = b"short ".to_vec();
    body.extend_from_slice(&"€".as_bytes()[..2]);
    assert_eq!(
        snip(&g, &answer(503, json, &body, true)),
        Some(("short ".to_owned(), true))
    );
    // No content type: kept as text.
    assert_eq!(
        snip(&g, &answer(503, None, b"oops", false)),
        Some(("oops".to_owned(), false))
    );
    for ct in [
        "text/html",
        "application/problem+json",
        "application/vnd.api+json",
        "application/xml",
    ] {
        assert_eq!(
            snip(&g, &answer(503, Some(ct), b"oops", false)),
            Some(("oops".to_owned(), false)),
            "{ct}"
        );
    }

    // gavAI: 256 bytes.
    assert_eq!(
        snip(&gv, &answer(500, Some("text/plain"), long.as_bytes(), false)),
        Some(("x".repeat(256), true))
    );
    // 100 three-byte characters: cut back to 85 of them (255 bytes).
    let euros = "€".repeat(100);
    let got = snip(&gv, &answer(500, json, euros.as_bytes(), false)).expect("snippet");
    assert_eq!(got, ("€".repeat(85), true));
    assert_eq!(got.0.len(), 255);
    // 128 two-byte characters fit exactly.
    assert_eq!(
        snip(&gv, &answer(500, json, "é".repeat(200).as_bytes(), false)),
        Some(("é".repeat(128), true))
    );
    assert_eq!(
        snip(&gv, &answer(500, json, "z".repeat(256).as_bytes(), false)),
        Some(("z".repeat(256), false))
    );
    assert_eq!(gv.snippet.read_bytes(), 257);
    assert_eq!(g.snippet.read_bytes(), 16_385);

    // Nothing for binary bodies, successes or empty bodies.
    for p in [&g, &gv] {
        for ct in ["application/octet-stream", "image/png", "application/pdf"] {
            assert_eq!(snip(p, &answer(500, Some(ct), b"\x89PNG", false)), None, "{ct}");
        }
        assert_eq!(snip(p, &answer(200, json, b"{}", false)), None);
        assert_eq!(snip(p, &answer(500, json, b"", false)), None);
    }

    // The cut itself.
    assert_eq!(
        cut_snippet(SnippetLimit::MaxChars(3), "aé€😀".as_bytes(), false),
        ("aé€".to_owned(), true)
    );
    assert_eq!(
        cut_snippet(SnippetLimit::MaxBytes(6), "aé€😀".as_bytes(), false),
        ("aé€".to_owned(), true)
    );
    assert_eq!(
        cut_snippet(SnippetLimit::MaxBytes(9), "aé€😀".as_bytes(), false),
        ("aé€".to_owned(), true)
    );
    assert_eq!(
        cut_snippet(SnippetLimit::MaxBytes(10), "aé€😀".as_bytes(), false),
        ("aé€😀".to_owned(), false)
    );
    // Half of the emoji at the end of what was read is dropped.
    let body = &"aé€😀".as_bytes()[..8];
    assert_eq!(
        cut_snippet(SnippetLimit::MaxBytes(256), body, true),
        ("aé€".to_owned(), true)
    );
    assert_eq!(
        cut_snippet(SnippetLimit::MaxChars(4096), body, true),
        ("aé€".to_owned(), true)
    );
    // Invalid UTF-8 is replaced, and the byte limit still holds for the text kept.
    let (text, cut) = cut_snippet(SnippetLimit::MaxBytes(4), &[0xFF, 0xFF, b'a'], false);
    assert_eq!((text.as_str(), cut), ("\u{FFFD}", true));
}

/// At most 16,384 bytes of snippet an attempt: a custom policy asking for more is
/// refused by name, Greatwait's 4,096 characters fit, and a policy stored before
/// the cap is cut to it.
#[test]
fn snippets_keep_at_most_16_384_bytes() {
    let refused = "policy field `snippet`: must keep at most 16384 bytes: maxChars between 1 and 4096, maxBytes between 1 and 16384";
    for asked in [
        r#"{"maxChars": 65536}"#,
        r#"{"maxChars": 4097}"#,
        r#"{"maxBytes": 16385}"#,
        r#"{"maxBytes": 0}"#,
    ] {
        let doc = format!(r#"{{"base": "greatwait", "snippet": {asked}}}"#);
        let e = Policy::from_json(&doc).expect_err(asked);
        assert_eq!(e.to_string(), refused, "{asked}");
    }
    for kept in [r#"{"maxChars": 4096}"#, r#"{"maxBytes": 16384}"#] {
        let doc = format!(r#"{{"base": "greatwait", "snippet": {kept}}}"#);
        assert!(Policy::from_json(&doc).is_ok(), "{kept}");
    }
    for name in ["greatwait", "tanitar", "gavai", "smartchat"] {
        assert!(preset(name).snippet.within_cap(), "{name}");
    }
    // 65,536 four-byte emoji under a limit from before the cap: 4,096 of them.
    let emoji = "😀".repeat(65_536);
    let (text, cut) = cut_snippet(SnippetLimit::MaxChars(65_536), emoji.as_bytes(), false);
    assert_eq!((text.len(), text.chars().count(), cut), (16_384, 4_096, true));
    assert_eq!(SnippetLimit::MaxChars(65_536).read_bytes(), 16_385);
    let (text, cut) = cut_snippet(SnippetLimit::MaxBytes(65_536), emoji.as_bytes(), false);
    assert_eq!((text.len(), cut), (16_384, true));
}

#[test]
fn attempt_headers_and_kept_response_headers() {
    assert_eq!(
        preset("tanitar").attempt_number_header(3),
        Some(("tanitar-delivery-attempt", "3".to_owned()))
    );
    assert_eq!(
        preset("smartchat").attempt_number_header(9),
        Some(("SmartChat-Delivery-Attempt", "9".to_owned()))
    );
    assert_eq!(preset("greatwait").attempt_number_header(2), None);
    assert_eq!(preset("gavai").attempt_number_header(2), None);

    let r = ResponseSummary::new(503)
        .with_header("X-Other", "1")
        .with_header("CF-Ray", "ray")
        .with_header("X-Amzn-RequestId", "amz")
        .with_header("Retry-After", "30")
        .with_header("Content-Type", "application/json");
    assert_eq!(
        r.kept_headers(),
        [
            ("content-type".to_owned(), "application/json".to_owned()),
            ("retry-after".to_owned(), "30".to_owned()),
            ("x-amzn-requestid".to_owned(), "amz".to_owned()),
        ]
    );
    let r = r.with_header("X-Request-Id", &"r".repeat(300));
    assert_eq!(r.kept_headers()[2], ("x-request-id".to_owned(), "r".repeat(256)));
    let r = ResponseSummary::new(500).with_header("cf-ray", "ray");
    assert_eq!(r.kept_headers(), [("cf-ray".to_owned(), "ray".to_owned())]);
}

// ---------------------------------------------------------------------------------
// gavAI: circuit breaker.

#[test]
fn gavai_breaker_opens_for_an_hour_after_five_exhausted_deliveries() {
    let rules = preset("gavai").health.breaker_rules().expect("gavai has a breaker");
    assert_eq!(
        rules,
        BreakerRules {
            exhausted_in_a_row: 5,
            open_seconds: 3_600
        }
    );
    assert_eq!(preset("smartchat").health.breaker_rules(), None);
    let exhausted = BreakerEvent::DeliveryExhausted;

    let mut b = BreakerState::default();
    for i in 1..=4 {
        b = b.apply(rules, exhausted, T0.plus_secs(i * MIN));
        assert_eq!(
            b,
            BreakerState {
                open_until: None,
                exhausted_in_a_row: i as u32
            }
        );
        assert!(!b.is_open(T0.plus_secs(i * MIN)));
    }
    let opened = T0.plus_secs(10 * MIN);
    b = b.apply(rules, exhausted, opened);
    let until = opened.plus_secs(HOUR);
    assert_eq!(
        b,
        BreakerState {
            open_until: Some(until),
            exhausted_in_a_row: 5
        }
    );
    assert!(b.is_open(opened));
    assert!(b.is_open(until.plus_millis(-1)));
    assert!(!b.is_open(until));
    // An exhaustion reported while open does not extend the hour.
    let b2 = b.apply(rules, exhausted, opened.plus_secs(30 * MIN));
    assert_eq!(b2, b);
    // After the hour it resets by itself with the count at zero.
    assert_eq!(
        b.at(until),
        BreakerState {
            open_until: None,
            exhausted_in_a_row: 0
        }
    );
    assert_eq!(b.at(until.plus_millis(-1)), b);
    // ... so it takes 5 more exhausted deliveries to open it again.
    let mut c = b;
    for i in 1..=4 {
        c = c.apply(rules, exhausted, until.plus_secs(i));
        assert_eq!(c.exhausted_in_a_row, i as u32);
        assert!(!c.is_open(until.plus_secs(i)));
    }
    c = c.apply(rules, exhausted, until.plus_secs(5));
    assert_eq!(c.open_until, Some(until.plus_secs(5 + HOUR)));
    // The first success after the reset closes it (and keeps the count at zero).
    assert_eq!(
        b.apply(rules, BreakerEvent::Success, until.plus_secs(1)),
        BreakerState {
            open_until: None,
            exhausted_in_a_row: 0
        }
    );
    // A success breaks the run: 3 exhausted, a success, 4 exhausted -> still closed.
    let mut d = BreakerState::default();
    for i in 0..3 {
        d = d.apply(rules, exhausted, T0.plus_secs(i));
    }
    d = d.apply(rules, BreakerEvent::Success, T0.plus_secs(10));
    assert_eq!(d.exhausted_in_a_row, 0);
    for i in 0..4 {
        d = d.apply(rules, exhausted, T0.plus_secs(20 + i));
    }
    assert_eq!(
        d,
        BreakerState {
            open_until: None,
            exhausted_in_a_row: 4
        }
    );
    // A delivery dropped while the breaker is open settles as breaker_open.
    let gv = preset("gavai");
    let c = gv.classify(&pre_send(PreSendFailure::BreakerOpen), false);
    assert_eq!(c.diagnostic, Diagnostic::BreakerOpen);
    assert_eq!(c.settles, Some(SettleReason::BreakerOpen));
}

// ---------------------------------------------------------------------------------
// SmartChat: endpoint health.

fn smart_rules() -> SmartRules {
    preset("smartchat").health.smart_rules().expect("smartchat health")
}

fn fail_n(mut h: SmartHealth, n: i64, from: Timestamp) -> SmartHealth {
    for i in 0..n {
        h = h.apply(smart_rules(), HealthEvent::AttemptFailed, from.plus_secs(i));
    }
    h
}

#[test]
fn smartchat_health_transitions_at_exact_times() {
    let rules = smart_rules();
    assert_eq!(
        rules,
        SmartRules {
            degrade_after_failures: 5,
            pause_after_failures: 20,
            pause_after_seconds: 259_200,
            disable_after_seconds: 604_800
        }
    );
    assert_eq!(preset("gavai").health.smart_rules(), None);
    let fresh = SmartHealth::new(T0);
    assert_eq!(
        fresh,
        SmartHealth {
            status: HealthStatus::Active,
            failures_in_a_row: 0,
            quiet_since: T0,
            since: T0
        }
    );

    // active -> degraded at the 5th failure in a row.
    let h = fail_n(fresh, 4, T0.plus_secs(1));
    assert_eq!(h.status, HealthStatus::Active);
    assert_eq!(h.failures_in_a_row, 4);
    let h = fail_n(h, 1, T0.plus_secs(5));
    assert_eq!(
        h,
        SmartHealth {
            status: HealthStatus::Degraded,
            failures_in_a_row: 5,
            quiet_since: T0,
            since: T0.plus_secs(5)
        }
    );
    assert!(h.receives_events(rules, T0.plus_secs(5)));

    // degraded -> active on a success.
    let ok = h.apply(rules, HealthEvent::AttemptSucceeded, T0.plus_secs(6));
    assert_eq!(
        ok,
        SmartHealth {
            status: HealthStatus::Active,
            failures_in_a_row: 0,
            quiet_since: T0.plus_secs(6),
            since: T0.plus_secs(6)
        }
    );
    // A success resets the run: 4 + success + 4 stays active.
    let h2 = fail_n(fresh, 4, T0.plus_secs(1));
    let h2 = h2.apply(rules, HealthEvent::AttemptSucceeded, T0.plus_secs(10));
    let h2 = fail_n(h2, 4, T0.plus_secs(11));
    assert_eq!(h2.status, HealthStatus::Active);
    assert_eq!(h2.failures_in_a_row, 4);

    // 20 failures in the first minute, then no traffic at all: the purely
    // time-based changes happen on read at the exact instants.
    let h = fail_n(fresh, 20, T0.plus_secs(1));
    assert_eq!(h.status, HealthStatus::Degraded);
    assert_eq!(h.failures_in_a_row, 20);
    let paused_at = T0.plus_secs(3 * DAY);
    assert_eq!(h.at(rules, paused_at.plus_millis(-1)), h);
    assert_eq!(
        h.at(rules, paused_at),
        SmartHealth {
            status: HealthStatus::Paused,
            failures_in_a_row: 20,
            quiet_since: T0,
            since: paused_at
        }
    );
    assert!(h.receives_events(rules, paused_at.plus_millis(-1)));
    assert!(!h.receives_events(rules, paused_at));
    let disabled_at = T0.plus_secs(7 * DAY);
    assert_eq!(h.at(rules, disabled_at.plus_millis(-1)).status, HealthStatus::Paused);
    let disabled = SmartHealth {
        status: HealthStatus::Disabled,
        failures_in_a_row: 20,
        quiet_since: T0,
        since: disabled_at,
    };
    assert_eq!(h.at(rules, disabled_at), disabled);
    // Read much later, straight from degraded: both changes, each at its instant.
    assert_eq!(h.at(rules, T0.plus_secs(30 * DAY)), disabled);
    assert!(!h.receives_events(rules, disabled_at));

    // 3 days without a success but only 19 failures: still degraded, whenever read.
    let h19 = fail_n(fresh, 19, T0.plus_secs(1));
    assert_eq!(h19.at(rules, T0.plus_secs(30 * DAY)).status, HealthStatus::Degraded);
    // ... until the 20th failure arrives (at day 4): paused at that instant, then
    // disabled at 7 days without a success.
    let day4 = T0.plus_secs(4 * DAY);
    let p = h19.apply(rules, HealthEvent::AttemptFailed, day4);
    assert_eq!(
        p,
        SmartHealth {
            status: HealthStatus::Paused,
            failures_in_a_row: 20,
            quiet_since: T0,
            since: day4
        }
    );
    assert_eq!(p.at(rules, disabled_at.plus_millis(-1)).status, HealthStatus::Paused);
    assert_eq!(
        p.at(rules, disabled_at),
        SmartHealth {
            since: disabled_at,
            ..disabled
        }
    );
    // 20 failures but less than 3 days: degraded.
    let h20 = fail_n(fresh, 20, T0.plus_secs(2 * DAY));
    assert_eq!(h20.status, HealthStatus::Degraded);
    // Healthy endpoints never change with time alone.
    assert_eq!(fresh.at(rules, T0.plus_secs(365 * DAY)), fresh);

    // 410 disables at once from any state.
    let paused = h.at(rules, paused_at);
    for (state, when) in [
        (fresh, T0.plus_secs(100)),
        (fail_n(fresh, 5, T0), T0.plus_secs(100)),
        (paused, paused_at.plus_secs(100)),
    ] {
        let g = state.apply(rules, HealthEvent::Gone, when);
        assert_eq!(g.status, HealthStatus::Disabled, "{state:?}");
        assert_eq!(g.since, when, "{state:?}");
        assert!(!g.receives_events(rules, when));
    }
    // A 410 on an already disabled endpoint keeps the original instant.
    let d = disabled.apply(rules, HealthEvent::Gone, T0.plus_secs(8 * DAY));
    assert_eq!(d.since, disabled_at);

    // enable -> active, from paused and from disabled, with a fresh count and clock.
    let e_at = T0.plus_secs(9 * DAY);
    for state in [paused, disabled] {
        let e = state.apply(rules, HealthEvent::Enable, e_at);
        assert_eq!(
            e,
            SmartHealth {
                status: HealthStatus::Active,
                failures_in_a_row: 0,
                quiet_since: e_at,
                since: e_at
            }
        );
        // Time is measured again from the enable.
        let again = fail_n(e, 20, e_at);
        assert_eq!(again.at(rules, e_at.plus_secs(3 * DAY)).status, HealthStatus::Paused);
        assert_eq!(
            again.at(rules, e_at.plus_secs(3 * DAY).plus_millis(-1)).status,
            HealthStatus::Degraded
        );
    }
}

/// A ladder may not outlast the payload its event keeps: a custom policy whose
/// longest span passes 60 days is refused naming `waitsSeconds`, with the span.
#[test]
fn a_ladder_longer_than_sixty_days_is_refused() {
    let e = Policy::from_json(r#"{"maxAttempts": 12, "waitsSeconds": [2592000]}"#).expect_err("330 days");
    assert_eq!(
        e.to_string(),
        "policy field `waitsSeconds`: the ladder may last up to 330.0 days from the planned instant (every \
         attempt at its longest wait, jitter and Retry-After cap included, and its timeout); at most 60: an \
         event keeps its payload 60 days past that plus its retention. Lower maxAttempts or the waits, or set \
         a deadline"
    );
    // The same ladder cut by a deadline fits.
    let clamped = Policy::from_json(
        r#"{"maxAttempts": 12, "waitsSeconds": [2592000], "deadline": {"kind": "clampLast", "afterSeconds": 2592000}}"#,
    )
    .expect("a deadline bounds it");
    assert_eq!(clamped.longest_span_ms(), 2_592_000_000 + 10_000);
    for name in ["greatwait", "tanitar", "gavai", "smartchat"] {
        assert!(preset(name).longest_span_ms() <= 60 * 86_400_000, "{name}");
    }
}
