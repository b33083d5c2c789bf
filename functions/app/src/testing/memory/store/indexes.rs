//! The in-memory store's subscription index, idempotency records, due index and
//! statistics: the fakes of `SubscriptionIndex`, `IdempotencyStore`, `OverdueIndex`
//! and `StatsStore` over its state.

use super::*;

#[async_trait]
impl SubscriptionIndex for MemoryStore {
    async fn subscriptions(
        &self,
        tenant: &TenantId,
        application: Option<&str>,
        key: &str,
        after: Option<&EndpointId>,
        limit: u32,
    ) -> PortResult<Vec<SubscriptionEntry>> {
        let (st, _) = self.begin()?;
        let app = application.unwrap_or_default().to_owned();
        Ok(st
            .subscriptions
            .iter()
            .filter(|((t, a, k, id), _)| t == tenant && *a == app && k == key && after.is_none_or(|after| id > after))
            .take(limit.clamp(1, 1000) as usize)
            .map(|(_, e)| e.clone())
            .collect())
    }

    async fn get_endpoints(&self, tenant: &TenantId, ids: &[EndpointId]) -> PortResult<Vec<Endpoint>> {
        let (st, _) = self.begin()?;
        Ok(ids
            .iter()
            .filter_map(|id| st.endpoints.get(&(tenant.clone(), id.clone())))
            .map(|e| st.endpoint_as_read(e))
            .collect())
    }
}

#[async_trait]
impl IdempotencyStore for MemoryStore {
    async fn put_idempotency(&self, record: &IdempotencyRecord) -> PortResult<Option<IdempotencyRecord>> {
        let (mut st, now) = self.begin()?;
        if let Some(existing) = st
            .idempotency
            .get(&record.key)
            .filter(|r| is_live(Some(r.expires_at), now))
        {
            return Ok(Some(existing.clone()));
        }
        st.idempotency.insert(record.key.clone(), record.clone());
        Ok(None)
    }

    async fn get_idempotency(&self, key: &str) -> PortResult<Option<IdempotencyRecord>> {
        let (st, now) = self.begin()?;
        Ok(st
            .idempotency
            .get(key)
            .filter(|r| is_live(Some(r.expires_at), now))
            .cloned())
    }
}

#[async_trait]
impl crate::ports::OverdueIndex for MemoryStore {
    fn due_shards(&self) -> u32 {
        1
    }

    async fn overdue_page(
        &self,
        _shard: u32,
        before: Timestamp,
        after: Option<&str>,
        limit: u32,
    ) -> PortResult<crate::ports::OverduePage> {
        let now = self.begin_call()?;
        // Keyed as DynamoDB's `GSI4SK` (due instant, then id), which is the cursor.
        let key = |at: Timestamp, id: &DeliveryId| format!("{:015}#{id}", at.millis().max(0));
        let mut due: Vec<(String, DeliveryId)> = lock(&self.deliveries)
            .deliveries
            .values()
            .filter(|stored| stored.due_entry && is_live(stored.delivery.expires_at, now))
            .filter_map(|stored| {
                let at = crate::maintenance::reconcile::due_at(&stored.delivery)?;
                let at = stored.due_moved.unwrap_or(at);
                (at < before).then(|| (key(at, &stored.delivery.id), stored.delivery.id.clone()))
            })
            .filter(|(k, _)| after.is_none_or(|a| k.as_str() > a))
            .collect();
        due.sort();
        let more = due.len() > limit as usize;
        due.truncate(limit as usize);
        let next = if more { due.last().map(|(k, _)| k.clone()) } else { None };
        Ok(crate::ports::OverduePage {
            ids: due.into_iter().map(|(_, id)| id).collect(),
            next,
        })
    }

    async fn move_due(&self, id: &DeliveryId, at: Timestamp) -> PortResult<()> {
        let (mut st, now) = self.begin_deliveries()?;
        if let Some(stored) = st.live_mut(id, now).filter(|s| s.due_entry) {
            stored.due_moved = Some(at);
        }
        Ok(())
    }
}

#[async_trait]
impl crate::ports::StatsStore for MemoryStore {
    async fn add_stats(
        &self,
        tally: &crate::domain::stats::StatsTally,
    ) -> PortResult<crate::domain::stats::StreakMove> {
        use crate::domain::stats::Granularity;
        let (mut state, _) = self.begin()?;
        let e = state
            .stats
            .entry((tally.tenant.clone(), tally.endpoint.clone()))
            .or_default();
        let minute = Granularity::Minute.floor(tally.at).millis();
        let hour = Granularity::Hour.floor(tally.at).millis();
        e.minutes.entry(minute).or_default().add(&tally.counts);
        e.hours.entry(hour).or_default().add(&tally.counts);
        let before = e.streak;
        e.streak = tally.streak.apply(before);
        Ok(crate::domain::stats::StreakMove {
            before,
            after: e.streak,
        })
    }

    async fn endpoint_stats(
        &self,
        tenant: &TenantId,
        endpoint: &EndpointId,
        window: &crate::domain::stats::StatsWindow,
    ) -> PortResult<Vec<(Timestamp, crate::domain::stats::StatsCounts)>> {
        use crate::domain::stats::{Granularity, StatsWindow};
        let (state, now) = self.begin()?;
        let Some(e) = state.stats.get(&(tenant.clone(), endpoint.clone())) else {
            return Ok(Vec::new());
        };
        let g = window.granularity;
        let map = match g {
            Granularity::Minute => &e.minutes,
            Granularity::Hour => &e.hours,
        };
        let from = g
            .floor(window.since)
            .millis()
            .max(StatsWindow::oldest_kept(g, now).millis());
        let to = g.floor(window.until).millis();
        if from > to {
            return Ok(Vec::new());
        }
        Ok(map
            .range(from..=to)
            .filter(|(_, c)| !c.is_empty())
            .map(|(s, c)| (Timestamp::from_millis(*s), *c))
            .collect())
    }

    async fn backlog(&self, _tenant: &TenantId, endpoint: &EndpointId) -> PortResult<crate::domain::stats::Backlog> {
        use crate::domain::model::DeliveryStatus;
        let now = self.begin_call()?;
        let mut b = crate::domain::stats::Backlog::default();
        for d in lock(&self.deliveries).deliveries.values().map(|s| &s.delivery) {
            if &d.endpoint_id != endpoint || !is_live(d.expires_at, now) {
                continue;
            }
            match d.status {
                DeliveryStatus::Pending => b.pending += 1,
                // An ambiguous delivery has its next attempt planned: a retry.
                DeliveryStatus::Retrying | DeliveryStatus::Ambiguous => b.retrying += 1,
                DeliveryStatus::Scheduled => b.scheduled += 1,
                _ => {}
            }
        }
        Ok(b)
    }
}
