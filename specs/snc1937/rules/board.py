"""Map lookups over the SNC data: neighbours on the map, terrain, hexside features, cities and
towns, roads and railroads, landing sites and the map edges.

Only what the map shows; what a feature does (costs, ZOC, shifts) is for the rules, which read
the TEC data and the variant. Built once per data set and cached per hex, so rules code can ask
in its inner loops.
"""

from __future__ import annotations

import functools
import itertools
from collections import deque

from kernel.hexes import Hex, hex_neighbors
from specs.snc1937.data.loader import SNCData
from specs.snc1937.data.map_data import WATER, SideFeature


class Board:
    """The static map of one data set."""

    def __init__(self, data: SNCData) -> None:
        self.data = data
        self.map = data.map
        m = self.map
        # both crossing directions, so a lookup never builds a Hexside
        self._sides: dict[tuple[Hex, Hex], SideFeature] = {}
        for side, feature in m.sides.items():
            self._sides[side.a, side.b] = feature
            self._sides[side.b, side.a] = feature
        self._road: set[tuple[Hex, Hex]] = set()
        self._rail: dict[Hex, set[Hex]] = {}
        for route in m.roads:
            for a, b in itertools.pairwise(route.hexes):
                self._road.update(((a, b), (b, a)))
        for route in m.railroads:
            for a, b in itertools.pairwise(route.hexes):
                self._rail.setdefault(a, set()).add(b)
                self._rail.setdefault(b, set()).add(a)
        self.road_hexes = frozenset(h for r in m.roads for h in r.hexes)
        self.rail_hexes = frozenset(self._rail)

    # --- geometry -----------------------------------------------------------------------------
    def on_map(self, h: Hex) -> bool:
        return h in self.map.hexes

    @functools.cache  # noqa: B019 - one Board per data set, kept for the process
    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        """The hexes of the map touching `h`, in kernel.hexes order."""
        return tuple(n for n in hex_neighbors(h) if n in self.map.hexes)

    def on_west_edge(self, h: Hex) -> bool:
        """In the map's first column (SNC-8.2.4's west map edge)."""
        return h.col == self.map.columns[0]

    def on_south_edge(self, h: Hex) -> bool:
        """In the map's last row (SNC-8.2.4's south map edge)."""
        return h.row == self.map.rows[1]

    # --- terrain ------------------------------------------------------------------------------
    def terrain(self, h: Hex) -> str:
        """The hex's natural terrain: clear, woods, marsh, paddy, or a water type."""
        return self.map.terrain[h]

    def is_water(self, h: Hex) -> bool:
        """Yangtze, estuary, all-sea or all-lake: a hex no unit enters (SNC-9.4.6)."""
        return self.map.terrain[h] in WATER

    def is_neutral(self, h: Hex) -> bool:
        """The International Settlement, which no unit enters (SNC-0.0.1)."""
        city = self.map.cities.get(h)
        return city is not None and city.neutral

    def is_land(self, h: Hex) -> bool:
        return h in self.map.hexes and not self.is_water(h)

    def enterable(self, h: Hex) -> bool:
        """A land hex that is not the neutral International Settlement."""
        return self.is_land(h) and not self.is_neutral(h)

    def is_city(self, h: Hex) -> bool:
        return h in self.map.cities

    def is_town(self, h: Hex) -> bool:
        return h in self.map.towns

    def place_name(self, h: Hex) -> str | None:
        """The city, town or landing-site name printed in the hex, if any."""
        for table in (self.map.cities, self.map.towns, self.map.landings):
            place = table.get(h)
            if place is not None:
                return place.name
        return None

    # --- hexsides -----------------------------------------------------------------------------
    def side(self, a: Hex, b: Hex) -> SideFeature | None:
        """The water barrier on the hexside between adjacent `a` and `b`, if any."""
        return self._sides.get((a, b))

    def side_kind(self, a: Hex, b: Hex) -> str | None:
        feature = self._sides.get((a, b))
        return None if feature is None else feature.kind

    def navigable(self, a: Hex, b: Hex) -> bool:
        """Across the navigable Huangpu (below the Naval Navigation line)."""
        feature = self._sides.get((a, b))
        return feature is not None and feature.navigable

    def road(self, a: Hex, b: Hex) -> bool:
        """A road crosses the hexside from `a` into `b` (SNC-9.5.1.1)."""
        return (a, b) in self._road

    def rail(self, a: Hex, b: Hex) -> bool:
        """A railroad crosses the hexside from `a` into `b`."""
        return b in self._rail.get(a, ())

    def rail_neighbors(self, h: Hex) -> frozenset[Hex]:
        return frozenset(self._rail.get(h, ()))

    def rail_reach(self, start: Hex, avoid: frozenset[Hex] = frozenset()) -> frozenset[Hex]:
        """Every railroad hex joined to `start` along the rail net without entering `avoid`."""
        if start not in self._rail or start in avoid:
            return frozenset()
        seen, todo = {start}, deque([start])
        while todo:
            for n in self._rail[todo.popleft()]:
                if n not in seen and n not in avoid:
                    seen.add(n)
                    todo.append(n)
        return frozenset(seen)

    # --- the coast ----------------------------------------------------------------------------
    def is_landing(self, h: Hex) -> bool:
        return h in self.map.landings

    def is_coastal(self, h: Hex) -> bool:
        return h in self.map.coastal

    def in_naval_gunfire_line(self, h: Hex) -> bool:
        """A coastal hex within the Japanese Naval Gunfire Line (SNC-7.1.5)."""
        return h in self.map.naval_gunfire_line

    def arrow_from_water(self, h: Hex) -> bool:
        """The landing arrow of `h` comes from a water hex or across the navigable Huangpu."""
        landing = self.map.landings[h]
        other = landing.arrow.b if landing.arrow.a == h else landing.arrow.a
        return (other in self.map.hexes and self.is_water(other)) or self.navigable(h, other)
