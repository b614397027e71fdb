//! Generator for the base game's card and noble tables.
//!
//! Reads `python/splendor/data/base/{cards,nobles}.csv` and writes
//! `$OUT_DIR/base_data.rs`: plain arrays that `src/variants/base/cards.rs`
//! includes. A malformed row stops the build with a message naming the file,
//! row and column, because a silently wrong card would break every game.
//! (`tests/base_build.rs` includes this file to test the messages.)

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const COLOURS: [&str; 5] = ["white", "blue", "green", "red", "black"];
const CARD_HEADER: [&str; 8] = [
    "level", "bonus", "points", "white", "blue", "green", "red", "black",
];
const NOBLE_HEADER: [&str; 6] = ["points", "white", "blue", "green", "red", "black"];
const CARDS_PER_LEVEL: [usize; 3] = [40, 30, 20];

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

fn err(file: &str, row: usize, column: &str, msg: &str) -> String {
    format!(
        "malformed card data {file}: data row {row} (line {}), column `{column}`: {msg}",
        row + 2
    )
}

fn small_int(file: &str, row: usize, column: &str, text: &str, max: u32) -> Result<u8, String> {
    match text.parse::<u32>() {
        Ok(v) if v <= max => Ok(v as u8),
        Ok(v) => Err(err(
            file,
            row,
            column,
            &format!("{v} is above the maximum {max}"),
        )),
        Err(_) => Err(err(
            file,
            row,
            column,
            &format!("`{text}` is not a non-negative integer"),
        )),
    }
}

/// Splits a CSV into its data rows, checking the header and field counts.
fn rows<'a>(file: &str, text: &'a str, header: &[&str]) -> Result<Vec<Vec<&'a str>>, String> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let head: Vec<&str> = lines
        .next()
        .ok_or_else(|| format!("malformed card data {file}: the file is empty"))?
        .split(',')
        .map(str::trim)
        .collect();
    if head != header {
        return Err(format!(
            "malformed card data {file}: header must be `{}`",
            header.join(",")
        ));
    }
    lines
        .enumerate()
        .map(|(row, line)| {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            if fields.len() != header.len() {
                let col = header[fields.len().min(header.len() - 1)];
                let msg = format!("expected {} fields, found {}", header.len(), fields.len());
                return Err(err(file, row, col, &msg));
            }
            Ok(fields)
        })
        .collect()
}

/// Packs five colour counts into 8-bit lanes.
fn pack(counts: &[u8]) -> u64 {
    counts
        .iter()
        .enumerate()
        .fold(0u64, |acc, (c, &v)| acc | (u64::from(v) << (8 * c)))
}

fn costs(file: &str, row: usize, fields: &[&str]) -> Result<u64, String> {
    let mut c = [0u8; 5];
    for (i, slot) in c.iter_mut().enumerate() {
        *slot = small_int(file, row, COLOURS[i], fields[i], 9)?;
    }
    Ok(pack(&c))
}

/// Parses `cards.csv` (rows sorted by level, 40/30/20 cards).
pub fn parse_cards(text: &str) -> Result<Cards, String> {
    let file = "base/cards.csv";
    let mut cards = Cards {
        level: Vec::new(),
        bonus: Vec::new(),
        points: Vec::new(),
        cost: Vec::new(),
    };
    let mut per_level = [0usize; 3];
    for (row, f) in rows(file, text, &CARD_HEADER)?.iter().enumerate() {
        let l = small_int(file, row, "level", f[0], 3)?;
        if l == 0 {
            return Err(err(file, row, "level", "levels are 1, 2 or 3"));
        }
        if cards.level.last().is_some_and(|&prev| prev > l) {
            return Err(err(file, row, "level", "rows must be sorted by level"));
        }
        let b = COLOURS
            .iter()
            .position(|&c| c == f[1])
            .ok_or_else(|| err(file, row, "bonus", &format!("unknown colour `{}`", f[1])))?;
        cards.points.push(small_int(file, row, "points", f[2], 9)?);
        cards.cost.push(costs(file, row, &f[3..])?);
        per_level[usize::from(l) - 1] += 1;
        cards.level.push(l);
        cards.bonus.push(b as u8);
    }
    if per_level != CARDS_PER_LEVEL {
        return Err(format!(
            "malformed card data {file}: cards per level are {per_level:?}, expected {CARDS_PER_LEVEL:?}"
        ));
    }
    Ok(cards)
}

/// Parses `nobles.csv` (10 rows).
pub fn parse_nobles(text: &str) -> Result<Nobles, String> {
    let file = "base/nobles.csv";
    let mut nobles = Nobles {
        points: Vec::new(),
        req: Vec::new(),
    };
    for (row, f) in rows(file, text, &NOBLE_HEADER)?.iter().enumerate() {
        nobles.points.push(small_int(file, row, "points", f[0], 9)?);
        nobles.req.push(costs(file, row, &f[1..])?);
    }
    if nobles.req.len() != 10 {
        return Err(format!(
            "malformed card data {file}: {} nobles, expected 10",
            nobles.req.len()
        ));
    }
    Ok(nobles)
}

/// Reads the CSVs under `root` and writes `base_data.rs` into `out_dir`;
/// panics (failing the build) with the parse error.
pub fn generate(root: &Path, out_dir: &Path) {
    let dir = root.join("python/splendor/data/base");
    let read = |name: &str| {
        fs::read_to_string(dir.join(name))
            .unwrap_or_else(|e| panic!("cannot read base/{name}: {e}"))
    };
    let mut cards = parse_cards(&read("cards.csv")).unwrap_or_else(|e| panic!("{e}"));
    let nobles = parse_nobles(&read("nobles.csv")).unwrap_or_else(|e| panic!("{e}"));

    // Card tables are padded to 256 entries so that indexing by any `u8`
    // needs no bounds check on the hot paths; ids 90.. are never dealt.
    cards.level.resize(256, 0);
    cards.bonus.resize(256, 0);
    cards.points.resize(256, 0);
    cards.cost.resize(256, 0);
    let list = |v: &[u8]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let hex = |v: &[u64]| {
        v.iter()
            .map(|x| format!("{x:#x}"))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut s = String::from(
        "// Generated by build/base.rs from python/splendor/data/base; do not edit.\n",
    );
    let tables = [
        ("CARD_LEVEL", "u8", list(&cards.level)),
        ("CARD_BONUS", "u8", list(&cards.bonus)),
        ("CARD_POINTS", "u8", list(&cards.points)),
        ("CARD_COST", "u64", hex(&cards.cost)),
        ("NOBLE_POINTS", "u8", list(&nobles.points)),
        ("NOBLE_REQ", "u64", hex(&nobles.req)),
    ];
    for (name, ty, body) in tables {
        let len = body.split(',').count();
        writeln!(s, "pub(crate) static {name}: [{ty}; {len}] = [{body}];")
            .expect("write to String");
    }
    fs::write(out_dir.join("base_data.rs"), s).expect("cannot write base_data.rs");
}
