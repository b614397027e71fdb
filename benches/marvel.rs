//! Marvel random-play speed: decisions per second, single-threaded.
//!
//! Each iteration plays the same 32 seeded games to the end (uniform random
//! legal actions via `playout::random_playout`), so the throughput in
//! decisions is exact. The bench also prints the mean game length and the
//! share of truncated games, and asserts them.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use splendor::game::{Config, EndReason, Game};
use splendor::playout::random_playout;
use splendor::rng::SplitMix64;
use splendor::variants::marvel::MarvelState;
use std::hint::black_box;

const GAMES: u64 = 32;

fn batch(starts: &[MarvelState]) -> (usize, usize) {
    let (mut decisions, mut truncated) = (0, 0);
    for (i, s0) in starts.iter().enumerate() {
        let mut s = *s0;
        let mut rng = SplitMix64::new(i as u64 ^ 0x5EED);
        decisions += random_playout(&mut s, &mut rng);
        if s.outcome()
            .is_some_and(|o| o.reason == EndReason::Truncated)
        {
            truncated += 1;
        }
    }
    (decisions, truncated)
}

fn starts(n: u8, seeds: std::ops::Range<u64>) -> Vec<MarvelState> {
    seeds
        .map(|seed| {
            MarvelState::new_game(&Config {
                num_players: n,
                seed,
                turn_cap: 100,
            })
            .unwrap()
        })
        .collect()
}

fn random_play(c: &mut Criterion) {
    let mut group = c.benchmark_group("marvel_random_play");
    for n in 2..=4u8 {
        let timed = starts(n, 0..GAMES);
        let (decisions, truncated) = batch(&timed);
        assert!(decisions > 0 && truncated * 5 < GAMES as usize);
        // A wider sample for the reported game length and truncation share.
        let (d, t) = batch(&starts(n, 1000..2000));
        assert!(t * 10 < 1000, "too many truncated games: {t}");
        println!(
            "marvel {n}p: {:.1} decisions/game, {:.1}% truncated (1000 games)",
            d as f64 / 1000.0,
            t as f64 / 10.0
        );
        group.throughput(Throughput::Elements(decisions as u64));
        group.bench_function(format!("{n}p_32_games"), |b| {
            b.iter(|| black_box(batch(black_box(&timed))))
        });
    }
    group.finish();
}

criterion_group!(benches, random_play);
criterion_main!(benches);
