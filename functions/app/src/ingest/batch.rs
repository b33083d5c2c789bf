//! Batch ingest's queueing. The events of one batch are checked and built one by
//! one (each through the single-event path); then the first messages of all their
//! deliveries due now go out together with [`Queue::send_batch`] (SQS
//! `SendMessageBatch`, ten to a call) before any of them is written
//! (`send_ahead::send_ahead_batch`, as a single event's go out before its write). What the
//! writes queue after them (a message whose send ahead failed, a repeat's stored
//! deliveries) is held back by a [`HeldQueue`] and sent together the same way
//! ([`send_held`]). A held message that cannot be sent is handled as a failed
//! single send is: its delivery is marked dead-lettered, so the API shows it and
//! `redrive` (or an Idempotency-Key repeat) resumes it.

use crate::domain::delivery_message::DeliveryMessage;
use crate::ports::{DeliveryStore, PortError, PortResult, Queue};
use async_trait::async_trait;
use courier_core::Timestamp;
use std::sync::Mutex;

/// A queue that only records what it is asked to send, tagged with the batch entry
/// being ingested, for [`send_held`] to send after.
#[derive(Default)]
pub struct HeldQueue {
    held: Mutex<Vec<Held>>,
    current: Mutex<usize>,
}

/// One held message: the batch entry it belongs to, the message and its delay.
#[derive(Debug, Clone)]
pub struct Held {
    pub entry: usize,
    pub message: DeliveryMessage,
    pub delay_seconds: u32,
}

impl HeldQueue {
    /// Messages asked for from now on belong to batch entry `entry`.
    pub fn start_entry(&self, entry: usize) {
        if let Ok(mut c) = self.current.lock() {
            *c = entry;
        }
    }

    /// Everything held so far, in the order it was asked for.
    pub fn take(&self) -> Vec<Held> {
        self.held
            .lock()
            .map(|mut h| std::mem::take(&mut *h))
            .unwrap_or_default()
    }
}

#[async_trait]
impl Queue for HeldQueue {
    async fn send(&self, message: &DeliveryMessage, delay_seconds: u32) -> PortResult<()> {
        let entry = self.current.lock().map(|c| *c).unwrap_or(0);
        self.held
            .lock()
            .map_err(|_| PortError::Corrupt("held queue lock poisoned".into()))?
            .push(Held {
                entry,
                message: message.clone(),
                delay_seconds,
            });
        Ok(())
    }

    fn sends_at_once(&self) -> bool {
        false
    }
}

/// Sends the held messages in one `send_batch` and returns, per failed message, its
/// batch entry and the error. Each failed message's delivery is marked dead-lettered
/// first (as [`crate::ingest::pipeline::Pipeline::enqueue_waiting`] does for a failed single send).
pub async fn send_held(
    store: &dyn DeliveryStore,
    queue: &dyn Queue,
    held: Vec<Held>,
    now: Timestamp,
) -> Vec<(usize, PortError)> {
    if held.is_empty() {
        return Vec::new();
    }
    let entries: Vec<(DeliveryMessage, u32)> = held.iter().map(|h| (h.message.clone(), h.delay_seconds)).collect();
    let mut results = queue.send_batch(&entries).await.into_iter();
    let mut failed = Vec::new();
    for h in held {
        // A result missing from the adapter's answer counts as a failed send.
        let result = results
            .next()
            .unwrap_or_else(|| Err(PortError::Corrupt("send_batch answered fewer entries than sent".into())));
        if let Err(e) = result {
            if let Err(mark) = crate::pipeline::dead_letter::mark(store, &h.message, now).await {
                tracing::error!(delivery_id = %h.message.delivery_id, error = %mark, "could not mark an unqueued delivery");
            }
            failed.push((h.entry, e));
        }
    }
    failed
}
