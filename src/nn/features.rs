//! The input feature sets of a network file (metadata key `features`,
//! `docs/network.md`): what the trunk reads besides the raw observation.
//!
//! - `raw` (the default): the observation alone.
//! - `needs` (base game only): the observation followed by, for each seat,
//!   what it still lacks for each visible card and noble. The search could
//!   learn these from the raw counts, but a small MLP learns them poorly; an
//!   experiment on 4,500 self-play games measured lower held-out policy and
//!   value losses with them (`docs/training.md`).
//!
//! The extras are built by feature name from the observation spec, resolved
//! to offsets once when the network is loaded. Every value is a small integer
//! computed in `f32`, so Rust and PyTorch agree exactly.

use crate::env::spec::Observed;
use crate::game::{Game, GameError};
use crate::variants::base::BaseState;

/// The allowed values of the `features` metadata key.
pub const FEATURE_SETS: [&str; 2] = ["raw", "needs"];

/// Colours of the base game, in the order of the observation (w, u, g, r, k).
const COLOURS: [&str; 5] = ["w", "u", "g", "r", "k"];

/// Nobles the base observation describes.
const NOBLES: usize = 5;

/// One card slot of the `needs` features: where its cost is, and the two
/// observation floats that must both be positive for the card to be there
/// with its cost visible (a board slot's `level` twice; a reserve slot's
/// `present` and `known`).
#[derive(Clone, Debug, PartialEq)]
struct CardSlot {
    ok: [usize; 2],
    cost: [usize; 5],
}

/// One seat's offsets for the `needs` features.
#[derive(Clone, Debug, PartialEq)]
struct SeatOffsets {
    bonus: [usize; 5],
    tokens: [usize; 5],
    gold: usize,
}

/// One noble's offsets.
#[derive(Clone, Debug, PartialEq)]
struct NobleOffsets {
    present: usize,
    requirement: [usize; 5],
}

/// The `needs` features, resolved to offsets of the base observation.
#[derive(Clone, Debug, PartialEq)]
pub struct Needs {
    cards: Vec<CardSlot>,
    seats: Vec<SeatOffsets>,
    nobles: Vec<NobleOffsets>,
}

/// What the trunk reads: the observation, maybe followed by extras.
#[derive(Clone, Debug, PartialEq)]
pub enum InputFeatures {
    /// The observation alone.
    Raw,
    /// The observation, then the needs of every seat (base game only).
    Needs(Needs),
}

fn bad(msg: String) -> GameError {
    GameError::Network(msg)
}

impl InputFeatures {
    /// The feature set named `name` for a network of `variant` with
    /// `players` seats, reading observations of `obs_size` floats.
    ///
    /// Errors (`GameError::Network`) name the key and the allowed values.
    pub fn resolve(
        name: &str,
        variant: &str,
        players: usize,
        obs_size: usize,
    ) -> Result<InputFeatures, GameError> {
        match name {
            "raw" => Ok(InputFeatures::Raw),
            "needs" => {
                if variant != BaseState::VARIANT {
                    return Err(bad(format!(
                        "network file: metadata `features` = \"needs\" is defined for the base \
                         variant only, not {variant} (allowed values for {variant}: raw)"
                    )));
                }
                if obs_size != BaseState::OBSERVATION_SIZE {
                    return Err(bad(format!(
                        "network file: metadata `features` = \"needs\" reads base observations of \
                         {} floats, but `obs_size` is {obs_size}",
                        BaseState::OBSERVATION_SIZE
                    )));
                }
                Needs::resolve(players).map(InputFeatures::Needs)
            }
            other => Err(bad(format!(
                "network file: metadata `features` must be one of {}, got {other:?}",
                FEATURE_SETS.join(", ")
            ))),
        }
    }

    /// The name written in the file's `features` key.
    pub fn name(&self) -> &'static str {
        match self {
            InputFeatures::Raw => "raw",
            InputFeatures::Needs(_) => "needs",
        }
    }

    /// How many floats follow the observation in the trunk's input.
    pub fn extra_len(&self) -> usize {
        match self {
            InputFeatures::Raw => 0,
            InputFeatures::Needs(n) => n.extra_len(),
        }
    }

    /// Writes the extras of `obs` into `out` (`out.len() == extra_len()`).
    pub fn write(&self, obs: &[f32], out: &mut [f32]) {
        assert_eq!(out.len(), self.extra_len(), "extra features length");
        if let InputFeatures::Needs(n) = self {
            n.write(obs, out);
        }
    }
}

/// The number of extras of the feature set `name` for `players` seats, or
/// `None` for a name that is not a feature set (for writing test files).
pub fn extra_len_of(name: &str, players: usize) -> Option<usize> {
    match name {
        "raw" => Some(0),
        "needs" => Some(players * (3 * (12 + 3 * players) + NOBLES)),
        _ => None,
    }
}

impl Needs {
    fn resolve(players: usize) -> Result<Needs, GameError> {
        let spec = <BaseState as Observed>::observation_spec(players).map_err(|e| {
            bad(format!(
                "network file: metadata `features` = \"needs\" does not fit {players} players: {e}"
            ))
        })?;
        let at = |name: &str| -> Result<usize, GameError> {
            spec.features
                .iter()
                .find(|f| f.name == name)
                .map(|f| f.offset)
                .ok_or_else(|| bad(format!("the base observation has no feature `{name}`")))
        };
        let colours = |prefix: &str| -> Result<[usize; 5], GameError> {
            let mut out = [0; 5];
            for (slot, c) in out.iter_mut().zip(COLOURS) {
                *slot = at(&format!("{prefix}.{c}"))?;
            }
            Ok(out)
        };
        let mut cards = Vec::new();
        for level in 1..=3 {
            for i in 0..4 {
                let p = format!("board.l{level}.{i}");
                let lvl = at(&format!("{p}.level"))?;
                cards.push(CardSlot {
                    ok: [lvl, lvl],
                    cost: colours(&format!("{p}.cost"))?,
                });
            }
        }
        for s in 0..players {
            for r in 0..3 {
                let p = format!("seat{s}.reserve{r}");
                cards.push(CardSlot {
                    ok: [at(&format!("{p}.present"))?, at(&format!("{p}.known"))?],
                    cost: colours(&format!("{p}.cost"))?,
                });
            }
        }
        let seats = (0..players)
            .map(|s| {
                Ok(SeatOffsets {
                    bonus: colours(&format!("seat{s}.bonus"))?,
                    tokens: colours(&format!("seat{s}.tokens"))?,
                    gold: at(&format!("seat{s}.tokens.gold"))?,
                })
            })
            .collect::<Result<Vec<_>, GameError>>()?;
        let nobles = (0..NOBLES)
            .map(|n| {
                Ok(NobleOffsets {
                    present: at(&format!("noble{n}.present"))?,
                    requirement: colours(&format!("noble{n}.requirement"))?,
                })
            })
            .collect::<Result<Vec<_>, GameError>>()?;
        Ok(Needs {
            cards,
            seats,
            nobles,
        })
    }

    fn extra_len(&self) -> usize {
        self.seats.len() * (3 * self.cards.len() + self.nobles.len())
    }

    /// Per seat: need_sum[K], missing[K], affordable[K], noble_need[5].
    fn write(&self, obs: &[f32], out: &mut [f32]) {
        let k = self.cards.len();
        let per_seat = 3 * k + self.nobles.len();
        for (seat, chunk) in self.seats.iter().zip(out.chunks_exact_mut(per_seat)) {
            let (need_sum, rest) = chunk.split_at_mut(k);
            let (missing, rest) = rest.split_at_mut(k);
            let (affordable, noble_need) = rest.split_at_mut(k);
            for (j, card) in self.cards.iter().enumerate() {
                let ok = obs[card.ok[0]] > 0.0 && obs[card.ok[1]] > 0.0;
                if !ok {
                    need_sum[j] = 0.0;
                    missing[j] = 0.0;
                    affordable[j] = 0.0;
                    continue;
                }
                let (mut need, mut short) = (0.0f32, 0.0f32);
                for c in 0..5 {
                    let lack = (obs[card.cost[c]] - obs[seat.bonus[c]]).max(0.0);
                    need += lack;
                    short += (lack - obs[seat.tokens[c]]).max(0.0);
                }
                let lacking = (short - obs[seat.gold]).max(0.0);
                need_sum[j] = need;
                missing[j] = lacking;
                affordable[j] = if lacking == 0.0 { 1.0 } else { 0.0 };
            }
            for (out, noble) in noble_need.iter_mut().zip(&self.nobles) {
                let mut need = 0.0f32;
                for c in 0..5 {
                    need += (obs[noble.requirement[c]] - obs[seat.bonus[c]]).max(0.0);
                }
                *out = obs[noble.present] * need;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_has_the_documented_length() {
        for (players, documented) in [(2, 118), (3, 204), (4, 308)] {
            let f = InputFeatures::resolve("needs", "base", players, BaseState::OBSERVATION_SIZE)
                .expect("base fits");
            assert_eq!(f.extra_len(), players * (3 * (12 + 3 * players) + 5));
            assert_eq!(f.extra_len(), documented);
            assert_eq!(Some(f.extra_len()), extra_len_of("needs", players));
        }
    }
}
