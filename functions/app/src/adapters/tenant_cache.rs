//! A per-instance cache of API-key lookups in front of a `TenantStore`.
//!
//! Every API request authenticates, and without this each one pays a DynamoDB read
//! before it does any work. Keys are never changed in place (a tenant gets new keys
//! with `courier-admin`; there is no API to move a key to another tenant), so a hit
//! can only be stale for a key deleted from the table by hand: it keeps working on
//! a warm instance for at most `ttl`. That is the trade API Gateway's own authorizer
//! cache makes (300 s by default); ours is shorter. Unknown keys are never cached,
//! so a freshly created key works at once and `/healthz` still reaches the table.
//! Nor are the table's other items, named `<kind>#<id>` (portal links): they are
//! revoked in place, and another instance's cache would not hear of it.

use crate::domain::model::Tenant;
use crate::ports::{Clock, PortResult, TenantStore};
use async_trait::async_trait;
use courier_core::Timestamp;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How long a successful lookup is reused.
pub const AUTH_CACHE_TTL_SECS: i64 = 60;
/// Keys remembered at most; the cache is emptied when full (it refills in one
/// request per active key, and bounds memory whatever keys clients present).
pub const AUTH_CACHE_MAX_KEYS: usize = 1024;

pub struct CachedTenants {
    inner: Arc<dyn TenantStore>,
    clock: Arc<dyn Clock>,
    ttl_ms: i64,
    entries: Mutex<HashMap<String, (Tenant, Timestamp)>>,
}

impl CachedTenants {
    pub fn new(inner: Arc<dyn TenantStore>, clock: Arc<dyn Clock>) -> Self {
        Self::with_ttl_secs(inner, clock, AUTH_CACHE_TTL_SECS)
    }

    /// A TTL of 0 turns the cache off.
    pub fn with_ttl_secs(inner: Arc<dyn TenantStore>, clock: Arc<dyn Clock>, ttl_secs: i64) -> Self {
        CachedTenants {
            inner,
            clock,
            ttl_ms: ttl_secs.saturating_mul(1000),
            entries: Mutex::new(HashMap::new()),
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Tenant, Timestamp)>> {
        // A poisoned map is only a cache: keep using it.
        self.entries.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[async_trait]
impl TenantStore for CachedTenants {
    async fn put_tenant_key(&self, key_hash: &str, tenant: &Tenant) -> PortResult<()> {
        self.entries().remove(key_hash);
        self.inner.put_tenant_key(key_hash, tenant).await
    }

    async fn put_expiring_key(&self, key_hash: &str, tenant: &Tenant, expires_at: i64) -> PortResult<()> {
        self.entries().remove(key_hash);
        self.inner.put_expiring_key(key_hash, tenant, expires_at).await
    }

    async fn tenant_by_key(&self, key_hash: &str) -> PortResult<Option<Tenant>> {
        if key_hash.contains('#') {
            return self.inner.tenant_by_key(key_hash).await;
        }
        let now = self.clock.now();
        if let Some((tenant, fetched)) = self.entries().get(key_hash)
            && now.millis_since(*fetched) < self.ttl_ms
            && now >= *fetched
        {
            return Ok(Some(tenant.clone()));
        }
        let found = self.inner.tenant_by_key(key_hash).await?;
        let mut entries = self.entries();
        match &found {
            Some(tenant) if self.ttl_ms > 0 => {
                if entries.len() >= AUTH_CACHE_MAX_KEYS && !entries.contains_key(key_hash) {
                    entries.clear();
                }
                entries.insert(key_hash.to_owned(), (tenant.clone(), now));
            }
            _ => {
                entries.remove(key_hash);
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::memory::{ManualClock, MemoryStore};
    use courier_core::ids::TenantId;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts lookups that reach the store behind the cache.
    struct Counting {
        store: MemoryStore,
        lookups: AtomicUsize,
    }

    #[async_trait]
    impl TenantStore for Counting {
        async fn put_tenant_key(&self, key_hash: &str, tenant: &Tenant) -> PortResult<()> {
            self.store.put_tenant_key(key_hash, tenant).await
        }
        async fn put_expiring_key(&self, key_hash: &str, tenant: &Tenant, expires_at: i64) -> PortResult<()> {
            self.store.put_expiring_key(key_hash, tenant, expires_at).await
        }
        async fn tenant_by_key(&self, key_hash: &str) -> PortResult<Option<Tenant>> {
            self.lookups.fetch_add(1, Ordering::SeqCst);
            self.store.tenant_by_key(key_hash).await
        }
    }

    const T0: Timestamp = Timestamp::from_millis(1_800_000_000_000);

    fn tenant(name: &str) -> Tenant {
        Tenant {
            id: TenantId::parse("ten_01HZX0000000000000000000AA").expect("tenant id"),
            name: name.to_owned(),
        }
    }

    fn setup(ttl: i64) -> (Arc<Counting>, Arc<ManualClock>, CachedTenants) {
        let clock = Arc::new(ManualClock::new(T0));
        let inner = Arc::new(Counting {
            store: MemoryStore::new(clock.clone()),
            lookups: AtomicUsize::new(0),
        });
        let cache = CachedTenants::with_ttl_secs(inner.clone(), clock.clone(), ttl);
        (inner, clock, cache)
    }

    #[tokio::test]
    async fn a_known_key_is_read_once_per_ttl() {
        let (inner, clock, cache) = setup(60);
        cache.put_tenant_key("k1", &tenant("acme")).await.expect("put");
        for _ in 0..3 {
            assert_eq!(cache.tenant_by_key("k1").await.expect("get"), Some(tenant("acme")));
        }
        assert_eq!(inner.lookups.load(Ordering::SeqCst), 1);
        clock.advance_millis(59_999);
        assert_eq!(cache.tenant_by_key("k1").await.expect("get"), Some(tenant("acme")));
        assert_eq!(inner.lookups.load(Ordering::SeqCst), 1);
        clock.advance_millis(1);
        assert_eq!(cache.tenant_by_key("k1").await.expect("get"), Some(tenant("acme")));
        assert_eq!(
            inner.lookups.load(Ordering::SeqCst),
            2,
            "at the TTL the key is read again"
        );
    }

    #[tokio::test]
    async fn unknown_keys_are_never_cached() {
        let (inner, _clock, cache) = setup(60);
        assert_eq!(cache.tenant_by_key("k2").await.expect("get"), None);
        inner
            .store
            .put_tenant_key("k2", &tenant("late"))
            .await
            .expect("put behind the cache");
        assert_eq!(cache.tenant_by_key("k2").await.expect("get"), Some(tenant("late")));
        assert_eq!(inner.lookups.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn items_that_are_not_key_hashes_are_read_every_time() {
        let (inner, _clock, cache) = setup(60);
        cache.put_tenant_key("portal#pl_1", &tenant("link")).await.expect("put");
        assert_eq!(
            cache.tenant_by_key("portal#pl_1").await.expect("get"),
            Some(tenant("link"))
        );
        inner
            .store
            .put_tenant_key("portal#pl_1", &tenant("revoked"))
            .await
            .expect("rewritten behind the cache, as by another instance");
        assert_eq!(
            cache.tenant_by_key("portal#pl_1").await.expect("get"),
            Some(tenant("revoked"))
        );
        assert_eq!(inner.lookups.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_ttl_of_zero_reads_every_time() {
        let (inner, _clock, cache) = setup(0);
        cache.put_tenant_key("k3", &tenant("acme")).await.expect("put");
        cache.tenant_by_key("k3").await.expect("get");
        cache.tenant_by_key("k3").await.expect("get");
        assert_eq!(inner.lookups.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_clock_going_back_reads_again() {
        let (inner, clock, cache) = setup(60);
        cache.put_tenant_key("k4", &tenant("acme")).await.expect("put");
        cache.tenant_by_key("k4").await.expect("get");
        clock.set(Timestamp::from_millis(T0.millis() - 1));
        cache.tenant_by_key("k4").await.expect("get");
        assert_eq!(inner.lookups.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_full_cache_starts_over_instead_of_growing() {
        let (inner, _clock, cache) = setup(60);
        for i in 0..=AUTH_CACHE_MAX_KEYS {
            inner
                .store
                .put_tenant_key(&format!("k{i}"), &tenant("t"))
                .await
                .expect("put");
            cache.tenant_by_key(&format!("k{i}")).await.expect("get");
        }
        assert_eq!(cache.entries().len(), 1, "emptied when full, then the new key kept");
        cache.tenant_by_key("k0").await.expect("get");
        assert_eq!(inner.lookups.load(Ordering::SeqCst), AUTH_CACHE_MAX_KEYS + 2);
    }
}
