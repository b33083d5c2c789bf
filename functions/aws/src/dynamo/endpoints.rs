//! `EndpointStore` over the table: endpoint items under their tenant, versioned.

use super::*;

#[async_trait]
impl EndpointStore for DynamoStore {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()> {
        let mut item = key(tenant_pk(&endpoint.tenant_id), &endpoint_sk(&endpoint.id));
        item.insert(DATA.to_owned(), s(to_json(endpoint)?));
        item.insert(VERSION.to_owned(), n(endpoint.version));
        if self.put_new(item).await? {
            Ok(())
        } else {
            Err(PortError::Conflict(format!("endpoint {} already exists", endpoint.id)))
        }
    }

    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
        match self.get(tenant_pk(tenant), &endpoint_sk(id)).await? {
            None => Ok(None),
            Some(item) => Ok(Some(from_json(&item, "endpoint")?)),
        }
    }

    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
        let mut item = key(tenant_pk(&endpoint.tenant_id), &endpoint_sk(&endpoint.id));
        item.insert(DATA.to_owned(), s(to_json(endpoint)?));
        item.insert(VERSION.to_owned(), n(endpoint.version));
        let written = self
            .put_if(
                item,
                "attribute_exists(PK) AND #v = :expected",
                Some(names(&[("#v", VERSION)])),
                Some(HashMap::from([(":expected".to_owned(), n(expected_version))])),
            )
            .await?;
        if written {
            Ok(())
        } else {
            Err(PortError::Conflict(format!(
                "endpoint {} is missing or not at version {expected_version}",
                endpoint.id
            )))
        }
    }

    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        let spec = QuerySpec {
            index: None,
            pk: (PK, tenant_pk(tenant)),
            sk_attr: SK,
            sk_cond: Some(SortCondition::Prefix("EP#")),
            forward: true,
            ttl_filter: false,
            consistent: true,
            status_filter: None,
        };
        self.page(spec, cursor, limit, |items| async move {
            items
                .into_iter()
                .map(|i| {
                    let e: Endpoint = from_json(&i, "endpoint")?;
                    Ok((i, e))
                })
                .collect()
        })
        .await
    }
}
