"""The one door to Z3. No other module imports z3.

Every solver made here has a fixed random seed and a deterministic resource limit (`rlimit`,
which unlike a timeout gives the same answer on every machine and every run). `unknown` is never
a pass: it raises `SolverUnknown` naming the limit that was hit. Z3's own exceptions are wrapped
in `SolverFailure`. Formulas are built with the small vocabulary below so the encodings read as
logic and stay typed; encodings made in bulk and checked thousands of times (the combat layer's)
use `Formula` and `BoolSolver`, which go to Z3's C API without z3.py's objects.

Z3 objects are not thread-safe: use processes, not threads, to solve in parallel.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeAlias

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


class BudgetSpent(SolverUnknown):
    """A check stopped because the wall-clock deadline of `wall_clock` passed: the question is
    open, like any unknown, and the limit hit is the budget, not the rlimit."""

    kind = "budget_spent"


_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("deadline", default=None)
_NO_TIMEOUT = 4294967295  # z3's default: no timeout


@contextlib.contextmanager
def wall_clock(deadline: float | None) -> Iterator[None]:
    """Within the block, every check stops at `deadline` (a `time.perf_counter` value) with
    `BudgetSpent`; None: no deadline. Only tools with a user's `--budget` set one: a test's
    verdict depends on rlimits alone, never on how loaded the machine is."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


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


# --- the same vocabulary as SMT-LIB text, for formulas built in bulk ---------------------------
# Building a formula node by node through z3's Python layer costs far more than solving it on
# small problems; text is parsed in one call. Names are SMT-LIB symbols declared with `declare`.


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
        self._timeout = False  # a wall-clock timeout is set (`wall_clock`)
        self._labels: dict[str, object] = {}
        self._indicators: list[Bool] = []
        self._names: list[str] = []

    def add(self, formula: Bool, label: object = None) -> None:
        try:
            if label is None:
                self._z3.add(formula)
                return
            name = f"@{len(self._indicators)}"
            indicator = z3.Bool(name)
            self._labels[name] = label
            self._indicators.append(indicator)
            self._names.append(name)
            self._z3.add(z3.Implies(indicator, formula))
        except z3.Z3Exception as exc:
            raise SolverFailure(f"z3 rejected a constraint: {exc}") from exc

    def add_text(self, declarations: str, terms: Sequence[str]) -> None:
        """Assert SMT-LIB terms (untracked), parsed in one call."""
        if not terms:
            return
        text = declarations + "".join(f"(assert {t})" for t in terms)
        try:
            self._z3.from_string(text)
        except z3.Z3Exception as exc:
            raise SolverFailure(f"z3 rejected a constraint: {exc}") from exc

    def push(self) -> None:
        self._z3.push()

    def pop(self) -> None:
        self._z3.pop()

    def check_atoms(self, atoms: Sequence[Any]) -> bool:
        """`check` under raw assumptions from `Atoms.raw` (no tracked constraints)."""
        deadline = self._timed()
        return self._result(
            z3.z3core.Z3_solver_check_assumptions(
                self._z3.ctx.ref(), self._z3.solver, len(atoms), (z3.Ast * len(atoms))(*atoms)
            ),
            deadline,
        )

    def _timed(self) -> float | None:
        """Set this check's timeout from the wall-clock deadline, if any (`BudgetSpent` when
        it has passed already); the deadline."""
        deadline = _DEADLINE.get()
        if deadline is None:
            if self._timeout:
                self._z3.set("timeout", _NO_TIMEOUT)
                self._timeout = False
            return None
        left = deadline - time.perf_counter()
        if left <= 0:
            raise BudgetSpent("the wall-clock budget ran out before a Z3 check")
        self._z3.set("timeout", max(1, int(left * 1000)))
        self._timeout = True
        return deadline

    def _result(self, result: int, deadline: float | None = None) -> bool:
        if result == 1:
            return True
        if result == -1:
            return False
        reason = self._z3.reason_unknown()
        if deadline is not None and time.perf_counter() >= deadline:
            raise BudgetSpent(f"the wall-clock budget ran out during a Z3 check ({reason})")
        raise SolverUnknown(
            f"z3 answered unknown ({reason}) within its resource limit rlimit={self.rlimit}"
        )

    def check(self, assumptions: Sequence[Bool] = (), *, without: Iterable[object] = ()) -> bool:
        """True when satisfiable, False when not; `SolverUnknown` when z3 cannot tell.

        Tracked constraints whose (hashable) label is in `without` are left out of this check."""
        dropped = set(without)
        active = [
            lit
            for lit, name in zip(self._indicators, self._names, strict=True)
            if not dropped or self._labels[name] not in dropped
        ]
        lits = [*active, *assumptions]
        # The C API directly: z3.py's check() casts every assumption in Python, which costs
        # more than the search itself on small problems.
        array = (z3.Ast * len(lits))(*(lit.as_ast() for lit in lits))
        deadline = self._timed()
        try:
            result = z3.z3core.Z3_solver_check_assumptions(
                self._z3.ctx.ref(), self._z3.solver, len(lits), array
            )
        except z3.Z3Exception as exc:
            raise SolverFailure(f"z3 failed: {exc}") from exc
        return self._result(result, deadline)

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

    def __init__(self, lits: Sequence[Bool], declarations: str = "") -> None:
        self.size = len(lits)
        self._term = None
        if not lits:
            return
        if declarations:  # the literals by name: parse the whole term at once
            bits = " ".join(f"(ite {x} #b1 #b0)" for x in map(str, lits))
            term = bits if len(lits) == 1 else f"(concat {bits})"
            width = f"(_ BitVec {len(lits)})"
            parsed = z3.parse_smt2_string(
                f"{declarations}(declare-const reader! {width})(assert (= reader! {term}))"
            )
            self._term = parsed[0].arg(1)
            return
        one, zero = z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)
        terms = [z3.If(x, one, zero) for x in lits]
        self._term = terms[0] if len(terms) == 1 else z3.Concat(*terms)

    def read(self, model: Model) -> list[bool]:
        if self._term is None:
            return []
        value = int(model.eval(self._term, model_completion=True).as_long())
        return [bool(value >> (self.size - 1 - i) & 1) for i in range(self.size)]


def _unchecked(fn: Any) -> Any:
    """The bare ctypes function behind one of z3core's wrappers, which check Z3's error code
    after every call (a second C call each time). Building a formula node by node from known
    good parts cannot fail, and `Formula.done` checks the error code once for all of them."""
    try:
        return fn.__defaults__[-1].f
    except (AttributeError, IndexError, TypeError):  # pragma: no cover - another z3 binding
        return fn


_mk_or = _unchecked(z3.z3core.Z3_mk_or)
_mk_and = _unchecked(z3.z3core.Z3_mk_and)
_mk_not = _unchecked(z3.z3core.Z3_mk_not)
_mk_atmost = _unchecked(z3.z3core.Z3_mk_atmost)
_mk_atleast = _unchecked(z3.z3core.Z3_mk_atleast)
_mk_fresh = _unchecked(z3.z3core.Z3_mk_fresh_const)
_inc_ref = _unchecked(z3.z3core.Z3_inc_ref)
_dec_ref = _unchecked(z3.z3core.Z3_dec_ref)


class Formula:
    """A Boolean formula built node by node through Z3's C API, for encodings made in bulk (a
    combat shape's hundreds of clauses). Measured on combat shapes: z3.py costs a Python
    object a node and SMT-LIB text costs a parser a formula, both more than this (one unchecked
    ctypes call a node, and one to hold it). Terms are raw pointers, held (Z3 counts
    references) until `release`; `add` collects the conjuncts that `BoolSolver` asserts."""

    def __init__(self) -> None:
        self._ctx = z3.main_ctx()
        self._c = self._ctx.ref()
        self._sort = z3.z3core.Z3_mk_bool_sort(self._c)
        self._held: list[Any] = []
        self._negated: dict[int, Any] = {}
        self.parts: list[Any] = []
        self.true = self._keep(z3.z3core.Z3_mk_true(self._c))
        self.false = self._keep(z3.z3core.Z3_mk_false(self._c))

    def _keep(self, ast: Any) -> Any:
        _inc_ref(self._c, ast)
        self._held.append(ast)
        return ast

    def var(self, prefix: str = "v") -> Any:
        return self._keep(_mk_fresh(self._c, prefix.encode(), self._sort))

    def vars(self, prefix: str, n: int) -> list[Any]:
        return [self.var(prefix) for _ in range(n)]

    def not_(self, a: Any) -> Any:
        found = self._negated.get(a.value)
        if found is None:
            found = self._negated[a.value] = self._keep(_mk_not(self._c, a))
        return found

    def or_(self, items: Sequence[Any]) -> Any:
        if not items:
            return self.false
        if len(items) == 1:
            return items[0]
        return self._keep(_mk_or(self._c, len(items), (z3.Ast * len(items))(*items)))

    def clause(self, negative: Sequence[Any], positive: Sequence[Any] = ()) -> Any:
        """(n1 and ...) -> (p1 or ...)."""
        return self.or_([*(self.not_(x) for x in negative), *positive])

    def at_most(self, items: Sequence[Any], k: int) -> Any:
        if k < 0:
            return self.false
        if len(items) <= k:
            return self.true
        if k == 0:
            return self._keep(
                _mk_and(self._c, len(items), (z3.Ast * len(items))(*map(self.not_, items)))
            )
        return self._keep(_mk_atmost(self._c, len(items), (z3.Ast * len(items))(*items), k))

    def at_least(self, items: Sequence[Any], k: int) -> Any:
        if k <= 0:
            return self.true
        if len(items) < k:
            return self.false
        if k == 1:
            return self.or_(items)
        return self._keep(_mk_atleast(self._c, len(items), (z3.Ast * len(items))(*items), k))

    def add(self, term: Any) -> None:
        if term is not self.true:
            self.parts.append(term)

    def done(self) -> Any:
        """The conjunction of what was added (after checking that Z3 raised no error)."""
        code = z3.z3core.Z3_get_error_code(self._c)
        if code != z3.Z3_OK:  # pragma: no cover - a malformed node: a bug in an encoding
            raise SolverFailure(f"z3 rejected a term: {z3.z3core.Z3_get_error_msg(self._c, code)}")
        parts = self.parts or [self.true]
        return self._keep(_mk_and(self._c, len(parts), (z3.Ast * len(parts))(*parts)))

    def release(self) -> None:
        c = self._ctx.ctx  # None once z3 has deleted its context (interpreter shutdown)
        if c is not None:
            for ast in self._held:
                _dec_ref(c, ast)
        self._held.clear()
        self._negated.clear()

    def __del__(self) -> None:
        with contextlib.suppress(Exception):  # interpreter shutdown
            self.release()


_PARAMS: dict[int, Any] = {}


def _params(c: Any, rlimit: int) -> Any:
    """The solver parameters (fixed seed, the resource limit), made once per limit."""
    found = _PARAMS.get(rlimit)
    if found is None:
        found = z3.z3core.Z3_mk_params(c)
        z3.z3core.Z3_params_inc_ref(c, found)
        for key, value in (("random_seed", SEED), ("rlimit", rlimit)):
            z3.z3core.Z3_params_set_uint(c, found, z3.z3core.Z3_mk_string_symbol(c, key), value)
        _PARAMS[rlimit] = found
    return found


class BoolSolver:
    """An incremental QF_FD solver over a `Formula`, checked under assumptions (its terms,
    usually variables and their negations): the enumeration engine of the combat layer. The
    same seed and `rlimit` discipline as `Solver` (a limit per check; `unknown` raises
    `SolverUnknown`), with nothing wrapped in z3.py."""

    def __init__(self, formula: Formula, *, rlimit: int = DEFAULT_RLIMIT) -> None:
        self.formula = formula  # its terms (the atoms assumed) live as long as this solver
        self.rlimit = rlimit
        self.checks = 0
        self._ctx = formula._ctx
        self._c = c = formula._c
        self._s = None
        try:
            self._s = s = z3.z3core.Z3_mk_solver_for_logic(
                c, z3.z3core.Z3_mk_string_symbol(c, "QF_FD")
            )
            z3.z3core.Z3_solver_inc_ref(c, s)
            z3.z3core.Z3_solver_set_params(c, s, _params(c, rlimit))
            z3.z3core.Z3_solver_assert(c, s, formula.done())
        except z3.Z3Exception as exc:
            raise SolverFailure(f"z3 rejected a formula: {exc}") from exc

    def check(self, assumptions: Sequence[Any] = ()) -> bool:
        """True when satisfiable under the assumptions (atoms), False when not."""
        self.checks += 1
        n = len(assumptions)
        try:
            result = z3.z3core.Z3_solver_check_assumptions(
                self._c, self._s, n, (z3.Ast * n)(*assumptions)
            )
        except z3.Z3Exception as exc:
            raise SolverFailure(f"z3 failed: {exc}") from exc
        if result == 1:
            return True
        if result == -1:
            return False
        reason = z3.z3core.Z3_solver_get_reason_unknown(self._c, self._s)
        raise SolverUnknown(
            f"z3 answered unknown ({reason}) within its resource limit rlimit={self.rlimit}"
        )

    def __del__(self) -> None:
        try:
            c = self._ctx.ctx  # None once z3 has deleted its context (interpreter shutdown)
            if c is not None and self._s is not None:
                z3.z3core.Z3_solver_dec_ref(c, self._s)
        except Exception:  # pragma: no cover - interpreter shutdown
            pass


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


# --- symbolic models (solvers.checking.terms)
# -----------------------------------------------------------


def _b(a: Bool | bool) -> Bool:
    return z3.BoolVal(a) if isinstance(a, bool) else a


class Z3Ops:
    """`solvers.checking.terms.Ops` over Z3 terms. Constants stay Python `bool`s and `int`s until
    they
    meet a variable, so the static parts of a model (a river that is always there, a unit that
    can never attack) fold away without a call into Z3. Terms are made through Z3's C API
    directly: z3.py's checks on every argument cost more than the term itself, and a model's
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
