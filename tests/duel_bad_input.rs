//! Bad input never panics the Duel engine: corrupt JSON, junk action text and
//! illegal ids all give typed errors and leave the state unchanged.

use serde_json::Value;
use splendor::variants::duel::DuelState;
use splendor::{Action, ActionList, Config, Game, GameError, SplitMix64};

fn mid_game(seed: u64, steps: usize) -> DuelState {
    let mut s = DuelState::new_game(&Config {
        num_players: 2,
        seed,
        turn_cap: 100,
    })
    .expect("valid config");
    let mut rng = SplitMix64::new(seed);
    let mut list = ActionList::new();
    for _ in 0..steps {
        if s.is_terminal() {
            break;
        }
        s.legal_actions(&mut list);
        s.apply_unchecked(list.as_slice()[rng.below(list.len() as u64) as usize]);
    }
    s
}

#[test]
fn every_action_id_is_applied_or_refused_cleanly() {
    let mut list = ActionList::new();
    for seed in 0..60 {
        let s = mid_game(seed, (seed as usize * 7) % 150);
        s.legal_actions(&mut list);
        for id in 0..(DuelState::NUM_ACTIONS as u16 + 4) {
            let mut t = s;
            match t.apply(Action(id)) {
                Ok(()) => assert!(list.contains(Action(id))),
                Err(GameError::IllegalAction(_)) => {
                    assert!(!list.contains(Action(id)));
                    assert_eq!(t, s);
                }
                Err(GameError::InvalidAction(_)) => {
                    assert!(id as usize >= DuelState::NUM_ACTIONS);
                    assert_eq!(t, s);
                }
                Err(e) => panic!("unexpected error {e}"),
            }
        }
    }
}

#[test]
fn junk_text_never_parses_into_a_panic() {
    let mut rng = SplitMix64::new(4);
    let alphabet: Vec<char> = "takeprivlgdsbuyjoknc12345.  \u{e9}-0".chars().collect();
    for _ in 0..20000 {
        let len = rng.below(16) as usize;
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
            .collect();
        if let Ok(a) = DuelState::parse_action(&text) {
            assert_eq!(DuelState::parse_action(&DuelState::action_text(a)), Ok(a));
        }
    }
}

fn mutate(v: &mut Value, rng: &mut SplitMix64) {
    match v {
        Value::Object(m) => {
            let keys: Vec<String> = m.keys().cloned().collect();
            let k = &keys[rng.below(keys.len() as u64) as usize];
            match rng.below(4) {
                0 => {
                    m.remove(k);
                }
                1 => {
                    m.insert(k.clone(), Value::Null);
                }
                _ => {
                    if let Some(child) = m.get_mut(k) {
                        mutate(child, rng);
                    }
                }
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let i = rng.below(a.len() as u64) as usize;
            match rng.below(4) {
                0 => {
                    a.remove(i);
                }
                1 => a.push(a[i].clone()),
                _ => mutate(&mut a[i], rng),
            }
        }
        Value::Number(_) => {
            *v = match rng.below(5) {
                0 => Value::from(-1),
                1 => Value::from(rng.below(300)),
                2 => Value::from(1.5),
                3 => Value::from(u64::MAX),
                _ => Value::from(true),
            }
        }
        Value::String(_) => {
            *v = Value::from(["main", "over", "x", "y", "w"][rng.below(5) as usize])
        }
        Value::Bool(b) => *b = !*b,
        _ => *v = Value::from(rng.below(3)),
    }
}

#[test]
fn corrupt_json_gives_invalid_state_or_a_consistent_state() {
    let mut rng = SplitMix64::new(77);
    let mut accepted = 0;
    for seed in 0..200 {
        let s = mid_game(seed, (seed as usize * 13) % 200);
        let text = s.to_json(None);
        let base: Value = serde_json::from_str(&text).expect("JSON");
        for _ in 0..20 {
            let mut v = base.clone();
            for _ in 0..=rng.below(3) {
                mutate(&mut v, &mut rng);
            }
            match DuelState::from_json(&v.to_string()) {
                Ok(t) => {
                    // Whatever is accepted plays on without panicking.
                    accepted += 1;
                    let mut list = ActionList::new();
                    let mut t = t;
                    for _ in 0..50 {
                        if t.is_terminal() {
                            break;
                        }
                        t.legal_actions(&mut list);
                        assert!(!list.is_empty(), "accepted a stuck state: {}", v);
                        t.apply_unchecked(list.as_slice()[0]);
                    }
                }
                Err(GameError::InvalidState(msg)) => assert!(!msg.is_empty()),
                Err(e) => panic!("wrong error type {e:?}"),
            }
        }
        let mut bytes = text.clone().into_bytes();
        let i = rng.below(bytes.len() as u64) as usize;
        bytes[i] = b"{}[],:0x\""[rng.below(9) as usize];
        let _ = DuelState::from_json(&String::from_utf8_lossy(&bytes));
        assert!(DuelState::from_json(&s.to_json(Some(0))).is_err());
    }
    assert!(accepted < 200 * 20);
}

#[test]
fn bad_config_is_refused() {
    for n in [0, 1, 3, 4] {
        let c = Config {
            num_players: n,
            seed: 0,
            turn_cap: 100,
        };
        assert!(matches!(DuelState::new_game(&c), Err(GameError::Config(_))));
    }
    let c = Config {
        num_players: 2,
        seed: 0,
        turn_cap: 0,
    };
    assert!(matches!(DuelState::new_game(&c), Err(GameError::Config(_))));
}

#[test]
fn views_hide_exactly_the_hidden_things() {
    let mut found = 0;
    for seed in 0..300 {
        let s = mid_game(seed, 40);
        let full: Value = serde_json::from_str(&s.to_json(None)).expect("JSON");
        for viewer in 0..2u8 {
            let view: Value = serde_json::from_str(&s.to_json(Some(viewer))).expect("JSON");
            assert!(view["decks"].is_null() && view["chance"].is_null());
            let other = 1 - viewer as usize;
            for (r, fr) in view["players"][other]["reserved"]
                .as_array()
                .expect("reserved")
                .iter()
                .zip(
                    full["players"][other]["reserved"]
                        .as_array()
                        .expect("reserved"),
                )
            {
                if r["hidden"] == Value::Bool(true) {
                    found += 1;
                    assert!(r["card"].is_null());
                } else {
                    assert_eq!(r["card"], fr["card"]);
                }
            }
            // Resampling what the viewer cannot see changes neither view nor observation.
            let d = s.determinize(viewer, &mut SplitMix64::new(seed));
            assert_eq!(d.to_json(Some(viewer)), s.to_json(Some(viewer)));
            let mut a = vec![0.0; DuelState::OBSERVATION_SIZE];
            let mut b = vec![1.0; DuelState::OBSERVATION_SIZE];
            s.observation(viewer, &mut a);
            d.observation(viewer, &mut b);
            assert_eq!(a, b);
        }
    }
    assert!(found > 0, "no blind reserve met");
}
