"""The run's fixed part (issue 33, item 5: `explore GAME --budget B --report` ends within pairs
x B + 120 s): the corpus, the witnesses' shrinking and the gap and clause searches share one
account (`tools.explore_report.FixedClock`), and each stops at what it has left.

No test here waits on a clock: the clock's arithmetic is checked on a stubbed timer, and a
part is shown to stop by an account already spent (a deadline already passed), with counts
(games played, replays spent) as the measure.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from solvers.checking.bounded_search import BUDGET
from solvers.checking.corpus import build_corpus
from solvers.checking.differences import Finding
from solvers.checking.explore import reading_variant
from solvers.checking.shrink import shrink, shrink_finding
from solvers.checking.side_by_side import along
from tests.toy import PACKAGE as TOY_PACKAGE
from tools import explore_report
from tools.explore_report import FIXED_SECONDS, REPORT_SECONDS, FixedClock

TOY = TOY_PACKAGE.assemble()
PLAIN = reading_variant(TOY.catalogue, "plain", "gap", "none")
STUCK = reading_variant(TOY.catalogue, "plain", "gap", "stuck_at_3")
PASS, ADD1, TAILS = {"type": "pass"}, {"type": "add", "amount": 1}, {"type": "coin", "heads": False}
LONG = (PASS, PASS, ADD1, TAILS, PASS, PASS, ADD1, TAILS, PASS, ADD1, TAILS)


class _Timer:
    """A stand-in for `time.perf_counter`: the time is what the test sets."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_the_fixed_account_counts_only_time_outside_the_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The account is 120 s less what the report keeps; the pairs' budgets (pairs x B) are
    not drawn from it, but pairs that took longer than that are, and each part's deadline
    is its own cap or what the account has left, the lesser."""
    timer = _Timer()
    monkeypatch.setattr(time, "perf_counter", timer)
    clock = FixedClock(timer())
    assert clock.total == FIXED_SECONDS - REPORT_SECONDS
    timer.now += 40.0  # the corpus and its extension
    assert clock.left() == clock.total - 40.0
    assert clock.until(12.0) == timer.now + 12.0  # the cap is the lesser
    timer.now += 500.0  # the pairs' searches, within their budgets
    clock.paired += 500.0
    assert clock.left() == clock.total - 40.0
    timer.now += 30.0  # pairs budgeted 20 s that took 30 s: 10 s more from the account
    clock.paired += 20.0
    assert clock.left() == clock.total - 50.0
    timer.now += clock.left() - 5.0  # parts that overran on a loaded machine
    assert clock.until(30.0) == timer.now + 5.0  # what is left is the lesser
    timer.now += 10.0
    assert clock.left() == 0.0 and clock.until(30.0) == timer.now


def test_a_spent_account_plays_no_corpus_game() -> None:
    """The corpus stops at the deadline its account gives: none left, no game played, and
    the corpus names the budget as its limit (a full account plays every seed)."""
    spent = FixedClock(time.perf_counter(), total=0.0)
    corpus = build_corpus(TOY, seeds=3, max_steps=20, deadline=spent.until(12.0) - 1.0)
    assert corpus.games == () and corpus.limit == BUDGET
    full = build_corpus(TOY, seeds=3, max_steps=20)
    assert len(full.games) == 3 * len(TOY.presets())


def _finding() -> Finding:
    w = along(TOY, PLAIN, STUCK, [TOY.action_from_json(a) for a in LONG], "guided play")
    assert w is not None
    return Finding("gap", ("TOY-1",), None, "none", "stuck_at_3", "plain", "differ", w, "", 0.0)


def test_shrinking_stops_at_its_deadline_toy_1() -> None:
    """TOY-1: the long witness shrinks to six actions with no deadline; with its deadline
    passed, no replay begins (none spent) and the finding is kept as it is."""
    f = _finding()
    assert f.witness is not None
    small = shrink_finding(TOY, f)
    assert small.witness is not None and len(small.witness.log) == 6
    past = time.perf_counter() - 1.0
    assert shrink_finding(TOY, f, deadline=past) is f
    same, used = shrink(TOY, PLAIN, STUCK, f.witness, deadline=past)
    assert same is f.witness and used == 0


def test_a_run_with_its_fixed_account_spent_still_settles_its_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no fixed time left, the run still searches every pair (their time is their own)
    and reports them: the corpus has no game, the shrink spends no replay, the clause and
    gap searches get no time. Counts: the pairs of the toy, each with a verdict."""
    replays: list[Any] = []

    def counted(game: Any, f: Finding, **kw: Any) -> Finding:
        got = shrink_finding(game, f, **kw)
        replays.append(got is f)
        return got

    monkeypatch.setattr("tools.explore_report.shrink_finding", counted)
    clock = FixedClock(time.perf_counter(), total=0.0)
    findings, _, _ = explore_report.explore(TOY, None, None, 0.2, clock=clock)
    pairs = [f for f in findings if f.verdict != "unplayed"]
    assert pairs and all(f.verdict in ("differ", "equivalent", "unknown") for f in pairs)
    assert any(f.witness is not None for f in pairs)  # a witness the shrink could shorten
    assert replays and all(replays)  # every finding kept as found: no shrink time
