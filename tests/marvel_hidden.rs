//! Hidden information: two states that differ only in a card seat 1 reserved
//! blind look the same to seats 0 and 2 (view, observation, legal actions,
//! determinization), and different to seat 1.

use serde_json::Value;
use splendor::game::{ActionList, Config, Game};
use splendor::rng::SplitMix64;
use splendor::variants::marvel::actions::{RECRUIT, RESERVE_DECK};
use splendor::variants::marvel::{MarvelState, OBSERVATION_SIZE};

fn with_hidden_reserve() -> MarvelState {
    let cfg = Config {
        num_players: 3,
        seed: 21,
        turn_cap: 100,
    };
    let mut s = MarvelState::new_game(&cfg).unwrap();
    let mut rng = SplitMix64::new(21);
    let mut legal = ActionList::new();
    loop {
        let v: Value = serde_json::from_str(&s.to_json(None)).unwrap();
        let hidden = v["players"][1]["reserved"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["hidden"] == true);
        if hidden && s.current_player() == Some(2) {
            return s;
        }
        s.legal_actions(&mut legal);
        let blind = legal
            .as_slice()
            .iter()
            .copied()
            .find(|a| (RESERVE_DECK..RECRUIT).contains(&a.0));
        let a = match blind {
            Some(b) if s.current_player() == Some(1) => b,
            _ => legal.as_slice()[rng.below(legal.len() as u64) as usize],
        };
        s.apply(a).unwrap();
    }
}

fn obs(s: &MarvelState, p: u8) -> Vec<f32> {
    let mut o = vec![0.0; OBSERVATION_SIZE];
    s.observation(p, &mut o);
    o
}

#[test]
fn a_blind_reserve_does_not_leak() {
    let s = with_hidden_reserve();
    let mut v: Value = serde_json::from_str(&s.to_json(None)).unwrap();
    let reserved = v["players"][1]["reserved"].as_array().unwrap().clone();
    let i = reserved.iter().position(|r| r["hidden"] == true).unwrap();
    let lv = reserved[i]["level"].as_u64().unwrap() as usize - 1;
    let mine = v["players"][1]["reserved"][i]["card"].clone();
    let top = v["decks"][lv][0].clone();
    v["players"][1]["reserved"][i]["card"] = top;
    v["decks"][lv][0] = mine;
    let t = MarvelState::from_json(&v.to_string()).unwrap();
    assert_ne!(t.to_json(None), s.to_json(None));
    for viewer in [0u8, 2] {
        assert_eq!(t.to_json(Some(viewer)), s.to_json(Some(viewer)));
        assert_eq!(obs(&t, viewer), obs(&s, viewer));
        let a = t.determinize(viewer, &mut SplitMix64::new(5));
        let b = s.determinize(viewer, &mut SplitMix64::new(5));
        assert_eq!(a.to_json(None), b.to_json(None));
        assert_eq!(t.heuristic(viewer), s.heuristic(viewer));
    }
    let (mut l1, mut l2) = (ActionList::new(), ActionList::new());
    t.legal_actions(&mut l1);
    s.legal_actions(&mut l2);
    assert_eq!(l1.as_slice(), l2.as_slice());
    assert_ne!(t.to_json(Some(1)), s.to_json(Some(1)));
    assert_ne!(obs(&t, 1), obs(&s, 1));
}
