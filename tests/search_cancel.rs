//! The stop token: a search, a bot's move and a match stop soon after it is
//! set from another thread, and what they return is still sound.

use splendor::cancel::Cancel;
use splendor::game::{ActionList, Config, Game};
use splendor::search::{
    play_match, play_match_cancellable, search, search_cancellable, Bot, BotSpec, MatchConfig,
    MctsBot, MctsMove, SearchConfig,
};
use splendor::variants::base::BaseState;
use std::time::{Duration, Instant};

fn opening() -> BaseState {
    BaseState::new_game(&Config::default()).unwrap()
}

/// Runs `work(&token)` while another thread sets the token after `after`;
/// returns the output and how long the work ran past the cancel.
fn cancel_after<T: Send>(after: Duration, work: impl FnOnce(&Cancel) -> T + Send) -> (T, Duration) {
    let token = Cancel::new();
    std::thread::scope(|s| {
        let t = &token;
        let canceller = s.spawn(move || {
            std::thread::sleep(after);
            t.cancel();
            Instant::now()
        });
        let out = work(&token);
        let end = Instant::now();
        let cancelled_at = canceller.join().unwrap();
        (out, end.saturating_duration_since(cancelled_at))
    })
}

#[test]
fn a_search_stops_in_every_thread() {
    let s = opening();
    for threads in [1, 2, 3] {
        let cfg = SearchConfig {
            iterations: 0,
            time_limit: Some(600.0),
            threads,
            ..SearchConfig::default()
        };
        let (r, late) = cancel_after(Duration::from_millis(100), |c| {
            search_cancellable(&s, &cfg, c)
        });
        let r = r.unwrap();
        assert!(
            late < Duration::from_millis(300),
            "{threads} threads: {late:?}"
        );
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        assert!(legal.contains(r.action));
        assert!(r.iterations >= threads as u64);
    }
    // An iteration budget stops too, short of its end.
    let cfg = SearchConfig {
        iterations: 1 << 40,
        ..SearchConfig::default()
    };
    let (r, late) = cancel_after(Duration::from_millis(50), |c| {
        search_cancellable(&s, &cfg, c)
    });
    assert!(r.unwrap().iterations < 1 << 40);
    assert!(late < Duration::from_millis(300), "{late:?}");
}

#[test]
fn a_token_that_is_never_set_changes_nothing() {
    let s = opening();
    let cfg = SearchConfig {
        iterations: 500,
        threads: 2,
        ..SearchConfig::default()
    };
    assert_eq!(
        search_cancellable(&s, &cfg, &Cancel::new()).unwrap(),
        search(&s, &cfg).unwrap()
    );
}

#[test]
fn a_bot_move_splits_into_seed_and_search() {
    let s = opening();
    let cfg = SearchConfig {
        iterations: 200,
        ..SearchConfig::default()
    };
    let mut whole = MctsBot::new(cfg.clone()).unwrap();
    let mut split = MctsBot::new(cfg.clone()).unwrap();
    for _ in 0..3 {
        let a = whole.act(&s).unwrap();
        let mv = split.begin_move(&s).unwrap();
        assert!(matches!(mv, MctsMove::Search(_)));
        assert_eq!(mv.finish(&s, &Cancel::new()).unwrap(), a);
    }
    // A bot resumed from its stream plays on as the original.
    let mut resumed = MctsBot::with_stream(cfg, whole.stream()).unwrap();
    assert_eq!(resumed.act(&s).unwrap(), whole.act(&s).unwrap());
}

#[test]
fn a_match_stops_inside_a_search_and_keeps_the_finished_games() {
    // Every move searches for ten minutes: only the token can end this.
    let slow = BotSpec::parse("mcts:600s").unwrap();
    let cfg = MatchConfig {
        bots: vec![slow, BotSpec::Greedy],
        games: 4,
        threads: 2,
        ..MatchConfig::default()
    };
    let (r, late) = cancel_after(Duration::from_millis(150), |c| {
        play_match_cancellable::<BaseState>(&cfg, &mut |_, _| true, c)
    });
    let r = r.unwrap();
    assert_eq!(r.games, 0);
    assert!(late < Duration::from_millis(300), "{late:?}");

    // Quick games: some finish before the stop, and they make the result.
    let cfg = MatchConfig {
        bots: vec![BotSpec::Random, BotSpec::Greedy],
        games: 1 << 40,
        threads: 2,
        ..MatchConfig::default()
    };
    let mut reported = 0;
    let (r, late) = cancel_after(Duration::from_millis(150), |c| {
        play_match_cancellable::<BaseState>(
            &cfg,
            &mut |done, _| {
                reported = done;
                true
            },
            c,
        )
    });
    let r = r.unwrap();
    assert!(
        r.games > 0 && r.games == reported as u64,
        "{} {reported}",
        r.games
    );
    assert_eq!(r.bots.iter().map(|b| b.games).sum::<u64>(), 2 * r.games);
    assert!(late < Duration::from_millis(300), "{late:?}");
}

#[test]
fn progress_is_not_called_after_it_said_stop() {
    let cfg = MatchConfig {
        bots: vec![BotSpec::Random, BotSpec::Greedy],
        games: 200,
        threads: 4,
        ..MatchConfig::default()
    };
    let mut calls = 0;
    let r = play_match::<BaseState>(&cfg, &mut |_, _| {
        calls += 1;
        false
    });
    assert!(r.is_err());
    assert_eq!(calls, 1);
}

/// A watch that says stop on its third check, counting the checks and the
/// threads they ran on.
fn stop_on_third_check() -> (
    Cancel,
    std::sync::Arc<std::sync::Mutex<Vec<std::thread::ThreadId>>>,
) {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let token = Cancel::watched(Duration::from_millis(2), move || {
        let mut log = log.lock().unwrap();
        log.push(std::thread::current().id());
        log.len() < 3
    });
    (token, seen)
}

#[test]
fn the_calling_thread_watches_a_search_and_a_match() {
    let me = std::thread::current().id();
    let s = opening();
    let cfg = SearchConfig {
        iterations: 0,
        time_limit: Some(600.0),
        threads: 3,
        ..SearchConfig::default()
    };
    let (token, seen) = stop_on_third_check();
    let start = Instant::now();
    let r = search_cancellable(&s, &cfg, &token).unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(r.iterations >= 3);
    assert_eq!(*seen.lock().unwrap(), vec![me; 3]);

    let cfg = MatchConfig {
        bots: vec![BotSpec::parse("mcts:600s").unwrap()],
        games: 4,
        threads: 2,
        ..MatchConfig::default()
    };
    let (token, seen) = stop_on_third_check();
    let start = Instant::now();
    let r = play_match_cancellable::<BaseState>(&cfg, &mut |_, _| true, &token).unwrap();
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(r.games, 0);
    assert_eq!(*seen.lock().unwrap(), vec![me; 3]);
}
