"""Every fact the rules texts state about the Nomonhan components, checked against the data.

A transcription of the printed map and counters is valid when all of these hold; the
provisional values shipped here are chosen so that they do (`wargame data check nomonhan`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kernel.data import Fact, FactResult, Provenance, check_facts
from kernel.hexes import Hex, hex_adjacent, hex_distance, parse_hex, parse_hexside
from specs.nomonhan.data.loader import NomonhanData, load_data
from specs.nomonhan.rules.board import FIXED, OPEN, PONTOON, RIVER, Board
from specs.nomonhan.rules.rules_object import NomonhanRules


def _h(text: str) -> Hex:
    return parse_hex(text)


def facts(data: NomonhanData) -> list[Fact]:
    """The texts' facts, by component: hexes and counters, the set-up and the turn track, the
    map with the rules' examples on it."""
    return [*_component_facts(data), *_setup_facts(data), *_map_facts(data)]


def _need(ok: bool, problem: str) -> str | None:
    return None if ok else problem


def _component_facts(data: NomonhanData) -> list[Fact]:
    """The hex numbers and the counters (NOM-2.2, NOM-2.4, NOM-2.5)."""
    m = data.map

    def four_digit() -> str | None:
        bad = [h for h in m.hexes if not (0 <= h.col <= 99 and 0 <= h.row <= 99)]
        return _need(not bad, f"hexes without a four-digit number: {bad}")

    def tank_numbers() -> str | None:
        bad = [u.id for u in data.units if u.is_tank != (len(u.printed) == 2)]
        return _need(not bad, f"tanks carry two combat numbers, other units one: {bad}")

    def counters() -> str | None:
        return _need(data.counter_count == 11, f"{data.counter_count} counters, not 11")

    def steps() -> str | None:
        art = [u for u in data.units if u.type == "artillery"]
        bad = [
            u.id for u in data.units if u.reduced is not None and len(u.reduced) != len(u.printed)
        ]
        return _need(not bad and len(art) == 1, f"reverse sides must match the front: {bad}")

    return [
        Fact("NOM-2.4", "every playing space has a four-digit hex number", four_digit),
        Fact(
            "NOM-2.2", "tanks carry an attack and a defence number, other units one", tank_numbers
        ),
        Fact("NOM-2.5", "there are eleven counters in all", counters),
        Fact("NOM-2.5", "reverse sides match the front side's numbers", steps),
    ]


def _setup_facts(data: NomonhanData) -> list[Fact]:
    """Who sets up, who arrives on which turn, and the turn track (NOM-3.1, NOM-3.2, NOM-3.4,
    NOM-4.2, NOM-5.4, NOM-8.6)."""

    def setup_units(side: str, labels: set[str], clause: str) -> Callable[[], str | None]:
        def check() -> str | None:
            found = {u.label for u in data.units if u.side == side and u.setup is not None}
            missing = labels - found
            return _need(not missing, f"{clause}: set-up units missing: {sorted(missing)}")

        return check

    def reinforcements() -> str | None:
        bad = [u.id for u in data.units if (u.setup is None) == (u.gt is None)]
        return _need(not bad, f"each unit needs exactly one of a set-up hex or a GT number: {bad}")

    def distinct_setup() -> str | None:
        hexes = [u.setup for u in data.units if u.setup is not None]
        return _need(len(hexes) == len(set(hexes)), "two units share a set-up hex")

    def jp_tanks() -> str | None:
        tanks = {u.label for u in data.units if u.side == "JP" and u.is_tank and u.gt is None}
        return _need(tanks == {"3", "4"}, f"Japanese at-start tanks must be 3 and 4, are {tanks}")

    def track() -> str | None:
        ok = (
            data.turn_boxes == 8
            and set(data.end_roll) >= {6, 7}
            and all(faces and faces <= set(range(1, 7)) for faces in data.end_roll.values())
        )
        return _need(ok, "eight turn boxes, with die faces (1-6) printed in boxes 6 and 7")

    return [
        Fact(
            "NOM-3.1",
            "Kobayashi, 3 and 4 have set-up hexes",
            setup_units("JP", {"小林", "3", "4"}, "NOM-3.1"),
        ),
        Fact(
            "NOM-3.2",
            "36/149, 9, 6/15 and the Artillery have set-up hexes",
            setup_units("SU", {"36/149", "9", "6/15", "Artillery"}, "NOM-3.2"),
        ),
        Fact("NOM-3.4", "every unit either sets up or arrives on a GT turn", reinforcements),
        Fact("NOM-8.6", "no two units set up in one hex", distinct_setup),
        Fact("NOM-4.2", "the Japanese tank units at start are 3 and 4", jp_tanks),
        Fact("NOM-5.4", "the turn track has die faces in boxes 6 and 7 and eight boxes", track),
    ]


def _map_facts(data: NomonhanData) -> list[Fact]:
    """The map: the hills, the pontoon bridge, the hexes and hexsides the rules' examples
    name (NOM-7.5, NOM-9.21, NOM-OPT.4), and the flag hexes (NOM-8.3, NOM-8.5, NOM-8.8)."""
    board = Board(data)
    m = data.map

    def kind(a: str, b: str) -> str:
        return board.hexside_kind(_h(a), _h(b), demolished=False)

    def hills() -> str | None:
        wrong = [f"0{n}" for n in range(101, 107) if m.terrain.get(_h(f"0{n}")) != "hill"]
        return _need(not wrong, f"not hill hexes: {wrong}")

    def adjacent(a: str, b: str) -> Callable[[], str | None]:
        return lambda: _need(
            hex_adjacent(_h(a), _h(b)) and _h(a) in m.hexes and _h(b) in m.hexes,
            f"{a} and {b} must be adjacent hexes of the map",
        )

    def pontoon() -> str | None:
        side = parse_hexside("0207/0308")
        return _need(
            m.pontoon == side and side in m.rivers and kind("0207", "0308") == PONTOON,
            "the pontoon bridge must span the river hexside 0207/0308",
        )

    def example_0302() -> str | None:
        return _need(
            kind("0302", "0202") == RIVER and kind("0302", "0201") in (OPEN, FIXED),
            f"0302/0202 must be a river without a bridge (is {kind('0302', '0202')}) and "
            f"0302/0201 must carry ZOC (is {kind('0302', '0201')})",
        )

    def example_0303() -> str | None:
        return _need(kind("0303", "0403") in (OPEN, FIXED), "0303 must be able to attack 0403")

    def artillery_range() -> str | None:
        art = [u for u in data.units if u.type == "artillery"]
        if len(art) != 1 or art[0].setup is None:
            return "exactly one Soviet Artillery with a set-up hex"
        d = {x: hex_distance(art[0].setup, _h(x)) for x in ("0303", "0403")}
        return _need(
            max(d.values()) <= 3,
            f"0303 and 0403 must be within 3 of the Artillery's "
            f"set-up hex {art[0].setup} under every range reading: {d}",
        )

    def flags() -> str | None:
        sides = [s for s, hs in m.flags.items() if not hs]
        return _need(not sides, f"sides without a flag hex: {sides}")

    return [
        Fact("NOM-8.3", "hexes 0101-0106 are hills", hills),
        Fact("NOM-8.5", "the pontoon bridge spans 0207/0308", pontoon),
        Fact("NOM-OPT.4", "0207 and 0308 are adjacent", adjacent("0207", "0308")),
        Fact("NOM-7.5", "0302 is adjacent to 0201", adjacent("0302", "0201")),
        Fact("NOM-7.5", "0302 is adjacent to 0202", adjacent("0302", "0202")),
        Fact("NOM-7.5", "ZOC from 0302 reaches 0201 but not 0202 (river)", example_0302),
        Fact("NOM-9.21", "a unit in 0303 can attack 0403", example_0303),
        Fact(
            "NOM-9.21",
            "an attack from 0303 into 0403 is within the Artillery's range",
            artillery_range,
        ),
        Fact("NOM-8.8", "each side has at least one flag hex", flags),
    ]


class NomonhanDataCheck:
    """The data check role (`kernel.roles.DataCheck`) of the rules it is built from."""

    def __init__(self, rules: NomonhanRules) -> None:
        self.rules = rules

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        """Check the text's facts against the data (this game's, or another file's)."""
        data = self.rules.data if data_file is None else load_data(data_file)
        return check_facts(facts(data))

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        """Every data record (of this game's data, or another file's) with values the texts do
        not give, and how they were chosen."""
        data = self.rules.data if data_file is None else load_data(data_file)
        records = list(data.map.provenance) + [(f"unit {u.id}", u.provenance) for u in data.units]
        records += [(f"marker {m}", p) for m, p in data.markers]
        records.append(("turn_track", data.turn_track))
        return [(name, p) for name, p in records if p.is_provisional]
