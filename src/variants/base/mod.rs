//! Splendor, the base game for 2–4 players (docs/base.md).
//!
//! [`BaseState`] is a 288-byte `Copy` value. The modules are the rooms every
//! variant has (docs/contract.md, *The rooms of a variant*).

pub mod actions;
pub mod cards;
mod eval;
mod explain;
mod json;
pub mod observe;
mod render;
pub mod rules;
pub mod state;

pub use state::{BaseState, Phase};

use crate::game::{Action, ActionList, Config, Game, GameError, Outcome, Player, MAX_PLAYERS};
use crate::rng::SplitMix64;

impl Game for BaseState {
    const VARIANT: &'static str = "base";
    const NUM_ACTIONS: usize = actions::NUM_ACTIONS;
    const OBSERVATION_SIZE: usize = observe::OBSERVATION_SIZE;
    const HAS_PLAYOUT_POLICY: bool = true;

    fn new_game(config: &Config) -> Result<Self, GameError> {
        BaseState::new(config)
    }
    #[inline]
    fn num_players(&self) -> usize {
        self.num_players as usize
    }
    #[inline]
    fn turns(&self) -> u32 {
        self.turn()
    }
    #[inline]
    fn current_player(&self) -> Option<Player> {
        (self.phase != Phase::Over).then_some(self.current)
    }
    #[inline]
    fn legal_actions(&self, out: &mut ActionList) {
        self.legal_into(out);
    }
    #[inline]
    fn is_legal(&self, a: Action) -> bool {
        self.allows(a.0)
    }
    #[inline]
    fn random_legal_action(
        &self,
        rng: &mut SplitMix64,
        scratch: &mut ActionList,
    ) -> Option<Action> {
        if self.phase != Phase::Main {
            self.legal_into(scratch);
            return crate::game::random_of_list(scratch, rng);
        }
        // The main-phase list is the mask's ids ascending (or `pass` alone).
        Some(crate::game::random_of_main_mask(
            self.main_mask(),
            actions::PASS,
            rng,
        ))
    }
    #[inline]
    fn apply_unchecked(&mut self, a: Action) {
        self.apply_action(a);
    }
    fn explain_illegal(&self, a: Action) -> String {
        self.explain(a)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.outcome_now()
    }
    fn scores(&self) -> [i32; MAX_PLAYERS] {
        self.scores_now()
    }
    fn determinize(&self, observer: Player, rng: &mut SplitMix64) -> Self {
        self.determinize_for(observer, rng)
    }
    fn heuristic(&self, player: Player) -> f32 {
        self.evaluate(player)
    }
    fn heuristics(&self) -> [f32; MAX_PLAYERS] {
        self.evaluate_all()
    }
    fn child_values(&self, legal: &[Action], mover: Player, out: &mut [f32]) {
        BaseState::child_values(self, legal, mover, out);
    }
    fn playout_action(&self, legal: &[Action], rng: &mut SplitMix64) -> Option<Action> {
        Some(self.playout_choice(legal, rng))
    }
    fn action_text(a: Action) -> String {
        actions::action_text(a)
    }
    fn parse_action(text: &str) -> Result<Action, GameError> {
        actions::parse_action(text)
    }
    fn observation(&self, player: Player, out: &mut [f32]) {
        self.observe(player, out);
    }
    fn to_json(&self, viewer: Option<Player>) -> String {
        let mut out = String::with_capacity(1024);
        self.write_json(viewer, &mut out);
        out
    }
    fn from_json(text: &str) -> Result<Self, GameError> {
        BaseState::from_json_text(text)
    }
    fn render(&self) -> String {
        self.render_text()
    }
}

impl std::fmt::Display for BaseState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render_text())
    }
}
