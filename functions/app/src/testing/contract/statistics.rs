//! The port contract suite: statistics.

use super::*;

// ---------------------------------------------------------------------------------
// Statistics
// ---------------------------------------------------------------------------------

/// Counters per endpoint-minute and endpoint-hour, the streak of failed attempts
/// each count answers, reads by window within retention, and the backlog by status.
pub async fn statistics<S: DeliveryStore>(store: &S, clock: &ManualClock) {
    use crate::domain::stats::{
        Backlog, Granularity, StatsCounts, StatsTally, StatsWindow, StreakChange, duration_bucket,
    };
    clock.set(T0);
    let ids = Ids::new();
    let tenant = ids.tenant();
    let (ep, other) = (ids.endpoint(), ids.endpoint());
    let stats = store.stats().expect("the store keeps statistics");
    let tally = |at: Timestamp, state: usize, ms: u64, settled: Option<usize>, streak| {
        let mut counts = StatsCounts::default();
        counts.attempts[state] = 1;
        counts.durations[duration_bucket(ms)] = 1;
        if let Some(s) = settled {
            counts.deliveries[s] = 1;
        }
        StatsTally {
            tenant: tenant.clone(),
            endpoint: ep.clone(),
            at,
            counts,
            streak,
        }
    };
    let m0 = T0.plus_secs(10);
    let m1 = T0.plus_secs(70);
    // Two minutes of the first hour, then the next hour.
    let streaks = [
        ok(
            stats.add_stats(&tally(m0, 1, 700, None, StreakChange::Add(1))).await,
            "count 1",
        ),
        ok(
            stats
                .add_stats(&tally(m0.plus_secs(5), 1, 40, None, StreakChange::Add(1)))
                .await,
            "count 2",
        ),
        ok(
            stats.add_stats(&tally(m1, 2, 40, Some(1), StreakChange::Add(1))).await,
            "count 3",
        ),
        ok(
            stats
                .add_stats(&tally(m1.plus_secs(1), 3, 0, None, StreakChange::Keep))
                .await,
            "count 4",
        ),
        ok(
            stats
                .add_stats(&tally(T0.plus_secs(3_700), 0, 40, Some(0), StreakChange::Reset(0)))
                .await,
            "count 5",
        ),
        ok(
            stats
                .add_stats(&tally(T0.plus_secs(3_710), 1, 20, None, StreakChange::Add(1)))
                .await,
            "count 6",
        ),
    ];
    assert_eq!(
        streaks.map(|m| (m.before, m.after)),
        [(0, 1), (1, 2), (2, 3), (3, 3), (3, 0), (0, 1)],
        "the run of failed attempts before and after each count"
    );

    let counts = |a: [u64; 4], d: [u64; 3], durations: &[(u64, u64)]| {
        let mut c = StatsCounts {
            attempts: a,
            deliveries: d,
            ..StatsCounts::default()
        };
        for (ms, n) in durations {
            c.durations[duration_bucket(*ms)] += n;
        }
        c
    };
    clock.set(T0.plus_secs(3_720));
    let minutes = StatsWindow {
        granularity: Granularity::Minute,
        since: T0,
        until: T0.plus_secs(3_720),
    };
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &minutes).await, "minutes"),
        vec![
            (T0, counts([0, 2, 0, 0], [0, 0, 0], &[(700, 1), (40, 1)])),
            (T0.plus_secs(60), counts([0, 0, 1, 1], [0, 1, 0], &[(40, 1), (0, 1)])),
            (
                T0.plus_secs(3_660),
                counts([1, 1, 0, 0], [1, 0, 0], &[(40, 1), (20, 1)])
            ),
        ]
    );
    let hours = StatsWindow {
        granularity: Granularity::Hour,
        since: T0,
        until: T0.plus_secs(3_720),
    };
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &hours).await, "hours"),
        vec![
            (T0, counts([0, 2, 1, 1], [0, 1, 0], &[(700, 1), (40, 2), (0, 1)])),
            (
                T0.plus_secs(3_600),
                counts([1, 1, 0, 0], [1, 0, 0], &[(40, 1), (20, 1)])
            ),
        ]
    );
    // A window of the second minute only; another endpoint has none.
    let one = StatsWindow {
        granularity: Granularity::Minute,
        since: T0.plus_secs(60),
        until: T0.plus_secs(119),
    };
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &one).await, "one minute").len(),
        1
    );
    assert_eq!(ok(stats.endpoint_stats(&tenant, &other, &hours).await, "other"), vec![]);

    // Past the minutes' retention only the hours (and the latest minutes) remain.
    clock.set(T0.plus_secs(3 * 3_600));
    let recent = StatsWindow {
        granularity: Granularity::Minute,
        since: T0.plus_secs(3_600),
        until: T0.plus_secs(3 * 3_600),
    };
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &recent).await, "recent minutes"),
        vec![(
            T0.plus_secs(3_660),
            counts([1, 1, 0, 0], [1, 0, 0], &[(40, 1), (20, 1)])
        )]
    );
    assert_eq!(
        ok(stats.endpoint_stats(&tenant, &ep, &hours).await, "hours later").len(),
        2
    );

    // The backlog: one delivery of each waiting status, and settled ones not at all.
    clock.set(T0);
    let f = fixture(
        &ids,
        &tenant,
        &[&other, &other, &other, &other, &other],
        T0,
        serde_json::json!({}),
    );
    let mut deliveries = f.deliveries.clone();
    let statuses = [
        DeliveryStatus::Pending,
        DeliveryStatus::Retrying,
        DeliveryStatus::Ambiguous,
        DeliveryStatus::Scheduled,
        DeliveryStatus::Succeeded,
    ];
    for (d, s) in deliveries.iter_mut().zip(statuses) {
        d.status = s;
        if s == DeliveryStatus::Scheduled {
            d.planned_at = T0.plus_secs(600);
            d.next_attempt_at = Some(d.planned_at);
        }
        if s.is_settled() {
            d.settled_at = Some(T0);
            d.next_attempt_at = None;
        }
    }
    ok(store.create_event(&f.event, &deliveries).await, "create event");
    assert_eq!(
        ok(stats.backlog(&tenant, &other).await, "backlog"),
        Backlog {
            pending: 1,
            retrying: 2,
            scheduled: 1
        }
    );
    assert_eq!(ok(stats.backlog(&tenant, &ep).await, "no backlog"), Backlog::default());
}
