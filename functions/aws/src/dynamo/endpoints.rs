//! `EndpointStore` over the table: endpoint items under their tenant, versioned,
//! each written together with its subscription index entries (`subscriptions.rs`).

use super::subscriptions::{SUB_SIG, endpoint_item, stored_sks};
use super::*;
use aws_sdk_dynamodb::operation::put_item::PutItemError;

/// `TransactWriteItems` takes at most this many actions.
const MAX_ACTIONS: usize = 100;

#[async_trait]
impl EndpointStore for DynamoStore {
    async fn create_endpoint(&self, endpoint: &Endpoint) -> PortResult<()> {
        let (item, entries, _) = endpoint_item(endpoint)?;
        let conflict = || PortError::Conflict(format!("endpoint {} already exists", endpoint.id));
        if entries.is_empty() {
            return if self.put_new(item).await? {
                Ok(())
            } else {
                Err(conflict())
            };
        }
        let mut actions = vec![
            TransactWriteItem::builder()
                .put(
                    Put::builder()
                        .table_name(&self.table)
                        .set_item(Some(item))
                        .condition_expression("attribute_not_exists(PK)")
                        .build()
                        .map_err(from_build)?,
                )
                .build(),
        ];
        for entry in entries {
            actions.push(self.put_action(entry)?);
        }
        self.client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .send()
            .await
            .map_err(|e| from_transaction(e, || conflict().to_string()))?;
        Ok(())
    }

    async fn get_endpoint(&self, tenant: &TenantId, id: &EndpointId) -> PortResult<Option<Endpoint>> {
        match self.get(tenant_pk(tenant), &endpoint_sk(id)).await? {
            None => Ok(None),
            Some(item) => {
                let e: Endpoint = from_json(&item, "endpoint")?;
                Ok(self.with_smart_health(vec![e]).await?.pop())
            }
        }
    }

    async fn note_smart_success(&self, tenant: &TenantId, id: &EndpointId, now: Timestamp) -> PortResult<bool> {
        self.note_success_apart(tenant, id, now).await
    }

    async fn put_smart_health(
        &self,
        tenant: &TenantId,
        id: &EndpointId,
        expected: Option<&courier_core::health::SmartHealth>,
        new: &courier_core::health::SmartHealth,
    ) -> PortResult<()> {
        self.put_health_apart(tenant, id, expected, new).await
    }

    /// One conditional put when the index entries stay as they are (health and
    /// breaker updates); otherwise one transaction that writes the endpoint, puts
    /// its entries and deletes the ones it no longer has.
    async fn update_endpoint(&self, endpoint: &Endpoint, expected_version: u64) -> PortResult<()> {
        let (item, entries, sks) = endpoint_item(endpoint)?;
        let conflict = || {
            PortError::Conflict(format!(
                "endpoint {} is missing or not at version {expected_version}",
                endpoint.id
            ))
        };
        let sig = item.get(SUB_SIG).cloned().unwrap_or_else(|| s(""));
        let r = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item.clone()))
            .condition_expression("attribute_exists(PK) AND #v = :expected AND #sig = :sig")
            .set_expression_attribute_names(Some(names(&[("#v", VERSION), ("#sig", SUB_SIG)])))
            .set_expression_attribute_values(Some(HashMap::from([
                (":expected".to_owned(), n(expected_version)),
                (":sig".to_owned(), sig),
            ])))
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .send()
            .await;
        let old = match r {
            Ok(_) => return Ok(()),
            Err(e) => match e.as_service_error() {
                Some(PutItemError::ConditionalCheckFailedException(c)) => c.item.clone(),
                _ => return Err(from_sdk(e)),
            },
        };
        let Some(old) = old.filter(|o| get_n(o, VERSION) == Some(expected_version as i64)) else {
            return Err(conflict());
        };
        // The entries changed: rewrite them with the endpoint.
        let pk = tenant_pk(&endpoint.tenant_id);
        let stale: Vec<String> = stored_sks(&old).into_iter().filter(|sk| !sks.contains(sk)).collect();
        let mut actions = vec![
            TransactWriteItem::builder()
                .put(
                    Put::builder()
                        .table_name(&self.table)
                        .set_item(Some(item))
                        .condition_expression("attribute_exists(PK) AND #v = :expected")
                        .set_expression_attribute_names(Some(names(&[("#v", VERSION)])))
                        .set_expression_attribute_values(Some(HashMap::from([(
                            ":expected".to_owned(),
                            n(expected_version),
                        )])))
                        .build()
                        .map_err(from_build)?,
                )
                .build(),
        ];
        for entry in entries {
            actions.push(self.put_action(entry)?);
        }
        // At most 50 filters each side: what does not fit the transaction's 100
        // actions is deleted right after it. Until then the old entry can name the
        // endpoint for a key it left, which a fan-out checks against the endpoint.
        let room = MAX_ACTIONS.saturating_sub(actions.len());
        let (now, later) = stale.split_at(room.min(stale.len()));
        for sk in now {
            actions.push(self.delete_action(pk.clone(), sk)?);
        }
        self.client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .send()
            .await
            .map_err(|e| from_transaction(e, || conflict().to_string()))?;
        for sk in later {
            self.client
                .delete_item()
                .table_name(&self.table)
                .set_key(Some(key(pk.clone(), sk)))
                .send()
                .await
                .map_err(from_sdk)?;
        }
        Ok(())
    }

    async fn list_endpoints(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        // As `list_data`, and endpoints stored before the subscription index are
        // filed into it on the way (`reindex.rs`).
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
            let decoded = items
                .into_iter()
                .map(|i| {
                    let e: Endpoint = from_json(&i, "endpoint")?;
                    Ok((i, e))
                })
                .collect::<PortResult<Vec<_>>>()?;
            self.file_unindexed(&decoded).await?;
            let (items, endpoints): (Vec<Item>, Vec<Endpoint>) = decoded.into_iter().unzip();
            let endpoints = self.with_smart_health(endpoints).await?;
            Ok(items.into_iter().zip(endpoints).collect())
        })
        .await
    }
}
