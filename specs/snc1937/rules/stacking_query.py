"""SNC's stacking limits of one hex as a solver problem (SNC-6.0.1, SNC-6.0.4, SNC-6.2.x).

`stacking_problem` describes one side's limits in one hex as
`solvers.queries.stacking.StackingProblem`
with the units there as `StackUnit`s:
- Japanese: at most five units (SNC-6.2.1); under `japanese_stack=division_plus_one`
  (AMB-SNC-9) all but one of them from one division, the SNLF battalions counting as one
  division (SNC-6.2.2) whenever any are together (`snlf_partial_division=any_together`) or
  only when all four are (`all_four`, the solvers' `OneFormation.complete`). Units of no
  division are a formation of their own.
- Chinese: at most three division equivalents (SNC-6.2.3), weighed in halves: regular brigade
  1, regular division 2, elite brigade 2, elite division 3; statics per `static_de`
  (AMB-SNC-10), through `stacking.division_equivalents`.
The owner's choices of units to eliminate from an over-stacked hex (SNC-6.0.4) follow
`overstack_cull`: `minimal` (no unit eliminated needlessly) is the solvers' `Extent.MINIMAL`,
`fewest` is `Extent.MINIMUM`. `specs/snc1937/rules/stacking.py` is the plain oracle held equal to it
by tests; one reading pair differs there, see `compliance_choices`.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from kernel.variants import Variant
from solvers.queries import stacking as solver
from solvers.queries.stacking import (
    Capacity,
    Choice,
    Extent,
    Limit,
    OneFormation,
    StackingProblem,
    StackUnit,
)
from solvers.reasons import Reason
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.stacking import CHINESE_LIMIT, JAPANESE_LIMIT, SNLF, division_equivalents

MIXED = Reason(("SNC-6.0.1",), "opposing ground units may never be in the same hex")


def stack_units(units: Sequence[str], data: SNCData, variant: Variant) -> tuple[StackUnit, ...]:
    """The units of one hex for the solver: Chinese weighted in half DEs (SNC-6.2.3),
    Japanese grouped by division (SNC-6.2.1, SNC-6.2.2), in id order."""
    out = []
    for u in sorted(set(units)):
        spec = data.unit(u)
        if spec.side == "CH":
            weight = int(division_equivalents(spec, variant) * 2)
            out.append(StackUnit(u, u, weight))
        else:
            out.append(StackUnit(u, u, 1, spec.division or u))
    return tuple(out)


def stacking_problem(where: str, side: str, data: SNCData, variant: Variant) -> StackingProblem:
    """The limits of `side` in the hex named `where` (module docstring)."""
    limits: list[Limit] = []
    if side == "CH":
        limits.append(
            Capacity(
                int(CHINESE_LIMIT * 2),
                ("SNC-6.2.3",),
                "at most three Chinese division equivalents per hex",
                weighted=True,
                scale=2,
                measure="DE",
            )
        )
    else:
        limits.append(
            Capacity(JAPANESE_LIMIT, ("SNC-6.2.1",), "at most five Japanese units per hex")
        )
        if variant.is_("japanese_stack", "division_plus_one"):
            snlf = sum(1 for u in data.units if u.division == SNLF)
            strict = variant.is_("snlf_partial_division", "all_four")
            limits.append(
                OneFormation(
                    1,
                    ("SNC-6.2.1", "SNC-6.2.2", "AMB-SNC-9"),
                    "a Japanese stack is the regiments of one division and one other unit",
                    complete={SNLF: snlf} if strict else {},
                )
            )
    fewest = variant.is_("overstack_cull", "fewest")
    return StackingProblem(
        where=f"hex {where}",
        limits=tuple(limits),
        extent=Extent.MINIMUM if fewest else Extent.MINIMAL,
        extent_clauses=("SNC-6.0.4",),
        removal="eliminated",
    )


def _side(units: Sequence[str], data: SNCData) -> str | None:
    sides = {data.unit(u).side for u in units}
    if len(sides) > 1:
        return None
    return next(iter(sides), "CH")


def explain(where: str, units: Sequence[str], data: SNCData, variant: Variant) -> list[Reason]:
    """Every stacking limit the units of one hex break, naming the clauses; empty when within
    limits (SNC-6.0.1, SNC-6.2.1 to SNC-6.2.3, AMB-SNC-9, AMB-SNC-10)."""
    side = _side(units, data)
    if side is None:
        return [MIXED]
    problem = stacking_problem(where, side, data, variant)
    return solver.explain(problem, stack_units(units, data, variant))


def within_limits(units: Sequence[str], data: SNCData, variant: Variant) -> bool:
    """Whether one hex's units are within the stacking rules, from the solver."""
    side = _side(units, data)
    if side is None:
        return False
    problem = stacking_problem("", side, data, variant)
    return solver.check(problem, stack_units(units, data, variant))


def compliance_choices(
    where: str, units: Sequence[str], data: SNCData, variant: Variant
) -> Iterator[tuple[str, ...]]:
    """The owner's legal choices of units to eliminate from the hex (SNC-6.0.4), lazily, each
    in id order (a hex within limits has one choice: nothing).

    Under `japanese_stack=division_plus_one` with `snlf_partial_division=all_four` compliance
    is not kept by subsets (four SNLF and one unit comply, three and one do not), so a choice
    that is minimal unit by unit can still keep fewer units than some compliant stack; the
    oracle (`stacking.cull_choices`) asks for maximal kept stacks, and those choices are
    dropped here by asking the solver whether some larger kept stack complies."""
    side = _side(units, data)
    if side is None:
        raise ValueError("SNC-6.0.1: opposing ground units may never be in the same hex")
    problem = stacking_problem(where, side, data, variant)
    stack = stack_units(units, data, variant)
    non_monotone = any(isinstance(x, OneFormation) and x.complete for x in problem.limits)
    for choice in solver.compliance_choices(problem, stack):
        if non_monotone and problem.extent == Extent.MINIMAL and _dominated(problem, stack, choice):
            continue
        yield choice.removed


def cull_next(
    where: str, units: Sequence[str], culled: Sequence[str], data: SNCData, variant: Variant
) -> tuple[str, ...]:
    """The units of the hex (its units now and the ones `culled` from it so far in this check)
    that the owner may eliminate next: those of some legal choice (`compliance_choices`) that
    holds every culled unit (SNC-6.0.4), so a cull made one unit at a time ends on a legal
    choice. One solver check per unit (`solvers.queries.stacking.removable_next`); where the limits
    are
    not kept by subsets (`compliance_choices`) the choices are listed instead."""
    everyone = (*units, *culled)
    side = _side(everyone, data)
    if side is None:
        raise ValueError("SNC-6.0.1: opposing ground units may never be in the same hex")
    problem = stacking_problem(where, side, data, variant)
    stack = stack_units(everyone, data, variant)
    prior = set(culled)
    if any(isinstance(x, OneFormation) and x.complete for x in problem.limits):
        choices = compliance_choices(where, everyone, data, variant)
        allowed = {u for c in choices if prior <= set(c) for u in c}
        return tuple(u for u in sorted(units) if u in allowed)
    return tuple(u for u in solver.removable_next(problem, stack, culled) if u in set(units))


def _dominated(problem: StackingProblem, stack: Sequence[StackUnit], choice: Choice) -> bool:
    """Whether keeping some of `choice.removed` as well still complies."""
    kept = [u for u in stack if u.id in set(choice.kept)]
    back = [u for u in stack if u.id in set(choice.removed)]
    room = JAPANESE_LIMIT - len(kept)  # a compliant Japanese stack has at most five units
    return any(
        solver.check(problem, [*kept, *more])
        for n in range(1, room + 1)
        for more in itertools.combinations(back, n)
    )


def explain_choice(
    where: str, units: Sequence[str], removed: Sequence[str], data: SNCData, variant: Variant
) -> list[Reason]:
    """Why eliminating `removed` is not a legal choice at a check (SNC-6.0.4, SNC-6.2.x);
    empty when it is."""
    side = _side(units, data)
    if side is None:
        return [MIXED]
    problem = stacking_problem(where, side, data, variant)
    stack = stack_units(units, data, variant)
    out = solver.explain_choice(problem, stack, removed)
    if not out and tuple(sorted(set(removed))) not in set(
        compliance_choices(where, units, data, variant)
    ):
        out.append(Reason(("SNC-6.0.4",), f"hex {where}: more units can be kept within limits"))
    return out
