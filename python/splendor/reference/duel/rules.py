"""The rules of Splendor Duel (docs/duel.md, Phases and the turn): which actions are legal
and what an action does, on the plain state of :mod:`splendor.reference.duel.state`.
"""

from __future__ import annotations

from splendor.reference.duel import actions as A
from splendor.reference.duel.board import LINES
from splendor.reference.duel.cards import CARDS, GOLD, PEARL, ROYALS, SLOT_OFFSET, SLOTS, WILD
from splendor.reference.duel.state import MAX_RESERVED, TOKEN_LIMIT, DuelCore, Reserve


class DuelRules(DuelCore):
    """The rules of Splendor Duel over its state (no input checking here)."""

    # ---------------------------------------------------------------- queries

    def buy_card(self, buy_id: int) -> int | None:
        if buy_id < A.BUY_RESERVED:
            return self.slot_card(buy_id - A.BUY)
        i = buy_id - A.BUY_RESERVED
        reserved = self.players[self.current].reserved
        return reserved[i].card if i < len(reserved) else None

    def need(self, p: int, card: int) -> list[int]:
        """Tokens to pay per kind w u g r k p before gold: bonuses never reduce pearls."""
        bonus = self.players[p].bonuses()
        cost = CARDS[card].cost
        return [max(0, cost[k] - bonus[k]) for k in range(5)] + [cost[PEARL]]

    def payments(self, p: int, card: int) -> list[int]:
        """Payment indices of every valid gold vector for ``card``."""
        need = self.need(p, card)
        tokens = self.players[p].tokens
        return [
            i
            for i, g in enumerate(A.PAYMENTS)
            if sum(g) <= tokens[GOLD] and all(g[k] <= need[k] <= g[k] + tokens[k] for k in range(6))
        ]

    def can_buy(self, p: int, card: int | None) -> bool:
        if card is None:
            return False
        if CARDS[card].bonus == WILD and not self.players[p].real_colours():
            return False
        return bool(self.payments(p, card))

    def takeable(self) -> set[int]:
        return {c for c in range(25) if self.board[c] is not None and self.board[c] != GOLD}

    def can_reserve_something(self) -> bool:
        cards = any(c is not None for row in self.pyramid for c in row)
        return cards or any(self.decks)

    # ------------------------------------------------------------ legal lists

    def legal_ids(self) -> list[int]:
        p = self.current
        me = self.players[p]
        out: list[int] = []
        if self.phase == "main":
            takeable = self.takeable()
            out += [i for i, cells in enumerate(LINES) if all(c in takeable for c in cells)]
            if me.privileges > 0 and not self.replenished:
                out += [A.PRIVILEGE + c for c in sorted(takeable)]
            if sum(self.bag) > 0 and not self.replenished:
                out.append(A.REPLENISH)
            if len(me.reserved) < MAX_RESERVED and self.can_reserve_something():
                out += [A.GOLD + c for c in range(25) if self.board[c] == GOLD]
            out += [A.BUY + s for s in range(12) if self.can_buy(p, self.slot_card(s))]
            reserved = enumerate(me.reserved)
            out += [A.BUY_RESERVED + i for i, r in reserved if self.can_buy(p, r.card)]
            if not out:
                out.append(A.PASS)
        elif self.phase == "reserve":
            out += [A.RESERVE + s for s in range(12) if self.slot_card(s) is not None]
            out += [A.RESERVE_DECK + lv for lv in range(3) if self.decks[lv]]
        elif self.phase == "pay":
            card = self.buy_card(self.pending_buy or 0)
            if card is not None:
                out += [A.PAY + i for i in self.payments(p, card)]
        elif self.phase == "joker":
            out += [A.JOKER + c for c in sorted(me.real_colours())]
        elif self.phase == "token":
            colour = CARDS[self.pending_card or 0].bonus
            out += [A.TOKEN + c for c in range(25) if self.board[c] == colour]
        elif self.phase == "steal":
            opp = self.players[1 - p].tokens
            out += [A.STEAL + k for k in range(6) if opp[k] > 0]
        elif self.phase == "royal":
            out += [A.ROYAL + r for r in sorted(self.royals)]
        elif self.phase == "discard":
            out += [A.DISCARD + k for k in range(7) if me.tokens[k] > 0]
        return out

    # ---------------------------------------------------------------- effects
    def take_cells(self, p: int, cells: tuple[int, ...] | list[int]) -> list[int]:
        """Move the tokens of ``cells`` to player ``p``; return the kinds taken."""
        kinds = []
        for c in cells:
            k = self.board[c]
            if k is not None:
                self.players[p].tokens[k] += 1
                self.board[c] = None
                kinds.append(k)
        return kinds

    def apply_unchecked(self, a: int) -> None:
        """Play action id ``a``, assumed legal."""
        if self.phase == "over":
            return
        p = self.current
        me = self.players[p]
        if a < A.PRIVILEGE:
            kinds = self.take_cells(p, LINES[a])
            if any(kinds.count(k) == 3 for k in range(5)) or kinds.count(PEARL) >= 2:
                self.gain_privilege(1 - p)
            self.end_turn()
        elif a < A.REPLENISH:
            self.take_cells(p, [a - A.PRIVILEGE])
            me.privileges = max(0, me.privileges - 1)
        elif a == A.REPLENISH:
            self.refill_board()
            self.replenished = True
            self.gain_privilege(1 - p)
        elif a < A.RESERVE:
            self.take_cells(p, [a - A.GOLD])
            self.phase = "reserve"
        elif a < A.BUY:
            if a < A.RESERVE_DECK:
                slot = a - A.RESERVE
                card = self.slot_card(slot)
                level = 0 if slot < 5 else (1 if slot < 9 else 2)
                self.pyramid[level][slot - SLOT_OFFSET[level]] = None
                hidden = False
            else:
                card = self.draw(a - A.RESERVE_DECK)
                hidden = True
            if card is not None and len(me.reserved) < MAX_RESERVED:
                me.reserved.append(Reserve(card, hidden))
            self.end_turn()
        elif a < A.PAY:
            card = self.buy_card(a)
            if card is None:
                return
            options = self.payments(p, card)
            if len(options) > 1:
                self.phase = "pay"
                self.pending_buy = a
                if a >= A.BUY_RESERVED:
                    # The card is shown as it is bought: a blind reserve is public now.
                    i = a - A.BUY_RESERVED
                    me.reserved[i] = Reserve(me.reserved[i].card, hidden=False)
            else:
                self.complete_buy(a, A.PAYMENTS[options[0]])
        elif a < A.TOKEN:
            buy = self.pending_buy or 0
            self.pending_buy = None
            self.complete_buy(buy, A.PAYMENTS[a - A.PAY])
        elif a < A.STEAL:
            self.take_cells(p, [a - A.TOKEN])
            self.after_ability()
        elif a < A.JOKER:
            self.steal(p, a - A.STEAL)
            self.after_ability()
        elif a < A.ROYAL:
            card = self.pending_card or 0
            me.jokers[card] = a - A.JOKER
            self.after_card(card)
        elif a < A.DISCARD:
            if not self.take_royal(a - A.ROYAL):
                self.after_ability()
        elif a < A.PASS:
            k = a - A.DISCARD
            if me.tokens[k] > 0:
                me.tokens[k] -= 1
                self.bag[k] += 1
            if sum(me.tokens) <= TOKEN_LIMIT:
                self.finish_turn()
        else:
            self.end_turn()

    def steal(self, p: int, k: int) -> None:
        if self.players[1 - p].tokens[k] > 0:
            self.players[1 - p].tokens[k] -= 1
            self.players[p].tokens[k] += 1

    def complete_buy(self, buy_id: int, g: tuple[int, ...]) -> None:
        p = self.current
        me = self.players[p]
        card = self.buy_card(buy_id)
        if card is None:
            return
        need = self.need(p, card)
        if buy_id < A.BUY_RESERVED:
            slot = buy_id - A.BUY
            level = 0 if slot < 5 else (1 if slot < 9 else 2)
            self.pyramid[level][slot - SLOT_OFFSET[level]] = None
        else:
            del me.reserved[buy_id - A.BUY_RESERVED]
        for k in range(6):
            paid = need[k] - g[k]
            me.tokens[k] -= paid
            self.bag[k] += paid
        me.tokens[GOLD] -= sum(g)
        self.bag[GOLD] += sum(g)
        before = me.crowns()
        me.cards.add(card)
        after = me.crowns()
        self.royals_due = int(before < 3 <= after) + int(before < 6 <= after)
        self.pending_card = card
        if CARDS[card].bonus == WILD:
            options = sorted(me.real_colours())
            if len(options) > 1:
                self.phase = "joker"
                return
            me.jokers[card] = options[0]
        self.after_card(card)

    def after_card(self, card: int) -> None:
        p = self.current
        info = CARDS[card]
        if "again" in info.abilities:
            self.again = True
        if "token" in info.abilities and info.bonus < WILD:
            cells = [c for c in range(25) if self.board[c] == info.bonus]
            if len(cells) > 1:
                self.phase = "token"
                return
            self.take_cells(p, cells)
        if "steal" in info.abilities and self.begin_steal(p):
            return
        if "privilege" in info.abilities:
            self.gain_privilege(p)
        self.after_ability()

    def begin_steal(self, p: int) -> bool:
        """Steal at once when there is one choice; True when a decision is needed."""
        kinds = [k for k in range(6) if self.players[1 - p].tokens[k] > 0]
        if len(kinds) == 1:
            self.steal(p, kinds[0])
        elif len(kinds) > 1:
            self.phase = "steal"
            return True
        return False

    def take_royal(self, r: int) -> bool:
        """Take royal ``r``; True when its steal needs a decision."""
        p = self.current
        self.royals.discard(r)
        self.players[p].royals.add(r)
        self.royals_due = max(0, self.royals_due - 1)
        abilities = ROYALS[r].abilities
        if "again" in abilities:
            self.again = True
        if "privilege" in abilities:
            self.gain_privilege(p)
        return "steal" in abilities and self.begin_steal(p)

    def after_ability(self) -> None:
        while self.royals_due > 0:
            if not self.royals:
                self.royals_due = 0
            elif len(self.royals) == 1:
                if self.take_royal(min(self.royals)):
                    return
            else:
                self.phase = "royal"
                return
        self.end_turn()

    def end_turn(self) -> None:
        self.pending_card = None
        self.pending_buy = None
        if sum(self.players[self.current].tokens) > TOKEN_LIMIT:
            self.phase = "discard"
            return
        self.finish_turn()

    def finish_turn(self) -> None:
        p = self.current
        me = self.players[p]
        for level in range(3):
            for s in range(SLOTS[level]):
                if self.pyramid[level][s] is None:
                    self.pyramid[level][s] = self.draw(level)
        self.turn += 1
        reason = None
        if me.points() >= 20:
            reason = "points"
        elif me.crowns() >= 10:
            reason = "crowns"
        elif max(me.colour_points()) >= 10:
            reason = "colour"
        elif self.turn >= 2 * self.turn_cap:
            reason = "truncated"
        self.pending_card = None
        self.pending_buy = None
        self.royals_due = 0
        self.replenished = False
        if reason is not None:
            self.outcome_reason = reason
            self.outcome_winners = () if reason == "truncated" else (p,)
            self.phase = "over"
            self.again = False
            return
        if not self.again:
            self.current = 1 - p
        self.again = False
        self.phase = "main"
