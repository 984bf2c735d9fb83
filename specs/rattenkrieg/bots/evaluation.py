"""How good a Rattenkrieg position looks to one side, from its observation alone (for the greedy
and search agents of `tools.agents`), squashed into (-1, 1); a finished game is +1 / -1 as its
result says.

It mirrors the one victory condition: at the end of Turn 6 the Germans win if they control all
three Areas adjacent to the Soviet Rear, else the Soviets do (RKS-4.1.1, RKS-3.5.2). So the
value is mostly how many of those Areas the Germans hold, then the other Stalingrad Areas (the
road to them) and the material each side keeps: its units not eliminated and their step cards
(RKS-3.3.1), which the observation shows as counts for the enemy's units.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

from kernel.evaluation import finished

SIDES = ("GE", "SU")
VICTORY_WEIGHT = 1.2
"""On the German share of the three victory Areas, from -1 (none) to +1 (all)."""
AREA_WEIGHT = 0.3
"""On the German share of the other Stalingrad Areas, from -1 to +1."""
MATERIAL_WEIGHT = 0.6
"""On the difference of units and steps kept, relative to their total."""


@functools.cache
def _board() -> tuple[frozenset[str], tuple[str, ...], dict[str, str]]:
    """The victory Areas, the other Stalingrad Areas and each unit's side (static data)."""
    from specs.rattenkrieg.data.loader import load_data
    from specs.rattenkrieg.rules.board import Board

    board = Board(load_data())
    arrows = frozenset(board.arrows)
    others = tuple(a for a in board.stalingrad if a not in arrows)
    return arrows, others, dict(board.side_of)


def evaluate(observation: Mapping[str, Any], side: str) -> float:
    """The value of the observed position for `side`, in [-1, 1]."""
    done = finished(observation, side)
    if done is not None:
        return done
    arrows, others, side_of = _board()
    control = observation["control"]
    held = sum(control.get(a) == "GE" for a in arrows)  # RKS-4.1.1
    victory = 2 * held / len(arrows) - 1
    around = 2 * sum(control.get(a) == "GE" for a in others) / len(others) - 1 if others else 0.0
    gone = {unit for unit, _turn in observation["eliminated"]}
    kept = dict.fromkeys(SIDES, 0)
    for unit in observation["units"]:
        if unit["id"] not in gone:  # a unit alive counts one, and one per step card
            kept[side_of[unit["id"]]] += 1 + int(unit["steps"])
    material = (kept["GE"] - kept["SU"]) / (kept["GE"] + kept["SU"] + 1)
    german = VICTORY_WEIGHT * victory + AREA_WEIGHT * around + MATERIAL_WEIGHT * material
    return math.tanh(german if side == "GE" else -german)
