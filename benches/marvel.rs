//! Marvel random-play speed: decisions per second, single-threaded.
//!
//! Each iteration plays the same 32 seeded games to the end (uniform random
//! legal actions via `playout::random_playout`), so the throughput in
//! decisions is exact. The bench also prints the mean game length and the
//! share of truncated games, and asserts them.
//!
//! Two groups: `marvel_random_play` measures wall time (criterion's default);
//! `marvel_random_play_cpu` measures the thread's CPU time, which stays
//! meaningful on a shared machine where the benchmark thread is descheduled.

use criterion::measurement::{Measurement, ValueFormatter};
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

/// CPU time of the calling thread, in nanoseconds.
#[cfg(target_os = "linux")]
fn thread_cpu_ns() -> u64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut t = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec; the clock id is a Linux constant.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(rc, 0, "clock_gettime failed");
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// Elsewhere fall back to wall time since the first call.
#[cfg(not(target_os = "linux"))]
fn thread_cpu_ns() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}

/// Criterion measurement: thread CPU time.
struct ThreadCpu;

struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (div, unit) = if typical < 1e3 {
            (1.0, "ns cpu")
        } else if typical < 1e6 {
            (1e3, "µs cpu")
        } else if typical < 1e9 {
            (1e6, "ms cpu")
        } else {
            (1e9, "s cpu")
        };
        values.iter_mut().for_each(|v| *v /= div);
        unit
    }
    fn scale_throughputs(&self, _typical: f64, t: &Throughput, values: &mut [f64]) -> &'static str {
        let n = match *t {
            Throughput::Elements(n) | Throughput::Bytes(n) | Throughput::BytesDecimal(n) => n,
            Throughput::Bits(n) => n,
            #[allow(unreachable_patterns)]
            _ => 1,
        } as f64;
        values.iter_mut().for_each(|v| *v = n * 1e9 / *v / 1e6);
        "Melem/s cpu"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
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
        &CpuFormatter
    }
}

fn random_play_cpu(c: &mut Criterion<ThreadCpu>) {
    let mut group = c.benchmark_group("marvel_random_play_cpu");
    for n in 2..=4u8 {
        let timed = starts(n, 0..GAMES);
        let (decisions, _) = batch(&timed);
        group.throughput(Throughput::Elements(decisions as u64));
        group.bench_function(format!("{n}p_32_games"), |b| {
            b.iter(|| black_box(batch(black_box(&timed))))
        });
    }
    group.finish();
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
criterion_group! {
    name = cpu_benches;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = random_play_cpu
}
criterion_main!(benches, cpu_benches);
