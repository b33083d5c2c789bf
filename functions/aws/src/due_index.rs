//! The due index (`GSI4`), which the reconciler reads instead of the table: every
//! unsettled, not dead-lettered delivery has one entry, `GSI4PK` = `DUE#<shard>`
//! and `GSI4SK` = `<due ms>#<deliveryId>`, except one whose last write was made
//! with its next step already carried by a queue message (`carried_by_queue`: a
//! first message sent ahead, a retry through an SQS delay), until its next whole
//! write. "Due" is
//! `courier_app::maintenance::reconcile::due_at`. Settling or dead-lettering removes the entry,
//! so the index holds only deliveries still on their way, and a run asks it for the
//! keys older than `now - grace`: one Query per shard when nothing is overdue.
//!
//! The entries are spread over [`DUE_SHARDS`] partition values so that the index
//! writes of a busy stack (one per attempt, when the due instant moves) do not all
//! land on one partition of the index.

use crate::dynamo::{DynamoStore, PK, SK};
use crate::error::from_sdk;
use async_trait::async_trait;
use aws_sdk_dynamodb::types::AttributeValue;
use courier_app::domain::model::Delivery;
use courier_app::maintenance::reconcile::due_at;
use courier_app::ports::{OverdueIndex, OverduePage};
use courier_app::ports::{PortError, PortResult};
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
    Some((due_pk(due_shard(&d.id)), due_sk(due, &d.id)))
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

/// The sort key of an entry due at `at`.
pub fn due_sk(at: Timestamp, id: &DeliveryId) -> String {
    format!("{:015}#{id}", at.millis().max(0))
}

#[async_trait]
impl OverdueIndex for DynamoStore {
    fn due_shards(&self) -> u32 {
        DUE_SHARDS
    }

    /// One Query of one shard's entries before `before`, after the entry whose
    /// sort key is `after` (the cursor is that key: the table key of its delivery
    /// follows from the id it ends with).
    async fn overdue_page(
        &self,
        shard: u32,
        before: Timestamp,
        after: Option<&str>,
        limit: u32,
    ) -> PortResult<OverduePage> {
        if limit == 0 {
            return Ok(OverduePage::default());
        }
        let bound = format!("{:015}", before.millis().max(0));
        let start = match after {
            None => None,
            Some(sk) => {
                let id = sk
                    .split_once('#')
                    .map(|(_, id)| id)
                    .and_then(|id| DeliveryId::parse(id).ok())
                    .ok_or(PortError::BadCursor)?;
                Some(HashMap::from([
                    (GSI4PK.to_owned(), AttributeValue::S(due_pk(shard))),
                    (GSI4SK.to_owned(), AttributeValue::S(sk.to_owned())),
                    (PK.to_owned(), AttributeValue::S(crate::dynamo::delivery_pk(&id))),
                    (SK.to_owned(), AttributeValue::S(crate::dynamo::DELIVERY_SK.to_owned())),
                ]))
            }
        };
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
            .set_exclusive_start_key(start)
            .limit(limit.clamp(1, 1000) as i32)
            .send()
            .await
            .map_err(from_sdk)?;
        let ids = resp
            .items()
            .iter()
            .map(|item| {
                let pk = item.get(PK).and_then(|v| v.as_s().ok()).map_or("", String::as_str);
                let id = pk.strip_prefix("DLV#").unwrap_or_default();
                DeliveryId::parse(id).map_err(|e| PortError::Corrupt(format!("due index entry {pk:?}: {e}")))
            })
            .collect::<PortResult<Vec<_>>>()?;
        let next = resp
            .last_evaluated_key()
            .and_then(|k| k.get(GSI4SK))
            .and_then(|v| v.as_s().ok())
            .cloned();
        Ok(OverduePage { ids, next })
    }

    /// One `UpdateItem` of `GSI4SK` alone, only where the entry exists (a delivery
    /// without `GSI4PK` has none, and gets none).
    async fn move_due(&self, id: &DeliveryId, at: Timestamp) -> PortResult<()> {
        let r = self
            .client()
            .update_item()
            .table_name(self.table())
            .set_key(Some(HashMap::from([
                (PK.to_owned(), AttributeValue::S(crate::dynamo::delivery_pk(id))),
                (SK.to_owned(), AttributeValue::S(crate::dynamo::DELIVERY_SK.to_owned())),
            ])))
            .update_expression("SET #sk = :sk")
            .condition_expression("attribute_exists(#pk)")
            .set_expression_attribute_names(Some(HashMap::from([
                ("#pk".to_owned(), GSI4PK.to_owned()),
                ("#sk".to_owned(), GSI4SK.to_owned()),
            ])))
            .set_expression_attribute_values(Some(HashMap::from([(
                ":sk".to_owned(),
                AttributeValue::S(due_sk(at, id)),
            )])))
            .send()
            .await;
        match r {
            Ok(_) => Ok(()),
            Err(e)
                if matches!(
                    e.as_service_error(),
                    Some(aws_sdk_dynamodb::operation::update_item::UpdateItemError::ConditionalCheckFailedException(_))
                ) =>
            {
                Ok(())
            }
            Err(e) => Err(from_sdk(e)),
        }
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
            .map(|(a, b)| DeliveryId::parse(&format!("dlv_01JAAAAAAAAAAAAAAAAAAAAA{a}{b}")).unwrap())
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
