//! Reading delivery lists: a page of a delivery's attempts from its partition, and
//! the deliveries a list's index entries name.

use super::*;

/// A page's entries from the items of a delivery's partition (oldest first): each
/// live attempt item, then the latest attempt embedded in the delivery item, listed
/// under its own attempt key unless its copy was listed already (`seen`, an own item
/// left by a crash between the copy and the write that replaces it) or the page
/// starts after it.
pub(super) fn attempt_entries(
    items: Vec<Item>,
    seen: &mut HashSet<AttemptId>,
    after: Option<&str>,
    now: Timestamp,
) -> PortResult<Vec<(Item, Attempt)>> {
    let mut out = Vec::new();
    for item in items {
        if get_s(&item, SK) != Some(DELIVERY_SK) {
            if is_live(get_n(&item, TTL_ATTR), now) {
                let a: Attempt = from_json(&item, "attempt")?;
                seen.insert(a.id.clone());
                out.push((item, a));
            }
            continue;
        }
        let Some(a) = embedded_attempt(&item)? else {
            continue;
        };
        let sk = attempt_sk(a.number, &a.id);
        if seen.contains(&a.id) || !is_live(a.expires_at, now) || after.is_some_and(|x| x >= sk.as_str()) {
            continue;
        }
        out.push((key(delivery_pk(&a.delivery_id), &sk), a));
    }
    Ok(out)
}

impl DynamoStore {
    /// The live deliveries a delivery list's index entries (`keys`) name, in their
    /// order, each with its entry; with `status`, only those in it (an entry may lag
    /// its item's status). One consistent BatchGetItem.
    pub(super) async fn listed_deliveries(
        &self,
        keys: Vec<Item>,
        status: Option<&str>,
    ) -> PortResult<Vec<(Item, Delivery)>> {
        let now = self.now();
        let wanted: Vec<Item> = keys
            .iter()
            .filter_map(|k| Some(key(get_s(k, PK)?.to_owned(), get_s(k, SK)?)))
            .collect();
        let mut found: HashMap<String, Item> = self
            .batch_get(wanted, true)
            .await?
            .into_iter()
            .filter(|i| is_live(get_n(i, TTL_ATTR), now))
            .filter(|i| status.is_none_or(|st| get_s(i, STATUS) == Some(st)))
            .filter_map(|i| Some((get_s(&i, PK)?.to_owned(), i)))
            .collect();
        let mut pairs: Vec<(Item, Item)> = Vec::new();
        for k in keys {
            if let Some(item) = get_s(&k, PK).and_then(|pk| found.remove(pk)) {
                pairs.push((k, item));
            }
        }
        let items: Vec<Item> = pairs.iter().map(|(_, i)| i.clone()).collect();
        let ds = self.deliveries_from(&items).await?;
        Ok(pairs.into_iter().map(|(k, _)| k).zip(ds).collect())
    }
}
