"""Two witness games for a leak the prover found (`solvers.checking.noninterference`): two
model paths the side cannot tell apart up to a position, and from there two steps with equal
observable parts leading to different observations."""

from __future__ import annotations

from collections.abc import Sequence

from solvers.checking.noninterference_pair import Label, Observer, Pair
from solvers.checking.noninterference_search import ask, observation
from solvers.checking.prover import DEFAULT_RLIMIT
from solvers.checking.system import (
    System,
    choice_frame,
    concrete_frame,
    domain,
    pinned,
    schema_named,
)
from solvers.checking.terms import CONCRETE
from solvers.checking.verdicts import Trace


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
    p = Pair(system, observer)
    index = {sc.name: k for k, sc in enumerate(system.schemas)}
    k1, k2 = index[schemas[0]], index[schemas[1]]
    l1, l2 = p.label(k1)[1], p.label(k2)[1]
    for a in paths:
        for b in paths:
            for i in range(_agree(system, observer, a, b)):
                solver = p.solver(rlimit=rlimit)
                solver.add(pinned(system.variables, p.t.cur, a.states[i]))
                solver.add(p.second(pinned(system.variables, p.t.cur, b.states[i]), plain=True))
                for c in domain(p.t.choice_vars, p.t.choice):
                    solver.add(c)
                    solver.add(p.second(c, plain=True))
                found = ask(p, solver, k1, k2, l1, l2)
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
