"""Splendor Duel (2 players): the reference engine's public state class.

The rules live in :mod:`splendor.reference.duel_state`; this module adds setup, the
checked API of docs/contract.md (Python surface), JSON, observations, the heuristic
and determinization. Every method that can fail leaves the state unchanged.
"""

from __future__ import annotations

import copy

import numpy as np
import numpy.typing as npt

from splendor.errors import ConfigError, IllegalActionError, InvalidActionError
from splendor.reference import duel_actions as A
from splendor.reference.base_json import parse_json
from splendor.reference.common import (
    Action,
    Outcome,
    action_id,
    check_int,
    dump_json,
    id_argument,
)
from splendor.reference.duel_data import (
    ABILITIES,
    CARDS,
    KINDS,
    LEVEL_IDS,
    SLOTS,
    SPIRAL,
    TOKEN_TOTALS,
)
from splendor.reference.duel_explain import explain_illegal
from splendor.reference.duel_json import from_obj, to_obj
from splendor.reference.duel_state import MAX_TURN_CAP, PHASES, DuelCore, PlayerState
from splendor.reference.rng import SplitMix64

NUM_ACTIONS = A.NUM_ACTIONS
OBSERVATION_SIZE = 696
VARIANT = "duel"
__all__ = ["NUM_ACTIONS", "OBSERVATION_SIZE", "DuelState", "new_duel_game"]


def _action(a: int) -> Action:
    return Action(VARIANT, a, A.action_text(a))


def _card_features(card: int | None) -> list[float]:
    """[present, level, points, crowns, bonus one-hot 7, bonus_count, abilities 5, cost 6]."""
    if card is None:
        return [0.0] * 23
    c = CARDS[card]
    bonus = [0.0] * 7
    bonus[c.bonus] = 1.0
    abilities = [1.0 if a in c.abilities else 0.0 for a in ABILITIES]
    head = [1.0, float(c.level), float(c.points), float(c.crowns)]
    return [*head, *bonus, float(c.bonus_count), *abilities, *(float(x) for x in c.cost)]


class DuelState(DuelCore):
    """A game of Splendor Duel. Build one with :func:`new_duel_game` or :meth:`from_json`."""

    variant = VARIANT
    num_actions = NUM_ACTIONS
    num_players = 2
    observation_size = OBSERVATION_SIZE

    # ------------------------------------------------------------- construction

    @classmethod
    def new(cls, players: int = 2, seed: int = 0, turn_cap: int = 100) -> DuelState:
        """Deal a new game exactly as docs/duel.md (Setup) orders the draws."""
        if players != 2 or isinstance(players, bool):
            raise ConfigError(f"Splendor Duel is for exactly 2 players, not {players!r}")
        seed = check_int(seed, "seed", 0, 2**64 - 1)
        turn_cap = check_int(turn_cap, "turn_cap", 1, MAX_TURN_CAP)
        rng = SplitMix64(seed)
        decks = []
        for level in range(3):
            deck = list(LEVEL_IDS[level])
            rng.shuffle(deck)
            decks.append(deck)
        bag = [k for k in range(7) for _ in range(TOKEN_TOTALS[k])]
        rng.shuffle(bag)
        s = cls.__new__(cls)
        s.board = [None] * 25
        for i, k in enumerate(bag):
            s.board[SPIRAL[i]] = k
        s.chance = rng.next_u64()
        s.bag = [0] * 7
        s.pyramid = [list[int | None](decks[lv][: SLOTS[lv]]) for lv in range(3)]
        s.decks = [decks[lv][SLOTS[lv] :] for lv in range(3)]
        s.players = [PlayerState(), PlayerState(privileges=1)]
        s.royals = {0, 1, 2, 3}
        s.turn, s.turn_cap, s.current, s.phase = 0, turn_cap, 0, "main"
        s.pending_buy, s.pending_card, s.royals_due = None, None, 0
        s.again, s.replenished = False, False
        s.outcome_reason, s.outcome_winners = None, ()
        return s

    @classmethod
    def from_json(cls, text: str) -> DuelState:
        """Load and validate a full state (InvalidStateError naming the problem)."""
        state = cls.__new__(cls)
        from_obj(parse_json(text), state)
        return state

    def clone(self) -> DuelState:
        return copy.deepcopy(self)

    def __copy__(self) -> DuelState:
        # A shallow copy would share the players' token lists with this state.
        return self.clone()

    # ------------------------------------------------------------------ actions

    def action_from_id(self, i: int) -> Action:
        """The Action of id ``i`` (InvalidActionError when out of range or not an int)."""
        return _action(id_argument(i, NUM_ACTIONS))

    def action_from_text(self, text: str) -> Action:
        """Parse action text (InvalidActionError naming the text on failure)."""
        if not isinstance(text, str):
            raise InvalidActionError(f"action text must be a str, not {type(text).__name__}")
        return _action(A.parse_action(text))

    def _resolve(self, a: Action | int | str) -> int:
        found = action_id(a, NUM_ACTIONS, VARIANT)
        if found is None:
            assert isinstance(a, str)
            return A.parse_action(a)
        return found

    def legal_action_ids(self) -> list[int]:
        return self.legal_ids()

    def legal_actions(self) -> list[Action]:
        return [_action(a) for a in self.legal_ids()]

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        mask = np.zeros(NUM_ACTIONS, dtype=np.bool_)
        mask[self.legal_ids()] = True
        return mask

    def apply(self, a: Action | int | str) -> None:
        """Play an action given as an Action, an id or text; the state is unchanged on error."""
        i = self._resolve(a)
        if self.phase == "over":
            raise IllegalActionError(f"the game is over; `{A.action_text(i)}` cannot be played")
        if i not in self.legal_ids():
            raise IllegalActionError(
                f"`{A.action_text(i)}` is not legal now: {explain_illegal(self, i)}"
            )
        self.apply_unchecked(i)

    def child(self, a: Action | int | str) -> DuelState:
        out = self.clone()
        out.apply(a)
        return out

    # ------------------------------------------------------------------ queries

    @property
    def current_player(self) -> int:
        """The seat to decide; -1 when the game is over."""
        return -1 if self.phase == "over" else self.current

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def outcome(self) -> Outcome | None:
        if self.phase != "over" or self.outcome_reason is None:
            return None
        return Outcome(self.outcome_winners, self.outcome_reason, 2)

    def returns(self) -> list[float]:
        outcome = self.outcome()
        return [0.0, 0.0] if outcome is None else outcome.returns()

    def _seat(self, player: object) -> int:
        return check_int(player, "player", 0, 1)

    def heuristic(self, player: int) -> float:
        """Value in [0, 1] for ``player`` (docs/duel.md, Heuristic)."""
        p = self._seat(player)
        if self.phase == "over":
            if not self.outcome_winners:
                return 0.5
            return 1.0 if p in self.outcome_winners else 0.0

        def progress(q: int) -> float:
            pl = self.players[q]
            pts = min(1.0, pl.points() / 20)
            crowns = min(1.0, pl.crowns() / 10)
            colour = min(1.0, max(pl.colour_points()) / 10)
            gold = pl.tokens[6]
            gems = sum(pl.tokens) - gold
            return (
                max(pts, crowns, colour)
                + 0.3 * (pts + crowns + colour) / 3
                + 0.03 * sum(pl.bonuses())
                + 0.004 * gems
                + 0.008 * gold
                + 0.01 * pl.privileges
            )

        value = 0.5 + 0.5 * (progress(p) - progress(1 - p))
        return float(np.float32(min(0.99, max(0.01, value))))

    def observation(self, player: int) -> npt.NDArray[np.float32]:
        """Float32 vector of length 696 (docs/duel.md, Observation) from ``player``'s seat."""
        me = self._seat(player)
        out: list[float] = []
        for k in self.board:
            cell = [0.0] * 7
            if k is not None:
                cell[k] = 1.0
            out += cell
        out += [float(x) for x in self.bag]
        for level in range(3):
            for card in self.pyramid[level]:
                out += _card_features(card)
        out += [float(len(d)) for d in self.decks]
        out += [1.0 if r in self.royals else 0.0 for r in range(4)]
        out.append(float(self.supply()))
        for q in (me, 1 - me):
            pl = self.players[q]
            out += [float(x) for x in pl.tokens]
            out += [float(x) for x in pl.bonuses()]
            out += [float(x) for x in pl.colour_points()]
            out += [float(pl.points()), float(pl.crowns()), float(pl.privileges)]
            out += [1.0 if r in pl.royals else 0.0 for r in range(4)]
            out.append(float(len(pl.cards)))
            for i in range(3):
                if i >= len(pl.reserved):
                    out += [0.0] * 24
                elif pl.reserved[i].hidden and q != me:
                    out += [0.0, 1.0, float(pl.reserved[i].level)] + [0.0] * 21
                else:
                    out += [1.0, *_card_features(pl.reserved[i].card)]
        out += [1.0 if ph == self.phase else 0.0 for ph in PHASES]
        out += [float(self.replenished), float(self.again), float(self.royals_due)]
        pending = self.pending_card
        if pending is None and self.phase == "pay":
            pending = self.buy_card(self.pending_buy or 0)
        out += _card_features(pending)
        out.append(float(self.turn // 2))
        assert len(out) == OBSERVATION_SIZE
        return np.array(out, dtype=np.float32)

    def to_json(self, player: int | None = None) -> str:
        """Canonical JSON of the full state, or of ``player``'s view (hidden things null)."""
        viewer = None if player is None else self._seat(player)
        return dump_json(to_obj(self, viewer))

    def determinize(self, player: int, *, seed: int) -> DuelState:
        """A full state consistent with ``player``'s view (docs/duel.md, Chance).

        Per level, the opponent's blind reserves of that level and the deck are
        pooled, sorted, shuffled with ``SplitMix64(seed)`` and dealt back (reserves
        first, then the deck from the top); then the bag's chance seed is redrawn.
        """
        observer = self._seat(player)
        rng = SplitMix64(check_int(seed, "seed", 0, 2**64 - 1))
        out = self.clone()
        opp = out.players[1 - observer]
        for level in range(3):
            slots = [r for r in opp.reserved if r.hidden and r.level == level + 1]
            pool = sorted([r.card for r in slots] + out.decks[level])
            rng.shuffle(pool)
            for r, card in zip(slots, pool[: len(slots)], strict=True):
                r.card = card
            out.decks[level] = pool[len(slots) :]
        out.chance = rng.next_u64()
        return out

    # ------------------------------------------------------------------ dunders

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DuelState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        lines = [
            f"Splendor Duel, turn {self.turn}, phase {self.phase}, "
            + ("game over" if self.phase == "over" else f"player {self.current} to play"),
            "    a b c d e",
        ]
        for r in range(5):
            cells = [self.board[r * 5 + c] for c in range(5)]
            row = " ".join("." if k is None else KINDS[k] for k in cells)
            lines.append(f"  {r + 1}  {row}")
        lines.append(f"bag {self.bag}, privileges in supply {self.supply()}")
        for level in (2, 1, 0):
            row = " ".join("--" if c is None else f"{c:2}" for c in self.pyramid[level])
            lines.append(f"level {level + 1} [{row}] deck {len(self.decks[level])}")
        for p, pl in enumerate(self.players):
            tokens = " ".join(f"{KINDS[k]}{pl.tokens[k]}" for k in range(7))
            lines.append(
                f"player {p}: {pl.points()} pts, {pl.crowns()} crowns, tokens {tokens},"
                f" privileges {pl.privileges}, cards {len(pl.cards)}, reserved {len(pl.reserved)}"
            )
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return (
            f"<DuelState turn={self.turn} phase={self.phase}"
            f" current={self.current_player} scores={self.scores()}>"
        )


def new_duel_game(players: int = 2, seed: int = 0, turn_cap: int = 100) -> DuelState:
    """Deal a new Duel game (ConfigError on a bad player count, seed or turn cap)."""
    return DuelState.new(players, seed, turn_cap)


assert CARDS and MAX_TURN_CAP
