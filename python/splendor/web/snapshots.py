"""What the table endpoints answer: a seat's (or a spectator's) snapshot of a game, and the
links of a new table."""

from __future__ import annotations

import json

from splendor.web import models as m
from splendor.web.boards import board_svg, board_text, view_json
from splendor.web.games import Game
from splendor.web.picks import action_picks
from splendor.web.tables import NewTokens


def table_links(game: Game, tokens: NewTokens) -> m.NewTable:
    """A new table's answer: one secret link per human seat, and the spectators'."""

    def link(token: str) -> str:
        return f"/#game={game.game_id}&token={token}"

    return m.NewTable(
        game_id=game.game_id,
        seats=[
            m.SeatLink(
                seat=s,
                role="human" if t is not None else "ai",
                token=t,
                link=None if t is None else link(t),
            )
            for s, t in enumerate(tokens.seats)
        ],
        spectator=m.SpectatorLink(token=tokens.spectator, link=link(tokens.spectator)),
    )


def snapshot(game: Game, viewer: int | None) -> m.GameSnapshot:
    """What ``viewer`` (None: a spectator) sees of ``game``: nothing it may not see."""
    state = game.state
    legal = []
    if viewer is not None and game.current == viewer:
        variant = str(state.variant)
        legal = [
            m.LegalAction(id=int(a), text=str(a), picks=action_picks(variant, str(a)))
            for a in state.legal_actions()
        ]
    last = None
    if game.steps:
        i = game.steps - 1
        seat, text = game.last() or (0, "")
        last = m.LastMove(
            index=i, seat=seat, action=text, by_ai=game.is_ai(i), says=game.said_to(i, viewer)
        )
    return m.GameSnapshot(
        game_id=game.game_id,
        variant=state.variant,
        players=game.players,
        viewer=viewer,
        seat=viewer,
        seats=[
            m.SeatRole(seat=s, role="ai" if s in game.ai_seats else "human")
            for s in range(game.players)
        ],
        version=game.version,
        ai_seats=game.ai_seats,
        bot=game.bot,
        current=game.current,
        step=game.steps,
        thinking=game.thinking,
        last=last,
        view=json.loads(view_json(game, state, viewer)),
        svg=board_svg(game, state, viewer),
        text=board_text(game, state, viewer),
        legal=legal,
        result=game.result(),
        log=game.log_for(viewer),
        can_undo=game.can_undo(viewer),
    )
