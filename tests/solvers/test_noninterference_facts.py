"""The conditions two copies agree on, proved one by one and assumed
(solvers.checking.noninterference_facts), on the toy board and the pick of
tests/solvers/test_noninterference_cases.py: the whole question refused once (standing in for
one that exhausts the limit), the conditions of the mark's term are asked equal in the pair
and assumed, and the question asked again is proved; a mark that tells whether the first
decoy stands on the one hex held (a planted leak) is found all the same, its telling
condition never assumed. The search's use of it (`noninterference_search._settle`): the
question asked once more after the conditions are assumed settles the pick with no case
split, and still finds the planted mark."""

from __future__ import annotations

from typing import Any

from solvers import smt
from solvers.checking.noninterference_counts import Question
from solvers.checking.noninterference_facts import learn
from solvers.checking.noninterference_pair import Pair, equal
from solvers.checking.noninterference_search import _settle
from solvers.checking.system import Schema
from tests.solvers.test_noninterference_cases import Peek, Pick, differs
from tests.solvers.test_noninterference_hexes import BRIDGES, RLIMIT, Board, Seen
from tests.solvers.test_noninterference_moves import HELD


def asked_again(schema: Schema) -> tuple[int, bool]:
    """How many conditions were assumed, and whether the mark then differs in some pair."""
    p = Pair(Board(schema), Seen())
    solver = p.solver(rlimit=RLIMIT)
    p.base(solver, (), BRIDGES)
    a = p.obs_after(0)[HELD]
    q = (HELD, a, p.second(a))
    learned = learn(p, solver, frozenset(), q)
    o = smt.Z3
    solver.push()
    solver.add_named(smt.formula(o.not_(equal(o, q[1], q[2]))))
    differs = solver.check()
    solver.pop()
    return learned, differs


def test_a_mark_is_proved_once_its_agreed_conditions_are_assumed() -> None:
    """P-1: each hex's being held agrees in the copies; assumed, the mark is equal."""
    learned, differs = asked_again(Pick())
    assert learned > 0
    assert not differs


def test_a_mark_telling_one_piece_is_still_found() -> None:
    """P-1 planted: whether the first decoy stands on the hex held is no agreed condition, and
    the mark still differs in a pair the solver finds."""
    _, differs = asked_again(Peek())
    assert differs


def settled(schema: Schema) -> tuple[Any, int]:
    """The mark's question as the search settles a whole component that exhausted the limit
    (`_settle`): what it returns, and how many questions it asked."""
    p = Pair(Board(schema), Seen())
    solver = p.solver(rlimit=RLIMIT)
    p.base(solver, (), BRIDGES)
    a = p.obs_after(0)[HELD]
    q = (HELD, a, p.second(a))
    asked: list[Question] = []

    def one(chunk: list[Question]) -> set[str]:
        asked.extend(chunk)
        return differs(solver, chunk)

    return _settle(p, solver, 0, 0, frozenset(), q, one), len(asked)


def test_the_search_assumes_agreed_conditions_before_splitting() -> None:
    """P-1: a component that exhausted the limit is asked again once its agreed conditions are
    assumed, and settled by that one question (no case split)."""
    assert settled(Pick()) == (set(), 1)


def test_the_search_still_finds_a_mark_telling_one_piece() -> None:
    """P-1 planted: the mark still differs after the agreed conditions are assumed."""
    found, _ = settled(Peek())
    assert found == {HELD}
