//! Order statistics for the report: min, p50, p99, max of a sample, and medians.

use serde::Serialize;

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Summary {
    pub n: usize,
    pub min: f64,
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

/// Nearest-rank percentile of a sorted sample (`p` in 0..=100).
pub fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

pub fn summarize(sample: &[f64]) -> Summary {
    let mut s: Vec<f64> = sample.iter().copied().filter(|x| x.is_finite()).collect();
    s.sort_by(f64::total_cmp);
    if s.is_empty() {
        return Summary {
            n: 0,
            min: f64::NAN,
            p50: f64::NAN,
            p99: f64::NAN,
            max: f64::NAN,
        };
    }
    Summary {
        n: s.len(),
        min: s[0],
        p50: percentile(&s, 50.0),
        p99: percentile(&s, 99.0),
        max: s[s.len() - 1],
    }
}

/// The middle value, the mean of the two middle ones for an even count; NaN for an
/// empty sample.
pub fn median(sample: &[f64]) -> f64 {
    let mut s = sample.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    match n {
        0 => f64::NAN,
        _ if n % 2 == 1 => s[n / 2],
        _ => (s[n / 2 - 1] + s[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank() {
        let s: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&s, 50.0), 50.0);
        assert_eq!(percentile(&s, 99.0), 99.0);
        let one = summarize(&[3.0]);
        assert_eq!((one.min, one.p50, one.p99, one.max), (3.0, 3.0, 3.0, 3.0));
    }

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&[0.93, 0.73, 0.89]), 0.89);
        assert_eq!(median(&[0.9, 0.8, 1.0, 0.84]), 0.87);
        assert!(median(&[]).is_nan());
    }
}
