//! The send-ahead protocol, both of its sides. Ingest sends attempt 1 of each
//! delivery due now before the write that creates it ([`send_ahead`],
//! [`send_ahead_batch`]), so the write files no due-index entry for it; the
//! sender, finding no delivery for such a message, waits for the write
//! ([`young_first_wait_ms`]) and looks again within [`AHEAD_WINDOW_MS`]
//! ([`recheck_unwritten`]) before dropping it as the message of a write that never
//! happened.

use crate::domain::delivery_message::{DeliveryMessage, Trigger};
use crate::domain::model::{Delivery, DeliveryStatus};
use crate::ingest::first_message;
use crate::pipeline::planner::Planner;
use crate::ports::{PortError, Queue};
use courier_core::Timestamp;

/// How long a first message sent ahead of its delivery's write may find no
/// delivery: longer than any function that sends ahead can run (the API 10 s, the
/// sender 150 s when it fires a schedule), so a message that still finds nothing
/// after it belongs to a write that never happened and is dropped.
pub const AHEAD_WINDOW_MS: i64 = 300_000;

/// Longest wait between two looks for a delivery not written yet.
const AHEAD_RECHECK_MAX_SECONDS: i64 = 60;

/// Sends attempt 1 of each delivery due now before anything is written, and marks
/// those sent `carried_by_queue`: their creating write then gives them no due-index
/// entry, because the message in the queue is what moves them on (docs/cost.md,
/// docs/reliability.md). A delivery whose send fails is left unmarked and gets its
/// entry and the usual send after the write
/// ([`crate::ingest::pipeline::Pipeline::enqueue_waiting`]). Nothing is sent
/// ahead through a queue that only holds messages back (batch ingest's), and a
/// delivery planned for later keeps the usual order.
pub async fn send_ahead(planner: &Planner, deliveries: &mut [Delivery], now: Timestamp) {
    if !planner.queue.sends_at_once() {
        return;
    }
    for d in deliveries.iter_mut().filter(|d| goes_ahead(d, now)) {
        let sent = planner.queue.send(&first_message(d), 0).await;
        note_sent_ahead(d, sent);
    }
}

/// Marks `d` queued ahead when its first message's send ahead succeeded; a failed
/// one leaves it to be written with its due entry and sent after the write.
pub(crate) fn note_sent_ahead(d: &mut Delivery, sent: Result<(), PortError>) {
    match sent {
        Ok(()) => d.carried_by_queue = true,
        Err(e) => {
            tracing::warn!(delivery_id = %d.id, error = %e, "could not queue a first message ahead of its write")
        }
    }
}

/// For a message whose delivery does not exist (yet): when to look again, if it
/// may have been sent ahead of the delivery's write ([`send_ahead`]) and the write
/// could still come. Only an initial first message, and only within
/// [`AHEAD_WINDOW_MS`] of its `notBefore` (the instant ingest planned it for); the
/// waits grow with the message's age, from 1 s to a minute.
pub fn recheck_unwritten(m: &DeliveryMessage, now: Timestamp) -> Option<Timestamp> {
    let age = now.millis_since(m.not_before);
    if !may_precede_write(m) || !(0..AHEAD_WINDOW_MS).contains(&age) {
        return None;
    }
    Some(now.plus_secs((age / 1000).clamp(1, AHEAD_RECHECK_MAX_SECONDS)))
}

/// Whether `d`'s first message may go out ahead of its write: a new, initial
/// delivery due now (one planned for later is queued, or timed, after the write).
pub fn goes_ahead(d: &Delivery, now: Timestamp) -> bool {
    d.status == DeliveryStatus::Pending
        && d.next_attempt_at.is_none_or(|t| t <= now)
        && d.attempt_count == 0
        && d.trigger == Trigger::Initial
}

/// How long to wait before claiming `m` so that it is `min_age_ms` old (counted
/// from its `notBefore`, the instant ingest planned it for): a first message sent
/// ahead of its write and handed over at once would otherwise claim a delivery
/// the API is still writing, a claim refused and billed. 0 for any other message
/// and for one that old already.
pub fn young_first_wait_ms(m: &DeliveryMessage, now: Timestamp, min_age_ms: u64) -> u64 {
    let age = now.millis_since(m.not_before);
    match may_precede_write(m) && age >= 0 {
        true => min_age_ms.saturating_sub(age as u64),
        false => 0,
    }
}

/// Whether `m` is a message [`send_ahead`] makes: an initial first message with no
/// pre-assigned attempt.
fn may_precede_write(m: &DeliveryMessage) -> bool {
    m.attempt == 1
        && m.trigger == Trigger::Initial
        && m.attempt_id.is_none()
        && m.source_attempt_id.is_none()
        && !m.completion_check
}

/// Sends the first message of each delivery that [`goes_ahead`], all in one
/// `send_batch`, and marks those sent `carried_by_queue` (their write then files no
/// due-index entry). One whose send failed is left unmarked: it is written with
/// its entry and queued after the write, as every other message is.
pub async fn send_ahead_batch(queue: &dyn Queue, deliveries: Vec<&mut Delivery>, now: Timestamp) {
    if !queue.sends_at_once() {
        return;
    }
    let mut due: Vec<&mut Delivery> = deliveries.into_iter().filter(|d| goes_ahead(d, now)).collect();
    if due.is_empty() {
        return;
    }
    let entries: Vec<(DeliveryMessage, u32)> = due.iter().map(|d| (first_message(d), 0)).collect();
    // A result missing from the adapter's answer leaves its delivery unmarked.
    for (d, result) in due.iter_mut().zip(queue.send_batch(&entries).await) {
        note_sent_ahead(d, result);
    }
}
