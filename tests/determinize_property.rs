//! Property: every determinization of every reachable state, for every seat,
//! is a playable full state: it has a legal action or is terminal, it loads
//! back from its JSON to an equal state, and it gives the observer exactly the
//! view of the real state (docs/contract.md, `determinize`).
//!
//! States come from seeded games under three policies: uniform random, the
//! one-ply greedy bot, and a "blind hoarder" that reserves blind and buys its
//! reserves whenever it can, so that paying for a blind-reserved card (where a
//! reshuffled pending card used to leave a dead end) is reached often. Each
//! seed is a generated case, as in a property-test framework; a failure names
//! the variant, player count, policy, seed and decision. `SPLENDOR_FUZZ_SCALE`
//! multiplies the number of games (CI runs more).

use splendor::game::{Action, ActionList, Config, Game, Player};
use splendor::rng::SplitMix64;
use splendor::search::{Bot, GreedyBot};
use splendor::variants::{base::BaseState, duel::DuelState, marvel::MarvelState};

fn scale() -> f64 {
    std::env::var("SPLENDOR_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .unwrap_or(1.0)
}

#[derive(Clone, Copy, Debug)]
enum Policy {
    Random,
    Greedy,
    BlindHoarder,
}

/// Counts of what one run checked (reported, and checked to be non-trivial).
#[derive(Default)]
struct Tally {
    states: u64,
    determinizations: u64,
    blind_pays: u64,
}

fn pick<G: Game>(
    s: &G,
    legal: &ActionList,
    policy: Policy,
    rng: &mut SplitMix64,
    greedy: &mut GreedyBot,
) -> Action {
    let list = legal.as_slice();
    match policy {
        Policy::Random => list[rng.below(list.len() as u64) as usize],
        Policy::Greedy => greedy.act(s).expect("a live state has a greedy move"),
        Policy::BlindHoarder => {
            let wanted: Vec<Action> = list
                .iter()
                .copied()
                .filter(|&a| {
                    let t = G::action_text(a);
                    t.starts_with("reserve deck")
                        || t.starts_with("buy reserved")
                        || t.starts_with("recruit reserved")
                        || t.starts_with("gold")
                })
                .collect();
            if !wanted.is_empty() && rng.below(4) != 0 {
                wanted[rng.below(wanted.len() as u64) as usize]
            } else {
                list[rng.below(list.len() as u64) as usize]
            }
        }
    }
}

/// Whether the full JSON shows a reserve that was blind before this action
/// and is being paid for now (the case the property used to fail on).
fn paying_for_blind_reserve<G: Game>(before: &G, after: &G, a: Action) -> bool {
    let text = G::action_text(a);
    if !(text.starts_with("buy reserved") || text.starts_with("recruit reserved")) {
        return false;
    }
    let index: usize = text.rsplit(' ').next().unwrap().parse().unwrap();
    let seat = before.current_player().unwrap() as usize;
    let v: serde_json::Value = serde_json::from_str(&before.to_json(None)).unwrap();
    let was_hidden = v["players"][seat]["reserved"][index - 1]["hidden"] == true;
    let after_v: serde_json::Value = serde_json::from_str(&after.to_json(None)).unwrap();
    was_hidden && after_v["phase"] == "pay"
}

fn check_state<G: Game>(s: &G, rng: &mut SplitMix64, tally: &mut Tally, what: &str) {
    tally.states += 1;
    let mut legal = ActionList::new();
    for p in 0..s.num_players() as Player {
        let view = s.to_json(Some(p));
        for _ in 0..2 {
            let d = s.determinize(p, &mut SplitMix64::new(rng.next_u64()));
            tally.determinizations += 1;
            d.legal_actions(&mut legal);
            assert!(
                d.is_terminal() || !legal.is_empty(),
                "{what}: determinization for seat {p} is a dead end: {}",
                d.to_json(None)
            );
            let text = d.to_json(None);
            let back = G::from_json(&text).unwrap_or_else(|e| {
                panic!("{what}: determinization for seat {p} does not load: {e}: {text}")
            });
            assert_eq!(back.to_json(None), text, "{what}: round trip, seat {p}");
            assert_eq!(d.to_json(Some(p)), view, "{what}: seat {p}'s view changed");
        }
    }
}

fn run<G: Game>(players: &[u8], games: u64) -> Tally {
    let mut tally = Tally::default();
    let mut legal = ActionList::new();
    for &n in players {
        for policy in [Policy::Random, Policy::Greedy, Policy::BlindHoarder] {
            for seed in 0..games {
                let cfg = Config {
                    num_players: n,
                    seed,
                    turn_cap: 100,
                };
                let mut s = G::new_game(&cfg).unwrap();
                let mut rng = SplitMix64::new(seed ^ 0x5EED_D00D);
                let mut greedy = GreedyBot::new(seed);
                let mut step = 0;
                loop {
                    let what = format!("{} {n}p {policy:?} seed {seed} step {step}", G::VARIANT);
                    check_state(&s, &mut rng, &mut tally, &what);
                    if s.is_terminal() {
                        break;
                    }
                    s.legal_actions(&mut legal);
                    let a = pick(&s, &legal, policy, &mut rng, &mut greedy);
                    let before = s.clone();
                    s.apply(a).unwrap();
                    if paying_for_blind_reserve(&before, &s, a) {
                        tally.blind_pays += 1;
                    }
                    step += 1;
                }
            }
        }
    }
    eprintln!(
        "{}: {} states, {} determinizations, {} pay phases on a blind reserve",
        G::VARIANT,
        tally.states,
        tally.determinizations,
        tally.blind_pays
    );
    tally
}

fn games(default: u64) -> u64 {
    ((default as f64) * scale()).ceil() as u64
}

#[test]
fn base_determinizations_are_playable() {
    let t = run::<BaseState>(&[2, 3, 4], games(6));
    assert!(t.blind_pays > 0, "no game paid for a blind reserve");
}

#[test]
fn duel_determinizations_are_playable() {
    let t = run::<DuelState>(&[2], games(15));
    assert!(t.blind_pays > 0, "no game paid for a blind reserve");
}

#[test]
fn marvel_determinizations_are_playable() {
    let t = run::<MarvelState>(&[2, 3, 4], games(6));
    assert!(t.blind_pays > 0, "no game paid for a blind reserve");
}
