//! The due index (`GSI4`), which the reconciler reads instead of the table: every
//! unsettled, not dead-lettered delivery has one entry, `GSI4PK` = `DUE#<shard>`
//! and `GSI4SK` = `<due ms>#<deliveryId>`, except one whose last write was made
//! with its next step already carried by a queue message (`carried_by_queue`: a
//! first message sent ahead, a retry through an SQS delay), until its next whole
//! write. "Due" is
//! `courier_app::reconcile::due_at`. Settling or dead-lettering removes the entry,
//! so the index holds only deliveries still on their way, and a run asks it for the
//! keys older than `now - grace`: one Query per shard when nothing is overdue.
//!
//! The entries are spread over [`DUE_SHARDS`] partition values so that the index
//! writes of a busy stack (one per attempt, when the due instant moves) do not all
//! land on one partition of the index.

use crate::dynamo::{DynamoStore, PK};
use crate::error::from_sdk;
use async_trait::async_trait;
use aws_sdk_dynamodb::types::AttributeValue;
use courier_app::model::Delivery;
use courier_app::ports::{PortError, PortResult};
use courier_app::reconcile::{OverdueIndex, due_at};
use courier_core::Timestamp;
use courier_core::ids::DeliveryId;
use std::collections::HashMap;

/// The index's name and key attributes.
pub const GSI_DUE: &str = "GSI4";
pub const GSI4PK: &str = "GSI4PK";
pub const GSI4SK: &str = "GSI4SK";
/// Partition values of the due index; a reconciler run queries each once. A
/// delivery with an entry writes it at least twice (put, removed), and one index
/// key takes about 1,000 writes a second, so the stack's deliveries with entries
/// top out near `DUE_SHARDS` x 500 a second: 16 keys, about 8,000. Entries written under fewer
/// shards stay found: a run queries `DUE#0` to `DUE#15`, which include them.
pub const DUE_SHARDS: u32 = 16;

/// The shard of a delivery: FNV-1a of its id (stable across processes and builds).
pub fn due_shard(id: &DeliveryId) -> u32 {
    crate::dynamo::shard_of(id.as_str(), DUE_SHARDS)
}

pub fn due_pk(shard: u32) -> String {
    format!("DUE#{shard}")
}

/// The delivery's due-index attributes: `Some((GSI4PK, GSI4SK))` while it has an
/// entry, `None` when the entry is to be removed.
pub fn due_keys(d: &Delivery) -> Option<(String, String)> {
    let due = due_at(d)?;
    Some((
        due_pk(due_shard(&d.id)),
        format!("{:015}#{}", due.millis().max(0), d.id),
    ))
}

/// Adds the due-index attributes to a delivery's `SET` list, or their names to its
/// `REMOVE` list (used by every write of a whole delivery record). A delivery
/// whose next step a queue message carries gets no entry, and loses one it had (an
/// update's `REMOVE` of absent attributes writes nothing to the index).
pub fn extend_attributes(d: &Delivery, set: &mut Vec<(String, AttributeValue)>, remove: &mut Vec<&'static str>) {
    if d.carried_by_queue {
        remove.extend([GSI4PK, GSI4SK]);
        return;
    }
    match due_keys(d) {
        Some((pk, sk)) => {
            set.push((GSI4PK.to_owned(), AttributeValue::S(pk)));
            set.push((GSI4SK.to_owned(), AttributeValue::S(sk)));
        }
        None => remove.extend([GSI4PK, GSI4SK]),
    }
}

impl DynamoStore {
    /// One shard's entries due before `before`, oldest first, at most `limit`.
    async fn overdue_in(&self, shard: u32, before: Timestamp, limit: u32) -> PortResult<Vec<DeliveryId>> {
        let bound = format!("{:015}", before.millis().max(0));
        let resp = self
            .client()
            .query()
            .table_name(self.table())
            .index_name(GSI_DUE)
            .key_condition_expression("#pk = :pk AND #sk < :before")
            .set_expression_attribute_names(Some(HashMap::from([
                ("#pk".to_owned(), GSI4PK.to_owned()),
                ("#sk".to_owned(), GSI4SK.to_owned()),
            ])))
            .set_expression_attribute_values(Some(HashMap::from([
                (":pk".to_owned(), AttributeValue::S(due_pk(shard))),
                (":before".to_owned(), AttributeValue::S(bound)),
            ])))
            .limit(limit.clamp(1, 1000) as i32)
            .send()
            .await
            .map_err(from_sdk)?;
        resp.items()
            .iter()
            .map(|item| {
                let pk = item.get(PK).and_then(|v| v.as_s().ok()).map_or("", String::as_str);
                let id = pk.strip_prefix("DLV#").unwrap_or_default();
                DeliveryId::parse(id).map_err(|e| PortError::Corrupt(format!("due index entry {pk:?}: {e}")))
            })
            .collect()
    }
}

#[async_trait]
impl OverdueIndex for DynamoStore {
    async fn overdue(&self, before: Timestamp, limit: u32) -> PortResult<Vec<DeliveryId>> {
        if limit == 0 {
            return Ok(Vec::new());
        }
        // Shard by shard, each bounded by what is still to find: an idle run is one
        // Query per shard, a busy one stops at `limit`.
        let mut out = Vec::new();
        for shard in 0..DUE_SHARDS {
            let left = limit - out.len() as u32;
            if left == 0 {
                break;
            }
            out.extend(self.overdue_in(shard, before, left).await?);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_stable_and_spread() {
        let alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        let ids: Vec<DeliveryId> = alphabet
            .chars()
            .flat_map(|a| alphabet.chars().map(move |b| (a, b)))
            .map(|(a, b)| {
                DeliveryId::parse(&format!("dlv_01JAAAAAAAAAAAAAAAAAAAAA{a}{b}")).unwrap_or_else(|e| panic!("{e}"))
            })
            .collect();
        let shards: Vec<u32> = ids.iter().map(due_shard).collect();
        assert!(shards.iter().all(|s| *s < DUE_SHARDS));
        for s in 0..DUE_SHARDS {
            assert!(shards.contains(&s), "shard {s} unused by 1,024 ids");
        }
        // FNV-1a is fixed: the same id always lands on the same shard.
        assert_eq!(shards, ids.iter().map(due_shard).collect::<Vec<_>>());
    }
}
