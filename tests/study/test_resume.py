"""A study interrupted after some tasks and run again stores every seed exactly once and
reports what an uninterrupted run reports; a rerun plays nothing."""

from __future__ import annotations

from pathlib import Path

from tests.sizes import size
from tests.study.inprocess import InProcess
from tools.study.engine import LocalEngine
from tools.study.plan import make_plan
from tools.study.runner import execute, summary
from tools.study.store import Store

GAMES = size(8, 60)


def test_interrupted_study_resumes_without_double_counting(tmp_path: Path) -> None:
    plan = make_plan("nomonhan", games=GAMES, seed_start=100)
    with Store(tmp_path / "whole.sqlite") as whole:
        assert execute(plan, whole, InProcess()) == GAMES
        expected_rows, expected = whole.dump(plan.key), summary(plan, whole)

    with Store(tmp_path / "resumed.sqlite") as store:
        first = execute(plan, store, LocalEngine(2), stop_after=1)  # as if interrupted
        assert 0 < first < GAMES
        assert store.count(plan.key) == first
        second = execute(plan, store, InProcess())
        assert first + second == GAMES
        assert execute(plan, store, LocalEngine(2)) == 0  # nothing missing: nothing played
        assert store.count(plan.key) == GAMES
        assert [r[1] for r in store.dump(plan.key)] == list(plan.seeds)  # each seed once
        assert store.dump(plan.key) == expected_rows
        assert summary(plan, store) == expected

        # Results stored twice (two runs sharing a database) are counted once.
        again = store.results(plan.key, "", plan.seeds)
        assert store.add(plan.key, "", again) == 0
        assert store.count(plan.key) == GAMES


def test_a_larger_study_reuses_the_games_played(tmp_path: Path) -> None:
    """The key leaves out the seed range: more games play only the new seeds."""
    small = make_plan("nomonhan", games=3, seed_start=0)
    large = make_plan("nomonhan", games=5, seed_start=0)
    assert small.key == large.key
    with Store(tmp_path / "s.sqlite") as store:
        assert execute(small, store, InProcess()) == 3
        assert execute(large, store, InProcess()) == 2
        assert summary(large, store)["readings"][0]["games"] == 5
        assert summary(small, store)["readings"][0]["games"] == 3
