//! One scenario per ruling of docs/base.md and the rules digest: each would
//! fail if its rule broke.

mod base_common;

use base_common::*;
use serde_json::json;
use splendor::game::{Action, Config, EndReason, Game, GameError};
use splendor::rng::SplitMix64;
use splendor::variants::base::BaseState;

#[test]
fn setup_follows_the_documented_draw_order() {
    for (players, seed) in [(2u8, 0u64), (3, 7), (4, 123_456_789)] {
        let s = new_game(players, seed);
        let v = to_value(&s);
        let mut rng = SplitMix64::new(seed);
        for (l, (lo, hi)) in [(0u64, 40u64), (40, 70), (70, 90)].into_iter().enumerate() {
            let mut deck: Vec<u64> = (lo..hi).collect();
            rng.shuffle(&mut deck);
            assert_eq!(v["board"][l], json!(deck[..4]));
            assert_eq!(v["decks"][l], json!(deck[4..]));
        }
        let mut nobles: Vec<u64> = (0..10).collect();
        rng.shuffle(&mut nobles);
        assert_eq!(v["nobles"], json!(nobles[..players as usize + 1]));
        let g = [4, 5, 7][players as usize - 2];
        assert_eq!(
            v["bank"],
            json!([g, g, g, g, g, 5]),
            "gems per colour, gold always 5"
        );
        assert_eq!(v["current"], json!(0));
        assert_eq!(v["phase"], json!("main"));
    }
}

#[test]
fn bad_configs_are_errors() {
    for n in [0u8, 1, 5] {
        let r = BaseState::new_game(&Config {
            num_players: n,
            seed: 0,
            turn_cap: 100,
        });
        assert!(matches!(r, Err(GameError::Config(_))));
    }
    let r = BaseState::new_game(&Config {
        num_players: 2,
        seed: 0,
        turn_cap: 0,
    });
    assert!(matches!(r, Err(GameError::Config(_))));
}

#[test]
fn opening_moves_are_triples_doubles_and_reserves() {
    let s = new_game(2, 1);
    let expect: Vec<u16> = (0..10).chain(25..30).chain(30..45).collect();
    assert_eq!(legal(&s), expect);
}

#[test]
fn fewer_than_three_colours_allow_two_or_one() {
    let mut v = to_value(&new_game(2, 2));
    set_bank(&mut v, [1, 0, 0, 2, 0, 5]);
    let s = load(&v);
    let takes: Vec<String> = texts(&s)
        .into_iter()
        .filter(|t| t.starts_with("take"))
        .collect();
    assert_eq!(takes, ["take wr", "take w", "take r"]);
    // Three colours: only the triple, no pair or single.
    set_bank(&mut v, [1, 0, 3, 2, 0, 5]);
    let takes: Vec<String> = texts(&load(&v))
        .into_iter()
        .filter(|t| t.starts_with("take"))
        .collect();
    assert_eq!(takes, ["take wgr"]);
}

#[test]
fn double_needs_four_before_taking() {
    let mut v = to_value(&new_game(4, 3));
    set_bank(&mut v, [3, 4, 7, 0, 0, 5]);
    let takes: Vec<String> = texts(&load(&v))
        .into_iter()
        .filter(|t| t.starts_with("take"))
        .collect();
    assert_eq!(takes, ["take wug", "take uu", "take gg"]);
    let mut s = load(&v);
    play(&mut s, "take uu");
    assert_eq!(s.tokens(0).get(1), 2);
    assert_eq!(s.bank().get(1), 2);
}

#[test]
fn reserve_limit_gold_and_blind() {
    let s0 = new_game(2, 4);
    let mut s = s0;
    play(&mut s, "reserve 1.2");
    assert_eq!(s.tokens(0).get(5), 1, "reserving takes a gold");
    assert_eq!(s.bank().get(5), 4);
    let v = to_value(&s0);
    let slot_card = v["board"][0][1].as_u64().unwrap();
    assert_eq!(s.reserved(0), [slot_card as u8]);
    assert_eq!(
        s.board_card(0, 1),
        Some(v["decks"][0][0].as_u64().unwrap() as u8),
        "refilled from the top"
    );
    // Blind reserve: hidden from the opponent, visible to the owner.
    play(&mut s, "reserve deck 3");
    let top3 = v["decks"][2][0].as_u64().unwrap();
    assert_eq!(s.reserved(1), [top3 as u8]);
    let view0: serde_json::Value = serde_json::from_str(&s.to_json(Some(0))).unwrap();
    let view1: serde_json::Value = serde_json::from_str(&s.to_json(Some(1))).unwrap();
    assert_eq!(
        view0["players"][1]["reserved"][0],
        json!({"card": null, "hidden": true, "level": 3})
    );
    assert_eq!(view1["players"][1]["reserved"][0]["card"], json!(top3));
    assert_eq!(view0["decks"], json!(null));
    // No gold left: reserving is still legal and gives nothing.
    let mut v = to_value(&new_game(2, 4));
    set_bank(&mut v, [4, 4, 4, 4, 4, 0]);
    let mut s = load(&v);
    play(&mut s, "reserve 2.1");
    assert_eq!(s.tokens(0).get(5), 0);
    // Three reserved: no reserve action; empty deck: no blind reserve.
    let mut v = to_value(&new_game(2, 5));
    for c in [71, 75, 79] {
        give_reserve(&mut v, 0, c, false);
    }
    let t = texts(&load(&v));
    assert!(!t.iter().any(|x| x.starts_with("reserve")));
    let mut v = to_value(&new_game(2, 5));
    let deck3: Vec<u64> = v["decks"][2]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_u64().unwrap())
        .collect();
    give_cards(&mut v, 1, &deck3);
    let t = texts(&load(&v));
    assert!(
        t.contains(&"reserve deck 2".to_string()) && !t.contains(&"reserve deck 3".to_string())
    );
    assert!(t.contains(&"reserve 3.1".to_string()));
}

#[test]
fn payment_is_exact_gold_optional_and_a_choice() {
    // Card 0 costs 3 blue.
    let mut v = to_value(&new_game(2, 6));
    put_on_board(&mut v, 0, 0);
    set_tokens(&mut v, 0, [0, 3, 0, 0, 0, 1]);
    let s = load(&v);
    let mut a = s;
    play(&mut a, "buy 1.1");
    assert_eq!(a.phase().as_str(), "pay", "two payments: a choice");
    assert_eq!(texts(&a), ["pay", "pay gold u"]);
    let mut b = a;
    play(&mut b, "pay gold u");
    assert_eq!(b.tokens(0).get(1), 1);
    assert_eq!(b.tokens(0).get(5), 0);
    assert!(b.cards(0).contains(0));
    play(&mut a, "pay");
    assert_eq!(a.tokens(0).get(1), 0);
    assert_eq!(a.tokens(0).get(5), 1);
    assert_eq!(a.bank().get(1), 4, "paid tokens return to the bank");
    // One payment: completes at once, exact cost (no overpaying with spare tokens).
    set_tokens(&mut v, 0, [0, 4, 0, 0, 0, 0]);
    let mut c = load(&v);
    play(&mut c, "buy 1.1");
    assert_eq!(c.current_player(), Some(1));
    assert_eq!(c.tokens(0).get(1), 1);
    // Only gold: the one payment uses it.
    set_tokens(&mut v, 0, [0, 1, 0, 0, 0, 2]);
    let mut d = load(&v);
    play(&mut d, "buy 1.1");
    assert_eq!(d.tokens(0).0, 0);
    // Bonuses discount, never below zero: two blue cards make card 0 cost 1 blue.
    give_cards(&mut v, 0, &[8, 9]);
    set_tokens(&mut v, 0, [0, 1, 0, 0, 0, 0]);
    let mut e = load(&v);
    play(&mut e, "buy 1.1");
    assert_eq!(e.tokens(0).0, 0);
    // Not enough: not legal.
    set_tokens(&mut v, 0, [3, 0, 0, 0, 0, 0]);
    assert!(!texts(&load(&v)).contains(&"buy 1.1".to_string()));
}

#[test]
fn buying_a_reserved_card_shifts_the_rest() {
    let mut v = to_value(&new_game(2, 7));
    give_reserve(&mut v, 0, 71, false);
    give_reserve(&mut v, 0, 0, true);
    give_reserve(&mut v, 0, 75, false);
    set_tokens(&mut v, 0, [0, 3, 0, 0, 0, 0]);
    let mut s = load(&v);
    assert_eq!(
        texts(&s)
            .iter()
            .filter(|t| t.starts_with("buy reserved"))
            .collect::<Vec<_>>(),
        ["buy reserved 2"]
    );
    play(&mut s, "buy reserved 2");
    assert_eq!(s.reserved(0), [71, 75]);
    assert!(!s.is_hidden(0, 0) && !s.is_hidden(0, 1));
}

#[test]
fn returns_one_token_per_decision_down_to_ten() {
    let mut v = to_value(&new_game(2, 8));
    set_tokens(&mut v, 0, [2, 2, 2, 1, 1, 1]);
    let mut s = load(&v);
    play(&mut s, "take wug");
    assert_eq!(s.phase().as_str(), "return");
    assert_eq!(
        texts(&s),
        ["return w", "return u", "return g", "return r", "return k", "return y"]
    );
    play(&mut s, "return y");
    assert_eq!(s.phase().as_str(), "return");
    play(&mut s, "return w");
    assert_eq!(
        s.current_player(),
        Some(1),
        "exactly 10 left: the turn ends"
    );
    assert_eq!(s.tokens(0).total(), 10);
    assert_eq!(s.tokens(0).get(5), 0, "gold may be returned");
    // Reserving at 10 tokens is legal and leads to one return.
    let mut v = to_value(&new_game(2, 8));
    set_tokens(&mut v, 0, [2, 2, 2, 2, 2, 0]);
    let mut s = load(&v);
    play(&mut s, "reserve 1.1");
    assert_eq!(s.phase().as_str(), "return");
    play(&mut s, "return y");
    assert_eq!(s.current_player(), Some(1));
}

#[test]
fn nobles_one_per_turn_with_a_choice_on_any_turn() {
    // Nobles 5 (3w 3u 3g) and 6 (3w 3u 3k); a player with 3w 3u 3g 3k bonuses qualifies for both.
    let mut v = to_value(&new_game(3, 9));
    v["nobles"] = json!([5, 6, 0, 1]);
    give_cards(&mut v, 0, &[0, 1, 2, 8, 9, 10, 16, 17, 18, 32, 33]);
    put_on_board(&mut v, 34, 0); // black card costing 2w 2g
    set_tokens(&mut v, 0, [2, 0, 0, 0, 0, 0]);
    let mut s = load(&v);
    play(&mut s, "buy 1.1");
    assert_eq!(s.phase().as_str(), "noble");
    assert_eq!(texts(&s), ["noble 5", "noble 6"]);
    play(&mut s, "noble 6");
    assert_eq!(
        s.nobles_on_display(),
        [5, 0, 1],
        "the others keep their order"
    );
    assert_eq!(s.scores()[0], 3);
    assert_eq!(s.current_player(), Some(1));
    play(&mut s, "take wug");
    play(&mut s, "take wug");
    // A take turn still gets the noble now that only one qualifies: no choice.
    play(&mut s, "take urk");
    assert_eq!(s.nobles_of(0).collect::<Vec<_>>(), [6, 5]);
    assert_eq!(s.scores()[0], 6);
    assert_eq!(s.current_player(), Some(1));
}

#[test]
fn last_round_is_finished_then_tie_breaks() {
    // Seat 0 reaches 15 during the round; seat 1 still plays.
    let mut v = to_value(&new_game(2, 10));
    give_cards(&mut v, 0, &[73, 77, 81]); // 15 points, 3 cards
    let mut s = load(&v);
    play(&mut s, "take wug");
    assert!(!s.is_terminal(), "the round is finished first");
    play(&mut s, "take wug");
    let o = s.outcome().expect("over after seat 1");
    assert_eq!((o.reason, o.winner_list()), (EndReason::Points, vec![0]));
    // Equal points: fewest purchased cards wins; reserved cards do not count.
    let mut v = to_value(&new_game(2, 10));
    give_cards(&mut v, 0, &[73, 77, 81, 0]); // 15 points, 4 cards
    give_cards(&mut v, 1, &[85, 89, 79, 24]); // 5 + 5 + 4 + 0 = 14
    give_reserve(&mut v, 1, 71, false);
    put_on_board(&mut v, 7, 0); // 1 point, costs 4 green
    set_tokens(&mut v, 1, [0, 0, 4, 0, 0, 0]);
    v["turn"] = json!(1);
    v["current"] = json!(1);
    let mut s = load(&v);
    play(&mut s, "buy 1.1");
    let o = s.outcome().expect("over");
    assert_eq!(o.winner_list(), vec![0], "15 vs 15: 4 cards beat 5");
    // Still tied: shared win.
    let mut v = to_value(&new_game(2, 10));
    give_cards(&mut v, 0, &[73, 77, 81, 0]);
    give_cards(&mut v, 1, &[85, 89, 79]);
    put_on_board(&mut v, 7, 0);
    set_tokens(&mut v, 1, [0, 0, 4, 0, 0, 0]);
    v["turn"] = json!(1);
    v["current"] = json!(1);
    let mut s = load(&v);
    play(&mut s, "buy 1.1");
    let o = s.outcome().expect("over");
    assert_eq!(o.winner_list(), vec![0, 1]);
    assert_eq!(o.returns()[..2], [0.5, 0.5]);
}

#[test]
fn three_players_end_after_the_last_seat() {
    let mut v = to_value(&new_game(3, 11));
    give_cards(&mut v, 1, &[73, 77, 81]);
    v["turn"] = json!(1);
    v["current"] = json!(1);
    let mut s = load(&v);
    play(&mut s, "take wug");
    assert_eq!(s.current_player(), Some(2));
    play(&mut s, "take wug");
    assert!(s.is_terminal());
    assert_eq!(s.outcome().unwrap().winner_list(), vec![1]);
}

/// A 2-player position where the coloured bank is empty, both players hold
/// 3 unaffordable reserves and nothing on the board is affordable.
fn stuck_position(p1_third: u64) -> serde_json::Value {
    let mut v = to_value(&new_game(2, 12));
    for (slot, c) in [0u64, 9, 17, 24].into_iter().enumerate() {
        put_on_board(&mut v, c, slot);
    }
    for (slot, c) in [42u64, 45, 48, 51].into_iter().enumerate() {
        put_on_board(&mut v, c, slot);
    }
    for c in [71, 75, 79] {
        give_reserve(&mut v, 0, c, false);
    }
    for c in [83, 87, p1_third] {
        give_reserve(&mut v, 1, c, true);
    }
    set_tokens(&mut v, 0, [2, 2, 2, 2, 2, 0]);
    set_tokens(&mut v, 1, [2, 2, 2, 2, 2, 0]);
    v
}

#[test]
fn pass_only_when_nothing_else_and_stalled_end() {
    let v = stuck_position(73);
    let mut s = load(&v);
    assert_eq!(texts(&s), ["pass"]);
    play(&mut s, "pass");
    assert_eq!(s.passes(), 1);
    assert_eq!(texts(&s), ["pass"]);
    play(&mut s, "pass");
    let o = s.outcome().expect("every player passed for a round");
    assert_eq!(o.reason, EndReason::Stalled);
    assert_eq!(
        o.winner_list(),
        vec![0, 1],
        "scored like a normal end: shared"
    );
    // Any other legal move removes pass.
    let mut v2 = v.clone();
    set_tokens(&mut v2, 0, [2, 2, 2, 2, 1, 0]);
    let t = texts(&load(&v2));
    assert_eq!(t, ["take k"]);
}

#[test]
fn a_pass_breaks_no_streak_unless_all_pass() {
    // Seat 1's third reserve (card 35: 1w 1u 1g 1r) is affordable for it only.
    let v = stuck_position(35);
    let mut s = load(&v);
    play(&mut s, "pass");
    assert_eq!(s.passes(), 1);
    play(&mut s, "buy reserved 3");
    assert_eq!(s.passes(), 0);
    assert!(!s.is_terminal());
}

#[test]
fn turn_cap_truncates_with_no_winner() {
    let mut s = BaseState::new_game(&Config {
        num_players: 2,
        seed: 13,
        turn_cap: 1,
    })
    .unwrap();
    play(&mut s, "take wug");
    play(&mut s, "take wug");
    let o = s.outcome().expect("cap reached");
    assert!(o.truncated());
    assert_eq!(o.winners, 0);
    assert_eq!(o.returns(), [0.0; 4]);
}

#[test]
fn bad_actions_leave_the_state_unchanged() {
    let s = new_game(2, 14);
    let mut t = s;
    assert!(matches!(
        t.apply(Action(45)),
        Err(GameError::IllegalAction(_))
    ));
    assert!(matches!(
        t.apply(Action(328)),
        Err(GameError::IllegalAction(_))
    ));
    assert!(matches!(
        t.apply(Action(60)),
        Err(GameError::IllegalAction(_))
    ));
    assert!(matches!(
        t.apply(Action(329)),
        Err(GameError::InvalidAction(_))
    ));
    assert!(matches!(
        t.apply(Action(u16::MAX)),
        Err(GameError::InvalidAction(_))
    ));
    assert!(matches!(
        BaseState::parse_action("take wuy"),
        Err(GameError::InvalidAction(_))
    ));
    assert_eq!(t, s);
    let mut over = BaseState::new_game(&Config {
        num_players: 2,
        seed: 1,
        turn_cap: 1,
    })
    .unwrap();
    play(&mut over, "take wug");
    play(&mut over, "take wug");
    let before = over;
    assert!(matches!(
        over.apply(Action(0)),
        Err(GameError::IllegalAction(_))
    ));
    assert_eq!(over, before);
}

#[test]
fn seeded_games_are_deterministic() {
    for seed in [0u64, 1, 99] {
        let play_out = || {
            let mut s = new_game(3, seed);
            let mut rng = SplitMix64::new(seed);
            let n = splendor::playout::random_playout(&mut s, &mut rng);
            (n, s.to_json(None))
        };
        assert_eq!(play_out(), play_out());
    }
    assert_ne!(new_game(2, 1).to_json(None), new_game(2, 2).to_json(None));
}

#[test]
fn state_is_small() {
    assert_eq!(std::mem::size_of::<BaseState>(), 288);
}

#[test]
fn apply_accepts_exactly_the_listed_actions() {
    let mut list = splendor::ActionList::new();
    for seed in 0..12u64 {
        let mut s = new_game(2 + (seed % 3) as u8, seed);
        let mut rng = SplitMix64::new(seed);
        while !s.is_terminal() {
            s.legal_actions(&mut list);
            for id in 0..329u16 {
                let mut t = s;
                let r = t.apply(Action(id));
                assert_eq!(
                    r.is_ok(),
                    list.contains(Action(id)),
                    "id {id} in {}",
                    s.to_json(None)
                );
                if r.is_err() {
                    assert_eq!(t, s);
                }
            }
            s.apply_unchecked(list.as_slice()[rng.below(list.len() as u64) as usize]);
        }
    }
}
