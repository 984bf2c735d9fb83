"""How good a Shumshu position looks to one side, from its observation alone (for the greedy and
search agents of `tools.agents`), squashed into (-1, 1); a finished game is +1 / -1 as its result
says.

It mirrors the victory conditions: the Russians win a marginal victory holding the 1-star hex
(SHU-WIN.1), a strategic one holding the 2-star hex (SHU-WIN.2), and the Japanese win in every
other case (SHU-WIN.3). So the value is mostly which star hexes the Russians hold (or have
entered, where the variant counts that: AMB-SHU-3), then how close they are to them, then the
material each side keeps (pieces not eliminated; a disrupted one counts half, SHU-DISRUPT.1).
A Japanese face-down piece the Russians see only as one more piece in its hex counts as one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

from kernel.evaluation import finished
from kernel.hexes import Hex, hex_distance, parse_hex

STAR_WEIGHT = 1.0
"""Per star hex the Russians hold, from -1 (none) to +1 (both)."""
APPROACH_WEIGHT = 0.3
"""On how near the nearest Russian piece on the map is to the 1-star hex."""
MATERIAL_WEIGHT = 0.6
"""On the difference of pieces kept, relative to their total."""
APPROACH_RANGE = 8
"""Hexes from the 1-star hex beyond which a Russian piece is no nearer than none at all."""
ALIVE = frozenset({"map", "pool", "in_regiment"})
"""Where a piece that still counts is: a battalion inside its formed regiment counts, the
regiment counter itself not (it is those battalions)."""


@functools.cache
def _board() -> tuple[Hex, Hex, dict[str, str], frozenset[str]]:
    """The 1-star and 2-star hexes, each unit's side and the regiment counters (static data)."""
    from specs.shumshu.data.loader import DATA_FILE, load_data
    from specs.shumshu.rules.board import Board

    board = Board(load_data(DATA_FILE))
    regiments = frozenset(u.id for u in board.data.units if u.is_regiment)
    return board.data.one_star, board.data.two_star, dict(board.side_of), regiments


@functools.cache
def _hex(name: str) -> Hex:
    """A hex by name (a search evaluates thousands of positions on the same few hexes)."""
    return parse_hex(name)


@functools.cache
def _distance(a: Hex, b: Hex) -> int:
    return hex_distance(a, b)


def evaluate(observation: Mapping[str, Any], side: str) -> float:
    """The value of the observed position for `side`, in [-1, 1]."""
    done = finished(observation, side)
    if done is not None:
        return done
    one_star, two_star, side_of, regiments = _board()
    holders: dict[Hex, str] = {}
    kept = {"RU": 0.0, "JP": 0.0}
    nearest = APPROACH_RANGE
    for unit in observation["units"]:
        owner = side_of[unit["id"]]
        if unit["loc"] == "map" and unit["hex"] is not None:
            where = _hex(unit["hex"])
            holders[where] = owner
            if owner == "RU":
                nearest = min(nearest, _distance(where, one_star))
        if unit["loc"] in ALIVE and unit["id"] not in regiments:
            kept[owner] += 0.5 if unit["disrupted"] else 1.0
    for name, count in observation.get("face_down", {}).items():  # Japanese, unseen
        holders[_hex(name)] = "JP"
        kept["JP"] += count
    taken = set(observation.get("taken", ()))
    one = holders.get(one_star) == "RU" or "1" in taken  # SHU-WIN.1
    two = holders.get(two_star) == "RU" or "2" in taken  # SHU-WIN.2
    stars = float(one) + float(two) - 1.0  # neither: SHU-WIN.3
    approach = 1.0 - nearest / APPROACH_RANGE
    material = (kept["RU"] - kept["JP"]) / (kept["RU"] + kept["JP"] + 1)
    russian = STAR_WEIGHT * stars + APPROACH_WEIGHT * approach + MATERIAL_WEIGHT * material
    return math.tanh(russian if side == "RU" else -russian)
