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
