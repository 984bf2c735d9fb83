"""The routes of one game, typed with its own wire records: the game itself, creating a match
(the server's key unless open mode, `auth`), and putting an action to a match (submit it, or
ask whether it is legal now).

Every body is decoded by `limits.StrictBody` (the command line's strict reader) within its
route's limit, stated in the OpenAPI document; creating and explaining run in worker threads
behind their gates."""

from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, Router, get, post
from litestar.openapi import ResponseSpec
from litestar.params import Body

from kernel.errors import WargameError
from kernel.roles import AssembledGame
from kernel.views import check_turn
from kernel.wire import to_builtins
from tools.service import documents as doc
from tools.service.auth import may_create
from tools.service.context import Service
from tools.service.errors import errors
from tools.service.limits import ACTION_BODY, CREATE_BODY, json_only, limit_text, strict
from tools.service.routes_read import (
    MatchId,
    match_view,
    reader_side,
    reading_handlers,
    referee_state,
)
from tools.service.store import REFEREE, Store
from tools.service.typed_docs import Docs, annotate

Handler = Callable[..., Any]
MATCH_ERRORS = errors(400, 401, 403, 404)
BODY_ERRORS = errors(408, 413, 415)

__all__ = ["game_info", "game_router", "reader_side"]


def game_info(game: AssembledGame[Any, Any]) -> dict[str, Any]:
    cat = game.catalogue
    return {
        "name": game.name,
        "title": game.title,
        "sides": list(game.sides),
        "perfect_information": game.perfect_information,
        "presets": {name: dict(v.choices) for name, v in sorted(game.presets().items())},
        "default_preset": cat.default_preset,
        "options": [
            {
                "name": o.name,
                "question": o.question,
                "clauses": list(o.clauses),
                "ambiguity": o.ambiguity,
                "readings": [{"name": r.name, "summary": r.summary} for r in o.readings],
            }
            for o in cat.options
        ],
    }


def game_router(service: Service, game: AssembledGame[Any, Any]) -> Router:
    """The routes of one game, typed with its own wire records."""
    D = Docs.of(game)
    info, create = _setup_handlers(service, game, D)
    get_view, get_state, get_log, chance, picture, get_role = reading_handlers(service, game, D)
    submit, explain = _acting_handlers(service, game, D)
    at = "/matches/{match_id:str}"
    created = {**errors(400, 401, 422, 429), **BODY_ERRORS}
    acting = {**MATCH_ERRORS, **errors(409, 422), **BODY_ERRORS}
    asking = {**MATCH_ERRORS, **errors(409, 429), **BODY_ERRORS}
    handlers: list[Any] = [
        get("", sync_to_thread=False, summary=f"{game.title}: sides, presets, options")(info),
        get(
            f"{at}/picture.svg",
            media_type="image/svg+xml",
            summary="The position as SVG",
            responses={**MATCH_ERRORS, **errors(429)},
        )(picture),
        get(f"{at}/view", sync_to_thread=False, summary="A side's view", responses=MATCH_ERRORS)(
            get_view
        ),
        get(
            f"{at}/role",
            sync_to_thread=False,
            summary="The role this token gives",
            responses=MATCH_ERRORS,
        )(get_role),
        get(
            f"{at}/state",
            sync_to_thread=False,
            summary="The referee's whole state",
            responses=MATCH_ERRORS,
        )(get_state),
        get(f"{at}/log", summary="The readable log", responses={**MATCH_ERRORS, **errors(429)})(
            get_log
        ),
        get(
            f"{at}/chance", sync_to_thread=False, summary="Chance outcomes", responses=MATCH_ERRORS
        )(chance),
        _post("/matches", create, "Create a match", created, D.create, CREATE_BODY, 201),
        _post(f"{at}/actions", submit, "Submit an action", acting, D.submit, ACTION_BODY),
        _post(f"{at}/explain", explain, "Explain an action", asking, D.proposal, ACTION_BODY),
    ]
    return Router(path=f"/api/games/{game.name}", route_handlers=handlers, tags=[game.name])


def _post(
    path: str,
    fn: Handler,
    summary: str,
    responses: dict[int, ResponseSpec],
    body: Any,
    limit: int,
    status: int = 200,
) -> Any:
    """A POST route: JSON only, at most `limit` bytes, decoded strictly; creating a match
    also needs the right to create (`auth.may_create`)."""
    guards: list[Any] = [json_only]
    if status == 201:
        guards.append(may_create)
    return post(
        path,
        summary=summary,
        description=limit_text(limit),
        responses=responses,
        status_code=status,
        guards=guards,
        request_max_body_size=limit,
        dto=strict(body),
        return_dto=None,
        sync_to_thread=None if _is_async(fn) else False,
    )(fn)


def _is_async(fn: Handler) -> bool:
    import inspect

    return inspect.iscoroutinefunction(fn)


def _create(service: Service, game: AssembledGame[Any, Any], data: Any) -> doc.Created:
    variant: Any = data.variant
    if variant is None:
        variant = game.catalogue.default_preset
    elif not isinstance(variant, str):
        variant = to_builtins(variant)
    position = None if data.position is None else to_builtins(data.position)
    record = service.store().create(
        game.name,
        variant,
        chance=data.chance,
        agents=dict(data.agents),
        position=position,
        seed=data.seed,
    )
    base = f"/play/{game.name}/{record.id}"
    links = {role: f"{base}#token={token}" for role, token in record.tokens.items()}
    return doc.Created(
        id=record.id, game=game.name, ply=record.ply, tokens=record.tokens, links=links
    )


def _setup_handlers(
    service: Service, game: AssembledGame[Any, Any], D: Docs
) -> tuple[Handler, Handler]:
    """The handlers that need no match: the game itself (`info`), and a new match
    (`create`)."""

    def info() -> doc.GameInfo:
        return msgspec.convert(game_info(game), doc.GameInfo)

    async def create(data: Any) -> Response[doc.Created]:
        body = await service.gates.create.run(lambda: _create(service, game, data))
        return Response(body, status_code=201)

    annotate(create, data=Annotated[D.create, Body()])
    return info, create


def _explain(
    service: Service, game: AssembledGame[Any, Any], match_id: str, role: str, data: Any
) -> doc.Explanation:
    _record, state = service.store().current(match_id)
    if role != REFEREE:
        check_turn(game, state, role, field="side")
    action = game.action_from_json(to_builtins(data.action))
    try:
        Store.check_playable(game, state, action)
    except WargameError as exc:
        return doc.Explanation(
            legal=False, error=msgspec.convert(exc.to_json(), doc.ErrorBody), description=None
        )
    return doc.Explanation(legal=True, error=None, description=game.describe(state, action))


def _acting_handlers(
    service: Service, game: AssembledGame[Any, Any], D: Docs
) -> tuple[Handler, Handler]:
    """The handlers that put an action to a match: submit it (`submit`), or ask whether it is
    legal now (`explain`)."""
    name = game.name

    def submit(request: Request[Any, Any, Any], match_id: MatchId, data: Any) -> Any:
        """Submit an action computed against `ply`. A side acts only when it is to move
        (409 not_your_turn, decided before the action is read); a stale ply is 409
        stale_submission naming the current ply; an illegal action 422 naming its clauses.
        The referee acts for whichever side is to move, and submits the chance outcomes of
        a match whose chance is the client's."""
        role = service.access(request, match_id, name)
        store = service.store()
        side = None if role == REFEREE else role
        store.submit(match_id, data.ply, to_builtins(data.action), side=side)
        if role == REFEREE:
            return referee_state(service, game, match_id)
        return msgspec.convert(match_view(service, game, match_id, role), D.view)

    async def explain(
        request: Request[Any, Any, Any], match_id: MatchId, data: Any
    ) -> doc.Explanation:
        """Whether the action is legal now; if not, the error naming its clauses. A side may
        ask only when it is to move (the answer is then a function of its view)."""
        role = service.access(request, match_id, name)
        return await service.gates.explain.run(
            lambda: _explain(service, game, match_id, role, data)
        )

    annotate(submit, data=Annotated[D.submit, Body()], **{"return": D.view | D.state})
    annotate(explain, data=Annotated[D.proposal, Body()])
    return submit, explain
