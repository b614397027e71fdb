//! Bots and the arena on the toy hidden-information game.

mod search_toy;

use search_toy::{position, Nim};
use splendor::game::{Action, Config, Game, GameError};
use splendor::search::arena::{schedule, REASONS};
use splendor::search::{
    play_match, wilson_interval, Bot, BotSpec, GreedyBot, MatchConfig, MctsBot, RandomBot,
    SearchConfig,
};

fn mcts(iterations: u64) -> BotSpec {
    BotSpec::Mcts(SearchConfig {
        iterations,
        ..SearchConfig::default()
    })
}

#[test]
fn bots_play_legal_moves_and_are_reproducible() {
    let s = Nim::new_game(&Config::default()).unwrap();
    let mut bots: Vec<Box<dyn Bot<Nim>>> = vec![
        Box::new(RandomBot::new(1)),
        Box::new(GreedyBot::new(1)),
        Box::new(MctsBot::new(SearchConfig::default()).unwrap()),
    ];
    for b in &mut bots {
        let mut g = s;
        while !g.is_terminal() {
            let a = b.act(&g).unwrap();
            g.apply(a).unwrap();
        }
        assert_eq!(
            b.act(&g).unwrap_err(),
            GameError::Config("a bot cannot act in a finished game: the state is terminal".into())
        );
    }
    let mut r1 = RandomBot::new(5);
    let mut r2 = RandomBot::new(5);
    for _ in 0..20 {
        assert_eq!(
            Bot::<Nim>::act(&mut r1, &s).unwrap(),
            Bot::<Nim>::act(&mut r2, &s).unwrap()
        );
    }
}

#[test]
fn greedy_takes_a_win_in_one() {
    let s = position(2, &[0, 1, 2], &[3, 4, 5]);
    // Cards 1 (value 2) and 2 (value 3) both win; the heuristic of any other
    // move is 0.5, so greedy must pick a winning one.
    for seed in 0..10 {
        let a = GreedyBot::new(seed).act(&s).unwrap();
        assert!(a == Action(1) || a == Action(2), "{a:?}");
    }
}

#[test]
fn bot_specs_parse_and_print() {
    assert_eq!(BotSpec::parse("random").unwrap(), BotSpec::Random);
    assert_eq!(BotSpec::parse(" Greedy ").unwrap(), BotSpec::Greedy);
    assert_eq!(BotSpec::parse("mcts:250").unwrap().to_string(), "mcts:250");
    assert_eq!(
        BotSpec::parse("mcts:0.5s").unwrap().to_string(),
        "mcts:0.5s"
    );
    assert_eq!(BotSpec::parse("mcts").unwrap().to_string(), "mcts:1000");
    for bad in ["", "alphazero", "mcts:", "mcts:x", "mcts:0", "mcts:-1s"] {
        assert!(
            matches!(BotSpec::parse(bad), Err(GameError::Config(_))),
            "{bad}"
        );
    }
}

#[test]
fn match_rotates_seats_and_is_deterministic() {
    let cfg = MatchConfig {
        bots: vec![mcts(300), BotSpec::Random],
        players: 2,
        games: 60,
        seed: 11,
        threads: 2,
        turn_cap: 100,
        first_game: 0,
    };
    let mut calls = Vec::new();
    let r = play_match::<Nim>(&cfg, &mut |d, t| {
        calls.push((d, t));
        true
    })
    .unwrap();
    assert_eq!(calls.len(), 60);
    assert_eq!(calls.last(), Some(&(60, 60)));
    assert_eq!(r.games, 60);
    assert_eq!(r.bots[0].games, 60);
    assert_eq!(r.bots[1].games, 60);
    let total: f64 = r.bots.iter().map(|b| b.wins).sum();
    // Every game has winners summing to 1 unless truncated.
    assert!((total - (60 - r.truncated) as f64).abs() < 1e-9);
    assert_eq!(r.reasons.iter().sum::<u64>(), 60);
    assert!(r.avg_decisions > 0.0 && r.avg_turns > 0.0);
    // Search beats random play clearly in hidden Nim.
    assert!(r.bots[0].win_rate > 0.7, "{:?}", r.bots);
    let (lo, hi) = wilson_interval(r.bots[0].wins, 60, 1.96);
    assert_eq!((r.bots[0].ci_low, r.bots[0].ci_high), (lo, hi));
    // Thread count and timing do not change the result.
    let one = play_match::<Nim>(
        &MatchConfig {
            threads: 1,
            ..cfg.clone()
        },
        &mut |_, _| true,
    )
    .unwrap();
    assert_eq!(one, r);
    let json = r.to_json();
    assert!(json.starts_with("{\"avg_decisions\":"), "{json}");
    for reason in REASONS {
        assert!(json.contains(reason.as_str()));
    }
}

#[test]
fn paired_deals_and_seat_rotation() {
    for players in 2..=4 {
        for group in 0..5 {
            let games: Vec<_> = (0..players)
                .map(|r| schedule(9, players, group * players + r))
                .collect();
            // One deal per rotation group, a different one per group.
            assert!(games.iter().all(|g| g.0 == games[0].0));
            assert_ne!(games[0].0, schedule(9, players, (group + 1) * players).0);
            // Every bot sits in every seat exactly once within the group.
            for seat in 0..players {
                let mut bots: Vec<usize> = games.iter().map(|g| g.1[seat]).collect();
                bots.sort_unstable();
                assert_eq!(bots, (0..players).collect::<Vec<_>>());
            }
        }
    }
}

#[test]
fn fewer_bots_than_seats_repeats_the_last() {
    let cfg = MatchConfig {
        bots: vec![mcts(200), BotSpec::Random],
        players: 4,
        games: 40,
        seed: 1,
        threads: 2,
        turn_cap: 100,
        first_game: 0,
    };
    let r = play_match::<Nim>(&cfg, &mut |_, _| true).unwrap();
    assert_eq!(r.bots.len(), 2);
    assert_eq!(r.bots[0].games, 40);
    assert_eq!(r.bots[1].games, 120);
    assert!(r.bots[0].win_rate > 0.25, "{:?}", r.bots);
}

#[test]
fn bad_match_configs_are_errors() {
    let base = MatchConfig::default();
    let bad = [
        MatchConfig {
            players: 0,
            ..base.clone()
        },
        MatchConfig {
            players: 5,
            ..base.clone()
        },
        MatchConfig {
            bots: vec![],
            ..base.clone()
        },
        MatchConfig {
            bots: vec![BotSpec::Random; 3],
            ..base.clone()
        },
        MatchConfig {
            games: 0,
            ..base.clone()
        },
        MatchConfig {
            threads: 0,
            ..base.clone()
        },
    ];
    for c in bad {
        assert!(
            matches!(
                play_match::<Nim>(&c, &mut |_, _| true),
                Err(GameError::Config(_))
            ),
            "{c:?}"
        );
    }
    // A player count the game rejects surfaces the game's own error.
    let c = MatchConfig {
        players: 1,
        bots: vec![BotSpec::Random],
        ..base
    };
    match play_match::<Nim>(&c, &mut |_, _| true) {
        Err(GameError::Config(m)) => assert!(m.contains("2-4 players"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn progress_can_stop_a_match() {
    let cfg = MatchConfig {
        bots: vec![BotSpec::Random, BotSpec::Random],
        games: 1000,
        threads: 2,
        ..MatchConfig::default()
    };
    let mut seen = 0;
    let r = play_match::<Nim>(&cfg, &mut |d, _| {
        seen = d;
        d < 10
    });
    match r {
        Err(GameError::Config(m)) => assert!(m.contains("stopped after 10 of 1000"), "{m}"),
        other => panic!("{other:?}"),
    }
    // At most one game per thread was still being played when the stop came.
    assert!(
        seen <= 10 + cfg.threads,
        "{seen} games reported after stopping at 10"
    );
}

/// The integer totals of a result: what chunks of a match add up to.
fn totals(r: &splendor::search::MatchResult) -> Vec<u64> {
    let whole = |x: f64| {
        let n = x.round();
        assert!((x - n).abs() < 1e-6, "{x} is not a whole number");
        n as u64
    };
    let mut t = vec![r.games, r.draws, r.truncated, r.stalled];
    t.extend(r.reasons);
    t.push(whole(r.avg_decisions * r.games as f64));
    t.push(whole(r.avg_turns * r.games as f64));
    for b in &r.bots {
        t.push(b.games);
        t.push(whole(b.wins * 12.0));
    }
    t
}

#[test]
fn chunks_of_a_match_add_up_to_the_whole() {
    for players in 2..=4u8 {
        let cfg = MatchConfig {
            bots: vec![mcts(40), BotSpec::Random],
            players,
            games: 26,
            seed: 5,
            threads: 2,
            ..MatchConfig::default()
        };
        let whole = play_match::<Nim>(&cfg, &mut |_, _| true).unwrap();
        let mut sum = vec![0u64; totals(&whole).len()];
        for (first_game, games) in [(0, 7), (7, 1), (8, 11), (19, 7)] {
            let part = play_match::<Nim>(
                &MatchConfig {
                    first_game,
                    games,
                    ..cfg.clone()
                },
                &mut |_, _| true,
            )
            .unwrap();
            for (s, x) in sum.iter_mut().zip(totals(&part)) {
                *s += x;
            }
        }
        assert_eq!(sum, totals(&whole), "{players} players");
        // Wins are counted in twelfths, so they do not depend on the game order.
        for b in &whole.bots {
            assert_eq!(b.wins, (b.wins * 12.0).round() / 12.0);
        }
    }
    // A range past the last game index is refused, not wrapped around.
    let far = MatchConfig {
        first_game: usize::MAX,
        games: 2,
        ..MatchConfig::default()
    };
    assert!(matches!(
        play_match::<Nim>(&far, &mut |_, _| true),
        Err(GameError::Config(m)) if m.contains("first_game + games")
    ));
}
