"""How good a Nomonhan position looks to one side, from its observation alone (for the greedy
and search agents of `tools.agents`): the victory points the rules score and the material each
side keeps, squashed into (-1, 1); a finished game is +1 / -1 / 0 as its result says.

It mirrors the victory conditions: points for enemy steps eliminated, 2 a tank step and 1
another (NOM-4.5, NOM-4.6), the higher total winning at the end (NOM-4.3), a tie going to the
Soviets where the variant says so (NOM-4.4); the sudden deaths, the Soviet Artillery lost
(NOM-4.1) and both Japanese tank units lost (NOM-4.2), weigh on top of the points they score.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

from kernel.evaluation import finished
from specs.nomonhan.data.loader import DATA_FILE, UnitSpec, load_data

SIDES = ("JP", "SU")
POINT_WEIGHT = 0.15
"""Per victory point of lead: a two-step tank lost (4 points) moves the value by about 0.5."""
MATERIAL_WEIGHT = 0.8
"""On the difference of the shares of their steps the sides keep."""
TANK_WEIGHT = 0.4
"""On the share of Japanese tank steps lost, towards the Soviet sudden death (NOM-4.2)."""
ARTILLERY_WEIGHT = 0.4
"""On the Soviet Artillery's share of steps lost, towards the Japanese sudden death (NOM-4.1)."""


@functools.cache
def _units() -> dict[str, UnitSpec]:
    """The counters as printed (static data, not the position)."""
    return {u.id: u for u in load_data(DATA_FILE).units}


def evaluate(observation: Mapping[str, Any], side: str) -> float:
    """The value of the observed position for `side`, in [-1, 1]."""
    done = finished(observation, side)
    if done is not None:
        return done
    other = SIDES[1] if side == SIDES[0] else SIDES[0]
    specs = _units()
    options = observation.get("variant", {}).get("options", {})
    one_step_artillery = options.get("artillery_rules") == "ja"  # NOM-9.28, AMB-NOM-15
    kept = dict.fromkeys(SIDES, 0)
    full = dict.fromkeys(SIDES, 0)
    tank_steps = tank_full = art_steps = art_full = 0
    for unit in observation["units"]:
        spec = specs[unit["id"]]
        steps = int(unit["steps"])
        printed = 1 if one_step_artillery and spec.type == "artillery" else spec.full_steps
        most = max(printed, steps)
        kept[spec.side] += steps
        full[spec.side] += most
        if spec.side == "JP" and spec.is_tank:  # NOM-4.2: both Japanese tank units
            tank_steps += steps
            tank_full += most
        if spec.side == "SU" and spec.type == "artillery":  # NOM-4.1: the Soviet Artillery
            art_steps += steps
            art_full += most
    points = observation["points"]  # NOM-4.5, NOM-4.6: points scored so far
    lead = float(points[side]) - float(points[other])
    if options.get("tie") == "soviet":  # NOM-4.4: a tie is a Soviet win, worth half a point of lead
        lead += 0.5 if side == "SU" else -0.5
    share = {s: kept[s] / full[s] if full[s] else 0.0 for s in SIDES}
    material = share[side] - share[other]
    su_threat = TANK_WEIGHT * (1 - tank_steps / tank_full) if tank_full else 0.0
    jp_threat = ARTILLERY_WEIGHT * (1 - art_steps / art_full) if art_full else 0.0
    threat = (su_threat - jp_threat) * (1 if side == "SU" else -1)
    return math.tanh(POINT_WEIGHT * lead + MATERIAL_WEIGHT * material + threat)
