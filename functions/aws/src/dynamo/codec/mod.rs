//! The item codec: each record's JSON in `data` beside the attributes that keys,
//! indexes and conditions need, and back; one module per record kind.
//!
//! A delivery item is rewritten on every claim and outcome, and DynamoDB bills a
//! write unit per started KiB of it, so its encoding is compact: `data` keeps
//! instants as epoch milliseconds and leaves out what other attributes hold or
//! what is at its start value, the embedded latest attempt uses short keys, and
//! `bodyHash` is binary. This is layout v1 (docs/data-model.md): no other form is
//! read.

mod attempt;
mod attributes;
mod body;
mod claim;
mod delivery;
mod event;

pub(super) use attempt::{attempt_item, embedded_attempt, embedded_attempt_data};
pub(super) use attributes::{
    absent_or_expired, from_json, get_n, get_s, key, n, names, now_secs, s, time_bound, to_json,
};
pub(super) use body::{BodyUser, body_hash_of, shared_bodies, with_own_body};
pub(super) use claim::{claim_from, lost_claim_from, lost_claim_text};
pub(super) use delivery::{Writes, delivery_from_item, event_and_trigger, indexed_status};
pub(super) use event::{event_from_item, event_item};

#[cfg(test)]
mod tests;
