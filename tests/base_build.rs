//! The card-file parser of `build/base.rs`: malformed rows are build errors
//! naming the row and column.

#[allow(dead_code)]
#[path = "../src/cardfile.rs"]
mod cardfile;
#[allow(dead_code)]
#[path = "../build/base.rs"]
mod gen;
#[allow(dead_code)]
#[path = "../build/tables.rs"]
mod tables;

const CARDS: &str = include_str!("../python/splendor/data/base/cards.csv");
const NOBLES: &str = include_str!("../python/splendor/data/base/nobles.csv");

fn with_line(text: &str, line: usize, new: &str) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    lines[line] = new;
    lines.join("\n")
}

#[test]
fn bundled_files_parse() {
    let c = gen::parse_cards(CARDS).expect("bundled cards parse");
    assert_eq!(c.level.len(), 90);
    let n = gen::parse_nobles(NOBLES).expect("bundled nobles parse");
    assert_eq!(n.req.len(), 10);
}

#[test]
fn malformed_rows_name_row_and_column() {
    let cases = [
        (
            5,
            "1,white,0,0,x,0,0,0",
            "base/cards.csv row 6 column blue: \"x\" is not an integer",
        ),
        (
            5,
            "1,purple,0,0,3,0,0,0",
            "base/cards.csv row 6 column bonus: unknown colour \"purple\"",
        ),
        (
            5,
            "4,white,0,0,3,0,0,0",
            "base/cards.csv row 6 column level must be between 1 and 3, got 4",
        ),
        (
            5,
            "1,white,0,0,3,0,0",
            "base/cards.csv row 6: expected 8 columns, got 7",
        ),
        (
            5,
            "1,white,-1,0,3,0,0,0",
            "base/cards.csv row 6 column points: \"-1\" is not an integer",
        ),
        (
            45,
            "1,white,0,0,3,0,0,0",
            "base/cards.csv row 46 column level: expected level 2",
        ),
        (
            0,
            "level,bonus,points,white,blue,green,red",
            "base/cards.csv row 1: header must be level,bonus,points,white,blue,green,red,black",
        ),
    ];
    for (line, new, want) in cases {
        let e = gen::parse_cards(&with_line(CARDS, line, new))
            .err()
            .expect("rejected");
        assert!(e.contains(want), "{e:?} should contain {want:?}");
    }
    let e = gen::parse_nobles(&with_line(NOBLES, 3, "3,4,4,0,0,10"))
        .err()
        .expect("rejected");
    assert!(
        e.contains("base/nobles.csv row 4 column black must be between 0 and 9, got 10"),
        "{e}"
    );
    let short: String = CARDS.lines().take(80).collect::<Vec<_>>().join("\n");
    assert!(gen::parse_cards(&short)
        .err()
        .expect("rejected")
        .contains("base/cards.csv: expected 90 cards, got 79"));
}
