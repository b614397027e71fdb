//! The Duel heuristic makes a one-ply greedy player sensible: it beats a
//! uniformly random player by a wide margin, with seats alternated.

use splendor::variants::duel::DuelState;
use splendor::{Action, ActionList, Config, Game, SplitMix64};

fn greedy(s: &DuelState, list: &ActionList) -> Action {
    let me = s.current_player().expect("not over");
    let mut best = (f32::MIN, list.as_slice()[0]);
    for &a in list.as_slice() {
        let mut c = *s;
        c.apply_unchecked(a);
        let v = c.heuristic(me);
        if v > best.0 {
            best = (v, a);
        }
    }
    best.1
}

#[test]
fn greedy_beats_random() {
    let mut list = ActionList::new();
    let (mut greedy_wins, mut random_wins) = (0, 0);
    for seed in 0..60u64 {
        let greedy_seat = (seed % 2) as u8;
        let mut s = DuelState::new_game(&Config {
            num_players: 2,
            seed,
            turn_cap: 100,
        })
        .expect("valid config");
        let mut rng = SplitMix64::new(seed);
        while let Some(p) = s.current_player() {
            s.legal_actions(&mut list);
            let a = if p == greedy_seat {
                greedy(&s, &list)
            } else {
                list.as_slice()[rng.below(list.len() as u64) as usize]
            };
            s.apply_unchecked(a);
        }
        let o = s.outcome().expect("over");
        if o.is_winner(greedy_seat) {
            greedy_wins += 1;
        } else if o.winners != 0 {
            random_wins += 1;
        }
    }
    eprintln!("greedy {greedy_wins}, random {random_wins}");
    assert!(
        greedy_wins >= 4 * random_wins.max(1),
        "greedy {greedy_wins}, random {random_wins}"
    );
}

#[test]
fn heuristic_is_in_range_and_exact_at_the_end() {
    let mut list = ActionList::new();
    for seed in 0..50u64 {
        let mut s = DuelState::new_game(&Config {
            num_players: 2,
            seed,
            turn_cap: 100,
        })
        .expect("valid config");
        let mut rng = SplitMix64::new(seed);
        while !s.is_terminal() {
            for p in 0..2 {
                let h = s.heuristic(p);
                assert!(h > 0.0 && h < 1.0, "{h}");
            }
            s.legal_actions(&mut list);
            s.apply_unchecked(list.as_slice()[rng.below(list.len() as u64) as usize]);
        }
        let o = s.outcome().expect("over");
        for p in 0..2 {
            let want = if o.winners == 0 {
                0.5
            } else if o.is_winner(p) {
                1.0
            } else {
                0.0
            };
            assert_eq!(s.heuristic(p), want);
        }
    }
}
