"""Formulas as z3.py terms: the small vocabulary the encodings are written in, so that they
read as logic and stay typed, and the values a model gives them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TypeAlias

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


def and_(parts: Iterable[Bool]) -> Bool:
    items = list(parts)
    return z3.And(items) if items else z3.BoolVal(True)


def or_(parts: Iterable[Bool]) -> Bool:
    items = list(parts)
    return z3.Or(items) if items else z3.BoolVal(False)


def not_(a: Bool) -> Bool:
    return z3.Not(a)


def implies(a: Bool, b: Bool) -> Bool:
    return z3.Implies(a, b)


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
    return z3.AtMost(*lits, k)


def at_least(lits: Sequence[Bool], k: int) -> Bool:
    if k <= 0:
        return z3.BoolVal(True)
    if len(lits) < k:
        return z3.BoolVal(False)
    return z3.AtLeast(*lits, k)


def exactly(lits: Sequence[Bool], k: int) -> Bool:
    if not lits:
        return z3.BoolVal(k == 0)
    return z3.PbEq([(x, 1) for x in lits], k)


def weighted_at_most(terms: Sequence[tuple[Bool, int]], k: int) -> Bool:
    """sum(w for lit, w in terms if lit) <= k, with integer weights."""
    if not terms:
        return z3.BoolVal(k >= 0)
    return z3.PbLe(list(terms), k)


def is_true(model: Model, lit: Bool) -> bool:
    return bool(z3.is_true(model.eval(lit, model_completion=True)))


def int_value(model: Model, term: Int) -> int:
    value = model.eval(term, model_completion=True)
    return int(value.as_long())
