"""Results as they come, in SQLite (write-ahead log): one row per (study key, reading, seed),
inserted with INSERT OR IGNORE, so a rerun or a resumed run plays only the missing seeds and
never counts a game twice. Rows are committed a task at a time: an interrupt loses at most the
tasks in flight, never half a task. The key names the plan and the code that plays it
(`Plan.code`): after a change to a game's rules its games are played again, under a new key."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType

from kernel.errors import InvalidInput
from tools.agents.match import MatchResult
from tools.study.plan import Plan

SCHEMA = """
CREATE TABLE IF NOT EXISTS studies (
    key TEXT PRIMARY KEY,
    plan TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    study TEXT NOT NULL,
    reading TEXT NOT NULL,
    seed INTEGER NOT NULL,
    stop TEXT NOT NULL,
    winner TEXT,
    clause TEXT,
    steps INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    PRIMARY KEY (study, reading, seed)
) WITHOUT ROWID;
"""


class Store:
    """A study database; a context manager that closes it."""

    def __init__(self, path: Path | str) -> None:
        try:
            self._db = sqlite3.connect(str(path))
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.executescript(SCHEMA)
        except sqlite3.Error as err:
            raise InvalidInput(f"cannot open the study database: {err}", field="--db") from None

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def register(self, plan: Plan) -> None:
        """Record what a key stands for (its identity, not its seed range)."""
        with self._db:
            self._db.execute(
                "INSERT OR IGNORE INTO studies (key, plan) VALUES (?, ?)",
                (plan.key, json.dumps(plan.identity(), sort_keys=True)),
            )

    def stored(self, key: str, reading: str, seeds: range) -> set[int]:
        cur = self._db.execute(
            "SELECT seed FROM results WHERE study = ? AND reading = ? AND seed >= ? AND seed < ?",
            (key, reading, seeds.start, seeds.stop),
        )
        return {seed for (seed,) in cur}

    def missing(self, key: str, reading: str, seeds: range) -> list[int]:
        """The seeds of the range with no stored result, in order."""
        have = self.stored(key, reading, seeds)
        return [s for s in seeds if s not in have]

    def add(self, key: str, reading: str, results: Iterable[MatchResult]) -> int:
        """Store results in one transaction; returns how many were new."""
        rows = [
            (key, reading, r.seed, r.stop, r.winner, r.clause, r.steps, r.decisions)
            for r in results
        ]
        with self._db:
            before = self._db.total_changes
            self._db.executemany(
                "INSERT OR IGNORE INTO results "
                "(study, reading, seed, stop, winner, clause, steps, decisions) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            return self._db.total_changes - before

    def results(self, key: str, reading: str, seeds: range) -> list[MatchResult]:
        """The stored results of a seed range, sorted by seed."""
        cur = self._db.execute(
            "SELECT seed, stop, winner, clause, steps, decisions FROM results "
            "WHERE study = ? AND reading = ? AND seed >= ? AND seed < ? ORDER BY seed",
            (key, reading, seeds.start, seeds.stop),
        )
        return [MatchResult(*row) for row in cur]

    def count(self, key: str, reading: str | None = None) -> int:
        """Rows stored for a key (one reading, or all): what tests check for double counts."""
        if reading is None:
            cur = self._db.execute("SELECT COUNT(*) FROM results WHERE study = ?", (key,))
        else:
            cur = self._db.execute(
                "SELECT COUNT(*) FROM results WHERE study = ? AND reading = ?", (key, reading)
            )
        (n,) = cur.fetchone()
        return int(n)

    def dump(self, key: str) -> list[tuple[object, ...]]:
        """Every row of a key, sorted: equal dumps mean equal stored results."""
        cur = self._db.execute(
            "SELECT reading, seed, stop, winner, clause, steps, decisions FROM results "
            "WHERE study = ? ORDER BY reading, seed",
            (key,),
        )
        return [tuple(row) for row in cur]


def missing_seeds(store: Store, plan: Plan) -> dict[str, Sequence[int]]:
    """Per reading, the plan's seeds not yet stored."""
    return {r: store.missing(plan.key, r, plan.seeds) for r in plan.readings}
