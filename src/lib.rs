//! # splendor
//!
//! Exact, fast engines for the Splendor family (Splendor for 2–4 players,
//! Splendor Duel, Splendor: Marvel) over bit-packed, fixed-size `Copy` states,
//! with seeded deterministic setup, hidden-information views and
//! determinization, and an information-set MCTS generic over [`game::Game`],
//! optionally guided by a policy/value network evaluated in plain Rust
//! ([`nn`]). Long calls (search, matches, batches of games) stop early when
//! their [`Cancel`] token is set.
//!
//! The Python bindings live in `src/python/` behind the `python` feature; the
//! engine itself never names PyO3.

pub mod action_text;
pub mod afford;
pub mod cancel;
pub mod cardfile;
pub mod cardset;
pub mod env;
pub mod explain;
pub mod game;
pub mod gems;
pub mod nn;
pub mod observation;
pub mod picture;
pub mod playout;
pub mod rng;
pub mod search;
pub mod selfplay;
pub mod variants;

#[cfg(feature = "python")]
mod python;

pub use cancel::Cancel;
pub use game::{Action, ActionList, Config, EndReason, Game, GameError, Outcome, Player};
pub use rng::SplitMix64;
