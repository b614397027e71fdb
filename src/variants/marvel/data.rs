//! Marvel card and location tables, parsed from CSV text at runtime.
//!
//! The bundled files (`python/splendor/data/marvel/*.csv`, shared with the
//! reference engine) are compiled in with `include_str!` and parsed once. A
//! user may load a corrected set; sets are interned by content so that states
//! can hold a `&'static MarvelData` (keeping the state `Copy`) without leaking
//! more than one table per distinct file.

use crate::game::GameError;
use crate::gems::Gems;
use std::sync::{Mutex, OnceLock};

/// Number of character cards (40 + 30 + 20).
pub const NUM_CARDS: usize = 90;
/// Number of locations (4 double-sided tiles).
pub const NUM_LOCATIONS: usize = 8;
/// First card id of each level, and one past the last.
pub const LEVEL_START: [u8; 4] = [0, 40, 70, 90];
/// Colour names in lane order.
pub const COLOURS: [&str; 5] = ["purple", "blue", "red", "orange", "yellow"];

const CARD_HEADER: [&str; 11] = [
    "level",
    "bonus",
    "points",
    "avengers",
    "time_stone",
    "purple",
    "blue",
    "red",
    "orange",
    "yellow",
    "name",
];
const LOCATION_HEADER: [&str; 9] = [
    "tile", "side", "points", "purple", "blue", "red", "orange", "yellow", "name",
];

/// One character card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// 1, 2 or 3.
    pub level: u8,
    /// Bonus colour index (0..5).
    pub bonus: u8,
    /// Infinity points.
    pub points: u8,
    /// Avengers icons.
    pub avengers: u8,
    /// Recruiting it gives the green Time token (if not held yet).
    pub time_stone: bool,
    /// Cost per colour, in lanes 0..5.
    pub cost: Gems,
    /// Character name.
    pub name: String,
}

/// One side of a location tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// Tile index 0..4.
    pub tile: u8,
    /// 0 = side A, 1 = side B.
    pub side: u8,
    /// Infinity points.
    pub points: u8,
    /// Bonuses required, in lanes 0..5.
    pub requirement: Gems,
    /// Location name.
    pub name: String,
}

/// A validated card set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarvelData {
    /// Cards by id.
    pub cards: Vec<Card>,
    /// Locations by id (`2 * tile + side`).
    pub locations: Vec<Location>,
    /// FNV-1a checksum of the canonical text (docs/marvel.md §1).
    pub checksum: u32,
    /// Card costs indexed by a `u8` id (padded to 256 so that the hot
    /// affordability check needs no bounds check).
    pub costs: Box<[Gems; 256]>,
}

/// The bundled card file.
pub const BUNDLED_CARDS: &str = include_str!("../../../python/splendor/data/marvel/cards.csv");
/// The bundled location file.
pub const BUNDLED_LOCATIONS: &str =
    include_str!("../../../python/splendor/data/marvel/locations.csv");

static BUNDLED: OnceLock<&'static MarvelData> = OnceLock::new();
static REGISTRY: Mutex<Vec<&'static MarvelData>> = Mutex::new(Vec::new());

impl MarvelData {
    /// The bundled card set.
    pub fn bundled() -> &'static MarvelData {
        BUNDLED.get_or_init(|| {
            // The bundled files are tested; failing here is a build defect.
            let d = MarvelData::parse(BUNDLED_CARDS, BUNDLED_LOCATIONS)
                .expect("bundled Marvel data is valid");
            intern(d)
        })
    }

    /// Parses and validates a card file and a location file (CSV text).
    pub fn parse(cards: &str, locations: &str) -> Result<MarvelData, GameError> {
        let cards = parse_cards(cards, "cards.csv")?;
        let locations = parse_locations(locations, "locations.csv")?;
        let checksum = checksum(&cards, &locations);
        let mut costs = Box::new([Gems::ZERO; 256]);
        for (slot, c) in costs.iter_mut().zip(&cards) {
            *slot = c.cost;
        }
        Ok(MarvelData {
            cards,
            locations,
            checksum,
            costs,
        })
    }

    /// Parses a set and returns its interned `'static` copy (the same pointer
    /// for the same content, so repeated loads do not leak).
    pub fn load(cards: &str, locations: &str) -> Result<&'static MarvelData, GameError> {
        Ok(intern(MarvelData::parse(cards, locations)?))
    }

    /// The bundled set or a set loaded earlier in this process with this
    /// checksum (how `from_json` finds the card set a state records).
    pub fn by_checksum(checksum: u64) -> Option<&'static MarvelData> {
        let bundled = MarvelData::bundled();
        if u64::from(bundled.checksum) == checksum {
            return Some(bundled);
        }
        let reg = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
        reg.iter()
            .copied()
            .find(|d| u64::from(d.checksum) == checksum)
    }
}

fn intern(d: MarvelData) -> &'static MarvelData {
    let mut reg = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&hit) = reg.iter().find(|x| ***x == d) {
        return hit;
    }
    let leaked: &'static MarvelData = Box::leak(Box::new(d));
    reg.push(leaked);
    leaked
}

fn err(file: &str, row: usize, msg: String) -> GameError {
    GameError::CardData(format!("{file} row {row}: {msg}"))
}

/// Splits one CSV line (RFC 4180 quotes, `""` escapes).
fn split_csv(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(ch) = chars.next() {
        match (ch, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if cur.is_empty() => quoted = true,
            (',', false) => out.push(std::mem::take(&mut cur)),
            _ => cur.push(ch),
        }
    }
    out.push(cur);
    out
}

/// Data rows as (1-based row number counting the header, fields); blank
/// lines are skipped and not counted, as Python's csv reader does.
fn rows(text: &str, file: &str, header: &[&str]) -> Result<Vec<(usize, Vec<String>)>, GameError> {
    let lines: Vec<Vec<String>> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .filter(|l| !l.is_empty())
        .map(split_csv)
        .collect();
    let head_ok = lines.first().is_some_and(|h| {
        h.len() == header.len() && h.iter().zip(header).all(|(a, b)| a.trim() == *b)
    });
    if !head_ok {
        return Err(err(file, 1, format!("header must be {}", header.join(","))));
    }
    let mut out = Vec::new();
    for (i, fields) in lines.into_iter().enumerate().skip(1) {
        let row = i + 1;
        if fields.len() != header.len() {
            return Err(err(
                file,
                row,
                format!("expected {} columns, got {}", header.len(), fields.len()),
            ));
        }
        out.push((row, fields));
    }
    Ok(out)
}

fn int(file: &str, row: usize, col: &str, text: &str, lo: u32, hi: u32) -> Result<u8, GameError> {
    let s = text.trim();
    let bad = || {
        GameError::CardData(format!(
            "{file} row {row} column {col}: {text:?} is not an integer"
        ))
    };
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let v: u32 = s.parse().map_err(|_| bad())?;
    if v < lo || v > hi {
        return Err(GameError::CardData(crate::game::range_message(
            &format!("{file} row {row} column {col}"),
            lo,
            hi,
            v,
        )));
    }
    Ok(v as u8)
}

fn name(file: &str, row: usize, text: &str) -> Result<String, GameError> {
    let s = text.trim();
    if s.is_empty() {
        return Err(GameError::CardData(format!(
            "{file} row {row} column name: empty name"
        )));
    }
    Ok(s.to_string())
}

fn parse_cards(text: &str, file: &str) -> Result<Vec<Card>, GameError> {
    let rows = rows(text, file, &CARD_HEADER)?;
    if rows.len() != NUM_CARDS {
        return Err(GameError::CardData(format!(
            "{file}: expected {NUM_CARDS} cards, got {}",
            rows.len()
        )));
    }
    let mut cards = Vec::with_capacity(NUM_CARDS);
    for (i, (row, f)) in rows.iter().enumerate() {
        let row = *row;
        let level = int(file, row, "level", &f[0], 1, 3)?;
        let expected = if i < 40 {
            1
        } else if i < 70 {
            2
        } else {
            3
        };
        if level != expected {
            return Err(GameError::CardData(format!(
                "{file} row {row} column level: expected level {expected} \
                 (40 level-1, then 30 level-2, then 20 level-3 rows)"
            )));
        }
        let bonus_text = f[1].trim().to_lowercase();
        let Some(bonus) = COLOURS.iter().position(|c| *c == bonus_text) else {
            return Err(GameError::CardData(format!(
                "{file} row {row} column bonus: unknown colour {:?}",
                f[1]
            )));
        };
        let points = int(file, row, "points", &f[2], 0, 9)?;
        let avengers = int(file, row, "avengers", &f[3], 0, 3)?;
        let time_stone = int(file, row, "time_stone", &f[4], 0, 1)? == 1;
        let mut cost = [0u8; 5];
        for c in 0..5 {
            cost[c] = int(file, row, COLOURS[c], &f[5 + c], 0, 9)?;
        }
        if cost.iter().all(|&x| x == 0) {
            return Err(GameError::CardData(format!(
                "{file} row {row} column purple: a card must cost something"
            )));
        }
        cards.push(Card {
            level,
            bonus: bonus as u8,
            points,
            avengers,
            time_stone,
            cost: Gems::from_counts(&cost),
            name: name(file, row, &f[10])?,
        });
    }
    Ok(cards)
}

fn parse_locations(text: &str, file: &str) -> Result<Vec<Location>, GameError> {
    let rows = rows(text, file, &LOCATION_HEADER)?;
    if rows.len() != NUM_LOCATIONS {
        return Err(GameError::CardData(format!(
            "{file}: expected {NUM_LOCATIONS} locations, got {}",
            rows.len()
        )));
    }
    let mut out = Vec::with_capacity(NUM_LOCATIONS);
    for (i, (row, f)) in rows.iter().enumerate() {
        let row = *row;
        let tile = int(file, row, "tile", &f[0], 1, 4)?;
        if usize::from(tile) != i / 2 + 1 {
            return Err(GameError::CardData(format!(
                "{file} row {row} column tile: expected tile {}",
                i / 2 + 1
            )));
        }
        let side = ["A", "B"][i % 2];
        if f[1].trim().to_uppercase() != side {
            return Err(GameError::CardData(format!(
                "{file} row {row} column side: expected side {side}"
            )));
        }
        let points = int(file, row, "points", &f[2], 0, 9)?;
        let mut req = [0u8; 5];
        for c in 0..5 {
            req[c] = int(file, row, COLOURS[c], &f[3 + c], 0, 9)?;
        }
        if req.iter().all(|&x| x == 0) {
            return Err(GameError::CardData(format!(
                "{file} row {row} column purple: a location must require bonuses"
            )));
        }
        out.push(Location {
            tile: tile - 1,
            side: (i % 2) as u8,
            points,
            requirement: Gems::from_counts(&req),
            name: name(file, row, &f[8])?,
        });
    }
    Ok(out)
}

fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(16_777_619);
    }
    h
}

fn checksum(cards: &[Card], locations: &[Location]) -> u32 {
    let mut text = String::new();
    for c in cards {
        text.push_str(&format!(
            "{},{},{},{},{}",
            c.level,
            c.bonus,
            c.points,
            c.avengers,
            u8::from(c.time_stone)
        ));
        for k in 0..5 {
            text.push_str(&format!(",{}", c.cost.get(k)));
        }
        text.push_str(&format!(",{}\n", c.name));
    }
    for l in locations {
        text.push_str(&format!("{},{},{}", l.tile + 1, l.side, l.points));
        for k in 0..5 {
            text.push_str(&format!(",{}", l.requirement.get(k)));
        }
        text.push_str(&format!(",{}\n", l.name));
    }
    fnv1a32(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_checksum_matches_the_docs() {
        let d = MarvelData::bundled();
        assert_eq!(d.checksum, 3_612_858_093);
        assert_eq!(d.cards[77].name, "Gamora");
        assert_eq!(d.locations[0].name, "Avengers Tower, NYC");
    }

    #[test]
    fn interning_reuses_equal_sets() {
        let a = MarvelData::load(BUNDLED_CARDS, BUNDLED_LOCATIONS).unwrap();
        let b = MarvelData::load(BUNDLED_CARDS, BUNDLED_LOCATIONS).unwrap();
        assert!(std::ptr::eq(a, b));
        assert!(std::ptr::eq(a, MarvelData::bundled()));
    }

    #[test]
    fn csv_quotes() {
        assert_eq!(split_csv(r#"1,"a, b",c"#), vec!["1", "a, b", "c"]);
        assert_eq!(split_csv(r#""say ""hi""",x"#), vec![r#"say "hi""#, "x"]);
    }
}
