"""Every fact the rules text states about the Shumshu components, checked against the data.

The combat results table is given by the text: `TEXT_CRT` is its transcription, and the data's
table must equal it cell by cell, with both die readings (SHU-CRT.2, SHU-CRT.9). A
transcription of the printed map and counters is valid when every fact below holds; the
provisional values shipped here are chosen so that they do (`wargame data check shumshu`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

from kernel.data import Fact, FactResult, Provenance, check_facts
from kernel.hexes import Hex, hex_neighbors
from specs.shumshu.data.loader import ShumshuData, load_data
from specs.shumshu.rules.reader import ShumshuRules

TEXT_COLUMNS = ("1:3", "1:2", "1:1", "3:2", "2:1", "3:1", "4:1")
TEXT_LEFT = (6, 5, 4, 3, 2, 1)
TEXT_RIGHT = (1, 2, 3, 4, 5, 6)
TEXT_CRT = (
    ("D", "DR", "DR", "DR", "DR", "DE", "DE"),
    ("D", "DW", "DW", "DW", "DR", "DR", "DE"),
    ("AD", "D", "DW", "DW", "DW", "DR", "DR"),
    ("AE", "AD", "D", "D", "DW", "DW", "DR"),
    ("AE", "AE", "AD", "AD", "D", "DW", "DW"),
    ("AE", "AE", "AE", "AD", "AD", "D", "DW"),
)
"""The table as printed in the text, rows from the top ("6 or 1" ... "1 6")."""
ORDER = ("DE", "DR", "DW", "D", "AD", "AE")  # best to worst for the attacker (SHU-CRT.9)


def facts(data: ShumshuData) -> list[Fact]:
    """The text's facts, by component: the table, the set-up, the map, the units."""
    return [*_crt_facts(data), *_setup_facts(data), *_map_facts(data), *_unit_facts(data)]


def _need(ok: bool, problem: str) -> str | None:
    return None if ok else problem


def _crt_facts(data: ShumshuData) -> list[Fact]:
    """The combat results table equals the printed one, with both die readings (SHU-CRT.1,
    SHU-CRT.2, SHU-CRT.9, SHU-COMBAT.7)."""

    def cell(r: int, c: int) -> str:
        rows = data.crt.rows
        return rows[r][c] if r < len(rows) and c < len(rows[r]) else "-"

    def crt_cells() -> str | None:
        wrong = [
            f"row {r + 1} ({TEXT_LEFT[r]}/{TEXT_RIGHT[r]}) column {TEXT_COLUMNS[c]}: "
            f"{cell(r, c)} is printed {TEXT_CRT[r][c]}"
            for r in range(len(TEXT_CRT))
            for c in range(len(TEXT_COLUMNS))
            if cell(r, c) != TEXT_CRT[r][c]
        ]
        extra = len(data.crt.rows) != 6 or any(len(row) != 7 for row in data.crt.rows)
        return _need(not wrong and not extra, "; ".join(wrong) or "the table is not 6 x 7")

    def crt_columns() -> str | None:
        return _need(
            data.crt.columns == TEXT_COLUMNS, f"columns {data.crt.columns}, printed {TEXT_COLUMNS}"
        )

    def die_readings() -> str | None:
        return _need(
            data.crt.left == TEXT_LEFT and data.crt.right == TEXT_RIGHT,
            f"row labels {data.crt.left}/{data.crt.right}, printed {TEXT_LEFT}/{TEXT_RIGHT}",
        )

    def one_die() -> str | None:
        ok = sorted(data.crt.left) == [1, 2, 3, 4, 5, 6] == sorted(data.crt.right)
        return _need(ok, "each die number 1-6 labels exactly one row in each reading")

    def monotone() -> str | None:
        bad = [
            data.crt.columns[c]
            for c in range(len(data.crt.columns))
            if [ORDER.index(row[c]) for row in data.crt.rows]
            != sorted(ORDER.index(row[c]) for row in data.crt.rows)
        ]
        return _need(not bad, f"columns not ordered from attacker-best to worst: {bad}")

    return [
        Fact("SHU-CRT.2", "the CRT equals the printed table cell by cell", crt_cells),
        Fact("SHU-COMBAT.7", "the odds columns are 1:3, 1:2, 1:1, 3:2, 2:1, 3:1, 4:1", crt_columns),
        Fact("SHU-CRT.9", "rows read 6-1 on the left and 1-6 on the right", die_readings),
        Fact("SHU-CRT.1", "one d6: each face labels one row per reading", one_die),
        Fact("SHU-CRT.9", "every column runs from attacker-best to attacker-worst", monotone),
    ]


def _setup_facts(data: ShumshuData) -> list[Fact]:
    """Where every unit starts, and the landing capabilities (SHU-SETUP.1 to SHU-SETUP.3,
    SHU-LAND.3)."""

    def setup_shumshu() -> str | None:
        kinds = Counter(u.type for u in data.units if u.side == "JP" and u.setup == "shumshu")
        want = Counter({"infantry": 3, "tank": 1, "decoy": 2})
        return _need(
            kinds == want, f"Japanese set-up on Shumshu is {dict(kinds)}, not {dict(want)}"
        )

    def setup_paramushir() -> str | None:
        bad = [
            u.id for u in data.units if u.side == "JP" and u.setup not in ("shumshu", "paramushir")
        ]
        return _need(
            not bad and data.airpower_start == "paramushir",
            f"every other Japanese unit and the Ki-43 start on Paramushir: {bad}",
        )

    def setup_russians() -> str | None:
        bad = [
            u.id
            for u in data.units
            if u.side == "RU" and u.setup != ("formed" if u.is_regiment else "offboard")
        ]
        return _need(not bad, f"Russian units not off-board (or formed regiments): {bad}")

    def capabilities() -> str | None:
        return _need(data.capabilities == 3, f"{data.capabilities} landing capabilities, not 3")

    return [
        Fact(
            "SHU-SETUP.1", "3 infantry bns, 1 tank bn and 2 decoys set up on Shumshu", setup_shumshu
        ),
        Fact(
            "SHU-SETUP.2",
            "all other Japanese units and the Ki-43 start on Paramushir",
            setup_paramushir,
        ),
        Fact("SHU-SETUP.3", "all Russian units start off-board", setup_russians),
        Fact("SHU-LAND.3", "three naval landing capabilities", capabilities),
    ]


def _map_facts(data: ShumshuData) -> list[Fact]:
    """The map: hex 33, the star hexes, the coast and the artillery ranges, the terrain, the
    rivers and roads (SHU-REINF.2, SHU-WIN.1, SHU-LAND.1, SHU-LAND.5, SHU-LAND.6,
    SHU-COMBAT.8, SHU-COMBAT.11, SHU-COMBAT.12, SHU-MOVE.2)."""
    island = data.island

    def hex33() -> str | None:
        return _need(data.hex33 in island, "hex 33 is a hex of the map")

    def stars() -> str | None:
        return _need(
            data.one_star in island and data.two_star in island and data.one_star != data.two_star,
            "a 1-star and a different 2-star hex on the map",
        )

    def coastal() -> str | None:
        bad = [str(h) for h in data.coast if all(n in island for n in hex_neighbors(h))]
        return _need(not bad, f"coastal hexes with no side on the sea: {bad}")

    def landable() -> str | None:
        ok = [h for h in data.coast if h not in data.red]
        return _need(bool(ok), "some coastal hex lies outside the red range (else no landing)")

    def kamchatka_landing() -> str | None:
        ok = [h for h in data.coast if h in data.black and h not in data.red]
        return _need(bool(ok), "a coastal hex inside the black range and outside the red one")

    def kamchatka_north() -> str | None:
        def mean_row(hexes: frozenset[Hex]) -> float:
            rows = [h.row for h in hexes]
            return sum(rows) / len(rows) if rows else 0.0

        ok = bool(data.black) and bool(data.red) and mean_row(data.black) < mean_row(data.red)
        return _need(ok, "the black (Kamchatka) range lies north of the red (Paramushir) range")

    def kinds(kind: str) -> Callable[[], str | None]:
        return lambda: _need(
            kind in data.terrain.values(), f"no {kind} hex on the map, though the text has some"
        )

    def rivers() -> str | None:
        return _need(bool(data.rivers), "no river hexside, though the text has rivers")

    def roads() -> str | None:
        return _need(bool(data.roads), "no road, though the text has roads")

    return [
        Fact("SHU-REINF.2", "hex 33 is a hex of the map", hex33),
        Fact("SHU-WIN.1", "the map has a 1-star and a 2-star hex", stars),
        Fact("SHU-LAND.1", "coastal hexes border the sea", coastal),
        Fact("SHU-LAND.5", "a landing is possible outside the red range", landable),
        Fact(
            "SHU-LAND.6", "the black range covers a coastal hex open to landings", kamchatka_landing
        ),
        Fact("SHU-LAND.6", "Kamchatka lies to the north", kamchatka_north),
        Fact("SHU-COMBAT.8", "there are mountain hexes", kinds("mountain")),
        Fact("SHU-COMBAT.12", "there are swamp hexes", kinds("swamp")),
        Fact("SHU-COMBAT.11", "there are river hexsides", rivers),
        Fact("SHU-MOVE.2", "there are roads", roads),
    ]


def _unit_facts(data: ShumshuData) -> list[Fact]:
    """The units the text names: regiments of three battalions, engineers, AT guns, tanks
    (SHU-RGT.1, SHU-COMBAT.11, SHU-TANK.1, SHU-TANK.2)."""

    def regiments() -> str | None:
        rgts = [u for u in data.units if u.is_regiment]
        bad = [r.id for r in rgts if len(data.battalions_of(r.id)) != 3]
        bad += [
            u.id
            for u in data.units
            if u.regiment is not None and (u.type != "infantry" or u.side != "RU")
        ]
        return _need(
            bool(rgts) and not bad, f"regiments of three Russian infantry battalions: {bad}"
        )

    def named(kind: str, side: str) -> Callable[[], str | None]:
        return lambda: _need(
            any(u.type == kind and u.side == side for u in data.units),
            f"no {side} {kind} unit, though the text names one",
        )

    return [
        Fact("SHU-RGT.1", "Russian regiments have three infantry battalions", regiments),
        Fact("SHU-COMBAT.11", "the Russians have engineers", named("engineer", "RU")),
        Fact("SHU-TANK.2", "the Russians have AT guns", named("at_gun", "RU")),
        Fact("SHU-TANK.1", "the Japanese have tank units", named("tank", "JP")),
    ]


class ShumshuDataCheck:
    """The data-check role (`kernel.roles.DataCheck`), built from the rules: the rules' data,
    or another data file's."""

    def __init__(self, rules: ShumshuRules) -> None:
        self.rules = rules

    def _data(self, data_file: Path | None) -> ShumshuData:
        return self.rules.data if data_file is None else load_data(data_file)

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        """Check the text's facts against the data (this game's, or another file's)."""
        return check_facts(facts(self._data(data_file)))

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        """Every data record with values the text does not give, and how they were chosen."""
        return [(n, p) for n, p in self._data(data_file).records if p.is_provisional]
