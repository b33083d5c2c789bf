//! `IdempotencyStore` over the table: first writer wins, expired records read as absent.

use super::*;

#[async_trait]
impl IdempotencyStore for DynamoStore {
    async fn put_idempotency(&self, record: &IdempotencyRecord) -> PortResult<Option<IdempotencyRecord>> {
        let mut item = key(idempotency_pk(&record.key), IDEMPOTENCY_SK);
        item.insert(DATA.to_owned(), s(to_json(record)?));
        item.insert(TTL_ATTR.to_owned(), n(record.expires_at));
        for _ in 0..3 {
            let (cond, values) = absent_or_expired(self.now());
            if self.put_if(item.clone(), cond, None, Some(values)).await? {
                return Ok(None);
            }
            // First writer wins: answer with its record. (If it expired in between,
            // try to become the first writer again.)
            if let Some(existing) = self.get_live(idempotency_pk(&record.key), IDEMPOTENCY_SK).await? {
                return Ok(Some(from_json(&existing, "idempotency record")?));
            }
        }
        Err(PortError::Conflict(format!(
            "idempotency key {} kept changing",
            record.key
        )))
    }

    async fn get_idempotency(&self, key: &str) -> PortResult<Option<IdempotencyRecord>> {
        match self.get_live(idempotency_pk(key), IDEMPOTENCY_SK).await? {
            Some(item) => Ok(Some(from_json(&item, "idempotency record")?)),
            None => Ok(None),
        }
    }
}
