"""The app's state shared by its routes: the database, one Store per worker thread, who a
request's token is in a match, and the gates that bound the expensive routes."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import attrs
from litestar import Request

from tools.service.errors import Denied
from tools.service.limits import Gate
from tools.service.store import Store
from tools.service.store_errors import UnknownGame


@attrs.frozen
class Gates:
    """One gate per expensive kind of request: creating a match (it may start from a
    position, and the server's agents play their moves at once), explaining an action,
    drawing a picture, writing a log. Two at work (the machine's cores) and 64 waiting each;
    a view or an action is short and needs none."""

    create: Gate = attrs.field(factory=lambda: Gate("create", 2, 64))
    explain: Gate = attrs.field(factory=lambda: Gate("explain", 2, 64))
    picture: Gate = attrs.field(factory=lambda: Gate("picture", 2, 64))
    log: Gate = attrs.field(factory=lambda: Gate("log", 2, 64))


class Service:
    """Where the database is, and one Store per worker thread (sqlite3 connections are not
    shared between threads)."""

    def __init__(self, db_path: str | Path) -> None:
        self.db_path = str(db_path)
        self._local = threading.local()
        self.gates = Gates()
        Store(self.db_path).close()  # create or migrate now, not on the first request

    def store(self) -> Store:
        store: Store | None = getattr(self._local, "store", None)
        if store is None:
            store = Store(self.db_path)
            self._local.store = store
        return store

    def access(self, request: Request[Any, Any, Any], match_id: str, game: str) -> str:
        """The role the request's token gives in match `match_id` (404 when there is no
        such match of this game, 401/403 as `api` says)."""
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
