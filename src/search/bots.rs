//! Bots: anything that picks an action for the player to move.

use super::mcts::{greedy_choice, search_cancellable, SearchConfig};
use crate::cancel::{Cancel, NEVER};
use crate::game::{Action, ActionList, Game, GameError};
use crate::nn::Network;
use crate::rng::SplitMix64;
use std::fmt;
use std::sync::Arc;

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

/// A bot by description, so the arena can build fresh, seeded bots for every
/// game on any thread, and the CLI can name them (`random`, `greedy`,
/// `mcts`, `mcts:1000`, `mcts:0.5s`, `net:400@best.safetensors`).
#[derive(Clone, Debug, PartialEq)]
pub enum BotSpec {
    /// [`RandomBot`].
    Random,
    /// [`GreedyBot`].
    Greedy,
    /// [`MctsBot`] with these settings (its `seed` is replaced per game);
    /// with a network when `config.network` is set.
    Mcts(SearchConfig),
}

impl BotSpec {
    /// Parses `random`, `greedy`, `mcts` (1000 iterations), `mcts:N`
    /// (N iterations), `mcts:Ts` (T seconds per move), or `net:N@PATH` /
    /// `net:Ts@PATH`: the search with the network file at PATH (read here).
    /// `net:N` without a path names the network shipped for the variant,
    /// which only the Python package knows where to find: it rewrites the
    /// spec to `net:N@PATH` before it reaches the engine.
    pub fn parse(text: &str) -> Result<Self, GameError> {
        if let Some(rest) = text
            .trim()
            .get(..4)
            .filter(|p| p.eq_ignore_ascii_case("net:"))
            .map(|_| &text.trim()[4..])
        {
            let Some((budget, path)) = rest.split_once('@') else {
                return Err(GameError::Config(format!(
                    "bot `{text}`: the engine needs the network file, as net:N@PATH or net:Ts@PATH"
                )));
            };
            let BotSpec::Mcts(mut cfg) = BotSpec::parse(&format!("mcts:{budget}"))
                .map_err(|_| {
                    GameError::Config(format!(
                        "unknown bot `{text}`: expected net:N@PATH (iterations) or net:Ts@PATH (seconds)"
                    ))
                })?
            else {
                unreachable!("an mcts: spec parses to BotSpec::Mcts");
            };
            cfg.network = Some(Arc::new(Network::load(path.trim())?));
            return Ok(BotSpec::Mcts(cfg));
        }
        let t = text.trim().to_ascii_lowercase();
        let bad = || {
            GameError::Config(format!(
                "unknown bot `{text}`: expected random, greedy, mcts, mcts:N (iterations), mcts:Ts (seconds), net:N@PATH or net:Ts@PATH"
            ))
        };
        match t.as_str() {
            "random" => return Ok(BotSpec::Random),
            "greedy" => return Ok(BotSpec::Greedy),
            "mcts" => return Ok(BotSpec::Mcts(SearchConfig::default())),
            _ => {}
        }
        let arg = t.strip_prefix("mcts:").ok_or_else(bad)?;
        let mut cfg = SearchConfig::default();
        if let Some(secs) = arg.strip_suffix('s') {
            let s: f64 = secs.parse().map_err(|_| bad())?;
            cfg.iterations = 0;
            cfg.time_limit = Some(s);
        } else {
            cfg.iterations = arg.parse().map_err(|_| bad())?;
        }
        cfg.validate()?;
        Ok(BotSpec::Mcts(cfg))
    }

    /// A fresh bot seeded with `seed`.
    pub fn build<G: Game>(&self, seed: u64) -> Result<Box<dyn Bot<G>>, GameError> {
        Ok(match self {
            BotSpec::Random => Box::new(RandomBot::new(seed)),
            BotSpec::Greedy => Box::new(GreedyBot::new(seed)),
            BotSpec::Mcts(cfg) => Box::new(MctsBot::new(SearchConfig {
                seed,
                ..cfg.clone()
            })?),
        })
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Greedy => f.write_str("greedy"),
            BotSpec::Mcts(c) => {
                let kind = if c.network.is_some() { "net" } else { "mcts" };
                match (c.iterations, c.time_limit) {
                    (0, Some(t)) => write!(f, "{kind}:{t}s")?,
                    (n, None) => write!(f, "{kind}:{n}")?,
                    (n, Some(t)) => write!(f, "{kind}:{n}/{t}s")?,
                }
                // The file's hash tells two networks apart in a table.
                match &c.network {
                    Some(net) => write!(f, "@{}", &net.sha256_hex()[..8]),
                    None => Ok(()),
                }
            }
        }
    }
}
