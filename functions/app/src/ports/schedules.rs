//! The schedule ports: the store of recurring schedules and their occurrence
//! markers, and the cloud's recurring timer (EventBridge Scheduler) that fires them.

use crate::domain::model::Page;
use crate::domain::schedule::{Occurrence, RecurringSpec, Schedule};
use crate::ports::PortResult;
use async_trait::async_trait;
use courier_core::ids::{ScheduleId, TenantId};
use std::sync::Arc;

#[async_trait]
pub trait ScheduleStore: Send + Sync {
    /// `Conflict` if the id exists.
    async fn create_schedule(&self, schedule: &Schedule) -> PortResult<()>;
    async fn get_schedule(&self, tenant: &TenantId, id: &ScheduleId) -> PortResult<Option<Schedule>>;
    /// Replaces it if its stored `version` is `expected_version` (the new item carries
    /// `expected_version + 1`); otherwise `Conflict`.
    async fn update_schedule(&self, schedule: &Schedule, expected_version: u64) -> PortResult<()>;
    /// Removes it (its occurrences stay, as the audit of what fired); false if none.
    async fn delete_schedule(&self, tenant: &TenantId, id: &ScheduleId) -> PortResult<bool>;
    /// The tenant's schedules by id; `limit` clamped to 1..=100.
    async fn list_schedules(&self, tenant: &TenantId, cursor: Option<&str>, limit: u32) -> PortResult<Page<Schedule>>;
    /// Writes the marker unless one exists for its (schedule, planned instant):
    /// `None` when this call wrote it, else the one written first.
    async fn put_occurrence(&self, occurrence: &Occurrence) -> PortResult<Option<Occurrence>>;
    /// Stores the marker whether or not one exists (a failure noted on a marker an
    /// earlier try wrote).
    async fn replace_occurrence(&self, occurrence: &Occurrence) -> PortResult<()>;
    /// The schedule's occurrences, newest planned instant first; `limit` clamped to
    /// 1..=100. A cursor of another list is `BadCursor`.
    async fn list_occurrences(
        &self,
        tenant: &TenantId,
        schedule: &ScheduleId,
        cursor: Option<&str>,
        limit: u32,
    ) -> PortResult<Page<Occurrence>>;
}

/// The recurring side of the timer: EventBridge Scheduler recurring schedules that
/// put a [`FireMessage`] on the delivery queue at each firing.
#[async_trait]
pub trait RecurringTimer: Send + Sync {
    /// Creates the schedule, or updates it when one of that name exists.
    async fn put_recurring(&self, spec: &RecurringSpec) -> PortResult<()>;
    /// Deletes it; deleting one that is gone succeeds.
    async fn delete_recurring(&self, name: &str) -> PortResult<()>;
}

/// What the schedule routes run over.
#[derive(Clone)]
pub struct Schedules {
    pub store: Arc<dyn ScheduleStore>,
    pub timer: Arc<dyn RecurringTimer>,
    /// Admit `rate(N seconds)` (local tests and dev runs only; never on AWS).
    pub second_rates: bool,
}
