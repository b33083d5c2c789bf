//! An endpoint's limits together: the token bucket of its rate limit and the leased
//! in-flight slots of its concurrency cap. A store keeps one [`LimitState`] per
//! limited endpoint and writes what [`admit`] and [`release`] return, conditioned
//! on the state it read, so every sender instance shares one bucket and one count.
//! Time is an argument, never read here.

use crate::rate_limit::{Bucket, RateLimit, Take};
use crate::time::Timestamp;
use std::collections::BTreeMap;

/// Smallest and largest accepted `maxInFlight`.
pub const MIN_IN_FLIGHT: u32 = 1;
pub const MAX_IN_FLIGHT: u32 = 1000;

/// The shortest an attempt held by a full in-flight cap waits before it looks
/// again: slots free when attempts end (usually well within a second), not at a
/// time known in advance; their leases are only the upper bound. While the newest
/// attempt under way has run longer than this, the wait is as long as it has run.
pub const IN_FLIGHT_RECHECK_MS: i64 = 1000;

/// The limits an endpoint has (set on it, or the deployment's default).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    pub rate: Option<RateLimit>,
    pub max_in_flight: Option<u32>,
}

impl Limits {
    /// No limit at all: the sender then asks no store.
    pub fn is_none(&self) -> bool {
        self.rate.is_none() && self.max_in_flight.is_none()
    }
}

/// What a store keeps per limited endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LimitState {
    /// None until the first attempt: a bucket never used starts full.
    pub bucket: Option<Bucket>,
    /// Live in-flight slots: slot id -> lease end. A slot whose lease ended frees
    /// itself (its sender crashed or hung past the attempt's timeout).
    pub slots: BTreeMap<String, Timestamp>,
}

/// Why an attempt was held back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoldCause {
    Rate,
    InFlight,
}

/// The answer to "may this attempt start now?".
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Admit {
    /// Start now, and store `state` (with the token taken and the slot added).
    Granted { state: LimitState },
    /// Not before `until`; nothing to store.
    Held { until: Timestamp, cause: HoldCause },
}

/// Takes an in-flight slot (`slot`, leased until `lease_until`) and a token at
/// `now`, both or neither. The cap is checked first, so an attempt held by it takes
/// no token. A slot already held under the same id is kept (a repeated call).
pub fn admit(limits: &Limits, state: &LimitState, slot: &str, lease_until: Timestamp, now: Timestamp) -> Admit {
    let mut next = LimitState {
        bucket: state.bucket,
        slots: state
            .slots
            .iter()
            .filter(|(_, lease)| **lease > now)
            .map(|(k, v)| (k.clone(), *v))
            .collect(),
    };
    if let Some(max) = limits.max_in_flight {
        if next.slots.contains_key(slot) {
            return Admit::Granted { state: next };
        }
        if next.slots.len() >= max as usize {
            // Slots are leased for as long as this one would be, so the latest lease
            // tells how long the newest attempt has been under way. An attempt that
            // has run for a while likely runs as long again (a hanging receiver runs
            // to its timeout): look again after that long, at least the recheck, so
            // held attempts of a hanging endpoint do not come back every second.
            let lease_ms = lease_until.millis_since(now).max(0);
            let earliest = next.slots.values().min().copied().unwrap_or(now);
            let newest = next.slots.values().max().copied().unwrap_or(now);
            let running_ms = now.millis_since(newest.plus_millis(-lease_ms)).max(0);
            let until = earliest.min(now.plus_millis(running_ms.max(IN_FLIGHT_RECHECK_MS)));
            return Admit::Held {
                until,
                cause: HoldCause::InFlight,
            };
        }
    }
    if let Some(rate) = limits.rate {
        match rate.take(state.bucket, now) {
            Take::Granted { bucket } => next.bucket = Some(bucket),
            Take::Held { until } => {
                return Admit::Held {
                    until,
                    cause: HoldCause::Rate,
                };
            }
        }
    }
    if limits.max_in_flight.is_some() {
        next.slots.insert(slot.to_owned(), lease_until);
    }
    Admit::Granted { state: next }
}

/// The state with `slot` freed, or None when it holds no such slot (nothing to write).
pub fn release(state: &LimitState, slot: &str) -> Option<LimitState> {
    if !state.slots.contains_key(slot) {
        return None;
    }
    let mut next = state.clone();
    next.slots.remove(slot);
    Some(next)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // limits built from literal, known-valid values
mod tests {
    use super::*;

    fn t(ms: i64) -> Timestamp {
        Timestamp::from_millis(ms)
    }

    fn granted(a: Admit) -> LimitState {
        match a {
            Admit::Granted { state } => state,
            Admit::Held { until, cause } => panic!("held until {until} by {cause:?}"),
        }
    }

    #[test]
    fn in_flight_cap_holds_the_second_for_a_second_and_frees_on_release() {
        let limits = Limits {
            rate: None,
            max_in_flight: Some(1),
        };
        let s1 = granted(admit(&limits, &LimitState::default(), "a", t(30_000), t(0)));
        assert_eq!(s1.slots, BTreeMap::from([("a".to_owned(), t(30_000))]));
        assert_eq!(s1.bucket, None);
        assert_eq!(
            admit(&limits, &s1, "b", t(30_000), t(0)),
            Admit::Held {
                until: t(1000),
                cause: HoldCause::InFlight
            }
        );
        // The same slot again is a repeat, not a second attempt.
        assert_eq!(granted(admit(&limits, &s1, "a", t(30_000), t(0))), s1);
        let freed = release(&s1, "a").unwrap();
        assert!(freed.slots.is_empty());
        assert_eq!(release(&freed, "a"), None);
        granted(admit(&limits, &freed, "b", t(30_000), t(0)));
    }

    #[test]
    fn an_expired_lease_frees_its_slot() {
        let limits = Limits {
            rate: None,
            max_in_flight: Some(1),
        };
        let s1 = granted(admit(&limits, &LimitState::default(), "a", t(500), t(0)));
        // Held until the lease ends when that is sooner than the recheck.
        assert_eq!(
            admit(&limits, &s1, "b", t(5_000), t(200)),
            Admit::Held {
                until: t(500),
                cause: HoldCause::InFlight
            }
        );
        let s2 = granted(admit(&limits, &s1, "b", t(5_000), t(500)));
        assert_eq!(s2.slots, BTreeMap::from([("b".to_owned(), t(5_000))]));
    }

    #[test]
    fn a_cap_hold_takes_no_token_and_a_rate_hold_takes_no_slot() {
        let limits = Limits {
            rate: Some(RateLimit::new(1.0, Some(1)).unwrap()),
            max_in_flight: Some(2),
        };
        let s1 = granted(admit(&limits, &LimitState::default(), "a", t(9_000), t(0)));
        assert_eq!(s1.bucket.unwrap().milli_tokens, 0);
        assert_eq!(
            admit(&limits, &s1, "b", t(9_000), t(0)),
            Admit::Held {
                until: t(1000),
                cause: HoldCause::Rate
            }
        );
        let s2 = granted(admit(&limits, &s1, "b", t(9_000), t(1000)));
        assert_eq!(s2.slots.len(), 2);
        let held = admit(&limits, &s2, "c", t(9_000), t(5_000));
        assert_eq!(
            held,
            Admit::Held {
                until: t(6_000),
                cause: HoldCause::InFlight
            }
        );
        // The bucket kept its state: the token is still there once a slot frees.
        let s3 = granted(admit(&limits, &release(&s2, "a").unwrap(), "c", t(9_000), t(5_000)));
        assert_eq!(s3.bucket.unwrap().milli_tokens, 0);
        assert_eq!(s3.slots.keys().cloned().collect::<Vec<_>>(), ["b", "c"]);
    }

    #[test]
    fn rate_only_keeps_no_slots() {
        let limits = Limits {
            rate: Some(RateLimit::new(2.0, Some(2)).unwrap()),
            max_in_flight: None,
        };
        let s = granted(admit(&limits, &LimitState::default(), "a", t(9_000), t(0)));
        assert!(s.slots.is_empty());
        assert_eq!(s.bucket.unwrap().milli_tokens, 1000);
        assert!(Limits::default().is_none());
        assert!(!limits.is_none());
    }

    #[test]
    fn a_cap_full_of_long_running_attempts_holds_as_long_as_they_have_run() {
        let limits = Limits {
            rate: None,
            max_in_flight: Some(1),
        };
        // Leases are 32 s (a 12 s timeout and the margin): "a" started at 0.
        let s1 = granted(admit(&limits, &LimitState::default(), "a", t(32_000), t(0)));
        // 300 ms in: the recheck's second.
        assert_eq!(
            admit(&limits, &s1, "b", t(32_300), t(300)),
            Admit::Held {
                until: t(1_300),
                cause: HoldCause::InFlight
            }
        );
        // 5 s in: another 5 s.
        assert_eq!(
            admit(&limits, &s1, "b", t(37_000), t(5_000)),
            Admit::Held {
                until: t(10_000),
                cause: HoldCause::InFlight
            }
        );
        // 20 s in: never past the lease, when the slot frees itself.
        assert_eq!(
            admit(&limits, &s1, "b", t(52_000), t(20_000)),
            Admit::Held {
                until: t(32_000),
                cause: HoldCause::InFlight
            }
        );
    }
}
