//! The event item: the event's JSON, the body its deliveries share (the payload
//! then left out of `data`), and its audit-index keys.

use super::attributes::{get_s, key, n, s, sort_key, to_json};
use crate::dynamo::schema::{
    BODY, DATA, EVENT_ID, EVENT_SK, GSI3PK, GSI3SK, Item, TENANT_ID, TTL_ATTR, audit_pk, event_pk,
};
use crate::error::corrupt;
use courier_app::domain::model::EventRecord;
use courier_app::ports::PortResult;

/// The event item for `event`, holding `body` (the one body of the deliveries
/// written with it, if any) once. When the body's `data` is the event's payload
/// (ingest's envelope), `data` leaves the payload out, so the event item does not
/// hold it twice; [`event_from_item`] takes it back from the body.
pub(in crate::dynamo) fn event_item(event: &EventRecord, body: Option<&str>) -> PortResult<Item> {
    let mut item = key(event_pk(&event.id), EVENT_SK);
    let mut data = to_json(event)?;
    if let Some(body) = body {
        if payload_of_body(body).as_ref() == Some(&event.payload) {
            let mut doc = match serde_json::to_value(event).map_err(|e| corrupt(format!("event {}: {e}", event.id)))? {
                serde_json::Value::Object(map) => map,
                _ => return Err(corrupt(format!("event {} is not a JSON object", event.id))),
            };
            doc.remove(PAYLOAD_FIELD);
            data = serde_json::to_string(&doc).map_err(|e| corrupt(format!("event {}: {e}", event.id)))?;
        }
        item.insert(BODY.to_owned(), s(body));
    }
    item.insert(DATA.to_owned(), s(data));
    item.insert(TENANT_ID.to_owned(), s(event.tenant_id.as_str()));
    item.insert(EVENT_ID.to_owned(), s(event.id.as_str()));
    item.insert(GSI3PK.to_owned(), s(audit_pk(&event.tenant_id)));
    item.insert(GSI3SK.to_owned(), s(sort_key(event.created_at, event.id.as_str())));
    if let Some(e) = event.expires_at {
        item.insert(TTL_ATTR.to_owned(), n(e));
    }
    Ok(item)
}

/// The event's JSON field its payload is in (left out of `data` when the body holds it).
const PAYLOAD_FIELD: &str = "payload";

/// The payload an envelope carries (its `data`), if it is one.
fn payload_of_body(body: &str) -> Option<serde_json::Value> {
    #[derive(serde::Deserialize)]
    struct Envelope {
        data: serde_json::Value,
    }
    serde_json::from_str::<Envelope>(body).ok().map(|e| e.data)
}

/// The event an event item holds: `data`, with the payload taken from the item's
/// body when `data` leaves it out (see [`event_item`]).
pub(in crate::dynamo) fn event_from_item(item: &Item) -> PortResult<EventRecord> {
    let text = get_s(item, DATA).ok_or_else(|| corrupt(format!("event: no `{DATA}` attribute")))?;
    let mut doc: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(text).map_err(|e| corrupt(format!("event: {e}")))?;
    if !doc.contains_key(PAYLOAD_FIELD) {
        let payload = get_s(item, BODY)
            .and_then(payload_of_body)
            .ok_or_else(|| corrupt("event: no payload in `data` nor in its body"))?;
        doc.insert(PAYLOAD_FIELD.to_owned(), payload);
    }
    serde_json::from_value(serde_json::Value::Object(doc)).map_err(|e| corrupt(format!("event: {e}")))
}
