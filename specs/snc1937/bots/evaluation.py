"""How good a Shanghai-Nanking 1937 position looks to one side, from its observation alone (for
the greedy and search agents of `tools.agents`), squashed into (-1, 1); a finished game is +1 /
-1 as its result says.

It mirrors the victory conditions: the Japanese win when they control all seven city hexes in a
Victory Check Phase (SNC-4.3.1, SNC-4.3.2), the Chinese when they do not by GT 12 (SNC-4.3.3);
the Chinese win at once by taking Shanghai, 3512 (SNC-4.1.1), or from GT 8 by having units in
or next to it (SNC-4.1.2), and lose at once if up to GT 5 none is there (SNC-4.2.1). So the
value is mostly the share of the city hexes the Japanese control, then the Chinese presence
around Shanghai, then the material each side keeps on the map (the observation counts every
stack, hidden units included; a reduced unit counts half).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from typing import Any

from kernel.evaluation import finished

CITY_WEIGHT = 1.2
"""On the Japanese share of the (non-neutral) city hexes, from -1 (none) to +1 (all)."""
SHANGHAI_WEIGHT = 0.4
"""On the Chinese units in or next to 3512, up to `SHANGHAI_FULL` of them."""
SHANGHAI_FULL = 3
MATERIAL_WEIGHT = 0.6
"""On the difference of units kept, relative to their total."""
SHANGHAI = "3512"  # SNC-4.1.1, SNC-4.1.2, SNC-4.2.1


@functools.cache
def _board() -> tuple[frozenset[str], frozenset[str], dict[str, str]]:
    """The non-neutral city hexes, 3512 and its neighbours, each unit's side (static data)."""
    from kernel.hexes import hex_name, parse_hex
    from specs.snc1937.rules.play import SNCRules

    board = SNCRules().board
    cities = frozenset(hex_name(h) for h in board.map.cities if not board.is_neutral(h))
    shanghai = parse_hex(SHANGHAI)
    ring = frozenset(hex_name(h) for h in (shanghai, *board.neighbors(shanghai)))
    sides = {u.id: u.side for u in board.data.units}
    return cities, ring, sides


def evaluate(observation: Mapping[str, Any], side: str) -> float:
    """The value of the observed position for `side`, in [-1, 1]."""
    done = finished(observation, side)
    if done is not None:
        return done
    cities, ring, sides = _board()
    control = set(observation["jp_control"])
    held = sum(h in control for h in cities)  # SNC-4.3.1
    city_share = 2 * held / len(cities) - 1 if cities else 0.0
    kept = {"CH": 0.0, "JP": 0.0}
    near = 0
    for stack in observation["stacks"]:
        kept[stack["side"]] += stack["count"]
        if stack["side"] == "CH" and stack["hex"] in ring:  # SNC-4.1.2, SNC-4.2.1
            near += stack["count"]
    for unit in observation.get("reduced", ()):
        owner = sides.get(unit)
        if owner is not None:
            kept[owner] -= 0.5
    material = (kept["JP"] - kept["CH"]) / (kept["JP"] + kept["CH"] + 1)
    presence = min(near, SHANGHAI_FULL) / SHANGHAI_FULL
    japanese = CITY_WEIGHT * city_share + MATERIAL_WEIGHT * material - SHANGHAI_WEIGHT * presence
    return math.tanh(japanese if side == "JP" else -japanese)
