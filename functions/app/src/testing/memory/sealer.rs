//! The in-memory data key source: a random data key per tenant kept in a map (the
//! key service and the wrapped-key item at once), counting the key service
//! requests the AWS adapter would make, and a switch that makes it unreachable.

use crate::adapters::envelope::{DataKeySource, EnvelopeSealer};
use crate::ports::{SealError, SecretSource};
use async_trait::async_trait;
use courier_core::ids::TenantId;
use courier_core::sealing::{DATA_KEY_LEN, DataKey};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Tenants' data keys, as the key service would keep them (shared by clones, so two
/// sealers over one source act as two instances of one deployment).
#[derive(Clone)]
pub struct MemoryDataKeys {
    keys: Arc<Mutex<HashMap<TenantId, [u8; DATA_KEY_LEN]>>>,
    secrets: Arc<dyn SecretSource>,
    requests: Arc<AtomicU64>,
    unavailable: Arc<AtomicBool>,
}

impl MemoryDataKeys {
    pub fn new(secrets: Arc<dyn SecretSource>) -> Self {
        MemoryDataKeys {
            keys: Arc::default(),
            secrets,
            requests: Arc::default(),
            unavailable: Arc::default(),
        }
    }

    /// Key service requests so far (one per data key made or opened).
    pub fn requests(&self) -> u64 {
        self.requests.load(Ordering::SeqCst)
    }

    /// Makes every later request fail as an unreachable key service would.
    pub fn set_unavailable(&self, unavailable: bool) {
        self.unavailable.store(unavailable, Ordering::SeqCst);
    }
}

#[async_trait]
impl DataKeySource for MemoryDataKeys {
    async fn data_key(&self, tenant: &TenantId) -> Result<DataKey, SealError> {
        if self.unavailable.load(Ordering::SeqCst) {
            return Err(SealError::Unavailable(
                "the key service is unreachable (test switch)".into(),
            ));
        }
        self.requests.fetch_add(1, Ordering::SeqCst);
        let bytes = *self
            .keys
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(tenant.clone())
            .or_insert_with(|| {
                let mut k = [0u8; DATA_KEY_LEN];
                self.secrets.fill(&mut k);
                k
            });
        DataKey::new(format!("mem-{tenant}"), &bytes).map_err(|_| SealError::Refused)
    }
}

/// The in-memory [`crate::ports::CredentialSealer`].
pub type MemorySealer = EnvelopeSealer<MemoryDataKeys>;

impl MemorySealer {
    /// A sealer with keys and nonces from `secrets`.
    pub fn in_memory(secrets: Arc<dyn SecretSource>) -> Self {
        EnvelopeSealer::new(MemoryDataKeys::new(secrets.clone()), secrets)
    }
}
