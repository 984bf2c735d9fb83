"""The SNC map as drawn by `tools/render.py`: each hex's terrain and the hexside edges, the same
in every position.

Split from `picture` (the position drawn over it: stacks, markers, the panel beside the map):
the natural terrain of each hex (SNC-9.3.1, SNC-9.3.3), rivers, creeks and water on hexsides
(SNC-9.4.5, SNC-10.4.1.9), roads and railroads (SNC-9.5.1.1), the Naval Gunfire Line's
landward edge (SNC-7.1.5), the landing arrows (SNC-8.4.0.3) and the ring round the
International Settlement (SNC-0.0.1). What the data marks provisional is hatched or dashed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from kernel.hexes import Hex, hex_name, hex_neighbors
from kernel.scene import Cell, Edge
from specs.snc1937.data.loader import SNCData
from specs.snc1937.data.map_data import WATER
from specs.snc1937.rules.tables import Tables

# the renderer's names for the colours (tools/render.py): paddy is drawn in its "hill" tan
_TERRAIN = {"clear": "clear", "woods": "woods", "marsh": "marsh", "paddy": "hill"}
CREEK = "border-#4fa3e0"
WATER_SIDE = "border-#1f4e79"  # all-sea, all-lake and Yangtze hexsides
NAVAL_LINE = "border-#d62728"
ARROW = "border-#ff7f0e"
SETTLEMENT = "border-#444444"


def cells(data: SNCData) -> list[Cell]:
    """Every hex with its terrain; hatched when the terrain grid is provisional (the map keeps
    no per-hex provenance, so the two marsh hexes SNC-9.6.9 gives are hatched with the rest)."""
    m = data.map
    provisional = dict(m.records)["terrain"].is_provisional
    cells = []
    for h in sorted(m.hexes, key=lambda x: (x.col, x.row)):
        kind = m.terrain[h]
        colour = "sea" if kind in WATER else _TERRAIN.get(kind, kind)
        cells.append(Cell(hex_name(h), h.col, h.row, colour, provisional))
    return cells


def border(inside: frozenset[Hex], keep: Iterable[Hex], kind: str, prov: bool) -> list[Edge]:
    """The hexsides of `inside` towards hexes of `keep` outside it, drawn inside `inside`."""
    outside = frozenset(keep) - inside
    return [
        Edge(hex_name(h), hex_name(n), kind, prov)
        for h in sorted(inside)
        for n in hex_neighbors(h)
        if n in outside
    ]


def edges(t: Tables) -> list[Edge]:
    """Water on hexsides, roads and railroads, the Naval Gunfire Line's landward edge, the
    landing arrows and the ring round the International Settlement."""
    b, m = t.board, t.data.map
    edges: list[Edge] = []
    for side, feature in sorted(m.sides.items()):
        prov = feature.provenance.is_provisional
        a, z = hex_name(side.a), hex_name(side.b)
        if feature.kind == "river":
            edges.append(Edge(a, z, "river", prov))
        elif feature.kind == "creek":
            edges.append(Edge(a, z, CREEK, prov))
        else:  # yangtze, all-sea, all-lake: both sides of the hexside
            edges += [Edge(a, z, WATER_SIDE, prov), Edge(z, a, WATER_SIDE, prov)]
    for route in m.roads:
        prov = route.provenance.is_provisional
        edges += [
            Edge(hex_name(x), hex_name(y), "road", prov) for x, y in itertools.pairwise(route.hexes)
        ]
    for route in m.railroads:  # drawn as a tie across each hexside the line crosses
        prov = route.provenance.is_provisional
        edges += [
            Edge(hex_name(x), hex_name(y), "railroad", prov)
            for x, y in itertools.pairwise(route.hexes)
        ]
    ngl_prov = dict(m.records)["naval_gunfire_line"].is_provisional
    land = [h for h in m.hexes if b.is_land(h)]
    edges += border(m.naval_gunfire_line, land, NAVAL_LINE, ngl_prov)
    for h, landing in sorted(m.landings.items()):
        other = landing.arrow.b if landing.arrow.a == h else landing.arrow.a
        prov = "arrow" in landing.provenance.provisional
        edges.append(Edge(hex_name(h), hex_name(other), ARROW, prov))
    for h, city in sorted(m.cities.items()):
        if city.neutral:
            ring = frozenset({h})
            edges += border(ring, hex_neighbors(h), SETTLEMENT, city.provenance.is_provisional)
    return edges
