"""The search for a leak: two steps with equal observable parts from states the side cannot
tell apart, to states it can (`solvers.checking.noninterference`), asked schema pair by
schema pair, and the witness pair read off a model."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import attrs

from solvers import smt
from solvers.checking.noninterference_cases import cases
from solvers.checking.noninterference_choices import agreed
from solvers.checking.noninterference_counts import (
    PART,
    Pieces,
    Question,
    component,
    is_part,
    questions,
    violated,
)
from solvers.checking.noninterference_facts import learn
from solvers.checking.noninterference_moves import rewrite
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
    pieces: Pieces | None = None,
    eager: bool = False,
) -> tuple[LeakPair | None, int]:
    """The first counterexample pair, schema pair by schema pair, and how many were asked
    (with `pieces`, counts asked in parts: `ask`; with `eager`, the guards' eager conjuncts
    assumed from the start)."""
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
            try:
                for k in {k1, k2}:
                    rewrite(p, k, pieces, rlimit)
                try:
                    found = _pair_of(p, lemmas, rlimit, k1, k2, bridges, pieces, eager)
                except smt.SolverUnknown:
                    if k1 != k2 or k1 in p.agreed:
                        raise
                    p.agreed[k1] = agreed(p, k1, lemmas, bridges, rlimit)
                    if not p.agreed[k1]:
                        raise
                    found = _pair_of(p, lemmas, rlimit, k1, k2, bridges, pieces, eager)
            except smt.SolverUnknown as exc:  # the verdict names the pair left open
                pair_names = f"{schemas[k1].name} beside {schemas[k2].name}"
                raise smt.SolverUnknown(f"{pair_names}: {exc.message}") from exc
            if found is not None:
                return found, asked
    return None, asked


def _pair_of(
    p: Pair,
    lemmas: Sequence[Lemma],
    rlimit: int,
    k1: int,
    k2: int,
    bridges: Sequence[Bridge],
    pieces: Pieces | None,
    eager: bool,
) -> LeakPair | None:
    """Schemas k1 and k2 asked in a solver of their own. When that exhausts the limit, the
    search asks again with the choices proved shared (`noninterference_choices`): the first
    question is the one asked before that means was known, so a pair it settled stays settled
    as it was."""
    l1, l2 = p.label(k1)[1], p.label(k2)[1]  # rewritten with the states after
    solver = p.solver(rlimit=rlimit)
    p.base(solver, lemmas, bridges)
    if eager:
        p.guards(solver, k1, k2, p.same_choices(k1, k2, l1, l2))
    return ask(p, solver, k1, k2, l1, l2, pieces)


def ask(
    p: Pair,
    solver: Defining,
    k1: int,
    k2: int,
    l1: Sequence[Any],
    l2: Sequence[Any],
    pieces: Pieces | None = None,
) -> LeakPair | None:
    """Schema k1 in the first copy and k2 in the second: a counterexample, or None. Asked for
    the observation's components in chunks, leaving out those neither step changes (their
    terms after are their terms before, equal by assumption) and those whose two terms after
    are one term (`Pair`); a guard conjunct a counterexample breaks joins the question for
    every later chunk; a chunk that exhausts the limit is asked again in halves (down to one
    component). With `pieces`, a count is asked in parts (`noninterference_counts`),
    one part a question (parts asked together exhaust the limit the parts alone keep to),
    leaving out a part whose two terms are one; a count whose parts a counterexample breaks
    is asked whole. A whole component that exhausts the limit alone is asked again with the
    conditions its copies agree on assumed (`_settle`), then case by case
    (`noninterference_cases`)."""
    same = p.same_choices(k1, k2, l1, l2)
    after1, after2 = p.obs_after(k1), p.obs_after(k2)
    p.labels_equal(solver, l1, l2, same)
    if k1 == k2:
        _facts(p, solver, k1, same)
    changed: list[Question] = []
    for name, now in p.obs_now.items():
        if smt.structurally_equal(after1[name], now) and smt.structurally_equal(after2[name], now):
            continue  # neither step changes it: equal after as before
        two = p.second(after2[name], same)
        if not smt.structurally_equal(after1[name], two):
            changed.append((name, after1[name], two))
    parts: dict[str, list[Question]] = {}
    if pieces is not None and k1 == k2:
        parts = questions(p, k1, same, pieces, [n for n, _, _ in changed])
    whole = {q[0]: q for q in changed}
    rest = [q for q in changed if q[0] not in parts]
    pending = [rest[i : i + CHUNK] for i in range(0, len(rest), CHUNK)]
    pending += [[q] for n in parts for q in parts[n] if not _one(q)]  # a part at a time

    def one(chunk: list[Question]) -> LeakPair | set[str]:
        return _chunk(p, solver, k1, k2, same, chunk)

    while pending:
        chunk = pending.pop(0)
        try:
            found = one(chunk)
        except smt.SolverUnknown:
            if len(chunk) == 1 and is_part(chunk[0][0]):
                raise
            if len(chunk) > 1:  # the same components, asked in two smaller questions
                half = len(chunk) // 2
                pending[:0] = [chunk[:half], chunk[half:]]
                continue
            found = _settle(p, solver, k1, k2, same, chunk[0], one)
        if isinstance(found, LeakPair):
            return found
        if found:  # counts the parts do not settle: asked whole
            pending = [[q for q in c if component(q[0]) not in found] for c in pending]
            pending = [c for c in pending if c] + [[whole[n]] for n in sorted(found)]
    return None


def _settle(
    p: Pair,
    solver: Defining,
    k1: int,
    k2: int,
    same: frozenset[str],
    q: Question,
    one: Callable[[list[Question]], LeakPair | set[str]],
) -> LeakPair | set[str]:
    """A whole component that exhausted the limit alone: for two steps of one schema, asked
    again once the conditions of its term the copies agree on are assumed, each proved first
    (`noninterference_facts.learn`); then, or when that is not enough, case by case
    (`noninterference_cases`)."""
    if k1 == k2 and learn(p, solver, same, q):
        try:
            return one([q])
        except smt.SolverUnknown:
            pass
    found: LeakPair | set[str] = cases(p, solver, same, q, one)
    return found


def _facts(p: Pair, solver: Defining, k: int, same: frozenset[str]) -> None:
    """The per-piece terms of schema k's rewriting (`noninterference_hexes`), each asked
    equal in the two copies alone and assumed once proved (a consequence of what the solver
    holds, so assuming it leaves out no counterexample); one left open is not assumed."""
    o = smt.Z3
    for n, term in enumerate(p.facts.get(k, ())):
        q = (f"fact{PART}{n}", term, p.second(term, same))
        if _one(q):
            continue
        try:
            found = _chunk(p, solver, k, k, same, [q])
        except smt.SolverUnknown:
            continue
        if found == set():
            solver.add_named(smt.formula(equal(o, q[1], q[2])))


def _one(q: Question) -> bool:
    """A question whose two terms are one term (a part no hidden variable enters)."""
    return smt.structurally_equal(q[1], q[2])


def _chunk(
    p: Pair,
    solver: Defining,
    k1: int,
    k2: int,
    same: frozenset[str],
    chunk: list[Question],
) -> LeakPair | set[str]:
    """One chunk of questions: a counterexample, or the counts whose parts a model of the
    two copies breaks (their parts left out, the chunk asked again without them)."""
    o, t = smt.Z3, p.t
    choices2 = p.choices2(same)
    loose: set[str] = set()
    while chunk:
        differ = smt.formula(o.any(o.not_(equal(o, a, b)) for _, a, b in chunk))
        solver.define(differ)  # outside the scope the question is asked in
        solver.push()
        solver.add_named(differ)
        try:
            holds = not solver.check()
        except smt.SolverUnknown:
            solver.pop()  # the solver as it was: the chunk may be asked again in halves
            raise
        if holds:
            solver.pop()
            break
        model = solver.model()
        one = _read(p, model, k1, t.cur, t.choice)
        two = _read(p, model, k2, p.cur2, choices2)
        wrong = violated(model, chunk)
        solver.pop()
        broken1 = t.broken(k1, *one)
        broken2 = t.broken(k2, *two)
        if not broken1 and not broken2:
            if not wrong or any(not is_part(n) for n in wrong):
                return _pair(p, k1, k2, one, two)
            counts = {component(n) for n in wrong}
            loose |= counts
            chunk = [q for q in chunk if component(q[0]) not in counts]
        for j in broken1:
            solver.add(smt.formula(t.term(k1, j)))
        for j in broken2:
            solver.add(p.second(smt.formula(t.term(k2, j)), same, plain=True))
    return loose


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
