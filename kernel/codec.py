"""Versioned JSON for states, actions, views and game logs.

Every document names its format and version, so a state saved today is read (or refused with a
clear message) tomorrow. The records shared by every game (variant, outcome, the agent that
produced a log, the log and view envelopes) are wire types (`kernel.wire`), so they decode
strictly and appear in each game's published schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any, Generic, Literal, TypeVar

from kernel import wire
from kernel.errors import InvalidInput
from kernel.wire import Id, Meta, Record, Text

STATE_FORMAT = "wargame-kernel/state"
LOG_FORMAT = "wargame-kernel/log"
VIEW_FORMAT = "wargame-kernel/view"
VERSION = 1
LOG_VERSION = 2
"""Version 2 of the log records the agent that produced it (version 1 had only a seed)."""

T = TypeVar("T")
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
ObservationT = TypeVar("ObservationT")


def parse_json(text: str | bytes, *, what: str) -> Any:
    """Parse JSON text strictly (bounded size, depth and integers; see `kernel.wire`)."""
    return wire.parse_json(text, what=what)


Points = Annotated[int, Meta(ge=-1000, le=1000)]
Seed = Annotated[int, Meta(ge=0, le=2**63 - 1)]


class VariantRecord(Record, frozen=True):
    """A variant: the preset it starts from (or null) and the reading of every option."""

    preset: Id | None
    options: dict[Id, Id]


class OutcomeRecord(Record, frozen=True):
    """How a finished game ended: winner (null for a draw), points, the deciding clause."""

    winner: Id | None
    points: dict[Id, Points]
    clause: Text
    reason: Text


class AgentRecord(Record, frozen=True):
    """Who chose a log's actions: a seeded agent of this kernel (`random`), whose choices and
    chance draws a replay re-derives, or `external` (a person, a client), checked for
    legality only."""

    name: Literal["random", "external"]
    seed: Seed | None


class LogRecord(Record, Generic[ActionT, StateT], frozen=True):
    """A game log: enough to replay the game exactly, and to prove who played it."""

    format: Literal["wargame-kernel/log"]
    version: Literal[2]
    game: Id
    variant: VariantRecord
    agent: AgentRecord
    actions: tuple[ActionT, ...]
    final_state: StateT
    result: OutcomeRecord | None
    stop: Literal["ended", "no_action", "step_limit", "position"]
    start: StateT | None = None
    """Where play starts when not at the variant's set-up (a shrunk witness's position with
    units taken off it); absent or null: the set-up."""


class ViewRecord(Record, Generic[ObservationT, ActionT], frozen=True):
    """What one side may know: its observation, who is to move, its own legal actions when
    it is to move (they depend on the observation alone), and the result once the game is
    over."""

    format: Literal["wargame-kernel/view"]
    version: Literal[1]
    game: Id
    side: Id
    to_move: Id | None
    observation: ObservationT
    legal_actions: tuple[ActionT, ...]
    result: OutcomeRecord | None


def dump_json(data: Any) -> str:
    """Canonical JSON text: sorted keys, so equal data gives equal text."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


def envelope(fmt: str, game: str, body: dict[str, Any]) -> dict[str, Any]:
    """Wrap a body with its format, version and game."""
    return {"format": fmt, "version": VERSION, "game": game, **body}


def open_envelope(data: Any, fmt: str, game: str) -> dict[str, Any]:
    """Check format, version and game of a document and return it (as a dict)."""
    obj = require_dict(data, fmt)
    if obj.get("format") != fmt:
        raise InvalidInput(f"expected format {fmt!r}, got {obj.get('format')!r}", field="format")
    if obj.get("version") != VERSION:
        raise InvalidInput(
            f"unsupported {fmt} version {obj.get('version')!r} (this kernel reads {VERSION})",
            field="version",
        )
    if obj.get("game") != game:
        raise InvalidInput(f"document is for game {obj.get('game')!r}, not {game!r}", field="game")
    return obj


def require_dict(data: Any, field: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise InvalidInput(f"{field} must be a JSON object", field=field)
    return data


def get_field(obj: dict[str, Any], key: str, kind: type[T], path: str = "") -> T:
    """obj[key] checked to be of `kind` (bool is not accepted as int)."""
    where = f"{path}.{key}" if path else key
    if key not in obj:
        raise InvalidInput(f"missing field {where!r}", field=where)
    value = obj[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise InvalidInput(f"field {where!r} must be {kind.__name__}", field=where)
    return value


def get_list(
    obj: dict[str, Any], key: str, item: Callable[[Any, str], T], path: str = ""
) -> list[T]:
    """obj[key] as a list, each element read by `item(value, its_path)`."""
    where = f"{path}.{key}" if path else key
    values = get_field(obj, key, list, path)
    return [item(v, f"{where}[{i}]") for i, v in enumerate(values)]


def as_str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"field {where!r} must be a string", field=where)
    return value


def as_int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"field {where!r} must be an integer", field=where)
    return value
