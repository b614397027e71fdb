//! `random_games`: many uniformly random games in one Python call, played in
//! Rust with the GIL released, so Python pays the call overhead once.

use crate::cancel::Cancel;
use crate::game::{Config, Game, MAX_PLAYERS};
use crate::playout::random_playout;
use crate::rng::SplitMix64;
use std::time::Instant;

/// Totals over a batch of random games.
#[derive(Default)]
pub(crate) struct Totals {
    pub games: u64,
    pub decisions: u64,
    pub turns: u64,
    pub truncated: u64,
    pub stalled: u64,
    pub shared: u64,
    pub wins: [u64; MAX_PLAYERS],
    pub elapsed: f64,
}

/// Plays `n` games: game `i` is dealt from seed `seed + i` and played with
/// `SplitMix64(seed + i)` by [`random_playout`], so the reference engine's
/// `random_playout` replays any of them. Stops before the next game once
/// `cancel` is set (a game takes microseconds), with the totals so far.
pub(crate) fn run<G: Game>(
    config: Config,
    n: u64,
    cancel: &Cancel,
) -> Result<Totals, crate::game::GameError> {
    // Validate the configuration once, before timing.
    G::new_game(&config)?;
    let start = Instant::now();
    let mut t = Totals::default();
    for i in 0..n {
        if cancel.poll() {
            break;
        }
        let s = config.seed.wrapping_add(i);
        let mut state = G::new_game(&Config { seed: s, ..config })?;
        let mut rng = SplitMix64::new(s);
        t.decisions += random_playout(&mut state, &mut rng) as u64;
        t.turns += u64::from(state.turns());
        if let Some(o) = state.outcome() {
            t.truncated += u64::from(o.truncated());
            t.stalled += u64::from(o.stalled());
            t.shared += u64::from(o.winners.count_ones() > 1);
            for (p, w) in t.wins.iter_mut().enumerate() {
                *w += u64::from(o.winners & (1 << p) != 0);
            }
        }
        t.games += 1;
    }
    t.elapsed = start.elapsed().as_secs_f64();
    Ok(t)
}
