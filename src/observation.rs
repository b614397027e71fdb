//! The observation spec: a name, offset and scale for every float of each
//! variant's observation vector, known without creating a state.
//!
//! The layouts are the ones documented in `docs/base.md`, `docs/duel.md` and
//! `docs/marvel.md`; the tests check the spec against observations of real
//! states. `value / scale` is the normalised feature: for a feature marked
//! `bounded` the scale is a hard maximum, so the normalised value is in
//! `[0, 1]`; for the others (points, card counts, rounds) it is a typical
//! range and the normalised value can exceed 1 in long games.

use crate::game::{ActionList, Game, GameError};
use crate::variants::{base::BaseState, duel::DuelState, marvel::MarvelState};

/// One float of the observation.
#[derive(Clone, Debug, PartialEq)]
pub struct Feature {
    /// Dotted name, e.g. `seat1.tokens.gold` (seats relative to the observer).
    pub name: String,
    /// Index in the observation vector.
    pub offset: usize,
    /// Divisor used by the normalised observation (always > 0).
    pub scale: f32,
    /// True when `scale` is a hard maximum of the feature.
    pub bounded: bool,
}

/// Every feature of one variant's observation, in offset order.
#[derive(Clone, Debug, PartialEq)]
pub struct ObservationSpec {
    /// The variant's name.
    pub variant: &'static str,
    /// The player count the spec was asked for (the layout is the same for
    /// every count: absent seats are zeros).
    pub players: usize,
    /// One entry per float, `features[i].offset == i`.
    pub features: Vec<Feature>,
}

impl ObservationSpec {
    /// `1 / scale` per feature, what the normalised observation multiplies by.
    pub fn inverse_scales(&self) -> Vec<f32> {
        self.features.iter().map(|f| 1.0 / f.scale).collect()
    }
}

/// Words of a legal-action bitset (any variant's action space fits).
pub const MASK_WORDS: usize = 8;

/// Legal actions as bits: action `a` is bit `a % 64` of word `a / 64`.
pub type LegalBits = [u64; MASK_WORDS];

/// A game whose observation layout is described feature by feature, and
/// what else the batched environment asks of it.
pub trait Observed: Game {
    /// The spec for `players` seats (`Config` error for a count the variant
    /// does not seat).
    fn observation_spec(players: usize) -> Result<ObservationSpec, GameError>;

    /// Writes the legal actions as bits into `out` (the same set as
    /// `legal_actions`). The default builds the list in `scratch`; a variant
    /// whose rules compute the set as bits anyway overrides it to skip the
    /// list.
    fn legal_bits(&self, scratch: &mut ActionList, out: &mut LegalBits) {
        default_legal_bits(self, scratch, out);
    }
}

/// `legal_bits` through the list of legal actions.
fn default_legal_bits<G: Game>(game: &G, scratch: &mut ActionList, out: &mut LegalBits) {
    game.legal_actions(scratch);
    *out = [0; MASK_WORDS];
    for &a in scratch.as_slice() {
        out[a.index() / 64] |= 1 << (a.index() % 64);
    }
}

struct Builder {
    features: Vec<Feature>,
}

impl Builder {
    fn new() -> Self {
        Self {
            features: Vec::new(),
        }
    }
    fn one(&mut self, name: impl Into<String>, scale: f32, bounded: bool) {
        let offset = self.features.len();
        self.features.push(Feature {
            name: name.into(),
            offset,
            scale,
            bounded,
        });
    }
    /// A flag or one-hot element: 0 or 1.
    fn flag(&mut self, name: impl Into<String>) {
        self.one(name, 1.0, true);
    }
    fn flags(&mut self, prefix: &str, names: &[&str]) {
        for n in names {
            self.flag(format!("{prefix}.{n}"));
        }
    }
    fn counts(&mut self, prefix: &str, names: &[&str], scale: f32, bounded: bool) {
        for n in names {
            self.one(format!("{prefix}.{n}"), scale, bounded);
        }
    }
    fn finish<G: Game>(self, players: usize) -> ObservationSpec {
        debug_assert_eq!(self.features.len(), G::OBSERVATION_SIZE);
        ObservationSpec {
            variant: G::VARIANT,
            players,
            features: self.features,
        }
    }
}

fn check_players(
    variant: &str,
    players: usize,
    allowed: std::ops::RangeInclusive<usize>,
) -> Result<(), GameError> {
    if allowed.contains(&players) {
        Ok(())
    } else {
        Err(GameError::Config(format!(
            "{variant} seats {} to {} players, got {players}",
            allowed.start(),
            allowed.end()
        )))
    }
}

const BASE_COLOURS: [&str; 5] = ["w", "u", "g", "r", "k"];

/// Base card: `[level, points, bonus one-hot 5, cost 5]`.
fn base_card(b: &mut Builder, p: &str) {
    b.one(format!("{p}.level"), 3.0, true);
    b.one(format!("{p}.points"), 5.0, true);
    b.flags(&format!("{p}.bonus"), &BASE_COLOURS);
    b.counts(&format!("{p}.cost"), &BASE_COLOURS, 7.0, true);
}

fn base_tokens(b: &mut Builder, p: &str) {
    b.counts(p, &BASE_COLOURS, 7.0, true);
    b.one(format!("{p}.gold"), 5.0, true);
}

impl Observed for BaseState {
    fn legal_bits(&self, scratch: &mut ActionList, out: &mut LegalBits) {
        // Most decisions are main-phase ones, whose legal set the rules
        // compute as bits: no list needed.
        use crate::variants::base::actions::{NOBLE, PASS, RETURN};
        use crate::variants::base::state::Phase;
        *out = [0; MASK_WORDS];
        match self.phase {
            Phase::Main => {
                let bits = self.main_mask();
                out[0] = bits;
                if bits == 0 {
                    out[usize::from(PASS) / 64] |= 1 << (PASS % 64);
                }
            }
            // The returns (ids 60..66, across words 0 and 1) and the nobles
            // (66..76) are masks in the rules too.
            Phase::Return => {
                let bits = u128::from(self.return_mask()) << RETURN;
                (out[0], out[1]) = (bits as u64, (bits >> 64) as u64);
            }
            Phase::Noble => {
                let bits = u128::from(self.noble_mask()) << NOBLE;
                (out[0], out[1]) = (bits as u64, (bits >> 64) as u64);
            }
            _ => default_legal_bits(self, scratch, out),
        }
    }

    fn observation_spec(players: usize) -> Result<ObservationSpec, GameError> {
        check_players(Self::VARIANT, players, 2..=4)?;
        let mut b = Builder::new();
        base_tokens(&mut b, "bank");
        for l in 1..=3 {
            for s in 0..4 {
                base_card(&mut b, &format!("board.l{l}.{s}"));
            }
        }
        for (l, size) in [(1, 40.0), (2, 30.0), (3, 20.0)] {
            b.one(format!("deck.l{l}"), size, true);
        }
        for i in 0..5 {
            b.flag(format!("noble{i}.present"));
            b.counts(&format!("noble{i}.requirement"), &BASE_COLOURS, 4.0, true);
        }
        for seat in 0..4 {
            let p = format!("seat{seat}");
            base_tokens(&mut b, &format!("{p}.tokens"));
            // 18 cards of each colour exist.
            b.counts(&format!("{p}.bonus"), &BASE_COLOURS, 18.0, true);
            b.one(format!("{p}.points"), 20.0, false);
            b.one(format!("{p}.cards"), 20.0, false);
            b.one(format!("{p}.nobles"), 5.0, true);
            for r in 0..3 {
                let q = format!("{p}.reserve{r}");
                b.flag(format!("{q}.present"));
                b.flag(format!("{q}.known"));
                base_card(&mut b, &q);
            }
        }
        b.flags("phase", &["main", "pay", "return", "noble", "over"]);
        for s in 0..12 {
            b.flag(format!("pending.board.l{}.{}", s / 4 + 1, s % 4));
        }
        for r in 0..3 {
            b.flag(format!("pending.reserve{r}"));
        }
        b.one("rounds", 100.0, false);
        b.flag("last_round");
        b.flags("players", &["2", "3", "4"]);
        Ok(b.finish::<Self>(players))
    }
}

const DUEL_COLOURS: [&str; 5] = ["w", "u", "g", "r", "k"];
const DUEL_KINDS: [&str; 7] = ["w", "u", "g", "r", "k", "pearl", "gold"];

/// Duel card: `[present, level, points, crowns, bonus one-hot 7, bonus_count,
/// abilities 5, cost 6]`.
fn duel_card(b: &mut Builder, p: &str) {
    b.flag(format!("{p}.present"));
    b.one(format!("{p}.level"), 3.0, true);
    b.one(format!("{p}.points"), 6.0, false);
    b.one(format!("{p}.crowns"), 3.0, false);
    b.flags(
        &format!("{p}.bonus"),
        &["w", "u", "g", "r", "k", "wild", "none"],
    );
    b.one(format!("{p}.bonus_count"), 2.0, false);
    b.flags(
        &format!("{p}.ability"),
        &["again", "token", "steal", "privilege", "wild"],
    );
    b.counts(
        &format!("{p}.cost"),
        &["w", "u", "g", "r", "k", "pearl"],
        8.0,
        false,
    );
}

impl Observed for DuelState {
    fn observation_spec(players: usize) -> Result<ObservationSpec, GameError> {
        check_players(Self::VARIANT, players, 2..=2)?;
        let mut b = Builder::new();
        for cell in 0..25 {
            b.flags(&format!("board.cell{cell}"), &DUEL_KINDS);
        }
        b.counts("bag", &DUEL_KINDS, 4.0, true);
        for s in 0..12 {
            duel_card(&mut b, &format!("pyramid.{s}"));
        }
        for (l, size) in [(1, 30.0), (2, 24.0), (3, 13.0)] {
            b.one(format!("deck.l{l}"), size, true);
        }
        for r in 0..4 {
            b.flag(format!("royal{r}.available"));
        }
        b.one("privileges_in_supply", 3.0, true);
        for seat in 0..2 {
            let p = format!("seat{seat}");
            b.counts(&format!("{p}.tokens"), &DUEL_KINDS, 4.0, false);
            b.counts(&format!("{p}.bonus"), &DUEL_COLOURS, 10.0, false);
            b.counts(&format!("{p}.colour_points"), &DUEL_COLOURS, 10.0, false);
            b.one(format!("{p}.points"), 20.0, false);
            b.one(format!("{p}.crowns"), 10.0, false);
            b.one(format!("{p}.privileges"), 3.0, true);
            for r in 0..4 {
                b.flag(format!("{p}.royal{r}"));
            }
            b.one(format!("{p}.cards"), 20.0, false);
            for r in 0..3 {
                let q = format!("{p}.reserve{r}");
                b.flag(format!("{q}.known"));
                duel_card(&mut b, &q);
            }
        }
        b.flags(
            "phase",
            &[
                "main", "reserve", "pay", "joker", "token", "steal", "royal", "discard", "over",
            ],
        );
        b.flag("replenished");
        b.flag("again");
        b.one("royals_due", 2.0, false);
        duel_card(&mut b, "pending");
        b.one("rounds", 100.0, false);
        Ok(b.finish::<Self>(players))
    }
}

const MARVEL_COLOURS: [&str; 5] = ["purple", "blue", "red", "orange", "yellow"];

/// Marvel card: `[level, points, avengers, time_stone, bonus one-hot 5, cost 5]`.
fn marvel_card(b: &mut Builder, p: &str) {
    b.one(format!("{p}.level"), 3.0, false);
    b.one(format!("{p}.points"), 5.0, false);
    b.one(format!("{p}.avengers"), 3.0, false);
    b.flag(format!("{p}.time_stone"));
    b.flags(&format!("{p}.bonus"), &MARVEL_COLOURS);
    b.counts(&format!("{p}.cost"), &MARVEL_COLOURS, 8.0, false);
}

/// Stones, grey and green; the bank holds one green per player, a player at
/// most one.
fn marvel_tokens(b: &mut Builder, p: &str, green: f32) {
    b.counts(p, &MARVEL_COLOURS, 7.0, true);
    b.one(format!("{p}.grey"), 5.0, true);
    b.one(format!("{p}.green"), green, true);
}

impl Observed for MarvelState {
    fn observation_spec(players: usize) -> Result<ObservationSpec, GameError> {
        check_players(Self::VARIANT, players, 2..=4)?;
        let mut b = Builder::new();
        marvel_tokens(&mut b, "bank", 4.0);
        for l in 1..=3 {
            for s in 0..4 {
                let p = format!("board.l{l}.{s}");
                b.flag(format!("{p}.present"));
                marvel_card(&mut b, &p);
            }
        }
        for l in 1..=3 {
            b.one(format!("deck.l{l}"), 40.0, false);
        }
        for i in 0..4 {
            b.flag(format!("location{i}.present"));
            b.counts(
                &format!("location{i}.requirement"),
                &MARVEL_COLOURS,
                5.0,
                false,
            );
        }
        for seat in 0..4 {
            let p = format!("seat{seat}");
            marvel_tokens(&mut b, &format!("{p}.tokens"), 1.0);
            b.counts(&format!("{p}.bonus"), &MARVEL_COLOURS, 10.0, false);
            b.one(format!("{p}.points"), 16.0, false);
            b.one(format!("{p}.cards"), 20.0, false);
            b.one(format!("{p}.locations"), 4.0, false);
            b.one(format!("{p}.avengers"), 10.0, false);
            b.flag(format!("{p}.avengers_tile"));
            b.flag(format!("{p}.meets_gauntlet"));
            for r in 0..3 {
                let q = format!("{p}.reserve{r}");
                b.flag(format!("{q}.present"));
                b.flag(format!("{q}.known"));
                marvel_card(&mut b, &q);
            }
        }
        b.flags("phase", &["main", "pay", "return", "location", "over"]);
        for s in 0..12 {
            b.flag(format!("pending.board.l{}.{}", s / 4 + 1, s % 4));
        }
        for r in 0..3 {
            b.flag(format!("pending.reserve{r}"));
        }
        b.one("rounds", 100.0, false);
        b.flag("gauntlet_met");
        b.flags("players", &["2", "3", "4"]);
        Ok(b.finish::<Self>(players))
    }
}
