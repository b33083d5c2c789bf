//! `ApplicationStore` over the table: application items (`APP#<id>`), one uid
//! marker per taken uid (`APPUID#<uid>`, naming its application) so a uid stays
//! unique per tenant under concurrent writes, event type items (`ETYPE#<name>`) and
//! portal activity (`PACT#<application or ->#<id>`, ids ordered by time, with a
//! TTL), all under the tenant's partition.

use super::*;
use aws_sdk_dynamodb::types::Delete;
use courier_app::domain::model::{Application, EventType, PortalActivity};
use courier_app::ports::ApplicationStore;

fn app_sk(id: &str) -> String {
    format!("APP#{id}")
}
fn uid_sk(uid: &str) -> String {
    format!("APPUID#{uid}")
}
fn event_type_sk(name: &str) -> String {
    format!("ETYPE#{name}")
}
/// The activity of one application's links (`-`: links without an application).
fn activity_prefix(application: Option<&str>) -> String {
    format!("PACT#{}#", application.unwrap_or("-"))
}
/// The uid marker's attribute naming its application.
const OWNER: &str = "owner";

impl DynamoStore {
    fn app_item(&self, app: &Application) -> PortResult<Item> {
        let mut item = key(tenant_pk(&app.tenant_id), &app_sk(&app.id));
        item.insert(DATA.to_owned(), s(to_json(app)?));
        item.insert(VERSION.to_owned(), n(app.version));
        Ok(item)
    }

    fn uid_put(&self, app: &Application, uid: &str) -> PortResult<TransactWriteItem> {
        let mut item = key(tenant_pk(&app.tenant_id), &uid_sk(uid));
        item.insert(OWNER.to_owned(), s(app.id.as_str()));
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression("attribute_not_exists(PK) OR #o = :me")
            .expression_attribute_names("#o", OWNER)
            .expression_attribute_values(":me", s(app.id.as_str()))
            .build()
            .map_err(from_build)?;
        Ok(TransactWriteItem::builder().put(put).build())
    }

    fn uid_delete(&self, tenant: &TenantId, uid: &str) -> PortResult<TransactWriteItem> {
        let delete = Delete::builder()
            .table_name(&self.table)
            .set_key(Some(key(tenant_pk(tenant), &uid_sk(uid))))
            .build()
            .map_err(from_build)?;
        Ok(TransactWriteItem::builder().delete(delete).build())
    }

    async fn transact(&self, actions: Vec<TransactWriteItem>, what: impl FnOnce() -> String) -> PortResult<()> {
        self.client
            .transact_write_items()
            .set_transact_items(Some(actions))
            .send()
            .await
            .map_err(|e| from_transaction(e, what))?;
        Ok(())
    }
}

#[async_trait]
impl ApplicationStore for DynamoStore {
    async fn create_application(&self, app: &Application) -> PortResult<()> {
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(self.app_item(app)?))
            .condition_expression("attribute_not_exists(PK)")
            .build()
            .map_err(from_build)?;
        let mut actions = vec![TransactWriteItem::builder().put(put).build()];
        if let Some(uid) = &app.uid {
            actions.push(self.uid_put(app, uid)?);
        }
        self.transact(actions, || format!("application {} exists or its uid is taken", app.id))
            .await
    }

    async fn get_application(&self, tenant: &TenantId, id: &str) -> PortResult<Option<Application>> {
        match self.get(tenant_pk(tenant), &app_sk(id)).await? {
            None => Ok(None),
            Some(item) => Ok(Some(from_json(&item, "application")?)),
        }
    }

    async fn get_application_by_uid(&self, tenant: &TenantId, uid: &str) -> PortResult<Option<Application>> {
        let Some(marker) = self.get(tenant_pk(tenant), &uid_sk(uid)).await? else {
            return Ok(None);
        };
        let owner = get_s(&marker, OWNER).ok_or_else(|| corrupt("uid marker without owner"))?;
        self.get_application(tenant, owner).await
    }

    async fn update_application(&self, app: &Application, expected_version: u64) -> PortResult<()> {
        let old = self.get_application(&app.tenant_id, &app.id).await?;
        let old_uid = match &old {
            Some(o) if o.version == expected_version => o.uid.clone(),
            _ => {
                return Err(PortError::Conflict(format!(
                    "application {} is missing or not at version {expected_version}",
                    app.id
                )));
            }
        };
        let put = Put::builder()
            .table_name(&self.table)
            .set_item(Some(self.app_item(app)?))
            .condition_expression("attribute_exists(PK) AND #v = :expected")
            .expression_attribute_names("#v", VERSION)
            .expression_attribute_values(":expected", n(expected_version))
            .build()
            .map_err(from_build)?;
        let mut actions = vec![TransactWriteItem::builder().put(put).build()];
        if old_uid != app.uid {
            if let Some(uid) = &app.uid {
                actions.push(self.uid_put(app, uid)?);
            }
            if let Some(uid) = &old_uid {
                actions.push(self.uid_delete(&app.tenant_id, uid)?);
            }
        }
        self.transact(actions, || {
            format!("application {} changed meanwhile or its uid is taken", app.id)
        })
        .await
    }

    async fn delete_application(&self, tenant: &TenantId, id: &str) -> PortResult<bool> {
        let Some(app) = self.get_application(tenant, id).await? else {
            return Ok(false);
        };
        let delete = Delete::builder()
            .table_name(&self.table)
            .set_key(Some(key(tenant_pk(tenant), &app_sk(id))))
            .build()
            .map_err(from_build)?;
        let mut actions = vec![TransactWriteItem::builder().delete(delete).build()];
        if let Some(uid) = &app.uid {
            actions.push(self.uid_delete(tenant, uid)?);
        }
        self.transact(actions, || format!("application {id} changed meanwhile"))
            .await?;
        Ok(true)
    }

    async fn list_applications(
        &self,
        tenant: &TenantId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Application>> {
        self.list_data(tenant, "APP#", "application", cursor, limit).await
    }

    async fn create_event_type(&self, event_type: &EventType) -> PortResult<()> {
        let mut item = key(tenant_pk(&event_type.tenant_id), &event_type_sk(&event_type.name));
        item.insert(DATA.to_owned(), s(to_json(event_type)?));
        if self.put_new(item).await? {
            Ok(())
        } else {
            Err(PortError::Conflict(format!("event type {} exists", event_type.name)))
        }
    }

    async fn get_event_type(&self, tenant: &TenantId, name: &str) -> PortResult<Option<EventType>> {
        match self.get(tenant_pk(tenant), &event_type_sk(name)).await? {
            None => Ok(None),
            Some(item) => Ok(Some(from_json(&item, "event type")?)),
        }
    }

    async fn update_event_type(&self, event_type: &EventType) -> PortResult<()> {
        let mut item = key(tenant_pk(&event_type.tenant_id), &event_type_sk(&event_type.name));
        item.insert(DATA.to_owned(), s(to_json(event_type)?));
        if self.put_if(item, "attribute_exists(PK)", None, None).await? {
            Ok(())
        } else {
            Err(PortError::Conflict(format!(
                "event type {} does not exist",
                event_type.name
            )))
        }
    }

    async fn list_event_types(
        &self,
        tenant: &TenantId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<EventType>> {
        self.list_data(tenant, "ETYPE#", "event type", cursor, limit).await
    }

    async fn put_portal_activity(&self, activity: &PortalActivity) -> PortResult<()> {
        let sk = format!("{}{}", activity_prefix(activity.application_id.as_deref()), activity.id);
        let mut item = key(tenant_pk(&activity.tenant_id), &sk);
        item.insert(DATA.to_owned(), s(to_json(activity)?));
        item.insert(TTL_ATTR.to_owned(), n(activity.expires_at));
        if self.put_new(item).await? {
            Ok(())
        } else {
            Err(PortError::Conflict(format!("activity {} exists", activity.id)))
        }
    }

    async fn list_portal_activity(
        &self,
        tenant: &TenantId,
        application: Option<&str>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<PortalActivity>> {
        let prefix = activity_prefix(application);
        let spec = QuerySpec {
            index: None,
            pk: (PK, tenant_pk(tenant)),
            sk_attr: SK,
            // `~` sorts after every character of an activity id.
            sk_cond: Some(SortCondition::Between(prefix.clone(), format!("{prefix}~"))),
            forward: false,
            ttl_filter: true,
            consistent: false,
            status_filter: None,
        };
        self.page(spec, cursor, limit, move |items| async move {
            items
                .into_iter()
                .map(|i| {
                    let v: PortalActivity = from_json(&i, "portal activity")?;
                    Ok((i, v))
                })
                .collect()
        })
        .await
    }
}
