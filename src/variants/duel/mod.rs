//! Splendor Duel (2 players): `docs/duel.md` is the format, the shared rules
//! digest `duel.md` the rules. The modules are the rooms every variant has
//! (docs/contract.md, *The rooms of a variant*), plus `board`, the token board.

pub mod actions;
pub mod board;
pub mod cards;
mod eval;
mod explain;
mod json;
mod observe;
mod render;
mod rules;
pub mod state;

pub use state::DuelState;

use crate::game::{Action, ActionList, Config, Game, GameError, Outcome, Player, MAX_PLAYERS};
use crate::rng::SplitMix64;
use state::Phase;

impl Game for DuelState {
    const VARIANT: &'static str = "duel";
    const NUM_ACTIONS: usize = actions::NUM_ACTIONS;
    const OBSERVATION_SIZE: usize = observe::OBSERVATION_SIZE;

    fn new_game(config: &Config) -> Result<Self, GameError> {
        DuelState::new(config)
    }
    fn num_players(&self) -> usize {
        2
    }
    #[inline]
    fn current_player(&self) -> Option<Player> {
        (self.phase != Phase::Over).then_some(self.current)
    }
    #[inline]
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
        // The main-phase list is the id bits ascending (or `pass` alone).
        let ids = self.main_ids();
        let counts = ids.map(u64::count_ones);
        let total: u32 = counts.iter().sum();
        if total == 0 {
            rng.below(1);
            return Some(Action(actions::PASS));
        }
        let mut k = rng.below(u64::from(total)) as u32;
        for (w, (&bits, &n)) in ids.iter().zip(&counts).enumerate() {
            if k < n {
                let at = crate::game::nth_set_bit(bits, |_| k);
                return Some(Action(64 * w as u16 + at as u16));
            }
            k -= n;
        }
        unreachable!("k is below the total of the counts")
    }
    #[inline]
    fn apply_unchecked(&mut self, a: Action) {
        if self.phase != Phase::Over {
            self.play(a);
        }
    }
    fn explain_illegal(&self, a: Action) -> String {
        self.explain(a)
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| Outcome {
            winners: self.winners,
            reason: rules::REASONS[(self.end_reason.max(1) - 1) as usize],
            num_players: 2,
        })
    }
    fn turns(&self) -> u32 {
        self.turn
    }
    fn scores(&self) -> [i32; MAX_PLAYERS] {
        [i32::from(self.points[0]), i32::from(self.points[1]), 0, 0]
    }
    fn determinize(&self, observer: Player, rng: &mut SplitMix64) -> Self {
        self.resample(observer as usize, rng)
    }
    fn heuristic(&self, player: Player) -> f32 {
        self.value(player as usize)
    }
    fn heuristics(&self) -> [f32; MAX_PLAYERS] {
        self.values()
    }
    fn action_text(a: Action) -> String {
        actions::text(a)
    }
    fn parse_action(text: &str) -> Result<Action, GameError> {
        actions::parse(text)
    }
    fn observation(&self, player: Player, out: &mut [f32]) {
        self.observe(usize::from(player.min(1)), out);
    }
    fn to_json(&self, viewer: Option<Player>) -> String {
        self.json_value(viewer).to_string()
    }
    fn from_json(text: &str) -> Result<Self, GameError> {
        DuelState::load_json(text)
    }
    fn render(&self) -> String {
        self.picture()
    }
}
