"""Who may create matches and jobs: the holder of the server's key, unless the server runs in
open mode; and no client more often than its rate allows.

Why a key by default, on loopback too: a loopback port is reachable by every local user and
every local process, and (through DNS rebinding or a careless local web app) by web pages;
a key that only the person who started the server has read (it is printed once at start-up,
or read from a file or the environment) makes creating work a deliberate act, as a Jupyter
server's token does. The cost is one click: the link the server prints sets the key as a
cookie (HttpOnly, SameSite=Strict) and opens `/`, whose page then creates matches as before.
Open mode (`wargame serve --open`) is for a machine of one's own, said explicitly.

A client presents the key as `Authorization: Bearer <key>` (programs) or by that cookie (the
page). With the cookie, a request that names another origin (`Origin`) is refused: a cookie
is sent by the browser whoever's page asks. Reading and playing a match need that match's
tokens, never the key; cancelling a job needs the token its creation returned.
"""

from __future__ import annotations

import hmac
import secrets
from typing import Annotated, Any, Final

from litestar import Request, Response, get
from litestar.connection import ASGIConnection
from litestar.datastructures import Cookie
from litestar.handlers.base import BaseRouteHandler
from litestar.params import QueryParameter

from tools.service.errors import Denied
from tools.service.limits import RateLimit

COOKIE: Final = "wargame_key"
KEY_ENV: Final = "WARGAME_SERVER_KEY"
"""The environment variable `wargame serve` reads its key from (else a file, else a fresh
one)."""


NEEDS_KEY: Final = (
    "creating needs the server's key: open the link `wargame serve` printed "
    "(/enter?key=...), or send Authorization: Bearer <key>"
)


def new_key() -> str:
    return secrets.token_urlsafe(32)


class Creators:
    """The creation policy of one server: its key (None: open mode) and the per-client rate
    of creation (`per_minute`, with `burst` at once)."""

    def __init__(self, key: str | None, *, per_minute: float = 60.0, burst: int = 30) -> None:
        self.key = key
        self.rate = RateLimit(per_minute, burst)

    @property
    def open(self) -> bool:
        return self.key is None

    def admits(self, presented: str) -> bool:
        """Whether `presented` is the key (compared in constant time)."""
        return self.key is not None and hmac.compare_digest(
            presented.encode("utf-8", "surrogatepass"), self.key.encode("utf-8")
        )

    def check(self, connection: ASGIConnection[Any, Any, Any, Any]) -> None:
        """401 without the key (unless open), 403 for the cookie sent from another origin,
        429 past the client's rate."""
        if self.key is not None:
            header = connection.headers.get("authorization", "")
            scheme, _, token = header.partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                if not self.admits(token.strip()):
                    raise Denied(401, NEEDS_KEY)
            else:
                cookie = connection.cookies.get(COOKIE, "")
                if not cookie or not self.admits(cookie):
                    raise Denied(401, NEEDS_KEY)
                origin = connection.headers.get("origin")
                if origin is not None and origin != _own_origin(connection):
                    raise Denied(403)
        client = connection.client.host if connection.client is not None else "unknown"
        self.rate.take(client)


def _own_origin(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    scheme = connection.url.scheme
    host = connection.headers.get("host", "")
    return f"{scheme}://{host}"


def may_create(connection: ASGIConnection[Any, Any, Any, Any], _handler: BaseRouteHandler) -> None:
    """The guard of every creating route (a match, a job)."""
    creators: Creators = connection.app.state.creators
    creators.check(connection)


@get("/enter", include_in_schema=False, sync_to_thread=False)
def enter(
    request: Request[Any, Any, Any],
    key: Annotated[str, QueryParameter(required=False, max_length=200)] = "",
) -> Response[Any]:
    """The link the server prints: the key as a cookie, then `/` (303). A wrong key: 401."""
    creators: Creators = request.app.state.creators
    if creators.open:
        return Response("", status_code=303, headers={"Location": "/"})
    if not creators.admits(key):
        raise Denied(401)
    cookie = Cookie(
        key=COOKIE, value=key, path="/", httponly=True, samesite="strict", max_age=30 * 86400
    )
    return Response(
        "",
        status_code=303,
        headers={"Location": "/", "Cache-Control": "no-store"},
        cookies=[cookie],
    )
