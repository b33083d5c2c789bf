//! The port contract suite, store sections: large payloads and bodies stored once.

use super::*;

/// 256 KiB payloads (and envelope bodies a little larger) round-trip byte for byte
/// through every read, claim and record, with several deliveries sharing them.
pub async fn large_payload<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let eps: Vec<EndpointId> = (0..3).map(|_| ids.endpoint()).collect();
    let refs: Vec<&EndpointId> = eps.iter().collect();
    let payload = payload_of_size(MAX_PAYLOAD);
    assert_eq!(payload.to_string().len(), MAX_PAYLOAD);
    let f = fixture(&ids, &tenant, &refs, T0, payload);
    assert!(f.deliveries[0].body.len() > MAX_PAYLOAD);
    ok(store.create_event(&f.event, &f.deliveries).await, "create large event");
    assert_eq!(
        ok(store.get_event(&tenant, &f.event.id).await, "get large event"),
        Some(f.event.clone())
    );
    for d in &f.deliveries {
        assert_eq!(
            ok(store.get_delivery(&d.id).await, "get large delivery"),
            Some(d.clone())
        );
    }
    let d = f.deliveries[0].clone();
    let a1 = ids.attempt();
    let Claim::Claimed { delivery: claimed, .. } = ok(
        store
            .claim_attempt(&d.id, &test_claim(1, &a1, T0, T0.plus_secs(60)))
            .await,
        "claim large",
    ) else {
        panic!("claim refused")
    };
    assert_eq!(claimed.body, d.body);
    let mut after = claimed.clone();
    after.claim = None;
    after.status = DeliveryStatus::Succeeded;
    after.attempt_count = 1;
    after.version += 1;
    ok(
        store
            .record_attempt(&after, &sample_attempt(&d, &a1, 1, T0), &held(&a1))
            .await,
        "record large",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "after record"), Some(after.clone()));

    // A body replaced by an update (a different envelope) round-trips too.
    let mut rebody = after.clone();
    rebody.body = sample_body(&f.event).replace("scheduled", "redelivery").into();
    rebody.version += 1;
    ok(
        store.update_delivery(&rebody, after.version).await,
        "update with a new large body",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "new body"), Some(rebody.clone()));

    let log = ok(
        store.list_deliveries(&eps[0], None, None, None, None, 100).await,
        "large log",
    );
    assert_eq!(log.items, vec![rebody]);
    let log = ok(
        store.list_deliveries(&eps[1], None, None, None, None, 100).await,
        "large log 2",
    );
    assert_eq!(log.items, vec![f.deliveries[1].clone()]);
    let audit = ok(
        store.list_events(&tenant, Some(&eps[2]), None, None, None, 100).await,
        "large audit",
    );
    assert_eq!(audit.items, vec![f.event.clone()]);
    let audit = ok(
        store.list_events(&tenant, None, None, None, None, 100).await,
        "large audit",
    );
    assert_eq!(audit.items, vec![f.event]);
}

/// A delivery created with its event and marked by `shared_body::share` is stored
/// without its body, which the event holds once: reads give it back empty with the
/// body's hash, and writes of it (with the body put back by the sender, or empty)
/// keep it so. Every other delivery keeps its own body, as every delivery written
/// before did (the sections above: unmarked deliveries, inline or shared bodies).
pub async fn bodies_in_events<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    use crate::domain::shared_body;
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    // One endpoint (two puts) and two (a transaction); a small and a large body.
    for (n, size) in [(1, 60), (2, 60), (1, MAX_PAYLOAD), (2, 9_000)] {
        let eps: Vec<EndpointId> = (0..n).map(|_| ids.endpoint()).collect();
        let refs: Vec<&EndpointId> = eps.iter().collect();
        let mut f = fixture(&ids, &tenant, &refs, T0, payload_of_size(size));
        shared_body::share(&mut f.deliveries);
        let body = f.deliveries[0].body.clone();
        let hash = shared_body::hash(&body);
        let case = format!("{n} endpoint(s), {size}-byte payload");
        ok(store.create_event(&f.event, &f.deliveries).await, &case);
        assert_eq!(
            ok(store.get_event(&tenant, &f.event.id).await, &case),
            Some(f.event.clone()),
            "{case}"
        );
        assert_eq!(
            ok(store.event_body(&f.event.id).await, &case).as_deref(),
            Some(&*body),
            "{case}"
        );
        let bare = |d: &Delivery| Delivery {
            body: "".into(),
            body_hash: Some(hash.clone()),
            ..d.clone()
        };
        for d in &f.deliveries {
            assert_eq!(ok(store.get_delivery(&d.id).await, &case), Some(bare(d)), "{case}");
        }
        let log = ok(store.list_deliveries(&eps[0], None, None, None, None, 10).await, &case);
        assert_eq!(log.items, vec![bare(&f.deliveries[0])], "{case}");

        // The sender's round: claim (no body), record with the body put back.
        let d = &f.deliveries[0];
        let a1 = ids.attempt();
        let Claim::Claimed { delivery: claimed, .. } = ok(
            store
                .claim_attempt(&d.id, &test_claim(1, &a1, T0, T0.plus_secs(60)))
                .await,
            &case,
        ) else {
            panic!("{case}: claim refused")
        };
        assert_eq!(
            (&*claimed.body, claimed.body_hash.as_deref()),
            ("", Some(&*hash)),
            "{case}"
        );
        let mut after = Delivery {
            body: body.clone(),
            ..claimed.clone()
        };
        after.claim = None;
        after.status = DeliveryStatus::Succeeded;
        after.attempt_count = 1;
        after.next_attempt = 2;
        after.settled_at = Some(T0);
        after.expires_at = Some(T0.millis() / 1000 + 86_400);
        after.version += 1;
        let attempt = sample_attempt(d, &a1, 1, T0);
        ok(store.record_attempt(&after, &attempt, &held(&a1)).await, &case);
        // A repeat of the same record (an SDK retry) is the same success.
        ok(store.record_attempt(&after, &attempt, &held(&a1)).await, &case);
        assert_eq!(ok(store.get_delivery(&d.id).await, &case), Some(bare(&after)), "{case}");
        // An update with the body put back, and its repeat, store it no differently.
        let mut again = after.clone();
        again.status = DeliveryStatus::Pending;
        again.version += 1;
        ok(store.update_delivery(&again, after.version).await, &case);
        ok(store.update_delivery(&again, after.version).await, &case);
        assert_eq!(ok(store.get_delivery(&d.id).await, &case), Some(bare(&again)), "{case}");
        assert_eq!(
            ok(store.event_body(&f.event.id).await, &case).as_deref(),
            Some(&*body),
            "{case}"
        );
    }

    // Marked, but not the event's body (or written by another create call): a
    // delivery keeps its own body, and reads back as written, unmarked.
    let eps = [ids.endpoint(), ids.endpoint()];
    let mut f = fixture(&ids, &tenant, &[&eps[0], &eps[1]], T0, serde_json::json!({"k": "odd"}));
    f.deliveries[1].body = sample_body(&f.event).replace("scheduled", "replay").into();
    shared_body::share(&mut f.deliveries);
    ok(store.create_event(&f.event, &f.deliveries).await, "two bodies");
    let own = |d: &Delivery| Delivery {
        body_hash: None,
        ..d.clone()
    };
    assert_eq!(
        ok(store.get_delivery(&f.deliveries[1].id).await, "own body"),
        Some(own(&f.deliveries[1]))
    );
    assert_eq!(
        ok(store.get_delivery(&f.deliveries[0].id).await, "event's body").map(|d| d.body_hash),
        Some(f.deliveries[0].body_hash.clone())
    );
    let mut replay = sample_delivery(&f.event, &eps[0], &ids.delivery(), T0, sample_body(&f.event));
    shared_body::share(std::slice::from_mut(&mut replay));
    ok(store.create_delivery(&replay).await, "replay");
    assert_eq!(ok(store.get_delivery(&replay.id).await, "replay"), Some(own(&replay)));

    // No body for an event that stores none, or none at all.
    let plain = fixture(&ids, &tenant, &[&ids.endpoint()], T0, serde_json::json!({"k": 2}));
    ok(store.create_event(&plain.event, &plain.deliveries).await, "plain");
    assert_eq!(ok(store.event_body(&plain.event.id).await, "plain"), None);
    assert_eq!(ok(store.event_body(&ids.event()).await, "unknown"), None);
}
