"""The SNC's properties: what the rules must keep true in every position and every step, for
tests, seeded playouts (`wargame verify snc1937`) and the position check (kernel.properties).

Each property is written once, as a function that finds where a position (an invariant) or a
step (before, action, after) breaks it, naming the clause, or returns None; its
`Property.state_check` / `step_check` is that function's "no breach". The position check
(`position.check_position`) runs the same invariant finders on every position it reads and
names the JSON field, the clause and the property ID of the first breach.
The step properties' finders are `step_breaches`'; what a breach is, `breach`'.

- SNC-P-SETTLEMENT (invariant): no unit is ever in 3513, the International Settlement
  (SNC-0.0.1, SNC-9.4.6).
- SNC-P-ONE-SIDE (invariant): opposing units never share a hex (SNC-6.0.1, SNC-9.0.12).
- SNC-P-ENDS (invariant): no position lies beyond GT 12, and the game is over exactly when it
  has a result (SNC-5.0.1, SNC-5.2.2, SNC-4.3.3); with SNC-P-GT-ORDER, which lets the GT only
  go forward one at a time, play cannot outlast GT 12.
- SNC-P-GT-ORDER (step): the GT never goes back and moves on by one only when the Japanese
  player turn ends and the Chinese one opens (SNC-5.0.1, SNC-5.1.1, SNC-5.2.1).
- SNC-P-STACKING (step): the stacking limits hold at the moments they are enforced
  (SNC-6.0.2 to SNC-6.0.4, SNC-6.2.x): once a check is over, every hex it covers is within the
  limits (`stacking.py` says which hexes a check covers, per `stacking_check` and
  `movement_check_side`, AMB-SNC-8; a Reinforcement Phase is checked only under
  `reinforcement_stacking=checked_on_placement`, an overrun only under
  `overrun_stacking=after_each_overrun`). A check that finds an over-stacked hex hands
  it to its owner (the stack step, SNC-6.0.4); the property then holds when the culls are over.
  Sudden death ends the game at once (SNC-4.1.1, SNC-4.1.2, SNC-4.2.1), so a step that ends
  the game by it is no check point.
- SNC-P-STATIC (step): a static unit on the map never moves; it only leaves for the dead pile
  (SNC-2.2.1.8, SNC-9.1.1).
- SNC-P-STEPS (step): steps never grow except by replacement (SNC-2.2.1.15, SNC-8.3.x): a
  reduced unit is restored only by a Japanese Replace action; the dead pile is never left
  (SNC-8.3.3, SNC-8.0.3, SNC-11.2.3); only Chinese elite units wait for the return die, and
  come back from it only reduced, to the TRT (SNC-8.1.2 to SNC-8.1.4); the only unit that comes
  into play from nowhere is a Japanese garrison from the pool (SNC-9.1.3).

Every property is stated so that it holds under every reading (where it depends on one, it asks
the variant as the rules do), so each is expected to hold under every preset; the tests also
play them under other readings. `wargame verify` proves all but SNC-P-STACKING and SNC-P-ONE-
SIDE over the abstract model of `specs.snc1937.formal.symbolic` (SNC-P-STEPS there with "a Japanese
replacement step spent" for "a Replace action", which is what the model sees of it), and checks
those two on seeded playouts ("tested").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import attrs

from kernel.errors import ImpossiblePosition
from kernel.properties import Property, Verdict
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.formal.breach import Breach
from specs.snc1937.formal.step_breaches import (
    gt_order_breach,
    stacking_breach,
    static_breach,
    steps_breach,
)
from specs.snc1937.rules.state import LAST_GT, Phase, SNCState
from specs.snc1937.rules.tables import Tables, stacks

SETTLEMENT = "SNC-P-SETTLEMENT"
ONE_SIDE = "SNC-P-ONE-SIDE"
ENDS = "SNC-P-ENDS"
GT_ORDER = "SNC-P-GT-ORDER"
STACKING = "SNC-P-STACKING"
STATIC = "SNC-P-STATIC"
STEPS = "SNC-P-STEPS"


@attrs.frozen
class Invariant:
    """An invariant property and the function that finds its breach in a position."""

    prop: Property
    find: Callable[[SNCState], Breach | None]


StepFinder = Callable[[SNCState, Any, SNCState], Breach | None]


@attrs.frozen
class StepCheck:
    """A step property and the function that finds its breach in a step."""

    prop: Property
    find: StepFinder


def _holds() -> dict[str, Verdict]:
    return dict.fromkeys(sorted(CATALOGUE.presets), "holds")


# --- invariants ----------------------------------------------------------------------------------


@functools.cache
def invariants(t: Tables) -> tuple[Invariant, ...]:
    """The invariants, bound to one data set, in the order the position check runs them."""
    holds = _holds()

    def settlement(s: SNCState) -> Breach | None:
        for i, (u, h) in enumerate(s.where):
            if t.board.is_neutral(h):
                return Breach(
                    f"where[{i}].hex",
                    "SNC-0.0.1",
                    f"{u} is in {h}, the neutral International Settlement no unit may ever enter",
                )
        return None

    def one_side(s: SNCState) -> Breach | None:
        for h, here in sorted(stacks(s.where).items()):
            if len({t.spec[u].side for u in here}) > 1:
                return Breach("where", "SNC-6.0.1", f"both sides in {h}: {', '.join(sorted(here))}")
        return None

    def ends(s: SNCState) -> Breach | None:
        if not 1 <= s.turn <= LAST_GT:
            return Breach(
                "turn", "SNC-5.2.2", f"GT {s.turn}: the game lasts GT 1 to GT {LAST_GT} at most"
            )
        if (s.phase == Phase.OVER) != (s.result is not None):
            return Breach("result", "SNC-5.2.2", "a result exactly when the game is over")
        if s.result is not None and s.result.clause == "SNC-4.3.3" and s.turn != LAST_GT:
            return Breach(
                "result", "SNC-4.3.3", f"the end-of-game Chinese win comes in GT {LAST_GT} only"
            )
        return None

    return (
        Invariant(
            Property(
                SETTLEMENT,
                ("SNC-0.0.1", "SNC-9.4.6"),
                "No unit is ever in 3513, the International Settlement: no movement, advance, "
                "retreat, placement or landing enters it.",
                "invariant",
                holds,
                state_check=lambda s: settlement(s) is None,
            ),
            settlement,
        ),
        Invariant(
            Property(
                ONE_SIDE,
                ("SNC-6.0.1", "SNC-9.0.12", "SNC-8.4.0.9", "SNC-10.5.3.1"),
                "Opposing units never share a hex: not by movement, advance, retreat, "
                "placement, landing or a garrison placed in a city.",
                "invariant",
                holds,
                state_check=lambda s: one_side(s) is None,
            ),
            one_side,
        ),
        Invariant(
            Property(
                ENDS,
                ("SNC-5.2.2", "SNC-5.0.1", "SNC-4.3.3"),
                "The game ends by GT 12: no position lies beyond GT 12, the game is over "
                "exactly when it has a result, and the Chinese end-of-game win comes in GT 12 "
                "(with SNC-P-GT-ORDER, the GT only goes forward, one at a time).",
                "invariant",
                holds,
                state_check=lambda s: ends(s) is None,
            ),
            ends,
        ),
    )


def breaches(t: Tables, s: SNCState) -> list[tuple[Invariant, Breach]]:
    """Every invariant the position breaks, with its breach."""
    out = []
    for inv in invariants(t):
        br = inv.find(s)
        if br is not None:
            out.append((inv, br))
    return out


def check_invariants(t: Tables, s: SNCState) -> None:
    """Refuse a position breaking an invariant: ImpossiblePosition naming the field, the
    clause and the property of the first breach."""
    for inv in invariants(t):
        br = inv.find(s)
        if br is not None:
            raise ImpossiblePosition(
                f"{br.field}: {br.message} ({br.clause}; property {inv.prop.id})",
                clauses=(br.clause, inv.prop.id),
                field=br.field,
            )


def _step_check(pid: str, clauses: tuple[str, ...], statement: str, find: StepFinder) -> StepCheck:
    prop = Property(
        pid,
        clauses,
        statement,
        "step",
        _holds(),
        step_check=lambda b, a, n: find(b, a, n) is None,
    )
    return StepCheck(prop, find)


@functools.cache
def step_checks(t: Tables) -> tuple[StepCheck, ...]:
    """The step properties with their breach finders, bound to one data set."""
    return (
        _step_check(
            STACKING,
            ("SNC-6.0.2", "SNC-6.0.3", "SNC-6.0.4", "SNC-6.2.1", "SNC-6.2.2", "SNC-6.2.3"),
            "Stacking limits hold at the check points: at the end of an Operations Phase of "
            "movement (the phasing player's hexes, movement_check_side) and after each combat "
            "of a Fight phase (its hexes or every hex, stacking_check; an overrun's only under "
            "overrun_stacking=after_each_overrun), once the owners' culls are over.",
            functools.partial(stacking_breach, t),
        ),
        _step_check(
            STATIC,
            ("SNC-2.2.1.8", "SNC-9.1.1"),
            "Static units never move: a static unit on the map stays in its hex until it goes "
            "to the dead pile.",
            functools.partial(static_breach, t),
        ),
        _step_check(
            STEPS,
            ("SNC-2.2.1.15", "SNC-8.3.2", "SNC-8.3.3", "SNC-8.3.4", "SNC-8.1.2", "SNC-8.0.3"),
            "Steps never grow except by replacement: a reduced unit is restored only by a "
            "Japanese Replace action, and the dead never return, except Chinese elite units "
            "by their die (SNC-8.1.2), reduced.",
            functools.partial(steps_breach, t),
        ),
        _step_check(
            GT_ORDER,
            ("SNC-5.2.1", "SNC-5.0.1", "SNC-5.1.1"),
            "The GT never goes back: it moves on by one, only when the Japanese player turn "
            "ends and the Chinese one opens.",
            gt_order_breach,
        ),
    )


def properties(t: Tables) -> tuple[Property, ...]:
    """Every property, bound to one data set: the invariants, then the step properties."""
    return (*(i.prop for i in invariants(t)), *(c.prop for c in step_checks(t)))
