//! In-memory implementations of every port: the fakes the use-case tests run on
//! (`MemoryStore`, `MemoryQueue`, `MemoryTimer`, `MemoryLimiter`, `ManualClock`, `SeededRandom`,
//! `FixedSecrets`, `MemorySealer`). The production adapters that need no cloud service are in
//! [`crate::adapters::system`].
//!
//! The fakes honour every condition the DynamoDB adapter enforces (create conflicts,
//! version checks, the claim rule with lease takeover, outcomes conditional on the
//! claim, TTL-expired items read as absent), taking the rules from
//! [`crate::domain::store_rules`] as the adapter does, and pass the same contract suite
//! ([`crate::testing::contract`]). This module must not depend on any AWS crate.

mod applications;
mod clock;
mod limiter;
mod paging;
mod ports;
mod queue;
mod schedules;
mod sealer;
mod store;
mod timer;

pub use applications::*;
pub use clock::*;
pub use limiter::*;
use paging::*;
pub use ports::{AdmitAll, MemoryPorts};
pub use queue::*;
pub use schedules::*;
pub use sealer::*;
pub use store::*;
pub use timer::*;

use crate::domain::delivery_message::{DeliveryMessage, Trigger};
use crate::domain::model::{Attempt, ClaimRecord, Delivery, Endpoint, EventRecord, IdempotencyRecord, Page, Tenant};
use crate::domain::shared_body;
use crate::domain::store_rules::{
    BadScheduleName, DelayOutOfRange, MAX_DELAY_SECONDS, MAX_PAGE, claim_allowed, claim_held_by, hold_note_allowed,
    in_window, is_live, recorded_onto, set_claim, valid_schedule_name,
};
use crate::ports::{
    Claim, Clock, DeliveryStore, EndpointStore, FanoutQueue, IdempotencyStore, PortError, PortResult, Queue, Random,
    SecretSource, SubscriptionEntry, SubscriptionIndex, TenantStore, Timer,
};
use async_trait::async_trait;
use courier_core::Timestamp;
use courier_core::ids::{AttemptId, DeliveryId, EndpointId, EventId, TenantId};
use courier_core::rng::{RandomSource, SharedSplitMix64, SplitMix64};
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic in another test thread must not cascade into every later call.
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_hex_round_trips() {
        let k = "000001796020081123#dlv_01";
        assert_eq!(unhex(&hex(k)).as_deref(), Some(k));
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("abc"), None);
    }

    #[test]
    fn fixed_secrets_repeat_per_seed() {
        let (a, b) = (FixedSecrets::new(3), FixedSecrets::new(3));
        let (mut x, mut y) = ([0u8; 13], [0u8; 13]);
        a.fill(&mut x);
        b.fill(&mut y);
        assert_eq!(x, y);
        a.fill(&mut y);
        assert_ne!(x, y);
    }
}
