"""Typed Shumshu components read from `data/shumshu.toml`, with provenance kept per record.

Loading validates form only (ids, hex numbers, hexsides between adjacent island hexes, a
6 x 7 table of known results); whether the data agrees with the rules text is `facts.py`'s
job, so a transcription that breaks a stated fact is reported clause by clause.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from kernel.data import Provenance, load_toml, read_provenance
from kernel.errors import DataError, InvalidInput
from kernel.hexes import Hex, Hexside, parse_hex, parse_hexside

DATA_FILE = Path(__file__).parent / "data" / "shumshu.toml"
SIDES = ("RU", "JP")
UNIT_TYPES = ("infantry", "tank", "decoy", "engineer", "at_gun", "regiment")
SETUPS = ("shumshu", "paramushir", "offboard", "formed")
TERRAINS = ("mountain", "swamp")
RESULTS = ("DE", "DR", "DW", "D", "AD", "AE")
MAX_FACTOR = 99


@attrs.frozen
class UnitSpec:
    """A counter: side, type, factors, where it starts, its parent regiment, earliest turn."""

    id: str
    name: str
    side: str
    type: str
    attack: int
    defence: int
    setup: str
    regiment: str | None
    from_turn: int
    provenance: Provenance

    @property
    def is_decoy(self) -> bool:
        return self.type == "decoy"

    @property
    def is_regiment(self) -> bool:
        return self.type == "regiment"

    @property
    def is_tank(self) -> bool:
        return self.type == "tank"

    @property
    def is_battalion(self) -> bool:
        """Every counter but a regiment and a decoy is battalion-sized (II) (SHU-MOVE.2)."""
        return self.type not in ("regiment", "decoy")


@attrs.frozen(eq=False)
class Crt:
    """The combat results table as printed (SHU-CRT.2): rows from the top, two die numbers
    per row (SHU-CRT.9)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    left: tuple[int, ...]
    right: tuple[int, ...]


@attrs.frozen(eq=False)
class ShumshuData:
    island: frozenset[Hex]
    coast: frozenset[Hex]
    hex33: Hex
    one_star: Hex
    two_star: Hex
    terrain: Mapping[Hex, str]
    rivers: frozenset[Hexside]
    roads: tuple[tuple[Hex, ...], ...]
    red: frozenset[Hex]
    black: frozenset[Hex]
    capabilities: int
    airpower: str
    airpower_start: str
    crt: Crt
    units: tuple[UnitSpec, ...]
    records: tuple[tuple[str, Provenance], ...]
    _by_id: dict[str, UnitSpec] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {u.id: u for u in self.units})

    def unit(self, unit_id: str) -> UnitSpec:
        try:
            return self._by_id[unit_id]
        except KeyError:
            raise InvalidInput(f"unknown unit {unit_id!r}", field="unit") from None

    def has_unit(self, unit_id: str) -> bool:
        return unit_id in self._by_id

    def battalions_of(self, regiment: str) -> tuple[str, ...]:
        return tuple(u.id for u in self.units if u.regiment == regiment)


def load_data(path: Path = DATA_FILE) -> ShumshuData:
    """Read and validate the data file; raises DataError naming the bad record."""
    raw = load_toml(path)
    if raw.get("format") != "wargame-kernel/shumshu-data" or raw.get("version") != 1:
        raise DataError(
            f"{path.name}: expected format wargame-kernel/shumshu-data version 1", field="format"
        )
    try:
        return _build(raw)
    except InvalidInput as exc:  # a bad hex number inside the data file
        raise DataError(f"{path.name}: {exc.message}", field=exc.field) from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DataError(f"{path.name}: malformed record ({type(exc).__name__}: {exc})") from None


def _hexes(values: Any, where: str, island: frozenset[Hex] | None = None) -> frozenset[Hex]:
    if not isinstance(values, list):
        raise DataError(f"{where}: expected a list of hex numbers", field=where)
    out = set()
    for text in values:
        h = parse_hex(text, field=where)
        if island is not None and h not in island:
            raise DataError(f"{where}: hex {h} is not on the island", field=where)
        out.add(h)
    return frozenset(out)


def _int(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DataError(f"{where}: expected an integer from {low} to {high}", field=where)
    return value


def _build(raw: dict[str, Any]) -> ShumshuData:
    records: list[tuple[str, Provenance]] = []

    def rec(name: str) -> dict[str, Any]:
        table = raw[name]
        if not isinstance(table, dict):
            raise DataError(f"{name}: expected a table", field=name)
        records.append((name, read_provenance(table, name)))
        return table

    island_raw = rec("island")
    island = _hexes(island_raw["hexes"], "island.hexes")
    coast = _hexes(rec("coast")["hexes"], "coast.hexes", island)
    (hex33,) = _hexes([rec("hex33")["hex"]], "hex33.hex", island)
    victory = rec("victory")
    (one_star,) = _hexes([victory["one_star"]], "victory.one_star", island)
    (two_star,) = _hexes([victory["two_star"]], "victory.two_star", island)

    terrain: dict[Hex, str] = {}
    for i, t in enumerate(raw.get("terrain", [])):
        where = f"terrain[{i}]"
        records.append((where, read_provenance(t, where)))
        if t["kind"] not in TERRAINS:
            raise DataError(f"{where}: unknown terrain {t['kind']!r}", field=where)
        for h in _hexes(t["hexes"], f"{where}.hexes", island):
            terrain[h] = t["kind"]

    rivers: set[Hexside] = set()
    for i, r in enumerate(raw.get("river", [])):
        where = f"river[{i}]"
        records.append((where, read_provenance(r, where)))
        for text in r["hexsides"]:
            side = parse_hexside(text, field=where)
            if side.a not in island or side.b not in island:
                raise DataError(f"{where}: hexside {side} is not between island hexes", field=where)
            rivers.add(side)

    roads: list[tuple[Hex, ...]] = []
    for i, r in enumerate(raw.get("road", [])):
        where = f"road[{i}]"
        records.append((where, read_provenance(r, where)))
        path = tuple(parse_hex(t, field=where) for t in r["hexes"])
        for a, b in itertools.pairwise(path):
            if a not in island or b not in island:
                raise DataError(f"{where}: road leaves the island at {a}/{b}", field=where)
            parse_hexside(f"{a}/{b}", field=where)  # adjacent
        roads.append(path)

    ranges = rec("ranges")
    red = _hexes(ranges["red"], "ranges.red", island)
    black = _hexes(ranges["black"], "ranges.black", island)
    naval = rec("naval")
    capabilities = _int(naval["capabilities"], "naval.capabilities", 0, 9)
    air = rec("airpower")
    crt = _crt(rec("crt"))

    units: list[UnitSpec] = []
    seen: set[str] = set()
    for i, u in enumerate(raw.get("unit", [])):
        where = f"unit[{i}]"
        uid = u["id"]
        if not isinstance(uid, str) or not uid.isascii() or not uid or uid in seen:
            raise DataError(f"{where}: missing, non-ASCII or duplicate id {uid!r}", field=where)
        seen.add(uid)
        if u["side"] not in SIDES or u["type"] not in UNIT_TYPES or u["setup"] not in SETUPS:
            raise DataError(f"{where}: bad side, type or setup", field=where)
        units.append(
            UnitSpec(
                id=uid,
                name=str(u["name"]),
                side=u["side"],
                type=u["type"],
                attack=_int(u["attack"], f"{where}.attack", 0, MAX_FACTOR),
                defence=_int(u["defence"], f"{where}.defence", 0, MAX_FACTOR),
                setup=u["setup"],
                regiment=u.get("regiment"),
                from_turn=_int(u.get("from_turn", 1), f"{where}.from_turn", 1, 99),
                provenance=read_provenance(u, where),
            )
        )
        records.append((f"unit {uid}", units[-1].provenance))
    for u in units:
        if u.regiment is not None and u.regiment not in seen:
            raise DataError(f"unit {u.id}: unknown regiment {u.regiment!r}", field="unit")
    return ShumshuData(
        island=island,
        coast=coast,
        hex33=hex33,
        one_star=one_star,
        two_star=two_star,
        terrain=terrain,
        rivers=frozenset(rivers),
        roads=tuple(roads),
        red=red,
        black=black,
        capabilities=capabilities,
        airpower=str(air["id"]),
        airpower_start=str(air["start"]),
        crt=crt,
        units=tuple(units),
        records=tuple(records),
    )


def _crt(t: dict[str, Any]) -> Crt:
    columns = tuple(str(c) for c in t["columns"])
    rows = tuple(tuple(str(cell) for cell in row) for row in t["rows"])
    left = tuple(_int(f, "crt.left", 1, 6) for f in t["left"])
    right = tuple(_int(f, "crt.right", 1, 6) for f in t["right"])
    if len(rows) != 6 or len(left) != 6 or len(right) != 6:
        raise DataError("crt: six rows, one per die number", field="crt.rows")
    for i, row in enumerate(rows):
        if len(row) != len(columns) or not set(row) <= set(RESULTS):
            raise DataError(f"crt.rows[{i}]: one known result per column", field="crt.rows")
    return Crt(columns, rows, left, right)
