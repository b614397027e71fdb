//! "Which of these cards can the player pay for?" for up to 16 cards at once.
//!
//! Every variant's move generator asks it for each face-up and reserved card
//! on every main-phase decision: a card is affordable when the shortfall
//! `Σ_lanes max(0, cost - power)` (power = bonuses + coloured tokens) is at
//! most the player's wild tokens (gold, grey). Asked one card at a time that
//! is a saturating SWAR subtraction, a multiply to sum the lanes and a
//! compare per card, which made affordability the largest part of a random
//! game's move generation.
//!
//! On x86_64 the 16 questions are answered together with SSE2 (part of the
//! x86_64 baseline, so no runtime detection): two costs per 128-bit register,
//! one `psubusb` (lane-wise saturating subtraction, exact for full 8-bit
//! lanes) and one `psadbw` (the sum of the 8 byte lanes) per pair, then one
//! compare of all 16 sums against the budget. Elsewhere the same answer comes
//! from the per-card SWAR test. A test checks both against a plain loop.

/// Bit `i` set when `Σ_lanes max(0, costs[i] - power) <= budget`, over the
/// 8 unsigned 8-bit lanes of each word.
#[inline]
pub fn affordable_mask(costs: &[u64; 16], power: u64, budget: u8) -> u16 {
    affordable_mask_by(|i| costs[i], power, budget)
}

/// [`affordable_mask`] of the costs `cost(0)`, ..., `cost(15)`.
///
/// The move generators pass a lookup of each slot's cost in a table rather
/// than an array they have just filled: the SSE2 code reads the costs two by
/// two, and a 16-byte read of an array written 8 bytes at a time cannot be
/// served from the pending stores (store-to-load forwarding fails), which
/// stalled every call until the stores reached the cache.
#[inline(always)]
pub fn affordable_mask_by(cost: impl Fn(usize) -> u64, power: u64, budget: u8) -> u16 {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::affordable_mask(cost, power, budget)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        affordable_mask_swar_by(cost, power, budget)
    }
}

/// `Σ_lanes max(0, costs[i] - power)` for each of the 16 costs, saturated
/// at 255 (the same sums as [`affordable_mask`] compares).
#[inline]
pub fn shortfalls(costs: &[u64; 16], power: u64) -> [u8; 16] {
    shortfalls_by(|i| costs[i], power)
}

/// [`shortfalls`] of the costs `cost(0)`, ..., `cost(15)` (see
/// [`affordable_mask_by`] for why a lookup).
#[inline(always)]
pub fn shortfalls_by(cost: impl Fn(usize) -> u64, power: u64) -> [u8; 16] {
    #[cfg(target_arch = "x86_64")]
    {
        sse2::shortfalls(cost, power)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        std::array::from_fn(|i| shortfall(cost(i), power).min(255) as u8)
    }
}

/// The portable answer: one saturating SWAR subtraction per card.
#[inline]
pub fn affordable_mask_swar(costs: &[u64; 16], power: u64, budget: u8) -> u16 {
    affordable_mask_swar_by(|i| costs[i], power, budget)
}

/// [`affordable_mask_swar`] of the costs `cost(0)`, ..., `cost(15)`.
#[inline]
fn affordable_mask_swar_by(cost: impl Fn(usize) -> u64, power: u64, budget: u8) -> u16 {
    let mut bits = 0u16;
    for i in 0..16 {
        let short = shortfall(cost(i), power);
        bits |= u16::from(short <= u32::from(budget)) << i;
    }
    bits
}

/// `Σ_lanes max(0, cost - power)` over 8 full 8-bit lanes.
#[inline]
fn shortfall(cost: u64, power: u64) -> u32 {
    cost.to_le_bytes()
        .iter()
        .zip(power.to_le_bytes())
        .map(|(&c, p)| u32::from(c.saturating_sub(p)))
        .sum()
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    /// Within each group of 8 cards, the order in which costs are paired into
    /// registers so that the sums come out in card order: `psadbw` leaves a
    /// pair's two sums in 16-bit words 0 and 4; shifting the registers of
    /// cards (1,5), (2,6), (3,7) by 1, 2, 3 words and OR-ing them in fills
    /// words 0..8 with cards 0..8.
    const PAIRS: [(usize, usize); 4] = [(0, 4), (1, 5), (2, 6), (3, 7)];

    /// The 16 shortfalls as 16-bit words, 8 cards per register, in card order.
    ///
    /// # Safety
    /// None beyond SSE2, part of the x86_64 baseline: registers only.
    #[inline(always)]
    unsafe fn sums(cost: impl Fn(usize) -> u64, power: u64) -> (__m128i, __m128i) {
        let power = _mm_set1_epi64x(power as i64);
        let zero = _mm_setzero_si128();
        let sums = |group: usize| -> __m128i {
            let pair = |(a, b): (usize, usize)| {
                let (a, b) = (8 * group + a, 8 * group + b);
                let x = _mm_set_epi64x(cost(b) as i64, cost(a) as i64);
                _mm_sad_epu8(_mm_subs_epu8(x, power), zero)
            };
            let s0 = pair(PAIRS[0]);
            let s1 = _mm_slli_si128::<2>(pair(PAIRS[1]));
            let s2 = _mm_slli_si128::<4>(pair(PAIRS[2]));
            let s3 = _mm_slli_si128::<6>(pair(PAIRS[3]));
            _mm_or_si128(_mm_or_si128(s0, s1), _mm_or_si128(s2, s3))
        };
        (sums(0), sums(1))
    }

    #[inline(always)]
    pub fn affordable_mask(cost: impl Fn(usize) -> u64, power: u64, budget: u8) -> u16 {
        if budget > 126 {
            // The byte compare below is signed; no game has such a budget.
            return super::affordable_mask_swar_by(cost, power, budget);
        }
        // SAFETY: SSE2 is part of the x86_64 baseline; every intrinsic below
        // works on registers only.
        unsafe {
            let (lo, hi) = sums(cost, power);
            // Sums are at most 8 * 255 < 32768: signed saturation to bytes
            // turns every sum above 127 into 127, still above the budget.
            let bytes = _mm_packs_epi16(lo, hi);
            let over = _mm_cmpgt_epi8(bytes, _mm_set1_epi8(budget as i8));
            !(_mm_movemask_epi8(over) as u16)
        }
    }

    #[inline(always)]
    pub fn shortfalls(cost: impl Fn(usize) -> u64, power: u64) -> [u8; 16] {
        let mut out = [0u8; 16];
        // SAFETY: SSE2 is part of the x86_64 baseline; the store writes the
        // 16 bytes of `out`, unaligned.
        unsafe {
            let (lo, hi) = sums(cost, power);
            // Unsigned saturation to bytes: a sum above 255 reads 255.
            _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_packus_epi16(lo, hi));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn every_implementation_matches_a_plain_loop() {
        let mut rng = SplitMix64::new(41);
        for round in 0..20_000 {
            // Small lanes like real costs and powers, with some large ones
            // (unpayable sentinels, big bonuses) mixed in.
            let lane = |rng: &mut SplitMix64| -> u8 {
                match rng.below(10) {
                    0 => rng.below(256) as u8,
                    _ => rng.below(9) as u8,
                }
            };
            let word =
                |rng: &mut SplitMix64| u64::from_le_bytes(std::array::from_fn(|_| lane(&mut *rng)));
            let costs: [u64; 16] = std::array::from_fn(|_| word(&mut rng));
            let power = word(&mut rng);
            let budget = if round % 7 == 0 {
                rng.below(256) as u8
            } else {
                rng.below(8) as u8
            };
            let expected = (0..16).fold(0u16, |m, i| {
                let short: u32 = (0..8)
                    .map(|l| {
                        let c = (costs[i] >> (8 * l)) as u8;
                        let p = (power >> (8 * l)) as u8;
                        u32::from(c.saturating_sub(p))
                    })
                    .sum();
                m | (u16::from(short <= u32::from(budget)) << i)
            });
            assert_eq!(affordable_mask_swar(&costs, power, budget), expected);
            let sums: [u8; 16] = std::array::from_fn(|i| {
                let short: u32 = (0..8)
                    .map(|l| {
                        let c = (costs[i] >> (8 * l)) as u8;
                        let p = (power >> (8 * l)) as u8;
                        u32::from(c.saturating_sub(p))
                    })
                    .sum();
                short.min(255) as u8
            });
            assert_eq!(shortfalls(&costs, power), sums);
            assert_eq!(
                affordable_mask(&costs, power, budget),
                expected,
                "costs {costs:x?} power {power:x} budget {budget}"
            );
        }
    }
}
