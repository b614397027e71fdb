//! Conformance: random games to the end with every invariant checked after
//! every decision, for 2, 3 and 4 players.

use splendor::game::{ActionList, Config, EndReason, Game};
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
