"""Paths of a transition system laid out in one incremental Z3 solver, with lazy guards.

States s_0..s_n are fresh variables per step; step i takes the schema numbered `act#i` with
choices `c#i`, and s_{i+1} is that schema's effect. Guards start without their lazy conjuncts,
which only adds transitions: a proof found that way holds for the whole model. When the solver
finds a path, every step is evaluated concretely against its schema's full guard (the same
model read by `solvers.checking.terms.Concrete`); a conjunct it breaks is added at every step and
the
solver asked again. A path returned by `search` is therefore a path of the full model.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

from solvers import smt
from solvers.checking.system import (
    Conjunct,
    IntVar,
    System,
    Values,
    Var,
    choice_frame,
    concrete_frame,
    domain,
    pinned,
    read_state,
    z3_frame,
)
from solvers.checking.terms import CONCRETE, Frame

Formula = Any  # a Z3 Boolean or a Python bool
StepTrace = tuple[tuple[dict[str, int | bool], ...], tuple[tuple[str, dict[str, int | bool]], ...]]


class Template:
    """The one-step formula of a system over template variables, built once and shared by
    every unrolling (renamed per step); the lazy conjuncts found necessary so far."""

    def __init__(self, system: System) -> None:
        self.system = system
        o = smt.Z3
        self.cur = z3_frame(system.variables, "")
        choices: dict[str, Var] = {}
        for sc in system.schemas:
            for v in sc.choices:
                if choices.setdefault(v.name, v) != v:
                    raise ValueError(f"choice {v.name} declared with two domains")
        self.choice_vars = tuple(choices.values())
        self.choice = z3_frame(self.choice_vars, "")
        self.act = smt.fresh_int("act")
        self.nxt = z3_frame(system.variables, "'")
        self.guards: list[list[Conjunct[Any]]] = []
        self.effects: list[dict[str, Any]] = []
        self.terms: dict[tuple[int, int], Formula] = {}  # guard conjuncts built so far
        eager: list[set[int]] = []
        guards = []
        for k, sc in enumerate(system.schemas):
            conj = sc.guard(o, self.cur, self.choice)
            self.guards.append(conj)
            eager.append({j for j, g in enumerate(conj) if not g.lazy})
            self.effects.append(sc.effect(o, self.cur, self.choice).values())
            for j in sorted(eager[k]):
                self.terms[k, j] = conj[j].make()
            body = [self.terms[k, j] for j in sorted(eager[k])]
            guards.append(o.implies(self.act == k, o.all(body)))
        self.eager = eager
        # Each next value as one if-then-else over the schema taken, the schemas that leave
        # it alone folded into the default: far fewer clauses than one frame per schema.
        then, now = self.nxt.values(), self.cur.values()
        frame = []
        for v in system.variables:
            value = now[v.name]
            for k in reversed(range(len(system.schemas))):
                e = self.effects[k][v.name]
                if e is not now[v.name]:
                    value = _choose(o, self.act == k, e, value)
            frame.append(_equal(o, then[v.name], value))
        self.step_formula = smt.formula(o.all([*frame, *guards]))
        self.needed: dict[tuple[int, int], Formula] = {}  # lazy conjuncts some path needed

    def keeps(self, k: int, names: set[str]) -> bool:
        """Schema k leaves every variable in `names` as it was."""
        cur = self.cur.values()
        return all(smt.Z3.same(self.effects[k][n], cur[n]) for n in names)

    def term(self, k: int, j: int) -> Formula:
        """Conjunct j of schema k over the template variables."""
        if (k, j) not in self.terms:
            self.terms[k, j] = self.guards[k][j].make()
        return self.terms[k, j]

    def conjunct(self, k: int, j: int) -> Formula:
        """`act = k` implies conjunct j of schema k, over the template variables."""
        if (k, j) not in self.needed:
            self.needed[k, j] = smt.formula(smt.Z3.implies(self.act == k, self.term(k, j)))
        return self.needed[k, j]

    def after(self, k: int) -> Frame[Any, Any]:
        """The state schema k leads to, as terms over the template state and choices."""
        e = self.effects[k]
        ints = {v.name: e[v.name] for v in self.system.variables if isinstance(v, IntVar)}
        bools = {v.name: e[v.name] for v in self.system.variables if not isinstance(v, IntVar)}
        return Frame(ints, bools)

    def broken(self, k: int, state: Values, choice: Values) -> list[int]:
        """The conjuncts of schema k's full guard that fail on concrete values."""
        sc = self.system.schemas[k]
        s = concrete_frame(self.system.variables, state)
        c = choice_frame(sc, choice)
        return [j for j, g in enumerate(sc.guard(CONCRETE, s, c)) if not g.make()]


_TEMPLATES: weakref.WeakKeyDictionary[Any, Template] = weakref.WeakKeyDictionary()


def template(system: System) -> Template:
    """The system's one-step formula, built on first use and kept while the system lives."""
    if system not in _TEMPLATES:
        _TEMPLATES[system] = Template(system)
    return _TEMPLATES[system]


class Unrolling:
    """States s_0..s_n of `system`, free or starting at its initial state."""

    def __init__(
        self, system: System, *, from_initial: bool, rlimit: int, bounded: int | None = None
    ) -> None:
        """`bounded`: give unbounded integers this upper bound and bit-blast (a finite-domain
        solver is much faster on these formulas). Only for searching witnesses: a path cut off
        by the bound is not found, so a search may miss one, but never claims a proof."""
        self.system = system
        self.t = template(system)
        self.bounded = bounded
        self.solver = smt.Solver(finite_domain=bounded is not None, rlimit=rlimit)
        self.added: set[tuple[int, int]] = set()
        self.states: list[Frame[Any, Any]] = [self._state(0)]
        self.acts: list[Any] = []
        self.choices: list[Frame[Any, Any]] = []
        for c in self._domain(system.variables, self.states[0]):
            self.solver.add(c)
        if from_initial:
            self.solver.add(pinned(system.variables, self.states[0], system.initial()))

    def _domain(self, variables: Sequence[Var], f: Frame[Any, Any]) -> list[Any]:
        out = domain(variables, f)
        if self.bounded is not None:
            out += [
                f.i(v.name) <= self.bounded
                for v in variables
                if isinstance(v, IntVar) and v.hi is None
            ]
        return out

    def _state(self, i: int) -> Frame[Any, Any]:
        return z3_frame(self.system.variables, f"@{i}")

    def _renaming(self, i: int) -> list[tuple[object, object]]:
        t = self.t
        pairs: list[tuple[object, object]] = []
        cur, nxt = t.cur.values(), t.nxt.values()
        s_i, s_j = self.states[i].values(), self.states[i + 1].values()
        for v in self.system.variables:
            pairs += [(cur[v.name], s_i[v.name]), (nxt[v.name], s_j[v.name])]
        c, c_i = t.choice.values(), self.choices[i].values()
        pairs += [(c[v.name], c_i[v.name]) for v in t.choice_vars]
        pairs.append((t.act, self.acts[i]))
        return pairs

    @property
    def length(self) -> int:
        return len(self.acts)

    def extend(self) -> None:
        """One more step s_n -> s_{n+1}."""
        i = self.length
        self.states.append(self._state(i + 1))
        self.choices.append(z3_frame(self.t.choice_vars, f"#{i}"))
        self.acts.append(smt.fresh_int(f"act#{i}"))
        act = self.acts[i]
        for c in [
            act >= 0,
            act < len(self.system.schemas),
            *self._domain(self.system.variables, self.states[i + 1]),
            *domain(self.t.choice_vars, self.choices[i]),
        ]:
            self.solver.add(c)
        pairs = self._renaming(i)
        self.solver.add(smt.substitute(self.t.step_formula, pairs))
        for k, j in sorted(self.t.needed):
            self.added.add((k, j))
            self.solver.add(smt.substitute(self.t.conjunct(k, j), pairs))

    def activate(self, k: int, j: int) -> None:
        """Add conjunct j of schema k at every step, now and later."""
        term = self.t.conjunct(k, j)
        self.added.add((k, j))
        for i in range(self.length):
            self.solver.add(smt.substitute(term, self._renaming(i)))

    def assume(self, f: Formula) -> None:
        self.solver.add(smt.formula(f))

    def trace(self, model: smt.Model) -> StepTrace:
        states = tuple(read_state(model, self.system.variables, s) for s in self.states)
        steps = []
        for i, act in enumerate(self.acts):
            k = int(smt.value_of(model, act))
            sc = self.system.schemas[k]
            c = read_state(model, self.t.choice_vars, self.choices[i])
            steps.append((sc.name, {v.name: c[v.name] for v in sc.choices}))
        return states, tuple(steps)

    def _broken(
        self,
        states: Sequence[dict[str, int | bool]],
        steps: Sequence[tuple[str, dict[str, int | bool]]],
    ) -> list[tuple[int, int]]:
        """Lazy conjuncts the path breaks (schema, conjunct), found by concrete evaluation."""
        out = set()
        index = {sc.name: k for k, sc in enumerate(self.system.schemas)}
        for i, (name, choice) in enumerate(steps):
            k = index[name]
            for j in self.t.broken(k, states[i], choice):
                if j in self.t.eager[k] or (k, j) in self.added:
                    g = self.t.guards[k][j]
                    raise smt.SolverFailure(
                        f"{name}: solver and evaluator disagree on {g.clause} ({g.text})"
                    )
                out.add((k, j))
        return sorted(out)

    def search(
        self, goal: Formula | None = None, assumptions: Sequence[Any] = ()
    ) -> StepTrace | None:
        """A path of the full model satisfying everything asserted, `goal` and `assumptions`,
        or None."""
        while True:
            self.solver.push()
            if goal is not None:
                self.solver.add(smt.formula(goal))
            try:
                if not self.solver.check(assumptions):
                    return None
                found = self.trace(self.solver.model())
            finally:
                self.solver.pop()
            broken = self._broken(*found)
            if not broken:
                return found
            for k, j in broken:
                self.activate(k, j)


def _equal(o: Any, a: Any, b: Any) -> Any:
    """a = b for a variable `a` and a term `b` of its sort (Boolean or integer)."""
    return o.iff(a, b) if smt.is_bool(a) else o.eq(a, b)


def _choose(o: Any, c: Any, a: Any, b: Any) -> Any:
    """if c then a else b, for Boolean or integer terms."""
    return o.bite(c, a, b) if smt.is_bool(a) or smt.is_bool(b) else o.ite(c, a, b)
