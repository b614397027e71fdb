"""The rules of the base game (docs/base.md, Phases and the turn): which actions are legal
and what an action does, on the plain state of :mod:`splendor.reference.base.state`.
"""

from __future__ import annotations

from itertools import product

from splendor.reference.base import actions as A
from splendor.reference.base.cards import CARDS, GOLD, NOBLES, NUM_LEVELS, SLOTS, Card
from splendor.reference.base.state import (
    MAX_RESERVED,
    TOKEN_LIMIT,
    WINNING_POINTS,
    BaseCore,
    PlayerState,
    Reserve,
)

GoldVector = tuple[int, int, int, int, int]


def can_afford(player: PlayerState, bonuses: list[int], card: Card) -> bool:
    """Whether a payment exists: the tokens missing over all colours are covered by gold."""
    short = sum(max(0, card.cost[c] - bonuses[c] - player.tokens[c]) for c in range(5))
    return short <= player.tokens[GOLD]


def payments(player: PlayerState, card: Card) -> list[GoldVector]:
    """Every way ``player`` can pay exactly for ``card``, in ascending pay-id order.

    A payment is the gold used per colour; the rest of each reduced cost is paid
    with that colour's tokens.
    """
    bonuses = player.bonuses()
    need = [max(0, card.cost[c] - bonuses[c]) for c in range(5)]
    gold = player.tokens[GOLD]
    ranges = [range(max(0, need[c] - player.tokens[c]), min(need[c], gold) + 1) for c in range(5)]
    out: list[GoldVector] = []
    for w, u, g, r, k in product(*ranges):
        if w + u + g + r + k <= gold:
            out.append((w, u, g, r, k))
    return out


class BaseRules(BaseCore):
    """The rules of the base game over its state (no input checking here)."""

    # ----------------------------------------------------------------- queries

    def buy_target(self, a: int) -> Card | None:
        """The card a buy action (face-up or reserved) refers to, if it exists."""
        if A.BUY_UP <= a < A.BUY_RESERVED:
            level, slot = divmod(a - A.BUY_UP, SLOTS)
            card = self.board[level][slot]
            return None if card is None else CARDS[card]
        if A.BUY_RESERVED <= a < A.RETURN:
            index = a - A.BUY_RESERVED
            reserved = self.mover().reserved
            return CARDS[reserved[index].card] if index < len(reserved) else None
        return None

    def qualifying_nobles(self) -> list[int]:
        """Displayed nobles whose requirement the mover's bonuses meet, ascending id."""
        bonuses = self.mover().bonuses()
        return sorted(
            n for n in self.nobles if all(NOBLES[n].req[c] <= bonuses[c] for c in range(5))
        )

    def legal_ids(self) -> list[int]:
        """The legal action ids, ascending."""
        if self.phase == "main":
            return self._main_ids()
        if self.phase == "pay":
            assert self.pending is not None
            card = self.buy_target(self.pending)
            assert card is not None
            return [A.PAY_ID[v] for v in payments(self.mover(), card)]
        if self.phase == "return":
            return [A.RETURN + c for c in range(6) if self.mover().tokens[c] > 0]
        if self.phase == "noble":
            return [A.NOBLE + n for n in self.qualifying_nobles()]
        return []

    def _main_ids(self) -> list[int]:
        me = self.mover()
        ids: list[int] = []
        available = [c for c in range(5) if self.bank[c] > 0]
        if len(available) >= 3:
            ids += [A.TAKE3 + i for i, t in enumerate(A.TRIPLES) if set(t) <= set(available)]
        else:
            ids += [A.TAKE2 + i for i, t in enumerate(A.PAIRS) if set(t) <= set(available)]
            ids += [A.TAKE1 + c for c in available]
        ids += [A.DOUBLE + c for c in range(5) if self.bank[c] >= 4]
        if len(me.reserved) < MAX_RESERVED:
            ids += [
                A.slot_id(A.RESERVE_UP, level + 1, slot)
                for level in range(NUM_LEVELS)
                for slot in range(SLOTS)
                if self.board[level][slot] is not None
            ]
            ids += [A.RESERVE_DECK + level for level in range(NUM_LEVELS) if self.decks[level]]
        bonuses = me.bonuses()
        for a in range(A.BUY_UP, A.RETURN):
            card = self.buy_target(a)
            if card is not None and can_afford(me, bonuses, card):
                ids.append(a)
        return ids or [A.PASS]

    def end_reason(self) -> str | None:
        """Why the game would end after the turn just completed (step 3 of the turn)."""
        n = self.num_players
        if self.turn > 0 and self.turn % n == 0 and max(self.scores()) >= WINNING_POINTS:
            return "points"
        if self.passes >= n:
            return "stalled"
        if self.turn >= self.turn_cap * n:
            return "truncated"
        return None

    def winners(self) -> tuple[int, ...]:
        """Most points; among those, fewest bought cards; still tied: all of them."""
        scores = self.scores()
        best = max(scores)
        top = [p for p in range(self.num_players) if scores[p] == best]
        fewest = min(len(self.players[p].cards) for p in top)
        return tuple(p for p in top if len(self.players[p].cards) == fewest)

    # ----------------------------------------------------------------- effects

    def apply_unchecked(self, a: int) -> None:
        """Play a legal action id."""
        if self.phase == "main":
            self._main(a)
        elif self.phase == "pay":
            assert self.pending is not None
            buy, self.pending = self.pending, None
            self._complete_buy(buy, A.GOLD_VECTORS[a - A.PAY])
        elif self.phase == "return":
            colour = a - A.RETURN
            self.mover().tokens[colour] -= 1
            self.bank[colour] += 1
            self._after_action()
        elif self.phase == "noble":
            self._claim(a - A.NOBLE)
            self._finish_turn()

    def _main(self, a: int) -> None:
        me = self.mover()
        # Passes are counted when the main action is chosen, so that a state in the
        # middle of a turn (e.g. a noble choice after a pass) still knows it.
        self.passes = self.passes + 1 if a == A.PASS else 0
        if a < A.RESERVE_UP:
            self._take(a)
        elif a < A.BUY_UP:
            self._reserve(a)
        elif a < A.RETURN:
            card = self.buy_target(a)
            assert card is not None
            ways = payments(me, card)
            if len(ways) == 1:
                self._complete_buy(a, ways[0])
                return
            self.phase = "pay"
            self.pending = a
            if a >= A.BUY_RESERVED:
                # The card is shown as it is bought: a blind reserve is public now.
                i = a - A.BUY_RESERVED
                me.reserved[i] = Reserve(me.reserved[i].card, hidden=False)
            return
        self._after_action()

    def _take(self, a: int) -> None:
        if a < A.TAKE2:
            colours: tuple[int, ...] = A.TRIPLES[a - A.TAKE3]
        elif a < A.TAKE1:
            colours = A.PAIRS[a - A.TAKE2]
        elif a < A.DOUBLE:
            colours = (a - A.TAKE1,)
        else:
            colours = (a - A.DOUBLE, a - A.DOUBLE)
        for c in colours:
            self.bank[c] -= 1
            self.mover().tokens[c] += 1

    def _reserve(self, a: int) -> None:
        me = self.mover()
        if a < A.RESERVE_DECK:
            level, slot = divmod(a - A.RESERVE_UP, SLOTS)
            card = self.board[level][slot]
            assert card is not None
            self.board[level][slot] = self._draw(level)
            me.reserved.append(Reserve(card, hidden=False))
        else:
            card = self._draw(a - A.RESERVE_DECK)
            assert card is not None
            me.reserved.append(Reserve(card, hidden=True))
        if self.bank[GOLD] > 0:
            self.bank[GOLD] -= 1
            me.tokens[GOLD] += 1

    def _complete_buy(self, a: int, gold: GoldVector) -> None:
        me = self.mover()
        card = self.buy_target(a)
        assert card is not None
        bonuses = me.bonuses()
        for c in range(5):
            coloured = max(0, card.cost[c] - bonuses[c]) - gold[c]
            me.tokens[c] -= coloured
            self.bank[c] += coloured
        me.tokens[GOLD] -= sum(gold)
        self.bank[GOLD] += sum(gold)
        if a < A.BUY_RESERVED:
            level, slot = divmod(a - A.BUY_UP, SLOTS)
            self.board[level][slot] = self._draw(level)
        else:
            del me.reserved[a - A.BUY_RESERVED]
        me.cards.append(card.id)
        me.cards.sort()
        self.phase = "main"
        self._after_action()

    def _after_action(self) -> None:
        """End of turn, steps 1 and 2: token returns, then the noble visit."""
        if self.mover().num_tokens() > TOKEN_LIMIT:
            self.phase = "return"
            return
        nobles = self.qualifying_nobles()
        if len(nobles) >= 2:
            self.phase = "noble"
            return
        if nobles:
            self._claim(nobles[0])
        self._finish_turn()

    def _claim(self, noble: int) -> None:
        self.nobles.remove(noble)
        self.mover().nobles.append(noble)

    def _finish_turn(self) -> None:
        """End of turn, step 3: count the turn, then end the game or pass the turn on."""
        self.turn += 1
        self.phase = "over" if self.end_reason() is not None else "main"
