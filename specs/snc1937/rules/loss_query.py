"""SNC's step losses from the solver layer (SNC-10.5.2.1 to SNC-10.5.2.3, AMB-SNC-28).

`loss_problem` describes one side's losses in one battle as
`solvers.queries.apportion.ApportionProblem`:
each unit with the steps it has left (`losses.steps_left`, `static_steps`, AMB-SNC-33) and a
precedence key per steps-left level, the rules in the order `loss_order` gives them:
- Japanese garrisons take the last steps (SNC-10.5.2.3), always first in the key;
- `two_step_first` (AMB-SNC-28 (a)): full two-step units before one-step units (SNC-10.5.2.1),
  then the strongest current CF (SNC-10.5.2.2);
- `strongest_first` (AMB-SNC-28 (b)): the strongest first (SNC-10.5.2.2), then two-step units.
Steps beyond the force's total are ignored (SNC-10.5.1.3). `specs/snc1937/rules/losses.py`
(`loss_choices`) is the plain oracle held equal to it by tests.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

from kernel.variants import Variant
from solvers.queries import apportion
from solvers.queries.apportion import ApportionProblem, Precedence, Unit
from solvers.reasons import Reason
from specs.snc1937.data.counters import UnitSpec
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.losses import LossOutcome, is_japanese_garrison, steps_left
from specs.snc1937.rules.odds import current_cf

GARRISONS_LAST = Precedence(("SNC-10.5.2.3",), "is not a Japanese garrison and loses first")
TWO_STEP = Precedence(("SNC-10.5.2.1",), "is a two-step unit to be reduced first")
STRONGEST = Precedence(("SNC-10.5.2.2",), "is stronger and loses first")
COUNT = Reason(
    ("SNC-10.5.1.1", "SNC-10.5.1.3"),
    "the side loses {absorbed} step(s) of the {losses} the CRT gives, no more and no fewer",
)


def _unit(spec: UnitSpec, reduced: Collection[str], variant: Variant) -> Unit:
    n = steps_left(spec, reduced, variant)
    keys = []
    for k in range(1, n + 1):
        after = spec.reduced if spec.reduced is not None else spec.cf
        cf = current_cf(spec, reduced) if k == n else after
        not_garrison = 0 if is_japanese_garrison(spec) else 1
        two = 1 if k == 2 else 0
        if variant.is_("loss_order", "strongest_first"):
            keys.append((not_garrison, cf, two))
        else:
            keys.append((not_garrison, two, cf))
    return Unit(spec.id, n, tuple(keys))


def loss_problem(
    data: SNCData,
    variant: Variant,
    units: Iterable[str],
    reduced: Collection[str],
    steps: int,
) -> ApportionProblem:
    """The losses of `steps` steps from `units` as an apportionment problem (module docstring)."""
    ids = sorted(set(units))
    rules = (
        (GARRISONS_LAST, STRONGEST, TWO_STEP)
        if variant.is_("loss_order", "strongest_first")
        else (GARRISONS_LAST, TWO_STEP, STRONGEST)
    )
    return ApportionProblem(
        units=tuple(_unit(data.unit(u), reduced, variant) for u in ids),
        losses=max(0, steps),
        precedence=rules,
        count_rule=COUNT,
    )


def to_outcome(
    data: SNCData, variant: Variant, problem: ApportionProblem, lost: Iterable[tuple[str, int]]
) -> LossOutcome:
    """The solver's (unit, steps lost) as the game's `LossOutcome`."""
    steps = {u.id: u.steps for u in problem.units}
    counts = dict(lost)
    eliminated = tuple(u for u in steps if counts.get(u, 0) == steps[u] and steps[u] > 0)
    flipped = tuple(u for u in steps if 0 < counts.get(u, 0) < steps[u] and steps[u] == 2)
    return LossOutcome(eliminated, flipped, problem.unabsorbed)


def to_counts(
    data: SNCData,
    variant: Variant,
    units: Iterable[str],
    reduced: Collection[str],
    outcome: LossOutcome,
) -> dict[str, int]:
    """The steps each unit loses in `outcome`: all it has left when eliminated, one when
    flipped."""
    out: dict[str, int] = {}
    for u in sorted(set(units)):
        if u in outcome.eliminated:
            out[u] = steps_left(data.unit(u), reduced, variant)
        elif u in outcome.flipped:
            out[u] = 1
    for u in (*outcome.eliminated, *outcome.flipped):
        out.setdefault(u, 1)  # a stranger: kept so the solver names it
    return out


def loss_outcomes(
    data: SNCData,
    variant: Variant,
    units: Iterable[str],
    reduced: Collection[str],
    steps: int,
) -> tuple[LossOutcome, ...]:
    """Every legal way to take `steps` losses, from the solver, sorted like `loss_choices`."""
    ids = sorted(set(units))
    problem = loss_problem(data, variant, ids, reduced, steps)
    found = {to_outcome(data, variant, problem, o) for o in apportion.outcomes(problem)}
    return tuple(sorted(found, key=lambda o: (o.eliminated, o.flipped)))


def explain(
    data: SNCData,
    variant: Variant,
    units: Iterable[str],
    reduced: Collection[str],
    steps: int,
    chosen: LossOutcome,
) -> list[Reason]:
    """Why `chosen` is not a legal way to take the losses (clauses named); empty when legal."""
    ids = sorted(set(units))
    problem = loss_problem(data, variant, ids, reduced, steps)
    overlap = set(chosen.eliminated) & set(chosen.flipped)
    if overlap:
        return [Reason(COUNT.clauses, f"{', '.join(sorted(overlap))} both flipped and eliminated")]
    flips = [
        u for u in chosen.flipped if u in ids and steps_left(data.unit(u), reduced, variant) != 2
    ]
    if flips:
        return [Reason(("SNC-2.2.1.12",), f"{', '.join(flips)} has one step and cannot flip")]
    if chosen.unabsorbed != problem.unabsorbed:
        return [COUNT.format(losses=problem.losses, absorbed=problem.absorbed)]
    return apportion.explain(problem, to_counts(data, variant, ids, reduced, chosen))
