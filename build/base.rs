//! Generator for the base game's card and noble tables.
//!
//! Reads `python/splendor/data/base/{cards,nobles}.csv` with the one card-file
//! reader (`src/cardfile.rs`, docs/contract.md, *Card files*) and writes
//! `$OUT_DIR/base_data.rs`: plain arrays that `src/variants/base/cards.rs`
//! includes. A malformed row stops the build with a message naming the file,
//! row and column, because a silently wrong card would break every game. The
//! reference engine checks the same things (`splendor/reference/base/cards.py`).
//! (`tests/base_build.rs` includes this file to test the messages.)

use crate::cardfile;
use crate::tables;
use std::path::Path;

const COLOURS: [&str; 5] = ["white", "blue", "green", "red", "black"];
const CARD_HEADER: [&str; 8] = [
    "level", "bonus", "points", "white", "blue", "green", "red", "black",
];
const NOBLE_HEADER: [&str; 6] = ["points", "white", "blue", "green", "red", "black"];
const CARDS_PER_LEVEL: [usize; 3] = [40, 30, 20];
const NUM_NOBLES: usize = 10;

/// Parsed card file: per card level (1..=3), bonus colour, points and the
/// cost packed as 8-bit lanes (lane c = bits 8c..8c+8).
pub struct Cards {
    pub level: Vec<u8>,
    pub bonus: Vec<u8>,
    pub points: Vec<u8>,
    pub cost: Vec<u64>,
}

/// Parsed noble file: points and requirement (packed like costs).
pub struct Nobles {
    pub points: Vec<u8>,
    pub req: Vec<u64>,
}

/// Five colour counts 0..=9 from `fields`, packed into 8-bit lanes.
fn colours(file: &str, row: usize, fields: &[String]) -> Result<u64, String> {
    let mut packed = 0u64;
    for (c, colour) in COLOURS.iter().enumerate() {
        let n = cardfile::int(file, row, colour, &fields[c], 0, 9)?;
        packed |= u64::from(n) << (8 * c);
    }
    Ok(packed)
}

/// The level each data row must have: 40 of level 1, then 30 of level 2,
/// then 20 of level 3.
fn expected_level(i: usize) -> u8 {
    let mut end = 0;
    for (l, n) in CARDS_PER_LEVEL.iter().enumerate() {
        end += n;
        if i < end {
            return l as u8 + 1;
        }
    }
    3
}

/// Parses `cards.csv` (90 rows in level order, 40/30/20 cards).
pub fn parse_cards(text: &str) -> Result<Cards, String> {
    let file = "base/cards.csv";
    let rows = cardfile::rows(text, file, &CARD_HEADER)?;
    let total: usize = CARDS_PER_LEVEL.iter().sum();
    if rows.len() != total {
        return Err(format!(
            "{file}: expected {total} cards, got {}",
            rows.len()
        ));
    }
    let mut cards = Cards {
        level: Vec::new(),
        bonus: Vec::new(),
        points: Vec::new(),
        cost: Vec::new(),
    };
    for (i, r) in rows.iter().enumerate() {
        let (row, f) = (r.number, &r.fields);
        let level = cardfile::int(file, row, "level", &f[0], 1, 3)?;
        let expected = expected_level(i);
        if level != expected {
            return Err(format!(
                "{file} row {row} column level: expected level {expected} \
                 (40 level-1, then 30 level-2, then 20 level-3 rows)"
            ));
        }
        let bonus = cardfile::choice(&f[1], &COLOURS)
            .ok_or_else(|| format!("{file} row {row} column bonus: unknown colour {:?}", f[1]))?;
        cards.level.push(level);
        cards.bonus.push(bonus as u8);
        cards
            .points
            .push(cardfile::int(file, row, "points", &f[2], 0, 9)?);
        cards.cost.push(colours(file, row, &f[3..])?);
    }
    Ok(cards)
}

/// Parses `nobles.csv` (10 rows).
pub fn parse_nobles(text: &str) -> Result<Nobles, String> {
    let file = "base/nobles.csv";
    let rows = cardfile::rows(text, file, &NOBLE_HEADER)?;
    if rows.len() != NUM_NOBLES {
        return Err(format!(
            "{file}: expected {NUM_NOBLES} nobles, got {}",
            rows.len()
        ));
    }
    let mut nobles = Nobles {
        points: Vec::new(),
        req: Vec::new(),
    };
    for r in &rows {
        let (row, f) = (r.number, &r.fields);
        nobles
            .points
            .push(cardfile::int(file, row, "points", &f[0], 0, 9)?);
        nobles.req.push(colours(file, row, &f[1..])?);
    }
    Ok(nobles)
}

/// Reads the CSVs under `root` and writes `base_data.rs` into `out_dir`;
/// panics (failing the build) with the parse error.
pub fn generate(root: &Path, out_dir: &Path) {
    let cards = tables::read(root, "base", "cards.csv");
    let mut cards = parse_cards(&cards).unwrap_or_else(|e| panic!("{e}"));
    let nobles = tables::read(root, "base", "nobles.csv");
    let nobles = parse_nobles(&nobles).unwrap_or_else(|e| panic!("{e}"));

    // Card tables are padded to 256 entries so that indexing by any `u8`
    // needs no bounds check on the hot paths; ids 90.. are never dealt.
    cards.level.resize(256, 0);
    cards.bonus.resize(256, 0);
    cards.points.resize(256, 0);
    cards.cost.resize(256, 0);
    let hex = |v: &[u64]| {
        v.iter()
            .map(|x| format!("{x:#x}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let list = tables::list::<u8>;
    tables::write(
        out_dir,
        "base",
        "pub(crate) static",
        &[
            ("CARD_LEVEL", "u8", list(&cards.level)),
            ("CARD_BONUS", "u8", list(&cards.bonus)),
            ("CARD_POINTS", "u8", list(&cards.points)),
            ("CARD_COST", "u64", hex(&cards.cost)),
            ("NOBLE_POINTS", "u8", list(&nobles.points)),
            ("NOBLE_REQ", "u64", hex(&nobles.req)),
        ],
    );
}
