//! Delivery statistics per endpoint (`courier_app::domain::stats`) in small items of the
//! endpoint's own partition `STAT#<tenant>#<endpoint>`: `HEAD` holds the current
//! minute's counters and the run of failed attempts, and every attempt adds to it
//! with one conditional `UpdateItem` (1 write unit: the item stays far under 1 KiB).
//! The first attempt of a new minute swaps the head for the new minute and rolls
//! the old one up: into its minute item `M#<ms>` (kept 2 hours) and its hour item
//! `H#<ms>` (kept 30 days), so those writes happen once per endpoint-minute. Reads
//! add the head's minute to what the items hold.

use super::*;
use courier_app::domain::stats::{
    Backlog, Granularity, HOUR_RETENTION_MS, MINUTE_RETENTION_MS, StatsCounts, StatsTally, StatsWindow, StreakChange,
    StreakMove,
};

const HEAD_SK: &str = "HEAD";
/// The head's minute (start, ms).
const H_MINUTE: &str = "m";
/// Writes to the head's minute: the swap is conditional on it, so the counts it
/// rolls up are exactly those read.
const H_WRITES: &str = "w";
const H_STREAK: &str = "streak";
/// Tries of the swap when other senders move the head meanwhile.
const SWAP_TRIES: usize = 8;
/// The newest deliveries of the log a backlog read looks at for `pending` ones
/// (the status index files no pending delivery).
const PENDING_LOOKBACK: i32 = 100;
/// Pages of one count query at most (each counts up to 1 MB of index keys).
const COUNT_PAGES: usize = 50;

pub fn stats_pk(tenant: &TenantId, endpoint: &EndpointId) -> String {
    format!("STAT#{tenant}#{endpoint}")
}

fn bucket_sk(prefix: char, start: i64) -> String {
    format!("{prefix}#{:015}", start.max(0))
}

fn counts_of(item: &Item) -> StatsCounts {
    StatsCounts::from_named(
        item.iter()
            .filter_map(|(k, v)| Some((k.as_str(), v.as_n().ok()?.parse::<u64>().ok()?))),
    )
}

/// `ADD` clauses and values for the non-zero counters.
fn add_clauses(counts: &StatsCounts, clauses: &mut Vec<String>, values: &mut Item) {
    for (name, v) in counts.named() {
        if v > 0 {
            clauses.push(format!("{name} :{name}"));
            values.insert(format!(":{name}"), n(v));
        }
    }
}

impl DynamoStore {
    /// `ADD`s the counts into a minute or hour item, setting its expiry.
    async fn add_to_bucket(&self, pk: &str, sk: &str, counts: &StatsCounts, expires: i64) -> PortResult<()> {
        let mut clauses = Vec::new();
        let mut values = HashMap::from([(":x".to_owned(), n(expires))]);
        add_clauses(counts, &mut clauses, &mut values);
        if clauses.is_empty() {
            return Ok(());
        }
        self.client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(pk.to_owned(), sk)))
            .update_expression(format!("ADD {} SET #x = :x", clauses.join(", ")))
            .set_expression_attribute_names(Some(names(&[("#x", TTL_ATTR)])))
            .set_expression_attribute_values(Some(values))
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    /// Rolls a minute's counts up into its minute and hour items.
    async fn roll_up(&self, pk: &str, minute: i64, counts: &StatsCounts) -> PortResult<()> {
        let hour = Granularity::Hour.floor(Timestamp::from_millis(minute)).millis();
        let minute_expiry = (minute + MINUTE_RETENTION_MS + 60_000) / 1000;
        let hour_expiry = (hour + HOUR_RETENTION_MS + 3_600_000) / 1000;
        self.add_to_bucket(pk, &bucket_sk('M', minute), counts, minute_expiry)
            .await?;
        self.add_to_bucket(pk, &bucket_sk('H', hour), counts, hour_expiry).await
    }

    /// The head item for `minute` holding `counts` and `streak`.
    fn head_item(pk: &str, minute: i64, counts: &StatsCounts, streak: u32) -> Item {
        let mut item = key(pk.to_owned(), HEAD_SK);
        item.insert(H_MINUTE.to_owned(), n(minute));
        item.insert(H_WRITES.to_owned(), n(1));
        item.insert(H_STREAK.to_owned(), n(streak));
        // An idle endpoint's head goes when its minute could no longer be read.
        item.insert(TTL_ATTR.to_owned(), n((minute + HOUR_RETENTION_MS) / 1000));
        for (name, v) in counts.named() {
            if v > 0 {
                item.insert(name, n(v));
            }
        }
        item
    }

    /// The one write of the usual case: the tally into the head of its minute (a
    /// new head for an endpoint's first count). `None` when the head holds another
    /// minute.
    async fn add_to_head(&self, pk: &str, minute: i64, tally: &StatsTally) -> PortResult<Option<StreakMove>> {
        let mut clauses = vec![format!("{H_WRITES} :one")];
        let mut values = HashMap::from([
            (":one".to_owned(), n(1)),
            (":m".to_owned(), n(minute)),
            (":x".to_owned(), n((minute + HOUR_RETENTION_MS) / 1000)),
        ]);
        add_clauses(&tally.counts, &mut clauses, &mut values);
        // `m` and the expiry are set too, so the first count of an endpoint creates
        // its head in this one write.
        let mut update = format!("SET {H_MINUTE} = :m, #x = :x");
        match tally.streak {
            StreakChange::Reset(k) => {
                update.push_str(&format!(", {H_STREAK} = :s"));
                values.insert(":s".to_owned(), n(k));
            }
            StreakChange::Add(k) => {
                clauses.push(format!("{H_STREAK} :s"));
                values.insert(":s".to_owned(), n(k));
            }
            StreakChange::Keep => {
                clauses.push(format!("{H_STREAK} :zero"));
                values.insert(":zero".to_owned(), n(0));
            }
        }
        update.push_str(&format!(" ADD {}", clauses.join(", ")));
        let r = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(pk.to_owned(), HEAD_SK)))
            .update_expression(update)
            .condition_expression(format!("attribute_not_exists({H_MINUTE}) OR {H_MINUTE} = :m"))
            .set_expression_attribute_names(Some(names(&[("#x", TTL_ATTR)])))
            .set_expression_attribute_values(Some(values))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::AllOld)
            .send()
            .await;
        match r {
            Ok(out) => {
                // The run as it was before this write (none: a new head).
                let before = out.attributes.as_ref().and_then(|a| get_n(a, H_STREAK)).unwrap_or(0);
                let before = u32::try_from(before).unwrap_or(u32::MAX);
                Ok(Some(StreakMove {
                    before,
                    after: tally.streak.apply(before),
                }))
            }
            Err(e) if is_update_conflict(&e) => Ok(None),
            Err(e) => Err(from_sdk(e)),
        }
    }

    pub(super) async fn add_stats_apart(&self, tally: &StatsTally) -> PortResult<StreakMove> {
        let pk = stats_pk(&tally.tenant, &tally.endpoint);
        let minute = Granularity::Minute.floor(tally.at).millis();
        for _ in 0..SWAP_TRIES {
            if let Some(streak) = self.add_to_head(&pk, minute, tally).await? {
                return Ok(streak);
            }
            let Some(head) = self.get(pk.clone(), HEAD_SK).await? else {
                let streak = tally.streak.apply(0);
                if self
                    .put_new(Self::head_item(&pk, minute, &tally.counts, streak))
                    .await?
                {
                    return Ok(StreakMove {
                        before: 0,
                        after: streak,
                    });
                }
                continue;
            };
            let old_minute = get_n(&head, H_MINUTE).unwrap_or(0);
            let old_streak = u32::try_from(get_n(&head, H_STREAK).unwrap_or(0)).unwrap_or(0);
            if old_minute > minute {
                // A late attempt (a lost one recorded at its lease's end): into its
                // own minute's items; the run moves on the head.
                self.roll_up(&pk, minute, &tally.counts).await?;
                return self.move_streak(&pk, tally.streak).await;
            }
            if old_minute == minute {
                // The head moved to our minute meanwhile: add to it.
                continue;
            }
            // Our minute is newer: swap the head, then roll its old minute up. The
            // swap is conditional on the writes read, so only one sender rolls a
            // minute up, and only the counts it read.
            let streak = tally.streak.apply(old_streak);
            let writes = get_n(&head, H_WRITES).unwrap_or(0);
            let swapped = self
                .put_if(
                    Self::head_item(&pk, minute, &tally.counts, streak),
                    &format!("{H_MINUTE} = :om AND {H_WRITES} = :ow"),
                    None,
                    Some(HashMap::from([
                        (":om".to_owned(), n(old_minute)),
                        (":ow".to_owned(), n(writes)),
                    ])),
                )
                .await?;
            if swapped {
                // A crash here loses the old minute's counts (docs/cost.md).
                self.roll_up(&pk, old_minute, &counts_of(&head)).await?;
                return Ok(StreakMove {
                    before: old_streak,
                    after: streak,
                });
            }
        }
        Err(PortError::Conflict(format!(
            "statistics head of endpoint {} kept moving",
            tally.endpoint
        )))
    }

    async fn move_streak(&self, pk: &str, change: StreakChange) -> PortResult<StreakMove> {
        let (expr, k) = match change {
            StreakChange::Reset(k) => (format!("SET {H_STREAK} = :s"), k),
            StreakChange::Add(k) => (format!("ADD {H_STREAK} :s"), k),
            StreakChange::Keep => (format!("ADD {H_STREAK} :s"), 0),
        };
        let out = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(pk.to_owned(), HEAD_SK)))
            .update_expression(expr)
            .condition_expression("attribute_exists(PK)")
            .set_expression_attribute_values(Some(HashMap::from([(":s".to_owned(), n(k))])))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::AllOld)
            .send()
            .await
            .map_err(from_sdk)?;
        let before = out.attributes.as_ref().and_then(|a| get_n(a, H_STREAK)).unwrap_or(0);
        let before = u32::try_from(before).unwrap_or(u32::MAX);
        Ok(StreakMove {
            before,
            after: change.apply(before),
        })
    }

    pub(super) async fn endpoint_stats_apart(
        &self,
        tenant: &TenantId,
        endpoint: &EndpointId,
        window: &StatsWindow,
    ) -> PortResult<Vec<(Timestamp, StatsCounts)>> {
        let now = self.now();
        let g = window.granularity;
        let from = g
            .floor(window.since)
            .millis()
            .max(StatsWindow::oldest_kept(g, now).millis());
        let to = g.floor(window.until).millis();
        if from > to {
            return Ok(Vec::new());
        }
        let pk = stats_pk(tenant, endpoint);
        let prefix = match g {
            Granularity::Minute => 'M',
            Granularity::Hour => 'H',
        };
        let mut buckets: BTreeMap<i64, StatsCounts> = BTreeMap::new();
        let mut start_key: Option<Item> = None;
        // At most 30 days of hours or 2 hours of minutes: a few pages at most.
        for _ in 0..COUNT_PAGES {
            let out = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND SK BETWEEN :a AND :b")
                .set_expression_attribute_values(Some(HashMap::from([
                    (":pk".to_owned(), s(pk.clone())),
                    (":a".to_owned(), s(bucket_sk(prefix, from))),
                    (":b".to_owned(), s(bucket_sk(prefix, to))),
                ])))
                .set_exclusive_start_key(start_key.take())
                .send()
                .await
                .map_err(from_sdk)?;
            for item in out.items.unwrap_or_default() {
                if !is_live(get_n(&item, TTL_ATTR), now) {
                    continue;
                }
                let Some(start) = get_s(&item, SK).and_then(|k| k.get(2..)).and_then(|k| k.parse().ok()) else {
                    continue;
                };
                buckets.entry(start).or_default().add(&counts_of(&item));
            }
            match out.last_evaluated_key {
                Some(k) => start_key = Some(k),
                None => break,
            }
        }
        // The head's minute is not rolled up yet.
        if let Some(head) = self.get(pk, HEAD_SK).await?
            && let Some(m) = get_n(&head, H_MINUTE)
        {
            let start = g.floor(Timestamp::from_millis(m)).millis();
            if (from..=to).contains(&start) {
                buckets.entry(start).or_default().add(&counts_of(&head));
            }
        }
        Ok(buckets
            .into_iter()
            .filter(|(_, c)| !c.is_empty())
            .map(|(s, c)| (Timestamp::from_millis(s), c))
            .collect())
    }

    /// Index entries under `pk` in the status index, by count queries.
    async fn count_status(&self, pk: String) -> PortResult<u64> {
        let mut total = 0u64;
        let mut start_key: Option<Item> = None;
        for _ in 0..COUNT_PAGES {
            let out = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(GSI_STATUS)
                .key_condition_expression("#pk = :pk")
                .set_expression_attribute_names(Some(names(&[("#pk", GSI2PK)])))
                .set_expression_attribute_values(Some(HashMap::from([(":pk".to_owned(), s(pk.clone()))])))
                .select(aws_sdk_dynamodb::types::Select::Count)
                .set_exclusive_start_key(start_key.take())
                .send()
                .await
                .map_err(from_sdk)?;
            total += u64::try_from(out.count).unwrap_or(0);
            match out.last_evaluated_key {
                Some(k) => start_key = Some(k),
                None => break,
            }
        }
        Ok(total)
    }

    pub(super) async fn backlog_apart(&self, endpoint: &EndpointId) -> PortResult<Backlog> {
        let mut b = Backlog::default();
        for (status, slot) in [("retrying", 0), ("ambiguous", 0), ("scheduled", 1)] {
            for pk in status_pks(endpoint, status) {
                let c = self.count_status(pk).await?;
                if slot == 0 {
                    b.retrying += c;
                } else {
                    b.scheduled += c;
                }
            }
        }
        b.pending = self.recent_pending(endpoint).await?;
        Ok(b)
    }

    /// Pending deliveries among the endpoint's newest [`PENDING_LOOKBACK`]: a
    /// pending delivery is due now and is normally among the newest; the status
    /// index files none (it would cost an index write on every first try).
    async fn recent_pending(&self, endpoint: &EndpointId) -> PortResult<u64> {
        let out = self
            .client
            .query()
            .table_name(&self.table)
            .index_name(GSI_LOG)
            .key_condition_expression("#pk = :pk")
            .set_expression_attribute_names(Some(names(&[("#pk", GSI1PK)])))
            .set_expression_attribute_values(Some(HashMap::from([(":pk".to_owned(), s(log_pk(endpoint)))])))
            .scan_index_forward(false)
            .limit(PENDING_LOOKBACK)
            .send()
            .await
            .map_err(from_sdk)?;
        let keys: Vec<Item> = out
            .items
            .unwrap_or_default()
            .iter()
            .filter_map(|i| Some(key(get_s(i, PK)?.to_owned(), get_s(i, SK)?)))
            .collect();
        if keys.is_empty() {
            return Ok(0);
        }
        let now = self.now();
        let items = self.batch_get(keys, false).await?;
        Ok(items
            .iter()
            .filter(|i| is_live(get_n(i, TTL_ATTR), now) && get_s(i, STATUS) == Some("pending"))
            .count() as u64)
    }
}

#[async_trait]
impl courier_app::ports::StatsStore for DynamoStore {
    async fn add_stats(&self, tally: &StatsTally) -> PortResult<StreakMove> {
        self.add_stats_apart(tally).await
    }

    async fn endpoint_stats(
        &self,
        tenant: &TenantId,
        endpoint: &EndpointId,
        window: &StatsWindow,
    ) -> PortResult<Vec<(Timestamp, StatsCounts)>> {
        self.endpoint_stats_apart(tenant, endpoint, window).await
    }

    async fn backlog(&self, _tenant: &TenantId, endpoint: &EndpointId) -> PortResult<Backlog> {
        self.backlog_apart(endpoint).await
    }
}
