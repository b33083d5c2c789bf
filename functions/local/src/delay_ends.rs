//! When the delayed messages the local stack sends become visible, so that its
//! pollers ask for them at that moment. moto answers a long poll as soon as a
//! message is sent, but not when a delayed message's delay ends (real SQS does), so
//! a poller waiting in a long poll saw a delayed retry only when its poll ended: up
//! to a second late, in `make run` and in `make bench`'s timer lateness.

use async_trait::async_trait;
use courier_app::domain::delivery_message::DeliveryMessage;
use courier_app::ports::{PortResult, Queue};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::time::{Duration, Instant};

/// The instants at which delayed messages become visible, as far as they are not yet
/// past.
#[derive(Debug, Default)]
pub struct DelayEnds(Mutex<BinaryHeap<Reverse<Instant>>>);

impl DelayEnds {
    fn ends(&self) -> MutexGuard<'_, BinaryHeap<Reverse<Instant>>> {
        // The heap is whole after any panic (a push or a pop either happened or not).
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Notes that a message becomes visible at `at`.
    pub fn add(&self, at: Instant) {
        self.ends().push(Reverse(at));
    }

    /// The earliest noted end.
    pub fn next(&self) -> Option<Instant> {
        self.ends().peek().map(|Reverse(at)| *at)
    }

    /// Forgets the earliest ends at or before `now`, at most `at_most` of them (as
    /// many messages as one receive can return), and says how many it forgot.
    pub fn take_past(&self, now: Instant, at_most: usize) -> usize {
        let mut ends = self.ends();
        let mut taken = 0;
        while taken < at_most && ends.peek().is_some_and(|Reverse(at)| *at <= now) {
            ends.pop();
            taken += 1;
        }
        taken
    }
}

/// A queue that notes in [`DelayEnds`] when each delayed message it sends becomes
/// visible: what the local stack's planner sends through.
pub struct NotingQueue {
    inner: Arc<dyn Queue>,
    ends: Arc<DelayEnds>,
}

impl NotingQueue {
    pub fn new(inner: Arc<dyn Queue>, ends: Arc<DelayEnds>) -> Self {
        NotingQueue { inner, ends }
    }

    /// Notes when a message the queue took at `sent_at` becomes visible. Noted once
    /// the queue has the message: the delay runs from its arrival there, so this end
    /// is no earlier than the queue's own.
    fn note(&self, delay_seconds: u32, sent_at: Instant) {
        if delay_seconds > 0 {
            self.ends.add(sent_at + Duration::from_secs(u64::from(delay_seconds)));
        }
    }
}

#[async_trait]
impl Queue for NotingQueue {
    async fn send(&self, message: &DeliveryMessage, delay_seconds: u32) -> PortResult<()> {
        self.inner.send(message, delay_seconds).await?;
        self.note(delay_seconds, Instant::now());
        Ok(())
    }

    /// The inner queue's own batch call (SQS `SendMessageBatch`), each sent delayed
    /// entry noted as a single send's is.
    async fn send_batch(&self, entries: &[(DeliveryMessage, u32)]) -> Vec<PortResult<()>> {
        let results = self.inner.send_batch(entries).await;
        let sent_at = Instant::now();
        for ((_, delay_seconds), result) in entries.iter().zip(&results) {
            if result.is_ok() {
                self.note(*delay_seconds, sent_at);
            }
        }
        results
    }

    fn sends_at_once(&self) -> bool {
        self.inner.sends_at_once()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use courier_app::testing::contract::sample_message;
    use courier_app::testing::memory::{ManualClock, MemoryQueue};
    use courier_core::Timestamp;
    use courier_core::ids::{DeliveryId, EndpointId, TenantId};
    use courier_core::rng::SplitMix64;

    #[test]
    fn past_ends_are_taken_together_and_once() {
        let ends = DelayEnds::default();
        let t0 = Instant::now();
        let s = Duration::from_secs;
        assert_eq!(ends.next(), None);
        ends.add(t0 + s(3));
        ends.add(t0 + s(1));
        ends.add(t0 + s(2));
        ends.add(t0 + s(1));
        assert_eq!(ends.next(), Some(t0 + s(1)));
        assert_eq!(ends.take_past(t0 + Duration::from_millis(999), 10), 0);
        assert_eq!(ends.take_past(t0 + s(1), 10), 2, "ends at `now` are past");
        assert_eq!(ends.take_past(t0 + s(1), 10), 0);
        assert_eq!(ends.next(), Some(t0 + s(2)));
        assert_eq!(ends.take_past(t0 + s(10), 1), 1, "no more than asked for");
        assert_eq!(ends.next(), Some(t0 + s(3)));
        assert_eq!(ends.take_past(t0 + s(10), 10), 1);
        assert_eq!(ends.next(), None);
    }

    /// A noting queue over a memory queue, its notes, and a retry's message.
    fn fixture() -> (Arc<MemoryQueue>, Arc<DelayEnds>, NotingQueue, DeliveryMessage) {
        let now = Timestamp::from_millis(1_796_000_000_000);
        let inner = Arc::new(MemoryQueue::new(Arc::new(ManualClock::new(now))));
        let ends = Arc::new(DelayEnds::default());
        let queue = NotingQueue::new(inner.clone(), ends.clone());
        let mut rng = SplitMix64::new(7);
        let message = sample_message(
            &DeliveryId::generate(now, &mut rng),
            &TenantId::generate(now, &mut rng),
            &EndpointId::generate(now, &mut rng),
            2,
            now,
        );
        (inner, ends, queue, message)
    }

    #[tokio::test]
    async fn only_delayed_sends_are_noted_from_when_the_queue_has_them() {
        let (inner, ends, queue, message) = fixture();
        let before = Instant::now();
        queue.send(&message, 0).await.expect("sent");
        queue.send(&message, 7).await.expect("sent");
        let after = Instant::now();
        assert_eq!(inner.sent(), vec![(message.clone(), 0), (message, 7)]);
        let end = ends.next().expect("noted");
        let seven = Duration::from_secs(7);
        assert!(
            before + seven <= end && end <= after + seven,
            "the end is seven seconds after the send returned"
        );
        assert_eq!(ends.take_past(end, 10), 1, "a message sent without delay needs no note");
    }

    #[tokio::test]
    async fn a_batch_goes_through_the_inner_batch_call_and_notes_its_sent_delayed_entries() {
        let (inner, ends, queue, message) = fixture();
        let before = Instant::now();
        let results = queue
            .send_batch(&[(message.clone(), 0), (message.clone(), 901), (message.clone(), 5)])
            .await;
        let after = Instant::now();
        assert_eq!(
            results.iter().map(Result::is_ok).collect::<Vec<_>>(),
            [true, false, true]
        );
        assert_eq!(inner.sent(), vec![(message.clone(), 0), (message, 5)]);
        let end = ends.next().expect("noted");
        let five = Duration::from_secs(5);
        assert!(before + five <= end && end <= after + five);
        assert_eq!(
            ends.take_past(after + Duration::from_secs(1000), 10),
            1,
            "one note, for the delayed entry sent"
        );
    }

    #[tokio::test]
    async fn a_refused_send_is_not_noted() {
        let (_, ends, queue, message) = fixture();
        assert!(
            queue.send(&message, 901).await.is_err(),
            "SQS refuses delays over 900 s"
        );
        assert_eq!(ends.next(), None);
    }
}
