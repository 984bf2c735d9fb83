"""Stacking choices by trying every subset: the oracle the Z3 encoding is held against.

Each limit and each extent reading is tested directly on a concrete choice (`breaches`), with
no solver. Stacks are small (a hex holds a handful of units), so 2^n subsets are cheap.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from solvers.queries.stacking import (
    AtLeast,
    Barred,
    Breach,
    Capacity,
    Choice,
    Extent,
    Limit,
    OneFormation,
    StackingProblem,
    StackUnit,
    by_id,
    formation_outside,
    reason,
)
from solvers.reasons import Reason


def within(limit: Limit, kept: Sequence[StackUnit]) -> bool:
    if isinstance(limit, Capacity):
        return sum(u.weight if limit.weighted else 1 for u in kept) <= limit.bound
    if isinstance(limit, OneFormation):
        return formation_outside(kept, limit.complete) <= limit.outside
    if isinstance(limit, Barred):
        return not any(u.id in limit.units for u in kept)
    assert isinstance(limit, AtLeast)
    return len(kept) >= limit.bound


def compliant(problem: StackingProblem, kept: Sequence[StackUnit]) -> bool:
    return all(within(limit, kept) for limit in problem.limits)


def _kept(units: Sequence[StackUnit], removed: Iterable[str]) -> list[StackUnit]:
    gone = set(removed)
    return [u for u in units if u.id not in gone]


def fewest(problem: StackingProblem, units: Sequence[StackUnit]) -> int:
    """The fewest removals that leave the hex within limits (all units if none do)."""
    for k in range(len(units) + 1):
        for gone in itertools.combinations([u.id for u in units], k):
            if compliant(problem, _kept(units, gone)):
                return k
    return len(units)


def breaches(
    problem: StackingProblem, units: Sequence[StackUnit], removed: Iterable[str]
) -> list[Breach]:
    """Every rule broken by letting `removed` go, sorted."""
    gone = sorted(set(removed))
    kept = _kept(units, gone)
    out = [Breach("limit", k) for k, lim in enumerate(problem.limits) if not within(lim, kept)]
    if problem.extent == Extent.MINIMAL:
        ids = by_id(units)
        out += [Breach("minimal", 0, i) for i in gone if compliant(problem, [*kept, ids[i]])]
    elif problem.extent == Extent.MINIMUM and len(gone) > fewest(problem, units):
        out.append(Breach("minimum"))
    return sorted(out)


def explain(problem: StackingProblem, units: Sequence[StackUnit]) -> list[Reason]:
    kept = list(units)
    return [
        reason(problem, units, (), Breach("limit", k))
        for k, lim in enumerate(problem.limits)
        if not within(lim, kept)
    ]


def explain_choice(
    problem: StackingProblem, units: Sequence[StackUnit], removed: Iterable[str]
) -> list[Reason]:
    gone = tuple(sorted(set(removed)))
    least = fewest(problem, units)
    return [reason(problem, units, gone, b, least) for b in breaches(problem, units, gone)]


def choices(problem: StackingProblem, units: Sequence[StackUnit]) -> list[Choice]:
    """Every legal choice, sorted by the removed ids."""
    ids = sorted(u.id for u in units)
    out = []
    for k in range(len(ids) + 1):
        for gone in itertools.combinations(ids, k):
            if not breaches(problem, units, gone):
                out.append(Choice(gone, tuple(i for i in ids if i not in gone)))
    return sorted(out)


def count(problem: StackingProblem, units: Sequence[StackUnit]) -> int:
    return len(choices(problem, units))
