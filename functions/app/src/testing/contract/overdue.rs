//! The due index's contract (`OverdueIndex`), for the memory store and DynamoDB.

use crate::domain::model::Delivery;
use crate::ports::{DeliveryStore, OverdueIndex};
use crate::testing::memory::ManualClock;
use courier_core::Timestamp;
use courier_core::ids::DeliveryId;

/// The due index's contract, for every store that implements it (the memory store
/// in this crate's tests, DynamoDB on the emulator in functions/aws's): entries
/// follow `due_at` through creation, outcome, dead-lettering and settling.
pub async fn overdue_index_contract<S>(store: &S, clock: &ManualClock)
where
    S: OverdueIndex + DeliveryStore,
{
    use crate::domain::model::DeliveryStatus;
    use crate::testing::contract::{Ids, T0, sample_attempt, sample_delivery, sample_event};
    let ids = Ids::new();
    clock.set(T0);
    let event = sample_event(&ids.tenant(), &ids.event(), T0, serde_json::json!({"n": 1}));
    let endpoint = ids.endpoint();
    let make = |due_ms: i64| {
        let mut d = sample_delivery(&event, &endpoint, &ids.delivery(), T0, "{}".to_owned());
        d.next_attempt_at = Some(T0.plus_millis(due_ms));
        d
    };
    // Three unsettled deliveries: due an hour ago, a minute ago, in an hour.
    let old = make(-3_600_000);
    let recent = make(-60_000);
    let later = make(3_600_000);
    store
        .create_event(&event, &[old.clone(), recent.clone(), later.clone()])
        .await
        .expect("create event");
    let before = T0.plus_millis(-300_000);
    assert_eq!(store.overdue(before, 10).await.expect("overdue"), vec![old.id.clone()]);
    let mut both = store.overdue(T0, 10).await.expect("overdue");
    both.sort();
    let mut want = vec![old.id.clone(), recent.id.clone()];
    want.sort();
    assert_eq!(both, want, "everything due before now");
    assert_eq!(store.overdue(T0, 1).await.expect("overdue").len(), 1, "limit holds");
    assert_eq!(store.overdue(T0, 0).await.expect("overdue"), Vec::<DeliveryId>::new());

    // An outcome that plans the next attempt in the future takes it off the list.
    let attempt_id = ids.attempt();
    let claim = crate::domain::model::ClaimRecord {
        number: 1,
        attempt_id: attempt_id.clone(),
        token: "reconcile-contract".into(),
        started_at: T0,
        lease_until: T0.plus_millis(30_000),
    };
    let claimed = match store.claim_attempt(&old.id, &claim).await.expect("claim") {
        crate::ports::Claim::Claimed { delivery, .. } => delivery,
        other => panic!("expected a claim, got {other:?}"),
    };
    let mut next = claimed.clone();
    next.claim = None;
    next.status = DeliveryStatus::Retrying;
    next.attempt_count = 1;
    next.next_attempt = 2;
    next.next_attempt_at = Some(T0.plus_millis(600_000));
    next.version += 1;
    let attempt = sample_attempt(&next, &attempt_id, 1, T0);
    store.record_attempt(&next, &attempt, &claim).await.expect("record");
    assert_eq!(
        store.overdue(before, 10).await.expect("overdue"),
        Vec::<DeliveryId>::new()
    );

    // Dead-lettered: out of the index until redriven.
    let mut dead = store.get_delivery(&recent.id).await.expect("get").expect("exists");
    let version = dead.version;
    dead.dead_lettered_at = Some(T0);
    dead.version += 1;
    store.update_delivery(&dead, version).await.expect("mark");
    assert_eq!(store.overdue(T0, 10).await.expect("overdue"), Vec::<DeliveryId>::new());
    let mut redriven = dead.clone();
    redriven.dead_lettered_at = None;
    redriven.version += 1;
    store.update_delivery(&redriven, dead.version).await.expect("redrive");
    assert_eq!(store.overdue(T0, 10).await.expect("overdue"), vec![recent.id.clone()]);

    // Settled: out for good.
    let mut settled = redriven.clone();
    settled.status = DeliveryStatus::Failed;
    settled.settled_at = Some(T0);
    settled.version += 1;
    store.update_delivery(&settled, redriven.version).await.expect("settle");
    assert_eq!(store.overdue(T0, 10).await.expect("overdue"), Vec::<DeliveryId>::new());
    // An hour on, the retry planned at +10 min and the later one are both due.
    let mut due = store.overdue(T0.plus_millis(3_600_001), 10).await.expect("overdue");
    due.sort();
    let mut want = vec![old.id.clone(), later.id.clone()];
    want.sort();
    assert_eq!(due, want);

    // Created with its first message queued ahead: no entry, whether written alone
    // or with others, until a write of the whole record files it.
    let ahead_event = sample_event(&ids.tenant(), &ids.event(), T0, serde_json::json!({"n": 2}));
    let ahead = |id: DeliveryId| Delivery {
        carried_by_queue: true,
        ..sample_delivery(&ahead_event, &endpoint, &id, T0, "{}".to_owned())
    };
    let alone = ahead(ids.delivery());
    store
        .create_event(&ahead_event, std::slice::from_ref(&alone))
        .await
        .expect("create");
    let pair_event = sample_event(&ids.tenant(), &ids.event(), T0, serde_json::json!({"n": 3}));
    let pair = [
        Delivery {
            event_id: pair_event.id.clone(),
            ..ahead(ids.delivery())
        },
        Delivery {
            event_id: pair_event.id.clone(),
            ..ahead(ids.delivery())
        },
    ];
    store.create_event(&pair_event, &pair).await.expect("create");
    let stored = store.get_delivery(&alone.id).await.expect("get").expect("exists");
    assert!(!stored.carried_by_queue, "the mark is not stored");
    let mut due = store.overdue(T0.plus_millis(3_600_001), 10).await.expect("overdue");
    due.sort();
    assert_eq!(due, want, "none of the three created ahead has an entry");
    let mut marked = stored.clone();
    marked.dead_lettered_at = Some(T0);
    marked.version += 1;
    store.update_delivery(&marked, stored.version).await.expect("mark");
    let mut redriven = marked.clone();
    redriven.dead_lettered_at = None;
    redriven.version += 1;
    store.update_delivery(&redriven, marked.version).await.expect("redrive");
    let mut due = store.overdue(T0.plus_millis(3_600_001), 10).await.expect("overdue");
    due.sort();
    let mut want = vec![old.id.clone(), later.id.clone(), alone.id.clone()];
    want.sort();
    assert_eq!(due, want, "a redriven delivery has its entry again");

    // An outcome whose retry a queue message carries (a retry through an SQS
    // delay): its write removes the entry the delivery had, and the next outcome
    // written without the mark files it again.
    let record = |d: &Delivery, number: u32, carried: bool, due: Timestamp| {
        let attempt_id = ids.attempt();
        let claim = crate::domain::model::ClaimRecord {
            number,
            attempt_id: attempt_id.clone(),
            token: format!("carried-{number}"),
            started_at: T0,
            lease_until: T0.plus_millis(30_000),
        };
        let id = d.id.clone();
        async move {
            let claimed = match store.claim_attempt(&id, &claim).await.expect("claim") {
                crate::ports::Claim::Claimed { delivery, .. } => delivery,
                other => panic!("expected a claim, got {other:?}"),
            };
            let mut next = claimed.clone();
            next.claim = None;
            next.status = DeliveryStatus::Retrying;
            next.attempt_count += 1;
            next.next_attempt = number + 1;
            next.next_attempt_at = Some(due);
            next.version += 1;
            next.carried_by_queue = carried;
            let attempt = sample_attempt(&next, &attempt_id, number, T0);
            store.record_attempt(&next, &attempt, &claim).await.expect("record");
        }
    };
    record(&redriven, redriven.next_attempt, true, T0.plus_millis(60_000)).await;
    let stored = store.get_delivery(&alone.id).await.expect("get").expect("exists");
    assert!(!stored.carried_by_queue, "the mark is not stored");
    assert_eq!(stored.next_attempt_at, Some(T0.plus_millis(60_000)));
    let mut due = store.overdue(T0.plus_millis(3_600_001), 10).await.expect("overdue");
    due.sort();
    let mut want = vec![old.id.clone(), later.id.clone()];
    want.sort();
    assert_eq!(due, want, "the carried outcome removed the entry");
    record(&stored, stored.next_attempt, false, T0.plus_millis(120_000)).await;
    let mut due = store.overdue(T0.plus_millis(3_600_001), 10).await.expect("overdue");
    due.sort();
    let mut want = vec![old.id.clone(), later.id.clone(), alone.id.clone()];
    want.sort();
    assert_eq!(due, want, "an outcome without the mark files the entry");
    assert!(
        !store
            .overdue(T0.plus_millis(119_999), 10)
            .await
            .expect("overdue")
            .contains(&alone.id),
        "the entry is filed at the new due instant"
    );
}
