//! SplitMix64 and the one shuffle used everywhere.
//!
//! `python/splendor/reference/rng.py` implements exactly the same bits, so the
//! Rust and reference engines deal identical games from the same seed. Changing
//! anything here changes every seeded game: treat it as part of the format.

/// The SplitMix64 generator (Steele, Lea & Flood 2014).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose first output depends on `seed` only.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The generator's whole state: `SplitMix64::new(g.state())` continues
    /// exactly where `g` stands (to save and restore a bot's stream).
    pub fn state(&self) -> u64 {
        self.state
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`), by rejection: draws below
    /// `2^64 mod n` are discarded so that `x % n` is unbiased. Simple to mirror
    /// in Python, and the rejection almost never happens for small `n`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        loop {
            let x = self.next_u64();
            // `2^64 mod n` is below `n`, so a draw of at least `n` is kept
            // without computing it: one division per draw instead of two
            // (the same draws are kept and the same values returned).
            if x >= n || x >= n.wrapping_neg() % n {
                return x % n;
            }
        }
    }

    /// A uniform float in `[0, 1)` from the top 53 bits.
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Fisher–Yates from the top: for `i` from `len-1` down to 1, swap
    /// `xs[i]` with `xs[below(i+1)]`.
    pub fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            xs.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_outputs_are_stable() {
        // Pinned values: the Python mirror's test pins the same numbers.
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut r = SplitMix64::new(42);
        let mut xs: Vec<u32> = (0..10).collect();
        r.shuffle(&mut xs);
        let mut sorted = xs.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>());
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64::new(7);
        for n in 1..50u64 {
            for _ in 0..100 {
                assert!(r.below(n) < n);
            }
        }
    }

    /// The one-division `below` keeps exactly the draws of the specified
    /// rule (reject below `2^64 mod n`, then `x % n`), for small and huge
    /// `n` alike (huge ones reject often).
    #[test]
    fn below_matches_the_specified_rejection() {
        fn reference(r: &mut SplitMix64, n: u64) -> u64 {
            let threshold = n.wrapping_neg() % n;
            loop {
                let x = r.next_u64();
                if x >= threshold {
                    return x % n;
                }
            }
        }
        let (mut a, mut b) = (SplitMix64::new(11), SplitMix64::new(11));
        let huge = [
            u64::MAX,
            (1 << 63) + 1,
            (1 << 63) + (1 << 62),
            3 << 62,
            1 << 63,
        ];
        for n in (1..600u64).chain(huge) {
            for _ in 0..50 {
                assert_eq!(a.below(n), reference(&mut b, n), "n = {n}");
            }
        }
    }
}
