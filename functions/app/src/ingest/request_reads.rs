//! Reads made once per request: the events of one batch request share their
//! endpoint and event-type reads (each a consistent read, billed per event
//! otherwise), as if the request had read them all at its start. Writes go through
//! and drop what they change from the request's copies.

use crate::domain::model::{Application, Endpoint, EventType, Page};
use crate::ports::{ApplicationStore, EndpointStore, PortResult};
use async_trait::async_trait;
use courier_core::Timestamp;
use courier_core::health::SmartHealth;
use courier_core::ids::{EndpointId, TenantId};
use std::collections::HashMap;
use std::future::Future;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// What a request has read, by key, absent items included. A failed read is not
/// kept, so the next use reads again.
struct Seen<K, V>(Mutex<HashMap<K, Option<V>>>);

impl<K: Eq + Hash, V: Clone> Seen<K, V> {
    fn new() -> Self {
        Seen(Mutex::new(HashMap::new()))
    }

    /// The value kept for `key`, else what `read` gives (then kept).
    async fn get_or_read(&self, key: K, read: impl Future<Output = PortResult<Option<V>>>) -> PortResult<Option<V>> {
        if let Some(known) = self.0.lock().ok().and_then(|s| s.get(&key).cloned()) {
            return Ok(known);
        }
        let value = read.await?;
        if let Ok(mut seen) = self.0.lock() {
            seen.insert(key, value.clone());
        }
        Ok(value)
    }

    fn forget(&self, key: &K) {
        if let Ok(mut seen) = self.0.lock() {
            seen.remove(key);
        }
    }
}

/// An [`EndpointStore`] that reads each endpoint at most once.
pub struct OnceEndpoints {
    inner: Arc<dyn EndpointStore>,
    seen: Seen<(TenantId, EndpointId), Endpoint>,
}

impl OnceEndpoints {
    pub fn new(inner: Arc<dyn EndpointStore>) -> Self {
        OnceEndpoints {
            inner,
            seen: Seen::new(),
        }
    }

    fn forget(&self, endpoint: &Endpoint) {
        self.seen.forget(&(endpoint.tenant_id.clone(), endpoint.id.clone()));
    }
}

#[async_trait]
impl EndpointStore for OnceEndpoints {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()> {
        self.forget(endpoint);
        self.inner.create_endpoint(endpoint).await
    }

    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
        let key = (tenant.clone(), id.clone());
        self.seen.get_or_read(key, self.inner.get_endpoint(tenant, id)).await
    }

    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
        self.forget(endpoint);
        self.inner.update_endpoint(endpoint, expected_version).await
    }

    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        self.inner.list_endpoints(tenant, cursor, limit).await
    }

    async fn scan_endpoints(&self, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        self.inner.scan_endpoints(cursor, limit).await
    }

    async fn note_smart_success(&self, tenant: &TenantId, id: &EndpointId, now: Timestamp) -> PortResult<bool> {
        self.seen.forget(&(tenant.clone(), id.clone()));
        self.inner.note_smart_success(tenant, id, now).await
    }

    async fn put_smart_health(
        &self,
        tenant: &TenantId,
        id: &EndpointId,
        expected: Option<&SmartHealth>,
        new: &SmartHealth,
    ) -> PortResult<()> {
        self.seen.forget(&(tenant.clone(), id.clone()));
        self.inner.put_smart_health(tenant, id, expected, new).await
    }
}

/// An [`ApplicationStore`] that reads each event type at most once.
pub struct OnceEventTypes {
    inner: Arc<dyn ApplicationStore>,
    seen: Seen<(TenantId, String), EventType>,
}

impl OnceEventTypes {
    pub fn new(inner: Arc<dyn ApplicationStore>) -> Self {
        OnceEventTypes {
            inner,
            seen: Seen::new(),
        }
    }

    fn forget(&self, event_type: &EventType) {
        self.seen
            .forget(&(event_type.tenant_id.clone(), event_type.name.clone()));
    }
}

#[async_trait]
impl ApplicationStore for OnceEventTypes {
    async fn create_application(&self, app: &Application) -> PortResult<()> {
        self.inner.create_application(app).await
    }

    async fn get_application(&self, tenant: &TenantId, id: &str) -> PortResult<Option<Application>> {
        self.inner.get_application(tenant, id).await
    }

    async fn get_application_by_uid(&self, tenant: &TenantId, uid: &str) -> PortResult<Option<Application>> {
        self.inner.get_application_by_uid(tenant, uid).await
    }

    async fn update_application(&self, app: &Application, expected_version: u64) -> PortResult<()> {
        self.inner.update_application(app, expected_version).await
    }

    async fn delete_application(&self, tenant: &TenantId, id: &str) -> PortResult<bool> {
        self.inner.delete_application(tenant, id).await
    }

    async fn list_applications(
        &self,
        tenant: &TenantId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Application>> {
        self.inner.list_applications(tenant, cursor, limit).await
    }

    async fn create_event_type(&self, event_type: &EventType) -> PortResult<()> {
        self.forget(event_type);
        self.inner.create_event_type(event_type).await
    }

    async fn get_event_type(&self, tenant: &TenantId, name: &str) -> PortResult<Option<EventType>> {
        let key = (tenant.clone(), name.to_owned());
        self.seen
            .get_or_read(key, self.inner.get_event_type(tenant, name))
            .await
    }

    async fn update_event_type(&self, event_type: &EventType) -> PortResult<()> {
        self.forget(event_type);
        self.inner.update_event_type(event_type).await
    }

    async fn list_event_types(
        &self,
        tenant: &TenantId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<EventType>> {
        self.inner.list_event_types(tenant, cursor, limit).await
    }

    async fn put_portal_activity(&self, activity: &crate::domain::model::PortalActivity) -> PortResult<()> {
        self.inner.put_portal_activity(activity).await
    }

    async fn list_portal_activity(
        &self,
        tenant: &TenantId,
        application: Option<&str>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<crate::domain::model::PortalActivity>> {
        self.inner
            .list_portal_activity(tenant, application, cursor, limit)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::contract::{Ids, T0, sample_endpoint};
    use crate::testing::memory::{ManualClock, MemoryApplications, MemoryStore};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Counts the reads that reach the store.
    struct Counted<S> {
        inner: S,
        reads: AtomicUsize,
    }

    #[async_trait]
    impl EndpointStore for Counted<MemoryStore> {
        async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()> {
            self.inner.create_endpoint(endpoint).await
        }
        async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
            self.reads.fetch_add(1, Ordering::SeqCst);
            self.inner.get_endpoint(tenant, id).await
        }
        async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
            self.inner.update_endpoint(endpoint, expected_version).await
        }
        async fn list_endpoints(&self, t: &TenantId, c: Option<&str>, l: u32) -> PortResult<Page<Endpoint>> {
            self.inner.list_endpoints(t, c, l).await
        }
    }

    #[tokio::test]
    async fn an_endpoint_is_read_once_and_again_after_a_write_through_it() {
        let counted = Arc::new(Counted {
            inner: MemoryStore::new(Arc::new(ManualClock::new(T0))),
            reads: AtomicUsize::new(0),
        });
        let ids = Ids::new();
        let tenant = ids.tenant();
        let e = sample_endpoint(&tenant, &ids.endpoint(), T0);
        let missing = ids.endpoint();
        counted.create_endpoint(&e).await.expect("create");
        let once = OnceEndpoints::new(counted.clone());
        for _ in 0..3 {
            assert_eq!(once.get_endpoint(&tenant, &e.id).await.expect("get"), Some(e.clone()));
            assert_eq!(once.get_endpoint(&tenant, &missing).await.expect("get"), None);
        }
        assert_eq!(counted.reads.load(Ordering::SeqCst), 2);
        let changed = Endpoint {
            description: Some("changed".into()),
            version: e.version + 1,
            ..e.clone()
        };
        once.update_endpoint(&changed, e.version).await.expect("update");
        assert_eq!(once.get_endpoint(&tenant, &e.id).await.expect("get"), Some(changed));
        assert_eq!(counted.reads.load(Ordering::SeqCst), 3);
    }

    #[tokio::test]
    async fn an_event_type_is_read_once_and_again_after_a_write_through_it() {
        let inner = Arc::new(MemoryApplications::new());
        let once = OnceEventTypes::new(inner.clone());
        let tenant = Ids::new().tenant();
        let absent = once.get_event_type(&tenant, "invoice.paid").await.expect("get");
        assert_eq!(absent, None);
        let t = EventType {
            name: "invoice.paid".into(),
            tenant_id: tenant.clone(),
            description: None,
            deprecated: false,
            schema: None,
            example: None,
            created_at: T0,
            updated_at: T0,
        };
        // Created behind its back: the request keeps what it read.
        inner.create_event_type(&t).await.expect("create");
        assert_eq!(once.get_event_type(&tenant, "invoice.paid").await.expect("get"), None);
        // Written through it: read again.
        let described = EventType {
            description: Some("paid".into()),
            ..t.clone()
        };
        once.update_event_type(&described).await.expect("update");
        assert_eq!(
            once.get_event_type(&tenant, "invoice.paid").await.expect("get"),
            Some(described)
        );
    }
}
