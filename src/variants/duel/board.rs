//! The 5×5 token board as bitboards: one 25-bit mask per token kind, bit
//! `i = row*5 + col` (row 0 at the top).
//!
//! ```text
//!   col: a  b  c  d  e          fill spiral (position -> cell):
//! row 1   0  1  2  3  4          16 17 18 19 20
//! row 2   5  6  7  8  9          15  4  5  6 21
//! row 3  10 11 12 13 14          14  3  0  7 22
//! row 4  15 16 17 18 19          13  2  1  8 23
//! row 5  20 21 22 23 24          12 11 10  9 24
//! ```
//! Line takes are found with shifts: a pair in direction `d` anchored at `i`
//! is `T & (T >> step_d)` (T = cells holding a non-gold token) with the anchors
//! that would wrap around a row edge masked off, and a triple is a pair
//! anchored at `i` whose partner anchors a pair too.

use crate::game::ActionList;

/// All 25 cells.
pub const FULL: u32 = (1 << 25) - 1;
const COL0: u32 = 0b00001_00001_00001_00001_00001;
const COL4: u32 = COL0 << 4;
const NOT_COL0: u32 = FULL & !COL0;
const NOT_COL4: u32 = FULL & !COL4;

/// Spiral fill order (cell indices), clockwise from the centre, first step down.
pub const SPIRAL: [u8; 25] = [
    12, 17, 16, 11, 6, 7, 8, 13, 18, 23, 22, 21, 20, 15, 10, 5, 0, 1, 2, 3, 4, 9, 14, 19, 24,
];

/// Number of line shapes (= take action ids `0..145`).
pub const NUM_LINES: usize = 145;

/// Directions as (row step, column step): E, S, SE, SW.
const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// First id of each block: singles, then pairs E/S/SE/SW, then triples E/S/SE/SW.
pub const BLOCK_BASE: [u16; 9] = [0, 25, 45, 65, 81, 97, 112, 127, 136];

const fn valid_anchor(cell: usize, dir: usize, len: i32) -> bool {
    let r = (cell / 5) as i32 + DIRS[dir].0 * (len - 1);
    let c = (cell % 5) as i32 + DIRS[dir].1 * (len - 1);
    r >= 0 && r < 5 && c >= 0 && c < 5
}

const fn line_tables() -> ([u32; NUM_LINES], [[u8; 25]; 8]) {
    let mut masks = [0u32; NUM_LINES];
    let mut ranks = [[u8::MAX; 25]; 8];
    let mut id = 0;
    while id < 25 {
        masks[id] = 1 << id;
        id += 1;
    }
    let mut block = 0;
    while block < 8 {
        let len = if block < 4 { 2 } else { 3 };
        let dir = block % 4;
        let step = DIRS[dir].0 * 5 + DIRS[dir].1;
        let mut rank = 0;
        let mut cell = 0;
        while cell < 25 {
            if valid_anchor(cell, dir, len) {
                let mut m = 0u32;
                let mut k = 0;
                while k < len {
                    m |= 1 << (cell as i32 + step * k);
                    k += 1;
                }
                masks[id] = m;
                ranks[block][cell] = rank;
                rank += 1;
                id += 1;
            }
            cell += 1;
        }
        block += 1;
    }
    (masks, ranks)
}

/// Cells of each take id.
pub const LINE_MASKS: [u32; NUM_LINES] = line_tables().0;
/// Rank of an anchor cell within each pair/triple block.
#[cfg(test)]
const RANKS: [[u8; 25]; 8] = line_tables().1;

/// Action ids as bits: bit `i` of word `i / 64` is id `i` (Duel's main-phase
/// ids are all below 256). Built with [`or_bits`], listed with
/// [`ActionList::push_mask`] word by word, so the list costs one store per
/// action instead of one push.
pub type IdBits = [u64; 4];

/// ORs `bits << offset` into `ids` (`bits` must fit below id 256).
#[inline]
pub fn or_bits(ids: &mut IdBits, offset: u16, bits: u64) {
    let (w, s) = (usize::from(offset / 64), u32::from(offset % 64));
    ids[w] |= bits << s;
    if s > 0 && w + 1 < ids.len() {
        ids[w + 1] |= bits >> (64 - s);
    }
}

/// The anchors `m` of one pair or triple block, as bits of their ranks:
/// anchors fill rows `0..h`, columns `c0..c0+w`, ranked row by row (see
/// `ranks_follow_the_documented_formulas`), so each row's `w` bits move
/// down next to the previous row's.
#[inline]
fn ranks(m: u32, c0: u32, w: u32, h: u32) -> u64 {
    let mut out = 0u64;
    for r in 0..h {
        out |= u64::from((m >> (5 * r + c0)) & ((1 << w) - 1)) << (r * w);
    }
    out
}

/// Every legal line take (ids `0..145`) for the set `t` of cells holding a
/// non-gold token, ORed into `ids`. A pair in direction `d` anchored at `i`
/// is `t & (t >> step_d)` with the anchors that would wrap around a row edge
/// masked off; a triple is a pair anchored at `i` whose partner anchors one.
#[inline]
pub fn line_take_bits(t: u32, ids: &mut IdBits) {
    let pe = t & (t >> 1) & NOT_COL4;
    let ps = t & (t >> 5);
    let pse = t & (t >> 6) & NOT_COL4;
    let psw = t & (t >> 4) & NOT_COL0;
    ids[0] |= u64::from(t);
    or_bits(ids, BLOCK_BASE[1], ranks(pe, 0, 4, 5));
    or_bits(ids, BLOCK_BASE[2], ranks(ps, 0, 5, 4));
    or_bits(ids, BLOCK_BASE[3], ranks(pse, 0, 4, 4));
    or_bits(ids, BLOCK_BASE[4], ranks(psw, 1, 4, 4));
    or_bits(ids, BLOCK_BASE[5], ranks(pe & (pe >> 1), 0, 3, 5));
    or_bits(ids, BLOCK_BASE[6], ranks(ps & (ps >> 5), 0, 5, 3));
    or_bits(ids, BLOCK_BASE[7], ranks(pse & (pse >> 6), 0, 3, 3));
    or_bits(ids, BLOCK_BASE[8], ranks(psw & (psw >> 4), 2, 3, 3));
}

/// Pushes every legal line take (ids `0..145`, ascending) for the set `t` of
/// cells holding a non-gold token.
#[inline]
pub fn push_line_takes(t: u32, out: &mut ActionList) {
    let mut ids = [0u64; 4];
    line_take_bits(t, &mut ids);
    for (w, &bits) in ids.iter().enumerate() {
        out.push_mask(64 * w as u16, bits);
    }
}

/// True when `t` allows at least one take (any non-gold token on the board).
#[inline]
pub fn any_take(t: u32) -> bool {
    t != 0
}

/// Text name of a cell: column letter then 1-based row (`a1` = cell 0).
pub fn cell_name(cell: usize) -> String {
    let col = (b'a' + (cell % 5) as u8) as char;
    format!("{col}{}", cell / 5 + 1)
}

/// Parses a cell name (case-insensitive).
pub fn parse_cell(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return None;
    }
    let c = b[0].to_ascii_lowercase().wrapping_sub(b'a');
    let r = b[1].wrapping_sub(b'1');
    (c < 5 && r < 5).then_some(r as usize * 5 + c as usize)
}

/// The take id whose cells are exactly `mask`, if it is a line.
pub fn line_id(mask: u32) -> Option<usize> {
    LINE_MASKS.iter().position(|&m| m == mask)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    /// The digest's literal test: sorted cells, one common step vector.
    fn is_line(cells: &[usize]) -> bool {
        if cells.len() == 1 {
            return true;
        }
        let rc = |i: usize| ((i / 5) as i32, (i % 5) as i32);
        let (r0, c0) = rc(cells[0]);
        let (r1, c1) = rc(cells[1]);
        let (dr, dc) = (r1 - r0, c1 - c0);
        if dr.abs() > 1 || dc.abs() > 1 || (dr == 0 && dc == 0) {
            return false;
        }
        cells.windows(2).all(|w| {
            let (a, b) = (rc(w[0]), rc(w[1]));
            b.0 - a.0 == dr && b.1 - a.1 == dc
        })
    }

    fn brute_force_shapes() -> Vec<u32> {
        let mut v = Vec::new();
        for a in 0..25 {
            v.push(1u32 << a);
            for b in a + 1..25 {
                if is_line(&[a, b]) {
                    v.push((1 << a) | (1 << b));
                }
                for c in b + 1..25 {
                    if is_line(&[a, b, c]) {
                        v.push((1 << a) | (1 << b) | (1 << c));
                    }
                }
            }
        }
        v
    }

    #[test]
    fn there_are_145_distinct_shapes_matching_brute_force() {
        let mut brute = brute_force_shapes();
        assert_eq!(brute.len(), 145);
        let (singles, rest): (Vec<u32>, Vec<u32>) = brute.iter().partition(|m| m.count_ones() == 1);
        assert_eq!(singles.len(), 25);
        assert_eq!(rest.iter().filter(|m| m.count_ones() == 2).count(), 72);
        assert_eq!(rest.iter().filter(|m| m.count_ones() == 3).count(), 48);
        let mut ours = LINE_MASKS.to_vec();
        brute.sort_unstable();
        ours.sort_unstable();
        assert_eq!(brute, ours);
    }

    #[test]
    fn shift_generation_matches_brute_force_on_random_boards() {
        let mut rng = SplitMix64::new(99);
        let mut all = ActionList::new();
        push_line_takes(FULL, &mut all);
        assert_eq!(all.len(), 145);
        for (i, a) in all.as_slice().iter().enumerate() {
            assert_eq!(a.index(), i);
        }
        for _ in 0..3000 {
            let t =
                (rng.next_u64() & rng.next_u64() | rng.next_u64() & rng.next_u64()) as u32 & FULL;
            let mut out = ActionList::new();
            push_line_takes(t, &mut out);
            let expected: Vec<u16> = (0..NUM_LINES)
                .filter(|&id| LINE_MASKS[id] & !t == 0)
                .map(|id| id as u16)
                .collect();
            let got: Vec<u16> = out.as_slice().iter().map(|a| a.0).collect();
            assert_eq!(got, expected, "board {t:025b}");
        }
    }

    #[test]
    fn ranks_follow_the_documented_formulas() {
        let f = |block: usize, r: usize, c: usize| -> usize {
            match block {
                0 | 2 => r * 4 + c,
                1 | 5 => r * 5 + c,
                3 => r * 4 + c - 1,
                4 | 6 => r * 3 + c,
                _ => r * 3 + c - 2,
            }
        };
        for (block, ranks) in RANKS.iter().enumerate() {
            for (cell, &rank) in ranks.iter().enumerate() {
                if rank != u8::MAX {
                    assert_eq!(rank as usize, f(block, cell / 5, cell % 5));
                }
            }
        }
    }

    #[test]
    fn spiral_is_a_clockwise_walk_from_the_centre() {
        let mut seen = 0u32;
        for w in SPIRAL.windows(2) {
            let (a, b) = (w[0] as i32, w[1] as i32);
            let d = (b / 5 - a / 5).abs() + (b % 5 - a % 5).abs();
            assert_eq!(d, 1);
        }
        for &c in &SPIRAL {
            seen |= 1 << c;
        }
        assert_eq!(seen, FULL);
        assert_eq!(SPIRAL[0], 12);
        assert_eq!(SPIRAL[1], 17);
    }

    #[test]
    fn cell_names_round_trip() {
        for c in 0..25 {
            assert_eq!(parse_cell(&cell_name(c)), Some(c));
        }
        assert_eq!(cell_name(0), "a1");
        assert_eq!(parse_cell("C3"), Some(12));
        assert_eq!(parse_cell("f1"), None);
    }
}
