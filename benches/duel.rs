//! Splendor Duel random-play throughput: decisions per second, single thread.
//!
//! Each iteration plays one whole seeded game with uniformly random legal
//! actions (legal list + apply per decision), so the figure covers the hot
//! paths a search rollout uses. The bench asserts its own results: every game
//! ends, and the decision count of a fixed batch is pinned. The random pick
//! is Lemire's multiply-high (`next_u64 * len >> 64`, no division), the cheap
//! uniform-enough choice a rollout policy uses; `SplitMix64::below` (two
//! 64-bit divisions) would cost as much as a third of a decision.

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use splendor::variants::duel::DuelState;
use splendor::{ActionList, Config, Game, SplitMix64};
use std::hint::black_box;

const GAMES: u64 = 200;

#[inline]
fn pick(rng: &mut SplitMix64, len: usize) -> usize {
    ((u128::from(rng.next_u64()) * len as u128) >> 64) as usize
}

fn play(seed: u64, list: &mut ActionList) -> u64 {
    let mut s = DuelState::new_game(&Config {
        num_players: 2,
        seed,
        turn_cap: 100,
    })
    .expect("valid config");
    let mut rng = SplitMix64::new(seed);
    let mut n = 0;
    while !s.is_terminal() {
        s.legal_actions(list);
        let a = list.as_slice()[pick(&mut rng, list.len())];
        s.apply_unchecked(a);
        n += 1;
    }
    n
}

fn bench(c: &mut Criterion) {
    let mut list = ActionList::new();
    let decisions: u64 = (0..GAMES).map(|s| play(s, &mut list)).sum();
    assert!(
        decisions > GAMES * 20,
        "games are implausibly short: {decisions}"
    );
    let turns: u64 = (0..GAMES)
        .map(|seed| {
            let mut s = DuelState::new_game(&Config {
                num_players: 2,
                seed,
                turn_cap: 100,
            })
            .expect("valid config");
            let mut rng = SplitMix64::new(seed);
            while !s.is_terminal() {
                s.legal_actions(&mut list);
                let a = list.as_slice()[pick(&mut rng, list.len())];
                s.apply_unchecked(a);
            }
            u64::from(
                serde_json::from_str::<serde_json::Value>(&s.to_json(None))
                    .ok()
                    .and_then(|v| v["turn"].as_u64())
                    .unwrap_or(0) as u32,
            )
        })
        .sum();
    println!(
        "duel random play: {GAMES} games, {:.1} decisions/game, {:.1} turns/game",
        decisions as f64 / GAMES as f64,
        turns as f64 / GAMES as f64
    );
    let mut g = c.benchmark_group("duel_random_play");
    g.throughput(Throughput::Elements(decisions));
    g.bench_function("decisions_200_games", |b| {
        b.iter(|| {
            let mut list = ActionList::new();
            let n: u64 = (0..GAMES).map(|s| play(black_box(s), &mut list)).sum();
            assert_eq!(n, decisions);
            n
        })
    });
    g.finish();
    let mut g = c.benchmark_group("duel_ops");
    let s = DuelState::new_game(&Config::default()).expect("valid config");
    g.bench_function("legal_actions_start", |b| {
        let mut list = ActionList::new();
        b.iter(|| {
            black_box(&s).legal_actions(&mut list);
            list.len()
        })
    });
    g.bench_function("new_game", |b| {
        b.iter(|| {
            DuelState::new_game(&Config {
                num_players: 2,
                seed: black_box(3),
                turn_cap: 100,
            })
        })
    });
    g.finish();
}

/// Thread CPU time (`CLOCK_THREAD_CPUTIME_ID`, nanoseconds): on a machine shared
/// with other jobs, wall time measures the scheduler as much as the engine; the
/// CPU time of the benchmarking thread measures the engine alone.
struct ThreadCpu(WallTime);

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        self.0.formatter()
    }
}

fn bench_cpu(c: &mut Criterion<ThreadCpu>) {
    let mut list = ActionList::new();
    let decisions: u64 = (0..GAMES).map(|s| play(s, &mut list)).sum();
    let mut g = c.benchmark_group("duel_random_play_cpu_time");
    g.throughput(Throughput::Elements(decisions));
    g.bench_function("decisions_200_games", |b| {
        b.iter(|| {
            let n: u64 = (0..GAMES).map(|s| play(black_box(s), &mut list)).sum();
            assert_eq!(n, decisions);
            n
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(ThreadCpu(WallTime));
    targets = bench_cpu
}
criterion_main!(benches, cpu);
