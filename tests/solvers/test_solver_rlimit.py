"""`Solver.check_within` (solvers/smt/solver.py): a side question asked within a smaller
resource limit than the solver's own may go unanswered (`SolverUnknown`), and the solver's
own limit is back for the next check (what `noninterference_facts` relies on: a condition
asked within a share of the limit, then the main question within the whole)."""

from __future__ import annotations

import pytest
import z3

from solvers import smt

PIGEONS = 7  # pigeons into one hole fewer: refuted, at some cost


def _pigeons(solver: smt.Solver) -> None:
    at = [[z3.Bool(f"p{i}h{j}") for j in range(PIGEONS - 1)] for i in range(PIGEONS)]
    for row in at:
        solver.add(z3.Or(row))
    for j in range(PIGEONS - 1):
        for a in range(PIGEONS):
            for b in range(a + 1, PIGEONS):
                solver.add(z3.Not(z3.And(at[a][j], at[b][j])))


def test_a_side_question_within_a_small_limit_leaves_the_solvers_own_limit() -> None:
    solver = smt.Solver(finite_domain=False, rlimit=50_000_000)
    _pigeons(solver)
    with pytest.raises(smt.SolverUnknown):
        solver.check_within(1)
    assert not solver.check()
