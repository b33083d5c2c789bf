//! The due index port: deliveries whose next step is due before an instant, read
//! shard by shard by the reconciler.

use crate::ports::PortResult;
use async_trait::async_trait;
use courier_core::Timestamp;
use courier_core::ids::DeliveryId;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OverduePage {
    /// Ids in the order of their entries (oldest due first).
    pub ids: Vec<DeliveryId>,
    /// Where the next page starts, when the shard may hold more.
    pub next: Option<String>,
}

/// The due index: deliveries whose [`due_at`] (or the instant their entry was
/// moved to, [`OverdueIndex::move_due`]) is before an instant, in shards.
#[async_trait]
pub trait OverdueIndex: Send + Sync {
    /// How many shards the index has; a run reads every one.
    fn due_shards(&self) -> u32;
    /// Ids of live deliveries in `shard` whose entry is before `before`, oldest
    /// first, at most `limit`, starting after `after` (a page's `next`). The index
    /// is eventually consistent: callers re-read each delivery before acting on it.
    async fn overdue_page(
        &self,
        shard: u32,
        before: Timestamp,
        after: Option<&str>,
        limit: u32,
    ) -> PortResult<OverduePage>;
    /// Moves the delivery's entry, if it has one, to `at` (no other attribute
    /// changes): a requeued delivery is then overdue again only once `at` is a
    /// grace old. The next write of the whole record files the entry afresh.
    async fn move_due(&self, id: &DeliveryId, at: Timestamp) -> PortResult<()>;
    /// Ids due before `before` over all shards, shard by shard, at most `limit`.
    async fn overdue(&self, before: Timestamp, limit: u32) -> PortResult<Vec<DeliveryId>> {
        let mut out = Vec::new();
        for shard in 0..self.due_shards() {
            let mut after: Option<String> = None;
            loop {
                let left = limit.saturating_sub(out.len() as u32);
                if left == 0 {
                    return Ok(out);
                }
                let page = self.overdue_page(shard, before, after.as_deref(), left).await?;
                out.extend(page.ids);
                match page.next {
                    Some(next) => after = Some(next),
                    None => break,
                }
            }
        }
        Ok(out)
    }
}
