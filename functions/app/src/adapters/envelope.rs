//! [`EnvelopeSealer`], the [`CredentialSealer`] over a [`DataKeySource`]: one data
//! key per tenant, fetched once per instance (the key service is asked again only
//! after a failed fetch), then every value sealed and opened locally with it
//! (`courier_core::sealing`). The AWS adapter's source is KMS with the wrapped key
//! kept in the table; the in-memory one is for tests.

use crate::ports::{CredentialSealer, SealError, SecretSource};
use async_trait::async_trait;
use courier_core::ids::TenantId;
use courier_core::sealing::{DataKey, NONCE_LEN, Scope, SealedValue};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::OnceCell;

/// Where a tenant's data key comes from.
#[async_trait]
pub trait DataKeySource: Send + Sync {
    /// The tenant's data key in the clear: the one stored for it, opened, or a new
    /// one made and stored when it has none (two instances racing keep one).
    async fn data_key(&self, tenant: &TenantId) -> Result<DataKey, SealError>;
}

/// Data keys cached per tenant for the life of the instance.
pub struct EnvelopeSealer<S> {
    source: S,
    nonces: Arc<dyn SecretSource>,
    /// A tenant's first users wait for one fetch instead of each making their own;
    /// a failed fetch leaves the cell empty, so the next use tries again.
    keys: Mutex<HashMap<String, Arc<OnceCell<Arc<DataKey>>>>>,
}

impl<S: DataKeySource> EnvelopeSealer<S> {
    /// Nonces come from `nonces` (the operating system's CSPRNG in production).
    pub fn new(source: S, nonces: Arc<dyn SecretSource>) -> Self {
        EnvelopeSealer {
            source,
            nonces,
            keys: Mutex::default(),
        }
    }

    pub fn source(&self) -> &S {
        &self.source
    }

    async fn key(&self, tenant: &str) -> Result<Arc<DataKey>, SealError> {
        let cell = {
            let mut keys = self.keys.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            keys.entry(tenant.to_owned()).or_default().clone()
        };
        let tenant = TenantId::parse(tenant).map_err(|_| SealError::Refused)?;
        cell.get_or_try_init(|| async { self.source.data_key(&tenant).await.map(Arc::new) })
            .await
            .cloned()
    }
}

#[async_trait]
impl<S: DataKeySource> CredentialSealer for EnvelopeSealer<S> {
    async fn seal(&self, scope: Scope<'_>, plaintext: &str) -> Result<SealedValue, SealError> {
        let key = self.key(scope.tenant).await?;
        let mut nonce = [0u8; NONCE_LEN];
        self.nonces.fill(&mut nonce);
        Ok(key.seal(nonce, &scope, plaintext))
    }

    async fn open(&self, scope: Scope<'_>, sealed: &SealedValue) -> Result<String, SealError> {
        let key = self.key(scope.tenant).await?;
        key.open(&scope, sealed).map_err(|_| SealError::Refused)
    }
}
