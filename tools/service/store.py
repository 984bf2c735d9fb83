"""The game store of the HTTP service: games and their action logs in one SQLite file.

One row per game (its variant, current ply and current state) and one row per action (the
action and the state it led to). `submit` runs in one `BEGIN IMMEDIATE` transaction that
checks the ply the client computed against, so two clients never both succeed on one ply,
and an action is either recorded with its resulting state or not at all.
"""

from __future__ import annotations

import secrets
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from kernel.codec import dump_json
from kernel.errors import IllegalAction, InvalidInput, WargameError
from kernel.game import CHANCE, Game
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


MIGRATIONS: tuple[Migration, ...] = (_v1,)
"""Migration i (0-based) takes the schema from version i to version i + 1; append only."""

SCHEMA_VERSION = len(MIGRATIONS)


@attrs.frozen
class GameRecord:
    """One stored game as it stands: `ply` actions have been applied to reach `state`."""

    id: str
    game: str
    variant: dict[str, Any]
    created: str
    ply: int
    state: dict[str, Any]


def _json(text: str) -> Any:
    import json

    return json.loads(text)


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
    def create(self, game_name: str, variant_json: Any) -> GameRecord:
        """A new game of `game_name` in the variant `variant_json` (a preset name or
        `{"preset": ..., "options": {...}}`), stored at ply 0 with its initial state."""
        game = get_game(game_name)
        variant = game.catalogue.variant_from_json(variant_json)
        state = dump_json(game.state_to_json(game.initial_state(variant)))
        record = GameRecord(
            id=secrets.token_urlsafe(16),
            game=game.name,
            variant=variant.to_json(),
            created=datetime.now(UTC).isoformat(timespec="microseconds"),
            ply=0,
            state=_json(state),
        )
        with self._transaction() as con:
            con.execute(
                "INSERT INTO games (id, game, variant, created, ply, initial_state, state) "
                "VALUES (?, ?, ?, ?, 0, ?, ?)",
                (record.id, record.game, dump_json(record.variant), record.created, state, state),
            )
        return record

    def _row(self, game_id: str) -> tuple[str, str, str, int, str]:
        row = self._con.execute(
            "SELECT game, variant, created, ply, state FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise UnknownGame(f"no game with id {game_id!r}", field="game_id")
        return (str(row[0]), str(row[1]), str(row[2]), int(row[3]), str(row[4]))

    def _record(self, game_id: str, row: tuple[str, str, str, int, str]) -> GameRecord:
        name, variant, created, ply, state = row
        return GameRecord(game_id, name, _json(variant), created, ply, _json(state))

    def get(self, game_id: str) -> GameRecord:
        return self._record(game_id, self._row(game_id))

    def game_ids(self) -> list[str]:
        return [str(r[0]) for r in self._con.execute("SELECT id FROM games ORDER BY created, id")]

    def log(self, game_id: str) -> list[dict[str, Any]]:
        """The actions applied so far, in order (as JSON)."""
        self._row(game_id)
        rows = self._con.execute(
            "SELECT action FROM actions WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return [_json(str(r[0])) for r in rows]

    def submit(self, game_id: str, ply: int, action_json: Any) -> GameRecord:
        """Apply `action_json`, computed against ply `ply`, to the game. Raises UnknownGame,
        StaleSubmission (naming the current ply), InvalidInput (naming the field) or
        IllegalAction (naming the clauses); on any error nothing is written."""
        with self._transaction():
            row = self._row(game_id)
            name, _variant, _created, current, state_text = row
            if ply != current:
                raise StaleSubmission(
                    f"game {game_id!r} is at ply {current}, not {ply}: submit against ply "
                    f"{current}",
                    expected=current,
                )
            game = get_game(name)
            state = game.state_from_json(_json(state_text))
            action = game.action_from_json(action_json)
            nxt = self._apply(game, state, action)
            new_state = dump_json(game.state_to_json(nxt))
            self._con.execute(
                "INSERT INTO actions (game_id, ply, action, state) VALUES (?, ?, ?, ?)",
                (game_id, current, dump_json(game.action_to_json(action)), new_state),
            )
            self._con.execute(
                "UPDATE games SET ply = ?, state = ? WHERE id = ? AND ply = ?",
                (current + 1, new_state, game_id, current),
            )
            return self._record(game_id, (*row[:3], current + 1, new_state))

    @staticmethod
    def _apply(game: Game[Any, Any], state: Any, action: Any) -> Any:
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
        name, _variant, _created, ply, state_text = self._row(game_id)
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
