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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::memory::SeededRandom;

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
