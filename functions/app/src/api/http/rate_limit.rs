//! Token buckets per caller, in bounded memory. Per process: in Lambda each warm
//! instance limits on its own, which bounds abuse without a storage write per request.
//!
//! Buckets live in two generations. A bucket untouched for a whole refill window is
//! full again, so forgetting it changes nothing; the current generation is therefore
//! retired (and the one before it dropped) once it is a refill window old, or sooner
//! when it holds half the capacity. Each call touches at most two map entries: no scan.

use courier_core::Timestamp;
use courier_core::ids::TenantId;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Most buckets kept at once (both generations together).
pub const DEFAULT_CAPACITY: usize = 20_000;

/// Whom a bucket counts.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BucketKey {
    /// Every authenticated call of a tenant, whichever of its keys or spellings of a
    /// key it used.
    Tenant(TenantId),
    /// Failed authentications from one source address (`None`: source unknown).
    FailedAuth(Option<IpAddr>),
    /// Completion reports from one source address.
    Completion(Option<IpAddr>),
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Timestamp,
}

#[derive(Debug)]
struct Generations {
    current: HashMap<BucketKey, Bucket>,
    previous: HashMap<BucketKey, Bucket>,
    started: Option<Timestamp>,
}

/// Cheap to clone: clones share the buckets.
#[derive(Debug, Clone)]
pub struct RateLimiter {
    inner: Arc<Mutex<Generations>>,
    capacity: usize,
}

impl Default for RateLimiter {
    fn default() -> Self {
        RateLimiter::with_capacity(DEFAULT_CAPACITY)
    }
}

impl RateLimiter {
    pub fn with_capacity(capacity: usize) -> Self {
        RateLimiter {
            inner: Arc::new(Mutex::new(Generations {
                current: HashMap::new(),
                previous: HashMap::new(),
                started: None,
            })),
            capacity: capacity.max(2),
        }
    }

    /// How many buckets are held now (both generations).
    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .map(|g| g.current.len() + g.previous.len())
            .unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `key` has a token left, without taking it.
    pub fn has_token(&self, key: &BucketKey, rate: u32, burst: u32, now: Timestamp) -> bool {
        if rate == 0 {
            return true;
        }
        let Ok(g) = self.inner.lock() else {
            return true;
        };
        match g.current.get(key).or_else(|| g.previous.get(key)) {
            Some(b) => refilled(*b, rate, burst, now) >= 1.0,
            None => true,
        }
    }

    /// `Ok` to go ahead, or `Err(seconds)` to wait before the next token.
    pub fn take(&self, key: BucketKey, rate: u32, burst: u32, now: Timestamp) -> Result<(), u64> {
        if rate == 0 {
            return Ok(());
        }
        let Ok(mut g) = self.inner.lock() else {
            return Ok(());
        };
        let window_ms = (f64::from(burst.max(1)) / f64::from(rate) * 1000.0).ceil() as i64;
        let age = g.started.map_or(i64::MAX, |s| now.millis_since(s));
        if g.started.is_none() || age >= window_ms || g.current.len() >= self.capacity / 2 {
            let retired = std::mem::take(&mut g.current);
            g.previous = retired;
            g.started = Some(now);
        }
        let bucket = match g.current.get(&key).copied() {
            Some(b) => b,
            None => g.previous.remove(&key).unwrap_or(Bucket {
                tokens: f64::from(burst.max(1)),
                at: now,
            }),
        };
        let mut tokens = refilled(bucket, rate, burst, now);
        let answer = if tokens >= 1.0 {
            tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - tokens) / f64::from(rate)).ceil().max(1.0) as u64)
        };
        g.current.insert(
            key,
            Bucket {
                tokens,
                at: now.max(bucket.at),
            },
        );
        answer
    }
}

fn refilled(b: Bucket, rate: u32, burst: u32, now: Timestamp) -> f64 {
    let elapsed = now.millis_since(b.at).max(0) as f64 / 1000.0;
    (b.tokens + elapsed * f64::from(rate)).min(f64::from(burst.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(ms: i64) -> Timestamp {
        Timestamp::from_millis(1_700_000_000_000 + ms)
    }

    fn ip(n: u32) -> BucketKey {
        BucketKey::FailedAuth(Some(IpAddr::from(n.to_be_bytes())))
    }

    #[test]
    fn a_bucket_drains_then_refills_at_the_rate() {
        let l = RateLimiter::default();
        for _ in 0..3 {
            assert_eq!(l.take(ip(1), 1, 3, t(0)), Ok(()));
        }
        assert_eq!(l.take(ip(1), 1, 3, t(0)), Err(1));
        assert!(!l.has_token(&ip(1), 1, 3, t(0)));
        assert!(l.has_token(&ip(2), 1, 3, t(0)));
        assert_eq!(l.take(ip(1), 1, 3, t(1000)), Ok(()));
        assert_eq!(l.take(ip(1), 1, 3, t(1000)), Err(1));
    }

    #[test]
    fn memory_stays_bounded_under_a_flood_of_new_keys() {
        let l = RateLimiter::with_capacity(100);
        for n in 0..10_000 {
            let _ = l.take(ip(n), 1, 1000, t(0));
            assert!(l.len() <= 100, "{} buckets after {n} keys", l.len());
        }
    }

    #[test]
    fn a_drained_bucket_survives_one_generation_change() {
        let l = RateLimiter::with_capacity(1000);
        assert_eq!(l.take(ip(1), 1, 1, t(0)), Ok(()));
        // Still empty half a window later; a rotation at the window's end moves it to
        // the old generation, where it is found and refilled, not forgotten.
        assert_eq!(l.take(ip(1), 1, 1, t(500)), Err(1));
        assert_eq!(l.take(ip(2), 1, 1, t(1000)), Ok(()));
        assert_eq!(l.take(ip(1), 1, 1, t(1000)), Ok(()));
        assert_eq!(l.take(ip(1), 1, 1, t(1000)), Err(1));
    }
}
