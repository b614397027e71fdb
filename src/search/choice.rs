//! How a search's root statistics become a move: the most visited action, or,
//! with a move temperature, an action drawn in proportion to its visits raised
//! to `1 / T` ([`SearchConfig::move_temperature`](super::SearchConfig)).
//!
//! The draw is what the AI levels soften their play with: a search that
//! spreads its visits over a few good moves sometimes plays the second or
//! third of them, as a person would, and never a move the search did not
//! consider (an action without visits has no chance). It is seeded from the
//! search's own seed, so a bot's game is as reproducible as before.

use super::mcts::ActionStats;
use crate::game::Action;
use crate::rng::SplitMix64;

/// The action `stats` (non-empty) choose at `temperature` (> 0), drawn with
/// probability proportional to `visits ^ (1 / temperature)` by a stream
/// seeded from `seed`. Without any visit (a search stopped before its first
/// iteration) it is `fallback`.
pub(super) fn draw_by_visits(
    stats: &[ActionStats],
    temperature: f64,
    seed: u64,
    fallback: Action,
) -> Action {
    let most = stats.iter().map(|s| s.visits).max().unwrap_or(0);
    if most == 0 {
        return fallback;
    }
    // Relative to the most visited, so a low temperature cannot overflow:
    // each weight is in (0, 1], the most visited's is 1.
    let weight = |visits: u64| -> f64 {
        if visits == 0 {
            0.0
        } else {
            ((visits as f64 / most as f64).ln() / temperature).exp()
        }
    };
    let total: f64 = stats.iter().map(|s| weight(s.visits)).sum();
    // A stream of its own: the search's threads use `thread_seed(seed, t)`.
    let mut rng = SplitMix64::new(seed ^ 0x6C8E_9CF5_7093_2BD5);
    let mut left = rng.next_f64() * total;
    for s in stats {
        let w = weight(s.visits);
        if w > 0.0 && left < w {
            return s.action;
        }
        left -= w;
    }
    // Rounding left a sliver past the last weight: the last visited action.
    stats
        .iter()
        .rev()
        .find(|s| s.visits > 0)
        .map_or(fallback, |s| s.action)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(visits: &[u64]) -> Vec<ActionStats> {
        visits
            .iter()
            .enumerate()
            .map(|(i, &v)| ActionStats {
                action: Action(i as u16),
                visits: v,
                value: 0.5,
            })
            .collect()
    }

    fn frequencies(visits: &[u64], temperature: f64, draws: u64) -> Vec<f64> {
        let s = stats(visits);
        let mut counts = vec![0u64; visits.len()];
        for seed in 0..draws {
            let a = draw_by_visits(&s, temperature, seed, Action(0));
            counts[a.0 as usize] += 1;
        }
        counts.iter().map(|&c| c as f64 / draws as f64).collect()
    }

    #[test]
    fn draws_in_proportion_to_visits_at_temperature_one() {
        let f = frequencies(&[60, 30, 10, 0], 1.0, 20_000);
        for (got, want) in f.iter().zip([0.6, 0.3, 0.1, 0.0]) {
            assert!((got - want).abs() < 0.015, "{f:?}");
        }
        // An action the search never visited is never played.
        assert_eq!(f[3], 0.0);
    }

    #[test]
    fn a_lower_temperature_sharpens_and_a_higher_one_flattens() {
        // visits^(1/0.5): 3600, 900, 100 of 4600.
        let sharp = frequencies(&[60, 30, 10], 0.5, 20_000);
        assert!((sharp[0] - 3600.0 / 4600.0).abs() < 0.015, "{sharp:?}");
        // visits^(1/4): the shares move toward equal, the order stays.
        let flat = frequencies(&[60, 30, 10], 4.0, 20_000);
        assert!(
            flat[0] < 0.45 && flat[0] > flat[1] && flat[1] > flat[2],
            "{flat:?}"
        );
        // A temperature whose reciprocal is huge still draws the best.
        assert_eq!(frequencies(&[60, 59, 10], 1e-300, 100), vec![1.0, 0.0, 0.0]);
    }

    #[test]
    fn seeded_and_safe_without_visits() {
        let s = stats(&[5, 5, 5]);
        let a = draw_by_visits(&s, 1.0, 42, Action(0));
        assert_eq!(draw_by_visits(&s, 1.0, 42, Action(0)), a);
        assert_eq!(
            draw_by_visits(&stats(&[0, 0]), 1.0, 42, Action(1)),
            Action(1)
        );
    }
}
