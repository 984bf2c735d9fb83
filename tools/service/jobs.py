"""Background `explore` and `verify` jobs: queued in the database, run one at a time per server
in a worker process (spawned: Z3 contexts are not fork-safe), their progress and results
written to the database by the worker itself, so a client fetches them after a restart too.

Several servers may share one database (`jobstore`): a job is claimed by one runner, kept
alive by its heartbeat, and marked `interrupted` by any runner only once that heartbeat
stops. Every job kind honours its budget: the worker stops starting new work once the budget
is spent (a `verify` checks it between properties), and the runner ends the worker process
at the budget plus `GRACE` (the start-up no budget covers) whatever it is doing. A job its
creator cancelled is ended at the next heartbeat. Each runner also expires old matches and
jobs (`Expiry`) once an hour.
"""

from __future__ import annotations

import multiprocessing
import secrets
import tempfile
import threading
import time
import traceback
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Final

import attrs

from tools.service.jobstore import HEARTBEAT_EVERY, STALE_AFTER
from tools.service.store import Store

PROGRESS_EVERY: Final = 0.5  # seconds between two progress writes of a running job
MAX_BUDGET: Final = 300.0
"""The largest budget a job may ask (seconds)."""
GRACE: Final = 120.0
"""Seconds a worker may run past its budget (spawning, imports, building the models) before
the runner ends it."""
MAX_QUEUED: Final = 16
"""Jobs waiting at most, all clients together: past it, 429 queue_full."""


@attrs.frozen
class Expiry:
    """How long what is finished is kept: a match that is over, 7 days after its last action;
    any match, 90 days after its last action; a finished job, 7 days after it finished."""

    finished_match_days: float = 7.0
    idle_match_days: float = 90.0
    job_days: float = 7.0
    every: float = 3600.0

    def sweep(self, store: Store, now: datetime | None = None) -> tuple[int, int]:
        """(matches, jobs) deleted now."""
        now = datetime.now(UTC) if now is None else now

        def ago(days: float) -> str:
            return (now - timedelta(days=days)).isoformat(timespec="microseconds")

        matches = store.expire_matches(ago(self.finished_match_days), ago(self.idle_match_days))
        return matches, store.expire_jobs(ago(self.job_days))


def run_job(db_path: str, job_id: str, runner: str | None = None) -> None:
    """The worker process's body: run the job and store its progress, result or error, each
    write only while the job is still this runner's (`jobstore`). Without `runner`, the job
    is claimed here (a queued job run in this process)."""
    store = Store(db_path)
    try:
        if runner is None:
            runner = f"inline-{secrets.token_hex(4)}"
            if store.claim_job(runner, job_id) is None:
                return
        job = store.job(job_id)
        store.update_job(job_id, progress={"done": 0, "total": 0, "now": ""}, runner=runner)
        last = [0.0]

        def progress(done: int, total: int, now: str) -> None:
            if time.monotonic() - last[0] >= PROGRESS_EVERY or done == total:
                last[0] = time.monotonic()
                update = {"done": done, "total": total, "now": now}
                store.update_job(job_id, progress=update, runner=runner)

        try:
            if job.kind == "explore":
                result = _explore(job.game, job.params, progress)
            else:
                result = _verify(job.game, job.params, progress)
        except Exception as exc:  # the job failed: its error is its result
            error = f"{type(exc).__name__}: {exc}"[:2000]
            store.update_job(job_id, status="failed", error=error, runner=runner)
            traceback.print_exc()
            return
        store.update_job(job_id, status="done", result=result, runner=runner)
    finally:
        store.close()


def _explore(game_name: str, params: dict[str, Any], progress: Any) -> Any:
    from tools import explore_report
    from tools.registry import get_game

    game = get_game(game_name)
    findings, gaps, unreached = explore_report.explore(
        game, params.get("option"), params.get("preset"), float(params["budget"]), progress
    )
    return explore_report.report(game, None, findings, gaps, unreached)


def _verify(game_name: str, params: dict[str, Any], progress: Any) -> Any:
    """The properties asked, one after another, a new one started only while the budget
    (`params["budget"]` seconds from the first one's start: the imports are GRACE's) is not
    spent; those not started are listed as `not_run` and the result is not `ok`."""
    from tools import verify
    from tools.registry import get_game

    game = get_game(game_name)
    spec = verify.spec_verification(game)
    ids = [p.id for p in spec.properties()] if spec is not None else []
    only = params.get("property") or []
    wanted = [i for i in ids if not only or i in only] + ([] if only else [verify.REFINEMENT])
    presets = sorted(game.presets()) if params.get("preset") is None else [params["preset"]]
    tasks = [(game.name, p, w) for p in presets for w in wanted]
    witness_dir = str(Path(tempfile.gettempdir()) / "wargame-witnesses")
    rows: list[Any] = []
    checks: list[Any] = []
    not_run: list[list[str]] = []
    deadline = time.monotonic() + float(params.get("budget", MAX_BUDGET))
    for i, task in enumerate(tasks):
        if i > 0 and time.monotonic() >= deadline:
            not_run = [list(t[1:]) for t in tasks[i:]]
            break
        progress(i, len(tasks), " ".join(task[1:]))
        out = verify.verify_one(*task, witness_dir)
        if isinstance(out, verify.Row):
            rows.append(out.to_json())
        elif out is not None:
            checks.append(out.to_json())
    progress(len(tasks) - len(not_run), len(tasks), "")
    ok = not not_run and all(r["ok"] for r in rows) and all(not c["mismatches"] for c in checks)
    return {"ok": ok, "results": rows, "refinement": checks, "not_run": not_run}


class JobRunner:
    """Claims queued jobs one at a time and runs each in its own spawned process, beating
    its heartbeat; ends it when cancelled or past its budget plus GRACE."""

    def __init__(self, db_path: str, expiry: Expiry | None = None) -> None:
        self.db_path = db_path
        self.name = f"runner-{secrets.token_hex(6)}"
        self.expiry = Expiry() if expiry is None else expiry
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._process: Any = None
        self._job: str | None = None
        self._swept = 0.0

    def start(self) -> None:
        with Store(self.db_path) as store:
            store.reap_stale()
        self._thread = threading.Thread(target=self._loop, name="wargame-jobs", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        process = self._process
        if process is not None and process.is_alive():
            process.terminate()
            process.join(5)
        if self._thread is not None:
            self._thread.join(10)
        if self._job is not None:  # ours, ended with the server: say so now, not in 15 s
            with Store(self.db_path) as store:
                error = "the server running this job stopped; start it again"
                store.update_job(self._job, status="interrupted", error=error, runner=self.name)

    def _housekeeping(self, store: Store) -> None:
        store.reap_stale()
        if time.monotonic() - self._swept >= self.expiry.every:
            self._swept = time.monotonic()
            self.expiry.sweep(store)

    def _loop(self) -> None:
        context = multiprocessing.get_context("spawn")
        while not self._stop.is_set():
            with Store(self.db_path) as store:
                self._housekeeping(store)
                job = store.claim_job(self.name)
            if job is None:
                self._wake.wait(HEARTBEAT_EVERY)
                self._wake.clear()
                continue
            self._process = context.Process(
                target=run_job,
                args=(self.db_path, job.id, self.name),
                name=f"wargame-job-{job.id}",
            )
            self._job = job.id
            self._process.start()
            budget = float(job.params.get("budget", MAX_BUDGET))
            ended = self._watch(job.id, time.monotonic() + budget + GRACE)
            if self._stop.is_set():
                return
            with Store(self.db_path) as store:
                code = self._process.exitcode
                error = ended or f"the worker process ended with code {code}"
                store.update_job(job.id, status="failed", error=error, runner=self.name)
            self._process = None
            self._job = None

    def _watch(self, job_id: str, deadline: float) -> str | None:
        """Wait for the worker, beating the heartbeat; end it when the job is no longer
        ours (cancelled, marked) or past `deadline`: the reason, or None."""
        beat = time.monotonic()
        while self._process.is_alive() and not self._stop.is_set():
            self._process.join(0.25)
            now = time.monotonic()
            if now >= deadline:
                self._end()
                return "the job ran past its budget and was ended"
            if now - beat >= HEARTBEAT_EVERY:
                beat = now
                with Store(self.db_path) as store:
                    if not store.beat(job_id, self.name):
                        self._end()
                        return None
        return None

    def _end(self) -> None:
        self._process.terminate()
        self._process.join(5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join()


__all__ = ["GRACE", "MAX_BUDGET", "MAX_QUEUED", "STALE_AFTER", "Expiry", "JobRunner", "run_job"]
