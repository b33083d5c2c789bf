//! The random source for jitter and ids, injected so decisions are reproducible.

/// A source of uniformly distributed 64-bit values.
pub trait RandomSource {
    fn next_u64(&mut self) -> u64;

    /// A uniform value in [0, 1], using the top 53 bits.
    fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / ((1u64 << 53) - 1) as f64
    }
}

/// SplitMix64: tiny, fast, statistically fine for jitter, and seedable, which is all
/// a retry scheduler needs, and tests. Never for anything public or secret (ids,
/// tokens, signing secrets): its output gives its state away, so production draws
/// those from the OS CSPRNG at the edge.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }
}

/// SplitMix64's step: the state advances by this constant on every draw.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output for a state.
fn mix(state: u64) -> u64 {
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl RandomSource for SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }
}

/// [`SplitMix64`] shared by threads without a lock. Its state only ever advances by
/// a constant, so one atomic add hands each caller its own step of the very same
/// sequence: concurrent callers never wait for each other or draw the same value.
#[derive(Debug)]
pub struct SharedSplitMix64 {
    state: std::sync::atomic::AtomicU64,
}

impl SharedSplitMix64 {
    pub fn new(seed: u64) -> Self {
        SharedSplitMix64 {
            state: std::sync::atomic::AtomicU64::new(seed),
        }
    }

    pub fn next_u64(&self) -> u64 {
        let previous = self.state.fetch_add(GAMMA, std::sync::atomic::Ordering::Relaxed);
        mix(previous.wrapping_add(GAMMA))
    }
}

/// A source that always answers the same fraction: `Fixed(0.0)` gives the lowest
/// jitter, `Fixed(1.0)` the highest. Useful for exact expectations.
#[derive(Debug, Clone, Copy)]
pub struct Fixed(pub f64);

impl RandomSource for Fixed {
    fn next_u64(&mut self) -> u64 {
        (self.0.clamp(0.0, 1.0) * u64::MAX as f64) as u64
    }
    fn unit(&mut self) -> f64 {
        self.0.clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeded_sequences_repeat_and_stay_in_range() {
        let mut a = SplitMix64::new(7);
        let mut b = SplitMix64::new(7);
        for _ in 0..1000 {
            let x = a.unit();
            assert_eq!(x, b.unit());
            assert!((0.0..=1.0).contains(&x));
        }
        assert_ne!(SplitMix64::new(1).next_u64(), SplitMix64::new(2).next_u64());
    }

    #[test]
    fn splitmix_matches_its_published_first_outputs() {
        // The reference implementation's first outputs for seed 1234567.
        let mut r = SplitMix64::new(1_234_567);
        let got: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(
            got,
            vec![
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }

    #[test]
    fn shared_splitmix_is_the_same_sequence_split_between_threads() {
        let shared = SharedSplitMix64::new(42);
        let mut plain = SplitMix64::new(42);
        for _ in 0..100 {
            assert_eq!(shared.next_u64(), plain.next_u64());
        }
        // Four threads drawing together get exactly the next 4,000 values, each once.
        let mut expected: Vec<u64> = (0..4_000).map(|_| plain.next_u64()).collect();
        let mut drawn: Vec<u64> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..4)
                .map(|_| s.spawn(|| (0..1_000).map(|_| shared.next_u64()).collect::<Vec<u64>>()))
                .collect();
            handles.into_iter().flat_map(|h| h.join().unwrap_or_default()).collect()
        });
        expected.sort_unstable();
        drawn.sort_unstable();
        assert_eq!(drawn, expected);
    }
}
