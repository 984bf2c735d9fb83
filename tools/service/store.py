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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from kernel.codec import dump_json
from kernel.errors import IllegalAction, InvalidInput
from kernel.game import CHANCE
from kernel.playout import choose
from kernel.roles import AssembledGame
from kernel.views import check_side, check_turn
from tools.registry import get_game
from tools.service.history import MatchHistory
from tools.service.jobstore import JobRecord as JobRecord
from tools.service.jobstore import JobStore
from tools.service.migrations import MIGRATIONS as MIGRATIONS
from tools.service.migrations import SCHEMA_VERSION as SCHEMA_VERSION
from tools.service.migrations import Migration
from tools.service.statecache import STATES as STATES
from tools.service.store_errors import StaleSubmission, StoreError, UnknownGame

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


def _json(text: str) -> Any:
    return json.loads(text)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds")


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


AGENT_NAMES = ("random",)


class Store(JobStore, MatchHistory):
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
        """One `BEGIN IMMEDIATE` transaction. The states it decided go to the process's
        cache only once COMMIT has succeeded: a transaction that fails, at COMMIT too, leaves
        the cache as it was (else this process would serve a state no other one stored)."""
        self._pending: list[tuple[tuple[str, int], Any]] = []
        self._con.execute("BEGIN IMMEDIATE")
        try:
            yield self._con
            self._con.execute("COMMIT")
        except BaseException:
            self._pending = []
            if self._con.in_transaction:
                self._con.execute("ROLLBACK")
            raise
        pending, self._pending = self._pending, []
        for key, state in pending:
            STATES.put(key, state)

    _now = staticmethod(_now)
    _digest = staticmethod(digest)

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
        over = int(game.to_move(after) is None)
        self._con.execute(
            "UPDATE games SET ply = ?, state = ?, updated = ?, over = ? WHERE id = ? AND ply = ?",
            (ply + 1, new_state, _now(), over, game_id, ply),
        )
        self._pending.append(((game_id, ply + 1), after))

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
