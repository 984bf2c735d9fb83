"""The SNC map file (`map.toml`): the hex grid and its terrain, the cities, towns and landing
sites, the hexside features, roads and railroads, the coast and the Naval Gunfire Line, the
scale and the turn track; every hexside and route joins adjacent hexes of the grid.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import attrs

from kernel.data import Provenance
from kernel.hexes import Hex, Hexside, hex_adjacent
from specs.snc1937.data.records import Record, check_format, table_of, tables_of

LAND = ("clear", "woods", "marsh", "paddy")  # SNC-9.3.1 (rice paddy counts as natural terrain)
WATER = ("yangtze", "estuary", "sea", "lake")  # SNC-9.3.1, SNC-9.3.3: hexes no unit enters
TERRAIN = LAND + WATER
HEXSIDE_KINDS = ("creek", "river", "yangtze", "all_sea", "all_lake")

Records = list[tuple[str, Provenance]]


@attrs.frozen
class City:
    hex: Hex
    name: str
    neutral: bool  # the International Settlement, SNC-0.0.1
    provenance: Provenance


@attrs.frozen
class Town:
    hex: Hex
    name: str
    provenance: Provenance


@attrs.frozen
class Landing:
    """An amphibious landing site and the hexside its printed arrow crosses (SNC-8.4.0.3)."""

    hex: Hex
    name: str
    arrow: Hexside
    provenance: Provenance


@attrs.frozen
class SideFeature:
    """A water barrier along a hexside: creek, river (navigable below the Naval Navigation
    line), Yangtze, all-sea or all-lake (SNC-9.3.1, SNC-9.4.5)."""

    name: str
    kind: str
    navigable: bool
    provenance: Provenance


@attrs.frozen
class Route:
    """A road or railroad: consecutive adjacent hexes, crossing each shared hexside."""

    name: str
    hexes: tuple[Hex, ...]
    provenance: Provenance


@attrs.frozen(eq=False)
class MapData:
    columns: tuple[int, int]
    rows: tuple[int, int]
    hexes: frozenset[Hex]
    terrain: Mapping[Hex, str]
    sides: Mapping[Hexside, SideFeature]
    roads: tuple[Route, ...]
    railroads: tuple[Route, ...]
    cities: Mapping[Hex, City]
    towns: Mapping[Hex, Town]
    landings: Mapping[Hex, Landing]
    coastal: frozenset[Hex]
    naval_gunfire_line: frozenset[Hex]
    hex_miles: int
    hex_km: int
    turn_weeks: int
    turn_boxes: int
    records: tuple[tuple[str, Provenance], ...]


def read_map(file: str, raw: dict[str, Any]) -> MapData:
    """The map part, read strictly (`records.Record`), its records' provenance in file order."""
    keys = (
        "grid", "scale", "turn_track", "terrain", "city", "town", "landing", "hexsides",
        "road", "railroad", "coastal", "naval_gunfire_line",
    )  # fmt: skip
    check_format(file, raw, "map", keys)
    records: Records = []
    columns, rows = _grid(file, raw, records)
    (c0, c1), (r0, r1) = columns, rows
    cells = frozenset(Hex(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))
    scale = Record(
        file, table_of(file, raw, "scale"), "scale", ("hex_miles", "hex_km", "turn_weeks")
    )
    records.append(("scale", scale.provenance()))
    track = Record(file, table_of(file, raw, "turn_track"), "turn_track", ("boxes",))
    records.append(("turn_track", track.provenance()))
    terrain = _terrain(file, raw, columns, rows, cells, records)
    cities = _cities(file, raw, cells, records)
    towns = _towns(file, raw, cells, cities, records)
    landings = _landings(file, raw, cells, records)
    sides = _hexsides(file, raw, cells, records)
    roads = _routes(file, raw, "road", cells, records)
    railroads = _routes(file, raw, "railroad", cells, records)
    coastal = _zone(file, raw, "coastal", cells, records)
    naval_gunfire_line = _zone(file, raw, "naval_gunfire_line", cells, records)
    return MapData(
        columns=columns,
        rows=rows,
        hexes=cells,
        terrain=terrain,
        sides=sides,
        roads=roads,
        railroads=railroads,
        cities=cities,
        towns=towns,
        landings=landings,
        coastal=coastal,
        naval_gunfire_line=naval_gunfire_line,
        hex_miles=scale.int_("hex_miles", 1),
        hex_km=scale.int_("hex_km", 1),
        turn_weeks=scale.int_("turn_weeks", 1),
        turn_boxes=track.int_("boxes", 1, 99),
        records=tuple(records),
    )


def _grid(
    file: str, raw: dict[str, Any], records: Records
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The first and last column and row of the grid."""
    grid = Record(file, table_of(file, raw, "grid"), "grid", ("columns", "rows"))
    records.append(("grid", grid.provenance()))
    span: dict[str, tuple[int, int]] = {}
    for key in ("columns", "rows"):
        pair = grid.list_(key)
        if len(pair) != 2 or not all(isinstance(v, int) and 0 <= v <= 99 for v in pair):
            grid.fail(key, f"expected [first, last] between 0 and 99, got {pair!r}")
        if pair[0] > pair[1]:
            grid.fail(key, f"first {pair[0]} is after last {pair[1]}")
        span[key] = (pair[0], pair[1])
    return span["columns"], span["rows"]


def _terrain(
    file: str,
    raw: dict[str, Any],
    columns: tuple[int, int],
    rows: tuple[int, int],
    cells: frozenset[Hex],
    records: Records,
) -> dict[Hex, str]:
    """Each hex's natural terrain: one row of legend characters per map row, then the hexes
    given one by one."""
    (c0, c1), (r0, r1) = columns, rows
    terr = Record(file, table_of(file, raw, "terrain"), "terrain", ("legend", "rows", "given"))
    records.append(("terrain", terr.provenance()))
    legend = terr.get("legend")
    if not isinstance(legend, dict):
        terr.fail("legend", "expected a table of one-character keys")
    for char, name in legend.items():
        if len(char) != 1 or name not in TERRAIN:
            terr.fail(f"legend.{char}", f"expected one character naming one of {TERRAIN}")
    lines = terr.list_("rows")
    if len(lines) != r1 - r0 + 1:
        terr.fail("rows", f"{len(lines)} rows for map rows {r0}-{r1}")
    terrain: dict[Hex, str] = {}
    for i, line in enumerate(lines):
        if not isinstance(line, str) or len(line) != c1 - c0 + 1:
            terr.fail(f"rows[{i}]", f"expected a string of {c1 - c0 + 1} characters (one a column)")
        for j, char in enumerate(line):
            if char not in legend:
                terr.fail(f"rows[{i}]", f"column {c0 + j}: {char!r} is not in the legend")
            terrain[Hex(c0 + j, r0 + i)] = legend[char]
    for i, item in enumerate(tables_of(file, terr.raw, "given")):
        rec = Record(file, item, f"terrain.given[{i}]", ("hexes", "terrain"))
        records.append((f"terrain.given[{i}]", rec.provenance()))
        kind = rec.str_("terrain", TERRAIN)
        for h in rec.hexes("hexes", cells):
            terrain[h] = kind
    return terrain


def _cities(
    file: str, raw: dict[str, Any], cells: frozenset[Hex], records: Records
) -> dict[Hex, City]:
    cities: dict[Hex, City] = {}
    for i, item in enumerate(tables_of(file, raw, "city")):
        rec = Record(file, item, f"city[{i}]", ("hex", "name", "neutral"), virtual=("kind",))
        h, prov = rec.hex_("hex", cells), rec.provenance()
        if h in cities:
            rec.fail("hex", f"{h} is already a city")
        cities[h] = City(h, rec.str_("name"), rec.bool_("neutral"), prov)
        records.append((f"city {h}", prov))
    return cities


def _towns(
    file: str,
    raw: dict[str, Any],
    cells: frozenset[Hex],
    cities: Mapping[Hex, City],
    records: Records,
) -> dict[Hex, Town]:
    """The towns, one hex and name a record or several (`hexes` with their `names`)."""
    towns: dict[Hex, Town] = {}
    for i, item in enumerate(tables_of(file, raw, "town")):
        rec = Record(file, item, f"town[{i}]", ("hex", "name", "hexes", "names"))
        prov = rec.provenance()
        if rec.has("hexes"):
            if len(rec.list_("hexes")) != len(rec.list_("names")):
                rec.fail("names", "needs one name for each of 'hexes'")
            places = list(zip(rec.hexes("hexes", cells), rec.strs("names"), strict=True))
        else:
            places = [(rec.hex_("hex", cells), rec.str_("name"))]
        for h, name in places:
            if h in towns or h in cities:
                rec.fail("hex", f"{h} is already a town or city")
            towns[h] = Town(h, name, prov)
        records.append((f"town[{i}]", prov))
    return towns


def _landings(
    file: str, raw: dict[str, Any], cells: frozenset[Hex], records: Records
) -> dict[Hex, Landing]:
    landings: dict[Hex, Landing] = {}
    for i, item in enumerate(tables_of(file, raw, "landing")):
        rec = Record(file, item, f"landing[{i}]", ("hex", "name", "arrow"))
        h, prov = rec.hex_("hex", cells), rec.provenance()
        arrow = rec.hexside("arrow", cells, rec.get("arrow"))
        if h not in (arrow.a, arrow.b):
            rec.fail("arrow", f"the arrow's hexside {arrow} is not a side of {h}")
        if h in landings:
            rec.fail("hex", f"{h} is already a landing site")
        landings[h] = Landing(h, rec.str_("name"), arrow, prov)
        records.append((f"landing {h}", prov))
    return landings


def _hexsides(
    file: str, raw: dict[str, Any], cells: frozenset[Hex], records: Records
) -> dict[Hexside, SideFeature]:
    """The hexside features, each on one or more hexsides, a hexside at most one."""
    sides: dict[Hexside, SideFeature] = {}
    for i, item in enumerate(tables_of(file, raw, "hexsides")):
        rec = Record(file, item, f"hexsides[{i}]", ("name", "kind", "navigable", "sides"))
        prov = rec.provenance()
        feature = SideFeature(
            rec.str_("name"), rec.str_("kind", HEXSIDE_KINDS), rec.bool_("navigable"), prov
        )
        if feature.navigable and feature.kind != "river":
            rec.fail(
                "navigable",
                "only a river is navigable (the Huangpu below the Naval Navigation line)",
            )
        for j, text in enumerate(rec.list_("sides")):
            side = rec.hexside(f"sides[{j}]", cells, text)
            if side in sides:
                rec.fail(f"sides[{j}]", f"hexside {side} already has a feature")
            sides[side] = feature
        records.append((f"hexsides[{i}] {feature.name}", prov))
    return sides


def _routes(
    file: str, raw: dict[str, Any], key: str, cells: frozenset[Hex], records: Records
) -> tuple[Route, ...]:
    """The roads or railroads (`key`): each a path of adjacent hexes."""
    found: list[Route] = []
    for i, item in enumerate(tables_of(file, raw, key)):
        rec = Record(file, item, f"{key}[{i}]", ("name", "hexes"))
        prov, path = rec.provenance(), rec.hexes("hexes", cells)
        if len(path) < 2:
            rec.fail("hexes", "a route joins at least two hexes")
        for j, (a, b) in enumerate(itertools.pairwise(path)):
            if not hex_adjacent(a, b):
                rec.fail(f"hexes[{j + 1}]", f"{b} does not touch the previous hex {a}")
        found.append(Route(rec.str_("name"), path, prov))
        records.append((f"{key}[{i}] {found[-1].name}", prov))
    return tuple(found)


def _zone(
    file: str, raw: dict[str, Any], key: str, cells: frozenset[Hex], records: Records
) -> frozenset[Hex]:
    """A set of hexes: the coast, or the Naval Gunfire Line."""
    rec = Record(file, table_of(file, raw, key), key, ("hexes",))
    records.append((key, rec.provenance()))
    return frozenset(rec.hexes("hexes", cells))
