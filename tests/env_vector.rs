//! The batched environment (`splendor::env`): buffers match the games,
//! autoreset reports the ended game, illegal actions change nothing, bots
//! play their seats, results do not depend on the thread count, and the
//! observation spec describes the observation.

use splendor::env::{mask_words, Buffers, EnvConfig, Observed, VectorEnv};
use splendor::search::BotSpec;
use splendor::variants::{base::BaseState, duel::DuelState, marvel::MarvelState};
use splendor::{Action, ActionList, Config, Game, GameError, SplitMix64};
use std::time::Duration;

/// Owned arrays for one env.
#[derive(Clone, Debug, PartialEq)]
struct Arrays {
    obs: Vec<f32>,
    mask: Vec<bool>,
    packed_mask: Vec<u64>,
    player: Vec<i32>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    final_obs: Vec<f32>,
    episode_length: Vec<i64>,
}

impl Arrays {
    fn new<G: Game>(n: usize, players: usize) -> Self {
        Self {
            obs: vec![0.0; n * G::OBSERVATION_SIZE],
            mask: vec![false; n * G::NUM_ACTIONS],
            packed_mask: vec![0; n * mask_words::<G>()],
            player: vec![0; n],
            rewards: vec![0.0; n * players],
            terminated: vec![false; n],
            truncated: vec![false; n],
            final_obs: vec![0.0; n * G::OBSERVATION_SIZE],
            episode_length: vec![0; n],
        }
    }
    fn buffers(&mut self) -> Buffers<'_> {
        Buffers {
            obs: &mut self.obs,
            mask: &mut self.mask,
            packed_mask: &mut self.packed_mask,
            player: &mut self.player,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            final_obs: &mut self.final_obs,
            episode_length: &mut self.episode_length,
        }
    }
}

fn config(n: usize, players: u8, seed: u64, threads: usize) -> EnvConfig {
    EnvConfig {
        num_envs: n,
        game: Config {
            num_players: players,
            seed,
            turn_cap: 100,
        },
        opponents: vec![None; players as usize],
        threads,
        normalize: false,
    }
}

/// Uniformly random legal actions read from the mask.
fn pick<G: Game>(a: &Arrays, rng: &mut SplitMix64) -> Vec<i64> {
    a.mask
        .chunks(G::NUM_ACTIONS)
        .map(|row| {
            let legal: Vec<usize> = (0..row.len()).filter(|&i| row[i]).collect();
            legal[rng.below(legal.len() as u64) as usize] as i64
        })
        .collect()
}

/// Every row of the arrays describes the env's current game.
fn check_rows<G: Observed>(env: &VectorEnv<G>, a: &Arrays) {
    let mut obs = vec![0.0; G::OBSERVATION_SIZE];
    let mut legal = ActionList::new();
    for i in 0..env.len() {
        let g = env.game(i).unwrap();
        let p = g.current_player().expect("a live game after every step");
        assert_eq!(a.player[i], i32::from(p));
        g.observation(p, &mut obs);
        assert_eq!(
            &a.obs[i * G::OBSERVATION_SIZE..(i + 1) * G::OBSERVATION_SIZE],
            &obs[..]
        );
        g.legal_actions(&mut legal);
        let row = &a.mask[i * G::NUM_ACTIONS..(i + 1) * G::NUM_ACTIONS];
        let from_mask: Vec<u16> = (0..G::NUM_ACTIONS)
            .filter(|&k| row[k])
            .map(|k| k as u16)
            .collect();
        let listed: Vec<u16> = legal.as_slice().iter().map(|x| x.0).collect();
        assert_eq!(from_mask, listed);
        let w = mask_words::<G>();
        let words = &a.packed_mask[i * w..(i + 1) * w];
        let from_words: Vec<u16> = (0..w * 64)
            .filter(|&k| words[k / 64] >> (k % 64) & 1 == 1)
            .map(|k| k as u16)
            .collect();
        assert_eq!(from_words, listed);
    }
}

/// Steps `n` envs with random actions, checking the rows against the games
/// and every ended game against a replay of the same actions.
fn rows_and_autoreset<G: Observed>(players: u8) {
    let n = 6;
    let mut env = VectorEnv::<G>::new(config(n, players, 7, 1)).unwrap();
    let mut a = Arrays::new::<G>(n, players as usize);
    env.reset(None, a.buffers()).unwrap();
    check_rows(&env, &a);
    // Replays of each env's current game, action by action.
    let mut replays: Vec<G> = (0..n).map(|i| env.game(i).unwrap().clone()).collect();
    let mut rng = SplitMix64::new(1);
    let mut ended = 0;
    let mut final_obs = vec![0.0; G::OBSERVATION_SIZE];
    for _ in 0..600 {
        let acts = pick::<G>(&a, &mut rng);
        let movers = a.player.clone();
        env.step(&acts, a.buffers()).unwrap();
        check_rows(&env, &a);
        for i in 0..n {
            let r = &mut replays[i];
            r.apply(Action(acts[i] as u16)).unwrap();
            let rewards = &a.rewards[i * players as usize..(i + 1) * players as usize];
            if let Some(o) = r.outcome() {
                ended += 1;
                assert_eq!(a.terminated[i], !o.truncated());
                assert_eq!(a.truncated[i], o.truncated());
                let want: Vec<f32> = o.returns()[..players as usize]
                    .iter()
                    .map(|&r| r as f32)
                    .collect();
                assert_eq!(rewards, &want[..]);
                r.observation(movers[i] as u8, &mut final_obs);
                let o_len = G::OBSERVATION_SIZE;
                assert_eq!(&a.final_obs[i * o_len..(i + 1) * o_len], &final_obs[..]);
                assert!(a.episode_length[i] > 0);
                *r = env.game(i).unwrap().clone();
                assert_eq!(r.turns(), 0, "the next game starts fresh");
            } else {
                assert!(!a.terminated[i] && !a.truncated[i]);
                assert!(rewards.iter().all(|&x| x == 0.0));
                assert_eq!(a.episode_length[i], 0);
            }
        }
    }
    assert!(ended >= n, "only {ended} games ended in 600 steps");
}

#[test]
fn base_rows_and_autoreset() {
    rows_and_autoreset::<BaseState>(2);
    rows_and_autoreset::<BaseState>(4);
}

#[test]
fn duel_rows_and_autoreset() {
    rows_and_autoreset::<DuelState>(2);
}

#[test]
fn marvel_rows_and_autoreset() {
    rows_and_autoreset::<MarvelState>(3);
}

/// The whole array history for a seed and a thread count.
fn history<G: Observed>(
    threads: usize,
    opponents: Vec<Option<BotSpec>>,
    steps: usize,
) -> Vec<Arrays> {
    played::<G>(threads, opponents, steps, false).0
}

/// [`history`], and, `with_helper`, a second thread helping through
/// `assist` in every step (as `step_wait` does): also how many steps it
/// joined.
fn played<G: Observed>(
    threads: usize,
    opponents: Vec<Option<BotSpec>>,
    steps: usize,
    with_helper: bool,
) -> (Vec<Arrays>, usize) {
    let players = opponents.len();
    let n = 133; // five chunks, the last one short
    let mut cfg = config(n, players as u8, 99, threads);
    cfg.opponents = opponents;
    let mut env = VectorEnv::<G>::new(cfg).unwrap();
    let assist = env.assist();
    let mut a = Arrays::new::<G>(n, players);
    env.reset(None, a.buffers()).unwrap();
    let first = assist.last_closed() + 1;
    let mut rng = SplitMix64::new(5);
    let mut out = vec![a.clone()];
    let mut play = || {
        for _ in 0..steps {
            let acts = pick::<G>(&a, &mut rng);
            env.step(&acts, a.buffers()).unwrap();
            out.push(a.clone());
        }
    };
    if !with_helper {
        play();
        return (out, 0);
    }
    let helped = std::thread::scope(|s| {
        // One helper for every step, already waiting when each opens.
        let helper = s.spawn(|| {
            (first..first + steps as u64)
                .filter(|&round| assist.help(round, Duration::from_secs(10), &|| false))
                .count()
        });
        play();
        helper.join().unwrap()
    });
    (out, helped)
}

#[test]
fn same_arrays_for_any_thread_count() {
    let one = history::<BaseState>(1, vec![None, None], 250);
    assert_eq!(one, history::<BaseState>(2, vec![None, None], 250));
    assert_eq!(one, history::<BaseState>(5, vec![None, None], 250));
    let bots = vec![None, Some(BotSpec::Greedy), Some(BotSpec::Random)];
    let one = history::<MarvelState>(1, bots.clone(), 150);
    assert_eq!(one, history::<MarvelState>(3, bots, 150));
}

/// A step on one thread while another helps through `assist` (as
/// `step_wait` does): the same arrays as stepping alone, and the helper does
/// play chunks of some steps.
#[test]
fn a_helper_joining_the_step_changes_nothing() {
    // A searching seat makes each step long (~10 ms), longer than a time
    // slice, so that the helper, one more thread on a busy machine, gets to
    // run while some step is open to it.
    let bots = vec![None, Some(BotSpec::parse("mcts:60").unwrap())];
    let alone = history::<BaseState>(1, bots.clone(), 20);
    for threads in [1, 2] {
        let (out, helped) = played::<BaseState>(threads, bots.clone(), 20, true);
        assert_eq!(out, alone, "threads={threads}");
        assert!(helped > 0, "threads={threads}: the helper never played");
    }
}

#[test]
fn reset_with_a_seed_replays_the_same_games() {
    let mut env = VectorEnv::<DuelState>::new(config(5, 2, 3, 1)).unwrap();
    let mut a = Arrays::new::<DuelState>(5, 2);
    env.reset(Some(11), a.buffers()).unwrap();
    let first = a.clone();
    let fresh = VectorEnv::<DuelState>::new(config(5, 2, 11, 1)).unwrap();
    let mut b = Arrays::new::<DuelState>(5, 2);
    let mut fresh = fresh;
    fresh.reset(None, b.buffers()).unwrap();
    assert_eq!(first, b);
    let mut other = Arrays::new::<DuelState>(5, 2);
    env.reset(Some(12), other.buffers()).unwrap();
    assert_ne!(first.obs, other.obs, "another seed deals other games");
    // Envs of one batch deal different games.
    assert_ne!(first.obs[..696], first.obs[696..2 * 696]);
}

#[test]
fn illegal_or_out_of_range_actions_change_nothing() {
    let n = 4;
    let mut env = VectorEnv::<BaseState>::new(config(n, 2, 1, 2)).unwrap();
    let mut a = Arrays::new::<BaseState>(n, 2);
    env.reset(None, a.buffers()).unwrap();
    let mut rng = SplitMix64::new(2);
    for _ in 0..5 {
        let acts = pick::<BaseState>(&a, &mut rng);
        env.step(&acts, a.buffers()).unwrap();
    }
    let before = a.clone();
    let games: Vec<String> = (0..n).map(|i| env.game(i).unwrap().to_json(None)).collect();
    let mut acts = pick::<BaseState>(&a, &mut rng);
    let illegal = (0..BaseState::NUM_ACTIONS)
        .find(|&k| !a.mask[2 * BaseState::NUM_ACTIONS + k])
        .unwrap();
    acts[2] = illegal as i64;
    match env.step(&acts, a.buffers()) {
        Err(GameError::IllegalAction(m)) => assert!(m.starts_with("env 2:"), "{m}"),
        other => panic!("expected IllegalAction, got {other:?}"),
    }
    acts[2] = acts[1];
    acts[3] = BaseState::NUM_ACTIONS as i64;
    acts[1] = -1;
    match env.step(&acts, a.buffers()) {
        Err(GameError::InvalidAction(m)) => assert!(m.starts_with("env 1:"), "{m}"),
        other => panic!("expected InvalidAction, got {other:?}"),
    }
    match env.step(&acts[..3], a.buffers()) {
        Err(GameError::Config(m)) => assert!(m.contains("expected 4 actions"), "{m}"),
        other => panic!("expected Config, got {other:?}"),
    }
    assert_eq!(a, before);
    let after: Vec<String> = (0..n).map(|i| env.game(i).unwrap().to_json(None)).collect();
    assert_eq!(games, after);
}

#[test]
fn bots_play_their_seats() {
    let n = 8;
    let mut cfg = config(n, 2, 4, 1);
    cfg.opponents = vec![Some(BotSpec::parse("mcts:20").unwrap()), None];
    let mut env = VectorEnv::<BaseState>::new(cfg).unwrap();
    let mut a = Arrays::new::<BaseState>(n, 2);
    env.reset(None, a.buffers()).unwrap();
    let mut rng = SplitMix64::new(9);
    let mut ended = 0;
    for _ in 0..250 {
        assert!(
            a.player.iter().all(|&p| p == 1),
            "the caller only sees seat 1"
        );
        let acts = pick::<BaseState>(&a, &mut rng);
        env.step(&acts, a.buffers()).unwrap();
        ended += a.terminated.iter().filter(|&&t| t).count();
        for i in 0..n {
            if a.terminated[i] {
                let r = &a.rewards[2 * i..2 * i + 2];
                assert!(r[0] + r[1] > 0.99, "a finished game has a winner: {r:?}");
            }
        }
    }
    assert!(ended > 0);
}

#[test]
fn bad_configs_are_errors() {
    let mut c = config(2, 2, 0, 1);
    c.opponents = vec![Some(BotSpec::Random), Some(BotSpec::Greedy)];
    assert!(matches!(
        VectorEnv::<BaseState>::new(c),
        Err(GameError::Config(_))
    ));
    let mut c = config(2, 2, 0, 1);
    c.opponents = vec![None];
    assert!(matches!(
        VectorEnv::<BaseState>::new(c),
        Err(GameError::Config(_))
    ));
    assert!(matches!(
        VectorEnv::<DuelState>::new(config(2, 3, 0, 1)),
        Err(GameError::Config(_))
    ));
    assert!(matches!(
        VectorEnv::<BaseState>::new(config(0, 2, 0, 1)),
        Err(GameError::Config(_))
    ));
    assert!(matches!(
        VectorEnv::<BaseState>::new(config(2, 2, 0, 0)),
        Err(GameError::Config(_))
    ));
    let mut env = VectorEnv::<BaseState>::new(config(2, 2, 0, 1)).unwrap();
    let mut small = Arrays::new::<BaseState>(1, 2);
    assert!(matches!(
        env.reset(None, small.buffers()),
        Err(GameError::Config(_))
    ));
}

/// The spec covers the observation, and over random games every bounded
/// feature stays in `[0, scale]` and no feature is negative.
fn spec_bounds<G: Observed>(players: u8) {
    let spec = G::observation_spec(players as usize).unwrap();
    assert_eq!(spec.features.len(), G::OBSERVATION_SIZE);
    for (i, f) in spec.features.iter().enumerate() {
        assert_eq!(f.offset, i);
        assert!(f.scale > 0.0);
    }
    let mut names: Vec<&str> = spec.features.iter().map(|f| f.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), G::OBSERVATION_SIZE, "names are unique");
    let mut obs = vec![0.0; G::OBSERVATION_SIZE];
    let mut legal = ActionList::new();
    let mut rng = SplitMix64::new(3);
    for seed in 0..40 {
        let mut g = G::new_game(&Config {
            num_players: players,
            seed,
            turn_cap: 100,
        })
        .unwrap();
        loop {
            for p in 0..players {
                g.observation(p, &mut obs);
                for f in &spec.features {
                    let x = obs[f.offset];
                    assert!(x >= 0.0, "{} = {x}", f.name);
                    if f.bounded {
                        assert!(x <= f.scale, "{} = {x} > {}", f.name, f.scale);
                    }
                }
            }
            if g.is_terminal() {
                break;
            }
            g.legal_actions(&mut legal);
            let a = legal.as_slice()[rng.below(legal.len() as u64) as usize];
            g.apply(a).unwrap();
        }
    }
}

#[test]
fn spec_base() {
    spec_bounds::<BaseState>(2);
    spec_bounds::<BaseState>(4);
    assert!(BaseState::observation_spec(5).is_err());
}

#[test]
fn spec_duel() {
    spec_bounds::<DuelState>(2);
    assert!(DuelState::observation_spec(3).is_err());
}

#[test]
fn spec_marvel() {
    spec_bounds::<MarvelState>(2);
    spec_bounds::<MarvelState>(4);
}

/// Named features read the values the docs give them.
#[test]
fn spec_names_match_the_state() {
    let g = BaseState::new_game(&Config {
        num_players: 3,
        seed: 5,
        turn_cap: 100,
    })
    .unwrap();
    let spec = BaseState::observation_spec(3).unwrap();
    let at = |name: &str| {
        spec.features
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .offset
    };
    let mut obs = vec![0.0; BaseState::OBSERVATION_SIZE];
    g.observation(0, &mut obs);
    assert_eq!(obs[at("bank.w")], 5.0);
    assert_eq!(obs[at("bank.gold")], 5.0);
    assert_eq!(obs[at("deck.l1")], 36.0);
    assert_eq!(obs[at("deck.l3")], 16.0);
    assert_eq!(obs[at("noble3.present")], 1.0);
    assert_eq!(obs[at("noble4.present")], 0.0);
    assert_eq!(obs[at("phase.main")], 1.0);
    assert_eq!(obs[at("players.3")], 1.0);
    assert_eq!(obs[at("board.l2.0.level")], 2.0);
    assert_eq!(obs[at("seat2.tokens.w")], 0.0);
    assert_eq!(obs[at("rounds")], 0.0);

    let d = DuelState::new_game(&Config::default()).unwrap();
    let spec = DuelState::observation_spec(2).unwrap();
    let at = |name: &str| {
        spec.features
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .offset
    };
    let mut obs = vec![0.0; DuelState::OBSERVATION_SIZE];
    d.observation(0, &mut obs);
    assert_eq!(obs[at("phase.main")], 1.0);
    assert_eq!(obs[at("pyramid.0.present")], 1.0);
    assert_eq!(obs[at("pyramid.0.level")], 1.0);
    assert_eq!(obs[at("pyramid.11.level")], 3.0);
    assert_eq!(obs[at("rounds")], 0.0);

    let m = MarvelState::new_game(&Config::default()).unwrap();
    let spec = MarvelState::observation_spec(2).unwrap();
    let at = |name: &str| {
        spec.features
            .iter()
            .find(|f| f.name == name)
            .unwrap()
            .offset
    };
    let mut obs = vec![0.0; MarvelState::OBSERVATION_SIZE];
    m.observation(1, &mut obs);
    assert_eq!(obs[at("board.l3.3.present")], 1.0);
    assert_eq!(obs[at("board.l3.3.level")], 3.0);
    assert_eq!(obs[at("phase.main")], 1.0);
    assert_eq!(obs[at("players.2")], 1.0);
}

#[test]
fn normalized_observations_are_divided_by_the_scales() {
    let mut raw_env = VectorEnv::<MarvelState>::new(config(3, 2, 8, 1)).unwrap();
    let mut cfg = config(3, 2, 8, 1);
    cfg.normalize = true;
    let mut norm_env = VectorEnv::<MarvelState>::new(cfg).unwrap();
    let mut raw = Arrays::new::<MarvelState>(3, 2);
    let mut norm = Arrays::new::<MarvelState>(3, 2);
    raw_env.reset(None, raw.buffers()).unwrap();
    norm_env.reset(None, norm.buffers()).unwrap();
    let inv = MarvelState::observation_spec(2).unwrap().inverse_scales();
    let mut rng = SplitMix64::new(0);
    for _ in 0..50 {
        for (k, (&r, &x)) in raw.obs.iter().zip(&norm.obs).enumerate() {
            assert_eq!(r * inv[k % MarvelState::OBSERVATION_SIZE], x);
        }
        assert_eq!(raw.mask, norm.mask);
        let acts = pick::<MarvelState>(&raw, &mut rng);
        raw_env.step(&acts, raw.buffers()).unwrap();
        norm_env.step(&acts, norm.buffers()).unwrap();
    }
    assert!(norm.obs.iter().any(|&x| x != 0.0 && x != 1.0));
}

#[test]
fn check_actions_reports_what_step_would() {
    let n = 6;
    let mut env = VectorEnv::<DuelState>::new(config(n, 2, 7, 2)).unwrap();
    let mut a = Arrays::new::<DuelState>(n, 2);
    env.reset(None, a.buffers()).unwrap();
    let mut rng = SplitMix64::new(3);
    let mut refused = [0; 3];
    for round in 0..300 {
        let mut acts = pick::<DuelState>(&a, &mut rng);
        // Now and then one or two bad ids: illegal, or out of range.
        for _ in 0..(round % 3) {
            let i = rng.below(n as u64) as usize;
            acts[i] = match rng.below(3) {
                0 => -1,
                1 => DuelState::NUM_ACTIONS as i64 + 2,
                _ => rng.below(DuelState::NUM_ACTIONS as u64) as i64,
            };
        }
        if round % 50 == 7 {
            acts.pop();
        }
        let checked = env.check_actions(&acts);
        let before = a.clone();
        let stepped = env.step(&acts, a.buffers());
        assert_eq!(format!("{checked:?}"), format!("{stepped:?}"));
        match stepped {
            Ok(()) => refused[0] += 1,
            Err(GameError::IllegalAction(_)) => refused[1] += 1,
            Err(_) => refused[2] += 1,
        }
        if stepped.is_err() {
            assert_eq!(a, before, "a refused step changes nothing");
        }
    }
    assert!(refused.iter().all(|&k| k > 10), "{refused:?}");
}

#[test]
fn a_step_on_a_driver_thread_gives_the_same_arrays() {
    use splendor::env::{Driver, Waited};
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    let want = history::<MarvelState>(2, vec![None, Some(BotSpec::Greedy)], 120);
    let n = 133; // five chunks, the last one short
    let mut cfg = config(n, 2, 99, 2);
    cfg.opponents = vec![None, Some(BotSpec::Greedy)];
    let env = Arc::new(Mutex::new(VectorEnv::<MarvelState>::new(cfg).unwrap()));
    let arrays = Arc::new(Mutex::new(Arrays::new::<MarvelState>(n, 2)));
    {
        let mut a = arrays.lock().unwrap();
        env.lock().unwrap().reset(None, a.buffers()).unwrap();
    }
    let driver = Driver::<Result<(), GameError>>::new("test-env-driver").unwrap();
    let mut rng = SplitMix64::new(5);
    let mut got = vec![arrays.lock().unwrap().clone()];
    for _ in 0..120 {
        let acts = pick::<MarvelState>(&arrays.lock().unwrap(), &mut rng);
        let (env, theirs) = (Arc::clone(&env), Arc::clone(&arrays));
        let posted = driver.post(Box::new(move || {
            env.lock()
                .unwrap()
                .step(&acts, theirs.lock().unwrap().buffers())
        }));
        assert!(posted.is_ok());
        match driver.wait(Duration::from_secs(60)) {
            Waited::Done(Ok(Ok(()))) => {}
            _ => panic!("the step did not finish"),
        }
        got.push(arrays.lock().unwrap().clone());
    }
    assert_eq!(got, want);
}

#[test]
fn a_cancelled_bot_stop_makes_long_searches_answer_at_once() {
    let n = 2;
    let mut cfg = config(n, 2, 4, 1);
    cfg.opponents = vec![None, Some(BotSpec::parse("mcts:600s").unwrap())];
    let mut env = VectorEnv::<BaseState>::new(cfg).unwrap();
    let mut a = Arrays::new::<BaseState>(n, 2);
    env.reset(None, a.buffers()).unwrap();
    env.bot_stop().cancel();
    let start = std::time::Instant::now();
    for _ in 0..3 {
        let acts = pick::<BaseState>(&a, &mut SplitMix64::new(1));
        env.step(&acts, a.buffers()).unwrap();
        assert!(a.player.iter().all(|&p| p == 0), "the bot moved");
        check_rows(&env, &a);
    }
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
}
