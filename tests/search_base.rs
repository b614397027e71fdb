//! The search on the real base game: no leak of hidden cards, reproducible,
//! budgets and caps, every phase.

use splendor::game::{Action, ActionList, Config, Game};
use splendor::rng::SplitMix64;
use splendor::search::{search, Bot, MctsBot, RandomBot, SearchConfig};
use splendor::variants::base::BaseState;

fn cfg(iterations: u64, seed: u64) -> SearchConfig {
    SearchConfig {
        iterations,
        seed,
        ..SearchConfig::default()
    }
}

/// A mid-game position where seat 1 holds a blind reserve, with seat 0 to
/// move: deck order and that reserve are hidden from seat 0.
fn with_blind_reserve(seed: u64) -> BaseState {
    let mut s = BaseState::new_game(&Config {
        seed,
        ..Config::default()
    })
    .unwrap();
    let blind = BaseState::parse_action("reserve deck 2").unwrap();
    let mut bot = RandomBot::new(seed);
    while s.current_player() != Some(1) {
        let a = bot.act(&s).unwrap();
        s.apply(a).unwrap();
    }
    s.apply(blind).unwrap();
    while s.current_player() != Some(0) {
        let a = bot.act(&s).unwrap();
        s.apply(a).unwrap();
    }
    for _ in 0..6 {
        let a = bot.act(&s).unwrap();
        s.apply(a).unwrap();
    }
    while s.current_player() != Some(0) {
        let a = bot.act(&s).unwrap();
        s.apply(a).unwrap();
    }
    s
}

#[test]
fn hidden_cards_do_not_change_the_search() {
    for seed in [1, 2] {
        let s = with_blind_reserve(seed);
        assert!(s.is_hidden(1, 0), "seat 1's reserve is blind");
        // Twins: the same view for seat 0, different hidden cards (the
        // opponent's blind reserve and the deck orders are swapped around).
        let a = s.determinize(0, &mut SplitMix64::new(10));
        let b = s.determinize(0, &mut SplitMix64::new(11));
        assert_eq!(a.to_json(Some(0)), b.to_json(Some(0)));
        assert_ne!(a.to_json(None), b.to_json(None));
        assert_ne!(
            a.reserved(1),
            b.reserved(1),
            "seed choice: the blind card differs"
        );
        for threads in [1, 2] {
            let c = SearchConfig {
                threads,
                ..cfg(800, 5)
            };
            let ra = search(&a, &c).unwrap();
            let rb = search(&b, &c).unwrap();
            assert_eq!(ra, rb, "threads={threads}");
            let rs = search(&s, &c).unwrap();
            assert_eq!(ra, rs);
        }
        let mut ba = MctsBot::new(cfg(300, 9)).unwrap();
        let mut bb = MctsBot::new(cfg(300, 9)).unwrap();
        assert_eq!(ba.act(&a).unwrap(), bb.act(&b).unwrap());
        // A move drawn at a temperature (the AI levels) reads only the search's
        // statistics and seed: the same draw from both twins.
        for t in [0.5, 2.0] {
            let hot = SearchConfig {
                move_temperature: t,
                ..cfg(300, 9)
            };
            assert_eq!(search(&a, &hot).unwrap(), search(&b, &hot).unwrap());
        }
        // With a network too: it reads observation(mover) of each
        // determinization, never the hidden cards of the real state.
        let net = splendor::nn::random_network_bytes::<BaseState>(2, &[32, 32], 3);
        let net = std::sync::Arc::new(splendor::nn::Network::from_bytes(&net).unwrap());
        for threads in [1, 2] {
            let c = SearchConfig {
                threads,
                network: Some(net.clone()),
                ..cfg(800, 5)
            };
            let ra = search(&a, &c).unwrap();
            assert_eq!(ra, search(&b, &c).unwrap(), "network, threads={threads}");
            assert_eq!(ra, search(&s, &c).unwrap());
        }
    }
}

#[test]
fn reproducible_and_budgets_hold() {
    let s = BaseState::new_game(&Config::default()).unwrap();
    for threads in [1, 2] {
        let c = SearchConfig {
            threads,
            ..cfg(600, 3)
        };
        let r = search(&s, &c).unwrap();
        assert_eq!(r, search(&s, &c).unwrap());
        assert_eq!(r.iterations, 600);
        assert_eq!(r.stats.iter().map(|x| x.visits).sum::<u64>(), 600);
    }
    let r = search(
        &s,
        &SearchConfig {
            max_nodes: 64,
            ..cfg(2000, 1)
        },
    )
    .unwrap();
    assert!(r.nodes <= 64);
    assert_eq!(r.iterations, 2000);
}

#[test]
fn mcts_plays_whole_games_in_every_phase() {
    // Small budgets keep the debug build quick; every decision of the game
    // (main, pay, return, noble) goes through the bot.
    for (players, seed) in [(2u8, 1u64), (3, 2), (4, 3)] {
        let mut s = BaseState::new_game(&Config {
            num_players: players,
            seed,
            ..Config::default()
        })
        .unwrap();
        let mut bots: Vec<MctsBot> = (0..players)
            .map(|p| MctsBot::new(cfg(40, seed * 10 + p as u64)).unwrap())
            .collect();
        let mut legal = ActionList::new();
        while let Some(p) = s.current_player() {
            s.legal_actions(&mut legal);
            let a: Action = bots[p as usize].act(&s).unwrap();
            assert!(legal.contains(a));
            s.apply(a).unwrap();
        }
        assert!(s.outcome().is_some());
    }
}
