//! An event's fan-out links over the table: one small item per fan-out step on the
//! event's partition (`EVT#<id>` / `FAN#<start, 20 digits>`), naming the endpoints
//! of the step's page, and the batch read of deliveries by id that listing an
//! event's deliveries pays instead of a write per delivery.

use super::*;
use courier_app::domain::model::FanoutLink;

/// The sort-key prefix of an event's fan-out links.
pub(super) const LINK_PREFIX: &str = "FAN#";

/// The sort key of the link of the step starting at `start`: zero-padded, so key
/// order is start order.
pub fn fanout_link_sk(start: u64) -> String {
    format!("{LINK_PREFIX}{start:020}")
}

impl DynamoStore {
    /// Puts the link (unconditionally: a redone step writes the same key).
    pub(super) async fn put_link(&self, link: &FanoutLink) -> PortResult<()> {
        let mut item = key(event_pk(&link.event_id), &fanout_link_sk(link.start));
        item.insert(DATA.to_owned(), s(to_json(link)?));
        item.insert(TENANT_ID.to_owned(), s(link.tenant_id.as_str()));
        if let Some(e) = link.expires_at {
            item.insert(TTL_ATTR.to_owned(), n(e));
        }
        self.put(item).await
    }

    /// Query `PK = EVT#<event> AND SK BETWEEN FAN#<from> AND FAN#~`, ascending,
    /// consistent, until `limit` live links of the tenant or the partition's end.
    pub(super) async fn links_from(
        &self,
        tenant: &TenantId,
        event: &EventId,
        from: u64,
        limit: u32,
    ) -> PortResult<Vec<FanoutLink>> {
        let limit = limit.clamp(1, 10) as usize;
        let now = self.now();
        let mut start = None;
        let mut out = Vec::new();
        // Bounded: each round returns at least one item or ends the partition; a
        // round of only expired links (TTL lags) moves on by that many.
        for _ in 0..100 {
            let resp = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND SK BETWEEN :from AND :to")
                .expression_attribute_values(":pk", s(event_pk(event)))
                .expression_attribute_values(":from", s(fanout_link_sk(from)))
                .expression_attribute_values(":to", s(format!("{LINK_PREFIX}~")))
                .limit((limit - out.len()) as i32)
                .consistent_read(true)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(from_sdk)?;
            for item in resp.items.unwrap_or_default() {
                if !is_live(get_n(&item, TTL_ATTR), now) {
                    continue;
                }
                let link: FanoutLink = from_json(&item, "fan-out link")?;
                if &link.tenant_id == tenant {
                    out.push(link);
                }
            }
            start = resp.last_evaluated_key;
            if out.len() >= limit || start.is_none() {
                break;
            }
        }
        Ok(out)
    }

    /// The live deliveries with these ids, in the order asked: consistent
    /// BatchGetItem, 100 keys a call.
    pub(super) async fn deliveries_by_id(&self, ids: &[DeliveryId]) -> PortResult<Vec<Delivery>> {
        let now = self.now();
        let keys: Vec<Item> = ids
            .iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|id| key(delivery_pk(id), DELIVERY_SK))
            .collect();
        let items: Vec<Item> = self
            .batch_get(keys, true)
            .await?
            .into_iter()
            .filter(|i| is_live(get_n(i, TTL_ATTR), now))
            .collect();
        let mut found: HashMap<DeliveryId, Delivery> = self
            .deliveries_from(&items)
            .await?
            .into_iter()
            .map(|d| (d.id.clone(), d))
            .collect();
        Ok(ids.iter().filter_map(|id| found.remove(id)).collect())
    }
}
