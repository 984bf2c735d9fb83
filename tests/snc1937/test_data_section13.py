"""Section 13, the set-up and reinforcement tables (SNC-13.1 to SNC-13.33), against the data."""

from __future__ import annotations

from pathlib import Path

import pytest

from kernel.hexes import parse_hex
from specs.snc1937.formal.facts import MARKERS_13, SECTION_13, section_13_units
from tests.snc1937.datafiles import DATA, edited, failed, results, without_record

SECTION_13_CLAUSES = sorted({line.clause for line in SECTION_13} | {m[0] for m in MARKERS_13})


def _names(ids: tuple[str, ...]) -> list[str]:
    return sorted(DATA.unit(u).name for u in ids)


def test_snc_13_every_line_holds_on_the_shipped_data() -> None:
    """SNC-13.1 to SNC-13.33: every printed line of section 13 (units, hexes, turns, markers)
    is a fact that holds for the shipped data, and each clause of the table has its fact."""
    by_clause: dict[str, list[bool]] = {}
    for r in results():
        by_clause.setdefault(r.clause, []).append(r.ok)
    assert all(by_clause[c] and all(by_clause[c]) for c in SECTION_13_CLAUSES), [
        c for c in SECTION_13_CLAUSES if not all(by_clause.get(c, [False]))
    ]
    assert len(SECTION_13_CLAUSES) == 33  # SNC-13.1 to SNC-13.33


def test_snc_13_counts_per_side_and_turn() -> None:
    """SNC-13.1 to SNC-13.33, SNC-3.1.5: section 13 lists 31 Chinese units at start and 69 as
    reinforcements (12, 27, 5, 11, 3, 11 on GT 2 to 7), 5 Japanese at start and 42 arriving
    (1, 8, 7, 4, 4 on GT 1 to 5, none on GT 6, 14 on GT 7, 4 on GT 8); the data has the same."""
    chinese = {gt: section_13_units("CH", gt) for gt in (None, 1, 2, 3, 4, 5, 6, 7, 8)}
    japanese = {gt: section_13_units("JP", gt) for gt in (None, 1, 2, 3, 4, 5, 6, 7, 8)}
    assert chinese == {None: 31, 1: 0, 2: 12, 3: 27, 4: 5, 5: 11, 6: 3, 7: 11, 8: 0}
    assert japanese == {None: 5, 1: 1, 2: 8, 3: 7, 4: 4, 5: 4, 6: 0, 7: 14, 8: 4}
    for side, table in (("CH", chinese), ("JP", japanese)):
        for gt, n in table.items():
            if gt is None:
                have = sum(len(a.units) for a in DATA.setup.at_start if a.side == side)
            else:
                have = sum(
                    len(r.units) for r in DATA.setup.reinforcements if r.side == side and r.gt == gt
                )
            assert have == n, (side, gt)


def test_snc_13_1_to_13_4_named_garrisons() -> None:
    """SNC-13.1 Wusong Garrison 3510, SNC-13.2 Baoshan Garrison 3509, SNC-13.3 Suzhou Garrison
    2410, SNC-13.4 Nanking Garrison 0202: static Chinese garrisons in their hexes."""
    want = {
        "SNC-13.1": ("3510", "Wusong Garrison"),
        "SNC-13.2": ("3509", "Baoshan Garrison"),
        "SNC-13.3": ("2410", "Suzhou Garrison"),
        "SNC-13.4": ("0202", "Nanking Garrison"),
    }
    for a in DATA.setup.at_start:
        if a.clause in want:
            hex_, name = want.pop(a.clause)
            (uid,) = a.units
            assert DATA.unit(uid).name == name and DATA.unit(uid).is_static
            assert a.place[uid] == parse_hex(hex_)
    assert not want


def test_snc_13_5_lettered_garrisons_on_every_other_landing_site_and_3511() -> None:
    """SNC-13.5: garrisons A-J and N-P (13) stand on all the other landing sites and on 3511;
    SNC-13.6: K-M on 1824 (Hangzhou), 1102 and 0116, one each."""
    (line,) = [a for a in DATA.setup.at_start if a.clause == "SNC-13.5"]
    assert _names(line.units) == sorted(f"Garrison {c}" for c in "ABCDEFGHIJNOP")
    others = set(DATA.map.landings) - {parse_hex("3509"), parse_hex("3510")}
    assert set(line.place.values()) == others | {parse_hex("3511")}
    assert len(others) == 12 and parse_hex("3511") in line.place.values()
    (km,) = [a for a in DATA.setup.at_start if a.clause == "SNC-13.6"]
    assert _names(km.units) == ["Garrison K", "Garrison L", "Garrison M"]
    assert sorted(str(h) for h in km.place.values()) == ["0116", "1102", "1824"]
    assert km.provenance.provisional == ("place",) and line.provenance.provisional == ("place",)


def test_snc_13_7_to_13_13_chinese_combat_units_at_start() -> None:
    """SNC-13.7 45th Brigade 3710; SNC-13.8 55th Division 3712; SNC-13.9 56th 3711; SNC-13.10
    57th 3612; SNC-13.11 87th and 98th 3511; SNC-13.12 36th and 88th 3411; SNC-13.13 Tax
    Police and PPC Divisions and 20th Brigade 3412."""
    want = {
        "SNC-13.7": ("3710", ["45th Brigade"]),
        "SNC-13.8": ("3712", ["55th Division"]),
        "SNC-13.9": ("3711", ["56th Division"]),
        "SNC-13.10": ("3612", ["57th Division"]),
        "SNC-13.11": ("3511", ["87th Division", "98th Division"]),
        "SNC-13.12": ("3411", ["36th Division", "88th Division"]),
        "SNC-13.13": ("3412", ["20th Brigade", "PPC Division", "Tax Police Division"]),
    }
    for a in DATA.setup.at_start:
        if a.clause in want:
            hex_, names = want.pop(a.clause)
            assert _names(a.units) == names
            assert set(a.place.values()) == {parse_hex(hex_)}
    assert not want


def test_snc_13_14_and_13_26_at_start_markers() -> None:
    """SNC-13.14: three Chinese artillery markers at start; SNC-13.26: two Japanese naval
    gunfire markers at start."""
    start = {(m.side, m.kind): m.count for m in DATA.setup.markers if m.gt is None}
    assert start == {("CH", "artillery"): 3, ("JP", "naval_gunfire"): 2}


def test_snc_13_15_to_13_23_chinese_reinforcements() -> None:
    """SNC-13.15 to SNC-13.23: each Chinese reinforcement line arrives on its GT at its hexes:
    GT 2 at 2503, 2410 and 1824; GT 3 at 2410; GT 4 and 5 at 2410 or 2318; GT 6 and 7 at 0102.
    SNC-13.21's printed "174tg" is the 174th Division."""
    lines = {r.clause: r for r in DATA.setup.reinforcements if r.side == "CH"}
    hexes = {c: (r.gt, sorted(str(h) for h in r.hexes), len(r.units)) for c, r in lines.items()}
    assert hexes == {
        "SNC-13.15": (2, ["2503"], 2),
        "SNC-13.16": (2, ["2410"], 7),
        "SNC-13.17": (2, ["1824"], 3),
        "SNC-13.18": (3, ["2410"], 5),
        "SNC-13.19": (3, ["2410"], 22),
        "SNC-13.20": (4, ["2318", "2410"], 5),
        "SNC-13.21": (5, ["2318", "2410"], 11),
        "SNC-13.22": (6, ["0102"], 3),
        "SNC-13.23": (7, ["0102"], 11),
    }
    assert "174th Division" in _names(lines["SNC-13.21"].units)
    assert _names(lines["SNC-13.16"].units)[:2] == ["1/TD Brigade", "2/TD Brigade"]
    assert _names(lines["SNC-13.23"].units)[0] == "107th Division"
    assert "14th Brigade" in _names(lines["SNC-13.23"].units)


def test_snc_13_duplicate_numbers_are_different_counters() -> None:
    """SNC-13.15 and SNC-13.18, SNC-13.18 and SNC-13.19, SNC-13.7 and SNC-13.19, SNC-13.15 and
    SNC-13.23: the 11th, 13th, 34th, 14th and 45th appear once as a division and once as a
    brigade; they are different counters with different ids."""
    for n in ("11th", "13th", "14th", "34th", "45th"):
        division = [u for u in DATA.units if u.name == f"{n} Division"]
        brigade = [u for u in DATA.units if u.name == f"{n} Brigade"]
        assert len(division) == len(brigade) == 1
        assert (division[0].size, brigade[0].size) == ("XX", "X")


def test_snc_13_24_to_13_33_japanese_lines() -> None:
    """SNC-13.24 SNLF 1, SNLF 2 and the Shanghai Garrison in 3512; SNC-13.25 SNLF 3 and
    Garrison A in 3611; SNC-13.27 SNLF 9 on GT 1 at 3512 or 3611; SNC-13.28 the 3rd Division
    (3509 or 3510) and 11th Division (3308 or 3408) on GT 2; SNC-13.29 the 101st and three
    detachments, SNC-13.30 the 9th, SNC-13.31 the 13th, each at 3308, 3408, 3509, 3510 or 3610;
    SNC-13.32 the 10th Army on GT 7, SNC-13.33 the 16th Division on GT 8, at any landing hex."""
    start = {a.clause: a for a in DATA.setup.at_start if a.side == "JP"}
    assert _names(start["SNC-13.24"].units) == ["SNLF 1", "SNLF 2", "Shanghai Garrison"]
    assert _names(start["SNC-13.25"].units) == ["Garrison A", "SNLF 3"]
    seen = {}
    for r in DATA.setup.reinforcements:
        if r.side == "JP":
            divisions = sorted({DATA.unit(u).division or DATA.unit(u).name for u in r.units})
            seen[r.clause, tuple(sorted(str(h) for h in r.hexes))] = (r.gt, divisions)
    five = ("3308", "3408", "3509", "3510", "3610")
    assert seen == {
        ("SNC-13.27", ("3512", "3611")): (1, ["SNLF"]),
        ("SNC-13.28", ("3509", "3510")): (2, ["3rd Division"]),
        ("SNC-13.28", ("3308", "3408")): (2, ["11th Division"]),
        ("SNC-13.29", five): (
            3,
            ["101st Division", "Amaya Detachment", "Asama Detachment", "Shigeto Detachment"],
        ),
        ("SNC-13.30", five): (4, ["9th Division"]),
        ("SNC-13.31", five): (5, ["13th Division"]),
        ("SNC-13.32", ()): (7, ["114th Division", "18th Division", "5th Division", "6th Division"]),
        ("SNC-13.33", ()): (8, ["16th Division"]),
    }
    assert not any(r.gt == 6 for r in DATA.setup.reinforcements if r.side == "JP")


def test_snc_13_27_to_13_33_japanese_markers_by_turn() -> None:
    """SNC-13.27 to SNC-13.33: the Japanese markers arriving each GT; with SNC-13.26's two at
    start the Japanese have 4 naval gunfire, 3 air, 6 artillery and 2 amphibious markers."""
    by_turn = {(m.gt, m.kind): m.count for m in DATA.setup.markers if m.side == "JP" and m.gt}
    assert by_turn == {
        (1, "naval_gunfire"): 1,
        (2, "air"): 1,
        (2, "artillery"): 1,
        (2, "naval_gunfire"): 1,
        (2, "amphibious"): 2,
        (3, "air"): 1,
        (3, "artillery"): 1,
        (4, "air"): 1,
        (4, "artillery"): 1,
        (5, "artillery"): 1,
        (7, "artillery"): 1,
        (8, "artillery"): 1,
    }
    totals: dict[str, int] = {}
    for m in DATA.setup.markers:
        if m.side == "JP":
            totals[m.kind] = totals.get(m.kind, 0) + m.count
    assert totals == {"naval_gunfire": 4, "air": 3, "artillery": 6, "amphibious": 2}


def test_snc_13_32_and_8_4_1_1_the_tenth_army() -> None:
    """SNC-13.32: the 10th Army is the 6th, 18th and 114th Divisions and the 9th Brigade of the
    5th Division, 14 units, historically landing at 3417. SNC-8.4.1.1: one landing location east
    of 32xx inclusive; SNC-8.4.1.2: it may advance two hexes. Under the column reading
    (AMB-SNC-43) the provisional map has 9 landing hexes in columns 32 and up; a row reading
    would leave none, since the map has no row 32."""
    (line,) = [r for r in DATA.setup.reinforcements if r.clause == "SNC-13.32"]
    assert line.any_landing and line.historical == parse_hex("3417") and len(line.units) == 14
    brigade = [DATA.unit(u) for u in line.units if DATA.unit(u).brigade == "9th Brigade"]
    assert len(brigade) == 2 and all(u.division == "5th Division" for u in brigade)
    res = line.restriction
    assert res is not None and res.provenance.source == "SNC-8.4.1.1"
    assert (res.one_location, res.east_of, res.inclusive, res.advance_hexes) == (
        True,
        "32xx",
        True,
        2,
    )
    assert sum(1 for h in DATA.map.landings if h.col >= 32) == 9
    assert DATA.map.rows[1] < 32


def test_snc_13_33_and_8_4_2_1_the_16th_division() -> None:
    """SNC-13.33: the 16th Division (four units) on GT 8, historically at 3004; SNC-8.4.2.1: at
    one landing location anywhere on the map."""
    (line,) = [r for r in DATA.setup.reinforcements if r.clause == "SNC-13.33"]
    assert line.gt == 8 and line.any_landing and line.historical == parse_hex("3004")
    assert {DATA.unit(u).division for u in line.units} == {"16th Division"}
    res = line.restriction
    assert res is not None and res.one_location and res.east_of is None
    assert parse_hex("3004") in DATA.map.landings


def test_snc_8_3_1_and_8_1_1_replacement_schedules() -> None:
    """SNC-8.3.1: the Japanese receive two replacement steps a GT from GT 3; SNC-8.1.1: the
    Chinese receive none."""
    plan = {r.side: (r.steps, r.from_gt) for r in DATA.setup.replacements}
    assert plan == {"JP": (2, 3), "CH": (0, None)}


def test_snc_3_2_1_japanese_start_in_two_hexes() -> None:
    """SNC-3.2.1: at the start the Japanese occupy exactly two hexes, 3512 and 3611."""
    hexes = {h for a in DATA.setup.at_start if a.side == "JP" for h in a.place.values()}
    assert sorted(str(h) for h in hexes) == ["3512", "3611"]


def test_snc_3_0_3_set_up_within_stacking_limits(tmp_path: Path) -> None:
    """SNC-3.0.3, SNC-6.2.3: stacking limits apply at set-up. The shipped set-up is within them
    (3411's two elite divisions make exactly 3 division equivalents); moving that line into 3511,
    where the 87th and 98th stand, over-stacks it, and the fact fails along with SNC-13.12's
    hex and the section 12 example's 9 defence in 3511."""
    assert all(r.ok for r in results() if r.clause == "SNC-3.0.3")
    bad = edited(tmp_path, "setup.toml", ('hexes = ["3411"]', 'hexes = ["3511"]'))
    assert failed(bad) == {"SNC-13.12", "SNC-3.0.3", "§12 GT 3"}


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        # a unit moved to a wrong hex
        ([('hexes = ["3712"]', 'hexes = ["3711"]')], {"SNC-13.8"}),
        # a turn changed
        (
            [('gt = 4\nhexes = ["2410", "2318"]', 'gt = 5\nhexes = ["2410", "2318"]')],
            {"SNC-13.20", "SNC-3.1.5"},
        ),
        ([("gt = 1\n", "gt = 2\n")], {"SNC-13.27", "SNC-3.1.5"}),
        # a landing choice changed
        ([('hexes = ["3509", "3510"]', 'hexes = ["3509", "3408"]')], {"SNC-13.28"}),
        # two lettered garrisons in one of SNC-13.6's hexes
        ([('CH-G-K = "1824"', 'CH-G-K = "1102"')], {"SNC-13.6"}),
        # the historical hex of the 10th Army
        ([('historical = "3417"', 'historical = "3308"')], {"SNC-13.32"}),
        # a marker count
        ([("count = 3", "count = 2")], {"SNC-13.14", "SNC-2.0.1"}),
        # the 10th Army's restriction
        ([('east_of = "32xx"', 'east_of = "30xx"')], {"SNC-8.4.1.1"}),
        ([("advance_hexes = 2", "advance_hexes = 1")], {"SNC-8.4.1.2"}),
        # replacements
        ([("steps = 2\nfrom_gt = 3", "steps = 2\nfrom_gt = 2")], {"SNC-8.3.1"}),
    ],
)
def test_snc_13_a_wrong_transcription_fails_its_clause(
    tmp_path: Path, edits: list[tuple[str, str]], expected: set[str]
) -> None:
    """SNC-13.8, SNC-13.20, SNC-13.27, SNC-13.28, SNC-13.6, SNC-13.32, SNC-13.14, SNC-8.4.1.1,
    SNC-8.4.1.2, SNC-8.3.1 (with SNC-3.1.5's counts and SNC-2.0.1's 176 counters where they
    change too): a set-up file that moves a unit, changes a turn or a count fails exactly the
    facts of the clauses it breaks."""
    assert failed(edited(tmp_path, "setup.toml", *edits)) == expected


def test_snc_13_a_missing_line_fails_its_clause(tmp_path: Path) -> None:
    """SNC-13.22, SNC-3.1.5, SNC-9.1.3: without the GT 6 Chinese line its three divisions are
    neither set up nor arriving: the line's fact, the per-turn counts and the rule that every
    unit but the Japanese city garrisons is in section 13 all fail."""
    directory = without_record(tmp_path, "setup.toml", "reinforcement", "SNC-13.22")
    assert failed(directory) == {"SNC-13.22", "SNC-3.1.5", "SNC-9.1.3"}


def test_snc_13_an_extra_line_is_caught(tmp_path: Path) -> None:
    """SNC-3.1.5, SNC-2.0.1: a record that is not a line of section 13 (a Japanese air marker
    on GT 6, which the table does not have) fails the check that the records are section 13's
    lines, and makes one counter too many."""
    extra = (
        '[[marker]]\nsource = "SNC-13.14"',
        '[[marker]]\nsource = "SNC-13.31"\nside = "JP"\nkind = "air"\ncount = 1\ngt = 6\n\n'
        '[[marker]]\nsource = "SNC-13.14"',
    )
    assert failed(edited(tmp_path, "setup.toml", extra)) == {"SNC-3.1.5", "SNC-2.0.1"}


def test_snc_13_a_renamed_unit_fails_its_line(tmp_path: Path) -> None:
    """SNC-13.8: the line names the 55th Division; a counters file calling it the 65th fails
    that line."""
    directory = edited(
        tmp_path, "counters.toml", ('name = "55th Division"', 'name = "65th Division"')
    )
    assert failed(directory) == {"SNC-13.8"}
