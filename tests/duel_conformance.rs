//! Random playouts of Splendor Duel with the invariants of the rules digest
//! (§6 item 13) checked after every decision, plus determinism, JSON round
//! trips and determinization checks.

use serde_json::Value;
use splendor::variants::duel::DuelState;
use splendor::{Action, ActionList, Config, Game, SplitMix64};

fn new(seed: u64) -> DuelState {
    DuelState::new_game(&Config {
        num_players: 2,
        seed,
        turn_cap: 100,
    })
    .expect("valid config")
}

fn ints(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("list")
        .iter()
        .map(|x| x.as_u64().unwrap_or(0))
        .collect()
}

/// Conservation and limits, read from the full JSON.
fn check_invariants(s: &DuelState) {
    let text = s.to_json(None);
    let v: Value = serde_json::from_str(&text).expect("valid JSON");
    let mut tokens = ints(&v["bag"]);
    for cell in v["board"].as_array().expect("board") {
        if let Some(l) = cell.as_str() {
            let k = "wugrkpy".find(l).expect("letter");
            tokens[k] += 1;
        }
    }
    let mut cards = 0;
    let mut privileges = 0;
    let mut royals = v["royals"].as_array().expect("royals").len();
    let current = v["current"].as_u64();
    for (p, pj) in v["players"].as_array().expect("players").iter().enumerate() {
        let t = ints(&pj["tokens"]);
        for k in 0..7 {
            tokens[k] += t[k];
        }
        let total: u64 = t.iter().sum();
        // Only the player on turn may be over 10, and only until the end of the turn.
        if current != Some(p as u64) {
            assert!(total <= 10, "player {p} holds {total} tokens\n{text}");
        } else {
            // 10 at the start, + 3 privileges, + a take of 3 (or abilities).
            assert!(total <= 16, "player {p} holds {total} tokens\n{text}");
        }
        let reserved = pj["reserved"].as_array().expect("reserved").len();
        assert!(reserved <= 3);
        cards += pj["cards"].as_array().expect("cards").len() + reserved;
        privileges += pj["privileges"].as_u64().expect("privileges");
        royals += pj["royals"].as_array().expect("royals").len();
        assert!(pj["royals"].as_array().expect("royals").len() <= 2);
    }
    assert_eq!(tokens, vec![4, 4, 4, 4, 4, 2, 3], "{text}");
    assert!(privileges <= 3);
    for row in v["pyramid"].as_array().expect("pyramid") {
        cards += row
            .as_array()
            .expect("row")
            .iter()
            .filter(|c| !c.is_null())
            .count();
    }
    for d in v["decks"].as_array().expect("decks") {
        cards += d.as_array().expect("deck").len();
    }
    assert_eq!(cards, 67, "{text}");
    assert_eq!(royals, 4);
    // Reloading gives the same state, byte for byte.
    let back = DuelState::from_json(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.to_json(None), text);
}

fn playout(seed: u64, check: bool) -> (DuelState, usize) {
    let mut s = new(seed);
    let mut rng = SplitMix64::new(seed ^ 0xD0E1);
    let mut list = ActionList::new();
    let mut n = 0;
    while !s.is_terminal() {
        s.legal_actions(&mut list);
        assert!(!list.is_empty());
        let a = list.as_slice()[rng.below(list.len() as u64) as usize];
        if check {
            let before = s;
            let mut copy = s;
            copy.apply(a)
                .unwrap_or_else(|e| panic!("legal {a:?} refused: {e}"));
            s.apply_unchecked(a);
            assert_eq!(copy, s);
            assert_ne!(before.to_json(None), String::new());
            check_invariants(&s);
        } else {
            s.apply_unchecked(a);
        }
        if let Err(e) = s.check_invariants() {
            panic!("seed {seed} decision {n}: {e}\n{}", s.to_json(None));
        }
        n += 1;
    }
    (s, n)
}

#[test]
fn two_thousand_random_games_keep_the_invariants() {
    let mut reasons = std::collections::HashMap::new();
    for seed in 0..2000 {
        let (s, _) = playout(seed, seed < 300);
        let o = s.outcome().expect("over");
        *reasons.entry(o.reason.as_str()).or_insert(0) += 1;
        check_invariants(&s);
    }
    // Random play reaches every kind of ending but the cap.
    for r in ["points", "crowns", "colour"] {
        assert!(reasons.contains_key(r), "{reasons:?}");
    }
}

#[test]
fn same_seed_same_game() {
    for seed in [0, 1, 42, u64::MAX] {
        let a = playout(seed, false);
        let b = playout(seed, false);
        assert_eq!(a.0, b.0);
        assert_eq!(a.1, b.1);
    }
    assert_ne!(new(1).to_json(None), new(2).to_json(None));
}

#[test]
fn illegal_actions_leave_the_state_unchanged() {
    let mut s = new(5);
    let before = s;
    assert!(matches!(
        s.apply(Action(9999)),
        Err(splendor::GameError::InvalidAction(_))
    ));
    assert!(matches!(
        s.apply(Action(357)),
        Err(splendor::GameError::IllegalAction(_))
    ));
    assert!(matches!(
        s.apply(Action(226)),
        Err(splendor::GameError::IllegalAction(_))
    ));
    assert_eq!(s, before);
}

#[test]
fn state_size_is_pinned() {
    assert_eq!(std::mem::size_of::<DuelState>(), 272);
}

#[test]
fn determinize_hides_only_what_the_observer_cannot_see() {
    for seed in 0..200 {
        let mut s = new(seed);
        let mut rng = SplitMix64::new(seed);
        let mut list = ActionList::new();
        for _ in 0..(seed % 60) {
            if s.is_terminal() {
                break;
            }
            s.legal_actions(&mut list);
            let a = list.as_slice()[rng.below(list.len() as u64) as usize];
            s.apply_unchecked(a);
        }
        for obs in 0..2u8 {
            let d = s.determinize(obs, &mut SplitMix64::new(7));
            assert_eq!(d.to_json(Some(obs)), s.to_json(Some(obs)));
            check_invariants(&d);
            let mut o1 = vec![0.0; DuelState::OBSERVATION_SIZE];
            let mut o2 = vec![0.0; DuelState::OBSERVATION_SIZE];
            s.observation(obs, &mut o1);
            d.observation(obs, &mut o2);
            assert_eq!(o1, o2);
        }
    }
}
