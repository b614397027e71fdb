//! Self-play data for training a policy/value network, generic over [`Game`].
//!
//! A game is a pure function of its seed and the settings: the deal, every
//! search seed and every sampled move come from streams derived from the game
//! seed (see `docs/network.md`), so any game of a run can be regenerated, and
//! games can be spread over threads or machines in any order. Each decision at
//! which the mover has two or more legal actions becomes one sample: the
//! mover's observation, the legal mask, the root visit distribution (policy
//! target) and, once the game is over, the returns rotated to the mover
//! (value target) and every seat's final points (an auxiliary target).
//!
//! With playout-cap randomisation (`fast_iterations`), only a random share
//! of the decisions get the full search and become samples; the others are
//! played after a small search without root noise and are not recorded, so
//! a run plays more games, and so more independent results, per hour.

use crate::game::{Action, ActionList, Config, Game, GameError, Outcome, MAX_PLAYERS};
use crate::rng::SplitMix64;
use crate::search::{search, SearchConfig, SearchResult};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Everything a self-play game needs besides its seed.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfPlayConfig {
    /// Seats per game.
    pub players: u8,
    /// Rounds after which a game is truncated.
    pub turn_cap: u32,
    /// The search run at every decision with two or more legal actions
    /// (its `seed` is replaced by one drawn from the game's stream).
    pub search: SearchConfig,
    /// For this many of the game's first decisions (counting every decision,
    /// forced or not) the move is sampled in proportion to the root visit
    /// counts; afterwards the most visited move is played.
    pub temperature_moves: u32,
    /// Playout-cap randomisation: `0` searches every decision with the full
    /// budget; otherwise a decision gets the full search (and becomes a
    /// sample) with probability `full_search_fraction`, and a search of this
    /// many iterations, without root noise and not recorded, otherwise.
    pub fast_iterations: u64,
    /// The share of decisions searched in full when `fast_iterations > 0`.
    pub full_search_fraction: f64,
}

impl SelfPlayConfig {
    /// Checks the settings (the search's own, and the game options).
    pub fn validate<G: Game>(&self) -> Result<(), GameError> {
        self.search.validate()?;
        if self.search.iterations == 0 {
            // A time budget would make the games depend on the machine.
            return Err(GameError::Config(
                "self-play needs an iteration budget (iterations >= 1), not a time limit".into(),
            ));
        }
        if self.fast_iterations > 0 {
            if self.fast_iterations >= self.search.iterations {
                return Err(GameError::Config(format!(
                    "fast_iterations ({}) must be below iterations ({})",
                    self.fast_iterations, self.search.iterations
                )));
            }
            if !(self.full_search_fraction > 0.0 && self.full_search_fraction <= 1.0) {
                return Err(GameError::Config(format!(
                    "full_search_fraction must be in (0, 1], got {}",
                    self.full_search_fraction
                )));
            }
        }
        G::new_game(&self.game_config(0)).map(|_| ())
    }

    fn game_config(&self, seed: u64) -> Config {
        Config {
            num_players: self.players,
            seed,
            turn_cap: self.turn_cap,
        }
    }
}

/// The seed of game `game_id` of a run with seed `run_seed`.
pub fn game_seed(run_seed: u64, game_id: u64) -> u64 {
    SplitMix64::new(run_seed ^ game_id.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

/// The stream a game's searches and move sampling draw from.
fn search_stream(game_seed: u64) -> SplitMix64 {
    SplitMix64::new(game_seed ^ 0xD1B5_4A32_D192_ED03)
}

/// One finished game's samples, flattened row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game's id in its run.
    pub game_id: u64,
    /// Its seed ([`game_seed`]).
    pub game_seed: u64,
    /// Number of samples (rows).
    pub samples: usize,
    /// `samples x OBSERVATION_SIZE` observations of the mover.
    pub obs: Vec<f32>,
    /// `samples x NUM_ACTIONS` legal masks.
    pub mask: Vec<bool>,
    /// `samples x NUM_ACTIONS` root visit distributions.
    pub policy: Vec<f32>,
    /// `samples x players` returns rotated to the mover (column 0 = mover).
    pub returns: Vec<f32>,
    /// `samples x players` final points of each seat, rotated to the mover
    /// like `returns`.
    pub points: Vec<f32>,
    /// The search's value of the root for the mover, per sample: the
    /// visit-weighted mean reward of the root's children, in `[0, 1]`. A
    /// smoother value target than the one game's result (see
    /// `docs/network.md`).
    pub q: Vec<f32>,
    /// The decision index of each sample in its game.
    pub ply: Vec<u32>,
    /// The mover (seat) of each sample.
    pub player: Vec<u8>,
    /// Decisions in the game, forced ones included.
    pub decisions: u32,
    /// How the game ended.
    pub outcome: Outcome,
}

/// Appends one sample: the mover's observation, the legal mask, the root's
/// visit distribution and its value (the result columns come at the end).
fn record_sample<G: Game>(
    record: &mut GameRecord,
    state: &G,
    mover: u8,
    actions: &[Action],
    result: &SearchResult,
    obs: &mut [f32],
) {
    let total: u64 = result.stats.iter().map(|s| s.visits).sum();
    state.observation(mover, obs);
    record.obs.extend_from_slice(obs);
    let row = record.mask.len();
    record.mask.resize(row + G::NUM_ACTIONS, false);
    record.policy.resize(row + G::NUM_ACTIONS, 0.0);
    for a in actions {
        record.mask[row + a.index()] = true;
    }
    for s in &result.stats {
        record.policy[row + s.action.index()] = (s.visits as f64 / total.max(1) as f64) as f32;
    }
    let weighted: f64 = result.stats.iter().map(|s| s.value * s.visits as f64).sum();
    record.q.push((weighted / total.max(1) as f64) as f32);
    record.ply.push(record.decisions);
    record.samples += 1;
    record.player.push(mover);
}

/// Plays game `game_id` of a run; `None` when `stop` was raised first (the
/// game in progress is dropped).
///
/// Errors: invalid settings (see [`SelfPlayConfig::validate`]).
pub fn play_game<G: Game>(
    cfg: &SelfPlayConfig,
    run_seed: u64,
    game_id: u64,
    stop: &AtomicBool,
) -> Result<Option<GameRecord>, GameError> {
    let seed = game_seed(run_seed, game_id);
    let mut state = G::new_game(&cfg.game_config(seed))?;
    let mut rng = search_stream(seed);
    let players = state.num_players();
    let mut record = GameRecord {
        game_id,
        game_seed: seed,
        samples: 0,
        obs: Vec::new(),
        mask: Vec::new(),
        policy: Vec::new(),
        returns: Vec::new(),
        points: Vec::new(),
        q: Vec::new(),
        ply: Vec::new(),
        player: Vec::new(),
        decisions: 0,
        outcome: Outcome {
            winners: 0,
            reason: crate::game::EndReason::Truncated,
            num_players: players as u8,
        },
    };
    let mut legal = ActionList::new();
    let mut obs = vec![0.0f32; G::OBSERVATION_SIZE];
    while let Some(mover) = state.current_player() {
        if stop.load(Ordering::Relaxed) {
            return Ok(None);
        }
        state.legal_actions(&mut legal);
        let chosen = match legal.as_slice() {
            [] => {
                return Err(GameError::InvalidState(
                    "self-play reached a non-terminal state with no legal action".into(),
                ))
            }
            [only] => *only,
            actions => {
                // Drawn only with the cap on, so that runs without it keep
                // their streams (and their games) unchanged.
                let full = cfg.fast_iterations == 0 || rng.next_f64() < cfg.full_search_fraction;
                let search_cfg = if full {
                    SearchConfig {
                        seed: rng.next_u64(),
                        ..cfg.search.clone()
                    }
                } else {
                    SearchConfig {
                        seed: rng.next_u64(),
                        iterations: cfg.fast_iterations,
                        root_noise: None,
                        ..cfg.search.clone()
                    }
                };
                let result = search(&state, &search_cfg)?;
                let total: u64 = result.stats.iter().map(|s| s.visits).sum();
                if full {
                    record_sample::<G>(&mut record, &state, mover, actions, &result, &mut obs);
                }
                if record.decisions < cfg.temperature_moves && total > 0 {
                    // Sample in proportion to the visits.
                    let mut pick = rng.below(total);
                    result
                        .stats
                        .iter()
                        .find(|s| {
                            if pick < s.visits {
                                true
                            } else {
                                pick -= s.visits;
                                false
                            }
                        })
                        .map_or(result.action, |s| s.action)
                } else {
                    result.action
                }
            }
        };
        state.apply_unchecked(chosen);
        record.decisions += 1;
    }
    let outcome = state
        .outcome()
        .ok_or_else(|| GameError::InvalidState("self-play ended without an outcome".into()))?;
    let returns: [f32; MAX_PLAYERS] = outcome.returns().map(|r| r as f32);
    let points: [f32; MAX_PLAYERS] = state.scores().map(|p| p as f32);
    for &mover in &record.player {
        for k in 0..players {
            record.returns.push(returns[(mover as usize + k) % players]);
            record.points.push(points[(mover as usize + k) % players]);
        }
    }
    record.outcome = outcome;
    Ok(Some(record))
}

/// Plays the games `game_ids` on `threads` threads, handing each finished
/// game to `on_game` on the calling thread as soon as it is done (so a caller
/// can store it at once: an interrupted run loses only the games in
/// progress). `on_game` returning `false`, or `stop` being raised (by the
/// caller's `poll`, called about every 50 ms while waiting), stops every
/// thread after its current decision. Returns the number of games handed
/// over.
pub fn play_games<G: Game>(
    cfg: &SelfPlayConfig,
    run_seed: u64,
    game_ids: &[u64],
    threads: usize,
    stop: &AtomicBool,
    mut poll: impl FnMut() -> bool,
    mut on_game: impl FnMut(GameRecord) -> bool,
) -> Result<usize, GameError> {
    cfg.validate::<G>()?;
    if threads == 0 || threads > 256 {
        return Err(GameError::Config(format!(
            "threads must be between 1 and 256, got {threads}"
        )));
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<GameRecord, GameError>>();
    let mut handed = 0usize;
    let mut failure = None;
    std::thread::scope(|s| {
        for _ in 0..threads.min(game_ids.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&id) = game_ids.get(i) else { break };
                match play_game::<G>(cfg, run_seed, id, stop) {
                    Ok(Some(r)) => {
                        if tx.send(Ok(r)).is_err() {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            });
        }
        drop(tx);
        let interval = Duration::from_millis(50);
        let mut last_poll = Instant::now();
        loop {
            let received = rx.recv_timeout(interval);
            if last_poll.elapsed() >= interval {
                last_poll = Instant::now();
                if !stop.load(Ordering::Relaxed) && !poll() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            match received {
                Ok(Ok(r)) => {
                    // After a stop, games still arriving are dropped: the
                    // caller asked for nothing more.
                    if !stop.load(Ordering::Relaxed) {
                        handed += 1;
                        if !on_game(r) {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
                Ok(Err(e)) => {
                    failure.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(handed),
    }
}
