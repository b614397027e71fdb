//! Why an action is not legal now, in words (docs/contract.md, *Why an action
//! is illegal*).
//!
//! [`crate::game::Game::explain_illegal`] gives the reason that `apply`'s
//! `IllegalAction` message carries. The base game and Marvel share their
//! rules, so [`explain_main_game`] is written once over [`MainGame`] (what it
//! reads of a state) and [`MainGameWords`] (the names each variant gives its
//! colours, wild token, buy verb and tiles). The reference engine mirrors
//! every sentence, and the differential tests compare the two.

use std::fmt::Write as _;

/// The reason given when no rule explains the refusal (the action is legal).
pub const NOT_EXPLAINED: &str = "it is not legal in this position";

/// Most cards a player may hold in reserve (every variant).
pub const MAX_RESERVED: usize = 3;

/// `2w 1r`: the nonzero `counts`, amount then letter.
pub fn amounts(letters: &[u8], counts: &[u8]) -> String {
    let mut out = String::new();
    for (c, &n) in counts.iter().enumerate() {
        if n > 0 {
            if !out.is_empty() {
                out.push(' ');
            }
            let _ = write!(out, "{n}{}", letters[c] as char);
        }
    }
    out
}

/// `you cannot afford it: ...` when the tokens missing (`cost - bonus -
/// held`, per kind) exceed the `wild` tokens held. `bonuses` may be shorter
/// than `cost` (Duel's pearls have no bonus).
pub fn lack_reason(
    letters: &[u8],
    cost: &[u8],
    bonuses: &[u8],
    held: &[u8],
    wild: u8,
    wild_name: &str,
) -> Option<String> {
    let lack: Vec<u8> = (0..cost.len())
        .map(|c| {
            let bonus = bonuses.get(c).copied().unwrap_or(0);
            cost[c].saturating_sub(bonus).saturating_sub(held[c])
        })
        .collect();
    let total: u32 = lack.iter().map(|&x| u32::from(x)).sum();
    (total > u32::from(wild)).then(|| {
        format!(
            "you cannot afford it: you lack {} and hold {wild} {wild_name}",
            amounts(letters, &lack)
        )
    })
}

/// Why the wild-token `vector` is not a payment of a card that needs `need`
/// (after bonuses) from a player holding `held` and `wild` wild tokens.
pub fn payment_reason(
    names: &[&str],
    wild_name: &str,
    need: &[u8],
    held: &[u8],
    wild: u8,
    vector: &[u8],
) -> String {
    let used: u32 = vector.iter().map(|&x| u32::from(x)).sum();
    if used > u32::from(wild) {
        return format!("it uses {used} {wild_name} and you hold {wild}");
    }
    for c in 0..need.len() {
        if vector[c] > need[c] {
            return format!(
                "it puts {} {wild_name} on {}, which needs only {}",
                vector[c], names[c], need[c]
            );
        }
        if need[c] - vector[c] > held[c] {
            return format!(
                "{} needs {} and you hold {}: put at least {} {wild_name} on it",
                names[c],
                need[c],
                held[c],
                need[c] - held[c]
            );
        }
    }
    NOT_EXPLAINED.to_string()
}

/// The words of one variant of the base rules.
pub struct MainGameWords {
    /// Colour names, the wild token last.
    pub colours: [&'static str; 6],
    /// Colour letters, the wild token last.
    pub letters: &'static [u8; 6],
    /// `buy` / `recruit`.
    pub buy: &'static str,
    /// `noble` / `location`.
    pub tile: &'static str,
    /// How a tile choice is put: `several nobles can visit you`.
    pub tiles_come: &'static str,
}

/// The decision kinds of the base numbering.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum MainKind {
    /// Takes, reserves, buys and pass.
    Main,
    /// Choosing a payment.
    Pay,
    /// Returning a token.
    Return,
    /// Choosing a noble / location.
    Tile,
}

/// What [`explain_main_game`] reads of a base or Marvel state, for the
/// player to move.
pub trait MainGame {
    /// The decision the state expects now (never called once over).
    fn kind(&self) -> MainKind;
    /// Tokens of colour `c` (0..5) in the bank.
    fn bank_of(&self, c: usize) -> u8;
    /// Tokens of kind `c` (0..6, wild last) the mover holds.
    fn tokens_of(&self, c: usize) -> u8;
    /// Tokens the mover holds in all.
    fn token_total(&self) -> u32;
    /// The mover's bonuses per colour.
    fn bonuses(&self) -> [u8; 5];
    /// Cards the mover holds in reserve.
    fn reserved_count(&self) -> usize;
    /// The cost of the face-up card at `level` (0-based) and `slot`, if any.
    fn slot_card_cost(&self, level: usize, slot: usize) -> Option<[u8; 5]>;
    /// The cost of the mover's reserved card `index`, if any.
    fn reserved_card_cost(&self, index: usize) -> Option<[u8; 5]>;
    /// The text of the pending buy (phase pay).
    fn pending_text(&self) -> String;
    /// The cost of the card being paid for (phase pay).
    fn pending_cost(&self) -> [u8; 5];
    /// Whether tile `id` is on display.
    fn tile_on_display(&self, id: usize) -> bool;
    /// The colours (bit `c`: colour `c`) that take id `a` (below `double`)
    /// takes.
    fn take_mask(a: u16) -> u8;
    /// The wild tokens per colour of the `i`-th payment (id `pay + i` in the
    /// base numbering).
    fn payment(i: usize) -> [u8; 5];
}

/// Action ids in the base numbering (`docs/base.md`), shared with Marvel up
/// to `return`.
mod ids {
    pub const DOUBLE: u16 = 25;
    pub const RESERVE: u16 = 30;
    pub const BLIND: u16 = 42;
    pub const BUY: u16 = 45;
    pub const BUY_RESERVED: u16 = 57;
    pub const RETURN: u16 = 60;
    pub const NOBLE: u16 = 66;
    pub const PAY: u16 = 76;
    pub const PASS: u16 = 328;
}

fn kind_of(a: u16) -> MainKind {
    if a < ids::RETURN || a == ids::PASS {
        MainKind::Main
    } else if a < ids::NOBLE {
        MainKind::Return
    } else if a < ids::PAY {
        MainKind::Tile
    } else {
        MainKind::Pay
    }
}

fn phase_task<S: MainGame>(s: &S, w: &MainGameWords) -> String {
    match s.kind() {
        MainKind::Main => format!("choose a main action first (take, reserve or {})", w.buy),
        MainKind::Pay => format!("first choose how to pay for `{}`", s.pending_text()),
        MainKind::Return => format!(
            "you hold {} tokens: return one first (`return x`)",
            s.token_total()
        ),
        MainKind::Tile => format!("{}: choose one first (`{} n`)", w.tiles_come, w.tile),
    }
}

/// The reason action `a` (in the base numbering: `docs/base.md`) is illegal
/// in `s`; `tile` is the noble / location id a tile action names.
pub fn explain_main_game<S: MainGame>(
    s: &S,
    w: &MainGameWords,
    a: u16,
    tile: Option<usize>,
) -> String {
    let kind = kind_of(a);
    if kind != s.kind() {
        return phase_task(s, w);
    }
    let wild = s.tokens_of(5);
    let held: [u8; 5] = std::array::from_fn(|c| s.tokens_of(c));
    match kind {
        MainKind::Return => {
            return format!(
                "you hold no {} token",
                w.colours[(a - ids::RETURN) as usize]
            )
        }
        MainKind::Tile => {
            let t = tile.unwrap_or(usize::MAX);
            return if s.tile_on_display(t) {
                format!("your bonuses do not meet {} {t}'s needs", w.tile)
            } else {
                format!("{} {t} is not on display", w.tile)
            };
        }
        MainKind::Pay => {
            let vector = S::payment(usize::from(a - ids::PAY));
            let cost = s.pending_cost();
            let bonus = s.bonuses();
            let need: [u8; 5] = std::array::from_fn(|c| cost[c].saturating_sub(bonus[c]));
            return payment_reason(&w.colours, w.colours[5], &need, &held, wild, &vector);
        }
        MainKind::Main => {}
    }
    if a == ids::PASS {
        return "pass is allowed only when no other action is".into();
    }
    if a < ids::DOUBLE {
        let mask = S::take_mask(a);
        for c in 0..5 {
            if mask & (1 << c) != 0 && s.bank_of(c) == 0 {
                return format!("the bank has no {} token", w.colours[c]);
            }
        }
        let left = (0..5).filter(|&c| s.bank_of(c) > 0).count();
        return format!(
            "the bank has {left} colours: take 3 different ones \
             (fewer only when fewer than 3 colours are left)"
        );
    }
    if a < ids::RESERVE {
        let c = (a - ids::DOUBLE) as usize;
        return format!(
            "the {} pile has {} tokens: taking 2 of one colour needs at least 4",
            w.colours[c],
            s.bank_of(c)
        );
    }
    if a < ids::BUY {
        if s.reserved_count() >= MAX_RESERVED {
            return format!("you already hold {MAX_RESERVED} reserved cards");
        }
        if a < ids::BLIND {
            let k = a - ids::RESERVE;
            return format!("slot {}.{} is empty", k / 4 + 1, k % 4 + 1);
        }
        return format!("the level {} deck is empty", a - ids::BLIND + 1);
    }
    let cost = if a < ids::BUY_RESERVED {
        let k = (a - ids::BUY) as usize;
        match s.slot_card_cost(k / 4, k % 4) {
            Some(c) => c,
            None => return format!("slot {}.{} is empty", k / 4 + 1, k % 4 + 1),
        }
    } else {
        let i = (a - ids::BUY_RESERVED) as usize;
        match s.reserved_card_cost(i) {
            Some(c) => c,
            None => return format!("you have no reserved card {}", i + 1),
        }
    };
    lack_reason(
        &w.letters[..5],
        &cost,
        &s.bonuses(),
        &held,
        wild,
        w.colours[5],
    )
    .unwrap_or_else(|| NOT_EXPLAINED.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_and_lack() {
        assert_eq!(amounts(b"wugrk", &[2, 0, 0, 1, 0]), "2w 1r");
        assert_eq!(
            lack_reason(
                b"wugrk",
                &[3, 0, 0, 2, 0],
                &[1, 0, 0, 0, 0],
                &[0; 5],
                1,
                "gold"
            )
            .as_deref(),
            Some("you cannot afford it: you lack 2w 2r and hold 1 gold")
        );
        assert_eq!(
            lack_reason(b"wugrk", &[1, 0, 0, 0, 0], &[0; 5], &[0; 5], 1, "gold"),
            None
        );
    }
}
