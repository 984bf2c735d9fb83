"""Typed Shumshu components read from `data/shumshu.toml`, with provenance kept per record.

Loading validates form only (record types and bounds, ids, hex numbers, hexsides between
adjacent island hexes, a 6 x 7 table of known results, a map of at most MAX_HEXES hexes);
whether the data agrees with the rules text is `facts.py`'s job, so a transcription that breaks
a stated fact is reported clause by clause. The file's records are decoded strictly first (the
record types below, `kernel.data.decode_records`): an unknown or missing field, a value of the
wrong type or out of bounds is refused with its path (`unit[11].attack`), before any of it is
used.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Final, Literal, get_args

import attrs

from kernel.data import Name, Note, Provenance, Sourced, decode_records, load_toml
from kernel.errors import DataError, InvalidInput
from kernel.hexes import Hex, Hexside, parse_hex, parse_hexside
from kernel.wire import HexId, Id, Meta, Record

DATA_FILE = Path(__file__).parent / "shumshu.toml"
Side = Literal["RU", "JP"]
UnitType = Literal["infantry", "tank", "decoy", "engineer", "at_gun", "regiment"]
Setup = Literal["shumshu", "paramushir", "offboard", "formed"]
Terrain = Literal["mountain", "swamp"]
Result = Literal["DE", "DR", "DW", "D", "AD", "AE"]
SIDES: tuple[str, ...] = get_args(Side)
UNIT_TYPES: tuple[str, ...] = get_args(UnitType)
SETUPS: tuple[str, ...] = get_args(Setup)
TERRAINS: tuple[str, ...] = get_args(Terrain)
RESULTS: tuple[str, ...] = get_args(Result)
MAX_FACTOR: Final = 99
MAX_HEXES: Final = 10_000
"""The most hexes a list of hexes may name: one for every four-digit hex number."""
MAX_HEXSIDES: Final = 3 * MAX_HEXES
"""The most hexsides a river may list: every side of a map of MAX_HEXES hexes."""
MAX_RECORDS: Final = 1000
"""The most terrain, river or road records read (the game's own: 2, 1 and 1)."""
MAX_UNITS: Final = 500
"""The most counters read (the game has 21), so the checks run on any file in bounded time."""
MAX_CRT: Final = 100
"""The most columns, rows or row labels of the table read (it is 7 x 6); the exact shape is
checked at load with a message naming the table."""


# --- the data file's records, decoded strictly before use ------------------------------------

HexList = Annotated[tuple[HexId, ...], Meta(max_length=MAX_HEXES)]
HexsideId = Annotated[str, Meta(pattern=r"^[0-9]{4}/[0-9]{4}(?!\n)$")]
"""Two ASCII hex numbers joined by a slash ("0503/0603")."""
Factor = Annotated[int, Meta(ge=0, le=MAX_FACTOR)]
Turn = Annotated[int, Meta(ge=1, le=99)]
Die = Annotated[int, Meta(ge=1, le=6)]


class IslandRecord(Sourced, frozen=True, kw_only=True):
    name: Note = ""
    hexes: HexList


class HexesRecord(Sourced, frozen=True, kw_only=True):
    hexes: HexList


class Hex33Record(Sourced, frozen=True, kw_only=True):
    hex: HexId


class VictoryRecord(Sourced, frozen=True, kw_only=True):
    one_star: HexId
    two_star: HexId


class TerrainRecord(Sourced, frozen=True, kw_only=True):
    kind: Terrain
    hexes: HexList


class RiverRecord(Sourced, frozen=True, kw_only=True):
    hexsides: Annotated[tuple[HexsideId, ...], Meta(max_length=MAX_HEXSIDES)]


class RangesRecord(Sourced, frozen=True, kw_only=True):
    red: HexList
    black: HexList


class NavalRecord(Sourced, frozen=True, kw_only=True):
    capabilities: Annotated[int, Meta(ge=0, le=9)]


class AirpowerRecord(Sourced, frozen=True, kw_only=True):
    id: Id
    name: Note = ""
    start: Name


class CrtRecord(Sourced, frozen=True, kw_only=True):
    columns: Annotated[tuple[Name, ...], Meta(max_length=MAX_CRT)]
    left: Annotated[tuple[Die, ...], Meta(max_length=MAX_CRT)]
    right: Annotated[tuple[Die, ...], Meta(max_length=MAX_CRT)]
    rows: Annotated[
        tuple[Annotated[tuple[Result, ...], Meta(max_length=MAX_CRT)], ...],
        Meta(max_length=MAX_CRT),
    ]


class UnitRecord(Sourced, frozen=True, kw_only=True):
    id: Id
    name: Note
    side: Side
    type: UnitType
    attack: Factor
    defence: Factor
    setup: Setup
    regiment: Id | None = None
    from_turn: Turn = 1


class DataFileRecord(Record, frozen=True, kw_only=True):
    format: Literal["wargame-kernel/shumshu-data"]
    version: Literal[1]
    island: IslandRecord
    coast: HexesRecord
    hex33: Hex33Record
    victory: VictoryRecord
    terrain: Annotated[tuple[TerrainRecord, ...], Meta(max_length=MAX_RECORDS)] = ()
    river: Annotated[tuple[RiverRecord, ...], Meta(max_length=MAX_RECORDS)] = ()
    road: Annotated[tuple[HexesRecord, ...], Meta(max_length=MAX_RECORDS)] = ()
    ranges: RangesRecord
    naval: NavalRecord
    airpower: AirpowerRecord
    crt: CrtRecord
    unit: Annotated[tuple[UnitRecord, ...], Meta(max_length=MAX_UNITS)] = ()


# --- the components as the rules use them ----------------------------------------------------


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
    record = decode_records(raw, DataFileRecord, path.name)
    try:
        return _build(record)
    except InvalidInput as exc:  # hexes that are not adjacent, inside the data file
        raise DataError(f"{path.name}: {exc.message}", field=exc.field) from None
    except DataError as exc:
        raise DataError(f"{path.name}: {exc.message}", field=exc.field) from None


def _hexes(values: tuple[str, ...], where: str, island: frozenset[Hex] | None) -> frozenset[Hex]:
    """The hexes named, each (when `island` is given) a hex of the island."""
    out = set()
    for j, text in enumerate(values):
        out.add(_hex(text, f"{where}[{j}]", island))
    return frozenset(out)


def _hex(text: str, where: str, island: frozenset[Hex] | None) -> Hex:
    h = parse_hex(text, field=where)
    if island is not None and h not in island:
        raise DataError(f"{where}: hex {h} is not on the island", field=where)
    return h


def _build(raw: DataFileRecord) -> ShumshuData:
    records: list[tuple[str, Provenance]] = []

    def rec(name: str, record: Sourced) -> None:
        records.append((name, record.provenance(name)))

    rec("island", raw.island)
    island = _hexes(raw.island.hexes, "island.hexes", None)
    rec("coast", raw.coast)
    coast = _hexes(raw.coast.hexes, "coast.hexes", island)
    rec("hex33", raw.hex33)
    hex33 = _hex(raw.hex33.hex, "hex33.hex", island)
    rec("victory", raw.victory)
    one_star = _hex(raw.victory.one_star, "victory.one_star", island)
    two_star = _hex(raw.victory.two_star, "victory.two_star", island)

    terrain: dict[Hex, str] = {}
    for i, t in enumerate(raw.terrain):
        where = f"terrain[{i}]"
        rec(where, t)
        for h in _hexes(t.hexes, f"{where}.hexes", island):
            terrain[h] = t.kind

    rivers: set[Hexside] = set()
    for i, r in enumerate(raw.river):
        where = f"river[{i}]"
        rec(where, r)
        for j, text in enumerate(r.hexsides):
            at = f"{where}.hexsides[{j}]"
            side = parse_hexside(text, field=at)
            if side.a not in island or side.b not in island:
                raise DataError(f"{at}: hexside {side} is not between island hexes", field=at)
            rivers.add(side)

    roads: list[tuple[Hex, ...]] = []
    for i, road in enumerate(raw.road):
        where = f"road[{i}]"
        rec(where, road)
        path = tuple(_hex(t, f"{where}.hexes[{j}]", island) for j, t in enumerate(road.hexes))
        for j, (a, b) in enumerate(itertools.pairwise(path)):
            at = f"{where}.hexes[{j + 1}]"
            parse_hexside(f"{a}/{b}", field=at)  # adjacent
        roads.append(path)

    rec("ranges", raw.ranges)
    red = _hexes(raw.ranges.red, "ranges.red", island)
    black = _hexes(raw.ranges.black, "ranges.black", island)
    rec("naval", raw.naval)
    rec("airpower", raw.airpower)
    rec("crt", raw.crt)
    crt = _crt(raw.crt)

    units: list[UnitSpec] = []
    seen: set[str] = set()
    for i, u in enumerate(raw.unit):
        where = f"unit[{i}]"
        if u.id in seen:
            raise DataError(f"{where}: duplicate unit id {u.id!r}", field=f"{where}.id")
        seen.add(u.id)
        units.append(
            UnitSpec(
                id=u.id,
                name=u.name,
                side=u.side,
                type=u.type,
                attack=u.attack,
                defence=u.defence,
                setup=u.setup,
                regiment=u.regiment,
                from_turn=u.from_turn,
                provenance=u.provenance(where),
            )
        )
        records.append((f"unit {u.id}", units[-1].provenance))
    for i, u in enumerate(raw.unit):
        if u.regiment is not None and u.regiment not in seen:
            where = f"unit[{i}].regiment"
            raise DataError(f"{where}: unknown regiment {u.regiment!r}", field=where)
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
        capabilities=raw.naval.capabilities,
        airpower=raw.airpower.id,
        airpower_start=raw.airpower.start,
        crt=crt,
        units=tuple(units),
        records=tuple(records),
    )


def _crt(t: CrtRecord) -> Crt:
    for name, values in (("rows", t.rows), ("left", t.left), ("right", t.right)):
        if len(values) != 6:
            raise DataError(f"crt.{name}: six rows, one per die number", field=f"crt.{name}")
    for i, row in enumerate(t.rows):
        if len(row) != len(t.columns):
            where = f"crt.rows[{i}]"
            raise DataError(f"{where}: one known result per column", field=where)
    return Crt(t.columns, t.rows, t.left, t.right)
