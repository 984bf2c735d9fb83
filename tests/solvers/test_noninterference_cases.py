"""A component whose question exhausts the limit, asked case by case
(solvers.checking.noninterference_cases), on the toy board of
tests/solvers/test_noninterference_hexes.py: N pieces on H hexes. A pick (P-1) finds the one
hex held, if only one is, and marks whether two pieces or more stand there: the mark reads the
hex as a selector, a sum over the hexes of ite(held(h), h, 0). Asked by a solver that refuses
the whole question (standing in for one that exhausts the limit), the mark is proved case by
case, the selector given each of its values in both copies (each such case agreeing in the
pair, from the hexes' counts) and last none of them; a mark that tells whether the first
decoy stands on that hex (a planted leak) is found in a case all the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solvers import smt
from solvers.checking.noninterference_cases import cases, selectors
from solvers.checking.noninterference_counts import Question
from solvers.checking.noninterference_pair import Pair, equal
from solvers.checking.system import Conjunct, Schema, Var
from solvers.checking.terms import B, Frame, I, Ops
from tests.solvers.test_noninterference_counts import H, at
from tests.solvers.test_noninterference_hexes import BRIDGES, DECOYS, RLIMIT, Board, Seen
from tests.solvers.test_noninterference_moves import HELD, N


def differs(solver: Any, chunk: list[Question]) -> set[str]:
    """The one question of `chunk` asked in `solver`: its name when the two terms may differ."""
    o = smt.Z3
    ((name, x, y),) = chunk
    solver.push()
    try:
        solver.add_named(smt.formula(o.not_(equal(o, x, y))))
        return {name} if solver.check() else set()
    finally:
        solver.pop()


class Pick(Schema):
    """P-1: when exactly one hex is held, whether two pieces or more stand on it is marked."""

    name, clauses = "pick", ("P-1",)
    choices: tuple[Var, ...] = ()

    def guard(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> list[Conjunct[B]]:
        return []

    def mark(self, o: Ops[B, I], s: Frame[B, I], only: I) -> B:
        return o.le(2, o.count(o.eq(s.i(at(i)), only) for i in range(N)))

    def effect(self, o: Ops[B, I], s: Frame[B, I], c: Frame[B, I]) -> Frame[B, I]:
        held = [o.any(o.eq(s.i(at(i)), h) for i in range(N)) for h in range(1, H + 1)]
        only = o.add(o.ite(m, h, 0) for h, m in zip(range(1, H + 1), held, strict=True))
        one = o.eq(o.count(held), 1)
        return s.evolve(bools={HELD: o.bite(one, self.mark(o, s, only), s.b(HELD))})


class Peek(Pick):
    """The planted leak: the mark tells whether the first decoy (it may be off the board)
    stands on the one hex held."""

    name = "peek"

    def mark(self, o: Ops[B, I], s: Frame[B, I], only: I) -> B:
        return o.eq(s.i(at(DECOYS[0])), only)


def split(schema: Schema) -> tuple[Any, list[Question]]:
    """The mark's question asked case by case; the questions the solver was asked."""
    system = Board(schema)
    p = Pair(system, Seen())
    solver = p.solver(rlimit=RLIMIT)
    p.base(solver, (), BRIDGES)
    a = p.obs_after(0)[HELD]
    q = (HELD, a, p.second(a))
    assert selectors(a)  # the one hex held, read as a selector
    asked: list[Question] = []

    def ask(chunk: list[Question]) -> set[str]:
        asked.extend(chunk)
        if len(asked) == 1:
            raise smt.SolverUnknown("the whole question, refused")
        return differs(solver, chunk)

    refused: Callable[[list[Question]], Any] = ask
    try:
        refused([q])
    except smt.SolverUnknown:
        return cases(p, solver, frozenset(), q, ask), asked
    raise AssertionError("the whole question was answered")


def test_a_mark_read_at_a_selected_hex_is_proved_case_by_case() -> None:
    """P-1: two picks from states alike mark alike: the whole question refused, each value of
    the selector (none, each hex) and the case of none of them proved, within the limit."""
    found, asked = split(Pick())
    assert found == set()
    assert len(asked) == 1 + (H + 1) + 1  # the whole, each value, none of them


def test_a_mark_telling_one_piece_is_found_in_a_case() -> None:
    """P-1 planted: whether the first decoy stands on the one hex held differs in two states
    alike; splitting the question into cases does not hide it."""
    found, _ = split(Peek())
    assert found == {HELD}
