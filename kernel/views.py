"""One side's view of a position as a versioned document, and the published schemas.

A view is what a client or a bot of one side receives: the side's observation, who is to move,
the side's own legal actions when it is to move (a side's legal actions depend only on its
observation, which every game's resampling test checks), and the result once the game is over.
Nothing in it depends on what the side may not know.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from kernel.codec import VIEW_FORMAT, LogRecord, ViewRecord
from kernel.errors import InvalidInput
from kernel.game import CHANCE, Game
from kernel.wire import json_schema

SchemaKind = Literal["state", "action", "log", "view"]
SCHEMA_KINDS: Final[tuple[SchemaKind, ...]] = ("state", "action", "log", "view")


def check_side(game: Game[Any, Any], side: str, field: str = "--side") -> str:
    """A side of this game; anything else is bad input listing the sides."""
    if side not in game.sides:
        known = ", ".join(game.sides)
        raise InvalidInput(f"unknown side {side!r} (sides: {known})", field=field)
    return side


def view(game: Game[Any, Any], state: Any, side: str) -> dict[str, Any]:
    """The view document of `side` at `state` (JSON-ready, of `schema(game, "view")`'s form)."""
    check_side(game, side)
    to_move = game.to_move(state)
    acting = to_move == side
    outcome = game.outcome(state) if to_move is None else None
    return {
        "format": VIEW_FORMAT,
        "version": 1,
        "game": game.name,
        "side": side,
        "to_move": to_move,
        "observation": game.observe(state, side),
        "legal_actions": [game.action_to_json(a) for a in game.legal_actions(state)]
        if acting and to_move != CHANCE
        else [],
        "result": None if outcome is None else outcome.to_json(),
    }


def schema(game: Game[Any, Any], kind: str) -> dict[str, Any]:
    """The JSON Schema (Draft 2020-12) of one of the game's documents, generated from the
    wire types its codec decodes with."""
    types = game.wire
    title = f"{game.title}: {kind}"
    if kind == "state":
        return json_schema(types.state, title=title)
    if kind == "action":
        return json_schema(types.action, title=title)
    if kind == "log":
        return json_schema(LogRecord[types.action, types.state], title=title)  # type: ignore[name-defined]
    if kind == "view":
        return json_schema(ViewRecord[types.observation, types.action], title=title)  # type: ignore[name-defined]
    raise InvalidInput(
        f"unknown document kind {kind!r} (kinds: {', '.join(SCHEMA_KINDS)})", field="KIND"
    )
