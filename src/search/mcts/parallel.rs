//! Root parallelism: one tree per thread, seeded apart, merged into one result;
//! `search` and `search_cancellable` are the entry points.

use super::*;
use crate::cancel::{Cancel, NEVER};
use crate::game::{Action, ActionList, Game, GameError, Player};
use crate::rng::SplitMix64;
use crate::search::choice::draw_by_visits;
use std::time::Instant;

/// Derives thread `t`'s seed from the base seed (independent streams).
pub(super) fn thread_seed(seed: u64, t: usize) -> u64 {
    SplitMix64::new(seed ^ (t as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03)).next_u64()
}

pub(super) struct TreeOutcome {
    /// Each root child: its action, visits, value sum and expected line
    /// below it (see [`Tree::line_below`]).
    pub(super) root: Vec<(Action, u64, f64, Line)>,
    pub(super) iterations: u64,
    pub(super) nodes: u64,
}

/// Nodes allocated up front per tree; a larger tree grows as it needs (a
/// huge budget must not reserve memory it may never use).
pub(super) const INITIAL_NODES: usize = 1 << 16;

pub(super) fn run_tree<G: Game>(
    state: &G,
    observer: Player,
    cfg: &SearchConfig,
    seed: u64,
    budget: u64,
    deadline: Option<Instant>,
    cancel: &Cancel,
) -> TreeOutcome {
    let capacity = if budget > 0 {
        (budget as usize).saturating_add(1).min(cfg.max_nodes)
    } else {
        cfg.max_nodes
    }
    .min(INITIAL_NODES);
    let mut tree = Tree::<G>::new(seed, capacity, cfg.network.as_deref(), cfg.leaf_batch);
    let mut done = 0u64;
    // Iterations when the stop token and the clock are next read.
    let mut next_check = 8;
    loop {
        match cfg.network.as_deref().filter(|_| cfg.leaf_batch > 1) {
            Some(net) => {
                let left = if budget > 0 { budget - done } else { u64::MAX };
                let want = left.min(cfg.leaf_batch as u64);
                done += tree.iterate_batch(state, observer, cfg, net, want);
            }
            None => {
                tree.iterate(state, observer, cfg);
                done += 1;
            }
        }
        if budget > 0 && done >= budget {
            break;
        }
        // The stop token and the clock are read every 8 iterations (with
        // leaf batches, after the first batch that passes a multiple of 8):
        // cheap, and an iteration is far below a millisecond, so a deadline
        // or a stop request is still met closely.
        if done >= next_check {
            next_check = done + 8 - done % 8;
            if cancel.poll() {
                break;
            }
            // Early stop: the most visited move has won once the runner-up
            // could not catch it with `early_stop` of the iterations left
            // (with 1, not even with all of them: the full budget's move).
            // Never for a search of one root action, whose point is its value.
            if cfg.early_stop > 0.0
                && budget > 0
                && cfg.root_action.is_none()
                && f64::from(tree.root_lead()) > cfg.early_stop * (budget - done) as f64
            {
                break;
            }
            if let Some(d) = deadline {
                if Instant::now() >= d {
                    break;
                }
            }
        }
    }
    let mut root = Vec::new();
    let mut children = Children::of(&tree.nodes, 0);
    while let Some(c) = children.next(&tree.nodes) {
        let n = &tree.nodes[c as usize];
        root.push((n.action, n.visits as u64, n.value, tree.line_below(c)));
    }
    TreeOutcome {
        root,
        iterations: done,
        nodes: tree.nodes.len() as u64,
    }
}

/// Searches `state` for the player to move.
///
/// Reproducible: the same state (or one differing only in what the player to
/// move cannot see), seed, thread count and iteration budget give the same
/// result, unless a time limit stops the search first.
///
/// Errors (`GameError::Config`): a finished game, or an invalid config (see
/// [`SearchConfig::validate`]).
pub fn search<G: Game>(state: &G, cfg: &SearchConfig) -> Result<SearchResult, GameError> {
    search_cancellable(state, cfg, &NEVER)
}

/// [`search`] that also stops, in every thread, within a few iterations of
/// `cancel` being set, like a time limit reached: the result is that of the
/// iterations run so far (at least one per thread), still a legal choice.
/// The caller, who set the token, decides whether to use it.
pub fn search_cancellable<G: Game>(
    state: &G,
    cfg: &SearchConfig,
    cancel: &Cancel,
) -> Result<SearchResult, GameError> {
    cfg.validate()?;
    let Some(observer) = state.current_player() else {
        return Err(GameError::Config(
            "cannot search a finished game: the state is terminal".into(),
        ));
    };
    if let Some(a) = cfg.root_action {
        let mut legal = ActionList::new();
        state.legal_actions(&mut legal);
        if !legal.as_slice().contains(&a) {
            return Err(GameError::IllegalAction(format!(
                "root_action {} is not legal in this state",
                G::action_text(a)
            )));
        }
    }
    if let Some(net) = &cfg.network {
        net.check_game::<G>(state.num_players())?;
    }
    let start = Instant::now();
    let deadline = cfg.deadline(start);
    let threads = cfg.threads;
    let budget = |t: usize| -> Option<u64> {
        if cfg.iterations == 0 {
            return Some(0);
        }
        let base = cfg.iterations / threads as u64;
        let b = base + u64::from((t as u64) < cfg.iterations % threads as u64);
        // A thread with an empty share is not started at all.
        (b > 0).then_some(b)
    };
    let outcomes: Vec<TreeOutcome> = std::thread::scope(|s| {
        let handles: Vec<_> = (1..threads)
            .filter_map(|t| {
                let b = budget(t)?;
                Some(s.spawn(move || {
                    run_tree(
                        state,
                        observer,
                        cfg,
                        thread_seed(cfg.seed, t),
                        b,
                        deadline,
                        cancel,
                    )
                }))
            })
            .collect();
        // The calling thread grows tree 0 itself: one thread fewer to start,
        // and the thread that made `cancel` is the one that may watch it.
        // Thread 0 always has a share of the budget.
        let mut outcomes = Vec::with_capacity(threads);
        if let Some(b) = budget(0) {
            outcomes.push(run_tree(
                state,
                observer,
                cfg,
                thread_seed(cfg.seed, 0),
                b,
                deadline,
                cancel,
            ));
        }
        for h in handles {
            match h.join() {
                Ok(o) => outcomes.push(o),
                Err(e) => std::panic::resume_unwind(e),
            }
        }
        outcomes
    });
    let mut result = merge(state, outcomes)?;
    if cfg.move_temperature > 0.0 {
        result.action =
            draw_by_visits(&result.stats, cfg.move_temperature, cfg.seed, result.action);
    }
    Ok(result)
}

pub(super) fn merge<G: Game>(
    state: &G,
    outcomes: Vec<TreeOutcome>,
) -> Result<SearchResult, GameError> {
    let mut visits = vec![0u64; G::NUM_ACTIONS];
    let mut values = vec![0f64; G::NUM_ACTIONS];
    // Each action's line: that of the tree that visited it most (the first
    // such tree on a tie), with those visits.
    let mut below: Vec<(u64, &[(Player, Action)])> = vec![(0, &[]); G::NUM_ACTIONS];
    let mut iterations = 0;
    let mut nodes = 0;
    for o in &outcomes {
        iterations += o.iterations;
        nodes += o.nodes;
        for (a, v, s, line) in &o.root {
            if a.index() < G::NUM_ACTIONS {
                visits[a.index()] += v;
                values[a.index()] += s;
                if *v > below[a.index()].0 {
                    below[a.index()] = (*v, line);
                }
            }
        }
    }
    // The statistics list the actions legal in the real state: the legal list
    // of the player to move depends only on what that player sees, so this
    // reads nothing hidden.
    let mut legal = ActionList::new();
    state.legal_actions(&mut legal);
    let stats: Vec<ActionStats> = legal
        .as_slice()
        .iter()
        .map(|&a| {
            let v = visits[a.index()];
            ActionStats {
                action: a,
                visits: v,
                value: if v > 0 {
                    values[a.index()] / v as f64
                } else {
                    0.0
                },
            }
        })
        .collect();
    let Some(&first) = stats.first() else {
        return Err(GameError::InvalidState(
            "the state is not terminal but has no legal action".into(),
        ));
    };
    let mut best = first;
    for s in &stats[1..] {
        if s.visits > best.visits || (s.visits == best.visits && s.value > best.value) {
            best = *s;
        }
    }
    let mover = state.current_player().unwrap_or(0);
    let lines = stats
        .iter()
        .map(|s| {
            let mut line = vec![(mover, s.action)];
            line.extend_from_slice(below[s.action.index()].1);
            line
        })
        .collect();
    Ok(SearchResult {
        action: best.action,
        stats,
        iterations,
        nodes,
        lines,
    })
}
