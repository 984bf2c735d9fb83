"""Symbolic models over Z3: `Z3Ops`, the `solvers.checking.terms.Ops` the checking toolchain
writes its models against, and the operations on its terms (substitution, simplification,
quantifiers, the values a model gives them)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import z3

from solvers.smt.vocabulary import Bool, Int, Model


def _b(a: Bool | bool) -> Bool:
    return z3.BoolVal(a) if isinstance(a, bool) else a


class Z3Ops:
    """`solvers.checking.terms.Ops` over Z3 terms. Constants stay Python `bool`s and `int`s
    until they meet a variable, so the static parts of a model (a river that is always there, a
    unit that can never attack) fold away without a call into Z3. Terms are made through Z3's C
    API directly: z3.py's checks on every argument cost more than the term itself, and a model's
    terms are well sorted by construction (Booleans with Booleans, integers with integers)."""

    def __init__(self) -> None:
        self._ctx = z3.main_ctx()
        self._ref = self._ctx.ref()
        self._ints: dict[int, Int] = {}

    def _bool(self, ast: Any) -> Bool:
        return z3.BoolRef(ast, self._ctx)

    def _arith(self, ast: Any) -> Int:
        return z3.ArithRef(ast, self._ctx)

    def _int(self, a: Int | int) -> Int:
        if not isinstance(a, int):
            return a
        if a not in self._ints:
            self._ints[a] = z3.IntVal(a)
        return self._ints[a]

    def _array(self, items: Sequence[Any]) -> Any:
        return (z3.Ast * len(items))(*(x.as_ast() for x in items))

    def lit(self, value: bool) -> Bool:
        return value

    def num(self, value: int) -> Int:
        return value

    def all(self, items: Iterable[Bool]) -> Bool:
        parts = []
        for x in items:
            if x is False:
                return False
            if x is not True:
                parts.append(x)
        if not parts:
            return True
        if len(parts) == 1:
            return parts[0]
        return self._bool(z3.Z3_mk_and(self._ref, len(parts), self._array(parts)))

    def any(self, items: Iterable[Bool]) -> Bool:
        parts = []
        for x in items:
            if x is True:
                return True
            if x is not False:
                parts.append(x)
        if not parts:
            return False
        if len(parts) == 1:
            return parts[0]
        return self._bool(z3.Z3_mk_or(self._ref, len(parts), self._array(parts)))

    def not_(self, a: Bool) -> Bool:
        if isinstance(a, bool):
            return not a
        return self._bool(z3.Z3_mk_not(self._ref, a.as_ast()))

    def implies(self, a: Bool, b: Bool) -> Bool:
        return self.any([self.not_(a), b])

    def iff(self, a: Bool, b: Bool) -> Bool:
        if isinstance(a, bool):
            return b if a else self.not_(b)
        if isinstance(b, bool):
            return a if b else self.not_(a)
        return self._bool(z3.Z3_mk_eq(self._ref, a.as_ast(), b.as_ast()))

    def eq(self, a: Int | int, b: Int | int) -> Bool:
        if isinstance(a, int) and isinstance(b, int):
            return a == b
        x, y = self._int(a), self._int(b)
        return self._bool(z3.Z3_mk_eq(self._ref, x.as_ast(), y.as_ast()))

    def le(self, a: Int | int, b: Int | int) -> Bool:
        if isinstance(a, int) and isinstance(b, int):
            return a <= b
        x, y = self._int(a), self._int(b)
        return self._bool(z3.Z3_mk_le(self._ref, x.as_ast(), y.as_ast()))

    def lt(self, a: Int | int, b: Int | int) -> Bool:
        if isinstance(a, int) and isinstance(b, int):
            return a < b
        x, y = self._int(a), self._int(b)
        return self._bool(z3.Z3_mk_lt(self._ref, x.as_ast(), y.as_ast()))

    def add(self, items: Iterable[Int | int]) -> Int:
        const_part, terms = 0, []
        for x in items:
            if isinstance(x, int):
                const_part += x
            else:
                terms.append(x)
        if not terms:
            return const_part
        if const_part:
            terms.append(self._int(const_part))
        if len(terms) == 1:
            return terms[0]
        return self._arith(z3.Z3_mk_add(self._ref, len(terms), self._array(terms)))

    def sub(self, a: Int | int, b: Int | int) -> Int:
        if isinstance(b, int):
            return self.add([a, -b])
        terms = [self._int(a), b]
        return self._arith(z3.Z3_mk_sub(self._ref, 2, self._array(terms)))

    def mod(self, a: Int | int, k: int) -> Int:
        if isinstance(a, int):
            return a % k
        return self._arith(z3.Z3_mk_mod(self._ref, a.as_ast(), self._int(k).as_ast()))

    def ite(self, c: Bool, a: Int | int, b: Int | int) -> Int:
        if isinstance(c, bool):
            return a if c else b
        if self.same(a, b):
            return a
        x, y = self._int(a), self._int(b)
        return self._arith(z3.Z3_mk_ite(self._ref, c.as_ast(), x.as_ast(), y.as_ast()))

    def bite(self, c: Bool, a: Bool, b: Bool) -> Bool:
        if isinstance(c, bool):
            return a if c else b
        if self.same(a, b):
            return a
        if a is True:
            return self.any([c, b])
        if a is False:
            return self.all([self.not_(c), b])
        if b is True:
            return self.any([self.not_(c), a])
        if b is False:
            return self.all([c, a])
        return self._bool(z3.Z3_mk_ite(self._ref, c.as_ast(), a.as_ast(), b.as_ast()))

    def count(self, items: Iterable[Bool]) -> Int:
        return self.add(self.ite(x, 1, 0) for x in items)

    def among(self, a: Int | int, items: Sequence[Int]) -> Bool:
        return self.any(self.eq(a, x) for x in items)

    def case(self, i: Int, f: Callable[[int], Bool], domain: Sequence[int]) -> Bool:
        if isinstance(i, int):
            return f(i) if i in domain else False
        return self.any(self.all([self.eq(i, k), f(k)]) for k in domain)

    def known(self, a: Bool) -> bool | None:
        return a if isinstance(a, bool) else None

    def value(self, a: Int) -> int | None:
        return a if isinstance(a, int) else None

    def same(self, a: object, b: object) -> bool:
        """One term: the same Python object, or equal constants (a structural comparison in
        Z3 would cost more than the if-then-else it saves)."""
        if a is b:
            return True
        if isinstance(a, bool | int) and isinstance(b, bool | int):
            return type(a) is type(b) and a == b
        return False


Z3 = Z3Ops()


def fresh_int(name: str) -> Int:
    return z3.Int(name)


def fresh_bool(name: str) -> Bool:
    return z3.Bool(name)


def within(x: Int, lo: int, hi: int | None) -> Bool:
    """lo <= x <= hi (no upper bound when hi is None)."""
    return z3.And(x >= lo, x <= hi) if hi is not None else x >= lo


def for_all(variables: Sequence[Any], body: Bool) -> Bool:
    """`body` for every value of `variables` (Z3 constants, bound here); `body` itself when
    there are none. Only the general solver takes it (not the finite-domain one)."""
    return z3.ForAll(list(variables), body) if variables else body


def substitute(term: Bool, pairs: Sequence[tuple[object, object]]) -> Bool:
    """`term` with each first element of `pairs` replaced by the second (a renaming of
    variables: how a one-step formula is laid down at every step of an unrolling)."""
    return z3.substitute(term, *pairs) if pairs else term


def value_of(model: Model, term: object) -> int | bool:
    """The value of an integer or Boolean term in `model` (unconstrained: its default)."""
    if isinstance(term, bool | int):
        return term
    v = model.eval(term, model_completion=True)
    if z3.is_true(v) or z3.is_false(v):
        return bool(z3.is_true(v))
    return int(v.as_long())


def value_term(value: int | bool) -> Any:
    """A constant as a Z3 term of its sort (to substitute for a variable)."""
    return z3.BoolVal(value) if isinstance(value, bool) else z3.IntVal(value)


def simplify(term: Bool) -> Bool:
    """`term` rewritten by Z3's simplifier (constants folded, so a formula that is false once
    some variables are fixed often becomes the literal false)."""
    return z3.simplify(term)


def is_false(term: object) -> bool:
    """The literal false (after simplification, say)."""
    return term is False or bool(z3.is_expr(term) and z3.is_false(term))


def structurally_equal(a: object, b: object) -> bool:
    """The same term: equal constants, or one Z3 expression (Z3 shares equal subterms, so
    this is a comparison of identities, not a walk over the terms)."""
    if isinstance(a, bool | int) or isinstance(b, bool | int):
        return type(a) is type(b) and a == b
    return bool(z3.is_expr(a) and z3.is_expr(b) and a.eq(b))  # type: ignore[attr-defined]


def is_bool(term: object) -> bool:
    return isinstance(term, bool) or bool(z3.is_bool(term))


def formula(term: Bool | bool) -> Bool:
    """A term as a Z3 Boolean (a Python constant becomes a Z3 constant)."""
    return _b(term)


def names_in(term: Bool | bool) -> set[str]:
    """The names of the variables (uninterpreted constants) a term reads."""
    if isinstance(term, bool):
        return set()
    seen: set[int] = set()
    out: set[str] = set()
    todo = [term]
    while todo:
        t = todo.pop()
        key = t.get_id()
        if key in seen:
            continue
        seen.add(key)
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(t.decl().name())
        else:
            todo.extend(t.children())
    return out


# --- reading a term's shape (for rewriting proofs over terms, `solvers.checking`) ---------------


def is_eq(term: object) -> bool:
    return bool(z3.is_eq(term))


def is_int(term: object) -> bool:
    return bool(z3.is_int(term))


def is_int_value(term: object) -> bool:
    return bool(z3.is_int_value(term))


def is_ite(term: object) -> bool:
    return bool(z3.is_app_of(term, z3.Z3_OP_ITE))


def is_or(term: object) -> bool:
    return bool(z3.is_or(term))


def bottom_up(term: Any, done: dict[int, Any], visit: Callable[[Any], Any]) -> Any:
    """`term` with `visit` applied to each subterm once its children are rewritten (bottom up),
    each shared subterm once: `done` keeps the results by term id, across calls."""
    if isinstance(term, bool | int):
        return term
    key = term.get_id()
    if key in done:
        return done[key]
    kids = [bottom_up(c, done, visit) for c in term.children()]
    same = all(a.eq(b) for a, b in zip(kids, term.children(), strict=True))
    out = visit(term if same else term.decl()(*kids))
    done[key] = out
    return out
