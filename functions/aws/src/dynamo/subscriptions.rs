//! The subscription index over the table: one small item per (endpoint, index key)
//! on the tenant's partition, `SUB#<application or ->#<key>#<endpoint id>`, written
//! in the endpoint's own transaction (see `endpoints.rs`), so a fan-out reads one
//! sort-key prefix per lookup key of the event type.

use super::*;
use aws_sdk_dynamodb::types::Delete;
use courier_app::ports::{SubscriptionEntry, SubscriptionIndex};

/// On an endpoint item: the sort keys of its index entries as written.
pub(super) const SUB_SKS: &str = "subSks";
/// On an endpoint item: what its index entries say (keys and channels), so an update
/// that leaves them as they are is one conditional put.
pub(super) const SUB_SIG: &str = "subSig";
const ENTRY_ENDPOINT: &str = "endpointId";
const ENTRY_KEYS: &str = "keys";
const ENTRY_CHANNELS: &str = "channels";

/// The sort-key prefix of the entries under (application, key).
pub fn subscription_prefix(application: Option<&str>, key: &str) -> String {
    format!("SUB#{}#{key}#", application.unwrap_or("-"))
}

fn list(v: &[String]) -> AttributeValue {
    AttributeValue::L(v.iter().map(|x| s(x.as_str())).collect())
}

fn strings(item: &Item, name: &str) -> Option<Vec<String>> {
    let l = item.get(name)?.as_l().ok()?;
    Some(l.iter().filter_map(|v| v.as_s().ok().cloned()).collect())
}

/// An endpoint's index entries as items, and its `(subSks, subSig)`.
pub(super) fn entry_items(e: &Endpoint) -> (Vec<Item>, Vec<String>, String) {
    let mut items = Vec::new();
    let mut sks = Vec::new();
    for (k, entry) in courier_app::fanout::entries_of(e) {
        let sk = format!("{}{}", subscription_prefix(e.application_id.as_deref(), &k), e.id);
        let mut item = key(tenant_pk(&e.tenant_id), &sk);
        item.insert(ENTRY_ENDPOINT.to_owned(), s(entry.endpoint_id.as_str()));
        item.insert(ENTRY_KEYS.to_owned(), list(&entry.keys));
        if let Some(c) = &entry.channels {
            item.insert(ENTRY_CHANNELS.to_owned(), list(c));
        }
        items.push(item);
        sks.push(sk);
    }
    let sig = serde_json::json!([sks, e.channels]).to_string();
    (items, sks, sig)
}

/// The endpoint item with its index bookkeeping.
pub(super) fn endpoint_item(e: &Endpoint) -> PortResult<(Item, Vec<Item>, Vec<String>)> {
    let (entries, sks, sig) = entry_items(e);
    let mut item = key(tenant_pk(&e.tenant_id), &endpoint_sk(&e.id));
    item.insert(DATA.to_owned(), s(to_json(e)?));
    item.insert(VERSION.to_owned(), n(e.version));
    item.insert(SUB_SKS.to_owned(), list(&sks));
    item.insert(SUB_SIG.to_owned(), s(sig));
    Ok((item, entries, sks))
}

/// The `subSks` an endpoint item holds (none when the item is gone).
pub(super) fn stored_sks(item: &Item) -> Vec<String> {
    strings(item, SUB_SKS).unwrap_or_default()
}

impl DynamoStore {
    pub(super) fn put_action(&self, item: Item) -> PortResult<TransactWriteItem> {
        Ok(TransactWriteItem::builder()
            .put(
                Put::builder()
                    .table_name(&self.table)
                    .set_item(Some(item))
                    .build()
                    .map_err(from_build)?,
            )
            .build())
    }

    pub(super) fn delete_action(&self, pk: String, sk: &str) -> PortResult<TransactWriteItem> {
        Ok(TransactWriteItem::builder()
            .delete(
                Delete::builder()
                    .table_name(&self.table)
                    .set_key(Some(key(pk, sk)))
                    .build()
                    .map_err(from_build)?,
            )
            .build())
    }
}

#[async_trait]
impl SubscriptionIndex for DynamoStore {
    async fn subscriptions(
        &self,
        tenant: &TenantId,
        application: Option<&str>,
        key_name: &str,
        after: Option<&EndpointId>,
        limit: u32,
    ) -> PortResult<Vec<SubscriptionEntry>> {
        let limit = limit.clamp(1, 1000) as usize;
        let prefix = subscription_prefix(application, key_name);
        let mut start = after.map(|a| key(tenant_pk(tenant), &format!("{prefix}{a}")));
        let mut out = Vec::new();
        loop {
            let resp = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND begins_with(SK, :prefix)")
                .expression_attribute_values(":pk", s(tenant_pk(tenant)))
                .expression_attribute_values(":prefix", s(prefix.as_str()))
                .limit((limit - out.len()) as i32)
                .consistent_read(true)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(from_sdk)?;
            for item in resp.items.unwrap_or_default() {
                let id = get_s(&item, ENTRY_ENDPOINT)
                    .and_then(|t| EndpointId::parse(t).ok())
                    .ok_or_else(|| corrupt("subscription entry: no endpoint id"))?;
                out.push(SubscriptionEntry {
                    endpoint_id: id,
                    keys: strings(&item, ENTRY_KEYS).unwrap_or_default(),
                    channels: strings(&item, ENTRY_CHANNELS),
                });
            }
            start = resp.last_evaluated_key;
            if out.len() >= limit || start.is_none() {
                return Ok(out);
            }
        }
    }

    async fn get_endpoints(&self, tenant: &TenantId, ids: &[EndpointId]) -> PortResult<Vec<Endpoint>> {
        let keys: Vec<Item> = ids
            .iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|id| key(tenant_pk(tenant), &endpoint_sk(id)))
            .collect();
        let mut found: HashMap<String, Endpoint> = HashMap::new();
        for item in self.batch_get(keys, true).await? {
            let e: Endpoint = from_json(&item, "endpoint")?;
            found.insert(e.id.as_str().to_owned(), e);
        }
        let ordered: Vec<Endpoint> = ids.iter().filter_map(|id| found.get(id.as_str()).cloned()).collect();
        self.with_smart_health(ordered).await
    }
}
