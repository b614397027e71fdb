"""A terminal game: a person against the bots.

Each turn the board is redrawn from the person's own view of the game
(``state.to_json(seat)`` through :mod:`splendor.render`), so a card hidden from
them is never on the screen; the screen is cleared and ANSI colours used only
when the output is a terminal. On the person's turn they type an action's text
(``take wug``, ``buy 1.2``) or ``#`` and its id (``#12``: a bare number is
refused, so it is never taken for an id by mistake); ``help`` lists the legal
actions, ``save FILE`` / ``load FILE`` store and restore the game,
``quit`` leaves. Bad input is reported and asked again; the game is never
lost to a typo.
"""

from __future__ import annotations

import re
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import splendor
from splendor import render
from splendor.bots import Bot, make_bot
from splendor.errors import SplendorError

CLEAR = "\x1b[2J\x1b[H"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
GREEN = "\x1b[32m"
RED = "\x1b[31m"
RESET = "\x1b[0m"

HELP = """commands:
  <action>     play an action by its text, e.g. 'take wug' or 'buy 1.2'
  #<id>        play an action by its id, e.g. '#12' (ids are listed by 'help')
  help         show this and the legal actions
  save FILE    save the game (full state, JSON)
  load FILE    load a saved game
  quit         leave the game"""

_CARD_LABEL = re.compile(r"^[1-3]\.[1-5]$")
_RESERVE_LABEL = re.compile(r"^r([1-3])$", re.IGNORECASE)


def read_game(path: str) -> Any:
    """The game saved in ``path`` (a state's JSON, as ``save`` writes it).

    Raises:
        OSError: The system refuses to read the file (missing, a folder, no permission).
        ConfigError: The file is not text.
        InvalidStateError: The text is not a valid saved game.
    """
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise splendor.ConfigError(
            f"cannot load {path}: not a saved game (not UTF-8 text)"
        ) from None
    except OSError as exc:
        raise OSError(f"cannot load {path}: {exc.strerror or exc}") from None
    return splendor.from_json(text)


def not_an_action(line: str, variant: str) -> str | None:
    """Why ``line`` is refused before it reaches the engine, or None.

    A bare number or a card label is not an action: a number could be taken
    for an action id by mistake, so ids are typed as ``#12``.
    """
    if line.isdigit():
        return (
            f"a bare number is not an action: type '#{line}' for action id {line},"
            " or an action's text"
        )
    known = splendor.variant_info().get(variant)
    buy = known.verbs.buy if known else "buy"
    if _CARD_LABEL.match(line):
        return f"{line} names a card: type '{buy} {line}' or 'reserve {line}'"
    m = _RESERVE_LABEL.match(line)
    if m:
        i = m.group(1)
        return f"{line.upper()} names your reserved card {i}: type '{buy} reserved {i}'"
    return None


@dataclass
class Session:
    """One terminal game: the state, the seats and the streams."""

    state: Any
    seat: int
    bot_spec: str
    stdin: TextIO
    stdout: TextIO
    color: bool
    seed: int = 0
    bots: dict[int, Bot] = field(default_factory=dict)
    last: list[str] = field(default_factory=list)

    def style(self, text: str, code: str) -> str:
        return f"{code}{text}{RESET}" if self.color else text

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def bot_for(self, seat: int) -> Bot:
        if seat not in self.bots:
            self.bots[seat] = make_bot(
                self.bot_spec, self.seed + 1 + seat, self.state.variant, self.state.num_players
            )
        return self.bots[seat]

    def names(self) -> dict[int, str]:
        return {p: "you" if p == self.seat else "bot" for p in range(self.state.num_players)}

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.names()[seat]})"

    def draw(self) -> None:
        """The board as this seat sees it: drawn from its view, never the full state."""
        if self.color:
            self.stdout.write(CLEAR)
        else:
            self.say("=" * 60)
        self.say(render.text_board(self.state, self.seat, names=self.names()).rstrip("\n"))
        for line in self.last[-self.state.num_players * 3 :]:
            self.say(self.style(line, DIM))

    def refuse(self, why: str) -> None:
        """Says why the input was not played, wrapped to the board's width."""
        for line in textwrap.wrap(why, render.WIDTH, break_on_hyphens=False):
            self.say(self.style(line, RED))
        self.say("(type 'help' for the legal actions)")

    def read(self) -> str | None:
        self.stdout.write(self.style("your move> ", GREEN))
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        return line.strip()

    def list_legal(self) -> None:
        actions = [f"#{int(a)} {a}" for a in self.state.legal_actions()]
        width = max(len(x) for x in actions) + 2 if actions else 0
        per_line = max(1, render.WIDTH // width) if width else 1
        self.say("legal actions (type the text, or '#' and the id):")
        for i in range(0, len(actions), per_line):
            self.say("  " + "".join(x.ljust(width) for x in actions[i : i + per_line]).rstrip())

    def load(self, path: str) -> None:
        state = read_game(path)
        if self.seat >= state.num_players:
            raise splendor.ConfigError(
                f"seat {self.seat} does not exist in this {state.num_players}-player game"
            )
        self.state = state
        self.bots.clear()
        self.last.append(f"loaded {path} ({state.variant}, {state.num_players} seats)")

    def human_turn(self) -> bool:
        """Reads commands until an action is played; False to end the session."""
        while True:
            line = self.read()
            if line is None or line.lower() in ("quit", "exit", "q"):
                self.say("bye")
                return False
            if not line:
                continue
            word, _, rest = line.partition(" ")
            word = word.lower()
            rest = rest.strip()
            try:
                if word in ("help", "?", "h"):
                    self.say(HELP)
                    self.list_legal()
                    continue
                if word == "save":
                    if not rest:
                        self.say(self.style("usage: save FILE", RED))
                        continue
                    with open(rest, "w", encoding="utf-8") as f:
                        f.write(self.state.to_json())
                    self.say(f"saved to {rest}")
                    continue
                if word == "load":
                    if not rest:
                        self.say(self.style("usage: load FILE", RED))
                        continue
                    self.load(rest)
                    return True
                refused = not_an_action(line, self.state.variant)
                if refused is not None:
                    self.refuse(refused)
                    continue
                if line.startswith("#") and line[1:].strip().isdigit():
                    action = self.state.action_from_id(int(line[1:].strip()))
                else:
                    action = self.state.action_from_text(line)
                self.state.apply(action)
                self.last.append(f"{self.who(self.seat)}: {action}")
                return True
            except (SplendorError, OSError) as e:
                self.refuse(str(e))

    def bot_turn(self, player: int) -> None:
        action = self.bot_for(player).act(self.state)
        self.state.apply(action)
        self.last.append(f"{self.who(player)}: {action}")

    def run(self) -> int:
        """Plays to the end; on Ctrl-C saves the game and returns 130."""
        try:
            return self._play()
        except KeyboardInterrupt:
            return self.interrupted()

    def interrupted(self) -> int:
        """Ctrl-C: saves an unfinished game where the player can find it, says how to go on."""
        self.say()
        if self.state.is_terminal():
            self.say("interrupted")
            return INTERRUPTED
        path = autosave(self.state.to_json())
        if path is None:
            self.say("interrupted; the game could not be saved")
        else:
            self.say(
                f"interrupted: the game is saved to {path}; continue it with\n"
                f"  splendor play --load {path} --bot {self.bot_spec} --seat {self.seat}"
            )
        return INTERRUPTED

    def _play(self) -> int:
        while not self.state.is_terminal():
            player = self.state.current_player
            if player == self.seat:
                self.draw()
                if not self.human_turn():
                    return 0
            else:
                self.bot_turn(player)
        self.draw()
        outcome = self.state.outcome()
        winners = list(outcome.winners)
        if outcome.truncated:
            self.say("the game hit the turn cap: nobody wins")
        elif self.seat in winners:
            shared = " (shared)" if len(winners) > 1 else ""
            self.say(self.style(f"you win{shared}!", GREEN))
        else:
            by = ", ".join(self.who(w) for w in winners)
            self.say(self.style(f"you lose: won by {by} ({outcome.reason})", RED))
        return 0


INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT)."""

AUTOSAVE = "splendor-autosave"


def autosave(text: str) -> str | None:
    """Writes ``text`` to a new ``splendor-autosave*.json`` file; its path, or None.

    The current directory first (where ``--load`` finds it by its short name),
    then the temporary directory; an existing save is never overwritten.
    """
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        for n in range(1000):
            name = f"{AUTOSAVE}.json" if n == 0 else f"{AUTOSAVE}-{n}.json"
            path = folder / name
            try:
                with open(path, "x", encoding="utf-8") as f:
                    f.write(text)
            except FileExistsError:
                continue
            except OSError:
                break
            return name if folder == Path.cwd() else str(path)
    return None


def main(
    *,
    variant: str | None = None,
    players: int | None = None,
    bot: str = "default",
    seat: int = 0,
    seed: int = 0,
    load: str | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    color: bool | None = None,
) -> int:
    """Runs a terminal game; returns the exit status.

    Args:
        variant: The variant of a new game (default ``base``). With ``load``,
            the saved game's variant is played; naming another is an error.
        players: Seats of a new game (default 2); with ``load``, as ``variant``.
        load: A game saved with ``save FILE`` to continue.

    Raises:
        ConfigError: A bad variant, player count, seat or bot spec; a file
            that holds another variant or player count than the one asked for.
        OSError: The system refuses to read the file.
        InvalidStateError: The file is not a saved game.
    """
    out = stdout if stdout is not None else sys.stdout
    inp = stdin if stdin is not None else sys.stdin
    use_color = out.isatty() if color is None else color
    if load is not None:
        state = read_game(load)
        if variant is not None and variant != state.variant:
            raise splendor.ConfigError(
                f"{load} holds a {state.variant} game, not {variant}:"
                " leave out --variant to continue it"
            )
        if players is not None and players != state.num_players:
            raise splendor.ConfigError(
                f"{load} holds a {state.num_players}-player game, not {players}:"
                " leave out --players to continue it"
            )
    else:
        state = splendor.new_game(variant or "base", players=players or 2, seed=seed)
    make_bot(bot, seed, state.variant, state.num_players)  # fail early on a bad spec
    if not 0 <= seat < state.num_players:
        raise splendor.ConfigError(
            f"seat must be between 0 and {state.num_players - 1}, got {seat}"
        )
    session = Session(state, seat, bot, inp, out, use_color, seed)
    if load is not None:
        session.last.append(f"loaded {load} ({state.variant}, {state.num_players} seats)")
    return session.run()
