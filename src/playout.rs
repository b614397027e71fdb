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
        // Same draw and same action as `legal[rng.below(len)]`, without
        // listing the actions where the variant knows them as a mask.
        let Some(a) = state.random_legal_action(rng, &mut list) else {
            break;
        };
        state.apply_unchecked(a);
        decisions += 1;
    }
    decisions
}

#[cfg(test)]
mod tests {
    use crate::game::{ActionList, Config, Game};
    use crate::rng::SplitMix64;
    use crate::variants::{base::BaseState, duel::DuelState, marvel::MarvelState};

    /// Every variant's `random_legal_action` draws the same number and picks
    /// the same action as `legal[rng.below(len)]` over the listed actions,
    /// in every position of random games.
    fn agrees_with_the_list<G: Game>(players: u8) {
        let mut list = ActionList::new();
        let mut scratch = ActionList::new();
        let mut decisions = 0;
        for seed in 0..200u64 {
            let config = Config {
                num_players: players,
                seed,
                turn_cap: 100,
            };
            let mut s = G::new_game(&config).expect("valid");
            let mut rng = SplitMix64::new(seed);
            loop {
                let mut listed = rng;
                s.legal_actions(&mut list);
                let expected = (!list.is_empty())
                    .then(|| list.as_slice()[listed.below(list.len() as u64) as usize]);
                let got = s.random_legal_action(&mut rng, &mut scratch);
                assert_eq!(got, expected, "{} seed {seed}", G::VARIANT);
                assert_eq!(rng.next_u64(), listed.next_u64(), "the same draws");
                let Some(a) = got else { break };
                s.apply_unchecked(a);
                decisions += 1;
            }
        }
        assert!(decisions > 10_000, "{decisions}");
    }

    #[test]
    fn random_legal_action_agrees_with_the_list() {
        agrees_with_the_list::<BaseState>(2);
        agrees_with_the_list::<BaseState>(4);
        agrees_with_the_list::<DuelState>(2);
        agrees_with_the_list::<MarvelState>(3);
    }
}
