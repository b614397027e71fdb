//! The card-file parser of `build/base.rs`: malformed rows are build errors
//! naming the row and column.

#[allow(dead_code)]
#[path = "../build/base.rs"]
mod gen;

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
            "data row 4 (line 6), column `blue`",
        ),
        (
            5,
            "1,purple,0,0,3,0,0,0",
            "data row 4 (line 6), column `bonus`",
        ),
        (
            5,
            "4,white,0,0,3,0,0,0",
            "data row 4 (line 6), column `level`",
        ),
        (
            5,
            "1,white,0,0,3,0,0",
            "data row 4 (line 6), column `black`",
        ),
        (
            5,
            "1,white,-1,0,3,0,0,0",
            "data row 4 (line 6), column `points`",
        ),
        (
            45,
            "1,white,0,0,3,0,0,0",
            "data row 44 (line 46), column `level`",
        ),
        (
            0,
            "level,bonus,points,white,blue,green,red",
            "header must be",
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
    assert!(e.contains("data row 2 (line 4), column `black`"), "{e}");
    let short: String = CARDS.lines().take(80).collect::<Vec<_>>().join("\n");
    assert!(gen::parse_cards(&short)
        .err()
        .expect("rejected")
        .contains("cards per level"));
}
