//! The engine-floor benchmark: one pass over every workload of issue 41,
//! timed in per-thread CPU time, printed as `name<TAB>unit<TAB>nanoseconds
//! per unit` lines. `benches/floor.py` builds this binary against a past
//! commit and against the working tree and runs the two in interleaved rounds.
//!
//! `floor bench` runs the pass; `floor count VARIANT PLAYERS GAMES` plays that
//! many seeded random games with their setup and prints the number of
//! decisions (the workload `valgrind --tool=callgrind` counts instructions of);
//! `floor search ITERATIONS [VARIANT]` runs one rollout search from the
//! opening, `floor env STEPS` steps the `VectorEnv` of the pass, `floor
//! observation VARIANT` encodes the pass's observations and `floor
//! network-search ITERATIONS` runs the pass's network searches (each for a
//! profile).
//!
//! Only the public API that both builds share is used, and every workload
//! checks its result, so a broken engine cannot produce a fast-looking number.

use splendor::env::{mask_words, Buffers, EnvConfig, VectorEnv};
use splendor::game::{Action, ActionList, Config, Game};
use splendor::nn::{random_network_bytes, Network};
use splendor::playout::random_playout;
use splendor::rng::SplitMix64;
use splendor::search::{search, SearchConfig};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::variants::marvel::MarvelState;
use std::hint::black_box;
use std::sync::Arc;

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

/// Runs `work` (which returns how many units it did) and prints CPU ns per unit.
fn report(name: &str, unit: &str, work: impl FnOnce() -> u64) {
    let start = thread_cpu_ns();
    let units = work();
    let ns = thread_cpu_ns() - start;
    assert!(units > 0, "{name}: no work done");
    println!("{name}\t{unit}\t{:.3}", ns as f64 / units as f64);
}

fn game<G: Game>(players: u8, seed: u64) -> G {
    G::new_game(&Config {
        num_players: players,
        seed,
        turn_cap: 100,
    })
    .expect("a valid game")
}

/// Random games with their setup: ns per game (per turn with `per_turn`).
fn random_games<G: Game>(name: &str, players: u8, games: u64, per_turn: bool) {
    let unit = if per_turn { "turn" } else { "game" };
    report(name, unit, || {
        let mut turns = 0u64;
        for seed in 1..=games {
            let mut s: G = game(players, seed);
            let mut rng = SplitMix64::new(seed);
            let n = random_playout(&mut s, &mut rng);
            assert!(n > 0 && s.is_terminal());
            turns += u64::from(s.turns());
        }
        if per_turn {
            turns
        } else {
            games
        }
    });
}

/// `count` positions along seeded random games, each with one legal action.
fn positions<G: Game>(players: u8, count: usize) -> Vec<(G, Action)> {
    let mut out = Vec::with_capacity(count);
    let mut list = ActionList::new();
    let mut seed = 0;
    while out.len() < count {
        seed += 1;
        let mut s: G = game(players, seed);
        let mut rng = SplitMix64::new(seed);
        while !s.is_terminal() && out.len() < count {
            s.legal_actions(&mut list);
            let a = list.as_slice()[rng.below(list.len() as u64) as usize];
            out.push((s.clone(), a));
            s.apply_unchecked(a);
        }
    }
    out
}

/// Copy, copy + unchecked apply, copy + checked apply over the same positions.
fn applies<G: Game>(variant: &str, players: u8) {
    let sample = positions::<G>(players, 4096);
    // Tens of milliseconds per workload: a copy or an apply takes nanoseconds,
    // and a sample of a millisecond or two is too noisy to compare.
    let rounds = 600u64;
    let units = rounds * sample.len() as u64;
    report(&format!("{variant}: copy"), "position", || {
        for _ in 0..rounds {
            for (s, _) in &sample {
                black_box(black_box(s).clone());
            }
        }
        units
    });
    report(
        &format!("{variant}: copy + apply_unchecked"),
        "position",
        || {
            for _ in 0..rounds {
                for (s, a) in &sample {
                    let mut t = black_box(s).clone();
                    t.apply_unchecked(black_box(*a));
                    black_box(&t);
                }
            }
            units
        },
    );
    report(
        &format!("{variant}: copy + apply (checked)"),
        "position",
        || {
            for _ in 0..rounds {
                for (s, a) in &sample {
                    let mut t = black_box(s).clone();
                    t.apply(black_box(*a)).expect("a legal action");
                    black_box(&t);
                }
            }
            units
        },
    );
}

fn opening_list<G: Game>(variant: &str, players: u8) {
    let s: G = game(players, 1);
    let mut list = ActionList::new();
    s.legal_actions(&mut list);
    let n = list.len();
    report(
        &format!("{variant}: legal list at the opening"),
        "call",
        || {
            let calls = 2_000_000;
            for _ in 0..calls {
                black_box(&s).legal_actions(&mut list);
                assert_eq!(list.len(), n);
            }
            calls
        },
    );
}

fn legal_lists<G: Game>(variant: &str, players: u8) {
    let sample = positions::<G>(players, 4096);
    let mut list = ActionList::new();
    report(
        &format!("{variant}: legal list along random games"),
        "call",
        || {
            let rounds = 100u64;
            for _ in 0..rounds {
                for (s, _) in &sample {
                    black_box(s).legal_actions(&mut list);
                    black_box(list.len());
                }
            }
            rounds * sample.len() as u64
        },
    );
}

fn observations<G: Game>(variant: &str, players: u8) {
    let sample = positions::<G>(players, 1024);
    let mut out = vec![0.0f32; G::OBSERVATION_SIZE];
    report(&format!("{variant}: observation"), "call", || {
        // About 15-35 ms of work: long enough to time in CPU time without
        // the noise of a millisecond-long sample.
        let rounds = 400u64;
        for _ in 0..rounds {
            for (s, _) in &sample {
                let p = s.current_player().unwrap_or(0);
                black_box(s).observation(p, &mut out);
                black_box(&out);
            }
        }
        rounds * sample.len() as u64
    });
}

fn vector_env(n: usize, steps: usize) {
    let o = BaseState::OBSERVATION_SIZE;
    let m = BaseState::NUM_ACTIONS;
    let config = EnvConfig {
        num_envs: n,
        game: Config {
            num_players: 2,
            seed: 1,
            turn_cap: 100,
        },
        opponents: vec![None, None],
        threads: 1,
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
    let mut rng = SplitMix64::new(5);
    // The actions are drawn outside the timed part (as a learner would).
    let mut total = 0u64;
    for _ in 0..steps {
        for (a, row) in actions.iter_mut().zip(mask.chunks(m)) {
            let legal = row.iter().filter(|&&b| b).count() as u64;
            let k = rng.below(legal) as usize;
            *a = row
                .iter()
                .enumerate()
                .filter(|(_, &b)| b)
                .nth(k)
                .expect("legal")
                .0 as i64;
        }
        let start = thread_cpu_ns();
        env.step(&actions, buffers!()).expect("step");
        total += thread_cpu_ns() - start;
    }
    println!(
        "VectorEnv base 2p, n = {n}, 1 thread: step\tenv step\t{:.3}",
        total as f64 / (n * steps) as f64
    );
}

fn mcts<G: Game>(variant: &str, iterations: u64, network: Option<Arc<Network>>) {
    let s: G = game(2, 1);
    let kind = if network.is_some() {
        "network search (random 256x2)"
    } else {
        "MCTS rollout search"
    };
    let cfg = SearchConfig {
        iterations,
        threads: 1,
        network,
        ..SearchConfig::default()
    };
    report(&format!("{variant}: {kind}, opening"), "iteration", || {
        // Rollout searches: 12,000 iterations (tens of milliseconds); the
        // network search's 1,000 iterations nine times over, as long.
        let runs = if cfg.network.is_some() { 9 } else { 3 };
        for _ in 0..runs {
            let r = search(black_box(&s), &cfg).expect("search");
            assert_eq!(r.iterations, iterations);
        }
        runs * iterations
    });
}

/// Plays `games` seeded random games of `G` with their setup; prints the decisions.
fn count<G: Game>(players: u8, games: u64) {
    let mut decisions = 0u64;
    for seed in 1..=games {
        let mut s: G = game(players, seed);
        let mut rng = SplitMix64::new(seed);
        decisions += random_playout(&mut s, &mut rng) as u64;
        assert!(s.is_terminal());
    }
    println!("decisions\t{decisions}");
}

/// `calls` legal lists of `s` (the `opening` mode, for an instruction count).
fn opening_lists<G: Game>(s: &G, calls: u64) {
    let mut list = ActionList::new();
    for _ in 0..calls {
        black_box(s).legal_actions(&mut list);
        black_box(list.len());
    }
    println!("actions\t{}", list.len());
}

/// One rollout search of `iterations` from the opening (for a profile).
fn one_search<G: Game>(iterations: &str) {
    let s: G = game(2, 1);
    let iterations: u64 = iterations.parse().expect("a number of iterations");
    let cfg = SearchConfig {
        iterations,
        threads: 1,
        ..SearchConfig::default()
    };
    let r = search(&s, &cfg).expect("search");
    println!("iterations\t{}", r.iterations);
}

fn bench() {
    random_games::<BaseState>("base 2p: random game with setup", 2, 20_000, false);
    random_games::<BaseState>("base 4p: random game with setup", 4, 8_000, false);
    random_games::<MarvelState>("marvel 2p: random game with setup", 2, 20_000, false);
    random_games::<MarvelState>("marvel 4p: random game with setup", 4, 8_000, false);
    random_games::<DuelState>("duel: random game, per turn", 2, 10_000, true);
    applies::<BaseState>("base 2p", 2);
    applies::<DuelState>("duel", 2);
    applies::<MarvelState>("marvel 2p", 2);
    opening_list::<BaseState>("base 2p", 2);
    opening_list::<DuelState>("duel", 2);
    opening_list::<MarvelState>("marvel 2p", 2);
    legal_lists::<BaseState>("base 2p", 2);
    legal_lists::<DuelState>("duel", 2);
    legal_lists::<MarvelState>("marvel 2p", 2);
    observations::<BaseState>("base 2p", 2);
    observations::<DuelState>("duel", 2);
    observations::<MarvelState>("marvel 2p", 2);
    vector_env(256, 2000);
    mcts::<BaseState>("base 2p", 4000, None);
    mcts::<DuelState>("duel", 4000, None);
    mcts::<MarvelState>("marvel 2p", 4000, None);
    let net = Network::from_bytes(&random_network_bytes::<BaseState>(2, &[256, 256], 1))
        .expect("a valid network");
    mcts::<BaseState>("base 2p", 1000, Some(Arc::new(net)));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["bench"] => bench(),
        ["search", iterations] => one_search::<BaseState>(iterations),
        ["search", iterations, variant] => match *variant {
            "base" => one_search::<BaseState>(iterations),
            "duel" => one_search::<DuelState>(iterations),
            "marvel" => one_search::<MarvelState>(iterations),
            _ => panic!("unknown variant {variant}"),
        },
        ["observation", variant] => match *variant {
            // The observation workload of the pass alone (for a profile).
            "base" => observations::<BaseState>("base 2p", 2),
            "duel" => observations::<DuelState>("duel", 2),
            "marvel" => observations::<MarvelState>("marvel 2p", 2),
            _ => panic!("unknown variant {variant}"),
        },
        ["network-search", iterations] => {
            // The network search workload of the pass alone (for a profile).
            let net = Network::from_bytes(&random_network_bytes::<BaseState>(2, &[256, 256], 1))
                .expect("a valid network");
            let iterations = iterations.parse().expect("a number of iterations");
            mcts::<BaseState>("base 2p", iterations, Some(Arc::new(net)));
        }
        ["env", steps] => {
            // `VectorEnv` steps alone (for a profile).
            vector_env(256, steps.parse().expect("a number of steps"));
        }
        ["opening", variant, calls] => {
            // The opening's legal list, `calls` times (for an instruction count).
            let calls: u64 = calls.parse().expect("a number of calls");
            match *variant {
                "base" => opening_lists(&game::<BaseState>(2, 1), calls),
                "duel" => opening_lists(&game::<DuelState>(2, 1), calls),
                "marvel" => opening_lists(&game::<MarvelState>(2, 1), calls),
                _ => panic!("unknown variant {variant}"),
            }
        }
        ["count", variant, players, games] => {
            let players: u8 = players.parse().expect("a number of players");
            let games: u64 = games.parse().expect("a number of games");
            match *variant {
                "base" => count::<BaseState>(players, games),
                "duel" => count::<DuelState>(players, games),
                "marvel" => count::<MarvelState>(players, games),
                _ => panic!("unknown variant {variant}"),
            }
        }
        _ => {
            eprintln!("usage: floor bench | floor count base|duel|marvel PLAYERS GAMES | floor search ITERATIONS [VARIANT] | floor env STEPS | floor observation VARIANT | floor network-search ITERATIONS | floor opening VARIANT CALLS");
            std::process::exit(2);
        }
    }
}
