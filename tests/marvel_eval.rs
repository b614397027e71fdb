//! The Marvel heuristic makes a sensible one-ply greedy bot: it beats a
//! uniformly random player by a wide margin (seats alternated).

use splendor::game::{ActionList, Config, Game, Player};
use splendor::rng::SplitMix64;
use splendor::variants::marvel::MarvelState;

/// The action whose child state has the best heuristic for the mover (ties:
/// the lowest id).
fn greedy(s: &MarvelState, me: Player, legal: &ActionList) -> splendor::game::Action {
    let mut best = (f32::MIN, legal.as_slice()[0]);
    for &a in legal.as_slice() {
        let mut c = *s;
        c.apply_unchecked(a);
        let v = c.heuristic(me);
        if v > best.0 {
            best = (v, a);
        }
    }
    best.1
}

#[test]
fn greedy_beats_random() {
    let games = if cfg!(debug_assertions) { 40 } else { 200 };
    let mut greedy_wins = 0.0f32;
    for g in 0..games {
        let greedy_seat = (g % 2) as Player;
        let cfg = Config {
            num_players: 2,
            seed: g as u64,
            turn_cap: 100,
        };
        let mut s = MarvelState::new_game(&cfg).unwrap();
        let mut rng = SplitMix64::new(g as u64);
        let mut legal = ActionList::new();
        while let Some(p) = s.current_player() {
            s.legal_actions(&mut legal);
            let a = if p == greedy_seat {
                greedy(&s, p, &legal)
            } else {
                legal.as_slice()[rng.below(legal.len() as u64) as usize]
            };
            s.apply(a).unwrap();
        }
        greedy_wins += s.outcome().unwrap().returns()[greedy_seat as usize] as f32;
    }
    let rate = greedy_wins / games as f32;
    eprintln!("greedy vs random: {rate:.3} over {games} games");
    assert!(rate > 0.8, "greedy won only {rate:.2} of {games} games");
}
