//! `TenantStore` over the table: API-key items naming their tenant (portal links'
//! with a TTL).

use super::*;

#[async_trait]
impl TenantStore for DynamoStore {
    async fn put_tenant_key(&self, key_hash: &str, tenant: &Tenant) -> PortResult<()> {
        let mut item = key(tenant_key_pk(key_hash), TENANT_KEY_SK);
        item.insert(DATA.to_owned(), s(to_json(tenant)?));
        item.insert(TENANT_ID.to_owned(), s(tenant.id.as_str()));
        self.put(item).await
    }

    async fn put_expiring_key(&self, key_hash: &str, tenant: &Tenant, expires_at: i64) -> PortResult<()> {
        let mut item = key(tenant_key_pk(key_hash), TENANT_KEY_SK);
        item.insert(DATA.to_owned(), s(to_json(tenant)?));
        item.insert(TENANT_ID.to_owned(), s(tenant.id.as_str()));
        item.insert(TTL_ATTR.to_owned(), n(expires_at));
        self.put(item).await
    }

    async fn tenant_by_key(&self, key_hash: &str) -> PortResult<Option<Tenant>> {
        // Keys put with an expiry (portal links) are gone from then on.
        match self.get_live(tenant_key_pk(key_hash), TENANT_KEY_SK).await? {
            None => Ok(None),
            Some(item) => Ok(Some(from_json(&item, "tenant")?)),
        }
    }
}
