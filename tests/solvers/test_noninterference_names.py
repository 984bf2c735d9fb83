"""Counts as sums of named indicators (solvers.checking.noninterference_names): the question a
hidden-piece observation puts to the prover, on nine pieces over four hexes. Each piece is
face down in both of two states or stands on the same hex in both; the face-down pieces on
hex 1 are as many in both; so the pieces on hex 1 are as many in both. One linear fact per
piece over the named indicators (its count on hex 1 less its face-down count there is the
same in both states) follows from that piece's two states, and with those facts the
arithmetic solver proves the count within a fixed rlimit. Without the indicators' defining
equations a piece's fact is refuted (names alone say nothing), so a solver that forgot them
would be caught."""

from __future__ import annotations

from typing import Any

from solvers import smt
from solvers.checking.noninterference_names import Defining, Indicators

PIECES, HEXES = 9, 4
RLIMIT = 2_000_000


def _question(names: Indicators) -> tuple[list[Any], list[Any], list[Any]]:
    """The two states' assumptions, one fact per piece over the named indicators (its count
    on hex 1 less its face-down count there is the same in both states), and the question:
    equal face-down counts on hex 1 and different counts of pieces there."""
    o = names.ops
    at = [[smt.fresh_int(f"at{c}.{i}") for i in range(PIECES)] for c in (1, 2)]
    down = [[smt.fresh_bool(f"down{c}.{i}") for i in range(PIECES)] for c in (1, 2)]
    facts: list[Any] = []
    for c in (0, 1):
        facts += [smt.within(x, 0, HEXES - 1) for x in at[c]]
    for i in range(PIECES):
        both_down = o.all([down[0][i], down[1][i]])
        seen = o.all([o.not_(down[0][i]), o.not_(down[1][i]), o.eq(at[0][i], at[1][i])])
        facts.append(smt.formula(o.any([both_down, seen])))

    def on_1(c: int, i: int) -> Any:
        return names.name(o.eq(at[c][i], 1))

    def hidden_on_1(c: int, i: int) -> Any:
        return names.name(o.all([down[c][i], o.eq(at[c][i], 1)]))

    per_piece = [
        smt.formula(
            o.eq(o.sub(on_1(0, i), hidden_on_1(0, i)), o.sub(on_1(1, i), hidden_on_1(1, i)))
        )
        for i in range(PIECES)
    ]
    hidden = [o.add(hidden_on_1(c, i) for i in range(PIECES)) for c in (0, 1)]
    total = [o.count(o.eq(at[c][i], 1) for i in range(PIECES)) for c in (0, 1)]
    claim = [
        smt.formula(o.eq(hidden[0], hidden[1])),
        smt.formula(o.not_(o.eq(total[0], total[1]))),
    ]
    return facts, per_piece, claim


def _solver(names: Indicators) -> Defining:
    return Defining(smt.Solver(finite_domain=False, rlimit=RLIMIT), names)


def test_each_piece_fact_follows_from_the_pieces_two_states() -> None:
    names = Indicators()
    facts, per_piece, _ = _question(names)
    for fact in per_piece:
        solver = _solver(names)
        for f in facts:
            solver.add_named(f)
        solver.add_named(smt.Z3.not_(fact))
        assert not solver.check()


def test_equal_hidden_counts_give_equal_counts_over_named_indicators() -> None:
    names = Indicators()
    facts, per_piece, claim = _question(names)
    solver = _solver(names)
    for f in [*facts, *per_piece, *claim]:
        solver.add_named(f)
    assert len(names.defs) == 2 * 2 * PIECES, "one name per condition, shared by the counts"
    assert not solver.check()


def test_without_the_defining_equations_a_piece_fact_is_refuted() -> None:
    names = Indicators()
    facts, per_piece, _ = _question(names)
    solver = smt.Solver(finite_domain=False, rlimit=RLIMIT)
    for f in facts:
        solver.add(f)
    solver.add(smt.Z3.not_(per_piece[0]))
    assert solver.check()


def test_one_condition_is_one_indicator() -> None:
    """The same condition, built twice, is one name (so a count a step leaves as it was is the
    very term it was before); a constant condition is a constant."""
    names = Indicators()
    x = smt.fresh_int("x")
    a = names.name(smt.Z3.eq(x, 1))
    b = names.name(smt.Z3.eq(x, 1))
    assert smt.structurally_equal(a, b)
    assert names.name(True) == 1 and names.name(False) == 0
    assert len(names.defs) == 1


def _nested(names: Indicators) -> tuple[Any, Any]:
    """A piece's position x, and the indicator of "some piece stands on hex 1" over a count
    of pieces (a condition that reads the indicator of x == 1: nested names)."""
    o = names.ops
    x = smt.fresh_int("x")
    return x, names.name(o.le(1, o.count([o.eq(x, 1)])))


def test_an_indicator_read_by_a_condition_is_defined_too() -> None:
    """A model in which the count says a piece is on hex 1 and the piece is not is no state:
    refused once the inner indicator's equation is asserted with the outer one (a solver
    that defined only the names a formula reads directly found it)."""
    names = Indicators()
    x, outer = _nested(names)
    assert len(names.defs) == 2
    (inner,) = names.in_term(names.items[names.in_term(outer)[0]])
    solver = _solver(names)
    solver.add_named(smt.formula(smt.Z3.all([smt.Z3.eq(outer, 1), smt.Z3.not_(smt.Z3.eq(x, 1))])))
    assert not solver.check()
    shallow = smt.Solver(finite_domain=False, rlimit=RLIMIT)  # the outer equation alone
    shallow.add(names.defs[names.in_term(outer)[0]])
    shallow.add(smt.formula(smt.Z3.all([smt.Z3.eq(outer, 1), smt.Z3.not_(smt.Z3.eq(x, 1))])))
    assert shallow.check()
    assert inner != names.in_term(outer)[0]


def test_definitions_and_marks_go_with_their_scope() -> None:
    """An equation, and a condition marked asked or agreed, after a `push` are gone after its
    `pop` (asserted again, marked again, when needed again)."""
    names = Indicators()
    x, outer = _nested(names)
    solver = _solver(names)
    solver.push()
    solver.add_named(smt.formula(smt.Z3.eq(outer, 1)))
    solver.mark(7, agreed=True)
    solver.mark(8, agreed=False)
    assert 7 in solver.agreed and 8 in solver.asked
    solver.pop()
    assert not solver.agreed and not solver.asked
    solver.add_named(smt.formula(smt.Z3.all([smt.Z3.eq(outer, 1), smt.Z3.not_(smt.Z3.eq(x, 1))])))
    assert not solver.check()
