//! Replays games recorded by the reference engine (tests/data/marvel/traces.json,
//! written by tests/marvel_traces.py): same seed, same deal, same legal lists,
//! same JSON and outcome. The full differential suite runs through the bindings.

use splendor::game::{Action, ActionList, Config, Game};
use splendor::rng::SplitMix64;
use splendor::variants::marvel::MarvelState;

#[test]
fn rust_replays_the_reference_games() {
    let text = include_str!("data/marvel/traces.json");
    let games: serde_json::Value = serde_json::from_str(text).unwrap();
    let games = games.as_array().unwrap();
    assert_eq!(games.len(), 15);
    for g in games {
        let n = g["players"].as_u64().unwrap() as u8;
        let seed = g["seed"].as_u64().unwrap();
        let mut s = MarvelState::new_game(&Config {
            num_players: n,
            seed,
            turn_cap: 100,
        })
        .unwrap();
        let mut rng = SplitMix64::new(seed ^ 0xABCD);
        let mut legal = ActionList::new();
        let actions = g["actions"].as_array().unwrap();
        let lengths = g["legal_lengths"].as_array().unwrap();
        for (i, a) in actions.iter().enumerate() {
            if let Some(snap) = g["snapshots"].get(i.to_string()) {
                assert_eq!(
                    s.to_json(None),
                    snap.as_str().unwrap(),
                    "n={n} seed={seed} step {i}"
                );
            }
            s.legal_actions(&mut legal);
            assert_eq!(
                legal.len() as u64,
                lengths[i].as_u64().unwrap(),
                "n={n} seed={seed} step {i}"
            );
            let chosen = legal.as_slice()[rng.below(legal.len() as u64) as usize];
            assert_eq!(
                chosen,
                Action(a.as_u64().unwrap() as u16),
                "n={n} seed={seed} step {i}"
            );
            s.apply(chosen).unwrap();
        }
        assert!(s.is_terminal());
        assert_eq!(s.to_json(None), g["final"].as_str().unwrap());
        assert_eq!(s.to_json(Some(1)), g["final_view_1"].as_str().unwrap());
        let o = s.outcome().unwrap();
        let winners: Vec<u64> = o.winner_list().iter().map(|&p| u64::from(p)).collect();
        let expected: Vec<u64> = g["winners"]
            .as_array()
            .unwrap()
            .iter()
            .map(|w| w.as_u64().unwrap())
            .collect();
        assert_eq!(winners, expected);
        assert_eq!(o.reason.as_str(), g["reason"].as_str().unwrap());
        for p in 0..n as usize {
            assert_eq!(i64::from(s.scores()[p]), g["scores"][p].as_i64().unwrap());
        }
    }
}
