"""Every error the service answers, as one JSON shape (`documents.ErrorBody`).

A 5xx is only ever a fault of ours: whatever a client sends (a body too large, of the wrong
type, malformed, too deep, too many requests) is a 4xx with the body naming what to fix.
"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response
from litestar.exceptions import (
    HTTPException,
    MethodNotAllowedException,
    NotFoundException,
    ValidationException,
)
from litestar.openapi import ResponseSpec

from kernel.errors import (
    DataError,
    IllegalAction,
    ImpossiblePosition,
    WargameError,
)
from kernel.views import NotYourTurn
from tools.service import documents as doc
from tools.service.jobstore import QueueFull
from tools.service.store_errors import StaleSubmission, StoreError, UnknownGame


class Denied(Exception):
    """401 (no valid token or server key) or 403 (a token that does not give this access):
    no detail."""

    def __init__(self, status: int, message: str = "") -> None:
        super().__init__(status)
        self.status = status
        self.message = message


class Refused(Exception):
    """A request refused for what it is, not what it says: 408 (the body too slow), 413 (body
    too large), 415 (not JSON), 429 (too many requests: `retry_after` seconds)."""

    def __init__(self, status: int, kind: str, message: str, *, retry_after: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.message = message
        self.retry_after = retry_after

    def body(self) -> dict[str, Any]:
        return {"error": self.kind, "message": self.message}


WHAT = {
    400: "Malformed input: the body names the JSON field",
    401: "No valid token (a match's) or server key (creating)",
    403: "The token does not give this access",
    404: "No such match, job or game",
    408: "The body did not arrive in time",
    409: "Stale ply (expected_ply says the current one) or not this side's turn",
    413: "The body is larger than this operation's limit",
    415: "The body is not application/json",
    422: "An illegal action or impossible position: the body names the clauses",
    429: "Too many requests from this client, or the server is busy: see Retry-After",
}


def errors(*codes: int) -> dict[int, ResponseSpec]:
    """The error responses an operation documents (all with `documents.ErrorBody`)."""
    return {c: ResponseSpec(data_container=doc.ErrorBody, description=WHAT[c]) for c in codes}


def _status(exc: WargameError) -> int:
    if isinstance(exc, UnknownGame):
        return 404
    if isinstance(exc, NotYourTurn | StaleSubmission):
        return 409
    if isinstance(exc, IllegalAction | ImpossiblePosition | DataError):
        return 422
    if isinstance(exc, QueueFull):
        return 429
    if isinstance(exc, StoreError):
        return 503
    return 400


def error_response(_request: Request[Any, Any, Any], exc: Exception) -> Response[Any]:
    """Every error as one JSON shape (`documents.ErrorBody`); 5xx only for a fault of ours."""
    if isinstance(exc, Denied):
        kind = "unauthorized" if exc.status == 401 else "forbidden"
        headers = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else None
        said = {"error": kind, "message": exc.message} if exc.message else {"error": kind}
        return Response(said, status_code=exc.status, headers=headers)
    if isinstance(exc, Refused):
        retry = {"Retry-After": str(exc.retry_after)} if exc.retry_after else None
        return Response(exc.body(), status_code=exc.status, headers=retry)
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
    if isinstance(exc, HTTPException) and exc.status_code == 413:
        return Response(
            {"error": "too_large", "message": "the body is larger than this operation takes"},
            status_code=413,
        )
    if isinstance(exc, HTTPException) and exc.status_code < 500:
        kind = "invalid_input" if exc.status_code == 400 else "bad_request"
        return Response({"error": kind, "message": str(exc.detail)}, status_code=exc.status_code)
    if isinstance(exc, HTTPException) and "disconnected" in str(exc.detail):
        # the client went away mid-body: nobody reads this answer, and it is not our fault
        return Response({"error": "bad_request", "message": "incomplete body"}, status_code=400)
    return Response({"error": "internal", "message": "internal error"}, status_code=500)


def _validation_body(exc: ValidationException) -> dict[str, Any]:
    """Litestar's validation detail (path and query parameters) as our error body: the
    name of the first problem."""
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
