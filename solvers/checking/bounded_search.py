"""Bounded model checking over a symbolic model, its limits, and what is known of reachable states.

Split from `explore_model` so that the searches shared by the readings' differential
(`explore_model`) and the reach questions (`model_reach`) live apart from either: `Search`
(the shortest path to a goal, one step deeper at a time, within `max_depth`, Z3's `rlimit`
and an optional wall-clock `budget`, naming the limit that stopped it: `DEPTH`, `RLIMIT` or
`BUDGET`), `somewhere` (a state of the domain where a goal holds), and the facts every
reachable state is known to satisfy: `frozen_variables` (with `fixed`, a formula simplified by
them) and `proved_invariants`.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from solvers import smt
from solvers.checking.induction import SEARCH_BOUND
from solvers.checking.prover import DEFAULT_RLIMIT, Formal, Invariant, check
from solvers.checking.system import (
    IntVar,
    StatePredicate,
    System,
    Var,
    domain,
    pinned,
    read_state,
    z3_frame,
)
from solvers.checking.unroll import Unrolling, template
from solvers.checking.verdicts import Trace

MODEL_RLIMIT = 400_000_000
"""Z3's resource limit per check in the searches here (deterministic; see `solvers.smt`)."""

DEPTH = "depth"
RLIMIT = "rlimit"
BUDGET = "budget"


def _bounded(variables: Sequence[Var], f: Any) -> list[Any]:
    out = domain(variables, f)
    out += [
        f.i(v.name) <= SEARCH_BOUND for v in variables if isinstance(v, IntVar) and v.hi is None
    ]
    return out


_FROZEN: weakref.WeakKeyDictionary[Any, dict[str, int | bool]] = weakref.WeakKeyDictionary()


def frozen_variables(system: System, rlimit: int = 100_000_000) -> dict[str, int | bool]:
    """Variables that keep their initial value in every reachable state, with that value.

    A fixpoint: a schema is dead when its guard holds in no state of the domain where the
    variables found frozen so far keep their initial values; a variable is frozen when every
    schema that may change it is dead. By induction over paths from the initial state both
    hold in every reachable state (a rule switched off by a reading, say, never fires).
    Computed once per system."""
    if system in _FROZEN:
        return dict(_FROZEN[system])
    t = template(system)
    init = system.initial()
    frozen: dict[str, int | bool] = {}
    dead: set[int] = set()
    names = {v.name for v in system.variables}
    while True:
        s = smt.Solver(finite_domain=False, rlimit=rlimit)
        for c in domain(system.variables, t.cur):
            s.add(c)
        s.add(pinned([v for v in system.variables if v.name in frozen], t.cur, init))
        for c in domain(t.choice_vars, t.choice):
            s.add(c)
        for k in range(len(system.schemas)):
            if k in dead:
                continue
            guard = smt.Z3.all(t.term(k, j) for j in range(len(t.guards[k])))
            if not s.check([smt.formula(guard)]):
                dead.add(k)
        now = {
            n: init[n]
            for n in names
            if all(k in dead or t.keeps(k, {n}) for k in range(len(system.schemas)))
        }
        if now == frozen:
            _FROZEN[system] = frozen
            return frozen
        frozen = now


def fixed(system: System, formula: Any, rlimit: int) -> Any:
    """`formula` (over the template state) with the frozen variables replaced by their values,
    simplified."""
    cur = template(system).cur.values()
    pairs = [(cur[n], smt.value_term(v)) for n, v in frozen_variables(system, rlimit).items()]
    return smt.simplify(smt.substitute(smt.formula(formula), pairs))


def somewhere(
    system: System,
    cvars: Sequence[Var],
    goals: Sequence[Any],
    invariants: Sequence[StatePredicate],
    rlimit: int,
) -> str | None:
    """A state of the domain satisfying `invariants` (shown briefly) where one of `goals`
    holds for some choices, or None when there is none. One question per goal (smaller ones),
    bit-blasted when every variable is bounded (much faster here, and exact)."""
    t = template(system)
    choice = z3_frame(cvars, "")
    bounded = all(v.hi is not None for v in (*system.variables, *cvars) if isinstance(v, IntVar))
    free = smt.Solver(finite_domain=bounded, rlimit=rlimit)
    for c in [*domain(system.variables, t.cur), *domain(cvars, choice)]:
        free.add(c)
    for holds in invariants:
        free.add(smt.formula(holds(smt.Z3, t.cur)))
    for goal in goals:
        free.push()  # not an assumption: the bit-blasting solver takes only literals there
        free.add(smt.formula(goal))
        try:
            if free.check():
                example = read_state(free.model(), system.variables, t.cur)
                return ", ".join(f"{k}={v}" for k, v in list(example.items())[:8]) + ", …"
        finally:
            free.pop()
    return None


def limit_of(exc: smt.SolverUnknown) -> str:
    """The limit an unknown answer hit: the wall-clock budget (`smt.wall_clock`) or the
    rlimit."""
    return BUDGET if isinstance(exc, smt.BudgetSpent) else RLIMIT


class Search:
    """Bounded model checking within its limits: the depth searched to, and the limit that
    stopped it ("depth", "rlimit" or "budget"; empty while none has)."""

    def __init__(self, max_depth: int, budget: float | None, rlimit: int) -> None:
        self.max_depth, self.budget, self.rlimit = max_depth, budget, rlimit
        self.depth = -1  # the deepest depth fully searched
        self.limit = ""
        self.start = time.perf_counter()  # the budget runs from here

    def spent(self) -> bool:
        """Whether the wall-clock budget (if any) has run out; if so, it is the limit hit."""
        if self.budget is not None and time.perf_counter() - self.start > self.budget:
            self.limit = BUDGET
            return True
        return False

    def reached(self) -> str:
        """Words on how deep the search got, for a detail that ends early."""
        return "" if self.depth < 0 else f" (bounded model checking searched to depth {self.depth})"

    def searched(self) -> str:
        """Words on the paths searched, for a detail that found none."""
        return "no path" if self.depth < 0 else f"no path of length up to {self.depth}"

    def stopped(self) -> str:
        """Words on the limit that stopped the search."""
        if self.limit == BUDGET:
            return f"the wall-clock budget of {self.budget:.3g} s ran out"
        if self.limit == RLIMIT:
            return f"a check reached Z3's resource limit rlimit={self.rlimit}"
        return f"the depth limit of {self.max_depth}"

    def deepen(self, system: System, cvars: Sequence[Var], goal: Any) -> Trace | None:
        """The shortest path from the initial state to a state where `goal` (over the
        template state and choices) holds for some choices, one step deeper at a time; or
        None, with `depth` and `limit` saying how far the search got and what stopped it. A
        check that reaches the rlimit ends the search (`limit` "rlimit"), not the caller."""
        t = template(system)
        cur, choice = t.cur.values(), z3_frame(cvars, "").values()
        u = Unrolling(system, from_initial=True, rlimit=self.rlimit, bounded=SEARCH_BOUND)
        for n in range(self.max_depth + 1):
            if n and self.spent():
                return None
            if n:
                u.extend()
            fresh = z3_frame(cvars, f"!{n}")
            now, fv = u.states[n].values(), fresh.values()
            pairs: list[tuple[object, object]] = [
                (cur[v.name], now[v.name]) for v in system.variables
            ]
            pairs += [(choice[v.name], fv[v.name]) for v in cvars]
            try:
                found = u.search(smt.Z3.all([*_bounded(cvars, fresh), smt.substitute(goal, pairs)]))
            except smt.SolverUnknown as exc:
                self.limit = limit_of(exc)
                return None
            self.depth = n
            if found is not None:
                return Trace(found[0], found[1])
        self.limit = DEPTH
        return None


_PROVED: weakref.WeakKeyDictionary[Any, tuple[StatePredicate, ...]] = weakref.WeakKeyDictionary()


def proved_invariants(
    system: System, formal: Mapping[str, Formal], rlimit: int = DEFAULT_RLIMIT
) -> tuple[StatePredicate, ...]:
    """The state invariants among `formal` that the prover proves of `system` (with the
    lemmas each proof rests on), for a search to assume; once per system."""
    if system not in _PROVED:
        out: list[StatePredicate] = []
        for statement in formal.values():
            if not isinstance(statement, Invariant):
                continue
            if check(system, attrs.evolve(statement, depth=0), rlimit=rlimit).status == "proved":
                out += [statement.holds, *(lemma.holds for lemma in statement.lemmas)]
        _PROVED[system] = tuple(out)
    return _PROVED[system]
