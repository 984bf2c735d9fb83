"""One side's view of a position as a versioned document, and the published schemas.

A view is what a client or a bot of one side receives: the side's observation, who is to move,
the side's own legal actions when it is to move (a side's legal actions depend only on its
observation, which every game's resampling test checks), and the result once the game is over.
Nothing in it depends on what the side may not know.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from kernel.codec import VIEW_FORMAT, LogRecord, ViewRecord
from kernel.errors import IllegalAction, InvalidInput
from kernel.game import CHANCE, WireTypes
from kernel.roles import AssembledGame
from kernel.wire import json_schema

SchemaKind = Literal["state", "action", "log", "view"]
SCHEMA_KINDS: Final[tuple[SchemaKind, ...]] = ("state", "action", "log", "view")


def check_side(game: AssembledGame[Any, Any], side: str, field: str = "--side") -> str:
    """A side of this game; anything else is bad input listing the sides."""
    if side not in game.sides:
        known = ", ".join(game.sides)
        raise InvalidInput(f"unknown side {side!r} (sides: {known})", field=field)
    return side


class NotYourTurn(IllegalAction):
    """An action sent by a side that is not to move. Its own kind, not `illegal_action`: a
    client tells "wait for your turn" from "this move is wrong" without reading the message,
    and the error is decided before the action is read or judged against the position, so it
    is the same whatever the action and whatever the other side holds (it says only who is to
    move, which every side sees)."""

    kind = "not_your_turn"


def check_turn(game: AssembledGame[Any, Any], state: Any, side: str, field: str = "--side") -> None:
    """Refuse `side` unless it is to move at `state` (NotYourTurn naming who is)."""
    check_side(game, side, field)
    to_move = game.to_move(state)
    if to_move == side:
        return
    if to_move is None:
        message = f"the game is over: no side is to move, not {side}"
    elif to_move == CHANCE:
        message = f"chance is to move (a roll, draw or shuffle), not {side}"
    else:
        message = f"{to_move} is to move, not {side}"
    raise NotYourTurn(message, field=field)


def wire_types(game: AssembledGame[Any, Any]) -> WireTypes:
    """The game's wire types; a game whose codec does not publish them yet is refused."""
    types = getattr(game, "wire", None)
    if not isinstance(types, WireTypes):
        raise InvalidInput(f"{game.name} does not publish its document formats yet", field="game")
    return types


def log_type(action: Any, state: Any) -> Any:
    """The log document's type for a game's action and state types: what `schema(game, "log")`
    publishes and what `tools.playlog` decodes a log with."""
    return LogRecord[action, state]


def view(game: AssembledGame[Any, Any], state: Any, side: str) -> dict[str, Any]:
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


def schema(game: AssembledGame[Any, Any], kind: str) -> dict[str, Any]:
    """The JSON Schema (Draft 2020-12) of one of the game's documents, generated from the
    wire types its codec decodes with."""
    types = wire_types(game)
    title = f"{game.title}: {kind}"
    if kind == "state":
        return json_schema(types.state, title=title)
    if kind == "action":
        return json_schema(types.action, title=title)
    if kind == "log":
        return json_schema(log_type(types.action, types.state), title=title)
    if kind == "view":
        return json_schema(ViewRecord[types.observation, types.action], title=title)  # type: ignore[name-defined]
    raise InvalidInput(
        f"unknown document kind {kind!r} (kinds: {', '.join(SCHEMA_KINDS)})", field="KIND"
    )
