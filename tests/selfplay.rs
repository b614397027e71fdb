//! The self-play generator: a game is a pure function of its seed and the
//! settings, samples are the real choices, targets are well formed.

use splendor::search::SearchConfig;
use splendor::selfplay::{game_seed, play_game, play_games, SelfPlayConfig};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::{Game, GameError};
use std::sync::atomic::AtomicBool;

fn config(players: u8) -> SelfPlayConfig {
    SelfPlayConfig {
        players,
        turn_cap: 100,
        search: SearchConfig {
            iterations: 40,
            ..SearchConfig::default()
        },
        temperature_moves: 8,
        fast_iterations: 0,
        full_search_fraction: 1.0,
    }
}

#[test]
fn a_game_is_a_function_of_its_seed() {
    let stop = AtomicBool::new(false);
    let cfg = config(2);
    let a = play_game::<BaseState>(&cfg, 7, 3, &stop).unwrap().unwrap();
    let b = play_game::<BaseState>(&cfg, 7, 3, &stop).unwrap().unwrap();
    assert_eq!(a, b);
    let c = play_game::<BaseState>(&cfg, 7, 4, &stop).unwrap().unwrap();
    assert_ne!(a.obs, c.obs);
    assert_eq!(a.game_seed, game_seed(7, 3));
}

#[test]
fn samples_are_choices_with_well_formed_targets() {
    let stop = AtomicBool::new(false);
    for players in 2..=4u8 {
        let r = play_game::<BaseState>(&config(players), 1, 0, &stop)
            .unwrap()
            .unwrap();
        let (o, a, p) = (
            BaseState::OBSERVATION_SIZE,
            BaseState::NUM_ACTIONS,
            players as usize,
        );
        assert!(r.samples > 10);
        assert_eq!(r.obs.len(), r.samples * o);
        assert_eq!(r.mask.len(), r.samples * a);
        assert_eq!(r.policy.len(), r.samples * a);
        assert_eq!(r.returns.len(), r.samples * p);
        assert!(r.samples <= r.decisions as usize);
        for i in 0..r.samples {
            let mask = &r.mask[i * a..(i + 1) * a];
            let policy = &r.policy[i * a..(i + 1) * a];
            assert!(mask.iter().filter(|&&m| m).count() >= 2);
            let sum: f32 = policy.iter().sum();
            assert!((sum - 1.0).abs() < 1e-4, "policy sums to {sum}");
            assert!(policy.iter().zip(mask).all(|(&q, &m)| m || q == 0.0));
            let ret = &r.returns[i * p..(i + 1) * p];
            let winners = r.outcome.winners.count_ones() as f32;
            let mover = r.player[i] as usize;
            for (k, &v) in ret.iter().enumerate() {
                let seat = ((mover + k) % p) as u8;
                let want = if r.outcome.is_winner(seat) {
                    1.0 / winners
                } else {
                    0.0
                };
                assert_eq!(v, want);
            }
        }
    }
}

#[test]
fn threads_do_not_change_the_games() {
    let stop = AtomicBool::new(false);
    let cfg = config(2);
    let ids = [0u64, 1, 2, 3, 4];
    let collect = |threads: usize| {
        let mut got = Vec::new();
        let n = play_games::<DuelState>(
            &cfg,
            5,
            &ids,
            threads,
            &stop,
            || true,
            |r| {
                got.push(r);
                true
            },
        )
        .unwrap();
        assert_eq!(n, ids.len());
        got.sort_by_key(|r| r.game_id);
        got
    };
    assert_eq!(collect(1), collect(2));
}

#[test]
fn a_false_from_the_callback_stops_the_run() {
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let ids: Vec<u64> = (0..50).collect();
    let n = play_games::<BaseState>(
        &config(2),
        1,
        &ids,
        2,
        &stop,
        || true,
        |_| {
            seen += 1;
            false
        },
    )
    .unwrap();
    assert_eq!((n, seen), (1, 1));
}

#[test]
fn bad_settings_are_config_errors() {
    let stop = AtomicBool::new(false);
    let mut cfg = config(2);
    cfg.search.iterations = 0;
    cfg.search.time_limit = Some(1.0);
    assert!(matches!(
        play_games::<BaseState>(&cfg, 0, &[0], 1, &stop, || true, |_| true),
        Err(GameError::Config(_))
    ));
    let cfg = config(5);
    assert!(matches!(
        play_games::<BaseState>(&cfg, 0, &[0], 1, &stop, || true, |_| true),
        Err(GameError::Config(_))
    ));
    assert!(matches!(
        play_games::<BaseState>(&config(2), 0, &[0], 0, &stop, || true, |_| true),
        Err(GameError::Config(_))
    ));
}

#[test]
fn points_are_each_seats_final_score_rotated_to_the_mover() {
    let stop = AtomicBool::new(false);
    for players in 2..=4u8 {
        let r = play_game::<BaseState>(&config(players), 5, 1, &stop)
            .unwrap()
            .unwrap();
        let p = players as usize;
        assert_eq!(r.points.len(), r.samples * p);
        // The same final scores in every row, read from the mover's seat on.
        let first_mover = r.player[0] as usize;
        let by_seat: Vec<f32> = (0..p)
            .map(|seat| r.points[(seat + p - first_mover) % p])
            .collect();
        for i in 0..r.samples {
            let mover = r.player[i] as usize;
            for k in 0..p {
                assert_eq!(r.points[i * p + k], by_seat[(mover + k) % p]);
            }
        }
        // A finished base game: a winner has at least 15 points and the most.
        let best = by_seat.iter().cloned().fold(0.0f32, f32::max);
        for seat in 0..p {
            if r.outcome.is_winner(seat as u8) {
                assert!(
                    by_seat[seat] >= 15.0 && by_seat[seat] == best,
                    "{by_seat:?}"
                );
            }
        }
    }
}

#[test]
fn playout_cap_randomisation_records_only_the_full_searches() {
    let stop = AtomicBool::new(false);
    let full = config(2);
    let capped = SelfPlayConfig {
        fast_iterations: 5,
        full_search_fraction: 0.25,
        ..config(2)
    };
    let mut samples = 0usize;
    let mut choices = 0usize;
    for id in 0..6u64 {
        let a = play_game::<BaseState>(&capped, 11, id, &stop)
            .unwrap()
            .unwrap();
        let b = play_game::<BaseState>(&capped, 11, id, &stop)
            .unwrap()
            .unwrap();
        assert_eq!(a, b, "a capped game is a function of its seed too");
        samples += a.samples;
        let uncapped = play_game::<BaseState>(&full, 11, id, &stop)
            .unwrap()
            .unwrap();
        assert!(a.samples < uncapped.samples);
        choices += a.decisions as usize;
    }
    // About a quarter of the decisions (forced ones included in `choices`).
    let share = samples as f64 / choices as f64;
    assert!(
        share > 0.1 && share < 0.35,
        "share of recorded decisions {share}"
    );
    // With (almost) no full searches the game is still played, unrecorded.
    let none = SelfPlayConfig {
        full_search_fraction: 1e-12,
        ..capped
    };
    let r = play_game::<BaseState>(&none, 11, 0, &stop)
        .unwrap()
        .unwrap();
    assert_eq!((r.samples, r.policy.len(), r.points.len()), (0, 0, 0));
    assert!(r.decisions > 20);
}

#[test]
fn bad_playout_cap_settings_are_config_errors() {
    for (fast, fraction) in [(40u64, 0.5), (50, 0.5), (5, 0.0), (5, 1.5), (5, f64::NAN)] {
        let cfg = SelfPlayConfig {
            fast_iterations: fast,
            full_search_fraction: fraction,
            ..config(2)
        };
        assert!(
            matches!(cfg.validate::<BaseState>(), Err(GameError::Config(_))),
            "fast {fast} fraction {fraction}"
        );
    }
}
