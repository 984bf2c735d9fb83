"""Where a Chinese reinforcement may arrive by rail (SNC-8.2.4, SNC-8.2.5, SNC-9.5.2.x,
SNC-8.2.1), kept by what decides it: the hexes Japanese units hold.

`loc.rail_reinforcement_hexes` reads a whole position, and the Chinese Reinforcement Phase
asks it for every arrival of every position, each arrival making a new one. Its answer
depends on the Japanese units alone, which the Chinese arrivals never move, so it is worked
out once per set of Japanese hexes (and variant).
"""

from __future__ import annotations

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.rules import loc
from specs.snc1937.rules.memo import identity_memo
from specs.snc1937.rules.tables import Tables, occupied_by, stacks


@identity_memo  # over the cache by the Japanese hexes: no hashing of the position
def rail_places(
    t: Tables, where: tuple[tuple[str, Hex], ...], v: Variant, turn: int
) -> tuple[tuple[Hex, bool], ...]:
    """`loc.rail_reinforcement_hexes` in hex order, kept by the hexes Japanese units hold: from
    GT 3 (SNC-8.2.4) only they and their ZOC block the rail (SNC-8.2.5, SNC-9.5.2.3; Chinese
    units do not negate it, SNC-7.2.2) and bar the hexes next to them (SNC-8.2.1)."""
    if turn < loc.RAIL_FROM_GT:
        return ()
    key = (t, occupied_by(where, t)[1], v)
    found = _RAIL_PLACES.get(key)
    if found is None:
        hexes = loc.rail_reinforcement_hexes(t.board, t.data, v, stacks(where), turn)
        if len(_RAIL_PLACES) >= 256:
            _RAIL_PLACES.clear()  # a bound on memory, not an eviction order
        found = _RAIL_PLACES[key] = tuple((h, True) for h in sorted(hexes))
    return found


_RAIL_PLACES: dict[tuple[Tables, frozenset[Hex], Variant], tuple[tuple[Hex, bool], ...]] = {}
