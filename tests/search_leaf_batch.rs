//! The network search with `leaf_batch` above 1 (docs/network.md, "Batched
//! leaf evaluation"): legal moves, exact budgets, the node cap, time limits,
//! reproducibility, no leak of hidden cards, the prior still steering the
//! visits, whole games to the end (terminal leaves), and the range check.

use splendor::game::{Action, ActionList, Config, Game, GameError};
use splendor::nn::{encode, header_for, random_network_bytes, random_tensors, Network};
use splendor::rng::SplitMix64;
use splendor::search::{search, Bot, MctsBot, RandomBot, RootNoise, SearchConfig};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use std::sync::Arc;

fn opening<G: Game>(seed: u64) -> G {
    G::new_game(&Config {
        seed,
        ..Config::default()
    })
    .unwrap()
}

fn legal<G: Game>(s: &G) -> Vec<Action> {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l.as_slice().to_vec()
}

fn net<G: Game>(seed: u64) -> Arc<Network> {
    Arc::new(Network::from_bytes(&random_network_bytes::<G>(2, &[32, 32], seed)).unwrap())
}

fn batched(net: Arc<Network>, iterations: u64, leaf_batch: usize) -> SearchConfig {
    SearchConfig {
        iterations,
        seed: 3,
        network: Some(net),
        leaf_batch,
        ..SearchConfig::default()
    }
}

#[test]
fn budgets_node_cap_time_limit_and_reproducibility() {
    let s: BaseState = opening(4);
    let net = net::<BaseState>(9);
    for leaf_batch in [2, 8, 256] {
        for threads in [1, 2] {
            let c = SearchConfig {
                threads,
                ..batched(net.clone(), 500, leaf_batch)
            };
            let a = search(&s, &c).unwrap();
            assert_eq!(a.iterations, 500, "batch {leaf_batch}");
            // Every iteration but the ones that evaluated the root (its
            // first, and one repeat of it in the first batch) visits a move.
            let visits = a.stats.iter().map(|x| x.visits).sum::<u64>();
            let t = threads as u64;
            assert!(
                (500 - 2 * t..=500 - t).contains(&visits),
                "batch {leaf_batch}: {visits}"
            );
            assert!(legal(&s).contains(&a.action));
            assert_eq!(a, search(&s, &c).unwrap(), "reproducible");
            let other = search(
                &s,
                &SearchConfig {
                    seed: 4,
                    ..c.clone()
                },
            )
            .unwrap();
            assert_ne!(a.stats, other.stats, "the seed matters");
            let capped = search(
                &s,
                &SearchConfig {
                    max_nodes: 64,
                    ..c.clone()
                },
            )
            .unwrap();
            assert_eq!(capped.iterations, 500);
            assert!(capped.nodes <= 64 * t, "{} nodes", capped.nodes);
            // Budgets that are not a multiple of the batch.
            for budget in [1, 7, 33] {
                let r = search(
                    &s,
                    &SearchConfig {
                        iterations: budget,
                        ..c.clone()
                    },
                )
                .unwrap();
                assert_eq!(r.iterations, budget);
            }
        }
        let timed = search(
            &s,
            &SearchConfig {
                iterations: 0,
                time_limit: Some(0.05),
                ..batched(net.clone(), 0, leaf_batch)
            },
        )
        .unwrap();
        assert!(timed.iterations > 0);
    }
}

#[test]
fn one_leaf_per_batch_is_the_plain_search() {
    let s: BaseState = opening(4);
    let net = net::<BaseState>(9);
    let plain = SearchConfig {
        iterations: 300,
        seed: 3,
        network: Some(net),
        ..SearchConfig::default()
    };
    assert_eq!(plain.leaf_batch, 1, "the default");
    // Without a network the field is unused.
    let rollouts = SearchConfig {
        iterations: 200,
        ..SearchConfig::default()
    };
    assert_eq!(
        search(&s, &rollouts).unwrap(),
        search(
            &s,
            &SearchConfig {
                leaf_batch: 8,
                ..rollouts.clone()
            }
        )
        .unwrap()
    );
    assert_ne!(
        search(&s, &plain).unwrap().stats,
        search(
            &s,
            &SearchConfig {
                leaf_batch: 8,
                ..plain.clone()
            }
        )
        .unwrap()
        .stats,
        "a batch changes which leaves are visited"
    );
}

#[test]
fn leaf_batch_out_of_range_is_refused() {
    let s: BaseState = opening(4);
    for bad in [0, 257] {
        match search(&s, &batched(net::<BaseState>(9), 10, bad)) {
            Err(GameError::Config(m)) => assert!(m.contains("leaf_batch"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}

/// Every weight zero, the policy logits `policy_bias`: the prior alone
/// decides.
fn favouring(favourite: Action) -> Network {
    let header = header_for::<BaseState>(2, &[8]);
    let mut t = random_tensors(&header, 1);
    for (name, _, values) in &mut t {
        values.iter_mut().for_each(|v| *v = 0.0);
        if name == "policy.bias" {
            values[favourite.index()] = 12.0;
        }
        if name == "input.scale" {
            values.iter_mut().for_each(|v| *v = 1.0);
        }
    }
    Network::from_bytes(&encode(&header, &t)).unwrap()
}

#[test]
fn the_prior_steers_the_visits_as_without_batches() {
    let s: BaseState = opening(4);
    let moves = legal(&s);
    for favourite in [moves[0], moves[moves.len() - 1], moves[moves.len() / 2]] {
        let net = Arc::new(favouring(favourite));
        for leaf_batch in [1, 8] {
            let r = search(&s, &batched(net.clone(), 400, leaf_batch)).unwrap();
            assert_eq!(r.action, favourite, "batch {leaf_batch}");
            let top = r.stats.iter().find(|x| x.action == favourite).unwrap();
            assert!(
                top.visits > 250,
                "batch {leaf_batch}: {} of 400 visits",
                top.visits
            );
        }
    }
}

#[test]
fn root_noise_is_applied_and_seeded() {
    let s: BaseState = opening(4);
    let c = SearchConfig {
        root_noise: Some(RootNoise {
            alpha: 0.3,
            epsilon: 0.25,
        }),
        ..batched(net::<BaseState>(9), 300, 8)
    };
    let a = search(&s, &c).unwrap();
    assert_eq!(a, search(&s, &c).unwrap());
    let quiet = search(
        &s,
        &SearchConfig {
            root_noise: None,
            ..c.clone()
        },
    )
    .unwrap();
    assert_ne!(a.stats, quiet.stats, "the noise changes the search");
}

/// Two states the player to move cannot tell apart give the same search:
/// the batched leaves read the determinization's observation only.
#[test]
fn batched_search_reads_nothing_hidden() {
    for seed in [3, 4] {
        let mut s: DuelState = opening(seed);
        let mut bot = RandomBot::new(seed);
        for _ in 0..12 {
            let a = bot.act(&s).unwrap();
            s.apply(a).unwrap();
        }
        let p = s.current_player().unwrap();
        let a = s.determinize(p, &mut SplitMix64::new(1));
        let b = s.determinize(p, &mut SplitMix64::new(2));
        assert_ne!(a.to_json(None), b.to_json(None));
        for threads in [1, 2] {
            let c = SearchConfig {
                threads,
                ..batched(net::<DuelState>(7), 400, 8)
            };
            assert_eq!(search(&a, &c).unwrap(), search(&b, &c).unwrap());
        }
    }
}

/// Whole games, so late searches meet terminal leaves (backed up at once).
#[test]
fn whole_games_with_batched_leaves() {
    let mut s: BaseState = opening(5);
    let net = net::<BaseState>(7);
    let mut bots = [
        MctsBot::new(batched(net.clone(), 60, 8)).unwrap(),
        MctsBot::new(SearchConfig {
            seed: 2,
            ..batched(net, 60, 16)
        })
        .unwrap(),
    ];
    while let Some(p) = s.current_player() {
        let a = bots[p as usize % 2].act(&s).unwrap();
        assert!(legal(&s).contains(&a));
        s.apply(a).unwrap();
    }
    assert!(s.outcome().is_some());
}
