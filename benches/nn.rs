//! Network evaluations per second on one thread, from a base 2-player
//! observation, for hidden widths 128x2, 256x2 and 512x2, with three kernels
//! for the trunk and both full heads:
//!
//! - `cols`: the library's [`Network::evaluate`] (transposed weights, `axpy`
//!   inner loop, zero inputs skipped; AVX2 + FMA when the CPU has it);
//! - `rows`: row-major weights, one eight-accumulator dot product per output;
//! - `sgemm`: `matrixmultiply::sgemm` with a one-column right-hand side.
//!
//! The library keeps the fastest (see `src/nn/kernel.rs`). Then search
//! iterations per second from the base opening with a 256x2 network, one and
//! two root-parallel threads (`nn/search-256x2`). Then, for each variant and
//! player count, the cost of the `needs` input features (`nn/needs`): a
//! 64x64 network's evaluation with `raw` and with `needs` inputs, and the
//! extras alone (`Network::input`), cycling over 64 positions of random
//! games. Run: `cargo bench --bench nn` (or `-- needs`).
//!
//! Times are per-thread CPU time (`CLOCK_THREAD_CPUTIME_ID`), so a machine
//! shared with other jobs does not inflate them, except the two-thread search,
//! which is wall time (its point is the parallel speed-up).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use splendor::game::{ActionList, Config, Game};
use splendor::nn::{encode, header_for, kernel, random_network_bytes, random_tensors, Network};
use splendor::search::{search, SearchConfig};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::variants::marvel::MarvelState;
use splendor::SplitMix64;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

/// Row-major layers `[out, in]` with biases, for the two alternatives.
struct Plain {
    layers: Vec<(usize, usize, Vec<f32>, Vec<f32>)>,
}

impl Plain {
    fn new(obs: usize, hidden: &[usize], actions: usize, players: usize) -> Plain {
        let mut rng = SplitMix64::new(3);
        let mut dims = vec![obs];
        dims.extend_from_slice(hidden);
        let mut layers = Vec::new();
        let mut rand = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| (rng.next_f64() as f32 - 0.5) * 0.1)
                .collect()
        };
        for w in dims.windows(2) {
            layers.push((w[0], w[1], rand(w[0] * w[1]), rand(w[1])));
        }
        let last = *dims.last().expect("non-empty");
        layers.push((last, actions, rand(last * actions), rand(actions)));
        layers.push((last, players, rand(last * players), rand(players)));
        Plain { layers }
    }

    /// Trunk with ReLU, then both heads from the last hidden layer.
    fn forward(&self, obs: &[f32], a: &mut Vec<f32>, b: &mut Vec<f32>, sgemm: bool) -> f32 {
        a.clear();
        a.extend_from_slice(obs);
        let heads = self.layers.len() - 2;
        for (inp, out, w, bias) in &self.layers[..heads] {
            b.resize(*out, 0.0);
            layer(*inp, *out, w, bias, a, b, sgemm);
            for v in b.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(a, b);
        }
        let mut sum = 0.0;
        for (inp, out, w, bias) in &self.layers[heads..] {
            b.resize(*out, 0.0);
            layer(*inp, *out, w, bias, a, b, sgemm);
            sum += b[0];
        }
        sum
    }
}

fn layer(inp: usize, out: usize, w: &[f32], bias: &[f32], x: &[f32], y: &mut [f32], sgemm: bool) {
    if sgemm {
        y.copy_from_slice(bias);
        // SAFETY: `w` is out x inp, `x` is inp x 1 and `y` is out x 1, all
        // row-major with the strides given; the slices have those lengths.
        unsafe {
            matrixmultiply::sgemm(
                out,
                inp,
                1,
                1.0,
                w.as_ptr(),
                inp as isize,
                1,
                x.as_ptr(),
                1,
                1,
                1.0,
                y.as_mut_ptr(),
                1,
                1,
            );
        }
    } else {
        kernel::gemv_rows(w, x, bias, y);
    }
}

/// CPU time of the calling thread.
fn thread_cpu() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// This thread's CPU time for `iters` calls of `f`.
fn cpu_time<T>(iters: u64, mut f: impl FnMut() -> T) -> Duration {
    let start = thread_cpu();
    for _ in 0..iters {
        black_box(f());
    }
    thread_cpu() - start
}

fn benches(c: &mut Criterion) {
    let state = BaseState::new_game(&Config::default()).expect("a valid opening");
    let mut obs = vec![0.0f32; BaseState::OBSERVATION_SIZE];
    state.observation(0, &mut obs);
    let mut group = c.benchmark_group("nn/base-2p");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(2));
    group.warm_up_time(Duration::from_millis(500));
    for width in [128usize, 256, 512] {
        let hidden = [width, width];
        let net = Network::from_bytes(&random_network_bytes::<BaseState>(2, &hidden, 1))
            .expect("a valid network");
        let mut scratch = net.scratch();
        let mut logits = vec![0.0; BaseState::NUM_ACTIONS];
        let mut value = vec![0.0; 2];
        group.bench_function(BenchmarkId::new("cols", format!("{width}x2")), |b| {
            b.iter_custom(|iters| {
                cpu_time(iters, || {
                    net.evaluate(black_box(&obs), &mut scratch, &mut logits, &mut value);
                    value[0]
                })
            })
        });
        let plain = Plain::new(obs.len(), &hidden, BaseState::NUM_ACTIONS, 2);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        for (name, sgemm) in [("rows", false), ("sgemm", true)] {
            group.bench_function(BenchmarkId::new(name, format!("{width}x2")), |b| {
                b.iter_custom(|iters| {
                    cpu_time(iters, || {
                        plain.forward(black_box(&obs), &mut x, &mut y, sgemm)
                    })
                })
            });
        }
    }
    group.finish();

    const ITERATIONS: u64 = 2000;
    let net = Network::from_bytes(&random_network_bytes::<BaseState>(2, &[256, 256], 1))
        .expect("a valid network");
    let mut group = c.benchmark_group("nn/search-256x2/base-2p");
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(4));
    for threads in [1usize, 2] {
        let cfg = SearchConfig {
            iterations: ITERATIONS,
            threads,
            network: Some(Arc::new(net.clone())),
            ..SearchConfig::default()
        };
        let run = |cfg: &SearchConfig| {
            let r = search(black_box(&state), cfg).expect("search from the opening");
            assert_eq!(r.iterations, ITERATIONS);
            r
        };
        group.bench_with_input(BenchmarkId::new("threads", threads), &cfg, |b, cfg| {
            if threads == 1 {
                b.iter_custom(|iters| cpu_time(iters, || run(cfg)))
            } else {
                b.iter(|| run(cfg))
            }
        });
    }
    group.finish();
}

/// Observations of `G` along seeded random games: 64, 8 per game.
fn observations<G: Game>(players: usize) -> Vec<Vec<f32>> {
    let mut out = Vec::new();
    let mut legal = ActionList::new();
    for seed in 0..8 {
        let mut s = G::new_game(&Config {
            seed,
            num_players: players as u8,
            ..Config::default()
        })
        .expect("a deal");
        let mut rng = SplitMix64::new(seed);
        for ply in 0..80 {
            if s.is_terminal() {
                break;
            }
            if ply % 10 == 0 {
                let mut obs = vec![0.0; G::OBSERVATION_SIZE];
                s.observation(s.current_player().expect("live"), &mut obs);
                out.push(obs);
            }
            s.legal_actions(&mut legal);
            let a = legal.as_slice()[rng.below(legal.len() as u64) as usize];
            s.apply(a).expect("legal");
        }
    }
    out
}

/// A 64x64 network of `G` with the `features` input set.
fn network_64<G: Game>(players: usize, features: &str) -> Network {
    let header = splendor::nn::Header {
        features: Some(features.into()),
        ..header_for::<G>(players, &[64, 64])
    };
    Network::from_bytes(&encode(&header, &random_tensors(&header, 1))).expect("a valid network")
}

/// `nn/needs/<variant>-<P>p`: `raw` and `needs` evaluations, and the extras.
fn needs_cost<G: Game>(c: &mut Criterion, players: usize) {
    let positions = observations::<G>(players);
    let mut group = c.benchmark_group(format!("nn/needs/{}-{players}p", G::VARIANT));
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(2));
    group.warm_up_time(Duration::from_millis(500));
    let mut logits = vec![0.0; G::NUM_ACTIONS];
    let mut value = vec![0.0; players];
    for features in ["raw", "needs"] {
        let net = network_64::<G>(players, features);
        let mut scratch = net.scratch();
        let mut i = 0;
        group.bench_function(BenchmarkId::new("evaluate-64x64", features), |b| {
            b.iter_custom(|iters| {
                cpu_time(iters, || {
                    i = (i + 1) % positions.len();
                    net.evaluate(
                        black_box(&positions[i]),
                        &mut scratch,
                        &mut logits,
                        &mut value,
                    );
                    value[0]
                })
            })
        });
    }
    let net = network_64::<G>(players, "needs");
    let mut input = vec![0.0; net.input_size()];
    let mut i = 0;
    group.bench_function("extras", |b| {
        b.iter_custom(|iters| {
            cpu_time(iters, || {
                i = (i + 1) % positions.len();
                net.input(black_box(&positions[i]), &mut input);
                input[input.len() - 1]
            })
        })
    });
    group.finish();
}

fn needs_benches(c: &mut Criterion) {
    needs_cost::<BaseState>(c, 2);
    needs_cost::<DuelState>(c, 2);
    for players in 2..=4 {
        needs_cost::<MarvelState>(c, players);
    }
}

criterion_group!(nn_benches, benches, needs_benches);
criterion_main!(nn_benches);
