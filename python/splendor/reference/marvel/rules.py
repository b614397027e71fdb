"""The Marvel rules (docs/marvel.md section 4): legal actions, applying them, the end of a
turn and the outcome, on the plain state of :mod:`splendor.reference.marvel.state`."""

from __future__ import annotations

from splendor.reference.common import Outcome
from splendor.reference.marvel import actions as A
from splendor.reference.marvel.state import (
    AVENGERS_ICONS,
    MAX_RESERVED,
    TOKEN_LIMIT,
    MarvelCore,
    Reserve,
)


class MarvelRules(MarvelCore):
    """The rules of Splendor: Marvel over its state (no input checking here)."""

    # ----- legal actions --------------------------------------------------

    def _card_at(self, a: int) -> int | None:
        """The card a reserve/recruit action refers to, or None."""
        pl = self.players[self.current]
        if A.RECRUIT <= a < A.RECRUIT_RES:
            k = a - A.RECRUIT
            return self.board[k // 4][k % 4]
        if A.RECRUIT_RES <= a < A.RETURN:
            k = a - A.RECRUIT_RES
            return pl.reserved[k].card if k < len(pl.reserved) else None
        return None

    def payments(self, card: int) -> list[int]:
        """Indices into GREY_VECTORS of the ways the current player can pay ``card``."""
        tokens = self.players[self.current].tokens
        bon = self.bonuses(self.current)
        need = [max(0, self.data.cards[card].cost[c] - bon[c]) for c in range(5)]
        out = []
        for i, g in enumerate(A.GREY_VECTORS):
            if sum(g) > tokens[A.GREY]:
                continue
            if all(g[c] <= need[c] and need[c] - g[c] <= tokens[c] for c in range(5)):
                out.append(i)
        return out

    def can_afford(self, card: int) -> bool:
        """Whether the current player can pay ``card``: grey covers every shortfall."""
        tokens = self.players[self.current].tokens
        bon = self.bonuses(self.current)
        cost = self.data.cards[card].cost
        short = sum(max(0, cost[c] - bon[c] - tokens[c]) for c in range(5))
        return short <= tokens[A.GREY]

    def qualifying_locations(self, p: int) -> list[int]:
        """Displayed locations whose requirement the bonuses of ``p`` meet."""
        bon = self.bonuses(p)
        return [
            loc
            for loc in self.locations
            if all(bon[c] >= self.data.locations[loc].requirement[c] for c in range(5))
        ]

    def legal_ids(self) -> list[int]:
        """Legal action ids, ascending."""
        if self.phase == "over":
            return []
        pl = self.players[self.current]
        if self.phase == "pay":
            assert self.pending is not None
            card = self._card_at(self.pending)
            assert card is not None
            return [A.PAY + i for i in self.payments(card)]
        if self.phase == "return":
            return [A.RETURN + c for c in range(6) if pl.tokens[c] > 0]
        if self.phase == "location":
            return [A.LOCATION + loc for loc in self.qualifying_locations(self.current)]
        out: list[int] = []
        avail = [c for c in range(5) if self.bank[c] > 0]
        if len(avail) >= 3:
            out += [A.TAKE3 + i for i, t in enumerate(A.TRIPLES) if all(c in avail for c in t)]
        else:
            out += [A.TAKE2D + i for i, t in enumerate(A.PAIRS) if all(c in avail for c in t)]
            out += [A.TAKE1 + c for c in avail]
        out += [A.TAKE2S + c for c in range(5) if self.bank[c] >= 4]
        if len(pl.reserved) < MAX_RESERVED:
            out += [A.RESERVE + k for k in range(12) if self.board[k // 4][k % 4] is not None]
            out += [A.RESERVE_DECK + lv for lv in range(3) if self.decks[lv]]
        for a in range(A.RECRUIT, A.RETURN):
            card = self._card_at(a)
            if card is not None and self.can_afford(card):
                out.append(a)
        if not out:
            out.append(A.PASS)
        return out

    # ----- applying actions -----------------------------------------------

    def apply_unchecked(self, a: int) -> None:
        """Play a legal action id (no check: for playouts)."""
        self._apply(a)

    def _apply(self, a: int) -> None:
        p = self.current
        pl = self.players[p]
        if self.phase == "pay":
            assert self.pending is not None
            self._recruit(self.pending, A.GREY_VECTORS[a - A.PAY])
            return
        if self.phase == "return":
            pl.tokens[a - A.RETURN] -= 1
            self.bank[a - A.RETURN] += 1
            self._continue_turn()
            return
        if self.phase == "location":
            self._take_location(a - A.LOCATION)
            self._end_turn(passed=False)
            return
        if a < A.TAKE2D:
            self._take(A.TRIPLES[a])
        elif a < A.TAKE1:
            self._take(A.PAIRS[a - A.TAKE2D])
        elif a < A.TAKE2S:
            self._take((a - A.TAKE1,))
        elif a < A.RESERVE:
            self._take((a - A.TAKE2S, a - A.TAKE2S))
        elif a < A.RECRUIT:
            if a < A.RESERVE_DECK:
                k = a - A.RESERVE
                card = self.board[k // 4][k % 4]
                assert card is not None
                self._refill(k)
                pl.reserved.append(Reserve(card, False))
            else:
                pl.reserved.append(Reserve(self.decks[a - A.RESERVE_DECK].pop(0), True))
            if self.bank[A.GREY] > 0:
                self.bank[A.GREY] -= 1
                pl.tokens[A.GREY] += 1
            self._continue_turn()
        elif a < A.RETURN:
            card = self._card_at(a)
            assert card is not None
            pays = self.payments(card)
            if len(pays) == 1:
                self._recruit(a, A.GREY_VECTORS[pays[0]])
            else:
                self.phase = "pay"
                self.pending = a
                if a >= A.RECRUIT_RES:
                    # The card is shown as it is recruited: a blind reserve is public now.
                    i = a - A.RECRUIT_RES
                    pl.reserved[i] = Reserve(pl.reserved[i].card, hidden=False)
        else:
            self._end_turn(passed=True)

    def _take(self, colours: tuple[int, ...]) -> None:
        for c in colours:
            self.bank[c] -= 1
            self.players[self.current].tokens[c] += 1
        self._continue_turn()

    def _refill(self, k: int) -> None:
        lv, s = divmod(k, 4)
        self.board[lv][s] = self.decks[lv].pop(0) if self.decks[lv] else None

    def _recruit(self, a: int, grey: tuple[int, ...]) -> None:
        p = self.current
        pl = self.players[p]
        if a < A.RECRUIT_RES:
            k = a - A.RECRUIT
            card = self.board[k // 4][k % 4]
            assert card is not None
            self._refill(k)
        else:
            card = pl.reserved.pop(a - A.RECRUIT_RES).card
        info = self.data.cards[card]
        bon = self.bonuses(p)
        for c in range(5):
            paid = max(0, info.cost[c] - bon[c]) - grey[c]
            pl.tokens[c] -= paid
            self.bank[c] += paid
        pl.tokens[A.GREY] -= sum(grey)
        self.bank[A.GREY] += sum(grey)
        pl.cards.append(card)
        pl.cards.sort()
        if info.time_stone and pl.tokens[A.GREEN] == 0:
            pl.tokens[A.GREEN] = 1
            self.bank[A.GREEN] -= 1
        mine = self.icons(p)
        if self.avengers is None:
            if mine >= AVENGERS_ICONS:
                self.avengers = p
        elif self.avengers != p and mine > self.icons(self.avengers):
            self.avengers = p
        self.pending = None
        self._continue_turn()

    def _take_location(self, loc: int) -> None:
        self.locations.remove(loc)
        pl = self.players[self.current]
        pl.locations.append(loc)
        pl.locations.sort()

    def _continue_turn(self) -> None:
        """End-of-turn steps after the main action: returns, then a location."""
        if sum(self.players[self.current].tokens) > TOKEN_LIMIT:
            self.phase = "return"
            return
        q = self.qualifying_locations(self.current)
        if len(q) >= 2:
            self.phase = "location"
            return
        if q:
            self._take_location(q[0])
        self._end_turn(passed=False)

    def _end_turn(self, passed: bool) -> None:
        n = self.num_players
        self.turn += 1
        self.passes = self.passes + 1 if passed else 0
        self.pending = None
        if (
            (self.turn % n == 0 and any(self.meets_gauntlet(p) for p in range(n)))
            or self.passes >= n
            or self.turn >= self.turn_cap * n
        ):
            self.phase = "over"
        else:
            self.phase = "main"
            self.current = self.turn % n

    # ----- the end ----------------------------------------------------------

    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""
        if self.phase != "over":
            return None
        n = self.num_players
        meets = [p for p in range(n) if self.meets_gauntlet(p)]
        if self.turn % n == 0 and meets:
            reason = "gauntlet"
        elif self.passes >= n:
            reason = "stalled"
        else:
            return Outcome((), "truncated", n)
        pool = meets or list(range(n))

        def key(p: int) -> tuple[int, int, int]:
            return (self.points(p), int(self.avengers == p), -len(self.players[p].cards))

        best = max(key(p) for p in pool)
        return Outcome(tuple(p for p in pool if key(p) == best), reason, n)
