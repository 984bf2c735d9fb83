"""Retreating one hex after an amphibious landing (SNC-8.4.0.9, SNC-8.4.1.3; AMB-SNC-11)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.hexes import Hex
from specs.snc1937.rules.retreat import retreat_hexes, retreat_outcome, retreats
from specs.snc1937.rules.zoc import zoc_hexes
from tests.snc1937.test_movement import LAND
from tests.snc1937.test_zoc import BOARD, CH, CH_STATIC, DATA, JP, STANDARD, h, pos, variant


def test_snc_8_4_0_9_retreat_one_hex_to_a_free_neighbour() -> None:
    """SNC-8.4.0.9, AMB-SNC-11: the survivors retreat into an adjacent hex without enemy units;
    from Wusong (3510) with Japanese units in 3511, every other land neighbour will do."""
    got = retreat_hexes(BOARD, DATA, STANDARD, pos(h3510=CH, h3511=JP), "CH", h("3510"))
    assert set(got) == {h("3509"), h("3609"), h("3610"), h("3410"), h("3409")}


def test_snc_8_4_0_9_garrison_steps_are_eliminated() -> None:
    """SNC-8.4.0.9: garrison steps do not retreat; they are eliminated."""
    assert not retreats(DATA, CH_STATIC) and retreats(DATA, CH)
    assert retreat_outcome(BOARD, DATA, STANDARD, pos(h3510=CH_STATIC), CH_STATIC, h("3510")) == ()


def test_snc_8_4_0_9_never_into_3513_or_water() -> None:
    """SNC-8.4.0.9, SNC-0.0.1, SNC-9.4.6: no retreat into the International Settlement or a
    sea hex."""
    assert h("3513") not in retreat_hexes(BOARD, DATA, STANDARD, {}, "CH", h("3514"))
    from_hangzhou = retreat_hexes(BOARD, DATA, STANDARD, {}, "CH", h("1824"))
    assert h("1925") not in from_hangzhou and h("1724") in from_hangzhou


def test_snc_8_4_0_9_nowhere_to_go_means_elimination() -> None:
    """SNC-8.4.0.9, AMB-SNC-11: with every neighbour held by the enemy the unit is eliminated
    (no retreat hex)."""
    around = {n: (f"JP-11D-{i % 4 + 1}",) for i, n in enumerate(BOARD.neighbors(h("2707")))}
    stacks = {h("2707"): (CH,), **around}
    assert retreat_outcome(BOARD, DATA, STANDARD, stacks, CH, h("2707")) == ()


def test_snc_8_4_1_3_retreat_from_a_coastal_hex_and_ezoc_option() -> None:
    """SNC-8.4.1.3, AMB-SNC-11: the Chinese in a coastal hex the 10th Army advances into retreat
    one hex; into an EZOC hex by default, never under retreat_into_ezoc=forbidden."""
    stacks = pos(h3417=JP, h3416=CH)
    ezoc = zoc_hexes(BOARD, DATA, STANDARD, stacks, "JP")
    allowed = set(retreat_hexes(BOARD, DATA, STANDARD, stacks, "CH", h("3416")))
    forbidden = set(
        retreat_hexes(BOARD, DATA, variant(retreat_into_ezoc="forbidden"), stacks, "CH", h("3416"))
    )
    assert allowed & ezoc and not forbidden & ezoc
    assert forbidden and forbidden < allowed


@settings(max_examples=60, deadline=None)
@given(frm=st.sampled_from(LAND), foe=st.sampled_from(LAND))
def test_snc_8_4_0_9_retreat_hexes_are_legal(frm: Hex, foe: Hex) -> None:
    """SNC-8.4.0.9, SNC-9.0.12, SNC-9.4.6 (property): every retreat hex touches the start, can
    be entered, holds no enemy and is not across a prohibited hexside."""
    stacks = {frm: (CH,)} if frm == foe else {frm: (CH,), foe: (JP,)}
    for x in retreat_hexes(BOARD, DATA, STANDARD, stacks, "CH", frm):
        assert x in BOARD.neighbors(frm) and BOARD.enterable(x) and x != foe
        assert BOARD.side_kind(frm, x) not in DATA.tec.prohibited_sides
