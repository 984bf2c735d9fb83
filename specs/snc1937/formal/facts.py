"""Every fact the SNC rules text states about its components, checked against the data.

The section 13 tables are transcribed here literally (`SECTION_13`, `MARKERS_13`), line by line
with their clause IDs, and the data files are held to them: every unit, hex and turn. The hex
numbers the text names, the CRT cells it gives and the TEC entries its rules state are checked
the same way. A transcription of the printed map and counters is valid when all of these hold;
the provisional values shipped in `data/` are chosen so that they do.

Facts taken from the examples of play carry the clause of the example where the clause index
has one (SNC-7.1.6, SNC-9.6.9); section 12 has no clauses, so its facts are labelled "§12 GT n".
The examples are not always right (AMB-SNC-5); their facts are kept because the provisional data
should reproduce the play the text narrates, and a real transcription that breaks one shows where
the example and the components disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from kernel.data import Fact, FactResult, Provenance, check_facts
from kernel.hexes import Hex, hex_adjacent, parse_hex
from specs.snc1937.data.counters import UnitSpec
from specs.snc1937.data.loader import DATA_DIR, SNCData, load_data
from specs.snc1937.data.map_data import LAND, WATER
from specs.snc1937.data.setup_data import AtStart, Reinforcement
from specs.snc1937.rules.board import Board

if TYPE_CHECKING:
    from specs.snc1937.rules.play import SNCRules

CH, JP = "CH", "JP"
Check = Callable[[], "str | None"]


@attrs.frozen
class Line:
    """One printed line of section 13. `printed` is the Units column as printed; `units` the
    designations it names, one per counter (the names in counters.toml); `divisions` the
    "N Division (four units)" entries, whose counters the text does not name."""

    clause: str
    side: str
    gt: int | None  # None: at start
    hexes: tuple[str, ...]
    printed: str
    units: tuple[str, ...] = ()
    divisions: tuple[tuple[str, int], ...] = ()
    # (brigade, its division): "9th Brigade of 5th Division"
    brigades: tuple[tuple[str, str], ...] = ()
    total: int | None = None  # "(14 units)"
    other_landing_sites: bool = False
    any_landing: bool = False
    historical: str | None = None

    @property
    def count(self) -> int:
        return (
            self.total
            if self.total is not None
            else len(self.units) + sum(n for _, n in self.divisions)
        )


def _divs(*numbers: str) -> tuple[str, ...]:
    return tuple(f"{n} Division" for n in numbers)


def _bdes(*numbers: str) -> tuple[str, ...]:
    return tuple(f"{n} Brigade" for n in numbers)


FIVE_LANDINGS = ("3308", "3408", "3509", "3510", "3610")

# fmt: off
SECTION_13: tuple[Line, ...] = (
    # CHINESE AT START UNITS
    Line("SNC-13.1", CH, None, ("3510",), "Wusong Garrison", ("Wusong Garrison",)),
    Line("SNC-13.2", CH, None, ("3509",), "Baoshan Garrison", ("Baoshan Garrison",)),
    Line("SNC-13.3", CH, None, ("2410",), "Suzhou Garrison", ("Suzhou Garrison",)),
    Line("SNC-13.4", CH, None, ("0202",), "Nanking Garrison", ("Nanking Garrison",)),
    # hexes printed "All Other Landing Sites & Hex 3511"
    Line("SNC-13.5", CH, None, ("3511",), "Garrison units, A through J & N through P",
         tuple(f"Garrison {c}" for c in "ABCDEFGHIJNOP"), other_landing_sites=True),
    # hexes printed "1824 (Hangzhou), 1102 & 0116"
    Line("SNC-13.6", CH, None, ("1824", "1102", "0116"), "Garrison units K through M",
         tuple(f"Garrison {c}" for c in "KLM")),
    Line("SNC-13.7", CH, None, ("3710",), "45th Brigade", _bdes("45th")),
    Line("SNC-13.8", CH, None, ("3712",), "55th Division", _divs("55th")),
    Line("SNC-13.9", CH, None, ("3711",), "56th Division", _divs("56th")),
    Line("SNC-13.10", CH, None, ("3612",), "57th Division", _divs("57th")),
    Line("SNC-13.11", CH, None, ("3511",), "87th & 98th Divisions", _divs("87th", "98th")),
    Line("SNC-13.12", CH, None, ("3411",), "36th & 88th Divisions", _divs("36th", "88th")),
    # TP is the Tax Police Division (SNC-2.2.1.3); the parse of the line is AMB-SNC-10's
    Line("SNC-13.13", CH, None, ("3412",), "Tax Police & PPC Division, 20th Brigade",
         ("Tax Police Division", "PPC Division", "20th Brigade")),
    # CHINESE REINFORCEMENTS
    Line("SNC-13.15", CH, 2, ("2503",), "11th & 14th Divisions", _divs("11th", "14th")),
    Line("SNC-13.16", CH, 2, ("2410",),
         "3rd, 6th, 7th, 51st, & 58th Divisions, 1/TD & 2/TD Brigades",
         _divs("3rd", "6th", "7th", "51st", "58th") + _bdes("1/TD", "2/TD")),
    Line("SNC-13.17", CH, 2, ("1824",), "61st, 62nd, & 63rd Divisions",
         _divs("61st", "62nd", "63rd")),
    Line("SNC-13.18", CH, 3, ("2410",), "11th, 12th, 13th, 34th, & 37th Brigades",
         _bdes("11th", "12th", "13th", "34th", "37th")),
    Line("SNC-13.19", CH, 3, ("2410",),
         "13th, 15th, 16th, 19th, 33rd, 34th, 40th, 45th, 52nd, 59th, 76th, 77th, 90th, 102nd, "
         "103rd, 105th, 109th, 111th, 112th, 159th, 160th, & 195th Divisions",
         _divs("13th", "15th", "16th", "19th", "33rd", "34th", "40th", "45th", "52nd", "59th",
               "76th", "77th", "90th", "102nd", "103rd", "105th", "109th", "111th", "112th",
               "159th", "160th", "195th")),
    Line("SNC-13.20", CH, 4, ("2410", "2318"), "8th, 9th, 18th, 44th, & 60th Divisions",
         _divs("8th", "9th", "18th", "44th", "60th")),
    # "174tg" is printed; the 174th Division is meant
    Line("SNC-13.21", CH, 5, ("2410", "2318"),
         "1st, 26th, 32nd, 53rd, 131st, 134th, 135th, 171st, 173rd, 174tg, & 176th Divisions",
         _divs("1st", "26th", "32nd", "53rd", "131st", "134th", "135th", "171st", "173rd",
               "174th", "176th")),
    Line("SNC-13.22", CH, 6, ("0102",), "46th, 170th, & 172nd Divisions",
         _divs("46th", "170th", "172nd")),
    Line("SNC-13.23", CH, 7, ("0102",),
         "14th Brigade, 35th, 41st, 48th, 107th, 144th, 145th, 146th, 148th, 154th, "
         "& 156th Divisions",
         _bdes("14th") + _divs("35th", "41st", "48th", "107th", "144th", "145th", "146th",
                               "148th", "154th", "156th")),
    # JAPANESE AT START UNITS
    Line("SNC-13.24", JP, None, ("3512",), "SNLF 1, SNLF 2, Shanghai Garrison",
         ("SNLF 1", "SNLF 2", "Shanghai Garrison")),
    Line("SNC-13.25", JP, None, ("3611",), "SNLF 3, Garrison A", ("SNLF 3", "Garrison A")),
    # JAPANESE REINFORCEMENTS
    Line("SNC-13.27", JP, 1, ("3512", "3611"), "SNLF 9", ("SNLF 9",)),
    Line("SNC-13.28", JP, 2, ("3509", "3510"), "3rd Division (four units)",
         divisions=(("3rd Division", 4),)),
    Line("SNC-13.28", JP, 2, ("3308", "3408"), "11th Division (four units)",
         divisions=(("11th Division", 4),)),
    Line("SNC-13.29", JP, 3, FIVE_LANDINGS,
         "101st Division (four units), Shigeto, Asama, & Amaya Detachments",
         ("Shigeto Detachment", "Asama Detachment", "Amaya Detachment"),
         divisions=(("101st Division", 4),)),
    Line("SNC-13.30", JP, 4, FIVE_LANDINGS, "9th Division (four units)",
         divisions=(("9th Division", 4),)),
    Line("SNC-13.31", JP, 5, FIVE_LANDINGS, "13th Division (four units)",
         divisions=(("13th Division", 4),)),
    # hexes printed "Any landing hex east of 32xx (historical: 3417)"
    Line("SNC-13.32", JP, 7, (),
         "10th Army consisting of 6th, 18th, & 114th Divisions, & 9th Brigade of 5th Division "
         "(14 units)",
         divisions=(("6th Division", 4), ("18th Division", 4), ("114th Division", 4)),
         brigades=(("9th Brigade", "5th Division"),), total=14, any_landing=True,
         historical="3417"),
    # hexes printed "Any landing hex on the map (historical: 3004)"
    Line("SNC-13.33", JP, 8, (), "16th Division (four units)",
         divisions=(("16th Division", 4),), any_landing=True, historical="3004"),
)
# fmt: on

# (clause, side, GT or None for at start, kind, count): the "Markers" lines of section 13.
MARKERS_13: tuple[tuple[str, str, int | None, str, int], ...] = (
    ("SNC-13.14", CH, None, "artillery", 3),
    ("SNC-13.26", JP, None, "naval_gunfire", 2),
    ("SNC-13.27", JP, 1, "naval_gunfire", 1),
    ("SNC-13.28", JP, 2, "air", 1),
    ("SNC-13.28", JP, 2, "artillery", 1),
    ("SNC-13.28", JP, 2, "naval_gunfire", 1),
    ("SNC-13.28", JP, 2, "amphibious", 2),
    ("SNC-13.29", JP, 3, "air", 1),
    ("SNC-13.29", JP, 3, "artillery", 1),
    ("SNC-13.30", JP, 4, "air", 1),
    ("SNC-13.30", JP, 4, "artillery", 1),
    ("SNC-13.31", JP, 5, "artillery", 1),
    ("SNC-13.32", JP, 7, "artillery", 1),
    ("SNC-13.33", JP, 8, "artillery", 1),
)

# Every hex number the text names, with the clause (or example) that names it first.
NAMED_HEXES: dict[str, tuple[str, str]] = {
    "0102": ("SNC-13.22", "Chinese GT 6 and GT 7 reinforcement hex"),
    "0116": ("SNC-13.6", "garrison hex (K-M)"),
    "0202": ("SNC-13.4", "Nanking"),
    "1102": ("SNC-13.6", "garrison hex (K-M)"),
    "1824": ("SNC-13.6", "Hangzhou"),
    "2318": ("SNC-13.20", "Chinese GT 4 and GT 5 reinforcement hex"),
    "2410": ("SNC-2.1.3", "Suzhou"),
    "2503": ("SNC-13.15", "Chinese GT 2 reinforcement hex"),
    "2606": ("SNC-9.6.9", "Chang Sho"),
    "2706": ("SNC-9.6.9", "the road hex next to Chang Sho"),
    "2707": ("SNC-9.6.9", "the overrun hex"),
    "2806": ("SNC-9.6.9", "the hex the overrun starts from"),
    "3004": ("SNC-13.33", "historical 16th Division landing hex"),
    "3208": ("§12 GT 3", "Loudian"),
    "3308": ("SNC-13.28", "landing hex (Chuanshakou)"),
    "3408": ("SNC-13.28", "landing hex"),
    "3410": ("§12 GT 3", "the Training Brigade's town"),
    "3411": ("SNC-13.12", "Chinese set-up hex"),
    "3412": ("SNC-13.13", "Chinese set-up hex"),
    "3417": ("SNC-13.32", "historical 10th Army landing hex"),
    "3509": ("SNC-13.2", "Baoshan"),
    "3510": ("SNC-13.1", "Wusong"),
    "3511": ("SNC-13.5", "Chinese set-up hex"),
    "3512": ("SNC-4.1.1", "the Shanghai city hex"),
    "3513": ("SNC-0.0.1", "the International Settlement"),
    "3609": ("SNC-7.1.6", "across the Huangpu from 3610"),
    "3610": ("SNC-13.29", "landing hex on the Huangpu"),
    "3611": ("SNC-7.1.6", "the northeast Shanghai city hex"),
    "3612": ("SNC-13.10", "Chinese set-up hex"),
    "3710": ("SNC-13.7", "Chinese set-up hex"),
    "3711": ("SNC-13.9", "Chinese set-up hex"),
    "3712": ("SNC-13.8", "Chinese set-up hex"),
}

# CRT cells the rules give (clause, odds, die, (attacker, defender)).
CRT_CELLS: tuple[tuple[str, str, int, tuple[int, int]], ...] = (
    (
        "SNC-10.5.0.2",
        "3:1",
        3,
        (1, 2),
    ),  # "A result of "3" rolled for an attack made at 3:1 odds yields 1/2"
)
ERRATA_CELLS: tuple[tuple[str, str, int, tuple[int, int]], ...] = (
    ("SNC-0.0.4", "5:1", 6, (0, 4)),  # "Die roll of 6 at 5:1 has a result of 0/4"
)
"""The cells the errata box corrects: the data holds each as corrected (`[[errata]]`) and as
printed (its column), and the two differ (a correction changes the cell)."""
# CRT cells the examples of play narrate.
EXAMPLE_CELLS: tuple[tuple[str, str, int, tuple[int, int]], ...] = (
    ("§12 GT 3", "2:1", 3, (1, 1)),  # 3rd Division on 3410: "A die roll of 3 achieves a 1/1 result"
    ("§12 GT 3", "5:1", 4, (0, 3)),  # 3511: "for a 5:1 and rolls a 4. He gets a 0/3 result"
    ("§12 GT 3", "3:1", 2, (2, 1)),  # Loudian: one elite step and two Japanese regiments lost
)
CRT_COLUMNS = ("1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1")  # SNC-10.3.1.1

# Stacking (SNC-6.2.1, SNC-6.2.3): Japanese five units; Chinese three division equivalents.
JP_STACK = 5
CH_STACK = Fraction(3)
DIVISION_EQUIVALENTS = {
    ("regular", "X"): Fraction(1, 2),
    ("regular", "XX"): Fraction(1),
    ("elite", "X"): Fraction(1),
    ("elite", "XX"): Fraction(3, 2),
}


def section_13_units(side: str, gt: int | None) -> int:
    """How many counters section 13 lists for a side at start (None) or on a GT."""
    return sum(line.count for line in SECTION_13 if line.side == side and line.gt == gt)


def _h(text: str) -> Hex:
    return parse_hex(text)


def _need(ok: bool, problem: str) -> str | None:
    return None if ok else problem


def _names(hexes: Iterable[Hex]) -> list[str]:
    return sorted(str(h) for h in hexes)


def data_facts(replace: Iterable[Path] = (), directory: Path = DATA_DIR) -> list[FactResult]:
    """Load the data (the shipped files, or some replaced by a transcription's) and check every
    fact; what `wargame data check snc1937` will report."""
    return check_facts(facts(load_data(directory, replace)))


def facts(data: SNCData) -> list[Fact]:
    """Every checkable fact, in the order of the text: components, set-up (section 13), the
    map's named hexes and features, the TEC, the CRT, then the examples of play."""
    board = Board(data)
    return (
        _component_facts(data)
        + _section_13_facts(data, board)
        + _map_facts(data, board)
        + _tec_facts(data)
        + _crt_facts(data)
        + _example_facts(data, board)
    )


# --- components ----------------------------------------------------------------------------------


def _component_facts(data: SNCData) -> list[Fact]:
    """The components: the box's contents, the counters' designations,
    their steps and formations, the markers and garrisons."""
    return (
        _contents_facts(data)
        + _designation_facts(data)
        + _step_and_formation_facts(data)
        + _marker_and_garrison_facts(data)
    )


def _contents_facts(data: SNCData) -> list[Fact]:
    """The map, the counters and the turn track (SNC-1.1.1, SNC-2.0.1, SNC-2.2.1.1, SNC-5.0.1)."""
    units, m, comp = data.units, data.map, data.components

    def counters() -> str | None:
        markers = sum(line.count for line in data.setup.markers)
        total = len(units) + markers + comp.turn_markers + comp.other_games
        return _need(
            total == comp.counters == 176 and comp.map_inches == (22, 34),
            f"{len(units)} units + {markers} fire support markers + {comp.turn_markers} Turn "
            f"marker + {comp.other_games} other games' counters = {total}, not 176 "
            f"(or the map is not 22 x 34 inches: {comp.map_inches})",
        )

    def other_games() -> str | None:
        return _need(comp.other_games == 6, f"{comp.other_games} other-game counters, not 6")

    def turn_marker() -> str | None:
        return _need(comp.turn_markers == 1, f"{comp.turn_markers} Turn markers, not 1")

    def scale() -> str | None:
        return _need(
            (m.hex_miles, m.hex_km, m.turn_weeks) == (7, 11, 2),
            f"a hex is {m.hex_miles} miles / {m.hex_km} km and a GT {m.turn_weeks} weeks, "
            "not 7 miles / 11 km and two weeks",
        )

    def twelve_turns() -> str | None:
        late = [r.clause for r in data.setup.reinforcements if r.gt > m.turn_boxes]
        late += [line.clause for line in data.setup.markers if (line.gt or 0) > m.turn_boxes]
        return _need(
            m.turn_boxes == 12 and not late,
            f"the turn track has {m.turn_boxes} boxes (12 GTs at most), arrivals after it: {late}",
        )

    def units_or_markers() -> str | None:
        kinds = {m.kind for m in data.setup.markers}
        ids = {u.id for u in units}
        return _need(
            not kinds & ids and all(u.cf >= 0 for u in units),
            "a counter is a combat unit with a CF or a marker, never both",
        )

    def layout() -> str | None:
        bad = [
            u.id
            for u in units
            if not (u.id and u.name and u.size and u.type)
            or (u.reduced is not None and u.reduced >= u.cf)
        ]
        return _need(not bad, f"counters with size, CF, type, ID, the back weaker: {bad}")

    return [
        Fact("SNC-2.0.1", "a 22 x 34-inch map and 176 counters in all", counters),
        Fact("SNC-2.2.0.1", "counters are combat units or markers", units_or_markers),
        Fact("SNC-2.2.1.1", "a counter shows size, CF, type, ID; its back is reduced", layout),
        Fact("SNC-2.0.3", "six counters belong to other games", other_games),
        Fact("SNC-2.2.2.1", "one Turn marker", turn_marker),
        Fact("SNC-1.1.1", "a hex is 7 miles (11 km); a GT about two weeks", scale),
        Fact("SNC-5.0.1", "twelve GTs, and nothing arrives after GT 12", twelve_turns),
    ]


def _designation_facts(data: SNCData) -> list[Fact]:
    """What the counters' designations say: abbreviations, sizes, types, colours (SNC-2.2.1.2
    to SNC-2.2.1.5, SNC-9.1.1)."""
    units = data.units
    chinese = [u for u in units if u.side == CH]

    def sizes() -> str | None:
        want = {"Division": "XX", "Brigade": "X", "Detachment": "X", "Regiment": "III"}
        bad = [
            u.id
            for u in units
            for word, size in want.items()
            if u.name.endswith(word) and u.size != size
        ]
        bad += [u.id for u in units if u.name.startswith("SNLF") and u.size != "II"]
        return _need(not bad, f"sizes differ from the designations (XX, X, III, II): {bad}")

    def types() -> str | None:
        bad = [u.id for u in units if u.name.startswith("SNLF") != (u.type == "naval_infantry")]
        return _need(not bad, f"the SNLF, and only they, are naval infantry: {bad}")

    def garrisons_static() -> str | None:
        bad = [u.id for u in units if "Garrison" in u.name and not u.is_static]
        bad += [u.id for u in units if u.arm == "garrison" and not u.is_static]
        return _need(not bad, f"garrisons must be static units: {bad}")

    def colours() -> str | None:
        bad = [u.id for u in units if (u.side == JP) != (u.arm == "japanese")]
        bad += [u.id for u in chinese if "Garrison" in u.name and u.arm != "garrison"]
        return _need(not bad, f"colour schemes do not match nationality and garrison: {bad}")

    def abbreviations() -> str | None:
        names = {u.name for u in units}
        want = {"Tax Police Division", "1/TD Brigade", "2/TD Brigade", "SNLF 1"}
        missing = sorted(want - names)
        ppc = any(u.name.startswith("PPC") for u in chinese)
        return _need(not missing and ppc, f"designations using TP, TD, PPC and SNLF: {missing}")

    return [
        Fact("SNC-2.2.1.3", "designations use TP, TD, PPC and SNLF", abbreviations),
        Fact("SNC-2.2.1.4", "sizes follow the designations: XX, X, III, II", sizes),
        Fact("SNC-2.2.1.5", "the SNLF are naval infantry, the rest infantry or static", types),
        Fact("SNC-9.1.1", "garrisons are static units", garrisons_static),
        Fact("SNC-2.2.1.2", "colour schemes: Japanese; Chinese regular, elite, garrison", colours),
    ]


def _step_and_formation_facts(data: SNCData) -> list[Fact]:
    """Steps per counter and the formations they make up (SNC-2.2.1.11, SNC-8.1.5, SNC-8.3.2,
    SNC-6.2.1, SNC-6.2.2)."""
    units = data.units
    chinese = [u for u in units if u.side == CH]

    def steps() -> str | None:
        elite = [u.id for u in chinese if u.arm == "elite" and u.steps != 2]
        one = sum(1 for u in chinese if u.steps == 1)
        return _need(
            not elite and 2 * one > len(chinese),
            f"Chinese elite units need two steps ({elite}) and most Chinese units one "
            f"({one} of {len(chinese)})",
        )

    def regiments() -> str | None:
        bad = [u.id for u in units if u.side == JP and u.size == "III" and u.steps != 2]
        return _need(not bad, f"Japanese regiments can be reduced and rebuilt: one-step {bad}")

    def the_14th() -> str | None:
        u = _by_name(data, CH, "14th Division")
        ok = u is not None and (u.arm, u.type, u.size) == ("elite", "infantry", "XX")
        return _need(ok, "the 14th Division must be a Chinese elite infantry division (XX)")

    def snlf() -> str | None:
        found = sorted(u.name for u in units if u.side == JP and u.name.startswith("SNLF"))
        ok = found == ["SNLF 1", "SNLF 2", "SNLF 3", "SNLF 9"]
        ok = ok and all(u.size == "II" for u in units if u.name.startswith("SNLF"))
        return _need(ok, f"the SNLF are four battalions, SNLF 1, 2, 3 and 9: {found}")

    def divisions() -> str | None:
        count = Counter(
            u.division
            for u in units
            if u.side == JP and u.division and u.brigade is None and u.size == "III"
        )
        bad = {d: n for d, n in count.items() if n != 4}
        return _need(not bad, f"a Japanese division is four infantry regiments: {bad}")

    return [
        Fact("SNC-2.2.1.11", "Chinese elite units have two steps; most Chinese one", steps),
        Fact("SNC-8.3.2", "Japanese regiments have two steps", regiments),
        Fact("SNC-8.1.5", "the 14th Division is a Chinese elite infantry division", the_14th),
        Fact("SNC-6.2.2", "four SNLF battalions: SNLF 1, 2, 3 and 9", snlf),
        Fact("SNC-6.2.1", "each Japanese division is four infantry regiments", divisions),
    ]


def _marker_and_garrison_facts(data: SNCData) -> list[Fact]:
    """The fire support markers each side has and where the garrisons are (SNC-11.0.1,
    SNC-9.1.2, SNC-9.1.3)."""
    units = data.units
    chinese = [u for u in units if u.side == CH]

    def marker_kinds() -> str | None:
        chinese_kinds = {m.kind for m in data.setup.markers if m.side == CH}
        japanese_kinds = {m.kind for m in data.setup.markers if m.side == JP}
        return _need(
            chinese_kinds <= {"artillery"}
            and japanese_kinds == {"artillery", "air", "naval_gunfire", "amphibious"},
            f"Chinese markers are artillery only ({sorted(chinese_kinds)}); the Japanese have "
            f"all four kinds ({sorted(japanese_kinds)})",
        )

    def garrisons_at_start() -> str | None:
        start = {u for a in data.setup.at_start for u in a.units}
        ch = [u.id for u in chinese if u.is_static and u.id not in start]
        jp = [u.id for u in units if u.side == JP and u.is_static and u.id in start]
        return _need(
            not ch and len(jp) == 2,
            f"all Chinese garrisons start on the map (not: {ch}) and two Japanese ones do ({jp})",
        )

    def garrison_pool() -> str | None:
        listed = {u for a in data.setup.at_start for u in a.units}
        listed |= {u for r in data.setup.reinforcements for u in r.units}
        extra = [u.id for u in units if u.id not in listed and not (u.side == JP and u.is_static)]
        return _need(
            not extra, f"units neither in section 13 nor Japanese garrisons for cities: {extra}"
        )

    return [
        Fact(
            "SNC-11.0.1",
            "Chinese artillery; Japanese artillery, air, naval, amphibious",
            marker_kinds,
        ),
        Fact(
            "SNC-9.1.2",
            "all Chinese and two Japanese garrisons start on the map",
            garrisons_at_start,
        ),
        Fact(
            "SNC-9.1.3",
            "every other unit is in section 13 or a Japanese city garrison",
            garrison_pool,
        ),
    ]


def _by_name(data: SNCData, side: str, name: str) -> UnitSpec | None:
    found = [u for u in data.units if u.side == side and u.name == name]
    return found[0] if len(found) == 1 else None


# --- section 13 ----------------------------------------------------------------------------------


def _section_13_facts(data: SNCData, board: Board) -> list[Fact]:
    """Section 13 line by line, then the set-up as a whole, the landing restrictions and the
    replacements."""
    return (
        _section_13_line_facts(data, board)
        + _setup_facts(data)
        + _landing_line_facts(data)
        + _replacement_facts(data)
    )


def _section_13_line_facts(data: SNCData, board: Board) -> list[Fact]:
    """Each printed line of section 13 and each marker line, held to the data."""
    out: list[Fact] = []
    for line in SECTION_13:
        when = "at start" if line.gt is None else f"on GT {line.gt}"
        if line.any_landing:
            where = f"any landing hex, historically {line.historical}"
        else:
            where = " or ".join(line.hexes) + (
                " and other landing sites" if line.other_landing_sites else ""
            )
        statement = f"{line.side} {when}: {line.printed} ({where})"
        out.append(Fact(line.clause, statement, _line_check(data, board, line)))
    for clause, side, gt, kind, count in MARKERS_13:
        when = "at start" if gt is None else f"on GT {gt}"
        out.append(
            Fact(
                clause,
                f"{side} {when}: {count} {kind} marker(s)",
                _marker_check(data, clause, side, gt, kind, count),
            )
        )
    return out


def _setup_facts(data: SNCData) -> list[Fact]:
    """The set-up records are section 13's, side by side and turn by turn (SNC-3.0.3, SNC-3.1.5,
    SNC-3.2.1)."""
    setup = data.setup

    def exactly_the_lines() -> str | None:
        want = Counter(line.clause for line in SECTION_13)
        have = Counter(a.clause for a in setup.at_start)
        have.update(r.clause for r in setup.reinforcements)
        want_m = {(c, k) for c, _, _, k, _ in MARKERS_13}
        have_m = Counter((m.clause, m.kind) for m in setup.markers)
        extra = sorted((have - want).elements()) + sorted(str(k) for k in have_m if k not in want_m)
        extra += sorted(str(k) for k, n in have_m.items() if n > 1)
        return _need(not extra, f"records with no section 13 line, or twice: {extra}")

    def per_turn() -> str | None:
        wrong = []
        turns = sorted({line.gt or 0 for line in SECTION_13} | {r.gt for r in setup.reinforcements})
        for side in (CH, JP):
            for t in turns:
                gt = None if t == 0 else t
                want = section_13_units(side, gt)
                recs: list[AtStart | Reinforcement] = (
                    list(setup.at_start)
                    if gt is None
                    else [r for r in setup.reinforcements if r.gt == gt]
                )
                have = sum(len(r.units) for r in recs if r.side == side)
                if want != have:
                    wrong.append(
                        f"{side} {'start' if gt is None else f'GT {gt}'}: {have}, not {want}"
                    )
        return _need(not wrong, f"units per side and turn differ from section 13: {wrong}")

    def japanese_hexes() -> str | None:
        hexes = {h for a in setup.at_start if a.side == JP for h in a.place.values()}
        return _need(
            hexes == {_h("3512"), _h("3611")},
            f"the Japanese start in exactly 3512 and 3611, not {_names(hexes)}",
        )

    def stacking() -> str | None:
        return _setup_stacking(data)

    return [
        Fact(
            "SNC-3.1.5",
            "the set-up and reinforcement records are section 13's lines",
            exactly_the_lines,
        ),
        Fact("SNC-3.1.5", "units per side at start and per GT as section 13 lists", per_turn),
        Fact("SNC-3.2.1", "the Japanese start in exactly two hexes, 3512 and 3611", japanese_hexes),
        Fact("SNC-3.0.3", "the set-up is within the stacking limits", stacking),
    ]


def _landing_line_facts(data: SNCData) -> list[Fact]:
    """Where the GT 7 and GT 8 lines land, and the 10th Army's advance (SNC-8.4.1.1,
    SNC-8.4.1.2, SNC-8.4.2.1, SNC-13.32)."""
    setup = data.setup

    def tenth_army() -> str | None:
        line = _reinforcement(setup.reinforcements, "SNC-13.32")
        res = line.restriction if line is not None else None
        if line is None or res is None:
            return "the GT 7 line (SNC-13.32) needs its landing restriction"
        east = [h for h in data.map.landings if h.col >= 32]
        ok = res.one_location and res.east_of == "32xx" and res.inclusive
        ok = ok and line.historical is not None and line.historical.col >= 32
        ok = ok and line.historical in data.map.landings and bool(east)
        return _need(
            ok,
            "the 10th Army lands at one location east of 32xx inclusive (columns 32 and up), "
            f"and its historical hex {line.historical} is such a landing hex",
        )

    def tenth_army_advance() -> str | None:
        line = _reinforcement(setup.reinforcements, "SNC-13.32")
        res = line.restriction if line is not None else None
        return _need(
            res is not None and res.advance_hexes == 2,
            "the 10th Army advances two hexes after its landing",
        )

    def tenth_army_units() -> str | None:
        line = _reinforcement(setup.reinforcements, "SNC-13.32")
        formation = sorted(u.id for u in data.units if u.formation == "10th Army")
        return _need(
            line is not None and sorted(line.units) == formation,
            "the 10th Army's units are exactly the GT 7 line's",
        )

    def sixteenth() -> str | None:
        line = _reinforcement(setup.reinforcements, "SNC-13.33")
        res = line.restriction if line is not None else None
        ok = res is not None and res.one_location and res.east_of is None
        ok = ok and line is not None and line.historical in data.map.landings
        return _need(ok, "the 16th Division lands at one landing location anywhere on the map")

    return [
        Fact("SNC-8.4.1.1", "the 10th Army lands at one location east of 32xx", tenth_army),
        Fact("SNC-8.4.1.2", "the 10th Army advances two hexes after combat", tenth_army_advance),
        Fact("SNC-13.32", "the 10th Army is the GT 7 line's 14 units", tenth_army_units),
        Fact("SNC-8.4.2.1", "the 16th Division lands at one location anywhere", sixteenth),
    ]


def _replacement_facts(data: SNCData) -> list[Fact]:
    """Replacements: two Japanese steps a GT from GT 3, none Chinese (SNC-8.3.1, SNC-8.1.1)."""
    setup = data.setup

    def replacements() -> str | None:
        plan = {r.side: (r.steps, r.from_gt) for r in setup.replacements}
        return _need(
            plan.get(JP) == (2, 3),
            f"the Japanese receive two replacement steps a GT from GT 3: {plan.get(JP)}",
        )

    def no_chinese_replacements() -> str | None:
        plan = {r.side: r.steps for r in setup.replacements}
        return _need(plan.get(CH, 0) == 0, "the Chinese receive no replacements")

    return [
        Fact("SNC-8.3.1", "two Japanese replacement steps a GT from GT 3", replacements),
        Fact("SNC-8.1.1", "no Chinese replacements", no_chinese_replacements),
    ]


def _reinforcement(lines: Iterable[Reinforcement], clause: str) -> Reinforcement | None:
    found = [r for r in lines if r.clause == clause]
    return found[0] if len(found) == 1 else None


def _line_check(data: SNCData, board: Board, line: Line) -> Check:
    def check() -> str | None:
        records: list[AtStart | Reinforcement]
        if line.gt is None:
            records = [a for a in data.setup.at_start if a.clause == line.clause]
        else:
            records = [r for r in data.setup.reinforcements if r.clause == line.clause]
        want_hexes = {_h(t) for t in line.hexes}
        matching = [r for r in records if set(r.hexes) == want_hexes]
        if len(matching) != 1:
            found = [_names(r.hexes) for r in records]
            return f"no single record of this line with hexes {sorted(line.hexes)}; found {found}"
        rec = matching[0]
        if rec.side != line.side:
            return f"the line is {line.side}, the record {rec.side}"
        problem = _units_problem(data, line, rec.units)
        if problem:
            return problem
        if isinstance(rec, AtStart):
            return _placement_problem(data, line, rec)
        if rec.gt != line.gt:
            return f"arrives on GT {rec.gt}, not GT {line.gt}"
        if rec.any_landing != line.any_landing:
            return "an 'any landing hex' line" if line.any_landing else "must list its entry hexes"
        historical = None if rec.historical is None else str(rec.historical)
        if historical != line.historical:
            return f"historical hex {historical}, not {line.historical}"
        if line.side == JP and line.gt != 1:
            off = [str(h) for h in rec.hexes if not board.is_landing(h)]
            if off:
                return f"the Japanese land at landing hexes; not landing hexes: {off}"
        return None

    return check


def _units_problem(data: SNCData, line: Line, ids: tuple[str, ...]) -> str | None:
    units = [data.unit(u) for u in ids]
    if len(units) != line.count:
        return f"{len(units)} units, not {line.count}"
    named = sorted(
        u.name
        for u in units
        if not any(u.division == d for d, _ in line.divisions)
        and not any((u.brigade, u.division) == b for b in line.brigades)
    )
    if named != sorted(line.units):
        return f"units {named}, not {sorted(line.units)}"
    for division, n in line.divisions:
        regs = [u for u in units if u.division == division]
        if len(regs) != n or any((u.type, u.size) != ("infantry", "III") for u in regs):
            return f"{division}: {len(regs)} infantry regiments, not {n}"
    for brigade, division in line.brigades:
        if not any((u.brigade, u.division) == (brigade, division) for u in units):
            return f"no unit of the {brigade} of the {division}"
    return None


def _placement_problem(data: SNCData, line: Line, rec: AtStart) -> str | None:
    if rec.other_landing_sites != line.other_landing_sites:
        return (
            "the line's hexes include all other landing sites"
            if line.other_landing_sites
            else ("the line names its hexes; it has no 'other landing sites'")
        )
    if not line.other_landing_sites:
        per_hex = Counter(str(h) for h in rec.place.values())
        if len(line.hexes) > 1 and set(per_hex.values()) != {1}:
            return f"one unit in each of {list(line.hexes)}: {dict(per_hex)}"
        return None
    named = {h for a in data.setup.at_start if not a.other_landing_sites for h in a.hexes}
    sites = {h for h in data.map.landings if h not in named} | {_h(t) for t in line.hexes}
    where = set(rec.place.values())
    return _need(
        where == sites,
        f"garrisons in {_names(where)}; the other landing sites and 3511 are {_names(sites)}",
    )


def _marker_check(
    data: SNCData, clause: str, side: str, gt: int | None, kind: str, count: int
) -> Check:
    def check() -> str | None:
        found = [m for m in data.setup.markers if m.clause == clause and m.kind == kind]
        if len(found) != 1:
            return f"{len(found)} {kind} marker records for {clause}, not 1"
        m = found[0]
        return _need(
            (m.side, m.gt, m.count) == (side, gt, count),
            f"{m.count} {m.side} marker(s) on {m.gt}, not {count} {side} on {gt}",
        )

    return check


def _setup_stacking(data: SNCData) -> str | None:
    """The at-start stacks within the limits of SNC-6.2.1 and SNC-6.2.3, whether static units
    count no division equivalents or count by their size (AMB-SNC-10)."""
    stacks: dict[tuple[str, Hex], list[UnitSpec]] = {}
    for a in data.setup.at_start:
        for uid, h in a.place.items():
            stacks.setdefault((a.side, h), []).append(data.unit(uid))
    bad = []
    for (side, h), units in stacks.items():
        if side == JP:
            if len(units) > JP_STACK:
                bad.append(f"{h}: {len(units)} Japanese units")
            continue
        for static_by_size in (False, True):
            total = Fraction(0)
            for u in units:
                if u.is_static and not static_by_size:
                    continue
                arm = "regular" if u.is_static else u.arm
                total += DIVISION_EQUIVALENTS.get((arm, u.size), Fraction(1, 2))
            if total > CH_STACK:
                bad.append(f"{h}: {total} division equivalents")
    return _need(not bad, f"over-stacked at set-up: {sorted(set(bad))}")


# --- the map -------------------------------------------------------------------------------------


def _map_facts(data: SNCData, board: Board) -> list[Fact]:
    """The hexes the text names, the cities, the coast and the rail net, the terrain."""
    return (
        _named_hex_facts(board)
        + _city_facts(data, board)
        + _coast_and_rail_facts(data, board)
        + _terrain_facts(data, board)
    )


def _named_hex_facts(board: Board) -> list[Fact]:
    """Every hex the text names is a land hex of the map (`NAMED_HEXES`)."""
    out: list[Fact] = []
    for text, (clause, what) in NAMED_HEXES.items():
        out.append(
            Fact(clause, f"{text} ({what}) is a land hex of the map", _named_hex(board, text))
        )
    return out


def _city_facts(data: SNCData, board: Board) -> list[Fact]:
    """The seven cities and the International Settlement (SNC-2.1.3, SNC-4.1.1, SNC-4.3.1,
    SNC-4.3.2, SNC-0.0.1)."""
    m = data.map

    def city(text: str) -> Check:
        return lambda: _need(board.is_city(_h(text)), f"{text} must be a city hex")

    def seven() -> str | None:
        return _need(
            len(m.cities) == 7, f"{len(m.cities)} city hexes, not seven: {_names(m.cities)}"
        )

    def settlement() -> str | None:
        neutral = [h for h, c in m.cities.items() if c.neutral]
        entries = {h for a in data.setup.at_start for h in a.place.values()}
        entries |= {h for r in data.setup.reinforcements for h in r.hexes}
        return _need(
            neutral == [_h("3513")] and _h("3513") not in entries,
            f"3513, and only 3513, is the neutral International Settlement ({_names(neutral)}), "
            "and no unit sets up or arrives there",
        )

    return [
        Fact("SNC-2.1.3", "Suzhou 2410 is a city", city("2410")),
        Fact("SNC-4.1.1", "Shanghai 3512 is a city hex", city("3512")),
        Fact("SNC-4.3.2", "3513 is a city hex", city("3513")),
        Fact("SNC-4.3.1", "seven city hexes in all", seven),
        Fact(
            "SNC-0.0.1",
            "3513 is the neutral International Settlement; no unit starts there",
            settlement,
        ),
    ]


def _coast_and_rail_facts(data: SNCData, board: Board) -> list[Fact]:
    """The coast, the Naval Gunfire Line, the landing hexes and the rail net (SNC-7.1.5,
    SNC-7.1.6, SNC-8.4.0.3, SNC-9.5.2.2, SNC-8.2.4)."""
    m = data.map

    def zoc_example() -> str | None:
        at = _h("3610")
        across = {t: board.navigable(at, _h(t)) for t in ("3609", "3710", "3711")}
        plain = {
            t: board.side_kind(at, _h(t)) not in ("all_sea", "all_lake")
            and not board.navigable(at, _h(t))
            for t in ("3510", "3511")
        }
        ok = all(across.values()) and all(plain.values()) and board.is_city(_h("3611"))
        ok = ok and not board.is_city(_h("3510")) and not board.is_city(_h("3511"))
        ok = ok and board.is_coastal(_h("3510")) and board.in_naval_gunfire_line(_h("3510"))
        return _need(
            ok,
            "from 3610: the navigable Huangpu to 3609, 3710 and 3711 "
            f"({across}); 3611 a city; plain hexsides to 3510 and 3511 ({plain}); "
            "3510 a coastal hex within the Naval Gunfire Line",
        )

    def gunfire_line() -> str | None:
        off = _names(m.naval_gunfire_line - m.coastal)
        return _need(
            bool(m.naval_gunfire_line) and not off, f"Naval Gunfire Line hexes not coastal: {off}"
        )

    def landings() -> str | None:
        bad = [str(h) for h in m.landings if not (board.is_coastal(h) and board.enterable(h))]
        bad += [str(h) for h in m.landings if not board.arrow_from_water(h)]
        return _need(
            not bad, f"landing hexes must be coastal land with an arrow from the water: {bad}"
        )

    def rails_start() -> str | None:
        nanking, hangzhou = _h("0202"), _h("1824")
        ok = nanking in board.rail_hexes and hangzhou in board.rail_reach(nanking)
        return _need(ok, "Nanking 0202 and Hangzhou 1824 are railroad hexes joined by the rail net")

    def rail_edges() -> str | None:
        bad = []
        for start in ("0202", "1824"):
            reach = board.rail_reach(_h(start))
            if not any(board.on_west_edge(h) or board.on_south_edge(h) for h in reach):
                bad.append(start)
        return _need(not bad, f"no railroad from {bad} to a west or south map edge hex")

    return [
        Fact("SNC-7.1.6", "the ZOC example around 3610", zoc_example),
        Fact("SNC-7.1.5", "the Naval Gunfire Line runs along coastal hexes", gunfire_line),
        Fact("SNC-8.4.0.3", "landing hexes are coastal, with arrows from the water", landings),
        Fact("SNC-9.5.2.2", "Nanking 0202 and Hangzhou 1824 are on the rail net", rails_start),
        Fact("SNC-8.2.4", "the rail net reaches a west or south map edge hex", rail_edges),
    ]


def _terrain_facts(data: SNCData, board: Board) -> list[Fact]:
    """Land, water and routes: what units may enter and cross, and the hexes of
    the overrun example."""
    m = data.map

    def routes_on_land() -> str | None:
        bad = [
            f"{r.name} {h}"
            for r in m.roads + m.railroads
            for h in r.hexes
            if not board.enterable(h)
        ]
        bad += [
            f"{r.name} {a}/{b}"
            for r in m.roads + m.railroads
            for a, b in zip(r.hexes, r.hexes[1:], strict=False)
            if board.side_kind(a, b) in data.tec.prohibited_sides
        ]
        return _need(not bad, f"roads and railroads through water or prohibited hexsides: {bad}")

    def places_on_land() -> str | None:
        bad = [str(h) for h in list(m.cities) + list(m.towns) if not board.is_land(h)]
        return _need(not bad, f"cities and towns in water hexes: {bad}")

    def entries_on_land() -> str | None:
        entries = {h for a in data.setup.at_start for h in a.place.values()}
        entries |= {h for r in data.setup.reinforcements for h in r.hexes}
        bad = _names(h for h in entries if not board.enterable(h))
        return _need(not bad, f"set-up or entry hexes no unit may enter: {bad}")

    def overrun_example() -> str | None:
        town, hex_, road, start = _h("2606"), _h("2707"), _h("2706"), _h("2806")
        ok = board.is_town(town) and board.terrain(town) == "marsh"
        ok = (
            ok
            and board.terrain(hex_) == "marsh"
            and not board.is_town(hex_)
            and not board.is_city(hex_)
        )
        ok = (
            ok
            and hex_adjacent(start, hex_)
            and hex_adjacent(hex_, town)
            and hex_adjacent(road, town)
        )
        ok = ok and any(board.road(n, road) for n in board.neighbors(road))
        return _need(
            ok,
            "2606 a town in a marsh hex; 2707 a marsh hex, neither town nor city, between 2806 "
            "and 2606; a road into 2706, next to 2606",
        )

    def nanking() -> str | None:
        return _need(
            board.enterable(_h("0202"))
            and any(board.enterable(n) for n in board.neighbors(_h("0202"))),
            "elite units return in or next to Nanking 0202: it and a neighbour must be land",
        )

    def terrain_types() -> str | None:
        used = set(m.terrain.values())
        return _need(
            used >= {"clear", "woods", "marsh", "paddy"},
            f"natural terrain types used: {sorted(used)}",
        )

    def yangtze_in_hex() -> str | None:
        return _need("yangtze" in set(m.terrain.values()), "no Yangtze River hexes on the map")

    def water_types() -> str | None:
        kinds = {f.kind for f in m.sides.values()}
        return _need(
            {"creek", "river"} <= kinds and any(f.navigable for f in m.sides.values()),
            f"the map needs river and creek hexsides and the navigable Huangpu: {sorted(kinds)}",
        )

    return [
        Fact("SNC-9.4.6", "roads and railroads run over land a unit may enter", routes_on_land),
        Fact("SNC-9.4.6", "set-up and entry hexes are land a unit may enter", entries_on_land),
        Fact("SNC-9.2.2", "cities and towns are in land hexes", places_on_land),
        Fact("SNC-9.6.9", "the overrun example's hexes: 2606, 2706, 2707, 2806", overrun_example),
        Fact("SNC-8.1.4", "Nanking 0202 and a neighbour are land", nanking),
        Fact("SNC-9.3.1", "the map has clear, woods, marsh and rice paddy hexes", terrain_types),
        Fact("SNC-9.3.3", "the Yangtze is drawn as in-hex terrain", yangtze_in_hex),
        Fact(
            "SNC-9.4.5",
            "the map has river and creek hexsides and the navigable Huangpu",
            water_types,
        ),
    ]


def _named_hex(board: Board, text: str) -> Check:
    def check() -> str | None:
        h = _h(text)
        if not board.on_map(h):
            return f"{text} is not on the map"
        if text == "3513":
            return _need(
                board.is_land(h) and board.is_neutral(h), "3513 must be a neutral land hex"
            )
        return _need(board.enterable(h), f"{text} is water or neutral ({board.terrain(h)})")

    return check


# --- the TEC -------------------------------------------------------------------------------------


def _tec_facts(data: SNCData) -> list[Fact]:
    """The Terrain Effects Chart: movement costs, then combat shifts."""
    return _tec_movement_facts(data) + _tec_combat_facts(data)


def _tec_movement_facts(data: SNCData) -> list[Fact]:
    """Movement factors and costs, and what no unit enters (SNC-9.0.2 to SNC-9.5.1.1)."""
    tec = data.tec

    def entry(table: str, side: str, key: str, want: str) -> Check:
        mapping = {"enter": tec.enter, "manmade": tec.manmade, "cross": tec.cross}[table]
        return lambda: _need(
            mapping.get((side, key)) == want,
            f"{side} {table} {key}: {mapping.get((side, key))!r}, not {want!r}",
        )

    def chinese_all_one() -> str | None:
        costs = {t: tec.enter.get((CH, t)) for t in ("clear", "woods", "marsh", "paddy")}
        return _need(set(costs.values()) == {"1"}, f"Chinese pay 1 MP a hex: {costs}")

    def chinese_crossing() -> str | None:
        costs = {k: tec.cross.get((CH, k)) for k in ("creek", "river")}
        return _need(
            set(costs.values()) <= {"1", "2"}, f"Chinese pay one or two MP to cross: {costs}"
        )

    def prohibited() -> str | None:
        ok = tec.prohibited_terrain == {"yangtze", "estuary", "sea", "lake"}
        ok = (
            ok
            and tec.prohibited_sides >= {"yangtze", "all_sea", "all_lake"}
            and tec.neutral_prohibited
        )
        return _need(
            ok, "no unit enters 3513, all-sea, all-lake or estuary hexes, or crosses the Yangtze"
        )

    def mf() -> str | None:
        return _need((tec.mf_mobile, tec.mf_static) == (8, 0), "mobile units MF 8, static MF 0")

    def natural_or_manmade() -> str | None:
        natural = set(data.map.terrain.values())
        entered = {t for _, t in tec.enter}
        return _need(
            natural <= set(LAND) | set(WATER) and entered <= set(LAND),
            f"every hex's terrain is natural ({sorted(natural)}), costed in the TEC's natural "
            f"rows ({sorted(entered)})",
        )

    def manmade_kinds() -> str | None:
        kinds = {feature for _, feature in tec.manmade}
        return _need(
            kinds == {"city", "town", "road", "railroad"},
            f"the manmade types are cities, towns, roads and railroads: {sorted(kinds)}",
        )

    return [
        Fact("SNC-9.0.2", "mobile units have MF 8, static units MF 0", mf),
        Fact("SNC-9.2.1", "terrain is natural (the map) or manmade", natural_or_manmade),
        Fact("SNC-9.5.0.1", "manmade: cities, towns, roads, railroads", manmade_kinds),
        Fact("SNC-9.4.1", "Chinese infantry pay 1 MP a hex", chinese_all_one),
        Fact("SNC-9.4.2", "Chinese pay one or two MP to cross creek and river", chinese_crossing),
        Fact("SNC-9.4.3", "Japanese pay 1 MP for clear", entry("enter", JP, "clear", "1")),
        Fact("SNC-9.4.4", "Japanese pay 2 MP for woods", entry("enter", JP, "woods", "2")),
        Fact("SNC-9.4.4", "Japanese pay 2 MP for marsh", entry("enter", JP, "marsh", "2")),
        Fact("SNC-9.4.4", "Japanese pay 2 MP for rice paddy", entry("enter", JP, "paddy", "2")),
        Fact(
            "SNC-9.4.5", "Japanese pay 2 more MP to cross a river", entry("cross", JP, "river", "2")
        ),
        Fact(
            "SNC-9.4.5", "Japanese pay 1 more MP to cross a creek", entry("cross", JP, "creek", "1")
        ),
        Fact("SNC-9.4.6", "what no unit enters or crosses", prohibited),
        Fact("SNC-9.5.0.2", "a city costs 1 MP", entry("manmade", JP, "city", "1")),
        Fact(
            "SNC-9.5.0.3",
            "a town costs what its other terrain costs",
            entry("manmade", JP, "town", "terrain"),
        ),
        Fact(
            "SNC-9.5.1.1", "Japanese pay 1/2 MP along a road", entry("manmade", JP, "road", "1/2")
        ),
        Fact(
            "SNC-9.5.1.1",
            "Japanese pay 1/2 MP along a railroad",
            entry("manmade", JP, "railroad", "1/2"),
        ),
    ]


def _tec_combat_facts(data: SNCData) -> list[Fact]:
    """Terrain shifts and combat across hexsides (SNC-10.4.1.1 to SNC-10.4.1.9)."""
    tec = data.tec

    def shift(side: str, feature: str, left: int) -> Check:
        return lambda: _need(
            tec.defence.get((side, feature)) == left,
            f"{side} defending in {feature}: {tec.defence.get((side, feature))}L, not {left}L",
        )

    def japanese_towns() -> str | None:
        return _need(tec.defence.get((JP, "town"), 0) == 0, "Japanese get no town shift")

    def cap() -> str | None:
        return _need(tec.terrain_cap == 2, f"terrain shifts capped at {tec.terrain_cap}L, not 2L")

    def across() -> str | None:
        want = {"creek": Fraction(1, 2), "river": Fraction(1, 3)}
        return _need(
            dict(tec.attack_across) == want, f"across creek/river: {dict(tec.attack_across)}"
        )

    def no_combat() -> str | None:
        return _need(
            tec.no_combat_across == {"all_sea", "all_lake"},
            f"no combat across {sorted(tec.no_combat_across)}",
        )

    return [
        Fact("SNC-10.4.1.1", "terrain shifts at most two left", cap),
        Fact("SNC-10.4.1.2", "clear gives no shift", shift(CH, "clear", 0)),
        Fact("SNC-10.4.1.3", "woods gives 1L", shift(JP, "woods", 1)),
        Fact("SNC-10.4.1.3", "marsh gives 1L", shift(CH, "marsh", 1)),
        Fact("SNC-10.4.1.4", "a town gives Chinese defenders 1L", shift(CH, "town", 1)),
        Fact("SNC-10.4.1.4", "a town gives Japanese defenders nothing", japanese_towns),
        Fact("SNC-10.4.1.7", "a city gives 2L", shift(JP, "city", 2)),
        Fact("SNC-10.4.1.8", "attacks across a creek at 1/2, a river at 1/3", across),
        Fact("SNC-10.4.1.9", "no combat across all-sea or all-lake hexsides", no_combat),
    ]


# --- the CRT -------------------------------------------------------------------------------------


def _crt_facts(data: SNCData) -> list[Fact]:
    crt = data.crt

    def columns() -> str | None:
        return _need(
            crt.columns == CRT_COLUMNS and (crt.lowest, crt.highest) == ("1:3", "6:1"),
            f"columns {crt.columns} from {crt.lowest} to {crt.highest}, not 1:3 to 6:1",
        )

    def die() -> str | None:
        return _need(crt.die == 6, f"the CRT is read with a {crt.die}-sided die, not a d6")

    def every_face() -> str | None:
        missing = [
            (c, f) for c in crt.columns for f in range(1, crt.die + 1) if (c, f) not in crt.cells
        ]
        return _need(not missing, f"columns without a result for every die face: {missing}")

    def step_losses() -> str | None:
        bad = [k for k, (a, d) in crt.cells.items() if a < 0 or d < 0]
        return _need(not bad, f"results are attacker/defender step losses: {bad}")

    out = [
        Fact("SNC-10.3.1.1", "CRT columns 1:3 to 6:1", columns),
        Fact("SNC-2.0.2", "combat is resolved with one six-sided die", die),
        Fact("SNC-10.5.0.1", "each column gives a result for every die face", every_face),
        Fact("SNC-10.5.1.1", "results are step losses, attacker/defender", step_losses),
    ]
    for clause, odds, face, want in CRT_CELLS:
        out.append(
            Fact(
                clause,
                f"CRT {odds}, die {face}: {want[0]}/{want[1]}",
                _cell(data, odds, face, want),
            )
        )
    for clause, odds, face, want in ERRATA_CELLS:
        out.append(
            Fact(
                clause,
                f"errata: CRT {odds}, die {face} reads {want[0]}/{want[1]}, not as printed",
                _corrected(data, odds, face, want),
            )
        )
    out.append(
        Fact(
            "SNC-10.5.1.2",
            "CRT 3:1, die 3: the attacker loses 1 step, the defender 2",
            _cell(data, "3:1", 3, (1, 2)),
        )
    )
    return out


def _corrected(data: SNCData, odds: str, face: int, want: tuple[int, int]) -> Check:
    found = data.crt.errata.get((odds, face))
    printed = data.crt.cells.get((odds, face))
    return lambda: _need(
        found == want and printed not in (None, want),
        f"{odds} / {face}: corrected {found}, printed {printed}; want {want[0]}/{want[1]} "
        "corrected and a different printed cell",
    )


def _cell(data: SNCData, odds: str, face: int, want: tuple[int, int]) -> Check:
    found = data.crt.cells.get((odds, face))
    return lambda: _need(found == want, f"{odds} / {face}: {found}, not {want[0]}/{want[1]}")


# --- the examples of play ------------------------------------------------------------------------


def _example_facts(data: SNCData, board: Board) -> list[Fact]:
    """The examples of play: the CRT cells and map features they read (SNC-9.6.9, section 12)
    and the counter values their arithmetic needs (section 12)."""
    return _example_crt_facts(data) + _example_map_facts(data, board) + _example_unit_facts(data)


def _example_crt_facts(data: SNCData) -> list[Fact]:
    """The CRT cells the examples read (`EXAMPLE_CELLS`, SNC-9.6.9)."""
    crt = data.crt
    out: list[Fact] = []
    for label, odds, face, want in EXAMPLE_CELLS:
        out.append(
            Fact(
                label, f"CRT {odds}, die {face}: {want[0]}/{want[1]}", _cell(data, odds, face, want)
            )
        )

    def overrun_cell() -> str | None:
        att, dfd = crt.cells.get(("4:1", 3), (-1, -1))
        return _need(
            att == 1 and dfd >= 1,
            f"4:1 / 3 must cost one Japanese step and at least one Chinese: {(att, dfd)}",
        )

    def two_step_risk() -> str | None:
        at3 = [crt.cells.get(("3:1", f), (0, 0))[0] for f in range(1, 7)]
        at4 = [crt.cells.get(("4:1", f), (0, 0))[0] for f in range(1, 7)]
        return _need(
            max(at3) >= 2 and max(at4) < 2,
            f"3:1 risks a two-step attacker loss and 4:1 does not: {at3} / {at4}",
        )

    return [
        *out,
        Fact(
            "SNC-9.6.9",
            "CRT 4:1, die 3 costs one attacker step and eliminates the defender",
            overrun_cell,
        ),
        Fact("SNC-9.6.9", "3:1 risks losing two attacker steps; 4:1 does not", two_step_risk),
    ]


def _example_map_facts(data: SNCData, board: Board) -> list[Fact]:
    """The towns, hexsides and ZOC the section 12 narration reads on the map."""

    def town(text: str) -> Check:
        return lambda: _need(board.is_town(_h(text)), f"{text} must be a town hex")

    def creek(a: str, b: str) -> Check:
        return lambda: _need(
            board.side_kind(_h(a), _h(b)) == "creek", f"{a}/{b} must be a creek hexside"
        )

    def loudian() -> str | None:
        a, b = _h("3308"), _h("3208")
        return _need(
            hex_adjacent(a, b) and board.side_kind(a, b) is None,
            "3308 attacks Loudian 3208 at full strength: adjacent, no creek or river between",
        )

    def wusong_creek() -> str | None:
        return _need(
            any(f.name == "Wusong Creek" and f.kind == "creek" for f in data.map.sides.values()),
            "the map has a creek named Wusong Creek",
        )

    def huangpu_at_shanghai() -> str | None:
        ok = board.navigable(_h("3512"), _h("3612")) and hex_adjacent(_h("3512"), _h("3612"))
        return _need(ok, "3612 (57th Division) attacks 3512 across the Huangpu")

    def pinned() -> str | None:
        japanese = [_h(t) for t in ("3510", "3512", "3611")]
        free = []
        for n in board.neighbors(_h("3511")):
            if n in japanese or not board.enterable(n):
                continue
            if not any(
                hex_adjacent(j, n)
                and not board.navigable(j, n)
                and not board.is_city(n)
                and board.side_kind(j, n) not in ("all_sea", "all_lake")
                for j in japanese
            ):
                free.append(str(n))
        return _need(
            not free,
            f"with the Japanese in 3510, 3512 and 3611, 3511 has exits out of their ZOC: {free}",
        )

    return [
        Fact("§12 GT 3", "Loudian 3208 is a town", town("3208")),
        Fact("§12 GT 3", "3410 is a town", town("3410")),
        Fact("§12 GT 3", "a creek between Wusong 3510 and 3511", creek("3510", "3511")),
        Fact("§12 GT 3", "a creek between Wusong 3510 and 3410", creek("3510", "3410")),
        Fact("§12 GT 3", "3308 attacks 3208 with no creek or river between", loudian),
        Fact("§12 GT 3", "Wusong Creek is on the map", wusong_creek),
        Fact("§12 GT 1", "3612 is across the Huangpu from 3512", huangpu_at_shanghai),
        Fact("§12 GT 2", "the Chinese in 3511 are pinned once the Japanese hold 3510", pinned),
    ]


def _example_unit_facts(data: SNCData) -> list[Fact]:
    """The counter values the section 12 arithmetic needs: strengths and steps."""
    setup = data.setup

    def units(check: Callable[[], bool], problem: str) -> Check:
        return lambda: _need(check(), problem)

    def at(hex_text: str) -> list[UnitSpec]:
        return [
            data.unit(u) for a in setup.at_start for u, h in a.place.items() if h == _h(hex_text)
        ]

    def division_cf(division: str) -> int:
        return sum(u.cf for u in data.units if u.division == division and u.size == "III")

    def wusong_garrison() -> bool:
        u = _by_name(data, CH, "Wusong Garrison")
        return u is not None and u.steps == 2 and u.cf == 3

    def snlf_total() -> bool:
        return sum(u.cf for u in data.units if u.name.startswith("SNLF")) == 8

    def detachment() -> bool:
        dets = [u for u in data.units if u.name.endswith("Detachment")]
        return bool(dets) and all(u.cf == 3 for u in dets)

    def defence_3511() -> bool:
        return sum(u.cf for u in at("3511")) == 9

    def steps_3611() -> bool:
        return sum(u.steps for u in at("3611")) == 3

    def elite_five() -> bool:
        elite = [u for u in data.units if u.side == CH and u.arm == "elite" and u.size == "XX"]
        return bool(elite) and all(u.cf == 5 for u in elite)

    def training_brigades() -> bool:
        tds = [u for u in data.units if u.name in ("1/TD Brigade", "2/TD Brigade")]
        return len(tds) == 2 and all(u.arm == "elite" for u in tds) and sum(u.cf for u in tds) == 10

    def snlf9() -> bool:
        u = _by_name(data, JP, "SNLF 9")
        return u is not None and u.steps == 2

    return [
        Fact(
            "§12 GT 2",
            "the Wusong Garrison has two steps and 3 defence",
            units(wusong_garrison, "the Wusong Garrison is two-step with CF 3 in the example"),
        ),
        Fact(
            "§12 GT 2",
            "the 3rd Division's four regiments total 16",
            units(
                lambda: division_cf("3rd Division") == 16,
                "the 3rd Division attacks with 16",
            ),
        ),
        Fact(
            "§12 GT 3",
            "the 11th Division's four regiments total 12",
            units(
                lambda: division_cf("11th Division") == 12,
                "the 11th Division attacks with 12",
            ),
        ),
        Fact("§12 GT 3", "the four SNLF total 8", units(snlf_total, "the SNLF attack 3511 with 8")),
        Fact(
            "§12 GT 3",
            "a detachment is 3",
            units(detachment, "3rd Division and a detachment make 19"),
        ),
        Fact(
            "§12 GT 3",
            "3511's set-up defends with 9",
            units(defence_3511, "3511 defends with 9 (16:9)"),
        ),
        Fact(
            "§12 GT 3", "3611's set-up is 3 steps", units(steps_3611, "clearing 3611 needs 3 steps")
        ),
        Fact(
            "§12 GT 1",
            "elite divisions are 5-strength",
            units(elite_five, "elite divisions have CF 5"),
        ),
        Fact(
            "§12 GT 3",
            "the two Training Brigades are elite and total 10",
            units(training_brigades, "the Training Brigade stack defends with 10"),
        ),
        Fact("§12 GT 1", "SNLF 9 has two steps", units(snlf9, "SNLF 9 adds 2 steps on GT 1")),
    ]


class SNCDataCheck:
    """The data check role (`kernel.roles.DataCheck`), built from the rules."""

    def __init__(self, rules: SNCRules) -> None:
        self.rules = rules

    def _data(self, data_file: Path | None) -> SNCData:
        """The shipped data, or with one part replaced: SNC's data is five files, and a file
        given alone (`wargame data check snc1937 --file F`) replaces the part its `format` line
        names (a directory: all five read from there)."""
        if data_file is None:
            return self.rules.data
        if data_file.is_dir():
            return load_data(data_file)
        return load_data(replace=[data_file])

    def data_facts(self, data_file: Path | None = None) -> list[FactResult]:
        return check_facts(facts(self._data(data_file)))

    def provisional(self, data_file: Path | None = None) -> list[tuple[str, Provenance]]:
        return self._data(data_file).provisional()
