"""Typed SNC components read from the TOML files in `data/`, with provenance kept per record.

The components come in five files, each replaceable on its own: `map`, `counters`, `setup`
(section 13), `crt` and `tec`. A file's `format` line says which part it is, so a transcription
of the printed map or counter sheet is dropped in by passing its path in `replace`; no code
changes. Loading is strict and checks form only: every field is known and of the right type,
hexes are on the grid, routes and hexsides join adjacent hexes, ids resolve. Whether the data
agrees with the rules text is `facts.py`'s job, so a transcription that breaks a stated fact is
reported clause by clause instead of being refused here. Every failure is a DataError naming the
file, the record and the field.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

import attrs

from kernel.data import Provenance, load_toml, read_provenance
from kernel.errors import DataError, InvalidInput
from kernel.hexes import Hex, Hexside, hex_adjacent, parse_hex, parse_hexside

DATA_DIR = Path(__file__).parent
PARTS = ("map", "counters", "setup", "crt", "tec")
VERSION = 1

SIDES = ("CH", "JP")
LAND = ("clear", "woods", "marsh", "paddy")  # SNC-9.3.1 (rice paddy counts as natural terrain)
WATER = ("yangtze", "estuary", "sea", "lake")  # SNC-9.3.1, SNC-9.3.3: hexes no unit enters
TERRAIN = LAND + WATER
HEXSIDE_KINDS = ("creek", "river", "yangtze", "all_sea", "all_lake")
ARMS = ("regular", "elite", "garrison", "japanese")  # the four colour schemes, SNC-2.2.1.2
UNIT_TYPES = ("infantry", "naval_infantry", "static")  # SNC-2.2.1.5
SIZES = ("XX", "X", "III", "II")  # SNC-2.2.1.4
MARKER_KINDS = ("artillery", "air", "naval_gunfire", "amphibious")  # SNC-11.0.1
_PROVENANCE = ("source", "provisional", "note")
_CLAUSE = re.compile(r"SNC-\d+(\.\d+)+")


# --- strict record reading -----------------------------------------------------------------------


class _Rec:
    """One TOML table being read: refuses unknown fields and names file, record and field in
    every error, so a malformed file is a DataError, never a traceback."""

    def __init__(
        self, file: str, raw: object, where: str, fields: Iterable[str], virtual: Iterable[str] = ()
    ) -> None:
        self.file, self.where = file, where
        if not isinstance(raw, dict):
            raise DataError(f"{file}: {where} must be a table", field=where)
        self.raw: dict[str, Any] = raw
        self.fields = set(fields)
        for key in raw:
            if key not in self.fields and key not in _PROVENANCE:
                self.fail(key, "unknown field")
        self.virtual = set(virtual)

    def fail(self, key: str, problem: str) -> NoReturn:
        raise DataError(f"{self.file}: {self.where}.{key}: {problem}", field=f"{self.where}.{key}")

    def has(self, key: str) -> bool:
        return key in self.raw

    def get(self, key: str) -> Any:
        if key not in self.raw:
            self.fail(key, "missing")
        return self.raw[key]

    def str_(self, key: str, choices: tuple[str, ...] | None = None) -> str:
        value = self.get(key)
        if not isinstance(value, str) or not value:
            self.fail(key, f"expected a non-empty string, got {value!r}")
        if choices is not None and value not in choices:
            self.fail(key, f"{value!r} is not one of {', '.join(choices)}")
        return value

    def opt_str(self, key: str) -> str | None:
        return self.str_(key) if self.has(key) else None

    def int_(self, key: str, low: int = 0, high: int = 10**6) -> int:
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            self.fail(key, f"expected an integer from {low} to {high}, got {value!r}")
        return value

    def opt_int(self, key: str, low: int = 0, high: int = 10**6) -> int | None:
        return self.int_(key, low, high) if self.has(key) else None

    def bool_(self, key: str) -> bool:
        value = self.raw.get(key, False)
        if not isinstance(value, bool):
            self.fail(key, f"expected true or false, got {value!r}")
        return value

    def list_(self, key: str) -> list[Any]:
        value = self.get(key)
        if not isinstance(value, list):
            self.fail(key, f"expected a list, got {value!r}")
        return value

    def strs(self, key: str, choices: tuple[str, ...] | None = None) -> tuple[str, ...]:
        out = []
        for i, value in enumerate(self.list_(key)):
            if not isinstance(value, str) or not value:
                self.fail(f"{key}[{i}]", f"expected a non-empty string, got {value!r}")
            if choices is not None and value not in choices:
                self.fail(f"{key}[{i}]", f"{value!r} is not one of {', '.join(choices)}")
            out.append(value)
        return tuple(out)

    def hex_(self, key: str, grid: frozenset[Hex], text: object = None) -> Hex:
        value = self.get(key) if text is None else text
        try:
            h = parse_hex(value if isinstance(value, str) else "", field=key)
        except InvalidInput:
            self.fail(key, f"not a four-digit hex number: {value!r}")
        if h not in grid:
            self.fail(key, f"hex {value} is not on the map grid")
        return h

    def hexes(self, key: str, grid: frozenset[Hex]) -> tuple[Hex, ...]:
        return tuple(self.hex_(f"{key}[{i}]", grid, text) for i, text in enumerate(self.list_(key)))

    def hexside(self, key: str, grid: frozenset[Hex], text: object) -> Hexside:
        try:
            side = parse_hexside(text, field=key)  # type: ignore[arg-type]
        except InvalidInput as exc:
            self.fail(key, f"{exc.message} ({text!r})")
        if side.a not in grid or side.b not in grid:
            self.fail(key, f"hexside {text} is not on the map grid")
        return side

    def provenance(self) -> Provenance:
        try:
            prov = read_provenance(self.raw, self.where)
        except DataError as exc:
            raise DataError(f"{self.file}: {exc.message}", field=exc.field) from None
        if prov.source != "provisional" and not _CLAUSE.fullmatch(prov.source):
            self.fail(
                "source", f"expected a clause ID like 'SNC-13.1' or 'provisional': {prov.source!r}"
            )
        for name in prov.provisional:
            if name not in self.fields and name not in self.virtual:
                self.fail("provisional", f"names {name!r}, which is not a field of this record")
        return prov


def _tables(file: str, raw: dict[str, Any], key: str) -> list[Any]:
    value = raw.get(key, [])
    if not isinstance(value, list):
        raise DataError(f"{file}: {key} must be an array of tables ([[{key}]])", field=key)
    return value


def _table(file: str, raw: dict[str, Any], key: str) -> Any:
    if key not in raw:
        raise DataError(f"{file}: the [{key}] table is missing", field=key)
    return raw[key]


def _top(file: str, raw: dict[str, Any], part: str, keys: Iterable[str]) -> None:
    if raw.get("format") != f"wargame-kernel/snc1937-{part}" or raw.get("version") != VERSION:
        raise DataError(
            f'{file}: expected format = "wargame-kernel/snc1937-{part}" and version = {VERSION}',
            field="format",
        )
    allowed = {"format", "version", *keys}
    for key in raw:
        if key not in allowed:
            raise DataError(f"{file}: unknown top-level key {key!r}", field=key)


# --- the map -------------------------------------------------------------------------------------


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


def _read_map(file: str, raw: dict[str, Any]) -> MapData:
    keys = (
        "grid", "scale", "turn_track", "terrain", "city", "town", "landing", "hexsides",
        "road", "railroad", "coastal", "naval_gunfire_line",
    )  # fmt: skip
    _top(file, raw, "map", keys)
    records: list[tuple[str, Provenance]] = []

    grid = _Rec(file, _table(file, raw, "grid"), "grid", ("columns", "rows"))
    records.append(("grid", grid.provenance()))
    span: dict[str, tuple[int, int]] = {}
    for key in ("columns", "rows"):
        pair = grid.list_(key)
        if len(pair) != 2 or not all(isinstance(v, int) and 0 <= v <= 99 for v in pair):
            grid.fail(key, f"expected [first, last] between 0 and 99, got {pair!r}")
        if pair[0] > pair[1]:
            grid.fail(key, f"first {pair[0]} is after last {pair[1]}")
        span[key] = (pair[0], pair[1])
    (c0, c1), (r0, r1) = span["columns"], span["rows"]
    cells = frozenset(Hex(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))

    scale = _Rec(file, _table(file, raw, "scale"), "scale", ("hex_miles", "hex_km", "turn_weeks"))
    records.append(("scale", scale.provenance()))
    track = _Rec(file, _table(file, raw, "turn_track"), "turn_track", ("boxes",))
    records.append(("turn_track", track.provenance()))

    terr = _Rec(file, _table(file, raw, "terrain"), "terrain", ("legend", "rows", "given"))
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
    for i, item in enumerate(_tables(file, terr.raw, "given")):
        rec = _Rec(file, item, f"terrain.given[{i}]", ("hexes", "terrain"))
        records.append((f"terrain.given[{i}]", rec.provenance()))
        kind = rec.str_("terrain", TERRAIN)
        for h in rec.hexes("hexes", cells):
            terrain[h] = kind

    cities: dict[Hex, City] = {}
    for i, item in enumerate(_tables(file, raw, "city")):
        rec = _Rec(file, item, f"city[{i}]", ("hex", "name", "neutral"), virtual=("kind",))
        h, prov = rec.hex_("hex", cells), rec.provenance()
        if h in cities:
            rec.fail("hex", f"{h} is already a city")
        cities[h] = City(h, rec.str_("name"), rec.bool_("neutral"), prov)
        records.append((f"city {h}", prov))
    towns: dict[Hex, Town] = {}
    for i, item in enumerate(_tables(file, raw, "town")):
        rec = _Rec(file, item, f"town[{i}]", ("hex", "name", "hexes", "names"))
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
    landings: dict[Hex, Landing] = {}
    for i, item in enumerate(_tables(file, raw, "landing")):
        rec = _Rec(file, item, f"landing[{i}]", ("hex", "name", "arrow"))
        h, prov = rec.hex_("hex", cells), rec.provenance()
        arrow = rec.hexside("arrow", cells, rec.get("arrow"))
        if h not in (arrow.a, arrow.b):
            rec.fail("arrow", f"the arrow's hexside {arrow} is not a side of {h}")
        if h in landings:
            rec.fail("hex", f"{h} is already a landing site")
        landings[h] = Landing(h, rec.str_("name"), arrow, prov)
        records.append((f"landing {h}", prov))

    sides: dict[Hexside, SideFeature] = {}
    for i, item in enumerate(_tables(file, raw, "hexsides")):
        rec = _Rec(file, item, f"hexsides[{i}]", ("name", "kind", "navigable", "sides"))
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

    routes: dict[str, list[Route]] = {"road": [], "railroad": []}
    for key, found in routes.items():
        for i, item in enumerate(_tables(file, raw, key)):
            rec = _Rec(file, item, f"{key}[{i}]", ("name", "hexes"))
            prov, path = rec.provenance(), rec.hexes("hexes", cells)
            if len(path) < 2:
                rec.fail("hexes", "a route joins at least two hexes")
            for j, (a, b) in enumerate(itertools.pairwise(path)):
                if not hex_adjacent(a, b):
                    rec.fail(f"hexes[{j + 1}]", f"{b} does not touch the previous hex {a}")
            found.append(Route(rec.str_("name"), path, prov))
            records.append((f"{key}[{i}] {found[-1].name}", prov))

    zones: dict[str, frozenset[Hex]] = {}
    for key in ("coastal", "naval_gunfire_line"):
        rec = _Rec(file, _table(file, raw, key), key, ("hexes",))
        records.append((key, rec.provenance()))
        zones[key] = frozenset(rec.hexes("hexes", cells))

    return MapData(
        columns=(c0, c1),
        rows=(r0, r1),
        hexes=cells,
        terrain=terrain,
        sides=sides,
        roads=tuple(routes["road"]),
        railroads=tuple(routes["railroad"]),
        cities=cities,
        towns=towns,
        landings=landings,
        coastal=zones["coastal"],
        naval_gunfire_line=zones["naval_gunfire_line"],
        hex_miles=scale.int_("hex_miles", 1),
        hex_km=scale.int_("hex_km", 1),
        turn_weeks=scale.int_("turn_weeks", 1),
        turn_boxes=track.int_("boxes", 1, 99),
        records=tuple(records),
    )


# --- the counters --------------------------------------------------------------------------------


@attrs.frozen
class UnitSpec:
    """A combat unit's counter (SNC-2.2.0.1: the other counters are markers, `MarkerLine`): its
    layout (SNC-2.2.1.1) as fields: designation as printed (`name`, `id`), side, colour scheme
    (arm), type, size and CF, the front full strength and the back (`reduced`) the reduced
    side; the reinforcement GT printed in its corner is the section 13 line that brings it."""

    id: str
    name: str
    side: str
    arm: str
    type: str
    size: str
    ad_hoc: bool  # a bracketed size symbol
    cf: int
    reduced: int | None  # the back of a two-step counter
    division: str | None
    brigade: str | None
    formation: str | None
    provenance: Provenance

    @property
    def steps(self) -> int:
        """Two when the counter is printed on both sides, else one (SNC-2.2.1.11)."""
        return 1 if self.reduced is None else 2

    @property
    def is_static(self) -> bool:
        return self.type == "static"


@attrs.frozen
class Components:
    map_inches: tuple[int, int]
    counters: int
    other_games: int
    turn_markers: int
    records: tuple[tuple[str, Provenance], ...]


def _read_counters(file: str, raw: dict[str, Any]) -> tuple[Components, tuple[UnitSpec, ...]]:
    _top(file, raw, "counters", ("components", "other_games", "turn_marker", "unit"))
    comp = _Rec(
        file, _table(file, raw, "components"), "components",
        ("map_inches", "counters", "counter_inches"),
    )  # fmt: skip
    inches = comp.list_("map_inches")
    if len(inches) != 2 or not all(isinstance(v, int) and v > 0 for v in inches):
        comp.fail("map_inches", f"expected [height, width], got {inches!r}")
    comp.str_("counter_inches")
    other = _Rec(file, _table(file, raw, "other_games"), "other_games", ("counters",))
    turn = _Rec(file, _table(file, raw, "turn_marker"), "turn_marker", ("count",))
    components = Components(
        (inches[0], inches[1]),
        comp.int_("counters", 1),
        other.int_("counters"),
        turn.int_("count"),
        (
            ("components", comp.provenance()),
            ("other_games", other.provenance()),
            ("turn_marker", turn.provenance()),
        ),
    )
    fields = (
        "id", "name", "side", "arm", "type", "size", "ad_hoc", "cf", "reduced", "division",
        "brigade", "formation",
    )  # fmt: skip
    units: list[UnitSpec] = []
    seen: set[str] = set()
    for i, item in enumerate(_tables(file, raw, "unit")):
        rec = _Rec(file, item, f"unit[{i}]", fields)
        uid = rec.str_("id")
        rec.where = f"unit[{i}] ({uid})"
        if uid in seen:
            rec.fail("id", f"duplicate unit id {uid!r}")
        seen.add(uid)
        side, arm = rec.str_("side", SIDES), rec.str_("arm", ARMS)
        if (side == "JP") != (arm == "japanese"):
            rec.fail("arm", "Japanese units, and only they, are 'japanese' (SNC-2.2.1.2)")
        unit = UnitSpec(
            id=uid,
            name=rec.str_("name"),
            side=side,
            arm=arm,
            type=rec.str_("type", UNIT_TYPES),
            size=rec.str_("size", SIZES),
            ad_hoc=rec.bool_("ad_hoc"),
            cf=rec.int_("cf", 0, 99),
            reduced=rec.opt_int("reduced", 0, 99),
            division=rec.opt_str("division"),
            brigade=rec.opt_str("brigade"),
            formation=rec.opt_str("formation"),
            provenance=rec.provenance(),
        )
        units.append(unit)
    return components, tuple(units)


# --- section 13: set-up, reinforcements, markers -------------------------------------------------


@attrs.frozen
class AtStart:
    """One at-start line of section 13: its units and the hex each sets up in."""

    side: str
    hexes: tuple[Hex, ...]
    other_landing_sites: bool  # "All Other Landing Sites & Hex 3511" (SNC-13.5)
    units: tuple[str, ...]
    place: Mapping[str, Hex]
    provenance: Provenance

    @property
    def clause(self) -> str:
        return self.provenance.source


@attrs.frozen
class Restriction:
    """Where a Japanese reinforcement group may land (SNC-8.4.1.1, SNC-8.4.2.1)."""

    name: str
    one_location: bool
    east_of: str | None  # as printed: "32xx"
    inclusive: bool
    advance_hexes: int | None
    provenance: Provenance


@attrs.frozen
class Reinforcement:
    """One reinforcement line of section 13: turn, entry hexes (or any landing hex) and units."""

    side: str
    gt: int
    hexes: tuple[Hex, ...]
    any_landing: bool
    historical: Hex | None
    units: tuple[str, ...]
    restriction: Restriction | None
    provenance: Provenance

    @property
    def clause(self) -> str:
        return self.provenance.source


@attrs.frozen
class MarkerLine:
    side: str
    kind: str
    count: int
    gt: int | None  # None: at start
    provenance: Provenance

    @property
    def clause(self) -> str:
        return self.provenance.source


@attrs.frozen
class Replacements:
    side: str
    steps: int
    from_gt: int | None
    provenance: Provenance


@attrs.frozen
class SetupData:
    at_start: tuple[AtStart, ...]
    reinforcements: tuple[Reinforcement, ...]
    markers: tuple[MarkerLine, ...]
    replacements: tuple[Replacements, ...]


def _read_setup(
    file: str, raw: dict[str, Any], m: MapData, units: Mapping[str, UnitSpec]
) -> SetupData:
    _top(file, raw, "setup", ("at_start", "reinforcement", "marker", "replacements"))
    placed: dict[str, str] = {}

    def unit_list(rec: _Rec, side: str) -> tuple[str, ...]:
        ids = rec.strs("units")
        if not ids:
            rec.fail("units", "a line has at least one unit")
        for j, uid in enumerate(ids):
            if uid not in units:
                rec.fail(f"units[{j}]", f"unknown unit {uid!r} (not in the counters file)")
            if units[uid].side != side:
                rec.fail(f"units[{j}]", f"{uid} is not a {side} unit")
            if uid in placed:
                rec.fail(f"units[{j}]", f"{uid} is already placed by {placed[uid]}")
            placed[uid] = rec.where
        return ids

    at_start: list[AtStart] = []
    fields: tuple[str, ...] = ("side", "hexes", "other_landing_sites", "units", "place")
    for i, item in enumerate(_tables(file, raw, "at_start")):
        rec = _Rec(file, item, f"at_start[{i}]", fields)
        prov = rec.provenance()
        rec.where = f"at_start[{i}] ({prov.source})"
        side = rec.str_("side", SIDES)
        hexes, other = rec.hexes("hexes", m.hexes), rec.bool_("other_landing_sites")
        ids = unit_list(rec, side)
        allowed = set(hexes) | (set(m.landings) if other else set())
        if rec.has("place"):
            table = rec.get("place")
            if not isinstance(table, dict) or set(table) != set(ids):
                rec.fail("place", "must give a hex for each unit of the line, and no other")
            place = {u: rec.hex_(f"place.{u}", m.hexes, table[u]) for u in ids}
            for u, h in place.items():
                if h not in allowed:
                    rec.fail(f"place.{u}", f"{h} is not one of the line's hexes")
        elif len(hexes) == 1 and not other:
            place = dict.fromkeys(ids, hexes[0])
        else:
            rec.fail("place", "a line with several hexes must say where each unit sets up")
        at_start.append(AtStart(side, hexes, other, ids, place, prov))

    reinforcements: list[Reinforcement] = []
    fields = ("side", "gt", "hexes", "any_landing", "historical", "units", "restriction")
    for i, item in enumerate(_tables(file, raw, "reinforcement")):
        rec = _Rec(file, item, f"reinforcement[{i}]", fields)
        prov = rec.provenance()
        rec.where = f"reinforcement[{i}] ({prov.source})"
        side, gt = rec.str_("side", SIDES), rec.int_("gt", 1, 99)
        any_landing = rec.bool_("any_landing")
        if any_landing == rec.has("hexes"):
            rec.fail("hexes", "give either 'hexes' or 'any_landing = true', not both or neither")
        hexes = () if any_landing else rec.hexes("hexes", m.hexes)
        if rec.has("historical") and not any_landing:
            rec.fail("historical", "only an 'any landing hex' line names a historical hex")
        historical = rec.hex_("historical", m.hexes) if rec.has("historical") else None
        restriction = None
        if rec.has("restriction"):
            sub = _Rec(
                file, rec.get("restriction"), f"{rec.where}.restriction",
                ("name", "one_location", "east_of", "inclusive", "advance_hexes"),
            )  # fmt: skip
            restriction = Restriction(
                sub.str_("name"),
                sub.bool_("one_location"),
                sub.opt_str("east_of"),
                sub.bool_("inclusive"),
                sub.opt_int("advance_hexes", 1, 99),
                sub.provenance(),
            )
        ids = unit_list(rec, side)
        reinforcements.append(
            Reinforcement(side, gt, hexes, any_landing, historical, ids, restriction, prov)
        )

    markers: list[MarkerLine] = []
    for i, item in enumerate(_tables(file, raw, "marker")):
        rec = _Rec(file, item, f"marker[{i}]", ("side", "kind", "count", "gt"))
        markers.append(
            MarkerLine(
                rec.str_("side", SIDES),
                rec.str_("kind", MARKER_KINDS),
                rec.int_("count", 1, 99),
                rec.opt_int("gt", 1, 99),
                rec.provenance(),
            )
        )
    replacements: list[Replacements] = []
    for i, item in enumerate(_tables(file, raw, "replacements")):
        rec = _Rec(file, item, f"replacements[{i}]", ("side", "steps", "from_gt"))
        replacements.append(
            Replacements(
                rec.str_("side", SIDES),
                rec.int_("steps", 0, 99),
                rec.opt_int("from_gt", 1, 99),
                rec.provenance(),
            )
        )
    return SetupData(tuple(at_start), tuple(reinforcements), tuple(markers), tuple(replacements))


# --- the CRT -------------------------------------------------------------------------------------


@attrs.frozen(eq=False)
class CRTData:
    columns: tuple[str, ...]
    lowest: str
    highest: str
    die: int
    cells: Mapping[tuple[str, int], tuple[int, int]]  # (odds, face) -> (attacker, defender)
    records: tuple[tuple[str, Provenance], ...]

    def result(self, odds: str, face: int) -> tuple[int, int]:
        """Steps lost (attacker, defender) for a final odds column and a die face."""
        try:
            return self.cells[odds, face]
        except KeyError:
            raise InvalidInput(f"no CRT cell {odds} / {face}", field="odds") from None


def _odds(rec: _Rec, key: str, text: object) -> str:
    parts = text.split(":") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts) or "1" not in parts:
        rec.fail(key, f"expected odds like '3:1' or '1:2', got {text!r}")
    return str(text)


def _read_crt(file: str, raw: dict[str, Any]) -> CRTData:
    _top(file, raw, "crt", ("table", "column"))
    table = _Rec(file, _table(file, raw, "table"), "table", ("columns", "lowest", "highest", "die"))
    columns = tuple(_odds(table, f"columns[{i}]", o) for i, o in enumerate(table.list_("columns")))
    if len(set(columns)) != len(columns) or not columns:
        table.fail("columns", "odds columns must be listed once each")
    for key in ("lowest", "highest"):
        if table.str_(key) not in columns:
            table.fail(key, f"{table.get(key)!r} is not one of the columns")
    die = table.int_("die", 2, 20)
    records = [("table", table.provenance())]
    faces = tuple(f"d{f}" for f in range(1, die + 1))
    cells: dict[tuple[str, int], tuple[int, int]] = {}
    seen: set[str] = set()
    for i, item in enumerate(_tables(file, raw, "column")):
        rec = _Rec(file, item, f"column[{i}]", ("odds", *faces))
        odds = _odds(rec, "odds", rec.get("odds"))
        rec.where = f"column[{i}] ({odds})"
        if odds not in columns or odds in seen:
            rec.fail("odds", f"{odds} is not a column of the table, or is given twice")
        seen.add(odds)
        for f, key in enumerate(faces, start=1):
            text = rec.str_(key)
            parts = text.split("/")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                rec.fail(key, f"expected a result 'attacker/defender' like '1/2', got {text!r}")
            cells[odds, f] = (int(parts[0]), int(parts[1]))
        records.append((f"column {odds}", rec.provenance()))
    missing = [c for c in columns if c not in seen]
    if missing:
        raise DataError(f"{file}: no [[column]] for odds {', '.join(missing)}", field="column")
    return CRTData(columns, table.str_("lowest"), table.str_("highest"), die, cells, tuple(records))


# --- the TEC -------------------------------------------------------------------------------------


@attrs.frozen(eq=False)
class TECData:
    """The Terrain Effects Chart's entries (values only; how they combine is for the rules)."""

    mf_mobile: int
    mf_static: int
    # terrain is natural or manmade (SNC-9.2.1); manmade is cities, towns, roads and
    # railroads (SNC-9.5.0.1)
    enter: Mapping[tuple[str, str], str]  # (side, natural terrain) -> MP
    manmade: Mapping[tuple[str, str], str]  # (side, city/town/road/railroad) -> MP
    cross: Mapping[tuple[str, str], str]  # (side, hexside kind) -> extra MP
    prohibited_terrain: frozenset[str]
    prohibited_sides: frozenset[str]
    neutral_prohibited: bool
    defence: Mapping[tuple[str, str], int]  # (side, feature) -> left shifts
    terrain_cap: int
    attack_across: Mapping[str, Fraction]  # hexside kind -> fraction of attack strength
    no_combat_across: frozenset[str]
    records: tuple[tuple[str, Provenance], ...]

    def mp(self, table: Mapping[tuple[str, str], str], side: str, key: str) -> Fraction | None:
        """An MP entry as a number; None where the chart has none or says 'terrain'."""
        text = table.get((side, key))
        return None if text is None or text == "terrain" else Fraction(text)


def _mp(rec: _Rec, key: str) -> str:
    text = rec.str_(key)
    try:
        value = Fraction(text)
    except (ValueError, ZeroDivisionError):
        if text != "terrain":
            rec.fail(key, f"expected an MP like '1', '2', '1/2' or 'terrain', got {text!r}")
        return text
    if value < 0:
        rec.fail(key, f"MP cannot be negative: {text!r}")
    return text


def _read_tec(file: str, raw: dict[str, Any]) -> TECData:
    keys = (
        "movement_factor", "enter", "manmade", "cross", "prohibited", "defence", "terrain_cap",
        "attack_across", "no_combat_across",
    )  # fmt: skip
    _top(file, raw, "tec", keys)
    records: list[tuple[str, Provenance]] = []

    def single(key: str, fields: tuple[str, ...]) -> _Rec:
        rec = _Rec(file, _table(file, raw, key), key, fields)
        records.append((key, rec.provenance()))
        return rec

    def many(key: str, fields: tuple[str, ...]) -> list[_Rec]:
        out = [_Rec(file, r, f"{key}[{i}]", fields) for i, r in enumerate(_tables(file, raw, key))]
        records.extend((r.where, r.provenance()) for r in out)
        return out

    def sides_of(rec: _Rec) -> tuple[str, ...]:
        return (rec.str_("side", SIDES),) if rec.has("side") else SIDES

    mf = single("movement_factor", ("mobile", "static"))
    enter: dict[tuple[str, str], str] = {}
    for rec in many("enter", ("side", "terrain", "mp")):
        for side in sides_of(rec):
            for name in rec.strs("terrain", LAND):
                enter[side, name] = _mp(rec, "mp")
    manmade: dict[tuple[str, str], str] = {}
    for rec in many("manmade", ("side", "feature", "mp")):
        feature = rec.str_("feature", ("city", "town", "road", "railroad"))
        for side in sides_of(rec):
            manmade[side, feature] = _mp(rec, "mp")
    cross: dict[tuple[str, str], str] = {}
    for rec in many("cross", ("side", "kind", "mp")):
        kind = rec.str_("kind", ("creek", "river"))
        for side in sides_of(rec):
            cross[side, kind] = _mp(rec, "mp")
    banned = single("prohibited", ("terrain", "hexsides", "neutral"))
    defence: dict[tuple[str, str], int] = {}
    for rec in many("defence", ("side", "feature", "left")):
        feature = rec.str_("feature", (*LAND, "town", "city"))
        for side in sides_of(rec):
            defence[side, feature] = rec.int_("left", 0, 9)
    cap = single("terrain_cap", ("left",))
    across: dict[str, Fraction] = {}
    for rec in many("attack_across", ("kind", "fraction")):
        text = rec.str_("fraction")
        try:
            across[rec.str_("kind", ("creek", "river"))] = Fraction(text)
        except (ValueError, ZeroDivisionError):
            rec.fail("fraction", f"expected a fraction like '1/2', got {text!r}")
    no_combat = single("no_combat_across", ("hexsides",))
    return TECData(
        mf_mobile=mf.int_("mobile", 0, 99),
        mf_static=mf.int_("static", 0, 99),
        enter=enter,
        manmade=manmade,
        cross=cross,
        prohibited_terrain=frozenset(banned.strs("terrain", WATER)),
        prohibited_sides=frozenset(banned.strs("hexsides", HEXSIDE_KINDS)),
        neutral_prohibited=banned.bool_("neutral"),
        defence=defence,
        terrain_cap=cap.int_("left", 0, 9),
        attack_across=across,
        no_combat_across=frozenset(no_combat.strs("hexsides", HEXSIDE_KINDS)),
        records=tuple(records),
    )


# --- all of it -----------------------------------------------------------------------------------


@attrs.frozen(eq=False)
class SNCData:
    map: MapData
    components: Components
    units: tuple[UnitSpec, ...]
    setup: SetupData
    crt: CRTData
    tec: TECData
    _by_id: dict[str, UnitSpec] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {u.id: u for u in self.units})

    def unit(self, unit_id: str) -> UnitSpec:
        try:
            return self._by_id[unit_id]
        except KeyError:
            raise InvalidInput(f"unknown unit {unit_id!r}", field="unit") from None

    def records(self) -> list[tuple[str, Provenance]]:
        """Every record of every file with its provenance, named by file and record."""
        out = [(f"map: {n}", p) for n, p in self.map.records]
        out += [(f"counters: {n}", p) for n, p in self.components.records]
        out += [(f"counters: unit {u.id}", u.provenance) for u in self.units]
        s = self.setup
        out += [(f"setup: at_start {a.clause}", a.provenance) for a in s.at_start]
        out += [(f"setup: reinforcement {r.clause}", r.provenance) for r in s.reinforcements]
        out += [
            (f"setup: restriction {r.restriction.name}", r.restriction.provenance)
            for r in s.reinforcements
            if r.restriction is not None
        ]
        out += [(f"setup: marker {m.clause} {m.kind}", m.provenance) for m in s.markers]
        out += [(f"setup: replacements {r.side}", r.provenance) for r in s.replacements]
        out += [(f"crt: {n}", p) for n, p in self.crt.records]
        out += [(f"tec: {n}", p) for n, p in self.tec.records]
        return out

    def provisional(self) -> list[tuple[str, Provenance]]:
        """The records with values the text does not give, and how each was chosen."""
        return [(name, p) for name, p in self.records() if p.is_provisional]


def _part_of(path: Path) -> tuple[str, dict[str, Any]]:
    raw = load_toml(path)
    fmt = raw.get("format")
    for part in PARTS:
        if fmt == f"wargame-kernel/snc1937-{part}":
            return part, raw
    raise DataError(
        f"{path.name}: format must be one of "
        + ", ".join(f"wargame-kernel/snc1937-{p}" for p in PARTS)
        + f"; got {fmt!r}",
        field="format",
    )


def load_data(directory: Path = DATA_DIR, replace: Iterable[Path] = ()) -> SNCData:
    """Read the five data files of `directory` (`map.toml`, `counters.toml`, `setup.toml`,
    `crt.toml`, `tec.toml`), each replaced by the file of the same part in `replace` if given;
    raises DataError naming the file, record and field of the first malformed value."""
    chosen: dict[str, tuple[str, dict[str, Any]]] = {}
    for path in replace:
        part, raw = _part_of(path)
        if part in chosen:
            raise DataError(f"{path.name}: a second replacement for the {part} file", field=part)
        chosen[part] = (path.name, raw)
    for part in PARTS:
        if part not in chosen:
            path = directory / f"{part}.toml"
            chosen[part] = (path.name, load_toml(path))
    try:
        m = _read_map(*chosen["map"])
        components, units = _read_counters(*chosen["counters"])
        setup = _read_setup(*chosen["setup"], m, {u.id: u for u in units})
        return SNCData(
            m, components, units, setup, _read_crt(*chosen["crt"]), _read_tec(*chosen["tec"])
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a shape not foreseen above
        raise DataError(f"malformed data ({type(exc).__name__}: {exc})") from None
