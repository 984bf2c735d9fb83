"""The connectives of `solvers.smt.vocabulary` build from the C API the very terms z3.py builds
(Z3 shares equal terms, so `eq` is identity of the term): a faster path must not change a
single formula, or every proof and every listing that asks the solver could change with it."""

from __future__ import annotations

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from solvers.smt import vocabulary as v

LITS = [z3.Bool(f"p{i}") for i in range(6)]
picks = st.lists(st.sampled_from(LITS), min_size=1, max_size=6)


@settings(max_examples=150, deadline=None)
@given(picks, st.integers(-1, 8), st.lists(st.integers(-4, 6), min_size=6, max_size=6))
def test_connectives_build_z3_py_s_own_terms(lits: list[z3.BoolRef], k: int, ws: list[int]) -> None:
    assert v.and_(lits).eq(z3.And(lits))
    assert v.or_(lits).eq(z3.Or(lits))
    assert v.not_(lits[0]).eq(z3.Not(lits[0]))
    assert v.implies(lits[0], lits[-1]).eq(z3.Implies(lits[0], lits[-1]))
    if 0 <= k < len(lits):
        assert v.at_most(lits, k).eq(z3.AtMost(*lits, k))
    if 0 < k <= len(lits):
        assert v.at_least(lits, k).eq(z3.AtLeast(*lits, k))
    terms = list(zip(lits, ws, strict=False))
    assert v.weighted_at_most(terms, k).eq(z3.PbLe(terms, k))


def test_terms_of_other_kinds_take_z3_py_s_path() -> None:
    """Python truth values and terms of another context are cast as z3.py casts them."""
    other = z3.Bool("q", z3.Context())
    assert v.and_([LITS[0], True]).eq(z3.And([LITS[0], True]))
    assert v.or_([other, other]).eq(z3.Or([other, other]))
    assert v.not_(other).eq(z3.Not(other))
    assert v.at_most([LITS[0], LITS[1]], 1).eq(z3.AtMost(LITS[0], LITS[1], 1))
