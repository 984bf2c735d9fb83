"""Formulas as z3.py terms: the small vocabulary the encodings are written in, so that they
read as logic and stay typed, and the values a model gives them."""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias

import z3

Bool: TypeAlias = "z3.BoolRef"
Int: TypeAlias = "z3.ArithRef"
Model: TypeAlias = "z3.ModelRef"


def bool_var(name: str) -> Bool:
    return z3.Bool(name)


def int_var(name: str) -> Int:
    return z3.Int(name)


def true() -> Bool:
    return z3.BoolVal(True)


def false() -> Bool:
    return z3.BoolVal(False)


def const(value: int) -> Int:
    return z3.IntVal(value)


# The connectives below build the very terms z3.py's `And`, `Or`, `Not`, `AtMost` and
# `AtLeast` build, straight from the C API where every argument is already a Boolean term of
# one context (as the encodings' are): z3.py casts and sort-checks each argument on the way,
# which cost more than the solving in the small problems play asks (a stacking check).


def _bools(items: Sequence[Bool]) -> tuple[z3.Context, Any] | None:
    """The context and C array of `items` if they are Boolean terms of one context."""
    if not items or type(items[0]) is not z3.BoolRef:
        return None
    ctx = items[0].ctx
    for x in items:
        if type(x) is not z3.BoolRef or x.ctx is not ctx:
            return None
    return ctx, (z3.Ast * len(items))(*[x.as_ast() for x in items])


def and_(parts: Iterable[Bool]) -> Bool:
    return _connective(list(parts), z3.Z3_mk_and, z3.And, empty=True)


def or_(parts: Iterable[Bool]) -> Bool:
    return _connective(list(parts), z3.Z3_mk_or, z3.Or, empty=False)


def _connective(
    items: list[Bool], make: Callable[..., Any], fallback: Callable[..., Bool], *, empty: bool
) -> Bool:
    """`fallback(items)` (z3.py's `And` or `Or`), built by `make` from the C API where it can."""
    if not items:
        return z3.BoolVal(empty)
    found = _bools(items)
    if found is None:
        return fallback(items)
    ctx, args = found
    return z3.BoolRef(make(ctx.ref(), len(items), args), ctx)


def not_(a: Bool) -> Bool:
    if type(a) is not z3.BoolRef:
        return z3.Not(a)
    return z3.BoolRef(z3.Z3_mk_not(a.ctx_ref(), a.as_ast()), a.ctx)


def implies(a: Bool, b: Bool) -> Bool:
    if type(a) is not z3.BoolRef or type(b) is not z3.BoolRef or a.ctx is not b.ctx:
        return z3.Implies(a, b)
    return z3.BoolRef(z3.Z3_mk_implies(a.ctx_ref(), a.as_ast(), b.as_ast()), a.ctx)


def iff(a: Bool, b: Bool) -> Bool:
    return a == b


def ite(c: Bool, a: Int, b: Int) -> Int:
    return z3.If(c, a, b)


def eq(a: Int, b: Int | int) -> Bool:
    return a == b


def le(a: Int, b: Int | int) -> Bool:
    return a <= b


def lt(a: Int, b: Int | int) -> Bool:
    return a < b


def add(parts: Iterable[Int | int]) -> Int:
    items = list(parts)
    return z3.Sum(items) if items else z3.IntVal(0)


def at_most(lits: Sequence[Bool], k: int) -> Bool:
    """At most `k` of `lits` are true (a cardinality constraint, cheap in QF_FD)."""
    if k < 0:
        return z3.BoolVal(False)
    if len(lits) <= k:
        return z3.BoolVal(True)
    found = _bools(lits)
    if found is None:
        return z3.AtMost(*lits, k)
    ctx, args = found
    return z3.BoolRef(z3.Z3_mk_atmost(ctx.ref(), len(lits), args, k), ctx)


def at_least(lits: Sequence[Bool], k: int) -> Bool:
    if k <= 0:
        return z3.BoolVal(True)
    if len(lits) < k:
        return z3.BoolVal(False)
    found = _bools(lits)
    if found is None:
        return z3.AtLeast(*lits, k)
    ctx, args = found
    return z3.BoolRef(z3.Z3_mk_atleast(ctx.ref(), len(lits), args, k), ctx)


def exactly(lits: Sequence[Bool], k: int) -> Bool:
    if not lits:
        return z3.BoolVal(k == 0)
    return z3.PbEq([(x, 1) for x in lits], k)


def weighted_at_most(terms: Sequence[tuple[Bool, int]], k: int) -> Bool:
    """sum(w for lit, w in terms if lit) <= k, with integer weights."""
    if not terms:
        return z3.BoolVal(k >= 0)
    found = _bools([lit for lit, _ in terms])
    weights = [w for _, w in terms]
    if found is None or not all(type(w) is int and abs(w) < _C_INT for w in (*weights, k)):
        return z3.PbLe(list(terms), k)
    ctx, args = found
    coeffs = (ctypes.c_int * len(weights))(*weights)
    return z3.BoolRef(z3.Z3_mk_pble(ctx.ref(), len(weights), args, coeffs, k), ctx)


_C_INT = 1 << 31  # the C API's coefficients and bounds are C ints


def is_true(model: Model, lit: Bool) -> bool:
    return bool(z3.is_true(model.eval(lit, model_completion=True)))


def int_value(model: Model, term: Int) -> int:
    value = model.eval(term, model_completion=True)
    return int(value.as_long())
