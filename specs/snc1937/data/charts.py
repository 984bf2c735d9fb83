"""The SNC charts: the Combat Results Table (`crt.toml`) and the Terrain Effects Chart
(`tec.toml`), their values as the printed charts give them; how they combine is for the rules.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import attrs

from kernel.data import Provenance
from kernel.errors import DataError, InvalidInput
from specs.snc1937.data.map_data import HEXSIDE_KINDS, LAND, WATER
from specs.snc1937.data.records import SIDES, Record, check_format, table_of, tables_of


@attrs.frozen(eq=False)
class CRTData:
    columns: tuple[str, ...]
    lowest: str
    highest: str
    die: int
    cells: Mapping[tuple[str, int], tuple[int, int]]  # (odds, face) -> (attacker, defender)
    records: tuple[tuple[str, Provenance], ...]
    errata: Mapping[tuple[str, int], tuple[int, int]] = attrs.field(factory=dict)
    """The cells the errata box changes (SNC-0.0.4), with their corrected results; `cells`
    holds the table as printed, so both readings of `crt_5to1_six` read the data."""

    def result(self, odds: str, face: int) -> tuple[int, int]:
        """Steps lost (attacker, defender) for a final odds column and a die face."""
        try:
            return self.cells[odds, face]
        except KeyError:
            raise InvalidInput(f"no CRT cell {odds} / {face}", field="odds") from None


def _odds(rec: Record, key: str, text: object) -> str:
    parts = text.split(":") if isinstance(text, str) else []
    if len(parts) != 2 or not all(p.isdigit() and int(p) > 0 for p in parts) or "1" not in parts:
        rec.fail(key, f"expected odds like '3:1' or '1:2', got {text!r}")
    return str(text)


def read_crt(file: str, raw: dict[str, Any]) -> CRTData:
    """The CRT part: its odds columns and each column's result for every die face."""
    check_format(file, raw, "crt", ("table", "column", "errata"))
    table = Record(
        file, table_of(file, raw, "table"), "table", ("columns", "lowest", "highest", "die")
    )
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
    for i, item in enumerate(tables_of(file, raw, "column")):
        rec = Record(file, item, f"column[{i}]", ("odds", *faces))
        odds = _odds(rec, "odds", rec.get("odds"))
        rec.where = f"column[{i}] ({odds})"
        if odds not in columns or odds in seen:
            rec.fail("odds", f"{odds} is not a column of the table, or is given twice")
        seen.add(odds)
        for f, key in enumerate(faces, start=1):
            cells[odds, f] = _result(rec, key)
        records.append((f"column {odds}", rec.provenance()))
    missing = [c for c in columns if c not in seen]
    if missing:
        raise DataError(f"{file}: no [[column]] for odds {', '.join(missing)}", field="column")
    errata: dict[tuple[str, int], tuple[int, int]] = {}
    for i, item in enumerate(tables_of(file, raw, "errata")):
        rec = Record(file, item, f"errata[{i}]", ("odds", "face", "result"))
        odds, face = _odds(rec, "odds", rec.get("odds")), rec.int_("face", 1, die)
        if odds not in columns or (odds, face) in errata:
            rec.fail("odds", f"{odds} / {face} is not a cell of the table, or is given twice")
        errata[odds, face] = _result(rec, "result")
        records.append((f"errata {odds} / {face}", rec.provenance()))
    return CRTData(
        columns, table.str_("lowest"), table.str_("highest"), die, cells, tuple(records), errata
    )


def _result(rec: Record, key: str) -> tuple[int, int]:
    """A CRT result 'attacker/defender' (steps lost, SNC-10.5.1.1)."""
    text = rec.str_(key)
    parts = text.split("/")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        rec.fail(key, f"expected a result 'attacker/defender' like '1/2', got {text!r}")
    return int(parts[0]), int(parts[1])


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
        return None if text is None or text == "terrain" else _fraction(text)


@functools.cache  # a movement step asks it: the chart's few texts parsed once
def _fraction(text: str) -> Fraction:
    return Fraction(text)


def _mp(rec: Record, key: str) -> str:
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


def read_tec(file: str, raw: dict[str, Any]) -> TECData:
    """The TEC part: movement factors, MP costs, what is prohibited, and combat shifts."""
    keys = (
        "movement_factor", "enter", "manmade", "cross", "prohibited", "defence", "terrain_cap",
        "attack_across", "no_combat_across",
    )  # fmt: skip
    check_format(file, raw, "tec", keys)
    records: list[tuple[str, Provenance]] = []

    def single(key: str, fields: tuple[str, ...]) -> Record:
        rec = Record(file, table_of(file, raw, key), key, fields)
        records.append((key, rec.provenance()))
        return rec

    def many(key: str, fields: tuple[str, ...]) -> list[Record]:
        out = [
            Record(file, r, f"{key}[{i}]", fields) for i, r in enumerate(tables_of(file, raw, key))
        ]
        records.extend((r.where, r.provenance()) for r in out)
        return out

    def sides_of(rec: Record) -> tuple[str, ...]:
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
