//! Dirichlet exploration noise for the root prior (self-play only), drawn
//! from the search's own [`SplitMix64`] so a noisy search stays a pure
//! function of its seed.

use crate::rng::SplitMix64;

/// Dirichlet noise mixed into the root prior:
/// `P'(a) = (1 - epsilon) P(a) + epsilon eta(a)`, `eta ~ Dir(alpha)` over the
/// root's legal actions (AlphaZero used `alpha = 0.3`, `epsilon = 0.25`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootNoise {
    /// Concentration of the Dirichlet (> 0); small is spiky.
    pub alpha: f64,
    /// Weight of the noise in the mixed prior, in `[0, 1]`.
    pub epsilon: f64,
}

/// A standard normal draw (Box–Muller; one of the pair is discarded, which
/// keeps the generator stateless beyond the rng).
fn normal(rng: &mut SplitMix64) -> f64 {
    // 1 - u is in (0, 1], so the logarithm is finite.
    let u1 = 1.0 - rng.next_f64();
    let u2 = rng.next_f64();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// A `Gamma(alpha, 1)` draw (Marsaglia & Tsang 2000; for `alpha < 1` the
/// boost `Gamma(alpha + 1) * U^(1/alpha)`).
pub fn gamma(rng: &mut SplitMix64, alpha: f64) -> f64 {
    debug_assert!(alpha > 0.0);
    if alpha < 1.0 {
        let u = 1.0 - rng.next_f64();
        return gamma(rng, alpha + 1.0) * u.powf(1.0 / alpha);
    }
    let d = alpha - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = normal(rng);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u = 1.0 - rng.next_f64();
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

/// Fills `out` with one `Dir(alpha, ..., alpha)` draw (sums to 1).
pub fn dirichlet(rng: &mut SplitMix64, alpha: f64, out: &mut [f64]) {
    let mut sum = 0.0;
    for x in out.iter_mut() {
        *x = gamma(rng, alpha);
        sum += *x;
    }
    if sum > 0.0 {
        out.iter_mut().for_each(|x| *x /= sum);
    } else {
        // Every draw underflowed (tiny alpha): one coordinate takes it all.
        let k = rng.below(out.len() as u64) as usize;
        out.iter_mut().for_each(|x| *x = 0.0);
        out[k] = 1.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamma_has_the_right_mean_and_variance() {
        let mut rng = SplitMix64::new(11);
        for alpha in [0.03, 0.3, 1.0, 2.5, 10.0] {
            let n = 40_000;
            let xs: Vec<f64> = (0..n).map(|_| gamma(&mut rng, alpha)).collect();
            let mean = xs.iter().sum::<f64>() / n as f64;
            let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n as f64;
            assert!(xs.iter().all(|x| x.is_finite() && *x >= 0.0));
            // Gamma(alpha, 1): mean = var = alpha; 5 standard errors.
            let se_mean = (alpha / n as f64).sqrt();
            assert!(
                (mean - alpha).abs() < 5.0 * se_mean,
                "alpha {alpha}: mean {mean}"
            );
            assert!(
                (var - alpha).abs() < 0.1 * alpha + 0.01,
                "alpha {alpha}: var {var}"
            );
        }
    }

    #[test]
    fn dirichlet_sums_to_one_with_equal_means() {
        let mut rng = SplitMix64::new(3);
        let mut mean = [0.0; 4];
        let mut x = [0.0; 4];
        for _ in 0..20_000 {
            dirichlet(&mut rng, 0.3, &mut x);
            assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            for (m, v) in mean.iter_mut().zip(&x) {
                *m += v / 20_000.0;
            }
        }
        for m in mean {
            assert!((m - 0.25).abs() < 0.01, "{mean:?}");
        }
    }
}
