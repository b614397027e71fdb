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
//! games. Then batched evaluation (`nn/batch`, docs/network.md "Batched leaf
//! evaluation"): `Network::evaluate_legal` against `evaluate_legal_batch` at
//! 1, 4, 8 and 16 base 2-player positions (`needs` inputs, hidden 64x2,
//! 128x2 and 256x2), the batched trunk kernel `gemm_cols` against
//! `matrixmultiply::sgemm` on the same trunk, and search iterations per
//! second from the opening with the shipped base 2-player network (64x2) and
//! a random 256x2 one, at `leaf_batch` 1 and 8.
//! Run: `cargo bench --bench nn` (or `-- needs`, `-- batch`).
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

/// Base 2-player positions along seeded random games: each observation
/// followed by its legal actions.
fn positions_with_legal() -> Vec<(Vec<f32>, Vec<splendor::game::Action>)> {
    let mut out = Vec::new();
    let mut legal = ActionList::new();
    for seed in 0..8 {
        let mut s = BaseState::new_game(&Config {
            seed,
            ..Config::default()
        })
        .expect("a deal");
        let mut rng = SplitMix64::new(seed);
        for ply in 0..80 {
            let Some(mover) = s.current_player() else {
                break;
            };
            s.legal_actions(&mut legal);
            if ply % 10 == 0 {
                let mut obs = vec![0.0; BaseState::OBSERVATION_SIZE];
                s.observation(mover, &mut obs);
                out.push((obs, legal.as_slice().to_vec()));
            }
            let a = legal.as_slice()[rng.below(legal.len() as u64) as usize];
            s.apply(a).expect("legal");
        }
    }
    out
}

/// One batch of `size` positions starting at `first` (cycling): the
/// observations one after the other, the legal lists, their ends.
struct Batch {
    obs: Vec<f32>,
    legal: Vec<splendor::game::Action>,
    ends: Vec<usize>,
}

fn make_batches(positions: &[(Vec<f32>, Vec<splendor::game::Action>)], size: usize) -> Vec<Batch> {
    (0..positions.len() / size.min(positions.len()))
        .map(|b| {
            let mut batch = Batch {
                obs: Vec::new(),
                legal: Vec::new(),
                ends: Vec::new(),
            };
            for k in 0..size {
                let (obs, legal) = &positions[(b * size + k) % positions.len()];
                batch.obs.extend_from_slice(obs);
                batch.legal.extend_from_slice(legal);
                batch.ends.push(batch.legal.len());
            }
            batch
        })
        .collect()
}

/// The trunk of `hidden` widths on `inputs` rows (`[batch, first width]`)
/// with `gemm_cols` or with `sgemm` (weights `[in, out]` both), ReLU after
/// each layer; returns one output so the work is not optimised away.
struct Trunk {
    layers: Vec<(usize, usize, Vec<f32>, Vec<f32>)>,
}

impl Trunk {
    fn new(input: usize, hidden: &[usize]) -> Trunk {
        let mut rng = SplitMix64::new(5);
        let mut prev = input;
        let mut layers = Vec::new();
        for &h in hidden {
            let r = 1.0 / (prev as f64).sqrt();
            let mut rand = |n: usize| -> Vec<f32> {
                (0..n)
                    .map(|_| ((rng.next_f64() * 2.0 - 1.0) * r) as f32)
                    .collect()
            };
            layers.push((prev, h, rand(prev * h), rand(h)));
            prev = h;
        }
        Trunk { layers }
    }

    #[allow(clippy::too_many_arguments)]
    fn run(
        &self,
        x: &[f32],
        batch: usize,
        a: &mut Vec<f32>,
        b: &mut Vec<f32>,
        active: &mut Vec<u32>,
        packed: &mut Vec<f32>,
        sgemm: bool,
    ) -> f32 {
        a.clear();
        a.extend_from_slice(x);
        for (inp, out, w, bias) in &self.layers {
            b.clear();
            b.resize(batch * out, 0.0);
            if sgemm {
                for row in b.chunks_exact_mut(*out) {
                    row.copy_from_slice(bias);
                }
                // SAFETY: `a` is batch x inp, `w` is inp x out and `b` is
                // batch x out, all row-major with the strides given and the
                // slices of those lengths.
                unsafe {
                    matrixmultiply::sgemm(
                        batch,
                        *inp,
                        *out,
                        1.0,
                        a.as_ptr(),
                        *inp as isize,
                        1,
                        w.as_ptr(),
                        *out as isize,
                        1,
                        1.0,
                        b.as_mut_ptr(),
                        *out as isize,
                        1,
                    );
                }
            } else {
                kernel::gemm_cols(w, &a[..batch * inp], bias, b, active, packed);
            }
            for v in b.iter_mut() {
                *v = v.max(0.0);
            }
            std::mem::swap(a, b);
        }
        a[0]
    }
}

/// `nn/batch`: evaluations per second per thread, one at a time and in
/// batches; the batched trunk kernel against `sgemm`; search iterations per
/// second with leaf batches.
fn batch_benches(c: &mut Criterion) {
    const SIZES: [usize; 4] = [1, 4, 8, 16];
    let positions = positions_with_legal();
    let mut group = c.benchmark_group("nn/batch");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(3));
    group.warm_up_time(Duration::from_millis(300));
    for width in [64usize, 128, 256] {
        let header = splendor::nn::Header {
            features: Some("needs".into()),
            ..header_for::<BaseState>(2, &[width, width])
        };
        let net = Network::from_bytes(&encode(&header, &random_tensors(&header, 1)))
            .expect("a valid network");
        let mut scratch = net.scratch();
        let mut prior = vec![0.0; splendor::game::MAX_LEGAL_ACTIONS];
        let mut value = vec![0.0; 2];
        let mut i = 0;
        group.throughput(Throughput::Elements(1));
        group.bench_function(
            BenchmarkId::new(format!("evaluate/{width}x2"), "single"),
            |b| {
                b.iter_custom(|iters| {
                    cpu_time(iters, || {
                        i = (i + 1) % positions.len();
                        let (obs, legal) = &positions[i];
                        net.evaluate_legal(
                            black_box(obs),
                            &mut scratch,
                            legal,
                            &mut prior[..legal.len()],
                            &mut value,
                        );
                        value[0]
                    })
                })
            },
        );
        for size in SIZES {
            let batches = make_batches(&positions, size);
            let mut bs = net.batch_scratch(size);
            let mut priors = vec![0.0; size * splendor::game::MAX_LEGAL_ACTIONS];
            let mut values = vec![0.0; size * 2];
            let mut i = 0;
            group.throughput(Throughput::Elements(size as u64));
            group.bench_function(BenchmarkId::new(format!("evaluate/{width}x2"), size), |b| {
                b.iter_custom(|iters| {
                    cpu_time(iters, || {
                        i = (i + 1) % batches.len();
                        let bt = &batches[i];
                        net.evaluate_legal_batch(
                            black_box(&bt.obs),
                            &bt.legal,
                            &bt.ends,
                            &mut bs,
                            &mut priors[..bt.legal.len()],
                            &mut values,
                        );
                        values[0]
                    })
                })
            });
        }
        // The kernels on the trunk alone, from the same inputs (observation
        // and `needs` extras, so as sparse as the search's).
        let trunk = Trunk::new(net.input_size(), &[width, width]);
        let mut row = vec![0.0; net.input_size()];
        for size in SIZES {
            let inputs: Vec<Vec<f32>> = make_batches(&positions, size)
                .iter()
                .map(|bt| {
                    bt.obs
                        .chunks_exact(BaseState::OBSERVATION_SIZE)
                        .flat_map(|o| {
                            net.input(o, &mut row);
                            row.clone()
                        })
                        .collect()
                })
                .collect();
            group.throughput(Throughput::Elements(size as u64));
            for (name, sgemm) in [("gemm_cols", false), ("sgemm", true)] {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let (mut active, mut packed) = (Vec::new(), Vec::new());
                let mut i = 0;
                group.bench_function(
                    BenchmarkId::new(format!("trunk-{name}/{width}x2"), size),
                    |bn| {
                        bn.iter_custom(|iters| {
                            cpu_time(iters, || {
                                i = (i + 1) % inputs.len();
                                trunk.run(
                                    black_box(&inputs[i]),
                                    size,
                                    &mut a,
                                    &mut b,
                                    &mut active,
                                    &mut packed,
                                    sgemm,
                                )
                            })
                        })
                    },
                );
            }
        }
    }
    // The shipped base 2-player network (64x2, `needs`).
    let shipped = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/python/splendor/data/nets/base-2p.safetensors"
    );
    let shipped = Arc::new(Network::load(shipped).expect("the shipped base 2-player network"));
    // And a random 256x2 `needs` network of the same game, for a bigger size.
    let header = splendor::nn::Header {
        features: Some("needs".into()),
        ..header_for::<BaseState>(2, &[256, 256])
    };
    let wide = Arc::new(
        Network::from_bytes(&encode(&header, &random_tensors(&header, 1)))
            .expect("a valid network"),
    );
    let state = BaseState::new_game(&Config::default()).expect("a valid opening");
    const ITERATIONS: u64 = 1000;
    group.throughput(Throughput::Elements(ITERATIONS));
    for ((name, net), leaf_batch) in [("base-2p", &shipped), ("256x2", &wide)]
        .into_iter()
        .flat_map(|n| [(n, 1usize), (n, 8)])
    {
        let cfg = SearchConfig {
            iterations: ITERATIONS,
            network: Some(net.clone()),
            leaf_batch,
            ..SearchConfig::default()
        };
        group.bench_with_input(
            BenchmarkId::new(format!("search/{name}/leaf_batch"), leaf_batch),
            &cfg,
            |b, cfg| {
                b.iter_custom(|iters| {
                    cpu_time(iters, || {
                        let r = search(black_box(&state), cfg).expect("search from the opening");
                        assert_eq!(r.iterations, ITERATIONS);
                        r
                    })
                })
            },
        );
    }
    group.finish();
}

criterion_group!(nn_benches, benches, needs_benches, batch_benches);
criterion_main!(nn_benches);
