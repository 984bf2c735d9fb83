"""Choices the two copies of a step are proved to share (solvers.checking.noninterference_choices),
on the toy board of tests/solvers/test_noninterference_counts.py: N pieces on H hexes, the
other side seeing face-up pieces as they are and face-down ones counted per hex, a step's
unit masked while face down. A salute (S-1) names a face-up piece (its guard) and marks
whether it is the first: the label masks the unit, yet the guard leaves it no face-down value,
so the two copies' units are proved equal and shared, and the step is proved. A call (S-2)
may name any piece and marks whether it is the first: its unit is not shared (two copies may
name two face-down pieces), and the leak is refuted."""

from __future__ import annotations

from solvers.checking import noninterference as ni
from solvers.checking.noninterference_choices import agreed
from solvers.checking.noninterference_pair import Pair
from solvers.checking.system import Conjunct, IntVar, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from tests.solvers.test_noninterference_counts import HEX, RLIMIT, UNIT, H, up
from tests.solvers.test_noninterference_moves import HELD, Marked, MarkSeen, N


class Salute(Schema):
    """S-1: a face-up piece is named (with a hex, as every step of the board); whether it is
    the first is marked."""

    name, clauses = "salute", ("S-1",)
    choices: tuple[Var, ...] = (IntVar(UNIT, 0, N - 1), IntVar(HEX, 1, H))

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        face_up = o.any(o.all([o.eq(c.i(UNIT), i), s.b(up(i))]) for i in range(N))
        return [Conjunct("S-1", "a face-up piece", lambda: face_up)]

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        return s.evolve(bools={HELD: o.eq(c.i(UNIT), 0)})


class Call(Salute):
    """S-2, the planted leak: any piece may be named, face down too."""

    name = "call"

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return []


def shared(schema: Schema) -> frozenset[str]:
    p = Pair(Marked(schema), MarkSeen())
    return agreed(p, 0, (), (), RLIMIT)


def test_a_unit_the_guard_keeps_face_up_is_shared_and_the_step_proved() -> None:
    """S-1: the unit masked in the label is proved equal in the copies, and the mark with it."""
    assert shared(Salute()) == {UNIT}
    verdict = ni.prove(Marked(Salute()), MarkSeen(), rlimit=RLIMIT)
    assert verdict.status == "proved", verdict.detail


def test_a_unit_that_may_be_face_down_is_not_shared_and_the_leak_refuted() -> None:
    """S-2 planted: two calls of two face-down pieces look alike, so the unit is not shared,
    and the mark telling the first piece is refuted."""
    assert shared(Call()) == frozenset()
    verdict = ni.prove(Marked(Call()), MarkSeen(), rlimit=RLIMIT)
    assert verdict.status == "refuted"
    assert verdict.pair is not None and HELD in verdict.pair.differs
