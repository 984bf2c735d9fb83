"""The service's request and response documents, declared once as wire records: Litestar
decodes requests with them and publishes them in the generated OpenAPI document.

The per-game documents (a match's view, state, log; an action submitted) are generic over the
game's own wire types, so the OpenAPI document gives every game's actions and states their
exact schemas and a client generator gets a typed model per game.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from kernel.codec import OutcomeRecord, Seed, VariantRecord, ViewRecord
from kernel.wire import Count, Id, Record, Text

ActionT = TypeVar("ActionT")
StateT = TypeVar("StateT")
ObservationT = TypeVar("ObservationT")

Token = str
Agent = Literal["random"]
ChanceMode = Literal["server", "client"]


class ErrorBody(Record, frozen=True, omit_defaults=True):
    """Every 4xx body: the kind of error, a message, and where it applies (the JSON field
    or the rules' clauses). A 401 or 403 says only its kind."""

    error: str
    message: str = ""
    field: str | None = None
    clauses: list[str] | None = None
    expected_ply: int | None = None


class ReadingInfo(Record, frozen=True):
    name: Id
    summary: Text


class OptionInfo(Record, frozen=True):
    """An ambiguous rule: its question, clauses and readings."""

    name: Id
    question: Text
    clauses: list[str]
    ambiguity: str | None
    readings: list[ReadingInfo]


class GameInfo(Record, frozen=True):
    name: Id
    title: Text
    sides: list[Id]
    perfect_information: bool
    presets: dict[Id, dict[Id, Id]]
    default_preset: Id
    options: list[OptionInfo]


class GameList(Record, frozen=True):
    games: list[GameInfo]


class CreateMatch(Record, Generic[StateT], frozen=True):
    """A new match. `variant`: a preset name or {preset, options} (the default preset when
    absent). `chance`: "server" rolls the dice and draws the cards (default), "client" lets
    the referee submit chance outcomes. `agents`: sides the server plays (the seeded random
    agent). `position`: start from this state instead of the set-up. `seed`: the seed the
    server's chance outcomes and agent moves are drawn from (a fresh random one when absent;
    the same seed, variant and client actions give the same game)."""

    variant: Id | VariantRecord | None = None
    chance: ChanceMode = "server"
    agents: dict[Id, Agent] = {}  # noqa: RUF012  (msgspec copies mutable defaults)
    position: StateT | None = None
    seed: Seed | None = None


class Created(Record, frozen=True):
    """A match created: its id, ply, and one token per side and the referee's. The tokens
    are shown once; the server keeps their digests only."""

    id: str
    game: Id
    ply: Count
    tokens: dict[str, Token]
    links: dict[str, str]


class MatchView(Record, Generic[ObservationT, ActionT], frozen=True):
    """What one side may know of a match: the view document and the ply to submit against."""

    id: str
    role: Id
    ply: Count
    view: ViewRecord[ObservationT, ActionT]
    agents: dict[Id, Agent]
    chance: ChanceMode


class Role(Record, frozen=True):
    """What a token is in a match: a side or the referee (what a page asks first, so that
    it reads the view or the state it may, without a refused request)."""

    id: str
    role: Id
    ply: Count


class ChanceOutcome(Record, Generic[ActionT], frozen=True):
    action: ActionT
    probability: str  # an exact fraction, e.g. "1/6"


class RefereeState(Record, Generic[StateT, ActionT], frozen=True):
    """The whole match, for the referee: state, side to move, legal actions or chance
    outcomes, result."""

    id: str
    role: Literal["referee"]
    ply: Count
    to_move: Id | None
    state: StateT
    legal_actions: list[ActionT]
    chance_outcomes: list[ChanceOutcome[ActionT]]
    result: OutcomeRecord | None
    gap_clauses: list[str] | None
    variant: VariantRecord
    agents: dict[Id, Agent]
    chance: ChanceMode


class Submit(Record, Generic[ActionT], frozen=True):
    """An action, computed against ply `ply` (the ply of the view it was chosen from)."""

    ply: Count
    action: ActionT


class Proposal(Record, Generic[ActionT], frozen=True):
    action: ActionT


class Explanation(Record, frozen=True):
    """Whether an action is legal now, and if not the error that names its clauses."""

    legal: bool
    error: ErrorBody | None
    description: str | None


class LogEntry(Record, Generic[ActionT], frozen=True):
    """One ply of the readable log. `text` is what the reader may know of it: a side reads
    its own actions, and the others' only where the game hides nothing."""

    ply: Count
    by: str
    text: str
    headline: str | None
    events: list[str]
    probability: str | None
    action: ActionT | None = None


class MatchLog(Record, Generic[ActionT], frozen=True):
    id: str
    game: Id
    ply: Count
    variant: VariantRecord
    entries: list[LogEntry[ActionT]]
    result: OutcomeRecord | None


class ChanceList(Record, Generic[ActionT], frozen=True):
    to_move: Id | None
    outcomes: list[ChanceOutcome[ActionT]]


class JobRequest(Record, frozen=True):
    """Start `explore` (reading pairs of one option or all) or `verify` (the game's
    properties) in a worker process."""

    kind: Literal["explore", "verify"]
    game: Id
    option: Id | None = None
    preset: Id | None = None
    budget: float = 2.0
    property: list[Id] | None = None


class Job(Record, frozen=True):
    id: str
    kind: str
    game: str
    params: dict[str, Any]
    status: Literal["queued", "running", "done", "failed", "interrupted", "cancelled"]
    progress: dict[str, Any]
    result: Any
    error: str | None
    created: str
    updated: str
    token: str | None = None
    """Only in the answer that started the job: the token that cancels it (shown once)."""
