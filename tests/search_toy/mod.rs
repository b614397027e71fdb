//! A small hidden-information game to test the generic search without any
//! real variant: "hidden Nim".
//!
//! A counter starts at `START`. Each player holds up to `HAND` cards hidden
//! from the others; cards have values 1..=3 (card id `c` is worth
//! `c % 3 + 1`). The mover plays one card from hand (action id = card id),
//! the counter drops by its value (not below 0), and the mover draws the top
//! of the deck. Bringing the counter to 0 wins. If every hand is empty first,
//! the game is a stalled shared win. Deck order and the opponents' hands are
//! hidden, so search must determinize.

#![allow(dead_code)]

use splendor::game::MAX_PLAYERS;
use splendor::game::{Action, ActionList, Config, EndReason, Game, GameError, Outcome, Player};
use splendor::rng::SplitMix64;

pub const CARDS: usize = 24;
pub const HAND: usize = 3;
pub const START: u8 = 21;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nim {
    pub players: u8,
    pub current: u8,
    pub counter: u8,
    pub turn: u32,
    pub winner: Option<u8>,
    pub stalled: bool,
    /// `hands[p][..hand_len[p]]`, in the order drawn.
    pub hands: [[u8; HAND]; MAX_PLAYERS],
    pub hand_len: [u8; MAX_PLAYERS],
    /// `deck[top..]` is the deck, `deck[top]` on top.
    pub deck: [u8; CARDS],
    pub top: u8,
    /// Test-only switch: `determinize` returns the true state, i.e. a search
    /// that cheats. Used to show the no-leak test can fail.
    pub leaky: bool,
}

pub fn value(card: u8) -> u8 {
    card % 3 + 1
}

impl Nim {
    fn draw(&mut self, p: usize) {
        if (self.top as usize) < CARDS && (self.hand_len[p] as usize) < HAND {
            self.hands[p][self.hand_len[p] as usize] = self.deck[self.top as usize];
            self.hand_len[p] += 1;
            self.top += 1;
        }
    }

    pub fn hand(&self, p: usize) -> &[u8] {
        &self.hands[p][..self.hand_len[p] as usize]
    }
}

impl Game for Nim {
    const VARIANT: &'static str = "nim";
    const NUM_ACTIONS: usize = CARDS;
    const OBSERVATION_SIZE: usize = 1;

    fn new_game(config: &Config) -> Result<Self, GameError> {
        if !(2..=4).contains(&config.num_players) {
            return Err(GameError::Config(format!(
                "nim takes 2-4 players, got {}",
                config.num_players
            )));
        }
        let mut deck = [0u8; CARDS];
        for (i, c) in deck.iter_mut().enumerate() {
            *c = i as u8;
        }
        SplitMix64::new(config.seed).shuffle(&mut deck);
        let mut s = Nim {
            players: config.num_players,
            current: 0,
            counter: START,
            turn: 0,
            winner: None,
            stalled: false,
            hands: [[0; HAND]; MAX_PLAYERS],
            hand_len: [0; MAX_PLAYERS],
            deck,
            top: 0,
            leaky: false,
        };
        for _ in 0..HAND {
            for p in 0..s.players as usize {
                s.draw(p);
            }
        }
        Ok(s)
    }

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn current_player(&self) -> Option<Player> {
        (self.winner.is_none() && !self.stalled).then_some(self.current)
    }

    fn legal_actions(&self, out: &mut ActionList) {
        out.clear();
        if self.is_terminal() {
            return;
        }
        let p = self.current as usize;
        let mut h = self.hands[p];
        let h = &mut h[..self.hand_len[p] as usize];
        h.sort_unstable();
        for &c in h.iter() {
            out.push(Action(c as u16));
        }
    }

    fn apply_unchecked(&mut self, a: Action) {
        let p = self.current as usize;
        let len = self.hand_len[p] as usize;
        let Some(i) = self.hands[p][..len].iter().position(|&c| c as u16 == a.0) else {
            return;
        };
        self.hands[p].copy_within(i + 1..len, i);
        self.hand_len[p] -= 1;
        self.counter = self.counter.saturating_sub(value(a.0 as u8));
        self.turn += 1;
        if self.counter == 0 {
            self.winner = Some(p as u8);
            return;
        }
        self.draw(p);
        // Skip players with empty hands; all empty ends the game.
        for k in 1..=self.players as usize {
            let q = (p + k) % self.players as usize;
            if self.hand_len[q] > 0 {
                self.current = q as u8;
                return;
            }
        }
        self.stalled = true;
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(w) = self.winner {
            return Some(Outcome {
                winners: 1 << w,
                reason: EndReason::Points,
                num_players: self.players,
            });
        }
        self.stalled.then_some(Outcome {
            winners: (1u8 << self.players) - 1,
            reason: EndReason::Stalled,
            num_players: self.players,
        })
    }

    fn scores(&self) -> [i32; MAX_PLAYERS] {
        [0; MAX_PLAYERS]
    }

    fn determinize(&self, observer: Player, rng: &mut SplitMix64) -> Self {
        let mut s = *self;
        if s.leaky {
            return s;
        }
        let mut pool: Vec<u8> = s.deck[s.top as usize..].to_vec();
        for p in 0..s.players as usize {
            if p != observer as usize {
                pool.extend_from_slice(s.hand(p));
            }
        }
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        let mut it = pool.into_iter();
        for p in 0..s.players as usize {
            if p != observer as usize {
                for i in 0..s.hand_len[p] as usize {
                    s.hands[p][i] = it.next().unwrap_or(0);
                }
            }
        }
        for i in s.top as usize..CARDS {
            s.deck[i] = it.next().unwrap_or(0);
        }
        s
    }

    fn heuristic(&self, _player: Player) -> f32 {
        if let Some(o) = self.outcome() {
            return o.returns()[_player as usize] as f32;
        }
        0.5
    }

    fn action_text(a: Action) -> String {
        format!("play {}", a.0)
    }

    fn parse_action(text: &str) -> Result<Action, GameError> {
        text.strip_prefix("play ")
            .and_then(|n| n.parse().ok())
            .filter(|&n: &u16| (n as usize) < CARDS)
            .map(Action)
            .ok_or_else(|| GameError::InvalidAction(format!("bad action `{text}`")))
    }

    fn observation(&self, _player: Player, out: &mut [f32]) {
        if let Some(x) = out.first_mut() {
            *x = self.counter as f32;
        }
    }

    fn to_json(&self, _viewer: Option<Player>) -> String {
        format!("{{\"turn\":{}}}", self.turn)
    }

    fn from_json(_text: &str) -> Result<Self, GameError> {
        Err(GameError::InvalidState("nim has no JSON loader".into()))
    }

    fn render(&self) -> String {
        format!("counter {} current {}", self.counter, self.current)
    }
}

/// A 2-player state with the given counter, mover hand and opponent hand;
/// the deck holds the other cards in ascending order.
pub fn position(counter: u8, mine: &[u8], theirs: &[u8]) -> Nim {
    let mut s = Nim::new_game(&Config::default()).expect("2 players is valid");
    s.counter = counter;
    s.hand_len = [0; MAX_PLAYERS];
    for (p, h) in [mine, theirs].iter().enumerate() {
        for (i, &c) in h.iter().enumerate() {
            s.hands[p][i] = c;
        }
        s.hand_len[p] = h.len() as u8;
    }
    let mut rest: Vec<u8> = (0..CARDS as u8)
        .filter(|c| !mine.contains(c) && !theirs.contains(c))
        .collect();
    s.top = (CARDS - rest.len()) as u8;
    for (i, c) in rest.drain(..).enumerate() {
        s.deck[s.top as usize + i] = c;
    }
    s
}
