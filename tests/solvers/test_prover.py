"""The prover on tiny hand-written transition systems, where every verdict is known: a property
that holds is proved, one that fails gets a minimal witness, k-induction settles what
1-induction cannot, a lasso is found, a ranking proves termination, lazy guard conjuncts are
added only when needed, and an exhausted resource limit is reported as unknown, never proved.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from solvers import smt
from solvers.checking.prover import (
    Invariant,
    Part,
    StepInvariant,
    StepPart,
    Terminates,
    check,
    not_inductive_part,
)
from solvers.checking.system import Conjunct, IntVar
from solvers.checking.unroll import template
from solvers.checking.verdicts import Trace
from tests.solvers.tiny import Rule, Tiny


def twins() -> Tiny:
    """x counts to 10 and back to 0; y is always twice x."""
    return Tiny(
        "twins",
        (IntVar("x", 0, 20), IntVar("y", 0, 40)),
        {"x": 0, "y": 0},
        (
            Rule(
                "inc",
                lambda o, s: o.lt(s.i("x"), 10),
                lambda o, s: {"x": o.add([s.i("x"), 1]), "y": o.add([s.i("y"), 2])},
            ),
            Rule("reset", lambda o, s: o.eq(s.i("x"), 10), lambda o, s: {"x": 0, "y": 0}),
        ),
    )


def needs_two() -> Tiny:
    """0 and 1 alternate; 2 (unreachable) would lead to 3."""
    return Tiny(
        "needs-two",
        (IntVar("x", 0, 3),),
        {"x": 0},
        (
            Rule("flip", lambda o, s: o.le(s.i("x"), 1), lambda o, s: {"x": o.sub(1, s.i("x"))}),
            Rule("jump", lambda o, s: o.eq(s.i("x"), 2), lambda o, s: {"x": 3}),
        ),
    )


def countdown() -> Tiny:
    return Tiny(
        "countdown",
        (IntVar("x", 0, 5),),
        {"x": 5},
        (Rule("dec", lambda o, s: o.lt(0, s.i("x")), lambda o, s: {"x": o.sub(s.i("x"), 1)}),),
    )


def guarded() -> Tiny:
    """x grows while below 3, but only the lazy conjunct says so."""
    return Tiny(
        "guarded",
        (IntVar("x", 0, 5),),
        {"x": 0},
        (
            Rule(
                "inc",
                lambda o, s: o.lit(True),
                lambda o, s: {"x": o.add([s.i("x"), 1])},
                lazy=lambda o, s: o.lt(s.i("x"), 3),
            ),
        ),
    )


def test_invariant_that_holds_is_proved_by_induction() -> None:
    v = check(twins(), Invariant(lambda o, s: o.eq(s.i("y"), o.add([s.i("x"), s.i("x")]))))
    assert v.status == "proved"
    assert v.method == "1-induction"


def test_failing_invariant_gets_a_minimal_witness() -> None:
    v = check(twins(), Invariant(lambda o, s: o.not_(o.eq(s.i("x"), 7)), depth=10))
    assert v.status == "refuted"
    assert v.trace is not None
    assert len(v.trace.steps) == 7  # x reaches 7 after exactly seven steps, no sooner
    assert [st["x"] for st in v.trace.states] == list(range(8))
    assert all(name == "inc" for name, _ in v.trace.steps)


def test_k_induction_proves_what_one_step_cannot() -> None:
    prop = Invariant(lambda o, s: o.not_(o.eq(s.i("x"), 3)), depth=6)
    one = check(needs_two(), prop)
    assert one.status == "unknown"  # x = 2 -> 3 breaks 1-induction, and no witness exists
    two = check(needs_two(), Invariant(prop.holds, k=2))
    assert two.status == "proved"
    assert two.method == "2-induction"


def test_step_invariant_proved_and_refuted() -> None:
    never_down = StepInvariant(lambda o, s, n: o.any([o.le(s.i("x"), n.i("x")), o.eq(n.i("x"), 0)]))
    assert check(twins(), never_down).status == "proved"
    by_one = StepInvariant(lambda o, s, n: o.le(n.i("y"), o.add([s.i("y"), 1])), depth=3)
    v = check(twins(), by_one)
    assert v.status == "refuted"
    assert v.trace is not None and len(v.trace.steps) == 1


def test_lasso_shows_play_that_never_ends() -> None:
    v = check(twins(), Terminates(depth=12))
    assert v.status == "refuted"
    assert v.trace is not None and v.trace.loop == 0
    assert v.trace.states[-1] == v.trace.states[0]
    assert len(v.trace.steps) == 11  # ten increments and the reset


def test_ranking_proves_termination_and_no_ranking_is_unknown() -> None:
    assert check(countdown(), Terminates(ranking=lambda o, s: s.i("x"))).status == "proved"
    without = check(countdown(), Terminates(depth=8))
    assert without.status == "unknown"  # no lasso, and nothing proves the end


def test_bad_ranking_does_not_prove() -> None:
    v = check(twins(), Terminates(ranking=lambda o, s: s.i("x"), depth=2))
    assert v.status != "proved"


def test_lazy_conjunct_is_added_when_a_proof_needs_it() -> None:
    system = guarded()
    v = check(system, Invariant(lambda o, s: o.le(s.i("x"), 3)))
    assert v.status == "proved"
    assert (0, 1) in template(system).needed  # the lazy conjunct of schema 0 was needed


def test_tiny_resource_limit_is_unknown_never_proved() -> None:
    v = check(
        twins(), Invariant(lambda o, s: o.eq(s.i("y"), o.add([s.i("x"), s.i("x")]))), rlimit=1
    )
    assert v.status == "unknown"
    assert "rlimit=1" in v.detail


def test_simulated_path_gives_a_witness_the_bounded_search_missed() -> None:
    system = twins()
    states = tuple({"x": i, "y": 2 * i} for i in range(11))
    path = Trace(states, tuple(("inc", {}) for _ in range(10)))
    v = check(system, Invariant(lambda o, s: o.not_(o.eq(s.i("x"), 9)), depth=3), paths=[path])
    assert v.status == "refuted"
    assert v.method.startswith("simulation")
    assert v.trace is not None and v.trace.states[-1]["x"] == 9


def test_simulated_path_that_is_no_model_step_is_an_error() -> None:
    system = twins()
    path = Trace(({"x": 0, "y": 0}, {"x": 2, "y": 4}), (("inc", {}),))
    with pytest.raises(smt.SolverFailure):
        check(system, Invariant(lambda o, s: o.not_(o.eq(s.i("x"), 9)), depth=1), paths=[path])


class _Step(Rule):
    """Token `me` moves one cell up, onto no cell the other token holds: a conjunct about
    `me` only, so a proof by parts knows it only when `me` is among a part's subjects."""

    def __init__(self, me: str, other: str) -> None:
        super().__init__(
            f"move{me}",
            lambda o, s: o.lt(s.i(me), 5),
            lambda o, s: {me: o.add([s.i(me), 1])},
        )
        self.me, self.other = me, other

    def guard(self, o: Any, s: Any, c: Any) -> list[Conjunct[Any]]:
        me, other = self.me, self.other
        apart = Conjunct(
            "T-APART",
            "never onto the other token",
            lambda: o.not_(o.eq(o.add([s.i(me), 1]), s.i(other))),
            about=frozenset({me}),
        )
        return [*super().guard(o, s, c), apart]


def tokens() -> Tiny:
    return Tiny(
        "tokens",
        (IntVar("a", 0, 5), IntVar("b", 0, 5)),
        {"a": 0, "b": 2},
        (_Step("a", "b"), _Step("b", "a")),
    )


def _apart(subjects: frozenset[str]) -> Part:
    return Part("a and b apart", lambda o, s: o.not_(o.eq(s.i("a"), s.i("b"))), subjects)


def test_a_part_is_proved_from_the_conjuncts_about_its_subjects() -> None:
    """1-induction by parts: the part assumes both tokens' rules and is proved; the verdict
    says how."""
    part = _apart(frozenset({"a", "b"}))
    v = check(tokens(), Invariant(part.holds, parts=lambda: [part]))
    assert (v.status, v.method) == ("proved", "1-induction by parts")


def test_a_part_missing_a_subject_is_not_proved() -> None:
    """Without the conjuncts about b, b may step onto a: the part is not inductive, and the
    verdict is never "proved" (the base case and bmc still run on the whole property)."""
    part = _apart(frozenset({"a"}))
    v = check(tokens(), Invariant(part.holds, parts=lambda: [part]))
    assert v.status == "unknown"
    assert not_inductive_part(tokens(), (), [part], 10_000_000) == "a and b apart"


def test_a_part_restricted_to_other_clauses_is_not_proved() -> None:
    """`clauses` keeps only the conjuncts citing them: without T-APART the part fails."""
    part = attrs.evolve(_apart(frozenset({"a", "b"})), clauses=frozenset({"T-movea"}))
    assert not_inductive_part(tokens(), (), [part], 10_000_000) == "a and b apart"
    kept = attrs.evolve(part, clauses=frozenset({"T-APART"}))
    assert not_inductive_part(tokens(), (), [kept], 10_000_000) is None


def test_a_step_part_is_proved_from_its_conjuncts_and_a_false_one_is_not() -> None:
    """`StepPart`: "b never steps onto a" follows from the conjunct about b alone; "a never
    moves" does not, and the verdict then comes from bounded model checking (a witness)."""
    onto = StepPart(
        "b never onto a",
        lambda o, s, n: o.implies(
            o.not_(o.eq(n.i("b"), s.i("b"))), o.not_(o.eq(n.i("b"), s.i("a")))
        ),
        frozenset({"b"}),
    )
    v = check(tokens(), StepInvariant(onto.holds, parts=lambda: [onto]))
    assert (v.status, v.method) == ("proved", "1-induction by parts")
    assert not_inductive_part(tokens(), (), [attrs.evolve(onto, subjects=frozenset({"a"}))], 10**7)
    still = StepPart("a still", lambda o, s, n: o.eq(n.i("a"), s.i("a")), frozenset({"a"}))
    v = check(tokens(), StepInvariant(still.holds, parts=lambda: [still]))
    assert v.status == "refuted" and v.trace is not None
