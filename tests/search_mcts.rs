//! The generic search on a toy hidden-information game.

mod search_toy;

use search_toy::{position, value, Nim};
use splendor::game::{Action, ActionList, Config, Game, GameError};
use splendor::search::{search, CutEval, RolloutPolicy, SearchConfig, Selection};
use std::time::{Duration, Instant};

fn cfg(iterations: u64) -> SearchConfig {
    SearchConfig {
        iterations,
        ..SearchConfig::default()
    }
}

fn legal(s: &Nim) -> Vec<Action> {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l.as_slice().to_vec()
}

#[test]
fn finds_the_immediate_win() {
    // Counter 3: only the 3-card (id 2) wins now; the others hand the
    // opponent a counter they may finish.
    let s = position(3, &[0, 1, 2], &[3, 4, 5]);
    let r = search(&s, &cfg(2000)).unwrap();
    assert_eq!(r.action, Action(2));
    assert!(value(r.action.0 as u8) == 3);
    let best = r.stats.iter().find(|x| x.action == Action(2)).unwrap();
    assert!(
        best.value > 0.99,
        "a sure win has value 1, got {}",
        best.value
    );
}

#[test]
fn avoids_handing_over_the_win() {
    // Counter 5, the mover holds a 1 (id 0) and a 2 (id 1). Leaving 4 makes
    // the opponent unable to finish (max card 3) whatever they hold; leaving
    // 3 lets any opponent holding a 3 win at once.
    let s = position(5, &[0, 1], &[2, 5, 8]);
    let r = search(&s, &cfg(4000)).unwrap();
    assert_eq!(r.action, Action(0), "{:?}", r.stats);
}

const SELECTIONS: [Selection; 2] = [Selection::Uct, Selection::Puct { temperature: 0.02 }];

#[test]
fn statistics_cover_the_legal_actions_and_budgets_add_up() {
    let s = Nim::new_game(&Config::default()).unwrap();
    for selection in SELECTIONS {
        let r = search(
            &s,
            &SearchConfig {
                selection,
                ..cfg(500)
            },
        )
        .unwrap();
        assert_eq!(r.iterations, 500);
        let acts: Vec<Action> = r.stats.iter().map(|x| x.action).collect();
        assert_eq!(acts, legal(&s));
        assert_eq!(r.stats.iter().map(|x| x.visits).sum::<u64>(), 500);
        // UCT adds one node per iteration; PUCT adds all of one node's
        // children at once (at most a hand of 3 here), plus at most one
        // child legal only in that iteration's determinization.
        let most = match selection {
            Selection::Uct => 1 + 500,
            Selection::Puct { .. } => 1 + 500 * (search_toy::HAND as u64 + 1),
        };
        assert!(r.nodes > 1 && r.nodes <= most, "{selection:?}: {}", r.nodes);
        for x in &r.stats {
            assert!((0.0..=1.0).contains(&x.value));
        }
        assert_eq!(r.visits().len(), r.values().len());
    }
}

#[test]
fn the_puct_prior_steers_the_budget_to_the_heuristic_best_move() {
    // Counter 3: the 3-card (id 2) wins at once, so its one-ply heuristic
    // is 1 against 0.5 for the others. PUCT's prior sends every iteration
    // there; UCT must first try each move once.
    let s = position(3, &[0, 1, 2], &[3, 4, 5]);
    let visits = |selection| {
        let r = search(
            &s,
            &SearchConfig {
                selection,
                ..cfg(30)
            },
        )
        .unwrap();
        r.stats
            .iter()
            .find(|x| x.action == Action(2))
            .unwrap()
            .visits
    };
    assert_eq!(visits(Selection::Puct { temperature: 0.02 }), 30);
    assert!(visits(Selection::Uct) <= 28);
    // A very high temperature flattens the prior to uniform: the two
    // losing-ish moves get tried too.
    assert!(visits(Selection::Puct { temperature: 1e6 }) < 30);
}

#[test]
fn same_seed_same_result_and_other_seed_differs() {
    let s = Nim::new_game(&Config::default()).unwrap();
    for threads in [1, 2, 3] {
        let c = SearchConfig {
            threads,
            seed: 7,
            ..cfg(3000)
        };
        let a = search(&s, &c).unwrap();
        let b = search(&s, &c).unwrap();
        assert_eq!(a, b, "threads={threads}");
        assert_eq!(a.iterations, 3000);
        let d = search(&s, &SearchConfig { seed: 8, ..c }).unwrap();
        assert_ne!(
            a.stats, d.stats,
            "a different seed should change the statistics"
        );
    }
}

#[test]
fn hidden_information_does_not_leak() {
    // Two states that differ only in the opponent's hand and the deck order:
    // the search must not be able to tell them apart.
    let a = position(11, &[0, 4], &[2, 5, 8]);
    let mut b = position(11, &[0, 4], &[9, 10, 23]);
    // Scramble b's deck too.
    let top = b.top as usize;
    b.deck[top..].reverse();
    assert_ne!(a, b);
    for (threads, selection) in [1, 2].into_iter().flat_map(|t| SELECTIONS.map(|x| (t, x))) {
        let c = SearchConfig {
            threads,
            seed: 3,
            selection,
            ..cfg(4000)
        };
        let ra = search(&a, &c).unwrap();
        let rb = search(&b, &c).unwrap();
        assert_eq!(ra, rb, "{selection:?}");
    }
    // Control: the comparison is sharp enough to catch a leak. A search that
    // reads the true hands (determinize returning the state itself) tells
    // the same two positions apart.
    let (mut la, mut lb) = (a, b);
    la.leaky = true;
    lb.leaky = true;
    let c = SearchConfig {
        seed: 3,
        ..cfg(4000)
    };
    assert_ne!(
        search(&la, &c).unwrap().stats,
        search(&lb, &c).unwrap().stats
    );
}

#[test]
fn time_budget_is_honoured() {
    let s = Nim::new_game(&Config::default()).unwrap();
    // The bound is the contract (limit + 20 ms). The margin for a loaded
    // machine is in the measurement: preemption can only add time, so one
    // try within the bound (of up to 30) shows the search stops in time.
    let within = |c: &SearchConfig, bound: Duration| -> Result<(), Duration> {
        let mut best = Duration::MAX;
        for _ in 0..30 {
            let t = Instant::now();
            let r = search(&s, c).unwrap();
            assert!(r.iterations >= 1);
            best = best.min(t.elapsed());
            if best <= bound {
                return Ok(());
            }
        }
        Err(best)
    };
    for limit in [0.0, 0.02, 0.1] {
        let c = SearchConfig {
            iterations: 0,
            time_limit: Some(limit),
            ..SearchConfig::default()
        };
        let bound = Duration::from_secs_f64(limit) + Duration::from_millis(20);
        within(&c, bound).unwrap_or_else(|best| panic!("limit {limit}s took {best:?}"));
    }
    // Several threads share the same deadline.
    let c = SearchConfig {
        iterations: 0,
        time_limit: Some(0.05),
        threads: 2,
        ..SearchConfig::default()
    };
    within(&c, Duration::from_millis(70)).unwrap_or_else(|best| panic!("took {best:?}"));
    // Both budgets: the iteration budget stops first.
    let c = SearchConfig {
        iterations: 100,
        time_limit: Some(10.0),
        ..SearchConfig::default()
    };
    assert_eq!(search(&s, &c).unwrap().iterations, 100);
}

#[test]
fn node_cap_holds_and_search_goes_on() {
    let s = Nim::new_game(&Config::default()).unwrap();
    for (threads, selection) in [1, 2].into_iter().flat_map(|t| SELECTIONS.map(|x| (t, x))) {
        let c = SearchConfig {
            max_nodes: 50,
            threads,
            selection,
            ..cfg(5000)
        };
        let r = search(&s, &c).unwrap();
        assert_eq!(r.iterations, 5000);
        assert!(r.nodes <= 50 * threads as u64, "{selection:?}: {}", r.nodes);
        assert_eq!(r.stats.iter().map(|x| x.visits).sum::<u64>(), 5000);
    }
    // The smallest tree: root and one child at a time.
    let r = search(
        &s,
        &SearchConfig {
            max_nodes: 2,
            ..cfg(100)
        },
    )
    .unwrap();
    assert_eq!(r.nodes, 2);
}

#[test]
fn bad_arguments_are_errors() {
    let s = Nim::new_game(&Config::default()).unwrap();
    let err = |c: SearchConfig| match search(&s, &c) {
        Err(GameError::Config(m)) => m,
        other => panic!("expected a Config error, got {other:?}"),
    };
    assert!(err(cfg(0)).contains("iterations"));
    for t in [-1.0, f64::NAN, f64::INFINITY] {
        let m = err(SearchConfig {
            time_limit: Some(t),
            ..cfg(10)
        });
        assert!(m.contains("time_limit"), "{m}");
    }
    assert!(err(SearchConfig {
        threads: 0,
        ..cfg(10)
    })
    .contains("threads"));
    assert!(err(SearchConfig {
        max_nodes: 1,
        ..cfg(10)
    })
    .contains("max_nodes"));
    assert!(err(SearchConfig {
        exploration: f64::NAN,
        ..cfg(10)
    })
    .contains("exploration"));
    assert!(err(SearchConfig {
        rollout: RolloutPolicy::Greedy { epsilon: 2.0 },
        ..cfg(10)
    })
    .contains("epsilon"));
    assert!(err(SearchConfig {
        rollout: RolloutPolicy::Mast { epsilon: f32::NAN },
        ..cfg(10)
    })
    .contains("epsilon"));
    assert!(err(SearchConfig {
        rollout: RolloutPolicy::Informed { epsilon: -0.1 },
        ..cfg(10)
    })
    .contains("epsilon"));
    for temperature in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let m = err(SearchConfig {
            selection: Selection::Puct { temperature },
            ..cfg(10)
        });
        assert!(m.contains("temperature"), "{m}");
    }
    let mut done = position(1, &[0], &[1]);
    done.apply(Action(0)).unwrap();
    assert!(done.is_terminal());
    match search(&done, &cfg(10)) {
        Err(GameError::Config(m)) => assert!(m.contains("terminal"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn every_policy_and_cut_runs_for_four_players() {
    let s = Nim::new_game(&Config {
        num_players: 4,
        ..Config::default()
    })
    .unwrap();
    for rollout in [
        RolloutPolicy::Random,
        RolloutPolicy::Greedy { epsilon: 0.2 },
        RolloutPolicy::Mast { epsilon: 0.3 },
        RolloutPolicy::Informed { epsilon: 0.3 },
    ] {
        for cut_eval in [CutEval::Heuristic, CutEval::Relative] {
            for rollout_depth in [0, 3, 100] {
                for selection in SELECTIONS {
                    let c = SearchConfig {
                        rollout,
                        cut_eval,
                        rollout_depth,
                        selection,
                        ..cfg(300)
                    };
                    let r = search(&s, &c).unwrap();
                    assert!(legal(&s).contains(&r.action));
                    assert_eq!(r.iterations, 300);
                }
            }
        }
    }
}

/// A game where who moves second depends on a hidden coin: seat 0 plays
/// `go`, then the seat named by the coin plays `win` and wins.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Coin {
    coin: u8,
    step: u8,
}

impl Game for Coin {
    const VARIANT: &'static str = "coin";
    const NUM_ACTIONS: usize = 2;
    const OBSERVATION_SIZE: usize = 0;
    fn new_game(c: &Config) -> Result<Self, GameError> {
        Ok(Coin {
            coin: (c.seed % 2) as u8,
            step: 0,
        })
    }
    fn num_players(&self) -> usize {
        2
    }
    fn current_player(&self) -> Option<u8> {
        match self.step {
            0 => Some(0),
            1 => Some(self.coin),
            _ => None,
        }
    }
    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        if self.step < 2 {
            out.push(Action(self.step as u16));
        }
    }
    fn apply_unchecked(&mut self, _a: Action) {
        self.step += 1;
    }
    fn outcome(&self) -> Option<splendor::game::Outcome> {
        (self.step == 2).then_some(splendor::game::Outcome {
            winners: 1 << self.coin,
            reason: splendor::game::EndReason::Points,
            num_players: 2,
        })
    }
    fn scores(&self) -> [i32; 4] {
        [0; 4]
    }
    fn determinize(&self, _observer: u8, rng: &mut splendor::rng::SplitMix64) -> Self {
        Coin {
            coin: rng.below(2) as u8,
            ..*self
        }
    }
    fn heuristic(&self, _player: u8) -> f32 {
        0.5
    }
    fn action_text(a: Action) -> String {
        a.0.to_string()
    }
    fn parse_action(t: &str) -> Result<Action, GameError> {
        t.parse()
            .map(Action)
            .map_err(|_| GameError::InvalidAction(t.into()))
    }
    fn observation(&self, _p: u8, _out: &mut [f32]) {}
    fn to_json(&self, _v: Option<u8>) -> String {
        format!("{{\"turn\":{}}}", self.step)
    }
    fn from_json(_t: &str) -> Result<Self, GameError> {
        Err(GameError::InvalidState("no".into()))
    }
    fn render(&self) -> String {
        String::new()
    }
}

#[test]
fn a_child_belongs_to_the_player_who_moves() {
    // After `go` either seat may move (the coin is hidden): the tree must
    // keep one `win` child per mover, or it would credit one player's wins
    // to the other. Root, `go`, `win` by seat 0, `win` by seat 1: 4 nodes.
    let s = Coin::new_game(&Config::default()).unwrap();
    let r = search(&s, &cfg(200)).unwrap();
    assert_eq!(r.nodes, 4);
    // Seat 0 wins exactly when the coin says seat 0 moves: about half.
    assert!((r.stats[0].value - 0.5).abs() < 0.1, "{:?}", r.stats);
}
