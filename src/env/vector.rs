//! `n` independent games of one variant stepped together, writing into
//! caller-owned buffers (the Python binding hands NumPy arrays' memory).
//!
//! Autoreset is "same step": when a game ends during `step`, that step reports
//! its rewards, `terminated`/`truncated` and the final observation, and the
//! observation, mask and player written for that env are those of the next
//! game, dealt from the env's own seed stream. Every env owns its seed stream
//! and its bots, so the arrays depend only on the seed and the actions, never
//! on how the envs are sharded over threads.

use super::assist::Assist;
use super::claims::Claims;
use super::workers::Workers;
use crate::cancel::Cancel;
use crate::game::{Action, ActionList, Config, Game, GameError, Player};
use crate::observation::{LegalBits, Observed, MASK_WORDS};
use crate::rng::SplitMix64;
use crate::search::{Bot, BotSpec};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// `SPREAD[b]`: the byte `b` as 8 bools, bit 0 first: a mask row is written
/// eight actions at a time.
static SPREAD: [[bool; 8]; 256] = spread_table();

const fn spread_table() -> [[bool; 8]; 256] {
    let mut table = [[false; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            table[b][i] = (b >> i) & 1 != 0;
            i += 1;
        }
        b += 1;
    }
    table
}

/// Writes `legal` into a mask row of bools: per 64 actions, eight table
/// loads and 8-byte stores at fixed offsets. Inlined where the row's length
/// (the variant's action count) is a constant, so that the words, the tail
/// and the empty words' zeros are unrolled stores with no call.
#[inline(always)]
fn write_mask(legal: &LegalBits, mask: &mut [bool]) {
    let mut rows = mask.chunks_exact_mut(64);
    let mut words = legal.iter();
    for (row, &word) in (&mut rows).zip(&mut words) {
        let row: &mut [bool; 64] = row.try_into().expect("64 flags");
        if word == 0 {
            // Most words are empty (a main-phase turn uses ids 0 to 59 only).
            *row = [false; 64];
            continue;
        }
        let b = word.to_le_bytes();
        row[0..8].copy_from_slice(&SPREAD[usize::from(b[0])]);
        row[8..16].copy_from_slice(&SPREAD[usize::from(b[1])]);
        row[16..24].copy_from_slice(&SPREAD[usize::from(b[2])]);
        row[24..32].copy_from_slice(&SPREAD[usize::from(b[3])]);
        row[32..40].copy_from_slice(&SPREAD[usize::from(b[4])]);
        row[40..48].copy_from_slice(&SPREAD[usize::from(b[5])]);
        row[48..56].copy_from_slice(&SPREAD[usize::from(b[6])]);
        row[56..64].copy_from_slice(&SPREAD[usize::from(b[7])]);
    }
    let rest = rows.into_remainder();
    if let Some(&word) = words.next() {
        let b = word.to_le_bytes();
        let last = SPREAD[usize::from(b[(rest.len() / 8) % 8])];
        let mut eights = rest.chunks_exact_mut(8);
        for (eight, &byte) in (&mut eights).zip(&b) {
            eight.copy_from_slice(&SPREAD[usize::from(byte)]);
        }
        let tail = eights.into_remainder();
        tail.copy_from_slice(&last[..tail.len()]);
    }
}

/// Settings of a [`VectorEnv`].
#[derive(Clone, Debug)]
pub struct EnvConfig {
    /// Number of games.
    pub num_envs: usize,
    /// Player count, base seed and turn cap of every game.
    pub game: Config,
    /// Per seat: `None` for a seat the caller plays, or the bot that plays it.
    pub opponents: Vec<Option<BotSpec>>,
    /// Threads that step shards of the envs (1 = the calling thread only).
    pub threads: usize,
    /// Write observations divided by the spec's scales.
    pub normalize: bool,
}

/// The caller's arrays, row-major, one row per env.
pub struct Buffers<'a> {
    /// `[n, OBSERVATION_SIZE]`: observation of the player to move.
    pub obs: &'a mut [f32],
    /// `[n, NUM_ACTIONS]`: legal-action mask.
    pub mask: &'a mut [bool],
    /// `[n, mask_words::<G>()]`: the same mask, 64 actions per word (bit
    /// `a % 64` of word `a / 64`), for who samples or stores it packed.
    pub packed_mask: &'a mut [u64],
    /// `[n]`: the player to move.
    pub player: &'a mut [i32],
    /// `[n, players]`: each seat's return in a game that ended this step, else 0.
    pub rewards: &'a mut [f32],
    /// `[n]`: the game ended normally this step.
    pub terminated: &'a mut [bool],
    /// `[n]`: the game hit the turn cap this step.
    pub truncated: &'a mut [bool],
    /// `[n, OBSERVATION_SIZE]`: for an env that ended this step, the final
    /// state seen by the seat that acted; other rows are left as they were.
    pub final_obs: &'a mut [f32],
    /// `[n]`: decisions by every seat in the game that ended this step (0 otherwise).
    pub episode_length: &'a mut [i64],
}

/// One env's rows of the buffers.
struct Row<'a> {
    obs: &'a mut [f32],
    player: &'a mut i32,
    rewards: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    final_obs: &'a mut [f32],
    episode_length: &'a mut i64,
}

struct Slot<G: Game> {
    game: G,
    /// Deals this env's games.
    seeds: SplitMix64,
    bots: Vec<Option<Box<dyn Bot<G>>>>,
    /// Bit `p` set when seat `p` is a bot's: read before `bots`, so that a
    /// step without bots does not follow the pointer to them.
    bot_seats: u8,
    game_config: Config,
    legal: LegalBits,
    /// The caller's action for the step being played (checked legal).
    action: Action,
    decisions: i64,
}

/// A batch of games of variant `G`.
pub struct VectorEnv<G: Observed> {
    slots: Vec<Slot<G>>,
    config: EnvConfig,
    inverse_scales: Option<Vec<f32>>,
    /// `threads - 1` workers (the calling thread steps a shard too), kept
    /// for the env's life: spawning threads on every step would cost as much
    /// as a shard's work.
    workers: Workers,
    /// Once cancelled, the bots answer at once (see [`bot_stop`](Self::bot_stop)).
    bot_stop: Arc<Cancel>,
    /// Where a thread waiting for a step joins it (see [`assist`](Self::assist)).
    assist: Arc<Assist>,
}

fn mix(seed: u64, index: u64) -> u64 {
    let mut r = SplitMix64::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.next_u64()
}

impl<G: Observed> VectorEnv<G> {
    /// Checks `config` and deals the first game of every env.
    pub fn new(config: EnvConfig) -> Result<Self, GameError> {
        let players = usize::from(config.game.num_players);
        let spec = G::observation_spec(players)?;
        G::new_game(&config.game)?;
        if G::NUM_ACTIONS > 64 * MASK_WORDS {
            return Err(GameError::Config("action space too large".into()));
        }
        if config.num_envs == 0 {
            return Err(GameError::Config("num_envs must be at least 1".into()));
        }
        if config.threads == 0 || config.threads > 256 {
            return Err(GameError::Config(format!(
                "threads must be between 1 and 256, got {}",
                config.threads
            )));
        }
        if config.opponents.len() != players {
            return Err(GameError::Config(format!(
                "opponents must name one entry per seat ({players}), got {}",
                config.opponents.len()
            )));
        }
        if config.opponents.iter().all(Option::is_some) {
            return Err(GameError::Config(
                "every seat is played by a bot: leave at least one seat (None) to the caller"
                    .into(),
            ));
        }
        let mut slots = Vec::with_capacity(config.num_envs);
        for i in 0..config.num_envs {
            slots.push(Self::slot(&config, i)?);
        }
        let inverse_scales = config.normalize.then(|| spec.inverse_scales());
        let workers = Workers::new(config.threads - 1)
            .map_err(|e| GameError::Config(format!("cannot start the env threads: {e}")))?;
        Ok(Self {
            slots,
            config,
            inverse_scales,
            workers,
            bot_stop: Arc::new(Cancel::new()),
            assist: Arc::new(Assist::new()),
        })
    }

    fn slot(config: &EnvConfig, i: usize) -> Result<Slot<G>, GameError> {
        let mut seeds = SplitMix64::new(mix(config.game.seed, i as u64));
        let mut bots = Vec::with_capacity(config.opponents.len());
        for spec in &config.opponents {
            bots.push(match spec {
                None => None,
                Some(s) => Some(s.build::<G>(seeds.next_u64())?),
            });
        }
        let game = G::new_game(&Config {
            seed: seeds.next_u64(),
            ..config.game
        })?;
        Ok(Slot {
            game,
            seeds,
            game_config: config.game,
            bot_seats: bots
                .iter()
                .enumerate()
                .filter(|(_, b)| b.is_some())
                .fold(0, |m, (p, _)| m | 1 << p),
            bots,
            legal: [0; MASK_WORDS],
            action: Action(0),
            decisions: 0,
        })
    }

    /// The settings.
    pub fn config(&self) -> &EnvConfig {
        &self.config
    }

    /// Number of envs.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Always false: an env has at least one game.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// A token that, once cancelled, makes the built-in bots of the step in
    /// progress and of every later one answer at once with the best move
    /// their search has found (a legal one): for an env about to be
    /// dropped while another thread steps it, so that the drop need not
    /// wait for long searches. It cannot be undone.
    pub fn bot_stop(&self) -> Arc<Cancel> {
        Arc::clone(&self.bot_stop)
    }

    /// Where a thread waiting for this env's step (one running on another
    /// thread) can help play it: [`Assist::help`] with the round after
    /// [`Assist::last_closed`] as it was before the step began. Every
    /// `step` that plays and every `reset` is one round.
    pub fn assist(&self) -> Arc<Assist> {
        Arc::clone(&self.assist)
    }

    /// The current game of env `i`.
    pub fn game(&self, i: usize) -> Option<&G> {
        self.slots.get(i).map(|s| &s.game)
    }

    /// Restarts every env from `seed` (or the configured seed): the same
    /// games, bots and streams as a new env; writes the first observations
    /// (rewards, flags and lengths are cleared).
    pub fn reset(&mut self, seed: Option<u64>, buf: Buffers<'_>) -> Result<(), GameError> {
        self.check(&buf)?;
        if let Some(s) = seed {
            self.config.game.seed = s;
        }
        for i in 0..self.slots.len() {
            self.slots[i] = Self::slot(&self.config, i)?;
        }
        // Taken out for the call so that `sharded` may borrow `self` mutably.
        let scales = self.inverse_scales.take();
        let inv = scales.as_deref();
        let stop = Arc::clone(&self.bot_stop);
        self.sharded(buf, all_legal, |slot, row, scratch| {
            slot.next_live_game(&stop);
            row.rewards.fill(0.0);
            *row.terminated = false;
            *row.truncated = false;
            *row.episode_length = 0;
            slot.write(row, inv, scratch);
        });
        self.inverse_scales = scales;
        Ok(())
    }

    /// The error [`step`](Self::step) would raise for `actions`, if any (not
    /// one per env, or the first env whose action is out of range or not
    /// legal now), without playing anything: the asynchronous step checks
    /// the actions on the caller's thread before handing the step over.
    pub fn check_actions(&self, actions: &[i64]) -> Result<(), GameError> {
        self.check_count(actions)?;
        for (i, (slot, &a)) in self.slots.iter().zip(actions).enumerate() {
            slot.checked(a, i)?;
        }
        Ok(())
    }

    /// Plays `actions[i]` in env `i` (then the bots' seats until a caller's
    /// seat is to move), resetting games that end. Illegal or out-of-range
    /// actions are reported for the first such env and change nothing.
    pub fn step(&mut self, actions: &[i64], buf: Buffers<'_>) -> Result<(), GameError> {
        if let Err(e) = self.check(&buf).and_then(|()| self.check_count(actions)) {
            // A round that plays nothing: a helper waiting for it leaves.
            self.assist.skip_round();
            return Err(e);
        }
        // Each action is read once, here, and kept in its slot: the caller's
        // array is never read again, so a writer racing this call cannot make
        // an unchecked action reach a game. The chunks are checked in the
        // same hand-off to the workers as the play; nothing is played unless
        // every chunk's actions are legal.
        let first_error: Mutex<Option<(usize, GameError)>> = Mutex::new(None);
        let check = |first: usize, slots: &mut [Slot<G>]| {
            for (k, slot) in slots.iter_mut().enumerate() {
                let i = first + k;
                match slot.checked(actions[i], i) {
                    Ok(a) => slot.action = a,
                    Err(e) => {
                        // The lowest bad env of the chunk; the lowest of all
                        // chunks is the first bad env.
                        let mut kept = first_error.lock().unwrap_or_else(PoisonError::into_inner);
                        if kept.as_ref().is_none_or(|(j, _)| i < *j) {
                            *kept = Some((i, e));
                        }
                        return false;
                    }
                }
            }
            true
        };
        let scales = self.inverse_scales.take();
        let inv = scales.as_deref();
        let stop = Arc::clone(&self.bot_stop);
        let played = self.sharded(buf, check, |slot, row, scratch| {
            slot.step(slot.action, row, inv, scratch, &stop)
        });
        self.inverse_scales = scales;
        if !played {
            if let Some((_, e)) = first_error
                .into_inner()
                .unwrap_or_else(PoisonError::into_inner)
            {
                return Err(e);
            }
        }
        Ok(())
    }

    /// An error unless `actions` has one action per env.
    fn check_count(&self, actions: &[i64]) -> Result<(), GameError> {
        if actions.len() != self.slots.len() {
            return Err(GameError::Config(format!(
                "expected {} actions (one per env), got {}",
                self.slots.len(),
                actions.len()
            )));
        }
        Ok(())
    }

    fn check(&self, buf: &Buffers<'_>) -> Result<(), GameError> {
        let n = self.slots.len();
        let p = usize::from(self.config.game.num_players);
        let sizes = [
            ("obs", buf.obs.len(), n * G::OBSERVATION_SIZE),
            ("mask", buf.mask.len(), n * G::NUM_ACTIONS),
            ("packed_mask", buf.packed_mask.len(), n * mask_words::<G>()),
            ("player", buf.player.len(), n),
            ("rewards", buf.rewards.len(), n * p),
            ("terminated", buf.terminated.len(), n),
            ("truncated", buf.truncated.len(), n),
            ("final_obs", buf.final_obs.len(), n * G::OBSERVATION_SIZE),
            ("episode_length", buf.episode_length.len(), n),
        ];
        for (name, got, want) in sizes {
            if got != want {
                return Err(GameError::Config(format!(
                    "buffer {name} has {got} elements, expected {want}"
                )));
            }
        }
        Ok(())
    }

    /// Runs `check(first, slots)` on every chunk of the envs (`first` the
    /// index of the chunk's first env), then, only if every call returned
    /// true, `f` on every env with its rows, and returns whether it did.
    /// The chunks are claimed one at a time (see [`Claims`]): each thread of
    /// the step (the calling thread, and the env's workers when `threads >
    /// 1`: one hand-off, a barrier between the phases) walks its own shard
    /// of them, then takes what the others have left; in the second phase
    /// any helper that joins through [`assist`](Self::assist) (a caller
    /// waiting for this step) takes leftovers too. So the threads finish
    /// together whatever each was doing when the step began.
    fn sharded<C, F>(&mut self, buf: Buffers<'_>, check: C, f: F) -> bool
    where
        C: Fn(usize, &mut [Slot<G>]) -> bool + Sync,
        F: Fn(&mut Slot<G>, &mut Row<'_>, &mut ActionList) + Sync,
    {
        let o = G::OBSERVATION_SIZE;
        let m = G::NUM_ACTIONS;
        let w = mask_words::<G>();
        let p = usize::from(self.config.game.num_players);
        let run = |slots: &mut [Slot<G>], b: Buffers<'_>| {
            // One list per chunk for the variants that build their legal
            // actions as a list (see `Observed::legal_bits`).
            let mut scratch = ActionList::new();
            let rows = slots
                .iter_mut()
                .zip(b.obs.chunks_mut(o))
                .zip(b.player.iter_mut())
                .zip(b.rewards.chunks_mut(p))
                .zip(b.terminated.iter_mut())
                .zip(b.truncated.iter_mut())
                .zip(b.final_obs.chunks_mut(o))
                .zip(b.episode_length.iter_mut());
            for row in rows {
                let ((((((slot, obs), player), rewards), terminated), truncated), fin) = row.0;
                let mut r = Row {
                    obs,
                    player,
                    rewards,
                    terminated,
                    truncated,
                    final_obs: fin,
                    episode_length: row.1,
                };
                f(slot, &mut r, &mut scratch);
            }
            // The masks last, in a pass of their own: the caller reads them
            // next (to choose actions), and finds them in the cache rather
            // than evicted by the observations written after them.
            let masks = b
                .mask
                .chunks_exact_mut(m)
                .zip(b.packed_mask.chunks_exact_mut(w));
            for (slot, (mask, packed)) in slots.iter().zip(masks) {
                write_mask(&slot.legal, mask);
                // Word by word: `copy_from_slice` of these few words is a
                // `memcpy` call.
                for (to, &word) in packed.iter_mut().zip(&slot.legal) {
                    *to = word;
                }
            }
        };
        let Buffers {
            obs,
            mask,
            packed_mask,
            player,
            rewards,
            terminated,
            truncated,
            final_obs,
            episode_length,
        } = buf;
        let c = CHUNK;
        let chunks = self
            .slots
            .chunks_mut(c)
            .zip(obs.chunks_mut(c * o))
            .zip(mask.chunks_mut(c * m))
            .zip(packed_mask.chunks_mut(c * w))
            .zip(player.chunks_mut(c))
            .zip(rewards.chunks_mut(c * p))
            .zip(terminated.chunks_mut(c))
            .zip(truncated.chunks_mut(c))
            .zip(final_obs.chunks_mut(c * o))
            .zip(episode_length.chunks_mut(c));
        let cells: Vec<Mutex<Option<_>>> = chunks
            .enumerate()
            .map(|(k, chunk)| {
                let (
                    (
                        ((((((slots, obs), mask), packed_mask), player), rewards), terminated),
                        truncated,
                    ),
                    fin,
                ) = chunk.0;
                let b = Buffers {
                    obs,
                    mask,
                    packed_mask,
                    player,
                    rewards,
                    terminated,
                    truncated,
                    final_obs: fin,
                    episode_length: chunk.1,
                };
                Mutex::new(Some((k * c, slots, b)))
            })
            .collect();
        let lock = |i: usize| {
            cells
                .get(i)
                .map(|cell| cell.lock().unwrap_or_else(PoisonError::into_inner))
        };
        let bad = AtomicBool::new(false);
        let check_chunk = |c: usize| {
            if let Some(mut cell) = lock(c) {
                if let Some((first, slots, _)) = cell.as_mut() {
                    if !check(*first, slots) {
                        bad.store(true, Ordering::Relaxed);
                    }
                }
            }
        };
        let play_chunk = |c: usize| {
            let taken = lock(c).and_then(|mut cell| cell.take());
            if let Some((_, slots, b)) = taken {
                run(slots, b);
            }
        };
        // Thread `i` of the step owns shard `i` of the chunks, in both phases.
        let shards = self.workers.len() + 1;
        let to_check = Claims::new(cells.len(), shards);
        let to_play = Claims::new(cells.len(), shards);
        let check_chunks = |i: usize| to_check.owner(i, check_chunk);
        let assist = &*self.assist;
        let play = |i: usize| {
            // The barrier between the phases orders every check before this.
            if bad.load(Ordering::Relaxed) {
                if i == 0 {
                    assist.skip_round();
                }
            } else if i == 0 {
                // The calling thread opens the step to helpers, who take
                // chunks from the back of the last shard first.
                assist.run_round(&|| to_play.owner(0, play_chunk), &|| {
                    to_play.thief(shards - 1, play_chunk)
                });
            } else {
                to_play.owner(i, play_chunk);
            }
        };
        self.workers.run_phases(&check_chunks, &play);
        !bad.load(Ordering::Relaxed)
    }
}

/// Words of a packed mask row of `G`: its actions, 64 per word.
pub fn mask_words<G: Game>() -> usize {
    G::NUM_ACTIONS.div_ceil(64)
}

/// Envs per chunk of a step: small enough that the threads of a step end
/// together (32 base games are a few microseconds), large enough that
/// claiming one costs nothing in comparison.
const CHUNK: usize = 32;

/// The check of a step that plays nothing from the caller (a reset).
fn all_legal<G: Game>(_first: usize, _slots: &mut [Slot<G>]) -> bool {
    true
}

impl<G: Observed> Slot<G> {
    /// `a` as an action if it is one and legal now, else the error naming
    /// env `i`.
    fn checked(&self, a: i64, i: usize) -> Result<Action, GameError> {
        if a < 0 || a >= G::NUM_ACTIONS as i64 {
            return Err(GameError::InvalidAction(format!(
                "env {i}: action id must be between 0 and {}, got {a}",
                G::NUM_ACTIONS - 1
            )));
        }
        let a = a as usize;
        if self.legal[a / 64] >> (a % 64) & 1 == 0 {
            return Err(GameError::IllegalAction(format!(
                "env {i}: `{}` (id {a}) is not legal now",
                G::action_text(Action(a as u16))
            )));
        }
        Ok(Action(a as u16))
    }

    /// Deals the env's next game; false if dealing failed (it cannot: the
    /// config was checked by dealing the first game).
    fn new_game(&mut self) -> bool {
        let config = Config {
            seed: self.seeds.next_u64(),
            ..self.game_config
        };
        match G::new_game(&config) {
            Ok(g) => {
                self.game = g;
                self.decisions = 0;
                true
            }
            Err(_) => false,
        }
    }

    /// Deals games until one is live with a caller's seat to move.
    fn next_live_game(&mut self, stop: &Cancel) {
        self.advance_bots(stop);
        while self.game.is_terminal() && self.new_game() {
            self.advance_bots(stop);
        }
    }

    /// Lets the bots play until a caller's seat is to move or the game ends.
    fn advance_bots(&mut self, stop: &Cancel) {
        while let Some(p) = self.game.current_player() {
            if self.bot_seats >> p & 1 == 0 {
                return;
            }
            let Some(bot) = self.bots[usize::from(p)].as_mut() else {
                return;
            };
            let a = match bot.act_cancellable(&self.game, stop) {
                Ok(a) => a,
                // A live state always has a legal action (the Game contract),
                // so a bot cannot fail here; play the first one regardless
                // rather than leave the env stuck.
                Err(_) => {
                    let mut legal = ActionList::new();
                    self.game.legal_actions(&mut legal);
                    match legal.as_slice().first() {
                        Some(&a) => a,
                        None => return,
                    }
                }
            };
            self.game.apply_unchecked(a);
            self.decisions += 1;
        }
    }

    fn step(
        &mut self,
        a: Action,
        row: &mut Row<'_>,
        inv: Option<&[f32]>,
        scratch: &mut ActionList,
        stop: &Cancel,
    ) {
        let mover: Player = self.game.current_player().unwrap_or(0);
        self.game.apply_unchecked(a);
        self.decisions += 1;
        if self.bot_seats != 0 {
            self.advance_bots(stop);
        }
        // The outcome is only asked of a finished game (it is a call).
        match self
            .game
            .is_terminal()
            .then(|| self.game.outcome())
            .flatten()
        {
            Some(outcome) => {
                let returns = outcome.returns();
                for (slot, &r) in row.rewards.iter_mut().zip(&returns) {
                    *slot = r as f32;
                }
                *row.terminated = !outcome.truncated();
                *row.truncated = outcome.truncated();
                *row.episode_length = self.decisions;
                self.game.observation(mover, row.final_obs);
                scale(row.final_obs, inv);
                self.new_game();
                self.next_live_game(stop);
            }
            _ => {
                clear_rewards(row.rewards);
                *row.terminated = false;
                *row.truncated = false;
                *row.episode_length = 0;
            }
        }
        self.write(row, inv, scratch);
    }

    /// Writes the current observation and player into `row`, and keeps the
    /// legal actions (the mask row is written from them after the shard).
    fn write(&mut self, row: &mut Row<'_>, inv: Option<&[f32]>, scratch: &mut ActionList) {
        let p = self.game.current_player().unwrap_or(0);
        *row.player = i32::from(p);
        self.game.observation(p, row.obs);
        scale(row.obs, inv);
        self.game.legal_bits(scratch, &mut self.legal);
    }
}

/// Zeros a row of rewards (one per seat, 2 to 4) with stores of its known
/// length: a plain `fill` of a length known only at run time is a call to
/// `memset`, several times the cost of the stores.
#[inline(always)]
fn clear_rewards(row: &mut [f32]) {
    match row.len() {
        2 => row.copy_from_slice(&[0.0; 2]),
        3 => row.copy_from_slice(&[0.0; 3]),
        4 => row.copy_from_slice(&[0.0; 4]),
        _ => row.fill(0.0),
    }
}

fn scale(obs: &mut [f32], inv: Option<&[f32]>) {
    if let Some(inv) = inv {
        for (x, s) in obs.iter_mut().zip(inv) {
            *x *= s;
        }
    }
}
