//! Criterion benches of the policy core's per-attempt work: `Policy::classify`
//! and `Policy::decide` for typical outcomes of each preset, and the signature
//! every attempt carries. `make bench` reads the estimates back into its table.

use courier_core::decide::AttemptFacts;
use courier_core::outcome::{AttemptOutcome, ResponseSummary, TransportFailure};
use courier_core::signing::{SigningSecret, signature_header};
use courier_core::{DeliveryContext, Policy, SplitMix64, Timestamp};
use criterion::{Criterion, black_box, criterion_group, criterion_main};
use std::time::Duration;

const T0: Timestamp = Timestamp(1_800_000_000_000);

fn preset(name: &str) -> Policy {
    Policy::preset(name).unwrap_or_else(|| panic!("preset {name}"))
}

fn outcomes() -> Vec<(&'static str, &'static str, AttemptOutcome)> {
    let ok = AttemptOutcome::Response(ResponseSummary::new(200));
    let unavailable = AttemptOutcome::Response(
        ResponseSummary::new(503)
            .with_header("content-type", "application/json")
            .with_body(br#"{"error":"upstream unavailable","retry":true}"#),
    );
    let limited = AttemptOutcome::Response(ResponseSummary::new(429).with_header("retry-after", "120"));
    let timeout = AttemptOutcome::transport(TransportFailure::Timeout);
    vec![
        ("greatwait_200", "greatwait", ok),
        ("greatwait_503", "greatwait", unavailable.clone()),
        ("smartchat_429_retry_after", "smartchat", limited),
        ("tanitar_timeout", "tanitar", timeout),
        ("gavai_503", "gavai", unavailable),
    ]
}

fn classify(c: &mut Criterion) {
    let mut g = c.benchmark_group("classify");
    for (name, policy, outcome) in outcomes() {
        let p = preset(policy);
        g.bench_function(name, |b| b.iter(|| black_box(&p).classify(black_box(&outcome), false)));
    }
    g.finish();
}

fn decide(c: &mut Criterion) {
    let mut g = c.benchmark_group("decide");
    let ctx = DeliveryContext::immediate(T0);
    let facts = AttemptFacts {
        number: 2,
        started_at: T0.plus_secs(3),
        ended_at: T0.plus_millis(3_250),
        receiver_failures: 2,
    };
    for (name, policy, outcome) in outcomes() {
        let p = preset(policy);
        let cls = p.classify(&outcome, false);
        let mut rng = SplitMix64::new(7);
        g.bench_function(name, |b| {
            b.iter(|| black_box(&p).decide(&ctx, black_box(&facts), black_box(&outcome), &cls, &mut rng))
        });
    }
    g.finish();
}

fn sign(c: &mut Criterion) {
    let secret = SigningSecret::parse("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap_or_else(|e| panic!("{e:?}"));
    let body = br#"{"id":"evt_01JBENCHBENCHBENCHBENCHBENC","type":"bench.event","plannedAt":"2026-01-01T00:00:00Z","trigger":"scheduled","data":{"order":1,"note":"a typical small webhook payload","amount":1234}}"#;
    let mut g = c.benchmark_group("sign");
    g.bench_function("small_envelope", |b| {
        b.iter(|| {
            signature_header(
                std::slice::from_ref(&secret),
                black_box("dlv_01JBENCH"),
                1_800_000_000,
                black_box(body),
            )
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30);
    targets = classify, decide, sign
}
criterion_main!(benches);
