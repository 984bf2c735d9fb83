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

The lemmas the relation assumes are proved first, together (their conjunction an inductive
invariant of the system, so one lemma may rest on another). Bridges (`Bridge`) are relational
lemmas that add nothing to the relation: each is derived from equal observations first, case
by case, with the finite-domain solver (a count of pieces on a hex the state names, which the
arithmetic solver does not settle within any limit tried), and only then assumed. A proof
may be asked in parts, schema by schema (`prove(..., only=...)`): the whole holds when every
part does. `settled` measures a pair that exhausts the limit: which components the solver
settles, asked one by one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, Protocol

import attrs

from solvers import smt
from solvers.checking.prover import DEFAULT_RLIMIT, Invariant, Lemma, check
from solvers.checking.system import (
    IntVar,
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
class Bridge:
    """A relational lemma: a term over one state that is equal in any two states with equal
    observations (no lemma assumed). It adds nothing to the relation, it only
    spells out a consequence the solver would otherwise have to find inside every pair
    (a count at a hex named by a variable, say). `prove` derives it from equal observations
    first, case by case over the values of the state variable `split` (so each case reads
    one hex), and only then assumes it."""

    name: str
    term: Callable[[Ops[Any, Any], Frame[Any, Any]], Any]
    split: str


@attrs.frozen
class NoLeak:
    """The formal statement of a `*-P-NO-LEAK` property: non-interference for `observer`
    over `system` (the spec's model extended with what the observation reads, when the
    prover's own model leaves it out), assuming `lemmas` in both states (proved first) and
    the `bridges` (derived from equal observations first)."""

    observer: Observer
    system: System | None = None
    lemmas: tuple[Lemma, ...] = ()
    bridges: tuple[Bridge, ...] = ()

    def verdict(self, system: System, rlimit: int = DEFAULT_RLIMIT) -> Verdict:
        return prove(
            self.system or system,
            self.observer,
            lemmas=self.lemmas,
            bridges=self.bridges,
            rlimit=rlimit,
        )


def _simplified(term: Any) -> Any:
    return term if isinstance(term, bool | int) else smt.simplify(term)


def _equal(o: Any, a: Any, b: Any) -> Any:
    return o.iff(a, b) if smt.is_bool(a) or smt.is_bool(b) else o.eq(a, b)


class _Pair:
    """Two copies of the one-step template: the template's own variables and renamed ones.

    A variable the observation shows as it is (a component that is the bare variable) is
    equal in the two states by assumption, so the second copy reads the first copy's
    variable: the same question, and the terms of the two copies share all they read of it
    (a component of the two states after that reads no hidden variable is then one term)."""

    def __init__(self, system: System, observer: Observer) -> None:
        self.system, self.observer = system, observer
        self.t: Template = template(system)
        t = self.t
        self.obs_now = {n: _simplified(v) for n, v in observer.observe(smt.Z3, t.cur).items()}
        self.reads: set[str] = set()
        cur = t.cur.values()
        self.shared: set[str] = set()
        for term in self.obs_now.values():
            names = smt.names_in(term)
            self.reads |= names
            if len(names) == 1:
                (name,) = names
                if name in cur and smt.structurally_equal(term, cur[name]):
                    self.shared.add(name)
        own = z3_frame(system.variables, "~2")
        self.cur2 = Frame(
            {n: cur[n] if n in self.shared else v for n, v in own.ints.items()},
            {n: cur[n] if n in self.shared else v for n, v in own.bools.items()},
        )
        self.choice2 = z3_frame(t.choice_vars, "~2")
        cur2 = self.cur2.values()
        ch, ch2 = t.choice.values(), self.choice2.values()
        self.pairs = [
            (cur[v.name], cur2[v.name]) for v in system.variables if v.name not in self.shared
        ]
        self.choice_pairs = {v.name: (ch[v.name], ch2[v.name]) for v in t.choice_vars}
        self._after: dict[int, Mapping[str, Any]] = {}

    def second(self, term: Any, same: frozenset[str] = frozenset()) -> Any:
        """`term` over the second copy (a Python constant is its own copy); the choices named
        in `same` are the first copy's."""
        if isinstance(term, bool | int):
            return term
        pairs = self.pairs + [p for n, p in self.choice_pairs.items() if n not in same]
        return smt.substitute(term, pairs)

    def choices2(self, same: frozenset[str]) -> Frame[Any, Any]:
        """The second copy's choices, those in `same` the first copy's."""
        ch, ch2 = self.t.choice, self.choice2
        return Frame(
            {n: ch.ints[n] if n in same else v for n, v in ch2.ints.items()},
            {n: ch.bools[n] if n in same else v for n, v in ch2.bools.items()},
        )

    def obs_after(self, k: int) -> Mapping[str, Any]:
        """The observation after schema k, each component simplified (so one the step leaves
        as it was is, most often, the very term it was before)."""
        if k not in self._after:
            seen = self.observer.observe(smt.Z3, self.t.after(k))
            self._after[k] = {n: _simplified(v) for n, v in seen.items()}
        return self._after[k]

    def label(self, k: int) -> Label:
        return self.observer.label(smt.Z3, self.system.schemas[k], self.t.cur, self.t.choice)

    def bridged(self, bridge: Bridge) -> Any:
        """The bridge's statement: its term equal in the two states."""
        term = _simplified(bridge.term(smt.Z3, self.t.cur))
        return smt.formula(_equal(smt.Z3, term, self.second(term)))

    def base(
        self, solver: smt.Solver, lemmas: Sequence[Lemma], bridges: Sequence[Bridge] = ()
    ) -> None:
        """Both states in their domains, the lemmas in both, equal observations, and the
        bridges (which follow from those: `derive`)."""
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
            if not smt.structurally_equal(term, self.second(term)):
                solver.add(smt.formula(_equal(smt.Z3, term, self.second(term))))
        for bridge in bridges:
            solver.add(self.bridged(bridge))

    def same_choices(
        self, k1: int, k2: int, l1: Sequence[Any], l2: Sequence[Any]
    ) -> frozenset[str]:
        """The choices both steps show as they are (one schema, a label term that is the bare
        choice): equal by the labels' equality, so one variable serves both copies."""
        if k1 != k2:
            return frozenset()
        ch = self.t.choice.values()
        out = set()
        for a, b in zip(l1, l2, strict=True):
            names = smt.names_in(a)
            if len(names) != 1 or not smt.structurally_equal(a, b):
                continue
            (name,) = names
            if name in self.choice_pairs and smt.structurally_equal(a, ch[name]):
                out.add(name)
        return frozenset(out)


def prove(
    system: System,
    observer: Observer,
    *,
    lemmas: Sequence[Lemma] = (),
    bridges: Sequence[Bridge] = (),
    rlimit: int = DEFAULT_RLIMIT,
    only: Collection[str] | None = None,
) -> Leak:
    """The verdict on non-interference for `observer` over `system` (see the module); with
    `only`, on the pairs of steps whose first is one of those schemas (a part of the proof:
    the whole is proved when every schema's part is). The bridges are derived before any
    pair assumes them (`derive`)."""
    start = time.perf_counter()
    if lemmas:
        # proved together: their conjunction inductive (one lemma may rest on another)
        v = check(
            system,
            Invariant(lambda o, s: o.all([lem.holds(o, s) for lem in lemmas])),
            rlimit=rlimit,
        )
        if v.status != "proved":
            names = ", ".join(repr(lem.name) for lem in lemmas)
            detail = f"lemmas {names} not proved inductive together: {v.detail}"
            return Leak("unknown", v.method, detail, seconds=time.perf_counter() - start)
    p = _Pair(system, observer)
    try:
        loose = _derive(p, bridges, rlimit)
        if loose is not None:
            detail = f"bridge {loose!r} does not follow from equal observations"
            return Leak("unknown", "self-composition", detail, seconds=time.perf_counter() - start)
        pair, asked = _search(p, lemmas, rlimit, only, bridges)
    except smt.SolverUnknown as exc:
        return Leak("unknown", "self-composition", exc.message, seconds=time.perf_counter() - start)
    seconds = time.perf_counter() - start
    if pair is None:
        given = "" if not lemmas else " given " + ", ".join(lem.name for lem in lemmas)
        if bridges:
            given += "; bridges " + ", ".join(b.name for b in bridges)
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


def derive(
    system: System,
    observer: Observer,
    *,
    bridges: Sequence[Bridge] = (),
    rlimit: int = DEFAULT_RLIMIT,
) -> str | None:
    """The bridges derived from equal observations: None when all follow, else the name of
    the first a pair of states breaks."""
    return _derive(_Pair(system, observer), bridges, rlimit)


def _derive(p: _Pair, bridges: Sequence[Bridge], rlimit: int) -> str | None:
    """Each bridge proved from equal observations (those that read what it reads, the
    domains, the bridges before it; no lemma), one question per value of its split variable:
    None when all follow, else the name of the first that a pair of states breaks
    (SolverUnknown when the limit is spent).
    Each question has a solver of its own: the finite-domain solver is asked once, never
    through push and pop (asked incrementally it has answered sat with a model that breaks
    its own assertions)."""
    variables = {v.name: v for v in p.system.variables}
    for n, bridge in enumerate(bridges):
        var = variables[bridge.split]
        if not isinstance(var, IntVar) or var.hi is None:
            raise ValueError(f"bridge {bridge.name!r} splits on {bridge.split}: no bounded integer")
        split = p.t.cur.i(bridge.split)
        claim = p.bridged(bridge)
        for value in range(var.lo, var.hi + 1):
            # a count of pieces is a pseudo-Boolean question: the finite-domain solver settles
            # in a second what the arithmetic one does not within any limit tried
            solver = smt.Solver(finite_domain=True, rlimit=rlimit)
            _near(p, solver, claim, bridges[:n])
            solver.add(split == value)  # the first state's value (the second's too if seen)
            case = smt.simplify(smt.substitute(claim, [(split, smt.value_term(value))]))
            solver.add(smt.Z3.not_(case))
            if solver.check():
                return bridge.name
    return None


def _near(p: _Pair, solver: smt.Solver, claim: Any, bridges: Sequence[Bridge]) -> None:
    """The part of the base a bridge's claim can use: the domains of every variable, and the
    equal observations and bridges that read a variable the claim reads (fewer assumptions,
    so whatever follows from them follows from the whole base)."""
    for c in domain(p.system.variables, p.t.cur):
        solver.add(c)
        solver.add(p.second(c))
    reads = smt.names_in(claim)
    for term in p.obs_now.values():
        if smt.names_in(term) & reads and not smt.structurally_equal(term, p.second(term)):
            solver.add(smt.formula(_equal(smt.Z3, term, p.second(term))))
    for bridge in bridges:
        solver.add(p.bridged(bridge))


def settled(
    system: System,
    observer: Observer,
    schema: str,
    *,
    lemmas: Sequence[Lemma] = (),
    bridges: Sequence[Bridge] = (),
    rlimit: int = DEFAULT_RLIMIT,
    components: Collection[str] | None = None,
) -> dict[str, str]:
    """Which observation components the solver settles for two steps of `schema` (a measure
    of what makes a pair hard, not a proof: the lemmas are assumed, not proved here). Each
    component the step may change is asked alone, both copies' whole guards assumed: "equal"
    (proved equal after), "differs" (a pair of steps gives two values) or "unknown" (the
    resource limit spent); `components` narrows the question to those named. The bridges are
    assumed, not derived."""
    p = _Pair(system, observer)
    o, t = smt.Z3, p.t
    k = [sc.name for sc in system.schemas].index(schema)
    labels = p.label(k)[1]
    same = p.same_choices(k, k, labels, labels)
    solver = smt.Solver(finite_domain=False, rlimit=rlimit)
    p.base(solver, lemmas, bridges)
    for a in labels:
        if not smt.structurally_equal(a, p.second(a, same)):
            solver.add(smt.formula(_equal(o, a, p.second(a, same))))
    for j in range(len(t.guards[k])):
        solver.add(smt.formula(t.term(k, j)))
        solver.add(p.second(smt.formula(t.term(k, j)), same))
    out: dict[str, str] = {}
    after = p.obs_after(k)
    for name, now in p.obs_now.items():
        if components is not None and name not in components:
            continue
        two = p.second(after[name], same)
        if smt.structurally_equal(after[name], now) or smt.structurally_equal(after[name], two):
            continue
        solver.push()
        solver.add(smt.formula(o.not_(_equal(o, after[name], two))))
        try:
            out[name] = "differs" if solver.check() else "equal"
        except smt.SolverUnknown:
            out[name] = "unknown"
        solver.pop()
    return out


def _search(
    p: _Pair,
    lemmas: Sequence[Lemma],
    rlimit: int,
    only: Collection[str] | None = None,
    bridges: Sequence[Bridge] = (),
) -> tuple[LeakPair | None, int]:
    """The first counterexample pair, schema pair by schema pair, and how many were asked."""
    t = p.t
    schemas = p.system.schemas
    n = len(schemas)
    labels = [p.label(k) for k in range(n)]
    asked = 0
    for k1 in range(n):
        if only is not None and schemas[k1].name not in only:
            continue
        for k2 in range(n):
            if labels[k1][0] != labels[k2][0] or len(labels[k1][1]) != len(labels[k2][1]):
                continue
            if t.keeps(k1, p.reads) and t.keeps(k2, p.reads):
                continue  # both leave what is observed as it was: equal before, equal after
            asked += 1
            solver = smt.Solver(finite_domain=False, rlimit=rlimit)
            p.base(solver, lemmas, bridges)
            found = _ask(p, solver, k1, k2, labels[k1][1], labels[k2][1])
            if found is not None:
                return found, asked
    return None, asked


def _ask(
    p: _Pair, solver: smt.Solver, k1: int, k2: int, l1: Sequence[Any], l2: Sequence[Any]
) -> LeakPair | None:
    """Schema k1 in the first copy and k2 in the second: a counterexample, or None. Asked for
    the observation's components in chunks, leaving out those neither step changes (their
    terms after are their terms before, equal by assumption) and those whose two terms after
    are one term (`_Pair`); a guard conjunct a counterexample breaks joins the question for
    every later chunk."""
    o, t = smt.Z3, p.t
    same = p.same_choices(k1, k2, l1, l2)
    after1, after2 = p.obs_after(k1), p.obs_after(k2)
    for a, b in zip(l1, l2, strict=True):
        b2 = p.second(b, same)
        if not smt.structurally_equal(a, b2):
            solver.add(smt.formula(_equal(o, a, b2)))
    changed = []
    for name, now in p.obs_now.items():
        if smt.structurally_equal(after1[name], now) and smt.structurally_equal(after2[name], now):
            continue  # neither step changes it: equal after as before
        two = p.second(after2[name], same)
        if not smt.structurally_equal(after1[name], two):
            changed.append((name, two))
    choices2 = p.choices2(same)
    for start in range(0, len(changed), CHUNK):
        chunk = changed[start : start + CHUNK]
        differ = o.any(o.not_(_equal(o, after1[n], b)) for n, b in chunk)
        while True:
            solver.push()
            solver.add(smt.formula(differ))
            if not solver.check():
                solver.pop()
                break
            model = solver.model()
            one = _read(p, model, k1, t.cur, t.choice)
            two = _read(p, model, k2, p.cur2, choices2)
            solver.pop()
            broken1 = t.broken(k1, *one)
            broken2 = t.broken(k2, *two)
            if not broken1 and not broken2:
                return _pair(p, k1, k2, one, two)
            for j in broken1:
                solver.add(smt.formula(t.term(k1, j)))
            for j in broken2:
                solver.add(p.second(smt.formula(t.term(k2, j)), same))
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
