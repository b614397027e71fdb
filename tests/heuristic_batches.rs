//! The batched forms of the heuristic that the search calls, `heuristics`
//! (every seat at a rollout cut-off) and `child_values` (the priors of a new
//! node's children), give bit for bit what `heuristic` and `one_ply_value`
//! give one at a time, in every variant, player count and phase, terminal
//! positions included: a variant that overrides them to share work plays
//! the same searches.

use splendor::game::{one_ply_value, MAX_PLAYERS};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::variants::marvel::MarvelState;
use splendor::{ActionList, Config, Game, SplitMix64};

fn check<G: Game>(players: u8, games: u64) -> usize {
    let mut list = ActionList::new();
    let mut checked = 0;
    for seed in 0..games {
        let mut s = G::new_game(&Config {
            num_players: players,
            seed,
            turn_cap: 100,
        })
        .expect("valid config");
        let mut rng = SplitMix64::new(seed);
        loop {
            let all = s.heuristics();
            for (p, h) in all.iter().enumerate() {
                let want = if p < usize::from(players) {
                    s.heuristic(p as u8)
                } else {
                    0.0
                };
                assert_eq!(
                    h.to_bits(),
                    want.to_bits(),
                    "{} seed {seed} seat {p}",
                    G::VARIANT
                );
            }
            if s.is_terminal() {
                break;
            }
            s.legal_actions(&mut list);
            let legal = list.as_slice();
            for mover in 0..players {
                let mut got = vec![f32::NAN; legal.len()];
                s.child_values(legal, mover, &mut got);
                for (&a, g) in legal.iter().zip(&got) {
                    let want = one_ply_value(&s, a, mover);
                    assert_eq!(
                        g.to_bits(),
                        want.to_bits(),
                        "{} seed {seed} {a:?}",
                        G::VARIANT
                    );
                    checked += 1;
                }
            }
            s.apply_unchecked(legal[rng.below(legal.len() as u64) as usize]);
        }
    }
    assert!(MAX_PLAYERS >= usize::from(players));
    checked
}

#[test]
fn base_batches_are_the_one_by_one_values() {
    for players in 2..=4 {
        assert!(check::<BaseState>(players, 12) > 10_000);
    }
}

#[test]
fn duel_batches_are_the_one_by_one_values() {
    assert!(check::<DuelState>(2, 6) > 10_000);
}

#[test]
fn marvel_batches_are_the_one_by_one_values() {
    for players in 2..=4 {
        assert!(check::<MarvelState>(players, 10) > 10_000);
    }
}
