"""What the table endpoints answer: a seat's (or a spectator's) snapshot of a game, and the
links of a new table."""

from __future__ import annotations

import json

from splendor import render
from splendor.web import models as m
from splendor.web import notes
from splendor.web.boards import board_svg, board_text, public, view_json
from splendor.web.games import Game
from splendor.web.picks import action_picks
from splendor.web.store import GameRow
from splendor.web.tables import NewTokens


def link(base: str, game_id: str, token: str) -> str:
    """The page's link for ``token``: the page's address ``base`` (absolute, ending in
    ``/``), the game and the token in the fragment, which browsers never send."""
    return f"{base}#game={game_id}&token={token}"


def table_links(game: Game, tokens: NewTokens, base: str) -> m.NewTable:
    """A new table's answer: one secret link per human seat but the open ones, the
    spectators', the host's and the invitation's (``base``: the page's address)."""
    return m.NewTable(
        game_id=game.game_id,
        seats=[
            m.SeatLink(
                seat=s,
                role="ai" if s in game.ai_seats else "human",
                token=t,
                link=None if t is None else link(base, game.game_id, t),
                open=t is None and s not in game.ai_seats,
                name=game.name(s),
            )
            for s, t in enumerate(tokens.seats)
        ],
        spectator=m.SpectatorLink(
            token=tokens.spectator, link=link(base, game.game_id, tokens.spectator)
        ),
        host=m.TokenLink(token=tokens.host, link=link(base, game.game_id, tokens.host)),
        invite=None
        if tokens.invite is None
        else m.TokenLink(token=tokens.invite, link=link(base, game.game_id, tokens.invite)),
    )


def snapshot(
    game: Game, viewer: int | None, row: GameRow | None = None, access: str = "seat"
) -> m.GameSnapshot:
    """What ``viewer`` (None: a spectator, or the host) sees of ``game``: nothing it may
    not see (``row``: the game's row, for its seats' changes and its rematch)."""
    state = game.state
    variant = str(state.variant)
    view = json.loads(view_json(game, state, viewer))
    legal = []
    if viewer is not None and game.current == viewer:
        legal = notes.legal_actions(state, variant, str(view.get("phase", "main")), action_picks)
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
        access="seat" if viewer is not None else ("host" if access == "host" else "spectator"),
        seat=viewer,
        seats=[
            m.SeatRole(seat=s, role="ai" if s in game.ai_seats else "human", name=game.name(s))
            for s in range(game.players)
        ],
        version=game.version,
        ai_seats=game.ai_seats,
        bot=game.bot,
        current=game.current,
        step=game.steps,
        thinking=game.thinking,
        last=last,
        view=view,
        svg=board_svg(game, state, viewer),
        text=board_text(game, state, viewer),
        legal=legal,
        result=game.result(),
        log=game.log_for(viewer),
        can_undo=game.can_undo(viewer),
        seating=0 if row is None else row.seating,
        next=None if row is None else row.next_game,
        scores=notes.scores(
            render.board_of(state, render.PUBLIC if public(game, viewer) else viewer)
        ),
        place_notes=notes.place_notes(variant, view),
    )
