//! The dead-letter queue, surfaced: a queue message that exhausted its receives
//! marks its delivery `deadLetteredAt` (visible through the API) and is consumed;
//! the delivery record holds everything needed to put its step back on the queue,
//! which `POST /v1/deliveries/{id}/redrive` does. Nothing is lost silently.

use crate::domain::delivery_message::{DeliveryMessage, Trigger};
use crate::domain::model::Delivery;
use crate::pipeline::planner::Planner;
use crate::ports::{DeliveryStore, PortError};
use courier_core::Timestamp;

/// What became of one dead-lettered message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeadLetterOutcome {
    /// The delivery is now marked; the message can be deleted.
    Marked,
    /// The delivery had settled or moved past this step meanwhile: nothing to do.
    Obsolete,
    /// No such delivery.
    Unknown,
}

/// Marks the delivery of a dead-lettered message (retrying version conflicts).
pub async fn mark(
    store: &dyn DeliveryStore,
    m: &DeliveryMessage,
    now: Timestamp,
) -> Result<DeadLetterOutcome, PortError> {
    for _ in 0..8 {
        let Some(d) = store.get_delivery(&m.delivery_id).await? else {
            return Ok(DeadLetterOutcome::Unknown);
        };
        // The message's own step, or the one after it (its outcome was recorded but
        // planning the next step kept failing): either way the delivery is stuck.
        let stuck = d.next_attempt == m.attempt || d.next_attempt == m.attempt + 1;
        if d.status.is_settled() || !stuck || d.dead_lettered_at.is_some() {
            return Ok(if d.dead_lettered_at.is_some() {
                DeadLetterOutcome::Marked
            } else {
                DeadLetterOutcome::Obsolete
            });
        }
        let mut updated = d.clone();
        updated.dead_lettered_at = Some(now);
        updated.version += 1;
        match store.update_delivery(&updated, d.version).await {
            Ok(()) => return Ok(DeadLetterOutcome::Marked),
            Err(PortError::Conflict(_)) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(PortError::Conflict(
        "delivery kept changing while marking it dead-lettered".into(),
    ))
}

/// The message that resumes a delivery at its next step, due now. A delivery
/// reopened for a redelivery that has not run yet resumes as that redelivery,
/// under the attempt id its call promised.
pub fn resume_message(d: &Delivery, now: Timestamp) -> DeliveryMessage {
    let promised = d
        .redelivery
        .as_ref()
        .filter(|p| p.number == d.next_attempt && p.number == d.attempt_count + 1);
    let trigger = match (promised, d.trigger, d.attempt_count) {
        (Some(_), _, _) => Trigger::Redelivery,
        (None, Trigger::Initial, 0) => Trigger::Initial,
        (None, Trigger::Initial | Trigger::Retry, _) => Trigger::Retry,
        (None, t, _) => t,
    };
    DeliveryMessage {
        v: 1,
        delivery_id: d.id.clone(),
        tenant_id: d.tenant_id.clone(),
        endpoint_id: d.endpoint_id.clone(),
        attempt: d.next_attempt,
        not_before: d.next_attempt_at.unwrap_or(now).max(now),
        trigger,
        source_attempt_id: promised.and_then(|p| p.source.clone()),
        attempt_id: promised.map(|p| p.attempt_id.clone()),
        completion_check: false,
        body: None,
    }
}

/// Clears the mark and queues the delivery's next step ([`resume_message`]).
pub async fn redrive(
    store: &dyn DeliveryStore,
    planner: &Planner,
    d: &Delivery,
    now: Timestamp,
) -> Result<Delivery, PortError> {
    redrive_as(store, planner, d, resume_message(d, now), now).await
}

/// Clears the mark and queues `message`, the step `d` waits for. When the message
/// cannot be queued the delivery is marked again, so it never reads as on its way
/// while nothing carries it.
pub async fn redrive_as(
    store: &dyn DeliveryStore,
    planner: &Planner,
    d: &Delivery,
    message: DeliveryMessage,
    now: Timestamp,
) -> Result<Delivery, PortError> {
    let mut updated = d.clone();
    updated.dead_lettered_at = None;
    updated.version += 1;
    store.update_delivery(&updated, d.version).await?;
    if let Err(e) = planner.plan(message.clone(), now).await {
        if let Err(mark) = mark(store, &message, now).await {
            tracing::error!(delivery_id = %d.id, error = %mark, "could not mark an unqueued redrive");
        }
        return Err(e);
    }
    Ok(updated)
}
