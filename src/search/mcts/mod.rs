//! Information-set MCTS with determinization, generic over [`Game`].
//!
//! Single-observer ISMCTS ("ISMCTS-SO", Cowling, Powley & Whitehouse 2012):
//! every iteration deals a fresh determinization of the root state from the
//! point of view of the player to move, so the search only ever sees what that
//! player could know; all determinizations share one tree keyed by action id.
//! A child is only selectable when its action is legal in the current
//! determinization, and UCB uses the child's *availability* count (how often it
//! was selectable) instead of the parent's visit count.
//!
//! Each node's statistics are from the point of view of the player who chose the
//! action leading to it, so the same code is max^n-style UCT for 2–4 players.
//! Rewards are `Outcome::returns()` at a terminal state, or a heuristic
//! evaluation (see [`CutEval`]) when a rollout reaches its depth cap.

mod config;
mod leaf_batch;
mod parallel;
mod rollout;
mod tree;

pub use config::{
    ActionStats, CutEval, Line, RolloutPolicy, SearchConfig, SearchResult, Selection,
    MAX_LEAF_BATCH, MAX_LINE,
};
use leaf_batch::*;
pub use parallel::{search, search_cancellable};
pub(crate) use rollout::greedy_choice;
use rollout::*;
use tree::*;
