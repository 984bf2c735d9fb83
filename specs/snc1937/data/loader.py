"""Typed SNC components read from the TOML files in `data/`, with provenance kept per record.

The components come in five files, each replaceable on its own: `map`, `counters`, `setup`
(section 13), `crt` and `tec`. A file's `format` line says which part it is, so a transcription
of the printed map or counter sheet is dropped in by passing its path in `replace`; no code
changes. Loading is strict and checks form only: every field is known and of the right type,
hexes are on the grid, routes and hexsides join adjacent hexes, ids resolve. Whether the data
agrees with the rules text is `formal/facts.py`'s job, so a transcription that breaks a stated
fact is reported clause by clause instead of being refused here. Every failure is a DataError
naming the file, the record and the field.

This module is the entry point (`load_data`, `SNCData`); each part has its reader: `map_data.py`,
`counters.py`, `setup_data.py` (section 13), `charts.py` (the CRT and the TEC), all reading
through `records.py`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from kernel.data import Provenance, load_toml
from kernel.errors import DataError, InvalidInput
from specs.snc1937.data.charts import CRTData, TECData, read_crt, read_tec
from specs.snc1937.data.counters import Components, UnitSpec, read_counters
from specs.snc1937.data.map_data import MapData, read_map
from specs.snc1937.data.setup_data import SetupData, read_setup

DATA_DIR = Path(__file__).parent
PARTS = ("map", "counters", "setup", "crt", "tec")


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
        m = read_map(*chosen["map"])
        components, units = read_counters(*chosen["counters"])
        setup = read_setup(*chosen["setup"], m, {u.id: u for u in units})
        return SNCData(
            m, components, units, setup, read_crt(*chosen["crt"]), read_tec(*chosen["tec"])
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:  # a shape not foreseen above
        raise DataError(f"malformed data ({type(exc).__name__}: {exc})") from None
