//! The port contract suite: the limiter.

use super::*;

// ---------------------------------------------------------------------------------
// Limiter
// ---------------------------------------------------------------------------------

/// The limiter port: a shared token bucket and leased in-flight slots per endpoint,
/// each endpoint apart, both taken or neither, exact under concurrent callers.
pub async fn limiter<L: crate::ports::limiter::Limiter>(limiter: &L, clock: &ManualClock) {
    use crate::ports::limiter::Admission;
    use courier_core::limiter::{HoldCause, IN_FLIGHT_RECHECK_MS, Limits};
    use courier_core::rate_limit::RateLimit;
    let ids = Ids::new();
    let tenant = ids.tenant();
    clock.set(T0);
    let rate = |per_second: f64, burst: u64| RateLimit::new(per_second, Some(burst)).expect("a valid literal limit");
    let lease = |ms: i64| T0.plus_millis(ms);

    // 2/s burst 2: two now, then a hold until the next token, exactly.
    let ep = ids.endpoint();
    let two = Limits {
        rate: Some(rate(2.0, 2)),
        max_in_flight: None,
    };
    for slot in ["r1", "r2"] {
        let got = limiter.acquire(&tenant, &ep, &two, slot, lease(30_000), T0).await;
        assert_eq!(got.expect("acquire"), Admission::Granted, "{slot}");
    }
    let held = limiter.acquire(&tenant, &ep, &two, "r3", lease(30_000), T0).await;
    assert_eq!(
        held.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(500),
            cause: HoldCause::Rate
        }
    );
    let later = limiter
        .acquire(&tenant, &ep, &two, "r3", lease(30_000), T0.plus_millis(500))
        .await;
    assert_eq!(later.expect("acquire"), Admission::Granted);
    // Another endpoint, and the same endpoint id under another tenant, start full.
    let other = ids.endpoint();
    let got = limiter.acquire(&tenant, &other, &two, "o1", lease(30_000), T0).await;
    assert_eq!(got.expect("acquire"), Admission::Granted);
    let got = limiter.acquire(&ids.tenant(), &ep, &two, "t1", lease(30_000), T0).await;
    assert_eq!(got.expect("acquire"), Admission::Granted);

    // maxInFlight 1: the second waits for a release, or for the first's lease to end.
    let ep = ids.endpoint();
    let one = Limits {
        rate: None,
        max_in_flight: Some(1),
    };
    let a = limiter.acquire(&tenant, &ep, &one, "a", lease(10_000), T0).await;
    assert_eq!(a.expect("acquire"), Admission::Granted);
    let b = limiter.acquire(&tenant, &ep, &one, "b", lease(10_000), T0).await;
    assert_eq!(
        b.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(IN_FLIGHT_RECHECK_MS),
            cause: HoldCause::InFlight
        }
    );
    limiter.release(&tenant, &ep, "a").await.expect("release");
    // Releasing again, or a slot never held, changes nothing.
    limiter.release(&tenant, &ep, "a").await.expect("release again");
    limiter
        .release(&tenant, &ids.endpoint(), "x")
        .await
        .expect("release unknown");
    let b = limiter.acquire(&tenant, &ep, &one, "b", lease(2_000), T0).await;
    assert_eq!(b.expect("acquire"), Admission::Granted);
    // "b" crashed without releasing: its slot is held until its lease ends, then free.
    clock.set(T0.plus_millis(1_999));
    let c = limiter
        .acquire(&tenant, &ep, &one, "c", lease(10_000), T0.plus_millis(1_999))
        .await;
    assert_eq!(
        c.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(2_000),
            cause: HoldCause::InFlight
        }
    );
    clock.set(T0.plus_millis(2_000));
    let c = limiter
        .acquire(&tenant, &ep, &one, "c", lease(10_000), T0.plus_millis(2_000))
        .await;
    assert_eq!(c.expect("acquire"), Admission::Granted);

    // Both limits: a cap hold takes no token.
    let ep = ids.endpoint();
    let both = Limits {
        rate: Some(rate(1.0, 1)),
        max_in_flight: Some(1),
    };
    let now = T0.plus_millis(2_000);
    let x = limiter.acquire(&tenant, &ep, &both, "x", lease(60_000), now).await;
    assert_eq!(x.expect("acquire"), Admission::Granted);
    let y = limiter
        .acquire(&tenant, &ep, &both, "y", lease(60_000), now.plus_millis(5_000))
        .await;
    assert!(
        matches!(
            y.expect("acquire"),
            Admission::Held {
                cause: HoldCause::InFlight,
                ..
            }
        ),
        "the cap holds first"
    );
    limiter.release(&tenant, &ep, "x").await.expect("release");
    let y = limiter
        .acquire(&tenant, &ep, &both, "y", lease(60_000), now.plus_millis(5_000))
        .await;
    assert_eq!(y.expect("acquire"), Admission::Granted);
}

/// Concurrent callers: exactly the burst, and exactly the cap, are granted. Run on
/// the memory fake only: the emulator's conditional writes are not atomic under
/// concurrent requests (moto's DynamoDB backend takes no lock), while DynamoDB's
/// are; [`limiter_shared`] checks the adapter's lost-condition path one step at a time.
pub async fn limiter_concurrent<L: crate::ports::limiter::Limiter>(limiter: &L) {
    use crate::ports::limiter::Admission;
    use courier_core::limiter::Limits;
    use courier_core::rate_limit::RateLimit;
    let ids = Ids::new();
    let tenant = ids.tenant();
    let now = T0;
    let lease = |ms: i64| T0.plus_millis(ms);
    let ep = ids.endpoint();
    let five = Limits {
        rate: Some(RateLimit::new(0.1, Some(5)).expect("a valid literal limit")),
        max_in_flight: None,
    };
    let slots: Vec<String> = (0..16).map(|i| format!("p{i}")).collect();
    let answers = futures_util::future::join_all(
        slots
            .iter()
            .map(|s| limiter.acquire(&tenant, &ep, &five, s, lease(60_000), now)),
    )
    .await;
    let granted = answers
        .into_iter()
        .map(|a| a.expect("acquire"))
        .filter(|a| *a == Admission::Granted)
        .count();
    assert_eq!(granted, 5, "burst 5 under 16 concurrent callers");
    let ep = ids.endpoint();
    let three = Limits {
        rate: None,
        max_in_flight: Some(3),
    };
    let answers = futures_util::future::join_all(
        slots
            .iter()
            .map(|s| limiter.acquire(&tenant, &ep, &three, s, lease(60_000), now)),
    )
    .await;
    let granted = answers
        .into_iter()
        .map(|a| a.expect("acquire"))
        .filter(|a| *a == Admission::Granted)
        .count();
    assert_eq!(granted, 3, "maxInFlight 3 under 16 concurrent callers");
}

/// Two limiters over one shared state (two sender instances): each sees what the
/// other took and freed, whatever it remembered of the state before.
pub async fn limiter_shared<A: crate::ports::limiter::Limiter, B: crate::ports::limiter::Limiter>(a: &A, b: &B) {
    use crate::ports::limiter::Admission;
    use courier_core::limiter::{HoldCause, Limits};
    use courier_core::rate_limit::RateLimit;
    let ids = Ids::new();
    let (tenant, ep) = (ids.tenant(), ids.endpoint());
    let limits = Limits {
        rate: Some(RateLimit::new(1.0, Some(2)).expect("a valid literal limit")),
        max_in_flight: Some(1),
    };
    let lease = T0.plus_millis(30_000);
    let got = a.acquire(&tenant, &ep, &limits, "a1", lease, T0).await;
    assert_eq!(got.expect("acquire"), Admission::Granted);
    let got = b.acquire(&tenant, &ep, &limits, "b1", lease, T0).await;
    assert_eq!(
        got.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(1000),
            cause: HoldCause::InFlight
        }
    );
    a.release(&tenant, &ep, "a1").await.expect("release");
    let got = b.acquire(&tenant, &ep, &limits, "b1", lease, T0).await;
    assert_eq!(got.expect("acquire"), Admission::Granted);
    // `a` last saw its own release: its view is out of date, the table is not.
    let got = a.acquire(&tenant, &ep, &limits, "a2", lease, T0).await;
    assert_eq!(
        got.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(1000),
            cause: HoldCause::InFlight
        }
    );
    b.release(&tenant, &ep, "b1").await.expect("release");
    // Both tokens of the burst are spent: the third waits a second for a refill.
    let got = a.acquire(&tenant, &ep, &limits, "a2", lease, T0).await;
    assert_eq!(
        got.expect("acquire"),
        Admission::Held {
            until: T0.plus_millis(1000),
            cause: HoldCause::Rate
        }
    );
    let got = a
        .acquire(&tenant, &ep, &limits, "a2", lease, T0.plus_millis(1000))
        .await;
    assert_eq!(got.expect("acquire"), Admission::Granted);
}
