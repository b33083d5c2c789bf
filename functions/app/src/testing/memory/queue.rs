//! `MemoryQueue`: an SQS stand-in that keeps what was sent and when it becomes
//! visible, and can be told to fail.

use super::*;

/// A message sitting in a [`MemoryQueue`].
#[derive(Debug, Clone, PartialEq)]
pub struct QueuedMessage {
    pub message: DeliveryMessage,
    pub delay_seconds: u32,
    pub sent_at: Timestamp,
    pub visible_at: Timestamp,
}

#[derive(Default)]
struct QueueState {
    waiting: Vec<QueuedMessage>,
    sent: Vec<(DeliveryMessage, u32)>,
    failures: u32,
    /// Fan-out steps waiting, in send order.
    steps: Vec<crate::domain::fanout_message::FanoutStep>,
    /// Fan-out steps sent with a delay (watches), in send order.
    delayed_steps: Vec<crate::domain::fanout_message::FanoutStep>,
}

/// The delivery queue in memory: messages become visible `delay_seconds` after the
/// injected clock's "now" at send time. Delays over 900 s are refused, like SQS.
pub struct MemoryQueue {
    clock: Arc<dyn Clock>,
    state: Mutex<QueueState>,
}

impl MemoryQueue {
    pub fn new(clock: Arc<dyn Clock>) -> Self {
        MemoryQueue {
            clock,
            state: Mutex::new(QueueState::default()),
        }
    }

    /// Removes and returns every message visible at `now` (visible-at order, then
    /// send order), each with the delay it was sent with.
    pub fn drain_visible(&self, now: Timestamp) -> Vec<(DeliveryMessage, u32)> {
        self.drain_visible_full(now)
            .into_iter()
            .map(|q| (q.message, q.delay_seconds))
            .collect()
    }

    /// Like [`Self::drain_visible`], with send and visibility times.
    pub fn drain_visible_full(&self, now: Timestamp) -> Vec<QueuedMessage> {
        let mut st = lock(&self.state);
        let (mut due, keep): (Vec<QueuedMessage>, Vec<QueuedMessage>) = std::mem::take(&mut st.waiting)
            .into_iter()
            .partition(|q| q.visible_at <= now);
        st.waiting = keep;
        due.sort_by_key(|q| q.visible_at);
        due
    }

    /// Messages not yet drained, in send order.
    pub fn waiting(&self) -> Vec<QueuedMessage> {
        lock(&self.state).waiting.clone()
    }

    /// Every message ever sent, in send order, with its delay.
    pub fn sent(&self) -> Vec<(DeliveryMessage, u32)> {
        lock(&self.state).sent.clone()
    }

    /// When the earliest waiting message becomes visible.
    pub fn next_visible_at(&self) -> Option<Timestamp> {
        lock(&self.state).waiting.iter().map(|q| q.visible_at).min()
    }

    pub fn len(&self) -> usize {
        lock(&self.state).waiting.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Removes and returns the fan-out steps sent so far, in send order.
    pub fn drain_fanout(&self) -> Vec<crate::domain::fanout_message::FanoutStep> {
        std::mem::take(&mut lock(&self.state).steps)
    }

    /// The fan-out steps sent with a delay (watch copies), as if it had passed.
    pub fn drain_delayed_fanout(&self) -> Vec<crate::domain::fanout_message::FanoutStep> {
        std::mem::take(&mut lock(&self.state).delayed_steps)
    }

    /// Makes the next `n` sends fail with `PortError::Unavailable`.
    pub fn fail_next(&self, n: u32) {
        lock(&self.state).failures = n;
    }
}

#[async_trait]
impl Queue for MemoryQueue {
    async fn send(&self, message: &DeliveryMessage, delay_seconds: u32) -> PortResult<()> {
        let mut st = lock(&self.state);
        if st.failures > 0 {
            st.failures -= 1;
            return Err(PortError::Unavailable(Box::new(InjectedFailure)));
        }
        if delay_seconds > MAX_DELAY_SECONDS {
            return Err(PortError::Backend(Box::new(DelayOutOfRange(delay_seconds))));
        }
        let now = self.clock.now();
        st.waiting.push(QueuedMessage {
            message: message.clone(),
            delay_seconds,
            sent_at: now,
            visible_at: now.plus_secs(i64::from(delay_seconds)),
        });
        st.sent.push((message.clone(), delay_seconds));
        Ok(())
    }
}

#[async_trait]
impl FanoutQueue for MemoryQueue {
    /// Delayed steps are kept apart ([`MemoryQueue::drain_delayed_fanout`]): tests
    /// choose when their delay has passed.
    async fn send_fanout(
        &self,
        step: &crate::domain::fanout_message::FanoutStep,
        delay_seconds: u32,
    ) -> PortResult<()> {
        let mut st = lock(&self.state);
        if st.failures > 0 {
            st.failures -= 1;
            return Err(PortError::Unavailable(Box::new(InjectedFailure)));
        }
        if delay_seconds > 0 {
            st.delayed_steps.push(step.clone());
        } else {
            st.steps.push(step.clone());
        }
        Ok(())
    }
}
