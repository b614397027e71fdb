//! The canonical JSON text written directly (keys in sorted order, compact),
//! without building a `serde_json::Value` first: `to_json` backs Python's
//! `==`, pickling and the differential tests, so it is called often. A test
//! checks it byte for byte against the `Value`-based form in `json.rs`.

use super::cards;
use super::state::{BaseState, Phase, EMPTY};
use crate::game::Player;
use crate::gems::Gems;
use std::fmt::Write as _;

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
