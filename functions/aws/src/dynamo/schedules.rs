//! `ScheduleStore` over the table: schedule items (`SCH#<id>`, versioned) and one
//! occurrence marker per (schedule, planned instant) (`OCC#<id>#<inverted ms>`, so a
//! forward query lists the newest first), both under the tenant's partition. The
//! marker is a conditional put: a duplicate firing finds the first one.

use super::*;
use courier_app::domain::schedule::{Occurrence, Schedule, occurrence_key};
use courier_app::ports::ScheduleStore;
use courier_core::ids::ScheduleId;

fn schedule_sk(id: &ScheduleId) -> String {
    format!("SCH#{id}")
}
fn occurrence_prefix(id: &ScheduleId) -> String {
    format!("OCC#{id}#")
}
/// An occurrence marker's item, with its TTL attribute when it has an expiry.
fn occurrence_item(o: &Occurrence) -> PortResult<Item> {
    let mut item = key(tenant_pk(&o.tenant_id), &occurrence_sk(o));
    item.insert(DATA.to_owned(), s(to_json(o)?));
    if let Some(e) = o.expires_at {
        item.insert(TTL_ATTR.to_owned(), n(e));
    }
    Ok(item)
}

fn occurrence_sk(o: &Occurrence) -> String {
    format!("{}{}", occurrence_prefix(&o.schedule_id), occurrence_key(o.planned_at))
}

impl DynamoStore {
    fn schedule_item(&self, schedule: &Schedule) -> PortResult<Item> {
        let mut item = key(tenant_pk(&schedule.tenant_id), &schedule_sk(&schedule.id));
        item.insert(DATA.to_owned(), s(to_json(schedule)?));
        item.insert(VERSION.to_owned(), n(schedule.version));
        Ok(item)
    }
}

#[async_trait]
impl ScheduleStore for DynamoStore {
    async fn create_schedule(&self, schedule: &Schedule) -> PortResult<()> {
        if self.put_new(self.schedule_item(schedule)?).await? {
            Ok(())
        } else {
            Err(PortError::Conflict(format!("schedule {} exists", schedule.id)))
        }
    }

    async fn get_schedule(&self, tenant: &TenantId, id: &ScheduleId) -> PortResult<Option<Schedule>> {
        match self.get(tenant_pk(tenant), &schedule_sk(id)).await? {
            None => Ok(None),
            Some(item) => Ok(Some(from_json(&item, "schedule")?)),
        }
    }

    async fn update_schedule(&self, schedule: &Schedule, expected_version: u64) -> PortResult<()> {
        let written = self
            .put_if(
                self.schedule_item(schedule)?,
                "attribute_exists(PK) AND #v = :expected",
                Some(HashMap::from([("#v".to_owned(), VERSION.to_owned())])),
                Some(HashMap::from([(":expected".to_owned(), n(expected_version))])),
            )
            .await?;
        if written {
            Ok(())
        } else {
            Err(PortError::Conflict(format!(
                "schedule {} is missing or not at version {expected_version}",
                schedule.id
            )))
        }
    }

    async fn delete_schedule(&self, tenant: &TenantId, id: &ScheduleId) -> PortResult<bool> {
        let out = self
            .client
            .delete_item()
            .table_name(&self.table)
            .set_key(Some(key(tenant_pk(tenant), &schedule_sk(id))))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::AllOld)
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(out.attributes.is_some_and(|a| !a.is_empty()))
    }

    async fn list_schedules(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Schedule>> {
        self.list_data(tenant, "SCH#", "schedule", cursor, limit).await
    }

    async fn put_occurrence(&self, occurrence: &Occurrence) -> PortResult<Option<Occurrence>> {
        let sk = occurrence_sk(occurrence);
        let item = occurrence_item(occurrence)?;
        if self.put_new(item).await? {
            return Ok(None);
        }
        match self.get(tenant_pk(&occurrence.tenant_id), &sk).await? {
            Some(first) => Ok(Some(from_json(&first, "occurrence")?)),
            None => Err(corrupt("occurrence marker refused but not found")),
        }
    }

    async fn replace_occurrence(&self, occurrence: &Occurrence) -> PortResult<()> {
        let item = occurrence_item(occurrence)?;
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .send()
            .await
            .map_err(from_sdk)?;
        Ok(())
    }

    async fn list_occurrences(
        &self,
        tenant: &TenantId,
        schedule: &ScheduleId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Occurrence>> {
        let prefix = occurrence_prefix(schedule);
        let spec = QuerySpec {
            index: None,
            pk: (PK, tenant_pk(tenant)),
            sk_attr: SK,
            // Between the prefix and the prefix + `~` (after every digit): only this
            // schedule's markers, and only its cursors continue the list.
            sk_cond: Some(SortCondition::Between(prefix.clone(), format!("{prefix}~"))),
            forward: true,
            ttl_filter: true,
            consistent: true,
            status_filter: None,
        };
        self.page(spec, cursor, limit, |items| async move {
            items
                .into_iter()
                .map(|i| {
                    let v: Occurrence = from_json(&i, "occurrence")?;
                    Ok((i, v))
                })
                .collect()
        })
        .await
    }
}
