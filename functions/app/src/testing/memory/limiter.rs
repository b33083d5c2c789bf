//! `MemoryLimiter`: the limiter port's state in a map behind a lock, deciding with
//! the same `courier_core::limiter` rules as the DynamoDB adapter.

use super::*;
use crate::ports::limiter::{Admission, Limiter};
use courier_core::limiter::{Admit, LimitState, Limits, admit, release};

#[derive(Default)]
pub struct MemoryLimiter {
    states: Mutex<HashMap<(TenantId, EndpointId), LimitState>>,
    calls: AtomicU32,
}

impl MemoryLimiter {
    pub fn new() -> Self {
        Self::default()
    }

    /// How many acquires and releases were asked (tests count the store's work).
    pub fn calls(&self) -> u32 {
        self.calls.load(Ordering::SeqCst)
    }

    /// The endpoint's live slot ids at `now`.
    pub fn slots(&self, tenant: &TenantId, endpoint: &EndpointId, now: Timestamp) -> Vec<String> {
        lock(&self.states)
            .get(&(tenant.clone(), endpoint.clone()))
            .map(|s| {
                s.slots
                    .iter()
                    .filter(|(_, lease)| **lease > now)
                    .map(|(k, _)| k.clone())
                    .collect()
            })
            .unwrap_or_default()
    }
}

#[async_trait]
impl Limiter for MemoryLimiter {
    async fn acquire(
        &self,
        tenant: &TenantId,
        endpoint: &EndpointId,
        limits: &Limits,
        slot: &str,
        lease_until: Timestamp,
        now: Timestamp,
    ) -> PortResult<Admission> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let mut states = lock(&self.states);
        let state = states.entry((tenant.clone(), endpoint.clone())).or_default();
        Ok(match admit(limits, state, slot, lease_until, now) {
            Admit::Granted { state: next } => {
                *state = next;
                Admission::Granted
            }
            Admit::Held { until, cause } => Admission::Held { until, cause },
        })
    }

    async fn release(&self, tenant: &TenantId, endpoint: &EndpointId, slot: &str) -> PortResult<()> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let mut states = lock(&self.states);
        if let Some(state) = states.get_mut(&(tenant.clone(), endpoint.clone()))
            && let Some(next) = release(state, slot)
        {
            *state = next;
        }
        Ok(())
    }
}
