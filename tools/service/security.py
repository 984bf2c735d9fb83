"""Web hygiene: security headers on every response, a Content-Security-Policy per page,
request headers bounded, the Host header checked, and a JSON error from the HTTP layer too.

The policy a page gets allows scripts only from this server and the page's own inline
scripts by their SHA-256 hash (computed from the page as served, so the page needs no
`unsafe-inline`), styles only from this server's style sheets (no `style` attribute in a
page's markup; styles set from a script through `element.style` are allowed by CSP), images
from this server or `data:` URIs, fetches to this server only, no frames, no plugins, no
`<base>`. Every other response gets the same policy with no script at all.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import re
from functools import lru_cache
from typing import Any, Final

import h11
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from tools.service.errors import Refused

MAX_HEADER_BYTES: Final = 8 * 1024
"""The request's headers together (names and values): a bearer token, a cookie and a
browser's usual headers take about 1 KB. Beyond: 431 with the JSON error body."""
H11_EVENT_BYTES: Final = 32 * 1024
"""uvicorn's own bound on a request head: beyond it uvicorn answers itself, 400 (also with
the JSON error body, `JsonErrorsH11`)."""

BASE_POLICY: Final = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


@lru_cache(maxsize=16)
def page_policy(html: str) -> str:
    """The CSP of a page: this server's scripts and the page's inline ones by hash."""
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode("utf-8")).digest()).decode() + "'"
        for s in _INLINE_SCRIPT.findall(html)
    ]
    return f"{BASE_POLICY}; script-src 'self' {' '.join(hashes)}".rstrip()


SECURITY_HEADERS: Final = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
)


def _error_bytes(kind: str, message: str) -> bytes:
    return json.dumps({"error": kind, "message": message}).encode()


BODY_SECONDS: Final = 30.0
"""How long a request's body may take to arrive, all of it: a slow client holds a connection
and a partly read body no longer than this (408 after)."""


class Guard:
    """ASGI middleware in front of the app: refuses request heads that are too large (431)
    or name a host this server does not answer to (400: DNS rebinding, a page of another
    origin resolved to this address), bounds the time a body may take to arrive (408), and
    adds the security headers to every response."""

    def __init__(
        self, app: ASGIApp, hosts: frozenset[str] | None, body_seconds: float = BODY_SECONDS
    ) -> None:
        self.app = app
        self.hosts = hosts
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if str(scope["type"]) != "http":
            await self.app(scope, receive, send)
            return
        headers: Any = scope.get("headers", [])
        if sum(len(k) + len(v) for k, v in headers) > MAX_HEADER_BYTES:
            await _answer(send, 431, "headers_too_large", "the request headers are too large")
            return
        if self.hosts is not None:
            host = next((v for k, v in headers if k == b"host"), b"").decode("latin-1")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.lower() not in self.hosts:
                await _answer(send, 400, "bad_host", "this server does not answer to that host")
                return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                out: list[Any] = list(message.get("headers", []))
                names = {k.lower() for k, _v in out}
                out += [(k, v) for k, v in SECURITY_HEADERS if k not in names]
                if b"content-security-policy" not in names:
                    out.append((b"content-security-policy", BASE_POLICY.encode()))
                message["headers"] = out
            await send(message)

        await self.app(scope, _timed(receive, self.body_seconds), secured)


def _timed(receive: Receive, seconds: float) -> Receive:
    """`receive`, refusing with 408 a body that has not all arrived `seconds` after the
    first part was asked for (what follows the body passes untimed)."""
    deadline: list[float] = []
    done = [False]

    async def timed() -> Any:
        if done[0]:
            return await receive()
        loop = asyncio.get_running_loop()
        if not deadline:
            deadline.append(loop.time() + seconds)
        try:
            message = await asyncio.wait_for(receive(), max(deadline[0] - loop.time(), 0.001))
        except TimeoutError:
            raise Refused(
                408, "body_timeout", f"the body did not arrive within {seconds:g} s"
            ) from None
        if message["type"] != "http.request" or not message.get("more_body", False):
            done[0] = True
        return message

    return timed


async def _answer(send: Send, status: int, kind: str, message: str) -> None:
    body = _error_bytes(kind, message)
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        *SECURITY_HEADERS,
        (b"content-security-policy", BASE_POLICY.encode()),
    ]
    start: Any = {"type": "http.response.start", "status": status, "headers": headers}
    await send(start)
    await send({"type": "http.response.body", "body": body, "more_body": False})


LOOPBACK_NAMES: Final = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


def allowed_hosts(host: str) -> frozenset[str] | None:
    """The Host names a server bound to `host` answers to: on a loopback address, the
    loopback names only (a page of another site that resolves to 127.0.0.1 is refused);
    on another address, any (a proxy in front of it names the public host)."""
    if host in LOOPBACK_NAMES or host.startswith("127."):
        return LOOPBACK_NAMES | {host}
    return None


class JsonErrorsH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, answering a request it cannot read (a head beyond
    `H11_EVENT_BYTES`, malformed HTTP) with the JSON error body instead of plain text."""

    def send_400_response(self, msg: str) -> None:
        body = _error_bytes("invalid_request", msg)
        headers = [
            (b"content-type", b"application/json"),
            (b"connection", b"close"),
            *SECURITY_HEADERS,
        ]
        event = h11.Response(status_code=400, headers=headers, reason=b"Bad Request")
        self.transport.write(self.conn.send(event))
        self.transport.write(self.conn.send(event=h11.Data(data=body)))
        self.transport.write(self.conn.send(event=h11.EndOfMessage()))
        self.transport.close()
