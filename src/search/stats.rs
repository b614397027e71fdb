//! Confidence intervals for win rates.

/// The Wilson score interval for a proportion: `successes` out of `n` trials
/// at normal quantile `z` (1.96 for 95%). Shared wins may make `successes`
/// fractional. Returns `(0, 1)` when `n == 0`.
///
/// Chosen over the normal approximation because it stays inside `[0, 1]` and
/// behaves well at rates near 0 or 1, which is exactly where a strong bot's
/// win rate lands.
pub fn wilson_interval(successes: f64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    // The interval always contains p; saying so explicitly keeps rounding
    // from putting p = 1 just above an upper bound of 0.9999999999999999.
    ((centre - half).clamp(0.0, p), (centre + half).clamp(p, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_known_values() {
        // 8 of 10 at 95%: the textbook interval is [0.4902, 0.9433].
        let (lo, hi) = wilson_interval(8.0, 10, 1.96);
        assert!((lo - 0.4902).abs() < 1e-3, "{lo}");
        assert!((hi - 0.9433).abs() < 1e-3, "{hi}");
    }

    #[test]
    fn stays_in_unit_interval_at_the_edges() {
        let (lo, hi) = wilson_interval(0.0, 50, 1.96);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.0 && hi < 0.1);
        let (lo, hi) = wilson_interval(50.0, 50, 1.96);
        assert!(lo > 0.9 && lo < 1.0);
        assert_eq!(hi, 1.0);
        assert_eq!(wilson_interval(0.0, 0, 1.96), (0.0, 1.0));
    }
}
