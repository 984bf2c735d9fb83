"""Typed Rattenkrieg components read from `data/rattenkrieg.toml`, with provenance per record.

Loading validates form only (ids, kinds, references between records); whether the data agrees
with the rules text is `facts.py`'s job, so a transcription that breaks a stated fact is
reported clause by clause instead of being refused at load.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from kernel.data import Provenance, load_toml, read_provenance
from kernel.errors import DataError

DATA_FILE = Path(__file__).parent / "data" / "rattenkrieg.toml"
SIDES = ("GE", "SU")
AREA_KINDS = ("normal", "city", "rear")  # grey, red (RKS-2.1.3) and the Rears (RKS-2.1.1)
ROLES = ("tractor_works", "mamayev_kurgan")
UNIT_TYPES = ("panzer", "motorized", "infantry", "guards", "rifle", "tank")


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
    try:
        return _build(raw)
    except (KeyError, TypeError, ValueError) as exc:
        raise DataError(f"{path.name}: malformed record ({type(exc).__name__}: {exc})") from None


def _build(raw: dict[str, Any]) -> RKData:
    records: list[tuple[str, Provenance]] = []
    areas: list[AreaSpec] = []
    for i, rec in enumerate(raw.get("area", [])):
        where = f"area[{i}]"
        prov = read_provenance(rec, where)
        kind, side, role = rec["kind"], rec.get("side"), rec.get("role")
        if kind not in AREA_KINDS:
            raise DataError(f"{where}: kind must be one of {AREA_KINDS}", field=f"{where}.kind")
        if (kind == "rear") != (side in SIDES):
            raise DataError(f"{where}: a Rear, and only a Rear, names its side", field=where)
        if role is not None and role not in ROLES:
            raise DataError(f"{where}: role must be one of {ROLES}", field=f"{where}.role")
        areas.append(AreaSpec(str(rec["id"]), str(rec["name"]), kind, side, role, prov))
        records.append((f"area {rec['id']}", prov))
    ids = [a.id for a in areas]
    if len(set(ids)) != len(ids):
        raise DataError("two areas share an id", field="area")

    def area_ref(value: Any, where: str) -> str:
        if value not in ids:
            raise DataError(f"{where}: unknown area {value!r}", field=where)
        return str(value)

    borders: list[tuple[str, str]] = []
    arrows: list[tuple[str, str]] = []
    for i, rec in enumerate(raw.get("borders", [])):
        where = f"borders[{i}]"
        records.append((f"borders[{i}]", read_provenance(rec, where)))
        for j, pair in enumerate(rec["pairs"]):
            a, b = (area_ref(x, f"{where}.pairs[{j}]") for x in pair)
            if a == b or len(pair) != 2:
                raise DataError(f"{where}.pairs[{j}]: a border joins two areas", field=where)
            (arrows if rec.get("arrows", False) else borders).append((a, b))

    table = raw["steps"]
    records.append(("steps", read_provenance(table, "steps")))
    step_table = tuple((t, int(table[t])) for t in UNIT_TYPES)

    units: list[UnitSpec] = []
    for i, rec in enumerate(raw.get("unit", [])):
        where = f"unit[{i}]"
        prov = read_provenance(rec, where)
        if rec["side"] not in SIDES or rec["type"] not in UNIT_TYPES:
            raise DataError(f"{where}: bad side or type", field=where)
        setup = area_ref(rec["setup"], f"{where}.setup") if "setup" in rec else None
        revives = (
            area_ref(rec["revives_in"], f"{where}.revives_in") if "revives_in" in rec else None
        )
        arrives = int(rec["arrives"]) if "arrives" in rec else None
        if setup is not None and arrives is not None:
            raise DataError(f"{where}: a unit sets up or arrives, not both", field=where)
        if setup is None and arrives is None and rec["type"] != "rifle":
            raise DataError(
                f"{where}: only Rifles are placed by the player (RKS-3.1.1); others need "
                "'setup' or 'arrives'",
                field=where,
            )
        units.append(
            UnitSpec(
                id=str(rec["id"]),
                name=str(rec["name"]),
                side=rec["side"],
                type=rec["type"],
                strength=int(rec["strength"]),
                steps=int(rec.get("steps", dict(step_table)[rec["type"]])),
                setup=setup,
                arrives=arrives,
                revives_in=revives,
                provenance=prov,
            )
        )
        records.append((f"unit {rec['id']}", prov))
    uids = [u.id for u in units]
    if len(set(uids)) != len(uids):
        raise DataError("two units share an id", field="unit")
    return RKData(
        tuple(areas), tuple(borders), tuple(arrows), tuple(units), step_table, tuple(records)
    )
