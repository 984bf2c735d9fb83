"""One database, several processes (issue 32, items 4 and 5): the state cache is written only
after COMMIT succeeds and another process's commits are seen; a queued job is claimed by
one runner only; a running job is judged alive by its heartbeat, not interrupted because
another server started; a job finishing after being marked keeps the record it was marked
with; every job kind honours its budget; old matches and jobs expire."""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from kernel.codec import dump_json
from kernel.game import CHANCE
from tools.registry import get_game
from tools.service import jobs
from tools.service.jobs import Expiry, JobRunner, run_job
from tools.service.jobstore import STALE_AFTER
from tools.service.store import STATES, Store

ROUNDS = 12
SPAWN = multiprocessing.get_context("spawn")


def _pick(game: Any, state: Any) -> Any:
    """The first chance outcome or legal action (the same in every process)."""
    if game.to_move(state) == CHANCE:
        return game.chance_outcomes(state)[0][0]
    return game.legal_actions(state)[-1]


class _FailingCommit:
    """A connection whose next COMMIT fails (a full disk, a lost lock)."""

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con
        self.fail = True

    def execute(self, sql: str, *args: Any) -> Any:
        if sql == "COMMIT" and self.fail:
            self.fail = False
            raise sqlite3.OperationalError("disk I/O error")
        return self.con.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.con, name)


def _commit_other(db: str, game_id: str, conn: Any) -> None:
    """In another process: submit the second legal action at ply 0 (not the first)."""
    with Store(db) as store:
        game = get_game("nomonhan")
        _record, state = store.current(game_id)
        action = game.legal_actions(state)[0]
        store.submit(game_id, 0, game.action_to_json(action))
        conn.send(dump_json(store.get(game_id).state))


def test_a_failed_commit_leaves_no_state_in_the_cache(tmp_path: Path) -> None:
    db = str(tmp_path / "commit.db")
    store = Store(db)
    record = store.create("nomonhan", "ja")
    game = get_game("nomonhan")
    _rec, state = store.current(record.id)
    action = game.legal_actions(state)[-1]
    store._con = _FailingCommit(store._con)  # type: ignore[assignment]
    with pytest.raises(sqlite3.OperationalError):
        store.submit(record.id, 0, game.action_to_json(action))
    assert STATES.get((record.id, 1)) is None
    assert not store._con.in_transaction and store.get(record.id).ply == 0
    parent, child = SPAWN.Pipe()
    other = SPAWN.Process(target=_commit_other, args=(db, record.id, child))
    other.start()
    committed = parent.recv()
    other.join(60)
    record_now, served = store.current(record.id)
    assert record_now.ply >= 1
    assert dump_json(game.state_to_json(served)) == committed
    store.close()


def _alternate(db: str, game_id: str, conn: Any) -> None:
    """The other process: on each turn, read the match (it must be where the parent left
    it), submit one action and hand back."""
    game = get_game("nomonhan")
    with Store(db) as store:
        while True:
            expected = conn.recv()
            if expected is None:
                return
            record, state = store.current(game_id)
            seen = dump_json(game.state_to_json(state))
            store.submit(game_id, record.ply, game.action_to_json(_pick(game, state)))
            conn.send((record.ply, seen == expected))


def test_two_processes_alternating_on_one_match_each_see_the_others_commits(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "alternate.db")
    game = get_game("nomonhan")
    with Store(db) as store:
        game_id = store.create("nomonhan", "ja", chance="client").id
        parent, child = SPAWN.Pipe()
        other = SPAWN.Process(target=_alternate, args=(db, game_id, child))
        other.start()
        try:
            for _ in range(ROUNDS):
                record, state = store.current(game_id)
                store.submit(game_id, record.ply, game.action_to_json(_pick(game, state)))
                mine = store.get(game_id)
                parent.send(dump_json(mine.state))
                ply, same = parent.recv()
                assert (ply, same) == (mine.ply, True), "the other process missed a commit"
                after, served = store.current(game_id)
                assert after.ply == mine.ply + 1
                assert game.state_to_json(served) == after.state  # not a stale cached state
        finally:
            parent.send(None)
            other.join(60)
        assert store.replay(game_id)


def _claim_all(db: str, name: str, out: Any) -> None:
    claimed = []
    with Store(db) as store:
        while (job := store.claim_job(name)) is not None:
            claimed.append(job.id)
    out.put(claimed)


def test_two_runners_on_one_database_claim_each_job_once(tmp_path: Path) -> None:
    db = str(tmp_path / "claims.db")
    with Store(db) as store:
        ids = {store.add_job("explore", "nomonhan", {"budget": 1}).id for _ in range(40)}
    out = SPAWN.Queue()
    runners = [SPAWN.Process(target=_claim_all, args=(db, f"r{i}", out)) for i in range(2)]
    for r in runners:
        r.start()
    claimed = [out.get(timeout=120), out.get(timeout=120)]
    for r in runners:
        r.join(60)
    together = claimed[0] + claimed[1]
    assert sorted(together) == sorted(ids)  # each once: no job twice, none left
    with Store(db) as store:
        assert {j.status for j in store.jobs()} == {"running"}


def test_a_running_job_is_alive_by_its_heartbeat_and_a_late_finish_keeps_the_mark(
    tmp_path: Path,
) -> None:
    db = str(tmp_path / "beat.db")
    with Store(db) as store:
        job = store.add_job("explore", "nomonhan", {"budget": 1})
        assert store.claim_job("first", job.id) is not None
        assert store.beat(job.id, "first")
        second = JobRunner(db)
        second.start()  # another server starting on the same file
        second.stop()
        assert store.job(job.id).status == "running"
        assert store.reap_stale(now=time.time() + STALE_AFTER / 2) == 0
        assert store.reap_stale(now=time.time() + STALE_AFTER + 1) == 1  # no beat since
        assert not store.beat(job.id, "first")
        assert not store.update_job(job.id, status="done", result={"x": 1}, runner="first")
        marked = store.job(job.id)
        assert (marked.status, marked.result) == ("interrupted", None)
        assert marked.error and "stopped" in marked.error


def test_a_verify_job_stops_starting_properties_once_its_budget_is_spent() -> None:
    """A budget spent by the first property: it alone runs, the others are `not_run`."""
    out = jobs._verify("nomonhan", {"preset": "ja", "budget": 1e-6}, lambda *a: None)
    assert out["ok"] is False and len(out["results"]) + len(out["refinement"]) == 1
    assert len(out["not_run"]) >= 1 and all(p == "ja" for p, _what in out["not_run"])


def test_the_runner_ends_a_job_past_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the job does, the runner ends its process at budget + GRACE (GRACE 0 here:
    spawning alone takes longer than the 0.2 s budget). Bounded by polls."""
    monkeypatch.setattr(jobs, "GRACE", 0.0)
    db = str(tmp_path / "budget.db")
    with Store(db) as store:
        job = store.add_job("verify", "nomonhan", {"preset": "ja", "budget": 0.2})
    runner = JobRunner(db)
    runner.start()
    try:
        for _ in range(400):
            with Store(db) as store:
                status = store.job(job.id)
            if status.status not in ("queued", "running"):
                break
            time.sleep(0.1)
    finally:
        runner.stop()
    assert status.status == "failed" and "budget" in (status.error or ""), status


def test_run_job_claims_a_queued_job_and_leaves_a_claimed_one(tmp_path: Path) -> None:
    db = str(tmp_path / "inline.db")
    with Store(db) as store:
        job = store.add_job("verify", "nomonhan", {"preset": "ja", "property": ["none"]})
        store.claim_job("elsewhere", job.id)
    run_job(db, job.id)  # claimed by another runner: not run here
    with Store(db) as store:
        assert store.job(job.id).status == "running"


def test_old_finished_matches_and_jobs_expire_by_the_stated_policy(tmp_path: Path) -> None:
    db = str(tmp_path / "expiry.db")
    with Store(db) as store:
        fresh = store.create("nomonhan", "ja").id
        done = store.add_job("explore", "nomonhan", {"budget": 1})
        store.update_job(done.id, status="done", result={})
        queued = store.add_job("explore", "nomonhan", {"budget": 1})
        policy = Expiry()
        now = datetime.now(UTC)
        assert policy.sweep(store, now) == (0, 0)
        later = now + timedelta(days=policy.job_days + 1)
        assert policy.sweep(store, later) == (0, 1)  # the match is not over: kept 90 days
        assert {j.id for j in store.jobs()} == {queued.id}  # a queued job never expires
        assert store.game_ids() == [fresh]
        idle = now + timedelta(days=policy.idle_match_days + 1)
        assert policy.sweep(store, idle) == (1, 0)
        assert store.game_ids() == []
        assert store.role(fresh, "anything") is None
