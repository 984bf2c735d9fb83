"""Typed Rattenkrieg components read from `data/rattenkrieg.toml`, with provenance per record.

Loading validates form only (record types and bounds, ids, kinds, references between
records); whether the data agrees with the rules text is `facts.py`'s job, so a transcription
that breaks a stated fact is reported clause by clause instead of being refused at load. The
file's records are decoded strictly first (the record types below): an unknown field, a value
of the wrong type or out of bounds is refused with its path, before any of it is used.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final, Literal, get_args

import attrs

from kernel.data import Note, Provenance, Sourced, decode_records, load_toml
from kernel.errors import DataError
from kernel.wire import Id, Meta, Record

DATA_FILE = Path(__file__).parent / "rattenkrieg.toml"
Side = Literal["GE", "SU"]
AreaKind = Literal["normal", "city", "rear"]  # grey, red (RKS-2.1.3) and the Rears (RKS-2.1.1)
Role = Literal["tractor_works", "mamayev_kurgan"]
UnitType = Literal["panzer", "motorized", "infantry", "guards", "rifle", "tank"]
SIDES: tuple[str, ...] = get_args(Side)
AREA_KINDS: tuple[str, ...] = get_args(AreaKind)
ROLES: tuple[str, ...] = get_args(Role)
UNIT_TYPES: tuple[str, ...] = get_args(UnitType)
MAX_AREAS: Final = 200
MAX_UNITS: Final = 500
"""Bounds on a map and a counter sheet read (the game has 14 Areas and 34 counters), so the
checks run on any file in bounded time."""

Small = Annotated[int, Meta(ge=-1000, le=1000)]
"""A printed number (strength, steps, turn): bounded loosely, so that a wrong value is reported
by the fact that states it rather than refused at load."""


# --- the data file's records, decoded strictly before use ------------------------------------


class AreaRecord(Sourced, frozen=True, kw_only=True):
    id: Id
    name: Note
    kind: AreaKind
    side: Side | None = None
    role: Role | None = None


class BordersRecord(Sourced, frozen=True, kw_only=True):
    pairs: tuple[tuple[Id, Id], ...]
    arrows: bool = False


class StepsRecord(Sourced, frozen=True, kw_only=True):
    """Steps at full strength per unit type (RKS-3.3.1)."""

    panzer: Small
    motorized: Small
    infantry: Small
    guards: Small
    rifle: Small
    tank: Small


class UnitRecord(Sourced, frozen=True, kw_only=True):
    id: Id
    name: Note
    side: Side
    type: UnitType
    strength: Small
    steps: Small | None = None
    setup: Id | None = None
    arrives: Small | None = None
    revives_in: Id | None = None


class DataFileRecord(Record, frozen=True, kw_only=True):
    format: Literal["wargame-kernel/rattenkrieg-data"]
    version: Literal[1]
    area: Annotated[tuple[AreaRecord, ...], Meta(max_length=MAX_AREAS)] = ()
    borders: tuple[BordersRecord, ...] = ()
    steps: StepsRecord
    unit: Annotated[tuple[UnitRecord, ...], Meta(max_length=MAX_UNITS)] = ()


# --- the components as the rules use them ----------------------------------------------------


@attrs.frozen
class AreaSpec:
    id: str
    name: str
    kind: str
    side: str | None  # the owner of a Rear
    role: str | None
    provenance: Provenance


@attrs.frozen
class UnitSpec:
    """A counter: name and strength as printed (RKS-2.3.1), type, steps at full strength
    (RKS-3.3.1), where it starts or when it arrives, and where it returns (RKS-6.3.1)."""

    id: str
    name: str
    side: str
    type: str
    strength: int
    steps: int
    setup: str | None
    arrives: int | None
    revives_in: str | None
    provenance: Provenance


@attrs.frozen(eq=False)
class RKData:
    areas: tuple[AreaSpec, ...]
    borders: tuple[tuple[str, str], ...]
    arrows: tuple[tuple[str, str], ...]
    units: tuple[UnitSpec, ...]
    step_table: tuple[tuple[str, int], ...]
    records: tuple[tuple[str, Provenance], ...]  # every record's provenance, for data checks


def load_data(path: Path = DATA_FILE) -> RKData:
    """Read and validate the data file; raises DataError naming the bad record."""
    raw = load_toml(path)
    if raw.get("format") != "wargame-kernel/rattenkrieg-data" or raw.get("version") != 1:
        raise DataError(
            f"{path.name}: expected format wargame-kernel/rattenkrieg-data version 1",
            field="format",
        )
    record = decode_records(raw, DataFileRecord, path.name)
    try:
        return _build(record)
    except DataError as exc:
        raise DataError(f"{path.name}: {exc.message}", field=exc.field) from None


def _build(raw: DataFileRecord) -> RKData:
    records: list[tuple[str, Provenance]] = []
    areas: list[AreaSpec] = []
    for i, area in enumerate(raw.area):
        where = f"area[{i}]"
        prov = area.provenance(where)
        if (area.kind == "rear") != (area.side is not None):
            raise DataError(f"{where}: a Rear, and only a Rear, names its side", field=where)
        areas.append(AreaSpec(area.id, area.name, area.kind, area.side, area.role, prov))
        records.append((f"area {area.id}", prov))
    ids = [a.id for a in areas]
    if len(set(ids)) != len(ids):
        raise DataError("two areas share an id", field="area")
    known = set(ids)

    def area_ref(value: str, where: str) -> str:
        if value not in known:
            raise DataError(f"{where}: unknown area {value!r}", field=where)
        return value

    borders: list[tuple[str, str]] = []
    arrows: list[tuple[str, str]] = []
    for i, rec in enumerate(raw.borders):
        where = f"borders[{i}]"
        records.append((where, rec.provenance(where)))
        for j, pair in enumerate(rec.pairs):
            a, b = (area_ref(x, f"{where}.pairs[{j}]") for x in pair)
            if a == b:
                raise DataError(
                    f"{where}.pairs[{j}]: a border joins two areas", field=f"{where}.pairs[{j}]"
                )
            (arrows if rec.arrows else borders).append((a, b))

    table = raw.steps
    records.append(("steps", table.provenance("steps")))
    step_table = tuple((t, int(getattr(table, t))) for t in UNIT_TYPES)

    units: list[UnitSpec] = []
    for i, unit in enumerate(raw.unit):
        where = f"unit[{i}]"
        prov = unit.provenance(where)
        setup = None if unit.setup is None else area_ref(unit.setup, f"{where}.setup")
        revives = (
            None if unit.revives_in is None else area_ref(unit.revives_in, f"{where}.revives_in")
        )
        if setup is not None and unit.arrives is not None:
            raise DataError(f"{where}: a unit sets up or arrives, not both", field=where)
        if setup is None and unit.arrives is None and unit.type != "rifle":
            raise DataError(
                f"{where}: only Rifles are placed by the player (RKS-3.1.1); others need "
                "'setup' or 'arrives'",
                field=where,
            )
        units.append(
            UnitSpec(
                id=unit.id,
                name=unit.name,
                side=unit.side,
                type=unit.type,
                strength=unit.strength,
                steps=dict(step_table)[unit.type] if unit.steps is None else unit.steps,
                setup=setup,
                arrives=unit.arrives,
                revives_in=revives,
                provenance=prov,
            )
        )
        records.append((f"unit {unit.id}", prov))
    uids = [u.id for u in units]
    if len(set(uids)) != len(uids):
        raise DataError("two units share an id", field="unit")
    return RKData(
        tuple(areas), tuple(borders), tuple(arrows), tuple(units), step_table, tuple(records)
    )
