//! The card-file parser of `build/duel.rs`: malformed rows are build errors
//! naming the row and column (the reference engine gives the same messages,
//! `tests/test_card_files.py`).

#[allow(dead_code)]
#[path = "../src/cardfile.rs"]
mod cardfile;
#[allow(dead_code)]
#[path = "../build/duel.rs"]
mod gen;
#[allow(dead_code)]
#[path = "../build/tables.rs"]
mod tables;

const CARDS: &str = include_str!("../python/splendor/data/duel/cards.csv");
const ROYALS: &str = include_str!("../python/splendor/data/duel/royals.csv");

/// The card file with field `column` of its first card replaced by `value`.
fn with_first_card_field(column: usize, value: &str) -> String {
    let mut lines: Vec<String> = CARDS.lines().map(str::to_string).collect();
    let mut fields: Vec<&str> = lines[1].split(',').collect();
    fields[column] = value;
    lines[1] = fields.join(",");
    lines.join("\n")
}

#[test]
fn bundled_files_parse() {
    let cards = gen::parse_cards(CARDS, "duel/cards.csv").expect("bundled cards parse");
    assert_eq!(cards.level.len(), 67);
    let (points, _) = gen::parse_royals(ROYALS, "duel/royals.csv").expect("royals parse");
    assert_eq!(points.len(), 4);
    let padded = ROYALS.replace("steal", " Steal ");
    assert!(gen::parse_royals(&padded, "duel/royals.csv").is_ok());
}

#[test]
fn malformed_rows_name_row_and_column() {
    for (column, value, want) in [
        (
            1,
            "purple",
            "duel/cards.csv row 2 column bonus: unknown bonus",
        ),
        (
            5,
            "fly",
            "duel/cards.csv row 2 column ability: unknown ability",
        ),
        (
            5,
            "wild",
            "duel/cards.csv row 2 column ability: a card has the wild ability exactly",
        ),
        (
            2,
            "3",
            "duel/cards.csv row 2 column bonus_count must be between 0 and 2, got 3",
        ),
        (
            0,
            "2",
            "duel/cards.csv row 2 column level: expected level 1",
        ),
    ] {
        let e = gen::parse_cards(&with_first_card_field(column, value), "duel/cards.csv")
            .err()
            .expect("rejected");
        assert!(e.contains(want), "{e:?} should contain {want:?}");
    }
    let royals = ROYALS.replacen("2,steal", "2,token", 1);
    let e = gen::parse_royals(&royals, "duel/royals.csv").expect_err("rejected");
    assert!(
        e.contains("duel/royals.csv row 2 column ability: unknown"),
        "{e}"
    );
}
