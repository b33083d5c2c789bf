//! Endpoints stored before the subscription index existed have no `subSig` and no
//! entries, so a fan-out does not see them. Listing the tenant's endpoints files
//! them: each such item read by `list_endpoints` gets its entries (PutItem each) and
//! then its `subSks`/`subSig` (UpdateItem conditional on the version read and on
//! `subSig` still absent). Paging once through `GET /v1/endpoints` is the one-shot
//! run for a tenant; an endpoint's own next write files it as well.

use super::subscriptions::{SUB_SIG, SUB_SKS, entry_items, stored_sks};
use super::*;
use futures_util::StreamExt;

/// Endpoints filed at once within one page.
const FILING_CONCURRENCY: usize = 8;

fn list(v: &[String]) -> AttributeValue {
    AttributeValue::L(v.iter().map(|x| s(x.as_str())).collect())
}

impl DynamoStore {
    /// Writes `e` as endpoints were stored before the subscription index: the item
    /// alone (`data`, `version`), no entries, no `subSks`/`subSig`. For tests of the
    /// filing, and for writing many endpoints on the emulator, where a transaction
    /// copies the whole table first.
    #[cfg(any(test, feature = "testing"))]
    pub async fn put_unindexed_endpoint(&self, e: &Endpoint) -> PortResult<()> {
        let mut item = key(tenant_pk(&e.tenant_id), &endpoint_sk(&e.id));
        item.insert(DATA.to_owned(), s(to_json(e)?));
        item.insert(VERSION.to_owned(), n(e.version));
        self.put(item).await
    }

    /// Files every endpoint of `items` (a page of endpoint items) that has no
    /// `subSig` yet; items that have one are left alone.
    pub(super) async fn file_unindexed(&self, items: &[(Item, Endpoint)]) -> PortResult<()> {
        // Boxed first, so the stream's type names no closure (the trait's futures
        // must be Send for every lifetime).
        let mut filings: Vec<futures_util::future::BoxFuture<'_, PortResult<()>>> = Vec::new();
        for (i, e) in items {
            if !i.contains_key(SUB_SIG) {
                filings.push(Box::pin(self.file_one(i, e)));
            }
        }
        let results: Vec<PortResult<()>> = futures_util::stream::iter(filings)
            .buffer_unordered(FILING_CONCURRENCY)
            .collect()
            .await;
        results.into_iter().collect()
    }

    /// Entries first, then the mark. A crash between them leaves the endpoint
    /// unmarked, and the next list files it again (the same items). When the mark's
    /// condition fails, the endpoint was written meanwhile, and that write filed its
    /// own entries: the ones written here that it does not name are deleted again.
    async fn file_one(&self, item: &Item, e: &Endpoint) -> PortResult<()> {
        let (entries, sks, sig) = entry_items(e);
        for entry in entries {
            self.client
                .put_item()
                .table_name(&self.table)
                .set_item(Some(entry))
                .send()
                .await
                .map_err(from_sdk)?;
        }
        let version = get_n(item, VERSION).ok_or_else(|| corrupt(format!("endpoint {}: no version", e.id)))?;
        let marked = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(tenant_pk(&e.tenant_id), &endpoint_sk(&e.id))))
            .update_expression("SET #sks = :sks, #sig = :sig")
            .condition_expression("attribute_exists(PK) AND #v = :v AND attribute_not_exists(#sig)")
            .expression_attribute_names("#sks", SUB_SKS)
            .expression_attribute_names("#sig", SUB_SIG)
            .expression_attribute_names("#v", VERSION)
            .expression_attribute_values(":sks", list(&sks))
            .expression_attribute_values(":sig", s(sig))
            .expression_attribute_values(":v", n(version))
            .send()
            .await;
        match marked {
            Ok(_) => Ok(()),
            Err(err) if is_update_conflict(&err) => {
                let now_named = self
                    .get(tenant_pk(&e.tenant_id), &endpoint_sk(&e.id))
                    .await?
                    .map(|i| stored_sks(&i))
                    .unwrap_or_default();
                for sk in sks.iter().filter(|sk| !now_named.contains(sk)) {
                    self.client
                        .delete_item()
                        .table_name(&self.table)
                        .set_key(Some(key(tenant_pk(&e.tenant_id), sk)))
                        .send()
                        .await
                        .map_err(from_sdk)?;
                }
                Ok(())
            }
            Err(err) => Err(from_sdk(err)),
        }
    }
}
