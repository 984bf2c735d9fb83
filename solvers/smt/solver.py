"""`Solver`: an incremental solver with clause-labelled constraints (so a failed check is
explained by the rules it breaks, `core`, `disjoint_cores`), within the limits of
`solvers.smt.limits`; `Reader`, which reads many literals from one of its models at once."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

import z3

from solvers.smt.limits import (
    DEFAULT_RLIMIT,
    NO_TIMEOUT,
    SEED,
    BudgetSpent,
    SolverFailure,
    SolverUnknown,
    current_deadline,
)
from solvers.smt.vocabulary import Bool, Model


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
        deadline = current_deadline()
        if deadline is None:
            if self._timeout:
                self._z3.set("timeout", NO_TIMEOUT)
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

    def check_within(self, rlimit: int, assumptions: Sequence[Bool] = ()) -> bool:
        """`check` within `rlimit` rather than the solver's own limit (a side question that may
        go unanswered without spending what the main question needs); the solver's own limit
        is restored after, whatever the answer."""
        self._z3.set("rlimit", rlimit)
        try:
            return self.check(assumptions)
        finally:
            self._z3.set("rlimit", self.rlimit)

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
