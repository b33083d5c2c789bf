//! A delivery's claim as its item holds it: five attributes of their own, and the
//! `lostClaim` text a takeover leaves.

use super::attributes::{get_n, get_s};
use crate::dynamo::schema::{CLAIM_ID, CLAIM_LEASE, CLAIM_NUMBER, CLAIM_STARTED, CLAIM_TOKEN, Item, LOST_CLAIM};
use crate::error::corrupt;
use courier_app::domain::model::ClaimRecord;
use courier_app::ports::PortResult;
use courier_core::Timestamp;
use courier_core::ids::AttemptId;

/// The claim held on a delivery item, from its claim attributes.
pub(in crate::dynamo) fn claim_from(item: &Item) -> PortResult<Option<ClaimRecord>> {
    let Some(id) = get_s(item, CLAIM_ID) else {
        return Ok(None);
    };
    let bad = |what: &str| corrupt(format!("delivery claim: {what}"));
    let attempt_id = AttemptId::parse(id).map_err(|e| bad(&format!("claimId: {e}")))?;
    let number = get_n(item, CLAIM_NUMBER)
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| bad("claimNumber missing"))?;
    let started = get_n(item, CLAIM_STARTED).ok_or_else(|| bad("claimStarted missing"))?;
    let lease = get_n(item, CLAIM_LEASE).ok_or_else(|| bad("claimLease missing"))?;
    Ok(Some(ClaimRecord {
        number,
        attempt_id,
        token: get_s(item, CLAIM_TOKEN).unwrap_or_default().to_owned(),
        started_at: Timestamp::from_millis(started),
        lease_until: Timestamp::from_millis(lease),
    }))
}

/// The `lostClaim` attribute's text for `c`.
pub(in crate::dynamo) fn lost_claim_text(c: &ClaimRecord) -> String {
    format!(
        "{}|{}|{}|{}|{}",
        c.attempt_id,
        c.number,
        c.started_at.millis(),
        c.lease_until.millis(),
        c.token
    )
}

/// The claim a takeover replaced, from the item's `lostClaim` attribute.
pub(in crate::dynamo) fn lost_claim_from(item: &Item) -> Option<ClaimRecord> {
    let mut parts = get_s(item, LOST_CLAIM)?.splitn(5, '|');
    let attempt_id = AttemptId::parse(parts.next()?).ok()?;
    let number = parts.next()?.parse().ok()?;
    let started = parts.next()?.parse().ok()?;
    let lease = parts.next()?.parse().ok()?;
    Some(ClaimRecord {
        number,
        attempt_id,
        started_at: Timestamp::from_millis(started),
        lease_until: Timestamp::from_millis(lease),
        token: parts.next()?.to_owned(),
    })
}
