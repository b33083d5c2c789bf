//! Tenants' data key items: `DEK#<tenantId>` / `DEK`, holding the tenant's data key
//! as the key service wrapped it (`blob`, Binary) and its id (`kid`). Written once,
//! conditionally, so two instances making a tenant's first key keep one.

use super::*;

fn data_key_pk(tenant: &TenantId) -> String {
    format!("DEK#{tenant}")
}

impl DynamoStore {
    /// The tenant's wrapped data key and its id, when it has one.
    pub async fn data_key_item(&self, tenant: &TenantId) -> PortResult<Option<(String, Vec<u8>)>> {
        let Some(item) = self.get(data_key_pk(tenant), "DEK").await? else {
            return Ok(None);
        };
        let kid = get_s(&item, "kid").ok_or_else(|| corrupt("data key item lacks kid"))?;
        let blob = match item.get("blob") {
            Some(AttributeValue::B(b)) => b.as_ref().to_vec(),
            _ => return Err(corrupt("data key item lacks blob")),
        };
        Ok(Some((kid.to_owned(), blob)))
    }

    /// Stores the tenant's wrapped data key unless it has one; `false` when another
    /// writer came first (read theirs).
    pub async fn put_data_key_item(
        &self,
        tenant: &TenantId,
        kid: &str,
        blob: &[u8],
        key_arn: &str,
    ) -> PortResult<bool> {
        let mut item = key(data_key_pk(tenant), "DEK");
        item.insert("kid".into(), AttributeValue::S(kid.to_owned()));
        item.insert(
            "blob".into(),
            AttributeValue::B(aws_sdk_dynamodb::primitives::Blob::new(blob)),
        );
        item.insert("keyArn".into(), AttributeValue::S(key_arn.to_owned()));
        item.insert("tenantId".into(), AttributeValue::S(tenant.to_string()));
        self.put_new(item).await
    }
}
