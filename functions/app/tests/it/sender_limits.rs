//! The sender's hold on limited endpoints, on the memory fakes with a manual clock:
//! an endpoint without limits costs no limiter call; a held attempt is re-delayed
//! (not sent, not counted), comes back no earlier than its token, and an in-flight
//! slot is held for exactly the attempt. Also the API's `rateLimit` / `maxInFlight`.

use crate::common::{T0, World};
use courier_app::delivery::{EndpointCache, Sender, SenderSettings, StepOutcome};
use courier_app::ports::limiter::{Admission, Limiter};
use courier_app::ports::{Clock, HttpSender, OutboundRequest, SendResult};
use courier_core::ids::{EndpointId, TenantId};
use courier_core::limiter::{HoldCause, Limits};
use courier_core::outcome::{AttemptOutcome, ResponseSummary};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

fn ids(w: &World, ep: &str) -> (TenantId, EndpointId) {
    let _ = w;
    (
        TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("tenant id"),
        EndpointId::parse(ep).expect("endpoint id"),
    )
}

async fn limited_endpoint(w: &World, limits: Value) -> String {
    let mut body = json!({"url": "https://receiver.example/hook", "policy": "greatwait"});
    for (k, v) in limits.as_object().into_iter().flatten() {
        body[k] = v.clone();
    }
    let (s, b) = w.call("POST", "/v1/endpoints", body).await;
    assert_eq!(s, 201, "{b}");
    b["id"].as_str().unwrap_or_default().to_owned()
}

fn attempted(outcomes: &[StepOutcome]) -> usize {
    outcomes
        .iter()
        .filter(|o| matches!(o, StepOutcome::Attempted { .. }))
        .count()
}

#[tokio::test]
async fn an_endpoint_without_limits_asks_the_limiter_nothing() {
    let w = World::new(vec![], 10).await;
    let ep = w.endpoint(json!("greatwait")).await;
    for _ in 0..3 {
        w.event(&ep).await;
    }
    assert_eq!(attempted(&w.step().await), 3);
    assert_eq!(w.limiter.calls(), 0);
}

#[tokio::test]
async fn over_the_rate_an_attempt_is_re_delayed_uncounted_and_never_early() {
    let w = World::new(vec![], 10).await;
    let ep = limited_endpoint(&w, json!({"rateLimit": {"perSecond": 2, "burst": 2}})).await;
    let d1 = w.event(&ep).await;
    let d2 = w.event(&ep).await;
    let d3 = w.event(&ep).await;
    let outcomes = w.step().await;
    assert_eq!(attempted(&outcomes), 2);
    // The first two attempts took 10 ms each on the manual clock: the bucket, empty
    // at T0, has its next token at T0 + 500 ms, which is when the third may start.
    let held: Vec<_> = outcomes
        .iter()
        .filter_map(|o| match o {
            StepOutcome::Throttled { until, cause, held_ms } => Some((*until, *cause, *held_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(held, [(T0.plus_millis(500), HoldCause::Rate, 480)]);
    for d in [&d1, &d2] {
        assert_eq!(w.delivery(d).await.attempt_count, 1);
    }
    let third = w.delivery(&d3).await;
    assert_eq!((third.attempt_count, third.claim.is_none()), (0, true));
    // The held delivery shows when its attempt may start; the others never waited.
    assert_eq!(third.throttled_until, Some(T0.plus_millis(500)));
    let (s, view) = w.call("GET", &format!("/v1/deliveries/{d3}"), Value::Null).await;
    assert_eq!(s, 200, "{view}");
    assert_eq!(view["throttledUntil"], json!("2027-01-15T08:00:00.500Z"));
    for d in [&d1, &d2] {
        assert_eq!(w.delivery(d).await.throttled_until, None);
    }
    // Put back with a whole-second SQS delay (480 ms rounds up), due at the token.
    let waiting = w.queue.waiting();
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].message.not_before, T0.plus_millis(500));
    assert_eq!(w.queue.next_visible_at(), Some(T0.plus_millis(1_020)));
    w.clock.set(T0.plus_millis(1_020));
    let outcomes = w.step().await;
    match outcomes.as_slice() {
        [StepOutcome::Attempted { attempt, delivery }] => {
            assert_eq!(attempt.started_at, T0.plus_millis(1_020));
            assert_eq!((attempt.number, delivery.attempt_count), (1, 1));
        }
        other => panic!("expected one attempt, got {other:?}"),
    }
    assert_eq!(w.delivery(&d3).await.throttled_until, None, "cleared by the claim");
    // Two acquires granted, one held, one granted; no slots to release.
    assert_eq!(w.limiter.calls(), 4);
}

/// Counts the endpoint's live in-flight slots at the moment each request is sent.
struct SlotWatcher {
    limiter: Arc<courier_app::testing::memory::MemoryLimiter>,
    clock: Arc<courier_app::testing::memory::ManualClock>,
    seen: Mutex<Vec<usize>>,
    ids: (TenantId, EndpointId),
}

#[async_trait::async_trait]
impl HttpSender for SlotWatcher {
    async fn send(&self, _request: OutboundRequest) -> SendResult {
        let live = self.limiter.slots(&self.ids.0, &self.ids.1, self.clock.now()).len();
        self.seen.lock().map(|mut s| s.push(live)).ok();
        SendResult {
            outcome: AttemptOutcome::Response(ResponseSummary::new(200)),
            peer: None,
            duration_ms: 1,
        }
    }
}

/// Held messages come back spread over up to a quarter of their wait (at most a
/// second), never before the instant they may start: here the largest draw.
#[tokio::test]
async fn held_messages_come_back_spread_and_never_early() {
    struct Largest;
    impl courier_app::ports::Random for Largest {
        fn next_u64(&self) -> u64 {
            u64::MAX
        }
    }
    let mut w = World::new(vec![], 10).await;
    w.sender.random = std::sync::Arc::new(Largest);
    let ep = limited_endpoint(&w, json!({"rateLimit": {"perSecond": 2, "burst": 2}})).await;
    for _ in 0..3 {
        w.event(&ep).await;
    }
    let outcomes = w.step().await;
    let held: Vec<_> = outcomes
        .iter()
        .filter_map(|o| match o {
            StepOutcome::Throttled { until, held_ms, .. } => Some((*until, *held_ms)),
            _ => None,
        })
        .collect();
    // The token comes at T0 + 500 ms, 480 ms after the hold: spread by up to 120 ms.
    // (u64::MAX % 121 is 92.)
    assert_eq!(held, [(T0.plus_millis(592), 572)]);
    assert_eq!(w.queue.waiting()[0].message.not_before, T0.plus_millis(592));
}

#[tokio::test]
async fn an_in_flight_slot_is_held_for_the_attempt_and_a_full_cap_holds_until_one_frees() {
    let w = World::new(vec![], 10).await;
    let ep = limited_endpoint(&w, json!({"maxInFlight": 1})).await;
    let (tenant, endpoint) = ids(&w, &ep);
    let watcher = Arc::new(SlotWatcher {
        limiter: w.limiter.clone(),
        clock: w.clock.clone(),
        seen: Mutex::new(vec![]),
        ids: (tenant.clone(), endpoint.clone()),
    });
    let d = w.event(&ep).await;
    // Another sender's attempt holds the only slot, leased until T0 + 3 s.
    let other = w
        .limiter
        .acquire(
            &tenant,
            &endpoint,
            &limits_of(&w, &ep).await,
            "other",
            T0.plus_millis(3_000),
            T0,
        )
        .await;
    assert_eq!(other.expect("acquire"), Admission::Granted);
    let sender = Sender {
        http: watcher.clone(),
        ..w.sender
    };
    let queue = w.queue.clone();
    let clock = w.clock.clone();
    let step = async |sender: &Sender| {
        let cache = EndpointCache::default();
        let mut out = vec![];
        for (m, _) in queue.drain_visible(clock.now()) {
            out.push(sender.handle(&m, &cache).await.unwrap());
        }
        out
    };
    // The other slot's lease (3 s, shorter than this endpoint's leases) says its
    // attempt has run long: held until that lease ends, when the slot frees itself
    // (its sender died without releasing).
    let out = step(&sender).await;
    assert!(
        matches!(out.as_slice(), [StepOutcome::Throttled { until, cause: HoldCause::InFlight, held_ms: 3000 }] if *until == T0.plus_millis(3000)),
        "{out:?}"
    );
    w.clock.set(T0.plus_millis(2_999));
    let out = step(&sender).await;
    assert!(out.is_empty(), "not back before its delay: {out:?}");
    w.clock.set(T0.plus_millis(3_000));
    let out = step(&sender).await;
    assert!(matches!(out.as_slice(), [StepOutcome::Attempted { .. }]), "{out:?}");
    // During the request exactly one slot (its own) was live; after it, none.
    assert_eq!(*watcher.seen.lock().expect("seen"), [1]);
    assert!(w.limiter.slots(&tenant, &endpoint, w.clock.now()).is_empty());
    use courier_app::ports::DeliveryStore;
    let stored = w.store.get_delivery(&d).await.ok().flatten().expect("delivery");
    assert_eq!(stored.attempt_count, 1);
}

async fn limits_of(w: &World, ep: &str) -> Limits {
    let (tenant, endpoint) = ids(w, ep);
    use courier_app::ports::EndpointStore;
    w.store
        .get_endpoint(&tenant, &endpoint)
        .await
        .ok()
        .flatten()
        .map(|e| e.limits(&Limits::default()))
        .unwrap_or_default()
}

#[tokio::test]
async fn the_deployment_default_limits_endpoints_without_their_own() {
    let w = World::new(vec![], 10).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let own = limited_endpoint(&w, json!({"rateLimit": {"perSecond": 100}})).await;
    for e in [&ep, &ep, &own, &own] {
        w.event(e).await;
    }
    let sender = Sender {
        settings: SenderSettings {
            default_limits: Limits {
                rate: courier_core::rate_limit::RateLimit::new(1.0, Some(1)).ok(),
                max_in_flight: None,
            },
            ..w.sender.settings
        },
        ..w.sender
    };
    let cache = EndpointCache::default();
    let mut held = 0;
    let mut sent = 0;
    for (m, _) in w.queue.drain_visible(T0) {
        match sender.handle(&m, &cache).await.unwrap() {
            StepOutcome::Throttled { .. } => held += 1,
            StepOutcome::Attempted { .. } => sent += 1,
            other => panic!("{other:?}"),
        }
    }
    // The default's burst of one holds the second to `ep`; `own`'s 100/s sends both.
    assert_eq!((sent, held), (3, 1));
}

#[tokio::test]
async fn the_limits_are_set_shown_changed_and_removed_through_the_api() {
    let w = World::new(vec![], 10).await;
    let ep = limited_endpoint(&w, json!({"rateLimit": {"perSecond": 0.5}, "maxInFlight": 4})).await;
    let (s, b) = w.call("GET", &format!("/v1/endpoints/{ep}"), json!(null)).await;
    assert_eq!(s, 200);
    assert_eq!(
        (b["rateLimit"].clone(), b["maxInFlight"].clone()),
        (json!({"perSecond": 0.5}), json!(4))
    );
    let path = format!("/v1/endpoints/{ep}");
    let (s, b) = w
        .call("PATCH", &path, json!({"rateLimit": {"perSecond": 20, "burst": 40}}))
        .await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (b["rateLimit"].clone(), b["maxInFlight"].clone()),
        (json!({"perSecond": 20.0, "burst": 40}), json!(4))
    );
    let (s, b) = w.call("PATCH", &path, json!({"maxInFlight": null})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(
        (b["rateLimit"]["burst"].clone(), b["maxInFlight"].clone()),
        (json!(40), json!(null))
    );
    let (s, b) = w.call("PATCH", &path, json!({"rateLimit": null})).await;
    assert_eq!((s, b["rateLimit"].clone()), (200, json!(null)));
}

#[tokio::test]
async fn a_bad_limit_is_a_400_naming_its_field() {
    let w = World::new(vec![], 10).await;
    let ep = w.endpoint(json!("greatwait")).await;
    let path = format!("/v1/endpoints/{ep}");
    let cases = [
        (json!({"rateLimit": {"perSecond": 0.05}}), "rateLimit.perSecond"),
        (json!({"rateLimit": {"perSecond": 10_001}}), "rateLimit.perSecond"),
        (json!({"rateLimit": {"perSecond": "2"}}), "rateLimit.perSecond"),
        (json!({"rateLimit": {}}), "rateLimit.perSecond"),
        (json!({"rateLimit": {"perSecond": 2, "burst": 0}}), "rateLimit.burst"),
        (
            json!({"rateLimit": {"perSecond": 2, "burst": 100_001}}),
            "rateLimit.burst",
        ),
        (json!({"rateLimit": {"perSecond": 2, "brust": 3}}), "rateLimit.brust"),
        (json!({"rateLimit": 2}), "rateLimit"),
        (json!({"maxInFlight": 0}), "maxInFlight"),
        (json!({"maxInFlight": 1001}), "maxInFlight"),
        (json!({"maxInFlight": 1.5}), "maxInFlight"),
    ];
    for (body, field) in cases {
        let (s, b) = w.call("PATCH", &path, body.clone()).await;
        assert_eq!(s, 400, "{body}: {b}");
        let detail = b["detail"].as_str().unwrap_or_default();
        assert!(detail.contains(&format!("`{field}`")), "{body}: {detail}");
        let mut create = json!({"url": "https://receiver.example/hook", "policy": "greatwait"});
        for (k, v) in body.as_object().into_iter().flatten() {
            create[k] = v.clone();
        }
        let (s, b) = w.call("POST", "/v1/endpoints", create).await;
        assert_eq!(s, 400, "{body}: {b}");
    }
    // Nothing was changed by the refused calls.
    let (_, b) = w.call("GET", &path, json!(null)).await;
    assert_eq!(
        (b["rateLimit"].clone(), b["maxInFlight"].clone()),
        (json!(null), json!(null))
    );
}

#[test]
fn an_endpoint_stored_without_the_limit_fields_still_reads() {
    let e = courier_app::testing::contract::sample_endpoint(
        &TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
        &EndpointId::parse("ep_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
        T0,
    );
    let mut stored = serde_json::to_value(&e).unwrap_or_default();
    assert_eq!(stored.get("rateLimit"), None, "unset limits are not written");
    stored.as_object_mut().map(|o| o.remove("maxInFlight"));
    let read: courier_app::domain::model::Endpoint = serde_json::from_value(stored).unwrap();
    assert_eq!((read.rate_limit, read.max_in_flight), (None, None));
    assert!(read.limits(&Limits::default()).is_none());
}
