"""Non-interference of a symbolic model, proved one step at a time by self-composition.

The blind side sees a state only through an observation (`Observer.observe`, terms over the
state written once against `Ops`) and a step only through its observable part
(`Observer.label`: the kind of action and what of its choices that side sees). The property:
for any two states with equal observations (and the lemmas holding in both), any two steps
whose observable parts are equal lead to two states with equal observations. It is an
inductive relation on pairs of states (the unwinding condition), so by induction on the length
of play the blind side's whole sequence of observations is a function of the observable parts
of the steps alone: nothing it may not see changes what it sees.

What it does not say: the observable parts themselves are declared by the spec (a face-down
piece's hex is seen, its identity not), and a schedule that fixes which hidden piece acts when
would let those parts name it; that is a property of histories, tested by the history harness
(tests/hidden).

The question is asked schema pair by schema pair (two copies of the one-step template, the
second renamed), each guard conjunct left out until a counterexample breaks it (leaving them
out only adds transitions, so a proof holds for the whole model; most steps change what is
observed the same way in both copies whatever their guards say). A counterexample is a
`LeakPair`; `reachable_pair` then looks for one at positions of two given model paths (seeded
playouts, say) that the side cannot tell apart: two witness games. Every solver call is
bounded by its rlimit, never by time.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import attrs

from solvers import smt
from solvers.checking.prover import DEFAULT_RLIMIT, Invariant, Lemma, check
from solvers.checking.system import (
    Schema,
    System,
    choice_frame,
    concrete_frame,
    domain,
    evaluate,
    pinned,
    read_state,
    schema_named,
    z3_frame,
)
from solvers.checking.terms import CONCRETE, Frame, Ops
from solvers.checking.unroll import Template, template
from solvers.checking.verdicts import Trace, Verdict

CHUNK = 32  # observation components asked at once (smaller questions, fewer of them)
Label = tuple[str, tuple[Any, ...]]
"""The observable part of a step: the kind of action and the terms the blind side sees."""


class Observer(Protocol):
    """What one side sees of a model: the observation of a state and the observable part of a
    step, each written once against `Ops` (the prover's terms and the refinement check's
    values are one definition)."""

    side: str

    def observe(self, o: Ops[Any, Any], s: Frame[Any, Any]) -> Mapping[str, Any]:
        """The observation of state `s`, component by name (integer or Boolean terms)."""
        ...

    def label(
        self, o: Ops[Any, Any], schema: Schema, s: Frame[Any, Any], c: Frame[Any, Any]
    ) -> Label:
        """What the side sees of `schema` taken in `s` with choices `c`."""
        ...


@attrs.frozen
class LeakPair:
    """Two steps from states the side cannot tell apart, with equal observable parts, to
    states it can: the observation components that differ after."""

    first: Trace  # one step: states (before, after), steps (the step)
    second: Trace
    differs: tuple[str, ...]


@attrs.frozen
class Leak(Verdict):
    """A verdict on non-interference; when refuted, the witness pair of steps."""

    pair: LeakPair | None = None


@attrs.frozen
class NoLeak:
    """The formal statement of a `*-P-NO-LEAK` property: non-interference for `observer`
    over `system` (the spec's model extended with what the observation reads, when the
    prover's own model leaves it out), assuming `lemmas` in both states (proved first)."""

    observer: Observer
    system: System | None = None
    lemmas: tuple[Lemma, ...] = ()

    def verdict(self, system: System, rlimit: int = DEFAULT_RLIMIT) -> Verdict:
        return prove(self.system or system, self.observer, lemmas=self.lemmas, rlimit=rlimit)


def _equal(o: Any, a: Any, b: Any) -> Any:
    return o.iff(a, b) if smt.is_bool(a) or smt.is_bool(b) else o.eq(a, b)


class _Pair:
    """Two copies of the one-step template: the template's own variables and renamed ones."""

    def __init__(self, system: System, observer: Observer) -> None:
        self.system, self.observer = system, observer
        self.t: Template = template(system)
        t = self.t
        self.cur2 = z3_frame(system.variables, "~2")
        self.choice2 = z3_frame(t.choice_vars, "~2")
        cur, cur2 = t.cur.values(), self.cur2.values()
        ch, ch2 = t.choice.values(), self.choice2.values()
        self.pairs = [(cur[v.name], cur2[v.name]) for v in system.variables]
        self.pairs += [(ch[v.name], ch2[v.name]) for v in t.choice_vars]
        self.obs_now = observer.observe(smt.Z3, t.cur)
        self.reads: set[str] = set()
        for term in self.obs_now.values():
            self.reads |= smt.names_in(term)
        self._after: dict[int, Mapping[str, Any]] = {}

    def second(self, term: Any) -> Any:
        """`term` over the second copy (a Python constant is its own copy)."""
        if isinstance(term, bool | int):
            return term
        return smt.substitute(term, self.pairs)

    def obs_after(self, k: int) -> Mapping[str, Any]:
        if k not in self._after:
            self._after[k] = self.observer.observe(smt.Z3, self.t.after(k))
        return self._after[k]

    def label(self, k: int) -> Label:
        return self.observer.label(smt.Z3, self.system.schemas[k], self.t.cur, self.t.choice)

    def base(self, solver: smt.Solver, lemmas: Sequence[Lemma]) -> None:
        """Both states in their domains, the lemmas in both, equal observations."""
        t = self.t
        both = [*domain(self.system.variables, t.cur), *domain(t.choice_vars, t.choice)]
        for c in both:
            solver.add(c)
            solver.add(self.second(c))
        for lemma in lemmas:
            f = smt.formula(lemma.holds(smt.Z3, t.cur))
            solver.add(f)
            solver.add(self.second(f))
        for term in self.obs_now.values():
            solver.add(smt.formula(_equal(smt.Z3, term, self.second(term))))


def prove(
    system: System,
    observer: Observer,
    *,
    lemmas: Sequence[Lemma] = (),
    rlimit: int = DEFAULT_RLIMIT,
) -> Leak:
    """The verdict on non-interference for `observer` over `system` (see the module)."""
    start = time.perf_counter()
    for lemma in lemmas:
        v = check(system, Invariant(lemma.holds), rlimit=rlimit)
        if v.status != "proved":
            detail = f"lemma {lemma.name!r} not proved: {v.detail}"
            return Leak("unknown", v.method, detail, seconds=time.perf_counter() - start)
    try:
        pair, asked = _search(_Pair(system, observer), lemmas, rlimit)
    except smt.SolverUnknown as exc:
        return Leak("unknown", "self-composition", exc.message, seconds=time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if pair is None:
        given = "" if not lemmas else " given " + ", ".join(lem.name for lem in lemmas)
        detail = (
            f"1-inductive relation (equal {observer.side} observations), "
            f"{asked} pairs of schemas{given}"
        )
        return Leak("proved", "self-composition", detail, seconds=seconds)
    detail = (
        f"{pair.first.steps[0][0]} and {pair.second.steps[0][0]} with equal observable parts "
        f"lead from equal {observer.side} observations to different ones: "
        + ", ".join(pair.differs[:5])
    )
    return Leak("refuted", "self-composition", detail, pair=pair, seconds=seconds)


def _search(p: _Pair, lemmas: Sequence[Lemma], rlimit: int) -> tuple[LeakPair | None, int]:
    """The first counterexample pair, schema pair by schema pair, and how many were asked."""
    t = p.t
    n = len(p.system.schemas)
    labels = [p.label(k) for k in range(n)]
    asked = 0
    for k1 in range(n):
        for k2 in range(n):
            if labels[k1][0] != labels[k2][0] or len(labels[k1][1]) != len(labels[k2][1]):
                continue
            if t.keeps(k1, p.reads) and t.keeps(k2, p.reads):
                continue  # both leave what is observed as it was: equal before, equal after
            asked += 1
            solver = smt.Solver(finite_domain=False, rlimit=rlimit)
            p.base(solver, lemmas)
            found = _ask(p, solver, k1, k2, labels[k1][1], labels[k2][1])
            if found is not None:
                return found, asked
    return None, asked


def _ask(
    p: _Pair, solver: smt.Solver, k1: int, k2: int, l1: Sequence[Any], l2: Sequence[Any]
) -> LeakPair | None:
    """Schema k1 in the first copy and k2 in the second: a counterexample, or None. Asked for
    the observation's components in chunks, leaving out those neither step changes (their
    terms after are their terms before, equal by assumption); a guard conjunct a
    counterexample breaks joins the question for every later chunk."""
    o, t = smt.Z3, p.t
    after1, after2 = p.obs_after(k1), p.obs_after(k2)
    for a, b in zip(l1, l2, strict=True):
        solver.add(smt.formula(_equal(o, a, p.second(b))))
    changed = [
        name
        for name, now in p.obs_now.items()
        if not (o.same(after1[name], now) and o.same(after2[name], now))
    ]
    for start in range(0, len(changed), CHUNK):
        chunk = changed[start : start + CHUNK]
        differ = o.any(o.not_(_equal(o, after1[n], p.second(after2[n]))) for n in chunk)
        while True:
            solver.push()
            solver.add(smt.formula(differ))
            if not solver.check():
                solver.pop()
                break
            model = solver.model()
            one = _read(p, model, k1, t.cur, t.choice)
            two = _read(p, model, k2, p.cur2, p.choice2)
            solver.pop()
            broken1 = t.broken(k1, *one)
            broken2 = t.broken(k2, *two)
            if not broken1 and not broken2:
                return _pair(p, k1, k2, one, two)
            for j in broken1:
                solver.add(smt.formula(t.term(k1, j)))
            for j in broken2:
                solver.add(p.second(smt.formula(t.term(k2, j))))
    return None


def _read(
    p: _Pair, model: smt.Model, k: int, s: Frame[Any, Any], c: Frame[Any, Any]
) -> tuple[dict[str, int | bool], dict[str, int | bool]]:
    state = read_state(model, p.system.variables, s)
    choice = read_state(model, p.t.choice_vars, c)
    return state, {v.name: choice[v.name] for v in p.system.schemas[k].choices}


def observation(
    system: System, observer: Observer, state: Mapping[str, int | bool]
) -> dict[str, Any]:
    """The observation of a concrete model state."""
    return dict(observer.observe(CONCRETE, concrete_frame(system.variables, state)))


def _pair(
    p: _Pair,
    k1: int,
    k2: int,
    one: tuple[dict[str, int | bool], dict[str, int | bool]],
    two: tuple[dict[str, int | bool], dict[str, int | bool]],
) -> LeakPair:
    sc1, sc2 = p.system.schemas[k1], p.system.schemas[k2]
    after1 = evaluate(p.system, one[0], sc1, one[1]).after
    after2 = evaluate(p.system, two[0], sc2, two[1]).after
    o1 = observation(p.system, p.observer, after1)
    o2 = observation(p.system, p.observer, after2)
    differs = tuple(n for n in o1 if o1[n] != o2[n])
    return LeakPair(
        Trace((one[0], after1), ((sc1.name, one[1]),)),
        Trace((two[0], after2), ((sc2.name, two[1]),)),
        differs,
    )


def reachable_pair(
    system: System,
    observer: Observer,
    schemas: tuple[str, str],
    paths: Sequence[Trace],
    *,
    rlimit: int = DEFAULT_RLIMIT,
) -> tuple[Trace, Trace] | None:
    """Two witness games for a leak through `schemas`: two of `paths` (model paths from the
    initial state: seeded playouts, say; a path may pair with itself) whose observations and
    observable steps agree up to a position, and from there the two schemas with equal
    observable parts leading to different observations. Each game is its path's prefix and
    one step of its own; None when the paths give no such pair (the leak may still be real,
    from positions they do not reach)."""
    p = _Pair(system, observer)
    index = {sc.name: k for k, sc in enumerate(system.schemas)}
    k1, k2 = index[schemas[0]], index[schemas[1]]
    l1, l2 = p.label(k1)[1], p.label(k2)[1]
    for a in paths:
        for b in paths:
            for i in range(_agree(system, observer, a, b)):
                solver = smt.Solver(finite_domain=False, rlimit=rlimit)
                solver.add(pinned(system.variables, p.t.cur, a.states[i]))
                solver.add(p.second(pinned(system.variables, p.t.cur, b.states[i])))
                for c in domain(p.t.choice_vars, p.t.choice):
                    solver.add(c)
                    solver.add(p.second(c))
                found = _ask(p, solver, k1, k2, l1, l2)
                if found is not None:
                    return _extend(a, i, found.first), _extend(b, i, found.second)
    return None


def _agree(system: System, observer: Observer, a: Trace, b: Trace) -> int:
    """How many leading positions of `a` and `b` the side cannot tell apart: equal
    observations, reached by steps with equal observable parts."""
    n = 0
    for i in range(min(len(a.states), len(b.states))):
        if observation(system, observer, a.states[i]) != observation(system, observer, b.states[i]):
            break
        if i > 0 and _seen(system, observer, a, i - 1) != _seen(system, observer, b, i - 1):
            break
        n = i + 1
    return n


def _seen(system: System, observer: Observer, path: Trace, i: int) -> Label:
    """The observable part of step i of `path`, as values."""
    name, choice = path.steps[i]
    schema = schema_named(system, name)
    s = concrete_frame(system.variables, path.states[i])
    label: Label = observer.label(CONCRETE, schema, s, choice_frame(schema, choice))
    return label


def _extend(path: Trace, i: int, step: Trace) -> Trace:
    """`path` cut at position i, then `step`."""
    return Trace((*path.states[: i + 1], step.states[1]), (*path.steps[:i], step.steps[0]))
