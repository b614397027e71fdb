//! Corrupted JSON never panics the Marvel engine: it is rejected with
//! `InvalidState`, or (when the change happens to stay consistent) loaded
//! into a state that round-trips and plays on.

use serde_json::Value;
use splendor::game::{ActionList, Config, Game, GameError};
use splendor::rng::SplitMix64;
use splendor::variants::marvel::MarvelState;

fn pointers(v: &Value, path: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => m
            .iter()
            .for_each(|(k, x)| pointers(x, format!("{path}/{k}"), out)),
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| pointers(x, format!("{path}/{i}"), out)),
        _ => {}
    }
    out.push(path);
}

fn midgame(seed: u64, rng: &mut SplitMix64) -> MarvelState {
    let cfg = Config {
        num_players: 2 + (seed % 3) as u8,
        seed,
        turn_cap: 100,
    };
    let mut s = MarvelState::new_game(&cfg).unwrap();
    let mut legal = ActionList::new();
    for _ in 0..rng.below(120) {
        if s.is_terminal() {
            break;
        }
        s.legal_actions(&mut legal);
        s.apply(legal.as_slice()[rng.below(legal.len() as u64) as usize])
            .unwrap();
    }
    s
}

fn check_loaded(text: &str) {
    match MarvelState::from_json(text) {
        Err(GameError::InvalidState(_)) => {}
        Err(e) => panic!("wrong error kind {e:?}"),
        Ok(s) => {
            let again = s.to_json(None);
            assert_eq!(MarvelState::from_json(&again).unwrap().to_json(None), again);
            let mut legal = ActionList::new();
            let mut t = s;
            let mut rng = SplitMix64::new(3);
            for _ in 0..20 {
                t.legal_actions(&mut legal);
                if legal.is_empty() {
                    break;
                }
                t.apply(legal.as_slice()[rng.below(legal.len() as u64) as usize])
                    .unwrap();
            }
        }
    }
}

#[test]
fn mutated_fields_never_panic() {
    let mut rng = SplitMix64::new(2024);
    let junk = [
        Value::Null,
        Value::Bool(true),
        Value::from(-1),
        Value::from(0),
        Value::from(1),
        Value::from(3),
        Value::from(255),
        Value::from(70_000),
        Value::from(u64::MAX),
        Value::from(1.5),
        Value::from("x"),
        Value::Array(vec![]),
    ];
    for i in 0..600u64 {
        let s = midgame(i, &mut rng);
        let mut v: Value = serde_json::from_str(&s.to_json(None)).unwrap();
        let mut ptrs = Vec::new();
        pointers(&v, String::new(), &mut ptrs);
        for _ in 0..=rng.below(3) {
            let p = &ptrs[rng.below(ptrs.len() as u64) as usize];
            if let Some(slot) = v.pointer_mut(p) {
                *slot = if rng.below(2) == 0 {
                    junk[rng.below(junk.len() as u64) as usize].clone()
                } else {
                    match slot.as_i64() {
                        Some(x) => Value::from(x + rng.below(5) as i64 - 2),
                        None => Value::Null,
                    }
                };
            }
        }
        check_loaded(&v.to_string());
    }
}

#[test]
fn mangled_text_never_panics() {
    let mut rng = SplitMix64::new(77);
    for i in 0..300u64 {
        let text = midgame(i, &mut rng).to_json(None).into_bytes();
        let mut t = text.clone();
        match rng.below(3) {
            0 => t.truncate(rng.below(t.len() as u64) as usize),
            1 => {
                let k = rng.below(t.len() as u64) as usize;
                t[k] = b"0123456789,[]{}\":-n"[rng.below(19) as usize];
            }
            _ => {
                let k = rng.below(t.len() as u64) as usize;
                t.remove(k);
            }
        }
        if let Ok(s) = String::from_utf8(t) {
            check_loaded(&s);
        }
    }
}
