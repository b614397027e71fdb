//! The golden data of `tests/data/<variant>/` on the Rust crate, without Python (the schema is in
//! `tests/data/README.md`; `tests/test_golden.py` runs the same files on both engines through the
//! bindings). One runner, generic over the variant:
//! - `scenarios.json`: each position loads and prints back unchanged, then each step may apply an
//!   action (or expect an error from it, the state unchanged) and checks the legal action texts,
//!   fields of the full JSON and of a seat's view, the scores, the outcome and the returns, all
//!   written by hand;
//! - `traces.json`: the reference engine's seeded games are dealt again and replayed, checking
//!   the chosen action, the legal list's length and the snapshots at every decision (checked and
//!   unchecked apply must agree), then the end: full JSON, seat 1's view, outcome and scores;
//!   `random_playout` from the start with the playout seed must play the same game.

use serde_json::Value;
use splendor::game::{Action, ActionList, Config, Game, GameError, Player};
use splendor::playout::random_playout;
use splendor::rng::SplitMix64;
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::variants::marvel::MarvelState;
use std::fmt::Debug;

/// The counts when the three variants' formats became one: a scenario or a game may be added,
/// never dropped (`AT_LEAST` in `tests/test_golden.py`).
const BASE_AT_LEAST: (usize, usize) = (56, 6);
const DUEL_AT_LEAST: (usize, usize) = (36, 24);
const MARVEL_AT_LEAST: (usize, usize) = (22, 15);

fn load(variant: &str, kind: &str) -> Value {
    let path = format!(
        "{}/tests/data/{variant}/{kind}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let data: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(data["variant"], variant, "{path}");
    data
}

// ---------------------------------------------------------------------------------- scenarios

fn field<'a>(mut v: &'a Value, path: &str) -> &'a Value {
    for part in path.split('.') {
        v = match part.parse::<usize>() {
            Ok(i) if v.is_array() => &v[i],
            _ => &v[part],
        };
    }
    v
}

fn legal_texts<G: Game>(s: &G) -> Vec<String> {
    let mut list = ActionList::new();
    s.legal_actions(&mut list);
    list.as_slice().iter().map(|&a| G::action_text(a)).collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .map(|x| x.as_str().expect("a list of texts").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The Python exception a Rust error becomes (`splendor.errors`), as the scenarios name it.
fn error_name(e: &GameError) -> &'static str {
    match e {
        GameError::IllegalAction(_) => "IllegalActionError",
        GameError::InvalidAction(_) => "InvalidActionError",
        GameError::InvalidState(_) => "InvalidStateError",
        GameError::Config(_) => "ConfigError",
        GameError::CardData(_) => "CardDataError",
        GameError::Network(_) => "NetworkError",
    }
}

fn run_step<G: Game>(s: &mut G, step: &Value, at: &str) {
    if let Some(action) = step.get("apply") {
        let result = match action.as_u64() {
            Some(id) => s.apply(Action(u16::try_from(id).expect("an action id"))),
            None => G::parse_action(action.as_str().expect("an action text or id"))
                .and_then(|a| s.apply(a)),
        };
        match step.get("error") {
            Some(want) => {
                let before = s.to_json(None);
                let e = result.expect_err(at);
                assert_eq!(
                    error_name(&e),
                    want.as_str().expect("an error name"),
                    "{at}: {e}"
                );
                assert_eq!(
                    s.to_json(None),
                    before,
                    "{at}: state changed by a failed apply"
                );
            }
            None => result.unwrap_or_else(|e| panic!("{at}: {e}")),
        }
    }
    let legal = legal_texts(s);
    if let Some(want) = step.get("legal") {
        assert_eq!(legal, strings(want), "{at}");
    }
    if let Some(want) = step.get("legal_takes") {
        let takes: Vec<String> = legal
            .iter()
            .filter(|t| t.starts_with("take"))
            .cloned()
            .collect();
        assert_eq!(takes, strings(want), "{at}");
    }
    for t in strings(&step["legal_has"]) {
        assert!(legal.contains(&t), "{at}: `{t}` should be legal");
    }
    for t in strings(&step["legal_lacks"]) {
        assert!(!legal.contains(&t), "{at}: `{t}` should not be legal");
    }
    let full: Value = serde_json::from_str(&s.to_json(None)).expect("own JSON parses");
    if let Some(expect) = step.get("expect") {
        for (path, want) in expect.as_object().expect("an object of paths") {
            assert_eq!(field(&full, path), want, "{at}: {path}");
        }
    }
    if let Some(views) = step.get("view") {
        for (seat, paths) in views.as_object().expect("an object of seats") {
            let seat: Player = seat.parse().expect("a seat");
            let view: Value = serde_json::from_str(&s.to_json(Some(seat))).expect("a view parses");
            for (path, want) in paths.as_object().expect("an object of paths") {
                assert_eq!(field(&view, path), want, "{at}: seat {seat} sees {path}");
            }
        }
    }
    if let Some(want) = step.get("scores") {
        let got = s.scores();
        let want = want.as_array().expect("a list of scores");
        let got: Vec<i64> = got[..want.len()].iter().map(|&x| i64::from(x)).collect();
        let want: Vec<i64> = want.iter().map(|x| x.as_i64().expect("a score")).collect();
        assert_eq!(got, want, "{at}: scores");
    }
    if let Some(want) = step.get("outcome") {
        match (s.outcome(), want.is_null()) {
            (None, true) => {}
            (Some(out), false) => {
                let winners: Vec<u64> = out.winner_list().iter().map(|&p| u64::from(p)).collect();
                assert_eq!(Value::from(winners), want["winners"], "{at}");
                assert_eq!(out.reason.as_str(), want["reason"], "{at}");
            }
            (got, _) => panic!("{at}: outcome {got:?}, expected {want}"),
        }
    }
    if let Some(want) = step.get("returns") {
        let got = s.outcome().map(|o| o.returns()).unwrap_or_default();
        let want = want.as_array().expect("a list of returns");
        for (i, w) in want.iter().enumerate() {
            let w = w.as_f64().expect("a return");
            assert!((got[i] - w).abs() < 1e-6, "{at}: returns {got:?}");
        }
    }
}

fn run_scenarios<G: Game>(variant: &str, at_least: usize) {
    let data = load(variant, "scenarios");
    let all = data["scenarios"].as_array().expect("scenarios");
    assert!(
        all.len() >= at_least,
        "{variant}: only {} scenarios",
        all.len()
    );
    for sc in all {
        let name = format!("{variant} {}", sc["name"].as_str().expect("a name"));
        let text = sc["state"].to_string();
        let mut s = G::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(s.to_json(None), text, "{name}: must print back unchanged");
        for (i, step) in sc["steps"].as_array().expect("steps").iter().enumerate() {
            run_step(&mut s, step, &format!("{name} step {i}"));
        }
    }
}

#[test]
fn base_scenarios() {
    run_scenarios::<BaseState>("base", BASE_AT_LEAST.0);
}

#[test]
fn duel_scenarios() {
    run_scenarios::<DuelState>("duel", DUEL_AT_LEAST.0);
}

#[test]
fn marvel_scenarios() {
    run_scenarios::<MarvelState>("marvel", MARVEL_AT_LEAST.0);
}

// ------------------------------------------------------------------------------------- traces

fn number(game: &Value, key: &str) -> u64 {
    game[key]
        .as_u64()
        .unwrap_or_else(|| panic!("`{key}` is a number"))
}

fn text<'a>(game: &'a Value, key: &str) -> &'a str {
    game[key]
        .as_str()
        .unwrap_or_else(|| panic!("`{key}` is a text"))
}

fn replay_traces<G: Game + PartialEq + Debug>(variant: &str, at_least: usize) {
    let data = load(variant, "traces");
    let games = data["games"].as_array().expect("games");
    assert!(
        games.len() >= at_least,
        "{variant}: only {} games",
        games.len()
    );
    for g in games {
        let players = number(g, "players");
        let seed = number(g, "seed");
        let at = format!("{variant} {players}p seed {seed}");
        let config = Config {
            num_players: u8::try_from(players).expect("a player count"),
            seed,
            turn_cap: u32::try_from(number(g, "turn_cap")).expect("a turn cap"),
        };
        let mut s = G::new_game(&config).unwrap_or_else(|e| panic!("{at}: {e}"));
        assert_eq!(s.to_json(None), text(g, "start"), "{at}: the deal");
        let mut rng = SplitMix64::new(number(g, "playout_seed"));
        let mut list = ActionList::new();
        let actions = g["actions"].as_array().expect("actions");
        let lengths = g["legal_lengths"].as_array().expect("legal lengths");
        assert_eq!(actions.len(), lengths.len(), "{at}");
        let mut snapshots = 0;
        for (i, (a, len)) in actions.iter().zip(lengths).enumerate() {
            if let Some(snap) = g["snapshots"].get(i.to_string()) {
                assert_eq!(
                    s.to_json(None),
                    snap.as_str().expect("a state"),
                    "{at} step {i}"
                );
                snapshots += 1;
            }
            s.legal_actions(&mut list);
            assert_eq!(Some(list.len() as u64), len.as_u64(), "{at} step {i}");
            let chosen = list.as_slice()[rng.below(list.len() as u64) as usize];
            let recorded = u16::try_from(a.as_u64().expect("an action id")).expect("an id");
            assert_eq!(chosen, Action(recorded), "{at} step {i}");
            let mut unchecked = s.clone();
            unchecked.apply_unchecked(chosen);
            s.apply(chosen)
                .unwrap_or_else(|e| panic!("{at} step {i}: {e}"));
            assert_eq!(
                s, unchecked,
                "{at} step {i}: checked and unchecked apply differ"
            );
        }
        let recorded_snapshots = g["snapshots"].as_object().expect("snapshots").len();
        assert_eq!(
            snapshots, recorded_snapshots,
            "{at}: every snapshot reached"
        );
        assert!(s.is_terminal(), "{at}");
        assert_eq!(s.to_json(None), text(g, "final"), "{at}");
        assert_eq!(s.to_json(Some(1)), text(g, "final_view_1"), "{at}");
        let o = s.outcome().expect("over");
        let winners: Vec<u64> = o.winner_list().iter().map(|&p| u64::from(p)).collect();
        assert_eq!(Value::from(winners), g["winners"], "{at}");
        assert_eq!(o.reason.as_str(), text(g, "reason"), "{at}");
        let scores: Vec<i64> = s.scores()[..players as usize]
            .iter()
            .map(|&x| i64::from(x))
            .collect();
        assert_eq!(Value::from(scores), g["scores"], "{at}");

        let mut t = G::new_game(&config).expect("dealt above");
        let mut rng = SplitMix64::new(number(g, "playout_seed"));
        assert_eq!(random_playout(&mut t, &mut rng), actions.len(), "{at}");
        assert_eq!(t, s, "{at}: random_playout plays the recorded game");
    }
}

#[test]
fn base_traces() {
    replay_traces::<BaseState>("base", BASE_AT_LEAST.1);
}

#[test]
fn duel_traces() {
    replay_traces::<DuelState>("duel", DUEL_AT_LEAST.1);
}

#[test]
fn marvel_traces() {
    replay_traces::<MarvelState>("marvel", MARVEL_AT_LEAST.1);
}
