//! `MemoryTimer`: an EventBridge Scheduler stand-in holding one-shot schedules by name.

use super::*;

/// A one-shot schedule held by a [`MemoryTimer`].
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduledMessage {
    pub name: String,
    pub at: Timestamp,
    pub message: DeliveryMessage,
}

#[derive(Default)]
struct TimerState {
    schedules: BTreeMap<String, ScheduledMessage>,
    created: Vec<ScheduledMessage>,
    failures: u32,
}

/// Scheduler in memory: one-shot schedules by name. Creating a name that exists is a
/// no-op (the first schedule stays), as the Scheduler adapter treats its conflict.
#[derive(Default)]
pub struct MemoryTimer {
    state: Mutex<TimerState>,
}

impl MemoryTimer {
    pub fn new() -> Self {
        Self::default()
    }

    /// Schedules due at `now` (`at <= now`), earliest first, without removing them.
    pub fn due(&self, now: Timestamp) -> Vec<ScheduledMessage> {
        let mut v: Vec<ScheduledMessage> = lock(&self.state)
            .schedules
            .values()
            .filter(|s| s.at <= now)
            .cloned()
            .collect();
        v.sort_by(|a, b| (a.at, &a.name).cmp(&(b.at, &b.name)));
        v
    }

    /// Removes and returns the schedules due at `now`, as Scheduler fires them and
    /// `ActionAfterCompletion: DELETE` removes them.
    pub fn take_due(&self, now: Timestamp) -> Vec<ScheduledMessage> {
        let due = self.due(now);
        let mut st = lock(&self.state);
        for s in &due {
            st.schedules.remove(&s.name);
        }
        due
    }

    /// Every schedule not yet taken, by name.
    pub fn pending(&self) -> Vec<ScheduledMessage> {
        lock(&self.state).schedules.values().cloned().collect()
    }

    /// Every schedule ever created (repeats excluded), in creation order.
    pub fn created(&self) -> Vec<ScheduledMessage> {
        lock(&self.state).created.clone()
    }

    pub fn delete(&self, name: &str) -> bool {
        lock(&self.state).schedules.remove(name).is_some()
    }

    /// Makes the next `n` schedule calls fail with `PortError::Unavailable`.
    pub fn fail_next(&self, n: u32) {
        lock(&self.state).failures = n;
    }
}

#[async_trait]
impl Timer for MemoryTimer {
    async fn schedule(&self, name: &str, at: Timestamp, message: &DeliveryMessage) -> PortResult<()> {
        let mut st = lock(&self.state);
        if st.failures > 0 {
            st.failures -= 1;
            return Err(PortError::Unavailable(Box::new(InjectedFailure)));
        }
        if !valid_schedule_name(name) {
            return Err(PortError::Backend(Box::new(BadScheduleName(name.to_owned()))));
        }
        if st.schedules.contains_key(name) {
            return Ok(());
        }
        let s = ScheduledMessage {
            name: name.to_owned(),
            at,
            message: message.clone(),
        };
        st.schedules.insert(name.to_owned(), s.clone());
        st.created.push(s);
        Ok(())
    }
}
