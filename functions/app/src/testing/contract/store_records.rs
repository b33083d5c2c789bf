//! The port contract suite, store sections: tenants, endpoints, events, claims and outcomes.

use super::*;

// ---------------------------------------------------------------------------------
// Store sections
// ---------------------------------------------------------------------------------

/// Runs every store section in turn on one store.
pub async fn store_contract<S>(store: &S, clock: &ManualClock)
where
    S: TenantStore + EndpointStore + DeliveryStore + IdempotencyStore,
{
    tenants(store).await;
    expiring_keys(store, clock).await;
    endpoints(store, clock).await;
    endpoint_pages(store, clock).await;
    endpoint_scan(store, clock).await;
    smart_health(store, clock).await;
    events_and_deliveries(store, clock).await;
    added_deliveries(store, clock).await;
    claims(store, clock).await;
    claims_by_one_attempt_id(store, clock).await;
    record_attempt(store, clock).await;
    record_keeps_dead_letter_mark(store, clock).await;
    attempt_pages(store, clock).await;
    delivery_versions(store, clock).await;
    hold_notes(store, clock).await;
    idempotency(store, clock).await;
    delivery_log(store, clock).await;
    audit_log(store, clock).await;
    expiry(store, clock).await;
    large_payload(store, clock).await;
    bodies_in_events(store, clock).await;
    statistics(store, clock).await;
}

/// API keys map to tenants; a put replaces.
pub async fn tenants<S: TenantStore>(store: &S) {
    let ids = Ids::new();
    let t1 = Tenant {
        id: ids.tenant(),
        name: "Acme".to_owned(),
    };
    let t2 = Tenant {
        id: ids.tenant(),
        name: "Globex".to_owned(),
    };
    let key = format!("hash-{}", t1.id);
    assert_eq!(ok(store.tenant_by_key(&key).await, "unknown key"), None);
    ok(store.put_tenant_key(&key, &t1).await, "put key");
    assert_eq!(ok(store.tenant_by_key(&key).await, "known key"), Some(t1.clone()));
    ok(store.put_tenant_key(&key, &t2).await, "re-put key");
    assert_eq!(ok(store.tenant_by_key(&key).await, "re-put key"), Some(t2));
}

/// A key put with an expiry is found until then, not from then on.
pub async fn expiring_keys<S: TenantStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let t = Tenant {
        id: ids.tenant(),
        name: "{\"link\": 1}".to_owned(),
    };
    let key = format!("portal#pl_{}", t.id);
    let until = T0.millis() / 1000 + 60;
    ok(store.put_expiring_key(&key, &t, until).await, "put expiring key");
    assert_eq!(ok(store.tenant_by_key(&key).await, "before"), Some(t.clone()));
    clock.set(T0.plus_secs(59));
    assert_eq!(ok(store.tenant_by_key(&key).await, "a second before"), Some(t.clone()));
    clock.set(T0.plus_secs(60));
    assert_eq!(ok(store.tenant_by_key(&key).await, "at its end"), None);
}

/// SmartChat health kept apart from the endpoint record
/// (`EndpointStore::note_smart_success`, `put_smart_health`): reads give it back as
/// the endpoint's `health`; until it is first written apart the record's counts.
pub async fn smart_health<S: EndpointStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let mut e = sample_endpoint(&tenant, &ids.endpoint(), T0);
    e.policy = Policy::preset("smartchat").expect("the smartchat preset exists");
    let created = SmartHealth::new(T0);
    e.health = Some(created);
    ok(store.create_endpoint(&e).await, "create");
    let health = || async {
        ok(store.get_endpoint(&tenant, &e.id).await, "get")
            .expect("the endpoint")
            .health
    };
    let (tenant_ref, id_ref) = (&tenant, &e.id);
    let note = |at: Timestamp| async move { ok(store.note_smart_success(tenant_ref, id_ref, at).await, "note") };
    // Nothing kept apart yet: a success is not noted that way, the record's health
    // is read.
    assert!(!note(T0.plus_secs(1)).await, "no health apart yet");
    assert_eq!(health().await, Some(created));

    // The first write apart takes over from the record's health.
    let failing = SmartHealth {
        failures_in_a_row: 2,
        ..created
    };
    ok(
        store.put_smart_health(&tenant, &e.id, Some(&created), &failing).await,
        "first write apart",
    );
    assert_eq!(health().await, Some(failing));
    // Then only the health that was read may be replaced.
    let other = SmartHealth {
        failures_in_a_row: 3,
        ..created
    };
    conflict(
        store.put_smart_health(&tenant, &e.id, Some(&created), &other).await,
        "replace a health no longer stored",
    );
    assert_eq!(health().await, Some(failing));

    // A later success on an active endpoint: no failures in a row, quiet from now.
    assert!(note(T0.plus_secs(5)).await);
    let noted = SmartHealth {
        status: HealthStatus::Active,
        failures_in_a_row: 0,
        quiet_since: T0.plus_secs(5),
        since: T0,
    };
    assert_eq!(health().await, Some(noted));
    // A success not after the stored one is not noted: the caller reads and decides.
    assert!(!note(T0.plus_secs(5)).await);
    assert!(!note(T0.plus_secs(4)).await);
    assert_eq!(health().await, Some(noted));

    // Not active: not noted either.
    let degraded = SmartHealth {
        status: HealthStatus::Degraded,
        failures_in_a_row: 5,
        quiet_since: T0.plus_secs(5),
        since: T0.plus_secs(6),
    };
    ok(
        store.put_smart_health(&tenant, &e.id, Some(&noted), &degraded).await,
        "replace",
    );
    assert!(!note(T0.plus_secs(10)).await);
    assert_eq!(health().await, Some(degraded));
    // With no health read (an endpoint just given the SmartChat model), whatever is
    // stored is replaced.
    ok(
        store.put_smart_health(&tenant, &e.id, None, &other).await,
        "replace whatever is stored",
    );
    assert_eq!(health().await, Some(other));
    ok(
        store.put_smart_health(&tenant, &e.id, Some(&other), &degraded).await,
        "replace",
    );

    // An update of the record (whose copy of the health is older) leaves the health
    // kept apart as it is, and lists give it too.
    let mut changed = ok(store.get_endpoint(&tenant, &e.id).await, "get").expect("the endpoint");
    let version = changed.version;
    changed.url = "https://hooks.example.com/moved".to_owned();
    changed.health = Some(created);
    changed.version += 1;
    ok(store.update_endpoint(&changed, version).await, "update the record");
    assert_eq!(health().await, Some(degraded));
    let listed = ok(store.list_endpoints(&tenant, None, 10).await, "list");
    assert_eq!(
        listed
            .items
            .iter()
            .map(|x| (x.id.clone(), x.url.clone(), x.health))
            .collect::<Vec<_>>(),
        vec![(
            e.id.clone(),
            "https://hooks.example.com/moved".to_owned(),
            Some(degraded)
        )]
    );
}

/// Create conflicts, tenant scoping and optimistic versions of endpoints.
pub async fn endpoints<S: EndpointStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let e1 = sample_endpoint(&tenant, &ids.endpoint(), T0);
    ok(store.create_endpoint(&e1).await, "create endpoint");
    conflict(store.create_endpoint(&e1).await, "creating the same endpoint id again");
    assert_eq!(ok(store.get_endpoint(&tenant, &e1.id).await, "get"), Some(e1.clone()));
    assert_eq!(
        ok(store.get_endpoint(&other, &e1.id).await, "get from another tenant"),
        None,
        "an endpoint must be invisible to other tenants"
    );
    assert_eq!(
        ok(store.get_endpoint(&tenant, &ids.endpoint()).await, "get unknown"),
        None
    );

    let mut e2 = e1.clone();
    e2.url = "https://hooks.example.com/v2".to_owned();
    e2.state = EndpointState::Disabled;
    e2.updated_at = T0.plus_secs(5);
    e2.version = 1;
    ok(store.update_endpoint(&e2, 0).await, "update at the stored version");
    assert_eq!(
        ok(store.get_endpoint(&tenant, &e1.id).await, "get after update"),
        Some(e2.clone())
    );

    let mut stale = e1.clone();
    stale.url = "https://stale.example.com/".to_owned();
    stale.version = 1;
    conflict(store.update_endpoint(&stale, 0).await, "update with a stale version");
    assert_eq!(
        ok(store.get_endpoint(&tenant, &e1.id).await, "get after stale update"),
        Some(e2.clone())
    );

    let mut foreign = e2.clone();
    foreign.tenant_id = other.clone();
    foreign.version = 2;
    conflict(
        store.update_endpoint(&foreign, 1).await,
        "update through another tenant",
    );
    assert_eq!(
        ok(
            store.get_endpoint(&other, &e1.id).await,
            "foreign update created nothing"
        ),
        None
    );

    let ghost = sample_endpoint(&tenant, &ids.endpoint(), T0);
    conflict(store.update_endpoint(&ghost, 0).await, "update of a missing endpoint");
    assert_eq!(
        ok(store.get_endpoint(&tenant, &ghost.id).await, "update created nothing"),
        None
    );
}

/// Endpoint lists: one tenant only, id order (creation order), exact pages.
pub async fn endpoint_pages<S: EndpointStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let mut mine: Vec<Endpoint> = (0..5).map(|_| sample_endpoint(&tenant, &ids.endpoint(), T0)).collect();
    for e in &mine {
        ok(store.create_endpoint(e).await, "create endpoint");
    }
    ok(
        store
            .create_endpoint(&sample_endpoint(&other, &ids.endpoint(), T0))
            .await,
        "create other",
    );
    mine.sort_by(|a, b| a.id.cmp(&b.id));

    let empty = ok(store.list_endpoints(&ids.tenant(), None, 10).await, "list empty tenant");
    assert_eq!(
        empty,
        Page {
            items: vec![],
            next_cursor: None
        }
    );

    let full = ok(store.list_endpoints(&tenant, None, 100).await, "list all");
    assert_eq!(full.items, mine);
    assert_eq!(full.next_cursor, None, "no cursor when nothing remains");
    let exact = ok(store.list_endpoints(&tenant, None, 5).await, "list exactly all");
    assert_eq!(exact.items, mine);
    assert_eq!(
        exact.next_cursor, None,
        "no cursor when the page ends exactly at the last item"
    );

    let pages = all_pages(2, |c, l| {
        let t = tenant.clone();
        async move { store.list_endpoints(&t, c.as_deref(), l).await }
    })
    .await;
    let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
    assert_eq!(sizes, vec![2, 2, 1]);
    assert_eq!(pages.concat(), mine);

    let one = ok(store.list_endpoints(&tenant, None, 0).await, "limit 0 is clamped to 1");
    assert_eq!(one.items, mine[..1].to_vec());
    assert!(one.next_cursor.is_some());
    let big = ok(
        store.list_endpoints(&tenant, None, 10_000).await,
        "limit is clamped to 100",
    );
    assert_eq!(big.items, mine);

    // A cursor continues only the list that handed it out.
    let first = ok(store.list_endpoints(&tenant, None, 2).await, "first page");
    let cursor = first.next_cursor.unwrap_or_default();
    bad_cursor(
        store.list_endpoints(&other, Some(&cursor), 2).await,
        "another tenant's cursor",
    );
    for garbage in ["not-a-cursor", "", "%%", "zz", "00"] {
        bad_cursor(store.list_endpoints(&tenant, Some(garbage), 2).await, garbage);
    }
}

pub(super) struct Fixture {
    pub(super) event: EventRecord,
    pub(super) deliveries: Vec<Delivery>,
}

pub(super) fn fixture(
    ids: &Ids,
    tenant: &TenantId,
    endpoints: &[&EndpointId],
    created_at: Timestamp,
    payload: serde_json::Value,
) -> Fixture {
    let mut event = sample_event(tenant, &ids.event(), created_at, payload);
    let body = sample_body(&event);
    let deliveries: Vec<Delivery> = endpoints
        .iter()
        .map(|ep| sample_delivery(&event, ep, &ids.delivery(), created_at, body.clone()))
        .collect();
    event.targets = deliveries
        .iter()
        .map(|d| EventTarget {
            endpoint_id: d.endpoint_id.clone(),
            delivery_id: d.id.clone(),
            outcome: "queued".to_owned(),
            reason: None,
        })
        .collect();
    Fixture { event, deliveries }
}

/// Events and their deliveries are written together, or not at all.
pub async fn events_and_deliveries<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let (tenant, other) = (ids.tenant(), ids.tenant());
    let (ep1, ep2) = (ids.endpoint(), ids.endpoint());
    let f = fixture(
        &ids,
        &tenant,
        &[&ep1, &ep2],
        T0,
        serde_json::json!({"order": 17, "items": ["a", "b"]}),
    );
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    assert_eq!(
        ok(store.get_event(&tenant, &f.event.id).await, "get event"),
        Some(f.event.clone())
    );
    assert_eq!(
        ok(
            store.get_event(&other, &f.event.id).await,
            "get event from another tenant"
        ),
        None
    );
    assert_eq!(
        ok(store.get_event(&tenant, &ids.event()).await, "get unknown event"),
        None
    );
    for d in &f.deliveries {
        assert_eq!(ok(store.get_delivery(&d.id).await, "get delivery"), Some(d.clone()));
    }
    assert_eq!(
        ok(store.get_delivery(&ids.delivery()).await, "get unknown delivery"),
        None
    );
    assert_eq!(
        ok(store.list_attempts(&f.deliveries[0].id).await, "no attempts yet"),
        vec![]
    );

    conflict(
        store.create_event(&f.event, &[]).await,
        "creating the same event id again",
    );

    // A new event whose second delivery reuses an existing id: nothing may be written.
    let mut g = fixture(
        &ids,
        &tenant,
        &[&ep1, &ep2],
        T0.plus_secs(1),
        serde_json::json!({"order": 18}),
    );
    g.deliveries[1].id = f.deliveries[0].id.clone();
    conflict(
        store.create_event(&g.event, &g.deliveries).await,
        "creating an event over an existing delivery id",
    );
    assert_eq!(
        ok(store.get_event(&tenant, &g.event.id).await, "atomicity: event"),
        None
    );
    assert_eq!(
        ok(
            store.get_delivery(&g.deliveries[0].id).await,
            "atomicity: first delivery"
        ),
        None
    );
    assert_eq!(
        ok(
            store.get_delivery(&f.deliveries[0].id).await,
            "atomicity: existing delivery"
        ),
        Some(f.deliveries[0].clone())
    );

    // Duplicate delivery ids inside one event are refused too.
    let mut h = fixture(&ids, &tenant, &[&ep1, &ep2], T0.plus_secs(2), serde_json::json!(null));
    h.deliveries[1].id = h.deliveries[0].id.clone();
    let refused = store.create_event(&h.event, &h.deliveries).await;
    assert!(
        refused.is_err(),
        "duplicate delivery ids in one event must be refused, got {refused:?}"
    );
    assert_eq!(
        ok(store.get_event(&tenant, &h.event.id).await, "atomicity: duplicate ids"),
        None
    );

    // An event with no deliveries (every target dropped at ingest) is fine.
    let lone = fixture(
        &ids,
        &tenant,
        &[],
        T0.plus_secs(3),
        serde_json::json!({"dropped": true}),
    );
    ok(
        store.create_event(&lone.event, &lone.deliveries).await,
        "event without deliveries",
    );
    assert_eq!(
        ok(store.get_event(&tenant, &lone.event.id).await, "get lone event"),
        Some(lone.event)
    );
}

/// Deliveries added to an existing event later (replays): conflicts, reads, logs.
pub async fn added_deliveries<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 9}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let mut replay = sample_delivery(&f.event, &ep, &ids.delivery(), T0.plus_secs(60), sample_body(&f.event));
    replay.trigger = Trigger::Replay;
    replay.webhook_id = f.deliveries[0].id.clone();
    ok(store.create_delivery(&replay).await, "add a delivery");
    assert_eq!(
        ok(store.get_delivery(&replay.id).await, "get added"),
        Some(replay.clone())
    );
    conflict(store.create_delivery(&replay).await, "adding the same delivery again");
    conflict(
        store.create_delivery(&f.deliveries[0]).await,
        "adding over an event's delivery",
    );
    assert_eq!(
        ok(store.get_delivery(&f.deliveries[0].id).await, "original unchanged"),
        Some(f.deliveries[0].clone())
    );
    let log = ok(store.list_deliveries(&ep, None, None, None, None, 100).await, "log");
    assert_eq!(log.items, vec![replay.clone(), f.deliveries[0].clone()]);
    let audit = ok(
        store.list_events(&tenant, Some(&ep), None, None, None, 100).await,
        "audit",
    );
    assert_eq!(
        audit.items,
        vec![f.event.clone()],
        "a replay does not repeat the event in the audit log"
    );
    let a = ids.attempt();
    let claimed = ok(
        store
            .claim_attempt(&replay.id, &test_claim(1, &a, T0, T0.plus_secs(60)))
            .await,
        "claim added",
    );
    assert!(
        matches!(claimed, Claim::Claimed { .. }),
        "an added delivery is claimable, got {claimed:?}"
    );
}

/// The claim rule, exactly: number, settlement, live claims, lease takeover.
pub async fn claims<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep, &ep], T0, serde_json::json!({"k": 1}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let now = T0.plus_secs(1);
    let lease = now.plus_secs(60);

    let wrong = ok(
        store
            .claim_attempt(&d.id, &test_claim(2, &ids.attempt(), now, lease))
            .await,
        "claim wrong number",
    );
    assert_eq!(wrong, Claim::Refused(Some(d.clone())), "attempt 2 is not next");
    let missing = ok(
        store
            .claim_attempt(&ids.delivery(), &test_claim(1, &ids.attempt(), now, lease))
            .await,
        "claim missing",
    );
    assert_eq!(missing, Claim::Refused(None));

    let a1 = ids.attempt();
    let got = ok(
        store.claim_attempt(&d.id, &test_claim(1, &a1, now, lease)).await,
        "first claim",
    );
    let mut claimed = d.clone();
    claimed.claim = Some(test_claim(1, &a1, now, lease));
    claimed.version = d.version + 1;
    assert_eq!(
        got,
        Claim::Claimed {
            delivery: claimed.clone(),
            lost: None
        }
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "get claimed"),
        Some(claimed.clone())
    );

    let dup = ok(
        store
            .claim_attempt(
                &d.id,
                &test_claim(1, &ids.attempt(), now.plus_secs(5), lease.plus_secs(5)),
            )
            .await,
        "dup",
    );
    assert_eq!(
        dup,
        Claim::Refused(Some(claimed.clone())),
        "a live claim refuses a duplicate"
    );
    let again = ok(
        store.claim_attempt(&d.id, &test_claim(1, &a1, now, lease)).await,
        "repeat",
    );
    assert_eq!(
        again,
        Claim::Claimed {
            delivery: claimed.clone(),
            lost: None
        },
        "repeating a claim with the same attempt id (a retried call) answers Claimed, unchanged"
    );
    let early = ok(
        store
            .claim_attempt(
                &d.id,
                &test_claim(1, &ids.attempt(), lease.plus_millis(-1), lease.plus_secs(60)),
            )
            .await,
        "early",
    );
    assert_eq!(
        early,
        Claim::Refused(Some(claimed.clone())),
        "the lease holds until lease_until"
    );

    // At lease_until the claim may be taken over; the old one is reported lost.
    let a2 = ids.attempt();
    let lease2 = lease.plus_secs(60);
    let took = ok(
        store.claim_attempt(&d.id, &test_claim(1, &a2, lease, lease2)).await,
        "takeover",
    );
    let mut taken = claimed.clone();
    taken.claim = Some(test_claim(1, &a2, lease, lease2));
    taken.version = claimed.version + 1;
    assert_eq!(
        took,
        Claim::Claimed {
            delivery: taken.clone(),
            lost: claimed.claim.clone()
        },
        "an expired lease is taken over"
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "get after takeover"), Some(taken));

    // Settled deliveries are never claimable, whatever their next_attempt says.
    let s = f.deliveries[1].clone();
    for status in [
        DeliveryStatus::Succeeded,
        DeliveryStatus::Failed,
        DeliveryStatus::Dropped,
    ] {
        let current = ok(store.get_delivery(&s.id).await, "get").expect("delivery exists");
        let mut settled = current.clone();
        settled.status = status;
        settled.settled_at = Some(now);
        settled.version = current.version + 1;
        ok(store.update_delivery(&settled, current.version).await, "settle");
        let r = ok(
            store
                .claim_attempt(&s.id, &test_claim(1, &ids.attempt(), now, lease))
                .await,
            "claim settled",
        );
        assert_eq!(
            r,
            Claim::Refused(Some(settled)),
            "a {} delivery is not claimable",
            status.as_str()
        );
    }
    // Unsettled statuses are claimable.
    for status in [
        DeliveryStatus::Scheduled,
        DeliveryStatus::Retrying,
        DeliveryStatus::Ambiguous,
    ] {
        let current = ok(store.get_delivery(&s.id).await, "get").expect("delivery exists");
        let mut open = current.clone();
        open.status = status;
        open.settled_at = None;
        open.claim = None;
        open.version = current.version + 1;
        ok(store.update_delivery(&open, current.version).await, "reopen");
        let r = ok(
            store
                .claim_attempt(&s.id, &test_claim(1, &ids.attempt(), now, lease))
                .await,
            "claim open",
        );
        assert!(
            matches!(r, Claim::Claimed { .. }),
            "a {} delivery is claimable, got {r:?}",
            status.as_str()
        );
    }
}

/// Outcomes are recorded only under the claim, together with the delivery's state.
pub async fn record_attempt<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 2}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let now = T0.plus_secs(1);

    // Nothing is claimed yet.
    let a0 = ids.attempt();
    conflict(
        store
            .record_attempt(&d, &sample_attempt(&d, &a0, 1, now), &held(&a0))
            .await,
        "record without any claim",
    );

    let a1 = ids.attempt();
    let Claim::Claimed { delivery: claimed, .. } = ok(
        store
            .claim_attempt(&d.id, &test_claim(1, &a1, now, now.plus_secs(60)))
            .await,
        "claim",
    ) else {
        panic!("claim 1 refused")
    };
    let other = ids.attempt();
    conflict(
        store
            .record_attempt(&claimed, &sample_attempt(&d, &other, 1, now), &held(&other))
            .await,
        "record under another attempt's id",
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "nothing recorded"), vec![]);
    assert_eq!(ok(store.get_delivery(&d.id).await, "unchanged"), Some(claimed.clone()));

    let att1 = sample_attempt(&d, &a1, 1, now);
    let mut after1 = claimed.clone();
    after1.claim = None;
    after1.status = DeliveryStatus::Retrying;
    after1.attempt_count = 1;
    after1.next_attempt = 2;
    after1.receiver_failures = 1;
    after1.next_attempt_at = Some(now.plus_secs(30));
    after1.version = claimed.version + 1;
    ok(
        store.record_attempt(&after1, &att1, &held(&a1)).await,
        "record under the claim",
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after record"),
        Some(after1.clone())
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "one attempt"), vec![att1.clone()]);
    // Repeating exactly the same record (a retried call) succeeds without change;
    // anything else under the released claim is refused.
    ok(
        store.record_attempt(&after1, &att1, &held(&a1)).await,
        "repeating the same record",
    );
    let mut other_outcome = after1.clone();
    other_outcome.status = DeliveryStatus::Succeeded;
    conflict(
        store.record_attempt(&other_outcome, &att1, &held(&a1)).await,
        "another outcome under a released claim",
    );
    let mut other_attempt = att1.clone();
    other_attempt.response_status = Some(200);
    conflict(
        store.record_attempt(&after1, &other_attempt, &held(&a1)).await,
        "another attempt record under a released claim",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "unchanged"), Some(after1.clone()));
    assert_eq!(
        ok(store.list_attempts(&d.id).await, "still one attempt"),
        vec![att1.clone()]
    );

    // Attempt 2: claimed, lease lost, taken over; the lost attempt and the new one are
    // recorded under the new claim, and the old claim id no longer records anything.
    let t2 = now.plus_secs(30);
    let a2 = ids.attempt();
    let Claim::Claimed { .. } = ok(
        store
            .claim_attempt(&d.id, &test_claim(2, &a2, t2, t2.plus_secs(60)))
            .await,
        "claim 2",
    ) else {
        panic!("claim 2 refused")
    };
    let t3 = t2.plus_secs(60);
    let a3 = ids.attempt();
    let Claim::Claimed { delivery: taken, lost } = ok(
        store
            .claim_attempt(&d.id, &test_claim(2, &a3, t3, t3.plus_secs(60)))
            .await,
        "takeover",
    ) else {
        panic!("takeover refused")
    };
    let lost = lost.expect("the expired claim is reported lost");
    assert_eq!(lost.attempt_id, a2);
    conflict(
        store
            .record_attempt(&taken, &sample_attempt(&d, &a2, 2, t2), &held(&a2))
            .await,
        "record under a taken-over claim",
    );
    let mut lost_att = sample_attempt(&d, &a2, 2, t2);
    lost_att.state = "ambiguous".into();
    lost_att.response_status = None;
    let mut still_claimed = taken.clone();
    still_claimed.status = DeliveryStatus::Ambiguous;
    still_claimed.attempt_count = 2;
    still_claimed.version = taken.version + 1;
    ok(
        store.record_attempt(&still_claimed, &lost_att, &held(&a3)).await,
        "record the lost attempt under the new claim, keeping the claim",
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "claim kept"),
        Some(still_claimed.clone())
    );
    let att3 = sample_attempt(&d, &a3, 3, t3);
    let mut done = still_claimed.clone();
    done.claim = None;
    done.status = DeliveryStatus::Succeeded;
    done.attempt_count = 3;
    done.settled_at = Some(t3);
    done.next_attempt_at = None;
    done.version = still_claimed.version + 1;
    ok(
        store.record_attempt(&done, &att3, &held(&a3)).await,
        "record the new attempt",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "settled"), Some(done));
    assert_eq!(
        ok(store.list_attempts(&d.id).await, "attempts oldest first"),
        vec![att1, lost_att, att3],
        "attempts are listed by number"
    );
}
