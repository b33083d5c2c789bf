//! Delivery statistics kept as attempts are recorded: the counts one attempt adds
//! (attempts by state, settled deliveries by status, the duration in fixed
//! buckets), the buckets a read answers and the windows and retention they obey
//! (the answer itself is `crate::api::wire::stats`). The store keeps them per
//! endpoint ([`crate::ports::StatsStore`]); applications and tenants are summed at
//! read time.

use crate::domain::model::{Delivery, DeliveryStatus};
use courier_core::Timestamp;
use courier_core::classify::AttemptState;
use courier_core::ids::{EndpointId, TenantId};

pub const MINUTE_MS: i64 = 60_000;
pub const HOUR_MS: i64 = 3_600_000;
/// How long minute buckets are kept (and may be asked for).
pub const MINUTE_RETENTION_MS: i64 = 2 * HOUR_MS;
/// How long hour buckets are kept (and may be asked for).
pub const HOUR_RETENTION_MS: i64 = 30 * 24 * HOUR_MS;
/// Endpoints an application's or tenant's figures are summed over, at most.
pub const MAX_SUMMED_ENDPOINTS: usize = 1000;

/// Upper bounds (ms) of the duration buckets; one more bucket takes the rest. A
/// percentile answers the upper bound of the bucket it falls in (the last bucket
/// answers [`OVERFLOW_MS`]): at most one bucket's width above the true value, and
/// buckets add up, so any sum of them is as exact as one endpoint's.
pub const DURATION_BOUNDS_MS: [u64; 11] = [10, 25, 50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000];
pub const DURATION_BUCKETS: usize = DURATION_BOUNDS_MS.len() + 1;
/// What a percentile falling past the last bound answers.
pub const OVERFLOW_MS: u64 = 60_000;

/// Attempt states counted, in the answer's order.
pub const ATTEMPT_STATES: [&str; 4] = ["succeeded", "retryable_failure", "terminal_failure", "ambiguous"];
/// Settled delivery statuses counted, in the answer's order.
pub const DELIVERY_STATUSES: [&str; 3] = ["succeeded", "failed", "dropped"];

/// The counts of one bucket (or what one attempt adds). Every field adds up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StatsCounts {
    /// By [`ATTEMPT_STATES`].
    pub attempts: [u64; 4],
    /// By [`DELIVERY_STATUSES`].
    pub deliveries: [u64; 3],
    /// Attempts by duration bucket ([`DURATION_BOUNDS_MS`]).
    pub durations: [u64; DURATION_BUCKETS],
}

impl StatsCounts {
    pub fn add(&mut self, other: &StatsCounts) {
        for (a, b) in self.attempts.iter_mut().zip(other.attempts) {
            *a += b;
        }
        for (a, b) in self.deliveries.iter_mut().zip(other.deliveries) {
            *a += b;
        }
        for (a, b) in self.durations.iter_mut().zip(other.durations) {
            *a += b;
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == StatsCounts::default()
    }

    /// The counters by name, as stores keep them: `a0..a3`, `d0..d2`, `h0..h11`.
    pub fn named(&self) -> Vec<(String, u64)> {
        let a = self.attempts.iter().enumerate().map(|(i, v)| (format!("a{i}"), *v));
        let d = self.deliveries.iter().enumerate().map(|(i, v)| (format!("d{i}"), *v));
        let h = self.durations.iter().enumerate().map(|(i, v)| (format!("h{i}"), *v));
        a.chain(d).chain(h).collect()
    }

    /// The counts from [`Self::named`] counters (missing ones are 0; others ignored).
    pub fn from_named<'a>(counters: impl IntoIterator<Item = (&'a str, u64)>) -> Self {
        let mut c = StatsCounts::default();
        for (name, v) in counters {
            let (kind, index) = name.split_at(1.min(name.len()));
            let Ok(i) = index.parse::<usize>() else { continue };
            let slot = match kind {
                "a" => c.attempts.get_mut(i),
                "d" => c.deliveries.get_mut(i),
                "h" => c.durations.get_mut(i),
                _ => None,
            };
            if let Some(slot) = slot {
                *slot = v;
            }
        }
        c
    }

    /// The duration at quantile `q` (0..=1) by the buckets' upper bounds; 0 with no
    /// attempts.
    pub fn duration_quantile(&self, q: f64) -> u64 {
        let total: u64 = self.durations.iter().sum();
        if total == 0 {
            return 0;
        }
        // The rank of the attempt the quantile falls on, 1-based.
        let rank = ((q * total as f64).ceil() as u64).clamp(1, total);
        let mut seen = 0;
        for (i, n) in self.durations.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return DURATION_BOUNDS_MS.get(i).copied().unwrap_or(OVERFLOW_MS);
            }
        }
        OVERFLOW_MS
    }
}

/// The bucket a duration falls in.
pub fn duration_bucket(ms: u64) -> usize {
    DURATION_BOUNDS_MS
        .iter()
        .position(|b| ms <= *b)
        .unwrap_or(DURATION_BOUNDS_MS.len())
}

/// How an attempt moves its endpoint's run of consecutive failed attempts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreakChange {
    /// Neither (an ambiguous attempt, or nothing recorded).
    Keep,
    /// `n` more failures.
    Add(u32),
    /// A success, then `n` failures (`Reset(0)`: a success last).
    Reset(u32),
}

impl StreakChange {
    /// `self` then `next`, as one change (adding a batch's attempts up).
    pub fn then(self, next: StreakChange) -> StreakChange {
        match (self, next) {
            (s, StreakChange::Keep) => s,
            (StreakChange::Keep, n) => n,
            (StreakChange::Add(a), StreakChange::Add(b)) => StreakChange::Add(a + b),
            (StreakChange::Reset(a), StreakChange::Add(b)) => StreakChange::Reset(a + b),
            (_, StreakChange::Reset(b)) => StreakChange::Reset(b),
        }
    }

    /// The run after this change to a run of `streak`.
    pub fn apply(self, streak: u32) -> u32 {
        match self {
            StreakChange::Keep => streak,
            StreakChange::Add(n) => streak.saturating_add(n),
            StreakChange::Reset(n) => n,
        }
    }
}

/// An endpoint's run of failed attempts before and after a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreakMove {
    pub before: u32,
    pub after: u32,
}

/// What to add to one endpoint's minute: written by one counter update.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsTally {
    pub tenant: TenantId,
    pub endpoint: EndpointId,
    /// When the attempt ended: the minute (and hour) counted into.
    pub at: Timestamp,
    pub counts: StatsCounts,
    pub streak: StreakChange,
}

impl StatsTally {
    /// What one recorded attempt adds: its state, its duration and, when it settled
    /// the delivery, the delivery's status. `None` for an attempt that is not one of
    /// the counted states (awaiting a completion report).
    pub fn of_attempt(delivery: &Delivery, state: AttemptState, duration_ms: u64, at: Timestamp) -> Option<Self> {
        let (slot, streak) = match state {
            AttemptState::Succeeded => (0, StreakChange::Reset(0)),
            AttemptState::RetryableFailure => (1, StreakChange::Add(1)),
            AttemptState::TerminalFailure => (2, StreakChange::Add(1)),
            AttemptState::Ambiguous => (3, StreakChange::Keep),
            AttemptState::AwaitingCompletion => return None,
        };
        let mut counts = StatsCounts::default();
        counts.attempts[slot] = 1;
        counts.durations[duration_bucket(duration_ms)] = 1;
        match delivery.status {
            DeliveryStatus::Succeeded => counts.deliveries[0] = 1,
            DeliveryStatus::Failed => counts.deliveries[1] = 1,
            DeliveryStatus::Dropped => counts.deliveries[2] = 1,
            _ => {}
        }
        Some(StatsTally {
            tenant: delivery.tenant_id.clone(),
            endpoint: delivery.endpoint_id.clone(),
            at,
            counts,
            streak,
        })
    }
}

impl StatsTally {
    /// What a delivery settled without an attempt adds (dropped at ingest, failed
    /// when its deadline or its endpoint went first): its status only, the run of
    /// failures left alone. `None` for a delivery not settled.
    pub fn of_settled(delivery: &Delivery, at: Timestamp) -> Option<Self> {
        let slot = match delivery.status {
            DeliveryStatus::Succeeded => 0,
            DeliveryStatus::Failed => 1,
            DeliveryStatus::Dropped => 2,
            _ => return None,
        };
        let mut counts = StatsCounts::default();
        counts.deliveries[slot] = 1;
        Some(StatsTally {
            tenant: delivery.tenant_id.clone(),
            endpoint: delivery.endpoint_id.clone(),
            at,
            counts,
            streak: StreakChange::Keep,
        })
    }
}

/// A bucket's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Granularity {
    Minute,
    Hour,
}

impl Granularity {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "minute" => Some(Granularity::Minute),
            "hour" => Some(Granularity::Hour),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Granularity::Minute => "minute",
            Granularity::Hour => "hour",
        }
    }
    pub fn millis(self) -> i64 {
        match self {
            Granularity::Minute => MINUTE_MS,
            Granularity::Hour => HOUR_MS,
        }
    }
    /// How far back its buckets are kept.
    pub fn retention_ms(self) -> i64 {
        match self {
            Granularity::Minute => MINUTE_RETENTION_MS,
            Granularity::Hour => HOUR_RETENTION_MS,
        }
    }
    /// The start of the bucket holding `t`.
    pub fn floor(self, t: Timestamp) -> Timestamp {
        Timestamp::from_millis(t.millis() - t.millis().rem_euclid(self.millis()))
    }
}

/// The buckets a read asks for: those starting from `since`'s bucket up to the one
/// holding `until`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatsWindow {
    pub granularity: Granularity,
    pub since: Timestamp,
    pub until: Timestamp,
}

impl StatsWindow {
    /// The first bucket's start that is still kept at `now`.
    pub fn oldest_kept(granularity: Granularity, now: Timestamp) -> Timestamp {
        granularity.floor(now.plus_millis(-granularity.retention_ms()))
    }

    /// Bucket starts from `since`'s to `until`'s, in order.
    pub fn starts(&self) -> Vec<Timestamp> {
        let step = self.granularity.millis();
        let (first, last) = (self.granularity.floor(self.since), self.granularity.floor(self.until));
        let count = ((last.millis() - first.millis()) / step).max(-1) + 1;
        (0..count).map(|i| first.plus_millis(i * step)).collect()
    }
}

/// The current backlog of an endpoint (or a sum of them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Backlog {
    pub pending: u64,
    pub retrying: u64,
    pub scheduled: u64,
}

impl Backlog {
    pub fn add(&mut self, other: &Backlog) {
        self.pending += other.pending;
        self.retrying += other.retrying;
        self.scheduled += other.scheduled;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_answer_the_bucket_bounds() {
        let mut c = StatsCounts::default();
        // 90 attempts of 40 ms, 9 of 700 ms, 1 of 40 s.
        c.durations[duration_bucket(40)] = 90;
        c.durations[duration_bucket(700)] = 9;
        c.durations[duration_bucket(40_000)] = 1;
        assert_eq!(c.duration_quantile(0.50), 50);
        assert_eq!(c.duration_quantile(0.95), 1_000);
        assert_eq!(c.duration_quantile(0.99), 1_000);
        assert_eq!(c.duration_quantile(1.0), OVERFLOW_MS);
        assert_eq!(StatsCounts::default().duration_quantile(0.5), 0);
        assert_eq!(duration_bucket(10), 0);
        assert_eq!(duration_bucket(11), 1);
    }

    #[test]
    fn counters_round_trip_by_name() {
        let mut c = StatsCounts::default();
        c.attempts[3] = 2;
        c.deliveries[1] = 5;
        c.durations[11] = 7;
        let named = c.named();
        assert_eq!(named.len(), 19);
        let back = StatsCounts::from_named(named.iter().map(|(k, v)| (k.as_str(), *v)));
        assert_eq!(back, c);
    }

    #[test]
    fn streak_changes_compose() {
        let s = StreakChange::Add(2)
            .then(StreakChange::Reset(0))
            .then(StreakChange::Add(1));
        assert_eq!(s, StreakChange::Reset(1));
        assert_eq!(s.apply(9), 1);
        assert_eq!(StreakChange::Add(2).then(StreakChange::Keep).apply(3), 5);
    }

    #[test]
    fn windows_list_every_bucket() {
        let w = StatsWindow {
            granularity: Granularity::Minute,
            since: Timestamp::from_millis(61_000),
            until: Timestamp::from_millis(180_000),
        };
        let starts: Vec<i64> = w.starts().iter().map(|t| t.millis()).collect();
        assert_eq!(starts, vec![60_000, 120_000, 180_000]);
    }
}
