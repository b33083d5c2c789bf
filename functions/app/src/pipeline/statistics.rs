//! Counting outcomes into the statistics store: one tally written at once, or the
//! tallies of a sender batch summed per endpoint and minute and written at its end.

use crate::domain::stats::{Granularity, StatsTally, StreakMove};
use crate::ports::StatsStore;
use courier_core::ids::{EndpointId, TenantId};

/// Writes one tally; a failed write loses that count only (logged), never what
/// was counted.
pub async fn add_logged(store: &dyn StatsStore, tally: &StatsTally) -> Option<StreakMove> {
    match store.add_stats(tally).await {
        Ok(streak) => Some(streak),
        Err(e) => {
            tracing::warn!(endpoint = %tally.endpoint, error = %e, "statistics not counted");
            None
        }
    }
}

/// The tallies of one sender batch, added up per endpoint and minute and written
/// once each when the batch ends ([`StatsBatch::flush`]): ten attempts to one
/// endpoint in a batch cost one counter write, not ten. A process that stops
/// before the flush loses the batch's counts (never its outcomes).
#[derive(Default)]
pub struct StatsBatch {
    tallies: std::sync::Mutex<Vec<StatsTally>>,
}

tokio::task_local! {
    /// The batch the current sender task's attempts are counted into (set by the
    /// sender Lambda's batch handler); outside one, each attempt writes its count.
    pub static STATS_BATCH: std::sync::Arc<StatsBatch>;
}

impl StatsBatch {
    pub fn add(&self, tally: StatsTally) {
        let mut all = self.tallies.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let minute = Granularity::Minute.floor(tally.at);
        match all.iter_mut().find(|t| {
            t.endpoint == tally.endpoint && t.tenant == tally.tenant && Granularity::Minute.floor(t.at) == minute
        }) {
            Some(t) => {
                t.counts.add(&tally.counts);
                t.streak = t.streak.then(tally.streak);
            }
            None => all.push(tally),
        }
    }

    /// Writes every endpoint-minute's sum; answers each endpoint's run of failed
    /// attempts after its write (the last write of the endpoint wins), in the order
    /// the endpoints first appeared. A failed write loses that count only.
    pub async fn flush(&self, store: &dyn StatsStore) -> Vec<(TenantId, EndpointId, Option<StreakMove>)> {
        let tallies = std::mem::take(&mut *self.tallies.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        let mut streaks: Vec<(TenantId, EndpointId, Option<StreakMove>)> = Vec::new();
        for t in &tallies {
            let streak = match store.add_stats(t).await {
                Ok(s) => Some(s),
                Err(e) => {
                    tracing::warn!(endpoint = %t.endpoint, error = %e, "statistics not counted");
                    None
                }
            };
            // An endpoint counted in two minutes: from the first's before to the
            // last's after.
            match streaks.iter_mut().find(|(_, e, _)| e == &t.endpoint) {
                Some(slot) => {
                    slot.2 = match (slot.2, streak) {
                        (Some(first), Some(last)) => Some(StreakMove {
                            before: first.before,
                            after: last.after,
                        }),
                        _ => None,
                    }
                }
                None => streaks.push((t.tenant.clone(), t.endpoint.clone(), streak)),
            }
        }
        streaks
    }
}

#[cfg(test)]
mod tests {
    use super::StatsBatch;
    use crate::domain::stats::{StatsCounts, StatsTally, StreakChange};
    use courier_core::Timestamp;
    use courier_core::ids::{EndpointId, TenantId};

    #[test]
    fn a_batch_adds_up_per_endpoint_and_minute() {
        let tenant = TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap();
        let ep = EndpointId::parse("ep_01JAAAAAAAAAAAAAAAAAAAAAAA").unwrap();
        let tally = |at: i64, streak| {
            let mut counts = StatsCounts::default();
            counts.attempts[1] = 1;
            StatsTally {
                tenant: tenant.clone(),
                endpoint: ep.clone(),
                at: Timestamp::from_millis(at),
                counts,
                streak,
            }
        };
        let batch = StatsBatch::default();
        batch.add(tally(1_000, StreakChange::Add(1)));
        batch.add(tally(2_000, StreakChange::Reset(0)));
        batch.add(tally(3_000, StreakChange::Add(1)));
        batch.add(tally(61_000, StreakChange::Add(1)));
        let all = batch.tallies.lock().map(|t| t.clone()).unwrap_or_default();
        let summary: Vec<(i64, u64, StreakChange)> = all
            .iter()
            .map(|t| (t.at.millis(), t.counts.attempts[1], t.streak))
            .collect();
        assert_eq!(
            summary,
            vec![(1_000, 3, StreakChange::Reset(1)), (61_000, 1, StreakChange::Add(1))]
        );
    }
}
