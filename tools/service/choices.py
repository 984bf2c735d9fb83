"""The legal actions of the side to move as the kernel's own sub-decisions, one step at a time.

A player builds an action as the game's OpenSpiel codec (`specs/<game>/spiel.py`) decomposes
it: an atomic action is one choice; a compound one (an SNC stack's move, SNC-9.0.8; a
Nomonhan declaration; a Rattenkrieg discard, RKS-10.1.1; a Shumshu defence, SHU-STACK.3) is a
sequence of choices ending with a commit. The play page walks this tree:

    GET /api/games/{game}/matches/{id}/choices?prefix=3.17   the choices after ids 3 then 17

The answer names the choices that extend `prefix` towards some legal action (each with the
codec's readable label) and, when `prefix` is a whole legal sequence, the action it builds in
the game's JSON. A side asks only when it is to move: its legal actions are then part of its
own view, so the tree tells it nothing hidden from it. The referee asks for the side to move.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any

from litestar import Request, get
from litestar.params import PathParameter, QueryParameter

from kernel.errors import InvalidInput
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.spiel_codec import ActionCodec, LegalTree, table_tree
from kernel.views import check_turn
from kernel.wire import Record
from tools.registry import game_names, get_game, get_package
from tools.service import documents as doc
from tools.service.store import REFEREE

MAX_PREFIX = 64
"""The longest prefix asked for: longer than any compound action of the four games (a group
of at most a stack or a landing force, SNC-9.0.8, SNC-8.4.0.1; a hand of cards, RKS-10.1.1)."""


class Choice(Record, frozen=True):
    """One sub-decision: the codec's id and its readable name."""

    id: int
    label: str


class Choices(Record, frozen=True):
    """The sub-decisions after `prefix` at ply `ply`: `next` extends it towards a legal action;
    `action` is the action it builds when it is a whole legal sequence (then `next` is empty,
    as the codec's sequences are prefix-free)."""

    ply: int
    to_move: str | None
    prefix: list[Choice]
    next: list[Choice]
    action: dict[str, Any] | None


@functools.cache
def _codec(name: str) -> ActionCodec:
    """The game's codec (one per game: its ids are the same for every preset)."""
    game = get_game(name)
    make = get_package(name).spiel
    if make is None:
        raise InvalidInput(f"{name} declares no sub-decisions (no OpenSpiel codec)", field="game")
    return make(game)[0].codec


def _tree(game: AssembledGame[Any, Any], state: Any) -> LegalTree:
    """The legal sequences: the codec's lazy walk where it has one, else the table."""
    codec = _codec(game.name)
    lazy = getattr(codec, "legal_tree", None)
    if lazy is not None:
        tree: LegalTree = lazy(game, state)
        return tree
    return table_tree(codec, game.legal_actions(state))


def parse_prefix(text: str) -> tuple[int, ...]:
    """`"3.17"` as (3, 17); the empty text as ()."""
    if not text:
        return ()
    parts = text.split(".")
    if len(parts) > MAX_PREFIX or not all(p.isdigit() and len(p) <= 9 for p in parts):
        raise InvalidInput(
            f"a prefix is at most {MAX_PREFIX} ids joined by '.', got {text[:40]!r}",
            field="prefix",
        )
    return tuple(int(p) for p in parts)


def choices_at(
    game: AssembledGame[Any, Any], state: Any, ply: int, prefix: tuple[int, ...]
) -> Choices:
    """The sub-decisions after `prefix` (none at a chance node or the game's end)."""
    to_move = game.to_move(state)
    if to_move in (None, CHANCE):
        return Choices(ply=ply, to_move=to_move, prefix=[], next=[], action=None)
    codec = _codec(game.name)
    tree = _tree(game, state)
    action = tree.action_at(prefix)
    nexts = [] if action is not None else tree.next_ids(prefix)
    if prefix and action is None and not nexts:
        raise InvalidInput(
            f"no legal action begins with the ids {'.'.join(map(str, prefix))}", field="prefix"
        )
    label = codec.token_string
    return Choices(
        ply=ply,
        to_move=to_move,
        prefix=[Choice(id=t, label=label(t)) for t in prefix],
        next=[Choice(id=t, label=label(t)) for t in nexts],
        action=None if action is None else game.action_to_json(action),
    )


def _handler(service: Any, name: str) -> Any:
    """The route of game `name` (`service` is `api.Service`: its tokens and store)."""
    game = get_game(name)

    @get(
        f"/api/games/{name}/matches/{{match_id:str}}/choices",
        sync_to_thread=False,
        summary="The legal actions' sub-decisions after a prefix",
        tags=[name],
        responses=_error_specs(),
        name=f"{name}-choices",
    )
    def choices(
        request: Request[Any, Any, Any],
        match_id: Annotated[str, PathParameter(description="The match's id")],
        prefix: Annotated[
            str, QueryParameter(required=False, description="ids chosen so far, '.'-joined")
        ] = "",
    ) -> Choices:
        role = service.access(request, match_id, name)
        record, state = service.store().current(match_id)
        if role != REFEREE:
            check_turn(game, state, role, field="side")
        return choices_at(game, state, record.ply, parse_prefix(prefix))

    return choices


def _error_specs() -> dict[int, Any]:
    from litestar.openapi import ResponseSpec

    what = {
        400: "A malformed prefix, or one no legal action begins with",
        401: "No valid token",
        403: "The token does not give this access",
        404: "No such match",
        409: "Not this side's turn",
    }
    return {c: ResponseSpec(data_container=doc.ErrorBody, description=w) for c, w in what.items()}


def choice_routes(service: Any) -> list[Any]:
    """The choices route of every game, for `api.create_app` to register."""
    return [_handler(service, name) for name in game_names()]
