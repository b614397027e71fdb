"""A terminal game: a person against the bots.

Each turn the board is redrawn (the screen is cleared and ANSI colours used
only when the output is a terminal). On the person's turn they type an
action's text (``take wug``, ``buy 1.2``) or id; ``help`` lists the legal
actions, ``save FILE`` / ``load FILE`` store and restore the game,
``quit`` leaves. Bad input is reported and asked again; the game is never
lost to a typo.
"""

from __future__ import annotations

import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import splendor
from splendor import _core
from splendor.errors import SplendorError

CLEAR = "\x1b[2J\x1b[H"
BOLD = "\x1b[1m"
DIM = "\x1b[2m"
GREEN = "\x1b[32m"
RED = "\x1b[31m"
RESET = "\x1b[0m"

HELP = """commands:
  <action>     play an action by its text (e.g. 'take wug') or its id
  help         list the legal actions
  save FILE    save the game (full state, JSON)
  load FILE    load a saved game
  quit         leave the game"""

Bot = _core.RandomBot | _core.GreedyBot | _core.MctsBot

_SEAT_LINE = re.compile(r"^\W?seat (\d+):")
_BLIND_CARD = re.compile(r"#\d+[^,]*?\s*\(blind\)")


def redact(board: str, viewer: int) -> str:
    """The board picture with the other seats' blind reserves hidden.

    ``str(state)`` pictures the full state, including cards only their owner
    may see; a person playing against the bots must not see them. Lines are
    attributed to the seat whose ``seat N:`` line they follow.
    """
    out = []
    seat: int | None = None
    for line in board.splitlines():
        m = _SEAT_LINE.match(line)
        if m:
            seat = int(m.group(1))
        elif seat is not None and seat != viewer:
            line = _BLIND_CARD.sub("?? (blind)", line)
        out.append(line)
    return "\n".join(out) + ("\n" if board.endswith("\n") else "")


def make_bot(spec: str, seed: int) -> Bot:
    """A bot from a spec: ``random``, ``greedy``, ``mcts``, ``mcts:N`` or ``mcts:Ts``.

    Raises:
        ConfigError: The spec is not one of those.
    """
    s = spec.strip().lower()
    if s == "random":
        return _core.RandomBot(seed=seed)
    if s == "greedy":
        return _core.GreedyBot(seed=seed)
    if s == "mcts":
        return _core.MctsBot(seed=seed)
    if s.startswith("mcts:"):
        arg = s[5:]
        try:
            seconds = float(arg[:-1]) if arg.endswith("s") else None
            iterations = None if arg.endswith("s") else int(arg)
        except ValueError:
            pass
        else:
            # MctsBot itself rejects zero or negative budgets (ConfigError).
            return _core.MctsBot(iterations=iterations, time_limit=seconds, seed=seed)
    raise splendor.ConfigError(
        f"unknown bot {spec!r}: expected random, greedy, mcts, mcts:N or mcts:Ts"
    )


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
            self.bots[seat] = make_bot(self.bot_spec, self.seed + 1 + seat)
        return self.bots[seat]

    def draw(self) -> None:
        if self.color:
            self.stdout.write(CLEAR)
        else:
            self.say("=" * 60)
        self.say(redact(str(self.state), self.seat))
        scores = ", ".join(
            f"{'you' if p == self.seat else f'bot {p}'} {s}"
            for p, s in enumerate(self.state.scores())
        )
        self.say(self.style(f"scores: {scores}", BOLD))
        for line in self.last[-self.state.num_players * 3 :]:
            self.say(self.style(line, DIM))

    def read(self) -> str | None:
        self.stdout.write(self.style("your move> ", GREEN))
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        return line.strip()

    def list_legal(self) -> None:
        self.say("legal actions:")
        for a in self.state.legal_actions():
            self.say(f"  {int(a):4d}  {a}")

    def load(self, path: str) -> None:
        with open(path, encoding="utf-8") as f:
            state = splendor.from_json(f.read())
        if self.seat >= state.num_players:
            raise splendor.ConfigError(
                f"seat {self.seat} does not exist in this {state.num_players}-player game"
            )
        self.state = state
        self.bots.clear()
        self.last.append(f"loaded {path}")

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
                if line.isdigit():
                    action = self.state.action_from_id(int(line))
                else:
                    action = self.state.action_from_text(line)
                self.state.apply(action)
                self.last.append(f"you: {action}")
                return True
            except (SplendorError, OSError) as e:
                self.say(self.style(f"{e} (type 'help' for the legal actions)", RED))

    def bot_turn(self, player: int) -> None:
        action = self.bot_for(player).act(self.state)
        self.state.apply(action)
        self.last.append(f"bot {player}: {action}")

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
            self.say(self.style(f"you lose: won by {winners} ({outcome.reason})", RED))
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
    variant: str = "base",
    players: int = 2,
    bot: str = "mcts:1000",
    seat: int = 0,
    seed: int = 0,
    load: str | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    color: bool | None = None,
) -> int:
    """Runs a terminal game; returns the exit status.

    Raises:
        ConfigError: A bad variant, player count, seat or bot spec.
    """
    out = stdout if stdout is not None else sys.stdout
    inp = stdin if stdin is not None else sys.stdin
    use_color = out.isatty() if color is None else color
    make_bot(bot, seed)  # fail early on a bad spec
    state = splendor.new_game(variant, players=players, seed=seed)
    session = Session(state, seat, bot, inp, out, use_color, seed)
    if load is not None:
        session.load(load)
    if not 0 <= seat < session.state.num_players:
        raise splendor.ConfigError(
            f"seat must be between 0 and {session.state.num_players - 1}, got {seat}"
        )
    return session.run()
