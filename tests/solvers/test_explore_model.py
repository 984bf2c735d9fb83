"""Z3 over two readings' models (`solvers.checking.explore_model`), against plain enumeration.

A family of tiny counters, each reading a tuple of thresholds and a way of writing one guard:
for any two readings, the verdict Z3 gives must be the one breadth-first enumeration of the
states gives: "silent" when the readings build the same terms, "equivalent" exactly when no
state of the domain has different labelled transitions, "differ" with a path of reading A
exactly as long as the shallowest reachable difference, "unknown" when the only differences
are in unreachable states.
"""

from __future__ import annotations

from typing import Any

import attrs
from hypothesis import event, given, settings
from hypothesis import strategies as st

from solvers.checking.bounded_search import frozen_variables
from solvers.checking.explore_model import model_differential, schema_changes
from solvers.checking.model_reach import clause_reach
from solvers.checking.system import BoolVar, Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from tests.solvers.test_prover import twins
from tests.solvers.tiny import Rule, Tiny

TOP = 6  # the counter runs over 0..TOP


@attrs.frozen
class Reading:
    up: int  # inc allowed below this
    at: int  # set allowed at this value
    least: int  # ... to a value at least this
    negated: bool  # inc's guard written as not (x >= up): other terms, same meaning


class Set(Schema):
    """set(to): at x = `at`, x becomes any `to` >= `least`."""

    name = "set"
    clauses = ("T-set",)

    def __init__(self, r: Reading) -> None:
        self.r = r
        self.choices: tuple[Var, ...] = (IntVar("to", 0, TOP),)

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [
            Conjunct("T-set", "at", lambda: o.eq(s.i("x"), self.r.at)),
            Conjunct("T-least", "least", lambda: o.le(self.r.least, c.i("to"))),
        ]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return s.evolve({"x": c.i("to")})


def counter(r: Reading) -> Tiny:
    def inc(o: Any, s: Any) -> Any:
        return o.not_(o.le(r.up, s.i("x"))) if r.negated else o.lt(s.i("x"), r.up)

    return Tiny(
        "counter",
        (IntVar("x", 0, TOP),),
        {"x": 0},
        (
            Rule("inc", inc, lambda o, s: {"x": o.add([s.i("x"), 1])}),
            Set(r),
            Rule("reset", lambda o, s: o.eq(s.i("x"), TOP), lambda o, s: {"x": 0}),
        ),
    )


def moves(r: Reading, x: int) -> set[tuple[str, int]]:
    """The labelled transitions at x, by plain enumeration: (schema and choice, next x)."""
    out = {(f"set({to})", to) for to in range(r.least, TOP + 1) if x == r.at}
    if x < r.up:
        out.add(("inc", x + 1))
    if x == TOP:
        out.add(("reset", 0))
    return out


def shallowest_difference(a: Reading, b: Reading) -> int | None:
    """Breadth-first under reading A: the depth of the first state where the readings differ."""
    depth, frontier, seen = 0, [0], {0}
    while frontier:
        if any(moves(a, x) != moves(b, x) for x in frontier):
            return depth
        nxt = sorted({y for x in frontier for _, y in moves(a, x)} - seen)
        seen.update(nxt)
        frontier, depth = nxt, depth + 1
    return None


readings = st.builds(
    Reading,
    st.integers(0, TOP),
    st.integers(0, TOP),
    st.integers(0, TOP),
    st.booleans(),
)


@settings(max_examples=60, deadline=None)
@given(readings, st.data())
def test_model_verdict_matches_enumeration(a: Reading, data: st.DataObject) -> None:
    """The Z3 verdict on two readings is the one plain enumeration of the states gives."""
    # B: another reading, or A written another way, or A with one threshold moved.
    b = data.draw(
        st.one_of(
            readings,
            st.just(attrs.evolve(a, negated=not a.negated)),
            st.builds(lambda up: attrs.evolve(a, up=up), st.integers(0, TOP)),
            st.builds(lambda least: attrs.evolve(a, least=least), st.integers(0, TOP)),
        )
    )
    v = model_differential(counter(a), counter(b), max_depth=TOP + 2)
    everywhere = all(moves(a, x) == moves(b, x) for x in range(TOP + 1))
    first = shallowest_difference(a, b)
    event(v.verdict)
    if attrs.evolve(a, negated=b.negated) == b and a.negated == b.negated:
        assert v.verdict == "silent"
    elif everywhere:
        assert v.verdict == "equivalent", v
    elif first is not None:
        assert v.verdict == "differ", v
        assert v.trace is not None and len(v.trace.steps) == first
        assert v.at.startswith(("inc", "set", "reset"))
        # The path is one of reading A: every step a transition it allows.
        for x, (name, choice), y in zip(
            v.trace.states[:-1], v.trace.steps, v.trace.states[1:], strict=True
        ):
            label = f"set({choice['to']})" if name == "set" else name
            assert (label, y["x"]) in moves(a, int(x["x"]))
    else:
        assert v.verdict == "unknown" and "not shown reachable" in v.detail


def test_only_the_schemas_a_reading_changes_are_compared() -> None:
    """A reading that moves one threshold changes one schema; writing a guard another way
    changes it too (and the two are then proved equal)."""
    base = Reading(3, 1, 0, False)
    changed = schema_changes(counter(base), counter(attrs.evolve(base, at=2)))
    assert changed is not None and [c.schema for c in changed] == ["set"]
    v = model_differential(counter(base), counter(attrs.evolve(base, negated=True)))
    assert v.verdict == "equivalent" and v.changed == ("inc",)


def test_a_budget_spent_while_the_transitions_are_compared_stops_the_search() -> None:
    """Comparing the readings' schemas builds their terms, which no Z3 check bounds: a spent
    wall-clock budget stops it between two schemas, and the verdict names the budget."""
    base = Reading(3, 1, 0, False)
    a, b = counter(base), counter(attrs.evolve(base, at=2))
    assert schema_changes(a, b, spent=lambda: True) is None
    v = model_differential(a, b, budget=0.0)
    assert v.verdict == "unknown" and v.limit == "budget", v
    assert "transitions were being compared" in v.detail


def test_set_up_differences_are_witnesses_of_length_zero() -> None:
    a = twins()
    b = Tiny("twins", a.variables, {"x": 1, "y": 2}, a.schemas)
    v = model_differential(a, b)
    assert v.verdict == "differ" and v.trace is not None and not v.trace.steps
    assert "x" in v.detail and "y" in v.detail


def test_models_with_other_variables_are_not_compared() -> None:
    a = twins()
    b = Tiny("twins", (IntVar("x", 0, 20),), {"x": 0}, a.schemas)
    assert model_differential(a, b).verdict == "unknown"


class Blow(Schema):
    """Sets `blown`, when the reading lets it."""

    name = "blow"
    clauses = ("T-blow",)
    choices: tuple[Var, ...] = ()

    def __init__(self, allowed: bool) -> None:
        self.allowed = allowed

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return [Conjunct("T-blow", "allowed", lambda: o.lit(self.allowed))]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return s.evolve(bools={"blown": o.lit(True)})


def switched(blowing: bool, reads_blown: bool) -> Tiny:
    """`blow` (allowed only when `blowing`) sets `blown`; `cross` moves x on, while not blown
    when `reads_blown`, always otherwise."""

    def cross(o: Any, s: Any) -> Any:
        near = o.lt(s.i("x"), 3)
        return o.all([near, o.not_(s.b("blown"))]) if reads_blown else near

    return Tiny(
        "switched",
        (IntVar("x", 0, 3), BoolVar("blown")),
        {"x": 0, "blown": False},
        (
            Blow(blowing),
            Rule("cross", cross, lambda o, s: {"x": o.add([s.i("x"), 1])}),
        ),
    )


def test_a_rule_switched_off_freezes_what_only_it_changes() -> None:
    """With `blow` dead, `blown` keeps its initial value in every reachable state, so a reading
    that ignores it is proved equivalent; with `blow` live, they differ one step in."""
    assert frozen_variables(switched(False, True)) == {"blown": False}
    assert frozen_variables(switched(True, True)) == {}
    off = model_differential(switched(False, True), switched(False, False))
    assert off.verdict == "equivalent" and "blown" in off.detail
    on = model_differential(switched(True, True), switched(True, False))
    assert on.verdict == "differ" and on.trace is not None
    assert [name for name, _ in on.trace.steps] == ["blow"]
    assert on.at == "cross()"


def test_clause_reach_finds_where_a_rule_takes_effect_or_proves_it_never_does() -> None:
    """A schema's clause takes effect where the schema may be taken; a conjunct's where it
    alone refuses an action. Reached: the shortest path there. Never: proved when the rule is
    dead. Unknown: possible in the domain, not shown reachable."""
    reading = Reading(up=3, at=2, least=1, negated=False)
    live = counter(reading)
    r = clause_reach(live, "T-set")
    assert r.verdict == "reached" and r.trace is not None and len(r.trace.steps) == 2
    refused = clause_reach(live, "T-least")  # set(0) refused first at x = 2
    assert refused.verdict == "reached" and refused.trace is not None
    assert [x["x"] for x in refused.trace.states] == [0, 1, 2]
    assert clause_reach(counter(attrs.evolve(reading, least=0)), "T-least").verdict == "never"
    out_of_reach = counter(attrs.evolve(reading, at=5))
    assert clause_reach(out_of_reach, "T-set", max_depth=8).verdict == "unknown"
    assert clause_reach(switched(False, True), "T-blow").verdict == "never"
    assert clause_reach(switched(True, True), "T-blow").verdict == "reached"
    assert clause_reach(live, "T-nothing").verdict == "absent"


def test_a_search_names_the_limit_that_stopped_it() -> None:
    """Bounded model checking stops at its depth, or at a wall-clock budget when one is given
    (here one already spent: depth 0 only), and the verdict says which limit and how deep it
    searched; a check that reaches Z3's rlimit makes it unknown, never a pass."""
    reading = Reading(up=3, at=5, least=1, negated=False)  # set never reachable: x stays <= 3
    deep = clause_reach(counter(reading), "T-set", max_depth=2)
    assert deep.verdict == "unknown" and (deep.limit, deep.depth) == ("depth", 2)
    assert "no path of length up to 2" in deep.detail and "depth limit of 2" in deep.detail
    late = clause_reach(counter(reading), "T-set", max_depth=8, budget=0.0)
    assert late.verdict == "unknown" and (late.limit, late.depth) == ("budget", 0)
    far = model_differential(
        counter(reading), counter(attrs.evolve(reading, up=2)), max_depth=1
    )  # the readings differ at x = 2, two steps in
    assert far.verdict == "unknown" and (far.limit, far.depth) == ("depth", 1)
    near = model_differential(counter(reading), counter(attrs.evolve(reading, up=2)))
    assert near.verdict == "differ" and near.depth == 2 and not near.limit
    starved = clause_reach(counter(reading), "T-set", rlimit=1)
    assert starved.verdict == "unknown" and starved.limit == "rlimit", starved
