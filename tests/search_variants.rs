//! The search on every real variant, written once over `G: Game`: no leak of
//! hidden information, reproducibility, legal moves through whole games,
//! with rollouts and with a (random-weight) network.

use splendor::game::{ActionList, Config, Game};
use splendor::nn::{random_network_bytes, Network};
use splendor::rng::SplitMix64;
use splendor::search::{search, Bot, MctsBot, RandomBot, SearchConfig};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::variants::marvel::MarvelState;
use std::sync::Arc;

fn cfg(iterations: u64, seed: u64) -> SearchConfig {
    SearchConfig {
        iterations,
        seed,
        ..SearchConfig::default()
    }
}

/// The rollout search, and the search with a small random network for `G`.
fn configs<G: Game>(iterations: u64, seed: u64) -> [SearchConfig; 2] {
    let net = Network::from_bytes(&random_network_bytes::<G>(2, &[32, 32], 7)).unwrap();
    [
        cfg(iterations, seed),
        SearchConfig {
            network: Some(Arc::new(net)),
            ..cfg(iterations, seed)
        },
    ]
}

fn opening<G: Game>(seed: u64) -> G {
    G::new_game(&Config {
        seed,
        ..Config::default()
    })
    .expect("2 players is valid for every variant")
}

/// Random moves into the game, then two states the player to move cannot
/// tell apart: the same view, different hidden cards.
fn twins<G: Game>(seed: u64) -> (G, G) {
    let mut s: G = opening(seed);
    let mut bot = RandomBot::new(seed);
    for _ in 0..12 {
        if s.is_terminal() {
            break;
        }
        let a = bot.act(&s).unwrap();
        s.apply(a).unwrap();
    }
    let p = s.current_player().expect("not over after 12 decisions");
    let a = s.determinize(p, &mut SplitMix64::new(1));
    let b = s.determinize(p, &mut SplitMix64::new(2));
    assert_eq!(a.to_json(Some(p)), b.to_json(Some(p)));
    assert_ne!(
        a.to_json(None),
        b.to_json(None),
        "the twins differ in hidden cards"
    );
    (a, b)
}

fn no_leak<G: Game>() {
    for seed in [3, 4] {
        let (a, b) = twins::<G>(seed);
        for base in configs::<G>(600, seed) {
            for threads in [1, 2] {
                let c = SearchConfig {
                    threads,
                    ..base.clone()
                };
                assert_eq!(search(&a, &c).unwrap(), search(&b, &c).unwrap());
            }
        }
    }
}

fn whole_games<G: Game>() {
    let mut s: G = opening(5);
    // The rollout search against the network search.
    let [rollouts, network] = configs::<G>(30, 1);
    let mut bots = [
        MctsBot::new(rollouts).unwrap(),
        MctsBot::new(SearchConfig { seed: 2, ..network }).unwrap(),
    ];
    let mut legal = ActionList::new();
    while let Some(p) = s.current_player() {
        s.legal_actions(&mut legal);
        let a = bots[p as usize % 2].act(&s).unwrap();
        assert!(legal.contains(a));
        s.apply(a).unwrap();
    }
    assert!(s.outcome().is_some());
}

#[test]
fn base_search_reads_nothing_hidden() {
    no_leak::<BaseState>();
}

#[test]
fn duel_search_reads_nothing_hidden() {
    no_leak::<DuelState>();
}

#[test]
fn base_games_with_mcts() {
    whole_games::<BaseState>();
}

#[test]
fn duel_games_with_mcts() {
    whole_games::<DuelState>();
}

#[test]
fn marvel_search_reads_nothing_hidden() {
    no_leak::<MarvelState>();
}

#[test]
fn marvel_games_with_mcts() {
    whole_games::<MarvelState>();
}
