//! In-memory applications, event types and portal activity ([`MemoryApplications`]):
//! the fake of [`ApplicationStore`], with the same uid uniqueness, version checks and
//! cursors bound to their list as the DynamoDB adapter.

use super::{hex, lock, unhex};
use crate::domain::model::{Application, EventType, Page, PortalActivity};
use crate::domain::store_rules::MAX_PAGE;
use crate::ports::{ApplicationStore, PortError, PortResult};
use async_trait::async_trait;
use courier_core::ids::TenantId;
use std::collections::BTreeMap;
use std::sync::Mutex;

#[derive(Default)]
struct State {
    /// (tenant, id) -> application.
    apps: BTreeMap<(String, String), Application>,
    /// (tenant, uid) -> id.
    uids: BTreeMap<(String, String), String>,
    /// (tenant, name) -> type.
    types: BTreeMap<(String, String), EventType>,
    /// (tenant, application or `-`) -> activity by id (ids ordered by time).
    activity: BTreeMap<(String, String), BTreeMap<String, PortalActivity>>,
}

#[derive(Default)]
pub struct MemoryApplications {
    state: Mutex<State>,
}

impl MemoryApplications {
    pub fn new() -> Self {
        Self::default()
    }
}

/// A cursor names its list (`kind` and tenant) and the last key handed out.
fn cursor_for(kind: &str, tenant: &TenantId, last: &str) -> String {
    hex(&format!("{kind}#{tenant}#{last}"))
}

fn cursor_after(kind: &str, tenant: &TenantId, cursor: Option<&str>) -> PortResult<Option<String>> {
    let Some(c) = cursor else { return Ok(None) };
    let text = unhex(c).ok_or(PortError::BadCursor)?;
    text.strip_prefix(&format!("{kind}#{tenant}#"))
        .map(|last| Some(last.to_owned()))
        .ok_or(PortError::BadCursor)
}

fn page_of<T: Clone>(
    kind: &str,
    tenant: &TenantId,
    items: &BTreeMap<(String, String), T>,
    cursor: Option<&str>,
    limit: u32,
) -> PortResult<Page<T>> {
    let after = cursor_after(kind, tenant, cursor)?;
    let limit = limit.clamp(1, MAX_PAGE) as usize;
    let t = tenant.to_string();
    let mut picked: Vec<(&String, &T)> = items
        .range((t.clone(), after.clone().unwrap_or_default())..)
        .take_while(|((k, _), _)| *k == t)
        .filter(|((_, key), _)| after.as_ref().is_none_or(|a| key > a))
        .map(|((_, key), v)| (key, v))
        .take(limit + 1)
        .collect();
    let more = picked.len() > limit;
    picked.truncate(limit);
    let next_cursor = more
        .then(|| picked.last().map(|(k, _)| cursor_for(kind, tenant, k)))
        .flatten();
    Ok(Page {
        items: picked.into_iter().map(|(_, v)| v.clone()).collect(),
        next_cursor,
    })
}

#[async_trait]
impl ApplicationStore for MemoryApplications {
    async fn create_application(&self, app: &Application) -> PortResult<()> {
        let mut s = lock(&self.state);
        let t = app.tenant_id.to_string();
        if s.apps.contains_key(&(t.clone(), app.id.clone())) {
            return Err(PortError::Conflict(format!("application {} exists", app.id)));
        }
        if let Some(uid) = &app.uid {
            if s.uids.contains_key(&(t.clone(), uid.clone())) {
                return Err(PortError::Conflict(format!("uid {uid} is taken")));
            }
            s.uids.insert((t.clone(), uid.clone()), app.id.clone());
        }
        s.apps.insert((t, app.id.clone()), app.clone());
        Ok(())
    }

    async fn get_application(&self, tenant: &TenantId, id: &str) -> PortResult<Option<Application>> {
        Ok(lock(&self.state)
            .apps
            .get(&(tenant.to_string(), id.to_owned()))
            .cloned())
    }

    async fn get_application_by_uid(&self, tenant: &TenantId, uid: &str) -> PortResult<Option<Application>> {
        let s = lock(&self.state);
        let t = tenant.to_string();
        Ok(s.uids
            .get(&(t.clone(), uid.to_owned()))
            .and_then(|id| s.apps.get(&(t, id.clone())))
            .cloned())
    }

    async fn update_application(&self, app: &Application, expected_version: u64) -> PortResult<()> {
        let mut s = lock(&self.state);
        let t = app.tenant_id.to_string();
        let key = (t.clone(), app.id.clone());
        let old_uid = match s.apps.get(&key) {
            Some(old) if old.version == expected_version => old.uid.clone(),
            _ => return Err(PortError::Conflict(format!("application {} changed", app.id))),
        };
        if let Some(uid) = &app.uid
            && s.uids
                .get(&(t.clone(), uid.clone()))
                .is_some_and(|owner| *owner != app.id)
        {
            return Err(PortError::Conflict(format!("uid {uid} is taken")));
        }
        if let Some(old) = old_uid {
            s.uids.remove(&(t.clone(), old));
        }
        if let Some(uid) = &app.uid {
            s.uids.insert((t, uid.clone()), app.id.clone());
        }
        s.apps.insert(key, app.clone());
        Ok(())
    }

    async fn delete_application(&self, tenant: &TenantId, id: &str) -> PortResult<bool> {
        let mut s = lock(&self.state);
        let t = tenant.to_string();
        match s.apps.remove(&(t.clone(), id.to_owned())) {
            Some(app) => {
                if let Some(uid) = app.uid {
                    s.uids.remove(&(t, uid));
                }
                Ok(true)
            }
            None => Ok(false),
        }
    }

    async fn list_applications(
        &self,
        tenant: &TenantId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Application>> {
        page_of("app", tenant, &lock(&self.state).apps, cursor, limit)
    }

    async fn create_event_type(&self, event_type: &EventType) -> PortResult<()> {
        let mut s = lock(&self.state);
        let key = (event_type.tenant_id.to_string(), event_type.name.clone());
        if s.types.contains_key(&key) {
            return Err(PortError::Conflict(format!("event type {} exists", event_type.name)));
        }
        s.types.insert(key, event_type.clone());
        Ok(())
    }

    async fn get_event_type(&self, tenant: &TenantId, name: &str) -> PortResult<Option<EventType>> {
        Ok(lock(&self.state)
            .types
            .get(&(tenant.to_string(), name.to_owned()))
            .cloned())
    }

    async fn update_event_type(&self, event_type: &EventType) -> PortResult<()> {
        let mut s = lock(&self.state);
        let key = (event_type.tenant_id.to_string(), event_type.name.clone());
        match s.types.get_mut(&key) {
            Some(stored) => {
                *stored = event_type.clone();
                Ok(())
            }
            None => Err(PortError::Conflict(format!(
                "event type {} does not exist",
                event_type.name
            ))),
        }
    }

    async fn list_event_types(
        &self,
        tenant: &TenantId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<EventType>> {
        page_of("evt", tenant, &lock(&self.state).types, cursor, limit)
    }

    async fn put_portal_activity(&self, activity: &PortalActivity) -> PortResult<()> {
        let mut s = lock(&self.state);
        let list = s
            .activity
            .entry((
                activity.tenant_id.to_string(),
                activity.application_id.clone().unwrap_or_else(|| "-".to_owned()),
            ))
            .or_default();
        if list.contains_key(&activity.id) {
            return Err(PortError::Conflict(format!("activity {} exists", activity.id)));
        }
        list.insert(activity.id.clone(), activity.clone());
        Ok(())
    }

    async fn list_portal_activity(
        &self,
        tenant: &TenantId,
        application: Option<&str>,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<PortalActivity>> {
        let app = application.unwrap_or("-");
        let kind = format!("pact#{app}");
        let after = cursor_after(&kind, tenant, cursor)?;
        let limit = limit.clamp(1, MAX_PAGE) as usize;
        let s = lock(&self.state);
        let mut picked: Vec<&PortalActivity> = s
            .activity
            .get(&(tenant.to_string(), app.to_owned()))
            .into_iter()
            .flat_map(|l| l.values().rev())
            .filter(|a| after.as_ref().is_none_or(|after| a.id < *after))
            .take(limit + 1)
            .collect();
        let more = picked.len() > limit;
        picked.truncate(limit);
        let next_cursor = more
            .then(|| picked.last().map(|a| cursor_for(&kind, tenant, &a.id)))
            .flatten();
        Ok(Page {
            items: picked.into_iter().cloned().collect(),
            next_cursor,
        })
    }
}
