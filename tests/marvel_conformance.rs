//! Marvel conformance: random games to the end with every invariant checked
//! after every decision, for 2, 3 and 4 players.

use splendor::game::{Action, ActionList, Config, EndReason, Game};
use splendor::gems::Gems;
use splendor::rng::SplitMix64;
use splendor::variants::marvel::actions::{GREEN, PASS};
use splendor::variants::marvel::state::{Phase, GREY_SUPPLY, STONES};
use splendor::variants::marvel::{MarvelState, OBSERVATION_SIZE};

/// Games per player count: 2,000 with `cargo test --release`, fewer in debug.
fn games() -> u64 {
    if cfg!(debug_assertions) {
        60
    } else {
        2_000
    }
}

fn check(s: &MarvelState, legal: &ActionList) {
    let n = s.num_players();
    let mut total = s.bank();
    for p in 0..n {
        total = total.add(s.tokens(p));
    }
    let expected = Gems::splat(STONES[n], 5)
        .add(Gems::unit(5, GREY_SUPPLY))
        .add(Gems::unit(GREEN, n as u8));
    assert_eq!(total, expected, "token conservation");
    let mut seen = 0u128;
    let mut add = |c: u8| {
        assert_eq!(seen & (1 << c), 0, "card {c} twice");
        seen |= 1 << c;
    };
    let v: serde_json::Value = serde_json::from_str(&s.to_json(None)).unwrap();
    for row in v["board"].as_array().unwrap() {
        for c in row.as_array().unwrap() {
            if let Some(c) = c.as_u64() {
                add(c as u8);
            }
        }
    }
    for lv in 0..3 {
        s.deck(lv).iter().for_each(|&c| add(c));
    }
    for p in 0..n {
        s.owned(p).iter().for_each(&mut add);
        s.reserved(p).iter().for_each(|&c| add(c));
        assert!(s.reserved(p).len() <= 3);
        assert!(s.tokens(p).get(GREEN) <= 1, "at most one green");
        if s.phase() != Phase::Over
            && (Some(p as u8) != s.current_player() || s.phase() == Phase::Main)
        {
            assert!(s.tokens(p).total() <= 10, "token limit");
        }
    }
    assert_eq!(seen.count_ones(), 90, "card conservation");
    // from_json recomputes every derived value and validates everything.
    let text = s.to_json(None);
    let back = MarvelState::from_json(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(back.to_json(None), text);
    assert_eq!(back.scores(), s.scores());
    let sl = legal.as_slice();
    assert!(sl.windows(2).all(|w| w[0] < w[1]), "ascending");
    if !s.is_terminal() {
        assert!(!sl.is_empty());
        assert_eq!(
            legal.contains(Action(PASS)),
            sl == [Action(PASS)],
            "pass only alone"
        );
    }
    for p in 0..n as u8 {
        let h = s.heuristic(p);
        assert!((0.0..=1.0).contains(&h));
    }
}

#[test]
fn random_games_keep_every_invariant() {
    let mut obs = vec![0.0f32; OBSERVATION_SIZE];
    for n in 2..=4u8 {
        let (mut truncated, mut decisions) = (0, 0);
        for seed in 0..games() {
            let cfg = Config {
                num_players: n,
                seed,
                turn_cap: 100,
            };
            let mut s = MarvelState::new_game(&cfg).unwrap();
            let mut rng = SplitMix64::new(seed ^ 0xABCD);
            let mut legal = ActionList::new();
            loop {
                s.legal_actions(&mut legal);
                check(&s, &legal);
                if s.is_terminal() {
                    break;
                }
                s.observation(s.current_player().unwrap(), &mut obs);
                let a = legal.as_slice()[rng.below(legal.len() as u64) as usize];
                s.apply(a).unwrap();
                decisions += 1;
            }
            let o = s.outcome().unwrap();
            match o.reason {
                EndReason::Gauntlet => {
                    assert!(o.winners != 0);
                    for p in o.winner_list() {
                        assert!(s.meets_gauntlet(p as usize));
                    }
                }
                EndReason::Truncated => truncated += 1,
                EndReason::Stalled => assert!(o.winners != 0),
                r => panic!("unexpected end {r:?}"),
            }
        }
        assert!(
            truncated * 10 < games(),
            "{truncated} truncated of {}",
            games()
        );
        assert!(decisions > 0);
    }
}

#[test]
fn same_seed_same_game_and_determinize_keeps_the_view() {
    for n in 2..=4u8 {
        let cfg = Config {
            num_players: n,
            seed: 77,
            turn_cap: 100,
        };
        let mut a = MarvelState::new_game(&cfg).unwrap();
        let mut b = MarvelState::new_game(&cfg).unwrap();
        let mut ra = SplitMix64::new(1);
        let mut rb = SplitMix64::new(1);
        let mut legal = ActionList::new();
        let mut step = 0u64;
        while !a.is_terminal() {
            a.legal_actions(&mut legal);
            let x = legal.as_slice()[ra.below(legal.len() as u64) as usize];
            a.apply(x).unwrap();
            b.legal_actions(&mut legal);
            let y = legal.as_slice()[rb.below(legal.len() as u64) as usize];
            b.apply(y).unwrap();
            assert_eq!(a.to_json(None), b.to_json(None));
            step += 1;
            if step % 5 == 0 {
                for p in 0..n {
                    let d = a.determinize(p, &mut SplitMix64::new(step));
                    assert_eq!(d.to_json(Some(p)), a.to_json(Some(p)));
                    MarvelState::from_json(&d.to_json(None)).unwrap();
                }
            }
        }
    }
}
