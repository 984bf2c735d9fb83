"""Typed Nomonhan components read from `data/nomonhan.toml`, with provenance kept per record.

Loading validates form only (ids, hex numbers, adjacency of hexsides); whether the data agrees
with the rules text is `facts.py`'s job, so a transcription that breaks a stated fact is
reported clause by clause instead of being refused at load.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from kernel.data import Provenance, load_toml, read_provenance
from kernel.errors import DataError, InvalidInput
from kernel.hexes import Hex, Hexside, parse_hex, parse_hexside

DATA_FILE = Path(__file__).parent / "data" / "nomonhan.toml"
SIDES = ("JP", "SU")  # khaki counters are Japanese, brown ones Soviet (NOM-2.1)
UNIT_TYPES = ("infantry", "cavalry", "tank", "artillery")
TERRAIN_COST = {"clear": 1, "hill": 2}  # NOM-8.2, NOM-8.3


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
    try:
        return _build(raw)
    except InvalidInput as exc:  # a bad hex number inside the data file
        raise DataError(f"{path.name}: {exc.message}", field=exc.field) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{path.name}: malformed record ({type(exc).__name__}: {exc})") from None


def _build(raw: dict[str, Any]) -> NomonhanData:
    prov: list[tuple[str, Provenance]] = []
    grid = raw["grid"]
    prov.append(("grid", read_provenance(grid, "grid")))
    (c0, c1), (r0, r1) = grid["columns"], grid["rows"]
    hexes = frozenset(Hex(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1))

    terrain_raw = raw["terrain"]
    prov.append(("terrain", read_provenance(terrain_raw, "terrain")))
    terrain: dict[Hex, str] = {}
    records: dict[Hexside | Hex, str] = {}
    for i, rec in enumerate(terrain_raw.get("hex", [])):
        prov.append((f"terrain.hex[{i}]", read_provenance(rec, f"terrain.hex[{i}]")))
        if rec["terrain"] not in TERRAIN_COST:
            raise DataError(f"terrain.hex[{i}]: unknown terrain {rec['terrain']!r}")
        for text in rec["hexes"]:
            cell = _on_map(parse_hex(text), hexes, f"terrain.hex[{i}]")
            terrain[cell] = rec["terrain"]
            records[cell] = f"terrain.hex[{i}]"

    rivers: set[Hexside] = set()
    for i, rec in enumerate(raw.get("river", [])):
        prov.append((f"river[{i}]", read_provenance(rec, f"river[{i}]")))
        for text in rec["hexsides"]:
            side = parse_hexside(text, field=f"river[{i}]")
            _on_map(side.a, hexes, f"river[{i}]")
            _on_map(side.b, hexes, f"river[{i}]")
            rivers.add(side)
            records[side] = f"river[{i}]"

    bridges: dict[Hexside, str] = {}
    for i, rec in enumerate(raw.get("bridge", [])):
        prov.append((f"bridge[{i}]", read_provenance(rec, f"bridge[{i}]")))
        side = parse_hexside(rec["hexside"], field=f"bridge[{i}]")
        if rec["kind"] not in ("fixed", "pontoon"):
            raise DataError(f"bridge[{i}]: kind must be 'fixed' or 'pontoon'")
        bridges[side] = rec["kind"]
        records[side] = f"bridge[{i}]"

    flags: dict[str, list[Hex]] = {s: [] for s in SIDES}
    for i, rec in enumerate(raw.get("flag", [])):
        prov.append((f"flag[{i}]", read_provenance(rec, f"flag[{i}]")))
        if rec["side"] not in SIDES:
            raise DataError(f"flag[{i}]: side must be one of {SIDES}")
        flags[rec["side"]].append(_on_map(parse_hex(rec["hex"]), hexes, f"flag[{i}]"))

    units = []
    seen: set[str] = set()
    for i, rec in enumerate(raw.get("unit", [])):
        where = f"unit[{i}]"
        if rec["id"] in seen:
            raise DataError(f"{where}: duplicate unit id {rec['id']!r}")
        seen.add(rec["id"])
        if rec["side"] not in SIDES or rec["type"] not in UNIT_TYPES:
            raise DataError(f"{where}: bad side or type", field=where)
        setup = _on_map(parse_hex(rec["setup"]), hexes, where) if "setup" in rec else None
        units.append(
            UnitSpec(
                id=rec["id"],
                name=rec["name"],
                label=rec.get("label", rec["id"]),
                side=rec["side"],
                type=rec["type"],
                printed=tuple(int(v) for v in rec["printed"]),
                reduced=tuple(int(v) for v in rec["reduced"]) if "reduced" in rec else None,
                ma=int(rec["ma"]),
                setup=setup,
                gt=int(rec["gt"]) if "gt" in rec else None,
                provenance=read_provenance(rec, where),
            )
        )
    markers = tuple(
        (rec["id"], read_provenance(rec, f"marker[{i}]"))
        for i, rec in enumerate(raw.get("marker", []))
    )
    track = raw["turn_track"]
    end_roll = {int(k): frozenset(int(f) for f in v) for k, v in track["end_roll"].items()}
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
        turn_boxes=int(track["boxes"]),
        end_roll=end_roll,
        turn_track=read_provenance(track, "turn_track"),
    )


def _on_map(h: Hex, hexes: frozenset[Hex], where: str) -> Hex:
    if h not in hexes:
        raise DataError(f"{where}: hex {h} is not on the map grid", field=where)
    return h
