//! Canonical JSON of a base-game state (docs/base.md, "JSON"): its validating
//! loader, and its writer.
//!
//! The canonical JSON text is written directly (keys in sorted order, compact),
//! without building a `serde_json::Value` first: `to_json` backs Python's
//! `==`, pickling and the differential tests, so it is called often. A test
//! checks it byte for byte against a `Value`-based form.

use super::actions::{BUY, BUY_RESERVED};
use super::cards::{self, NUM_CARDS, NUM_NOBLES};
use super::rules::{can_afford, TOKEN_LIMIT, WINNING_POINTS};
use super::state::{setup_bank, BaseState, Phase, DECK_CAP, DECK_SEG, EMPTY, MAX_TURN_CAP};
use crate::game::{range_message, GameError, Player};
use crate::gems::Gems;
use serde_json::{Map, Value};
use std::fmt::Write as _;

impl BaseState {
    /// Parses and validates a full-state JSON text.
    pub(crate) fn from_json_text(text: &str) -> Result<Self, GameError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| bad(format!("state JSON does not parse: {e}")))?;
        Self::from_json_value(&v)
    }

    fn from_json_value(v: &Value) -> Result<Self, GameError> {
        let obj = v
            .as_object()
            .ok_or_else(|| bad("state JSON must be an object".into()))?;
        const KEYS: [&str; 16] = [
            "bank",
            "board",
            "current",
            "deck_sizes",
            "decks",
            "nobles",
            "num_players",
            "passes",
            "pending",
            "phase",
            "players",
            "turn",
            "turn_cap",
            "variant",
            "version",
            "viewer",
        ];
        for k in obj.keys() {
            if !KEYS.contains(&k.as_str()) {
                return Err(bad(format!("unknown key `{k}`")));
            }
        }
        // Every key is required, `pending` and `current` included (docs/base.md).
        if let Some(k) = KEYS.iter().find(|k| !obj.contains_key(**k)) {
            return Err(bad(format!("missing key `{k}`")));
        }
        let get = |k: &str| obj.get(k).ok_or_else(|| bad(format!("missing key `{k}`")));
        if !get("viewer")?.is_null() {
            return Err(bad(
                "a player's view (viewer is not null) cannot be loaded: hidden cards are missing"
                    .into(),
            ));
        }
        if get("variant")?.as_str() != Some("base") {
            return Err(bad(format!(
                "`variant` must be \"base\", not {}",
                get("variant")?
            )));
        }
        if get("version")?.as_u64() != Some(1) {
            return Err(bad(format!("`version` must be 1, not {}", get("version")?)));
        }
        let n = uint(get("num_players")?, "num_players")?;
        if !(2..=4).contains(&n) {
            return Err(bad(range_message("`num_players`", 2, 4, n)));
        }
        let turn_cap = uint(get("turn_cap")?, "turn_cap")?;
        if !(1..=u64::from(MAX_TURN_CAP)).contains(&turn_cap) {
            return Err(bad(range_message("`turn_cap`", 1, MAX_TURN_CAP, turn_cap)));
        }
        let turn = uint(get("turn")?, "turn")?;
        if turn > turn_cap * n {
            return Err(bad(format!(
                "`turn` {turn} is beyond the turn cap ({turn_cap} rounds of {n})"
            )));
        }
        let passes = uint(get("passes")?, "passes")?;
        if passes > n {
            return Err(bad(format!(
                "`passes` {passes} is more than the {n} players"
            )));
        }
        let mut s = BaseState::blank(n as u8, turn_cap as u32);
        s.turn = turn as u32;
        s.passes = passes as u8;
        let nu = n as usize;

        // Cards: every id exactly once, in the right level.
        let mut seen = [false; NUM_CARDS];
        let mut place = |c: u8, what: &str| -> Result<(), GameError> {
            if std::mem::replace(&mut seen[c as usize], true) {
                return Err(bad(format!("card {c} appears twice (again in {what})")));
            }
            Ok(())
        };
        let board = array(get("board")?, "board", Some(3))?;
        for (l, row) in board.iter().enumerate() {
            let row = array(row, "board row", Some(4))?;
            for (slot, c) in row.iter().enumerate() {
                if c.is_null() {
                    continue;
                }
                let c = card_id(c, "board")?;
                if cards::level(c) != l as u8 + 1 {
                    return Err(bad(format!(
                        "card {c} is not a level-{} card but lies in board row {}",
                        l + 1,
                        l + 1
                    )));
                }
                place(c, "the board")?;
                s.board[l][slot] = c;
            }
        }
        let decks = get("decks")?;
        if decks.is_null() {
            return Err(bad("`decks` is null: a view cannot be loaded".into()));
        }
        let decks = array(decks, "decks", Some(3))?;
        let sizes = array(get("deck_sizes")?, "deck_sizes", Some(3))?;
        for l in 0..3 {
            let deck = array(&decks[l], "deck", None)?;
            if uint(&sizes[l], "deck_sizes")? != deck.len() as u64 {
                return Err(bad(format!(
                    "deck_sizes[{l}] does not match the {} cards of deck {}",
                    deck.len(),
                    l + 1
                )));
            }
            if !deck.is_empty() && s.board[l].contains(&EMPTY) {
                return Err(bad(format!(
                    "board row {} has an empty slot while its deck has cards",
                    l + 1
                )));
            }
            if deck.len() > DECK_CAP[l] as usize {
                return Err(bad(format!(
                    "deck {} holds {} cards, more than {}",
                    l + 1,
                    deck.len(),
                    DECK_CAP[l]
                )));
            }
            s.top[l] = DECK_CAP[l] - deck.len() as u8;
            for (i, c) in deck.iter().enumerate() {
                let c = card_id(c, "decks")?;
                if cards::level(c) != l as u8 + 1 {
                    return Err(bad(format!(
                        "card {c} is not a level-{} card but lies in deck {}",
                        l + 1,
                        l + 1
                    )));
                }
                place(c, "the decks")?;
                s.deck[(DECK_SEG[l] + s.top[l]) as usize + i] = c;
            }
        }

        // Players.
        let players = array(get("players")?, "players", Some(nu))?;
        let mut nobles_seen = [false; NUM_NOBLES];
        let mut claimed: Vec<(usize, u8)> = Vec::new();
        let mut token_sum = Gems::ZERO;
        for (p, pv) in players.iter().enumerate() {
            let po = pv
                .as_object()
                .ok_or_else(|| bad(format!("players[{p}] must be an object")))?;
            for k in po.keys() {
                if !["cards", "nobles", "reserved", "tokens"].contains(&k.as_str()) {
                    return Err(bad(format!("players[{p}] has an unknown key `{k}`")));
                }
            }
            let pget = |k: &str| {
                po.get(k)
                    .ok_or_else(|| bad(format!("players[{p}] is missing `{k}`")))
            };
            s.tokens[p] = six(pget("tokens")?, &format!("players[{p}].tokens"))?;
            token_sum = token_sum.add(s.tokens[p]);
            let mut last: Option<u8> = None;
            for c in array(pget("cards")?, "cards", None)? {
                let c = card_id(c, "cards")?;
                if last.is_some_and(|l| l >= c) {
                    return Err(bad(format!("players[{p}].cards must be ascending")));
                }
                last = Some(c);
                place(c, "a player's cards")?;
                s.owned[p].insert(c);
            }
            let reserved = array(pget("reserved")?, "reserved", None)?;
            if reserved.len() > 3 {
                return Err(bad(format!(
                    "players[{p}] has {} reserved cards, more than 3",
                    reserved.len()
                )));
            }
            for (i, r) in reserved.iter().enumerate() {
                let ro = r
                    .as_object()
                    .ok_or_else(|| bad("a reserved entry must be an object".into()))?;
                if ro.len() != 3 {
                    return Err(bad(
                        "a reserved entry has exactly the keys card, hidden, level".into(),
                    ));
                }
                let cv = ro
                    .get("card")
                    .ok_or_else(|| bad("a reserved entry lacks `card`".into()))?;
                if cv.is_null() {
                    return Err(bad(
                        "a reserved card is null: a view cannot be loaded".into()
                    ));
                }
                let c = card_id(cv, "reserved")?;
                let hidden = ro
                    .get("hidden")
                    .and_then(Value::as_bool)
                    .ok_or_else(|| bad("a reserved entry needs a boolean `hidden`".into()))?;
                let level = ro.get("level").and_then(Value::as_u64);
                if level != Some(u64::from(cards::level(c))) {
                    return Err(bad(format!(
                        "reserved card {c} is level {}, but its `level` says {:?}",
                        cards::level(c),
                        ro.get("level")
                    )));
                }
                place(c, "the reserves")?;
                s.reserved[p][i] = c;
                if hidden {
                    s.hidden |= 1 << (3 * p + i);
                }
            }
            s.n_reserved[p] = reserved.len() as u8;
            s.bonus[p] = s.bonuses_from_scratch(p);
            for nb in array(pget("nobles")?, "nobles", None)? {
                let nb = noble_id(nb)?;
                if std::mem::replace(&mut nobles_seen[nb as usize], true) {
                    return Err(bad(format!("noble {nb} appears twice")));
                }
                if !cards::noble_req(nb).all_le(s.bonus[p]) {
                    return Err(bad(format!(
                        "players[{p}] holds noble {nb} without the bonuses it requires"
                    )));
                }
                claimed.push((p, nb));
            }
        }
        if let Some(missing) = seen.iter().position(|&x| !x) {
            return Err(bad(format!("card {missing} is missing")));
        }
        let bank = six(get("bank")?, "bank")?;
        let setup = setup_bank(n as u8);
        if bank.add(token_sum) != setup {
            return Err(bad(format!(
                "tokens are not conserved: bank + players = {:?}, setup is {:?}",
                (0..6)
                    .map(|c| bank.get(c) as u32 + token_sum.get(c) as u32)
                    .collect::<Vec<_>>(),
                (0..6).map(|c| setup.get(c)).collect::<Vec<_>>()
            )));
        }
        s.bank = bank;
        for nb in array(get("nobles")?, "nobles", None)? {
            let nb = noble_id(nb)?;
            if std::mem::replace(&mut nobles_seen[nb as usize], true) {
                return Err(bad(format!("noble {nb} appears twice")));
            }
            if s.n_display as usize >= 5 {
                return Err(bad("more than 5 nobles on display".into()));
            }
            s.display[s.n_display as usize] = nb;
            s.n_display += 1;
        }
        if s.n_display as usize + claimed.len() > nu + 1 {
            return Err(bad(format!(
                "{} nobles in play, more than {} for {n} players",
                s.n_display as usize + claimed.len(),
                nu + 1
            )));
        }
        for (k, &(p, nb)) in claimed.iter().enumerate() {
            s.claimed[k] = ((p as u8) << 4) | nb;
            s.points[p] += cards::noble_points(nb);
        }
        s.n_claimed = claimed.len() as u8;
        for p in 0..nu {
            s.points[p] += s.owned[p].iter().map(cards::points).sum::<u8>();
        }
        s.validate_phase(obj)?;
        Ok(s)
    }

    /// Phase, current seat, pending buy and the end conditions.
    fn validate_phase(&mut self, obj: &Map<String, Value>) -> Result<(), GameError> {
        let n = self.num_players as usize;
        let phase = match obj.get("phase").and_then(Value::as_str) {
            Some("main") => Phase::Main,
            Some("pay") => Phase::Pay,
            Some("return") => Phase::Return,
            Some("noble") => Phase::Noble,
            Some("over") => Phase::Over,
            _ => {
                return Err(bad(format!(
                    "`phase` must be main, pay, return, noble or over, not {:?}",
                    obj.get("phase")
                )))
            }
        };
        self.phase = phase;
        let current = obj.get("current").unwrap_or(&Value::Null);
        let pending = obj.get("pending").unwrap_or(&Value::Null);
        let over_now = self.end_reason().is_some();
        if phase == Phase::Over {
            if !current.is_null() {
                return Err(bad("`current` must be null when the game is over".into()));
            }
            if !over_now || self.turn == 0 {
                return Err(bad("phase is `over` but no end condition holds".into()));
            }
            self.current = ((self.turn + n as u32 - 1) % n as u32) as u8;
        } else {
            let c = uint(current, "current")?;
            if c != u64::from(self.turn) % n as u64 {
                return Err(bad(format!(
                    "`current` {c} is not the seat to play turn {} ({})",
                    self.turn,
                    self.turn as usize % n
                )));
            }
            self.current = c as u8;
            if u64::from(self.turn) >= u64::from(self.turn_cap) * n as u64 {
                return Err(bad(
                    "the turn cap is reached but the phase is not `over`".into()
                ));
            }
            // `passes` already counts this turn's main action: a pass leads
            // only to `noble` (or the next turn), any other action resets it.
            if usize::from(self.passes) >= n && phase != Phase::Noble {
                return Err(bad(format!(
                    "`passes` {} would have ended the game",
                    self.passes
                )));
            }
            if self.passes > 0 && matches!(phase, Phase::Pay | Phase::Return) {
                return Err(bad(format!(
                    "`passes` must be 0 in phase `{}`",
                    phase.as_str()
                )));
            }
            // At the start of a round nobody but the player now mid-turn may
            // have reached 15: the round's end would have finished the game.
            if self.turn > 0 && self.turn as usize % n == 0 {
                // Only a buy raises points, and only `noble` can follow a buy.
                let mover_may = phase == Phase::Noble;
                if (0..n)
                    .any(|p| self.points[p] >= WINNING_POINTS && !(mover_may && p == c as usize))
                {
                    return Err(bad(
                        "a player has 15 points at the end of a round but the game is not over"
                            .into(),
                    ));
                }
            }
        }
        let me = self.current as usize;
        for p in 0..n {
            let t = self.tokens[p].total();
            let mid_return = phase == Phase::Return && p == me;
            if t > TOKEN_LIMIT && !mid_return {
                return Err(bad(format!("players[{p}] holds {t} tokens, more than {TOKEN_LIMIT}, outside a `return` phase")));
            }
            if mid_return && t <= TOKEN_LIMIT {
                return Err(bad(format!(
                    "phase `return` but players[{p}] holds only {t} tokens"
                )));
            }
        }
        if phase == Phase::Noble && self.qualifying_nobles(me).count_ones() < 2 {
            return Err(bad("phase `noble` but fewer than 2 nobles qualify".into()));
        }
        if phase == Phase::Pay {
            let id = uint(pending, "pending")?;
            if !(u64::from(BUY)..u64::from(BUY_RESERVED) + 3).contains(&id) {
                return Err(bad(format!("`pending` {id} is not a buy action id")));
            }
            let id = id as u16;
            if id >= BUY_RESERVED && usize::from(id - BUY_RESERVED) >= self.n_reserved[me] as usize
            {
                return Err(bad(format!(
                    "`pending` {id} names a reserve slot that is empty"
                )));
            }
            if id >= BUY_RESERVED && self.is_hidden(me, usize::from(id - BUY_RESERVED)) {
                return Err(bad(format!(
                    "`pending` {id} buys a reserved card that is still hidden: a card being \
                     bought is shown (`hidden` false)"
                )));
            }
            let card = self.buy_target(id);
            if card == EMPTY || !can_afford(self.tokens[me], self.bonus[me], card) {
                return Err(bad(format!(
                    "`pending` {id} is not a buy the player can pay for"
                )));
            }
            self.pending = id as u8;
            let mut list = crate::game::ActionList::new();
            self.legal_into(&mut list);
            if list.len() < 2 {
                return Err(bad(
                    "phase `pay` but the pending buy has only one payment".into()
                ));
            }
        } else if !pending.is_null() {
            return Err(bad("`pending` must be null outside the `pay` phase".into()));
        }
        Ok(())
    }
}

fn bad(msg: String) -> GameError {
    GameError::InvalidState(msg)
}

fn uint(v: &Value, what: &str) -> Result<u64, GameError> {
    v.as_u64()
        .ok_or_else(|| bad(format!("`{what}` must be a non-negative integer, not {v}")))
}

fn array<'a>(v: &'a Value, what: &str, len: Option<usize>) -> Result<&'a Vec<Value>, GameError> {
    let a = v
        .as_array()
        .ok_or_else(|| bad(format!("`{what}` must be an array, not {v}")))?;
    if let Some(n) = len {
        if a.len() != n {
            return Err(bad(format!(
                "`{what}` must have {n} entries, not {}",
                a.len()
            )));
        }
    }
    Ok(a)
}

fn card_id(v: &Value, what: &str) -> Result<u8, GameError> {
    match v.as_u64() {
        Some(c) if c < NUM_CARDS as u64 => Ok(c as u8),
        _ => Err(bad(format!(
            "{v} in `{what}` is not a card id (between 0 and {})",
            NUM_CARDS - 1
        ))),
    }
}

fn noble_id(v: &Value) -> Result<u8, GameError> {
    match v.as_u64() {
        Some(c) if c < NUM_NOBLES as u64 => Ok(c as u8),
        _ => Err(bad(format!(
            "{v} is not a noble id (between 0 and {})",
            NUM_NOBLES - 1
        ))),
    }
}

fn six(v: &Value, what: &str) -> Result<Gems, GameError> {
    let a = array(v, what, Some(6))?;
    let mut g = Gems::ZERO;
    for (c, x) in a.iter().enumerate() {
        match x.as_u64() {
            Some(k) if k <= 40 => g.set(c, k as u8),
            _ => return Err(bad(range_message(&format!("`{what}`[{c}]"), 0, 40, x))),
        }
    }
    Ok(g)
}

fn list<I: IntoIterator<Item = u8>>(out: &mut String, items: I) {
    out.push('[');
    for (i, x) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let _ = write!(out, "{x}");
    }
    out.push(']');
}

fn gems6(out: &mut String, g: Gems) {
    list(out, (0..6).map(|c| g.get(c)));
}

impl BaseState {
    /// Appends the JSON of the full state (`viewer = None`) or of `viewer`'s view.
    pub(crate) fn write_json(&self, viewer: Option<Player>, out: &mut String) {
        let n = self.num_players as usize;
        out.push_str("{\"bank\":");
        gems6(out, self.bank);
        out.push_str(",\"board\":[");
        for (l, row) in self.board.iter().enumerate() {
            if l > 0 {
                out.push(',');
            }
            out.push('[');
            for (s, &c) in row.iter().enumerate() {
                if s > 0 {
                    out.push(',');
                }
                if c == EMPTY {
                    out.push_str("null");
                } else {
                    let _ = write!(out, "{c}");
                }
            }
            out.push(']');
        }
        out.push_str("],\"current\":");
        if self.phase == Phase::Over {
            out.push_str("null");
        } else {
            let _ = write!(out, "{}", self.current);
        }
        let _ = write!(
            out,
            ",\"deck_sizes\":[{},{},{}],\"decks\":",
            self.deck_size(0),
            self.deck_size(1),
            self.deck_size(2)
        );
        if viewer.is_some() {
            out.push_str("null");
        } else {
            out.push('[');
            for l in 0..3 {
                if l > 0 {
                    out.push(',');
                }
                list(out, self.deck(l).iter().copied());
            }
            out.push(']');
        }
        out.push_str(",\"nobles\":");
        list(out, self.nobles_on_display().iter().copied());
        let _ = write!(
            out,
            ",\"num_players\":{},\"passes\":{},\"pending\":",
            self.num_players, self.passes
        );
        if self.phase == Phase::Pay {
            let _ = write!(out, "{}", self.pending);
        } else {
            out.push_str("null");
        }
        let _ = write!(out, ",\"phase\":\"{}\",\"players\":[", self.phase.as_str());
        for p in 0..n {
            if p > 0 {
                out.push(',');
            }
            out.push_str("{\"cards\":");
            list(out, self.owned[p].iter());
            out.push_str(",\"nobles\":");
            list(out, self.nobles_of(p));
            out.push_str(",\"reserved\":[");
            for (i, &c) in self.reserved(p).iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                let hidden = self.is_hidden(p, i);
                if hidden && viewer.is_some_and(|v| v as usize != p) {
                    out.push_str("{\"card\":null");
                } else {
                    let _ = write!(out, "{{\"card\":{c}");
                }
                let _ = write!(out, ",\"hidden\":{hidden},\"level\":{}}}", cards::level(c));
            }
            out.push_str("],\"tokens\":");
            gems6(out, self.tokens[p]);
            out.push('}');
        }
        let _ = write!(
            out,
            "],\"turn\":{},\"turn_cap\":{},\"variant\":\"base\",\"version\":1,\"viewer\":",
            self.turn, self.turn_cap
        );
        match viewer {
            Some(v) => {
                let _ = write!(out, "{v}");
            }
            None => out.push_str("null"),
        }
        out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::super::cards;
    use super::super::state::{Phase, EMPTY};
    use crate::game::{ActionList, Config, Game, Player};
    use crate::gems::Gems;
    use crate::rng::SplitMix64;
    use crate::variants::base::BaseState;
    use serde_json::{json, Value};

    fn opt_card(c: u8) -> Value {
        if c == EMPTY {
            Value::Null
        } else {
            json!(c)
        }
    }

    fn gems6(g: Gems) -> Value {
        Value::Array((0..6).map(|c| json!(g.get(c))).collect())
    }

    /// The same JSON built as a `serde_json::Value` (sorted map): the oracle.
    fn json_value(s: &BaseState, viewer: Option<Player>) -> Value {
        let n = s.num_players as usize;
        let over = s.phase == Phase::Over;
        let players: Vec<Value> = (0..n)
            .map(|p| {
                let reserved: Vec<Value> = s
                    .reserved(p)
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| {
                        let hidden = s.is_hidden(p, i);
                        let redact = hidden && viewer.is_some_and(|v| v as usize != p);
                        json!({
                            "card": if redact { Value::Null } else { json!(c) },
                            "hidden": hidden,
                            "level": cards::level(c),
                        })
                    })
                    .collect();
                json!({
                    "cards": s.owned[p].iter().collect::<Vec<u8>>(),
                    "nobles": s.nobles_of(p).collect::<Vec<u8>>(),
                    "reserved": reserved,
                    "tokens": gems6(s.tokens[p]),
                })
            })
            .collect();
        json!({
            "bank": gems6(s.bank),
            "board": s.board.iter().map(|row| row.iter().map(|&c| opt_card(c)).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "current": if over { Value::Null } else { json!(s.current) },
            "deck_sizes": (0..3).map(|l| s.deck_size(l)).collect::<Vec<_>>(),
            "decks": if viewer.is_some() { Value::Null } else { json!((0..3).map(|l| s.deck(l).to_vec()).collect::<Vec<_>>()) },
            "nobles": s.nobles_on_display().to_vec(),
            "num_players": s.num_players,
            "passes": s.passes,
            "pending": if s.phase == Phase::Pay { json!(s.pending) } else { Value::Null },
            "phase": s.phase.as_str(),
            "players": players,
            "turn": s.turn,
            "turn_cap": s.turn_cap,
            "variant": "base",
            "version": 1,
            "viewer": viewer.map_or(Value::Null, |v| json!(v)),
        })
    }

    #[test]
    fn direct_writer_matches_the_value_form() {
        let mut list = ActionList::new();
        for seed in 0..12u64 {
            let players = 2 + (seed % 3) as u8;
            let cfg = Config {
                num_players: players,
                seed,
                turn_cap: 100,
            };
            let mut s = BaseState::new_game(&cfg).expect("valid");
            let mut rng = SplitMix64::new(seed);
            loop {
                for viewer in [None, Some(0), Some(1), Some(players - 1)] {
                    let mut direct = String::new();
                    s.write_json(viewer, &mut direct);
                    assert_eq!(direct, json_value(&s, viewer).to_string());
                }
                if s.is_terminal() {
                    break;
                }
                s.legal_actions(&mut list);
                s.apply_unchecked(list.as_slice()[rng.below(list.len() as u64) as usize]);
            }
        }
    }
}
