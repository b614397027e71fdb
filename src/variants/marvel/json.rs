//! Marvel JSON (docs/marvel.md §5): canonical output and validated loading.

use super::actions::*;
use super::cards::{MarvelData, NUM_CARDS};
use super::state::*;
use crate::cardset::CardSet;
use crate::game::{range_message, GameError};
use crate::gems::Gems;
use serde_json::{json, Map, Value};

const KEYS: [&str; 18] = [
    "avengers",
    "bank",
    "board",
    "card_set",
    "current",
    "deck_sizes",
    "decks",
    "locations",
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
const PLAYER_KEYS: [&str; 4] = ["cards", "locations", "reserved", "tokens"];

fn lanes(g: Gems, n: usize) -> Value {
    Value::from((0..n).map(|i| g.get(i)).collect::<Vec<u8>>())
}

fn opt(x: u8) -> Value {
    if x == NONE {
        Value::Null
    } else {
        Value::from(x)
    }
}

fn mask_ids(m: u8) -> Value {
    Value::from((0..8u8).filter(|i| m & (1 << i) != 0).collect::<Vec<u8>>())
}

impl MarvelState {
    /// The canonical JSON object of the state or of `viewer`'s view.
    pub fn json_value(&self, viewer: Option<u8>) -> Value {
        let n = self.num_players as usize;
        let players: Vec<Value> = (0..n)
            .map(|q| {
                let reserved: Vec<Value> = self
                    .reserved(q)
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| {
                        let hidden = self.hidden[q] & (1 << i) != 0;
                        let redact = hidden && viewer.is_some_and(|v| v as usize != q);
                        json!({
                            "card": if redact { Value::Null } else { Value::from(c) },
                            "hidden": hidden,
                            "level": self.data.cards[c as usize].level,
                        })
                    })
                    .collect();
                json!({
                    "cards": self.owned[q].iter().collect::<Vec<u8>>(),
                    "locations": mask_ids(self.loc_owned[q]),
                    "reserved": reserved,
                    "tokens": lanes(self.tokens[q], 7),
                })
            })
            .collect();
        let over = self.phase == Phase::Over;
        json!({
            "avengers": opt(self.avengers),
            "bank": lanes(self.bank, 7),
            "board": self.board.iter().map(|r| r.iter().map(|&c| opt(c)).collect::<Vec<_>>())
                .collect::<Vec<_>>(),
            "card_set": self.data.id,
            "current": if over { Value::Null } else { Value::from(self.current) },
            "deck_sizes": (0..3).map(|l| self.deck(l).len()).collect::<Vec<_>>(),
            "decks": if viewer.is_some() { Value::Null } else {
                Value::from((0..3).map(|l| Value::from(self.deck(l).to_vec())).collect::<Vec<_>>())
            },
            "locations": mask_ids(self.loc_display),
            "num_players": self.num_players,
            "passes": self.passes,
            "pending": opt(self.pending),
            "phase": self.phase.as_str(),
            "players": players,
            "turn": self.turn,
            "turn_cap": self.turn_cap,
            "variant": "marvel",
            "version": 1,
            "viewer": viewer.map_or(Value::Null, Value::from),
        })
    }

    /// Loads a full-state JSON that uses the card set `data`.
    pub fn from_json_with(text: &str, data: &'static MarvelData) -> Result<Self, GameError> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| GameError::InvalidState(format!("state JSON does not parse: {e}")))?;
        let obj = v
            .as_object()
            .ok_or_else(|| GameError::InvalidState("state JSON must be an object".into()))?;
        Loader {
            data,
            seen: CardSet::EMPTY,
        }
        .load(obj)
    }
}

fn bad(msg: impl std::fmt::Display) -> GameError {
    GameError::InvalidState(format!("invalid marvel state: {msg}"))
}

fn int(v: &Value, what: &str, lo: i64, hi: i64) -> Result<i64, GameError> {
    let x = v.as_i64().filter(|_| !v.is_f64()).ok_or_else(|| {
        if v.is_u64() {
            bad(range_message(what, lo, hi, v))
        } else {
            bad(format!("{what} must be an integer"))
        }
    })?;
    if x < lo || x > hi {
        return Err(bad(range_message(what, lo, hi, x)));
    }
    Ok(x)
}

fn list<'a>(v: &'a Value, what: &str, len: Option<usize>) -> Result<&'a Vec<Value>, GameError> {
    let l = v
        .as_array()
        .ok_or_else(|| bad(format!("{what} must be a list")))?;
    if let Some(n) = len {
        if l.len() != n {
            return Err(bad(format!(
                "{what} must have {n} entries, not {}",
                l.len()
            )));
        }
    }
    Ok(l)
}

fn tokens(v: &Value, what: &str) -> Result<Gems, GameError> {
    let mut g = [0u8; 7];
    for (i, x) in list(v, what, Some(7))?.iter().enumerate() {
        g[i] = int(x, what, 0, 99)? as u8;
    }
    Ok(Gems::from_counts(&g))
}

fn ascending_ids(v: &Value, what: &str, hi: i64) -> Result<Vec<u8>, GameError> {
    let ids = list(v, what, None)?
        .iter()
        .map(|x| int(x, what, 0, hi).map(|i| i as u8))
        .collect::<Result<Vec<u8>, _>>()?;
    // Strictly: a location listed twice is not a second location.
    if ids.windows(2).any(|w| w[0] >= w[1]) {
        return Err(bad(format!("{what} must be ascending, each id once")));
    }
    Ok(ids)
}

struct Loader {
    data: &'static MarvelData,
    seen: CardSet,
}

impl Loader {
    fn card(&mut self, v: &Value, what: &str, level: Option<u8>) -> Result<u8, GameError> {
        let c = int(v, what, 0, NUM_CARDS as i64 - 1)? as u8;
        if self.seen.contains(c) {
            return Err(bad(format!("card {c} appears twice")));
        }
        self.seen.insert(c);
        if let Some(lv) = level {
            if self.data.cards[c as usize].level != lv {
                return Err(bad(format!("{what}: card {c} is not of level {lv}")));
            }
        }
        Ok(c)
    }

    fn load(mut self, obj: &Map<String, Value>) -> Result<MarvelState, GameError> {
        let data = self.data;
        if obj.len() != KEYS.len() || !KEYS.iter().all(|k| obj.contains_key(*k)) {
            let missing: Vec<&str> = KEYS
                .iter()
                .copied()
                .filter(|k| !obj.contains_key(*k))
                .collect();
            let extra: Vec<&String> = obj.keys().filter(|k| !KEYS.contains(&k.as_str())).collect();
            return Err(bad(format!(
                "keys differ from the format (missing {missing:?}, unexpected {extra:?})"
            )));
        }
        if obj["variant"] != "marvel" {
            return Err(bad(format!("variant is {}, not 'marvel'", obj["variant"])));
        }
        if obj["version"] != 1 {
            return Err(bad(format!("version {} is not supported", obj["version"])));
        }
        if !obj["viewer"].is_null() {
            return Err(bad("a player's view cannot be loaded (it hides cards)"));
        }
        if obj["card_set"].as_str() != Some(data.id.as_str()) {
            return Err(bad(format!(
                "card_set {} does not match the loaded card set ({}); load it with the same \
                 cards/locations files",
                obj["card_set"], data.id
            )));
        }
        let n = int(&obj["num_players"], "num_players", 2, 4)? as usize;
        let turn_cap = int(&obj["turn_cap"], "turn_cap", 1, 10_000)?;
        let turn = int(&obj["turn"], "turn", 0, turn_cap * n as i64)?;
        let passes = int(&obj["passes"], "passes", 0, n as i64)?;
        let phase = match obj["phase"].as_str() {
            Some("main") => Phase::Main,
            Some("pay") => Phase::Pay,
            Some("return") => Phase::Return,
            Some("location") => Phase::Location,
            Some("over") => Phase::Over,
            _ => return Err(bad(format!("unknown phase {}", obj["phase"]))),
        };
        let bank = tokens(&obj["bank"], "bank")?;
        let avengers = match &obj["avengers"] {
            Value::Null => NONE,
            v => int(v, "avengers", 0, n as i64 - 1)? as u8,
        };
        let mut s = MarvelState::new_with_data(
            &crate::game::Config {
                num_players: n as u8,
                seed: 0,
                turn_cap: turn_cap as u32,
            },
            data,
        )?;
        s.bank = bank;
        s.avengers = avengers;
        s.turn = turn as u16;
        s.passes = passes as u8;
        s.phase = phase;
        for (lv, row) in list(&obj["board"], "board", Some(3))?.iter().enumerate() {
            let what = format!("board level {}", lv + 1);
            for (k, v) in list(row, &what, Some(4))?.iter().enumerate() {
                s.board[lv][k] = if v.is_null() {
                    NONE
                } else {
                    self.card(v, &what, Some(lv as u8 + 1))?
                };
            }
        }
        if obj["decks"].is_null() {
            return Err(bad("decks are null: a view cannot be loaded"));
        }
        let mut sizes = Vec::new();
        for (lv, d) in list(&obj["decks"], "decks", Some(3))?.iter().enumerate() {
            let what = format!("deck {}", lv + 1);
            let cards = list(d, &what, None)?
                .iter()
                .map(|v| self.card(v, &what, Some(lv as u8 + 1)))
                .collect::<Result<Vec<u8>, _>>()?;
            if !cards.is_empty() && s.board[lv].contains(&NONE) {
                return Err(bad(format!(
                    "{what} is not empty but a board slot of its level is"
                )));
            }
            // Every card is distinct and of this level, so this fits the capacity.
            let cap = DECK_OFFSET[lv + 1] - DECK_OFFSET[lv];
            if cards.len() > cap {
                return Err(bad(format!("{what} holds more than {cap} cards")));
            }
            sizes.push(cards.len());
            s.set_deck(lv, &cards);
        }
        let ds = list(&obj["deck_sizes"], "deck_sizes", Some(3))?;
        if ds
            .iter()
            .zip(&sizes)
            .any(|(v, &n)| v.as_u64() != Some(n as u64))
        {
            return Err(bad("deck_sizes do not match the decks"));
        }
        let players = list(&obj["players"], "players", Some(n))?;
        for (q, po) in players.iter().enumerate() {
            let po = po
                .as_object()
                .filter(|m| m.len() == 4 && PLAYER_KEYS.iter().all(|k| m.contains_key(*k)))
                .ok_or_else(|| bad(format!("player {q} must have the keys {PLAYER_KEYS:?}")))?;
            s.tokens[q] = tokens(&po["tokens"], &format!("player {q} tokens"))?;
            let what = format!("player {q} cards");
            let mut prev = None;
            for v in list(&po["cards"], &what, None)? {
                let c = self.card(v, &what, None)?;
                if prev.is_some_and(|p| p > c) {
                    return Err(bad(format!("player {q} cards must be ascending")));
                }
                prev = Some(c);
                s.owned[q].insert(c);
            }
            let res = list(&po["reserved"], &format!("player {q} reserved"), None)?;
            if res.len() > MAX_RESERVED as usize {
                return Err(bad(format!(
                    "player {q} holds {} reserved cards (at most 3)",
                    res.len()
                )));
            }
            for (i, r) in res.iter().enumerate() {
                let r = r
                    .as_object()
                    .filter(|m| {
                        m.len() == 3
                            && ["card", "hidden", "level"]
                                .iter()
                                .all(|k| m.contains_key(*k))
                    })
                    .ok_or_else(|| {
                        bad(format!(
                            "player {q} reserve must have keys card, hidden, level"
                        ))
                    })?;
                let hidden = r["hidden"]
                    .as_bool()
                    .ok_or_else(|| bad(format!("player {q} reserve hidden must be a bool")))?;
                let lv = int(&r["level"], &format!("player {q} reserve level"), 1, 3)? as u8;
                s.reserved[q][i] =
                    self.card(&r["card"], &format!("player {q} reserve"), Some(lv))?;
                s.hidden[q] |= u8::from(hidden) << i;
            }
            s.n_reserved[q] = res.len() as u8;
            for id in ascending_ids(&po["locations"], &format!("player {q} locations"), 7)? {
                if s.loc_owned[q] & (1 << id) != 0 {
                    return Err(bad("a location (or both sides of one tile) appears twice"));
                }
                s.loc_owned[q] |= 1 << id;
            }
        }
        if self.seen.len() as usize != NUM_CARDS {
            return Err(bad(format!(
                "{} cards are missing",
                NUM_CARDS - self.seen.len() as usize
            )));
        }
        s.loc_display = 0;
        for id in ascending_ids(&obj["locations"], "locations", 7)? {
            s.loc_display |= 1 << id;
        }
        let mut tiles = 0u8;
        let mut count = 0;
        let all = (0..n).map(|q| s.loc_owned[q]).chain([s.loc_display]);
        for m in all {
            for id in 0..8 {
                if m & (1 << id) != 0 {
                    count += 1;
                    if tiles & (1 << (id / 2)) != 0 {
                        return Err(bad("a location (or both sides of one tile) appears twice"));
                    }
                    tiles |= 1 << (id / 2);
                }
            }
        }
        if count != n {
            return Err(bad(format!("{count} location tiles in play, expected {n}")));
        }
        let totals = Gems::splat(STONES[n], 5)
            .add(Gems::unit(GREY, GREY_SUPPLY))
            .add(Gems::unit(GREEN, n as u8));
        for (c, &letter) in TOKEN_LETTERS.iter().enumerate() {
            let held: u32 = u32::from(s.bank.get(c))
                + (0..n).map(|q| u32::from(s.tokens[q].get(c))).sum::<u32>();
            if held != u32::from(totals.get(c)) {
                return Err(bad(format!(
                    "{} tokens total {held}, expected {}",
                    letter as char,
                    totals.get(c)
                )));
            }
        }
        s.recompute_derived();
        for q in 0..n {
            let has_time = s.owned[q].iter().any(|c| data.cards[c as usize].time_stone);
            let g = s.tokens[q].get(GREEN);
            if g > 1 || (g == 1) != has_time {
                return Err(bad(format!(
                    "player {q} green token does not match a recruited Time Stone card"
                )));
            }
            for id in 0..8 {
                if s.loc_owned[q] & (1 << id) != 0
                    && !data.locations[id].requirement.all_le(s.bonus[q])
                {
                    return Err(bad(format!(
                        "player {q} holds location {id} without qualifying"
                    )));
                }
            }
        }
        let max_icons = (0..n).map(|q| s.icons[q]).max().unwrap_or(0);
        if s.avengers == NONE {
            if max_icons >= u16::from(AVENGERS_ICONS) {
                return Err(bad(
                    "a player has 3 or more Avengers icons but nobody holds the tile",
                ));
            }
        } else {
            let h = s.icons[s.avengers as usize];
            if h < u16::from(AVENGERS_ICONS) || h < max_icons {
                return Err(bad(format!(
                    "player {} cannot hold the Avengers tile with {h}",
                    s.avengers
                )));
            }
        }
        check_phase(&mut s, obj)?;
        Ok(s)
    }
}

fn check_phase(s: &mut MarvelState, obj: &Map<String, Value>) -> Result<(), GameError> {
    let n = u16::from(s.num_players);
    let meets = s.anyone_meets_gauntlet();
    let cap_reached = u32::from(s.turn) >= u32::from(s.turn_cap) * u32::from(n);
    if s.phase == Phase::Over {
        if !obj["current"].is_null() || !obj["pending"].is_null() {
            return Err(bad("an over state has current and pending null"));
        }
        s.current = 0;
        s.pending = NONE;
        // Tokens are returned before the end checks of a turn.
        if let Some(q) = (0..s.num_players as usize).find(|&q| s.tokens[q].total() > TOKEN_LIMIT) {
            return Err(bad(format!(
                "player {q} holds more than {TOKEN_LIMIT} tokens in an over state"
            )));
        }
        let ended = (s.turn % n == 0 && meets) || u16::from(s.passes) >= n || cap_reached;
        if s.turn == 0 || !ended {
            return Err(bad("phase over does not match the end conditions"));
        }
        return Ok(());
    }
    s.current = int(&obj["current"], "current", 0, i64::from(n) - 1)? as u8;
    if u16::from(s.current) != s.turn % n {
        return Err(bad(format!(
            "current {} is not seat turn % players = {}",
            s.current,
            s.turn % n
        )));
    }
    // Mid-turn, the current player may already meet the conditions; nobody
    // else can have gained them since the round ended.
    let others_meet = (0..s.num_players as usize)
        .any(|q| s.meets_gauntlet(q) && (s.phase == Phase::Main || q != s.current as usize));
    if s.turn > 0 && s.turn % n == 0 && others_meet {
        return Err(bad(
            "the round is complete and a player meets the Gauntlet: the game is over",
        ));
    }
    if u16::from(s.passes) >= n || cap_reached {
        return Err(bad(
            "passes or turn say the game is over but the phase is not over",
        ));
    }
    for q in 0..s.num_players as usize {
        if q != s.current as usize && s.tokens[q].total() > TOKEN_LIMIT {
            return Err(bad(format!(
                "player {q} holds more than {TOKEN_LIMIT} tokens"
            )));
        }
    }
    let total = s.tokens[s.current as usize].total();
    s.pending = NONE;
    if s.phase == Phase::Pay {
        let a = int(
            &obj["pending"],
            "pending",
            i64::from(RECRUIT),
            i64::from(RETURN) - 1,
        )? as u16;
        s.pending = a as u8;
        if a >= RECRUIT_RES && s.hidden[s.current as usize] & (1 << (a - RECRUIT_RES)) != 0 {
            return Err(bad(
                "the pending recruit is a reserved card that is still hidden: a card being \
                 recruited is shown (hidden false)",
            ));
        }
        let mut legal = crate::game::ActionList::new();
        s.legal(&mut legal);
        if s.card_at(a) == NONE || legal.len() < 2 {
            return Err(bad(
                "phase pay needs a pending recruit with at least two payments",
            ));
        }
        if total > TOKEN_LIMIT {
            return Err(bad("phase pay with more than 10 tokens"));
        }
        return Ok(());
    }
    if !obj["pending"].is_null() {
        return Err(bad("pending must be null outside phase pay"));
    }
    if s.phase == Phase::Return && total <= TOKEN_LIMIT {
        return Err(bad("phase return with 10 tokens or fewer"));
    }
    if matches!(s.phase, Phase::Main | Phase::Location) && total > TOKEN_LIMIT {
        return Err(bad(format!(
            "phase {} with more than 10 tokens",
            s.phase.as_str()
        )));
    }
    if s.phase == Phase::Location && s.qualifying_locations(s.current as usize).count_ones() < 2 {
        return Err(bad("phase location needs two or more qualifying locations"));
    }
    Ok(())
}
