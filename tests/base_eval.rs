//! The heuristic: bounds, terminal values, and strength as a one-ply greedy player.

mod base_common;

use base_common::*;
use splendor::game::{ActionList, Config, Game};
use splendor::rng::SplitMix64;
use splendor::variants::base::BaseState;

fn greedy_move(s: &BaseState, list: &ActionList) -> splendor::Action {
    let me = s.current_player().unwrap();
    let mut best = (f32::MIN, list.as_slice()[0]);
    for &a in list.as_slice() {
        let mut c = *s;
        c.apply_unchecked(a);
        let h = c.heuristic(me);
        assert!((0.0..=1.0).contains(&h));
        if h > best.0 {
            best = (h, a);
        }
    }
    best.1
}

/// Greedy in seat `greedy_seat` against uniform random play; 1 if greedy wins alone.
fn duel(seed: u64, greedy_seat: u8) -> (f32, u32) {
    let mut s = BaseState::new_game(&Config {
        num_players: 2,
        seed,
        turn_cap: 100,
    })
    .unwrap();
    let mut rng = SplitMix64::new(seed.wrapping_mul(31) + 1);
    let mut list = ActionList::new();
    while let Some(p) = s.current_player() {
        s.legal_actions(&mut list);
        let a = if p == greedy_seat {
            greedy_move(&s, &list)
        } else {
            list.as_slice()[rng.below(list.len() as u64) as usize]
        };
        s.apply_unchecked(a);
    }
    (
        s.outcome().unwrap().returns()[greedy_seat as usize] as f32,
        s.turn(),
    )
}

#[test]
fn greedy_on_the_heuristic_beats_random() {
    let games = if cfg!(debug_assertions) { 20 } else { 200 };
    let mut score = 0.0;
    let mut turns = 0;
    for g in 0..games {
        let (r, t) = duel(g, (g % 2) as u8);
        score += r;
        turns += t;
    }
    let rate = score / games as f32;
    eprintln!(
        "greedy vs random: {rate:.3} over {games} games, {:.1} turns/game",
        turns as f32 / games as f32
    );
    assert!(rate >= 0.95, "greedy scored only {rate}");
}

#[test]
fn terminal_values_and_range() {
    let mut s = new_game(3, 2);
    for p in 0..3 {
        let h = s.heuristic(p);
        assert!((h - 0.5).abs() < 1e-6, "a symmetric opening is even: {h}");
    }
    let mut rng = SplitMix64::new(4);
    splendor::playout::random_playout(&mut s, &mut rng);
    let o = s.outcome().unwrap();
    for p in 0..3u8 {
        let expect = o.returns()[p as usize] as f32;
        assert_eq!(s.heuristic(p), expect);
    }
    // A clear lead is worth more than even.
    let mut v = to_value(&new_game(2, 3));
    give_cards(&mut v, 0, &[70, 74]);
    let s = load(&v);
    assert!(s.heuristic(0) > 0.7 && s.heuristic(1) < 0.3);
}
