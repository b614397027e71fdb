//! The search's expected lines (`SearchResult::lines`, the principal
//! variation) and its search of one root action (`SearchConfig::root_action`),
//! on the toy hidden-information game and on the base game.

mod search_toy;

use search_toy::{position, Nim};
use splendor::game::{Action, ActionList, Config, Game, GameError};
use splendor::search::mcts::MAX_LINE;
use splendor::search::{search, SearchConfig, Selection};
use splendor::variants::base::BaseState;

const SELECTIONS: [Selection; 2] = [Selection::Uct, Selection::Puct { temperature: 0.02 }];

fn cfg(iterations: u64, selection: Selection) -> SearchConfig {
    SearchConfig {
        iterations,
        selection,
        seed: 5,
        ..SearchConfig::default()
    }
}

fn legal<G: Game>(s: &G) -> Vec<Action> {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l.as_slice().to_vec()
}

#[test]
fn every_action_has_a_line_that_starts_with_it() {
    let s = Nim::new_game(&Config::default()).unwrap();
    for selection in SELECTIONS {
        for threads in [1, 2] {
            let r = search(
                &s,
                &SearchConfig {
                    threads,
                    ..cfg(2000, selection)
                },
            )
            .unwrap();
            assert_eq!(r.lines.len(), r.stats.len());
            for (stat, line) in r.stats.iter().zip(&r.lines) {
                assert_eq!(line[0], (0, stat.action), "{selection:?}");
                assert!(line.len() <= MAX_LINE);
            }
            assert_eq!(r.principal_variation()[0], (0, r.action));
            // 2,000 iterations of a game of a dozen decisions: the chosen
            // move's line goes on past it, the players taking turns.
            let pv = r.principal_variation();
            assert!(pv.len() >= 3, "{pv:?}");
            for (k, &(player, _)) in pv.iter().enumerate() {
                assert_eq!(player as usize, k % 2, "{pv:?}");
            }
        }
    }
}

#[test]
fn the_line_ends_where_the_game_does() {
    // Counter 3, the mover holds the 3 (id 2): playing it wins at once, so
    // its line is that move alone.
    let s = position(3, &[0, 1, 2], &[3, 4, 5]);
    for selection in SELECTIONS {
        let r = search(&s, &cfg(2000, selection)).unwrap();
        assert_eq!(r.action, Action(2));
        assert_eq!(r.principal_variation(), &[(0, Action(2))]);
    }
}

#[test]
fn the_line_of_a_base_opening_reaches_the_next_seat() {
    // 3,000 iterations from the base opening: the chosen move's line goes on
    // past the mover's turn into the opponent's.
    let s = BaseState::new_game(&Config::default()).unwrap();
    let r = search(&s, &cfg(3000, Selection::Puct { temperature: 0.02 })).unwrap();
    let pv = r.principal_variation();
    assert_eq!(pv[0], (0, r.action));
    assert!(pv.len() >= 2, "{pv:?}");
    assert!(pv.iter().any(|&(p, _)| p == 1), "{pv:?}");
}

#[test]
fn a_search_of_one_root_action_spends_the_budget_on_it() {
    let s = Nim::new_game(&Config::default()).unwrap();
    for selection in SELECTIONS {
        let full = search(&s, &cfg(1000, selection)).unwrap();
        // The move the full search liked least.
        let worst = full
            .stats
            .iter()
            .min_by_key(|x| x.visits)
            .map(|x| x.action)
            .unwrap();
        let only = search(
            &s,
            &SearchConfig {
                root_action: Some(worst),
                ..cfg(1000, selection)
            },
        )
        .unwrap();
        assert_eq!(only.action, worst);
        for x in &only.stats {
            let expected = if x.action == worst { 1000 } else { 0 };
            assert_eq!(x.visits, expected, "{selection:?} {:?}", x.action);
        }
        assert!((0.0..=1.0).contains(&only.stats.iter().find(|x| x.action == worst).unwrap().value));
        // Reproducible like any search.
        let again = search(
            &s,
            &SearchConfig {
                root_action: Some(worst),
                ..cfg(1000, selection)
            },
        )
        .unwrap();
        assert_eq!(only, again);
    }
}

#[test]
fn a_search_of_one_root_action_estimates_it_like_the_full_search() {
    // Counter 3 and the 3 in hand: the winning move is worth 1, and a search
    // of it alone says so; a move that hands the opponent the counter at 2
    // or 1 is worth less, alone or not.
    let s = position(3, &[0, 1, 2], &[3, 4, 5]);
    for selection in SELECTIONS {
        let win = search(
            &s,
            &SearchConfig {
                root_action: Some(Action(2)),
                ..cfg(500, selection)
            },
        )
        .unwrap();
        let v = |r: &splendor::search::SearchResult, a: Action| {
            r.stats.iter().find(|x| x.action == a).unwrap().value
        };
        assert!(v(&win, Action(2)) > 0.99);
        let weak = search(
            &s,
            &SearchConfig {
                root_action: Some(Action(0)),
                ..cfg(500, selection)
            },
        )
        .unwrap();
        assert!(v(&weak, Action(0)) < 0.9, "{}", v(&weak, Action(0)));
    }
}

#[test]
fn a_root_action_must_be_legal() {
    let s = position(3, &[0, 1, 2], &[3, 4, 5]);
    assert!(!legal(&s).contains(&Action(7)));
    let err = search(
        &s,
        &SearchConfig {
            root_action: Some(Action(7)),
            ..cfg(100, Selection::Uct)
        },
    )
    .unwrap_err();
    assert!(matches!(err, GameError::IllegalAction(_)), "{err:?}");
}
