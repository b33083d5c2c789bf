//! In-memory implementations of every port: the fakes the use-case tests run on
//! (`MemoryStore`, `MemoryQueue`, `MemoryTimer`, `ManualClock`, `SeededRandom`,
//! `FixedSecrets`). The production adapters that need no cloud service are in
//! [`crate::system`].
//!
//! The fakes honour every condition the DynamoDB adapter enforces (create conflicts,
//! version checks, the claim rule with lease takeover, outcomes conditional on the
//! claim, TTL-expired items read as absent), taking the rules from
//! [`crate::store_rules`] as the adapter does, and pass the same contract suite
//! ([`crate::contract`]). This module must not depend on any AWS crate.

mod clock;
mod paging;
mod queue;
mod store;
mod timer;

pub use clock::*;
use paging::*;
pub use queue::*;
pub use store::*;
pub use timer::*;

use crate::message::QueueMessage;
use crate::model::{Attempt, ClaimRecord, Delivery, Endpoint, EventRecord, IdempotencyRecord, Page, Tenant};
use crate::ports::{
    Claim, Clock, DeliveryStore, EndpointStore, IdempotencyStore, PortError, PortResult, Queue, Random, SecretSource,
    TenantStore, Timer,
};
use crate::store_rules::{
    BadScheduleName, DelayOutOfRange, MAX_DELAY_SECONDS, MAX_PAGE, claim_allowed, claim_held_by, in_window, is_live,
    recorded_onto, set_claim, valid_schedule_name,
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
    use crate::system::{OsRandom, OsSecrets, SystemClock};

    #[test]
    fn cursor_hex_round_trips() {
        let k = "000001796020081123#dlv_01";
        assert_eq!(unhex(&hex(k)).as_deref(), Some(k));
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("abc"), None);
    }

    #[test]
    fn liveness_is_exclusive_at_the_expiry_second() {
        let now = Timestamp::from_secs(100);
        assert!(is_live(None, now));
        assert!(is_live(Some(101), now));
        assert!(!is_live(Some(100), now));
        assert!(!is_live(Some(100), now.plus_millis(1)));
        assert!(is_live(Some(100), now.plus_millis(-1)));
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

    #[test]
    fn os_sources_produce_bytes() {
        let mut buf = [0u8; 32];
        OsSecrets.fill(&mut buf);
        assert_ne!(buf, [0u8; 32]);
        let r = OsRandom::new();
        assert_ne!(r.next_u64(), r.next_u64());
        assert!(SystemClock.now().millis() > 1_600_000_000_000);
    }

    /// The inverse of SplitMix64's output function: an output gives its state away.
    fn unmix(mut z: u64) -> u64 {
        fn inverse(a: u64) -> u64 {
            // Newton's iteration for the inverse of an odd number modulo 2^64.
            let mut x = a;
            for _ in 0..6 {
                x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
            }
            x
        }
        z ^= (z >> 31) ^ (z >> 62);
        z = z.wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
        z ^= (z >> 27) ^ (z >> 54);
        z = z.wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
        z ^= (z >> 30) ^ (z >> 60);
        z
    }

    /// The first 64 random bits of an id (the draw right after its 48 time bits).
    fn first_draw(id: &courier_core::ids::AttemptId) -> u64 {
        const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
        let body = &id.as_str().as_bytes()[4..];
        let value = body.iter().fold(0u128, |v, c| {
            (v << 5) | ALPHABET.iter().position(|a| a == c).unwrap_or_default() as u128
        });
        ((value >> 16) & u128::from(u64::MAX)) as u64
    }

    #[test]
    fn the_next_id_is_not_predictable_from_the_previous_one() {
        use courier_core::ids::AttemptId;
        use courier_core::rng::RandomSource;
        struct Draws<'a>(&'a dyn Random);
        impl RandomSource for Draws<'_> {
            fn next_u64(&mut self) -> u64 {
                self.0.next_u64()
            }
        }
        const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;
        let predict = |id: &AttemptId| {
            // Each id draws twice; the next id's first draw is two steps on.
            let state = unmix(first_draw(id));
            let mut next = courier_core::rng::SplitMix64::new(state.wrapping_add(GAMMA));
            next.next_u64()
        };
        // The attack works on a seeded generator...
        let seeded = SeededRandom::new(42);
        let a = AttemptId::generate(Timestamp(1), &mut Draws(&seeded));
        let b = AttemptId::generate(Timestamp(1), &mut Draws(&seeded));
        assert_eq!(predict(&a), first_draw(&b), "the attack must work where it should");
        // ...and not on production randomness.
        let os = OsRandom::new();
        for _ in 0..16 {
            let a = AttemptId::generate(Timestamp(1), &mut Draws(&os));
            let b = AttemptId::generate(Timestamp(1), &mut Draws(&os));
            assert_ne!(predict(&a), first_draw(&b));
        }
    }
}
