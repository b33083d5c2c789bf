//! Large bodies: one content-addressed body item shared by the deliveries that carry
//! the same bytes, kept alive as long as its last user, and read back in batches.

use super::*;

impl DynamoStore {
    /// Makes the shared body item `hash` exist for `users` (delivery id, its TTL) and
    /// live as long as every delivery that uses it: no TTL while any of them has none
    /// (is not settled), else the latest of theirs. The item lists its users, so the
    /// last one to settle can tell that none is left pending. Reads the item's small
    /// attributes first and writes only on a change, since a write (even a refused
    /// conditional one) is billed for the whole body. Every change moves the item's
    /// revision (`bodyRev`) and is conditional on the one read, so a TTL worked out
    /// from users that changed meanwhile (one added or reopened, unsettled) is
    /// never written: the next round reads again.
    pub(super) async fn ensure_body(&self, reference: &str, body: &str, users: &[BodyUser]) -> PortResult<()> {
        let body_key = key(body_pk(reference), BODY_SK);
        let ids: Vec<String> = users.iter().map(|(id, _)| id.clone()).collect();
        let all_settled = users.iter().all(|(_, e)| e.is_some());
        let given_max = users.iter().filter_map(|(_, e)| *e).max();
        // A lost create race is followed by the update path; a lost revision race
        // by another read.
        for _ in 0..4 {
            let stored = self
                .client
                .get_item()
                .table_name(&self.table)
                .set_key(Some(body_key.clone()))
                .projection_expression("PK, #ttl, #users, #rev")
                .expression_attribute_names("#ttl", TTL_ATTR)
                .expression_attribute_names("#users", BODY_USERS)
                .expression_attribute_names("#rev", BODY_REV)
                .consistent_read(true)
                .send()
                .await
                .map_err(from_sdk)?
                .item;
            let Some(stored) = stored else {
                let mut item = body_key.clone();
                item.insert(BODY.to_owned(), s(body));
                item.insert(BODY_USERS.to_owned(), AttributeValue::Ss(ids.clone()));
                if let (true, Some(e)) = (all_settled, given_max) {
                    item.insert(TTL_ATTR.to_owned(), n(e));
                }
                if self.put_new(item).await? {
                    return Ok(());
                }
                continue;
            };
            let known: BTreeSet<String> = match stored.get(BODY_USERS) {
                Some(AttributeValue::Ss(v)) => v.iter().cloned().collect(),
                _ => BTreeSet::new(),
            };
            let stored_ttl = get_n(&stored, TTL_ATTR);
            let desired = match (all_settled, stored_ttl) {
                (false, _) => None,
                (true, Some(t)) => Some(given_max.map_or(t, |g| g.max(t))),
                // Settled users, on a body some user once needed without a TTL: the
                // others decide whether one is still pending.
                (true, None) => {
                    let others: Vec<String> = known.iter().filter(|k| !ids.contains(k)).cloned().collect();
                    let mut latest = given_max;
                    let mut pending = false;
                    for e in self.user_expiries(&others).await? {
                        match e {
                            Some(e) => latest = latest.max(Some(e)),
                            None => pending = true,
                        }
                    }
                    if pending { None } else { latest }
                }
            };
            let new_users: Vec<String> = ids.iter().filter(|i| !known.contains(*i)).cloned().collect();
            if desired == stored_ttl && new_users.is_empty() {
                return Ok(());
            }
            let read_rev = get_n(&stored, BODY_REV);
            let mut values: Item = HashMap::from([(":one".to_owned(), n(1))]);
            let mut names = HashMap::from([
                ("#ttl".to_owned(), TTL_ATTR.to_owned()),
                ("#rev".to_owned(), BODY_REV.to_owned()),
            ]);
            let mut expr = Vec::new();
            match desired {
                Some(e) => {
                    values.insert(":ttl".to_owned(), n(e));
                    expr.push("SET #ttl = :ttl".to_owned());
                }
                None => expr.push("REMOVE #ttl".to_owned()),
            }
            if new_users.is_empty() {
                expr.push("ADD #rev :one".to_owned());
            } else {
                values.insert(":users".to_owned(), AttributeValue::Ss(new_users));
                names.insert("#users".to_owned(), BODY_USERS.to_owned());
                expr.push("ADD #users :users, #rev :one".to_owned());
            }
            let condition = match read_rev {
                Some(r) => {
                    values.insert(":rev".to_owned(), n(r));
                    "attribute_exists(PK) AND #rev = :rev"
                }
                None => "attribute_exists(PK) AND attribute_not_exists(#rev)",
            };
            let written = self
                .client
                .update_item()
                .table_name(&self.table)
                .set_key(Some(body_key.clone()))
                .update_expression(expr.join(" "))
                .condition_expression(condition)
                .set_expression_attribute_names(Some(names))
                .set_expression_attribute_values(Some(values))
                .send()
                .await;
            match written {
                Ok(_) => return Ok(()),
                // Its users or TTL changed since the read: work it out again.
                Err(e) if is_update_conflict(&e) => continue,
                Err(e) => return Err(from_sdk(e)),
            }
        }
        Err(PortError::Conflict(format!("body item {reference} kept changing")))
    }

    /// The TTL of each delivery in `ids` that still exists (`None`: not settled).
    pub(super) async fn user_expiries(&self, ids: &[String]) -> PortResult<Vec<Option<i64>>> {
        let keys: Vec<Item> = ids
            .iter()
            .filter_map(|id| DeliveryId::parse(id).ok())
            .map(|id| key(delivery_pk(&id), DELIVERY_SK))
            .collect();
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self
            .batch_get(keys, true)
            .await?
            .iter()
            .map(|i| get_n(i, TTL_ATTR))
            .collect())
    }

    /// After an event's transaction failed: the shared body items set up for its
    /// deliveries must not keep them as users, or an item made for them would keep
    /// no TTL (its users look unsettled) and stay for ever. Only deliveries that are
    /// really absent are released: a failure can be ambiguous (the transaction may
    /// have been applied after all). An item left with no user at all expires now,
    /// set only while it still has none (a user added meanwhile keeps it); one left
    /// with other users has its TTL worked out again from theirs, as when a user
    /// settles, since ours may have been what removed it.
    pub(super) async fn release_bodies(&self, deliveries: &[Delivery]) -> PortResult<()> {
        let wanted = shared_bodies(deliveries);
        if wanted.is_empty() {
            return Ok(());
        }
        let keys: Vec<Item> = wanted
            .values()
            .flat_map(|(_, users)| users)
            .map(|d| key(delivery_pk(&d.id), DELIVERY_SK))
            .collect();
        let present: HashSet<String> = self
            .batch_get(keys, true)
            .await?
            .iter()
            .filter_map(|i| get_s(i, PK).map(str::to_owned))
            .collect();
        for (hash, (body, users)) in wanted {
            let gone: Vec<String> = users
                .iter()
                .filter(|d| !present.contains(&delivery_pk(&d.id)))
                .map(|d| d.id.to_string())
                .collect();
            if gone.is_empty() {
                continue;
            }
            let body_key = key(body_pk(&hash), BODY_SK);
            let left = self
                .client
                .update_item()
                .table_name(&self.table)
                .set_key(Some(body_key.clone()))
                .update_expression("DELETE #users :gone ADD #rev :one")
                .condition_expression("attribute_exists(PK)")
                .expression_attribute_names("#users", BODY_USERS)
                .expression_attribute_names("#rev", BODY_REV)
                .expression_attribute_values(":gone", AttributeValue::Ss(gone))
                .expression_attribute_values(":one", n(1))
                .return_values(ReturnValue::AllNew)
                .send()
                .await;
            let item = match left {
                Ok(r) => r.attributes.unwrap_or_default(),
                // The item is gone already: nothing to release.
                Err(e) if is_update_conflict(&e) => continue,
                Err(e) => return Err(from_sdk(e)),
            };
            if get_n(&item, TTL_ATTR).is_some() {
                continue;
            }
            if item.contains_key(BODY_USERS) {
                self.ensure_body(&hash, body, &[]).await?;
                continue;
            }
            let expired = self
                .client
                .update_item()
                .table_name(&self.table)
                .set_key(Some(body_key))
                .update_expression("SET #ttl = :now")
                .condition_expression(
                    "attribute_exists(PK) AND attribute_not_exists(#users) AND attribute_not_exists(#ttl)",
                )
                .set_expression_attribute_names(Some(names(&[("#ttl", TTL_ATTR), ("#users", BODY_USERS)])))
                .expression_attribute_values(":now", n(self.now().millis() / 1000))
                .send()
                .await;
            match expired {
                // A user came meanwhile, or the TTL was set: the item is theirs.
                Ok(_) => {}
                Err(e) if is_update_conflict(&e) => {}
                Err(e) => return Err(from_sdk(e)),
            }
        }
        Ok(())
    }

    pub(super) async fn ensure_bodies<'a>(&self, deliveries: impl IntoIterator<Item = &'a Delivery>) -> PortResult<()> {
        for (hash, (body, users)) in shared_bodies(deliveries) {
            let users: Vec<BodyUser> = users.iter().map(|d| (d.id.to_string(), d.expires_at)).collect();
            self.ensure_body(&hash, body, &users).await?;
        }
        Ok(())
    }

    /// Shared bodies by hash; the deliveries that use one share its text.
    pub(super) async fn bodies(&self, hashes: &[String]) -> PortResult<HashMap<String, Arc<str>>> {
        let keys: Vec<Item> = hashes
            .iter()
            .collect::<HashSet<_>>()
            .into_iter()
            .map(|h| key(body_pk(h), BODY_SK))
            .collect();
        let items = self.batch_get(keys, true).await?;
        let mut out = HashMap::new();
        for item in items {
            let (Some(pk), Some(body)) = (get_s(&item, PK), get_s(&item, BODY)) else {
                continue;
            };
            if let Some(hash) = pk.strip_prefix("BODY#") {
                out.insert(hash.to_owned(), Arc::from(body));
            }
        }
        Ok(out)
    }

    /// Decodes delivery items (from the table or the log indexes), fetching shared
    /// bodies in one batch.
    pub(super) async fn deliveries_from(&self, items: &[Item]) -> PortResult<Vec<Delivery>> {
        let refs: Vec<String> = items
            .iter()
            .filter_map(|i| get_s(i, BODY_REF).map(str::to_owned))
            .collect();
        let shared = if refs.is_empty() {
            HashMap::new()
        } else {
            self.bodies(&refs).await?
        };
        items
            .iter()
            .map(|item| {
                let mut d = delivery_from_item(item)?;
                d.version = get_n(item, VERSION)
                    .and_then(|v| u64::try_from(v).ok())
                    .ok_or_else(|| corrupt(format!("delivery {}: no version", d.id)))?;
                d.claim = claim_from(item)?;
                d.body_hash = body_hash_of(item)?;
                d.body = match (get_s(item, BODY), get_s(item, BODY_REF)) {
                    (Some(b), _) => Arc::from(b),
                    (None, Some(h)) => shared
                        .get(h)
                        .cloned()
                        .ok_or_else(|| corrupt(format!("delivery {}: body item {h} is missing", d.id)))?,
                    // In the event item: the sender reads it when it needs it.
                    (None, None) if d.body_hash.is_some() => Arc::from(""),
                    (None, None) => return Err(corrupt(format!("delivery {}: no body", d.id))),
                };
                Ok(d)
            })
            .collect()
    }

    pub(super) async fn load_delivery(&self, id: &DeliveryId) -> PortResult<Option<Delivery>> {
        match self.get_live(delivery_pk(id), DELIVERY_SK).await? {
            None => Ok(None),
            Some(item) => self.one_delivery(item).await.map(Some),
        }
    }

    pub(super) async fn one_delivery(&self, item: Item) -> PortResult<Delivery> {
        self.deliveries_from(std::slice::from_ref(&item))
            .await?
            .pop()
            .ok_or_else(|| corrupt("delivery item decoded to nothing"))
    }
}
