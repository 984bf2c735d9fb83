"""`wargame serve`: the legal-move query service over HTTP (Litestar, served by uvicorn).

Litestar was chosen over FastAPI because it decodes and documents msgspec Structs natively:
the very wire records each game's codec decodes with (`kernel.wire.Record`) are the request
and response types here, so the OpenAPI 3.1 document (`/openapi.json`) is generated from the
same classes as the published JSON Schemas and cannot drift from them. FastAPI would need a
pydantic model beside every record, written twice.

Routes per game, under `/api/games/{game}`, so that every game's actions and states have their
exact schema in the OpenAPI document:

    GET  /api/games                                   games, presets, options
    GET  /api/games/{game}                            one game
    POST /api/games/{game}/matches                    create -> a token per side + referee
    GET  /api/games/{game}/matches/{id}/view          a side's view (the referee: ?side=)
    GET  /api/games/{game}/matches/{id}/state         the referee's full state
    GET  /api/games/{game}/matches/{id}/log           the readable log, as the reader may see it
    POST /api/games/{game}/matches/{id}/actions       submit {ply, action}
    POST /api/games/{game}/matches/{id}/explain       why an action is (il)legal now
    GET  /api/games/{game}/matches/{id}/chance        chance outcomes, exact probabilities
    GET  /api/games/{game}/matches/{id}/picture.svg   the position as SVG, as the reader sees it
    POST /api/jobs, GET /api/jobs/{id}                explore / verify in a worker process

Access: `Authorization: Bearer <token>`. A side's token reads that side's view and acts only
when that side is to move; nothing it receives depends on what is hidden from it. Missing or
unknown token: 401; a token of another match or the wrong role: 403, with no detail.
"""

import functools
import inspect
import operator
import threading
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import attrs
import msgspec
from litestar import Litestar, MediaType, Request, Response, Router, get, post
from litestar.exceptions import (
    HTTPException,
    MethodNotAllowedException,
    NotFoundException,
    ValidationException,
)
from litestar.openapi import OpenAPIConfig, ResponseSpec
from litestar.params import Body, PathParameter, QueryParameter
from litestar.static_files import create_static_files_router

from kernel.errors import (
    DataError,
    IllegalAction,
    ImpossiblePosition,
    InvalidInput,
    WargameError,
)
from kernel.game import CHANCE
from kernel.roles import AssembledGame
from kernel.views import NotYourTurn, check_side, check_turn, view
from kernel.wire import to_builtins
from tools.registry import game_names, get_game
from tools.render import render_svg
from tools.service import documents as doc
from tools.service import logview
from tools.service.store import REFEREE, StaleSubmission, Store, StoreError, UnknownGame

STATIC = Path(__file__).with_name("static")


def _errors(*codes: int) -> dict[int, ResponseSpec]:
    """The error responses an operation documents (all with `documents.ErrorBody`)."""
    what = {
        400: "Malformed input: the body names the JSON field",
        401: "No valid token",
        403: "The token does not give this access",
        404: "No such match, job or game",
        409: "Stale ply (expected_ply says the current one) or not this side's turn",
        422: "An illegal action or impossible position: the body names the clauses",
    }
    return {c: ResponseSpec(data_container=doc.ErrorBody, description=what[c]) for c in codes}


MATCH_ERRORS = _errors(400, 401, 403, 404)

MatchId = Annotated[str, PathParameter(description="The match's id, as creating it returned")]
JobId = Annotated[str, PathParameter(description="The job's id, as starting it returned")]
T = TypeVar("T")
Handler = Callable[..., Any]


# --- errors ----------------------------------------------------------------------------------


class Denied(Exception):
    """401 (no valid token) or 403 (a token that does not give this access): no detail."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


def _status(exc: WargameError) -> int:
    if isinstance(exc, UnknownGame):
        return 404
    if isinstance(exc, NotYourTurn | StaleSubmission):
        return 409
    if isinstance(exc, IllegalAction | ImpossiblePosition | DataError):
        return 422
    if isinstance(exc, StoreError):
        return 503
    return 400


def _error_response(_request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Every error as one JSON shape (`documents.ErrorBody`); 5xx only for a fault of ours."""
    if isinstance(exc, Denied):
        kind = "unauthorized" if exc.status == 401 else "forbidden"
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        return Response({"error": kind}, status_code=exc.status, headers=headers)
    if isinstance(exc, WargameError):
        body = exc.to_json()
        if isinstance(exc, StaleSubmission):
            body["expected_ply"] = exc.expected
        return Response(body, status_code=_status(exc))
    if isinstance(exc, ValidationException):
        return Response(_validation_body(exc), status_code=400)
    if isinstance(exc, NotFoundException):
        return Response({"error": "not_found", "message": "no such resource"}, status_code=404)
    if isinstance(exc, MethodNotAllowedException):
        return Response(
            {"error": "method_not_allowed", "message": str(exc.detail)}, status_code=405
        )
    if isinstance(exc, HTTPException) and exc.status_code < 500:
        kind = "invalid_input" if exc.status_code == 400 else "bad_request"
        return Response({"error": kind, "message": str(exc.detail)}, status_code=exc.status_code)
    return Response({"error": "internal", "message": "internal error"}, status_code=500)


def _validation_body(exc: ValidationException) -> dict[str, Any]:
    """Litestar's validation detail as our error body: the JSON path of the first problem."""
    body: dict[str, Any] = {"error": "invalid_input", "message": str(exc.detail)}
    extra = exc.extra if isinstance(exc.extra, list) else []
    for item in extra:
        if isinstance(item, dict):
            message = str(item.get("message", ""))
            key = item.get("key")
            body["message"] = message or body["message"]
            path = message.rsplit(" - at `", 1)
            if len(path) == 2:
                body["field"] = path[1].rstrip("`")
            elif key:
                body["field"] = str(key)
            break
    return body


# --- the service -----------------------------------------------------------------------------


class Service:
    """The app's state: where the database is, and one Store per worker thread (sqlite3
    connections are not shared between threads)."""

    def __init__(self, db_path: str | Path) -> None:
        self.db_path = str(db_path)
        self._local = threading.local()
        Store(self.db_path).close()  # create or migrate now, not on the first request

    def store(self) -> Store:
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = Store(self.db_path)
            self._local.store = store
        return store

    def access(self, request: Request[Any, Any, Any], match_id: str, game: str) -> str:
        """The role the request's token gives in match `match_id` (404 when there is no
        such match of this game, 401/403 as the module says)."""
        store = self.store()
        if store.game_of(match_id) != game:
            raise UnknownGame(f"no {game} match with id {match_id!r}", field="match_id")
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Denied(401)
        role = store.role(match_id, token.strip())
        if role is None:
            raise Denied(403 if store.token_known(token.strip()) else 401)
        return role


def _require(role: str, allowed: Callable[[str], bool]) -> None:
    if not allowed(role):
        raise Denied(403)


def _game_info(game: AssembledGame[Any, Any]) -> dict[str, Any]:
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


def _reader_side(game: AssembledGame[Any, Any], role: str, side: str | None) -> str:
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


def _outcomes(game: AssembledGame[Any, Any], state: Any) -> list[dict[str, Any]]:
    if game.to_move(state) != CHANCE:
        return []
    return [
        {"action": game.action_to_json(a), "probability": str(p)}
        for a, p in game.chance_outcomes(state)
    ]


def _named(game: AssembledGame[Any, Any], generic: Any) -> Any:
    """A document parametrised with the game's wire types, as a concrete class named after
    the game (`NomonhanMatchView`, and within it `NomonhanViewRecord`...): the names its
    schemas have in the OpenAPI document, each with the game's own action and state types."""
    prefix = "".join(part.capitalize() for part in game.name.replace("_", " ").split())
    return _concrete(prefix, generic, _CONCRETE)


_CONCRETE: dict[str, Any] = {}


def _concrete(prefix: str, tp: Any, made: dict[str, Any]) -> Any:
    origin = typing.get_origin(tp)
    if isinstance(origin, type) and issubclass(origin, msgspec.Struct):
        name = prefix + origin.__name__
        if name not in made:
            fields: list[Any] = []
            for f in msgspec.structs.fields(tp):
                t = _concrete(prefix, f.type, made)
                if f.default is not msgspec.NODEFAULT:
                    fields.append((f.name, t, f.default))
                elif f.default_factory is not msgspec.NODEFAULT:
                    fields.append((f.name, t, msgspec.field(default_factory=f.default_factory)))
                else:
                    fields.append((f.name, t))
            cls = msgspec.defstruct(
                name,
                fields,
                frozen=True,
                forbid_unknown_fields=True,
                kw_only=True,
                module=__name__,
            )
            cls.__doc__ = origin.__doc__
            made[name] = cls
        return made[name]
    if origin in (list, tuple, dict):
        args = tuple(_concrete(prefix, a, made) for a in typing.get_args(tp))
        return origin[args]
    if origin in (typing.Union, types.UnionType):
        return functools.reduce(
            operator.or_, [_concrete(prefix, a, made) for a in typing.get_args(tp)]
        )
    return tp


@attrs.frozen
class _Docs:
    """One game's documents (classes made at start-up, so typed `Any` for mypy)."""

    create: Any
    view: Any
    state: Any
    log: Any
    submit: Any
    proposal: Any
    chance: Any

    @classmethod
    def of(cls, game: AssembledGame[Any, Any]) -> "_Docs":
        w = game.wire
        d: Any = doc  # parametrised with run-time types: beyond a static checker
        return cls(
            create=_named(game, d.CreateMatch[w.state]),
            view=_named(game, d.MatchView[w.observation, w.action]),
            state=_named(game, d.RefereeState[w.state, w.action]),
            log=_named(game, d.MatchLog[w.action]),
            submit=_named(game, d.Submit[w.action]),
            proposal=_named(game, d.Proposal[w.action]),
            chance=_named(game, d.ChanceList[w.action]),
        )


def _annotate(fn: Callable[..., Any], **hints: Any) -> Callable[..., Any]:
    """Give a handler made per game its game's types (Litestar reads the annotations)."""
    fn.__annotations__ = {**fn.__annotations__, **hints}
    return fn


def _game_router(service: Service, game: AssembledGame[Any, Any]) -> Router:
    """The routes of one game, typed with its own wire records."""
    D = _Docs.of(game)
    for cls in attrs.astuple(D, recurse=False):  # type info built now, in one thread
        msgspec.json.Decoder(cls)
    info, create = _setup_handlers(service, game, D)
    get_view, get_state, get_log, chance, picture = _reading_handlers(service, game, D)
    submit, explain = _acting_handlers(service, game, D)
    at = "/matches/{match_id:str}"
    acting = {**MATCH_ERRORS, **_errors(409, 422)}
    asking = {**MATCH_ERRORS, **_errors(409)}
    routes: list[tuple[Any, str, Callable[..., Any], str, dict[int, ResponseSpec]]] = [
        (post, "/matches", create, "Create a match", _errors(400, 422)),
        (get, f"{at}/view", get_view, "A side's view", MATCH_ERRORS),
        (get, f"{at}/state", get_state, "The referee's whole state", MATCH_ERRORS),
        (get, f"{at}/log", get_log, "The readable log", MATCH_ERRORS),
        (post, f"{at}/actions", submit, "Submit an action", acting),
        (post, f"{at}/explain", explain, "Explain an action", asking),
        (get, f"{at}/chance", chance, "Chance outcomes", MATCH_ERRORS),
    ]
    handlers: list[Any] = [
        get("", sync_to_thread=False, summary=f"{game.title}: sides, presets, options")(info),
        get(
            f"{at}/picture.svg",
            sync_to_thread=True,
            media_type="image/svg+xml",
            summary="The position as SVG",
            responses=MATCH_ERRORS,
        )(picture),
    ]
    # The short, frequent requests run on the event loop: one process runs one request at a
    # time anyway (the GIL), and skipping the hop to a worker thread doubles the actions a
    # second (`make bench`). Creating a match and the log, which may take longer, run in
    # worker threads so that they do not hold the others up.
    in_thread = {create, get_log}
    for method, path, fn, summary, responses in routes:
        status = {"status_code": 200} if method is post and path != "/matches" else {}
        handlers.append(
            method(
                path,
                sync_to_thread=fn in in_thread,
                summary=summary,
                responses=responses,
                **status,
            )(fn)
        )
    return Router(path=f"/api/games/{game.name}", route_handlers=handlers, tags=[game.name])


def _match_view(
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


def _referee_state(
    service: Service, game: AssembledGame[Any, Any], match_id: str
) -> dict[str, Any]:
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
        "chance_outcomes": _outcomes(game, state),
        "result": None if outcome is None else outcome.to_json(),
        "gap_clauses": gap,
        "variant": record.variant,
        "agents": record.agents,
        "chance": record.chance,
    }


def _setup_handlers(
    service: Service, game: AssembledGame[Any, Any], D: _Docs
) -> tuple[Handler, Handler]:
    """The handlers that need no match: the game itself (`info`), and a new match
    (`create`)."""
    name = game.name

    def info() -> doc.GameInfo:
        return msgspec.convert(_game_info(game), doc.GameInfo)

    def create(data: Any) -> Response[doc.Created]:
        variant: Any = data.variant
        if variant is None:
            variant = game.catalogue.default_preset
        elif not isinstance(variant, str):
            variant = to_builtins(variant)
        position = None if data.position is None else to_builtins(data.position)
        record = service.store().create(
            name,
            variant,
            chance=data.chance,
            agents=dict(data.agents),
            position=position,
            seed=data.seed,
        )
        base = f"/play/{name}/{record.id}"
        links = {role: f"{base}#token={token}" for role, token in record.tokens.items()}
        body = doc.Created(
            id=record.id, game=name, ply=record.ply, tokens=record.tokens, links=links
        )
        return Response(body, status_code=201)

    _annotate(create, data=Annotated[D.create, Body()])
    return info, create


def _reading_handlers(
    service: Service, game: AssembledGame[Any, Any], D: _Docs
) -> tuple[Handler, Handler, Handler, Handler, Handler]:
    """The handlers that read a match, each as its token may: a side's view (`get_view`), the
    referee's whole state (`get_state`), the readable log (`get_log`), the chance outcomes
    (`chance`) and the picture (`picture`)."""
    name = game.name

    def get_view(
        request: Request[Any, Any, Any],
        match_id: MatchId,
        side: Annotated[str | None, QueryParameter(required=False)] = None,
    ) -> Any:
        role = service.access(request, match_id, name)
        reader = _reader_side(game, role, side)
        return _match_view(service, game, match_id, reader)

    def get_state(request: Request[Any, Any, Any], match_id: MatchId) -> Any:
        _require(service.access(request, match_id, name), lambda r: r == REFEREE)
        return _referee_state(service, game, match_id)

    def get_log(request: Request[Any, Any, Any], match_id: MatchId) -> Any:
        role = service.access(request, match_id, name)
        store = service.store()
        record = store.get(match_id)
        steps = store.log_entries(match_id)

        def decode(ply: int, data: dict[str, Any]) -> Any:
            return store.decoded(match_id, game, ply, data)

        _, state = store.current(match_id)
        outcome = game.outcome(state) if game.to_move(state) is None else None
        return {
            "id": match_id,
            "game": name,
            "ply": record.ply,
            "variant": record.variant,
            "entries": logview.entries(game, steps, role, decode),
            "result": None if outcome is None else outcome.to_json(),
        }

    def chance(request: Request[Any, Any, Any], match_id: MatchId) -> Any:
        """The chance outcomes with exact probabilities when chance is to move: for the
        referee, and for the sides of a game that hides nothing (the outcomes of a draw
        list the cards it may be)."""
        role = service.access(request, match_id, name)
        _require(role, lambda r: r == REFEREE or game.perfect_information)
        _record, state = service.store().current(match_id)
        return {"to_move": game.to_move(state), "outcomes": _outcomes(game, state)}

    def picture(
        request: Request[Any, Any, Any],
        match_id: MatchId,
        side: Annotated[str | None, QueryParameter(required=False)] = None,
    ) -> Response[str]:
        """The position as SVG, as the reader sees it: a side's picture shows nothing hidden
        from it; the referee's the whole position, or a side's with ?side=."""
        role = service.access(request, match_id, name)
        _record, state = service.store().current(match_id)
        draw: Callable[..., Any] | None = getattr(game, "scene", None)
        if draw is None:
            raise InvalidInput(f"{name} has no picture yet", field="game")
        takes_side = "side" in inspect.signature(draw).parameters
        reader = None if role == REFEREE and side is None else _reader_side(game, role, side)
        if reader is None or game.perfect_information:
            scene = draw(state)
        elif takes_side:
            scene = draw(state, side=reader)
        else:
            raise InvalidInput(f"{name}'s picture has no view per side yet", field="side")
        return Response(render_svg(scene), media_type="image/svg+xml")

    _annotate(get_view, **{"return": D.view})
    _annotate(get_state, **{"return": D.state})
    _annotate(get_log, **{"return": D.log})
    _annotate(chance, **{"return": D.chance})
    return get_view, get_state, get_log, chance, picture


def _acting_handlers(
    service: Service, game: AssembledGame[Any, Any], D: _Docs
) -> tuple[Handler, Handler]:
    """The handlers that put an action to a match: submit it (`submit`), or ask whether it is
    legal now (`explain`)."""
    name = game.name

    def submit(
        request: Request[Any, Any, Any],
        match_id: MatchId,
        data: Any,
    ) -> Any:
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
            return _referee_state(service, game, match_id)
        return msgspec.convert(_match_view(service, game, match_id, role), D.view)

    def explain(
        request: Request[Any, Any, Any],
        match_id: MatchId,
        data: Any,
    ) -> doc.Explanation:
        """Whether the action is legal now; if not, the error naming its clauses. A side may
        ask only when it is to move (the answer is then a function of its view)."""
        role = service.access(request, match_id, name)
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

    _annotate(submit, data=Annotated[D.submit, Body()], **{"return": D.view | D.state})
    _annotate(explain, data=Annotated[D.proposal, Body()])
    return submit, explain


def _repair(node: Any) -> Any:
    """The generated document with Litestar's rendering of a variadic tuple (`tuple[X, ...]`
    as items `oneOf: [X, {}]`, which every value matches twice) made `items: X`."""
    if isinstance(node, list):
        return [_repair(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _repair(v) for k, v in node.items()}
    one_of = out.get("oneOf")
    if isinstance(one_of, list) and len(one_of) == 2 and one_of[1] == {}:
        del out["oneOf"]
        out.update(one_of[0])
    return out


# --- the app ---------------------------------------------------------------------------------


def create_app(db_path: str | Path, *, run_jobs: bool = True) -> Litestar:
    """The service over the SQLite file `db_path` (created or migrated at once). With
    `run_jobs`, queued `explore`/`verify` jobs run in a worker process, one at a time."""
    from tools.service.jobs import JobRunner

    service = Service(db_path)
    for cls in (doc.GameList, doc.Job, doc.JobRequest, doc.ErrorBody, doc.Explanation):
        msgspec.json.Decoder(cls)  # type info built now, not by two request threads at once
    runner = JobRunner(service.db_path) if run_jobs else None

    @get("/api/games", sync_to_thread=False, summary="The games, their presets and options")
    def games() -> doc.GameList:
        return msgspec.convert(
            {"games": [_game_info(get_game(n)) for n in game_names()]}, doc.GameList
        )

    @post(
        "/api/jobs",
        sync_to_thread=True,
        status_code=202,
        summary="Start explore or verify",
        responses=_errors(400),
    )
    def start_job(data: Annotated[doc.JobRequest, Body()]) -> doc.Job:
        game = get_game(data.game)
        if data.budget <= 0 or data.budget > 600:
            raise InvalidInput("budget must be more than 0 and at most 600 s", field="budget")
        if data.preset is not None and data.preset not in game.presets():
            known = ", ".join(sorted(game.presets()))
            raise InvalidInput(f"no preset {data.preset!r} (presets: {known})", field="preset")
        if data.option is not None and data.option not in {o.name for o in game.catalogue.options}:
            raise InvalidInput(f"{game.name} has no option {data.option!r}", field="option")
        if data.property:
            from tools.verify import spec_verification

            spec = spec_verification(game)
            ids = {p.id for p in spec.properties()} if spec is not None else set()
            unknown = sorted(set(data.property) - ids)
            if unknown:
                raise InvalidInput(
                    f"{game.name} has no property {', '.join(unknown)}", field="property"
                )
        params = {k: v for k, v in to_builtins(data).items() if k not in ("kind", "game")}
        job = service.store().add_job(data.kind, game.name, params)
        if runner is not None:
            runner.wake()
        return msgspec.convert(job.to_json(), doc.Job)

    @get(
        "/api/jobs/{job_id:str}",
        sync_to_thread=True,
        summary="A job's status and result",
        responses=_errors(404),
    )
    def get_job(job_id: JobId) -> doc.Job:
        return msgspec.convert(service.store().job(job_id).to_json(), doc.Job)

    @get("/openapi.json", include_in_schema=False, sync_to_thread=False)
    def openapi(request: Request[Any, Any, Any]) -> dict[str, Any]:
        cached: dict[str, Any] | None = getattr(request.app.state, "openapi", None)
        if cached is None:
            cached = _repair(request.app.openapi_schema.to_schema())
            request.app.state.openapi = cached
        return cached

    @get("/", include_in_schema=False, media_type=MediaType.HTML, sync_to_thread=False)
    def index() -> str:
        return (STATIC / "index.html").read_text(encoding="utf-8")

    @get(
        "/play/{game:str}/{match_id:str}",
        include_in_schema=False,
        media_type=MediaType.HTML,
        sync_to_thread=False,
    )
    def play_page(game: Annotated[str, PathParameter()], match_id: MatchId) -> str:
        get_game(game)
        return (STATIC / "play.html").read_text(encoding="utf-8")

    handlers: list[Any] = [games, start_job, get_job, openapi, index, play_page]
    handlers += [_game_router(service, get_game(n)) for n in game_names()]
    handlers.append(create_static_files_router(path="/static", directories=[STATIC]))
    app = Litestar(
        route_handlers=handlers,
        exception_handlers={Exception: _error_response},
        openapi_config=OpenAPIConfig(
            title="wargame-kernel",
            version="1",
            description=(__doc__ or "").split("\n\n")[0],
            path="/schema",
        ),
        on_startup=[runner.start] if runner is not None else [],
        on_shutdown=[runner.stop] if runner is not None else [],
        debug=False,
    )
    app.state.service = service
    return app


def serve(db_path: str | Path, host: str, port: int) -> None:
    """Run the service with uvicorn until interrupted."""
    import uvicorn

    uvicorn.run(create_app(db_path), host=host, port=port, log_level="info", access_log=False)
