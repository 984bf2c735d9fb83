"""The game store of the HTTP service: games and their action logs in one SQLite file.

One row per game (its variant, current ply and current state) and one row per action (the
action and the state it led to). `submit` runs in one `BEGIN IMMEDIATE` transaction that
checks the ply the client computed against, so two clients never both succeed on one ply,
and an action is either recorded with its resulting state or not at all.

A game may have the server roll its dice and draw its cards (`chance="server"`) and play
sides with the seeded random agent (`agents`): those steps are drawn from a stream seeded by
the game's stored seed and the ply, recorded as rows like any other action and committed in
the same transaction as the action that led to them, so the log still replays exactly.
Access tokens are stored as SHA-256 digests only; `explore`/`verify` jobs keep their status,
progress and results here so they can be fetched after a restart.
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from kernel.codec import dump_json
from kernel.errors import IllegalAction, InvalidInput, WargameError
from kernel.game import CHANCE
from kernel.playout import choose
from kernel.roles import AssembledGame
from kernel.views import check_side, check_turn
from tools.registry import get_game


class StoreError(WargameError):
    """The database cannot be used (e.g. written by a newer version of this program)."""

    kind = "store_error"


class UnknownGame(InvalidInput):
    """No game with this id is stored."""

    kind = "unknown_game"


class StaleSubmission(WargameError):
    """An action computed against a ply that is no longer the current one."""

    kind = "stale_submission"

    def __init__(self, message: str, *, expected: int, field: str | None = "ply") -> None:
        super().__init__(message, field=field)
        self.expected = expected


Migration = Callable[[sqlite3.Connection], None]


def _v1(con: sqlite3.Connection) -> None:
    con.execute(
        """CREATE TABLE games (
            id TEXT PRIMARY KEY,
            game TEXT NOT NULL,
            variant TEXT NOT NULL,
            created TEXT NOT NULL,
            ply INTEGER NOT NULL CHECK (ply >= 0),
            initial_state TEXT NOT NULL,
            state TEXT NOT NULL
        )"""
    )
    con.execute(
        """CREATE TABLE actions (
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            ply INTEGER NOT NULL CHECK (ply >= 0),
            action TEXT NOT NULL,
            state TEXT NOT NULL,
            PRIMARY KEY (game_id, ply)
        ) WITHOUT ROWID"""
    )


def _v2(con: sqlite3.Connection) -> None:
    """Who plays what (server-drawn chance, agent sides, the seed of their stream), access
    tokens (digests only) and background jobs."""
    con.execute("ALTER TABLE games ADD COLUMN seed INTEGER NOT NULL DEFAULT 0")
    con.execute("ALTER TABLE games ADD COLUMN agents TEXT NOT NULL DEFAULT '{}'")
    con.execute(
        "ALTER TABLE games ADD COLUMN chance TEXT NOT NULL DEFAULT 'client' "
        "CHECK (chance IN ('client', 'server'))"
    )
    con.execute(
        """CREATE TABLE tokens (
            digest TEXT PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            role TEXT NOT NULL
        ) WITHOUT ROWID"""
    )
    con.execute(
        """CREATE TABLE jobs (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('explore', 'verify')),
            game TEXT NOT NULL,
            params TEXT NOT NULL,
            status TEXT NOT NULL
                CHECK (status IN ('queued', 'running', 'done', 'failed', 'interrupted')),
            progress TEXT NOT NULL DEFAULT '{}',
            result TEXT,
            error TEXT,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        )"""
    )


MIGRATIONS: tuple[Migration, ...] = (_v1, _v2)
"""Migration i (0-based) takes the schema from version i to version i + 1; append only."""

SCHEMA_VERSION = len(MIGRATIONS)


REFEREE = "referee"
"""The role of the token that sees everything and may act for any side."""

AUTO_STEPS = 20_000
"""At most this many server-drawn chance outcomes and agent moves follow one action (a cap,
so that a request always ends; no preset's game comes near it between two client moves)."""


@attrs.frozen
class GameRecord:
    """One stored game as it stands: `ply` actions have been applied to reach `state`.
    `chance` is "server" when the server draws chance outcomes, "client" when a client (the
    referee) submits them; `agents` maps the sides the server plays to their agent."""

    id: str
    game: str
    variant: dict[str, Any]
    created: str
    ply: int
    state: dict[str, Any]
    chance: str = "client"
    agents: dict[str, str] = attrs.field(factory=dict)
    tokens: dict[str, str] = attrs.field(factory=dict)
    """Role -> token, filled only by `create` (the store keeps digests only)."""


@attrs.frozen
class JobRecord:
    """A background `explore` or `verify` run and where it stands."""

    id: str
    kind: str
    game: str
    params: dict[str, Any]
    status: str
    progress: dict[str, Any]
    result: Any
    error: str | None
    created: str
    updated: str

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


def _json(text: str) -> Any:
    return json.loads(text)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


AGENT_NAMES = ("random",)


class _States:
    """Decoded states by (game id, ply): a stored ply's state never changes, so a hit saves
    decoding and checking the stored JSON again. Shared by every Store of the process."""

    def __init__(self, size: int = 4096) -> None:
        self._lock = threading.Lock()
        self._items: dict[tuple[str, int], Any] = {}
        self._size = size

    def get(self, key: tuple[str, int]) -> Any:
        with self._lock:
            return self._items.get(key)

    def put(self, key: tuple[str, int], state: Any) -> None:
        with self._lock:
            if len(self._items) >= self._size:
                for old in list(self._items)[: self._size // 4]:
                    del self._items[old]
            self._items[key] = state


STATES = _States()


class Store:
    """Games and their logs in the SQLite file `path` (one connection per Store; open one
    Store per thread)."""

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout_ms: int = 10_000,
        migrations: Sequence[Migration] = MIGRATIONS,
    ) -> None:
        self.path = str(path)
        self._con = sqlite3.connect(self.path, isolation_level=None, timeout=busy_timeout_ms / 1000)
        try:
            self._con.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            self._con.execute("PRAGMA journal_mode = WAL")
            # WAL with synchronous=NORMAL: a commit survives the process being killed (what a
            # server crash is); only a power cut may lose the last commits, never corrupt
            self._con.execute("PRAGMA synchronous = NORMAL")
            self._con.execute("PRAGMA foreign_keys = ON")
            self.version = self._migrate(list(migrations))
        except BaseException:
            self._con.close()
            raise

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- schema --------------------------------------------------------------------------------
    def _migrate(self, migrations: list[Migration]) -> int:
        with self._transaction():
            self._con.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)"
            )
            row = self._con.execute("SELECT max(version) FROM schema_version").fetchone()
            current = int(row[0]) if row[0] is not None else 0
            if current > len(migrations):
                raise StoreError(
                    f"database {self.path} has schema version {current}, newer than the "
                    f"newest this program knows ({len(migrations)}); upgrade the program",
                    field="schema_version",
                )
            for version in range(current, len(migrations)):
                migrations[version](self._con)
                self._con.execute("INSERT INTO schema_version (version) VALUES (?)", (version + 1,))
        return len(migrations)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._con.execute("BEGIN IMMEDIATE")
        try:
            yield self._con
        except BaseException:
            self._con.execute("ROLLBACK")
            raise
        self._con.execute("COMMIT")

    # --- games ---------------------------------------------------------------------------------
    def create(
        self,
        game_name: str,
        variant_json: Any,
        *,
        chance: str = "client",
        agents: dict[str, str] | None = None,
        position: Any = None,
        seed: int | None = None,
    ) -> GameRecord:
        """A new game of `game_name` in the variant `variant_json` (a preset name or
        `{"preset": ..., "options": {...}}`), stored at ply 0 with its initial state, or with
        `position` (a state document) when given. With `chance="server"` the server draws
        chance outcomes, and it plays the sides in `agents`; the steps they take at once are
        stored as plies 0, 1, ... The record carries one fresh token per side and the
        referee's."""
        game = get_game(game_name)
        variant = game.catalogue.variant_from_json(variant_json)
        if chance not in ("client", "server"):
            raise InvalidInput(
                f"chance must be 'client' or 'server', not {chance!r}", field="chance"
            )
        agents = dict(agents or {})
        for side, agent in agents.items():
            check_side(game, side, field=f"agents.{side}")
            if agent not in AGENT_NAMES:
                known = ", ".join(AGENT_NAMES)
                raise InvalidInput(
                    f"unknown agent {agent!r} (agents: {known})", field=f"agents.{side}"
                )
        if agents and set(agents) >= set(game.sides):
            raise InvalidInput("at least one side must be played by a client", field="agents")
        if agents and chance != "server":
            raise InvalidInput("a side played by the server needs chance='server'", field="chance")
        start = game.initial_state(variant) if position is None else game.state_from_json(position)
        state = dump_json(game.state_to_json(start))
        game_id = secrets.token_urlsafe(16)
        tokens = {role: secrets.token_urlsafe(24) for role in (*game.sides, REFEREE)}
        seed = secrets.randbits(63) if seed is None else seed
        created = _now()
        with self._transaction() as con:
            con.execute(
                "INSERT INTO games (id, game, variant, created, ply, initial_state, state, "
                "seed, agents, chance) VALUES (?, ?, ?, ?, 0, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    game.name,
                    dump_json(variant.to_json()),
                    created,
                    state,
                    state,
                    seed,
                    dump_json(agents),
                    chance,
                ),
            )
            con.executemany(
                "INSERT INTO tokens (digest, game_id, role) VALUES (?, ?, ?)",
                [(digest(t), game_id, role) for role, t in tokens.items()],
            )
            self._advance(game_id, game, start, 0, seed, agents, chance)
        record = self._record(game_id, self._row(game_id))
        return attrs.evolve(record, tokens=tokens)

    def _row(self, game_id: str) -> tuple[str, str, str, int, str, int, str, str]:
        row = self._con.execute(
            "SELECT game, variant, created, ply, state, seed, agents, chance FROM games "
            "WHERE id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise UnknownGame(f"no game with id {game_id!r}", field="game_id")
        return (
            str(row[0]),
            str(row[1]),
            str(row[2]),
            int(row[3]),
            str(row[4]),
            int(row[5]),
            str(row[6]),
            str(row[7]),
        )

    def _record(
        self, game_id: str, row: tuple[str, str, str, int, str, int, str, str]
    ) -> GameRecord:
        name, variant, created, ply, state, _seed, agents, chance = row
        return GameRecord(
            game_id, name, _json(variant), created, ply, _json(state), chance, _json(agents)
        )

    def get(self, game_id: str) -> GameRecord:
        return self._record(game_id, self._row(game_id))

    def game_of(self, game_id: str) -> str | None:
        """The name of the game stored as `game_id`, or None (one indexed lookup, no JSON)."""
        row = self._con.execute("SELECT game FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else str(row[0])

    def role(self, game_id: str, token: str) -> str | None:
        """The role `token` gives in game `game_id` (a side or REFEREE), or None when it gives
        none there (unknown, or another game's)."""
        row = self._con.execute(
            "SELECT role FROM tokens WHERE digest = ? AND game_id = ?", (digest(token), game_id)
        ).fetchone()
        return None if row is None else str(row[0])

    def token_known(self, token: str) -> bool:
        """Whether `token` is any match's token (403 rather than 401 for another match's)."""
        row = self._con.execute("SELECT 1 FROM tokens WHERE digest = ?", (digest(token),))
        return row.fetchone() is not None

    @staticmethod
    def decoded(game_id: str, game: AssembledGame[Any, Any], ply: int, data: Any) -> Any:
        """The state document `data` of ply `ply`, decoded (from the shared cache when warm)."""
        state = STATES.get((game_id, ply))
        if state is None:
            state = game.state_from_json(data)
            STATES.put((game_id, ply), state)
        return state

    def current(self, game_id: str) -> tuple[GameRecord, Any]:
        """The game as it stands and its decoded state (from the shared cache when warm)."""
        row = self._row(game_id)
        record = self._record(game_id, row)
        return record, self._state(game_id, get_game(record.game), record.ply, row[4])

    @staticmethod
    def _state(game_id: str, game: AssembledGame[Any, Any], ply: int, text: str) -> Any:
        """`decoded` for stored text, parsed only on a cache miss."""
        state = STATES.get((game_id, ply))
        return state if state is not None else Store.decoded(game_id, game, ply, _json(text))

    def game_ids(self) -> list[str]:
        return [str(r[0]) for r in self._con.execute("SELECT id FROM games ORDER BY created, id")]

    def log(self, game_id: str) -> list[dict[str, Any]]:
        """The actions applied so far, in order (as JSON)."""
        self._row(game_id)
        rows = self._con.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return [_json(str(r[0])) for r in rows]

    def submit(
        self, game_id: str, ply: int, action_json: Any, *, side: str | None = None
    ) -> GameRecord:
        """Apply `action_json`, computed against ply `ply`, to the game, then the chance
        outcomes and agent moves the server plays. With `side`, that side must be to move
        (NotYourTurn otherwise, decided from who is to move alone). Raises UnknownGame,
        StaleSubmission (naming the current ply), InvalidInput (naming the field) or
        IllegalAction (naming the clauses); on any error nothing is written."""
        with self._transaction():
            row = self._row(game_id)
            name, _variant, _created, current, state_text, seed, agents_text, chance = row
            game = get_game(name)
            state = self._state(game_id, game, current, state_text)
            if side is not None:
                check_turn(game, state, side, field="side")
            if ply != current:
                raise StaleSubmission(
                    f"game {game_id!r} is at ply {current}, not {ply}: submit against ply "
                    f"{current}",
                    expected=current,
                )
            action = game.action_from_json(action_json)
            if chance == "server" and game.to_move(state) == CHANCE:
                raise IllegalAction(
                    "the server draws this game's chance outcomes: none is submitted",
                    field="action",
                )
            nxt = self._apply(game, state, action)
            self._record_step(game_id, game, current, action, nxt)
            self._advance(game_id, game, nxt, current + 1, seed, _json(agents_text), chance)
            return self._record(game_id, self._row(game_id))

    def _record_step(
        self, game_id: str, game: AssembledGame[Any, Any], ply: int, action: Any, after: Any
    ) -> None:
        new_state = dump_json(game.state_to_json(after))
        self._con.execute(
            "INSERT INTO actions (game_id, ply, action, state) VALUES (?, ?, ?, ?)",
            (game_id, ply, dump_json(game.action_to_json(action)), new_state),
        )
        self._con.execute(
            "UPDATE games SET ply = ?, state = ? WHERE id = ? AND ply = ?",
            (ply + 1, new_state, game_id, ply),
        )
        STATES.put((game_id, ply + 1), after)

    def _advance(
        self,
        game_id: str,
        game: AssembledGame[Any, Any],
        state: Any,
        ply: int,
        seed: int,
        agents: dict[str, str],
        chance: str,
    ) -> None:
        """Play the steps that are the server's (chance outcomes under chance="server", the
        agents' sides), each drawn from `random.Random(f"{seed}/{ply}")` so that a step
        depends only on the game's seed and its ply."""
        for _ in range(AUTO_STEPS):
            side = game.to_move(state)
            if side is None or not (
                (side == CHANCE and chance == "server") or (side != CHANCE and side in agents)
            ):
                break
            action = choose(game, state, side, random.Random(f"{seed}/{ply}"), None)
            if action is None:  # a gap in the rules: the agent has no legal action
                break
            state = game.apply(state, action)
            self._record_step(game_id, game, ply, action, state)
            ply += 1

    @staticmethod
    def check_playable(game: AssembledGame[Any, Any], state: Any, action: Any) -> Any:
        """The state `action` leads to; raises IllegalAction naming the clauses (a chance
        outcome must be one of the position's) or when the game is over."""
        return Store._apply(game, state, action)

    @staticmethod
    def _apply(game: AssembledGame[Any, Any], state: Any, action: Any) -> Any:
        side = game.to_move(state)
        if side is None:
            outcome = game.outcome(state)
            clauses = (outcome.clause,) if outcome is not None and outcome.clause else ()
            raise IllegalAction("the game is over: no action is legal", clauses=clauses)
        if side == CHANCE and action not in [a for a, _p in game.chance_outcomes(state)]:
            game.apply(state, action)  # names the clauses when the rules refuse it
            raise IllegalAction("not one of the chance outcomes of this position")
        return game.apply(state, action)

    def replay(self, game_id: str) -> bool:
        """Rebuild the state from the initial state and the stored log; True when it equals
        the stored state (canonical JSON) and every stored intermediate state."""
        name, _variant, _created, ply, state_text, *_ = self._row(game_id)
        (initial,) = self._con.execute(
            "SELECT initial_state FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        game = get_game(name)
        state = game.state_from_json(_json(str(initial)))
        rows = list(
            self._con.execute(
                "SELECT ply, action, state FROM actions WHERE game_id = ? ORDER BY ply",
                (game_id,),
            )
        )
        if [int(r[0]) for r in rows] != list(range(ply)):
            return False
        for _ply, action_text, after in rows:
            state = game.apply(state, game.action_from_json(_json(str(action_text))))
            if dump_json(game.state_to_json(state)) != str(after):
                return False
        return dump_json(game.state_to_json(state)) == state_text

    def log_entries(self, game_id: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """(action, state after it) per ply, in order, with the initial state first as
        ({}, initial): what a readable log is written from."""
        self._row(game_id)
        (initial,) = self._con.execute(
            "SELECT initial_state FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        rows = self._con.execute(
            "SELECT action, state FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return [({}, _json(str(initial)))] + [(_json(str(a)), _json(str(b))) for a, b in rows]

    # --- jobs ----------------------------------------------------------------------------------
    def add_job(self, kind: str, game: str, params: dict[str, Any]) -> JobRecord:
        job_id = secrets.token_urlsafe(12)
        now = _now()
        with self._transaction() as con:
            con.execute(
                "INSERT INTO jobs (id, kind, game, params, status, created, updated) "
                "VALUES (?, ?, ?, ?, 'queued', ?, ?)",
                (job_id, kind, game, dump_json(params), now, now),
            )
        return self.job(job_id)

    def job(self, job_id: str) -> JobRecord:
        row = self._con.execute(
            "SELECT id, kind, game, params, status, progress, result, error, created, updated "
            "FROM jobs WHERE id = ?",
            (job_id,),
        ).fetchone()
        if row is None:
            raise UnknownGame(f"no job with id {job_id!r}", field="job_id")
        return JobRecord(
            id=str(row[0]),
            kind=str(row[1]),
            game=str(row[2]),
            params=_json(str(row[3])),
            status=str(row[4]),
            progress=_json(str(row[5])),
            result=None if row[6] is None else _json(str(row[6])),
            error=None if row[7] is None else str(row[7]),
            created=str(row[8]),
            updated=str(row[9]),
        )

    def jobs(self, status: str | None = None) -> list[JobRecord]:
        sql = "SELECT id FROM jobs" + ("" if status is None else " WHERE status = ?")
        sql += " ORDER BY created, id"
        rows = self._con.execute(sql, () if status is None else (status,))
        return [self.job(str(r[0])) for r in list(rows)]

    def update_job(
        self,
        job_id: str,
        *,
        status: str | None = None,
        progress: dict[str, Any] | None = None,
        result: Any = None,
        error: str | None = None,
    ) -> None:
        sets = ["updated = ?"]
        values: list[Any] = [_now()]
        if status is not None:
            sets.append("status = ?")
            values.append(status)
        if progress is not None:
            sets.append("progress = ?")
            values.append(dump_json(progress))
        if result is not None:
            sets.append("result = ?")
            values.append(dump_json(result))
        if error is not None:
            sets.append("error = ?")
            values.append(error)
        with self._transaction() as con:
            con.execute(f"UPDATE jobs SET {', '.join(sets)} WHERE id = ?", (*values, job_id))

    def interrupt_running_jobs(self) -> int:
        """Mark the jobs a stopped server left running as interrupted (at start-up)."""
        with self._transaction() as con:
            cur = con.execute(
                "UPDATE jobs SET status = 'interrupted', updated = ?, error = "
                "'the server stopped while this job ran; start it again' "
                "WHERE status = 'running'",
                (_now(),),
            )
            return int(cur.rowcount)
