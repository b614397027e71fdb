"""Typed requests and responses of the JSON API (they generate its OpenAPI schema)."""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from splendor.web.store import MAX_NAME

MAX_BOT_SPEC = 64
"""The longest bot spec any request may carry (the database column holds 64 characters)."""

MAX_SEATS = 4
"""The most AI seats any request may name."""

Seed = Field(default=0, ge=0, lt=2**64, description="Seed of the search (reproducible per seed)")


def display_name(text: str) -> str:
    """A display name as stored: its runs of spaces made one, at most :data:`MAX_NAME`
    characters, no control or invisible characters. It is shown as text everywhere, never
    as markup, so ``<b>Ann</b>`` is a name like any other."""
    name = " ".join(text.split())
    if not name:
        raise ValueError("a name needs a visible character")
    if len(name) > MAX_NAME:
        raise ValueError(f"a name has at most {MAX_NAME} characters, not {len(name)}")
    bad = [c for c in name if unicodedata.category(c) in ("Cc", "Cf", "Co", "Cs", "Cn")]
    if bad:
        raise ValueError(f"a name may not hold control or invisible characters ({bad[0]!r})")
    return name


DisplayName = Annotated[
    str,
    Field(max_length=4 * MAX_NAME, description=f"A display name (at most {MAX_NAME} characters)"),
    AfterValidator(display_name),
]


class Strict(BaseModel):
    """Unknown fields are an error (a typo must not silently change a request)."""

    model_config = ConfigDict(extra="forbid")


class ErrorBody(BaseModel):
    code: str = Field(description="Stable machine-readable code, e.g. `illegal_action`")
    message: str = Field(description="What was wrong, in words")
    status: int


class ErrorResponse(BaseModel):
    """Every error has this shape, whatever the status."""

    error: ErrorBody


class Budget(Strict):
    """How long the AI may think. Both unset: the game's default iterations (the server's
    `default_iterations` for `mcts`, about the same time per move for `net`)."""

    iterations: int | None = Field(default=None, ge=1, description="Search iterations")
    time_limit: float | None = Field(default=None, gt=0, description="Seconds of search")


class MoveRequest(Strict):
    """Ask the AI for a move, given only the view of the player to move."""

    view: dict[str, Any] = Field(
        description="The player's view: a state's `to_json(player)`, parsed. Hidden cards stay"
        " hidden: the server fills them with a determinization of its own."
    )
    bot: str = Field(
        default="default",
        max_length=MAX_BOT_SPEC,
        description="Bot spec: `default` (the strongest AI for the game: `net` where the"
        " package ships a network for it, else `mcts`), `net` (the search guided by the"
        " shipped network), `mcts` (the rollout search), each with its budget from `budget`;"
        " `net:N`, `net:Ts`, `mcts:N`, `mcts:Ts`, `greedy` or `random` (N: digits; T: a"
        " decimal such as 0.5; a `net` budget may add `:batch=B`, B leaves per network"
        " evaluation, between 1 and 256, else the shipped network's own; read by"
        " `splendor.parse_bot_spec`, the limits checked on what it parsed). Network files"
        " (`net:N@PATH`) are refused: the server uses only the networks it ships",
    )
    budget: Budget = Field(default_factory=Budget)
    seed: int = Seed


class Considered(BaseModel):
    id: int
    text: str
    visits: int
    value: float = Field(description="Mean reward, between 0 and 1, for the player to move")


class MoveResponse(BaseModel):
    """The AI's choice and how it got there."""

    action_id: int
    action: str = Field(description="The action's text")
    player: int
    bot: str
    win_estimate: float | None = Field(
        description=(
            "The search's value of the chosen action, between 0 and 1 (None for bots without one)"
        )
    )
    iterations: int | None
    nodes: int | None
    considered: list[Considered] = Field(description="Moves searched, most visited first")
    elapsed: float = Field(description="Seconds spent choosing (search time)")


class LineStep(BaseModel):
    seat: int
    action: str


class TopMove(BaseModel):
    """One of the AI's top moves in a hint."""

    id: int
    text: str
    visits: int
    value: float = Field(description="Its win probability for the seat to move, between 0 and 1")
    says: str = Field(
        description="What it would do, in words (its text where words would name a hidden card)"
    )
    line: list[LineStep] = Field(
        description="The continuation the search expects, this move first (at most 3"
        " decisions), in the seat's own information"
    )


class HintResponse(MoveResponse):
    """A hint: the AI's move, and why (its top moves, each with its expected line)."""

    top: list[TopMove] = Field(
        default_factory=list, description="The AI's three most visited moves, best first"
    )


class NewGame(Strict):
    variant: Literal["base", "duel", "marvel"] = "base"
    players: int = Field(default=2, ge=2, le=4)
    seed: int | None = Field(default=None, ge=0, lt=2**64, description="Deal seed (None: random)")
    ai_seats: list[int] = Field(
        default_factory=list, max_length=MAX_SEATS, description="Seats the AI plays"
    )
    bot: str = Field(
        default="default",
        max_length=MAX_BOT_SPEC,
        description="The AI's bot spec (as in `/api/v1/move`); `default` is the strongest AI"
        " for the game",
    )
    open_seats: list[int] = Field(
        default_factory=list,
        max_length=MAX_SEATS,
        description="Human seats dealt without a link: the invitation's link lets the first"
        " person who opens it claim one",
    )
    names: list[DisplayName | None] = Field(
        default_factory=list,
        max_length=MAX_SEATS,
        description="Display names, by seat (None or missing: none); the AI's seats have none",
    )


class ActionRequest(Strict):
    """Play an action for the token's seat (which must be the seat to decide)."""

    action: int | str = Field(description="An action id or its text (`take wug`, `buy 2.3`)")
    version: int | None = Field(
        default=None,
        ge=0,
        description="The game's version the client saw: another one is 409 `game_changed`",
    )


class UndoRequest(Strict):
    """Take back the token's seat's last decision, at the version the client saw."""

    version: int = Field(
        ge=0,
        description="The game's version the client saw: another one is 409 `game_changed`,"
        " so a retried or doubled undo takes back one decision, never two",
    )


class HintRequest(Strict):
    bot: str | None = Field(
        default=None, max_length=MAX_BOT_SPEC, description="None: the game's AI"
    )
    seed: int = Seed


class SeatLink(BaseModel):
    seat: int
    role: Literal["human", "ai"]
    token: str | None = Field(description="The seat's secret token (None: an AI or open seat)")
    link: str | None = Field(
        description="The page's link for the seat: its address, then `#game=ID&token=T`"
    )
    open: bool = Field(default=False, description="Left open: claimed through the invitation")
    name: str | None = None


class SpectatorLink(BaseModel):
    token: str
    link: str


class TokenLink(BaseModel):
    """A secret token and the page's link that carries it."""

    token: str
    link: str


class NewTable(BaseModel):
    """A table just made: its id, one secret link per human seat (but open ones), the
    spectators', the host's and, when seats are open, the invitation's."""

    game_id: str
    seats: list[SeatLink]
    spectator: SpectatorLink
    host: TokenLink = Field(
        description="The host's link: every seat's state, a seat's link given anew, the"
        " invitation's; it watches as a spectator"
    )
    invite: TokenLink | None = Field(
        description="The invitation's link (None: no open seat): whoever opens it first"
        " claims an open seat"
    )


class SeatRole(BaseModel):
    seat: int
    role: Literal["human", "ai"]
    name: str | None = Field(default=None, description="The seat's display name (as text)")


class HostSeat(BaseModel):
    seat: int
    role: Literal["human", "ai"]
    name: str | None
    state: Literal["open", "taken", "connected", "ai"] = Field(
        description="`open`: no link given yet (the invitation claims it); `taken`: its link"
        " is out; `connected`: its page follows the game now; `ai`: the server plays it"
    )


class HostView(BaseModel):
    """What the host's link shows: every seat's state."""

    game_id: str
    variant: str
    players: int
    over: bool
    next: str | None = Field(description="The rematch's id, once dealt")
    invite: bool = Field(description="An invitation's link is out")
    seats: list[HostSeat]


class SeatToken(BaseModel):
    """A seat's new token: claimed, or given anew by the host (its old one is dead)."""

    game_id: str
    seat: int
    token: str
    link: str


class InviteSeat(BaseModel):
    seat: int
    role: Literal["human", "ai"]
    name: str | None
    open: bool


class InviteView(BaseModel):
    """What the invitation's link shows before a seat is claimed."""

    game_id: str
    variant: str
    players: int
    over: bool
    seats: list[InviteSeat]
    open_seats: int = Field(description="Seats still open")


class NameRequest(Strict):
    name: DisplayName


class NextLink(BaseModel):
    """The token's own token at the rematch: the same seat's person at their new seat."""

    game_id: str
    role: Literal["seat", "spectator", "host"]
    seat: int | None = Field(description="The new seat (None: a spectator's or the host's)")
    token: str
    link: str


class LastMove(BaseModel):
    index: int
    seat: int
    action: str
    by_ai: bool
    says: str = Field(
        default="",
        description="What the decision did, in words, as the viewer may know it (the card"
        " bought or reserved, tokens taken and returned, the noble, royal or location that came)",
    )


class LegalAction(BaseModel):
    id: int
    text: str
    picks: list[str] = Field(
        description="The board places (the SVG's `data-pick` values) that choose this action:"
        ' `["2.3"]` for a buy or a reserve of that card, `["deck 1"]`, `["noble 2"]`;'
        " one `token X` per token of a take (`take wwu`: `token w` twice) in base and Marvel,"
        " one `cell C` per board cell in Duel; none for a choice that is no place of the board"
        " (a payment, a return, a pass)"
    )
    note: str = Field(
        default="",
        description="On a reserve of a face-up card the seat cannot buy (in the main phase):"
        " why not, in the engine's words (`you cannot afford it: you lack 2 red 1 black and"
        " hold 0 gold`); empty otherwise",
    )


class LogEntry(BaseModel):
    """One decision of the game, as every seat saw it."""

    index: int
    seat: int
    action: str
    by_ai: bool
    says: str = Field(default="", description="What the decision did, in words (as `last.says`)")
    win_estimate: float | None = None
    considered: list[Considered] = Field(default_factory=list)


class SeatScore(BaseModel):
    """One seat's score at a glance, as the viewer may see it."""

    seat: int
    points: int = Field(description="The real score (never capped)")
    target: int | None = Field(description="The points that win (base 15, Duel 20, Marvel 16)")
    cards: int = Field(description="Cards bought (recruited)")
    tokens: int = Field(description="Tokens held")
    reserved: int = Field(description="Cards reserved")


class Standing(BaseModel):
    """One seat's place in a finished game."""

    rank: int = Field(description="1 for the winner(s); seats level on everything share a rank")
    seat: int
    points: int
    cards: int = Field(description="Cards bought (recruited), the base game's tie-break")
    name: str | None = Field(default=None, description="The seat's display name (as text)")


class ResultModel(BaseModel):
    winners: list[int]
    reason: str
    returns: list[float]
    standings: list[Standing] = Field(
        default_factory=list, description="Every seat, best first: rank, points, cards"
    )
    decided_by: str = Field(
        default="",
        description="How the winner was decided, in words (the tie-break when points were level)",
    )


class GameSnapshot(BaseModel):
    """One seat's (or a spectator's) picture of a server-side game: nothing it may not see."""

    game_id: str
    variant: str
    players: int
    viewer: int | None = Field(description="The token's seat; None for a spectator")
    access: Literal["seat", "spectator", "host"] = Field(
        default="seat",
        description="What the token is: a seat's, the spectators' or the host's (who watches"
        " as a spectator does and manages the seats)",
    )
    seat: int | None = Field(description="The same as `viewer`")
    seats: list[SeatRole]
    version: int = Field(description="Counts every change of the game (a move, an undo)")
    ai_seats: list[int]
    bot: str
    current: int | None
    step: int = Field(description="Decisions played so far")
    thinking: bool = Field(description="An AI seat is to decide (the server is playing it)")
    last: LastMove | None = Field(description="The last decision (None before the first)")
    view: dict[str, Any] = Field(
        description="The viewer's view (`to_json(viewer)`; a spectator's: the public view"
        " until the game is over, then the whole state)"
    )
    svg: str = Field(description="The viewer's board as SVG")
    text: str = Field(description="The viewer's board as text")
    legal: list[LegalAction] = Field(description="Legal actions when the viewer is to decide")
    result: ResultModel | None
    log: list[LogEntry]
    can_undo: bool
    seating: int = Field(default=0, description="Counts the changes of the seats")
    next: str | None = Field(default=None, description="The rematch's id, once dealt")
    scores: list[SeatScore] = Field(
        default_factory=list, description="Each seat's points, the target, cards, tokens"
    )
    place_notes: dict[str, str] = Field(
        default_factory=dict,
        description="Places of the board (`data-pick`) that no take picks, and how they do"
        " come: the bank's gold (`token y`; Marvel's grey `token s` and green `token t`),"
        " Duel's cells holding gold",
    )


class SavedGame(BaseModel):
    """A whole game as saved: its deal and its decisions (hidden cards included).

    Loading one bounds its fields as dealing a table does (the same bot spec length, the
    same seats), so no path into the server takes a field unbounded."""

    format: Literal["splendor-web-game"] = "splendor-web-game"
    version: Literal[1] = 1
    start: dict[str, Any] = Field(description="The full starting state")
    actions: list[int]
    ai_seats: list[int] = Field(max_length=MAX_SEATS)
    bot: str = Field(max_length=MAX_BOT_SPEC)


class Limits(BaseModel):
    max_iterations: int
    max_time_limit: float
    default_iterations: int
    max_body_bytes: int
    max_games: int = Field(description="Games kept replayed in memory (the rest are read back)")
    max_decisions: int = Field(description="Decisions one server-held game may hold")
    max_turn_cap: int = Field(description="The highest turn cap of a loaded game")
    workers: int = Field(description="Threads that play the tables' AI seats")
    search_workers: int = Field(description="Threads for clients' searches (move, hints)")
    max_pending: int = Field(description="Clients' searches queued or running, in all")
    max_searches_per_client: int
    max_streams_per_client: int
    max_tables_per_minute: int = Field(description="Tables one client may make in a minute")
    review_iterations: int | None = Field(
        description="Iterations per position of a game's review (None: the default AI's own)"
    )
    max_reviews: int = Field(description="Reviews queued or running at once")


class Verbs(BaseModel):
    buy: str = Field(description="The first word of a buy (`buy`; Marvel: `recruit`)")
    reserve: str
    take: str


class VariantInfo(BaseModel):
    """One game of the family, as `splendor.variant_info()` states it."""

    name: str = Field(description="The variant's name in requests (`base`, `duel`, `marvel`)")
    title: str = Field(description="The game's title (`Splendor Duel`)")
    players: list[int] = Field(description="The player counts a table may have")
    verbs: Verbs


class LevelInfo(BaseModel):
    """An AI level as the new-table form offers it (`splendor.bots.LEVELS`)."""

    spec: str = Field(description="The bot spec, `level:1` ... `level:10`")
    name: str = Field(description="Its name for players: Beginner ... Strongest")


class ServerInfo(BaseModel):
    api: Literal["v1"] = "v1"
    version: str
    variants: list[VariantInfo]
    levels: list[LevelInfo] = Field(
        default_factory=list, description="The AI levels, weakest first (any game, any seats)"
    )
    limits: Limits


class ReplayFrame(BaseModel):
    step: int
    steps: int
    svg: str
    action: str | None = Field(description="The decision that led here (None at the start)")


class GameEvent(BaseModel):
    """The data of an `event: game` of `GET /api/v1/games/{id}/events`."""

    version: int
    step: int
    current: int | None
    over: bool
    thinking: bool
    seating: int = Field(
        default=0, description="Counts the changes of the seats (claims, links, names, rematch)"
    )
    next: str | None = Field(
        default=None,
        description="The rematch's game id once one is dealt: `POST .../next` gives each token"
        " its own token there",
    )
    connected: list[int] = Field(
        default_factory=list,
        description="The seats with an event stream open now (on the server process answering)",
    )


class ReviewedDecision(BaseModel):
    """One decision of a reviewed game."""

    index: int
    turn: int
    seat: int = Field(description="The mover")
    wins: list[float | None] = Field(
        description="Each seat's win probability before the decision: the mover's from the"
        " search; with 2 players the other's is its complement, with more it is not known (None)"
    )
    win: float = Field(description="The mover's win probability (its preferred move's value)")
    grade: Literal["best", "good", "inaccuracy", "mistake", "blunder"]
    loss: float
    played: str
    played_value: float
    played_says: str = Field(description="The move played, in words")
    preferred: str = Field(description="The AI's preferred move")
    preferred_says: str = Field(description="The AI's preferred move, in words")
    line: list[LineStep] = Field(description="The line the AI expects, its move first")
    focused: bool = Field(description="The played move's value is a focused estimate")


class ReviewedSeat(BaseModel):
    seat: int
    decisions: int
    accuracy: float = Field(
        description="Between 0 and 100 (100: every decision as good as the AI's)"
    )
    average_loss: float
    grades: dict[str, int]
    worst: list[int] = Field(description="Indices of the seat's biggest losses, biggest first")


class ReviewResult(BaseModel):
    bot: str
    iterations: int
    seed: int
    decisions: list[ReviewedDecision]
    seats: list[ReviewedSeat]
    chart: str = Field(
        description="The chart as SVG: one line per seat, each point carrying `data-decision`"
    )


class ReviewStatus(BaseModel):
    """A finished game's review: not started, waiting, running, done (with the review) or
    failed; its progress in decisions."""

    state: Literal["none", "pending", "running", "done", "failed"]
    done: int = 0
    total: int = 0
    message: str | None = Field(default=None, description="Why it failed")
    review: ReviewResult | None = None
