"""The store's schema, as numbered migrations: migration i (0-based) takes the schema from
version i to version i + 1, and the version reached is recorded in the database. Append
only: a database is never taken back."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from tools.service.jobstore import STATUSES

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


def migrate_v3(con: sqlite3.Connection) -> None:
    """Jobs with their creator's token digest, their runner and its heartbeat, and the
    `cancelled` status (SQLite changes a CHECK only by building the table again); games with
    the time of their last action and whether they are over (for expiry)."""
    statuses = ", ".join(f"'{s}'" for s in STATUSES)
    con.execute(
        f"""CREATE TABLE jobs_v3 (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('explore', 'verify')),
            game TEXT NOT NULL,
            params TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ({statuses})),
            progress TEXT NOT NULL DEFAULT '{{}}',
            result TEXT,
            error TEXT,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            token TEXT,
            runner TEXT,
            heartbeat REAL
        )"""
    )
    con.execute(
        "INSERT INTO jobs_v3 (id, kind, game, params, status, progress, result, error, "
        "created, updated) SELECT id, kind, game, params, status, progress, result, error, "
        "created, updated FROM jobs"
    )
    con.execute("DROP TABLE jobs")
    con.execute("ALTER TABLE jobs_v3 RENAME TO jobs")
    con.execute("CREATE INDEX jobs_by_status ON jobs (status, created)")
    con.execute("ALTER TABLE games ADD COLUMN updated TEXT")
    con.execute("ALTER TABLE games ADD COLUMN over INTEGER NOT NULL DEFAULT 0")


MIGRATIONS: tuple[Migration, ...] = (_v1, _v2, migrate_v3)

SCHEMA_VERSION = len(MIGRATIONS)
