//! `apply` explains why an action is illegal (docs/contract.md, *Why an action
//! is illegal*); the reference engine gives the same words (tests/test_explain.py).

use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::variants::marvel::MarvelState;
use splendor::{Config, Game, GameError};

fn refusal<G: Game>(s: &mut G, text: &str) -> String {
    let before = s.to_json(None);
    let a = G::parse_action(text).expect("parses");
    match s.apply(a) {
        Err(GameError::IllegalAction(m)) => {
            assert_eq!(s.to_json(None), before, "state changed");
            m
        }
        other => panic!("`{text}`: expected IllegalAction, got {other:?}"),
    }
}

fn play<G: Game>(s: &mut G, texts: &[&str]) {
    for t in texts {
        s.apply(G::parse_action(t).unwrap()).unwrap();
    }
}

#[test]
fn base_double_take_needs_four() {
    let mut s = BaseState::new_game(&Config::default()).unwrap();
    play(&mut s, &["take wug", "take wur"]);
    assert_eq!(
        refusal(&mut s, "take ww"),
        "`take ww` is not legal now: the white pile has 2 tokens: \
         taking 2 of one colour needs at least 4"
    );
    assert_eq!(
        refusal(&mut s, "take u"),
        "`take u` is not legal now: the bank has 5 colours: take 3 different ones \
         (fewer only when fewer than 3 colours are left)"
    );
    assert!(refusal(&mut s, "buy 3.1")
        .starts_with("`buy 3.1` is not legal now: you cannot afford it: you lack "));
    assert_eq!(
        refusal(&mut s, "noble 3"),
        "`noble 3` is not legal now: choose a main action first (take, reserve or buy)"
    );
}

#[test]
fn base_reserve_limit_and_empty_reserve() {
    let mut s = BaseState::new_game(&Config::default()).unwrap();
    assert_eq!(
        refusal(&mut s, "buy reserved 2"),
        "`buy reserved 2` is not legal now: you have no reserved card 2"
    );
    play(
        &mut s,
        &[
            "reserve deck 1",
            "take wug",
            "reserve deck 2",
            "take wug",
            "reserve deck 3",
            "take wur",
        ],
    );
    assert_eq!(
        refusal(&mut s, "reserve 2.2"),
        "`reserve 2.2` is not legal now: you already hold 3 reserved cards"
    );
}

#[test]
fn duel_reserve_starts_with_a_gold() {
    let mut s = DuelState::new_game(&Config::default()).unwrap();
    assert_eq!(
        refusal(&mut s, "reserve 3.1"),
        "`reserve 3.1` is not legal now: take a gold token first (`gold <cell>`): \
         reserving starts with it"
    );
    assert_eq!(
        refusal(&mut s, "replenish"),
        "`replenish` is not legal now: the bag is empty"
    );
    assert_eq!(
        refusal(&mut s, "privilege a1"),
        "`privilege a1` is not legal now: you hold no privilege"
    );
}

#[test]
fn marvel_uses_its_own_words() {
    let mut s = MarvelState::new_game(&Config::default()).unwrap();
    let m = refusal(&mut s, "recruit 3.1");
    assert!(
        m.starts_with("`recruit 3.1` is not legal now: you cannot afford it: you lack ")
            && m.ends_with(" and hold 0 grey"),
        "{m}"
    );
    assert_eq!(
        refusal(&mut s, "return s"),
        "`return s` is not legal now: choose a main action first (take, reserve or recruit)"
    );
}

/// Marvel explains its takes and payments from its own tables, which number
/// them as the base game does (the shared reasons once read the base tables).
#[test]
fn marvel_numbers_takes_and_payments_like_the_base_game() {
    use splendor::variants::{base::actions as base, marvel::actions as marvel};
    let triples_pairs = marvel::TRIPLES.iter().chain(&marvel::PAIRS);
    for (a, &m) in triples_pairs.enumerate() {
        assert_eq!(m, base::TAKE_MASKS[a], "take {a}");
    }
    assert_eq!(marvel::GREY_VECTORS, base::PAYMENTS);
}
