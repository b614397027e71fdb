//! Hidden information: views, observations and determinization never depend
//! on what the observer cannot see.

mod base_common;

use base_common::*;
use serde_json::Value;
use splendor::game::Game;
use splendor::rng::SplitMix64;
use splendor::variants::base::observe::OBSERVATION_SIZE;
use splendor::variants::base::BaseState;

/// Seat 1 (and seat 0) hold blind reserves; seat 0 is to play.
fn position() -> BaseState {
    let mut s = new_game(3, 21);
    for t in [
        "reserve deck 1",
        "reserve deck 1",
        "reserve 2.2",
        "take wug",
        "reserve deck 3",
        "take urk",
    ] {
        play(&mut s, t);
    }
    assert_eq!(s.current_player(), Some(0));
    s
}

/// The same public position with seat 1's and seat 2's hidden cards and all decks changed.
fn twin(s: &BaseState, seed: u64) -> BaseState {
    let mut v = to_value(s);
    let mut rng = SplitMix64::new(seed);
    for l in 0..3 {
        // Pool each level's deck with the level's hidden reserves of seats 1 and 2, then re-deal.
        let mut pool: Vec<Value> = v["decks"][l].as_array().unwrap().clone();
        let mut holders = Vec::new();
        for p in 1..3 {
            for (i, r) in v["players"][p]["reserved"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
            {
                if r["hidden"] == Value::Bool(true) && r["level"] == serde_json::json!(l + 1) {
                    pool.push(r["card"].clone());
                    holders.push((p, i));
                }
            }
        }
        rng.shuffle(&mut pool);
        for (k, &(p, i)) in holders.iter().enumerate() {
            v["players"][p]["reserved"][i]["card"] = pool[k].clone();
        }
        v["decks"][l] = Value::Array(pool[holders.len()..].to_vec());
    }
    load(&v)
}

#[test]
fn observer_sees_the_same_in_both_twins() {
    let a = position();
    let mut found_different = false;
    for seed in 0..20 {
        let b = twin(&a, seed);
        found_different |= a != b;
        let (mut oa, mut ob) = (vec![0.0; OBSERVATION_SIZE], vec![0.0; OBSERVATION_SIZE]);
        a.observation(0, &mut oa);
        b.observation(0, &mut ob);
        assert_eq!(oa, ob);
        assert_eq!(a.to_json(Some(0)), b.to_json(Some(0)));
        assert_eq!(legal(&a), legal(&b));
        let da = a.determinize(0, &mut SplitMix64::new(5));
        let db = b.determinize(0, &mut SplitMix64::new(5));
        assert_eq!(da, db, "determinization must not depend on hidden cards");
    }
    assert!(found_different, "the twins really differ in hidden cards");
}

#[test]
fn determinize_keeps_the_observers_view_and_conserves_cards() {
    let s = position();
    let mut changed = false;
    for seed in 0..20 {
        for observer in 0..3u8 {
            let d = s.determinize(observer, &mut SplitMix64::new(seed));
            assert_eq!(d.to_json(Some(observer)), s.to_json(Some(observer)));
            // A consistent full state: the loader's conservation checks pass.
            assert_eq!(BaseState::from_json(&d.to_json(None)), Ok(d));
            changed |= d != s;
        }
    }
    assert!(changed);
    // The observer's own blind reserve is never resampled.
    let d = s.determinize(0, &mut SplitMix64::new(1));
    assert_eq!(d.reserved(0), s.reserved(0));
}

#[test]
fn determinize_follows_the_contract_order() {
    // Pool per level = deck + opponents' hidden reserves, sorted, shuffled,
    // dealt to the reserves (seat order) then the deck from the top.
    let s = position();
    let v = to_value(&s);
    let d = to_value(&s.determinize(1, &mut SplitMix64::new(9)));
    let mut rng = SplitMix64::new(9);
    for l in 0..3 {
        let mut pool: Vec<u64> = v["decks"][l]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_u64().unwrap())
            .collect();
        let mut holders = Vec::new();
        for p in [0usize, 2] {
            for (i, r) in v["players"][p]["reserved"]
                .as_array()
                .unwrap()
                .iter()
                .enumerate()
            {
                if r["hidden"] == Value::Bool(true) && r["level"] == serde_json::json!(l + 1) {
                    pool.push(r["card"].as_u64().unwrap());
                    holders.push((p, i));
                }
            }
        }
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        for (k, &(p, i)) in holders.iter().enumerate() {
            assert_eq!(
                d["players"][p]["reserved"][i]["card"],
                serde_json::json!(pool[k])
            );
        }
        assert_eq!(d["decks"][l], serde_json::json!(pool[holders.len()..]));
    }
}

#[test]
fn observation_layout() {
    let s = position();
    let mut o = vec![-1.0; OBSERVATION_SIZE];
    s.observation(1, &mut o);
    let v = to_value(&s);
    for c in 0..6 {
        assert_eq!(o[c], v["bank"][c].as_f64().unwrap() as f32);
    }
    // Board slot 0 of level 1: level 1, then points and the bonus one-hot.
    assert_eq!(o[6], 1.0);
    let card = v["board"][0][0].as_u64().unwrap() as u8;
    assert_eq!(o[8 + splendor::variants::base::cards::bonus(card)], 1.0);
    assert_eq!(o[8..13].iter().sum::<f32>(), 1.0);
    assert_eq!(&o[150..153], &[34.0, 25.0, 15.0]);
    // Seat 1 first: its own blind reserve is known (present=1, known=1).
    let me = 183;
    assert_eq!(o[me + 14], 1.0);
    assert_eq!(o[me + 15], 1.0);
    // Seat 2 (next) reserved face up: known to everyone.
    let next = 183 + 56;
    assert_eq!(&o[next + 14..next + 17], &[1.0, 1.0, 2.0]);
    // Seat 0 (after) has a hidden level-1 reserve: present, unknown, level 1, zeros.
    let after = 183 + 2 * 56;
    assert_eq!(
        &o[after + 14..after + 28],
        &[1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    );
    // Seat 4 absent in a 3-player game: all zero.
    assert!(o[183 + 3 * 56..183 + 4 * 56].iter().all(|&x| x == 0.0));
    assert_eq!(&o[407..412], &[1.0, 0.0, 0.0, 0.0, 0.0], "phase main");
    assert_eq!(o[427], 2.0, "two rounds complete");
    assert_eq!(&o[429..432], &[0.0, 1.0, 0.0], "3 players");
}

#[test]
fn render_shows_the_board() {
    let s = position();
    let r = s.render();
    for needle in [
        "bank", "nobles", "L3", "L2", "L1", "seat 0", "seat 2", "reserved", "(blind)",
    ] {
        assert!(r.contains(needle), "{needle} missing in\n{r}");
    }
    assert!(r.lines().count() >= 9);
}
