//! Bot-versus-bot match from the command line, without Python:
//!
//! ```text
//! cargo run --release --example match -- base 2 400 mcts:1000,greedy 2 [seed] [key=value ...]
//! ```
//! Arguments: variant, players, games, bots (comma-separated specs), arena
//! threads, optional match seed, then optional MCTS overrides applied to every
//! MCTS bot: `c=0.7` (exploration), `depth=24` (rollout depth), `cut=rel|abs`,
//! `select=uct|puct:0.02` (tree policy), and the rollout policy with its
//! epsilon: `informed=0.3` (the variant's playout policy, the default),
//! `mast=0.3` (move averages) or `greedy=0.3` (one-ply heuristic).

use splendor::game::Game;
use splendor::search::{
    play_match, BotSpec, CutEval, MatchConfig, MatchResult, RolloutPolicy, Selection,
};
use splendor::variants::base::BaseState;
use splendor::variants::duel::DuelState;
use splendor::variants::marvel::MarvelState;
use std::time::Instant;

fn run<G: Game>(cfg: &MatchConfig) -> Result<MatchResult, String> {
    let mut last = 0;
    play_match::<G>(cfg, &mut |done, total| {
        if done * 10 / total != last {
            last = done * 10 / total;
            eprintln!("{done}/{total}");
        }
        true
    })
    .map_err(|e| e.to_string())
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 5 {
        return Err(
            "usage: match VARIANT PLAYERS GAMES BOTS THREADS [SEED] [key=value ...]".into(),
        );
    }
    let num = |i: usize| -> Result<u64, String> {
        args[i]
            .parse()
            .map_err(|_| format!("argument {} is not a number: {}", i + 1, args[i]))
    };
    let mut bots = args[3]
        .split(',')
        .map(BotSpec::parse)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let mut rest = 5;
    let seed = if args.len() > 5 && !args[5].contains('=') {
        rest = 6;
        num(5)?
    } else {
        0
    };
    for kv in &args[rest..] {
        let (k, v) = kv
            .split_once('=')
            .ok_or(format!("expected key=value, got {kv}"))?;
        for b in &mut bots {
            if let BotSpec::Mcts(c) = b {
                match k {
                    "c" => c.exploration = v.parse().map_err(|_| "bad c")?,
                    "select" => {
                        c.selection = match v.strip_prefix("puct:") {
                            Some(t) => Selection::Puct {
                                temperature: t.parse().map_err(|_| "bad temperature")?,
                            },
                            None if v == "uct" => Selection::Uct,
                            None => return Err(format!("select={v}: expected uct or puct:T")),
                        }
                    }
                    "depth" => c.rollout_depth = v.parse().map_err(|_| "bad depth")?,
                    "cut" => {
                        c.cut_eval = if v == "abs" {
                            CutEval::Heuristic
                        } else {
                            CutEval::Relative
                        }
                    }
                    "mast" => {
                        c.rollout = RolloutPolicy::Mast {
                            epsilon: v.parse().map_err(|_| "bad epsilon")?,
                        }
                    }
                    "informed" => {
                        c.rollout = RolloutPolicy::Informed {
                            epsilon: v.parse().map_err(|_| "bad epsilon")?,
                        }
                    }
                    "greedy" => {
                        c.rollout = RolloutPolicy::Greedy {
                            epsilon: v.parse().map_err(|_| "bad epsilon")?,
                        }
                    }
                    _ => return Err(format!("unknown key {k}")),
                }
            }
        }
    }
    let cfg = MatchConfig {
        bots,
        players: num(1)? as u8,
        games: num(2)? as usize,
        seed,
        threads: num(4)? as usize,
        turn_cap: 100,
        first_game: 0,
    };
    let t = Instant::now();
    let r = match args[0].as_str() {
        "base" => run::<BaseState>(&cfg)?,
        "duel" => run::<DuelState>(&cfg)?,
        "marvel" => run::<MarvelState>(&cfg)?,
        v => return Err(format!("unknown variant {v}")),
    };
    println!("{}", r.to_json());
    for b in &r.bots {
        println!(
            "{:<12} {:>6.1}%  [{:.1}%, {:.1}%]  wins {} / {}",
            b.name,
            100.0 * b.win_rate,
            100.0 * b.ci_low,
            100.0 * b.ci_high,
            b.wins,
            b.games
        );
    }
    println!("{:.1}s", t.elapsed().as_secs_f64());
    Ok(())
}
