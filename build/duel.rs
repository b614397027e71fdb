//! Generator for Splendor Duel's card and royal tables.
//!
//! Reads `python/splendor/data/duel/{cards,royals}.csv` and writes
//! `$OUT_DIR/duel_data.rs`: plain `const` arrays that
//! `src/variants/duel/cards.rs` includes. A malformed row stops the build with
//! a message naming the file, row and column: a silently wrong card would
//! break every game.

use std::fmt::Write as _;
use std::fs;
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
const CARDS_PER_LEVEL: [usize; 3] = [30, 24, 13];

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

/// Ability text to flag bits: again 1, token 2, steal 4, privilege 8, wild 16.
fn ability(file: &str, row: usize, text: &str, allow_card_only: bool) -> u8 {
    let mut flags = 0u8;
    if text == "none" {
        return 0;
    }
    for part in text.split('+') {
        let bit = match part {
            "again" => 1,
            "token" if allow_card_only => 2,
            "steal" => 4,
            "privilege" => 8,
            "wild" if allow_card_only => 16,
            _ => fail(file, row, "ability", &format!("unknown ability `{text}`")),
        };
        flags |= bit;
    }
    flags
}

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

fn list<T: std::fmt::Display>(xs: &[T]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn generate(root: &Path, out_dir: &Path) {
    let dir = root.join("python/splendor/data/duel");
    let cards_file = "duel/cards.csv";
    let royals_file = "duel/royals.csv";
    let cards_text = fs::read_to_string(dir.join("cards.csv"))
        .unwrap_or_else(|e| panic!("cannot read {cards_file}: {e}"));
    let royals_text = fs::read_to_string(dir.join("royals.csv"))
        .unwrap_or_else(|e| panic!("cannot read {royals_file}: {e}"));

    let (mut level, mut bonus, mut count, mut points, mut crowns, mut abil, mut cost) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    for (row, f) in rows(cards_file, &cards_text, &CARD_HEADER)
        .iter()
        .enumerate()
    {
        let lv = small_int(cards_file, row, "level", f[0], 3);
        if lv == 0 {
            fail(cards_file, row, "level", "levels are 1, 2 and 3");
        }
        if let Some(&prev) = level.last() {
            if lv < prev {
                fail(cards_file, row, "level", "rows must be sorted by level");
            }
        }
        let b = BONUSES.iter().position(|&x| x == f[1]).unwrap_or_else(|| {
            fail(
                cards_file,
                row,
                "bonus",
                &format!("unknown bonus `{}`", f[1]),
            )
        });
        level.push(lv);
        bonus.push(b as u8);
        count.push(small_int(cards_file, row, "bonus_count", f[2], 2));
        points.push(small_int(cards_file, row, "points", f[3], 20));
        crowns.push(small_int(cards_file, row, "crowns", f[4], 10));
        let a = ability(cards_file, row, f[5], true);
        if (b == 5) != (a & 16 != 0) {
            fail(
                cards_file,
                row,
                "ability",
                "a card has the wild ability exactly when its bonus is wild",
            );
        }
        abil.push(a);
        let mut packed = 0u64;
        for (c, name) in CARD_HEADER[6..].iter().enumerate() {
            packed |= u64::from(small_int(cards_file, row, name, f[6 + c], 15)) << (8 * c);
        }
        cost.push(packed);
    }
    for (l, &n) in CARDS_PER_LEVEL.iter().enumerate() {
        let found = level.iter().filter(|&&x| usize::from(x) == l + 1).count();
        if found != n {
            panic!(
                "malformed card data {cards_file}: level {} has {found} cards, expected {n}",
                l + 1
            );
        }
    }
    let (mut rpoints, mut rabil) = (vec![], vec![]);
    for (row, f) in rows(royals_file, &royals_text, &ROYAL_HEADER)
        .iter()
        .enumerate()
    {
        rpoints.push(small_int(royals_file, row, "points", f[0], 20));
        rabil.push(ability(royals_file, row, f[1], false));
    }
    if rpoints.len() != 4 {
        panic!(
            "malformed card data {royals_file}: expected 4 royals, found {}",
            rpoints.len()
        );
    }

    let mut s = String::new();
    let _ = writeln!(
        s,
        "// Generated by build/duel.rs from {cards_file} and {royals_file}."
    );
    let _ = writeln!(s, "pub const CARD_LEVEL: [u8; 67] = [{}];", list(&level));
    let _ = writeln!(s, "pub const CARD_BONUS: [u8; 67] = [{}];", list(&bonus));
    let _ = writeln!(
        s,
        "pub const CARD_BONUS_COUNT: [u8; 67] = [{}];",
        list(&count)
    );
    let _ = writeln!(s, "pub const CARD_POINTS: [u8; 67] = [{}];", list(&points));
    let _ = writeln!(s, "pub const CARD_CROWNS: [u8; 67] = [{}];", list(&crowns));
    let _ = writeln!(s, "pub const CARD_ABILITY: [u8; 67] = [{}];", list(&abil));
    let _ = writeln!(s, "pub const CARD_COST: [u64; 67] = [{}];", list(&cost));
    let _ = writeln!(s, "pub const ROYAL_POINTS: [u8; 4] = [{}];", list(&rpoints));
    let _ = writeln!(s, "pub const ROYAL_ABILITY: [u8; 4] = [{}];", list(&rabil));
    fs::write(out_dir.join("duel_data.rs"), s).expect("cannot write duel_data.rs");
}
