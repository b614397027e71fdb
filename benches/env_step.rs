//! Time of one `VectorEnv::step` (base, 2 players, first legal action, no
//! NumPy): `cargo bench --bench env_step [-- n [steps [gap_us]]]`. Prints the
//! median and mean step time for 1 and 2 threads, so the two-thread path's
//! fixed cost per step (hand-off and wait) can be read off directly.
//! `gap_us` busy-waits that long between steps, standing in for the caller's
//! action choice (the worker then waits for the next step as in training).

use splendor::env::{mask_words, Buffers, EnvConfig, VectorEnv};
use splendor::variants::base::BaseState;
use splendor::{Config, Game};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let n = args.first().copied().unwrap_or(1024);
    let steps = args.get(1).copied().unwrap_or(2000);
    let gap = Duration::from_micros(args.get(2).copied().unwrap_or(0) as u64);
    let o = BaseState::OBSERVATION_SIZE;
    let m = BaseState::NUM_ACTIONS;
    for threads in [1, 2, 1, 2] {
        let config = EnvConfig {
            num_envs: n,
            game: Config {
                num_players: 2,
                seed: 1,
                turn_cap: 100,
            },
            opponents: vec![None, None],
            threads,
            normalize: false,
        };
        let mut env = VectorEnv::<BaseState>::new(config).expect("env");
        let mut obs = vec![0.0f32; n * o];
        let mut mask = vec![false; n * m];
        let mut packed_mask = vec![0u64; n * mask_words::<BaseState>()];
        let mut player = vec![0i32; n];
        let mut rewards = vec![0.0f32; n * 2];
        let mut terminated = vec![false; n];
        let mut truncated = vec![false; n];
        let mut final_obs = vec![0.0f32; n * o];
        let mut episode_length = vec![0i64; n];
        macro_rules! buffers {
            () => {
                Buffers {
                    obs: &mut obs,
                    mask: &mut mask,
                    packed_mask: &mut packed_mask,
                    player: &mut player,
                    rewards: &mut rewards,
                    terminated: &mut terminated,
                    truncated: &mut truncated,
                    final_obs: &mut final_obs,
                    episode_length: &mut episode_length,
                }
            };
        }
        env.reset(None, buffers!()).expect("reset");
        let mut actions = vec![0i64; n];
        let mut times = Vec::with_capacity(steps);
        let mut reading = Duration::ZERO;
        for _ in 0..steps {
            let read = Instant::now();
            for (a, row) in actions.iter_mut().zip(mask.chunks(m)) {
                *a = row.iter().position(|&b| b).unwrap_or(0) as i64;
            }
            reading += read.elapsed();
            let start = Instant::now();
            env.step(&actions, buffers!()).expect("step");
            times.push(start.elapsed());
            let idle = Instant::now();
            while idle.elapsed() < gap {
                std::hint::spin_loop();
            }
        }
        times.sort();
        let total: Duration = times.iter().sum();
        println!(
            "n={n} threads={threads} gap={gap:?}: step median {:.1} us, mean {:.1} us, p10 {:.1} us, p90 {:.1} us; reading the mask (first legal) {:.1} us",
            times[steps / 2].as_secs_f64() * 1e6,
            total.as_secs_f64() * 1e6 / steps as f64,
            times[steps / 10].as_secs_f64() * 1e6,
            times[steps * 9 / 10].as_secs_f64() * 1e6,
            reading.as_secs_f64() * 1e6 / steps as f64,
        );
    }
}
