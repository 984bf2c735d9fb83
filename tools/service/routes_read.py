"""The routes that read a match, each as its token may: a side's view, the referee's whole
state, the readable log, the chance outcomes and the picture.

A view, a state and the chance outcomes are short and run on the event loop (one process
runs one request at a time anyway, and skipping the hop to a worker thread doubles the
requests a second, `make bench`); the log and the picture may take longer and run in worker
threads behind their gates (`context.Gates`)."""

import inspect
from collections.abc import Callable
from typing import Annotated, Any

from litestar import Request, Response
from litestar.params import PathParameter, QueryParameter

from kernel.errors import InvalidInput
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.views import check_side, view
from tools.render import render_svg
from tools.service import documents as doc
from tools.service import logview
from tools.service.context import Service
from tools.service.errors import Denied
from tools.service.store import REFEREE
from tools.service.typed_docs import Docs, annotate

MatchId = Annotated[str, PathParameter(description="The match's id, as creating it returned")]
Handler = Callable[..., Any]


def require(role: str, allowed: Callable[[str], bool]) -> None:
    if not allowed(role):
        raise Denied(403)


def reader_side(game: AssembledGame[Any, Any], role: str, side: str | None) -> str:
    """The side whose view is asked: a side's own; the referee names one (`side`)."""
    if role == REFEREE:
        if side is None:
            raise InvalidInput(
                "the referee names the side whose view it asks: ?side=", field="side"
            )
        return check_side(game, side, field="side")
    if side is not None and side != role:
        raise Denied(403)
    return role


def outcomes(game: AssembledGame[Any, Any], state: Any) -> list[dict[str, Any]]:
    if game.to_move(state) != CHANCE:
        return []
    return [
        {"action": game.action_to_json(a), "probability": str(p)}
        for a, p in game.chance_outcomes(state)
    ]


def match_view(
    service: Service, game: AssembledGame[Any, Any], match_id: str, side: str
) -> dict[str, Any]:
    """A side's view of a match now (`documents.MatchView`)."""
    record, state = service.store().current(match_id)
    return {
        "id": match_id,
        "role": side,
        "ply": record.ply,
        "view": view(game, state, side),
        "agents": record.agents,
        "chance": record.chance,
    }


def referee_state(service: Service, game: AssembledGame[Any, Any], match_id: str) -> dict[str, Any]:
    """The referee's whole state of a match now (`documents.RefereeState`)."""
    record, state = service.store().current(match_id)
    to_move = game.to_move(state)
    legal = [] if to_move in (None, CHANCE) else game.legal_actions(state)
    outcome = game.outcome(state) if to_move is None else None
    gap = None
    if to_move not in (None, CHANCE) and not legal:
        gap = list(game.no_action_clauses(state))
    return {
        "id": match_id,
        "role": REFEREE,
        "ply": record.ply,
        "to_move": to_move,
        "state": record.state,
        "legal_actions": [game.action_to_json(a) for a in legal],
        "chance_outcomes": outcomes(game, state),
        "result": None if outcome is None else outcome.to_json(),
        "gap_clauses": gap,
        "variant": record.variant,
        "agents": record.agents,
        "chance": record.chance,
    }


def _log(service: Service, game: AssembledGame[Any, Any], match_id: str, role: str) -> Any:
    store = service.store()
    record = store.get(match_id)
    steps = store.log_entries(match_id)

    def decode(ply: int, data: dict[str, Any]) -> Any:
        return store.decoded(match_id, game, ply, data)

    _, state = store.current(match_id)
    outcome = game.outcome(state) if game.to_move(state) is None else None
    return {
        "id": match_id,
        "game": game.name,
        "ply": record.ply,
        "variant": record.variant,
        "entries": logview.entries(game, steps, role, decode),
        "result": None if outcome is None else outcome.to_json(),
    }


def _picture(
    service: Service, game: AssembledGame[Any, Any], match_id: str, role: str, side: str | None
) -> str:
    _record, state = service.store().current(match_id)
    draw: Callable[..., Any] | None = getattr(game, "scene", None)
    if draw is None:
        raise InvalidInput(f"{game.name} has no picture yet", field="game")
    takes_side = "side" in inspect.signature(draw).parameters
    reader = None if role == REFEREE and side is None else reader_side(game, role, side)
    if reader is None or game.perfect_information:
        scene = draw(state)
    elif takes_side:
        scene = draw(state, side=reader)
    else:
        raise InvalidInput(f"{game.name}'s picture has no view per side yet", field="side")
    return render_svg(scene)


def reading_handlers(
    service: Service, game: AssembledGame[Any, Any], D: Docs
) -> tuple[Handler, Handler, Handler, Handler, Handler, Handler]:
    """(get_view, get_state, get_log, chance, picture, get_role) of one game."""
    name = game.name
    gates = service.gates

    def get_view(
        request: Request[Any, Any, Any],
        match_id: MatchId,
        side: Annotated[str | None, QueryParameter(required=False)] = None,
    ) -> Any:
        role = service.access(request, match_id, name)
        reader = reader_side(game, role, side)
        return match_view(service, game, match_id, reader)

    def get_role(request: Request[Any, Any, Any], match_id: MatchId) -> doc.Role:
        """The role the token gives in this match (a side or the referee)."""
        role = service.access(request, match_id, name)
        return doc.Role(id=match_id, role=role, ply=service.store().get(match_id).ply)

    def get_state(request: Request[Any, Any, Any], match_id: MatchId) -> Any:
        require(service.access(request, match_id, name), lambda r: r == REFEREE)
        return referee_state(service, game, match_id)

    async def get_log(request: Request[Any, Any, Any], match_id: MatchId) -> Any:
        role = service.access(request, match_id, name)
        return await gates.log.run(lambda: _log(service, game, match_id, role))

    def chance(request: Request[Any, Any, Any], match_id: MatchId) -> Any:
        """The chance outcomes with exact probabilities when chance is to move: for the
        referee, and for the sides of a game that hides nothing (the outcomes of a draw
        list the cards it may be)."""
        role = service.access(request, match_id, name)
        require(role, lambda r: r == REFEREE or game.perfect_information)
        _record, state = service.store().current(match_id)
        return {"to_move": game.to_move(state), "outcomes": outcomes(game, state)}

    async def picture(
        request: Request[Any, Any, Any],
        match_id: MatchId,
        side: Annotated[str | None, QueryParameter(required=False)] = None,
    ) -> Response[str]:
        """The position as SVG, as the reader sees it: a side's picture shows nothing hidden
        from it; the referee's the whole position, or a side's with ?side=."""
        role = service.access(request, match_id, name)
        svg = await gates.picture.run(lambda: _picture(service, game, match_id, role, side))
        return Response(svg, media_type="image/svg+xml")

    annotate(get_view, **{"return": D.view})
    annotate(get_state, **{"return": D.state})
    annotate(get_log, **{"return": D.log})
    annotate(chance, **{"return": D.chance})
    return get_view, get_state, get_log, chance, picture, get_role
