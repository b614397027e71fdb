//! Marvel bad input: malformed card files, tampered JSON, illegal and
//! unparsable actions. Every error is typed and leaves the state unchanged.

use splendor::game::{Action, Config, Game, GameError};
use splendor::variants::marvel::{MarvelData, MarvelState};

const CARDS: &str = include_str!("../python/splendor/data/marvel/cards.csv");
const LOCS: &str = include_str!("../python/splendor/data/marvel/locations.csv");

fn replace_field(text: &str, row: usize, col: usize, value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut f: Vec<String> = lines[row - 1].split(',').map(str::to_string).collect();
    f[col] = value.to_string();
    lines[row - 1] = f.join(",");
    lines.join("\n") + "\n"
}

fn card_error(cards: &str, locs: &str) -> String {
    match MarvelData::parse(cards, locs) {
        Err(GameError::CardData(m)) => m,
        other => panic!("expected a CardData error, got {other:?}"),
    }
}

#[test]
fn malformed_card_files_name_row_and_column() {
    let cases = [
        (5, 2, "x", "row 5 column points"),
        (5, 1, "green", "row 5 column bonus"),
        (7, 0, "2", "row 7 column level"),
        (9, 4, "2", "row 9 column time_stone"),
        (10, 6, "-1", "row 10 column blue"),
        (12, 3, "4", "row 12 column avengers"),
        (3, 10, " ", "row 3 column name"),
    ];
    for (row, col, value, msg) in cases {
        let m = card_error(&replace_field(CARDS, row, col, value), LOCS);
        assert!(m.contains(msg), "{m} should contain {msg}");
    }
    assert!(card_error(&CARDS.replace("time_stone", "time"), LOCS).contains("row 1: header"));
    assert!(card_error(&replace_field(CARDS, 4, 10, "a,b"), LOCS)
        .contains("row 4: expected 11 columns"));
    let short: String = CARDS.lines().take(90).map(|l| format!("{l}\n")).collect();
    assert!(card_error(&short, LOCS).contains("expected 90 cards"));
    assert!(card_error(&replace_field(LOCS, 3, 1, "A"), CARDS).contains("header")); // wrong file
    assert!(card_error(CARDS, &replace_field(LOCS, 3, 1, "A")).contains("row 3 column side"));
    assert!(card_error(CARDS, &replace_field(LOCS, 4, 0, "3")).contains("row 4 column tile"));
    assert!(card_error(CARDS, &replace_field(LOCS, 2, 7, "z")).contains("row 2 column yellow"));
    assert!(card_error("", LOCS).contains("row 1"));
}

#[test]
fn custom_card_set_is_interned_and_checked_by_json() {
    let custom = CARDS
        .replace(",6,0,3,3,0,Nova", ",7,0,0,0,0,Nova")
        .replace(",7,0,0,0,0,Doctor Strange", ",6,0,3,3,0,Doctor Strange");
    assert_ne!(custom, CARDS);
    let a = MarvelData::load(&custom, LOCS).unwrap();
    let b = MarvelData::load(&custom, LOCS).unwrap();
    assert!(std::ptr::eq(a, b), "equal sets are interned");
    assert_ne!(a.id, MarvelData::bundled().id);
    assert_eq!(a.id.len(), 64, "a SHA-256 in hex");
    let cfg = Config {
        num_players: 3,
        seed: 4,
        turn_cap: 100,
    };
    let s = MarvelState::new_with_data(&cfg, a).unwrap();
    let text = s.to_json(None);
    // Against the bundled set the recorded identity does not match.
    assert!(matches!(
        MarvelState::from_json_with(&text, MarvelData::bundled()),
        Err(GameError::InvalidState(m)) if m.contains("card_set")
    ));
    // from_json finds a set loaded earlier by its identity...
    assert_eq!(MarvelState::from_json(&text).unwrap().to_json(None), text);
    // ...and names an unknown one.
    let unknown = text.replace(&a.id, "12345");
    assert!(matches!(
        MarvelState::from_json(&unknown),
        Err(GameError::InvalidState(m)) if m.contains("card_set \"12345\"")
    ));
    // The old 32-bit checksum (an integer) is not an identity.
    let old = text.replace(&format!("\"{}\"", a.id), "3612858093");
    assert!(matches!(
        MarvelState::from_json(&old),
        Err(GameError::InvalidState(m)) if m.contains("card_set 3612858093")
    ));
    assert_eq!(
        MarvelState::from_json_with(&text, a).unwrap().to_json(None),
        text
    );
}

#[test]
fn bad_config_and_actions() {
    for n in [0u8, 1, 5] {
        let cfg = Config {
            num_players: n,
            seed: 0,
            turn_cap: 100,
        };
        assert!(matches!(
            MarvelState::new_game(&cfg),
            Err(GameError::Config(_))
        ));
    }
    let cfg = Config {
        num_players: 2,
        seed: 0,
        turn_cap: 0,
    };
    assert!(matches!(
        MarvelState::new_game(&cfg),
        Err(GameError::Config(_))
    ));
    let mut s = MarvelState::new_game(&Config::default()).unwrap();
    let before = s.to_json(None);
    assert!(matches!(
        s.apply(Action(327)),
        Err(GameError::InvalidAction(_))
    ));
    assert!(matches!(
        s.apply(Action(u16::MAX)),
        Err(GameError::InvalidAction(_))
    ));
    assert!(matches!(
        s.apply(MarvelState::parse_action("recruit 3.1").unwrap()),
        Err(GameError::IllegalAction(_))
    ));
    assert!(matches!(
        s.apply(MarvelState::parse_action("pass").unwrap()),
        Err(GameError::IllegalAction(_))
    ));
    assert!(matches!(
        MarvelState::parse_action("take s"),
        Err(GameError::InvalidAction(_))
    ));
    assert_eq!(s.to_json(None), before);
}

fn tampered(f: impl Fn(&mut serde_json::Value)) -> String {
    let s = MarvelState::new_game(&Config {
        num_players: 2,
        seed: 3,
        turn_cap: 100,
    })
    .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&s.to_json(None)).unwrap();
    f(&mut v);
    match MarvelState::from_json(&v.to_string()) {
        Err(GameError::InvalidState(m)) => m,
        other => panic!("expected InvalidState, got {other:?}"),
    }
}

#[test]
fn tampered_json_is_rejected() {
    assert!(tampered(|v| v["card_set"] = 1.into()).contains("card_set"));
    assert!(tampered(|v| v["variant"] = "base".into()).contains("variant"));
    assert!(tampered(|v| v["num_players"] = 5.into()).contains("num_players"));
    assert!(tampered(|v| v["phase"] = "noble".into()).contains("phase"));
    assert!(tampered(|v| v["turn"] = (-1).into()).contains("turn"));
    assert!(tampered(|v| v["avengers"] = 1.into()).contains("Avengers"));
    assert!(tampered(|v| v["bank"][0] = 5.into()).contains("tokens total"));
    assert!(tampered(|v| v["decks"][0][0] = v["decks"][0][1].clone()).contains("twice"));
    assert!(tampered(|v| {
        v["players"][0]["tokens"][6] = 1.into();
        v["bank"][6] = 1.into();
    })
    .contains("green"));
    assert!(
        tampered(|v| v["locations"] = serde_json::json!([v["locations"][0]])).contains("tiles")
    );
    assert!(tampered(|v| v["viewer"] = 0.into()).contains("view"));
    assert!(tampered(|v| v["turn"] = 1.5.into()).contains("integer"));
    assert!(tampered(|v| {
        v.as_object_mut().unwrap().remove("passes");
    })
    .contains("missing"));
    for junk in ["", "[]", "{", "{\"variant\":\"marvel\"}", "null"] {
        assert!(matches!(
            MarvelState::from_json(junk),
            Err(GameError::InvalidState(_))
        ));
    }
}

#[test]
fn state_is_small_and_copy() {
    assert_eq!(std::mem::size_of::<MarvelState>(), 288);
    let s = MarvelState::new_game(&Config::default()).unwrap();
    let t = s;
    assert_eq!(s.to_json(None), t.to_json(None));
    assert!(s.render().contains("Splendor: Marvel"));
    assert!(MarvelData::bundled()
        .cards
        .iter()
        .any(|c| s.render().contains(&c.name)));
}
