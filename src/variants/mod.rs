//! The game variants, each implementing [`crate::game::Game`].

pub mod base;
pub mod duel;
pub mod marvel;
