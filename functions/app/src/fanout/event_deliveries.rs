//! An event's deliveries, a page at a time: first those the event item names
//! (`targets`: the endpoints named at ingest, or a fan-out done in the request), then
//! those of its fan-out steps, whose links name each step's endpoints (the delivery
//! ids derive from event and endpoint, see [`crate::fanout::delivery_id`]). So the
//! list costs no write per delivery: one link item per step of a large fan-out.
//!
//! Positions run over the targets, then over the links by `start`; the cursor names
//! the event and the next position. A named endpoint whose delivery does not exist
//! (a step still under way, an endpoint that did not take the event) is left out, so
//! a page may be short; the list ends only when `next_cursor` is absent. A status
//! filter keeps a page's deliveries in that status, so it shortens pages the same
//! way and costs no other read.

use crate::domain::model::{Delivery, EventRecord, Page};
use crate::domain::store_rules::MAX_PAGE;
use crate::fanout;
use crate::ports::{DeliveryStore, PortError, PortResult};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use courier_core::ids::DeliveryId;

/// Links read per store call (a link names up to a step's page of endpoints).
const LINKS_PER_READ: u32 = 2;

/// Where a page starts: index `at` of the event's targets (`link: None`) or of the
/// link whose step started at `link`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Position {
    link: Option<u64>,
    at: usize,
}

fn encode(event: &EventRecord, p: Position) -> String {
    let link = p.link.map_or_else(|| "t".to_owned(), |s| s.to_string());
    URL_SAFE_NO_PAD.encode(format!("{}.{link}.{}", event.id, p.at))
}

/// The position a cursor names; `BadCursor` unless it is one this event's list
/// handed out.
fn decode(event: &EventRecord, cursor: &str) -> PortResult<Position> {
    let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| PortError::BadCursor)?;
    let text = String::from_utf8(bytes).map_err(|_| PortError::BadCursor)?;
    let mut parts = text.split('.');
    let (Some(id), Some(link), Some(at), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return Err(PortError::BadCursor);
    };
    if id != event.id.as_str() {
        return Err(PortError::BadCursor);
    }
    let link = match link {
        "t" => None,
        s => Some(s.parse::<u64>().map_err(|_| PortError::BadCursor)?),
    };
    let at = at.parse::<usize>().map_err(|_| PortError::BadCursor)?;
    Ok(Position { link, at })
}

/// One page of the event's deliveries in list order (`limit` clamped to 1..=100),
/// with a cursor when more positions follow; with `status`, only those of the page
/// in that status. While a fan-out is in progress the list holds the steps done so
/// far.
pub async fn page(
    store: &dyn DeliveryStore,
    event: &EventRecord,
    status: Option<&str>,
    cursor: Option<&str>,
    limit: u32,
) -> PortResult<Page<Delivery>> {
    let from = cursor.map(|c| decode(event, c)).transpose()?.unwrap_or_default();
    let want = limit.clamp(1, MAX_PAGE) as usize + 1;
    // (position, delivery id) of up to `want` entries from `from` on.
    let mut entries: Vec<(Position, DeliveryId)> = Vec::with_capacity(want);
    if from.link.is_none() {
        for (i, t) in event.targets.iter().enumerate().skip(from.at).take(want) {
            entries.push((Position { link: None, at: i }, t.delivery_id.clone()));
        }
    }
    if let Some(f) = event.fanout.as_ref().filter(|_| entries.len() < want) {
        let mut next = from.link.unwrap_or(0);
        // Bounded: every link names at least one endpoint, so `want` reads suffice.
        'links: for _ in 0..want {
            let links = store
                .fanout_links(&event.tenant_id, &event.id, next, LINKS_PER_READ)
                .await?;
            let Some(last) = links.last() else { break };
            next = last.start.saturating_add(1);
            for link in &links {
                let skip = if Some(link.start) == from.link { from.at } else { 0 };
                for (j, ep) in link.endpoint_ids.iter().enumerate().skip(skip) {
                    let id = fanout::delivery_id(f.seed, &event.id, ep, event.created_at);
                    entries.push((
                        Position {
                            link: Some(link.start),
                            at: j,
                        },
                        id,
                    ));
                    if entries.len() == want {
                        break 'links;
                    }
                }
            }
            if links.len() < LINKS_PER_READ as usize {
                break;
            }
        }
    }
    let next_cursor = (entries.len() == want).then(|| encode(event, entries[want - 1].0));
    let ids: Vec<DeliveryId> = entries.into_iter().take(want - 1).map(|(_, id)| id).collect();
    let items = store
        .get_deliveries(&ids)
        .await?
        .into_iter()
        .filter(|d| d.tenant_id == event.tenant_id && d.event_id == event.id)
        .filter(|d| status.is_none_or(|s| d.status.as_str() == s))
        .collect();
    Ok(Page { items, next_cursor })
}
