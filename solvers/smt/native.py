"""`Formula` and `BoolSolver`: Boolean encodings made in bulk and checked thousands of times
(the combat layer's), built and solved through Z3's C API without z3.py's objects, with the
seed and `rlimit` discipline of `solvers.smt.limits`."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

import z3

from solvers.smt.limits import DEFAULT_RLIMIT, SEED, SolverFailure, SolverUnknown


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
