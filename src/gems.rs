//! Token counts packed as 8-bit lanes of one `u64` (SWAR).
//!
//! ```text
//!  bit 63                                                     bit 0
//!  +------+------+------+------+------+------+------+------+
//!  |  --  |  --  | lane5| lane4| lane3| lane2| lane1| lane0|
//!  +------+------+------+------+------+------+------+------+
//!  base game: lane 0..4 = white, blue, green, red, black; lane 5 = gold
//! ```
//! Every lane must stay below 128 so that one guard bit per lane makes
//! lane-wise subtraction and comparison borrow-free; game counts are far
//! smaller. Adding, paying and "can afford" are then a few integer ops over
//! all colours at once instead of a loop.

/// Number of lanes available.
pub const LANES: usize = 8;
/// Low bit of every lane.
const ONES: u64 = 0x0101_0101_0101_0101;
/// High (guard) bit of every lane.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Per-lane small counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Gems(pub u64);

impl Gems {
    /// All lanes zero.
    pub const ZERO: Gems = Gems(0);

    /// Builds from per-lane counts (each < 128).
    #[inline]
    pub const fn from_counts(counts: &[u8]) -> Gems {
        let mut v = 0u64;
        let mut i = 0;
        while i < counts.len() && i < LANES {
            v |= (counts[i] as u64) << (8 * i);
            i += 1;
        }
        Gems(v)
    }

    /// The same count `n` in lanes `0..lanes`.
    #[inline]
    pub const fn splat(n: u8, lanes: usize) -> Gems {
        let mask = if lanes >= LANES {
            u64::MAX
        } else {
            (1u64 << (8 * lanes)) - 1
        };
        Gems((ONES & mask) * n as u64)
    }

    /// Count in lane `i`.
    #[inline]
    pub const fn get(self, i: usize) -> u8 {
        (self.0 >> (8 * i)) as u8
    }

    /// Sets lane `i` to `n`.
    #[inline]
    pub fn set(&mut self, i: usize, n: u8) {
        self.0 = (self.0 & !(0xFFu64 << (8 * i))) | (u64::from(n) << (8 * i));
    }

    /// The one-lane vector with `n` in lane `i`.
    #[inline]
    pub const fn unit(i: usize, n: u8) -> Gems {
        Gems((n as u64) << (8 * i))
    }

    /// Lane-wise sum (lanes must not exceed 127).
    #[inline]
    pub const fn add(self, o: Gems) -> Gems {
        Gems(self.0 + o.0)
    }

    /// Lane-wise difference; every lane of `o` must be ≤ the same lane of `self`.
    #[inline]
    pub const fn sub(self, o: Gems) -> Gems {
        Gems(self.0 - o.0)
    }

    /// Lane-wise `max(0, self - o)`.
    #[inline]
    pub const fn saturating_sub(self, o: Gems) -> Gems {
        // The guard bit survives in lanes where self >= o; spread it to a
        // full-lane mask and keep only those lanes' differences.
        let d = (self.0 | HIGH) - o.0;
        let keep = d & HIGH;
        let mask = keep - (keep >> 7);
        Gems(d & !HIGH & mask)
    }

    /// Whether every lane of `self` is ≤ the same lane of `o`.
    #[inline]
    pub const fn all_le(self, o: Gems) -> bool {
        ((o.0 | HIGH) - self.0) & HIGH == HIGH
    }

    /// Sum of all lanes (the total must stay below 256).
    #[inline]
    pub const fn total(self) -> u32 {
        (self.0.wrapping_mul(ONES) >> 56) as u32
    }

    /// Bit `i` set when lane `i` is non-zero (lanes `0..8`).
    #[inline]
    pub const fn nonzero_mask(self) -> u8 {
        // (lane + 0x7F) sets the guard bit exactly when the lane is non-zero.
        let t = ((self.0 & !HIGH) + !HIGH) | self.0;
        let h = (t & HIGH) >> 7;
        // Gather one bit per lane into the low byte.
        (h.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
    }

    /// Bit `i` set when lane `i` is at least `n` (1 ≤ n ≤ 128).
    #[inline]
    pub const fn at_least_mask(self, n: u8) -> u8 {
        let t = (self.0 | HIGH) - ONES * n as u64;
        let h = ((t & HIGH) >> 7) | ((self.0 & HIGH) >> 7);
        (h.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
    }

    /// Keeps only lanes `0..lanes`.
    #[inline]
    pub const fn low_lanes(self, lanes: usize) -> Gems {
        if lanes >= LANES {
            self
        } else {
            Gems(self.0 & ((1u64 << (8 * lanes)) - 1))
        }
    }
}

/// Bit `i` set when byte `i` of a 12-slot card display is not `0xFF` (the
/// empty-slot marker of every variant): the bytes as lanes of two words, the
/// complement turning `0xFF` into a zero lane.
#[inline]
pub fn occupied_slots(slots: &[u8; 12]) -> u16 {
    let b = slots;
    let lo = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
    let hi = u64::from(u32::from_le_bytes([b[8], b[9], b[10], b[11]]));
    let lo = Gems(!lo).nonzero_mask();
    let hi = Gems(!hi & 0xFFFF_FFFF).nonzero_mask();
    u16::from(lo) | (u16::from(hi) << 8)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lanes(g: Gems) -> [u8; 8] {
        g.0.to_le_bytes()
    }

    #[test]
    fn swar_ops_match_lane_loops() {
        let mut r = crate::rng::SplitMix64::new(3);
        for _ in 0..20_000 {
            let a: Vec<u8> = (0..8).map(|_| r.below(31) as u8).collect();
            let b: Vec<u8> = (0..8).map(|_| r.below(31) as u8).collect();
            let ga = Gems::from_counts(&a);
            let gb = Gems::from_counts(&b);
            let sat: Vec<u8> = a
                .iter()
                .zip(&b)
                .map(|(x, y)| x.saturating_sub(*y))
                .collect();
            assert_eq!(lanes(ga.saturating_sub(gb)).to_vec(), sat);
            assert_eq!(ga.all_le(gb), a.iter().zip(&b).all(|(x, y)| x <= y));
            assert_eq!(ga.total(), a.iter().map(|&x| u32::from(x)).sum::<u32>());
            let nz = a
                .iter()
                .enumerate()
                .fold(0u8, |m, (i, &x)| m | (u8::from(x > 0) << i));
            assert_eq!(ga.nonzero_mask(), nz);
            for n in [1u8, 2, 4, 7, 30] {
                let ge = a
                    .iter()
                    .enumerate()
                    .fold(0u8, |m, (i, &x)| m | (u8::from(x >= n) << i));
                assert_eq!(ga.at_least_mask(n), ge, "{a:?} >= {n}");
            }
            assert_eq!(
                lanes(ga.add(gb)).to_vec(),
                a.iter().zip(&b).map(|(x, y)| x + y).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn occupied_slots_reads_the_empty_marker() {
        let mut r = crate::rng::SplitMix64::new(12);
        for _ in 0..5000 {
            let slots: [u8; 12] = std::array::from_fn(|_| match r.below(3) {
                0 => 0xFF,
                _ => r.below(255) as u8,
            });
            let expected = (0..12).fold(0u16, |m, i| m | (u16::from(slots[i] != 0xFF) << i));
            assert_eq!(occupied_slots(&slots), expected, "{slots:?}");
        }
    }

    #[test]
    fn lane_access() {
        let mut g = Gems::splat(4, 5);
        assert_eq!(g.get(4), 4);
        assert_eq!(g.get(5), 0);
        g.set(5, 5);
        assert_eq!(g.get(5), 5);
        assert_eq!(g.total(), 25);
        assert_eq!(g.low_lanes(5), Gems::splat(4, 5));
        assert_eq!(Gems::unit(2, 3).get(2), 3);
        assert_eq!(g.sub(Gems::unit(0, 4)).get(0), 0);
    }
}
