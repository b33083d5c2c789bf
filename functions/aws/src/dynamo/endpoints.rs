//! `EndpointStore` over the table: endpoint items under their tenant, versioned,
//! each written together with its subscription index entries (`subscriptions.rs`).

use super::subscriptions::{SUB_SIG, endpoint_item, stored_sks};
use super::*;
use aws_sdk_dynamodb::operation::put_item::PutItemError;

/// `TransactWriteItems` takes at most this many actions.
const MAX_ACTIONS: usize = 100;

impl DynamoStore {
    /// Writes `e` with its subscription entries, the items `create_endpoint` writes,
    /// as plain PutItems (entries first): no transaction and no condition. For
    /// seeding many endpoints on the emulator, which runs a transaction by copying
    /// the whole table first.
    #[cfg(any(test, feature = "testing"))]
    pub async fn put_endpoint_untransacted(&self, e: &Endpoint) -> PortResult<()> {
        let (item, entries, _) = endpoint_item(e)?;
        for entry in entries {
            self.put(entry).await?;
        }
        self.put(item).await
    }
}

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
            let (items, endpoints): (Vec<Item>, Vec<Endpoint>) = items
                .into_iter()
                .map(|i| {
                    let e: Endpoint = from_json(&i, "endpoint")?;
                    Ok((i, e))
                })
                .collect::<PortResult<Vec<_>>>()?
                .into_iter()
                .unzip();
            let endpoints = self.with_smart_health(endpoints).await?;
            Ok(items.into_iter().zip(endpoints).collect())
        })
        .await
    }

    /// A Scan of the table for endpoint items (`TEN#...` / `EP#...`), a filtered
    /// page at a time: maintenance only (it reads the whole table, so it is billed
    /// for every item, whatever it keeps). The cursor is the last key read.
    async fn scan_endpoints(&self, cursor: Option<&str>, limit: u32) -> PortResult<Page<Endpoint>> {
        let start = cursor.map(decode_scan_cursor).transpose()?;
        let out = self
            .client
            .scan()
            .table_name(&self.table)
            .filter_expression("begins_with(#pk, :t) AND begins_with(#sk, :e)")
            .expression_attribute_names("#pk", PK)
            .expression_attribute_names("#sk", SK)
            .expression_attribute_values(":t", AttributeValue::S("TEN#".into()))
            .expression_attribute_values(":e", AttributeValue::S("EP#".into()))
            .consistent_read(true)
            .limit(i32::try_from(limit.clamp(1, MAX_PAGE)).unwrap_or(100))
            .set_exclusive_start_key(start)
            .send()
            .await
            .map_err(from_sdk)?;
        let endpoints = out
            .items()
            .iter()
            .map(|i| from_json::<Endpoint>(i, "endpoint"))
            .collect::<PortResult<Vec<_>>>()?;
        let next_cursor = out.last_evaluated_key().map(encode_scan_cursor).transpose()?;
        Ok(Page {
            items: self.with_smart_health(endpoints).await?,
            next_cursor,
        })
    }
}

/// The scan's cursor: the last key it read, as URL-safe base64 of JSON.
fn encode_scan_cursor(key: &HashMap<String, AttributeValue>) -> PortResult<String> {
    let mut m = BTreeMap::new();
    for a in [PK, SK] {
        let v = get_s(key, a).ok_or_else(|| corrupt(format!("scanned key lacks {a}")))?;
        m.insert(a, v.to_owned());
    }
    Ok(URL_SAFE_NO_PAD.encode(to_json(&m)?))
}

fn decode_scan_cursor(cursor: &str) -> PortResult<HashMap<String, AttributeValue>> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| PortError::BadCursor)?;
    let m: BTreeMap<String, String> = serde_json::from_slice(&bytes).map_err(|_| PortError::BadCursor)?;
    let (Some(pk), Some(sk)) = (m.get(PK), m.get(SK)) else {
        return Err(PortError::BadCursor);
    };
    if m.len() != 2 {
        return Err(PortError::BadCursor);
    }
    Ok(HashMap::from([
        (PK.to_owned(), AttributeValue::S(pk.clone())),
        (SK.to_owned(), AttributeValue::S(sk.clone())),
    ]))
}
