"""The search for a leak: two steps with equal observable parts from states the side cannot
tell apart, to states it can (`solvers.checking.noninterference`), asked schema pair by
schema pair, and the witness pair read off a model."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

import attrs

from solvers import smt
from solvers.checking.noninterference_names import Defining
from solvers.checking.noninterference_pair import Bridge, Observer, Pair, equal
from solvers.checking.prover import Lemma
from solvers.checking.system import System, concrete_frame, evaluate, read_state
from solvers.checking.terms import CONCRETE, Frame
from solvers.checking.verdicts import Trace, Verdict

CHUNK = 32  # observation components asked at once (smaller questions, fewer of them)


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


def observation(
    system: System, observer: Observer, state: Mapping[str, int | bool]
) -> dict[str, Any]:
    """The observation of a concrete model state."""
    return dict(observer.observe(CONCRETE, concrete_frame(system.variables, state)))


def search(
    p: Pair,
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
            solver = p.solver(rlimit=rlimit)
            p.base(solver, lemmas, bridges)
            found = ask(p, solver, k1, k2, labels[k1][1], labels[k2][1])
            if found is not None:
                return found, asked
    return None, asked


def ask(
    p: Pair, solver: Defining, k1: int, k2: int, l1: Sequence[Any], l2: Sequence[Any]
) -> LeakPair | None:
    """Schema k1 in the first copy and k2 in the second: a counterexample, or None. Asked for
    the observation's components in chunks, leaving out those neither step changes (their
    terms after are their terms before, equal by assumption) and those whose two terms after
    are one term (`Pair`); a guard conjunct a counterexample breaks joins the question for
    every later chunk."""
    o, t = smt.Z3, p.t
    same = p.same_choices(k1, k2, l1, l2)
    after1, after2 = p.obs_after(k1), p.obs_after(k2)
    for a, b in zip(l1, l2, strict=True):
        b2 = p.second(b, same)
        if not smt.structurally_equal(a, b2):
            solver.add_named(smt.formula(equal(o, a, b2)))
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
        differ = smt.formula(o.any(o.not_(equal(o, after1[n], b)) for n, b in chunk))
        solver.define(differ)  # outside the scope the question is asked in
        while True:
            solver.push()
            solver.add_named(differ)
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
                solver.add(p.second(smt.formula(t.term(k2, j)), same, plain=True))
    return None


def _read(
    p: Pair, model: smt.Model, k: int, s: Frame[Any, Any], c: Frame[Any, Any]
) -> tuple[dict[str, int | bool], dict[str, int | bool]]:
    state = read_state(model, p.system.variables, s)
    choice = read_state(model, p.t.choice_vars, c)
    return state, {v.name: choice[v.name] for v in p.system.schemas[k].choices}


def _pair(
    p: Pair,
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
