//! The ingest pipeline: the one way new deliveries are written and put on their
//! way, whoever makes them (an event sent through the API, one entry of a batch, a
//! schedule's occurrence, a replay, a test event). In order: the first messages
//! of deliveries due now go out ahead of the write (`send_ahead`), the event and
//! its deliveries are written at once, the deliveries the write dropped are
//! counted, and the rest are queued. A write that finds its records stored
//! already (a repeat, or two requests racing with one key) queues the stored
//! deliveries again instead: a duplicate message is dropped by the sender's claim,
//! so queueing again is always safe, and one whose first message was lost goes out.
//! Fan-out steps write their pages' deliveries themselves (`crate::fanout`).

use crate::domain::delivery_message::DeliveryMessage;
use crate::domain::model::{Delivery, DeliveryStatus, EventRecord};
use crate::domain::stats::StatsTally;
use crate::ingest::first_message;
use crate::ingest::send_ahead::send_ahead;
use crate::pipeline::dead_letter;
use crate::pipeline::planner::{Path, Planner};
use crate::pipeline::statistics::add_logged;
use crate::ports::{DeliveryStore, PortError};
use courier_core::Timestamp;
use courier_core::ids::DeliveryId;

/// What a write found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// The records are new: written now, their messages queued.
    New,
    /// The event was stored already: its stored deliveries were queued again.
    Stored,
}

/// The pipeline over a delivery store and a planner.
#[derive(Clone, Copy)]
pub struct Pipeline<'a> {
    pub store: &'a dyn DeliveryStore,
    pub planner: &'a Planner,
}

impl Pipeline<'_> {
    /// Sends ahead, writes `event` and `deliveries` together, then queues the rest
    /// ([`Pipeline::after_write`]).
    pub async fn write_event(
        &self,
        event: &EventRecord,
        deliveries: &[Delivery],
        now: Timestamp,
    ) -> Result<Written, PortError> {
        let mut deliveries = deliveries.to_vec();
        send_ahead(self.planner, &mut deliveries, now).await;
        let stored = self.store.create_event(event, &deliveries).await;
        self.after_write(event, &deliveries, stored, now).await
    }

    /// What follows the write of a new event (`stored`, its result, for writers
    /// that make the write themselves, as batch ingest does for a whole batch at
    /// once): the dropped deliveries counted and the messages not sent ahead
    /// queued; or, when the event exists already, its stored deliveries queued.
    pub async fn after_write(
        &self,
        event: &EventRecord,
        deliveries: &[Delivery],
        stored: Result<(), PortError>,
        now: Timestamp,
    ) -> Result<Written, PortError> {
        match stored {
            Ok(()) => {
                self.count_dropped(deliveries, now).await;
                self.enqueue_waiting(deliveries, now).await?;
                Ok(Written::New)
            }
            Err(PortError::Conflict(why)) => {
                if self.store.get_event(&event.tenant_id, &event.id).await?.is_none() {
                    return Err(PortError::Conflict(why));
                }
                let ids: Vec<DeliveryId> = deliveries.iter().map(|d| d.id.clone()).collect();
                self.requeue(&ids, now).await?;
                Ok(Written::Stored)
            }
            Err(e) => Err(e),
        }
    }

    /// Writes one delivery added to a stored event (a replay) and queues it; one
    /// stored already is queued again ([`Pipeline::requeue`]).
    pub async fn write_delivery(&self, d: &Delivery, now: Timestamp) -> Result<(), PortError> {
        match self.store.create_delivery(d).await {
            Ok(()) => self.enqueue_waiting(std::slice::from_ref(d), now).await,
            Err(PortError::Conflict(why)) => match self.store.get_delivery(&d.id).await? {
                Some(stored) => self.requeue_loaded(vec![stored], now).await,
                None => Err(PortError::Conflict(why)),
            },
            Err(e) => Err(e),
        }
    }

    /// Queues attempt 1 of the stored deliveries `ids` that still wait for it (ids
    /// with no delivery are skipped). One marked dead-lettered by an earlier failed
    /// enqueue is redriven (mark cleared, message queued), so it does not read as
    /// dead-lettered once it is on its way. Every delivery is tried; the first error
    /// is returned after.
    pub async fn requeue(&self, ids: &[DeliveryId], now: Timestamp) -> Result<(), PortError> {
        let mut stored = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(d) = self.store.get_delivery(id).await? {
                stored.push(d);
            }
        }
        self.requeue_loaded(stored, now).await
    }

    async fn requeue_loaded(&self, stored: Vec<Delivery>, now: Timestamp) -> Result<(), PortError> {
        let mut waiting = Vec::with_capacity(stored.len());
        let mut first_error = None;
        for d in stored {
            if d.dead_lettered_at.is_some() && d.attempt_count == 0 && !d.status.is_settled() {
                if let Err(e) = dead_letter::redrive(self.store, self.planner, &d, now).await {
                    first_error.get_or_insert(e);
                }
            } else {
                waiting.push(d);
            }
        }
        if let Err(e) = self.enqueue_waiting(&waiting, now).await {
            first_error.get_or_insert(e);
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Queues attempt 1 of every delivery still waiting for it and not carried by a
    /// message sent ahead. Safe to repeat: a duplicate message is dropped by the
    /// sender's claim. A delivery whose message cannot be queued is marked
    /// dead-lettered (so the API shows it and `redrive` resumes it), and the others
    /// are still queued: one failed enqueue never leaves the rest of an event's
    /// deliveries without a message or a mark. The first error is returned once
    /// every delivery has been tried.
    pub async fn enqueue_waiting(&self, deliveries: &[Delivery], now: Timestamp) -> Result<(), PortError> {
        let mut first_error = None;
        for d in deliveries {
            if waits_for_first(d) && !d.carried_by_queue {
                let m = first_message(d);
                if let Err(e) = self.planner.plan(m.clone(), now).await {
                    if let Err(mark) = dead_letter::mark(self.store, &m, now).await {
                        tracing::error!(delivery_id = %d.id, error = %mark, "could not mark an unqueued delivery");
                    }
                    first_error.get_or_insert(e);
                }
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// [`Pipeline::enqueue_waiting`] for many deliveries at once (a fan-out page):
    /// those due within the queue's delay range in `send_batch` calls, later ones
    /// through the planner. A delivery whose message cannot be sent is marked
    /// dead-lettered (redrive resumes it) and the rest still go; the first error is
    /// returned after.
    pub async fn enqueue_waiting_batched(&self, deliveries: &[Delivery], now: Timestamp) -> Result<(), PortError> {
        let mut batch: Vec<(DeliveryMessage, u32)> = Vec::new();
        let mut first_error = None;
        let mut failed: Vec<DeliveryMessage> = Vec::new();
        for d in deliveries {
            if !waits_for_first(d) {
                continue;
            }
            let m = first_message(d);
            match self.planner.path(m.not_before, now) {
                Path::Queue { delay_seconds } => batch.push((m, delay_seconds)),
                Path::Schedule { .. } => {
                    if let Err(e) = self.planner.plan(m.clone(), now).await {
                        first_error.get_or_insert(e);
                        failed.push(m);
                    }
                }
            }
        }
        let mut results = self.planner.queue.send_batch(&batch).await.into_iter();
        for (m, _) in batch {
            // A result missing from the adapter's answer counts as a failed send.
            let result = results
                .next()
                .unwrap_or_else(|| Err(PortError::Corrupt("send_batch answered fewer entries than sent".into())));
            if let Err(e) = result {
                first_error.get_or_insert(e);
                failed.push(m);
            }
        }
        for m in failed {
            if let Err(mark) = dead_letter::mark(self.store, &m, now).await {
                tracing::error!(delivery_id = %m.delivery_id, error = %mark, "could not mark an unqueued delivery");
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    /// Counts the deliveries an event's write dropped at once into their endpoints'
    /// statistics, once, after the write that created them. A failed count is
    /// logged and lost, never the event.
    async fn count_dropped(&self, deliveries: &[Delivery], now: Timestamp) {
        let Some(stats) = self.store.stats() else { return };
        for d in deliveries.iter().filter(|d| d.status == DeliveryStatus::Dropped) {
            if let Some(tally) = StatsTally::of_settled(d, now) {
                add_logged(stats, &tally).await;
            }
        }
    }
}

/// Whether `d` still waits for its first attempt's message: pending or scheduled,
/// nothing attempted yet.
fn waits_for_first(d: &Delivery) -> bool {
    matches!(d.status, DeliveryStatus::Pending | DeliveryStatus::Scheduled) && d.attempt_count == 0
}
