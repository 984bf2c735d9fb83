"""What one request may cost: the body's size and type, how it is decoded, how many expensive
requests run at once, and how often one client may create.

Bodies: each route takes at most what it can legitimately receive (the largest state of any
game is about 8 KB, the largest action a few hundred bytes), refused with 413 from the
Content-Length header before a byte is read, or as soon as a chunked body passes the limit.
Only `application/json` is taken (415 otherwise): a web page of another origin cannot send it
without a CORS preflight, which this service does not grant.

Decoding: the body goes through `kernel.wire.decode`, the command line's own strict reader
(size, depth and integer bounds, duplicate keys refused, no coercion of types), so that a
document is refused over HTTP exactly as on the command line. Litestar's own decoding (last
duplicate key wins, "0" taken for 0) is never used for a body.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Generator
from typing import Any, Final, TypeVar

import anyio.to_thread
from litestar.connection import ASGIConnection
from litestar.dto import AbstractDTO, DTOConfig, DTOFieldDefinition
from litestar.handlers.base import BaseRouteHandler
from litestar.openapi.spec import Reference, Schema
from litestar.typing import FieldDefinition

from kernel import wire
from tools.service.errors import Refused

T = TypeVar("T")

KIB: Final = 1024
CREATE_BODY: Final = 64 * KIB
"""A new match: a variant, agents, a seed and at most one state (8 KB at most today)."""
ACTION_BODY: Final = 16 * KIB
"""An action and its ply (a few hundred bytes today; a long declaration stays well within)."""
JOB_BODY: Final = 4 * KIB
"""A job request: a kind, a game, a preset, an option, a budget, property names."""


def limit_text(limit: int) -> str:
    """The limit as the OpenAPI document states it in each operation's description."""
    return f"The body is JSON (application/json, else 415) of at most {limit} bytes (else 413)."


# --- strict bodies ---------------------------------------------------------------------------


class StrictBody(AbstractDTO[T]):
    """A request body decoded by `kernel.wire.decode` (the command line's reader) into the
    handler's wire record; documented in the OpenAPI document as that record itself."""

    config = DTOConfig()

    @classmethod
    def generate_field_definitions(
        cls, model_type: type[Any]
    ) -> Generator[DTOFieldDefinition, None, None]:
        yield from ()

    @classmethod
    def detect_nested_field(cls, field_definition: FieldDefinition) -> bool:
        return False

    @classmethod
    def create_for_field_definition(
        cls, field_definition: FieldDefinition, handler_id: str, backend_cls: Any = None
    ) -> None:
        """Nothing to build: the record decodes itself."""

    @classmethod
    def create_openapi_schema(
        cls, field_definition: FieldDefinition, handler_id: str, schema_creator: Any
    ) -> Reference | Schema:
        made = FieldDefinition.from_annotation(
            cls.model_type, kwarg_definition=field_definition.kwarg_definition
        )
        schema: Reference | Schema = schema_creator.for_field_definition(made)
        return schema

    def decode_bytes(self, value: bytes) -> Any:
        return wire.decode(value, self.model_type, what="body")

    def decode_builtins(self, value: dict[str, Any]) -> Any:
        return wire.convert(value, self.model_type, what="")


def strict(model: Any) -> Any:
    """The DTO that decodes `model` strictly (a class made at start-up: typed Any)."""
    return StrictBody[model]


# --- guards ------------------------------------------------------------------------------------

JSON_TYPES: Final = frozenset({"application/json"})


def json_only(connection: ASGIConnection[Any, Any, Any, Any], _handler: BaseRouteHandler) -> None:
    """415 for a body that is not `application/json` (a charset parameter may follow, and
    must then be UTF-8): decided from the header, before the body is read."""
    header = connection.headers.get("content-type", "")
    media, _, params = header.partition(";")
    if media.strip().lower() not in JSON_TYPES:
        raise Refused(415, "unsupported_media_type", "send the body as application/json")
    charset = params.strip().lower()
    if charset and charset.replace(" ", "") not in ("charset=utf-8", 'charset="utf-8"'):
        raise Refused(415, "unsupported_media_type", "a JSON body is UTF-8")


# --- bounded work ------------------------------------------------------------------------------


class Gate:
    """At most `running` requests of a kind at work at once, and at most `waiting` more
    waiting their turn; beyond that 429 `busy` (the work a request does is bounded, so is the
    number of requests holding a decoded body)."""

    def __init__(self, name: str, running: int, waiting: int) -> None:
        self.name = name
        self.running = running
        self.waiting = waiting
        self._queued = 0
        self._semaphore: asyncio.Semaphore | None = None

    async def run(self, work: Callable[[], T]) -> T:
        """`work()` in a worker thread once a place is free."""
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.running)
        if self._semaphore.locked() and self._queued >= self.waiting:
            raise Refused(
                429, "busy", f"too many {self.name} requests at once: try again", retry_after=1
            )
        self._queued += 1
        try:
            await self._semaphore.acquire()
        finally:
            self._queued -= 1
        try:
            return await anyio.to_thread.run_sync(work)
        finally:
            self._semaphore.release()


class RateLimit:
    """A token bucket per client: `burst` creations at once, then `per_minute` a minute. The
    clients kept are the `clients` most recent (a flood of new addresses costs bounded
    memory; a forgotten client starts again with a full bucket)."""

    def __init__(self, per_minute: float, burst: int, clients: int = 10_000) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.clients = clients
        self._lock = threading.Lock()
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def take(self, client: str, now: float | None = None) -> None:
        """Spend one creation of `client`'s; 429 with Retry-After when none is left."""
        if math.isinf(self.rate):
            return
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, then = self._buckets.pop(client, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1.0:
                self._buckets[client] = (tokens, now)
                wait = math.ceil((1.0 - tokens) / self.rate) if self.rate > 0 else 60
                raise Refused(
                    429,
                    "rate_limited",
                    f"this client creates too often: at most {self.rate * 60:g} a minute",
                    retry_after=max(1, wait),
                )
            self._buckets[client] = (tokens - 1.0, now)
            while len(self._buckets) > self.clients:
                self._buckets.popitem(last=False)
