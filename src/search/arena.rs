//! Matches: many seeded games between bots, in parallel, with statistics.
//!
//! Fairness: games come in groups of `players` that share one deal (the same
//! setup seed) and rotate the bots through the seats, so every bot plays every
//! seat equally often and luck of the deal cancels within a group. Every seed
//! (deal and bots) is derived from the match seed and the game index, and the
//! results are folded in game order, so the outcome does not depend on thread
//! timing or the number of threads.

use super::spec::BotSpec;
use super::stats::wilson_interval;
use crate::cancel::{Cancel, NEVER};
use crate::game::{range_message, Config, EndReason, Game, GameError, Outcome, MAX_PLAYERS};
use crate::rng::SplitMix64;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// What to play.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The bots, one per seat; fewer than `players` repeats the last one.
    pub bots: Vec<BotSpec>,
    /// Seats per game.
    pub players: u8,
    /// Number of games (a multiple of `players` gives exact seat balance).
    pub games: usize,
    /// Index of the first game: the match plays games `first_game ..
    /// first_game + games` of the match seeded `seed`, each exactly as the
    /// longer match from game 0 would play it, so a match can be split into
    /// chunks played apart (on other machines) and summed.
    pub first_game: usize,
    /// Match seed: deals and bot seeds derive from it.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Rounds before a game is truncated.
    pub turn_cap: u32,
}

impl Default for MatchConfig {
    fn default() -> Self {
        Self {
            bots: vec![BotSpec::Random, BotSpec::Random],
            players: 2,
            games: 100,
            first_game: 0,
            seed: 0,
            threads: 1,
            turn_cap: 100,
        }
    }
}

/// One bot's results.
#[derive(Clone, Debug, PartialEq)]
pub struct BotStats {
    /// The bot's description (`mcts:1000`, `greedy`, ...).
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Wins; a win shared by `k` players counts `1/k`. Counted exactly in
    /// twelfths ([`WIN_SHARES`]) and converted once, so the sum does not
    /// depend on the order of the games: `wins * 12` is an integer, and the
    /// wins of chunks of a match add up to the wins of the whole.
    pub wins: f64,
    /// `wins / games`.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub ci_low: f64,
    /// Upper end of the interval.
    pub ci_high: f64,
}

/// The whole match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    /// The variant's name.
    pub variant: String,
    /// Seats per game.
    pub players: u8,
    /// Games played.
    pub games: u64,
    /// Per bot, in the order given.
    pub bots: Vec<BotStats>,
    /// Games won by more than one player.
    pub draws: u64,
    /// Games ended by the turn cap (nobody wins).
    pub truncated: u64,
    /// Games ended because every player had to pass.
    pub stalled: u64,
    /// Mean decisions per game.
    pub avg_decisions: f64,
    /// Mean completed turns per game.
    pub avg_turns: f64,
    /// How many games ended for each reason, in [`REASONS`] order.
    pub reasons: [u64; 6],
}

/// Shares of one win: a win shared by `k` players (`k` in 1..=4) is
/// `WIN_SHARES / k` shares, an integer.
pub const WIN_SHARES: u64 = 12;

/// End reasons in the order of [`MatchResult::reasons`].
pub const REASONS: [EndReason; 6] = [
    EndReason::Points,
    EndReason::Crowns,
    EndReason::Colour,
    EndReason::Gauntlet,
    EndReason::Stalled,
    EndReason::Truncated,
];

impl MatchResult {
    /// Compact JSON with sorted keys (the contract's canonical form).
    pub fn to_json(&self) -> String {
        let bots: Vec<serde_json::Value> = self
            .bots
            .iter()
            .map(|b| {
                serde_json::json!({
                    "name": b.name, "games": b.games, "wins": b.wins,
                    "win_rate": b.win_rate, "ci_low": b.ci_low, "ci_high": b.ci_high,
                })
            })
            .collect();
        let reasons: serde_json::Map<String, serde_json::Value> = REASONS
            .iter()
            .zip(self.reasons)
            .map(|(r, n)| (r.as_str().to_string(), n.into()))
            .collect();
        serde_json::json!({
            "variant": self.variant, "players": self.players, "games": self.games,
            "bots": bots, "draws": self.draws, "truncated": self.truncated,
            "stalled": self.stalled, "avg_decisions": self.avg_decisions,
            "avg_turns": self.avg_turns, "reasons": reasons,
        })
        .to_string()
    }
}

/// The record of one finished game.
#[derive(Clone, Copy, Debug)]
struct GameRecord {
    outcome: Outcome,
    /// `seat_bot[s]`: index into the bot list of the bot in seat `s`.
    seat_bot: [usize; MAX_PLAYERS],
    decisions: u64,
    turns: u64,
}

fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let mut r = SplitMix64::new(seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let x = r.next_u64();
    SplitMix64::new(x ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)).next_u64()
}

/// How often the calling thread of a match wakes up to poll the token while
/// it waits for the next finished game.
const WAKE_EVERY: Duration = Duration::from_millis(10);

/// Games beyond this many decisions mean a broken turn cap: fail loudly
/// rather than hang.
const MAX_DECISIONS: u64 = 1_000_000;

/// The schedule of game `g` of a match with seed `seed` and `players` seats
/// (`players` in 1..=4): the deal's setup seed, shared by the `players`
/// consecutive games of one rotation group, and `seat_bot[s]`, the index of
/// the bot sitting in seat `s` (bot `b` sits in seat `(b - g) mod players`).
pub fn schedule(seed: u64, players: usize, g: usize) -> (u64, [usize; MAX_PLAYERS]) {
    let n = players.clamp(1, MAX_PLAYERS);
    let deal = (g / n) as u64;
    let rotation = g % n;
    let mut seat_bot = [0usize; MAX_PLAYERS];
    for (s, slot) in seat_bot.iter_mut().enumerate().take(n) {
        *slot = (s + rotation) % n;
    }
    (mix(seed, deal, 0), seat_bot)
}

/// Plays game `g`; `Ok(None)` when `cancel` stopped it before its end.
fn play_one<G: Game>(
    cfg: &MatchConfig,
    specs: &[BotSpec],
    g: usize,
    cancel: &Cancel,
) -> Result<Option<GameRecord>, GameError> {
    let n = cfg.players as usize;
    let (deal_seed, seat_bot) = schedule(cfg.seed, n, g);
    let mut state = G::new_game(&Config {
        num_players: cfg.players,
        seed: deal_seed,
        turn_cap: cfg.turn_cap,
    })?;
    let mut bots = Vec::with_capacity(n);
    for (s, &b) in seat_bot.iter().enumerate().take(n) {
        bots.push(specs[b].build::<G>(mix(cfg.seed, g as u64 + 1, s as u64 + 1))?);
    }
    let mut decisions = 0u64;
    while let Some(p) = state.current_player() {
        if cancel.is_cancelled() {
            return Ok(None);
        }
        let a = bots[p as usize].act_cancellable(&state, cancel)?;
        // A search cut short by the token chose in a hurry: the game is
        // abandoned rather than finished with a weakened bot.
        if cancel.is_cancelled() {
            return Ok(None);
        }
        state.apply(a).map_err(|e| {
            GameError::IllegalAction(format!(
                "bot `{}` chose an illegal action: {e}",
                specs[seat_bot[p as usize]]
            ))
        })?;
        decisions += 1;
        if decisions > MAX_DECISIONS {
            return Err(GameError::InvalidState(format!(
                "game {g} did not end after {MAX_DECISIONS} decisions"
            )));
        }
    }
    let outcome = state
        .outcome()
        .ok_or_else(|| GameError::InvalidState("a terminal state has no outcome".into()))?;
    Ok(Some(GameRecord {
        outcome,
        seat_bot,
        decisions,
        turns: u64::from(state.turns()),
    }))
}

/// Plays the match. `progress(done, total)` is called on the caller's thread
/// after every finished game; returning `false` stops the match (games in
/// flight finish, no new ones start, `progress` is not called again) and
/// `play_match` returns [`GameError::Config`] saying so.
pub fn play_match<G: Game>(
    cfg: &MatchConfig,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<MatchResult, GameError> {
    play_match_cancellable::<G>(cfg, progress, &NEVER)
}

/// [`play_match`] that stops soon after `cancel` is set, from any thread: no
/// new game starts, and the games in flight are abandoned at their next
/// decision (a searching bot's search stops within a few iterations). The
/// result then summarizes the games finished so far (`games` counts them),
/// which is how a caller shows the partial table of an interrupted match.
pub fn play_match_cancellable<G: Game>(
    cfg: &MatchConfig,
    progress: &mut dyn FnMut(usize, usize) -> bool,
    cancel: &Cancel,
) -> Result<MatchResult, GameError> {
    let n = cfg.players as usize;
    if n == 0 || n > MAX_PLAYERS {
        return Err(GameError::Config(range_message(
            "players",
            1,
            MAX_PLAYERS,
            n,
        )));
    }
    if cfg.bots.is_empty() || cfg.bots.len() > n {
        return Err(GameError::Config(range_message(
            &format!("the number of bots for {n} players"),
            1,
            n,
            cfg.bots.len(),
        )));
    }
    if cfg.games == 0 {
        return Err(GameError::Config("games must be positive".into()));
    }
    if cfg.first_game.checked_add(cfg.games).is_none() {
        return Err(GameError::Config(format!(
            "first_game + games must be at most {}, got {} + {}",
            usize::MAX,
            cfg.first_game,
            cfg.games
        )));
    }
    if cfg.threads == 0 || cfg.threads > 256 {
        return Err(GameError::Config(range_message(
            "threads",
            1,
            256,
            cfg.threads,
        )));
    }
    let mut specs = cfg.bots.clone();
    while specs.len() < n {
        specs.push(specs[specs.len() - 1].clone());
    }
    // Fail on a bad player count before starting any thread.
    G::new_game(&Config {
        num_players: cfg.players,
        seed: 0,
        turn_cap: cfg.turn_cap,
    })?;

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // Records as games finish (memory grows with the games played, not the
    // games asked for), sorted back into game order at the end.
    let mut records: Vec<(usize, GameRecord)> = Vec::new();
    let mut first_error: Option<GameError> = None;
    std::thread::scope(|s| {
        // A rendezvous channel: a worker cannot run ahead of the caller's
        // progress callback, so a stop request takes effect within one game
        // per thread instead of after every queued game has been played.
        let (tx, rx) = mpsc::sync_channel(0);
        for _ in 0..cfg.threads.min(cfg.games) {
            let tx = tx.clone();
            let (next, stop, specs) = (&next, &stop, &specs);
            s.spawn(move || loop {
                if stop.load(Ordering::Relaxed) || cancel.is_cancelled() {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= cfg.games {
                    break;
                }
                let r = match play_one::<G>(cfg, specs, cfg.first_game + i, cancel) {
                    Ok(Some(rec)) => Ok(rec),
                    Ok(None) => break,
                    Err(e) => Err(e),
                };
                if r.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                if tx.send((i, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut done = 0;
        loop {
            // Wake up now and then even while every game is long, so the
            // calling thread can watch the token.
            let (g, r) = match rx.recv_timeout(WAKE_EVERY) {
                Ok(got) => got,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    cancel.poll();
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            cancel.poll();
            match r {
                Ok(rec) => {
                    records.push((g, rec));
                    done += 1;
                    // Once stopped, the caller hears nothing more.
                    if first_error.is_none() && !progress(done, cfg.games) {
                        stop.store(true, Ordering::Relaxed);
                        first_error = Some(GameError::Config(format!(
                            "the match was stopped after {done} of {} games",
                            cfg.games
                        )));
                    }
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    records.sort_unstable_by_key(|&(g, _)| g);
    let records: Vec<GameRecord> = records.into_iter().map(|(_, r)| r).collect();
    Ok(summarize::<G>(cfg, &specs[..cfg.bots.len()], &records))
}

fn summarize<G: Game>(cfg: &MatchConfig, specs: &[BotSpec], records: &[GameRecord]) -> MatchResult {
    let games = records.len() as u64;
    let mut shares = vec![0u64; specs.len()];
    let mut played = vec![0u64; specs.len()];
    let (mut draws, mut decisions, mut turns) = (0u64, 0u64, 0u64);
    let mut reasons = [0u64; 6];
    for r in records {
        let k = r.outcome.winners.count_ones();
        if k > 1 {
            draws += 1;
        }
        decisions += r.decisions;
        turns += r.turns;
        if let Some(i) = REASONS.iter().position(|&x| x == r.outcome.reason) {
            reasons[i] += 1;
        }
        for s in 0..cfg.players as usize {
            // Seats beyond the listed bots are filled by the last one; count
            // them for it.
            let b = r.seat_bot[s].min(specs.len() - 1);
            played[b] += 1;
            if r.outcome.is_winner(s as u8) {
                shares[b] += WIN_SHARES / u64::from(k);
            }
        }
    }
    let bots = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let wins = shares[i] as f64 / WIN_SHARES as f64;
            let (lo, hi) = wilson_interval(wins, played[i], 1.96);
            BotStats {
                name: spec.to_string(),
                games: played[i],
                wins,
                win_rate: if played[i] > 0 {
                    wins / played[i] as f64
                } else {
                    0.0
                },
                ci_low: lo,
                ci_high: hi,
            }
        })
        .collect();
    let avg = |x: u64| {
        if games > 0 {
            x as f64 / games as f64
        } else {
            0.0
        }
    };
    MatchResult {
        variant: G::VARIANT.to_string(),
        players: cfg.players,
        games,
        bots,
        draws,
        truncated: reasons[5],
        stalled: reasons[4],
        avg_decisions: avg(decisions),
        avg_turns: avg(turns),
        reasons,
    }
}
