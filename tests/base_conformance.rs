//! Conformance: random games to the end with every invariant checked after
//! every decision, for 2, 3 and 4 players; the documented deal, bad configs,
//! determinism, the state's size, apply against the legal list and perft.
//! (The rulings are scenarios: `tests/data/base/scenarios.json`, run by
//! `tests/golden.rs`.)

mod base_common;

use base_common::{new_game, to_value};
use serde_json::json;
use splendor::game::{Action, ActionList, Config, EndReason, Game, GameError};
use splendor::rng::SplitMix64;
use splendor::variants::base::cards::{self, NUM_CARDS};
use splendor::variants::base::state::{setup_bank, BaseState, Phase};

/// Games per player count: 2,000 in release (`cargo test --release`), fewer
/// in debug builds so that `cargo test` stays quick.
fn games() -> u64 {
    if cfg!(debug_assertions) {
        50
    } else {
        2_000
    }
}

fn check_invariants(s: &BaseState, legal: &ActionList) {
    let n = s.num_players();
    // Tokens are conserved.
    let mut total = s.bank();
    for p in 0..n {
        total = total.add(s.tokens(p));
    }
    assert_eq!(total, setup_bank(n as u8), "token conservation");
    // Cards are conserved: every id exactly once.
    let mut seen = [0u8; NUM_CARDS];
    for l in 0..3 {
        for slot in 0..4 {
            if let Some(c) = s.board_card(l, slot) {
                assert_eq!(cards::level(c) as usize, l + 1);
                seen[c as usize] += 1;
            }
        }
        assert_eq!(s.deck(l).len(), s.deck_size(l));
        for &c in s.deck(l) {
            assert_eq!(cards::level(c) as usize, l + 1);
            seen[c as usize] += 1;
        }
        // A slot empties only once its deck is empty.
        if s.deck_size(l) > 0 {
            assert!((0..4).all(|slot| s.board_card(l, slot).is_some()));
        }
    }
    let mut nobles = s.nobles_on_display().len();
    for p in 0..n {
        for c in s.cards(p).iter() {
            seen[c as usize] += 1;
        }
        assert!(s.reserved(p).len() <= 3, "at most 3 reserved");
        for &c in s.reserved(p) {
            seen[c as usize] += 1;
        }
        // Derived values recomputed from scratch.
        assert_eq!(s.bonuses(p), s.bonuses_from_scratch(p));
        assert_eq!(s.scores()[p] as u32, s.points_from_scratch(p));
        for nb in s.nobles_of(p) {
            assert!(cards::noble_req(nb).all_le(s.bonuses(p)));
            nobles += 1;
        }
        let t = s.tokens(p).total();
        let returning = s.phase() == Phase::Return && s.current_player() == Some(p as u8);
        if returning {
            assert!(t > 10);
        } else {
            assert!(t <= 10, "at most 10 tokens outside the return phase");
        }
    }
    assert!(seen.iter().all(|&k| k == 1), "card conservation");
    assert_eq!(nobles, n + 1);
    // Phase consistency.
    match s.phase() {
        Phase::Over => {
            assert!(s.current_player().is_none() && legal.is_empty());
            assert!(s.outcome().is_some());
        }
        ph => {
            assert!(s.outcome().is_none());
            assert!(!legal.is_empty());
            let cur = s.current_player().expect("a seat to play") as u32;
            assert_eq!(cur, s.turn() % n as u32);
            match ph {
                Phase::Pay => assert!(
                    legal.len() >= 2 && legal.as_slice().iter().all(|a| (76..328).contains(&a.0))
                ),
                Phase::Return => assert!(legal.as_slice().iter().all(|a| (60..66).contains(&a.0))),
                Phase::Noble => assert!(
                    legal.len() >= 2 && legal.as_slice().iter().all(|a| (66..76).contains(&a.0))
                ),
                _ => {
                    let pass = legal.as_slice() == [splendor::Action(328)];
                    assert!(pass || legal.as_slice().iter().all(|a| a.0 < 60));
                }
            }
        }
    }
    assert!(
        legal.as_slice().windows(2).all(|w| w[0] < w[1]),
        "ascending ids"
    );
    // JSON round trip.
    let text = s.to_json(None);
    let back = BaseState::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&back, s);
    assert_eq!(back.to_json(None), text);
}

fn run(players: u8) {
    let mut list = ActionList::new();
    let (mut decisions, mut turns, mut ended) = (0u64, 0u64, [0u64; 6]);
    for seed in 0..games() {
        let cfg = Config {
            num_players: players,
            seed,
            turn_cap: 100,
        };
        let mut s = BaseState::new_game(&cfg).expect("valid config");
        let mut rng = SplitMix64::new(seed ^ 0xABCD);
        loop {
            s.legal_actions(&mut list);
            check_invariants(&s, &list);
            if s.is_terminal() {
                break;
            }
            let a = list.as_slice()[rng.below(list.len() as u64) as usize];
            let before = s;
            s.apply(a).expect("a listed action is legal");
            assert_ne!(before, s);
            decisions += 1;
        }
        turns += u64::from(s.turn());
        let o = s.outcome().expect("over");
        ended[o.reason as usize] += 1;
    }
    eprintln!(
        "{players} players: {} games, {decisions} decisions, {turns} turns, reasons {ended:?}",
        games()
    );
    // Random play mostly ends on points; none of these games may hit the cap.
    assert!(ended[EndReason::Points as usize] * 2 > games());
    assert_eq!(ended[EndReason::Truncated as usize], 0);
}

#[test]
fn random_games_two_players() {
    run(2);
}

#[test]
fn random_games_three_players() {
    run(3);
}

#[test]
fn random_games_four_players() {
    run(4);
}

#[test]
fn setup_follows_the_documented_draw_order() {
    for (players, seed) in [(2u8, 0u64), (3, 7), (4, 123_456_789)] {
        let s = new_game(players, seed);
        let v = to_value(&s);
        let mut rng = SplitMix64::new(seed);
        for (l, (lo, hi)) in [(0u64, 40u64), (40, 70), (70, 90)].into_iter().enumerate() {
            let mut deck: Vec<u64> = (lo..hi).collect();
            rng.shuffle(&mut deck);
            assert_eq!(v["board"][l], json!(deck[..4]));
            assert_eq!(v["decks"][l], json!(deck[4..]));
        }
        let mut nobles: Vec<u64> = (0..10).collect();
        rng.shuffle(&mut nobles);
        assert_eq!(v["nobles"], json!(nobles[..players as usize + 1]));
        let g = [4, 5, 7][players as usize - 2];
        assert_eq!(
            v["bank"],
            json!([g, g, g, g, g, 5]),
            "gems per colour, gold always 5"
        );
        assert_eq!(v["current"], json!(0));
        assert_eq!(v["phase"], json!("main"));
    }
}

#[test]
fn bad_configs_are_errors() {
    for n in [0u8, 1, 5] {
        let r = BaseState::new_game(&Config {
            num_players: n,
            seed: 0,
            turn_cap: 100,
        });
        assert!(matches!(r, Err(GameError::Config(_))));
    }
    let r = BaseState::new_game(&Config {
        num_players: 2,
        seed: 0,
        turn_cap: 0,
    });
    assert!(matches!(r, Err(GameError::Config(_))));
}

#[test]
fn seeded_games_are_deterministic() {
    for seed in [0u64, 1, 99] {
        let play_out = || {
            let mut s = new_game(3, seed);
            let mut rng = SplitMix64::new(seed);
            let n = splendor::playout::random_playout(&mut s, &mut rng);
            (n, s.to_json(None))
        };
        assert_eq!(play_out(), play_out());
    }
    assert_ne!(new_game(2, 1).to_json(None), new_game(2, 2).to_json(None));
}

#[test]
fn state_is_small() {
    assert_eq!(std::mem::size_of::<BaseState>(), 288);
}

#[test]
fn apply_accepts_exactly_the_listed_actions() {
    let mut list = splendor::ActionList::new();
    for seed in 0..12u64 {
        let mut s = new_game(2 + (seed % 3) as u8, seed);
        let mut rng = SplitMix64::new(seed);
        while !s.is_terminal() {
            s.legal_actions(&mut list);
            for id in 0..329u16 {
                let mut t = s;
                let r = t.apply(Action(id));
                assert_eq!(
                    r.is_ok(),
                    list.contains(Action(id)),
                    "id {id} in {}",
                    s.to_json(None)
                );
                if r.is_err() {
                    assert_eq!(t, s);
                }
            }
            s.apply_unchecked(list.as_slice()[rng.below(list.len() as u64) as usize]);
        }
    }
}

fn perft(s: &BaseState, depth: u32) -> u64 {
    if depth == 0 || s.is_terminal() {
        return 1;
    }
    let mut list = splendor::ActionList::new();
    s.legal_actions(&mut list);
    list.as_slice()
        .iter()
        .map(|&a| {
            let mut c = *s;
            c.apply_unchecked(a);
            perft(&c, depth - 1)
        })
        .sum()
}

#[test]
fn perft_counts_match_the_reference_engine() {
    // Leaf counts at depth 3 after `pre` random decisions (rng.below on the
    // legal list, SplitMix64(seed)); the same numbers come out of
    // splendor.reference's BaseState.
    for (players, seed, pre, want) in [
        (2u8, 0u64, 0, 24_190u64),
        (3, 7, 30, 788),
        (4, 11, 50, 101),
        (2, 5, 45, 9),
        (3, 2, 20, 935),
        (4, 3, 10, 21_567),
    ] {
        let mut s = new_game(players, seed);
        let mut rng = SplitMix64::new(seed);
        let mut list = splendor::ActionList::new();
        for _ in 0..pre {
            s.legal_actions(&mut list);
            s.apply_unchecked(list.as_slice()[rng.below(list.len() as u64) as usize]);
        }
        assert_eq!(
            perft(&s, 3),
            want,
            "{players} players, seed {seed}, after {pre}"
        );
    }
}
