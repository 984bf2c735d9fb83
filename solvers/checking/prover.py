"""Verdicts on a transition system's properties: proved, refuted with a witness, or unknown.

- Invariants (over one state) and step invariants (over one step) by k-induction: the base case
  is bounded model checking from the initial state up to k-1 steps, the inductive step a path of
  k steps from any state satisfying the property (and the proved lemmas) that breaks it at the
  end. When no k up to the bound works, bounded model checking looks deeper for a witness.
- Termination ("play always ends"): a proof by a ranking function the spec provides (it must
  drop on every step and stay non-negative), or a lasso found by bounded model checking (a
  reachable state from which play returns to itself).

Every solver call has a deterministic resource limit and a fixed seed (`solvers.smt`). An
`unknown` from the solver, or a search that reaches its bound, is reported as unknown with the
limit hit; it is never a proof. The answers are `verdicts`'; the inductive steps' and witness
searches' parts, `induction`'s.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Protocol, runtime_checkable

import attrs

from solvers import smt
from solvers.checking.induction import (
    SEARCH_BOUND,
    assume_lemmas,
    breaks_step,
    deeper,
    inductive_step,
    lemma_text,
    no_bad_step,
    trace,
)
from solvers.checking.system import (
    Ranking,
    StatePredicate,
    StepPredicate,
    System,
    concrete_frame,
    equal_states,
    evaluate,
    schema_named,
)
from solvers.checking.terms import CONCRETE
from solvers.checking.unroll import Unrolling, template
from solvers.checking.verdicts import Trace, Verdict

DEFAULT_RLIMIT = 200_000_000


@attrs.frozen
class Lemma:
    """An auxiliary invariant a proof may assume once it is itself proved."""

    name: str
    holds: StatePredicate


@attrs.frozen
class Part:
    """One part of an invariant, proved inductive on its own: from any state where the part
    holds, no step breaks it, assuming only the guard conjuncts `about` one of `subjects`.
    Leaving hypotheses out only adds transitions, so a part proved so holds for the whole
    model; parts that are each inductive make their conjunction inductive. A fact about every
    pair of 151 units is thousands of small questions this way instead of one the solver
    cannot finish."""

    name: str
    holds: StatePredicate
    subjects: frozenset[str]
    clauses: frozenset[str] | None = None  # only the conjuncts citing these, when given


@attrs.frozen
class Invariant:
    """`holds` over every reachable state. With `parts` (whose conjunction must be `holds`),
    the inductive step is asked part by part (`Part`); the base case is `holds` itself."""

    holds: StatePredicate
    lemmas: tuple[Lemma, ...] = ()
    k: int = 1
    depth: int = 0  # how deep bounded model checking looks for a witness when no proof is found
    parts: Callable[[], Sequence[Part]] | None = None


@attrs.frozen
class StepPart:
    """One part of a step invariant, proved on its own like a `Part`: no step breaks it,
    assuming only the guard conjuncts `about` one of `subjects` (citing `clauses`, if given)."""

    name: str
    holds: StepPredicate
    subjects: frozenset[str]
    clauses: frozenset[str] | None = None


@attrs.frozen
class StepInvariant:
    """`holds` over every step from a reachable state. With `parts` (whose conjunction must be
    `holds`), the 1-step question is asked part by part (`StepPart`)."""

    holds: StepPredicate
    lemmas: tuple[Lemma, ...] = ()
    k: int = 1
    depth: int = 0
    parts: Callable[[], Sequence[StepPart]] | None = None


@attrs.frozen
class Terminates:
    ranking: Ranking | None = None
    lemmas: tuple[Lemma, ...] = ()
    depth: int = 8  # how deep to look for a lasso


@runtime_checkable
class Relational(Protocol):
    """A property over two runs (non-interference, `solvers.checking.noninterference`): it
    gives its own verdict."""

    def verdict(self, system: System, rlimit: int) -> Verdict: ...


Formal = Invariant | StepInvariant | Terminates | Relational


def check(
    system: System,
    formal: Formal,
    *,
    rlimit: int = DEFAULT_RLIMIT,
    paths: Iterable[Trace] = (),
) -> Verdict:
    """The verdict on one formal statement (its lemmas proved first, in order).

    `paths` (from seeded playouts, say) are searched for a witness when neither a proof nor
    bounded model checking settles the question; each of their steps is checked to be a step
    of the model, so a witness found there is one of the model."""
    start = time.perf_counter()
    try:
        verdict = _check(system, formal, rlimit)
    except smt.SolverUnknown as exc:
        verdict = Verdict("unknown", "solver", exc.message)
    if verdict.status == "unknown" and not isinstance(formal, Relational):
        verdict = _simulate(system, formal, paths) or verdict
    return attrs.evolve(verdict, seconds=time.perf_counter() - start)


def _simulate(system: System, formal: Formal, paths: Iterable[Trace]) -> Verdict | None:
    """The first path that breaks `formal` (or, for termination, returns to a state), cut
    just after it does."""
    frame = functools.partial(concrete_frame, system.variables)
    for n, path in enumerate(paths):
        seen: dict[tuple[tuple[str, int | bool], ...], int] = {}
        for i, (name, choice) in enumerate(path.steps):
            before, after = path.states[i], path.states[i + 1]
            ev = evaluate(system, before, schema_named(system, name), choice)
            if ev.failed or ev.after != after:
                raise smt.SolverFailure(f"path {n}, step {i + 1} ({name}) is not a model step")
            seen.setdefault(tuple(sorted(before.items())), i)
            match formal:
                case Invariant():
                    bad = not formal.holds(CONCRETE, frame(after))
                case StepInvariant():
                    bad = not formal.holds(CONCRETE, frame(before), frame(after))
                case Terminates():
                    back = seen.get(tuple(sorted(after.items())))
                    if back is not None:
                        cut = Trace(path.states[: i + 2], path.steps[: i + 1], back)
                        text = f"the state after step {i + 1} repeats the state after step {back}"
                        return Verdict("refuted", f"lasso, simulation (path {n})", text, cut)
                    bad = False
            if bad:
                cut = Trace(path.states[: i + 2], path.steps[: i + 1])
                how = f"simulation (path {n}, step {i + 1})"
                return Verdict("refuted", how, "a path of the model breaks it", cut)
    return None


def _check(system: System, formal: Formal, rlimit: int) -> Verdict:
    if isinstance(formal, Relational):
        return formal.verdict(system, rlimit)
    assumed: list[Lemma] = []
    for lemma in formal.lemmas:
        v = _invariant(system, lemma.holds, tuple(assumed), 1, 0, rlimit)
        if v.status != "proved":
            return Verdict("unknown", v.method, f"lemma {lemma.name!r} not proved: {v.detail}")
        assumed.append(lemma)
    lemmas = tuple(assumed)
    match formal:
        case Invariant():
            return _invariant(
                system, formal.holds, lemmas, formal.k, formal.depth, rlimit, formal.parts
            )
        case StepInvariant():
            return _step(system, formal.holds, lemmas, formal.k, formal.depth, rlimit, formal.parts)
        case Terminates():
            return _terminates(system, formal, lemmas, rlimit)


def _invariant(
    system: System,
    holds: StatePredicate,
    lemmas: Sequence[Lemma],
    k_max: int,
    depth: int,
    rlimit: int,
    parts: Callable[[], Sequence[Part]] | None = None,
) -> Verdict:
    o = smt.Z3
    failed_part: str | None = None
    base = Unrolling(system, from_initial=True, rlimit=rlimit)
    for k in range(1, k_max + 1):
        while base.length < k - 1:
            base.extend()
        found = base.search(o.not_(holds(o, base.states[k - 1])))
        if found is not None:
            return Verdict(
                "refuted", f"bmc depth {k - 1}", "a reachable state breaks it", trace(found)
            )
        if k == 1 and parts is not None:
            failed = not_inductive_part(system, lemmas, parts(), rlimit)
            if failed is None:
                return Verdict("proved", "1-induction by parts", lemma_text(lemmas))
            ok = False
            failed_part = failed
        elif k == 1:
            t = template(system)
            reads = smt.names_in(smt.formula(holds(o, t.cur)))
            skip = {n for n in range(len(system.schemas)) if t.keeps(n, reads)}
            ok = inductive_step(
                system, lemmas, [holds(o, t.cur)], lambda f: o.not_(holds(o, f)), skip, rlimit
            )
        else:
            step = Unrolling(system, from_initial=False, rlimit=rlimit)
            for _ in range(k):
                step.extend()
            assume_lemmas(step, lemmas, k)
            for i in range(k):
                step.assume(holds(o, step.states[i]))
            ok = no_bad_step(step, o.not_(holds(o, step.states[k])))
        if ok:
            return Verdict("proved", f"{k}-induction", lemma_text(lemmas))
    return _naming(
        failed_part,
        deeper(
            system,
            lambda f, i: o.not_(holds(o, f[i])),
            lambda f, i: bool(holds(CONCRETE, f[i])),
            k_max,
            depth,
            rlimit,
        ),
    )


def _naming(part: str | None, verdict: Verdict) -> Verdict:
    """An unsettled verdict says which part was not inductive, when parts were asked."""
    if part is None or verdict.status != "unknown":
        return verdict
    return attrs.evolve(verdict, detail=f"part {part!r} is not inductive; {verdict.detail}")


def not_inductive_part(
    system: System, lemmas: Sequence[Lemma], parts: Sequence[Part | StepPart], rlimit: int
) -> str | None:
    """The name of the first part a step from a state where it holds (a `Part`) or from any
    state (a `StepPart`) may break, assuming the lemmas and the guard conjuncts about its
    subjects; None when every part is inductive (the proof by parts). Public so a test can show
    that a proof rests on a rule: without it, a named part is no longer inductive. Each part
    is its own solver, so `rlimit` bounds each part's questions (the limit is cumulative per
    solver), with a push per schema. Variable bounds are left out too: that only adds
    states."""
    o = smt.Z3
    t = template(system)
    about: dict[str, list[tuple[int, int]]] = {}
    for k, guard in enumerate(t.guards):
        for j, g in enumerate(guard):
            for subject in g.about:
                about.setdefault(subject, []).append((k, j))
    afters = [t.after(k) for k in range(len(system.schemas))]
    held = [smt.formula(lemma.holds(o, t.cur)) for lemma in lemmas]
    for part in parts:
        solver = smt.Solver(finite_domain=False, rlimit=rlimit)
        for f in held:
            solver.add(f)
        if isinstance(part, StepPart):
            now, reads = None, None  # a step part reads the next state: no schema keeps it
        else:
            now = smt.formula(part.holds(o, t.cur))
            reads = smt.names_in(now)
        assumed = sorted(
            {
                (k, j)
                for subject in part.subjects
                for k, j in about.get(subject, ())
                if part.clauses is None or t.guards[k][j].clause in part.clauses
            }
        )
        for k in range(len(system.schemas)):
            if reads is not None and t.keeps(k, reads):
                continue
            solver.push()
            if isinstance(part, StepPart):
                solver.add(smt.formula(o.not_(part.holds(o, t.cur, afters[k]))))
            else:
                solver.add(now)
                solver.add(smt.formula(o.not_(part.holds(o, afters[k]))))
            for kk, j in assumed:
                if kk == k:
                    solver.add(smt.formula(t.term(k, j)))
            broken = solver.check()
            solver.pop()
            if broken:
                return part.name
    return None


def _step(
    system: System,
    holds: StepPredicate,
    lemmas: Sequence[Lemma],
    k_max: int,
    depth: int,
    rlimit: int,
    parts: Callable[[], Sequence[StepPart]] | None = None,
) -> Verdict:
    o = smt.Z3
    failed_part = None if parts is None else not_inductive_part(system, lemmas, parts(), rlimit)
    if parts is not None and failed_part is None:
        # every step from a state the lemmas allow keeps each part, reachable or not
        return Verdict("proved", "1-induction by parts", lemma_text(lemmas))
    base = Unrolling(system, from_initial=True, rlimit=rlimit)
    for k in range(1, k_max + 1):
        while base.length < k:
            base.extend()
        found = base.search(o.not_(holds(o, base.states[k - 1], base.states[k])))
        if found is not None:
            return Verdict("refuted", f"bmc depth {k}", "a reachable step breaks it", trace(found))
        if k == 1:
            bad = breaks_step(holds, template(system).cur)
            ok = inductive_step(system, lemmas, [], bad, set(), rlimit)
        else:
            step = Unrolling(system, from_initial=False, rlimit=rlimit)
            for _ in range(k):
                step.extend()
            assume_lemmas(step, lemmas, k)
            for i in range(k - 1):
                step.assume(holds(o, step.states[i], step.states[i + 1]))
            ok = no_bad_step(step, o.not_(holds(o, step.states[k - 1], step.states[k])))
        if ok:
            return Verdict("proved", f"{k}-induction", lemma_text(lemmas))
    return _naming(
        failed_part,
        deeper(
            system,
            lambda f, i: o.not_(holds(o, f[i - 1], f[i])),
            lambda f, i: bool(holds(CONCRETE, f[i - 1], f[i])),
            k_max + 1,
            depth,
            rlimit,
        ),
    )


def _terminates(
    system: System, formal: Terminates, lemmas: Sequence[Lemma], rlimit: int
) -> Verdict:
    o = smt.Z3
    if formal.ranking is not None:
        u = Unrolling(system, from_initial=False, rlimit=rlimit)
        u.extend()
        assume_lemmas(u, lemmas, 1)
        r0, r1 = formal.ranking(o, u.states[0]), formal.ranking(o, u.states[1])
        if u.search(o.not_(o.all([o.le(0, r0), o.lt(r1, r0)]))) is None:
            return Verdict("proved", "ranking", "the ranking drops on every step and stays >= 0")
    lasso = Unrolling(system, from_initial=True, rlimit=rlimit, bounded=SEARCH_BOUND)
    while lasso.length < formal.depth:
        lasso.extend()
        n = lasso.length
        back = o.any(
            equal_states(system.variables, lasso.states[i], lasso.states[n]) for i in range(n)
        )
        found = lasso.search(back)
        if found is not None:
            states = found[0]
            loop = next(i for i in range(n) if states[i] == states[n])
            return Verdict(
                "refuted",
                f"lasso, bmc depth {n}",
                f"the state after step {n} repeats the state after step {loop}: play can go "
                "on for ever",
                trace(found, loop),
            )
    ranking = "the ranking function does not prove it" if formal.ranking else "no ranking"
    return Verdict("unknown", "lasso search", f"no lasso within {formal.depth} steps; {ranking}")
