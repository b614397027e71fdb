//! Generator for Splendor Duel's card and royal tables.
//!
//! Reads `python/splendor/data/duel/{cards,royals}.csv` with the one card-file
//! reader (`src/cardfile.rs`, docs/contract.md, *Card files*) and writes
//! `$OUT_DIR/duel_data.rs`: plain `const` arrays that
//! `src/variants/duel/cards.rs` includes. A malformed row stops the build with
//! a message naming the file, row and column: a silently wrong card would
//! break every game. The reference engine checks the same things
//! (`splendor/reference/duel/cards.py`).

use crate::cardfile;
use crate::tables;
use std::path::Path;

const CARD_HEADER: [&str; 12] = [
    "level",
    "bonus",
    "bonus_count",
    "points",
    "crowns",
    "ability",
    "white",
    "blue",
    "green",
    "red",
    "black",
    "pearl",
];
const ROYAL_HEADER: [&str; 2] = ["points", "ability"];
const BONUSES: [&str; 7] = ["white", "blue", "green", "red", "black", "wild", "none"];
/// Ability names in flag-bit order: again 1, token 2, steal 4, privilege 8, wild 16.
const ABILITIES: [&str; 5] = ["again", "token", "steal", "privilege", "wild"];
/// The abilities a royal card may have (no token, no wild).
const ROYAL_ABILITIES: [&str; 3] = ["again", "steal", "privilege"];
const WILD: usize = 5;
const CARDS_PER_LEVEL: [usize; 3] = [30, 24, 13];
const NUM_ROYALS: usize = 4;

/// Ability text to flag bits: `none`, or names from `allowed` joined by `+`.
fn ability(file: &str, row: usize, text: &str, allowed: &[&str]) -> Result<u8, String> {
    if cardfile::choice(text, &["none"]).is_some() {
        return Ok(0);
    }
    let mut flags = 0u8;
    for part in cardfile::trim(text).split('+') {
        let known = cardfile::choice(part, allowed)
            .ok_or_else(|| format!("{file} row {row} column ability: unknown ability {text:?}"))?;
        let bit = ABILITIES
            .iter()
            .position(|a| *a == allowed[known])
            .expect("allowed abilities are abilities");
        flags |= 1 << bit;
    }
    Ok(flags)
}

/// The parsed card file, one list per column.
#[derive(Default)]
pub struct Cards {
    pub level: Vec<u8>,
    bonus: Vec<u8>,
    count: Vec<u8>,
    points: Vec<u8>,
    crowns: Vec<u8>,
    ability: Vec<u8>,
    cost: Vec<u64>,
}

/// Parses `cards.csv` (67 rows in level order, 30/24/13 cards).
pub fn parse_cards(text: &str, file: &str) -> Result<Cards, String> {
    let rows = cardfile::rows(text, file, &CARD_HEADER)?;
    let total: usize = CARDS_PER_LEVEL.iter().sum();
    if rows.len() != total {
        return Err(format!(
            "{file}: expected {total} cards, got {}",
            rows.len()
        ));
    }
    let mut cards = Cards::default();
    for (i, r) in rows.iter().enumerate() {
        let (row, f) = (r.number, &r.fields);
        let int = |col, text, lo, hi| cardfile::int(file, row, col, text, lo, hi);
        let level = int("level", &f[0], 1, 3)?;
        let expected = if i < 30 {
            1
        } else if i < 54 {
            2
        } else {
            3
        };
        if level != expected {
            return Err(format!(
                "{file} row {row} column level: expected level {expected} \
                 (30 level-1, then 24 level-2, then 13 level-3 rows)"
            ));
        }
        let bonus = cardfile::choice(&f[1], &BONUSES)
            .ok_or_else(|| format!("{file} row {row} column bonus: unknown bonus {:?}", f[1]))?;
        let flags = ability(file, row, &f[5], &ABILITIES)?;
        if (bonus == WILD) != (flags & 16 != 0) {
            return Err(format!(
                "{file} row {row} column ability: a card has the wild ability exactly when \
                 its bonus is wild"
            ));
        }
        let mut cost = 0u64;
        for (c, name) in CARD_HEADER[6..].iter().enumerate() {
            cost |= u64::from(int(name, &f[6 + c], 0, 15)?) << (8 * c);
        }
        cards.level.push(level);
        cards.bonus.push(bonus as u8);
        cards.count.push(int("bonus_count", &f[2], 0, 2)?);
        cards.points.push(int("points", &f[3], 0, 20)?);
        cards.crowns.push(int("crowns", &f[4], 0, 10)?);
        cards.ability.push(flags);
        cards.cost.push(cost);
    }
    Ok(cards)
}

/// Parses `royals.csv` (4 rows): points and ability flags.
pub fn parse_royals(text: &str, file: &str) -> Result<(Vec<u8>, Vec<u8>), String> {
    let rows = cardfile::rows(text, file, &ROYAL_HEADER)?;
    if rows.len() != NUM_ROYALS {
        return Err(format!(
            "{file}: expected {NUM_ROYALS} royals, got {}",
            rows.len()
        ));
    }
    let (mut points, mut abilities) = (vec![], vec![]);
    for r in &rows {
        points.push(cardfile::int(
            file,
            r.number,
            "points",
            &r.fields[0],
            0,
            20,
        )?);
        abilities.push(ability(file, r.number, &r.fields[1], &ROYAL_ABILITIES)?);
    }
    Ok((points, abilities))
}

/// Reads the CSVs under `root` and writes `duel_data.rs` into `out_dir`;
/// panics (failing the build) with the parse error.
pub fn generate(root: &Path, out_dir: &Path) {
    let cards = tables::read(root, "duel", "cards.csv");
    let cards = parse_cards(&cards, "duel/cards.csv").unwrap_or_else(|e| panic!("{e}"));
    let royals = tables::read(root, "duel", "royals.csv");
    let (points, abilities) =
        parse_royals(&royals, "duel/royals.csv").unwrap_or_else(|e| panic!("{e}"));
    let list = tables::list::<u8>;
    tables::write(
        out_dir,
        "duel",
        "pub const",
        &[
            ("CARD_LEVEL", "u8", list(&cards.level)),
            ("CARD_BONUS", "u8", list(&cards.bonus)),
            ("CARD_BONUS_COUNT", "u8", list(&cards.count)),
            ("CARD_POINTS", "u8", list(&cards.points)),
            ("CARD_CROWNS", "u8", list(&cards.crowns)),
            ("CARD_ABILITY", "u8", list(&cards.ability)),
            ("CARD_COST", "u64", tables::list(&cards.cost)),
            ("ROYAL_POINTS", "u8", list(&points)),
            ("ROYAL_ABILITY", "u8", list(&abilities)),
        ],
    );
}
