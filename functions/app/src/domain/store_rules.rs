//! The rules every store adapter obeys, the in-memory fakes and the DynamoDB
//! adapter alike (both pass `crate::testing::contract`): TTL liveness, the claim rule, page
//! and delay limits, and which schedule names EventBridge Scheduler accepts. Pure
//! functions over the model, so the two stores cannot drift apart.

use crate::domain::model::{ClaimRecord, Delivery};
use courier_core::Timestamp;

/// Page sizes are clamped into this range by every list operation.
pub const MAX_PAGE: u32 = 100;

/// Whether an item with this TTL (epoch seconds) is still live at `now`. An item is
/// expired once `expires_at <= now`; DynamoDB deletes expired items lazily (up to
/// days later), so every read treats them as already gone.
pub fn is_live(expires_at: Option<i64>, now: Timestamp) -> bool {
    expires_at.is_none_or(|secs| secs.saturating_mul(1000) > now.millis())
}

/// The claim rule: attempt `number` of `delivery` may be claimed at `now` iff the
/// delivery is not settled, its `next_attempt` is `number`, and it holds no claim or
/// only one whose lease has ended (`lease_until <= now`).
pub fn claim_allowed(delivery: &Delivery, number: u32, now: Timestamp) -> bool {
    !delivery.status.is_settled()
        && delivery.next_attempt == number
        && delivery.claim.as_ref().is_none_or(|c| c.lease_until <= now)
}

/// Whether a hold of attempt `number` may be noted on `delivery` at `now`
/// (`throttled_until`): only while that attempt could still be claimed. A note
/// arriving after the attempt was claimed (by a duplicate message) or recorded
/// would show a hold that is over.
pub fn hold_note_allowed(delivery: &Delivery, number: u32, now: Timestamp) -> bool {
    claim_allowed(delivery, number, now)
}

/// Whether `delivery` already holds exactly `claim` (number, attempt id and token):
/// a repeated claim call (an SDK retry whose first try did commit) is answered
/// `Claimed` again rather than refused as a duplicate of itself. The token is fresh
/// for every claim a sender makes, so a duplicate copy of a message that carries
/// the same pre-assigned attempt id is still refused while the first copy's lease
/// lives.
pub fn claim_held_by(delivery: &Delivery, claim: &ClaimRecord) -> bool {
    delivery.claim.as_ref().is_some_and(|c| same_claim(c, claim))
}

/// Whether two claims are the same claim: attempt id and token (the token is
/// fresh per claim, so the number, start and lease follow from them).
pub fn same_claim(a: &ClaimRecord, b: &ClaimRecord) -> bool {
    a.attempt_id == b.attempt_id && a.token == b.token
}

/// The delivery as stored after a successful claim: the new claim set, version bumped.
/// (The previous claim, if any, is the lost one reported in `Claim::Claimed`.)
pub fn apply_claim(delivery: &Delivery, claim: &ClaimRecord) -> Delivery {
    let mut d = delivery.clone();
    set_claim(&mut d, claim);
    d
}

/// [`apply_claim`] in place; returns the previous claim.
pub fn set_claim(delivery: &mut Delivery, claim: &ClaimRecord) -> Option<ClaimRecord> {
    delivery.version += 1;
    // The attempt is starting: whatever held it is over.
    delivery.throttled_until = None;
    delivery.claim.replace(claim.clone())
}

/// The delivery as an outcome's record leaves it: the recorder's new state, except
/// for what recording does not own, which stays as stored: the dead-letter mark
/// (set concurrently by the dead-letter handler) and the version, which moves one
/// on from the stored one whatever else wrote meanwhile.
pub fn recorded_onto(stored: &Delivery, new: &Delivery) -> Delivery {
    Delivery {
        dead_lettered_at: stored.dead_lettered_at,
        version: stored.version + 1,
        ..new.clone()
    }
}

/// Whether `t` lies in the half-open window `[since, until)`.
pub fn in_window(t: Timestamp, since: Option<Timestamp>, until: Option<Timestamp>) -> bool {
    since.is_none_or(|s| t >= s) && until.is_none_or(|u| t < u)
}

/// The longest delay SQS accepts (15 minutes).
pub const MAX_DELAY_SECONDS: u32 = 900;

#[derive(Debug, thiserror::Error)]
#[error("DelaySeconds must be 0..=900, got {0}")]
pub struct DelayOutOfRange(pub u32);

#[derive(Debug, thiserror::Error)]
#[error("schedule name must be 1..=64 of [0-9A-Za-z-_.], got {0:?}")]
pub struct BadScheduleName(pub String);

/// Whether EventBridge Scheduler accepts `name` as a schedule name.
pub fn valid_schedule_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn liveness_is_exclusive_at_the_expiry_second() {
        let now = Timestamp::from_secs(100);
        assert!(is_live(None, now));
        assert!(is_live(Some(101), now));
        assert!(!is_live(Some(100), now));
        assert!(!is_live(Some(100), now.plus_millis(1)));
        assert!(is_live(Some(100), now.plus_millis(-1)));
    }
}
