//! Search and bots, generic over [`crate::game::Game`].
//!
//! - [`mcts`]: information-set MCTS with determinization (ISMCTS-SO), UCT for
//!   2–4 players, depth-capped rollouts with a heuristic cut, iteration and
//!   wall-time budgets, a node cap and root parallelism.
//! - [`bots`]: the [`Bot`] trait and the random, greedy and MCTS bots.
//! - [`spec`]: bot specs (`mcts:1000`, `net:0.5s@FILE`): their one parser.
//! - [`arena`]: many seeded games between bots with seat rotation and paired
//!   deals, in parallel, with win rates and confidence intervals.
//! - [`stats`]: the Wilson score interval.
//! - `choice`: the move from the root's visits (the most visited, or drawn
//!   at a temperature).
//! - [`noise`]: Dirichlet noise for the root prior (self-play exploration).
//!
//! With [`SearchConfig::network`] set, the tree policy is AlphaZero's PUCT
//! with the network's prior and value and no rollouts (`docs/network.md`).
//!
//! Defaults (see [`SearchConfig::default`]) were tuned on the base game with
//! `examples/match.rs` against the one-ply greedy bot at 1,000 iterations per
//! move: random rollouts of 24 decisions reached about 85% (2 players) and
//! 60% (one MCTS against three greedy bots); depth 8 or 12 and exploration
//! 0.35–1.0 moved that only within the noise (±5% at 200 games); MAST
//! rollouts (epsilon 0.3) were the step change, to about 96% and 77%.
//! The heuristic cut after 24 rollout decisions keeps an iteration cheap
//! (about 100k iterations/s per thread from the base opening).

pub mod arena;
pub mod bots;
mod choice;
pub mod mcts;
pub mod noise;
pub mod spec;
pub mod stats;

pub use arena::{play_match, play_match_cancellable, BotStats, MatchConfig, MatchResult};
pub use bots::{Bot, GreedyBot, MctsBot, MctsMove, RandomBot};
pub use mcts::{
    search, search_cancellable, CutEval, RolloutPolicy, SearchConfig, SearchResult, Selection,
};
pub use noise::RootNoise;
pub use spec::{BotKind, BotSpec, ParsedBotSpec, LEVELS, SPEC_FORMS};
pub use stats::wilson_interval;
