//! EventBridge: one PutEvents entry whose `detail` is the envelope with its
//! `courier` block (EventBridge re-serialises `detail`, so the exact signed bytes
//! travel inside it). A failed entry in a 200 answer is a failure by its code.

use super::{answer, wrapped};
use aws_sdk_eventbridge::types::PutEventsRequestEntry;
use courier_app::ports::DestinationMessage;
use courier_core::destination::Target;
use courier_core::outcome::AttemptOutcome;

/// The entry's `source` when the endpoint sets none.
pub const DEFAULT_SOURCE: &str = "courier";
/// The entry's `detail-type` when the endpoint sets none and the event has no type.
pub const DEFAULT_DETAIL_TYPE: &str = "courier.event";

pub(super) async fn send(client: &aws_sdk_eventbridge::Client, m: &DestinationMessage) -> AttemptOutcome {
    let Target::Eventbridge {
        event_bus_arn,
        detail_type,
        source,
    } = &m.destination.target
    else {
        return answer::refused("WrongClient", None);
    };
    let detail = match wrapped(m) {
        Ok(d) => d,
        Err(o) => return o,
    };
    let entry = PutEventsRequestEntry::builder()
        .event_bus_name(event_bus_arn)
        .source(source.as_deref().unwrap_or(DEFAULT_SOURCE))
        .detail_type(
            detail_type
                .as_deref()
                .or(m.event_type.as_deref())
                .unwrap_or(DEFAULT_DETAIL_TYPE),
        )
        .detail(detail)
        .build();
    match client.put_events().entries(entry).send().await {
        Ok(out) => match out.entries().first() {
            Some(e) if e.error_code().is_none() && e.event_id().is_some() => {
                answer::delivered(e.event_id().map(str::to_owned), None)
            }
            Some(e) => answer::refused(e.error_code().unwrap_or("FailedEntry"), None),
            None => answer::refused("FailedEntry", None),
        },
        Err(e) => answer::from_sdk(&e),
    }
}
