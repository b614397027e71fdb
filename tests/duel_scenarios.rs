//! The Rust engine runs the Duel scenario files of `tests/data/duel/` (the same
//! files `tests/test_duel_scenarios.py` runs on the reference engine): each a
//! position and steps with hand-written expectations.

use serde_json::Value;
use splendor::variants::duel::DuelState;
use splendor::{ActionList, Game, GameError};

fn field<'a>(mut v: &'a Value, path: &str) -> &'a Value {
    for part in path.split('.') {
        v = match part.parse::<usize>() {
            Ok(i) if v.is_array() => &v[i],
            _ => &v[part],
        };
    }
    v
}

fn legal_texts(s: &DuelState) -> Vec<String> {
    let mut list = ActionList::new();
    s.legal_actions(&mut list);
    list.as_slice()
        .iter()
        .map(|&a| DuelState::action_text(a))
        .collect()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

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

fn run_step(s: &mut DuelState, step: &Value, at: &str) {
    if let Some(text) = step["apply"].as_str() {
        let result = DuelState::parse_action(text).and_then(|a| s.apply(a));
        match step["error"].as_str() {
            Some(want) => {
                let before = s.to_json(None);
                let e = result.expect_err(at);
                assert_eq!(error_name(&e), want, "{at}: {e}");
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
    if !step["legal"].is_null() {
        assert_eq!(legal, strings(&step["legal"]), "{at}");
    }
    if !step["legal_takes"].is_null() {
        let takes: Vec<String> = legal
            .iter()
            .filter(|t| t.starts_with("take"))
            .cloned()
            .collect();
        assert_eq!(takes, strings(&step["legal_takes"]), "{at}");
    }
    for t in strings(&step["legal_has"]) {
        assert!(legal.contains(&t), "{at}: `{t}` should be legal");
    }
    for t in strings(&step["legal_lacks"]) {
        assert!(!legal.contains(&t), "{at}: `{t}` should not be legal");
    }
    let full: Value = serde_json::from_str(&s.to_json(None)).expect("JSON");
    if let Some(expect) = step["expect"].as_object() {
        for (path, want) in expect {
            assert_eq!(field(&full, path), want, "{at}: {path}");
        }
    }
    if let Some(scores) = step["scores"].as_array() {
        let got = s.scores();
        for (i, want) in scores.iter().enumerate() {
            assert_eq!(Some(i64::from(got[i])), want.as_i64(), "{at}: scores");
        }
    }
    if let Some(o) = step.get("outcome") {
        match (s.outcome(), o.is_null()) {
            (None, true) => {}
            (Some(out), false) => {
                let winners: Vec<u64> = out.winner_list().iter().map(|&p| u64::from(p)).collect();
                let want: Vec<u64> = o["winners"]
                    .as_array()
                    .expect("winners")
                    .iter()
                    .filter_map(Value::as_u64)
                    .collect();
                assert_eq!(winners, want, "{at}");
                assert_eq!(Some(out.reason.as_str()), o["reason"].as_str(), "{at}");
            }
            (got, _) => panic!("{at}: outcome {got:?}, expected {o}"),
        }
    }
    if let Some(r) = step["returns"].as_array() {
        let got = s.outcome().map(|o| o.returns()).unwrap_or_default();
        for (i, want) in r.iter().enumerate() {
            assert!(
                (got[i] - want.as_f64().unwrap_or(-1.0)).abs() < 1e-6,
                "{at}"
            );
        }
    }
}

#[test]
fn every_scenario_file_passes() {
    let mut n = 0;
    let mut paths: Vec<_> = std::fs::read_dir("tests/data/duel")
        .expect("scenario directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter(|p| !p.ends_with("golden_playouts.json"))
        .collect();
    paths.sort();
    for path in paths {
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let sc: Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
        let text = sc["state"].to_string();
        let mut s = DuelState::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(s.to_json(None), text, "{name}: must print back unchanged");
        for (i, step) in sc["steps"].as_array().expect("steps").iter().enumerate() {
            run_step(&mut s, step, &format!("{name} step {i}"));
        }
        n += 1;
    }
    assert!(n >= 30, "only {n} scenarios");
}
