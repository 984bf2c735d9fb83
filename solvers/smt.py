"""The one door to Z3. No other module imports z3.

Every solver made here has a fixed random seed and a deterministic resource limit (`rlimit`,
which unlike a timeout gives the same answer on every machine and every run). `unknown` is never
a pass: it raises `SolverUnknown` naming the limit that was hit. Z3's own exceptions are wrapped
in `SolverFailure`. Formulas are built with the small vocabulary below so the encodings read as
logic and stay typed.

Z3 objects are not thread-safe: use processes, not threads, to solve in parallel.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TypeAlias

import z3

from kernel.errors import WargameError

Bool: TypeAlias = "z3.BoolRef"
Int: TypeAlias = "z3.ArithRef"
Model: TypeAlias = "z3.ModelRef"

SEED = 0
DEFAULT_RLIMIT = 20_000_000  # about a second of search on a 2-core machine; deterministic


class SolverUnknown(WargameError):
    """Z3 answered `unknown`: the question is open, never to be read as a yes or a no."""

    kind = "solver_unknown"


class SolverFailure(WargameError):
    """Z3 raised an exception of its own."""

    kind = "solver_failure"


# --- vocabulary -----------------------------------------------------------------------------


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


# --- solver -----------------------------------------------------------------------------------


class Solver:
    """An incremental solver with clause-labelled constraints.

    `add(f, label)` tracks `f` under a fresh indicator literal whose label (usually clause IDs
    and a sentence) comes back in `core()` when a check fails, so an explanation names rules,
    not formulas. Untracked constraints (`label=None`) are background facts.
    """

    def __init__(self, *, finite_domain: bool = True, rlimit: int = DEFAULT_RLIMIT) -> None:
        try:
            self._z3 = z3.SolverFor("QF_FD") if finite_domain else z3.Solver()
            self._z3.set("random_seed", SEED)
            self._z3.set("rlimit", rlimit)
            self._z3.set("core.minimize", True)
        except z3.Z3Exception as exc:  # pragma: no cover - only on a broken z3 install
            raise SolverFailure(f"z3 could not make a solver: {exc}") from exc
        self.rlimit = rlimit
        self._labels: dict[str, object] = {}
        self._indicators: list[Bool] = []

    def add(self, formula: Bool, label: object = None) -> None:
        try:
            if label is None:
                self._z3.add(formula)
                return
            name = f"@{len(self._indicators)}"
            indicator = z3.Bool(name)
            self._labels[name] = label
            self._indicators.append(indicator)
            self._z3.add(z3.Implies(indicator, formula))
        except z3.Z3Exception as exc:
            raise SolverFailure(f"z3 rejected a constraint: {exc}") from exc

    def push(self) -> None:
        self._z3.push()

    def pop(self) -> None:
        self._z3.pop()

    def check(self, assumptions: Sequence[Bool] = (), *, without: Iterable[object] = ()) -> bool:
        """True when satisfiable, False when not; `SolverUnknown` when z3 cannot tell.

        Tracked constraints whose (hashable) label is in `without` are left out of this check."""
        dropped = set(without)
        active = [lit for lit in self._indicators if self._labels[str(lit)] not in dropped]
        try:
            result = self._z3.check(*active, *assumptions)
        except z3.Z3Exception as exc:
            raise SolverFailure(f"z3 failed: {exc}") from exc
        if result == z3.sat:
            return True
        if result == z3.unsat:
            return False
        reason = self._z3.reason_unknown()
        raise SolverUnknown(
            f"z3 answered unknown ({reason}) within its resource limit rlimit={self.rlimit}"
        )

    def model(self) -> Model:
        return self._z3.model()

    def core(self) -> list[object]:
        """The labels of a minimal set of tracked constraints that cannot hold together."""
        names = [str(lit) for lit in self._z3.unsat_core()]
        tracked = sorted((n for n in names if n in self._labels), key=lambda n: int(n[1:]))
        return [self._labels[n] for n in tracked]

    def block(self, lits: Sequence[Bool], model: Model) -> None:
        """Exclude the current values of `lits` (decision variables only) from later models."""
        self._z3.add(z3.Or([lit != model.eval(lit, model_completion=True) for lit in lits]))


class Reader:
    """Reads the values of many literals from a model with one evaluation (a bit-vector of
    them), about twenty times faster than one `eval` per literal."""

    def __init__(self, lits: Sequence[Bool]) -> None:
        self.size = len(lits)
        one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
        bits = [z3.If(x, one, zero) for x in lits]
        self._term = None if not bits else bits[0] if len(bits) == 1 else z3.Concat(*bits)

    def read(self, model: Model) -> list[bool]:
        if self._term is None:
            return []
        value = int(model.eval(self._term, model_completion=True).as_long())
        return [bool(value >> (self.size - 1 - i) & 1) for i in range(self.size)]


def counter_model(
    formula: Bool, background: Sequence[Bool] = (), *, rlimit: int = DEFAULT_RLIMIT
) -> Model | None:
    """None when `formula` holds under `background`; otherwise a counter-model."""
    s = Solver(finite_domain=False, rlimit=rlimit)
    for b in background:
        s.add(b)
    s.add(z3.Not(formula))
    return s.model() if s.check() else None


def disjoint_cores(
    solver: Solver, assumptions: Sequence[Bool], labels: Iterable[object]
) -> list[list[object]]:
    """Minimal cores drawn one after another, each new one among the labels not yet named, until
    what is left holds: so every independent reason a proposal fails is reported, not just one.

    z3's own core minimisation is best effort (it can keep a satisfied constraint), so each core
    is shrunk by deletion. `labels` are all the (hashable) tracked labels of `solver`.
    """
    every = set(labels)
    named: set[object] = set()
    cores: list[list[object]] = []
    while not solver.check(assumptions, without=named):
        core = solver.core()
        for label in list(core):
            trial = [c for c in core if c != label]
            if not solver.check(assumptions, without=every - set(trial)):
                core = trial
        if not core:  # the untracked constraints alone fail: nothing left to name
            break
        cores.append(core)
        named.update(core)
    return cores


# --- symbolic models (solvers.terms) -----------------------------------------------------------


def _b(a: Bool | bool) -> Bool:
    return z3.BoolVal(a) if isinstance(a, bool) else a


def _i(a: Int | int) -> Int:
    return z3.IntVal(a) if isinstance(a, int) else a


class Z3Ops:
    """`solvers.terms.Ops` over Z3 terms, folding constants as it goes so that the static parts
    of a model (a river that is always there, a unit that can never attack) cost nothing."""

    def lit(self, value: bool) -> Bool:
        return z3.BoolVal(value)

    def num(self, value: int) -> Int:
        return z3.IntVal(value)

    def all(self, items: Iterable[Bool]) -> Bool:
        parts = []
        for x in items:
            if z3.is_false(x):
                return z3.BoolVal(False)
            if not z3.is_true(x):
                parts.append(x)
        return parts[0] if len(parts) == 1 else z3.And(parts) if parts else z3.BoolVal(True)

    def any(self, items: Iterable[Bool]) -> Bool:
        parts = []
        for x in items:
            if z3.is_true(x):
                return z3.BoolVal(True)
            if not z3.is_false(x):
                parts.append(x)
        return parts[0] if len(parts) == 1 else z3.Or(parts) if parts else z3.BoolVal(False)

    def not_(self, a: Bool) -> Bool:
        if z3.is_true(a) or z3.is_false(a):
            return z3.BoolVal(z3.is_false(a))
        return z3.Not(a)

    def implies(self, a: Bool, b: Bool) -> Bool:
        return self.any([self.not_(a), b])

    def iff(self, a: Bool, b: Bool) -> Bool:
        if z3.is_true(a):
            return b
        if z3.is_true(b):
            return a
        return a == b

    def eq(self, a: Int | int, b: Int | int) -> Bool:
        if isinstance(a, int) and isinstance(b, int):
            return z3.BoolVal(a == b)
        return _i(a) == _i(b)

    def le(self, a: Int | int, b: Int | int) -> Bool:
        if isinstance(a, int) and isinstance(b, int):
            return z3.BoolVal(a <= b)
        return _i(a) <= _i(b)

    def lt(self, a: Int | int, b: Int | int) -> Bool:
        if isinstance(a, int) and isinstance(b, int):
            return z3.BoolVal(a < b)
        return _i(a) < _i(b)

    def add(self, items: Iterable[Int | int]) -> Int:
        const_part, terms = 0, []
        for x in items:
            if isinstance(x, int):
                const_part += x
            elif z3.is_int_value(x):
                const_part += x.as_long()
            else:
                terms.append(x)
        if const_part or not terms:
            terms.append(z3.IntVal(const_part))
        return terms[0] if len(terms) == 1 else z3.Sum(terms)

    def sub(self, a: Int | int, b: Int | int) -> Int:
        if isinstance(b, int):
            return self.add([a, -b])
        return _i(a) - b

    def ite(self, c: Bool, a: Int | int, b: Int | int) -> Int:
        if z3.is_true(c):
            return _i(a)
        if z3.is_false(c):
            return _i(b)
        x, y = _i(a), _i(b)
        return x if x.eq(y) else z3.If(c, x, y)

    def bite(self, c: Bool, a: Bool, b: Bool) -> Bool:
        if z3.is_true(c):
            return a
        if z3.is_false(c):
            return b
        return a if a.eq(b) else z3.If(c, a, b)

    def count(self, items: Iterable[Bool]) -> Int:
        return self.add(self.ite(x, 1, 0) for x in items)

    def case(self, i: Int, f: Callable[[int], Bool], domain: Sequence[int]) -> Bool:
        if isinstance(i, int) or z3.is_int_value(i):
            k = i if isinstance(i, int) else i.as_long()
            return f(k) if k in domain else z3.BoolVal(False)
        return self.any(self.all([i == k, f(k)]) for k in domain)

    def known(self, a: Bool) -> bool | None:
        if z3.is_true(a):
            return True
        if z3.is_false(a):
            return False
        return None

    def same(self, a: object, b: object) -> bool:
        if z3.is_expr(a) and z3.is_expr(b):
            return bool(a.eq(b))  # type: ignore[attr-defined]
        return a is b


Z3 = Z3Ops()


def fresh_int(name: str) -> Int:
    return z3.Int(name)


def fresh_bool(name: str) -> Bool:
    return z3.Bool(name)


def substitute(term: Bool, pairs: Sequence[tuple[object, object]]) -> Bool:
    """`term` with each first element of `pairs` replaced by the second (a renaming of
    variables: how a one-step formula is laid down at every step of an unrolling)."""
    return z3.substitute(term, *pairs) if pairs else term


def value_of(model: Model, term: object) -> int | bool:
    """The value of an integer or Boolean term in `model` (unconstrained: its default)."""
    v = model.eval(term, model_completion=True)
    if z3.is_true(v) or z3.is_false(v):
        return bool(z3.is_true(v))
    return int(v.as_long())


def is_bool(term: object) -> bool:
    return bool(z3.is_bool(term))
