//! The conservation invariants of the rules digest (§6 item 13), checked
//! directly on the packed state (the conformance tests call this after every
//! decision; `from_json` checks the same things on untrusted input).

use super::cards::*;
use super::state::*;

impl DuelState {
    /// Checks token, card, royal and privilege conservation and the limits;
    /// returns the first broken invariant.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut board_total = 0u32;
        for (k, &total) in TOKEN_TOTALS.iter().enumerate() {
            for j in k + 1..7 {
                if self.board[k] & self.board[j] != 0 {
                    return Err(format!("a cell holds kinds {k} and {j}"));
                }
            }
            let n = u32::from(lane(self.bag, k))
                + self.board[k].count_ones()
                + u32::from(lane(self.tokens[0], k))
                + u32::from(lane(self.tokens[1], k));
            if n != u32::from(total) {
                return Err(format!("{n} tokens of kind {k}"));
            }
            board_total += self.board[k].count_ones();
        }
        if board_total > 25 || self.occupied() >> 25 != 0 {
            return Err("tokens outside the board".into());
        }
        if self.privileges[0] + self.privileges[1] > 3 {
            return Err("more than 3 privileges held".into());
        }
        let mut seen = 0u128;
        let mut count = 0;
        let mut see = |c: u8| {
            if c != NONE && (c as usize) < NUM_CARDS {
                seen |= 1 << c;
                count += 1;
            }
        };
        self.pyramid.iter().for_each(|&c| see(c));
        for l in 0..3 {
            self.deck(l).iter().for_each(|&c| see(c));
        }
        for p in 0..2 {
            self.reserved[p][..self.reserved_len[p] as usize]
                .iter()
                .for_each(|&c| see(c));
            for c in 0..NUM_CARDS {
                if self.cards[p] & (1 << c) != 0 {
                    see(c as u8);
                }
            }
        }
        if count != NUM_CARDS || seen != (1u128 << NUM_CARDS) - 1 {
            return Err(format!(
                "{count} card places for {} distinct cards",
                seen.count_ones()
            ));
        }
        let royals = self.royals_available.count_ones()
            + self.royals_owned[0].count_ones()
            + self.royals_owned[1].count_ones();
        if royals != 4 || self.royals_available & (self.royals_owned[0] | self.royals_owned[1]) != 0
        {
            return Err("royals not conserved".into());
        }
        for p in 0..2 {
            if self.reserved_len[p] > 3 || self.royals_owned[p].count_ones() > 2 {
                return Err(format!("player {p} over a limit"));
            }
            let on_turn = p == self.current as usize && self.phase != Phase::Over;
            if !on_turn && self.token_total(p) > 10 {
                return Err(format!(
                    "player {p} holds {} tokens off turn",
                    self.token_total(p)
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::game::Config;
    use crate::variants::duel::DuelState;

    #[test]
    fn each_broken_invariant_is_reported() {
        let s = DuelState::new(&Config::default()).expect("valid config");
        assert_eq!(s.check_invariants(), Ok(()));
        let mut t = s;
        t.bag += 1;
        assert!(t.check_invariants().is_err());
        let mut t = s;
        t.pyramid[1] = t.pyramid[0];
        assert!(t.check_invariants().is_err());
        let mut t = s;
        t.privileges = [2, 2];
        assert!(t.check_invariants().is_err());
        let mut t = s;
        t.royals_owned[0] = 1;
        assert!(t.check_invariants().is_err());
        let mut t = s;
        t.tokens[1] = 11;
        t.board[0] &= !0b11111111111;
        assert!(t.check_invariants().is_err());
    }
}
