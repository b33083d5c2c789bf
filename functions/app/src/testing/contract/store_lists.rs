//! The port contract suite, store sections: attempt ids, pages, versions, holds, idempotency, logs and expiry.

use super::*;

/// Messages with a pre-assigned attempt id (redelivery, replay, test, redrive,
/// Scheduler-fired copies) share that id between their copies: a second claim under
/// the same id is refused while the first lives, however it is presented, and only
/// the claimer's own token records.
pub async fn claims_by_one_attempt_id<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 5}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let a = ids.attempt();
    let now = T0.plus_secs(1);
    let lease = now.plus_secs(30);
    let first = claim_with_token(1, &a, "first-copy", now, lease);
    let Claim::Claimed {
        delivery: claimed,
        lost,
    } = ok(store.claim_attempt(&d.id, &first).await, "first copy")
    else {
        panic!("the first copy's claim was refused")
    };
    assert_eq!(lost, None);
    assert_eq!(claimed.claim.as_ref(), Some(&first));
    // The second copy carries the same attempt id, its own token.
    for at in [now, now.plus_secs(10), lease.plus_millis(-1)] {
        let second = claim_with_token(1, &a, "second-copy", at, at.plus_secs(30));
        assert_eq!(
            ok(store.claim_attempt(&d.id, &second).await, "second copy"),
            Claim::Refused(Some(claimed.clone())),
            "a copy with the same attempt id is refused while the first lease lives ({at:?})"
        );
    }
    // The first copy's own repeated call still answers Claimed, unchanged.
    assert_eq!(
        ok(store.claim_attempt(&d.id, &first).await, "repeat"),
        Claim::Claimed {
            delivery: claimed.clone(),
            lost: None
        }
    );
    // Once the lease ends the second copy takes over; the first is reported lost, and
    // its record (same attempt id, old token) is refused.
    let second = claim_with_token(1, &a, "second-copy", lease, lease.plus_secs(30));
    let Claim::Claimed { delivery: taken, lost } = ok(store.claim_attempt(&d.id, &second).await, "takeover") else {
        panic!("takeover refused")
    };
    assert_eq!(lost, Some(first.clone()));
    // The takeover's own repeated call (its write committed, its answer lost)
    // still learns which attempt it took over, so that attempt is recorded.
    assert_eq!(
        ok(store.claim_attempt(&d.id, &second).await, "repeated takeover"),
        Claim::Claimed {
            delivery: taken.clone(),
            lost: Some(first.clone())
        }
    );
    let mut after = taken.clone();
    after.claim = None;
    after.status = DeliveryStatus::Succeeded;
    after.attempt_count = 1;
    after.settled_at = Some(lease);
    after.version = taken.version + 1;
    let att = sample_attempt(&d, &a, 1, now);
    conflict(
        store.record_attempt(&after, &att, &first).await,
        "the taken-over claimer's record under the same attempt id",
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "nothing recorded"), vec![]);
    ok(store.record_attempt(&after, &att, &second).await, "the holder's record");
    assert_eq!(ok(store.get_delivery(&d.id).await, "recorded"), Some(after));
}

/// Recording an outcome writes only what it owns: a dead-letter mark set while the
/// attempt was in flight survives, and the version moves on from the stored one.
pub async fn record_keeps_dead_letter_mark<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 6}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let a = ids.attempt();
    let claim = test_claim(1, &a, T0, T0.plus_secs(30));
    let Claim::Claimed { delivery: claimed, .. } = ok(store.claim_attempt(&d.id, &claim).await, "claim") else {
        panic!("claim refused")
    };
    // The dead-letter handler marks the delivery meanwhile (a versioned update).
    let mut marked = claimed.clone();
    marked.dead_lettered_at = Some(T0.plus_secs(2));
    marked.version = claimed.version + 1;
    ok(store.update_delivery(&marked, claimed.version).await, "mark");
    let mut after = claimed.clone();
    after.claim = None;
    after.status = DeliveryStatus::Retrying;
    after.attempt_count = 1;
    after.next_attempt = 2;
    after.next_attempt_at = Some(T0.plus_secs(30));
    after.version = claimed.version + 1;
    let att = sample_attempt(&d, &a, 1, T0);
    ok(
        store.record_attempt(&after, &att, &claim).await,
        "record after the mark",
    );
    let mut expected = after.clone();
    expected.dead_lettered_at = marked.dead_lettered_at;
    expected.version = marked.version + 1;
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after record"),
        Some(expected),
        "the mark survives the record and the version moves past the mark's"
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "recorded"), vec![att]);
}

/// A delivery's attempts in bounded reads: pages oldest first, one by id, the last.
pub async fn attempt_pages<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep, &ep], T0, serde_json::json!({"k": 7}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let (d, other) = (f.deliveries[0].clone(), f.deliveries[1].clone());
    let empty = ok(store.list_attempts_page(&d.id, None, 10).await, "no attempts yet");
    assert_eq!(
        empty,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
    assert_eq!(ok(store.last_attempt(&d.id).await, "no last attempt"), None);
    let mut recorded = Vec::new();
    for number in 1..=5u32 {
        let at = T0.plus_secs(i64::from(number));
        let a = ids.attempt();
        let claim = test_claim(number, &a, at, at.plus_secs(30));
        let Claim::Claimed { delivery: claimed, .. } = ok(store.claim_attempt(&d.id, &claim).await, "claim") else {
            panic!("claim {number} refused")
        };
        let mut after = claimed.clone();
        after.claim = None;
        after.status = DeliveryStatus::Retrying;
        after.attempt_count = number;
        after.next_attempt = number + 1;
        after.version = claimed.version + 1;
        let att = sample_attempt(&d, &a, number, at);
        ok(store.record_attempt(&after, &att, &claim).await, "record");
        recorded.push(att);
    }
    let id = &d.id;
    let pages = all_pages(2, |cursor, limit| async move {
        store.list_attempts_page(id, cursor.as_deref(), limit).await
    })
    .await;
    assert_eq!(
        pages,
        vec![recorded[0..2].to_vec(), recorded[2..4].to_vec(), recorded[4..].to_vec()],
        "pages of two, oldest first"
    );
    let first = ok(store.list_attempts_page(&d.id, None, 2).await, "first page");
    assert_eq!(first.items.len(), 2);
    let cursor = first.next_cursor.unwrap_or_default();
    bad_cursor(
        store.list_attempts_page(&other.id, Some(&cursor), 2).await,
        "another delivery's attempts cursor",
    );
    for garbage in ["not-a-cursor", "", "%%", "zz", "00"] {
        bad_cursor(store.list_attempts_page(&d.id, Some(garbage), 2).await, garbage);
    }
    let log = ok(
        store.list_deliveries(&ep, None, None, None, None, 1).await,
        "the endpoint's log",
    );
    bad_cursor(
        store.list_attempts_page(&d.id, log.next_cursor.as_deref(), 2).await,
        "a delivery log cursor on the attempts",
    );
    assert_eq!(
        ok(store.get_attempt(&d.id, &recorded[2].id).await, "by id"),
        Some(recorded[2].clone())
    );
    assert_eq!(
        ok(
            store.get_attempt(&other.id, &recorded[2].id).await,
            "another delivery's"
        ),
        None
    );
    assert_eq!(ok(store.get_attempt(&d.id, &ids.attempt()).await, "unknown id"), None);
    assert_eq!(
        ok(store.last_attempt(&d.id).await, "the last attempt"),
        Some(recorded[4].clone())
    );
    assert_eq!(ok(store.list_attempts(&d.id).await, "all of them"), recorded);
}

/// Optimistic versions on deliveries.
pub async fn delivery_versions<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 3}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();

    let mut v1 = d.clone();
    v1.status = DeliveryStatus::Pending;
    v1.trigger = Trigger::Redelivery;
    v1.next_attempt = 4;
    v1.dead_reason = Some("max_attempts".to_owned());
    v1.version = 1;
    ok(store.update_delivery(&v1, 0).await, "update at version 0");
    assert_eq!(ok(store.get_delivery(&d.id).await, "after update"), Some(v1.clone()));
    ok(
        store.update_delivery(&v1, 0).await,
        "repeating the same update (a retried call)",
    );
    let mut stale = d.clone();
    stale.version = 1;
    conflict(store.update_delivery(&stale, 0).await, "stale update");
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after stale update"),
        Some(v1.clone())
    );
    let ghost = sample_delivery(&f.event, &ep, &ids.delivery(), T0, "{}".to_owned());
    conflict(store.update_delivery(&ghost, 0).await, "update of a missing delivery");
    assert_eq!(ok(store.get_delivery(&ghost.id).await, "update created nothing"), None);
}

/// A hold of the next attempt is noted on the delivery (`throttled_until`) only
/// while that attempt could be claimed, leaves the version alone, and the claim
/// clears it.
pub async fn hold_notes<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"k": 4}));
    ok(store.create_event(&f.event, &f.deliveries).await, "create event");
    let d = f.deliveries[0].clone();
    let until = T0.plus_millis(1_500);

    assert!(
        !ok(store.note_hold(&d.id, 2, until, T0).await, "note for another attempt"),
        "attempt 2 is not the next one"
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after a refused note"),
        Some(d.clone())
    );
    assert!(
        ok(store.note_hold(&d.id, 1, until, T0).await, "note for attempt 1"),
        "the next attempt is claimable"
    );
    let noted = Delivery {
        throttled_until: Some(until),
        ..d.clone()
    };
    assert_eq!(ok(store.get_delivery(&d.id).await, "after the note"), Some(noted));
    // A later hold moves it on.
    let later = T0.plus_millis(2_000);
    assert!(ok(
        store.note_hold(&d.id, 1, later, T0.plus_millis(1_500)).await,
        "second note"
    ));
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after the second note").and_then(|d| d.throttled_until),
        Some(later)
    );

    let attempt = ids.attempt();
    let claim = test_claim(1, &attempt, later, later.plus_millis(30_000));
    let claimed = match ok(store.claim_attempt(&d.id, &claim).await, "claim") {
        Claim::Claimed { delivery, lost } => {
            assert_eq!(lost, None);
            delivery
        }
        Claim::Refused(other) => panic!("claim refused: {other:?}"),
    };
    assert_eq!(claimed.throttled_until, None, "the claim answers without the note");
    let stored = ok(store.get_delivery(&d.id).await, "after the claim").expect("delivery");
    assert_eq!(stored.throttled_until, None, "the claim clears the note");
    assert_eq!(stored.version, d.version + 1, "only the claim moved the version");
    assert!(
        !ok(
            store.note_hold(&d.id, 1, later.plus_millis(1_000), later).await,
            "note under a live claim"
        ),
        "a claimed attempt is no longer held"
    );
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "after the refused note").and_then(|d| d.throttled_until),
        None
    );
    let ghost = ids.delivery();
    assert!(!ok(
        store.note_hold(&ghost, 1, until, T0).await,
        "note on a missing delivery"
    ));
    assert_eq!(ok(store.get_delivery(&ghost).await, "the note created nothing"), None);
}

/// Idempotency keys: the first writer wins until its record expires.
pub async fn idempotency<S: IdempotencyStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let key = format!("{}#events#order-17", ids.tenant());
    let first = IdempotencyRecord {
        key: key.clone(),
        request_hash: "aa".repeat(32),
        status: 202,
        response_body: r#"{"eventId":"evt_1"}"#.to_owned(),
        created_at: T0,
        expires_at: T0.plus_secs(3600).millis() / 1000,
    };
    assert_eq!(ok(store.put_idempotency(&first).await, "first put"), None);
    let mut second = first.clone();
    second.request_hash = "bb".repeat(32);
    second.status = 409;
    assert_eq!(
        ok(store.put_idempotency(&second).await, "second put"),
        Some(first.clone())
    );
    assert_eq!(
        ok(store.put_idempotency(&second).await, "third put"),
        Some(first.clone())
    );
    let mut elsewhere = first.clone();
    elsewhere.key = format!("{key}-2");
    assert_eq!(ok(store.put_idempotency(&elsewhere).await, "other key"), None);

    // Once expired, the key is free again.
    clock.set(T0.plus_secs(3600));
    let mut later = second.clone();
    later.created_at = T0.plus_secs(3600);
    later.expires_at = T0.plus_secs(7200).millis() / 1000;
    assert_eq!(ok(store.put_idempotency(&later).await, "put after expiry"), None);
    assert_eq!(ok(store.put_idempotency(&first).await, "put after re-put"), Some(later));
}

/// The endpoint's delivery log: newest first, status filter, [since, until), pages.
pub async fn delivery_log<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let (ep, other) = (ids.endpoint(), ids.endpoint());
    let statuses = [
        DeliveryStatus::Succeeded,
        DeliveryStatus::Failed,
        DeliveryStatus::Pending,
        DeliveryStatus::Failed,
        DeliveryStatus::Retrying,
        DeliveryStatus::Failed,
        DeliveryStatus::Succeeded,
    ];
    let mut mine = Vec::new();
    for (i, status) in statuses.iter().enumerate() {
        // Two deliveries share each second: ties are ordered by id, newest first.
        let at = T0.plus_secs(10 * (i as i64 / 2));
        let mut f = fixture(&ids, &tenant, &[&ep, &other], at, serde_json::json!({"i": i}));
        f.deliveries[0].status = *status;
        ok(store.create_event(&f.event, &f.deliveries).await, "create event");
        mine.push(f.deliveries[0].clone());
    }
    mine.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));

    let all = ok(
        store.list_deliveries(&ep, None, None, None, None, 100).await,
        "list all",
    );
    assert_eq!(all.items, mine, "newest first, ties by id descending");
    assert_eq!(all.next_cursor, None);

    let pages = all_pages(3, |c, l| {
        let ep = ep.clone();
        async move { store.list_deliveries(&ep, None, None, None, c.as_deref(), l).await }
    })
    .await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![3, 3, 1]);
    assert_eq!(pages.concat(), mine);

    let failed: Vec<Delivery> = mine
        .iter()
        .filter(|d| d.status == DeliveryStatus::Failed)
        .cloned()
        .collect();
    assert_eq!(failed.len(), 3);
    let got = ok(
        store.list_deliveries(&ep, Some("failed"), None, None, None, 100).await,
        "status filter",
    );
    assert_eq!(got.items, failed);
    let pages = all_pages(2, |c, l| {
        let ep = ep.clone();
        async move {
            store
                .list_deliveries(&ep, Some("failed"), None, None, c.as_deref(), l)
                .await
        }
    })
    .await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![2, 1]);
    assert_eq!(pages.concat(), failed);
    let none = ok(
        store.list_deliveries(&ep, Some("bogus"), None, None, None, 100).await,
        "unknown status",
    );
    assert_eq!(
        none,
        Page {
            items: vec![],
            next_cursor: None
        }
    );

    // [since, until): since inclusive, until exclusive.
    let (since, until) = (T0.plus_secs(10), T0.plus_secs(30));
    let window: Vec<Delivery> = mine
        .iter()
        .filter(|d| d.created_at >= since && d.created_at < until)
        .cloned()
        .collect();
    assert_eq!(window.len(), 4);
    let got = ok(
        store
            .list_deliveries(&ep, None, Some(since), Some(until), None, 100)
            .await,
        "window",
    );
    assert_eq!(got.items, window);
    let pages = all_pages(3, |c, l| {
        let ep = ep.clone();
        async move {
            store
                .list_deliveries(&ep, None, Some(since), Some(until), c.as_deref(), l)
                .await
        }
    })
    .await;
    assert_eq!(pages.concat(), window);
    let got = ok(
        store
            .list_deliveries(&ep, Some("failed"), Some(since), None, None, 100)
            .await,
        "status and since",
    );
    let expect: Vec<Delivery> = failed.iter().filter(|d| d.created_at >= since).cloned().collect();
    assert_eq!(got.items, expect);
    let got = ok(
        store.list_deliveries(&ep, None, None, Some(T0), None, 100).await,
        "until excludes its instant",
    );
    assert_eq!(got.items, vec![]);

    // The status index follows updates.
    let mut moved = mine[0].clone();
    moved.status = DeliveryStatus::Failed;
    moved.version += 1;
    ok(store.update_delivery(&moved, mine[0].version).await, "update status");
    let got = ok(
        store.list_deliveries(&ep, Some("failed"), None, None, None, 100).await,
        "after status change",
    );
    let mut expect = vec![moved.clone()];
    expect.extend(failed.iter().cloned());
    assert_eq!(got.items, expect);
    let got = ok(
        store
            .list_deliveries(&ep, Some(mine[0].status.as_str()), None, None, None, 100)
            .await,
        "old status",
    );
    assert!(
        !got.items.iter().any(|d| d.id == moved.id),
        "the old status no longer lists it"
    );

    // A cursor continues only the list that handed it out: not another endpoint's,
    // not another status's, and not from a key outside the window asked for.
    let page = ok(store.list_deliveries(&ep, None, None, None, None, 2).await, "a page");
    let cursor = page.next_cursor.unwrap_or_default();
    bad_cursor(
        store.list_deliveries(&other, None, None, None, Some(&cursor), 2).await,
        "another endpoint's cursor",
    );
    bad_cursor(
        store
            .list_deliveries(&ep, Some("failed"), None, None, Some(&cursor), 2)
            .await,
        "the whole log's cursor on a status list",
    );
    bad_cursor(
        store
            .list_deliveries(&ep, Some("succeeded"), None, None, Some(&cursor), 2)
            .await,
        "the whole log's cursor on the succeeded list",
    );
    // The first page ends with a delivery made at T0 + 20 s: outside a window that
    // ends there or starts later, inside one that starts earlier.
    bad_cursor(
        store
            .list_deliveries(&ep, None, None, Some(T0.plus_secs(20)), Some(&cursor), 2)
            .await,
        "a cursor past the window's end",
    );
    bad_cursor(
        store
            .list_deliveries(&ep, None, Some(T0.plus_secs(31)), None, Some(&cursor), 2)
            .await,
        "a cursor before the window's start",
    );
    let rest = ok(
        store
            .list_deliveries(&ep, None, Some(T0), None, Some(&cursor), 100)
            .await,
        "a cursor inside a wider window",
    );
    assert_eq!(rest.items.len(), mine.len() - 2);
    bad_cursor(
        store
            .list_deliveries(&ep, None, None, None, Some("not-a-cursor"), 2)
            .await,
        "garbage",
    );
}

/// The tenant's audit log: events newest first, per endpoint, [since, until), pages.
pub async fn audit_log<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let (tenant, other_tenant) = (ids.tenant(), ids.tenant());
    let (ep1, ep2) = (ids.endpoint(), ids.endpoint());
    let mut events = Vec::new();
    let mut with_ep1 = Vec::new();
    for i in 0..6i64 {
        let at = T0.plus_secs(60 * (i / 2));
        let targets: Vec<&EndpointId> = match i % 3 {
            0 => vec![&ep1],
            1 => vec![&ep2],
            _ => vec![&ep1, &ep2],
        };
        let f = fixture(&ids, &tenant, &targets, at, serde_json::json!({"i": i}));
        ok(store.create_event(&f.event, &f.deliveries).await, "create event");
        if let Some(d) = f.deliveries.iter().find(|d| d.endpoint_id == ep1) {
            with_ep1.push((d.id.clone(), f.event.clone()));
        }
        events.push(f.event);
    }
    // A replay to ep1 of its newest event: the event is listed once, under its
    // original delivery.
    let newest = with_ep1
        .last()
        .map(|(_, e)| e.clone())
        .unwrap_or_else(|| panic!("events"));
    let mut replay = sample_delivery(&newest, &ep1, &ids.delivery(), T0.plus_secs(600), sample_body(&newest));
    replay.trigger = Trigger::Replay;
    ok(store.create_delivery(&replay).await, "replay");
    let foreign = fixture(&ids, &other_tenant, &[&ep1], T0, serde_json::json!({}));
    ok(
        store.create_event(&foreign.event, &foreign.deliveries).await,
        "create foreign event",
    );
    let newest_first = |v: &mut Vec<EventRecord>| v.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
    newest_first(&mut events);
    // By endpoint: the endpoint's delivery log, newest delivery first.
    with_ep1.sort_by(|a, b| (b.1.created_at, &b.0).cmp(&(a.1.created_at, &a.0)));
    let with_ep1: Vec<EventRecord> = with_ep1.into_iter().map(|(_, e)| e).collect();

    let all = ok(
        store.list_events(&tenant, None, None, None, None, 100).await,
        "list all",
    );
    assert_eq!(all.items, events);
    assert_eq!(all.next_cursor, None);
    let pages = all_pages(4, |c, l| {
        let t = tenant.clone();
        async move { store.list_events(&t, None, None, None, c.as_deref(), l).await }
    })
    .await;
    assert_eq!(pages.iter().map(Vec::len).collect::<Vec<_>>(), vec![4, 2]);
    assert_eq!(pages.concat(), events);

    let got = ok(
        store.list_events(&tenant, Some(&ep1), None, None, None, 100).await,
        "one endpoint",
    );
    assert_eq!(got.items, with_ep1);
    let pages = all_pages(1, |c, l| {
        let (t, e) = (tenant.clone(), ep1.clone());
        async move { store.list_events(&t, Some(&e), None, None, c.as_deref(), l).await }
    })
    .await;
    assert_eq!(pages.len(), with_ep1.len());
    assert_eq!(pages.concat(), with_ep1);
    // The log's own cursor does not continue the events list, nor the other way.
    let log = ok(store.list_deliveries(&ep1, None, None, None, None, 1).await, "log page");
    let events_page = ok(
        store.list_events(&tenant, Some(&ep1), None, None, None, 1).await,
        "events page",
    );
    bad_cursor(
        store
            .list_events(&tenant, Some(&ep1), None, None, log.next_cursor.as_deref(), 1)
            .await,
        "the log's cursor",
    );
    bad_cursor(
        store
            .list_deliveries(&ep1, None, None, None, events_page.next_cursor.as_deref(), 1)
            .await,
        "the events list's cursor",
    );

    let (since, until) = (T0.plus_secs(60), T0.plus_secs(120));
    let window: Vec<EventRecord> = events
        .iter()
        .filter(|e| e.created_at >= since && e.created_at < until)
        .cloned()
        .collect();
    assert_eq!(window.len(), 2);
    let got = ok(
        store
            .list_events(&tenant, None, Some(since), Some(until), None, 100)
            .await,
        "window",
    );
    assert_eq!(got.items, window);
    let got = ok(
        store
            .list_events(&tenant, Some(&ep1), Some(since), Some(until), None, 100)
            .await,
        "window+ep",
    );
    let expect: Vec<EventRecord> = with_ep1
        .iter()
        .filter(|e| e.created_at >= since && e.created_at < until)
        .cloned()
        .collect();
    assert_eq!(got.items, expect);

    let got = ok(
        store
            .list_events(&other_tenant, Some(&ep1), None, None, None, 100)
            .await,
        "other tenant",
    );
    assert_eq!(got.items, vec![foreign.event]);
    let got = ok(
        store
            .list_events(&tenant, Some(&ids.endpoint()), None, None, None, 100)
            .await,
        "no events",
    );
    assert_eq!(
        got,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
}

/// TTL: an item whose `expires_at <= now` is absent from every read and condition.
pub async fn expiry<S: DeliveryStore + IdempotencyStore>(store: &S, clock: &ManualClock) {
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let ep = ids.endpoint();
    let ttl = T0.plus_secs(600).millis() / 1000;

    let mut f = fixture(&ids, &tenant, &[&ep], T0, serde_json::json!({"ttl": true}));
    f.event.expires_at = Some(ttl);
    f.deliveries[0].expires_at = Some(ttl);
    ok(
        store.create_event(&f.event, &f.deliveries).await,
        "create expiring event",
    );
    let d = f.deliveries[0].clone();

    let a1 = ids.attempt();
    let Claim::Claimed { delivery: claimed, .. } = ok(
        store
            .claim_attempt(&d.id, &test_claim(1, &a1, T0, T0.plus_secs(60)))
            .await,
        "claim",
    ) else {
        panic!("claim refused")
    };
    let mut att = sample_attempt(&d, &a1, 1, T0);
    att.expires_at = Some(ttl);
    let mut after = claimed.clone();
    after.claim = None;
    after.attempt_count = 1;
    after.next_attempt = 2;
    after.version += 1;
    ok(store.record_attempt(&after, &att, &held(&a1)).await, "record");

    clock.set(Timestamp::from_secs(ttl).plus_millis(-1));
    assert_eq!(
        ok(store.get_delivery(&d.id).await, "live a moment before"),
        Some(after.clone())
    );
    assert_eq!(
        ok(store.get_event(&tenant, &f.event.id).await, "event live"),
        Some(f.event.clone())
    );

    clock.set(Timestamp::from_secs(ttl));
    assert_eq!(ok(store.get_delivery(&d.id).await, "expired delivery"), None);
    assert_eq!(ok(store.get_event(&tenant, &f.event.id).await, "expired event"), None);
    assert_eq!(ok(store.list_attempts(&d.id).await, "expired attempts"), vec![]);
    let log = ok(
        store.list_deliveries(&ep, None, None, None, None, 100).await,
        "expired log",
    );
    assert_eq!(
        log,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
    let audit = ok(
        store.list_events(&tenant, None, None, None, None, 100).await,
        "expired audit",
    );
    assert_eq!(
        audit,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
    let audit = ok(
        store.list_events(&tenant, Some(&ep), None, None, None, 100).await,
        "expired audit by endpoint",
    );
    assert_eq!(
        audit,
        Page {
            items: vec![],
            next_cursor: None
        }
    );
    let now = clock.now();
    let r = ok(
        store
            .claim_attempt(&d.id, &test_claim(2, &ids.attempt(), now, now.plus_secs(60)))
            .await,
        "claim expired",
    );
    assert_eq!(r, Claim::Refused(None));
    let mut bumped = after.clone();
    bumped.version += 1;
    conflict(store.update_delivery(&bumped, after.version).await, "update expired");

    // An expired id is free: creating over it succeeds and shows the new record.
    let mut again = f.deliveries[0].clone();
    again.expires_at = None;
    again.version = 0;
    let mut event2 = f.event.clone();
    event2.expires_at = None;
    event2.event_type = Some("order.recreated".to_owned());
    ok(
        store.create_event(&event2, std::slice::from_ref(&again)).await,
        "create over expired ids",
    );
    assert_eq!(ok(store.get_delivery(&d.id).await, "recreated"), Some(again));
    assert_eq!(
        ok(store.get_event(&tenant, &event2.id).await, "recreated event"),
        Some(event2)
    );
}
