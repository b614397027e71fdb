//! Splendor: Marvel (2–4 players): Infinity Gauntlet, Avengers tile, locations,
//! grey S.H.I.E.L.D. jokers and the green Time token.
//!
//! Format: `docs/marvel.md`; rules: `docs/rules/marvel.md`. The reference
//! engine `python/splendor/reference/marvel/` is the executable
//! specification this engine is checked against. The modules are the rooms
//! every variant has (docs/contract.md, *The rooms of a variant*).

pub mod actions;
pub mod cards;
mod eval;
mod explain;
mod json;
mod observe;
mod render;
mod rules;
pub mod state;

pub use cards::MarvelData;
pub use observe::OBSERVATION_SIZE;
pub use state::{MarvelState, Phase};

use crate::game::{Action, ActionList, Config, Game, GameError, Outcome, Player, MAX_PLAYERS};
use crate::rng::SplitMix64;

impl MarvelState {
    /// Loads a full-state JSON whose card set is the bundled one or one loaded
    /// earlier in this process (`MarvelData::load`); otherwise the error
    /// names the unknown `card_set`.
    pub fn from_json_any(text: &str) -> Result<Self, GameError> {
        let v: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| GameError::InvalidState(format!("state JSON does not parse: {e}")))?;
        let data = v
            .get("card_set")
            .and_then(serde_json::Value::as_str)
            .and_then(MarvelData::by_id)
            .unwrap_or_else(MarvelData::bundled);
        Self::from_json_with(text, data)
    }
}

impl std::fmt::Debug for MarvelState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_json(None))
    }
}

impl PartialEq for MarvelState {
    fn eq(&self, other: &Self) -> bool {
        // The JSON records the card set's identity.
        self.to_json(None) == other.to_json(None)
    }
}

impl Game for MarvelState {
    const VARIANT: &'static str = "marvel";
    const NUM_ACTIONS: usize = actions::NUM_ACTIONS;
    const OBSERVATION_SIZE: usize = observe::OBSERVATION_SIZE;

    fn new_game(config: &Config) -> Result<Self, GameError> {
        Self::new_with_data(config, MarvelData::bundled())
    }
    fn num_players(&self) -> usize {
        self.num_players as usize
    }
    fn current_player(&self) -> Option<Player> {
        self.current()
    }
    fn legal_actions(&self, out: &mut ActionList) {
        self.legal(out);
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
            self.legal(scratch);
            return crate::game::random_of_list(scratch, rng);
        }
        // The main-phase list is the mask's ids ascending (or `pass` alone).
        Some(crate::game::random_of_main_mask(
            self.main_mask(),
            actions::PASS,
            rng,
        ))
    }
    fn apply_unchecked(&mut self, a: Action) {
        self.step(a.0);
    }
    fn explain_illegal(&self, a: Action) -> String {
        self.explain(a)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }
    fn turns(&self) -> u32 {
        u32::from(self.turn)
    }
    fn scores(&self) -> [i32; MAX_PLAYERS] {
        let mut s = [0; MAX_PLAYERS];
        for (p, x) in s.iter_mut().enumerate().take(self.num_players as usize) {
            *x = i32::from(self.points(p));
        }
        s
    }
    fn determinize(&self, observer: Player, rng: &mut SplitMix64) -> Self {
        self.resample(observer, rng)
    }
    fn heuristic(&self, player: Player) -> f32 {
        self.value_for(player)
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
        self.json_value(viewer).to_string()
    }
    fn from_json(text: &str) -> Result<Self, GameError> {
        Self::from_json_any(text)
    }
    fn render(&self) -> String {
        self.picture()
    }
}
