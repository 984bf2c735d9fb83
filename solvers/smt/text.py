"""The vocabulary as SMT-LIB text, for formulas built in bulk.

Building a formula node by node through z3's Python layer costs far more than solving it on
small problems; text is parsed in one call. Names are SMT-LIB symbols declared with `declare`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import z3

from solvers.smt.vocabulary import Bool


def declare(names: Iterable[str]) -> str:
    return "".join(f"(declare-const {n} Bool)" for n in names)


def t_or(names: Sequence[str]) -> str:
    if not names:
        return "false"
    return names[0] if len(names) == 1 else f"(or {' '.join(names)})"


def t_not(term: str) -> str:
    return f"(not {term})"


def t_and(terms: Sequence[str]) -> str:
    if not terms:
        return "true"
    return terms[0] if len(terms) == 1 else f"(and {' '.join(terms)})"


def t_implies(a: str, b: str) -> str:
    return f"(=> {a} {b})"


def t_at_most(terms: Sequence[str], k: int) -> str:
    if k < 0:
        return "false"
    if len(terms) <= k:
        return "true"
    if k == 0:
        return t_and([t_not(x) for x in terms])
    return f"((_ at-most {k}) {' '.join(terms)})"


def t_at_least(terms: Sequence[str], k: int) -> str:
    if k <= 0:
        return "true"
    if len(terms) < k:
        return "false"
    if k == 1:
        return t_or(terms)
    return f"((_ at-least {k}) {' '.join(terms)})"


def parse_formula(declarations: str, term: str) -> Bool:
    """One SMT-LIB term as a formula."""
    return z3.parse_smt2_string(f"{declarations}(assert {term})")[0]


class Atoms:
    """Boolean constants held as raw C pointers, for assumptions in hot loops: wrapping each in
    a z3.py object costs tens of microseconds, more than a small check."""

    def __init__(self, declarations: str, names: Sequence[str]) -> None:
        self._parent = None
        self.raw: list[Any] = []
        if not names:
            return
        self._parent = z3.parse_smt2_string(f"{declarations}(assert (and true {' '.join(names)}))")[
            0
        ]  # keeps the constants alive
        ctx = self._parent.ctx.ref()
        app = z3.z3core.Z3_to_app(ctx, self._parent.as_ast())
        self.raw = [z3.z3core.Z3_get_app_arg(ctx, app, i + 1) for i in range(len(names))]


def constants(declarations: str, names: Sequence[str]) -> list[Bool]:
    """The Boolean constants `names` (declared in `declarations`) as formulas, in one parse."""
    if not names:
        return []
    parsed = z3.parse_smt2_string(f"{declarations}(assert (and true {' '.join(names)}))")
    return list(parsed[0].children())[1:]
