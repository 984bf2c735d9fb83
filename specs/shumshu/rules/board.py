"""The static map of one data file: island hexes and their neighbours, rivers, roads, coast,
the two artillery ranges and the victory hexes, with lookups cached for the hot paths.

There is no impassable hexside on Shumshu (every island hexside can be crossed), so whether a
unit "could move into" a hex (SHU-COMBAT.2) is a question of the sea and of enemy units only.
"""

from __future__ import annotations

import itertools

from kernel.hexes import Hex, hex_neighbors, hexside
from specs.shumshu.data.loader import ShumshuData, UnitSpec

PARAMUSHIR = "paramushir"


class Board:
    """Geometry and unit lookups of one data file."""

    def __init__(self, data: ShumshuData) -> None:
        self.data = data
        self.island = data.island
        self.order = {u.id: i for i, u in enumerate(data.units)}
        self.side_of = {u.id: u.side for u in data.units}
        self._neighbors = {
            h: tuple(n for n in hex_neighbors(h) if n in data.island) for h in data.island
        }
        self._river = {(s.a, s.b) for s in data.rivers} | {(s.b, s.a) for s in data.rivers}
        road: set[tuple[Hex, Hex]] = set()
        for path in data.roads:
            for a, b in itertools.pairwise(path):
                road.add((a, b))
                road.add((b, a))
        self._road = frozenset(road)
        self.hexes = tuple(sorted(data.island))
        self._specs = {u.id: u for u in data.units}
        self._road_neighbors = {
            h: tuple(n for n in ns if (h, n) in self._road) for h, ns in self._neighbors.items()
        }
        self.at_guns = tuple(u.id for u in data.units if u.type == "at_gun")
        self._battalions: dict[str, tuple[str, ...]] = {}
        for u in data.units:
            if u.regiment is not None:
                self._battalions.setdefault(u.regiment, ())
                self._battalions[u.regiment] += (u.id,)

    def battalions_of(self, regiment: str) -> tuple[str, ...]:
        """The regiment's battalions in data order (`ShumshuData.battalions_of`), looked up
        rather than searched: forming and breaking regiments (SHU-RGT.1, SHU-RGT.4) ask it
        at every player-turn."""
        return self._battalions.get(regiment, ())

    def unit(self, unit_id: str) -> UnitSpec:
        """The unit's data record (an unknown id is the data file's InvalidInput)."""
        spec = self._specs.get(unit_id)
        return spec if spec is not None else self.data.unit(unit_id)

    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        """The island hexes touching `h`, in a fixed order."""
        return self._neighbors.get(h, ())

    def road_neighbors(self, h: Hex) -> tuple[Hex, ...]:
        """The island hexes a road leads to from `h` (SHU-MOVE.2), in `neighbors` order."""
        return self._road_neighbors.get(h, ())

    def on_island(self, h: Hex) -> bool:
        return h in self.island

    def is_coastal(self, h: Hex) -> bool:
        return h in self.data.coast

    def river_between(self, a: Hex, b: Hex) -> bool:
        """A river runs along the hexside a/b (SHU-COMBAT.11, SHU-TANK.1)."""
        return (a, b) in self._river

    def road_between(self, a: Hex, b: Hex) -> bool:
        """A road crosses the hexside a/b (SHU-MOVE.2)."""
        return (a, b) in self._road

    def terrain(self, h: Hex) -> str:
        return self.data.terrain.get(h, "clear")

    def in_red(self, h: Hex) -> bool:
        """Within the Paramushir artillery's long range (SHU-LAND.5, SHU-COMBAT.10)."""
        return h in self.data.red

    def in_black(self, h: Hex) -> bool:
        """Within the Kamchatka artillery's long range (SHU-LAND.6, SHU-COMBAT.10)."""
        return h in self.data.black

    def friendly_range(self, side: str, h: Hex) -> bool:
        """`h` is within `side`'s own artillery range: red for the Japanese, black for the
        Russians (SHU-COMBAT.10)."""
        return self.in_red(h) if side == "JP" else self.in_black(h)


def side_name(a: Hex, b: Hex) -> str:
    """The printed name of the hexside between adjacent hexes ("0503/0603")."""
    return str(hexside(a, b))
