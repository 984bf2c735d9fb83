"""Shortest witnesses (`solvers.checking.shrink`), on the toy game: a long witness log shrinks to
the
shortest one that still replays under both readings and still shows the difference, within a
deterministic count of replays."""

from __future__ import annotations

from typing import Any

from solvers.checking.differences import Finding, Witness
from solvers.checking.explore import reading_variant
from solvers.checking.shrink import shrink, shrink_finding
from solvers.checking.side_by_side import along
from solvers.checking.witness_replay import replay
from tests.toy import PACKAGE as TOY_PACKAGE

TOY = TOY_PACKAGE.assemble()
CAT = TOY.catalogue
PLAIN = reading_variant(CAT, "plain", "gap", "none")
STUCK = reading_variant(CAT, "plain", "gap", "stuck_at_3")

PASS = {"type": "pass"}
ADD1 = {"type": "add", "amount": 1}
ADD2 = {"type": "add", "amount": 2}
TAILS = {"type": "coin", "heads": False}
HEADS = {"type": "coin", "heads": True}

# Passes and coin tosses around three additions of 1: the total reaches 3 at the end, where
# the stuck reading has no legal action.
LONG = (PASS, PASS, ADD1, TAILS, PASS, PASS, ADD1, TAILS, PASS, ADD1, TAILS)


def _witness(log: tuple[Any, ...]) -> Witness:
    w = along(TOY, PLAIN, STUCK, [TOY.action_from_json(a) for a in log], "guided play")
    assert w is not None and len(w.log) == len(log)
    return w


def _replays_both(log: tuple[Any, ...]) -> tuple[Any, Any]:
    a, b = TOY.initial_state(PLAIN), TOY.initial_state(STUCK)
    for data in log:
        action = TOY.action_from_json(data)
        a, b = TOY.apply(a, action), TOY.apply(b, action)  # raises if illegal under either
    return a, b


def test_a_long_witness_shrinks_to_the_shortest_log_that_still_differs() -> None:
    w = _witness(LONG)
    small, replays = shrink(TOY, PLAIN, STUCK, w)
    # only the three additions and their tosses matter: no passes are left
    assert small.log == (ADD1, TAILS, ADD1, TAILS, ADD1, TAILS)
    assert small.shrunk_from == len(LONG) and small.found_by == "guided play"
    assert small.difference.kind == "actions"
    a, b = _replays_both(small.log)
    assert a.total == 3 and TOY.legal_actions(a) and not TOY.legal_actions(b)
    assert TOY.state_to_json(a) == small.state
    # dropping any one action more gives no shorter witness (1-minimal)
    for i in range(len(small.log)):
        got = replay(TOY, PLAIN, STUCK, small.log[:i] + small.log[i + 1 :], w.difference)
        assert got is None or len(got.log) >= len(small.log)
    assert 0 < replays <= 120


def test_shrinking_is_bounded_by_a_count_of_replays_and_is_deterministic() -> None:
    w = _witness(LONG)
    _, needed = shrink(TOY, PLAIN, STUCK, w)
    lengths = []
    for bound in range(needed + 1):
        got, used = shrink(TOY, PLAIN, STUCK, w, max_replays=bound)
        assert used == bound  # every replay allowed was used: it was not done yet
        assert shrink(TOY, PLAIN, STUCK, w, max_replays=bound) == (got, used)
        lengths.append(len(got.log))
    assert lengths[0] == len(LONG) and lengths[-1] == 6
    assert lengths == sorted(lengths, reverse=True)  # more replays never give a longer log
    nothing, used = shrink(TOY, PLAIN, STUCK, w, max_replays=0)
    assert nothing is w and used == 0


def test_a_witness_that_cannot_shrink_is_kept_as_it_is() -> None:
    w = _witness((ADD2, HEADS))
    small, _ = shrink(TOY, PLAIN, STUCK, w)
    assert small is w and small.shrunk_from is None


def test_a_candidate_illegal_under_either_reading_or_without_the_difference_is_refused() -> None:
    w = _witness(LONG)
    assert replay(TOY, PLAIN, STUCK, (TAILS,), w.difference) is None  # no coin to toss
    assert replay(TOY, PLAIN, STUCK, (ADD1, TAILS), w.difference) is None  # total 1: no gap
    got = replay(TOY, PLAIN, STUCK, (ADD2, HEADS), w.difference)
    assert got is not None and got.log == (ADD2, HEADS)


def test_where_chance_is_to_move_its_likeliest_outcome_fills_in() -> None:
    """A candidate that dropped a toss: the coin's likeliest outcome (tails, the first of two
    even ones) is tossed before the next addition, which then goes on as logged."""
    w = _witness(LONG)
    got = replay(TOY, PLAIN, STUCK, (ADD1, ADD2, TAILS), w.difference)
    assert got is not None and got.log == (ADD1, TAILS, ADD2, TAILS)
    assert replay(TOY, PLAIN, STUCK, (ADD1, PASS, PASS), w.difference) is None  # total 1


def test_shrink_finding_shrinks_the_witness_and_keeps_the_rest() -> None:
    w = _witness(LONG)
    f = Finding("gap", ("TOY-1",), None, "none", "stuck_at_3", "plain", "differ", w, "", 0.0)
    small = shrink_finding(TOY, f)
    assert small.witness is not None and len(small.witness.log) == 6
    assert (small.option, small.verdict, small.detail) == (f.option, f.verdict, f.detail)
    none = Finding("gap", ("TOY-1",), None, "none", "stuck_at_3", "plain", "unknown", None, "", 0)
    assert shrink_finding(TOY, none) is none


def test_a_game_without_units_spends_no_replay_on_them() -> None:
    """The toy's positions have no units: the unit shrink (tests/solvers/test_shrink_units.py)
    has nothing to take off, so the result and its cost are the action shrink's alone."""
    w = _witness(LONG)
    assert shrink(TOY, PLAIN, STUCK, w) == shrink(TOY, PLAIN, STUCK, w, max_unit_replays=0)
    small, _ = shrink(TOY, PLAIN, STUCK, w)
    assert small.start is None
