"""Bridges derived from equal observations before the prover assumes them
(`solvers.checking.noninterference`), and `settled`, the measure of which observation
components a hard pair of steps settles."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from solvers import smt
from solvers.checking.noninterference_pair import Bridge, Observer, Pair, equal
from solvers.checking.prover import DEFAULT_RLIMIT, Lemma
from solvers.checking.system import IntVar, System, domain


def derive(
    system: System,
    observer: Observer,
    *,
    bridges: Sequence[Bridge] = (),
    rlimit: int = DEFAULT_RLIMIT,
) -> str | None:
    """The bridges derived from equal observations: None when all follow, else the name of
    the first a pair of states breaks."""
    return derive_in(Pair(system, observer, named=False), bridges, rlimit)


def derive_in(p: Pair, bridges: Sequence[Bridge], rlimit: int) -> str | None:
    """Each bridge proved from equal observations (those that read what it reads, the
    domains, the bridges before it; no lemma), one question per value of its split variable:
    None when all follow, else the name of the first that a pair of states breaks
    (SolverUnknown when the limit is spent). The pair's counts are plain sums (`named`
    False): a pseudo-Boolean question for the finite-domain solver.
    Each question has a solver of its own: the finite-domain solver is asked once, never
    through push and pop (asked incrementally it has answered sat with a model that breaks
    its own assertions)."""
    for n, bridge in enumerate(bridges):
        claim = p.bridged(bridge)
        for case in _cases(p, bridge, claim):
            # a count of pieces is a pseudo-Boolean question: the finite-domain solver settles
            # in a second what the arithmetic one does not within any limit tried
            solver = smt.Solver(finite_domain=True, rlimit=bridge.rlimit or rlimit)
            _near(p, solver, claim, bridges[:n])
            for f in case:
                solver.add(f)
            try:
                if solver.check():
                    return bridge.name
            except smt.SolverUnknown as exc:  # the verdict names the bridge left open
                raise smt.SolverUnknown(f"bridge {bridge.name!r}: {exc.message}") from exc
    return None


def _cases(p: Pair, bridge: Bridge, claim: Any) -> list[list[Any]]:
    """The questions a bridge is derived in: its claim denied, once per value of its split
    variable (the claim read at that value), or once when it has none."""
    if bridge.split is None:
        return [[smt.Z3.not_(claim)]]
    var = {v.name: v for v in p.system.variables}[bridge.split]
    if not isinstance(var, IntVar) or var.hi is None:
        raise ValueError(f"bridge {bridge.name!r} splits on {bridge.split}: no bounded integer")
    split = p.t.cur.i(bridge.split)
    out = []
    for value in range(var.lo, var.hi + 1):
        case = smt.simplify(smt.substitute(claim, [(split, smt.value_term(value))]))
        # the first state's value (the second's too if seen)
        out.append([split == value, smt.Z3.not_(case)])
    return out


def _near(p: Pair, solver: smt.Solver, claim: Any, bridges: Sequence[Bridge]) -> None:
    """The part of the base a bridge's claim can use: the domains of every variable, and the
    equal observations and bridges that read a variable the claim reads (fewer assumptions,
    so whatever follows from them follows from the whole base)."""
    for c in domain(p.system.variables, p.t.cur):
        solver.add(c)
        solver.add(p.second(c, plain=True))
    reads = smt.names_in(claim)
    for term in p.obs_now.values():
        if smt.names_in(term) & reads and not smt.structurally_equal(term, p.second(term)):
            solver.add(smt.formula(equal(smt.Z3, term, p.second(term))))
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
    p = Pair(system, observer)
    o, t = smt.Z3, p.t
    k = [sc.name for sc in system.schemas].index(schema)
    labels = p.label(k)[1]
    same = p.same_choices(k, k, labels, labels)
    solver = p.solver(rlimit=rlimit)
    p.base(solver, lemmas, bridges)
    for a in labels:
        if not smt.structurally_equal(a, p.second(a, same)):
            solver.add_named(smt.formula(equal(o, a, p.second(a, same))))
    for j in range(len(t.guards[k])):
        solver.add(smt.formula(t.term(k, j)))
        solver.add(p.second(smt.formula(t.term(k, j)), same, plain=True))
    out: dict[str, str] = {}
    after = p.obs_after(k)
    for name, now in p.obs_now.items():
        if components is not None and name not in components:
            continue
        two = p.second(after[name], same)
        if smt.structurally_equal(after[name], now) or smt.structurally_equal(after[name], two):
            continue
        question = smt.formula(o.not_(equal(o, after[name], two)))
        solver.define(question)
        solver.push()
        solver.add(question)
        try:
            out[name] = "differs" if solver.check() else "equal"
        except smt.SolverUnknown:
            out[name] = "unknown"
        solver.pop()
    return out
