"""The SNC set-up file (`setup.toml`, section 13): the at-start lines with each unit's hex,
the reinforcement lines by GT with their landing restrictions, the fire support markers and
the replacements. Every unit named is in the counters file, on the right side, in one line only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from kernel.data import Provenance
from kernel.hexes import Hex
from specs.snc1937.data.counters import UnitSpec
from specs.snc1937.data.map_data import MapData
from specs.snc1937.data.records import SIDES, Record, check_format, tables_of

MARKER_KINDS = ("artillery", "air", "naval_gunfire", "amphibious")  # SNC-11.0.1


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


def read_setup(
    file: str, raw: dict[str, Any], m: MapData, units: Mapping[str, UnitSpec]
) -> SetupData:
    """The set-up part, its hexes on the map `m` and its units among `units`."""
    check_format(file, raw, "setup", ("at_start", "reinforcement", "marker", "replacements"))
    placed: dict[str, str] = {}  # each unit named so far, and the line naming it
    at_start = [
        _at_start(Record(file, item, f"at_start[{i}]", _AT_START), m, units, placed)
        for i, item in enumerate(tables_of(file, raw, "at_start"))
    ]
    reinforcements = [
        _reinforcement(Record(file, item, f"reinforcement[{i}]", _REINFORCEMENT), m, units, placed)
        for i, item in enumerate(tables_of(file, raw, "reinforcement"))
    ]
    markers = [
        _marker_line(Record(file, item, f"marker[{i}]", ("side", "kind", "count", "gt")))
        for i, item in enumerate(tables_of(file, raw, "marker"))
    ]
    replacements = [
        _replacements(Record(file, item, f"replacements[{i}]", ("side", "steps", "from_gt")))
        for i, item in enumerate(tables_of(file, raw, "replacements"))
    ]
    return SetupData(tuple(at_start), tuple(reinforcements), tuple(markers), tuple(replacements))


_AT_START = ("side", "hexes", "other_landing_sites", "units", "place")
_REINFORCEMENT = ("side", "gt", "hexes", "any_landing", "historical", "units", "restriction")
_RESTRICTION = ("name", "one_location", "east_of", "inclusive", "advance_hexes")


def _unit_list(
    rec: Record, side: str, units: Mapping[str, UnitSpec], placed: dict[str, str]
) -> tuple[str, ...]:
    """The line's units: known, of its side, and named by no line before (`placed`)."""
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


def _at_start(
    rec: Record, m: MapData, units: Mapping[str, UnitSpec], placed: dict[str, str]
) -> AtStart:
    """An at-start line, with the hex each unit sets up in: given unit by unit (`place`), or
    the line's one hex."""
    prov = rec.provenance()
    rec.where = f"{rec.where} ({prov.source})"
    side = rec.str_("side", SIDES)
    hexes, other = rec.hexes("hexes", m.hexes), rec.bool_("other_landing_sites")
    ids = _unit_list(rec, side, units, placed)
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
    return AtStart(side, hexes, other, ids, place, prov)


def _reinforcement(
    rec: Record, m: MapData, units: Mapping[str, UnitSpec], placed: dict[str, str]
) -> Reinforcement:
    """A reinforcement line: its GT, its hexes or any landing hex (with the historical one),
    its landing restriction and its units."""
    prov = rec.provenance()
    rec.where = f"{rec.where} ({prov.source})"
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
        sub = Record(rec.file, rec.get("restriction"), f"{rec.where}.restriction", _RESTRICTION)
        restriction = Restriction(
            sub.str_("name"),
            sub.bool_("one_location"),
            sub.opt_str("east_of"),
            sub.bool_("inclusive"),
            sub.opt_int("advance_hexes", 1, 99),
            sub.provenance(),
        )
    ids = _unit_list(rec, side, units, placed)
    return Reinforcement(side, gt, hexes, any_landing, historical, ids, restriction, prov)


def _marker_line(rec: Record) -> MarkerLine:
    return MarkerLine(
        rec.str_("side", SIDES),
        rec.str_("kind", MARKER_KINDS),
        rec.int_("count", 1, 99),
        rec.opt_int("gt", 1, 99),
        rec.provenance(),
    )


def _replacements(rec: Record) -> Replacements:
    return Replacements(
        rec.str_("side", SIDES),
        rec.int_("steps", 0, 99),
        rec.opt_int("from_gt", 1, 99),
        rec.provenance(),
    )
