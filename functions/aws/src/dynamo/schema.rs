//! The table's schema: key and index attribute names, the key of each item kind,
//! and the limits the layout imposes (docs/data-model.md names the same).

use super::*;

pub(super) type Item = HashMap<String, AttributeValue>;

pub const PK: &str = "PK";
pub const SK: &str = "SK";
/// The endpoint's delivery log by creation time (keys only).
pub const GSI_LOG: &str = "GSI1";
/// The endpoint's delivery log by status, then creation time (keys only).
pub const GSI_STATUS: &str = "GSI2";
/// The audit log: events by tenant, and by tenant + endpoint.
pub const GSI_AUDIT: &str = "GSI3";
pub const GSI1PK: &str = "GSI1PK";
pub const GSI1SK: &str = "GSI1SK";
pub const GSI2PK: &str = "GSI2PK";
pub const GSI2SK: &str = "GSI2SK";
pub const GSI3PK: &str = "GSI3PK";
pub const GSI3SK: &str = "GSI3SK";
/// The TTL attribute (epoch seconds), enabled on the table.
pub const TTL_ATTR: &str = "expiresAt";
/// Attributes the audit index projects besides the keys.
pub const AUDIT_PROJECTION: &[&str] = &["eventId"];

pub(super) const DATA: &str = "data";
pub(super) const BODY: &str = "body";
pub(super) const BODY_REF: &str = "bodyRef";
/// A shared body item's revision, moved by every change of its users or TTL.
pub(super) const BODY_REV: &str = "bodyRev";
/// On a delivery whose body its event item holds (`body` there): the body's
/// SHA-256, its 32 bytes as Binary (see `codec::body_hash_of`).
pub(super) const BODY_HASH: &str = "bodyHash";
/// On a shared body item: the ids of the deliveries that use it (a string set).
pub(super) const BODY_USERS: &str = "users";
pub(super) const VERSION: &str = "version";
pub(super) const STATUS: &str = "status";
pub(super) const NEXT_ATTEMPT: &str = "nextAttempt";
pub(super) const CLAIM_ID: &str = "claimId";
pub(super) const CLAIM_LEASE: &str = "claimLease";
pub(super) const CLAIM_NUMBER: &str = "claimNumber";
pub(super) const CLAIM_STARTED: &str = "claimStarted";
pub(super) const CLAIM_TOKEN: &str = "claimToken";
/// The claim a takeover replaced (`<attempt id>|<number>|<started ms>|<lease ms>|<token>`),
/// written only by a takeover: a takeover whose write committed but whose answer
/// was lost learns from it, on the SDK's repeat, which attempt it took over.
pub(super) const LOST_CLAIM: &str = "lostClaim";
/// The dead-letter mark (RFC 3339, as in `data`), an attribute of its own so that recording an
/// outcome, which rewrites `data`, never touches it.
pub(super) const DEAD_LETTERED: &str = "deadLetteredAt";
/// A delivery's `throttledUntil` (ms), its own attribute so that noting a hold is
/// one small `UpdateItem` and the claim's `REMOVE` clears it.
pub(super) const THROTTLED_UNTIL: &str = "throttledUntil";
pub(super) const EVENT_ID: &str = "eventId";
/// On a fan-out event: how many of its subscribers have their delivery (the
/// condition that keeps the progress from moving back).
pub(super) const FANOUT_PROCESSED: &str = "fanoutProcessed";
/// On a delivery item: its latest attempt's JSON in a compact form (short keys,
/// epoch milliseconds; without the delivery and tenant ids, which the item holds;
/// see `codec::attempt::StoredAttempt`). Recording an outcome is then one conditional write of
/// the delivery item; an attempt gets an item of its own (`ATT#...`) only when a
/// newer one replaces it here.
pub(super) const LAST_ATTEMPT: &str = "lastAttempt";
pub(super) const TENANT_ID: &str = "tenantId";

/// Bodies up to this size live inline in the delivery item; larger ones in one
/// content-addressed body item shared by every delivery carrying the same bytes. A
/// 256 KiB envelope per delivery would otherwise cap an event at ~14 deliveries
/// (TransactWriteItems carries at most 4 MB) and make every claim rewrite 256 KiB.
pub const INLINE_BODY_MAX: usize = 8 * 1024;
/// `TransactWriteItems` takes at most 100 actions: the event plus 99 deliveries.
pub const MAX_DELIVERIES_PER_EVENT: usize = 99;

/// An event with more deliveries than one transaction can write.
#[derive(Debug, thiserror::Error)]
#[error("an event can be written with at most {MAX_DELIVERIES_PER_EVENT} deliveries, got {0}")]
pub struct TooManyDeliveries(pub usize);

pub fn tenant_key_pk(key_hash: &str) -> String {
    format!("KEY#{key_hash}")
}
pub fn tenant_pk(tenant: &TenantId) -> String {
    format!("TEN#{tenant}")
}
pub fn endpoint_sk(id: &EndpointId) -> String {
    format!("EP#{id}")
}
pub fn event_pk(id: &EventId) -> String {
    format!("EVT#{id}")
}
pub fn delivery_pk(id: &DeliveryId) -> String {
    format!("DLV#{id}")
}
pub fn attempt_sk(number: u32, id: &AttemptId) -> String {
    format!("ATT#{number:010}#{id}")
}
/// A shared body item's key: `ref` is `<tenant>.<hash>` (never one item for two
/// tenants).
pub fn body_pk(body_ref: &str) -> String {
    format!("BODY#{body_ref}")
}

/// The reference a delivery of `tenant` keeps to its shared body item.
pub fn body_ref(tenant: &courier_core::ids::TenantId, hash: &str) -> String {
    format!("{tenant}.{hash}")
}
pub fn idempotency_pk(key: &str) -> String {
    format!("IDEM#{key}")
}
pub fn log_pk(endpoint: &EndpointId) -> String {
    format!("EP#{endpoint}")
}
/// An endpoint's status list's own key: its shards' keys start with it (see
/// [`status_shard_pk`]), and its cursors name it. No entry is under it.
pub fn status_pk(endpoint: &EndpointId, status: &str) -> String {
    format!("EP#{endpoint}#{status}")
}
/// Partition values of one endpoint's status list in the status index. A delivery
/// moves in and out of `retrying` (two index writes) on every retried delivery, and
/// one key takes about 1,000 writes a second, so an endpoint failing every attempt
/// would top out near 500 deliveries a second on one key; over 4 keys, near 2,000,
/// above its delivery log's own 1,000. A list reads all of them and merges.
pub const STATUS_SHARDS: u32 = 4;
/// The status-index key of delivery `id` in `status`: the list's key and the
/// delivery's shard, `EP#<endpoint>#<status>#<shard>`.
pub fn status_shard_pk(endpoint: &EndpointId, status: &str, id: &DeliveryId) -> String {
    format!(
        "{}#{}",
        status_pk(endpoint, status),
        shard_of(id.as_str(), STATUS_SHARDS)
    )
}
/// Every partition value a status list's entries can be under: its shards.
pub fn status_pks(endpoint: &EndpointId, status: &str) -> Vec<String> {
    let base = status_pk(endpoint, status);
    (0..STATUS_SHARDS).map(|k| format!("{base}#{k}")).collect()
}
/// The shard of `id` among `shards`: FNV-1a of the id (stable across processes and
/// builds).
pub fn shard_of(id: &str, shards: u32) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in id.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h % shards.max(1)
}
/// An event's audit-index key (`GSI3PK`): its tenant's.
pub fn audit_pk(tenant: &TenantId) -> String {
    format!("TEN#{tenant}")
}
pub(super) const TENANT_KEY_SK: &str = "KEY";
pub(super) const EVENT_SK: &str = "EVT";
pub const DELIVERY_SK: &str = "DLV";
pub(super) const BODY_SK: &str = "BODY";
pub(super) const IDEMPOTENCY_SK: &str = "IDEM";
