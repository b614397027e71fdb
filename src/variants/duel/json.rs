//! Canonical JSON (docs/duel.md, *JSON*): writing, and loading with full
//! validation. A JSON state from outside is untrusted: every field is checked
//! before a state is built, and nothing here may panic.

use super::actions::{BUY, BUY_RESERVED, LETTERS};
use super::cards::*;
use super::rules::REASONS;
use super::state::*;
use crate::game::{range_message, GameError};
use serde_json::{json, Map, Value};

fn opt(c: u8) -> Value {
    if c == NONE {
        Value::Null
    } else {
        json!(c)
    }
}

impl DuelState {
    /// The full state (`viewer = None`) or `viewer`'s redacted view.
    pub fn json_value(&self, viewer: Option<u8>) -> Value {
        let mut m = Map::new();
        let board: Vec<Value> = (0..25)
            .map(|c| match self.kind_at(c) {
                Some(k) => json!((LETTERS[k] as char).to_string()),
                None => Value::Null,
            })
            .collect();
        let lanes = |x: u64, n: usize| -> Vec<u8> { (0..n).map(|k| lane(x, k)).collect() };
        m.insert("again".into(), json!(self.again));
        m.insert("bag".into(), json!(lanes(self.bag, 7)));
        m.insert("board".into(), Value::Array(board));
        m.insert(
            "chance".into(),
            if viewer.is_some() {
                Value::Null
            } else {
                json!(self.chance)
            },
        );
        m.insert(
            "current".into(),
            if self.phase == Phase::Over {
                Value::Null
            } else {
                json!(self.current)
            },
        );
        m.insert(
            "deck_sizes".into(),
            json!((0..3).map(|l| self.deck(l).len()).collect::<Vec<_>>()),
        );
        m.insert(
            "decks".into(),
            if viewer.is_some() {
                Value::Null
            } else {
                json!((0..3).map(|l| self.deck(l).to_vec()).collect::<Vec<_>>())
            },
        );
        m.insert("num_players".into(), json!(2));
        m.insert(
            "outcome".into(),
            if self.phase == Phase::Over {
                let reason = REASONS[(self.end_reason.max(1) - 1) as usize].as_str();
                let winners: Vec<u8> = (0..2).filter(|&p| self.winners & (1 << p) != 0).collect();
                json!({"reason": reason, "winners": winners})
            } else {
                Value::Null
            },
        );
        m.insert(
            "pending_buy".into(),
            if self.pending_buy == NO_BUY {
                Value::Null
            } else {
                json!(self.pending_buy)
            },
        );
        m.insert("pending_card".into(), opt(self.pending_card));
        m.insert("phase".into(), json!(self.phase.name()));
        let players: Vec<Value> = (0..2).map(|p| self.player_json(p, viewer)).collect();
        m.insert("players".into(), Value::Array(players));
        let pyramid: Vec<Value> = (0..3)
            .map(|l| {
                Value::Array(
                    self.pyramid[SLOT_OFFSET[l]..SLOT_OFFSET[l] + SLOTS[l]]
                        .iter()
                        .map(|&c| opt(c))
                        .collect(),
                )
            })
            .collect();
        m.insert("pyramid".into(), Value::Array(pyramid));
        m.insert("replenished".into(), json!(self.replenished));
        m.insert("royals".into(), json!(bits(self.royals_available)));
        m.insert("royals_due".into(), json!(self.royals_due));
        m.insert("turn".into(), json!(self.turn));
        m.insert("turn_cap".into(), json!(self.turn_cap));
        m.insert("variant".into(), json!("duel"));
        m.insert("version".into(), json!(1));
        m.insert("viewer".into(), viewer.map_or(Value::Null, |v| json!(v)));
        Value::Object(m)
    }

    fn player_json(&self, p: usize, viewer: Option<u8>) -> Value {
        let cards: Vec<usize> = (0..NUM_CARDS)
            .filter(|&c| self.cards[p] & (1 << c) != 0)
            .collect();
        let jokers: Vec<Value> = cards
            .iter()
            .filter(|&&c| {
                JOKER_INDEX[c] != NONE && self.joker_colour[JOKER_INDEX[c] as usize] != NONE
            })
            .map(|&c| json!([c, self.joker_colour[JOKER_INDEX[c] as usize]]))
            .collect();
        let reserved: Vec<Value> = (0..self.reserved_len[p] as usize)
            .map(|i| {
                let card = self.reserved[p][i];
                let hidden = self.reserved_hidden[p] & (1 << i) != 0;
                let seen = !hidden || viewer.is_none() || viewer == Some(p as u8);
                json!({"card": if seen { opt(card) } else { Value::Null },
                       "hidden": hidden, "level": level(card)})
            })
            .collect();
        json!({
            "cards": cards,
            "jokers": jokers,
            "privileges": self.privileges[p],
            "reserved": reserved,
            "royals": bits(self.royals_owned[p]),
            "tokens": (0..7).map(|k| lane(self.tokens[p], k)).collect::<Vec<_>>(),
        })
    }

    /// Loads and validates a full-state JSON text.
    pub fn load_json(text: &str) -> Result<Self, GameError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| bad(&format!("state JSON does not parse: {e}")))?;
        Loader { v: &v }.load()
    }
}

fn bits(m: u8) -> Vec<u8> {
    (0..8).filter(|&i| m & (1 << i) != 0).collect()
}

fn bad(msg: &str) -> GameError {
    GameError::InvalidState(msg.to_string())
}

struct Loader<'a> {
    v: &'a Value,
}

fn get<'a>(o: &'a Value, key: &str, ctx: &str) -> Result<&'a Value, GameError> {
    o.as_object()
        .ok_or_else(|| bad(&format!("{ctx} must be an object")))?
        .get(key)
        .ok_or_else(|| bad(&format!("missing field `{ctx}{key}`")))
}

fn int(v: &Value, name: &str, max: u64) -> Result<u64, GameError> {
    match v.as_u64() {
        Some(x) if x <= max && !v.is_f64() => Ok(x),
        _ => Err(bad(&range_message(&format!("`{name}`"), 0, max, v))),
    }
}

fn arr<'a>(v: &'a Value, name: &str, len: Option<usize>) -> Result<&'a Vec<Value>, GameError> {
    let a = v
        .as_array()
        .ok_or_else(|| bad(&format!("`{name}` must be a list")))?;
    if let Some(n) = len {
        if a.len() != n {
            return Err(bad(&format!(
                "`{name}` must have {n} entries, not {}",
                a.len()
            )));
        }
    }
    Ok(a)
}

fn boolean(v: &Value, name: &str) -> Result<bool, GameError> {
    v.as_bool()
        .ok_or_else(|| bad(&format!("`{name}` must be true or false")))
}

fn card_id(v: &Value, name: &str) -> Result<u8, GameError> {
    Ok(int(v, name, NUM_CARDS as u64 - 1)? as u8)
}

fn counts(v: &Value, name: &str) -> Result<u64, GameError> {
    let a = arr(v, name, Some(7))?;
    let mut x = 0u64;
    for (k, e) in a.iter().enumerate() {
        x |= int(e, name, u64::from(TOKEN_TOTALS[k]))? << (8 * k);
    }
    Ok(x)
}

impl Loader<'_> {
    fn f(&self, key: &str) -> Result<&Value, GameError> {
        get(self.v, key, "")
    }

    fn load(&self) -> Result<DuelState, GameError> {
        if !self.v.is_object() {
            return Err(bad("state JSON must be an object"));
        }
        if !self.f("viewer")?.is_null() {
            return Err(bad(
                "a player's view has hidden information removed and cannot be loaded",
            ));
        }
        if self.f("variant")?.as_str() != Some("duel") {
            return Err(bad("`variant` must be \"duel\""));
        }
        if self.f("version")?.as_u64() != Some(1) {
            return Err(bad("`version` must be 1"));
        }
        if self.f("num_players")?.as_u64() != Some(2) {
            return Err(bad("`num_players` must be 2 in Splendor Duel"));
        }
        let turn_cap = int(self.f("turn_cap")?, "turn_cap", 1_000_000)? as u32;
        if turn_cap == 0 {
            return Err(bad(&range_message("`turn_cap`", 1, 1_000_000, 0)));
        }
        let turn = int(self.f("turn")?, "turn", 2 * u64::from(turn_cap))? as u32;
        let chance = self.f("chance")?;
        let chance = chance
            .as_u64()
            .ok_or_else(|| bad(&range_message("`chance`", 0, u64::MAX, chance)))?;
        let phase = self
            .f("phase")?
            .as_str()
            .and_then(Phase::from_name)
            .ok_or_else(|| bad("`phase` is not a Duel phase"))?;
        let mut s = DuelState {
            board: [0; 7],
            chance,
            bag: counts(self.f("bag")?, "bag")?,
            tokens: [0; 2],
            bonus: [0; 2],
            colour_points: [0; 2],
            cards: [0; 2],
            decks: [[NONE; 25]; 3],
            deck_pos: [0; 3],
            deck_len: [0; 3],
            pyramid: [NONE; NUM_SLOTS],
            reserved: [[NONE; 3]; 2],
            reserved_len: [0; 2],
            reserved_hidden: [0; 2],
            joker_colour: [NONE; MAX_JOKERS],
            points: [0; 2],
            crowns: [0; 2],
            privileges: [0; 2],
            royals_owned: [0; 2],
            real_colours: [0; 2],
            royals_available: 0,
            turn,
            turn_cap,
            current: 0,
            phase,
            pending_buy: NO_BUY,
            pending_card: NONE,
            royals_due: int(self.f("royals_due")?, "royals_due", 2)? as u8,
            again: boolean(self.f("again")?, "again")?,
            replenished: boolean(self.f("replenished")?, "replenished")?,
            winners: 0,
            end_reason: 0,
        };
        let mut seen = [false; NUM_CARDS];
        let mut claim = |c: u8, lvl: Option<usize>, wher: &str| -> Result<(), GameError> {
            if seen[c as usize] {
                return Err(bad(&format!("card {c} appears twice (again in {wher})")));
            }
            seen[c as usize] = true;
            if let Some(l) = lvl {
                if level(c) != l {
                    return Err(bad(&format!("card {c} in {wher} is not a level-{l} card")));
                }
            }
            Ok(())
        };
        // Board.
        for (cell, e) in arr(self.f("board")?, "board", Some(25))?.iter().enumerate() {
            if e.is_null() {
                continue;
            }
            let k = e
                .as_str()
                .and_then(|t| {
                    LETTERS
                        .iter()
                        .position(|&l| t.len() == 1 && t.as_bytes()[0] == l)
                })
                .ok_or_else(|| bad("`board` cells must be one of w u g r k p y or null"))?;
            s.board[k] |= 1 << cell;
        }
        // Pyramid and decks.
        let pyr = arr(self.f("pyramid")?, "pyramid", Some(3))?;
        for l in 0..3 {
            for (i, e) in arr(&pyr[l], "pyramid", Some(SLOTS[l]))?.iter().enumerate() {
                if !e.is_null() {
                    let c = card_id(e, "pyramid")?;
                    claim(c, Some(l + 1), "the pyramid")?;
                    s.pyramid[SLOT_OFFSET[l] + i] = c;
                }
            }
        }
        let decks = arr(self.f("decks")?, "decks", Some(3))?;
        let sizes = arr(self.f("deck_sizes")?, "deck_sizes", Some(3))?;
        for l in 0..3 {
            let d = arr(&decks[l], "decks", None)?;
            if d.len() > 25 || sizes[l].as_u64() != Some(d.len() as u64) {
                return Err(bad("`deck_sizes` must match the decks"));
            }
            for (i, e) in d.iter().enumerate() {
                let c = card_id(e, "decks")?;
                claim(c, Some(l + 1), "a deck")?;
                s.decks[l][i] = c;
            }
            s.deck_len[l] = d.len() as u8;
        }
        // Players.
        let players = arr(self.f("players")?, "players", Some(2))?;
        let mut royal_seen = 0u8;
        for (p, pj) in players.iter().enumerate() {
            s.tokens[p] = counts(get(pj, "tokens", "players[].")?, "tokens")?;
            s.privileges[p] = int(get(pj, "privileges", "players[].")?, "privileges", 3)? as u8;
            for e in arr(get(pj, "cards", "players[].")?, "cards", None)? {
                let c = card_id(e, "cards")?;
                claim(c, None, "a tableau")?;
                s.cards[p] |= 1 << c;
                let ci = c as usize;
                s.points[p] += CARD_POINTS[ci];
                s.crowns[p] += CARD_CROWNS[ci];
                let b = CARD_BONUS[ci];
                if b < 5 {
                    s.bonus[p] += u64::from(CARD_BONUS_COUNT[ci]) << (8 * b);
                    s.colour_points[p] += u64::from(CARD_POINTS[ci]) << (8 * b);
                    s.real_colours[p] |= 1 << b;
                }
            }
            let res = arr(get(pj, "reserved", "players[].")?, "reserved", None)?;
            if res.len() > 3 {
                return Err(bad("a player holds more than 3 reserved cards"));
            }
            for (i, r) in res.iter().enumerate() {
                let c = card_id(get(r, "card", "reserved[].")?, "reserved card")?;
                let lvl = int(get(r, "level", "reserved[].")?, "level", 3)?;
                if lvl as usize != level(c) {
                    return Err(bad(&format!("reserved card {c} is not level {lvl}")));
                }
                claim(c, None, "a reserve")?;
                s.reserved[p][i] = c;
                if boolean(get(r, "hidden", "reserved[].")?, "hidden")? {
                    s.reserved_hidden[p] |= 1 << i;
                }
            }
            s.reserved_len[p] = res.len() as u8;
            for e in arr(get(pj, "royals", "players[].")?, "royals", None)? {
                let r = int(e, "royals", 3)? as u8;
                if royal_seen & (1 << r) != 0 {
                    return Err(bad(&format!("royal {r} appears twice")));
                }
                royal_seen |= 1 << r;
                s.royals_owned[p] |= 1 << r;
                s.points[p] += ROYAL_POINTS[r as usize];
            }
        }
        for e in arr(self.f("royals")?, "royals", None)? {
            let r = int(e, "royals", 3)? as u8;
            if royal_seen & (1 << r) != 0 {
                return Err(bad(&format!("royal {r} appears twice")));
            }
            royal_seen |= 1 << r;
            s.royals_available |= 1 << r;
        }
        if royal_seen != 0b1111 {
            return Err(bad("every royal must be available or owned exactly once"));
        }
        if seen.iter().any(|&x| !x) {
            return Err(bad(
                "some cards are missing (each of the 67 must appear exactly once)",
            ));
        }
        for k in 0..7 {
            let n = lane(s.bag, k) as u32
                + s.board[k].count_ones()
                + lane(s.tokens[0], k) as u32
                + lane(s.tokens[1], k) as u32;
            if n != u32::from(TOKEN_TOTALS[k]) {
                return Err(bad(&format!(
                    "there must be {} `{}` tokens in all (board + bag + players), found {n}",
                    TOKEN_TOTALS[k], LETTERS[k] as char
                )));
            }
        }
        if s.privileges[0] + s.privileges[1] > 3 {
            return Err(bad("the players hold more than 3 privileges"));
        }
        self.load_turn(&mut s)?;
        self.load_jokers(&mut s, players)?;
        self.check_phase(&s)?;
        Ok(s)
    }

    fn load_turn(&self, s: &mut DuelState) -> Result<(), GameError> {
        let cur = self.f("current")?;
        let outcome = self.f("outcome")?;
        if s.phase == Phase::Over {
            if !cur.is_null() {
                return Err(bad("`current` must be null when the game is over"));
            }
            let reason = get(outcome, "reason", "outcome.")?.as_str().unwrap_or("");
            let r = REASONS
                .iter()
                .position(|x| x.as_str() == reason)
                .ok_or_else(|| {
                    bad("`outcome.reason` must be points, crowns, colour or truncated")
                })?;
            s.end_reason = r as u8 + 1;
            for w in arr(get(outcome, "winners", "outcome.")?, "winners", None)? {
                s.winners |= 1 << int(w, "winners", 1)?;
            }
        } else {
            s.current = int(cur, "current", 1)? as u8;
            if !outcome.is_null() {
                return Err(bad("`outcome` must be null while the game goes on"));
            }
        }
        let pb = self.f("pending_buy")?;
        if !pb.is_null() {
            s.pending_buy = int(pb, "pending_buy", u64::from(BUY_RESERVED) + 2)? as u16;
            if s.pending_buy < BUY {
                return Err(bad("`pending_buy` must be a buy action id"));
            }
        }
        let pc = self.f("pending_card")?;
        if !pc.is_null() {
            s.pending_card = card_id(pc, "pending_card")?;
        }
        Ok(())
    }

    fn load_jokers(&self, s: &mut DuelState, players: &[Value]) -> Result<(), GameError> {
        for (p, pj) in players.iter().enumerate() {
            for e in arr(get(pj, "jokers", "players[].")?, "jokers", None)? {
                let pair = arr(e, "jokers", Some(2))?;
                let c = card_id(&pair[0], "jokers")?;
                let colour = int(&pair[1], "jokers colour", 4)? as usize;
                let j = JOKER_INDEX[c as usize];
                if j == NONE || s.cards[p] & (1 << c) == 0 {
                    return Err(bad(&format!(
                        "jokers lists card {c}, which is not a joker of this player"
                    )));
                }
                if s.joker_colour[j as usize] != NONE {
                    return Err(bad(&format!("joker {c} is placed twice")));
                }
                if s.real_colours[p] & (1 << colour) == 0 {
                    return Err(bad(&format!(
                        "joker {c} is on a colour without a real card"
                    )));
                }
                s.joker_colour[j as usize] = colour as u8;
                s.bonus[p] += 1 << (8 * colour);
                s.colour_points[p] += u64::from(CARD_POINTS[c as usize]) << (8 * colour);
            }
            for (c, &j) in JOKER_INDEX.iter().enumerate() {
                let pending = s.phase == Phase::Joker && s.pending_card as usize == c;
                if j != NONE
                    && s.cards[p] & (1 << c) != 0
                    && (s.joker_colour[j as usize] == NONE) != pending
                {
                    return Err(bad(&format!(
                        "joker {c} must be placed (only the joker being bought may be unplaced)"
                    )));
                }
            }
        }
        Ok(())
    }

    fn check_phase(&self, s: &DuelState) -> Result<(), GameError> {
        let p = s.current as usize;
        let o = 1 - p;
        let buying = matches!(
            s.phase,
            Phase::Joker | Phase::Token | Phase::Steal | Phase::Royal
        );
        if (s.pending_buy != NO_BUY) != (s.phase == Phase::Pay) {
            return Err(bad("`pending_buy` is set exactly in phase `pay`"));
        }
        if (s.pending_card != NONE) != buying {
            return Err(bad(
                "`pending_card` is set exactly in phases joker, token, steal and royal",
            ));
        }
        if buying && s.cards[p] & (1 << s.pending_card) == 0 {
            return Err(bad("`pending_card` must be owned by the current player"));
        }
        for q in 0..2 {
            let t = u32::from(s.crowns[q] >= 3) + u32::from(s.crowns[q] >= 6);
            let due = if q == p { u32::from(s.royals_due) } else { 0 };
            if s.royals_owned[q].count_ones() + due != t {
                return Err(bad(&format!(
                    "player {q} must hold one royal per crown threshold crossed"
                )));
            }
        }
        if s.royals_due > 0 && !buying {
            return Err(bad(
                "`royals_due` is non-zero only while a purchase resolves",
            ));
        }
        if s.phase != Phase::Over && s.token_total(o) > 10 {
            return Err(bad("the player not on turn holds more than 10 tokens"));
        }
        // Discards come before the victory check: a finished game has nobody
        // over 10 tokens.
        if s.phase == Phase::Over && (s.token_total(p) > 10 || s.token_total(o) > 10) {
            return Err(bad("a player holds more than 10 tokens in an over state"));
        }
        if s.phase != Phase::Over && s.turn >= 2 * s.turn_cap {
            return Err(bad(
                "`turn` has reached the turn cap but the game is not over",
            ));
        }
        let pc = s.pending_card as usize;
        let ok = match s.phase {
            Phase::Main => s.token_total(p) <= 13,
            Phase::Reserve => {
                s.reserved_len[p] < 3
                    && (s.pyramid.iter().any(|&c| c != NONE)
                        || (0..3).any(|l| !s.deck(l).is_empty()))
            }
            Phase::Pay => {
                // A card being bought is shown: a pending buy of a reserve
                // that is still `hidden` is not a reachable state.
                let shown = s.pending_buy < BUY_RESERVED
                    || s.reserved_hidden[p] & (1 << (s.pending_buy - BUY_RESERVED)) == 0;
                let card = s.buy_card(s.pending_buy);
                shown && card != NONE && s.can_buy(p, card) && s.several_payments(p, card)
            }
            Phase::Joker => CARD_BONUS[pc] == BONUS_WILD && s.real_colours[p].count_ones() >= 2,
            Phase::Token => {
                CARD_ABILITY[pc] & AB_TOKEN != 0
                    && s.board[CARD_BONUS[pc] as usize % 5].count_ones() >= 2
            }
            Phase::Steal => (0..6).filter(|&k| lane(s.tokens[o], k) > 0).count() >= 2,
            Phase::Royal => s.royals_due > 0 && s.royals_available.count_ones() >= 2,
            Phase::Discard => s.token_total(p) > 10,
            Phase::Over => {
                let w = s.winners;
                match REASONS[s.end_reason as usize - 1] {
                    crate::game::EndReason::Truncated => w == 0 && s.turn >= 2 * s.turn_cap,
                    r => {
                        (w == 1 || w == 2) && {
                            let q = w.trailing_zeros() as usize;
                            match r {
                                crate::game::EndReason::Points => s.points[q] >= 20,
                                crate::game::EndReason::Crowns => s.crowns[q] >= 10,
                                _ => s.best_colour(q) >= 10,
                            }
                        }
                    }
                }
            }
        };
        if !ok {
            return Err(bad(&format!(
                "the state is not consistent with phase `{}`",
                s.phase.name()
            )));
        }
        Ok(())
    }
}
