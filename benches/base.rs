//! Criterion benches of the base-game engine's hot paths.
//!
//! Run: `cargo bench --bench base`. Each bench asserts the result it
//! measures, so a broken engine cannot produce a fast-looking number.

use criterion::{criterion_group, criterion_main, Criterion};
use splendor::game::{Action, ActionList, Config, Game};
use splendor::playout::random_playout;
use splendor::rng::SplitMix64;
use splendor::variants::base::BaseState;
use std::hint::black_box;
use std::time::Instant;

fn opening(players: u8, seed: u64) -> BaseState {
    BaseState::new_game(&Config {
        num_players: players,
        seed,
        turn_cap: 100,
    })
    .expect("valid")
}

fn mid_game() -> BaseState {
    let mut s = opening(2, 3);
    let mut rng = SplitMix64::new(3);
    let mut list = ActionList::new();
    for _ in 0..40 {
        s.legal_actions(&mut list);
        s.apply_unchecked(list.as_slice()[rng.below(list.len() as u64) as usize]);
    }
    assert!(!s.is_terminal());
    s
}

/// Game length and throughput of random games, printed once (not a criterion measurement).
fn report_game_lengths() {
    for players in 2..=4u8 {
        let games = 20_000u64;
        let (mut decisions, mut turns) = (0u64, 0u64);
        let start = Instant::now();
        for seed in 0..games {
            let mut s = opening(players, seed);
            let mut rng = SplitMix64::new(seed);
            decisions += random_playout(&mut s, &mut rng) as u64;
            turns += u64::from(s.turn());
            assert!(s.is_terminal());
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "base {players}p random games: {:.1} decisions/game, {:.1} turns/game, {:.2} M decisions/s",
            decisions as f64 / games as f64,
            turns as f64 / games as f64,
            decisions as f64 / secs / 1e6
        );
    }
}

fn benches(c: &mut Criterion) {
    report_game_lengths();

    let s0 = opening(2, 1);
    c.bench_function("base/clone", |b| b.iter(|| black_box(*black_box(&s0))));

    let mut list = ActionList::new();
    c.bench_function("base/legal_actions_opening", |b| {
        b.iter(|| {
            black_box(&s0).legal_actions(&mut list);
            assert_eq!(list.len(), 30);
        })
    });

    let mid = mid_game();
    mid.legal_actions(&mut list);
    let n_mid = list.len();
    c.bench_function("base/legal_actions_mid", |b| {
        b.iter(|| {
            black_box(&mid).legal_actions(&mut list);
            assert_eq!(list.len(), n_mid);
        })
    });

    c.bench_function("base/apply_take3", |b| {
        b.iter(|| {
            let mut s = *black_box(&s0);
            s.apply_unchecked(black_box(Action(0)));
            assert_eq!(s.current_player(), Some(1));
            s
        })
    });

    c.bench_function("base/apply_checked_take3", |b| {
        b.iter(|| {
            let mut s = *black_box(&s0);
            s.apply(black_box(Action(0))).expect("legal");
            s
        })
    });

    let mut rng = SplitMix64::new(9);
    c.bench_function("base/determinize_mid", |b| {
        b.iter(|| {
            let d = black_box(&mid).determinize(0, &mut rng);
            assert_eq!(d.phase(), mid.phase());
            d
        })
    });

    let mut seed = 0u64;
    c.bench_function("base/random_game_2p_with_setup", |b| {
        b.iter(|| {
            seed += 1;
            let mut s = opening(2, seed);
            let mut rng = SplitMix64::new(seed);
            let n = random_playout(&mut s, &mut rng);
            assert!(n > 0 && s.is_terminal());
            n
        })
    });

    c.bench_function("base/to_json", |b| b.iter(|| black_box(&mid).to_json(None)));
    let text = mid.to_json(None);
    c.bench_function("base/from_json", |b| {
        b.iter(|| BaseState::from_json(black_box(&text)).expect("valid"))
    });
    let mut obs = vec![0.0f32; 432];
    c.bench_function("base/observation", |b| {
        b.iter(|| black_box(&mid).observation(0, &mut obs))
    });
    c.bench_function("base/heuristic", |b| {
        b.iter(|| black_box(&mid).heuristic(0))
    });
}

criterion_group! {
    name = base;
    config = Criterion::default()
        .sample_size(30)
        .warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = benches
}
criterion_main!(base);
