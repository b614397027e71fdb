//! The input feature sets of a network file (metadata key `features`,
//! `docs/network.md`): what the trunk reads besides the raw observation.
//!
//! - `raw` (the default): the observation alone.
//! - `needs`: the observation followed by, for each seat, what it still
//!   lacks for each visible card and for each of the variant's goals (base
//!   nobles; Duel's victory thresholds and royal cards; Marvel's locations,
//!   Avengers tile and Infinity Gauntlet). The search could learn these from
//!   the raw counts, but a small MLP learns them poorly; an experiment on
//!   4,500 base self-play games measured lower held-out policy and value
//!   losses with them (`docs/training.md`).
//!
//! The extras are built by feature name from the observation spec, resolved
//! to offsets once when the network is loaded. Every value is a small integer
//! computed in `f32`, so Rust and PyTorch agree exactly.

use std::collections::HashMap;

use crate::game::{Game, GameError};
use crate::observation::{ObservationSpec, Observed};
use crate::variants::base::BaseState;
use crate::variants::duel::DuelState;
use crate::variants::marvel::state::{AVENGERS_ICONS, GAUNTLET_POINTS};
use crate::variants::marvel::MarvelState;

/// The allowed values of the `features` metadata key.
pub const FEATURE_SETS: [&str; 2] = ["raw", "needs"];

/// The variants `needs` is defined for.
const NEEDS_VARIANTS: [&str; 3] = [BaseState::VARIANT, DuelState::VARIANT, MarvelState::VARIANT];

/// Colours of the base game and Duel, in the order of their observations.
const BASE_COLOURS: [&str; 5] = ["w", "u", "g", "r", "k"];
/// Colours of Marvel, in the order of its observation.
const MARVEL_COLOURS: [&str; 5] = ["purple", "blue", "red", "orange", "yellow"];

/// Nobles the base observation describes.
const NOBLES: usize = 5;
/// Locations the Marvel observation describes.
const LOCATIONS: usize = 4;
/// Duel's visible card slots: the pyramid (5 + 4 + 3), then 3 reserves per seat.
const DUEL_PYRAMID: usize = 12;

/// Duel's victory thresholds (docs/duel.md): prestige points, crowns, and
/// prestige points on cards of one colour.
const DUEL_POINTS_TO_WIN: f32 = 20.0;
const DUEL_CROWNS_TO_WIN: f32 = 10.0;
const DUEL_COLOUR_POINTS_TO_WIN: f32 = 10.0;
/// Crown totals whose crossing gives a royal card.
const DUEL_ROYAL_CROWNS: [f32; 2] = [3.0, 6.0];

/// Variant goals per seat, after the requirement goals (nobles, locations).
const DUEL_GOALS: usize = 4;
const MARVEL_GOALS: usize = 3;

/// One card slot of the `needs` features: where its cost is, and the two
/// observation floats that must both be positive for the card to be there
/// with its cost visible.
#[derive(Clone, Debug, PartialEq)]
struct CardSlot {
    ok: [usize; 2],
    /// Cost per lane: lanes 0-4 are the bonus colours, lane 5 (Duel's
    /// pearl, when `Needs::lanes` is 6) no bonus reduces.
    cost: [usize; 6],
    /// Duel: the card's `bonus.wild` flag (a joker needs a coloured card).
    wild: Option<usize>,
}

/// One seat's offsets for the `needs` features.
#[derive(Clone, Debug, PartialEq)]
struct SeatOffsets {
    bonus: [usize; 5],
    /// Tokens per cost lane (lane 5 only when `Needs::lanes` is 6).
    tokens: [usize; 6],
    /// The wild token: base and Duel gold, Marvel grey.
    gold: usize,
}

/// One requirement goal met by bonuses alone: a base noble, a Marvel
/// location.
#[derive(Clone, Debug, PartialEq)]
struct Requirement {
    present: usize,
    requirement: [usize; 5],
}

/// One seat's offsets for Duel's goals.
#[derive(Clone, Debug, PartialEq)]
struct DuelSeat {
    points: usize,
    crowns: usize,
    colour_points: [usize; 5],
}

/// One seat's offsets for Marvel's goals.
#[derive(Clone, Debug, PartialEq)]
struct MarvelSeat {
    points: usize,
    avengers: usize,
    tile: usize,
    green: usize,
}

/// The goals after the requirements, per variant.
#[derive(Clone, Debug, PartialEq)]
enum Goals {
    /// Base: the nobles are all.
    Base,
    /// Duel: points, crowns, best colour and next royal, per seat.
    Duel(Vec<DuelSeat>),
    /// Marvel: Avengers tile, Infinity Points and stones, per seat.
    Marvel(Vec<MarvelSeat>),
}

impl Goals {
    fn per_seat(&self) -> usize {
        match self {
            Goals::Base => 0,
            Goals::Duel(_) => DUEL_GOALS,
            Goals::Marvel(_) => MARVEL_GOALS,
        }
    }
}

/// The `needs` features, resolved to offsets of one variant's observation.
#[derive(Clone, Debug, PartialEq)]
pub struct Needs {
    /// Cost lanes: 5 colours, or 6 with Duel's pearl.
    lanes: usize,
    cards: Vec<CardSlot>,
    seats: Vec<SeatOffsets>,
    requirements: Vec<Requirement>,
    goals: Goals,
}

/// What the trunk reads: the observation, maybe followed by extras.
#[derive(Clone, Debug, PartialEq)]
pub enum InputFeatures {
    /// The observation alone.
    Raw,
    /// The observation, then the needs of every seat.
    Needs(Needs),
}

fn bad(msg: String) -> GameError {
    GameError::Network(msg)
}

/// The observation length of `variant`, for the variants `needs` knows.
fn observation_size(variant: &str) -> Option<usize> {
    match variant {
        v if v == BaseState::VARIANT => Some(BaseState::OBSERVATION_SIZE),
        v if v == DuelState::VARIANT => Some(DuelState::OBSERVATION_SIZE),
        v if v == MarvelState::VARIANT => Some(MarvelState::OBSERVATION_SIZE),
        _ => None,
    }
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
                let Some(size) = observation_size(variant) else {
                    return Err(bad(format!(
                        "network file: metadata `features` = \"needs\" is defined for the {} \
                         variants, not {variant} (allowed values for {variant}: raw)",
                        NEEDS_VARIANTS.join(", ")
                    )));
                };
                if obs_size != size {
                    return Err(bad(format!(
                        "network file: metadata `features` = \"needs\" reads {variant} \
                         observations of {size} floats, but `obs_size` is {obs_size}"
                    )));
                }
                Needs::resolve(variant, players).map(InputFeatures::Needs)
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

/// The number of extras of the feature set `name` for `variant` with
/// `players` seats, or `None` when the set does not fit them (for writing
/// test files).
pub fn extra_len_of(name: &str, variant: &str, players: usize) -> Option<usize> {
    match name {
        "raw" => Some(0),
        "needs" => Needs::resolve(variant, players).ok().map(|n| n.extra_len()),
        _ => None,
    }
}

/// Offsets of an observation spec by feature name.
struct Offsets(HashMap<String, usize>);

impl Offsets {
    fn new(spec: &ObservationSpec) -> Offsets {
        Offsets(
            spec.features
                .iter()
                .map(|f| (f.name.clone(), f.offset))
                .collect(),
        )
    }

    fn at(&self, name: &str) -> Result<usize, GameError> {
        self.0
            .get(name)
            .copied()
            .ok_or_else(|| bad(format!("the observation has no feature `{name}`")))
    }

    fn colours(&self, prefix: &str, colours: &[&str; 5]) -> Result<[usize; 5], GameError> {
        let mut out = [0; 5];
        for (slot, c) in out.iter_mut().zip(colours) {
            *slot = self.at(&format!("{prefix}.{c}"))?;
        }
        Ok(out)
    }

    /// `prefix.c` for the five colours, then `prefix.pearl` as lane 5 when
    /// the variant has pearls (else lane 5 is 0 and unused).
    fn lanes(
        &self,
        prefix: &str,
        colours: &[&str; 5],
        pearl: bool,
    ) -> Result<[usize; 6], GameError> {
        let c = self.colours(prefix, colours)?;
        let pearl = if pearl {
            self.at(&format!("{prefix}.pearl"))?
        } else {
            0
        };
        Ok([c[0], c[1], c[2], c[3], c[4], pearl])
    }
}

impl Needs {
    fn resolve(variant: &str, players: usize) -> Result<Needs, GameError> {
        let spec = match variant {
            v if v == BaseState::VARIANT => <BaseState as Observed>::observation_spec(players),
            v if v == DuelState::VARIANT => <DuelState as Observed>::observation_spec(players),
            v if v == MarvelState::VARIANT => <MarvelState as Observed>::observation_spec(players),
            _ => Err(GameError::Config(format!("no variant {variant}"))),
        }
        .map_err(|e| {
            bad(format!(
                "network file: metadata `features` = \"needs\" does not fit {variant} with \
                 {players} players: {e}"
            ))
        })?;
        let o = Offsets::new(&spec);
        if variant == DuelState::VARIANT {
            Self::duel(&o, players)
        } else if variant == MarvelState::VARIANT {
            Self::marvel(&o, players)
        } else {
            Self::base(&o, players)
        }
    }

    /// Every seat's reserve slots: there, and with a visible cost. Duel's
    /// (`duel`) have pearl costs and may be jokers.
    fn reserves(
        o: &Offsets,
        players: usize,
        colours: &[&str; 5],
        duel: bool,
    ) -> Result<Vec<CardSlot>, GameError> {
        let mut cards = Vec::new();
        for s in 0..players {
            for r in 0..3 {
                let p = format!("seat{s}.reserve{r}");
                cards.push(CardSlot {
                    ok: [o.at(&format!("{p}.present"))?, o.at(&format!("{p}.known"))?],
                    cost: o.lanes(&format!("{p}.cost"), colours, duel)?,
                    wild: duel.then(|| o.at(&format!("{p}.bonus.wild"))).transpose()?,
                });
            }
        }
        Ok(cards)
    }

    fn seats(
        o: &Offsets,
        players: usize,
        colours: &[&str; 5],
        pearl: bool,
        gold: &str,
    ) -> Result<Vec<SeatOffsets>, GameError> {
        (0..players)
            .map(|s| {
                Ok(SeatOffsets {
                    bonus: o.colours(&format!("seat{s}.bonus"), colours)?,
                    tokens: o.lanes(&format!("seat{s}.tokens"), colours, pearl)?,
                    gold: o.at(&format!("seat{s}.tokens.{gold}"))?,
                })
            })
            .collect()
    }

    fn requirements(
        o: &Offsets,
        prefix: &str,
        count: usize,
        colours: &[&str; 5],
    ) -> Result<Vec<Requirement>, GameError> {
        (0..count)
            .map(|n| {
                Ok(Requirement {
                    present: o.at(&format!("{prefix}{n}.present"))?,
                    requirement: o.colours(&format!("{prefix}{n}.requirement"), colours)?,
                })
            })
            .collect()
    }

    /// Base: the 12 board slots (a slot holds a card when its level is
    /// positive), the reserves; the nobles.
    fn base(o: &Offsets, players: usize) -> Result<Needs, GameError> {
        let c = &BASE_COLOURS;
        let mut cards = Vec::new();
        for level in 1..=3 {
            for i in 0..4 {
                let p = format!("board.l{level}.{i}");
                let lvl = o.at(&format!("{p}.level"))?;
                cards.push(CardSlot {
                    ok: [lvl, lvl],
                    cost: o.lanes(&format!("{p}.cost"), c, false)?,
                    wild: None,
                });
            }
        }
        cards.extend(Self::reserves(o, players, c, false)?);
        Ok(Needs {
            lanes: 5,
            cards,
            seats: Self::seats(o, players, c, false, "gold")?,
            requirements: Self::requirements(o, "noble", NOBLES, c)?,
            goals: Goals::Base,
        })
    }

    /// Duel: the 12 pyramid slots and the reserves, costs with pearls (lane
    /// 5, which no bonus reduces); the victory thresholds and royals.
    fn duel(o: &Offsets, players: usize) -> Result<Needs, GameError> {
        let c = &BASE_COLOURS;
        let mut cards = Vec::new();
        for s in 0..DUEL_PYRAMID {
            let p = format!("pyramid.{s}");
            let present = o.at(&format!("{p}.present"))?;
            cards.push(CardSlot {
                ok: [present, present],
                cost: o.lanes(&format!("{p}.cost"), c, true)?,
                wild: Some(o.at(&format!("{p}.bonus.wild"))?),
            });
        }
        cards.extend(Self::reserves(o, players, c, true)?);
        let goals = (0..players)
            .map(|s| {
                Ok(DuelSeat {
                    points: o.at(&format!("seat{s}.points"))?,
                    crowns: o.at(&format!("seat{s}.crowns"))?,
                    colour_points: o.colours(&format!("seat{s}.colour_points"), c)?,
                })
            })
            .collect::<Result<Vec<_>, GameError>>()?;
        Ok(Needs {
            lanes: 6,
            cards,
            seats: Self::seats(o, players, c, true, "gold")?,
            requirements: Vec::new(),
            goals: Goals::Duel(goals),
        })
    }

    /// Marvel: the 12 board slots (`present`) and the reserves; the
    /// locations, the Avengers tile and the Infinity Gauntlet.
    fn marvel(o: &Offsets, players: usize) -> Result<Needs, GameError> {
        let c = &MARVEL_COLOURS;
        let mut cards = Vec::new();
        for level in 1..=3 {
            for i in 0..4 {
                let p = format!("board.l{level}.{i}");
                let present = o.at(&format!("{p}.present"))?;
                cards.push(CardSlot {
                    ok: [present, present],
                    cost: o.lanes(&format!("{p}.cost"), c, false)?,
                    wild: None,
                });
            }
        }
        cards.extend(Self::reserves(o, players, c, false)?);
        let goals = (0..players)
            .map(|s| {
                Ok(MarvelSeat {
                    points: o.at(&format!("seat{s}.points"))?,
                    avengers: o.at(&format!("seat{s}.avengers"))?,
                    tile: o.at(&format!("seat{s}.avengers_tile"))?,
                    green: o.at(&format!("seat{s}.tokens.green"))?,
                })
            })
            .collect::<Result<Vec<_>, GameError>>()?;
        Ok(Needs {
            lanes: 5,
            cards,
            seats: Self::seats(o, players, c, false, "grey")?,
            requirements: Self::requirements(o, "location", LOCATIONS, c)?,
            goals: Goals::Marvel(goals),
        })
    }

    fn per_seat(&self) -> usize {
        3 * self.cards.len() + self.requirements.len() + self.goals.per_seat()
    }

    fn extra_len(&self) -> usize {
        self.seats.len() * self.per_seat()
    }

    /// Per seat: need_sum[K], missing[K], affordable[K], requirement_need[R],
    /// then the variant's goals.
    fn write(&self, obs: &[f32], out: &mut [f32]) {
        let k = self.cards.len();
        // Marvel: the icons the Avengers tile's holder has (0 when nobody
        // holds it); another seat takes it with more.
        let holder_icons = match &self.goals {
            Goals::Marvel(seats) => seats.iter().map(|g| obs[g.tile] * obs[g.avengers]).sum(),
            _ => 0.0f32,
        };
        for (s, (seat, chunk)) in self
            .seats
            .iter()
            .zip(out.chunks_exact_mut(self.per_seat()))
            .enumerate()
        {
            let (need_sum, rest) = chunk.split_at_mut(k);
            let (missing, rest) = rest.split_at_mut(k);
            let (affordable, rest) = rest.split_at_mut(k);
            let (requirement_need, goals) = rest.split_at_mut(self.requirements.len());
            // Duel: a joker needs a card of a real colour, that is a bonus
            // (a joker only ever joins a colour that has a real card).
            let has_colour = seat.bonus.iter().any(|&b| obs[b] > 0.0);
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
                if self.lanes == 6 {
                    let lack = obs[card.cost[5]];
                    need += lack;
                    short += (lack - obs[seat.tokens[5]]).max(0.0);
                }
                let lacking = (short - obs[seat.gold]).max(0.0);
                let joker_barred = card.wild.is_some_and(|w| obs[w] > 0.0) && !has_colour;
                need_sum[j] = need;
                missing[j] = lacking;
                affordable[j] = if lacking == 0.0 && !joker_barred {
                    1.0
                } else {
                    0.0
                };
            }
            for (out, goal) in requirement_need.iter_mut().zip(&self.requirements) {
                let mut need = 0.0f32;
                for c in 0..5 {
                    need += (obs[goal.requirement[c]] - obs[seat.bonus[c]]).max(0.0);
                }
                *out = obs[goal.present] * need;
            }
            match &self.goals {
                Goals::Base => {}
                Goals::Duel(seats) => duel_goals(obs, &seats[s], goals),
                Goals::Marvel(seats) => {
                    marvel_goals(obs, &seats[s], &seat.bonus, holder_icons, goals)
                }
            }
        }
    }
}

/// Duel, per seat: the points, crowns and best colour's points still
/// missing for each victory, and the crowns to the next royal card (0 once
/// both are earned).
fn duel_goals(obs: &[f32], seat: &DuelSeat, out: &mut [f32]) {
    let crowns = obs[seat.crowns];
    out[0] = (DUEL_POINTS_TO_WIN - obs[seat.points]).max(0.0);
    out[1] = (DUEL_CROWNS_TO_WIN - crowns).max(0.0);
    out[2] = seat
        .colour_points
        .iter()
        .map(|&c| (DUEL_COLOUR_POINTS_TO_WIN - obs[c]).max(0.0))
        .fold(DUEL_COLOUR_POINTS_TO_WIN, f32::min);
    let [first, second] = DUEL_ROYAL_CROWNS;
    out[3] = if crowns < first {
        first - crowns
    } else {
        (second - crowns).max(0.0)
    };
}

/// Marvel, per seat: the Avengers icons still needed to take the tile (0
/// for its holder), the Infinity Points missing for the Gauntlet, and the
/// Gauntlet's stones still missing (bonus colours without a card, and the
/// green Time Stone).
fn marvel_goals(
    obs: &[f32],
    seat: &MarvelSeat,
    bonus: &[usize; 5],
    holder_icons: f32,
    out: &mut [f32],
) {
    let target = f32::from(AVENGERS_ICONS).max(holder_icons + 1.0);
    out[0] = (1.0 - obs[seat.tile]) * (target - obs[seat.avengers]).max(0.0);
    out[1] = (f32::from(GAUNTLET_POINTS) - obs[seat.points]).max(0.0);
    let colours = bonus.iter().filter(|&&b| obs[b] == 0.0).count() as f32;
    out[2] = colours + (1.0 - obs[seat.green]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needs_has_the_documented_length() {
        let cases = [
            ("base", 2, 118),
            ("base", 3, 204),
            ("base", 4, 308),
            ("duel", 2, 116),
            ("marvel", 2, 122),
            ("marvel", 3, 210),
            ("marvel", 4, 316),
        ];
        for (variant, players, documented) in cases {
            let size = observation_size(variant).expect("a variant");
            let f = InputFeatures::resolve("needs", variant, players, size).expect("fits");
            let (k, goals) = match variant {
                "base" => (12 + 3 * players, 5),
                "duel" => (12 + 3 * players, 4),
                _ => (12 + 3 * players, 4 + 3),
            };
            assert_eq!(f.extra_len(), players * (3 * k + goals));
            assert_eq!(f.extra_len(), documented, "{variant} {players}");
            assert_eq!(Some(f.extra_len()), extra_len_of("needs", variant, players));
        }
        assert_eq!(extra_len_of("needs", "duel", 3), None);
        assert_eq!(extra_len_of("needs", "chess", 2), None);
    }
}
