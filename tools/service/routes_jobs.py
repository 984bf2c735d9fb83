"""The job routes: start `explore` or `verify` (the right to create, `auth`; a bounded queue
and budget, `jobs`), read a job, and cancel it with the token its start returned."""

from typing import Annotated, Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import Body, PathParameter

from kernel.errors import InvalidInput
from kernel.wire import to_builtins
from tools.registry import get_game
from tools.service import documents as doc
from tools.service.auth import may_create
from tools.service.context import Service
from tools.service.errors import Denied, errors
from tools.service.jobs import MAX_BUDGET, MAX_QUEUED, JobRunner
from tools.service.limits import JOB_BODY, json_only, limit_text, strict

JobId = Annotated[str, PathParameter(description="The job's id, as starting it returned")]


def _check(data: doc.JobRequest) -> Any:
    """The game, after the request's names and budget are checked against it."""
    game = get_game(data.game)
    if data.budget <= 0 or data.budget > MAX_BUDGET:
        raise InvalidInput(
            f"budget must be more than 0 and at most {MAX_BUDGET:g} s", field="budget"
        )
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
    return game


def job_routes(service: Service, runner: JobRunner | None) -> list[Any]:
    """The three job routes."""

    @post(
        "/api/jobs",
        sync_to_thread=True,
        status_code=202,
        summary="Start explore or verify",
        description=limit_text(JOB_BODY)
        + f" The budget is at most {MAX_BUDGET:g} s; at most {MAX_QUEUED} jobs wait.",
        responses={**errors(400, 401, 408, 413, 415, 429)},
        guards=[json_only, may_create],
        request_max_body_size=JOB_BODY,
        dto=strict(doc.JobRequest),
        return_dto=None,
    )
    def start_job(data: Annotated[doc.JobRequest, Body()]) -> doc.Job:
        game = _check(data)
        params = {k: v for k, v in to_builtins(data).items() if k not in ("kind", "game")}
        job, token = service.store().add_job_with_token(
            data.kind, game.name, params, max_queued=MAX_QUEUED
        )
        if runner is not None:
            runner.wake()
        return msgspec.convert({**job.to_json(), "token": token}, doc.Job)

    @get(
        "/api/jobs/{job_id:str}",
        sync_to_thread=True,
        summary="A job's status and result",
        responses=errors(404),
    )
    def get_job(job_id: JobId) -> doc.Job:
        return msgspec.convert(service.store().job(job_id).to_json(), doc.Job)

    @delete(
        "/api/jobs/{job_id:str}",
        sync_to_thread=True,
        status_code=200,
        summary="Cancel a job (its creator's token, as starting it returned)",
        responses=errors(401, 403, 404),
    )
    def cancel_job(request: Request[Any, Any, Any], job_id: JobId) -> Response[doc.Job]:
        header = request.headers.get("authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Denied(401)
        store = service.store()
        if store.cancel_job(job_id, token.strip()) is None:
            raise Denied(403)
        job = msgspec.convert(store.job(job_id).to_json(), doc.Job)
        return Response(job, status_code=200)

    return [start_job, get_job, cancel_job]
