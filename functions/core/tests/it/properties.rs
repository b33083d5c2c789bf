//! Properties of the retry decision and the health machines over random presets and
//! custom policies, outcome sequences, seeds and attempt durations: no wait below
//! the policy's minimum, no attempt past a deadline or the clamp instant, never more
//! than the maximum attempts, the receiver-failure limit, and Retry-After neither
//! shortening a wait nor stretching it past max(normal, cap).

use courier_core::decide::AttemptFacts;
use courier_core::health::{BreakerEvent, BreakerState, HealthEvent, HealthStatus, SmartHealth};
use courier_core::policy::{Deadline, GoneHandling, Jitter, RetryAfterRule, StatusPattern, UnusableEndpoint, WaitFrom};
use courier_core::retry_after::parse_retry_after;
use courier_core::rng::Fixed;
use courier_core::{
    AttemptOutcome, AttemptState, Decision, DeliveryContext, LatencyClass, Policy, PreSendFailure, RandomSource,
    ResponseSummary, SettleReason, SplitMix64, Timestamp, TransportFailure,
};
use proptest::prelude::*;
use std::time::{Duration, UNIX_EPOCH};

const T0: Timestamp = Timestamp::from_secs(1_800_000_000);

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        ..ProptestConfig::default()
    }
}

fn arb_status_pattern() -> impl Strategy<Value = StatusPattern> {
    prop_oneof![
        Just(StatusPattern::Exact(429)),
        Just(StatusPattern::Exact(503)),
        Just(StatusPattern::Class(5)),
        Just(StatusPattern::Class(4)),
    ]
}

fn arb_deadline() -> impl Strategy<Value = Deadline> {
    prop_oneof![
        Just(Deadline::None),
        (1u64..=20_000, 1u64..=100_000, any::<bool>()).prop_map(|(r, b, a)| {
            Deadline::Horizon {
                realtime_seconds: r,
                bulk_seconds: b,
                add_long_running_allowance: a,
            }
        }),
        (1u64..=300_000).prop_map(|after_seconds| Deadline::ClampLast { after_seconds }),
    ]
}

prop_compose! {
    fn arb_custom()(
        max_attempts in 1u32..=12,
        waits_ms in prop::collection::vec(0u32..=900_000, 1..=5),
        from_start in any::<bool>(),
        jitter_min in 50u32..=200,
        jitter_spread in 0u32..=150,
        retry_after in prop::option::of((prop::collection::vec(arb_status_pattern(), 1..=3), 1u64..=7_200)),
        deadline in arb_deadline(),
        receiver_failure_limit in prop::option::of(1u32..=6),
        retryable_4xx in prop::option::of(prop::collection::vec(400u16..=499, 0..=5)),
        on_410 in prop_oneof![Just(GoneHandling::AsStatus), Just(GoneHandling::DeliveryGone), Just(GoneHandling::DisableEndpoint)],
        retry_unusable in any::<bool>(),
    ) -> Policy {
        let min = f64::from(jitter_min) / 100.0;
        let p = Policy {
            name: "prop".into(),
            max_attempts,
            waits_seconds: waits_ms.iter().map(|ms| f64::from(*ms) / 1000.0).collect(),
            wait_from: if from_start { WaitFrom::AttemptStart } else { WaitFrom::AttemptEnd },
            jitter: Jitter { min, max: min + f64::from(jitter_spread) / 100.0 },
            retry_after: retry_after.map(|(statuses, cap_seconds)| RetryAfterRule { statuses, cap_seconds }),
            deadline,
            receiver_failure_limit,
            retryable_4xx,
            on_410,
            unusable_endpoint: if retry_unusable { UnusableEndpoint::Retry } else { UnusableEndpoint::Settle },
            ..Policy::greatwait()
        };
        p.validate().expect("generated policies are valid");
        p
    }
}

fn arb_policy() -> impl Strategy<Value = Policy> {
    prop_oneof![
        1 => Just(Policy::greatwait()),
        1 => Just(Policy::tanitar()),
        1 => Just(Policy::gavai()),
        1 => Just(Policy::smartchat()),
        4 => arb_custom(),
    ]
}

/// A Retry-After header: delta seconds, an HTTP-date relative to T0, or garbage.
fn arb_retry_after() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        2 => Just(None),
        3 => (0u64..=200_000).prop_map(|s| Some(s.to_string())),
        1 => (-3_600i64..=200_000).prop_map(|s| {
            let at = UNIX_EPOCH + Duration::from_secs((T0.millis() / 1000 + s) as u64);
            Some(httpdate::fmt_http_date(at))
        }),
        1 => prop_oneof![Just("soon"), Just("-5"), Just("1.5"), Just(""), Just("Wed, 99 Oct")]
            .prop_map(|s| Some(s.to_owned())),
    ]
}

fn arb_outcome() -> impl Strategy<Value = AttemptOutcome> {
    let statuses = prop::sample::select(vec![
        200u16, 202, 204, 301, 302, 400, 401, 404, 408, 409, 410, 413, 429, 429, 500, 502, 503, 503,
    ]);
    prop_oneof![
        8 => (statuses, arb_retry_after()).prop_map(|(status, ra)| {
            let mut r = ResponseSummary::new(status);
            if let Some(v) = ra {
                r = r.with_header("Retry-After", &v);
            }
            AttemptOutcome::Response(r)
        }),
        2 => prop::sample::select(vec![
            TransportFailure::Timeout,
            TransportFailure::ResetAfterSend,
            TransportFailure::Refused,
            TransportFailure::Dns,
            TransportFailure::Tls,
            TransportFailure::Other,
        ])
        .prop_map(AttemptOutcome::transport),
        1 => prop::sample::select(vec![
            PreSendFailure::EndpointDisabled,
            PreSendFailure::EndpointUnsafe,
            PreSendFailure::SigningSecretMissing,
            PreSendFailure::PayloadUnavailable,
        ])
        .prop_map(AttemptOutcome::pre_send),
        1 => prop_oneof![Just(AttemptOutcome::CompletionTimedOut), Just(AttemptOutcome::Lost)],
    ]
}

prop_compose! {
    fn arb_ctx()(bulk in any::<bool>(), allowance in prop_oneof![Just(0u64), 1u64..=3_600]) -> DeliveryContext {
        DeliveryContext {
            planned_at: T0,
            latency_class: if bulk { LatencyClass::Bulk } else { LatencyClass::Realtime },
            long_running_allowance_seconds: allowance,
        }
    }
}

/// The capped Retry-After the policy honours on this outcome, in ms (0: none).
fn honoured_ms(p: &Policy, outcome: &AttemptOutcome, now: Timestamp) -> u64 {
    match (&p.retry_after, outcome.response()) {
        (Some(rule), Some(r)) if rule.statuses.iter().any(|s| s.matches(r.status)) => r
            .header("retry-after")
            .and_then(|v| parse_retry_after(v, now))
            .map_or(0, |ra| ra.min(rule.cap_seconds) * 1000),
        _ => 0,
    }
}

fn ms(t: Timestamp, d: u64) -> Timestamp {
    t.plus_millis(d as i64)
}

/// Plays one delivery and checks every decision against the policy's invariants.
fn check_delivery(
    p: &Policy,
    ctx: &DeliveryContext,
    script: &[(AttemptOutcome, u64)],
    seed: u64,
) -> Result<(), TestCaseError> {
    let mut rng = SplitMix64::new(seed);
    let limit = p.attempt_deadline(ctx);
    let mut started = ctx.planned_at;
    let mut number = 1u32;
    let mut counted = 0u32;
    loop {
        prop_assert!(number <= p.max_attempts, "attempt {} of {}", number, p.max_attempts);
        let (outcome, duration) = &script[(number as usize - 1) % script.len()];
        // A 202 under a long-running allowance waits for a report; play it as done.
        let cls = p.classify(outcome, false);
        if cls.counts_toward_receiver_failures {
            counted += 1;
        }
        if let Some(l) = p.receiver_failure_limit {
            prop_assert!(counted <= l, "{} counted failures with a limit of {}", counted, l);
        }
        let ended = ms(started, *duration);
        let facts = AttemptFacts {
            number,
            started_at: started,
            ended_at: ended,
            receiver_failures: counted,
        };
        let mut replay = rng.clone();
        let decision = p.decide(ctx, &facts, outcome, &cls, &mut rng);
        match decision {
            Decision::Retry { number: next, at, last } => {
                prop_assert_eq!(next, number + 1);
                prop_assert!(next <= p.max_attempts);
                prop_assert!(matches!(
                    cls.state,
                    AttemptState::RetryableFailure | AttemptState::Ambiguous
                ));
                prop_assert_eq!(cls.settles, None);
                if let Some(l) = p.receiver_failure_limit {
                    prop_assert!(counted < l, "retry after {} counted failures", counted);
                }
                prop_assert!(at >= ended, "attempt {} starts before the previous ended", next);
                let from = match p.wait_from {
                    WaitFrom::AttemptEnd => ended,
                    WaitFrom::AttemptStart => started,
                };
                let (lo, hi) = p.wait_bounds_ms(next);
                let normal = p.jittered_wait_ms(next, replay.unit());
                prop_assert!(lo <= normal && normal <= hi);
                let honoured = honoured_ms(p, outcome, ended);
                let unclamped = ms(from, normal).max(ms(ended, honoured)).max(ended);
                // Never shorter than the minimum, never shorter than the Retry-After,
                // never longer than max(normal, cap).
                let cap = p.retry_after.as_ref().map_or(0, |r| r.cap_seconds * 1000);
                prop_assert!(unclamped >= ms(from, lo));
                prop_assert!(unclamped <= ms(from, hi).max(ms(ended, cap)).max(ended));
                match (p.deadline, limit) {
                    (Deadline::ClampLast { .. }, Some(limit)) if last => {
                        prop_assert_eq!(at, limit);
                        prop_assert!(unclamped >= limit);
                    }
                    (Deadline::ClampLast { .. }, Some(limit)) => {
                        prop_assert_eq!(at, unclamped);
                        prop_assert!(at < limit);
                    }
                    (Deadline::Horizon { .. }, Some(limit)) => {
                        prop_assert!(!last);
                        prop_assert_eq!(at, unclamped);
                        prop_assert!(at <= limit, "attempt past the horizon");
                        prop_assert!(p.may_start(ctx, at));
                    }
                    _ => {
                        prop_assert!(!last);
                        prop_assert_eq!(at, unclamped);
                    }
                }
                number = next;
                started = at;
            }
            Decision::Succeeded => {
                prop_assert_eq!(cls.state, AttemptState::Succeeded);
                return Ok(());
            }
            Decision::AwaitCompletion { .. } => {
                prop_assert!(false, "no long-running acceptance was played");
            }
            Decision::Failed { reason } => {
                match reason {
                    SettleReason::MaxAttempts => prop_assert_eq!(number, p.max_attempts),
                    SettleReason::ReceiverFailures => {
                        prop_assert_eq!(Some(counted), p.receiver_failure_limit);
                        prop_assert!(number < p.max_attempts);
                    }
                    SettleReason::Deadline => {
                        prop_assert!(number < p.max_attempts);
                        prop_assert!(limit.is_some());
                    }
                    other => prop_assert_eq!(cls.settles, Some(other)),
                }
                return Ok(());
            }
        }
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn deliveries_respect_every_limit(
        p in arb_policy(),
        ctx in arb_ctx(),
        script in prop::collection::vec((arb_outcome(), 0u64..=15_000), 1..=14),
        seed in any::<u64>(),
    ) {
        check_delivery(&p, &ctx, &script, seed)?;
    }

    /// Failures only (no success, nothing that settles at once): the delivery runs
    /// until a limit and the limit it names is the one reached.
    #[test]
    fn failing_deliveries_end_at_a_limit(
        p in arb_policy(),
        ctx in arb_ctx(),
        statuses in prop::collection::vec((prop::sample::select(vec![408u16, 429, 500, 503]), arb_retry_after(), 0u64..=12_000), 1..=10),
        seed in any::<u64>(),
    ) {
        let script: Vec<(AttemptOutcome, u64)> = statuses
            .into_iter()
            .map(|(s, ra, d)| {
                let mut r = ResponseSummary::new(s);
                if let Some(v) = ra {
                    r = r.with_header("retry-after", &v);
                }
                (AttemptOutcome::Response(r), d)
            })
            .collect();
        check_delivery(&p, &ctx, &script, seed)?;
    }

    /// Greatwait with only receiver-caused failures stops at exactly 5 attempts.
    #[test]
    fn greatwait_stops_at_five_counted_failures(
        codes in prop::collection::vec(prop::sample::select(vec![408u16, 500, 503, 401, 404, 302]), 5),
        seed in any::<u64>(),
    ) {
        let g = Policy::greatwait();
        let ctx = DeliveryContext::immediate(T0);
        let mut rng = SplitMix64::new(seed);
        let mut started = T0;
        for (i, code) in codes.iter().enumerate() {
            let outcome = AttemptOutcome::Response(ResponseSummary::new(*code));
            let cls = g.classify(&outcome, false);
            prop_assert!(cls.counts_toward_receiver_failures);
            let facts = AttemptFacts { number: i as u32 + 1, started_at: started, ended_at: started, receiver_failures: i as u32 + 1 };
            match g.decide(&ctx, &facts, &outcome, &cls, &mut rng) {
                Decision::Retry { at, .. } if i < 4 => started = at,
                Decision::Failed { reason: SettleReason::ReceiverFailures } if i == 4 => {}
                other => prop_assert!(false, "attempt {}: {:?}", i + 1, other),
            }
        }
    }

    /// Retry-After never shortens the normal wait and never exceeds max(normal, cap).
    #[test]
    fn retry_after_bounds(
        p in arb_policy(),
        next in 2u32..=12,
        status in prop::sample::select(vec![429u16, 500, 503, 404]),
        ra in 0u64..=500_000,
        u in 0.0f64..=1.0,
    ) {
        let outcome = AttemptOutcome::Response(ResponseSummary::new(status).with_header("Retry-After", &ra.to_string()));
        let normal = p.jittered_wait_ms(next, u);
        let wait = p.next_wait_ms(next, &outcome, T0, &mut Fixed(u));
        prop_assert!(wait >= normal);
        prop_assert!(wait >= p.wait_bounds_ms(next).0);
        match &p.retry_after {
            Some(rule) if rule.statuses.iter().any(|s| s.matches(status)) => {
                prop_assert!(wait <= normal.max(rule.cap_seconds * 1000));
                prop_assert_eq!(wait, normal.max(ra.min(rule.cap_seconds) * 1000));
            }
            _ => prop_assert_eq!(wait, normal),
        }
    }

    /// SmartChat health: reading later is the same as reading twice, and every state
    /// is one its rules allow.
    #[test]
    fn smartchat_health_is_consistent(
        events in prop::collection::vec((0u8..=9, 0i64..=2 * 86_400), 0..=60),
        read_gap in 0i64..=20 * 86_400,
        split in 0i64..=20 * 86_400,
    ) {
        let rules = Policy::smartchat().health.smart_rules().expect("rules");
        let mut h = SmartHealth::new(T0);
        let mut now = T0;
        for (kind, gap) in events {
            now = now.plus_secs(gap);
            let event = match kind {
                0..=5 => HealthEvent::AttemptFailed,
                6 | 7 => HealthEvent::AttemptSucceeded,
                8 => HealthEvent::Enable,
                _ => HealthEvent::Gone,
            };
            h = h.apply(rules, event, now);
            prop_assert!(h.since <= now);
            match h.status {
                HealthStatus::Degraded => prop_assert!(h.failures_in_a_row >= 5),
                HealthStatus::Paused => {
                    prop_assert!(h.failures_in_a_row >= 20);
                    prop_assert!(h.since >= h.quiet_since.plus_secs(3 * 86_400));
                }
                HealthStatus::Active | HealthStatus::Disabled => {}
            }
            if event == HealthEvent::Gone {
                prop_assert_eq!(h.status, HealthStatus::Disabled);
            }
            if event == HealthEvent::Enable {
                prop_assert_eq!(h.status, HealthStatus::Active);
            }
        }
        let a = now.plus_secs(split.min(read_gap));
        let b = now.plus_secs(read_gap);
        prop_assert_eq!(h.at(rules, a).at(rules, b), h.at(rules, b));
        // Time alone only pauses a degraded endpoint and disables a paused one, each at
        // the instant it became due.
        let later = h.at(rules, b);
        match (h.status, later.status) {
            (x, y) if x == y => prop_assert_eq!(later, h),
            (HealthStatus::Degraded, HealthStatus::Paused) => {
                prop_assert!(h.failures_in_a_row >= 20);
                prop_assert_eq!(later.since, h.quiet_since.plus_secs(3 * 86_400).max(h.since));
            }
            (HealthStatus::Degraded | HealthStatus::Paused, HealthStatus::Disabled) => {
                prop_assert_eq!(later.since, h.quiet_since.plus_secs(7 * 86_400).max(h.since));
                prop_assert!(later.since <= b);
            }
            (x, y) => prop_assert!(false, "{:?} -> {:?} by time alone", x, y),
        }
    }

    /// gavAI breaker against a model of the rule: it opens after 5 exhausted
    /// deliveries in a row, stays open exactly an hour, then resets with a zero
    /// count; a success closes it; reading later equals reading twice.
    #[test]
    fn breaker_follows_the_rule(events in prop::collection::vec((any::<bool>(), 0i64..=1_200), 0..=40)) {
        let rules = Policy::gavai().health.breaker_rules().expect("rules");
        let mut b = BreakerState::default();
        let mut now = T0;
        let (mut open_until, mut run): (Option<Timestamp>, u32) = (None, 0);
        for (exhausted, gap) in events {
            now = now.plus_secs(gap);
            if open_until.is_some_and(|u| now >= u) {
                open_until = None;
                run = 0;
            }
            if !exhausted {
                open_until = None;
                run = 0;
            } else if open_until.is_none() {
                run += 1;
                if run >= 5 {
                    open_until = Some(now.plus_secs(3_600));
                }
            }
            b = b.apply(rules, if exhausted { BreakerEvent::DeliveryExhausted } else { BreakerEvent::Success }, now);
            prop_assert_eq!(b, BreakerState { open_until, exhausted_in_a_row: run });
            prop_assert_eq!(b.is_open(now), open_until.is_some());
            prop_assert!(!b.is_open(now.plus_secs(3_600)));
            prop_assert_eq!(b.at(now.plus_secs(30)).at(now.plus_secs(4_000)), b.at(now.plus_secs(4_000)));
        }
    }
}
