//! Uniformly random playouts, shared by tests, benches and the reference
//! engine's cross-checks (which draw the same `rng.below(len)` sequence).

use crate::game::{ActionList, Game};
use crate::rng::SplitMix64;

/// Plays `state` to the end choosing uniformly among the legal actions with
/// `rng.below(len)`; returns the number of decisions made.
pub fn random_playout<G: Game>(state: &mut G, rng: &mut SplitMix64) -> usize {
    let mut list = ActionList::new();
    let mut decisions = 0;
    while !state.is_terminal() {
        state.legal_actions(&mut list);
        if list.is_empty() {
            break;
        }
        let a = list.as_slice()[rng.below(list.len() as u64) as usize];
        state.apply_unchecked(a);
        decisions += 1;
    }
    decisions
}
