//! Generator for the base game's card and noble tables.
//!
//! Reads `python/splendor/data/base/{cards,nobles}.csv` and writes
//! `$OUT_DIR/base_data.rs`: plain `const` arrays that `src/variants/base/cards.rs`
//! includes. A malformed row stops the build with a message naming the file,
//! row and column, because a silently wrong card would break every game.

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

const COLOURS: [&str; 5] = ["white", "blue", "green", "red", "black"];
const CARD_HEADER: [&str; 8] = [
    "level", "bonus", "points", "white", "blue", "green", "red", "black",
];
const NOBLE_HEADER: [&str; 6] = ["points", "white", "blue", "green", "red", "black"];
const CARDS_PER_LEVEL: [usize; 3] = [40, 30, 20];

fn fail(file: &str, row: usize, column: &str, msg: &str) -> ! {
    panic!("malformed card data {file}: data row {row}, column `{column}`: {msg}");
}

fn small_int(file: &str, row: usize, column: &str, text: &str, max: u32) -> u8 {
    match text.trim().parse::<u32>() {
        Ok(v) if v <= max => v as u8,
        Ok(v) => fail(
            file,
            row,
            column,
            &format!("{v} is above the maximum {max}"),
        ),
        Err(_) => fail(
            file,
            row,
            column,
            &format!("`{text}` is not a non-negative integer"),
        ),
    }
}

/// Splits a CSV into its data rows, checking the header and field counts.
fn rows<'a>(file: &str, text: &'a str, header: &[&str]) -> Vec<Vec<&'a str>> {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let head: Vec<&str> = lines
        .next()
        .unwrap_or_else(|| fail(file, 0, "-", "the file is empty"))
        .split(',')
        .map(str::trim)
        .collect();
    if head != header {
        panic!(
            "malformed card data {file}: header must be `{}`",
            header.join(",")
        );
    }
    lines
        .enumerate()
        .map(|(row, line)| {
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            if fields.len() != header.len() {
                fail(
                    file,
                    row,
                    header[fields.len().min(header.len() - 1)],
                    &format!("expected {} fields, found {}", header.len(), fields.len()),
                );
            }
            fields
        })
        .collect()
}

/// Packs five colour counts into 8-bit lanes (lane c = bits 8c..8c+8).
fn pack(costs: &[u8]) -> u64 {
    costs
        .iter()
        .enumerate()
        .fold(0u64, |acc, (c, &v)| acc | (u64::from(v) << (8 * c)))
}

pub fn generate(root: &Path, out_dir: &Path) {
    let dir = root.join("python/splendor/data/base");
    let cards_file = "base/cards.csv";
    let nobles_file = "base/nobles.csv";
    let cards_text = fs::read_to_string(dir.join("cards.csv"))
        .unwrap_or_else(|e| panic!("cannot read {cards_file}: {e}"));
    let nobles_text = fs::read_to_string(dir.join("nobles.csv"))
        .unwrap_or_else(|e| panic!("cannot read {nobles_file}: {e}"));

    let mut level = Vec::new();
    let mut bonus = Vec::new();
    let mut points = Vec::new();
    let mut cost = Vec::new();
    let mut per_level = [0usize; 3];
    for (row, f) in rows(cards_file, &cards_text, &CARD_HEADER)
        .iter()
        .enumerate()
    {
        let l = small_int(cards_file, row, "level", f[0], 3);
        if l == 0 {
            fail(cards_file, row, "level", "levels are 1, 2 or 3");
        }
        if level.last().is_some_and(|&prev| prev > l) {
            fail(cards_file, row, "level", "rows must be sorted by level");
        }
        let b = COLOURS.iter().position(|&c| c == f[1]).unwrap_or_else(|| {
            fail(
                cards_file,
                row,
                "bonus",
                &format!("unknown colour `{}`", f[1]),
            )
        });
        let p = small_int(cards_file, row, "points", f[2], 9);
        let c: Vec<u8> = (0..5)
            .map(|i| small_int(cards_file, row, COLOURS[i], f[3 + i], 9))
            .collect();
        per_level[usize::from(l) - 1] += 1;
        level.push(l);
        bonus.push(b as u8);
        points.push(p);
        cost.push(pack(&c));
    }
    if per_level != CARDS_PER_LEVEL {
        panic!("malformed card data {cards_file}: cards per level are {per_level:?}, expected {CARDS_PER_LEVEL:?}");
    }

    let mut noble_points = Vec::new();
    let mut noble_req = Vec::new();
    for (row, f) in rows(nobles_file, &nobles_text, &NOBLE_HEADER)
        .iter()
        .enumerate()
    {
        noble_points.push(small_int(nobles_file, row, "points", f[0], 9));
        let r: Vec<u8> = (0..5)
            .map(|i| small_int(nobles_file, row, COLOURS[i], f[1 + i], 9))
            .collect();
        noble_req.push(pack(&r));
    }
    if noble_req.len() != 10 {
        panic!(
            "malformed card data {nobles_file}: {} nobles, expected 10",
            noble_req.len()
        );
    }

    let mut s = String::from(
        "// Generated by build/base.rs from python/splendor/data/base; do not edit.\n",
    );
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
    writeln!(
        s,
        "pub(crate) const CARD_LEVEL: [u8; 90] = [{}];",
        list(&level)
    )
    .unwrap();
    writeln!(
        s,
        "pub(crate) const CARD_BONUS: [u8; 90] = [{}];",
        list(&bonus)
    )
    .unwrap();
    writeln!(
        s,
        "pub(crate) const CARD_POINTS: [u8; 90] = [{}];",
        list(&points)
    )
    .unwrap();
    writeln!(
        s,
        "pub(crate) const CARD_COST: [u64; 90] = [{}];",
        hex(&cost)
    )
    .unwrap();
    writeln!(
        s,
        "pub(crate) const NOBLE_POINTS: [u8; 10] = [{}];",
        list(&noble_points)
    )
    .unwrap();
    writeln!(
        s,
        "pub(crate) const NOBLE_REQ: [u64; 10] = [{}];",
        hex(&noble_req)
    )
    .unwrap();
    fs::write(out_dir.join("base_data.rs"), s).expect("cannot write base_data.rs");
}
