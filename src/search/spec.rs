//! Bot specs: the one parser of the text that names a bot (`mcts:1000`,
//! `net:0.5s@best.safetensors`), used by the engine ([`BotSpec::parse`]), and
//! through `splendor.parse_bot_spec` by the Python package, its command line
//! and its web server, so that a spec means the same thing everywhere and a
//! limit is checked on the parsed value, never on the text.
//!
//! The grammar (keywords in any case; spaces around the text and around each
//! of its parts are ignored, so `mcts: 500` is `mcts:500`):
//!
//! ```text
//! spec   = "default" | "random" | "greedy" | "level" ":" L
//!        | "mcts" [":" budget [":" "c" "=" C] [":" "fpu" "=" R] [":" "stop" "=" S]
//!                [":" "temp" "=" T]]
//!        | "net" [":" budget [":" "batch" "=" B] [":" "c" "=" C] [":" "fpu" "=" R]
//!                [":" "ptemp" "=" P] [":" "stop" "=" S] [":" "temp" "=" T] ["@" PATH]]
//! budget = N | T "s"
//! N      = ASCII digits, a whole number between 1 and 2**64 - 1 (iterations)
//! T      = ASCII digits ["." ASCII digits], a finite number > 0 (seconds; after
//!          `temp=`, the move temperature: `SearchConfig::move_temperature`)
//! C      = like T (the exploration weight of the tree policy:
//!          `SearchConfig::exploration`; without `c=`, its default 0.7)
//! R      = like T (the first-play urgency reduction: `SearchConfig::fpu_reduction`;
//!          without `fpu=`, 0)
//! P      = like T (the temperature of the network's prior:
//!          `SearchConfig::policy_temperature`; without `ptemp=`, 1)
//! S      = like T (the early stop of a search with an iteration budget:
//!          `SearchConfig::early_stop`; without `stop=`, 0: none)
//! B      = ASCII digits, a whole number between 1 and MAX_LEAF_BATCH (leaves per
//!          forward pass of the network: `SearchConfig::leaf_batch`)
//! L      = ASCII digits, a whole number between 1 and LEVELS (an AI level,
//!          resolved by the Python package like `default`)
//! ```
//!
//! No sign, exponent, underscore, `inf` or `nan`: one spelling per value.

use super::bots::{Bot, GreedyBot, MctsBot, RandomBot};
use super::mcts::{SearchConfig, MAX_LEAF_BATCH};
use crate::game::{Game, GameError};
use crate::nn::Network;
use std::fmt;
use std::sync::Arc;

/// The accepted forms, in the words of every error about a bad spec.
pub const SPEC_FORMS: &str = "default, level:1 to level:10, random, greedy, mcts, mcts:N, \
    mcts:Ts, net, net:N, net:Ts, net:N@PATH or net:Ts@PATH, a net budget optionally \
    followed by :batch=B (net:N:batch=4@PATH), an mcts or net budget optionally followed \
    by :c=C, then by :fpu=R, a net budget then by :ptemp=P, either then by :stop=S and by \
    :temp=T last (mcts:100:temp=0.5, net:N:batch=4:c=0.5:fpu=0.2:ptemp=1.4:stop=1:temp=1@PATH) \
    (N: iterations, a whole number >= 1 in digits; T: seconds, or after temp= the move \
    temperature, a number > 0 in digits such as 0.5 or 2; C: the exploration weight, R: \
    the first-play urgency reduction, P: the temperature of the network's prior and S: \
    the early stop, numbers > 0 in digits; B: leaves per network evaluation, a whole \
    number between 1 and 256)";

/// The AI levels, `level:1` (the weakest) to `level:LEVELS` (the default AI).
pub const LEVELS: u8 = 10;

/// The error for a spec outside the grammar: the one message, everywhere.
fn unknown(text: &str) -> GameError {
    GameError::Config(format!("unknown bot `{text}`: expected {SPEC_FORMS}"))
}

/// What a spec names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotKind {
    /// The package's default AI for the game (`net` where a network is
    /// shipped for it, else `mcts`): resolved by the Python package.
    Default,
    /// [`RandomBot`].
    Random,
    /// [`GreedyBot`].
    Greedy,
    /// [`MctsBot`] with rollouts.
    Mcts,
    /// [`MctsBot`] guided by a network: the file at `network`, or without one
    /// the network the package ships for the game.
    Net,
    /// An AI level (`level:L`): a smaller search choosing its move at a
    /// temperature, resolved by the Python package (like `default`, it names
    /// the network shipped for the game).
    Level,
}

impl BotKind {
    /// The keyword, as written in a spec.
    pub fn as_str(self) -> &'static str {
        match self {
            BotKind::Default => "default",
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Mcts => "mcts",
            BotKind::Net => "net",
            BotKind::Level => "level",
        }
    }
}

/// A spec as written, its grammar checked and nothing loaded: what
/// [`BotSpec::parse`] builds from, and what `splendor.parse_bot_spec` returns.
/// At most one of `iterations` and `time_limit` is set; neither when the spec
/// gives no budget (`mcts`, `net`, `default`).
#[derive(Clone, Debug, PartialEq)]
pub struct ParsedBotSpec {
    /// What the spec names.
    pub kind: BotKind,
    /// `N` of `mcts:N` / `net:N`.
    pub iterations: Option<u64>,
    /// `T` of `mcts:Ts` / `net:Ts`, in seconds.
    pub time_limit: Option<f64>,
    /// `PATH` of `net:...@PATH`, as written (its surrounding spaces removed).
    pub network: Option<String>,
    /// `B` of `net:...:batch=B`: leaves evaluated per forward pass of the
    /// network ([`SearchConfig::leaf_batch`]); None when the spec gives none
    /// (the engine then uses 1, the Python package the shipped network's own).
    pub leaf_batch: Option<usize>,
    /// `C` of `...:c=C`: the exploration weight of the tree policy
    /// ([`SearchConfig::exploration`]); None: its default.
    pub exploration: Option<f64>,
    /// `R` of `...:fpu=R`: the first-play urgency reduction
    /// ([`SearchConfig::fpu_reduction`]); None: 0.
    pub fpu_reduction: Option<f64>,
    /// `P` of `net:...:ptemp=P`: the temperature of the network's prior
    /// ([`SearchConfig::policy_temperature`]); None: 1.
    pub policy_temperature: Option<f64>,
    /// `S` of `...:stop=S`: the early stop of a search with an iteration
    /// budget ([`SearchConfig::early_stop`]); None: 0, none.
    pub early_stop: Option<f64>,
    /// `T` of `...:temp=T`: the move temperature
    /// ([`SearchConfig::move_temperature`]); None: the most visited move.
    pub move_temperature: Option<f64>,
    /// `L` of `level:L`, between 1 and [`LEVELS`].
    pub level: Option<u8>,
}

/// `N`: ASCII digits only, between 1 and `u64::MAX`.
fn iterations(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&n| n >= 1)
}

/// `B` of `batch=B` after a net budget: digits only, between 1 and [`MAX_LEAF_BATCH`].
fn leaf_batch(value: &str) -> Option<usize> {
    let b = iterations(value)?;
    (b <= MAX_LEAF_BATCH as u64).then_some(b as usize)
}

/// `T`: digits with an optional fraction of digits, finite and > 0.
fn seconds(text: &str) -> Option<f64> {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let ok = match text.split_once('.') {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(text),
    };
    // A long run of digits parses to infinity: refused like any other.
    let t: f64 = if ok { text.parse().ok()? } else { return None };
    (t.is_finite() && t > 0.0).then_some(t)
}

impl ParsedBotSpec {
    /// Parses `text` (see the module's grammar).
    ///
    /// Errors: [`GameError::Config`] naming the text and [`SPEC_FORMS`].
    pub fn parse(text: &str) -> Result<Self, GameError> {
        let (head, network) = match text.split_once('@') {
            Some((head, path)) => (head, Some(path.trim())),
            None => (text, None),
        };
        let mut parts = head.split(':');
        let word = parts.next().unwrap_or_default().trim();
        let budget = parts.next().map(str::trim);
        let options: Vec<&str> = parts.collect();
        let kind = [
            BotKind::Default,
            BotKind::Random,
            BotKind::Greedy,
            BotKind::Mcts,
            BotKind::Net,
            BotKind::Level,
        ]
        .into_iter()
        .find(|k| word.eq_ignore_ascii_case(k.as_str()))
        .ok_or_else(|| unknown(text))?;
        let mut spec = ParsedBotSpec {
            kind,
            iterations: None,
            time_limit: None,
            network: None,
            leaf_batch: None,
            exploration: None,
            fpu_reduction: None,
            policy_temperature: None,
            early_stop: None,
            move_temperature: None,
            level: None,
        };
        if kind == BotKind::Level {
            // level:L and nothing else.
            let level = budget
                .and_then(iterations)
                .filter(|&l| l <= u64::from(LEVELS));
            if !options.is_empty() || network.is_some() {
                return Err(unknown(text));
            }
            spec.level = Some(level.ok_or_else(|| unknown(text))? as u8);
            return Ok(spec);
        }
        let searches = matches!(kind, BotKind::Mcts | BotKind::Net);
        // Options follow a search's budget in this order, each at most once
        // (batch and ptemp with a network only): one spelling per spec.
        const ORDER: [&str; 6] = ["batch", "c", "fpu", "ptemp", "stop", "temp"];
        let mut first_allowed = 0;
        for option in options {
            let (key, value) = option.split_once('=').ok_or_else(|| unknown(text))?;
            let value = value.trim();
            let rank = ORDER
                .iter()
                .position(|k| key.trim().eq_ignore_ascii_case(k))
                .filter(|&rank| rank >= first_allowed)
                .ok_or_else(|| unknown(text))?;
            first_allowed = rank + 1;
            let net_only = matches!(ORDER[rank], "batch" | "ptemp");
            if !searches || (net_only && kind != BotKind::Net) {
                return Err(unknown(text));
            }
            let number = || seconds(value).ok_or_else(|| unknown(text));
            match ORDER[rank] {
                "batch" => {
                    spec.leaf_batch = Some(leaf_batch(value).ok_or_else(|| unknown(text))?);
                }
                "c" => spec.exploration = Some(number()?),
                "fpu" => spec.fpu_reduction = Some(number()?),
                "ptemp" => spec.policy_temperature = Some(number()?),
                "stop" => spec.early_stop = Some(number()?),
                _ => spec.move_temperature = Some(number()?),
            }
        }
        if let Some(budget) = budget {
            if !searches {
                return Err(unknown(text));
            }
            match budget.strip_suffix(['s', 'S']) {
                Some(t) => spec.time_limit = Some(seconds(t).ok_or_else(|| unknown(text))?),
                None => spec.iterations = Some(iterations(budget).ok_or_else(|| unknown(text))?),
            }
        }
        if let Some(path) = network {
            // A file goes with a budget: net:N@PATH, net:Ts@PATH.
            if kind != BotKind::Net || budget.is_none() || path.is_empty() {
                return Err(unknown(text));
            }
            spec.network = Some(path.to_owned());
        }
        Ok(spec)
    }
}

impl fmt::Display for ParsedBotSpec {
    /// The spec in its one spelling: it parses back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.as_str())?;
        if let Some(level) = self.level {
            write!(f, ":{level}")?;
        }
        if let Some(n) = self.iterations {
            write!(f, ":{n}")?;
        }
        if let Some(t) = self.time_limit {
            // Display of an f64 never uses an exponent, so this is digits.
            write!(f, ":{t}s")?;
        }
        if let Some(b) = self.leaf_batch {
            write!(f, ":batch={b}")?;
        }
        if let Some(c) = self.exploration {
            write!(f, ":c={c}")?;
        }
        if let Some(r) = self.fpu_reduction {
            write!(f, ":fpu={r}")?;
        }
        if let Some(p) = self.policy_temperature {
            write!(f, ":ptemp={p}")?;
        }
        if let Some(s) = self.early_stop {
            write!(f, ":stop={s}")?;
        }
        if let Some(t) = self.move_temperature {
            write!(f, ":temp={t}")?;
        }
        match &self.network {
            Some(path) => write!(f, "@{path}"),
            None => Ok(()),
        }
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
    /// Parses a spec ([`ParsedBotSpec::parse`]) and builds what it names:
    /// `random`, `greedy`, `mcts` (1000 iterations), `mcts:N` (N
    /// iterations), `mcts:Ts` (T seconds per move), or `net:N@PATH` /
    /// `net:Ts@PATH`: the search with the network file at PATH (read here).
    /// `default`, `net`, `net:N` and `net:Ts` name the network shipped for
    /// the game, which only the Python package knows where to find: it
    /// rewrites them to `net:N@PATH` (or `mcts:1000`) before they reach the
    /// engine, which refuses them.
    pub fn parse(text: &str) -> Result<Self, GameError> {
        Self::from_parsed(&ParsedBotSpec::parse(text)?, text)
    }

    /// What `spec` (parsed from `text`, named in errors) names.
    pub fn from_parsed(spec: &ParsedBotSpec, text: &str) -> Result<Self, GameError> {
        Self::from_parsed_with(spec, text, |path| Ok(Arc::new(Network::load(path)?)))
    }

    /// [`BotSpec::from_parsed`] with the network file at a path read by
    /// `load` (the Python bindings keep the file's bytes, so that a bot
    /// pickles with its network).
    pub fn from_parsed_with(
        spec: &ParsedBotSpec,
        text: &str,
        load: impl FnOnce(&str) -> Result<Arc<Network>, GameError>,
    ) -> Result<Self, GameError> {
        let mut cfg = SearchConfig::default();
        match spec.kind {
            BotKind::Random => return Ok(BotSpec::Random),
            BotKind::Greedy => return Ok(BotSpec::Greedy),
            BotKind::Mcts => {}
            BotKind::Level => {
                return Err(GameError::Config(format!(
                    "bot `{text}` is an AI level, which names the network shipped for the \
                     game: the engine cannot find it (splendor.match, splendor.make_bot and \
                     the command line resolve levels)"
                )));
            }
            BotKind::Default | BotKind::Net => {
                let Some(path) = spec.network.as_deref() else {
                    return Err(GameError::Config(format!(
                        "bot `{text}` names the network shipped for the game, which the \
                         engine cannot find: it needs the network file, as net:N@PATH or \
                         net:Ts@PATH (splendor.match and the command line find the shipped one)"
                    )));
                };
                cfg.network = Some(load(path)?);
            }
        }
        if let Some(n) = spec.iterations {
            cfg.iterations = n;
        }
        if let Some(t) = spec.time_limit {
            cfg.iterations = 0;
            cfg.time_limit = Some(t);
        }
        if let Some(b) = spec.leaf_batch {
            cfg.leaf_batch = b;
        }
        if let Some(c) = spec.exploration {
            cfg.exploration = c;
        }
        if let Some(r) = spec.fpu_reduction {
            cfg.fpu_reduction = r;
        }
        if let Some(p) = spec.policy_temperature {
            cfg.policy_temperature = p;
        }
        if let Some(s) = spec.early_stop {
            cfg.early_stop = s;
        }
        if let Some(t) = spec.move_temperature {
            cfg.move_temperature = t;
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
                if c.network.is_some() && c.leaf_batch != 1 {
                    write!(f, ":batch={}", c.leaf_batch)?;
                }
                if c.exploration != SearchConfig::default().exploration {
                    write!(f, ":c={}", c.exploration)?;
                }
                if c.fpu_reduction > 0.0 {
                    write!(f, ":fpu={}", c.fpu_reduction)?;
                }
                if c.network.is_some() && c.policy_temperature != 1.0 {
                    write!(f, ":ptemp={}", c.policy_temperature)?;
                }
                if c.early_stop > 0.0 {
                    write!(f, ":stop={}", c.early_stop)?;
                }
                if c.move_temperature > 0.0 {
                    write!(f, ":temp={}", c.move_temperature)?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> ParsedBotSpec {
        ParsedBotSpec::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    fn refused(text: &str) -> String {
        match ParsedBotSpec::parse(text) {
            Err(GameError::Config(m)) => m,
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn the_grammar_and_its_one_spelling() {
        for (text, kind, n, t, path, canonical) in [
            ("default", BotKind::Default, None, None, None, "default"),
            (" Random ", BotKind::Random, None, None, None, "random"),
            ("GREEDY", BotKind::Greedy, None, None, None, "greedy"),
            ("mcts", BotKind::Mcts, None, None, None, "mcts"),
            ("mcts:250", BotKind::Mcts, Some(250), None, None, "mcts:250"),
            (
                "mcts: 150000",
                BotKind::Mcts,
                Some(150_000),
                None,
                None,
                "mcts:150000",
            ),
            (
                "mcts:0.5s",
                BotKind::Mcts,
                None,
                Some(0.5),
                None,
                "mcts:0.5s",
            ),
            ("mcts:2S", BotKind::Mcts, None, Some(2.0), None, "mcts:2s"),
            ("net", BotKind::Net, None, None, None, "net"),
            ("net: 50", BotKind::Net, Some(50), None, None, "net:50"),
            (
                "NET:12.5s",
                BotKind::Net,
                None,
                Some(12.5),
                None,
                "net:12.5s",
            ),
            (
                "net:400@ a b.st ",
                BotKind::Net,
                Some(400),
                None,
                Some("a b.st"),
                "net:400@a b.st",
            ),
        ] {
            let p = parsed(text);
            assert_eq!(
                (p.kind, p.iterations, p.time_limit, p.network.as_deref()),
                (kind, n, t, path),
                "{text}"
            );
            assert_eq!(p.to_string(), canonical, "{text}");
            assert_eq!(parsed(&p.to_string()), p, "{text}");
        }
        assert_eq!(
            parsed("mcts:18446744073709551615").iterations,
            Some(u64::MAX)
        );
        for (text, n, t, b, path, canonical) in [
            (
                "net:900:batch=4",
                Some(900),
                None,
                4,
                None,
                "net:900:batch=4",
            ),
            (
                " NET: 0.5s : Batch = 256 @ x.st",
                None,
                Some(0.5),
                256,
                Some("x.st"),
                "net:0.5s:batch=256@x.st",
            ),
            (
                "net:7:batch=1@a,b",
                Some(7),
                None,
                1,
                Some("a,b"),
                "net:7:batch=1@a,b",
            ),
        ] {
            let p = parsed(text);
            assert_eq!(
                (
                    p.kind,
                    p.iterations,
                    p.time_limit,
                    p.leaf_batch,
                    p.network.as_deref()
                ),
                (BotKind::Net, n, t, Some(b), path),
                "{text}"
            );
            assert_eq!(p.to_string(), canonical, "{text}");
            assert_eq!(parsed(&p.to_string()), p, "{text}");
        }
        assert_eq!(parsed("net:900").leaf_batch, None);
        for (text, kind, t, b, canonical) in [
            (
                "mcts:100: TEMP = 0.5",
                BotKind::Mcts,
                0.5,
                None,
                "mcts:100:temp=0.5",
            ),
            (
                "net:0.2s:batch=4:temp=2",
                BotKind::Net,
                2.0,
                Some(4),
                "net:0.2s:batch=4:temp=2",
            ),
            (
                "net:30:temp=1.25",
                BotKind::Net,
                1.25,
                None,
                "net:30:temp=1.25",
            ),
        ] {
            let p = parsed(text);
            assert_eq!(
                (p.kind, p.move_temperature, p.leaf_batch),
                (kind, Some(t), b),
                "{text}"
            );
            assert_eq!(p.to_string(), canonical, "{text}");
            assert_eq!(parsed(&p.to_string()), p, "{text}");
        }
        for (text, r, t, canonical) in [
            ("mcts:100: FPU = 0.25", 0.25, None, "mcts:100:fpu=0.25"),
            (
                "net:1000:batch=4:fpu=0.2:temp=2@x",
                0.2,
                Some(2.0),
                "net:1000:batch=4:fpu=0.2:temp=2@x",
            ),
            ("net:0.5s:fpu=1", 1.0, None, "net:0.5s:fpu=1"),
            (
                "net:40:fpu=0.2:PTEMP=1.40:temp=1",
                0.2,
                Some(1.0),
                "net:40:fpu=0.2:ptemp=1.4:temp=1",
            ),
        ] {
            let p = parsed(text);
            assert_eq!(
                (p.fpu_reduction, p.move_temperature),
                (Some(r), t),
                "{text}"
            );
            assert_eq!(p.to_string(), canonical, "{text}");
            assert_eq!(parsed(&p.to_string()), p, "{text}");
        }
        // The exploration weight and the early stop: (text, the two, its one spelling).
        for (text, c, stop, canonical) in [
            ("mcts:100: C = 0.50", Some(0.5), None, "mcts:100:c=0.5"),
            (
                "net:3500:batch=4:c=0.4:fpu=0.2:ptemp=1.4:temp=1@x",
                Some(0.4),
                None,
                "net:3500:batch=4:c=0.4:fpu=0.2:ptemp=1.4:temp=1@x",
            ),
            ("net:2s:c=1", Some(1.0), None, "net:2s:c=1"),
            ("mcts:100: STOP = 1.0", None, Some(1.0), "mcts:100:stop=1"),
            (
                "net:4500:batch=4:c=0.5:fpu=0.2:ptemp=1.4:stop=0.5:temp=1@x",
                Some(0.5),
                Some(0.5),
                "net:4500:batch=4:c=0.5:fpu=0.2:ptemp=1.4:stop=0.5:temp=1@x",
            ),
        ] {
            let p = parsed(text);
            assert_eq!((p.exploration, p.early_stop), (c, stop), "{text}");
            assert_eq!(p.to_string(), canonical, "{text}");
            assert_eq!(parsed(&p.to_string()), p, "{text}");
        }
        assert_eq!(parsed("net:900:batch=4").early_stop, None);
        assert_eq!(parsed("net:900:batch=4").exploration, None);
        assert_eq!(parsed("net:900:batch=4").fpu_reduction, None);
        assert_eq!(parsed("net:900:batch=4").policy_temperature, None);
        assert_eq!(parsed("net:9:ptemp=1.4").policy_temperature, Some(1.4));
        for level in 1..=LEVELS {
            let p = parsed(&format!(" Level: {level} "));
            assert_eq!((p.kind, p.level), (BotKind::Level, Some(level)));
            assert_eq!(p.to_string(), format!("level:{level}"));
            assert_eq!(p.iterations, None);
        }
    }

    #[test]
    fn other_spellings_are_refused_with_the_one_message() {
        for bad in [
            "",
            "alphazero",
            "mcts:",
            "mcts:x",
            "mcts:0",
            "mcts:00",
            "mcts:-1",
            "mcts:+5",
            "mcts:-1s",
            "mcts:0s",
            "mcts:0.0s",
            "mcts:100_001",
            "mcts:1e9s",
            "mcts:1.2e1s",
            "mcts:1e3",
            "mcts:infs",
            "mcts:nans",
            "mcts:.5s",
            "mcts:5.s",
            "mcts:1 000",
            "mcts:５",
            "mcts:18446744073709551616",
            "mcts:s",
            "mcts:5ss",
            "greedy:5",
            "random:1s",
            "default:100",
            "mcts:100@x.safetensors",
            "net@x.safetensors",
            "net:50@",
            "net:50@ ",
            "net:abc@x",
            "net:batch=4",
            "net::batch=4",
            "net:50:",
            "net:50:batch",
            "net:50:batch=",
            "net:50:batch=0",
            "net:50:batch=257",
            "net:50:batch=-1",
            "net:50:batch=4:batch=4",
            "net:50,size=4",
            "mcts:50:batch=4",
            "greedy:1:batch=4",
            "level",
            "level:0",
            "level:11",
            "level:1.5",
            "level:01x",
            "level:3:temp=1",
            "level:3@x.safetensors",
            "level:3s",
            "mcts:100:temp=0",
            "mcts:100:temp=-1",
            "mcts:100:temp=inf",
            "mcts:100:temp=1:temp=1",
            "mcts:100:temp",
            "mcts:temp=1",
            "net:50:temp=1:batch=4",
            "greedy:temp=1",
            "random:1:temp=1",
            "mcts:100:fpu=0",
            "mcts:100:fpu=-0.2",
            "mcts:100:fpu=.2",
            "mcts:100:fpu=inf",
            "mcts:100:fpu=0.2:fpu=0.2",
            "mcts:100:temp=1:fpu=0.2",
            "net:50:fpu=0.2:batch=4",
            "mcts:fpu=0.2",
            "greedy:fpu=0.2",
            "level:3:fpu=0.2",
            "mcts:100:ptemp=1.4",
            "net:50:ptemp=0",
            "net:50:ptemp=1.4:fpu=0.2",
            "net:50:temp=1:ptemp=1.4",
            "net:50:ptemp=1.4:ptemp=1.4",
            "net:50:ptemp=1.4:batch=4",
            "mcts:100:c=0",
            "mcts:100:c=-0.5",
            "mcts:100:c=.5",
            "mcts:100:c=nan",
            "mcts:100:c=0.5:c=0.5",
            "mcts:100:fpu=0.2:c=0.5",
            "net:50:ptemp=1.4:c=0.5",
            "net:50:temp=1:c=0.5",
            "net:50:c=0.5:batch=4",
            "mcts:c=0.5",
            "greedy:c=0.5",
            "random:1:c=0.5",
            "level:3:c=0.5",
            "net:50:exploration=0.5",
            "mcts:100:stop=0",
            "mcts:100:stop=-1",
            "mcts:100:stop=1:stop=1",
            "mcts:100:temp=1:stop=1",
            "net:50:stop=1:ptemp=1.4",
            "net:50:stop=1:c=0.5",
            "mcts:stop=1",
            "greedy:stop=1",
            "level:3:stop=1",
        ] {
            let m = refused(bad);
            assert_eq!(m, format!("unknown bot `{bad}`: expected {SPEC_FORMS}"));
        }
        // 400 digits of seconds would be infinity.
        refused(&format!("mcts:{}s", "9".repeat(400)));
    }

    #[test]
    fn the_engine_builds_what_needs_no_shipped_network() {
        assert_eq!(BotSpec::parse("random").unwrap(), BotSpec::Random);
        let BotSpec::Mcts(cfg) = BotSpec::parse("mcts: 7").unwrap() else {
            panic!()
        };
        assert_eq!((cfg.iterations, cfg.time_limit), (7, None));
        let BotSpec::Mcts(cfg) = BotSpec::parse("mcts:0.25s").unwrap() else {
            panic!()
        };
        assert_eq!((cfg.iterations, cfg.time_limit), (0, Some(0.25)));
        for shipped in ["default", "net", "net:50", "net:2s"] {
            match BotSpec::parse(shipped) {
                Err(GameError::Config(m)) => assert!(m.contains("needs the network file"), "{m}"),
                other => panic!("{shipped}: {other:?}"),
            }
        }
        match BotSpec::parse("level:3") {
            Err(GameError::Config(m)) => assert!(m.contains("is an AI level"), "{m}"),
            other => panic!("level:3: {other:?}"),
        }
        // A temperature reaches the search's settings, and its name.
        let spec = BotSpec::parse("mcts:40:temp=0.5").unwrap();
        let BotSpec::Mcts(cfg) = &spec else { panic!() };
        assert_eq!((cfg.iterations, cfg.move_temperature), (40, 0.5));
        assert_eq!(spec.to_string(), "mcts:40:temp=0.5");
        // A first-play urgency reduction reaches the search's settings, and its name.
        let spec = BotSpec::parse("mcts:40:fpu=0.3").unwrap();
        let BotSpec::Mcts(cfg) = &spec else { panic!() };
        assert_eq!(cfg.fpu_reduction, 0.3);
        assert_eq!(spec.to_string(), "mcts:40:fpu=0.3");
        let BotSpec::Mcts(cfg) = BotSpec::parse("mcts:40").unwrap() else {
            panic!()
        };
        assert_eq!(cfg.fpu_reduction, 0.0);
        // An exploration weight and an early stop reach the search's settings,
        // and its name; without them the settings are the defaults (0.7, none).
        let BotSpec::Mcts(plain) = BotSpec::parse("mcts:40").unwrap() else {
            panic!()
        };
        let default_c = SearchConfig::default().exploration;
        assert_eq!((plain.exploration, plain.early_stop), (default_c, 0.0));
        for (text, expected) in [
            ("mcts:40:c=0.45", (0.45, 0.0)),
            ("mcts:40:stop=0.5", (default_c, 0.5)),
        ] {
            let spec = BotSpec::parse(text).unwrap();
            let BotSpec::Mcts(cfg) = &spec else { panic!() };
            assert_eq!((cfg.exploration, cfg.early_stop), expected, "{text}");
            assert_eq!(spec.to_string(), text);
        }
        // A batch reaches the search's settings.
        let net = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/python/splendor/data/nets/base-2p.safetensors"
        );
        let BotSpec::Mcts(cfg) = BotSpec::parse(&format!("net:30:batch=8@{net}")).unwrap() else {
            panic!()
        };
        assert_eq!((cfg.iterations, cfg.leaf_batch), (30, 8));
        let BotSpec::Mcts(cfg) = BotSpec::parse(&format!("net:30@{net}")).unwrap() else {
            panic!()
        };
        assert_eq!((cfg.leaf_batch, cfg.policy_temperature), (1, 1.0));
        // A policy temperature reaches the search's settings, and its name.
        let spec =
            BotSpec::parse(&format!("net:30:batch=4:c=0.5:fpu=0.2:ptemp=1.4@{net}")).unwrap();
        let BotSpec::Mcts(cfg) = &spec else { panic!() };
        assert_eq!(
            (cfg.exploration, cfg.fpu_reduction, cfg.policy_temperature),
            (0.5, 0.2, 1.4)
        );
        assert!(spec
            .to_string()
            .starts_with("net:30:batch=4:c=0.5:fpu=0.2:ptemp=1.4@"));
        // The engine's parse refuses exactly what the grammar refuses.
        assert!(matches!(
            BotSpec::parse("mcts:1e9s"),
            Err(GameError::Config(_))
        ));
    }
}
