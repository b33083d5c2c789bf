//! The slow lane seen from the handler: which lane a batch came from, and the
//! messages a main-lane batch moves to the slow-lane queue, sent together once the
//! batch's other records are done (one `SendMessageBatch` per ten).

use courier_app::delivery::lanes::Lanes;
use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::ports::Queue;
use courier_core::Timestamp;
use std::sync::{Arc, Mutex};

/// The process's lanes and the slow lane's queue.
pub struct SlowLane {
    pub lanes: Arc<Lanes>,
    pub queue: Arc<dyn Queue>,
}

/// Which lane a batch was taken from.
#[derive(Clone, Copy)]
pub enum Lane<'a> {
    /// The delivery queue: a step may be moved to the slow lane.
    Main(&'a SlowLane),
    /// The slow lane's queue: every step is attempted here.
    Slow(&'a SlowLane),
}

impl<'a> Lane<'a> {
    pub fn lanes(&self) -> &'a Lanes {
        match self {
            Lane::Main(s) | Lane::Slow(s) => &s.lanes,
        }
    }
}

/// The messages a batch moved, by record index.
#[derive(Default)]
pub struct Moved(Mutex<Vec<(usize, DeliveryMessage)>>);

impl Moved {
    pub fn push(&self, index: usize, message: DeliveryMessage) {
        if let Ok(mut v) = self.0.lock() {
            v.push((index, message));
        }
    }

    /// Sends the moved messages to the slow lane, each delayed to its `notBefore`;
    /// answers the indexes of the records whose message could not be sent (they are
    /// reported failed, so SQS brings them back on the main lane: nothing is lost).
    pub async fn send(self, queue: &dyn Queue, now: Timestamp) -> Vec<usize> {
        let moved = self.0.into_inner().unwrap_or_default();
        let mut failed = Vec::new();
        for chunk in moved.chunks(10) {
            let entries: Vec<(DeliveryMessage, u32)> = chunk
                .iter()
                .map(|(_, m)| (m.clone(), delay_seconds(m.not_before, now)))
                .collect();
            let results = queue.send_batch(&entries).await;
            for ((index, m), r) in chunk.iter().zip(results) {
                if let Err(e) = r {
                    tracing::warn!(delivery_id = %m.delivery_id, error = %e, "moving a message to the slow lane failed; left for retry");
                    failed.push(*index);
                }
            }
        }
        failed
    }
}

/// The SQS delay that keeps a moved message's `notBefore` (whole seconds, rounded up,
/// at most SQS's 900).
fn delay_seconds(not_before: Timestamp, now: Timestamp) -> u32 {
    let ms = u64::try_from(not_before.0.saturating_sub(now.0)).unwrap_or(0);
    u32::try_from(ms.div_ceil(1000)).unwrap_or(900).min(900)
}

#[cfg(test)]
mod tests {
    use super::delay_seconds;
    use courier_core::Timestamp;

    #[test]
    fn a_moved_message_keeps_its_not_before() {
        let now = Timestamp(10_000);
        assert_eq!(delay_seconds(Timestamp(9_000), now), 0);
        assert_eq!(delay_seconds(now, now), 0);
        assert_eq!(delay_seconds(Timestamp(10_001), now), 1);
        assert_eq!(delay_seconds(Timestamp(12_000), now), 2);
        assert_eq!(delay_seconds(Timestamp(10_000 + 5_000_000), now), 900);
    }
}
