//! The process's lanes: the attempts under way per endpoint and their slow marks
//! (`courier_core::lanes`), shared by every batch the process works. The sender
//! handler asks [`Lanes::enter`] before a main-lane delivery step and moves the
//! message to the slow-lane queue when told to; no storage is read or written for it.

use courier_core::Timestamp;
use courier_core::ids::{EndpointId, TenantId};
use courier_core::lanes::{DivertCause, Gate, LaneSettings, LaneState, gate};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;

/// The most endpoints tracked at once; idle ones are dropped first when it is reached.
pub const MAX_TRACKED_ENDPOINTS: usize = 10_000;

/// The most looks one message takes at the gate (wake-ups by other endpoints'
/// freed slots included) before it goes.
const MAX_LOOKS: usize = 64;

type Key = (TenantId, EndpointId);

/// The entry of `key`, made room for when the map is full (idle entries go first).
fn tracked_entry<'a>(state: &'a mut HashMap<Key, LaneState>, key: &Key, now: Timestamp) -> &'a mut LaneState {
    if state.len() >= MAX_TRACKED_ENDPOINTS && !state.contains_key(key) {
        state.retain(|_, s| !s.idle(now));
    }
    state.entry(key.clone()).or_default()
}

/// The lanes of one process.
pub struct Lanes {
    settings: LaneSettings,
    state: Mutex<HashMap<Key, LaneState>>,
    /// Woken whenever a slot is freed, for the messages waiting on one.
    freed: Notify,
    next_batch: AtomicU64,
    next_slot: AtomicU64,
}

/// What [`Lanes::enter`] decided.
pub enum Entry {
    /// Attempt now; the slot is freed when this is dropped.
    Go(Slot),
    /// Move the message to the slow lane.
    Divert(DivertCause),
}

/// A slot held by one delivery step; freed when dropped.
pub struct Slot {
    lanes: Arc<Lanes>,
    key: Key,
    id: u64,
}

impl Drop for Slot {
    fn drop(&mut self) {
        if let Ok(mut state) = self.lanes.state.lock()
            && let Some(s) = state.get_mut(&self.key)
        {
            s.leave(self.id);
        }
        self.lanes.freed.notify_waiters();
    }
}

impl Slot {
    /// Runs `step` with this slot as the one its request marks
    /// ([`request_begins`]).
    pub async fn around<F: std::future::Future>(&self, step: F) -> F::Output {
        CURRENT
            .scope((self.lanes.clone(), self.key.clone(), self.id), step)
            .await
    }
}

tokio::task_local! {
    /// The slot of the step being worked, for its request to mark.
    static CURRENT: (Arc<Lanes>, Key, u64);
}

/// Marks, when the current step holds a slot, that its request to the receiver
/// begins at `now`; the mark ends when the answer is dropped. Outside a slot it
/// does nothing.
pub fn request_begins(now: Timestamp) -> Option<RequestMark> {
    CURRENT
        .try_with(|(lanes, key, id)| {
            lanes.requesting(key, *id, Some(now));
            RequestMark {
                lanes: lanes.clone(),
                key: key.clone(),
                id: *id,
            }
        })
        .ok()
}

/// A request under way (see [`request_begins`]).
pub struct RequestMark {
    lanes: Arc<Lanes>,
    key: Key,
    id: u64,
}

impl Drop for RequestMark {
    fn drop(&mut self) {
        self.lanes.requesting(&self.key, self.id, None);
    }
}

impl Default for Lanes {
    fn default() -> Self {
        Lanes::new(LaneSettings::default())
    }
}

impl Lanes {
    pub fn new(settings: LaneSettings) -> Self {
        Lanes {
            settings,
            state: Mutex::new(HashMap::new()),
            freed: Notify::new(),
            next_batch: AtomicU64::new(1),
            next_slot: AtomicU64::new(1),
        }
    }

    pub fn settings(&self) -> &LaneSettings {
        &self.settings
    }

    /// A number for a batch about to be worked, told to [`Lanes::enter`].
    pub fn batch(&self) -> u64 {
        self.next_batch.fetch_add(1, Ordering::Relaxed)
    }

    /// Asks for a slot for a step of `batch` to `endpoint`; `now` reads the clock
    /// (called again after a wait). Waits while a rival's request is young (at most
    /// the congestion allowance past its start); when no rival's request runs, it
    /// waits once and then goes, since nothing proved the endpoint slow.
    pub async fn enter(
        self: &Arc<Self>,
        tenant: &TenantId,
        endpoint: &EndpointId,
        batch: u64,
        now: impl Fn() -> Timestamp,
    ) -> Entry {
        let key = (tenant.clone(), endpoint.clone());
        let mut quiet_wait_done = false;
        for _ in 0..MAX_LOOKS {
            // Registered before the look, so a slot freed between the two still wakes it.
            let freed = self.freed.notified();
            let (decision, id) = self.decide(&key, batch, now(), quiet_wait_done);
            match decision {
                Gate::Go => {
                    return Entry::Go(Slot {
                        lanes: self.clone(),
                        key,
                        id,
                    });
                }
                Gate::Divert(cause) => return Entry::Divert(cause),
                Gate::Wait { at_most_ms, running } => {
                    let timed_out = tokio::time::timeout(Duration::from_millis(at_most_ms.max(1)), freed)
                        .await
                        .is_err();
                    quiet_wait_done = timed_out && !running;
                }
            }
        }
        // Bounded whatever the clock does: go, as without lanes.
        let (_, id) = self.decide(&key, batch, now(), true);
        Entry::Go(Slot {
            lanes: self.clone(),
            key,
            id,
        })
    }

    /// The gate's decision, taking the slot when it says go. `go_if_quiet`: the
    /// message already waited out an allowance in which no rival's request ran.
    fn decide(&self, key: &Key, batch: u64, now: Timestamp, go_if_quiet: bool) -> (Gate, u64) {
        let id = self.next_slot.fetch_add(1, Ordering::Relaxed);
        let Ok(mut state) = self.state.lock() else {
            // A poisoned map isolates nothing: go, as without lanes.
            return (Gate::Go, id);
        };
        let entry = tracked_entry(&mut state, key, now);
        let decision = match gate(entry, batch, now, &self.settings) {
            Gate::Wait { running: false, .. } if go_if_quiet => Gate::Go,
            d => d,
        };
        if decision == Gate::Go {
            entry.enter(batch, id);
        }
        (decision, id)
    }

    fn requesting(&self, key: &Key, id: u64, since: Option<Timestamp>) {
        if let Ok(mut state) = self.state.lock()
            && let Some(s) = state.get_mut(key)
        {
            s.requesting(id, since);
        }
    }

    /// Records how long an attempt to `endpoint` ran (from either lane).
    pub fn observe(&self, tenant: &TenantId, endpoint: &EndpointId, duration_ms: u64, timed_out: bool, now: Timestamp) {
        if let Ok(mut state) = self.state.lock() {
            let key = (tenant.clone(), endpoint.clone());
            tracked_entry(&mut state, &key, now).observe(duration_ms, timed_out, now, &self.settings);
        }
    }

    /// The endpoint's slow mark, when live.
    pub fn slow_until(&self, tenant: &TenantId, endpoint: &EndpointId, now: Timestamp) -> Option<Timestamp> {
        let state = self.state.lock().ok()?;
        state
            .get(&(tenant.clone(), endpoint.clone()))
            .and_then(|s| s.slow_until(now))
    }

    /// How many endpoints are tracked.
    pub fn tracked(&self) -> usize {
        self.state.lock().map(|s| s.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::{Entry, Lanes};
    use courier_core::Timestamp;
    use courier_core::ids::{EndpointId, TenantId};
    use courier_core::lanes::{DivertCause, LaneSettings};
    const S: LaneSettings = LaneSettings {
        batch_cap: 1,
        congested_after_ms: 250,
        slow_after_ms: 2_000,
        slow_for_ms: 60_000,
    };

    fn ids() -> (TenantId, EndpointId) {
        (
            TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap(),
            EndpointId::parse("ep_01JAAAAAAAAAAAAAAAAAAAAAAB").unwrap(),
        )
    }

    /// The clock as tokio's paused time moves it.
    fn clock(start: tokio::time::Instant) -> impl Fn() -> Timestamp {
        move || Timestamp(1_000_000 + start.elapsed().as_millis() as i64)
    }

    fn gone(e: &Entry) -> Option<DivertCause> {
        match e {
            Entry::Go(_) => None,
            Entry::Divert(c) => Some(*c),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_second_batch_waits_out_the_allowance_then_moves() {
        let lanes = std::sync::Arc::new(Lanes::new(S));
        let (t, e) = ids();
        let start = tokio::time::Instant::now();
        let Entry::Go(first) = lanes.enter(&t, &e, 1, clock(start)).await else {
            panic!("the first batch goes")
        };
        // Its request is waiting on the receiver from now on.
        let _request = first.around(async { super::request_begins(clock(start)()) }).await;
        let second = lanes.enter(&t, &e, 2, clock(start)).await;
        assert_eq!(gone(&second), Some(DivertCause::Congested));
        assert_eq!(start.elapsed().as_millis(), 250, "it waited the whole allowance");
        // Once the allowance is spent, a third is moved at once.
        let third = lanes.enter(&t, &e, 3, clock(start)).await;
        assert_eq!(gone(&third), Some(DivertCause::Congested));
        assert_eq!(start.elapsed().as_millis(), 250);
    }

    #[tokio::test(start_paused = true)]
    async fn a_batch_whose_rival_never_reached_its_request_goes_after_the_wait() {
        let lanes = std::sync::Arc::new(Lanes::new(S));
        let (t, e) = ids();
        let start = tokio::time::Instant::now();
        let _first = lanes.enter(&t, &e, 1, clock(start)).await;
        // The first step is still writing (slow storage proves nothing).
        let second = lanes.enter(&t, &e, 2, clock(start)).await;
        assert_eq!(gone(&second), None);
        assert_eq!(start.elapsed().as_millis(), 250);
    }

    #[tokio::test(start_paused = true)]
    async fn a_slot_freed_during_the_wait_lets_the_waiting_batch_in() {
        let lanes = std::sync::Arc::new(Lanes::new(S));
        let (t, e) = ids();
        let start = tokio::time::Instant::now();
        let first = lanes.enter(&t, &e, 1, clock(start)).await;
        let freer = async move {
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            drop(first);
        };
        let (_, second) = tokio::join!(freer, lanes.enter(&t, &e, 2, clock(start)));
        assert_eq!(gone(&second), None);
        assert_eq!(start.elapsed().as_millis(), 100);
    }

    #[tokio::test(start_paused = true)]
    async fn a_timed_out_attempt_moves_every_batch_at_once_until_the_mark_ends() {
        let lanes = std::sync::Arc::new(Lanes::new(S));
        let (t, e) = ids();
        let start = tokio::time::Instant::now();
        lanes.observe(&t, &e, 5_000, true, clock(start)());
        assert_eq!(lanes.slow_until(&t, &e, clock(start)()), Some(Timestamp(1_060_000)));
        let same_batch = lanes.enter(&t, &e, 1, clock(start)).await;
        assert_eq!(gone(&same_batch), Some(DivertCause::Slow));
        assert_eq!(start.elapsed().as_millis(), 0, "no wait for a slow endpoint");
        tokio::time::sleep(std::time::Duration::from_millis(60_000)).await;
        let later = lanes.enter(&t, &e, 2, clock(start)).await;
        assert_eq!(gone(&later), None);
    }

    #[test]
    fn idle_endpoints_are_dropped_when_the_map_is_full() {
        let lanes = std::sync::Arc::new(Lanes::new(S));
        let t = ids().0;
        let now = Timestamp(1_000_000);
        for n in 0..super::MAX_TRACKED_ENDPOINTS {
            let e = EndpointId::parse(&format!("ep_01J{n:023}")).unwrap();
            // A fast attempt leaves an idle entry behind.
            lanes.observe(&t, &e, 10, false, now);
        }
        assert_eq!(lanes.tracked(), super::MAX_TRACKED_ENDPOINTS);
        let slow = EndpointId::parse("ep_01JZZZZZZZZZZZZZZZZZZZZZZZ").unwrap();
        lanes.observe(&t, &slow, 0, true, now);
        assert_eq!(lanes.tracked(), 1, "the idle ones made room");
    }
}
