"""Step losses apportioned by precedence (solvers/queries/apportion.py), held equal to a plain
step-by-step walk on generated problems."""

from __future__ import annotations

import functools

from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.queries import apportion
from solvers.queries.apportion import ApportionProblem, Precedence, Unit
from solvers.reasons import Reason

FIRST = Precedence(("X-1",), "comes first")
SECOND = Precedence(("X-2",), "comes first by the second rule")
COUNT = Reason(("X-0",), "lose {absorbed} of {losses}")


def oracle(problem: ApportionProblem) -> list[apportion.Outcome]:
    """Every end state of taking one step at a time from a unit of greatest key."""
    units = problem.units

    @functools.cache
    def walk(left: tuple[int, ...], todo: int) -> frozenset[tuple[int, ...]]:
        alive = [j for j, n in enumerate(left) if n > 0]
        if todo == 0 or not alive:
            return frozenset({left})
        top = max(units[j].keys[left[j] - 1] for j in alive)
        out: set[tuple[int, ...]] = set()
        for j in alive:
            if units[j].keys[left[j] - 1] == top:
                out |= walk((*left[:j], left[j] - 1, *left[j + 1 :]), todo - 1)
        return frozenset(out)

    start = tuple(u.steps for u in units)
    ends = walk(start, problem.losses)
    return sorted(
        tuple((u.id, s - e) for u, s, e in zip(units, start, end, strict=True) if s - e)
        for end in ends
    )


@st.composite
def problems(draw: st.DrawFn) -> ApportionProblem:
    n = draw(st.integers(1, 5))
    units = []
    for j in range(n):
        steps = draw(st.integers(1, 2))
        keys = tuple((draw(st.integers(0, 1)), draw(st.integers(0, 3))) for _ in range(steps))
        units.append(Unit(f"u{j}", steps, keys))
    return ApportionProblem(tuple(units), draw(st.integers(0, 7)), (FIRST, SECOND), COUNT)


@settings(max_examples=80, deadline=None)
@given(problems())
def test_outcomes_equal_the_plain_walk(problem: ApportionProblem) -> None:
    """Every outcome the solver lists is one the step-by-step walk reaches, and no other; each
    checks, and explain is empty for it."""
    got = list(apportion.outcomes(problem))
    assert got == oracle(problem)
    for o in got[:4]:
        assert apportion.check(problem, dict(o))
        assert apportion.explain(problem, dict(o)) == []


@settings(max_examples=60, deadline=None)
@given(problems(), st.data())
def test_wrong_outcomes_are_explained(problem: ApportionProblem, data: st.DataObject) -> None:
    """Any other distribution of the steps is refused, with at least one reason naming a
    clause of the problem."""
    lost = {u.id: data.draw(st.integers(0, u.steps)) for u in problem.units}
    outcome = tuple((u, c) for u, c in lost.items() if c)
    legal = outcome in oracle(problem)
    assert apportion.check(problem, lost) == legal
    reasons = apportion.explain(problem, lost)
    assert (reasons == []) == legal
    assert all(r.clauses in (("X-0",), ("X-1",), ("X-2",)) for r in reasons)


def test_the_deciding_rule_is_named() -> None:
    """A step taken from a unit while one with a greater first key had steps names rule 1;
    one decided by the second key names rule 2; a wrong count names the count rule."""
    a = Unit("a", 1, ((1, 0),))
    b = Unit("b", 1, ((0, 5),))
    c = Unit("c", 1, ((0, 3),))
    p = ApportionProblem((a, b, c), 1, (FIRST, SECOND), COUNT)
    assert [r.clauses for r in apportion.explain(p, {"b": 1})] == [("X-1",)]
    p2 = ApportionProblem((b, c), 1, (FIRST, SECOND), COUNT)
    assert [r.clauses for r in apportion.explain(p2, {"c": 1})] == [("X-2",)]
    assert [r.clauses for r in apportion.explain(p2, {"c": 1, "b": 1})] == [("X-0",)]
    assert apportion.explain(p2, {"b": 1}) == []
