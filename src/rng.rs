//! SplitMix64 and the one shuffle used everywhere.
//!
//! `python/splendor/reference/rng.py` implements exactly the same bits, so the
//! Rust and reference engines deal identical games from the same seed. Changing
//! anything here changes every seeded game: treat it as part of the format.

/// `x % n` (`n > 0`). For the small `n` of shuffles and playouts it is
/// computed without a division ("Faster remainder by direct computation",
/// Lemire, Kaser & Kurz 2019): with `m = ceil(2^128 / n)`, the low 128 bits
/// of `m * x`, times `n`, divided by `2^128`, is `x % n` exactly for every
/// 64-bit `x` and `n` (128 fraction bits are at least 64 + log2 n); four
/// multiplications, where a 64-bit `div` costs several times as much.
#[inline]
fn remainder(x: u64, n: u64) -> u64 {
    if n >= FAST_MOD_BELOW {
        return x % n;
    }
    let low = FAST_MOD[n as usize].wrapping_mul(u128::from(x));
    let bottom = (u128::from(low as u64) * u128::from(n)) >> 64;
    let top = u128::from((low >> 64) as u64) * u128::from(n);
    ((bottom + top) >> 64) as u64
}

/// Below this `n`, [`remainder`] multiplies by [`FAST_MOD`]`[n]`.
const FAST_MOD_BELOW: u64 = 256;

/// `ceil(2^128 / n)` for `2 <= n < 256` (`u128::MAX / n + 1`); 0 for `n`
/// = 0 and 1, where the product gives 0, which is `x % 1`.
static FAST_MOD: [u128; FAST_MOD_BELOW as usize] = fast_mod_table();

const fn fast_mod_table() -> [u128; FAST_MOD_BELOW as usize] {
    let mut t = [0u128; FAST_MOD_BELOW as usize];
    let mut n = 2;
    while n < FAST_MOD_BELOW as usize {
        t[n] = u128::MAX / n as u128 + 1;
        n += 1;
    }
    t
}

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
                return remainder(x, n);
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

    /// The division-free remainder is `x % n` for every small `n`, on
    /// random draws and on the edges (0, the largest value, the multiples of
    /// `n` and their neighbours).
    #[test]
    fn the_remainder_without_division_is_exact() {
        let mut r = SplitMix64::new(5);
        for n in 1..FAST_MOD_BELOW + 3 {
            let mut xs = vec![0, 1, u64::MAX, u64::MAX - 1, n - 1, n, n + 1];
            let top = u64::MAX - u64::MAX % n;
            xs.extend([top, top - 1, top.wrapping_add(1), top - n, top - n + 1]);
            xs.extend((0..2_000).map(|_| r.next_u64()));
            xs.extend((0..200).map(|_| r.next_u64() >> (r.next_u64() % 64)));
            for x in xs {
                assert_eq!(remainder(x, n), x % n, "{x} % {n}");
            }
        }
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
