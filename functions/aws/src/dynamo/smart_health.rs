//! SmartChat health in an item of its own per endpoint (`EPH#<tenant>#<endpoint>`,
//! `H`), apart from the endpoint record on the tenant's partition: every success
//! of a SmartChat endpoint moves its last success, and as one conditional update of
//! a small item it reads nothing, never collides on the endpoint's version and
//! writes 1 unit on a key of the endpoint's own. Reads of a SmartChat endpoint take
//! its health from here; an endpoint whose health was never written apart keeps
//! the one in its record.

use super::*;
use aws_sdk_dynamodb::operation::put_item::PutItemError;
use courier_core::health::{HealthStatus, SmartHealth};

const HEALTH_SK: &str = "H";
const H_STATUS: &str = "status";
const H_FAILURES: &str = "failures";
const H_QUIET: &str = "quietSince";
const H_SINCE: &str = "since";

/// The health item's partition: the endpoint's own, under its tenant.
pub fn smart_health_pk(tenant: &TenantId, endpoint: &EndpointId) -> String {
    format!("EPH#{tenant}#{endpoint}")
}

/// The health a health item holds.
fn health_from(item: &Item) -> PortResult<SmartHealth> {
    let bad = |what: &str| corrupt(format!("endpoint health: {what}"));
    Ok(SmartHealth {
        status: get_s(item, H_STATUS)
            .and_then(HealthStatus::from_wire_name)
            .ok_or_else(|| bad("status"))?,
        failures_in_a_row: get_n(item, H_FAILURES)
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| bad("failures"))?,
        quiet_since: Timestamp::from_millis(get_n(item, H_QUIET).ok_or_else(|| bad("quietSince"))?),
        since: Timestamp::from_millis(get_n(item, H_SINCE).ok_or_else(|| bad("since"))?),
    })
}

/// `h`'s attributes, as values named `:<prefix><attribute>`.
fn values_of(h: &SmartHealth, prefix: &str) -> Item {
    HashMap::from([
        (format!(":{prefix}status"), s(h.status.wire_name())),
        (format!(":{prefix}failures"), n(h.failures_in_a_row)),
        (format!(":{prefix}quiet"), n(h.quiet_since.millis())),
        (format!(":{prefix}since"), n(h.since.millis())),
    ])
}

impl DynamoStore {
    /// `endpoints` with the health kept apart for those that have one (SmartChat
    /// endpoints only): one consistent BatchGetItem.
    pub(super) async fn with_smart_health(&self, mut endpoints: Vec<Endpoint>) -> PortResult<Vec<Endpoint>> {
        let keys: Vec<Item> = endpoints
            .iter()
            .filter(|e| e.policy.health.smart_rules().is_some())
            .map(|e| smart_health_pk(&e.tenant_id, &e.id))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|pk| key(pk, HEALTH_SK))
            .collect();
        if keys.is_empty() {
            return Ok(endpoints);
        }
        let mut found: HashMap<String, SmartHealth> = HashMap::new();
        for item in self.batch_get(keys, true).await? {
            let pk = get_s(&item, PK).unwrap_or_default().to_owned();
            found.insert(pk, health_from(&item)?);
        }
        for e in endpoints.iter_mut() {
            if e.policy.health.smart_rules().is_some()
                && let Some(h) = found.get(&smart_health_pk(&e.tenant_id, &e.id))
            {
                e.health = Some(*h);
            }
        }
        Ok(endpoints)
    }

    pub(super) async fn note_success_apart(
        &self,
        tenant: &TenantId,
        id: &EndpointId,
        now: Timestamp,
    ) -> PortResult<bool> {
        let r = self
            .client
            .update_item()
            .table_name(&self.table)
            .set_key(Some(key(smart_health_pk(tenant, id), HEALTH_SK)))
            .update_expression("SET #f = :zero, #q = :now")
            .condition_expression("#s = :active AND #q < :now")
            .set_expression_attribute_names(Some(names(&[("#f", H_FAILURES), ("#q", H_QUIET), ("#s", H_STATUS)])))
            .set_expression_attribute_values(Some(HashMap::from([
                (":zero".to_owned(), n(0)),
                (":now".to_owned(), n(now.millis())),
                (":active".to_owned(), s(HealthStatus::Active.wire_name())),
            ])))
            .send()
            .await;
        match r {
            Ok(_) => Ok(true),
            Err(e) if is_update_conflict(&e) => Ok(false),
            Err(e) => Err(from_sdk(e)),
        }
    }

    pub(super) async fn put_health_apart(
        &self,
        tenant: &TenantId,
        id: &EndpointId,
        expected: Option<&SmartHealth>,
        new: &SmartHealth,
    ) -> PortResult<()> {
        let mut item = key(smart_health_pk(tenant, id), HEALTH_SK);
        item.insert(H_STATUS.to_owned(), s(new.status.wire_name()));
        item.insert(H_FAILURES.to_owned(), n(new.failures_in_a_row));
        item.insert(H_QUIET.to_owned(), n(new.quiet_since.millis()));
        item.insert(H_SINCE.to_owned(), n(new.since.millis()));
        // The first write apart takes over from the record's health; after it, only
        // the health that was read may be replaced (any, when none was read).
        let mut put = self.client.put_item().table_name(&self.table).set_item(Some(item));
        if let Some(h) = expected {
            put = put
                .condition_expression(
                    "attribute_not_exists(PK) OR (#s = :xstatus AND #f = :xfailures AND #q = :xquiet AND #si = :xsince)",
                )
                .set_expression_attribute_names(Some(names(&[
                    ("#s", H_STATUS),
                    ("#f", H_FAILURES),
                    ("#q", H_QUIET),
                    ("#si", H_SINCE),
                ])))
                .set_expression_attribute_values(Some(values_of(h, "x")));
        }
        match put.send().await {
            Ok(_) => Ok(()),
            Err(e)
                if matches!(
                    e.as_service_error(),
                    Some(PutItemError::ConditionalCheckFailedException(_))
                ) =>
            {
                // Exactly this health is stored already (an SDK retry that landed).
                let stored = self.get(smart_health_pk(tenant, id), HEALTH_SK).await?;
                match stored.map(|i| health_from(&i)).transpose()? {
                    Some(h) if h == *new => Ok(()),
                    _ => Err(PortError::Conflict(format!("endpoint {id}'s health has changed"))),
                }
            }
            Err(e) => Err(from_sdk(e)),
        }
    }
}
