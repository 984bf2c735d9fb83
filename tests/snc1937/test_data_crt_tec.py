"""The Combat Results Table (SNC-10.3.1.1, section 10.5, the errata SNC-0.0.4) and the Terrain
Effects Chart entries the rules state (sections 9 and 10.4.1), against the data."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from specs.snc1937.formal.facts import CRT_CELLS, CRT_COLUMNS, ERRATA_CELLS, EXAMPLE_CELLS
from tests.snc1937.datafiles import DATA, edited, failed

CRT = DATA.crt
TEC = DATA.tec


def test_snc_10_3_1_1_columns_and_odds_limits() -> None:
    """SNC-10.3.1.1: the columns run from 1:3 to 6:1; odds beyond are read on the end columns
    (the limits are the first and last column). SNC-2.0.2, SNC-10.5.0.1: one six-sided die, a
    result under every column for every face."""
    assert CRT.columns == CRT_COLUMNS == ("1:3", "1:2", "1:1", "2:1", "3:1", "4:1", "5:1", "6:1")
    assert (CRT.lowest, CRT.highest, CRT.die) == ("1:3", "6:1", 6)
    assert len(CRT.cells) == 8 * 6


def test_snc_10_5_0_2_and_10_5_1_2_three_to_one_rolling_three() -> None:
    """SNC-10.5.0.2: a 3 rolled at 3:1 gives 1/2; SNC-10.5.1.2, SNC-10.5.1.1: the attacker
    loses one step (left of the slash) and the defender two (right)."""
    attacker, defender = CRT.result("3:1", 3)
    assert (attacker, defender) == (1, 2)


def test_snc_0_0_4_errata_five_to_one_rolling_six() -> None:
    """SNC-0.0.4: map errata: a 6 at 5:1 gives 0/4. The data holds the corrected cell and the
    printed one, which the correction changes (so it is not 0/4)."""
    assert CRT.errata == {("5:1", 6): (0, 4)}
    assert CRT.result("5:1", 6) != (0, 4)


def test_snc_10_5_the_text_gives_exactly_these_cells() -> None:
    """SNC-10.5.0.2, SNC-0.0.4: the cells the rules give hold, and they are the only cells of
    the table not listed as provisional; the cells section 12 narrates (2:1/3 = 1/1,
    5:1/4 = 0/3, 3:1/2 = 2/1) hold too but stay provisional (section 12 has no clauses)."""
    for _, odds, face, want in CRT_CELLS + EXAMPLE_CELLS:
        assert CRT.result(odds, face) == want, (odds, face)
    for _, odds, face, want in ERRATA_CELLS:
        assert CRT.errata[odds, face] == want, (odds, face)
    given = set()
    for name, prov in CRT.records[1:]:
        if name.startswith("column"):
            odds = name.split()[-1]
            given |= {(odds, f) for f in range(1, 7) if f"d{f}" not in prov.provisional}
    assert given == {("3:1", 3)}  # the printed 5:1/6 is not in the text, only its correction


def test_snc_9_6_9_the_overrun_examples_cells() -> None:
    """SNC-9.6.9: the overrun at a final 4:1 rolls a 3 and loses exactly one Japanese step while
    the one-step Chinese division is eliminated; moving from 3:1 to 4:1 avoids a two-step
    attacker loss."""
    attacker, defender = CRT.result("4:1", 3)
    assert attacker == 1 and defender >= 1
    assert max(CRT.result("3:1", f)[0] for f in range(1, 7)) == 2
    assert max(CRT.result("4:1", f)[0] for f in range(1, 7)) == 1


def test_the_provisional_crt_is_monotone() -> None:
    """Columns run from the defender's favour to the attacker's; the provisional body keeps that
    order: a better column or a higher die never costs the attacker more steps or the defender
    fewer, and no result exceeds 4 defender steps."""
    for i, odds in enumerate(CRT.columns):
        for face in range(1, 7):
            a, d = CRT.result(odds, face)
            if face > 1:
                pa, pd = CRT.result(odds, face - 1)
                assert a <= pa and d >= pd, (odds, face)
            if i > 0:
                pa, pd = CRT.result(CRT.columns[i - 1], face)
                assert a <= pa and d >= pd, (odds, face)
            assert d <= 4


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        ([('result = "0/4"', 'result = "0/3"')], {"SNC-0.0.4"}),
        (  # the 5:1 column's printed 6 made the corrected value: no correction left
            [('d6 = "0/3"\nsource = "provisional"', 'd6 = "0/4"\nsource = "provisional"')],
            {"SNC-0.0.4"},
        ),
        (
            [('d3 = "1/2"\nd4 = "1/2"\nd5 = "0/2"\nd6 = "0/3"\nsource = "SNC-10.5.0.2"',
              'd3 = "2/1"\nd4 = "1/2"\nd5 = "0/2"\nd6 = "0/3"\nsource = "SNC-10.5.0.2"')],
            {"SNC-10.5.0.2", "SNC-10.5.1.2"},
        ),
        ([('highest = "6:1"', 'highest = "5:1"')], {"SNC-10.3.1.1"}),
        ([('odds = "2:1"\nd1 = "2/0"\nd2 = "2/1"\nd3 = "1/1"',
           'odds = "2:1"\nd1 = "2/0"\nd2 = "2/1"\nd3 = "1/2"')], {"§12 GT 3"}),
    ],
)  # fmt: skip
def test_snc_10_crt_a_wrong_transcription_fails_its_clause(
    tmp_path: Path, edits: list[tuple[str, str]], expected: set[str]
) -> None:
    """SNC-0.0.4, SNC-10.5.0.2, SNC-10.5.1.2, SNC-10.3.1.1, section 12: a CRT that differs from
    a cell or limit the text gives fails that clause, cell by cell."""
    assert failed(edited(tmp_path, "crt.toml", *edits)) == expected


def test_snc_9_0_2_movement_factors() -> None:
    """SNC-9.0.2: mobile units have MF 8, static units MF 0."""
    assert (TEC.mf_mobile, TEC.mf_static) == (8, 0)


def test_snc_9_4_movement_costs() -> None:
    """SNC-9.4.1: Chinese infantry pay 1 MP a hex whatever the terrain; SNC-9.4.2: one or two
    more for creeks and rivers (provisional: 1 and 2, AMB-SNC-23); SNC-9.4.3: Japanese clear 1;
    SNC-9.4.4: woods, marsh, rice paddy 2; SNC-9.4.5: +2 across a river, +1 across a creek."""
    for terrain in ("clear", "woods", "marsh", "paddy"):
        assert TEC.mp(TEC.enter, "CH", terrain) == 1
        assert TEC.mp(TEC.enter, "JP", terrain) == (1 if terrain == "clear" else 2)
    for side in ("JP", "CH"):
        assert TEC.mp(TEC.cross, side, "river") == 2
        assert TEC.mp(TEC.cross, side, "creek") == 1
    provisional = {n for n, p in TEC.records if p.is_provisional}
    assert provisional == {"cross[2]", "cross[3]", "defence[3]"}


def test_snc_9_5_manmade_terrain_costs() -> None:
    """SNC-9.5.0.2: a city costs 1 MP; SNC-9.5.0.3: a town what its other terrain costs;
    SNC-9.5.1.1: the Japanese pay 1/2 MP along a road or railroad."""
    assert TEC.mp(TEC.manmade, "JP", "city") == 1
    assert TEC.manmade["JP", "town"] == "terrain" and TEC.mp(TEC.manmade, "JP", "town") is None
    assert TEC.mp(TEC.manmade, "JP", "road") == TEC.mp(TEC.manmade, "JP", "railroad")
    assert TEC.mp(TEC.manmade, "JP", "road") == Fraction(1, 2)
    assert ("CH", "road") not in TEC.manmade  # AMB-SNC-22: left to the rules


def test_snc_9_4_6_prohibited_terrain() -> None:
    """SNC-9.4.6: 3513, all-sea, all-lake and Yangtze Estuary hexes, and Yangtze hexsides, are
    prohibited; the Yangtze in-hex terrain (SNC-9.3.3) too."""
    assert TEC.prohibited_terrain == {"yangtze", "estuary", "sea", "lake"}
    assert TEC.prohibited_sides == {"yangtze", "all_sea", "all_lake"} and TEC.neutral_prohibited


def test_snc_10_4_1_terrain_shifts() -> None:
    """SNC-10.4.1.1: at most two left shifts for terrain; SNC-10.4.1.2: clear none;
    SNC-10.4.1.3: woods and marsh 1L; SNC-10.4.1.4: towns 1L for the Chinese only;
    SNC-10.4.1.7: cities 2L; SNC-10.4.1.8: attacks across a creek at 1/2, a river at 1/3;
    SNC-10.4.1.9: no combat across all-sea or all-lake hexsides."""
    assert TEC.terrain_cap == 2
    for side in ("CH", "JP"):
        assert TEC.defence[side, "clear"] == 0
        assert TEC.defence[side, "woods"] == TEC.defence[side, "marsh"] == 1
        assert TEC.defence[side, "city"] == 2
    assert TEC.defence["CH", "town"] == 1 and ("JP", "town") not in TEC.defence
    assert TEC.attack_across == {"creek": Fraction(1, 2), "river": Fraction(1, 3)}
    assert TEC.no_combat_across == {"all_sea", "all_lake"}


@pytest.mark.parametrize(
    ("edits", "expected"),
    [
        ([('mp = "2"\nsource = "SNC-9.4.4"', 'mp = "3"\nsource = "SNC-9.4.4"')], {"SNC-9.4.4"}),
        ([('fraction = "1/2"', 'fraction = "1/3"')], {"SNC-10.4.1.8"}),
        ([('feature = "town"\nside = "CH"', 'feature = "town"')], {"SNC-10.4.1.4"}),
        ([("mobile = 8", "mobile = 6")], {"SNC-9.0.2"}),
        ([('mp = "1/2"\nsource = "SNC-9.5.1.1"', 'mp = "1"\nsource = "SNC-9.5.1.1"')],
         {"SNC-9.5.1.1"}),
    ],
)  # fmt: skip
def test_snc_tec_a_wrong_transcription_fails_its_clause(
    tmp_path: Path, edits: list[tuple[str, str]], expected: set[str]
) -> None:
    """SNC-9.4.4, SNC-10.4.1.8, SNC-10.4.1.4, SNC-9.0.2, SNC-9.5.1.1: a TEC that differs from
    the rules' values fails that clause."""
    assert failed(edited(tmp_path, "tec.toml", *edits)) == expected
