//! The Rust engine replays the reference engine's seeded random playouts
//! (`tests/data/duel/golden_playouts.json`, written by `make_duel_golden.py`):
//! same deal, same decision count, byte-identical final JSON. This is the
//! cross-engine check that needs no Python bindings.

use serde_json::Value;
use splendor::variants::duel::DuelState;
use splendor::{ActionList, Config, Game, SplitMix64};

#[test]
fn rust_replays_the_reference_playouts() {
    let text =
        std::fs::read_to_string("tests/data/duel/golden_playouts.json").expect("golden file");
    let games: Vec<Value> = serde_json::from_str(&text).expect("golden JSON");
    assert!(games.len() >= 20);
    let mut list = ActionList::new();
    for g in games {
        let seed = g["seed"].as_u64().expect("seed");
        let mut s = DuelState::new_game(&Config {
            num_players: 2,
            seed,
            turn_cap: 100,
        })
        .expect("valid config");
        assert_eq!(
            s.to_json(None),
            g["start"].as_str().expect("start"),
            "seed {seed}"
        );
        let mut rng = SplitMix64::new(seed);
        let mut n = 0;
        while !s.is_terminal() {
            s.legal_actions(&mut list);
            let a = list.as_slice()[rng.below(list.len() as u64) as usize];
            s.apply_unchecked(a);
            n += 1;
        }
        assert_eq!(
            n,
            g["decisions"].as_u64().expect("decisions"),
            "seed {seed}"
        );
        assert_eq!(
            s.to_json(None),
            g["final"].as_str().expect("final"),
            "seed {seed}"
        );
    }
}
