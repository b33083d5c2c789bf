//! One firing of a schedule becomes one occurrence: the schedule is loaded (paused,
//! deleted or outside its window: nothing happens), the occurrence marker for
//! (schedule, planned instant) is written with a conditional put, then the event is
//! ingested with `plannedAt` = the firing instant under the ids the marker promised:
//! for the schedule's endpoint, or routed by subscription (its type to its
//! application's subscribed endpoints) through the fan-out. A duplicate firing or a
//! redone step finds the marker and only makes sure its event exists and is queued:
//! never a second occurrence.

use crate::domain::delivery_message::Trigger;
use crate::domain::model::{Endpoint, EventType, FanoutStatus, OccurrenceOf};
use crate::domain::schedule::{FireMessage, Occurrence, Schedule, ScheduleState};
use crate::fanout::{self, Route};
use crate::ingest::payload_schema::{PayloadInvalid, SchemaCache, check_with};
use crate::ingest::pipeline::Pipeline;
use crate::ingest::{self, NewEvent};
use crate::pipeline::planner::Planner;
use crate::ports::PortRng;
use crate::ports::ScheduleStore;
use crate::ports::{
    ApplicationStore, Clock, DeliveryStore, EndpointStore, FanoutQueue, PortError, PortResult, Random,
    SubscriptionIndex,
};
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayloadUnavailable {
    /// Gone from the stored schedule.
    Missing,
    /// No longer valid for its event type's schema (the type changed since).
    Invalid(PayloadInvalid),
}

/// The data an occurrence sends, or why it cannot: missing from the stored
/// schedule, or not matching the schema its event type (`event_type`, as stored
/// now) has. An unusable payload still makes its occurrence, with no body: the
/// sender's pre-send check then settles each delivery `terminal_failure` /
/// `payload_unavailable` / `replace_payload`, until a replace sends valid data.
pub fn usable_payload<'a>(
    schedule: &'a Schedule,
    event_type: Option<&EventType>,
    schemas: &SchemaCache,
) -> Result<&'a serde_json::Value, PayloadUnavailable> {
    let payload = schedule.payload.as_ref().ok_or(PayloadUnavailable::Missing)?;
    if let Some(v) = event_type.and_then(|t| schemas.validator(t)) {
        check_with(&v, payload).map_err(PayloadUnavailable::Invalid)?;
    }
    Ok(payload)
}

#[derive(Clone)]
pub struct ScheduleFirer {
    pub schedules: Arc<dyn ScheduleStore>,
    pub endpoints: Arc<dyn EndpointStore>,
    pub deliveries: Arc<dyn DeliveryStore>,
    pub planner: Planner,
    pub clock: Arc<dyn Clock>,
    pub random: Arc<dyn Random>,
    /// The subscription index a routed schedule's occurrences fan out through.
    pub index: Arc<dyn SubscriptionIndex>,
    /// Where a large fan-out's steps go (the delivery queue).
    pub steps: Arc<dyn FanoutQueue>,
    /// Event types, whose schema the stored payload is checked against at firing.
    pub event_types: Arc<dyn ApplicationStore>,
    pub schemas: SchemaCache,
}

/// Whom a firing goes to.
enum Target {
    Endpoint(Box<Endpoint>),
    /// Routed by subscription: the schedule's type to its application's endpoints.
    Routed {
        event_type: String,
    },
}

impl ScheduleFirer {
    fn pipeline(&self) -> Pipeline<'_> {
        Pipeline {
            store: self.deliveries.as_ref(),
            planner: &self.planner,
        }
    }

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
                why: if schedule.state == ScheduleState::Paused {
                    "schedule_paused"
                } else {
                    "outside_window"
                },
            });
        }
        let target = match (&schedule.endpoint_id, &schedule.event_type) {
            (Some(id), _) => match self.endpoints.get_endpoint(&schedule.tenant_id, id).await? {
                Some(e) => Target::Endpoint(Box::new(e)),
                None => {
                    return Ok(FireOutcome::Skipped {
                        why: "endpoint_missing",
                    });
                }
            },
            (None, Some(t)) => Target::Routed { event_type: t.clone() },
            // The API never stores a schedule with neither.
            (None, None) => return Ok(FireOutcome::Skipped { why: "no_target" }),
        };
        let now = self.clock.now();
        let mut rng = PortRng(self.random.as_ref());
        let event_id = EventId::generate(now, &mut rng);
        let marker = Occurrence {
            schedule_id: schedule.id.clone(),
            tenant_id: schedule.tenant_id.clone(),
            planned_at: m.planned_at,
            event_id,
            delivery_id: match target {
                Target::Endpoint(_) => Some(DeliveryId::generate(now, &mut rng)),
                Target::Routed { .. } => None,
            },
            created_at: now,
            failure: None,
            expires_at: Occurrence::expiry_from(now),
        };
        let (occurrence, first) = match self.schedules.put_occurrence(&marker).await? {
            None => (marker, true),
            // Given up on from the dead-letter queue: a late copy makes nothing.
            Some(earlier) if earlier.failure.is_some() => {
                return Ok(FireOutcome::Skipped {
                    why: "occurrence_failed",
                });
            }
            Some(earlier) => (earlier, false),
        };
        if !first && self.requeue_stored(&occurrence, now).await? {
            return Ok(FireOutcome::Repeated(occurrence));
        }
        let event_type = match &schedule.event_type {
            Some(t) if courier_core::subscription::check_type_name(t).is_ok() => {
                self.event_types.get_event_type(&schedule.tenant_id, t).await?
            }
            _ => None,
        };
        let payload = usable_payload(&schedule, event_type.as_ref(), &self.schemas);
        if let Err(why) = &payload {
            tracing::warn!(schedule_id = %schedule.id, planned_at = %m.planned_at, why = ?why, "schedule payload unavailable");
        }
        let payload = payload.ok().cloned();
        let written = match &target {
            Target::Endpoint(endpoint) => {
                self.write_for_endpoint(&schedule, &occurrence, endpoint, payload, now)
                    .await
            }
            Target::Routed { event_type } => {
                self.write_routed(&schedule, &occurrence, event_type, payload, now)
                    .await
            }
        };
        match written {
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

    /// The occurrence's event as the schedule makes it: planned at the firing
    /// instant (ingest would count from now), marked as the schedule's occurrence.
    fn new_event(
        &self,
        schedule: &Schedule,
        o: &Occurrence,
        endpoints: &[Endpoint],
        delivery_ids: Vec<DeliveryId>,
        payload: &Option<serde_json::Value>,
        now: Timestamp,
    ) -> (crate::domain::model::EventRecord, Vec<crate::domain::model::Delivery>) {
        let new = NewEvent {
            event_id: o.event_id.clone(),
            event_type: schedule.event_type.clone(),
            payload: payload.clone().unwrap_or(serde_json::Value::Null),
            planned_at: Some(o.planned_at),
            endpoints,
            trigger: Trigger::Initial,
            webhook_ids: None,
            delivery_ids: Some(delivery_ids),
        };
        let (mut event, mut deliveries) = ingest::build(&new, now, self.random.as_ref());
        event.tenant_id = schedule.tenant_id.clone();
        event.planned_at = o.planned_at;
        event.occurrence = Some(OccurrenceOf {
            schedule_id: schedule.id.clone(),
            settings: schedule.delivery_settings(),
            payload_unavailable: payload.is_none(),
        });
        ingest::carry_occurrence(&event, &mut deliveries);
        (event, deliveries)
    }

    async fn write_for_endpoint(
        &self,
        schedule: &Schedule,
        o: &Occurrence,
        endpoint: &Endpoint,
        payload: Option<serde_json::Value>,
        now: Timestamp,
    ) -> PortResult<()> {
        let endpoints = [endpoint.clone()];
        let ids = o.delivery_id.iter().cloned().collect();
        let (event, deliveries) = self.new_event(schedule, o, &endpoints, ids, &payload, now);
        self.pipeline().write_event(&event, &deliveries, now).await.map(|_| ())
    }

    /// Routes the occurrence by subscription as ingest routes an event without
    /// endpoints: the first takers written with the event, the rest by fan-out steps.
    async fn write_routed(
        &self,
        schedule: &Schedule,
        o: &Occurrence,
        event_type: &str,
        payload: Option<serde_json::Value>,
        now: Timestamp,
    ) -> PortResult<()> {
        let route = Route {
            tenant: &schedule.tenant_id,
            application: schedule.application_id.as_deref(),
            event_type,
            channels: &[],
        };
        let seed = self.random.next_u64();
        let takers = fanout::first_takers(self.index.as_ref(), route, &o.event_id, seed, now).await?;
        let (mut event, deliveries) =
            self.new_event(schedule, o, &takers.endpoints, takers.delivery_ids, &payload, now);
        event.application_id = schedule.application_id.clone();
        event.fanout = Some(takers.progress);
        self.pipeline().write_event(&event, &deliveries, now).await?;
        fanout::start_steps(self.steps.as_ref(), &event).await
    }

    /// Queues the occurrence's stored deliveries again if they still wait for attempt
    /// 1 (a duplicate message is dropped by the sender's claim), and a stepped
    /// fan-out's first step again if no step has recorded progress yet (steps write
    /// each delivery once). False when its event was never written (the step died
    /// between marker and ingest).
    async fn requeue_stored(&self, o: &Occurrence, now: Timestamp) -> Result<bool, PortError> {
        let Some(event) = self.deliveries.get_event(&o.tenant_id, &o.event_id).await? else {
            return Ok(false);
        };
        let ids: Vec<DeliveryId> = match &o.delivery_id {
            Some(id) => vec![id.clone()],
            None => event.targets.iter().map(|t| t.delivery_id.clone()).collect(),
        };
        self.pipeline().requeue(&ids, now).await?;
        if event
            .fanout
            .as_ref()
            .is_some_and(|f| f.status == FanoutStatus::InProgress && f.processed == 0)
        {
            fanout::start_steps(self.steps.as_ref(), &event).await?;
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::schedule::{RecurrenceSpec, ScheduleState};
    use courier_core::ids::{ScheduleId, TenantId};
    use serde_json::json;

    fn schedule(payload: Option<serde_json::Value>) -> Schedule {
        let t = Timestamp(1_800_000_000_000);
        Schedule {
            id: ScheduleId::parse("sch_01JBBBBBBBBBBBBBBBBBBBBBBB").expect("id"),
            tenant_id: TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("id"),
            endpoint_id: None,
            application_id: None,
            recurrence: RecurrenceSpec {
                cron: None,
                timezone: None,
                rate: Some("rate(1 hour)".into()),
                at: None,
            },
            start_at: None,
            end_at: None,
            event_type: Some("reminder.due".into()),
            payload,
            latency_class: None,
            long_running_allowance_seconds: None,
            state: ScheduleState::Active,
            created_at: t,
            updated_at: t,
            version: 1,
        }
    }

    fn event_type(schema: Option<serde_json::Value>, updated: i64) -> EventType {
        EventType {
            name: "reminder.due".into(),
            tenant_id: TenantId::parse("ten_01JAAAAAAAAAAAAAAAAAAAAAAA").expect("id"),
            description: None,
            deprecated: false,
            schema,
            example: None,
            created_at: Timestamp(0),
            updated_at: Timestamp(updated),
        }
    }

    #[test]
    fn a_payload_is_usable_when_present_and_valid_for_the_type_as_it_is_now() {
        let cache = SchemaCache::default();
        let s = schedule(Some(json!({"n": 1})));
        assert_eq!(usable_payload(&s, None, &cache), Ok(&json!({"n": 1})));
        assert_eq!(
            usable_payload(&s, Some(&event_type(None, 1)), &cache),
            Ok(&json!({"n": 1}))
        );
        let integer_n = event_type(Some(json!({"type": "object", "required": ["n"]})), 1);
        assert_eq!(usable_payload(&s, Some(&integer_n), &cache), Ok(&json!({"n": 1})));
        // The type changed: the stored payload no longer matches it.
        let changed = event_type(Some(json!({"type": "object", "required": ["when"]})), 2);
        assert_eq!(
            usable_payload(&s, Some(&changed), &cache),
            Err(PayloadUnavailable::Invalid(PayloadInvalid {
                pointer: String::new(),
                message: "\"when\" is a required property".into(),
            }))
        );
        assert_eq!(
            usable_payload(&schedule(None), Some(&integer_n), &cache),
            Err(PayloadUnavailable::Missing)
        );
    }
}
