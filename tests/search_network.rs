//! The search with a network (docs/network.md): the prior steers the budget,
//! the value head is what is backed up (rotated to each seat), budgets and
//! reproducibility hold, a network for another game is refused, and root
//! noise is seeded.

use splendor::game::{Action, ActionList, Config, Game, GameError};
use splendor::nn::{encode, header_for, random_network_bytes, random_tensors, Network};
use splendor::search::{search, BotSpec, RootNoise, SearchConfig, Selection};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use std::sync::Arc;

fn opening(players: u8) -> BaseState {
    BaseState::new_game(&Config {
        num_players: players,
        seed: 4,
        ..Config::default()
    })
    .unwrap()
}

fn legal(s: &BaseState) -> Vec<Action> {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l.as_slice().to_vec()
}

/// A network whose outputs ignore the position: every weight zero, the
/// policy logits `policy_bias` and the value logits `value_bias`.
fn constant_network(players: usize, policy_bias: &[(Action, f32)], value_bias: &[f32]) -> Network {
    let header = header_for::<BaseState>(players, &[8]);
    let mut t = random_tensors(&header, 1);
    for (name, _, values) in &mut t {
        if name.ends_with("weight") || name.ends_with("bias") {
            values.iter_mut().for_each(|v| *v = 0.0);
        }
        if name == "policy.bias" {
            for &(a, b) in policy_bias {
                values[a.index()] = b;
            }
        }
        if name == "value.bias" {
            values.copy_from_slice(value_bias);
        }
    }
    Network::from_bytes(&encode(&header, &t)).unwrap()
}

fn with(net: Network, iterations: u64) -> SearchConfig {
    SearchConfig {
        iterations,
        seed: 1,
        network: Some(Arc::new(net)),
        ..SearchConfig::default()
    }
}

#[test]
fn the_prior_steers_the_visits() {
    let s = opening(2);
    let moves = legal(&s);
    // Two different favourites, so the result is the prior's doing and not
    // a property of the position.
    for favourite in [moves[0], moves[moves.len() - 1], moves[moves.len() / 2]] {
        let net = constant_network(2, &[(favourite, 12.0)], &[0.0, 0.0]);
        let r = search(&s, &with(net, 400)).unwrap();
        assert_eq!(r.action, favourite);
        let top = r.stats.iter().find(|x| x.action == favourite).unwrap();
        assert!(top.visits > 300, "{} of 400 visits", top.visits);
    }
}

#[test]
fn the_value_head_is_backed_up_rotated_to_each_seat() {
    // Three players: seat 0 searches; after its move seat 1 decides, so the
    // leaf's value column k belongs to seat (1 + k) mod 3 and seat 0 gets
    // column 2. Two iterations: the root, then one child.
    let s = opening(3);
    let logits = [0.3f32, -1.0, 1.7];
    let z: f32 = logits.iter().map(|x| x.exp()).sum();
    let want = f64::from(logits[2].exp() / z);
    let r = search(&s, &with(constant_network(3, &[], &logits), 2)).unwrap();
    let visited: Vec<_> = r.stats.iter().filter(|x| x.visits > 0).collect();
    assert_eq!(visited.len(), 1);
    assert!(
        (visited[0].value - want).abs() < 1e-6,
        "{} vs {want}",
        visited[0].value
    );

    // "The mover wins" and "the mover loses" give opposite root values.
    // With one iteration more than there are moves, PUCT (equal priors,
    // first-play urgency = the visited siblings' mean) visits every move
    // once, one ply deep, where seat 1 is to move.
    let s = opening(2);
    let budget = legal(&s).len() as u64 + 1;
    for (logits, lo, hi) in [([8.0, -8.0], 0.0, 1e-6), ([-8.0, 8.0], 1.0 - 1e-6, 1.0)] {
        let r = search(&s, &with(constant_network(2, &[], &logits), budget)).unwrap();
        for x in &r.stats {
            assert_eq!(x.visits, 1, "{logits:?}");
            assert!((lo..=hi).contains(&x.value), "{logits:?}: {}", x.value);
        }
    }
}

#[test]
fn budgets_reproducibility_and_legality() {
    let s = opening(2);
    let net = Network::from_bytes(&random_network_bytes::<BaseState>(2, &[32, 32], 9)).unwrap();
    let net = Arc::new(net);
    for threads in [1, 2] {
        let c = SearchConfig {
            iterations: 500,
            threads,
            seed: 3,
            network: Some(net.clone()),
            ..SearchConfig::default()
        };
        let a = search(&s, &c).unwrap();
        assert_eq!(a.iterations, 500);
        assert_eq!(
            a.stats.iter().map(|x| x.visits).sum::<u64>(),
            500 - threads as u64
        );
        assert!(legal(&s).contains(&a.action));
        assert_eq!(a, search(&s, &c).unwrap());
        let other = search(
            &s,
            &SearchConfig {
                seed: 4,
                ..c.clone()
            },
        )
        .unwrap();
        assert_ne!(a.stats, other.stats, "the seed matters");
        // The node cap holds and the search goes on.
        let capped = search(
            &s,
            &SearchConfig {
                max_nodes: 64,
                ..c.clone()
            },
        )
        .unwrap();
        assert_eq!(capped.iterations, 500);
        assert!(capped.nodes <= 64 * threads as u64);
    }
    let timed = search(
        &s,
        &SearchConfig {
            iterations: 0,
            time_limit: Some(0.05),
            network: Some(net),
            ..SearchConfig::default()
        },
    )
    .unwrap();
    assert!(timed.iterations > 0);
}

#[test]
fn a_network_for_another_game_is_refused() {
    let duel = Network::from_bytes(&random_network_bytes::<DuelState>(2, &[8], 1)).unwrap();
    let base3 = Network::from_bytes(&random_network_bytes::<BaseState>(3, &[8], 1)).unwrap();
    for net in [duel, base3] {
        match search(&opening(2), &with(net, 10)) {
            Err(GameError::Network(m)) => assert!(m.contains("not base with 2"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn root_noise_is_seeded_and_changes_the_search() {
    let s = opening(2);
    let net = Network::from_bytes(&random_network_bytes::<BaseState>(2, &[16], 2)).unwrap();
    let plain = with(net, 300);
    let noisy = SearchConfig {
        root_noise: Some(RootNoise {
            alpha: 0.3,
            epsilon: 0.25,
        }),
        ..plain.clone()
    };
    // Without a network it mixes into the heuristic prior.
    let heuristic = SearchConfig {
        network: None,
        ..noisy.clone()
    };
    for (quiet, loud) in [
        (&plain, &noisy),
        (
            &SearchConfig {
                network: None,
                ..plain.clone()
            },
            &heuristic,
        ),
    ] {
        let a = search(&s, loud).unwrap();
        assert_eq!(a, search(&s, loud).unwrap(), "reproducible");
        assert_ne!(
            a.stats,
            search(&s, quiet).unwrap().stats,
            "the noise is used"
        );
    }
    let bad = |noise: RootNoise, selection: Selection| SearchConfig {
        root_noise: Some(noise),
        network: None,
        selection,
        ..SearchConfig::default()
    };
    let puct = Selection::Puct { temperature: 0.02 };
    for (cfg, needle) in [
        (
            bad(
                RootNoise {
                    alpha: 0.0,
                    epsilon: 0.25,
                },
                puct,
            ),
            "alpha",
        ),
        (
            bad(
                RootNoise {
                    alpha: f64::NAN,
                    epsilon: 0.25,
                },
                puct,
            ),
            "alpha",
        ),
        (
            bad(
                RootNoise {
                    alpha: 0.3,
                    epsilon: 1.5,
                },
                puct,
            ),
            "epsilon",
        ),
        (
            bad(
                RootNoise {
                    alpha: 0.3,
                    epsilon: 0.25,
                },
                Selection::Uct,
            ),
            "PUCT",
        ),
    ] {
        match search(&s, &cfg) {
            Err(GameError::Config(m)) => assert!(m.contains(needle), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn net_bot_specs_read_the_file() {
    let dir = std::env::temp_dir().join(format!("splendor-net-spec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny.safetensors");
    std::fs::write(&path, random_network_bytes::<BaseState>(2, &[8], 5)).unwrap();
    let spec = BotSpec::parse(&format!("net:50@{}", path.display())).unwrap();
    let BotSpec::Mcts(cfg) = &spec else {
        panic!("{spec:?}")
    };
    assert_eq!(cfg.iterations, 50);
    assert!(cfg.network.is_some());
    assert!(spec.to_string().starts_with("net:50@"), "{spec}");
    let timed = BotSpec::parse(&format!("NET:0.5s@{}", path.display())).unwrap();
    assert!(timed.to_string().starts_with("net:0.5s@"), "{timed}");
    let mut bot = spec.build::<BaseState>(1).unwrap();
    let s = opening(2);
    assert!(legal(&s).contains(&bot.act(&s).unwrap()));
    for (text, err) in [
        ("net:50".to_string(), "needs the network file"),
        (format!("net:x@{}", path.display()), "unknown bot"),
        (
            "net:50@/no/such/file.safetensors".to_string(),
            "cannot read",
        ),
    ] {
        match BotSpec::parse(&text) {
            Err(GameError::Config(m) | GameError::Network(m)) => {
                assert!(m.contains(err), "{text}: {m}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_first_play_urgency_reduction_keeps_a_small_budget_on_the_tried_moves() {
    // Every move has the same prior and every position the value 0.5, so
    // only the first-play urgency decides whether an untried move is tried:
    // at the siblings' mean (no reduction) each move is tried before any is
    // tried twice; below it (less 0.5 * sqrt(mass tried)) the budget stays
    // on the few moves tried first.
    let s = opening(2);
    let moves = legal(&s).len();
    let iterations = moves as u64 + 10;
    let tried = |fpu_reduction: f64| {
        let cfg = SearchConfig {
            fpu_reduction,
            ..with(constant_network(2, &[], &[0.0, 0.0]), iterations)
        };
        let r = search(&s, &cfg).unwrap();
        r.stats.iter().filter(|x| x.visits > 0).count()
    };
    assert_eq!(tried(0.0), moves);
    let narrow = tried(0.5);
    assert!(narrow * 2 < moves, "{narrow} of {moves} moves tried");
    // A bad value is refused by name.
    let bad = SearchConfig {
        fpu_reduction: -0.1,
        ..with(constant_network(2, &[], &[0.0, 0.0]), 10)
    };
    match search(&s, &bad) {
        Err(GameError::Config(m)) => assert!(m.contains("fpu_reduction"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_policy_temperature_divides_the_logits_of_the_prior() {
    // Temperature 2 on logits (4, 0, ...) is the prior of logits (2, 0, ...):
    // the same search, visit for visit, and not the search at temperature 1.
    let s = opening(2);
    let favourite = legal(&s)[3];
    let net = || constant_network(2, &[(favourite, 4.0)], &[0.0, 0.0]);
    let hot = SearchConfig {
        policy_temperature: 2.0,
        ..with(net(), 300)
    };
    let halved = with(constant_network(2, &[(favourite, 2.0)], &[0.0, 0.0]), 300);
    let a = search(&s, &hot).unwrap();
    assert_eq!(a.stats, search(&s, &halved).unwrap().stats);
    assert_ne!(a.stats, search(&s, &with(net(), 300)).unwrap().stats);
    // A flatter prior moves visits off the favourite; 1 is the plain prior.
    let visits = |policy_temperature: f64| {
        // Every position worth 0.5: only the prior shares the visits.
        let cfg = SearchConfig {
            policy_temperature,
            ..with(constant_network(2, &[(favourite, 12.0)], &[0.0, 0.0]), 300)
        };
        let r = search(&s, &cfg).unwrap();
        r.stats
            .iter()
            .find(|x| x.action == favourite)
            .unwrap()
            .visits
    };
    let (plain, flat) = (visits(1.0), visits(6.0));
    assert!(flat * 2 < plain, "{flat} visits at 6, {plain} at 1");
    for bad in [0.0, -1.0, f64::INFINITY, f64::NAN, 1e-300] {
        let cfg = SearchConfig {
            policy_temperature: bad,
            ..with(constant_network(2, &[], &[0.0, 0.0]), 10)
        };
        match search(&s, &cfg) {
            Err(GameError::Config(m)) => assert!(m.contains("policy_temperature"), "{m}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
}

#[test]
fn an_early_stop_keeps_the_full_budgets_move_in_fewer_iterations() {
    // A prior that favours one move makes its lead decisive long before the
    // budget is spent: with early_stop 1 the search stops once the runner-up
    // could not catch up with every iteration left, so the move is the full
    // search's; 0 (the default) spends the whole budget.
    let s = opening(3);
    let favourite = legal(&s)[5];
    let budget = 2000;
    let full = with(
        constant_network(3, &[(favourite, 12.0)], &[0.0, 0.0, 0.0]),
        budget,
    );
    let early = SearchConfig {
        early_stop: 1.0,
        ..full.clone()
    };
    let (a, b) = (search(&s, &full).unwrap(), search(&s, &early).unwrap());
    assert_eq!(a.iterations, budget);
    // Nearly every visit goes to the favourite, so its lead is about the
    // iterations run: it passes the iterations left just after half the
    // budget (with early_stop 0.5, half the iterations left: after a third).
    assert!(
        (budget / 2..=budget / 2 + 16).contains(&b.iterations),
        "{} iterations",
        b.iterations
    );
    let sooner = SearchConfig {
        early_stop: 0.5,
        ..full.clone()
    };
    let c = search(&s, &sooner).unwrap();
    assert!(
        (budget / 3..=budget / 3 + 16).contains(&c.iterations),
        "{} iterations",
        c.iterations
    );
    assert_eq!((a.action, b.action), (favourite, favourite));
    // It stopped at the first check (every 8 iterations) where the lead
    // passed the iterations left.
    let lead = |r: &splendor::search::SearchResult| {
        let mut v: Vec<u64> = r.stats.iter().map(|x| x.visits).collect();
        v.sort_unstable_by(|x, y| y.cmp(x));
        v[0] - v[1]
    };
    assert!(lead(&b) > budget - b.iterations);
    assert_eq!(b.iterations % 8, 0);
    // Random networks, many positions: never another move than the full
    // search's (one thread, the most visited move), never more iterations.
    let net =
        Arc::new(Network::from_bytes(&random_network_bytes::<BaseState>(2, &[16], 5)).unwrap());
    let mut state = opening(2);
    let (mut saved, mut positions) = (0, 0);
    for step in 0..30u64 {
        if state.current_player().is_none() {
            break;
        }
        let full = SearchConfig {
            iterations: 600,
            seed: step,
            network: Some(net.clone()),
            leaf_batch: 4,
            ..SearchConfig::default()
        };
        for stop in [1.0, 0.5] {
            let cut = SearchConfig {
                early_stop: stop,
                ..full.clone()
            };
            let (a, b) = (
                search(&state, &full).unwrap(),
                search(&state, &cut).unwrap(),
            );
            assert!(b.iterations <= a.iterations);
            if stop == 1.0 {
                assert_eq!(a.action, b.action, "step {step}");
                saved += a.iterations - b.iterations;
                positions += 1;
            }
        }
        state.apply(search(&state, &full).unwrap().action).unwrap();
    }
    assert!(saved > 0, "no search of {positions} stopped early");
    // A search of one root action spends its whole budget: its point is the
    // move's value, and its lead is all its visits from the start.
    let one = SearchConfig {
        root_action: Some(favourite),
        ..early.clone()
    };
    assert_eq!(search(&s, &one).unwrap().iterations, budget);
    // Bad values are refused by name.
    for bad in [-0.5, f64::NAN, f64::INFINITY] {
        let cfg = SearchConfig {
            early_stop: bad,
            ..early.clone()
        };
        match search(&s, &cfg) {
            Err(GameError::Config(m)) => assert!(m.contains("early_stop"), "{m}"),
            other => panic!("{bad}: {other:?}"),
        }
    }
}
