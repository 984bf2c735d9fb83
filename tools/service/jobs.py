"""Background `explore` and `verify` jobs: queued in the database, run one at a time in a
worker process (spawned: Z3 contexts are not fork-safe), their progress and results written
to the database by the worker itself, so a client fetches them after a restart too. A job a
stopped server left running is marked `interrupted` when the server starts again.
"""

from __future__ import annotations

import multiprocessing
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from tools.service.store import Store

PROGRESS_EVERY = 0.5  # seconds between two progress writes of a running job


def run_job(db_path: str, job_id: str) -> None:
    """The worker process's body: run the job and store its progress, result or error."""
    store = Store(db_path)
    try:
        job = store.job(job_id)
        store.update_job(job_id, status="running", progress={"done": 0, "total": 0, "now": ""})
        last = [0.0]

        def progress(done: int, total: int, now: str) -> None:
            if time.monotonic() - last[0] >= PROGRESS_EVERY or done == total:
                last[0] = time.monotonic()
                store.update_job(job_id, progress={"done": done, "total": total, "now": now})

        try:
            if job.kind == "explore":
                result = _explore(job.game, job.params, progress)
            else:
                result = _verify(job.game, job.params, progress)
        except Exception as exc:  # the job failed: its error is its result
            store.update_job(job_id, status="failed", error=f"{type(exc).__name__}: {exc}"[:2000])
            traceback.print_exc()
            return
        store.update_job(job_id, status="done", result=result)
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
    for i, task in enumerate(tasks):
        progress(i, len(tasks), " ".join(task[1:]))
        out = verify.verify_one(*task, witness_dir)
        if isinstance(out, verify.Row):
            rows.append(out.to_json())
        elif out is not None:
            checks.append(out.to_json())
    progress(len(tasks), len(tasks), "")
    ok = all(r["ok"] for r in rows) and all(not c["mismatches"] for c in checks)
    return {"ok": ok, "results": rows, "refinement": checks}


class JobRunner:
    """Runs queued jobs one at a time, each in its own spawned process."""

    def __init__(self, db_path: str) -> None:
        self.db_path = db_path
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._process: Any = None

    def start(self) -> None:
        with Store(self.db_path) as store:
            store.interrupt_running_jobs()
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

    def _loop(self) -> None:
        context = multiprocessing.get_context("spawn")
        while not self._stop.is_set():
            with Store(self.db_path) as store:
                queued = store.jobs("queued")
            if not queued:
                self._wake.wait(2.0)
                self._wake.clear()
                continue
            job = queued[0]
            self._process = context.Process(
                target=run_job, args=(self.db_path, job.id), name=f"wargame-job-{job.id}"
            )
            self._process.start()
            while self._process.is_alive() and not self._stop.is_set():
                self._process.join(0.5)
            if self._stop.is_set():
                return
            with Store(self.db_path) as store:
                if store.job(job.id).status in ("queued", "running"):
                    store.update_job(
                        job.id,
                        status="failed",
                        error=f"the worker process ended with code {self._process.exitcode}",
                    )
            self._process = None
