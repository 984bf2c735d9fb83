"""Typed Nomonhan components read from `data/nomonhan.toml`, with provenance kept per record.

Loading validates form only (record types and bounds, ids, hex numbers, adjacency of
hexsides, a map of at most MAX_HEXES hexes); whether the data agrees with the rules text is
`formal/facts.py`'s job, so a transcription that breaks a stated fact is reported clause by
clause instead of being refused at load. The file's records are decoded strictly first (the record
types below): an unknown field, a value of the wrong type or out of bounds is refused with its
path, before any of it is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Final, Literal, get_args

import attrs

from kernel.data import Note, Provenance, Sourced, decode_records, load_toml
from kernel.errors import DataError, InvalidInput
from kernel.hexes import Hex, Hexside, parse_hex, parse_hexside
from kernel.wire import HexId, Id, Meta, Record

DATA_FILE = Path(__file__).parent / "nomonhan.toml"
Side = Literal["JP", "SU"]
UnitType = Literal["infantry", "cavalry", "tank", "artillery"]
Terrain = Literal["clear", "hill"]
SIDES: tuple[str, ...] = get_args(Side)  # khaki counters are Japanese, brown Soviet (NOM-2.1)
UNIT_TYPES: tuple[str, ...] = get_args(UnitType)
TERRAIN_COST = {"clear": 1, "hill": 2}  # NOM-8.2, NOM-8.3
MAX_HEXES: Final = 10_000
"""The largest map read: one hex for every four-digit number (NOM-2.4). Whether the numbers
are four-digit is a fact the check reports (`formal/facts.py`); a bigger grid is refused at
load."""


# --- the data file's records, decoded strictly before use ------------------------------------

Coord = Annotated[int, Meta(ge=-9999, le=9999)]
HexsideId = Annotated[str, Meta(pattern=r"^[0-9]{4}/[0-9]{4}(?!\n)$")]
"""Two ASCII hex numbers joined by a slash ("0207/0308")."""
Small = Annotated[int, Meta(ge=-1000, le=1000)]
"""A printed number (combat number, MA, turn): bounded loosely, so that a wrong value is
reported by the fact that states it rather than refused at load."""


class GridRecord(Sourced, frozen=True, kw_only=True):
    columns: tuple[Coord, Coord]
    rows: tuple[Coord, Coord]


class TerrainHexRecord(Sourced, frozen=True, kw_only=True):
    hexes: tuple[HexId, ...]
    terrain: Terrain


class TerrainRecord(Sourced, frozen=True, kw_only=True):
    default: Terrain = "clear"
    hex: tuple[TerrainHexRecord, ...] = ()


class RiverRecord(Sourced, frozen=True, kw_only=True):
    hexsides: tuple[HexsideId, ...]


class BridgeRecord(Sourced, frozen=True, kw_only=True):
    hexside: HexsideId
    kind: Literal["fixed", "pontoon"]


class FlagRecord(Sourced, frozen=True, kw_only=True):
    side: Side
    hex: HexId


class UnitRecord(Sourced, frozen=True, kw_only=True):
    id: Id
    name: Note
    label: Note | None = None
    side: Side
    type: UnitType
    printed: tuple[Small, ...]
    reduced: tuple[Small, ...] | None = None
    ma: Small
    setup: HexId | None = None
    gt: Small | None = None


class MarkerRecord(Sourced, frozen=True, kw_only=True):
    id: Id
    name: Note


class TurnTrackRecord(Sourced, frozen=True, kw_only=True):
    boxes: Small
    end_roll: dict[Annotated[str, Meta(pattern=r"^[0-9]{1,3}$")], tuple[Small, ...]]


class DataFileRecord(Record, frozen=True, kw_only=True):
    format: Literal["wargame-kernel/nomonhan-data"]
    version: Literal[1]
    grid: GridRecord
    terrain: TerrainRecord
    river: tuple[RiverRecord, ...] = ()
    bridge: tuple[BridgeRecord, ...] = ()
    flag: tuple[FlagRecord, ...] = ()
    turn_track: TurnTrackRecord
    unit: tuple[UnitRecord, ...] = ()
    marker: tuple[MarkerRecord, ...] = ()


# --- the components as the rules use them ----------------------------------------------------


@attrs.frozen
class UnitSpec:
    """A counter as printed: combat number(s) left to right, MA, reverse side, arrival."""

    id: str
    name: str
    label: str
    side: str
    type: str
    printed: tuple[int, ...]
    reduced: tuple[int, ...] | None
    ma: int
    setup: Hex | None
    gt: int | None
    provenance: Provenance

    @property
    def is_tank(self) -> bool:
        """A counter with a tank silhouette (NOM-4.5, NOM-9.10)."""
        return self.type == "tank"

    @property
    def full_steps(self) -> int:
        """Two when the counter has a reverse side, else one (NOM-2.5, NOM-9.24)."""
        return 2 if self.reduced is not None else 1


@attrs.frozen(eq=False)
class MapData:
    hexes: frozenset[Hex]
    terrain: Mapping[Hex, str]
    rivers: frozenset[Hexside]
    bridges: Mapping[Hexside, str]  # hexside -> "fixed" | "pontoon"
    flags: Mapping[str, tuple[Hex, ...]]
    provenance: tuple[tuple[str, Provenance], ...]
    records: Mapping[Hexside | Hex, str] = attrs.Factory(dict)  # feature -> its data record

    def is_provisional(self, feature: Hexside | Hex, default: str = "") -> bool:
        """Whether the record a map feature comes from (or `default`) is provisional."""
        record = self.records.get(feature, default)
        return any(name == record and p.provisional for name, p in self.provenance)

    def cost(self, h: Hex) -> int:
        return TERRAIN_COST[self.terrain.get(h, "clear")]

    @property
    def pontoon(self) -> Hexside | None:
        for side, kind in self.bridges.items():
            if kind == "pontoon":
                return side
        return None


@attrs.frozen(eq=False)
class NomonhanData:
    map: MapData
    units: tuple[UnitSpec, ...]
    markers: tuple[tuple[str, Provenance], ...]
    turn_boxes: int
    end_roll: Mapping[int, frozenset[int]]
    turn_track: Provenance
    _by_id: dict[str, UnitSpec] = attrs.field(init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "_by_id", {u.id: u for u in self.units})

    def unit(self, unit_id: str) -> UnitSpec:
        try:
            return self._by_id[unit_id]
        except KeyError:
            raise InvalidInput(f"unknown unit {unit_id!r}", field="unit") from None

    @property
    def artillery(self) -> UnitSpec | None:
        """The Soviet Artillery counter (NOM-4.1, NOM-9.17), if the data has one."""
        return next((u for u in self.units if u.type == "artillery"), None)

    @property
    def counter_count(self) -> int:
        return len(self.units) + len(self.markers)


def load_data(path: Path = DATA_FILE) -> NomonhanData:
    """Read and validate the data file; raises DataError naming the bad record."""
    raw = load_toml(path)
    if raw.get("format") != "wargame-kernel/nomonhan-data" or raw.get("version") != 1:
        raise DataError(
            f"{path.name}: expected format wargame-kernel/nomonhan-data version 1", field="format"
        )
    record = decode_records(raw, DataFileRecord, path.name)
    try:
        return _build(record)
    except InvalidInput as exc:  # a bad hex number inside the data file
        raise DataError(f"{path.name}: {exc.message}", field=exc.field) from None
    except DataError as exc:
        raise DataError(f"{path.name}: {exc.message}", field=exc.field) from None


def _grid(grid: GridRecord) -> frozenset[Hex]:
    (c0, c1), (r0, r1) = grid.columns, grid.rows
    size = max(0, c1 - c0 + 1) * max(0, r1 - r0 + 1)
    if size > MAX_HEXES:
        raise DataError(
            f"grid: {size} hexes; a map has at most {MAX_HEXES} (one per four-digit hex "
            "number, NOM-2.4)",
            field="grid",
        )
    return frozenset(Hex(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))


def _build(raw: DataFileRecord) -> NomonhanData:
    prov: list[tuple[str, Provenance]] = []
    prov.append(("grid", raw.grid.provenance("grid")))
    hexes = _grid(raw.grid)

    prov.append(("terrain", raw.terrain.provenance("terrain")))
    terrain: dict[Hex, str] = dict.fromkeys(hexes, raw.terrain.default)
    records: dict[Hexside | Hex, str] = {}
    for i, rec in enumerate(raw.terrain.hex):
        where = f"terrain.hex[{i}]"
        prov.append((where, rec.provenance(where)))
        for j, text in enumerate(rec.hexes):
            cell = _on_map(parse_hex(text, field=f"{where}.hexes[{j}]"), hexes, where)
            terrain[cell] = rec.terrain
            records[cell] = where

    rivers: set[Hexside] = set()
    for i, river in enumerate(raw.river):
        where = f"river[{i}]"
        prov.append((where, river.provenance(where)))
        for j, text in enumerate(river.hexsides):
            side = parse_hexside(text, field=f"{where}.hexsides[{j}]")
            _on_map(side.a, hexes, where)
            _on_map(side.b, hexes, where)
            rivers.add(side)
            records[side] = where

    bridges: dict[Hexside, str] = {}
    for i, bridge in enumerate(raw.bridge):
        where = f"bridge[{i}]"
        prov.append((where, bridge.provenance(where)))
        side = parse_hexside(bridge.hexside, field=f"{where}.hexside")
        bridges[side] = bridge.kind
        records[side] = where

    flags: dict[str, list[Hex]] = {s: [] for s in SIDES}
    for i, flag in enumerate(raw.flag):
        where = f"flag[{i}]"
        prov.append((where, flag.provenance(where)))
        flags[flag.side].append(_on_map(parse_hex(flag.hex, field=f"{where}.hex"), hexes, where))

    units = []
    seen: set[str] = set()
    for i, unit in enumerate(raw.unit):
        where = f"unit[{i}]"
        if unit.id in seen:
            raise DataError(f"{where}: duplicate unit id {unit.id!r}", field=f"{where}.id")
        seen.add(unit.id)
        setup = None
        if unit.setup is not None:
            setup = _on_map(parse_hex(unit.setup, field=f"{where}.setup"), hexes, where)
        units.append(
            UnitSpec(
                id=unit.id,
                name=unit.name,
                label=unit.id if unit.label is None else unit.label,
                side=unit.side,
                type=unit.type,
                printed=unit.printed,
                reduced=unit.reduced,
                ma=unit.ma,
                setup=setup,
                gt=unit.gt,
                provenance=unit.provenance(where),
            )
        )
    markers = tuple((m.id, m.provenance(f"marker[{i}]")) for i, m in enumerate(raw.marker))
    track = raw.turn_track
    end_roll = {int(k): frozenset(v) for k, v in track.end_roll.items()}
    return NomonhanData(
        map=MapData(
            hexes,
            terrain,
            frozenset(rivers),
            bridges,
            {s: tuple(v) for s, v in flags.items()},
            tuple(prov),
            records,
        ),
        units=tuple(units),
        markers=markers,
        turn_boxes=track.boxes,
        end_roll=end_roll,
        turn_track=track.provenance("turn_track"),
    )


def _on_map(h: Hex, hexes: frozenset[Hex], where: str) -> Hex:
    if h not in hexes:
        raise DataError(f"{where}: hex {h} is not on the map grid", field=where)
    return h
