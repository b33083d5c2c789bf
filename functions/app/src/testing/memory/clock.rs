//! Deterministic clock, randomness and secrets for tests: a manual clock, a seeded
//! random source and seeded "secret" bytes.

use super::*;

/// A clock tests set and advance by hand.
#[derive(Debug, Default)]
pub struct ManualClock {
    ms: AtomicI64,
}

impl ManualClock {
    pub fn new(now: Timestamp) -> Self {
        ManualClock {
            ms: AtomicI64::new(now.millis()),
        }
    }
    pub fn set(&self, now: Timestamp) {
        self.ms.store(now.millis(), Ordering::SeqCst);
    }
    pub fn advance_millis(&self, ms: i64) {
        self.ms.fetch_add(ms, Ordering::SeqCst);
    }
    pub fn advance_secs(&self, secs: i64) {
        self.advance_millis(secs.saturating_mul(1000));
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Timestamp {
        Timestamp(self.ms.load(Ordering::SeqCst))
    }
}

/// A reproducible random source for tests.
#[derive(Debug)]
pub struct SeededRandom {
    rng: SharedSplitMix64,
}

impl SeededRandom {
    pub fn new(seed: u64) -> Self {
        SeededRandom {
            rng: SharedSplitMix64::new(seed),
        }
    }
}

impl Random for SeededRandom {
    fn next_u64(&self) -> u64 {
        self.rng.next_u64()
    }
}

/// Deterministic "secret" bytes for tests: a SplitMix64 stream from `seed`, so
/// successive secrets differ but every run sees the same ones.
#[derive(Debug)]
pub struct FixedSecrets {
    rng: Mutex<SplitMix64>,
}

impl FixedSecrets {
    pub fn new(seed: u64) -> Self {
        FixedSecrets {
            rng: Mutex::new(SplitMix64::new(seed)),
        }
    }
}

impl SecretSource for FixedSecrets {
    fn fill(&self, buf: &mut [u8]) {
        let mut rng = lock(&self.rng);
        for chunk in buf.chunks_mut(8) {
            let bytes = rng.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }
}
