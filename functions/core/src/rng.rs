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
/// a retry scheduler needs. Not for secrets (signing secrets come from the OS at the edge).
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }
}

impl RandomSource for SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
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
}
