"""`smt.wall_clock`: the wall-clock budget of `wargame explore --budget` reaches into Z3, so a
check stops at the deadline and says the budget (not the rlimit) was the limit. The tests
use deadlines already past or an hour away, so no verdict depends on the machine's speed."""

from __future__ import annotations

import time

import pytest

from solvers import smt
from solvers.checking.bounded_search import BUDGET
from solvers.checking.explore_model import model_differential
from solvers.checking.model_search import model_of
from specs.nomonhan.formal import verification as nom_verification
from tools.registry import get_game


def _solver() -> tuple[smt.Solver, smt.Int]:
    s = smt.Solver(finite_domain=False)
    x = smt.int_var("x")
    s.add(x > 2)
    return s, x


def test_a_check_past_the_deadline_says_the_budget_ran_out() -> None:
    s, _ = _solver()
    with smt.wall_clock(time.perf_counter() - 1.0), pytest.raises(smt.BudgetSpent) as err:
        s.check()
    assert "wall-clock budget" in err.value.message
    assert isinstance(err.value, smt.SolverUnknown)  # an open question, like any unknown


def test_a_deadline_far_ahead_changes_no_answer_and_ends_with_its_block() -> None:
    s, x = _solver()
    with smt.wall_clock(time.perf_counter() + 3600.0):
        assert s.check()
        assert not s.check([x < 1])
    assert s.check()  # no deadline now: no timeout left behind
    with smt.wall_clock(None):
        assert s.check()


def test_the_model_search_names_the_budget_as_its_limit() -> None:
    """AMB-NOM-17: the model differential of a Nomonhan pair, its deadline already past,
    stops unknown with the budget as the limit hit, not the rlimit."""
    cat = get_game("nomonhan").catalogue
    en = model_of(nom_verification.symbolic_model, cat.preset("en"))
    other = model_of(
        nom_verification.symbolic_model, cat.variant("en", {"demolition_effect": "crossing_only"})
    )
    assert en is not None and other is not None
    with smt.wall_clock(time.perf_counter() - 1.0):
        v = model_differential(en.system, other.system, max_depth=2)
    assert v.verdict == "unknown" and v.limit == BUDGET, v
