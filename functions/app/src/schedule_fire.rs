//! One firing of a schedule becomes one occurrence: the schedule is loaded (paused,
//! deleted or outside its window: nothing happens), the occurrence marker for
//! (schedule, planned instant) is written with a conditional put, then the event is
//! ingested for the schedule's endpoint with `plannedAt` = the firing instant under
//! the ids the marker promised. A duplicate firing or a redone step finds the marker
//! and only makes sure its event exists and is queued: never a second occurrence.

use crate::ingest::{self, NewEvent};
use crate::message::Trigger;
use crate::planner::Planner;
use crate::ports::{Clock, DeliveryStore, EndpointStore, PortError, Random};
use crate::schedule::{FireMessage, Occurrence, Schedule, ScheduleStore};
use crate::sender::PortRng;
use courier_core::Timestamp;
use courier_core::ids::{DeliveryId, EventId};
use std::sync::Arc;

/// What a firing led to.
#[derive(Debug, Clone, PartialEq)]
pub enum FireOutcome {
    /// Nothing to do: the schedule is gone, paused, or the instant is outside its
    /// window (or its endpoint is gone).
    Skipped { why: &'static str },
    /// This firing wrote the occurrence; its event and delivery are stored and queued.
    Created(Occurrence),
    /// An earlier firing wrote it; its event and delivery are made sure of.
    Repeated(Occurrence),
}

/// Why a schedule's stored data cannot be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PayloadUnavailable;

/// The data an occurrence sends, or why it cannot: missing from the stored schedule.
/// (Checking it against the event type's schema hooks in here.) An unusable payload
/// still makes its occurrence, with an empty body: the sender's pre-send check then
/// settles it `terminal_failure` / `payload_unavailable` / `replace_payload`.
pub fn usable_payload(schedule: &Schedule) -> Result<&serde_json::Value, PayloadUnavailable> {
    schedule.payload.as_ref().ok_or(PayloadUnavailable)
}

#[derive(Clone)]
pub struct ScheduleFirer {
    pub schedules: Arc<dyn ScheduleStore>,
    pub endpoints: Arc<dyn EndpointStore>,
    pub deliveries: Arc<dyn DeliveryStore>,
    pub planner: Planner,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
}

impl ScheduleFirer {
    /// Handles one fire message. An error leaves the message for another try, which
    /// redoes the step exactly once (see the module docs).
    pub async fn fire(&self, m: &FireMessage) -> Result<FireOutcome, PortError> {
        let Some(schedule) = self.schedules.get_schedule(&m.tenant_id, &m.schedule_id).await? else {
            return Ok(FireOutcome::Skipped {
                why: "schedule_deleted",
            });
        };
        if !schedule.takes_firing(m.planned_at) {
            return Ok(FireOutcome::Skipped {
                why: if schedule.state == crate::schedule::ScheduleState::Paused {
                    "schedule_paused"
                } else {
                    "outside_window"
                },
            });
        }
        let Some(endpoint) = self
            .endpoints
            .get_endpoint(&schedule.tenant_id, &schedule.endpoint_id)
            .await?
        else {
            return Ok(FireOutcome::Skipped {
                why: "endpoint_missing",
            });
        };
        let now = self.clock.now();
        let mut rng = PortRng(self.random.as_ref());
        let marker = Occurrence {
            schedule_id: schedule.id.clone(),
            tenant_id: schedule.tenant_id.clone(),
            planned_at: m.planned_at,
            event_id: EventId::generate(now, &mut rng),
            delivery_id: DeliveryId::generate(now, &mut rng),
            created_at: now,
        };
        let (occurrence, first) = match self.schedules.put_occurrence(&marker).await? {
            None => (marker, true),
            Some(earlier) => (earlier, false),
        };
        if !first && self.requeue_stored(&occurrence, now).await? {
            return Ok(FireOutcome::Repeated(occurrence));
        }
        let payload = usable_payload(&schedule).ok().cloned();
        let endpoints = [endpoint];
        let new = NewEvent {
            event_id: occurrence.event_id.clone(),
            event_type: schedule.event_type.clone(),
            payload: payload.clone().unwrap_or(serde_json::Value::Null),
            planned_at: Some(m.planned_at),
            endpoints: &endpoints,
            trigger: Trigger::Initial,
            webhook_ids: None,
            delivery_ids: Some(vec![occurrence.delivery_id.clone()]),
        };
        let (mut event, mut deliveries) = ingest::build(&new, now, self.random.as_ref());
        // The horizon counts from the planned instant, even when the firing reaches
        // the queue a little after it (ingest would count from now).
        event.planned_at = m.planned_at;
        for d in &mut deliveries {
            d.planned_at = m.planned_at;
            d.body = match &payload {
                Some(p) => ingest::envelope(&d.event_id, new.event_type.as_deref(), m.planned_at, new.trigger, p),
                None => String::new(),
            }
            .into();
        }
        crate::shared_body::share(&mut deliveries);
        match ingest::store_and_enqueue(self.deliveries.as_ref(), &self.planner, &event, &deliveries, now).await {
            Ok(()) => {}
            // Written meanwhile by a concurrent firing: queue what is stored.
            Err(PortError::Conflict(why)) => {
                if !self.requeue_stored(&occurrence, now).await? {
                    return Err(PortError::Conflict(why));
                }
            }
            Err(e) => return Err(e),
        }
        Ok(if first {
            FireOutcome::Created(occurrence)
        } else {
            FireOutcome::Repeated(occurrence)
        })
    }

    /// Queues the occurrence's stored delivery again if it still waits for attempt 1
    /// (a duplicate message is dropped by the sender's claim). False when its event
    /// was never written (the step died between marker and ingest).
    async fn requeue_stored(&self, o: &Occurrence, now: Timestamp) -> Result<bool, PortError> {
        if self.deliveries.get_event(&o.tenant_id, &o.event_id).await?.is_none() {
            return Ok(false);
        }
        if let Some(d) = self.deliveries.get_delivery(&o.delivery_id).await? {
            ingest::enqueue_waiting(self.deliveries.as_ref(), &self.planner, &[d], now).await?;
        }
        Ok(true)
    }
}
