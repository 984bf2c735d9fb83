"""The building blocks of the prover's k-induction and witness searches (`prover`).

Split from `prover` (the statements and the proofs that combine these): the inductive step
asked schema by schema over the template state (`inductive_step`, lazy guard conjuncts added
only when a counterexample breaks them), its k-step form (`no_bad_step`), bounded model
checking deeper for a witness, short depths one by one and longer ones in growing strides
(`deeper`), and the lemmas assumed along an unrolling. `SEARCH_BOUND` bounds unbounded
integers while witnesses are searched.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from solvers import smt
from solvers.checking.system import (
    StepPredicate,
    System,
    concrete_frame,
    domain,
    read_state,
)
from solvers.checking.terms import Frame
from solvers.checking.unroll import StepTrace, Unrolling, template
from solvers.checking.verdicts import Trace, Verdict

if TYPE_CHECKING:
    from solvers.checking.prover import Lemma


SEARCH_BOUND = 1 << 16  # bound on unbounded integers while searching witnesses (see Unrolling)


def trace(found: StepTrace, loop: int | None = None) -> Trace:
    """A path the solver found, as a `Trace` (a lasso when `loop` is given)."""
    return Trace(found[0], found[1], loop)


def assume_lemmas(u: Unrolling, lemmas: Sequence[Lemma], upto: int) -> None:
    """The proved lemmas assumed in every state of `u` up to `upto`."""
    for i in range(upto + 1):
        for lemma in lemmas:
            u.assume(lemma.holds(smt.Z3, u.states[i]))


def breaks_step(holds: StepPredicate, cur: Frame[Any, Any]) -> Any:
    """The step from `cur` to a given state breaks `holds`."""
    return lambda after: smt.Z3.not_(holds(smt.Z3, cur, after))


def no_bad_step(u: Unrolling, bad: Any) -> bool:
    """No last step of `u` reaches `bad`, asked schema by schema (smaller questions)."""
    last = u.acts[-1]
    return all(u.search(bad, [last == k]) is None for k in range(len(u.system.schemas)))


def inductive_step(
    system: System,
    lemmas: Sequence[Lemma],
    before: Sequence[Any],
    bad: Any,
    skip: set[int],
    rlimit: int,
) -> bool:
    """One step from any state satisfying the lemmas and `before` never reaches `bad`.

    Asked schema by schema over the template state `s` and the schema's effect as terms, so a
    question holds only what it reads. A schema in `skip` leaves what the property reads as it
    was. Lazy guard conjuncts join the question only when a counterexample breaks them."""
    o = smt.Z3
    t = template(system)
    solver = smt.Solver(finite_domain=False, rlimit=rlimit)
    for c in [*domain(system.variables, t.cur), *domain(t.choice_vars, t.choice)]:
        solver.add(c)
    for lemma in lemmas:
        solver.add(smt.formula(lemma.holds(o, t.cur)))
    for f in before:
        solver.add(smt.formula(f))
    for k, sc in enumerate(system.schemas):
        if k in skip:
            continue
        solver.push()
        solver.add(smt.formula(bad(t.after(k))))
        for j in sorted(t.eager[k] | {j for kk, j in t.needed if kk == k}):
            solver.add(smt.formula(t.term(k, j)))
        while solver.check():
            model = solver.model()
            state = read_state(model, system.variables, t.cur)
            choice = read_state(model, sc.choices, t.choice)
            broken = t.broken(k, state, choice)
            if not broken:
                solver.pop()
                return False
            for j in broken:
                t.conjunct(k, j)
                solver.add(smt.formula(t.term(k, j)))
        solver.pop()
    return True


def deeper(
    system: System,
    bad_at: Callable[[list[Frame[Any, Any]], int], Any],
    ok_at: Callable[[list[Frame[bool, int]], int], bool],
    start: int,
    depth: int,
    rlimit: int,
) -> Verdict:
    """Bounded model checking from `start` steps up to `depth` for a witness (the property is
    not k-inductive for the k tried, so it may or may not hold). Short depths are asked one by
    one, longer ones in growing strides (a violation anywhere in the stride), which spares the
    solver most of its costly proofs that no witness is that short; a witness found is cut at
    its first violation."""
    base = Unrolling(system, from_initial=True, rlimit=rlimit, bounded=SEARCH_BOUND)
    asked = start - 1
    for d in _schedule(start, depth):
        while base.length < d:
            base.extend()
        found = base.search(smt.Z3.any(bad_at(base.states, i) for i in range(asked + 1, d + 1)))
        asked = d
        if found is not None:
            frames = [concrete_frame(system.variables, x) for x in found[0]]
            first = next(i for i in range(1, len(frames)) if not ok_at(frames, i))
            cut = Trace(found[0][: first + 1], found[1][:first])
            return Verdict("refuted", f"bmc depth {first}", "a reachable path breaks it", cut)
    why = f"not {start - 1}-inductive" if start > 1 else "not inductive"
    return Verdict("unknown", "k-induction, bmc", f"{why}, and no witness within {depth} steps")


def _schedule(start: int, depth: int) -> list[int]:
    """Depths to ask: each up to 4, then 8, 16, 32, ... and `depth` itself."""
    out = list(range(max(start, 1), min(depth, 4) + 1))
    d = 4
    while d < depth:
        d = min(depth, 2 * d)
        out.append(d)
    return out


def lemma_text(lemmas: Sequence[Lemma]) -> str:
    """How a proof names what it rests on."""
    if not lemmas:
        return "inductive"
    return "inductive given " + ", ".join(lem.name for lem in lemmas)
