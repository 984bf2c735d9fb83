"""`wargame serve`: the legal-move query service over HTTP (Litestar, served by uvicorn).

Litestar was chosen over FastAPI because it decodes and documents msgspec Structs natively:
the very wire records each game's codec decodes with (`kernel.wire.Record`) are the request
and response types here, so the OpenAPI 3.1 document (`/openapi.json`) is generated from the
same classes as the published JSON Schemas and cannot drift from them. FastAPI would need a
pydantic model beside every record, written twice.

Routes per game, under `/api/games/{game}`, so that every game's actions and states have their
exact schema in the OpenAPI document:

    GET    /api/games                                   games, presets, options
    GET    /api/games/{game}                            one game
    POST   /api/games/{game}/matches                    create -> a token per side + referee
    GET    /api/games/{game}/matches/{id}/role          the role the token gives (side, referee)
    GET    /api/games/{game}/matches/{id}/view          a side's view (the referee: ?side=)
    GET    /api/games/{game}/matches/{id}/state         the referee's full state
    GET    /api/games/{game}/matches/{id}/log           the readable log, as the reader may see it
    POST   /api/games/{game}/matches/{id}/actions       submit {ply, action}
    POST   /api/games/{game}/matches/{id}/explain       why an action is (il)legal now
    GET    /api/games/{game}/matches/{id}/chance        chance outcomes, exact probabilities
    GET    /api/games/{game}/matches/{id}/picture.svg   the position as SVG, as the reader sees it
    POST   /api/jobs, GET /api/jobs/{id}                explore / verify in a worker process
    DELETE /api/jobs/{id}                               cancel it (the token its start returned)

Access: `Authorization: Bearer <token>`. A side's token reads that side's view and acts only
when that side is to move; nothing it receives depends on what is hidden from it. Missing or
unknown token: 401; a token of another match or the wrong role: 403, with no detail. Creating
a match or a job needs the server's key unless the server is open (`auth`); what one request
may cost is bounded (`limits`); the headers every answer carries are in `security`.
"""

from pathlib import Path
from typing import Annotated, Any

import msgspec
from litestar import Litestar, MediaType, Request, Response, get
from litestar.config.cors import CORSConfig
from litestar.middleware import DefineMiddleware
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.params import PathParameter
from litestar.static_files import create_static_files_router

from tools.registry import game_names, get_game
from tools.service import documents as doc
from tools.service.auth import Creators, enter
from tools.service.context import Service
from tools.service.errors import error_response
from tools.service.routes_jobs import job_routes
from tools.service.routes_match import game_info, game_router
from tools.service.security import (
    BODY_SECONDS,
    H11_EVENT_BYTES,
    Guard,
    JsonErrorsH11,
    allowed_hosts,
    page_policy,
)
from tools.service.typed_docs import repair

STATIC = Path(__file__).with_name("static")
MatchId = Annotated[str, PathParameter(description="The match's id, as creating it returned")]


def _page(name: str) -> Response[str]:
    """A page of `static/` with the Content-Security-Policy its inline scripts need."""
    html = (STATIC / name).read_text(encoding="utf-8")
    return Response(
        html,
        media_type=MediaType.HTML,
        headers={"Content-Security-Policy": page_policy(html), "Cache-Control": "no-store"},
    )


def _pages() -> list[Any]:
    """`/`, the play page and the favicon (when `static/favicon.svg` is there; 404 else)."""

    @get("/", include_in_schema=False, sync_to_thread=False)
    def index() -> Response[str]:
        return _page("index.html")

    @get("/play/{game:str}/{match_id:str}", include_in_schema=False, sync_to_thread=False)
    def play_page(game: Annotated[str, PathParameter()], match_id: MatchId) -> Response[str]:
        get_game(game)
        return _page("play.html")

    @get("/favicon.ico", include_in_schema=False, sync_to_thread=False)
    def favicon() -> Response[bytes]:
        icon = STATIC / "favicon.svg"
        if not icon.is_file():
            return Response(b"", status_code=204)
        headers = {"Cache-Control": "max-age=86400"}
        return Response(icon.read_bytes(), media_type="image/svg+xml", headers=headers)

    @get("/openapi.json", include_in_schema=False, sync_to_thread=False)
    def openapi(request: Request[Any, Any, Any]) -> dict[str, Any]:
        cached: dict[str, Any] | None = getattr(request.app.state, "openapi", None)
        if cached is None:
            cached = repair(request.app.openapi_schema.to_schema())
            request.app.state.openapi = cached
        return cached

    return [index, play_page, favicon, openapi]


def create_app(
    db_path: str | Path,
    *,
    run_jobs: bool = True,
    key: str | None = None,
    create_per_minute: float = 600.0,
    create_burst: int = 120,
    hosts: frozenset[str] | None = None,
    cors_origins: tuple[str, ...] = (),
    body_seconds: float = BODY_SECONDS,
) -> Litestar:
    """The service over the SQLite file `db_path` (created or migrated at once). With
        `run_jobs`, queued `explore`/`verify` jobs run in a worker process, one at a time.

        `key`: the server's key that creating a match or a job needs; None is open mode (what
        tests and embedding use: `wargame serve` passes a key unless told `--open`). Each client
        creates at most `create_burst` at once and `create_per_minute` after. `hosts`: the Host
        names answered (None: any). `cors_origins`: the other origins whose pages may call the
        API (none by default: only this server's own pages, the same origin). `body_seconds`: how
    long a body may take to arrive."""
    from tools.service.jobs import JobRunner

    service = Service(db_path)
    for cls in (doc.GameList, doc.Job, doc.JobRequest, doc.ErrorBody, doc.Explanation):
        msgspec.json.Decoder(cls)  # type info built now, not by two request threads at once
    runner = JobRunner(service.db_path) if run_jobs else None

    @get("/api/games", sync_to_thread=False, summary="The games, their presets and options")
    def games() -> doc.GameList:
        return msgspec.convert(
            {"games": [game_info(get_game(n)) for n in game_names()]}, doc.GameList
        )

    handlers: list[Any] = [games, enter, *job_routes(service, runner), *_pages()]
    handlers += [game_router(service, get_game(n)) for n in game_names()]
    from tools.service.choices import choice_routes

    handlers += choice_routes(service)
    handlers.append(create_static_files_router(path="/static", directories=[STATIC]))
    cors = None
    if cors_origins:
        cors = CORSConfig(
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["authorization", "content-type"],
            allow_credentials=False,
        )
    app = Litestar(
        route_handlers=handlers,
        exception_handlers={Exception: error_response},
        openapi_config=OpenAPIConfig(
            title="wargame-kernel",
            version="1",
            description=(__doc__ or "").split("\n\n")[0],
            path="/schema",
            # the document itself, no page that loads scripts and fonts from the network
            render_plugins=[JsonRenderPlugin(path=["/", "/openapi.json"])],
        ),
        cors_config=cors,
        middleware=[DefineMiddleware(Guard, hosts=hosts, body_seconds=body_seconds)],
        request_max_body_size=4096,
        on_startup=[runner.start] if runner is not None else [],
        on_shutdown=[runner.stop] if runner is not None else [],
        debug=False,
    )
    app.state.service = service
    app.state.creators = Creators(key, per_minute=create_per_minute, burst=create_burst)
    return app


def serve(
    db_path: str | Path,
    host: str,
    port: int,
    *,
    key: str | None,
    create_per_minute: float = 30.0,
    create_burst: int = 20,
    cors_origins: tuple[str, ...] = (),
) -> None:
    """Run the service with uvicorn until interrupted (`key`: see `create_app`)."""
    import uvicorn

    app = create_app(
        db_path,
        key=key,
        create_per_minute=create_per_minute,
        create_burst=create_burst,
        hosts=allowed_hosts(host),
        cors_origins=cors_origins,
    )
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="info",
        access_log=False,
        http=JsonErrorsH11,
        h11_max_incomplete_event_size=H11_EVENT_BYTES,
        timeout_keep_alive=5,
    )
