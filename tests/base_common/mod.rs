//! Scenario builders shared by the base-game integration tests: positions
//! are made by editing a dealt game's JSON (so the loader's validation also
//! checks that every scenario is a consistent position).
#![allow(dead_code)]

use serde_json::{json, Value};
use splendor::game::{Action, ActionList, Config, Game};
use splendor::variants::base::state::{gems_per_colour, BaseState};

pub fn new_game(players: u8, seed: u64) -> BaseState {
    BaseState::new_game(&Config {
        num_players: players,
        seed,
        turn_cap: 100,
    })
    .expect("valid config")
}

pub fn to_value(s: &BaseState) -> Value {
    serde_json::from_str(&s.to_json(None)).expect("own JSON parses")
}

pub fn load(v: &Value) -> BaseState {
    BaseState::from_json(&v.to_string()).unwrap_or_else(|e| panic!("{e}\n{v}"))
}

pub fn legal(s: &BaseState) -> Vec<u16> {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l.as_slice().iter().map(|a| a.0).collect()
}

pub fn texts(s: &BaseState) -> Vec<String> {
    legal(s)
        .into_iter()
        .map(|id| BaseState::action_text(Action(id)))
        .collect()
}

pub fn play(s: &mut BaseState, text: &str) {
    let a = BaseState::parse_action(text).expect("parses");
    s.apply(a)
        .unwrap_or_else(|e| panic!("{text}: {e}\nlegal: {:?}", texts(s)));
}

/// Removes `card` from wherever it is (a board slot is refilled from the top of its deck).
pub fn take_out(v: &mut Value, card: u64) {
    for l in 0..3 {
        for slot in 0..4 {
            if v["board"][l][slot] == json!(card) {
                let deck = v["decks"][l].as_array_mut().unwrap();
                v["board"][l][slot] = if deck.is_empty() {
                    Value::Null
                } else {
                    deck.remove(0)
                };
            }
        }
        v["decks"][l]
            .as_array_mut()
            .unwrap()
            .retain(|c| c != &json!(card));
    }
    for p in v["players"].as_array_mut().unwrap() {
        p["cards"]
            .as_array_mut()
            .unwrap()
            .retain(|c| c != &json!(card));
        p["reserved"]
            .as_array_mut()
            .unwrap()
            .retain(|r| r["card"] != json!(card));
    }
    fix_sizes(v);
}

pub fn fix_sizes(v: &mut Value) {
    for l in 0..3 {
        v["deck_sizes"][l] = json!(v["decks"][l].as_array().unwrap().len());
    }
}

pub fn level_of(card: u64) -> u64 {
    if card < 40 {
        1
    } else if card < 70 {
        2
    } else {
        3
    }
}

pub fn give_cards(v: &mut Value, p: usize, cards: &[u64]) {
    for &c in cards {
        take_out(v, c);
        let list = v["players"][p]["cards"].as_array_mut().unwrap();
        list.push(json!(c));
        list.sort_by_key(|x| x.as_u64());
    }
}

pub fn give_reserve(v: &mut Value, p: usize, card: u64, hidden: bool) {
    take_out(v, card);
    v["players"][p]["reserved"]
        .as_array_mut()
        .unwrap()
        .push(json!({"card": card, "hidden": hidden, "level": level_of(card)}));
}

/// Puts `card` face up at board row `level-1`, slot `slot` (the displaced card goes on top of the deck).
pub fn put_on_board(v: &mut Value, card: u64, slot: usize) {
    take_out(v, card);
    let l = (level_of(card) - 1) as usize;
    let old = v["board"][l][slot].clone();
    if !old.is_null() {
        v["decks"][l].as_array_mut().unwrap().insert(0, old);
    }
    v["board"][l][slot] = json!(card);
    fix_sizes(v);
}

/// Sets a player's tokens; the bank takes up the difference.
pub fn set_tokens(v: &mut Value, p: usize, tokens: [u64; 6]) {
    v["players"][p]["tokens"] = json!(tokens);
    rebalance(v);
}

/// Sets the bank; the tokens taken out go to the players (seats after 0 first, at most 10 each).
pub fn set_bank(v: &mut Value, bank: [u64; 6]) {
    let n = v["num_players"].as_u64().unwrap() as usize;
    for p in 0..n {
        v["players"][p]["tokens"] = json!([0, 0, 0, 0, 0, 0]);
    }
    let mut order: Vec<usize> = (1..n).collect();
    order.push(0);
    let mut k = 0;
    for c in 0..6 {
        let setup = if c == 5 {
            5
        } else {
            gems_per_colour(n as u8) as u64
        };
        for _ in 0..setup - bank[c] {
            while v["players"][order[k]]["tokens"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_u64().unwrap())
                .sum::<u64>()
                >= 10
            {
                k += 1;
            }
            let t = v["players"][order[k]]["tokens"][c].as_u64().unwrap();
            v["players"][order[k]]["tokens"][c] = json!(t + 1);
        }
    }
    v["bank"] = json!(bank);
}

fn rebalance(v: &mut Value) {
    let n = v["num_players"].as_u64().unwrap() as u8;
    for c in 0..6 {
        let setup = if c == 5 { 5 } else { gems_per_colour(n) as u64 };
        let held: u64 = (0..n as usize)
            .map(|p| v["players"][p]["tokens"][c].as_u64().unwrap())
            .sum();
        v["bank"][c] = json!(setup - held);
    }
}
