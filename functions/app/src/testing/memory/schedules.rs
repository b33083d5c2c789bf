//! In-memory schedules ([`MemorySchedules`], the fake of [`ScheduleStore`]: version
//! checks, one occurrence per (schedule, planned instant), cursors bound to their
//! list) and the recurring timer ([`MemoryRecurring`], the fake of
//! [`RecurringTimer`], which keeps what it was told so tests can fire it).

use super::{hex, lock, unhex};
use crate::domain::model::Page;
use crate::domain::schedule::{Occurrence, RecurringSpec, Schedule, occurrence_key};
use crate::domain::store_rules::MAX_PAGE;
use crate::ports::{PortError, PortResult};
use crate::ports::{RecurringTimer, ScheduleStore};
use async_trait::async_trait;
use courier_core::ids::{ScheduleId, TenantId};
use std::collections::BTreeMap;
use std::sync::Mutex;

#[derive(Default)]
struct State {
    /// (tenant, id) -> schedule.
    schedules: BTreeMap<(String, String), Schedule>,
    /// (tenant, schedule id, inverted instant) -> occurrence.
    occurrences: BTreeMap<(String, String, String), Occurrence>,
}

#[derive(Default)]
pub struct MemorySchedules {
    state: Mutex<State>,
}

impl MemorySchedules {
    pub fn new() -> Self {
        Self::default()
    }
}

fn cursor_after(list: &str, cursor: Option<&str>) -> PortResult<Option<String>> {
    let Some(c) = cursor else { return Ok(None) };
    let text = unhex(c).ok_or(PortError::BadCursor)?;
    text.strip_prefix(&format!("{list}#"))
        .map(|last| Some(last.to_owned()))
        .ok_or(PortError::BadCursor)
}

/// A page of `(key, item)` pairs already in order, after the cursor's key.
fn page<T: Clone>(list: &str, items: Vec<(String, T)>, cursor: Option<&str>, limit: u32) -> PortResult<Page<T>> {
    let after = cursor_after(list, cursor)?;
    let limit = limit.clamp(1, MAX_PAGE) as usize;
    let mut picked: Vec<(String, T)> = items
        .into_iter()
        .filter(|(k, _)| after.as_ref().is_none_or(|a| k > a))
        .take(limit + 1)
        .collect();
    let more = picked.len() > limit;
    picked.truncate(limit);
    let next_cursor = more
        .then(|| picked.last().map(|(k, _)| hex(&format!("{list}#{k}"))))
        .flatten();
    Ok(Page {
        items: picked.into_iter().map(|(_, v)| v).collect(),
        next_cursor,
    })
}

#[async_trait]
impl ScheduleStore for MemorySchedules {
    async fn create_schedule(&self, schedule: &Schedule) -> PortResult<()> {
        let mut s = lock(&self.state);
        let key = (schedule.tenant_id.to_string(), schedule.id.to_string());
        if s.schedules.contains_key(&key) {
            return Err(PortError::Conflict(format!("schedule {} exists", schedule.id)));
        }
        s.schedules.insert(key, schedule.clone());
        Ok(())
    }

    async fn get_schedule(&self, tenant: &TenantId, id: &ScheduleId) -> PortResult<Option<Schedule>> {
        Ok(lock(&self.state)
            .schedules
            .get(&(tenant.to_string(), id.to_string()))
            .cloned())
    }

    async fn update_schedule(&self, schedule: &Schedule, expected_version: u64) -> PortResult<()> {
        let mut s = lock(&self.state);
        match s
            .schedules
            .get_mut(&(schedule.tenant_id.to_string(), schedule.id.to_string()))
        {
            Some(stored) if stored.version == expected_version => {
                *stored = schedule.clone();
                Ok(())
            }
            _ => Err(PortError::Conflict(format!(
                "schedule {} is missing or not at version {expected_version}",
                schedule.id
            ))),
        }
    }

    async fn delete_schedule(&self, tenant: &TenantId, id: &ScheduleId) -> PortResult<bool> {
        Ok(lock(&self.state)
            .schedules
            .remove(&(tenant.to_string(), id.to_string()))
            .is_some())
    }

    async fn list_schedules(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Schedule>> {
        let t = tenant.to_string();
        let items = lock(&self.state)
            .schedules
            .iter()
            .filter(|((k, _), _)| *k == t)
            .map(|((_, id), v)| (id.clone(), v.clone()))
            .collect();
        page(&format!("sch#{tenant}"), items, cursor, limit)
    }

    async fn put_occurrence(&self, occurrence: &Occurrence) -> PortResult<Option<Occurrence>> {
        let mut s = lock(&self.state);
        let key = (
            occurrence.tenant_id.to_string(),
            occurrence.schedule_id.to_string(),
            occurrence_key(occurrence.planned_at),
        );
        if let Some(first) = s.occurrences.get(&key) {
            return Ok(Some(first.clone()));
        }
        s.occurrences.insert(key, occurrence.clone());
        Ok(None)
    }

    async fn replace_occurrence(&self, occurrence: &Occurrence) -> PortResult<()> {
        let key = (
            occurrence.tenant_id.to_string(),
            occurrence.schedule_id.to_string(),
            occurrence_key(occurrence.planned_at),
        );
        lock(&self.state).occurrences.insert(key, occurrence.clone());
        Ok(())
    }

    async fn list_occurrences(
        &self,
        tenant: &TenantId,
        schedule: &ScheduleId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Occurrence>> {
        let (t, id) = (tenant.to_string(), schedule.to_string());
        let items = lock(&self.state)
            .occurrences
            .iter()
            .filter(|((kt, ks, _), _)| *kt == t && *ks == id)
            .map(|((_, _, k), v)| (k.clone(), v.clone()))
            .collect();
        page(&format!("occ#{tenant}#{schedule}"), items, cursor, limit)
    }
}

/// The recurring timer's fake: the specs it holds, by name.
#[derive(Default)]
pub struct MemoryRecurring {
    specs: Mutex<BTreeMap<String, RecurringSpec>>,
}

impl MemoryRecurring {
    pub fn new() -> Self {
        Self::default()
    }

    /// What it holds for `name`.
    pub fn get(&self, name: &str) -> Option<RecurringSpec> {
        lock(&self.specs).get(name).cloned()
    }

    /// Every spec it holds, by name.
    pub fn all(&self) -> Vec<RecurringSpec> {
        lock(&self.specs).values().cloned().collect()
    }
}

#[async_trait]
impl RecurringTimer for MemoryRecurring {
    async fn put_recurring(&self, spec: &RecurringSpec) -> PortResult<()> {
        lock(&self.specs).insert(spec.name.clone(), spec.clone());
        Ok(())
    }

    async fn delete_recurring(&self, name: &str) -> PortResult<()> {
        lock(&self.specs).remove(name);
        Ok(())
    }
}
