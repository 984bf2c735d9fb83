"""The counter sheet (sections 2.0 and 2.2) and unit organisation (6.2, 9.1, 11.0) the
text states, against the data."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from specs.snc1937.data.counters import UnitSpec
from tests.snc1937.datafiles import DATA, edited, failed

UNITS = DATA.units


def test_snc_2_0_1_176_counters() -> None:
    """SNC-2.0.1: 176 counters on a 22 x 34-inch map: 151 units (100 Chinese, 51 Japanese,
    four of them city garrisons beyond section 13), 18 fire support markers, one Turn marker
    (SNC-2.2.2.1) and six counters for other games (SNC-2.0.3)."""
    markers = sum(m.count for m in DATA.setup.markers)
    sides = Counter(u.side for u in UNITS)
    assert (sides["CH"], sides["JP"], markers) == (100, 51, 18)
    comp = DATA.components
    assert (comp.turn_markers, comp.other_games, comp.counters) == (1, 6, 176)
    assert len(UNITS) + markers + comp.turn_markers + comp.other_games == 176
    assert comp.map_inches == (22, 34)


def test_snc_9_1_2_and_9_1_3_garrisons() -> None:
    """SNC-9.1.2: all Chinese garrisons and two Japanese garrisons start on the map; SNC-9.1.3:
    the other Japanese garrisons wait to be placed in captured cities (four, a provisional count
    that makes the sheet 176 counters); SNC-9.1.1: garrisons are static."""
    start = {u for a in DATA.setup.at_start for u in a.units}
    chinese = [u for u in UNITS if u.side == "CH" and u.is_static]
    japanese = [u for u in UNITS if u.side == "JP" and u.is_static]
    assert len(chinese) == 21 and all(u.id in start for u in chinese)  # 20 garrisons and the PPC
    assert sorted(u.name for u in japanese if u.id in start) == ["Garrison A", "Shanghai Garrison"]
    pool = [u for u in japanese if u.id not in start]
    assert len(pool) == 4 and all(u.provenance.source == "SNC-9.1.3" for u in pool)
    assert all(u.is_static for u in UNITS if "Garrison" in u.name)


def test_snc_2_2_1_11_steps() -> None:
    """SNC-2.2.1.11: units have one or two steps; most Chinese units one; Chinese elite units
    and the Japanese (SNC-8.3.2: regiments are rebuilt) two. SNC-8.1.5: the 14th Division is
    an elite infantry division."""
    chinese = [u for u in UNITS if u.side == "CH"]
    assert sum(u.steps == 1 for u in chinese) > len(chinese) / 2
    assert all(u.steps == 2 for u in chinese if u.arm == "elite")
    assert all(u.steps == 2 for u in UNITS if u.side == "JP" and not u.is_static)
    the_14th = [u for u in chinese if u.name == "14th Division"]
    assert [(u.arm, u.type, u.size) for u in the_14th] == [("elite", "infantry", "XX")]


def test_snc_2_2_1_4_and_2_2_1_5_sizes_and_types() -> None:
    """SNC-2.2.1.4: divisions XX, brigades and detachments X, regiments III, battalions II;
    SNC-2.2.1.5: infantry, naval infantry (the SNLF) and static units; SNC-2.2.1.3: TP, TD,
    PPC and SNLF designations."""
    for u in UNITS:
        if u.name.endswith("Division"):
            assert u.size == "XX", u.id
        elif u.name.endswith(("Brigade", "Detachment")):
            assert u.size == "X", u.id
        elif u.name.endswith("Regiment"):
            assert u.size == "III", u.id
    assert {u.type for u in UNITS} == {"infantry", "naval_infantry", "static"}
    names = {u.name for u in UNITS}
    assert {"Tax Police Division", "PPC Division", "1/TD Brigade", "SNLF 9"} <= names


def test_snc_6_2_1_and_6_2_2_japanese_organisation() -> None:
    """SNC-6.2.1: a Japanese division is four infantry regiments (3rd, 11th, 101st, 9th, 13th,
    6th, 18th, 114th, 16th); SNC-6.2.2: four SNLF battalions, SNLF 1, 2, 3 and 9; SNC-13.32:
    the 9th Brigade of the 5th Division is the two remaining units of the 10th Army's 14."""
    regiments = Counter(u.division for u in UNITS if u.size == "III" and u.brigade is None)
    assert regiments == {
        f"{n} Division": 4
        for n in ("3rd", "11th", "101st", "9th", "13th", "6th", "18th", "114th", "16th")
    }
    snlf = sorted(u.name for u in UNITS if u.type == "naval_infantry")
    assert snlf == ["SNLF 1", "SNLF 2", "SNLF 3", "SNLF 9"]
    assert all(u.size == "II" for u in UNITS if u.type == "naval_infantry")
    tenth = [u for u in UNITS if u.formation == "10th Army"]
    assert len(tenth) == 14 and sum(u.brigade == "9th Brigade" for u in tenth) == 2


def test_snc_11_0_1_marker_kinds() -> None:
    """SNC-11.0.1: both sides have artillery markers; only the Japanese have air, naval gunfire
    and amphibious invasion support markers."""
    kinds = {(m.side, m.kind) for m in DATA.setup.markers}
    assert {k for s, k in kinds if s == "CH"} == {"artillery"}
    assert {k for s, k in kinds if s == "JP"} == {"artillery", "air", "naval_gunfire", "amphibious"}


def test_snc_2_2_1_2_colour_schemes() -> None:
    """SNC-2.2.1.2: Japanese counters; Chinese regular (white on blue), elite (white on black)
    and garrison (black on green)."""
    assert {u.arm for u in UNITS if u.side == "JP"} == {"japanese"}
    assert {u.arm for u in UNITS if u.side == "CH"} == {"regular", "elite", "garrison"}
    assert all(u.arm == "garrison" for u in UNITS if u.side == "CH" and "Garrison" in u.name)


def test_section_12_unit_values() -> None:
    """Section 12 (no clauses, so the values stay provisional): the two-step Wusong Garrison
    defends with 3; the 3rd Division attacks with 16, the 11th with 12, the four SNLF with 8, a
    detachment adds 3; 3511's set-up defends with 9 and 3611's is 3 steps; elite divisions are
    5-strength; the Training Brigade stack defends with 10."""
    by_name = {u.name: u for u in UNITS}
    wusong = by_name["Wusong Garrison"]
    assert (wusong.steps, wusong.cf) == (2, 3) and "cf" in wusong.provenance.provisional
    assert sum(u.cf for u in UNITS if u.division == "3rd Division") == 16
    assert sum(u.cf for u in UNITS if u.division == "11th Division") == 12
    assert sum(u.cf for u in UNITS if u.type == "naval_infantry") == 8
    assert by_name["Shigeto Detachment"].cf == 3
    at: dict[str, list[UnitSpec]] = {}
    for a in DATA.setup.at_start:
        for uid, h in a.place.items():
            at.setdefault(str(h), []).append(DATA.unit(uid))
    assert sum(u.cf for u in at["3511"]) == 9 and sum(u.steps for u in at["3611"]) == 3
    assert {u.cf for u in UNITS if u.arm == "elite" and u.size == "XX"} == {5}
    assert by_name["1/TD Brigade"].cf + by_name["2/TD Brigade"].cf == 10


def test_every_provisional_unit_value_says_how_it_was_chosen() -> None:
    """SNC-13.1 to SNC-13.33, SNC-9.1.3: every unit names its source clause; CF (the counters
    are images) is provisional for every unit, with a note."""
    for u in UNITS:
        assert u.provenance.source.startswith("SNC-13.") or u.provenance.source == "SNC-9.1.3"
        assert "cf" in u.provenance.provisional and u.provenance.note


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        ([("counters = 176", "counters = 175")], {"SNC-2.0.1"}),
        ([("counters = 6", "counters = 5")], {"SNC-2.0.1", "SNC-2.0.3"}),
        ([('name = "14th Division"\nside = "CH"\narm = "elite"',
           'name = "14th Division"\nside = "CH"\narm = "regular"')], {"SNC-8.1.5"}),
        ([('name = "SNLF 9"', 'name = "SNLF 4"')], {"SNC-13.27", "SNC-6.2.2", "§12 GT 1"}),
        ([('name = "Shigeto Detachment"\nside = "JP"\narm = "japanese"\ntype = "infantry"\n'
           'size = "X"', 'name = "Shigeto Detachment"\nside = "JP"\narm = "japanese"\n'
           'type = "infantry"\nsize = "III"')], {"SNC-2.2.1.4"}),
        ([('id = "CH-G-NANKING"\nname = "Nanking Garrison"\nside = "CH"\narm = "garrison"\n'
           'type = "static"', 'id = "CH-G-NANKING"\nname = "Nanking Garrison"\nside = "CH"\n'
           'arm = "garrison"\ntype = "infantry"')], {"SNC-9.1.1"}),
    ],
)  # fmt: skip
def test_snc_2_counters_a_wrong_transcription_fails_its_clause(
    tmp_path: Path, edits: list[tuple[str, str]], expected: set[str]
) -> None:
    """SNC-2.0.1, SNC-2.0.3, SNC-8.1.5, SNC-13.27, SNC-6.2.2, SNC-2.2.1.4, SNC-9.1.1: a
    counters file that breaks a stated fact fails that fact's clause."""
    assert failed(edited(tmp_path, "counters.toml", *edits)) == expected
