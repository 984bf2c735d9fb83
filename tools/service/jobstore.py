"""Background jobs in the database, safe with several server processes on one file.

A queued job is claimed by one runner in one `BEGIN IMMEDIATE` transaction (the write lock
is taken before the queue is read, so two runners never claim one job). The runner that
claimed it writes a heartbeat while it runs; a running job whose heartbeat is older than
`STALE_AFTER` is marked `interrupted` by any runner (its server stopped), and only then: a
second server starting does not touch the first's running jobs. Every write about a running
job (progress, result, error) names the runner and applies only while the job is still that
runner's and running: a job that finishes after being marked interrupted or cancelled keeps
the record it was marked with (no result beside an `interrupted` status).

The queue is bounded (`QueueFull` past `max_queued`), each job carries the digest of the
token its creator got (to cancel it), and finished jobs expire (`expire_jobs`).
"""

from __future__ import annotations

import json
import secrets
import sqlite3
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Final

import attrs

from kernel.codec import dump_json
from kernel.errors import WargameError

HEARTBEAT_EVERY: Final = 2.0
"""Seconds between two heartbeats of a running job's runner."""
STALE_AFTER: Final = 15.0
"""Seconds without a heartbeat after which a running job counts as its server gone."""
FINISHED: Final = ("done", "failed", "interrupted", "cancelled")
STATUSES: Final = ("queued", "running", *FINISHED)


class QueueFull(WargameError):
    """The job queue holds as many jobs as it may: try again when one has run."""

    kind = "queue_full"


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


_COLUMNS = "id, kind, game, params, status, progress, result, error, created, updated"
_MINE = "id = ? AND runner = ? AND status = 'running'"


class JobStore:
    """The job methods of `store.Store` (which provides the connection and transactions)."""

    _con: sqlite3.Connection
    _transaction: Callable[[], AbstractContextManager[sqlite3.Connection]]
    _now: Callable[[], str]
    _digest: Callable[[str], str]

    def add_job(
        self, kind: str, game: str, params: dict[str, Any], *, max_queued: int | None = None
    ) -> JobRecord:
        """Queue a job (QueueFull when `max_queued` are queued already)."""
        return self.add_job_with_token(kind, game, params, max_queued=max_queued)[0]

    def add_job_with_token(
        self, kind: str, game: str, params: dict[str, Any], *, max_queued: int | None = None
    ) -> tuple[JobRecord, str]:
        """Queue a job; its record and the token that cancels it (stored as a digest)."""
        job_id = secrets.token_urlsafe(12)
        token = secrets.token_urlsafe(24)
        now = self._now()
        with self._transaction() as con:
            if max_queued is not None:
                (queued,) = con.execute(
                    "SELECT count(*) FROM jobs WHERE status = 'queued'"
                ).fetchone()
                if int(queued) >= max_queued:
                    raise QueueFull(
                        f"{queued} jobs are queued, as many as this server takes: try later",
                        field="kind",
                    )
            con.execute(
                "INSERT INTO jobs (id, kind, game, params, status, created, updated, token) "
                "VALUES (?, ?, ?, ?, 'queued', ?, ?, ?)",
                (job_id, kind, game, dump_json(params), now, now, self._digest(token)),
            )
        return self.job(job_id), token

    def job(self, job_id: str) -> JobRecord:
        from tools.service.store_errors import UnknownGame

        row = self._con.execute(f"SELECT {_COLUMNS} FROM jobs WHERE id = ?", (job_id,)).fetchone()
        if row is None:
            raise UnknownGame(f"no job with id {job_id!r}", field="job_id")
        return JobRecord(
            id=str(row[0]),
            kind=str(row[1]),
            game=str(row[2]),
            params=json.loads(str(row[3])),
            status=str(row[4]),
            progress=json.loads(str(row[5])),
            result=None if row[6] is None else json.loads(str(row[6])),
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
        runner: str | None = None,
    ) -> bool:
        """Write what is given; with `runner`, only while the job is that runner's and
        running (False when it no longer is: nothing written)."""
        sets = ["updated = ?"]
        values: list[Any] = [self._now()]
        for column, value in (
            ("status", status),
            ("progress", None if progress is None else dump_json(progress)),
            ("result", None if result is None else dump_json(result)),
            ("error", error),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                values.append(value)
        where, keys = ("id = ?", [job_id]) if runner is None else (_MINE, [job_id, runner])
        with self._transaction() as con:
            cur = con.execute(f"UPDATE jobs SET {', '.join(sets)} WHERE {where}", (*values, *keys))
            return int(cur.rowcount) == 1

    def claim_job(self, runner: str, job_id: str | None = None) -> JobRecord | None:
        """The oldest queued job (or `job_id` if queued), now running by `runner`; None
        when there is none. One transaction holding the write lock: one claimer wins."""
        with self._transaction() as con:
            if job_id is None:
                row = con.execute(
                    "SELECT id FROM jobs WHERE status = 'queued' ORDER BY created, id LIMIT 1"
                ).fetchone()
            else:
                row = con.execute(
                    "SELECT id FROM jobs WHERE id = ? AND status = 'queued'", (job_id,)
                ).fetchone()
            if row is None:
                return None
            con.execute(
                "UPDATE jobs SET status = 'running', runner = ?, heartbeat = ?, updated = ? "
                "WHERE id = ? AND status = 'queued'",
                (runner, time.time(), self._now(), str(row[0])),
            )
        return self.job(str(row[0]))

    def beat(self, job_id: str, runner: str) -> bool:
        """The runner's heartbeat; False when the job is no longer its own and running
        (cancelled, or marked interrupted): the runner then stops it."""
        with self._transaction() as con:
            cur = con.execute(
                f"UPDATE jobs SET heartbeat = ? WHERE {_MINE}", (time.time(), job_id, runner)
            )
            return int(cur.rowcount) == 1

    def reap_stale(self, stale_after: float = STALE_AFTER, now: float | None = None) -> int:
        """Mark `interrupted` the running jobs whose runner's heartbeat is older than
        `stale_after` seconds (or that never had one): their server stopped."""
        cutoff = (time.time() if now is None else now) - stale_after
        with self._transaction() as con:
            cur = con.execute(
                "UPDATE jobs SET status = 'interrupted', updated = ?, error = "
                "'the server running this job stopped; start it again' "
                "WHERE status = 'running' AND (heartbeat IS NULL OR heartbeat < ?)",
                (self._now(), cutoff),
            )
            return int(cur.rowcount)

    def interrupt_running_jobs(self) -> int:
        """`reap_stale`: kept for callers of the single-server days."""
        return self.reap_stale()

    def cancel_job(self, job_id: str, token: str) -> bool | None:
        """Cancel a queued or running job with its creator's token: True when cancelled
        now, False when it had finished already, None when the token is not its creator's
        (then nothing changes)."""
        with self._transaction() as con:
            row = con.execute("SELECT token, status FROM jobs WHERE id = ?", (job_id,)).fetchone()
            if row is None:
                self.job(job_id)  # raises UnknownGame
                return None
            if row[0] is None or row[0] != self._digest(token):
                return None
            if str(row[1]) in FINISHED:
                return False
            con.execute(
                "UPDATE jobs SET status = 'cancelled', updated = ?, error = "
                "'cancelled by its creator' WHERE id = ?",
                (self._now(), job_id),
            )
            return True

    def expire_jobs(self, before: str) -> int:
        """Delete the finished jobs last updated before `before` (an ISO time)."""
        marks = ", ".join("?" for _ in FINISHED)
        with self._transaction() as con:
            cur = con.execute(
                f"DELETE FROM jobs WHERE status IN ({marks}) AND updated < ?", (*FINISHED, before)
            )
            return int(cur.rowcount)
