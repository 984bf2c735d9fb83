"""The legal next attacks by plain enumeration: the oracle `combat_query` is held equal to.

For each enemy-occupied hex not attacked yet (SNC-10.0.8), every non-empty set of the phasing
side's units that `odds.attack_problem` accepts against it (adjacency, crossable hexsides,
static units, SNC-10.0.1 to SNC-10.0.5, SNC-10.2.1, SNC-10.4.1.9), leaving out units that have
attacked (SNC-10.0.7) and sets whose strength rounds to 0 (SNC-10.4.1.8). Exponential in the
attackers of one hex: for tests only.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Mapping

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.odds import attack_problem, attack_strength


def oracle_attacks(
    data: SNCData,
    board: Board,
    stacks: Mapping[Hex, tuple[str, ...]],
    reduced: Collection[str],
    side: str,
    *,
    attacked: Collection[str] = frozenset(),
    defended: Collection[str] = frozenset(),
    variant: Variant | None = None,
) -> set[tuple[Hex, frozenset[str]]]:
    """Every legal next attack as (target hex, attacking units); `variant` None stands for
    preset `standard` (`odds.attack_problem`)."""
    where = {u: h for h, ids in stacks.items() for u in ids}
    out: set[tuple[Hex, frozenset[str]]] = set()
    for target, defenders in stacks.items():
        if not defenders or any(d in defended for d in defenders):
            continue
        if any(data.unit(d).side == side for d in defenders):
            continue
        able = sorted(
            u
            for n in board.neighbors(target)
            for u in stacks.get(n, ())
            if data.unit(u).side == side
            and u not in attacked
            and attack_problem(data, board, target, {u: n}, stacks, variant) is None
        )
        for size in range(1, len(able) + 1):
            for group in itertools.combinations(able, size):
                froms = {u: where[u] for u in group}
                if attack_problem(data, board, target, froms, stacks, variant) is not None:
                    continue
                if attack_strength(data, board, target, froms, reduced) > 0:
                    out.add((target, frozenset(group)))
    return out
