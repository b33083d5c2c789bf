//! `DeliveryStore` over the table: events and their deliveries, claims, outcomes,
//! attempts and the log, status and audit lists.

use super::*;

mod claims;
mod lists;

use lists::attempt_entries;

#[async_trait]
impl DeliveryStore for DynamoStore {
    fn stats(&self) -> Option<&dyn courier_app::ports::StatsStore> {
        Some(self)
    }

    async fn create_event(&self, event: &EventRecord, deliveries: &[Delivery]) -> PortResult<()> {
        if deliveries.len() > MAX_DELIVERIES_PER_EVENT {
            return Err(PortError::Backend(Box::new(TooManyDeliveries(deliveries.len()))));
        }
        let mut seen = HashSet::new();
        for d in deliveries {
            if !seen.insert(&d.id) {
                return Err(PortError::Conflict(format!(
                    "delivery {} appears twice in one event",
                    d.id
                )));
            }
        }
        // The deliveries' one body goes in the event item, once; each delivery
        // that carries it keeps only its hash. Any other keeps its own body.
        let shared = shared_body::event_body(deliveries);
        let own: Vec<Delivery>;
        let deliveries: &[Delivery] = if deliveries.iter().all(|d| shared_body::in_event(d, shared.as_ref())) {
            deliveries
        } else {
            own = deliveries
                .iter()
                .map(|d| match shared_body::in_event(d, shared.as_ref()) {
                    true => d.clone(),
                    false => with_own_body(d),
                })
                .collect();
            &own
        };
        // Shared bodies first, which keeps the transaction far below 4 MB. If the
        // transaction then fails, the deliveries it did not write are taken off
        // their body items again (`release_bodies`).
        self.ensure_bodies(deliveries).await?;

        let now = self.now();
        let (cond, values) = absent_or_expired(now);
        let put = |item: Item| -> PortResult<TransactWriteItem> {
            Ok(TransactWriteItem::builder()
                .put(
                    Put::builder()
                        .table_name(&self.table)
                        .set_item(Some(item))
                        .condition_expression(cond)
                        .set_expression_attribute_values(Some(values.clone()))
                        .build()
                        .map_err(from_build)?,
                )
                .build())
        };
        let event_item = event_item(event, shared.as_ref().map(|(b, _)| &**b))?;
        if let [d] = deliveries {
            return self.create_single(event, event_item, d).await;
        }
        let mut actions = vec![put(event_item)?];
        for d in deliveries {
            actions.push(put(self.delivery_item(d)?)?);
        }
        let written = self
            .client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .send()
            .await;
        if let Err(e) = written {
            if let Err(release) = self.release_bodies(deliveries).await {
                // The event's own error is what the caller needs; an item left
                // behind costs storage, not correctness.
                tracing::warn!(event = %event.id, error = %release, "could not release the shared bodies of a failed event");
            }
            return Err(from_transaction(e, || {
                format!("event {} or one of its deliveries already exists", event.id)
            }));
        }
        Ok(())
    }

    async fn create_delivery(&self, delivery: &Delivery) -> PortResult<()> {
        let delivery = &with_own_body(delivery);
        self.ensure_bodies(std::iter::once(delivery)).await?;
        let (cond, values) = absent_or_expired(self.now());
        if self
            .put_if(self.delivery_item(delivery)?, cond, None, Some(values))
            .await?
        {
            Ok(())
        } else {
            Err(PortError::Conflict(format!("delivery {} already exists", delivery.id)))
        }
    }

    async fn create_event_delivery(&self, _event: &EventRecord, delivery: &Delivery) -> PortResult<()> {
        let delivery = &with_own_body(delivery);
        self.ensure_bodies(std::iter::once(delivery)).await?;
        let (cond, values) = absent_or_expired(self.now());
        if self
            .put_if(self.delivery_item(delivery)?, cond, None, Some(values))
            .await?
        {
            Ok(())
        } else {
            Err(PortError::Conflict(format!("delivery {} already exists", delivery.id)))
        }
    }

    async fn set_fanout_progress(
        &self,
        tenant: &TenantId,
        event: &EventId,
        progress: &courier_app::domain::model::FanoutProgress,
    ) -> PortResult<()> {
        let missing = || PortError::Conflict(format!("event {event} does not exist"));
        let Some(mut item) = self.get_live(event_pk(event), EVENT_SK).await? else {
            return Err(missing());
        };
        let mut record = event_from_item(&item)?;
        if &record.tenant_id != tenant {
            return Err(missing());
        }
        record.fanout = Some(progress.clone());
        item.extend(event_item(&record, get_s(&item, BODY))?);
        item.insert(FANOUT_PROCESSED.to_owned(), n(progress.processed));
        // A slower copy of an earlier step never moves the progress back.
        self.put_if(
            item,
            "attribute_exists(PK) AND (attribute_not_exists(#p) OR #p <= :p)",
            Some(names(&[("#p", FANOUT_PROCESSED)])),
            Some(HashMap::from([(":p".to_owned(), n(progress.processed))])),
        )
        .await?;
        Ok(())
    }

    async fn put_fanout_link(&self, link: &courier_app::domain::model::FanoutLink) -> PortResult<()> {
        self.put_link(link).await
    }

    async fn fanout_links(
        &self,
        tenant: &TenantId,
        event: &EventId,
        from: u64,
        limit: u32,
    ) -> PortResult<Vec<courier_app::domain::model::FanoutLink>> {
        self.links_from(tenant, event, from, limit).await
    }

    async fn get_deliveries(&self, ids: &[DeliveryId]) -> PortResult<Vec<Delivery>> {
        self.deliveries_by_id(ids).await
    }

    async fn get_event(&self, tenant: &TenantId, id: &EventId) -> PortResult<Option<EventRecord>> {
        match self.get_live(event_pk(id), EVENT_SK).await? {
            None => Ok(None),
            Some(item) => {
                let e = event_from_item(&item)?;
                Ok((&e.tenant_id == tenant).then_some(e))
            }
        }
    }

    async fn get_delivery(&self, id: &DeliveryId) -> PortResult<Option<Delivery>> {
        self.load_delivery(id).await
    }

    async fn event_body(&self, event: &EventId) -> PortResult<Option<Arc<str>>> {
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(event_pk(event), EVENT_SK)))
            .projection_expression("#body, #ttl")
            .expression_attribute_names("#body", BODY)
            .expression_attribute_names("#ttl", TTL_ATTR)
            .consistent_read(true)
            .send()
            .await
            .map_err(from_sdk)?;
        let now = self.now();
        Ok(out
            .item
            .filter(|i| is_live(get_n(i, TTL_ATTR), now))
            .and_then(|i| get_s(&i, BODY).map(Arc::from)))
    }

    async fn claim_attempt(&self, id: &DeliveryId, claim: &ClaimRecord) -> PortResult<Claim> {
        // One conditional UpdateItem when no claim is held: the condition is the
        // shared claim rule (`claim_allowed`) over the item's own attributes, so no
        // read comes first and no race needs a retry. A refusal brings the stored
        // image back: it says why, whether the claim is already ours, or that an
        // expired claim is to be taken over, which a second write does (`take_over`).
        let r = self.claim_update(id, claim, None).await;
        let old = match r {
            Ok(out) => {
                let old = out
                    .attributes
                    .ok_or_else(|| corrupt(format!("claim of delivery {id}: no old image returned")))?;
                let current = self.one_delivery(old).await?;
                let claimed = apply_claim(&current, claim);
                return Ok(Claim::Claimed {
                    delivery: claimed,
                    lost: current.claim,
                });
            }
            Err(e) => match e.as_service_error() {
                Some(UpdateItemError::ConditionalCheckFailedException(c)) => c.item.clone(),
                _ => return Err(from_sdk(e)),
            },
        };
        let Some(old) = old.filter(|i| is_live(get_n(i, TTL_ATTR), self.now())) else {
            return Ok(Claim::Refused(None));
        };
        let lost_before = lost_claim_from(&old);
        let current = self.one_delivery(old).await?;
        // Our own write already landed (the SDK retried a committed update): the
        // claim it took over, if any, is on the item.
        if claim_held_by(&current, claim) && !current.status.is_settled() {
            let lost = lost_before.filter(|l| l.number == claim.number && l.lease_until <= claim.started_at);
            return Ok(Claim::Claimed {
                delivery: current,
                lost,
            });
        }
        match &current.claim {
            Some(expired)
                if courier_app::domain::store_rules::claim_allowed(&current, claim.number, claim.started_at) =>
            {
                self.take_over(id, claim, current.clone(), expired.clone()).await
            }
            _ => Ok(Claim::Refused(Some(current))),
        }
    }

    async fn note_hold(&self, id: &DeliveryId, number: u32, until: Timestamp, now: Timestamp) -> PortResult<bool> {
        // The claim rule's condition (`hold_note_allowed`), so a note never lands on
        // an attempt already claimed or recorded; no version bump (display only).
        // The due-index sort key moves to the end of the hold in the same write, so
        // the reconciler does not take a held delivery for a lost one; without
        // `GSI4PK` (no entry) the key alone files nothing.
        let r = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(delivery_pk(id), DELIVERY_SK)))
            .update_expression("SET #throttledUntil = :until, #dueSk = :dueSk")
            .condition_expression(
                "attribute_exists(PK) AND #nextAttempt = :number \
                 AND NOT (#status IN (:succeeded, :failed, :dropped)) \
                 AND (attribute_not_exists(#claimLease) OR #claimLease <= :nowms) \
                 AND (attribute_not_exists(expiresAt) OR expiresAt > :now)",
            )
            .set_expression_attribute_names(Some(names(&[
                ("#throttledUntil", THROTTLED_UNTIL),
                ("#nextAttempt", NEXT_ATTEMPT),
                ("#status", STATUS),
                ("#claimLease", CLAIM_LEASE),
                ("#dueSk", crate::due_index::GSI4SK),
            ])))
            .set_expression_attribute_values(Some(HashMap::from([
                (":until".to_owned(), n(until.millis())),
                (":dueSk".to_owned(), s(crate::due_index::due_sk(until, id))),
                (":number".to_owned(), n(number)),
                (":succeeded".to_owned(), s("succeeded")),
                (":failed".to_owned(), s("failed")),
                (":dropped".to_owned(), s("dropped")),
                (":nowms".to_owned(), n(now.millis())),
                (":now".to_owned(), n(now_secs(self.now()))),
            ])))
            .send()
            .await;
        match r {
            Ok(_) => Ok(true),
            Err(e)
                if matches!(
                    e.as_service_error(),
                    Some(UpdateItemError::ConditionalCheckFailedException(_))
                ) =>
            {
                Ok(false)
            }
            Err(e) => Err(from_sdk(e)),
        }
    }

    async fn record_attempt(&self, delivery: &Delivery, attempt: &Attempt, held: &ClaimRecord) -> PortResult<()> {
        let claim_id = &held.attempt_id;
        // Only settling changes what a shared body must outlive: an unsettled
        // delivery (no TTL) was registered, TTL-less, by the write before its claim.
        if delivery.expires_at.is_some() {
            self.ensure_bodies(std::iter::once(delivery)).await?;
        }
        // One conditional write of the delivery item, the attempt embedded in it as
        // its latest. The attempt it replaces is first copied out to an item of its
        // own; the write's condition names that attempt, so what was copied is what
        // is replaced. A crash between the two leaves the attempt in both places,
        // which the reads tell apart by id. Only a delivery with an attempt before
        // this one can hold one: the first outcome reads nothing.
        let mut stored: Option<Item> = if delivery.attempt_count > 1 {
            self.get(delivery_pk(&delivery.id), DELIVERY_SK).await?
        } else {
            None
        };
        for round in 0..2 {
            let prior_text = stored.as_ref().and_then(|i| get_s(i, LAST_ATTEMPT)).map(str::to_owned);
            let prior = stored.as_ref().map(embedded_attempt).transpose()?.flatten();
            // Claims are numbered upward, so the new attempt is the latest; were it
            // not, it would get its own item and the latest would stay in place.
            let new_is_latest = prior
                .as_ref()
                .is_none_or(|p| attempt_sk(p.number, &p.id) <= attempt_sk(attempt.number, &attempt.id));
            let mut extra = Vec::new();
            if new_is_latest {
                if let Some(p) = prior.as_ref().filter(|p| p.id != attempt.id) {
                    self.put_attempt(p).await?;
                }
                extra.push((LAST_ATTEMPT.to_owned(), s(embedded_attempt_data(attempt)?)));
            } else {
                self.put_attempt(attempt).await?;
            }
            let mut values: Item = HashMap::from([
                (":claim".to_owned(), s(claim_id.as_str())),
                (":claimToken".to_owned(), s(held.token.as_str())),
                (":now".to_owned(), n(now_secs(self.now()))),
            ]);
            let mut condition = "#claimId = :claim AND #claimToken = :claimToken \
                 AND (attribute_not_exists(expiresAt) OR expiresAt > :now)"
                .to_owned();
            match prior_text {
                Some(text) => {
                    condition.push_str(" AND #last = :prior");
                    values.insert(":prior".to_owned(), s(text));
                }
                None => condition.push_str(" AND attribute_not_exists(#last)"),
            }
            let update = self.delivery_update_also(
                delivery,
                Writes::Outcome,
                extra,
                &condition,
                values,
                &[
                    ("#claimId", CLAIM_ID),
                    ("#claimToken", CLAIM_TOKEN),
                    ("#last", LAST_ATTEMPT),
                ],
            )?;
            let r = self
                .client
                .update_item()
                .table_name(update.table_name)
                .set_key(Some(update.key))
                .update_expression(update.update_expression)
                .set_condition_expression(update.condition_expression)
                .set_expression_attribute_names(update.expression_attribute_names)
                .set_expression_attribute_values(update.expression_attribute_values)
                .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
                .send()
                .await;
            let old = match r {
                Ok(_) => return Ok(()),
                Err(e) => match e.as_service_error() {
                    Some(UpdateItemError::ConditionalCheckFailedException(c)) => c.item.clone(),
                    _ => return Err(from_sdk(e)),
                },
            };
            let refused = || {
                PortError::Conflict(format!(
                    "delivery {} does not hold the claim for {claim_id}",
                    delivery.id
                ))
            };
            let Some(old) = old.filter(|i| is_live(get_n(i, TTL_ATTR), self.now())) else {
                return Err(refused());
            };
            // An SDK retry of a write that did land finds the claim gone: if exactly
            // this outcome is stored, the call succeeded.
            if self.stored_attempt(&old, attempt).await?.as_ref() == Some(attempt)
                && self.one_delivery(old.clone()).await? == *shared_body::stored_form(delivery)
            {
                return Ok(());
            }
            // Still ours, but the latest attempt was not the one expected: once
            // more with the one stored.
            let ours = claim_from(&old)?.is_some_and(|c| c.attempt_id == held.attempt_id && c.token == held.token);
            if !ours || round == 1 {
                return Err(refused());
            }
            stored = Some(old);
        }
        Err(PortError::Conflict(format!(
            "delivery {} does not hold the claim for {claim_id}",
            delivery.id
        )))
    }

    async fn update_delivery(&self, delivery: &Delivery, expected_version: u64) -> PortResult<()> {
        self.ensure_bodies(std::iter::once(delivery)).await?;
        let values: Item = HashMap::from([
            (":expected".to_owned(), n(expected_version)),
            (":now".to_owned(), n(now_secs(self.now()))),
        ]);
        let update = self.delivery_update(
            delivery,
            Writes::Whole,
            "attribute_exists(PK) AND #version = :expected AND (attribute_not_exists(expiresAt) OR expiresAt > :now)",
            values,
            &[("#version", VERSION)],
        )?;
        match self.run_update(update).await {
            Ok(()) => Ok(()),
            // Exactly this state is stored already (an SDK retry of a committed update).
            Err(e)
                if is_update_conflict(&e)
                    && self.load_delivery(&delivery.id).await?.as_ref()
                        == Some(&*shared_body::stored_form(delivery)) =>
            {
                Ok(())
            }
            Err(e) if is_update_conflict(&e) => Err(PortError::Conflict(format!(
                "delivery {} is missing or not at version {expected_version}",
                delivery.id
            ))),
            Err(e) => Err(from_sdk(e)),
        }
    }

    async fn list_attempts(&self, delivery: &DeliveryId) -> PortResult<Vec<Attempt>> {
        let now = self.now();
        let mut out: Vec<Attempt> = Vec::new();
        let mut start = None;
        // The partition from the first attempt item to the delivery item, which
        // sorts after them and holds the latest attempt.
        loop {
            let resp = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND SK BETWEEN :att AND :dlv")
                .expression_attribute_values(":pk", s(delivery_pk(delivery)))
                .expression_attribute_values(":att", s("ATT#"))
                .expression_attribute_values(":dlv", s(DELIVERY_SK))
                .consistent_read(true)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(from_sdk)?;
            for item in resp.items.unwrap_or_default() {
                let attempt = if get_s(&item, SK) == Some(DELIVERY_SK) {
                    match embedded_attempt(&item)? {
                        Some(a) if !out.iter().any(|o| o.id == a.id) => a,
                        _ => continue,
                    }
                } else if is_live(get_n(&item, TTL_ATTR), now) {
                    from_json(&item, "attempt")?
                } else {
                    continue;
                };
                if is_live(attempt.expires_at, now) {
                    out.push(attempt);
                }
            }
            start = resp.last_evaluated_key;
            if start.is_none() {
                return Ok(out);
            }
        }
    }

    async fn list_attempts_page(
        &self,
        delivery: &DeliveryId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Attempt>> {
        let spec = attempts_spec(delivery, true);
        // Where the page starts after: the latest attempt, embedded in the delivery
        // item (which sorts after every attempt item), is listed under its own
        // attempt key, so a cursor after it ends the list.
        let after = match cursor {
            Some(c) => decode_cursor(c, &spec)?.get(SK).and_then(|v| v.as_s().ok()).cloned(),
            None => None,
        };
        let now = self.now();
        let mut seen: HashSet<AttemptId> = HashSet::new();
        self.page(spec, cursor, limit, move |items| {
            std::future::ready(attempt_entries(items, &mut seen, after.as_deref(), now))
        })
        .await
    }

    async fn get_attempt(&self, delivery: &DeliveryId, id: &AttemptId) -> PortResult<Option<Attempt>> {
        if let Some(a) = self.latest_attempt(delivery).await?
            && &a.id == id
        {
            return Ok(Some(a));
        }
        // The sort key starts with the number, which the caller does not know. DynamoDB
        // refuses filter expressions on key attributes, and a filter would not lower
        // the read units anyway (they count what the query reads), so the key's id is
        // matched here while the expiry stays a server-side filter.
        let mut start = None;
        let now = self.now();
        let suffix = format!("#{id}");
        loop {
            let resp = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND begins_with(SK, :att)")
                .filter_expression("attribute_not_exists(expiresAt) OR expiresAt > :now")
                .expression_attribute_values(":pk", s(delivery_pk(delivery)))
                .expression_attribute_values(":att", s("ATT#"))
                .expression_attribute_values(":now", n(now_secs(now)))
                .consistent_read(true)
                .set_exclusive_start_key(start)
                .send()
                .await
                .map_err(from_sdk)?;
            let found = resp.items.unwrap_or_default().into_iter().find(|item| {
                item.get(SK)
                    .and_then(|v| v.as_s().ok())
                    .is_some_and(|sk| sk.ends_with(&suffix))
            });
            if let Some(item) = found {
                return from_json(&item, "attempt").map(Some);
            }
            start = resp.last_evaluated_key;
            if start.is_none() {
                return Ok(None);
            }
        }
    }

    async fn last_attempt(&self, delivery: &DeliveryId) -> PortResult<Option<Attempt>> {
        // The latest attempt is always the embedded one (every outcome writes it).
        self.latest_attempt(delivery).await
    }

    async fn list_deliveries(
        &self,
        endpoint: &EndpointId,
        status: Option<&str>,
        since: Option<Timestamp>,
        until: Option<Timestamp>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Delivery>> {
        let (index, pk, sk, status_filter) = match status {
            Some(st) if indexed_status(st) => (GSI_STATUS, (GSI2PK, status_pk(endpoint, st)), GSI2SK, None),
            // Kept out of the status index: the whole log, filtered below.
            Some(st) => (GSI_LOG, (GSI1PK, log_pk(endpoint)), GSI1SK, Some(st.to_owned())),
            None => (GSI_LOG, (GSI1PK, log_pk(endpoint)), GSI1SK, None),
        };
        if empty_window(since, until) {
            return Ok(Page {
                items: vec![],
                next_cursor: None,
            });
        }
        // Both log indexes project keys only (a claim or an outcome then rewrites no
        // index entry unless the status moves), so a page is a query for keys and one
        // consistent BatchGetItem for the items. An item that expired, or whose status
        // has moved on since the index saw it (or, listed from the whole log, is in
        // another status), is left out: the page shows the table.
        let spec = QuerySpec {
            index: Some(index),
            pk,
            sk_attr: sk,
            sk_cond: window_condition(since, until),
            forward: false,
            ttl_filter: false,
            consistent: false,
            status_filter,
        };
        match status {
            // A status list is spread over shards (`status_pks`): merged.
            Some(st) if indexed_status(st) => {
                let values = status_pks(endpoint, st);
                self.merged_page(spec, values, cursor, limit, |keys| self.listed_deliveries(keys, status))
                    .await
            }
            _ => {
                self.page(spec, cursor, limit, |keys| self.listed_deliveries(keys, status))
                    .await
            }
        }
    }

    async fn list_events(
        &self,
        tenant: &TenantId,
        endpoint: Option<&EndpointId>,
        since: Option<Timestamp>,
        until: Option<Timestamp>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<EventRecord>> {
        if empty_window(since, until) {
            return Ok(Page {
                items: vec![],
                next_cursor: None,
            });
        }
        if let Some(endpoint) = endpoint {
            return self
                .events_of_endpoint(tenant, endpoint, since, until, cursor, limit)
                .await;
        }
        let spec = QuerySpec {
            index: Some(GSI_AUDIT),
            pk: (GSI3PK, audit_pk(tenant)),
            sk_attr: GSI3SK,
            sk_cond: window_condition(since, until),
            forward: false,
            ttl_filter: false,
            consistent: false,
            status_filter: None,
        };
        let now = self.now();
        self.page(spec, cursor, limit, |entries| async move {
            // The index holds keys and `eventId`; the events (payloads up to 256 KiB)
            // are read from the table, and expiry is judged on the event itself.
            let ids: Vec<String> = entries
                .iter()
                .filter_map(|i| get_s(i, EVENT_ID).map(str::to_owned))
                .collect();
            let events = self.live_events(tenant, ids.iter(), now).await?;
            Ok(entries
                .into_iter()
                .filter_map(|i| {
                    let e = get_s(&i, EVENT_ID).and_then(|id| events.get(id)).cloned()?;
                    Some((i, e))
                })
                .collect())
        })
        .await
    }
}

/// The cursor mark of the events-by-endpoint list, which pages through the
/// endpoint's delivery log like `list_deliveries` does: its cursors carry it, so
/// that neither list takes the other's (no status has this name).
const EVENTS_OF_ENDPOINT: &str = "#events";

impl DynamoStore {
    /// The tenant's live events among `ids` (each read once, by one BatchGetItem),
    /// by id; expired ones and other tenants' are left out.
    async fn live_events<'a>(
        &self,
        tenant: &TenantId,
        ids: impl Iterator<Item = &'a String>,
        now: Timestamp,
    ) -> PortResult<HashMap<String, EventRecord>> {
        let unique: HashSet<&String> = ids.collect();
        let keys: Vec<Item> = unique
            .into_iter()
            .map(|id| key(format!("EVT#{id}"), EVENT_SK))
            .collect();
        let mut events = HashMap::new();
        for item in self.batch_get(keys, false).await? {
            if !is_live(get_n(&item, TTL_ATTR), now) {
                continue;
            }
            let e = event_from_item(&item)?;
            if &e.tenant_id == tenant {
                events.insert(e.id.to_string(), e);
            }
        }
        Ok(events)
    }

    /// The events an endpoint got a delivery of, newest delivery first: the
    /// endpoint's delivery log (`GSI1`, keys only), the delivery items for their
    /// event ids (one BatchGetItem), then the events (another). Replay deliveries are
    /// left out (their event is listed under its original delivery), and so is
    /// anything of another tenant. The window and the page are the log's: by the
    /// delivery's creation instant, which is the event's for ingest and a little
    /// later for a stepped fan-out.
    async fn events_of_endpoint(
        &self,
        tenant: &TenantId,
        endpoint: &EndpointId,
        since: Option<Timestamp>,
        until: Option<Timestamp>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<EventRecord>> {
        let spec = QuerySpec {
            index: Some(GSI_LOG),
            pk: (GSI1PK, log_pk(endpoint)),
            sk_attr: GSI1SK,
            sk_cond: window_condition(since, until),
            forward: false,
            ttl_filter: false,
            consistent: false,
            status_filter: Some(EVENTS_OF_ENDPOINT.to_owned()),
        };
        let now = self.now();
        self.page(spec, cursor, limit, |keys| async move {
            let wanted: Vec<Item> = keys
                .iter()
                .filter_map(|k| Some(key(get_s(k, PK)?.to_owned(), get_s(k, SK)?)))
                .collect();
            // Each live delivery of the tenant's that is not a replay: its event id.
            let mut event_of: HashMap<String, String> = HashMap::new();
            for item in self.batch_get(wanted, false).await? {
                if !is_live(get_n(&item, TTL_ATTR), now) || get_s(&item, TENANT_ID) != Some(tenant.as_str()) {
                    continue;
                }
                let (Some(pk), Some((event, trigger))) = (get_s(&item, PK), event_and_trigger(&item)) else {
                    continue;
                };
                if trigger != Trigger::Replay {
                    event_of.insert(pk.to_owned(), event);
                }
            }
            let events = self.live_events(tenant, event_of.values(), now).await?;
            Ok(keys
                .into_iter()
                .filter_map(|k| {
                    let e = get_s(&k, PK)
                        .and_then(|pk| event_of.get(pk))
                        .and_then(|id| events.get(id))
                        .cloned()?;
                    Some((k, e))
                })
                .collect())
        })
        .await
    }

    /// An attempt's own item, put whole: attempts never change once recorded, so a
    /// repeated copy writes the same item.
    async fn put_attempt(&self, a: &Attempt) -> PortResult<()> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(attempt_item(a)?))
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    /// The latest attempt embedded in the delivery's item, while the attempt is
    /// live (attempts are kept longer than their delivery: their own expiry decides).
    async fn latest_attempt(&self, delivery: &DeliveryId) -> PortResult<Option<Attempt>> {
        let now = self.now();
        let out = self
            .client
            .get_item()
            .table_name(&self.table)
            .set_key(Some(key(delivery_pk(delivery), DELIVERY_SK)))
            .projection_expression("PK, #tenant, #last")
            .expression_attribute_names("#tenant", TENANT_ID)
            .expression_attribute_names("#last", LAST_ATTEMPT)
            .consistent_read(true)
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(match out.item {
            Some(item) => embedded_attempt(&item)?.filter(|a| is_live(a.expires_at, now)),
            None => None,
        })
    }

    /// The stored copy of `attempt` beside the delivery item `item`: embedded in it,
    /// or its own item.
    async fn stored_attempt(&self, item: &Item, attempt: &Attempt) -> PortResult<Option<Attempt>> {
        if let Some(a) = embedded_attempt(item)?
            && a.id == attempt.id
        {
            return Ok(Some(a));
        }
        self.get(
            delivery_pk(&attempt.delivery_id),
            &attempt_sk(attempt.number, &attempt.id),
        )
        .await?
        .map(|i| from_json::<Attempt>(&i, "attempt"))
        .transpose()
    }
}

impl DynamoStore {
    /// An event with one delivery, written as two conditional puts instead of a
    /// transaction (which bills every item twice): the event first, since it holds
    /// the delivery's body, then the delivery. A process that stops between the two
    /// leaves an event whose delivery does not exist yet: nothing is queued or sent
    /// (no delivery, no due-index entry), the caller got no answer and repeats the
    /// request, and the repeat finds this very event (it lists the delivery) and
    /// writes the delivery (docs/reliability.md).
    async fn create_single(&self, event: &EventRecord, event_item: Item, d: &Delivery) -> PortResult<()> {
        let (cond, values) = absent_or_expired(self.now());
        let conflict = || PortError::Conflict(format!("event {} or one of its deliveries already exists", event.id));
        let event_written = match self.put_if(event_item, cond, None, Some(values.clone())).await {
            Ok(w) => w,
            Err(e) => {
                self.release_after_failure(event, std::slice::from_ref(d)).await;
                return Err(e);
            }
        };
        if !event_written {
            // Ours already, from a repeat of this request that stopped before the
            // delivery: go on to write the delivery. Anyone else's: a conflict.
            let ours = match self.get_live(event_pk(&event.id), EVENT_SK).await? {
                Some(item) => event_from_item(&item)?
                    .targets
                    .iter()
                    .any(|t| t.delivery_id == d.id && t.endpoint_id == d.endpoint_id),
                None => false,
            };
            if !ours {
                self.release_after_failure(event, std::slice::from_ref(d)).await;
                return Err(PortError::Conflict(format!("event {} already exists", event.id)));
            }
        }
        if self.put_if(self.delivery_item(d)?, cond, None, Some(values)).await? {
            return Ok(());
        }
        // The delivery exists: a repeat's (same event and endpoint) is taken as
        // written. Another event's delivery under this id: the event this call
        // wrote must not stay behind naming it, so it goes again.
        let ours = self
            .load_delivery(&d.id)
            .await?
            .is_some_and(|stored| stored.event_id == event.id && stored.endpoint_id == d.endpoint_id);
        if ours {
            return Ok(());
        }
        if event_written {
            self.client
                .delete_item()
                .table_name(&self.table)
                .set_key(Some(key(event_pk(&event.id), EVENT_SK)))
                .condition_expression("attribute_exists(PK)")
                .send()
                .await
                .map_err(from_sdk)?;
        }
        self.release_after_failure(event, std::slice::from_ref(d)).await;
        Err(conflict())
    }

    /// After a failed event write: the shared bodies set up for its deliveries are
    /// released (see `release_bodies`); an error doing so is only logged.
    async fn release_after_failure(&self, event: &EventRecord, deliveries: &[Delivery]) {
        if let Err(release) = self.release_bodies(deliveries).await {
            tracing::warn!(event = %event.id, error = %release, "could not release the shared bodies of a failed event");
        }
    }
}
