//! Bots: anything that picks an action for the player to move.

use super::mcts::{greedy_choice, search_cancellable, SearchConfig};
use crate::cancel::{Cancel, NEVER};
use crate::game::{Action, ActionList, Game, GameError};
use crate::rng::SplitMix64;

/// A player: picks one legal action for the player to move in `state`.
pub trait Bot<G: Game>: Send {
    /// The chosen action (always legal in `state`). Errors: a finished game.
    fn act(&mut self, state: &G) -> Result<Action, GameError> {
        self.act_cancellable(state, &NEVER)
    }

    /// [`act`](Bot::act) that thinks for less when `cancel` is set: a
    /// searching bot stops its search within a few iterations and answers
    /// with the best action found so far (still legal). Bots that answer at
    /// once ignore the token.
    fn act_cancellable(&mut self, state: &G, cancel: &Cancel) -> Result<Action, GameError>;
}

fn legal_or_error<G: Game>(state: &G, out: &mut ActionList) -> Result<(), GameError> {
    if state.is_terminal() {
        return Err(GameError::Config(
            "a bot cannot act in a finished game: the state is terminal".into(),
        ));
    }
    state.legal_actions(out);
    if out.is_empty() {
        return Err(GameError::InvalidState(
            "the state is not terminal but has no legal action".into(),
        ));
    }
    Ok(())
}

/// Uniform over the legal actions; seeded, so reproducible.
#[derive(Clone, Debug)]
pub struct RandomBot {
    rng: SplitMix64,
}

impl RandomBot {
    /// A bot whose choices depend only on `seed` and the states it sees.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SplitMix64::new(seed),
        }
    }

    /// The bot's random stream as it stands: `RandomBot::new(b.stream())`
    /// plays on exactly as `b`.
    pub fn stream(&self) -> u64 {
        self.rng.state()
    }
}

impl<G: Game> Bot<G> for RandomBot {
    fn act_cancellable(&mut self, state: &G, _: &Cancel) -> Result<Action, GameError> {
        let mut legal = ActionList::new();
        legal_or_error(state, &mut legal)?;
        Ok(legal.as_slice()[self.rng.below(legal.len() as u64) as usize])
    }
}

/// One ply: the action whose resulting position has the highest
/// [`Game::heuristic`] for the acting player (a win counts 1); ties broken by
/// the seeded rng.
#[derive(Clone, Debug)]
pub struct GreedyBot {
    rng: SplitMix64,
}

impl GreedyBot {
    /// A bot whose tie-breaks depend only on `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: SplitMix64::new(seed),
        }
    }

    /// The bot's random stream as it stands: `GreedyBot::new(b.stream())`
    /// plays on exactly as `b`.
    pub fn stream(&self) -> u64 {
        self.rng.state()
    }
}

impl<G: Game> Bot<G> for GreedyBot {
    fn act_cancellable(&mut self, state: &G, _: &Cancel) -> Result<Action, GameError> {
        let mut legal = ActionList::new();
        legal_or_error(state, &mut legal)?;
        let Some(mover) = state.current_player() else {
            return Err(GameError::Config("the state is terminal".into()));
        };
        Ok(greedy_choice(state, mover, legal.as_slice(), &mut self.rng))
    }
}

/// Information-set MCTS; each call searches with a fresh seed drawn from the
/// bot's own stream, so a game between seeded bots is reproducible.
#[derive(Clone, Debug)]
pub struct MctsBot {
    config: SearchConfig,
    rng: SplitMix64,
}

impl MctsBot {
    /// A bot searching with `config` (validated here); `config.seed` seeds
    /// the bot's stream of per-move seeds.
    pub fn new(config: SearchConfig) -> Result<Self, GameError> {
        config.validate()?;
        let rng = SplitMix64::new(config.seed);
        Ok(Self { config, rng })
    }

    /// The search settings.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// The seed of the bot's own stream, as it stands: a bot made with
    /// [`MctsBot::with_stream`] from this value plays on exactly as this one.
    pub fn stream(&self) -> u64 {
        self.rng.state()
    }

    /// A bot searching with `config` whose stream of per-move seeds resumes
    /// at `stream` (a value of [`MctsBot::stream`]).
    pub fn with_stream(config: SearchConfig, stream: u64) -> Result<Self, GameError> {
        let mut bot = Self::new(config)?;
        bot.rng = SplitMix64::new(stream);
        Ok(bot)
    }

    /// The first half of a move: checks `state`, draws this move's seed from
    /// the bot's stream and says whether a search is needed. Split from the
    /// search itself so that a caller sharing the bot between threads holds
    /// it only for this instant, not for the whole search.
    pub fn begin_move<G: Game>(&mut self, state: &G) -> Result<MctsMove, GameError> {
        let mut legal = ActionList::new();
        legal_or_error(state, &mut legal)?;
        let seed = self.rng.next_u64();
        // A forced move needs no thought (single payments, lone returns).
        if legal.len() == 1 {
            return Ok(MctsMove::Forced(legal.as_slice()[0]));
        }
        Ok(MctsMove::Search(SearchConfig {
            seed,
            ..self.config.clone()
        }))
    }
}

/// What [`MctsBot::begin_move`] found: the only legal action, or the settings
/// of the search that picks the move.
#[derive(Clone, Debug, PartialEq)]
pub enum MctsMove {
    /// The only legal action.
    Forced(Action),
    /// Search with these settings (this move's seed included).
    Search(SearchConfig),
}

impl MctsMove {
    /// The action: the forced one, or the search's choice.
    pub fn finish<G: Game>(self, state: &G, cancel: &Cancel) -> Result<Action, GameError> {
        match self {
            MctsMove::Forced(a) => Ok(a),
            MctsMove::Search(cfg) => Ok(search_cancellable(state, &cfg, cancel)?.action),
        }
    }
}

impl<G: Game> Bot<G> for MctsBot {
    fn act_cancellable(&mut self, state: &G, cancel: &Cancel) -> Result<Action, GameError> {
        self.begin_move(state)?.finish(state, cancel)
    }
}
