//! Marvel card and location tables, read from their card files at run time
//! ([`crate::cardfile`], docs/contract.md, *Card files*).
//!
//! The bundled files (`python/splendor/data/marvel/*.csv`, shared with the
//! reference engine) are compiled in with `include_str!` and parsed once. A
//! user may load a corrected set. A set is identified by the SHA-256 of its
//! canonical CSV text (`MarvelData::id`), so two different sets never share an
//! identity. States hold a `&'static MarvelData` (keeping the state `Copy`):
//! `MarvelData::load` interns a set for the life of the process (a Rust
//! program loads a handful), while the Python bindings keep each set alive
//! only as long as a state object uses it (`src/python/marvel_data.rs`).

use crate::cardfile;
use crate::game::GameError;
use crate::gems::Gems;
use sha2::{Digest, Sha256};
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
    /// The set's identity: SHA-256 of its canonical CSV text, as 64
    /// lower-case hex digits (docs/marvel.md §1); recorded in every JSON
    /// state as `"card_set"`.
    pub id: String,
    /// Card costs indexed by a `u8` id (padded to 256 so that the hot
    /// affordability check needs no bounds check).
    pub costs: Box<[Gems; 256]>,
}

/// The identity of the bundled set (docs/marvel.md §1; both engines test it).
pub const BUNDLED_ID: &str = "dad7c19708885f3100a76bf6321cd8d85bf6c71037a5173cc907cfd74e78f921";

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
        let (c, l) = canonical_csv(&cards, &locations);
        let id = sha256_hex(&[c.as_bytes(), l.as_bytes()]);
        let mut costs = Box::new([Gems::ZERO; 256]);
        for (slot, c) in costs.iter_mut().zip(&cards) {
            *slot = c.cost;
        }
        Ok(MarvelData {
            cards,
            locations,
            id,
            costs,
        })
    }

    /// Parses a set and returns its interned `'static` copy (the same pointer
    /// for the same content, so repeated loads do not leak).
    pub fn load(cards: &str, locations: &str) -> Result<&'static MarvelData, GameError> {
        Ok(intern(MarvelData::parse(cards, locations)?))
    }

    /// The bundled set or a set `load`ed earlier in this process with this
    /// identity (how `from_json` finds the card set a state records).
    pub fn by_id(id: &str) -> Option<&'static MarvelData> {
        let bundled = MarvelData::bundled();
        if bundled.id == id {
            return Some(bundled);
        }
        let reg = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
        reg.iter().copied().find(|d| d.id == id)
    }

    /// The set as canonical CSV text (card file, location file): what its
    /// identity hashes, and what a pickled state carries so that it loads in
    /// another process. Parsing it gives back an equal set.
    pub fn canonical_csv(&self) -> (String, String) {
        canonical_csv(&self.cards, &self.locations)
    }
}

fn intern(d: MarvelData) -> &'static MarvelData {
    let mut reg = REGISTRY.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&hit) = reg.iter().find(|x| x.id == d.id) {
        return hit;
    }
    let leaked: &'static MarvelData = Box::leak(Box::new(d));
    reg.push(leaked);
    leaked
}

/// A card-file message as the error `from_json` and `new_game` raise.
fn bad(msg: String) -> GameError {
    GameError::CardData(msg)
}

fn parse_cards(text: &str, file: &str) -> Result<Vec<Card>, GameError> {
    let rows = cardfile::rows(text, file, &CARD_HEADER).map_err(bad)?;
    if rows.len() != NUM_CARDS {
        return Err(bad(format!(
            "{file}: expected {NUM_CARDS} cards, got {}",
            rows.len()
        )));
    }
    let int = |row, col, text, lo, hi| cardfile::int(file, row, col, text, lo, hi).map_err(bad);
    let mut cards = Vec::with_capacity(NUM_CARDS);
    for (i, r) in rows.iter().enumerate() {
        let (row, f) = (r.number, &r.fields);
        let level = int(row, "level", &f[0], 1, 3)?;
        let expected = if i < 40 {
            1
        } else if i < 70 {
            2
        } else {
            3
        };
        if level != expected {
            return Err(bad(format!(
                "{file} row {row} column level: expected level {expected} \
                 (40 level-1, then 30 level-2, then 20 level-3 rows)"
            )));
        }
        let Some(bonus) = cardfile::choice(&f[1], &COLOURS) else {
            return Err(bad(format!(
                "{file} row {row} column bonus: unknown colour {:?}",
                f[1]
            )));
        };
        let points = int(row, "points", &f[2], 0, 9)?;
        let avengers = int(row, "avengers", &f[3], 0, 3)?;
        let time_stone = int(row, "time_stone", &f[4], 0, 1)? == 1;
        let mut cost = [0u8; 5];
        for c in 0..5 {
            cost[c] = int(row, COLOURS[c], &f[5 + c], 0, 9)?;
        }
        if cost.iter().all(|&x| x == 0) {
            return Err(bad(format!(
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
            name: cardfile::name(file, row, &f[10]).map_err(bad)?,
        });
    }
    Ok(cards)
}

fn parse_locations(text: &str, file: &str) -> Result<Vec<Location>, GameError> {
    let rows = cardfile::rows(text, file, &LOCATION_HEADER).map_err(bad)?;
    if rows.len() != NUM_LOCATIONS {
        return Err(bad(format!(
            "{file}: expected {NUM_LOCATIONS} locations, got {}",
            rows.len()
        )));
    }
    let int = |row, col, text, lo, hi| cardfile::int(file, row, col, text, lo, hi).map_err(bad);
    let mut out = Vec::with_capacity(NUM_LOCATIONS);
    for (i, r) in rows.iter().enumerate() {
        let (row, f) = (r.number, &r.fields);
        let tile = int(row, "tile", &f[0], 1, 4)?;
        if usize::from(tile) != i / 2 + 1 {
            return Err(bad(format!(
                "{file} row {row} column tile: expected tile {}",
                i / 2 + 1
            )));
        }
        let side = ["A", "B"][i % 2];
        if cardfile::choice(&f[1], &[side]).is_none() {
            return Err(bad(format!(
                "{file} row {row} column side: expected side {side}"
            )));
        }
        let points = int(row, "points", &f[2], 0, 9)?;
        let mut req = [0u8; 5];
        for c in 0..5 {
            req[c] = int(row, COLOURS[c], &f[3 + c], 0, 9)?;
        }
        if req.iter().all(|&x| x == 0) {
            return Err(bad(format!(
                "{file} row {row} column purple: a location must require bonuses"
            )));
        }
        out.push(Location {
            tile: tile - 1,
            side: (i % 2) as u8,
            points,
            requirement: Gems::from_counts(&req),
            name: cardfile::name(file, row, &f[8]).map_err(bad)?,
        });
    }
    Ok(out)
}

/// A name as a canonical CSV field: quoted only when it holds a comma or a
/// quote (names hold no control characters and no padding).
fn csv_field(name: &str) -> String {
    if name.contains([',', '"']) {
        format!("\"{}\"", name.replace('"', "\"\""))
    } else {
        name.to_string()
    }
}

/// The canonical CSV text of a set (docs/marvel.md §1): the exact headers,
/// `\n` line ends, decimal integers, colour names and sides as in the headers'
/// files, names trimmed and quoted only when needed.
fn canonical_csv(cards: &[Card], locations: &[Location]) -> (String, String) {
    let mut c = CARD_HEADER.join(",") + "\n";
    for card in cards {
        c.push_str(&format!(
            "{},{},{},{},{}",
            card.level,
            COLOURS[card.bonus as usize],
            card.points,
            card.avengers,
            u8::from(card.time_stone)
        ));
        for k in 0..5 {
            c.push_str(&format!(",{}", card.cost.get(k)));
        }
        c.push_str(&format!(",{}\n", csv_field(&card.name)));
    }
    let mut l = LOCATION_HEADER.join(",") + "\n";
    for loc in locations {
        l.push_str(&format!(
            "{},{},{}",
            loc.tile + 1,
            ["A", "B"][loc.side as usize],
            loc.points
        ));
        for k in 0..5 {
            l.push_str(&format!(",{}", loc.requirement.get(k)));
        }
        l.push_str(&format!(",{}\n", csv_field(&loc.name)));
    }
    (c, l)
}

/// SHA-256 of the concatenated parts, as 64 lower-case hex digits.
fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_identity_matches_the_docs() {
        let d = MarvelData::bundled();
        assert_eq!(d.id, BUNDLED_ID);
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
    fn canonical_csv_parses_back_to_the_same_set() {
        let d = MarvelData::bundled();
        let (c, l) = d.canonical_csv();
        assert!(l.contains("\"Avengers Tower, NYC\""));
        assert_eq!(&MarvelData::parse(&c, &l).unwrap(), d);
    }
}
