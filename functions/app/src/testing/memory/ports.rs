//! The in-memory composition: every port served by a fake, kept as typed handles a
//! test inspects, and filled into [`Ports`] as `courier_aws::Deployment` fills it
//! from AWS. A test that needs one port served differently clones the `Ports` and
//! replaces that field.

use crate::ports::{AdmissionRefusal, DestinationSender, HttpSender, UrlAdmission};
use crate::testing::memory::{
    FixedSecrets, ManualClock, MemoryApplications, MemoryLimiter, MemoryQueue, MemoryRecurring, MemorySchedules,
    MemorySealer, MemoryStore, MemoryTimer, SeededRandom,
};
use crate::wiring::{Outbound, Ports};
use async_trait::async_trait;
use std::sync::Arc;

/// The fakes behind [`MemoryPorts::ports`].
pub struct MemoryPorts {
    pub clock: Arc<ManualClock>,
    pub store: Arc<MemoryStore>,
    pub applications: Arc<MemoryApplications>,
    pub queue: Arc<MemoryQueue>,
    pub timer: Arc<MemoryTimer>,
    pub schedules: Arc<MemorySchedules>,
    pub recurring: Arc<MemoryRecurring>,
    pub limiter: Arc<MemoryLimiter>,
    /// One sealer for the API and the sender, as one process caches its data keys once.
    pub sealer: Arc<MemorySealer>,
}

impl MemoryPorts {
    pub fn new(clock: Arc<ManualClock>) -> Self {
        MemoryPorts {
            store: Arc::new(MemoryStore::new(clock.clone())),
            applications: Arc::new(MemoryApplications::new()),
            queue: Arc::new(MemoryQueue::new(clock.clone())),
            timer: Arc::new(MemoryTimer::new()),
            schedules: Arc::new(MemorySchedules::new()),
            recurring: Arc::new(MemoryRecurring::new()),
            limiter: Arc::new(MemoryLimiter::new()),
            sealer: Arc::new(MemorySealer::in_memory(Arc::new(FixedSecrets::new(13)))),
            clock,
        }
    }

    /// Every port over these fakes: ids from a seeded source, secrets from fixed
    /// ones, every URL admitted, API keys read from the store (no cache).
    pub fn ports(&self) -> Ports {
        Ports {
            tenants: self.store.clone(),
            endpoints: self.store.clone(),
            deliveries: self.store.clone(),
            idempotency: self.store.clone(),
            applications: self.applications.clone(),
            subscriptions: self.store.clone(),
            schedules: self.schedules.clone(),
            recurring: self.recurring.clone(),
            queue: self.queue.clone(),
            timer: self.timer.clone(),
            steps: self.queue.clone(),
            sealer: self.sealer.clone(),
            admission: Arc::new(AdmitAll),
            clock: self.clock.clone(),
            random: Arc::new(SeededRandom::new(1)),
            secrets: Arc::new(FixedSecrets::new(7)),
        }
    }

    /// The sender's own ports: `http` and `destinations` as the test scripts them,
    /// and the in-memory limiter.
    pub fn outbound(&self, http: Arc<dyn HttpSender>, destinations: Arc<dyn DestinationSender>) -> Outbound {
        Outbound {
            http,
            destinations,
            limiter: self.limiter.clone(),
        }
    }
}

/// Admits every URL as it is given.
pub struct AdmitAll;

#[async_trait]
impl UrlAdmission for AdmitAll {
    async fn admit(&self, url: &str) -> Result<String, AdmissionRefusal> {
        Ok(url.to_owned())
    }
}
