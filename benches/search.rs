//! Search speed from the opening position: iterations per second with one
//! and two root-parallel threads (criterion reports the throughput in
//! iterations, "elem/s").
//!
//! Run: `cargo bench --bench search`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use splendor::game::{Config, Game};
use splendor::search::{search, SearchConfig};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::variants::marvel::MarvelState;
use std::hint::black_box;
use std::time::Duration;

const ITERATIONS: u64 = 4000;

fn bench_variant<G: Game>(c: &mut Criterion, players: u8) {
    let state = G::new_game(&Config {
        num_players: players,
        seed: 1,
        turn_cap: 100,
    })
    .expect("a valid opening");
    let mut group = c.benchmark_group(format!("search/{}-{players}p", G::VARIANT));
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(4));
    for threads in [1usize, 2] {
        let cfg = SearchConfig {
            iterations: ITERATIONS,
            threads,
            ..SearchConfig::default()
        };
        group.bench_with_input(BenchmarkId::new("threads", threads), &cfg, |b, cfg| {
            b.iter(|| {
                let r = search(black_box(&state), cfg).expect("search from the opening");
                // The bench measures what it claims: the full budget ran.
                assert_eq!(r.iterations, ITERATIONS);
                r
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_variant::<BaseState>(c, 2);
    bench_variant::<DuelState>(c, 2);
    bench_variant::<MarvelState>(c, 2);
}

criterion_group!(search_benches, benches);
criterion_main!(search_benches);
