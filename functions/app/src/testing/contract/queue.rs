//! The port contract suite: queue and timer.

use super::*;

// ---------------------------------------------------------------------------------
// Queue and timer
// ---------------------------------------------------------------------------------

/// How the queue contract observes a queue: take what is visible, let time pass.
#[async_trait]
pub trait QueueProbe: Send + Sync {
    /// Removes and returns every message visible now.
    async fn take_visible(&self) -> PortResult<Vec<DeliveryMessage>>;
    /// Lets `secs` seconds pass (a manual clock advances; a real queue sleeps).
    async fn wait(&self, secs: u32);
}

/// [`QueueProbe`] over a [`MemoryQueue`] and the manual clock it reads.
pub struct MemoryQueueProbe<'a> {
    pub queue: &'a MemoryQueue,
    pub clock: &'a ManualClock,
}

#[async_trait]
impl QueueProbe for MemoryQueueProbe<'_> {
    async fn take_visible(&self) -> PortResult<Vec<DeliveryMessage>> {
        Ok(self
            .queue
            .drain_visible(self.clock.now())
            .into_iter()
            .map(|(m, _)| m)
            .collect())
    }
    async fn wait(&self, secs: u32) {
        self.clock.advance_secs(i64::from(secs));
    }
}

/// Messages arrive intact, not before their delay, and delays over 900 s are refused.
pub async fn queue_contract<Q: Queue, P: QueueProbe>(queue: &Q, probe: &P) {
    let ids = Ids::new();
    let (t, e) = (ids.tenant(), ids.endpoint());
    let now = T0;
    let m1 = sample_message(&ids.delivery(), &t, &e, 1, now);
    let mut m2 = sample_message(&ids.delivery(), &t, &e, 3, now.plus_secs(2));
    m2.trigger = Trigger::Redelivery;
    m2.source_attempt_id = Some(ids.attempt());
    let m3 = sample_message(&ids.delivery(), &t, &e, 2, now);

    ok(queue.send(&m1, 0).await, "send without delay");
    ok(queue.send(&m3, 0).await, "send another without delay");
    ok(queue.send(&m2, 3).await, "send with delay");
    backend(queue.send(&m1, 901).await, "a delay over 900 s");

    let mut got = ok(probe.take_visible().await, "take visible");
    got.sort_by(|a, b| a.delivery_id.cmp(&b.delivery_id));
    let mut expect = vec![m1, m3];
    expect.sort_by(|a, b| a.delivery_id.cmp(&b.delivery_id));
    assert_eq!(
        got, expect,
        "undelayed messages are visible at once, the delayed one is not"
    );
    probe.wait(4).await;
    assert_eq!(
        ok(probe.take_visible().await, "take after delay"),
        vec![m2],
        "the delayed message arrives"
    );
    assert_eq!(
        ok(probe.take_visible().await, "take again"),
        vec![],
        "taken messages are gone"
    );
}

/// How the timer contract observes schedules (the local runner's view of Scheduler).
#[async_trait]
pub trait TimerProbe: Send + Sync {
    /// Schedules due at `now` (`at <= now`), earliest first, then by name.
    async fn due(&self, now: Timestamp) -> PortResult<Vec<(String, DeliveryMessage)>>;
    /// Removes a schedule (as firing with ActionAfterCompletion DELETE does).
    async fn delete(&self, name: &str) -> PortResult<()>;
}

#[async_trait]
impl TimerProbe for MemoryTimer {
    async fn due(&self, now: Timestamp) -> PortResult<Vec<(String, DeliveryMessage)>> {
        Ok(MemoryTimer::due(self, now)
            .into_iter()
            .map(|s| (s.name, s.message))
            .collect())
    }
    async fn delete(&self, name: &str) -> PortResult<()> {
        MemoryTimer::delete(self, name);
        Ok(())
    }
}

/// The schedules of `due` named in `names` (other tests' schedules may share the
/// group), in `due`'s order.
pub(super) fn named(due: Vec<(String, DeliveryMessage)>, names: &[&str]) -> Vec<(String, DeliveryMessage)> {
    due.into_iter().filter(|(n, _)| names.contains(&n.as_str())).collect()
}

/// One-shot schedules by name: idempotent, due exactly from their second on,
/// reusable once deleted. (Use whole seconds: Scheduler's `at()` has no finer grain.)
pub async fn timer_contract<T: Timer, P: TimerProbe>(timer: &T, probe: &P) {
    let ids = Ids::new();
    let (t, e) = (ids.tenant(), ids.endpoint());
    let d1 = ids.delivery();
    let at1 = T0.plus_secs(3600);
    let at2 = T0.plus_secs(7200);
    let m1 = sample_message(&d1, &t, &e, 2, at1.plus_secs(30));
    let m1b = sample_message(&d1, &t, &e, 2, at2);
    let m2 = sample_message(&ids.delivery(), &t, &e, 5, at2.plus_secs(30));
    let (n1, n2) = (m1.step_name(), m2.step_name());

    ok(timer.schedule(&n1, at1, &m1).await, "schedule");
    ok(
        timer.schedule(&n1, at2, &m1b).await,
        "repeat with the same name is a no-op",
    );
    ok(timer.schedule(&n2, at2, &m2).await, "schedule another");
    backend(
        timer.schedule("not a valid name!", at1, &m1).await,
        "an invalid schedule name",
    );
    backend(timer.schedule(&"x".repeat(65), at1, &m1).await, "a 65-character name");

    let mine = |v: Vec<(String, DeliveryMessage)>| named(v, &[&n1, &n2]);
    assert_eq!(
        mine(ok(probe.due(at1.plus_secs(-1)).await, "due early")),
        vec![],
        "not due a second early"
    );
    assert_eq!(
        mine(ok(probe.due(at1).await, "due at its second")),
        vec![(n1.clone(), m1.clone())],
        "due at its second, and the first schedule stays as it was created"
    );
    assert_eq!(
        mine(ok(probe.due(at2.plus_secs(-1)).await, "one due")),
        vec![(n1.clone(), m1.clone())]
    );
    assert_eq!(
        mine(ok(probe.due(at2).await, "both due")),
        vec![(n1.clone(), m1.clone()), (n2.clone(), m2.clone())],
        "earliest first"
    );
    ok(probe.delete(&n1).await, "delete");
    assert_eq!(
        mine(ok(probe.due(at2).await, "after delete")),
        vec![(n2.clone(), m2.clone())]
    );
    ok(
        timer.schedule(&n1, at2, &m1b).await,
        "a deleted name can be scheduled again",
    );
    assert_eq!(
        mine(ok(probe.due(at2.plus_secs(-1)).await, "rescheduled later")),
        vec![]
    );
    let mut expect = vec![(n1.clone(), m1b), (n2.clone(), m2)];
    expect.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        mine(ok(probe.due(at2).await, "rescheduled")),
        expect,
        "same second: by name"
    );
    ok(probe.delete(&n1).await, "delete");
    ok(probe.delete(&n2).await, "delete");
    ok(probe.delete(&n2).await, "deleting a deleted schedule is fine");
    assert_eq!(mine(ok(probe.due(at2).await, "all deleted")), vec![]);

    // Many pending at once (more than an adapter reads side by side), created out of
    // time order: exactly the due ones come back, earliest first.
    let base = T0.plus_secs(10_800);
    let many: Vec<(String, Timestamp, DeliveryMessage)> = (0..40i64)
        .map(|i| {
            let at = base.plus_secs((i * 7) % 40);
            let m = sample_message(&ids.delivery(), &t, &e, 2, at);
            (m.step_name(), at, m)
        })
        .collect();
    for (name, at, m) in &many {
        ok(timer.schedule(name, *at, m).await, "schedule one of many");
    }
    let names: Vec<&str> = many.iter().map(|(n, _, _)| n.as_str()).collect();
    let ours = |v: Vec<(String, DeliveryMessage)>| named(v, &names);
    let mut due: Vec<&(String, Timestamp, DeliveryMessage)> =
        many.iter().filter(|(_, at, _)| *at <= base.plus_secs(24)).collect();
    due.sort_by_key(|(_, at, _)| *at);
    assert_eq!(due.len(), 25);
    assert_eq!(
        ours(ok(probe.due(base.plus_secs(24)).await, "many pending")),
        due.iter().map(|(n, _, m)| (n.clone(), m.clone())).collect::<Vec<_>>(),
        "of many pending, the due ones, earliest first"
    );
    for (name, _, _) in &many {
        ok(probe.delete(name).await, "delete one of many");
    }
    assert_eq!(ours(ok(probe.due(base.plus_secs(40)).await, "many deleted")), vec![]);
}
