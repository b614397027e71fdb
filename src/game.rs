//! The one contract every variant implements.
//!
//! Search, bots, the arena, the conformance tests, the CLI and the Python
//! bindings are written once against [`Game`]. A turn is a sequence of small
//! decisions by one player (main action, then payment / token returns /
//! noble-location-royal choices as the variant needs), so every real choice of
//! the rules is an [`Action`] picked from a short legal list.

use crate::rng::SplitMix64;
use std::fmt;

/// A seat index, `0..num_players`.
pub type Player = u8;

/// Most players any variant seats.
pub const MAX_PLAYERS: usize = 4;

/// Capacity of an [`ActionList`]: larger than any variant's legal list.
pub const MAX_LEGAL_ACTIONS: usize = 512;

/// An action: a stable integer id in `0..G::NUM_ACTIONS`.
///
/// Ids and their text form are part of the public format (saved games, RL
/// code); each variant documents its table in `docs/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Action(pub u16);

impl Action {
    /// The id as an index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A fixed-capacity list of legal actions, filled without allocation, in
/// ascending id order.
#[derive(Clone)]
pub struct ActionList {
    len: usize,
    items: [Action; MAX_LEGAL_ACTIONS],
}

impl Default for ActionList {
    fn default() -> Self {
        Self::new()
    }
}

impl ActionList {
    /// An empty list.
    #[inline]
    pub fn new() -> Self {
        Self {
            len: 0,
            items: [Action(0); MAX_LEGAL_ACTIONS],
        }
    }
    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
    /// Appends an action (ids must be pushed in ascending order).
    #[inline]
    pub fn push(&mut self, a: Action) {
        debug_assert!(self.len < MAX_LEGAL_ACTIONS);
        debug_assert!(self.len == 0 || self.items[self.len - 1] < a);
        self.items[self.len] = a;
        self.len += 1;
    }
    /// Appends `base + i` for every set bit `i` of `bits`, ascending (ids
    /// must stay above those already listed).
    ///
    /// Byte by byte: each byte's set-bit positions come from a table as 8
    /// ids written at once (the ones past the byte's count are overwritten
    /// by the next byte or left beyond the length), at an offset given by
    /// the running popcount of the bytes before. So there is no chain of
    /// "clear the lowest bit" steps, one per action, which dominated the
    /// cost of a 30-action list.
    #[inline(always)]
    pub fn push_mask(&mut self, base: u16, bits: u64) {
        debug_assert!(
            self.len == 0
                || bits == 0
                || self.items[self.len - 1].0 < base + bits.trailing_zeros() as u16
        );
        const ONES: u64 = 0x0101_0101_0101_0101;
        // Room for 64 ids and the 8 written past the last one.
        if self.len + 72 > MAX_LEGAL_ACTIONS {
            return self.push_mask_one_by_one(base, bits);
        }
        let s = bits - ((bits >> 1) & 0x5555_5555_5555_5555);
        let s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
        let per_byte = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        // Byte i of `before` = set bits in bytes 0..i.
        let before = per_byte.wrapping_mul(ONES) << 8;
        // Only the bytes up to the highest set bit (none for an empty mask).
        let bytes = (71 - bits.leading_zeros()) / 8;
        for i in 0..bytes {
            let at = self.len + ((before >> (8 * i)) & 0xFF) as usize;
            let positions = &BYTE_POSITIONS[((bits >> (8 * i)) & 0xFF) as usize];
            let slots: &mut [Action; 8] = (&mut self.items[at..at + 8])
                .try_into()
                .expect("8 slots within the room checked above");
            write_ids(slots, positions, base.wrapping_add(8 * i as u16));
        }
        self.len += (per_byte.wrapping_mul(ONES) >> 56) as usize;
    }

    /// `push_mask` near the end of the capacity: one id at a time.
    #[cold]
    fn push_mask_one_by_one(&mut self, base: u16, mut bits: u64) {
        while bits != 0 {
            self.push(Action(base + bits.trailing_zeros() as u16));
            bits &= bits - 1;
        }
    }
    /// Number of actions.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }
    /// True when no action is listed.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The actions as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len]
    }
    /// Whether `a` is listed (binary search: the list is sorted).
    #[inline]
    pub fn contains(&self, a: Action) -> bool {
        self.as_slice().binary_search(&a).is_ok()
    }
}

/// The position of the `k`-th set bit of `bits`, counting from the lowest,
/// where `k = choose(bits.count_ones())` must be below the count it is given.
/// Branch-free: per-byte popcounts and their running sums (one multiply) give
/// the count and find the byte, a table finishes inside it. It lets a random
/// playout pick the `k`-th legal action of a main-phase mask without listing
/// the actions first (and without `count_ones`, which is a dozen instructions
/// where the x86_64 baseline has no popcount instruction).
#[inline]
pub fn nth_set_bit(bits: u64, choose: impl FnOnce(u32) -> u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let s = bits - ((bits >> 1) & 0x5555_5555_5555_5555);
    let s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    let per_byte = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // Byte i of `upto` = set bits in bytes 0..=i (at most 64: no carry).
    let upto = per_byte.wrapping_mul(ONES);
    let k = choose((upto >> 56) as u32);
    debug_assert!(k < bits.count_ones());
    // The guard bit of byte i survives exactly when upto_i >= k + 1.
    let past = ((upto | 0x8080_8080_8080_8080) - ONES * (u64::from(k) + 1)) & 0x8080_8080_8080_8080;
    let byte = past.trailing_zeros() / 8;
    let before = ((upto << 8) >> (8 * byte)) as u8;
    let within = (bits >> (8 * byte)) as u8;
    let r = (k as u8).wrapping_sub(before) & 7;
    8 * byte + u32::from(SELECT_IN_BYTE[usize::from(within)][usize::from(r)])
}

/// A uniformly random action of `list` (None when it is empty): one `below`
/// draw, the sequence every random playout and its Python mirror rely on.
#[inline]
pub fn random_of_list(list: &ActionList, rng: &mut SplitMix64) -> Option<Action> {
    let n = list.len() as u64;
    (n > 0).then(|| list.as_slice()[rng.below(n) as usize])
}

/// A uniformly random action of a main-phase mask whose ids ascend as the
/// listed actions do, or `pass` when the mask is empty (the list is `pass`
/// alone): the same single draw, and so the same action, as
/// [`random_of_list`] on the listed actions.
#[inline]
pub fn random_of_main_mask(bits: u64, pass: u16, rng: &mut SplitMix64) -> Action {
    if bits == 0 {
        rng.below(1);
        return Action(pass);
    }
    Action(nth_set_bit(bits, |n| rng.below(u64::from(n)) as u32) as u16)
}

/// `slots[j] = offset + positions[j]` for the 8 slots: one 16-byte add and
/// store with SSE2 (x86_64 baseline), a plain loop elsewhere.
#[inline(always)]
fn write_ids(slots: &mut [Action; 8], positions: &[u16; 8], offset: u16) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // SAFETY: `Action` is a transparent `u16`, so both arrays are 16
        // bytes of eight `u16`; unaligned loads and stores need no alignment.
        unsafe {
            let p = _mm_loadu_si128(positions.as_ptr().cast());
            let ids = _mm_add_epi16(p, _mm_set1_epi16(offset as i16));
            _mm_storeu_si128(slots.as_mut_ptr().cast(), ids);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (slot, &p) in slots.iter_mut().zip(positions) {
        *slot = Action(offset.wrapping_add(p));
    }
}

/// `BYTE_POSITIONS[b]`: the positions of the set bits of byte `b`,
/// ascending, then zeros (as `u16`, ready to add to an id).
static BYTE_POSITIONS: [[u16; 8]; 256] = byte_positions();

const fn byte_positions() -> [[u16; 8]; 256] {
    let mut t = [[0u16; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                t[b][r] = i as u16;
                r += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
}

/// `SELECT_IN_BYTE[b][r]`: the position of the `r`-th set bit of byte `b`.
static SELECT_IN_BYTE: [[u8; 8]; 256] = select_in_byte();

const fn select_in_byte() -> [[u8; 8]; 256] {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut r = 0;
        let mut i = 0;
        while i < 8 {
            if b & (1 << i) != 0 {
                t[b][r] = i as u8;
                r += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Normal end on points (base: 15 and the round finished; Duel: 20 points).
    Points,
    /// Duel: 10 crowns.
    Crowns,
    /// Duel: 10 points in one colour.
    Colour,
    /// Marvel: the Infinity Gauntlet conditions met and the round finished.
    Gauntlet,
    /// Every player passed for a full round; scored as a normal end.
    Stalled,
    /// The turn cap was reached; nobody wins.
    Truncated,
}

impl EndReason {
    /// The lower-case name used in JSON, Python and tables.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Points => "points",
            EndReason::Crowns => "crowns",
            EndReason::Colour => "colour",
            EndReason::Gauntlet => "gauntlet",
            EndReason::Stalled => "stalled",
            EndReason::Truncated => "truncated",
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// Bit `p` set when player `p` is among the winners (several = shared win;
    /// none = truncated).
    pub winners: u8,
    /// Why the game ended.
    pub reason: EndReason,
    /// Number of players, so that `returns` needs no state.
    pub num_players: u8,
}

impl Outcome {
    /// True when the turn cap ended the game.
    pub fn truncated(&self) -> bool {
        self.reason == EndReason::Truncated
    }
    /// True when the game ended because every player had to pass.
    pub fn stalled(&self) -> bool {
        self.reason == EndReason::Stalled
    }
    /// Whether `p` won (alone or shared).
    pub fn is_winner(&self, p: Player) -> bool {
        self.winners & (1 << p) != 0
    }
    /// The winners, ascending.
    pub fn winner_list(&self) -> Vec<Player> {
        (0..self.num_players)
            .filter(|&p| self.is_winner(p))
            .collect()
    }
    /// Returns per player: `1/k` to each of `k` winners, 0 to everyone else
    /// (all zeros when truncated). Rewards in `[0, 1]` suit UCT directly.
    /// In `f64`, the precision every caller outside the search needs: a
    /// three-way share is 0.3333333333333333, not `f32`'s 0.3333333432674408.
    pub fn returns(&self) -> [f64; MAX_PLAYERS] {
        let k = self.winners.count_ones();
        let mut r = [0.0; MAX_PLAYERS];
        if k > 0 {
            for (p, slot) in r.iter_mut().enumerate().take(self.num_players as usize) {
                if self.is_winner(p as Player) {
                    *slot = 1.0 / f64::from(k);
                }
            }
        }
        r
    }
}

/// Everything that can go wrong with input from outside the engine. Each maps
/// to one exception class in `python/splendor/errors.py`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// A well-formed action that the rules do not allow now (`IllegalActionError`).
    IllegalAction(String),
    /// Text that does not parse, or an id out of range (`InvalidActionError`).
    InvalidAction(String),
    /// A corrupt, tampered or inconsistent JSON state (`InvalidStateError`).
    InvalidState(String),
    /// A bad player count, variant name or option (`ConfigError`).
    Config(String),
    /// A malformed card/noble/location file (`CardDataError`).
    CardData(String),
    /// A bad network file, or a network that does not fit the game
    /// (`NetworkError`).
    Network(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::IllegalAction(m)
            | GameError::InvalidAction(m)
            | GameError::InvalidState(m)
            | GameError::Config(m)
            | GameError::CardData(m)
            | GameError::Network(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for GameError {}

/// "NAME must be between LO and HI, got GOT": the one way every message of
/// both engines writes a range (both ends included), so a reader never has
/// to guess whether `0..4` includes the 4.
pub fn range_message(
    name: &str,
    lo: impl fmt::Display,
    hi: impl fmt::Display,
    got: impl fmt::Display,
) -> String {
    format!("{name} must be between {lo} and {hi}, got {got}")
}

/// Options shared by every variant's `new`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Number of players (Duel: always 2).
    pub num_players: u8,
    /// Seed of the SplitMix64 stream that deals the game.
    pub seed: u64,
    /// Rounds after which the game ends as truncated (default 100).
    pub turn_cap: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            num_players: 2,
            seed: 0,
            turn_cap: 100,
        }
    }
}

/// The value for `mover` of the state `a` leads to from `state`: its return
/// for `mover` if that ends the game, else the heuristic.
pub fn one_ply_value<G: Game>(state: &G, a: Action, mover: Player) -> f32 {
    let mut child = state.clone();
    child.apply_unchecked(a);
    match child.outcome() {
        // The search works in f32: 1/k rounds to the nearest f32 as before.
        Some(o) => o.returns()[mover as usize] as f32,
        None => child.heuristic(mover),
    }
}

/// The contract every variant implements.
pub trait Game: Clone + Send + Sync + 'static {
    /// The variant's name: `"base"`, `"duel"` or `"marvel"`.
    const VARIANT: &'static str;
    /// Size of the fixed action space; ids are `0..NUM_ACTIONS`.
    const NUM_ACTIONS: usize;
    /// Length of `observation`'s output.
    const OBSERVATION_SIZE: usize;
    /// True when [`playout_action`](Self::playout_action) always answers
    /// (never `None`): an `Informed` search rollout then never falls back to
    /// MAST, and keeps no MAST table it would never read.
    const HAS_PLAYOUT_POLICY: bool = false;

    /// Deals a new game from `config` (validated: bad player counts are errors).
    fn new_game(config: &Config) -> Result<Self, GameError>;
    /// Number of seats.
    fn num_players(&self) -> usize;
    /// The player to decide, or `None` when the game is over.
    fn current_player(&self) -> Option<Player>;
    /// True when the game is over.
    fn is_terminal(&self) -> bool {
        self.current_player().is_none()
    }
    /// Fills `out` with the legal actions in ascending id order (empty when
    /// terminal). Never allocates.
    fn legal_actions(&self, out: &mut ActionList);
    /// Applies a legal action; on error the state is unchanged.
    fn apply(&mut self, a: Action) -> Result<(), GameError> {
        if a.index() >= Self::NUM_ACTIONS {
            return Err(GameError::InvalidAction(range_message(
                "action id",
                0,
                Self::NUM_ACTIONS - 1,
                a.0,
            )));
        }
        if self.is_terminal() {
            return Err(GameError::IllegalAction(format!(
                "the game is over; `{}` cannot be played",
                Self::action_text(a)
            )));
        }
        if !self.is_legal(a) {
            return Err(GameError::IllegalAction(format!(
                "`{}` is not legal now: {}",
                Self::action_text(a),
                self.explain_illegal(a)
            )));
        }
        self.apply_unchecked(a);
        Ok(())
    }
    /// Whether `a` is in the legal list now (false once the game is over).
    /// What a checked [`Game::apply`] asks. The default builds the list;
    /// every variant overrides it with a direct test of the one action (its
    /// tests prove the two agree on every id), so that a checked apply costs
    /// one test, not a whole move generation.
    fn is_legal(&self, a: Action) -> bool {
        let mut legal = ActionList::new();
        self.legal_actions(&mut legal);
        legal.contains(a)
    }
    /// Why `a` is not legal in this (non-terminal) position, in words: the
    /// part after the colon of `apply`'s `IllegalAction` message (`the red
    /// pile has 3 tokens: taking 2 of one colour needs at least 4`). Reads
    /// only what the player to move may see. Variants override it with the
    /// reasons listed in docs/contract.md; the result for a legal action is
    /// unspecified.
    fn explain_illegal(&self, a: Action) -> String {
        let _ = a;
        crate::explain::NOT_EXPLAINED.to_string()
    }
    /// A uniformly random legal action, drawn as `legal[rng.below(len)]`
    /// over the legal list in id order (`None` when the list is empty, with
    /// nothing drawn). Variants may answer from their move masks without
    /// listing, but must draw the same number and return the same action:
    /// random playouts, their Python mirror and the conformance tests rely on
    /// the sequence. `scratch` is for the default, which builds the list.
    fn random_legal_action(
        &self,
        rng: &mut SplitMix64,
        scratch: &mut ActionList,
    ) -> Option<Action> {
        self.legal_actions(scratch);
        random_of_list(scratch, rng)
    }
    /// Applies an action known to be legal (search hot path). Behaviour on an
    /// illegal action is unspecified but must not be undefined.
    fn apply_unchecked(&mut self, a: Action);
    /// The result once terminal.
    fn outcome(&self) -> Option<Outcome>;
    /// Completed turns (the JSON `"turn"` field). The default reads it back
    /// from the JSON, which is slow: variants should override it with their
    /// counter (`random_games` calls it once per game).
    fn turns(&self) -> u32 {
        serde_json::from_str::<serde_json::Value>(&self.to_json(None))
            .ok()
            .and_then(|v| v.get("turn")?.as_u64())
            .map_or(0, |t| u32::try_from(t).unwrap_or(u32::MAX))
    }
    /// Current score of each player (prestige / Infinity points).
    fn scores(&self) -> [i32; MAX_PLAYERS];
    /// A full state consistent with what `observer` can see: everything
    /// hidden from them (deck order, bag, opponents' blind reserves) is
    /// resampled; the result must not depend on the hidden values themselves.
    fn determinize(&self, observer: Player, rng: &mut SplitMix64) -> Self;
    /// Heuristic value of the position for `player` in `[0, 1]` (a win is 1):
    /// used by the search at a rollout cut-off and by the greedy bot.
    fn heuristic(&self, player: Player) -> f32;
    /// [`heuristic`](Self::heuristic) of every seat (0 past the last one),
    /// bit for bit: a variant whose heuristic weighs each seat against the
    /// others overrides it to value each seat once rather than once per seat
    /// asked about (the search's rollout cut-off asks about every seat).
    /// The value for `mover` of the state each action of `legal` (legal
    /// here) leads to, into `out[k]` for `legal[k]`: [`one_ply_value`], the
    /// search's priors. A variant may override it to share work between the
    /// children; the values stay bit for bit those of `one_ply_value`.
    fn child_values(&self, legal: &[Action], mover: Player, out: &mut [f32]) {
        for (slot, &a) in out.iter_mut().zip(legal) {
            *slot = one_ply_value(self, a, mover);
        }
    }
    fn heuristics(&self) -> [f32; MAX_PLAYERS] {
        let mut h = [0.0; MAX_PLAYERS];
        for (p, slot) in h.iter_mut().enumerate().take(self.num_players()) {
            *slot = self.heuristic(p as Player);
        }
        h
    }
    /// A cheap, informed choice among `legal` (non-empty, the legal actions
    /// of this state) for search rollouts, or `None` when the variant has no
    /// such policy (the search then falls back to a game-agnostic one).
    fn playout_action(&self, legal: &[Action], rng: &mut SplitMix64) -> Option<Action> {
        let _ = (legal, rng);
        None
    }

    /// Text form of an action id (state-independent, parseable by `parse_action`).
    fn action_text(a: Action) -> String;
    /// Parses the text form of an action (`InvalidAction` on failure).
    fn parse_action(text: &str) -> Result<Action, GameError>;

    /// Writes `player`'s observation into `out` (length `OBSERVATION_SIZE`);
    /// reads nothing hidden from `player`.
    fn observation(&self, player: Player, out: &mut [f32]);
    /// The full state as JSON (`viewer = None`) or `viewer`'s view with hidden
    /// information redacted. Compact, keys sorted: byte-identical to the
    /// reference engine.
    fn to_json(&self, viewer: Option<Player>) -> String;
    /// Loads and validates a full-state JSON.
    fn from_json(text: &str) -> Result<Self, GameError>;
    /// A readable multi-line picture of the board.
    fn render(&self) -> String;
}

#[cfg(test)]
mod tests {
    use super::{EndReason, Outcome};

    #[test]
    fn push_mask_lists_the_set_bits_in_order() {
        use super::{Action, ActionList, MAX_LEGAL_ACTIONS};
        let mut rng = crate::rng::SplitMix64::new(9);
        for round in 0..5000 {
            let mut list = ActionList::new();
            let mut expected = Vec::new();
            // Several masks in a row, some near the end of the capacity
            // (the one-by-one path).
            let mut base = 0u16;
            if round % 10 == 0 {
                for i in 0..(MAX_LEGAL_ACTIONS - 70) as u16 {
                    list.push(Action(i));
                    expected.push(i);
                }
                base = (MAX_LEGAL_ACTIONS - 70) as u16;
            }
            while usize::from(base) + 64 <= MAX_LEGAL_ACTIONS
                && list.len() + 64 <= MAX_LEGAL_ACTIONS
            {
                let bits = match rng.below(4) {
                    0 => rng.next_u64(),
                    1 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                    2 => 0,
                    _ => u64::MAX,
                };
                list.push_mask(base, bits);
                expected.extend((0..64).filter(|&i| bits >> i & 1 != 0).map(|i| base + i));
                base += 64 + rng.below(3) as u16;
            }
            let got: Vec<u16> = list.as_slice().iter().map(|a| a.0).collect();
            assert_eq!(got, expected);
        }
    }

    #[test]
    fn nth_set_bit_matches_a_scan() {
        let mut rng = crate::rng::SplitMix64::new(5);
        for round in 0..20_000 {
            let bits = match round % 4 {
                0 => rng.next_u64(),
                1 => rng.next_u64() & rng.next_u64(),
                2 => rng.next_u64() & rng.next_u64() & rng.next_u64(),
                _ => u64::MAX >> rng.below(64),
            };
            let positions: Vec<u32> = (0..64).filter(|&i| bits >> i & 1 != 0).collect();
            for (k, &at) in positions.iter().enumerate() {
                let mut count = 0;
                let got = super::nth_set_bit(bits, |n| {
                    count = n;
                    k as u32
                });
                assert_eq!((got, count), (at, bits.count_ones()), "{bits:x} k {k}");
            }
        }
    }

    #[test]
    fn returns_are_exact_fractions() {
        let three = Outcome {
            winners: 0b1011,
            reason: EndReason::Stalled,
            num_players: 4,
        };
        assert_eq!(three.returns(), [1.0 / 3.0, 1.0 / 3.0, 0.0, 1.0 / 3.0]);
        assert_eq!(format!("{:?}", three.returns()[0]), "0.3333333333333333");
        let none = Outcome {
            winners: 0,
            reason: EndReason::Truncated,
            num_players: 2,
        };
        assert_eq!(none.returns(), [0.0; 4]);
    }
}
