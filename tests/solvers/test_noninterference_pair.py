"""The second copy of a term (solvers.checking.noninterference_pair.Pair.second) on the toy
board of tests/solvers/test_noninterference_hexes.py: an indicator whose condition reads a
count (a condition over a count made after a step, as `noninterference_moves` writes it) is,
in the second copy, the indicator of the second copy's condition over the second copy's
count, every name it reads renamed. With every piece on hex 1 in the first state and none in
the second, "some piece on hex 1" differs in the copies: a second copy that kept the first
copy's count inside made them one, and could prove a leak absent."""

from __future__ import annotations

from solvers import smt
from solvers.checking.noninterference_names import Defining
from solvers.checking.noninterference_pair import Pair, _differ, prove_identities
from tests.solvers.test_noninterference_counts import at
from tests.solvers.test_noninterference_hexes import Board, Seen, Survey
from tests.solvers.test_noninterference_moves import N

RLIMIT = 1_000_000


def test_the_second_copy_of_a_nested_indicator_reads_the_second_copys_count() -> None:
    o = smt.Z3
    p = Pair(Board(Survey()), Seen())
    cur = p.t.cur.ints
    outer = p.names.name(o.le(1, p.ops.count(o.eq(cur[at(i)], 1) for i in range(N))))
    two = p.second(outer)
    (name,) = p.names.in_term(two)
    assert p.names.in_term(p.names.items[name])  # nested: it reads a count's names
    assert not set(p.names.in_term(p.names.items[name])) & set(
        p.names.in_term(p.names.items[p.names.in_term(outer)[0]])
    )
    solver = p.solver(rlimit=RLIMIT)
    solver.add_named(smt.formula(o.all([o.eq(cur[at(i)], 1) for i in range(N)])))
    solver.add(p.second(smt.formula(o.all([o.eq(cur[at(i)], 2) for i in range(N)])), plain=True))
    solver.add_named(smt.formula(o.all([o.eq(outer, 1), o.eq(two, 0)])))
    assert solver.check()


def test_an_identity_through_a_nested_indicator_is_asked_again_with_every_equation() -> None:
    """`_differ` asks first with the equations of the indicators the terms read and no
    deeper: there "some piece on hex 1" (over the count's inner indicators, left free) may
    differ from the disjunction it names, so the question is asked again with every
    equation, where it is an identity; one that is no identity is still refuted."""
    o = smt.Z3
    p = Pair(Board(Survey()), Seen())
    cur = p.t.cur.ints
    on_one = [o.eq(cur[at(i)], 1) for i in range(N)]
    some = p.names.name(o.le(1, p.ops.count(on_one)))
    assert p.names.in_term(p.names.items[p.names.in_term(some)[0]])  # nested
    plain = o.ite(o.any(on_one), 1, 0)
    assert not _differ(p, some, plain, RLIMIT)
    assert _differ(p, some, o.ite(o.any([o.eq(cur[at(i)], 2) for i in range(N)]), 1, 0), RLIMIT)
    prove_identities(p, [(some, plain)], RLIMIT)  # no ValueError: an identity


def test_the_first_question_leaves_inner_indicators_free() -> None:
    """What makes the second question needed: with the outer equation alone, a model gives
    the count's inner indicators values no state gives them."""
    o = smt.Z3
    p = Pair(Board(Survey()), Seen())
    cur = p.t.cur.ints
    on_one = [o.eq(cur[at(i)], 1) for i in range(N)]
    some = p.names.name(o.le(1, p.ops.count(on_one)))
    claim = smt.formula(o.not_(o.eq(some, o.ite(o.any(on_one), 1, 0))))
    shallow = Defining(smt.Solver(finite_domain=False, rlimit=RLIMIT), p.names, deep=False)
    shallow.add_named(claim)
    assert shallow.check()  # a "state" that is none: the inner indicators free
