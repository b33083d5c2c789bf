//! Isolation between endpoints inside one sender process: the rule that decides
//! whether a delivery message on the main lane is attempted now, waits a moment for
//! its endpoint's attempts to show they are quick, or is moved to the slow lane (a
//! queue of its own with a small concurrency), so that an endpoint that hangs holds
//! at most a few of the process's batches and never the others' deliveries.
//!
//! An endpoint is *proved slow* when one of its requests timed out or ran at least
//! `slow_after_ms` (it stays so for `slow_for_ms`); it is *congested* when it holds
//! slots in `batch_cap` other batches and one of their requests has been waiting on
//! the receiver `congested_after_ms`. Only time at the receiver counts: a step's own
//! writes, slow when storage is busy, prove nothing. Before a proof a message waits
//! a moment and then goes; nothing is moved on a guess, because the slow lane is
//! small and a fast endpoint belongs on the main one.

use crate::time::Timestamp;

/// The knobs of [`gate`]. One Lambda instance works one batch at a time, so there
/// `batch_cap` never holds anything back and only the slow mark moves messages; a
/// process working several batches side by side (the local stack) is held by both.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LaneSettings {
    /// How many batches of the process may hold attempts to one endpoint at once.
    pub batch_cap: u32,
    /// How long the oldest of those attempts may run before the endpoint counts as
    /// congested and further messages to it are moved.
    pub congested_after_ms: u64,
    /// An attempt lasting this long (or timing out) proves its endpoint slow.
    pub slow_after_ms: u64,
    /// How long an endpoint proved slow stays on the slow lane.
    pub slow_for_ms: u64,
}

impl Default for LaneSettings {
    fn default() -> Self {
        LaneSettings {
            batch_cap: 1,
            congested_after_ms: 250,
            slow_after_ms: 2_000,
            slow_for_ms: 60_000,
        }
    }
}

/// Why a message is moved to the slow lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DivertCause {
    /// An attempt to the endpoint timed out or ran long, recently.
    Slow,
    /// The endpoint's attempts in other batches have run past `congested_after_ms`.
    Congested,
}

impl DivertCause {
    pub fn as_str(self) -> &'static str {
        match self {
            DivertCause::Slow => "slow",
            DivertCause::Congested => "congested",
        }
    }
}

/// What [`gate`] decided for one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Attempt now.
    Go,
    /// Wait for a slot to free, at most this long, then ask again. `running`: a
    /// rival's request is waiting on the receiver (when not, the rivals are busy
    /// with their own writes, and a message that waited once goes).
    Wait { at_most_ms: u64, running: bool },
    /// Move the message to the slow lane.
    Divert(DivertCause),
}

/// One slot: a step of `batch` past the gate, and when its request began (None
/// while it claims, records or has not reached the request yet).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Held {
    batch: u64,
    slot: u64,
    requesting_since: Option<Timestamp>,
}

/// One endpoint's attempts under way in the process, and its slow mark.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LaneState {
    held: Vec<Held>,
    slow_until: Option<Timestamp>,
}

impl LaneState {
    /// True when nothing is under way and no mark is live at `now`: the entry can go.
    pub fn idle(&self, now: Timestamp) -> bool {
        self.held.is_empty() && self.slow_until.is_none_or(|t| t <= now)
    }

    /// Takes slot `slot` for `batch`.
    pub fn enter(&mut self, batch: u64, slot: u64) {
        self.held.push(Held {
            batch,
            slot,
            requesting_since: None,
        });
    }

    /// Frees slot `slot`.
    pub fn leave(&mut self, slot: u64) {
        if let Some(i) = self.held.iter().position(|h| h.slot == slot) {
            self.held.swap_remove(i);
        }
    }

    /// The slot's request began at `now` (`Some`) or ended (`None`): only the time
    /// spent waiting on the receiver counts, never the step's own writes.
    pub fn requesting(&mut self, slot: u64, since: Option<Timestamp>) {
        if let Some(h) = self.held.iter_mut().find(|h| h.slot == slot) {
            h.requesting_since = since;
        }
    }

    /// Records an attempt's length: a timeout or a long one marks the endpoint slow.
    pub fn observe(&mut self, duration_ms: u64, timed_out: bool, now: Timestamp, s: &LaneSettings) {
        if timed_out || duration_ms >= s.slow_after_ms {
            self.mark_slow(now, s);
        }
    }

    fn mark_slow(&mut self, now: Timestamp, s: &LaneSettings) {
        let until = now.plus_millis(i64::try_from(s.slow_for_ms).unwrap_or(i64::MAX));
        self.slow_until = Some(self.slow_until.map_or(until, |t| t.max(until)));
    }

    /// The slow mark, when live at `now`.
    pub fn slow_until(&self, now: Timestamp) -> Option<Timestamp> {
        self.slow_until.filter(|t| *t > now)
    }
}

fn age_ms(since: Timestamp, now: Timestamp) -> u64 {
    u64::try_from(now.0.saturating_sub(since.0)).unwrap_or(0)
}

/// Decides for a message of `batch` to the endpoint whose state is `state`, at `now`.
/// A request of the endpoint running `slow_after_ms` already marks it slow, as its
/// end would.
pub fn gate(state: &mut LaneState, batch: u64, now: Timestamp, s: &LaneSettings) -> Gate {
    let longest = state
        .held
        .iter()
        .filter_map(|h| h.requesting_since)
        .map(|t| age_ms(t, now))
        .max();
    if longest.is_some_and(|a| a >= s.slow_after_ms) {
        state.mark_slow(now, s);
    }
    if state.slow_until(now).is_some() {
        return Gate::Divert(DivertCause::Slow);
    }
    // A batch that already holds a slot goes on: its records run side by side, as
    // they would on a Lambda instance of their own.
    if state.held.iter().any(|h| h.batch == batch) {
        return Gate::Go;
    }
    let mut others: Vec<u64> = state.held.iter().map(|h| h.batch).collect();
    others.sort_unstable();
    others.dedup();
    if others.len() < s.batch_cap as usize {
        return Gate::Go;
    }
    match longest {
        Some(age) if age >= s.congested_after_ms => Gate::Divert(DivertCause::Congested),
        Some(age) => Gate::Wait {
            at_most_ms: s.congested_after_ms - age,
            running: true,
        },
        // The other batches are claiming or recording: their request may begin.
        None => Gate::Wait {
            at_most_ms: s.congested_after_ms,
            running: false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: LaneSettings = LaneSettings {
        batch_cap: 2,
        congested_after_ms: 250,
        slow_after_ms: 2_000,
        slow_for_ms: 60_000,
    };

    fn at(ms: i64) -> Timestamp {
        Timestamp(1_000_000 + ms)
    }

    #[test]
    fn an_idle_endpoint_goes() {
        assert_eq!(gate(&mut LaneState::default(), 1, at(0), &S), Gate::Go);
    }

    #[test]
    fn a_batch_holding_a_slot_keeps_going_past_the_cap() {
        let mut st = LaneState::default();
        st.enter(1, 10);
        st.enter(2, 20);
        st.requesting(10, Some(at(0)));
        assert_eq!(gate(&mut st, 1, at(1_000), &S), Gate::Go);
        assert_eq!(gate(&mut st, 2, at(1_000), &S), Gate::Go);
    }

    #[test]
    fn a_third_batch_waits_while_requests_are_young_then_is_moved() {
        let mut st = LaneState::default();
        st.enter(1, 10);
        st.enter(2, 20);
        // Neither has reached its request: wait the whole allowance.
        assert_eq!(
            gate(&mut st, 3, at(0), &S),
            Gate::Wait {
                at_most_ms: 250,
                running: false
            }
        );
        st.requesting(10, Some(at(0)));
        st.requesting(20, Some(at(100)));
        assert_eq!(
            gate(&mut st, 3, at(150), &S),
            Gate::Wait {
                at_most_ms: 100,
                running: true
            }
        );
        assert_eq!(gate(&mut st, 3, at(250), &S), Gate::Divert(DivertCause::Congested));
        st.leave(10);
        assert_eq!(gate(&mut st, 3, at(250), &S), Gate::Go, "a freed slot lets it in");
    }

    #[test]
    fn only_time_at_the_receiver_counts() {
        let mut st = LaneState::default();
        st.enter(1, 10);
        st.enter(2, 20);
        st.requesting(10, Some(at(0)));
        st.requesting(10, None);
        // The request ended at once; the step still records: no proof of slowness.
        assert_eq!(
            gate(&mut st, 3, at(5_000), &S),
            Gate::Wait {
                at_most_ms: 250,
                running: false
            }
        );
    }

    #[test]
    fn a_request_running_long_marks_the_endpoint_slow_before_it_ends() {
        let mut st = LaneState::default();
        st.enter(1, 10);
        st.requesting(10, Some(at(0)));
        assert_eq!(gate(&mut st, 1, at(1_999), &S), Gate::Go);
        assert_eq!(gate(&mut st, 1, at(2_000), &S), Gate::Divert(DivertCause::Slow));
        assert_eq!(st.slow_until(at(2_000)), Some(at(62_000)));
    }

    #[test]
    fn a_timeout_or_a_long_attempt_marks_the_endpoint_slow_for_a_while() {
        let mut st = LaneState::default();
        st.observe(1_999, false, at(0), &S);
        assert_eq!(gate(&mut st, 1, at(0), &S), Gate::Go);
        st.observe(2_000, false, at(0), &S);
        assert_eq!(st.slow_until(at(0)), Some(at(60_000)));
        assert_eq!(gate(&mut st, 1, at(59_999), &S), Gate::Divert(DivertCause::Slow));
        assert_eq!(gate(&mut st, 1, at(60_000), &S), Gate::Go);
        let mut st = LaneState::default();
        st.observe(5, true, at(0), &S);
        assert_eq!(gate(&mut st, 7, at(1), &S), Gate::Divert(DivertCause::Slow));
    }

    #[test]
    fn a_later_mark_never_shortens_an_earlier_one() {
        let mut st = LaneState::default();
        st.observe(0, true, at(10_000), &S);
        st.observe(0, true, at(0), &S);
        assert_eq!(st.slow_until(at(0)), Some(at(70_000)));
    }

    #[test]
    fn an_entry_is_idle_when_nothing_runs_and_its_mark_is_over() {
        let mut st = LaneState::default();
        assert!(st.idle(at(0)));
        st.enter(1, 10);
        assert!(!st.idle(at(0)));
        st.leave(10);
        st.observe(0, true, at(0), &S);
        assert!(!st.idle(at(59_999)));
        assert!(st.idle(at(60_000)));
    }
}
