//! Per-endpoint rate limits as a token bucket, in exact integer arithmetic.
//!
//! Tokens are counted in thousandths ("milli-tokens") so a rate of 0.1/s and a
//! bucket refilled over a few milliseconds stay exact; one attempt costs 1000.
//! The bucket's state is what a store keeps per endpoint (one item updated with a
//! conditional write); time is an argument, never read here.

use crate::time::Timestamp;

/// Milli-tokens one attempt costs.
pub const ATTEMPT_COST: u64 = 1000;
/// Smallest and largest accepted `rateLimit.perSecond`.
pub const MIN_PER_SECOND: f64 = 0.1;
pub const MAX_PER_SECOND: f64 = 10_000.0;

/// Why a rate limit was refused; `field` names the offending API field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {reason}")]
pub struct RateLimitError {
    pub field: &'static str,
    pub reason: &'static str,
}

/// A validated limit: a refill rate and a bucket capacity (the burst).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    /// Refill rate in milli-tokens per second (100 ..= 10_000_000).
    milli_per_second: u64,
    /// Capacity in whole attempts (>= 1).
    burst: u64,
}

/// What a store keeps per endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bucket {
    pub milli_tokens: u64,
    pub updated_at: Timestamp,
}

/// The answer to "may an attempt start now?".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Take {
    /// Start now; store `bucket` (conditioned on the state that was read).
    Granted { bucket: Bucket },
    /// Not before `until`: the first instant the bucket holds a whole token.
    Held { until: Timestamp },
}

impl RateLimit {
    /// Validates `rateLimit.perSecond` (0.1 ..= 10000) and `rateLimit.burst` (>= 1).
    /// Without a burst the bucket holds one second of tokens, and at least one.
    pub fn new(per_second: f64, burst: Option<u64>) -> Result<Self, RateLimitError> {
        if !per_second.is_finite() || !(MIN_PER_SECOND..=MAX_PER_SECOND).contains(&per_second) {
            return Err(RateLimitError {
                field: "rateLimit.perSecond",
                reason: "must be between 0.1 and 10000",
            });
        }
        // In range, so the product fits and rounds to 100 ..= 10_000_000.
        let milli_per_second = (per_second * 1000.0).round() as u64;
        let burst = match burst {
            Some(0) => {
                return Err(RateLimitError {
                    field: "rateLimit.burst",
                    reason: "must be at least 1",
                });
            }
            Some(b) => b,
            None => milli_per_second.div_ceil(1000).max(1),
        };
        Ok(RateLimit {
            milli_per_second,
            burst,
        })
    }

    pub fn burst(&self) -> u64 {
        self.burst
    }

    /// The rate in attempts per second, as accepted (rounded to 0.001).
    pub fn per_second(&self) -> f64 {
        self.milli_per_second as f64 / 1000.0
    }

    fn capacity(&self) -> u64 {
        self.burst.saturating_mul(ATTEMPT_COST)
    }

    /// A bucket never seen before starts full.
    pub fn full(&self, now: Timestamp) -> Bucket {
        Bucket {
            milli_tokens: self.capacity(),
            updated_at: now,
        }
    }

    /// The bucket refilled up to `now`. A clock behind the stored time (another
    /// instance's clock ran ahead) refills nothing rather than going negative.
    pub fn refill(&self, bucket: Bucket, now: Timestamp) -> Bucket {
        let elapsed = now.millis_since(bucket.updated_at).max(0) as u64;
        let added = elapsed.saturating_mul(self.milli_per_second) / 1000;
        Bucket {
            milli_tokens: bucket.milli_tokens.saturating_add(added).min(self.capacity()),
            updated_at: if now > bucket.updated_at {
                now
            } else {
                bucket.updated_at
            },
        }
    }

    /// Takes one attempt's token at `now`, or says when one will be there. The
    /// hold rounds up, so an attempt re-delayed to `until` is never early.
    pub fn take(&self, bucket: Option<Bucket>, now: Timestamp) -> Take {
        let b = match bucket {
            Some(b) => self.refill(b, now),
            None => self.full(now),
        };
        if b.milli_tokens >= ATTEMPT_COST {
            return Take::Granted {
                bucket: Bucket {
                    milli_tokens: b.milli_tokens - ATTEMPT_COST,
                    updated_at: b.updated_at,
                },
            };
        }
        // Counted from the stored state, not the refilled one: the refill truncates
        // sub-milli-token fractions, and a hold from it would come a little late.
        let from = bucket.map_or(b, |stored| Bucket {
            milli_tokens: stored.milli_tokens.min(self.capacity()),
            updated_at: stored.updated_at,
        });
        let missing = ATTEMPT_COST.saturating_sub(from.milli_tokens);
        let wait_ms = (missing * 1000).div_ceil(self.milli_per_second);
        Take::Held {
            until: from.updated_at.plus_millis(wait_ms as i64),
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // limits built from literal, known-valid values
mod tests {
    use super::*;

    fn t(ms: i64) -> Timestamp {
        Timestamp::from_millis(ms)
    }

    fn granted(take: Take) -> Bucket {
        match take {
            Take::Granted { bucket } => bucket,
            Take::Held { until } => panic!("held until {until}"),
        }
    }

    #[test]
    fn per_second_out_of_range_names_the_field() {
        for bad in [0.0, 0.09, 10_000.5, -1.0, f64::NAN, f64::INFINITY] {
            let err = RateLimit::new(bad, None).unwrap_err();
            assert_eq!(err.field, "rateLimit.perSecond", "{bad}");
        }
        assert_eq!(RateLimit::new(2.0, Some(0)).unwrap_err().field, "rateLimit.burst");
        assert!(RateLimit::new(0.1, None).is_ok());
        assert!(RateLimit::new(10_000.0, Some(1)).is_ok());
    }

    #[test]
    fn default_burst_is_one_second_of_tokens_and_at_least_one() {
        assert_eq!(RateLimit::new(0.1, None).unwrap().burst(), 1);
        assert_eq!(RateLimit::new(2.0, None).unwrap().burst(), 2);
        assert_eq!(RateLimit::new(2.5, None).unwrap().burst(), 3);
        assert_eq!(RateLimit::new(2.0, Some(5)).unwrap().burst(), 5);
    }

    #[test]
    fn two_per_second_burst_two_grants_two_then_holds_half_a_second() {
        let limit = RateLimit::new(2.0, Some(2)).unwrap();
        let b1 = granted(limit.take(None, t(10_000)));
        assert_eq!(b1.milli_tokens, 1000);
        let b2 = granted(limit.take(Some(b1), t(10_000)));
        assert_eq!(b2.milli_tokens, 0);
        assert_eq!(limit.take(Some(b2), t(10_000)), Take::Held { until: t(10_500) });
        // 499 ms later is still one token short by 2 milli-tokens: 1 ms more.
        assert_eq!(limit.take(Some(b2), t(10_499)), Take::Held { until: t(10_500) });
        let b3 = granted(limit.take(Some(b2), t(10_500)));
        assert_eq!(
            b3,
            Bucket {
                milli_tokens: 0,
                updated_at: t(10_500)
            }
        );
    }

    #[test]
    fn refill_stops_at_the_burst() {
        let limit = RateLimit::new(2.0, Some(2)).unwrap();
        let empty = Bucket {
            milli_tokens: 0,
            updated_at: t(0),
        };
        assert_eq!(limit.refill(empty, t(60_000)).milli_tokens, 2000);
    }

    #[test]
    fn slow_rate_hold_rounds_up_never_early() {
        // 0.3/s: 1000 milli-tokens take 3333.33 ms, so the hold is 3334 ms.
        let limit = RateLimit::new(0.3, Some(1)).unwrap();
        let b = granted(limit.take(None, t(0)));
        assert_eq!(limit.take(Some(b), t(0)), Take::Held { until: t(3334) });
        assert_eq!(limit.take(Some(b), t(3333)), Take::Held { until: t(3334) });
        granted(limit.take(Some(b), t(3334)));
    }

    #[test]
    fn clock_behind_the_stored_time_refills_nothing() {
        let limit = RateLimit::new(1.0, Some(1)).unwrap();
        let b = Bucket {
            milli_tokens: 500,
            updated_at: t(5_000),
        };
        assert_eq!(limit.refill(b, t(4_000)), b);
        assert_eq!(limit.take(Some(b), t(4_000)), Take::Held { until: t(5_500) });
    }

    #[test]
    fn over_any_window_no_more_than_burst_plus_rate_times_window_starts() {
        // Greedy taker polling every 7 ms for 10 s at 2/s burst 2: the full bucket
        // (2) plus what 10 s refill, less the fractions each grant truncates.
        let limit = RateLimit::new(2.0, Some(2)).unwrap();
        let mut bucket = None;
        let mut starts = Vec::new();
        for step in 0..=(10_000 / 7) {
            let now = t(step * 7);
            if let Take::Granted { bucket: b } = limit.take(bucket, now) {
                bucket = Some(b);
                starts.push(now.millis());
            }
        }
        assert_eq!(starts.len(), 21);
        for (i, s) in starts.iter().enumerate() {
            let in_window = starts[i..].iter().take_while(|x| **x < s + 1000).count();
            assert!(in_window <= 4, "window from {s} has {in_window}");
        }
    }
}
