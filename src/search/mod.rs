//! Search and bots, generic over [`crate::game::Game`].
//!
//! - [`mcts`]: information-set MCTS with determinization (ISMCTS-SO), UCT for
//!   2–4 players, depth-capped rollouts with a heuristic cut, iteration and
//!   wall-time budgets, a node cap and root parallelism.
//! - [`bots`]: the [`Bot`] trait and the random, greedy and MCTS bots.
//! - [`arena`]: many seeded games between bots with seat rotation and paired
//!   deals, in parallel, with win rates and confidence intervals.
//! - [`stats`]: the Wilson score interval.

pub mod arena;
pub mod bots;
pub mod mcts;
pub mod stats;

pub use arena::{play_match, BotStats, MatchConfig, MatchResult};
pub use bots::{Bot, BotSpec, GreedyBot, MctsBot, RandomBot};
pub use mcts::{search, CutEval, RolloutPolicy, SearchConfig, SearchResult};
pub use stats::wilson_interval;
