//! The production adapters that need no cloud service: the wall clock and the
//! operating system's CSPRNG, for randomness (ids, jitter) and for secrets.

use crate::ports::{Clock, Random, SecretSource};
use courier_core::Timestamp;

/// The wall clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        let ms = match std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            Ok(d) => i64::try_from(d.as_millis()).unwrap_or(i64::MAX),
            Err(e) => -i64::try_from(e.duration().as_millis()).unwrap_or(i64::MAX),
        };
        Timestamp(ms)
    }
}

/// Production randomness for ids and jitter: every draw straight from the
/// operating system's CSPRNG. Ids are public (every API answer and webhook carries
/// them), and a seeded generator's output gives its state away: from one id the
/// next ids, another tenant's included, could be computed. A draw is one
/// `getrandom` call (a vDSO call or a short syscall), far below an attempt's cost.
#[derive(Debug, Clone, Copy, Default)]
pub struct OsRandom;

impl OsRandom {
    pub fn new() -> Self {
        OsRandom
    }
}

impl Random for OsRandom {
    fn next_u64(&self) -> u64 {
        let mut bytes = [0u8; 8];
        OsSecrets.fill(&mut bytes);
        u64::from_le_bytes(bytes)
    }
}

/// The name the binaries wire: the OS CSPRNG, as [`OsRandom`].
pub type OsSeededRandom = OsRandom;

/// Secrets from the operating system's CSPRNG.
#[derive(Debug, Clone, Copy, Default)]
pub struct OsSecrets;

impl SecretSource for OsSecrets {
    fn fill(&self, buf: &mut [u8]) {
        // Without OS entropy no secret can be made safely; continuing would mint
        // guessable signing secrets and API keys.
        if let Err(e) = getrandom::fill(buf) {
            panic!("the operating system's random source failed: {e}");
        }
    }
}
