"""Odds, column shifts and the CRT cell of one SNC battle (SNC-10.3.x, SNC-10.4.x, SNC-10.5.x,
SNC-8.4.0.5, SNC-9.6.4, SNC-9.6.5, SNC-11.1.2, SNC-0.0.3, SNC-0.0.4), with the arithmetic of the
examples of play (section 12 and SNC-9.6.9) asserted under preset `standard`."""

from __future__ import annotations

from collections.abc import Mapping

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.errors import IllegalAction, InvalidInput
from kernel.hexes import Hex, hex_neighbors, parse_hex
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData, load_data
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.rules import column_shifts as CS
from specs.snc1937.rules import odds as O
from specs.snc1937.rules.board import Board

DATA = load_data()
BOARD = Board(DATA)


def variant(**overrides: str) -> Variant:
    """Preset `standard` of the game's catalogue with `overrides`."""
    return CATALOGUE.variant("standard", overrides)


def h(text: str) -> Hex:
    return parse_hex(text)


def pos(layout: Mapping[str, tuple[str, ...]]) -> dict[Hex, tuple[str, ...]]:
    return {h(k): v for k, v in layout.items()}


def at(stacks: Mapping[Hex, tuple[str, ...]], *hexes: str) -> dict[str, Hex]:
    """The units of `hexes` as attackers, each from its own hex."""
    return {u: h(x) for x in hexes for u in stacks[h(x)]}


THIRD = ("JP-3D-1", "JP-3D-2", "JP-3D-3", "JP-3D-4")
ELEVENTH = ("JP-11D-1", "JP-11D-2", "JP-11D-3", "JP-11D-4")


# --- the column scale (SNC-10.3.0.x, SNC-10.3.1.1) -----------------------------------------------


def test_snc_10_3_0_2_and_10_3_0_3_high_odds_round_down() -> None:
    """SNC-10.3.0.2, SNC-10.3.0.3: 26 attacking 7 is 3.71, rounded down to 3:1."""
    assert O.column_label(O.base_column(26, 7)) == "3:1"


def test_snc_10_3_0_4_and_10_3_0_5_poor_odds_round_up() -> None:
    """SNC-10.3.0.4, SNC-10.3.0.5: 5 attacking 9 is 9/5 = 1.8, rounded UP to 1:2."""
    assert O.column_label(O.base_column(5, 9)) == "1:2"


@pytest.mark.parametrize(
    ("attack", "defence", "label"),
    [
        (8, 3, "2:1"),
        (16, 9, "1:1"),
        (12, 9, "1:1"),
        (9, 10, "1:2"),
        (10, 2, "5:1"),
        (9, 9, "1:1"),
        (1, 3, "1:3"),
        (1, 4, "1:4"),
        (2, 7, "1:4"),
        (7, 1, "7:1"),
    ],
)
def test_snc_10_3_0_1_odds_on_the_unbounded_scale(attack: int, defence: int, label: str) -> None:
    """SNC-10.3.0.1 to SNC-10.3.0.4: the basic odds before the limits, as labels."""
    assert O.column_label(O.base_column(attack, defence)) == label


def test_snc_10_3_0_1_strengths_must_be_positive() -> None:
    """SNC-10.3.0.1: odds divide one total by the other; a zero total is refused."""
    with pytest.raises(InvalidInput):
        O.base_column(0, 3)
    with pytest.raises(InvalidInput):
        O.base_column(3, 0)


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 60), st.integers(1, 60), st.integers(1, 10))
def test_snc_10_3_0_2_odds_are_monotone(attack: int, defence: int, more: int) -> None:
    """SNC-10.3.0.2, SNC-10.3.0.4: more attack never lowers the column; more defence never
    raises it; the column matches the printed rule for its side of 1:1."""
    base = O.base_column(attack, defence)
    assert O.base_column(attack + more, defence) >= base
    assert O.base_column(attack, defence + more) <= base
    if attack >= defence:
        assert O.column_label(base) == f"{attack // defence}:1"
    else:
        assert O.column_label(base) == f"1:{-(-defence // attack)}"


@settings(max_examples=100, deadline=None)
@given(st.integers(-30, 30))
def test_snc_10_3_1_1_labels_round_trip(column: int) -> None:
    """SNC-10.3.1.1: every column of the scale has one printed label and back."""
    assert O.parse_column(O.column_label(column)) == column


def test_snc_10_3_1_1_the_printed_columns() -> None:
    """SNC-10.3.1.1: the CRT runs 1:3 to 6:1; those are the clamp's bounds and the table's
    columns."""
    labels = tuple(O.column_label(c) for c in range(O.LOWEST, O.HIGHEST + 1))
    assert labels == DATA.crt.columns
    assert O.column_label(O.clamp(O.base_column(9, 1))) == "6:1"
    assert O.column_label(O.clamp(O.base_column(1, 5))) == "1:3"


def test_snc_10_3_1_1_amb_snc_2_limits_after_or_before_shifts() -> None:
    """SNC-10.3.1.1, SNC-10.4.0.3 (AMB-SNC-2): 9:1 with 2L is 7:1, read at 6:1, when the
    final odds are clamped (`clamp_after_shifts`, standard); 4:1 when the basic odds are clamped
    first (`clamp_before_shifts`). Below the table: 1:5 with 3R is 1:2
    after and 2:1 before."""
    base = O.base_column(9, 1)
    assert O.column_label(O.final_column(base, -2, variant())) == "6:1"
    before = variant(odds_limits="clamp_before_shifts")
    assert O.column_label(O.final_column(base, -2, before)) == "4:1"
    low = O.base_column(1, 5)
    assert O.column_label(O.final_column(low, 3, variant())) == "1:2"
    assert O.column_label(O.final_column(low, 3, before)) == "2:1"


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(-6, 6))
def test_snc_10_3_1_1_clamp_readings_agree_inside_the_table(
    attack: int, defence: int, net: int
) -> None:
    """SNC-10.3.1.1 (AMB-SNC-2): when the basic odds are on the table the two readings agree,
    and the final column is always one of the table's."""
    base = O.base_column(attack, defence)
    after = O.final_column(base, net, variant())
    before = O.final_column(base, net, variant(odds_limits="clamp_before_shifts"))
    assert O.LOWEST <= after <= O.HIGHEST and O.LOWEST <= before <= O.HIGHEST
    if O.LOWEST <= base <= O.HIGHEST:
        assert after == before


# --- strengths (SNC-10.3.0.1, SNC-10.4.1.8, SNC-10.0.4, SNC-10.2.x, SNC-8.4.0.5) ---------------


def test_snc_10_4_1_8_creek_halves_only_the_crossing_units() -> None:
    """SNC-10.4.1.8: across a creek (3510/3511) a unit attacks at 1/2; the units attacking from
    3512 (no creek) are not reduced."""
    stacks = pos({"3510": THIRD, "3512": ("JP-SNLF1", "JP-SNLF2"), "3511": ("CH-98D",)})
    assert BOARD.side_kind(h("3510"), h("3511")) == "creek"
    assert O.attack_strength(DATA, BOARD, h("3511"), at(stacks, "3510"), frozenset()) == 8
    assert O.attack_strength(DATA, BOARD, h("3511"), at(stacks, "3512"), frozenset()) == 4
    both = at(stacks, "3510", "3512")
    assert O.attack_strength(DATA, BOARD, h("3511"), both, frozenset()) == 12


def test_snc_10_4_1_8_total_then_round_down() -> None:
    """SNC-10.4.1.8: the adjusted strengths are totalled, then rounded down once: two 3-CF
    regiments across a creek make 3/2 + 3/2 = 3 (rounding each would give 2); three 4-CF
    regiments across the Huangpu river make 12/3 = 4 (not 3)."""
    creek = pos({"3510": ("JP-11D-1", "JP-11D-2"), "3511": ("CH-98D",)})
    assert O.attack_strength(DATA, BOARD, h("3511"), at(creek, "3510"), frozenset()) == 3
    river = pos({"3610": THIRD[:3], "3609": ("CH-98D",)})
    assert BOARD.side_kind(h("3610"), h("3609")) == "river"
    assert O.attack_strength(DATA, BOARD, h("3609"), at(river, "3610"), frozenset()) == 4


def test_snc_10_4_1_8_fractions_come_from_the_tec() -> None:
    """SNC-10.4.1.8: the creek and river fractions are read from the TEC data."""
    tec = attrs.evolve(DATA.tec, attack_across={"creek": DATA.tec.attack_across["river"]})
    data = _with(tec=tec)
    creek = pos({"3510": THIRD, "3511": ("CH-98D",)})
    assert O.attack_strength(data, Board(data), h("3511"), at(creek, "3510"), frozenset()) == 5


def _with(**changes: object) -> SNCData:
    return SNCData(  # a copy of the data with some parts replaced
        changes.get("map", DATA.map),  # type: ignore[arg-type]
        DATA.components,
        DATA.units,
        DATA.setup,
        changes.get("crt", DATA.crt),  # type: ignore[arg-type]
        changes.get("tec", DATA.tec),  # type: ignore[arg-type]
    )


def test_snc_10_3_0_1_reduced_units_attack_with_their_back() -> None:
    """SNC-10.3.0.1: a unit in `reduced` attacks with its reduced CF (the 11th Division with two
    regiments reduced totals 10, as in SNC-9.6.9)."""
    stacks = pos({"2806": ELEVENTH, "2707": ("CH-13D",)})
    reduced = frozenset({"JP-11D-3", "JP-11D-4"})
    assert O.attack_strength(DATA, BOARD, h("2707"), at(stacks, "2806"), reduced) == 10


def test_snc_10_2_1_and_2_2_1_6_static_units_never_attack() -> None:
    """SNC-10.2.1, SNC-2.2.1.6, SNC-10.2.3: a static unit has attack factor 0 and may not be in
    an attack; infantry may attack out of its hex (SNC-10.2.2)."""
    stacks = pos({"3512": ("JP-SNLF1", "JP-G-SHANGHAI"), "3511": ("CH-98D",)})
    assert O.attack_factor(DATA.unit("JP-G-SHANGHAI"), frozenset()) == 0
    bad = {"JP-SNLF1": h("3512"), "JP-G-SHANGHAI": h("3512")}
    problem = O.attack_problem(DATA, BOARD, h("3511"), bad, stacks)
    assert problem is not None and "SNC-10.2.1" in problem
    with pytest.raises(IllegalAction):
        O.attack_strength(DATA, BOARD, h("3511"), bad, frozenset())
    good = {"JP-SNLF1": h("3512")}
    assert O.attack_problem(DATA, BOARD, h("3511"), good, stacks) is None


def test_snc_10_4_1_9_no_combat_across_all_lake() -> None:
    """SNC-10.4.1.9: no attack across an all-lake (or all-sea) hexside: 2609/2709."""
    stacks = pos({"2609": ("JP-3D-1",), "2709": ("CH-98D",)})
    assert BOARD.side_kind(h("2609"), h("2709")) == "all_lake"
    problem = O.attack_problem(DATA, BOARD, h("2709"), at(stacks, "2609"), stacks)
    assert problem is not None and "SNC-10.4.1.9" in problem
    with pytest.raises(IllegalAction) as err:
        O.battle_odds(DATA, BOARD, variant(), h("2709"), at(stacks, "2609"), stacks, frozenset())
    assert err.value.clauses == ("SNC-10.4.1.9",)


def test_snc_10_0_1_attackers_must_be_adjacent_and_enemy() -> None:
    """SNC-10.0.1, SNC-10.0.3: attacks are between adjacent opposing units, all attackers of one
    side."""
    stacks = pos({"3509": ("JP-3D-1",), "3511": ("CH-98D",), "3510": ("CH-G-WUSONG",)})
    assert O.attack_problem(DATA, BOARD, h("3511"), at(stacks, "3509"), stacks) is not None
    mixed = {"JP-3D-1": h("3509"), "CH-G-WUSONG": h("3510")}
    assert O.attack_problem(DATA, BOARD, h("3511"), mixed, stacks) is not None
    assert O.attack_problem(DATA, BOARD, h("3510"), at(stacks, "3509"), stacks) is None


def test_snc_10_0_4_every_defender_counts() -> None:
    """SNC-10.0.4, SNC-10.2.1: all units in the attacked hex defend, static ones included, each
    with its current CF (3511 at start: 87th 5, 98th 3, a garrison 1 = 9)."""
    defenders = ("CH-87D", "CH-98D", "CH-G-A")
    assert O.defence_strength(DATA, defenders, frozenset()) == 9
    assert O.defence_strength(DATA, defenders, frozenset({"CH-87D"})) == 6


def test_snc_8_4_0_5_amb_snc_13_landing_halving() -> None:
    """SNC-8.4.0.5 (AMB-SNC-13): landing units halve their CF, rounding down: on the total
    (`total`, standard: 3 + 3 = 6 -> 3) or per unit (`per_unit`: 1 + 1 = 2)."""
    units = ("JP-11D-1", "JP-11D-2")
    assert O.landing_strength(DATA, units, frozenset(), variant()) == 3
    assert O.landing_strength(DATA, units, frozenset(), variant(landing_halving="per_unit")) == 2
    assert O.landing_strength(DATA, THIRD, frozenset(), variant()) == 8


# --- shifts (SNC-10.4.x, SNC-9.6.5, SNC-11.1.2) -------------------------------------------------


def terrain_left(
    target: str, side: str = "CH", v: Variant | None = None, board: Board = BOARD
) -> int:
    found = CS.in_hex_terrain_shifts(board.data, board, h(target), side, v or variant())
    return -CS.net_shift(CS.terrain_cap(found, board.data.tec.terrain_cap))


def test_snc_10_4_1_2_clear_gives_nothing() -> None:
    """SNC-10.4.1.2: clear terrain without other features gives no shift (3511)."""
    assert BOARD.terrain(h("3511")) == "clear" and terrain_left("3511") == 0


def test_snc_10_4_1_3_woods_and_marsh_one_left() -> None:
    """SNC-10.4.1.3: woods and marsh give 1L to either side (0717 woods, 2707 marsh)."""
    assert BOARD.terrain(h("0717")) == "woods" and not BOARD.is_town(h("0717"))
    assert terrain_left("0717") == 1 and terrain_left("0717", "JP") == 1
    assert terrain_left("2707") == 1 and terrain_left("2707", "JP") == 1


def test_snc_10_4_1_4_town_one_left_for_chinese_only() -> None:
    """SNC-10.4.1.4: Chinese defenders in a town (3410, clear) get 1L, Japanese none."""
    assert terrain_left("3410", "CH") == 1
    assert terrain_left("3410", "JP") == 0


def test_snc_0_0_3_and_10_4_1_5_town_in_marsh_two_left() -> None:
    """SNC-0.0.3, SNC-10.4.1.5 (AMB-SNC-1, `town_marsh_woods=two_left`, standard): a town in a
    marsh (2606) or woods (0116) hex gives Chinese defenders 2L; Japanese only the terrain's 1L."""
    assert terrain_left("2606") == 2 and terrain_left("0116") == 2
    assert terrain_left("2606", "JP") == 1


def test_snc_10_4_1_6_town_errata_one_left() -> None:
    """SNC-10.4.1.6 (AMB-SNC-1, `town_marsh_woods=one_left`): the town gives 1L whatever the
    terrain, so a town in marsh gives only 1L."""
    v = variant(town_marsh_woods="one_left")
    assert terrain_left("2606", v=v) == 1 and terrain_left("0116", v=v) == 1
    assert terrain_left("2606", "JP", v=v) == 1  # no town shift for the Japanese


def test_snc_10_4_1_7_city_two_left_and_nothing_more() -> None:
    """SNC-10.4.1.7: a city gives 2L and other in-hex terrain adds none (3512; and 2410 made
    marsh in a copy of the map)."""
    assert terrain_left("3512") == 2 and terrain_left("3512", "JP") == 2
    terrain = {**DATA.map.terrain, h("2410"): "marsh"}
    data = _with(map=attrs.evolve(DATA.map, terrain=terrain))
    found = CS.in_hex_terrain_shifts(data, Board(data), h("2410"), "CH", variant())
    assert CS.net_shift(found) == -2


def test_snc_10_4_1_1_terrain_cap_two_left() -> None:
    """SNC-10.4.1.1: terrain shifts are capped at 2L in total."""
    three = [CS.Shift(-1, "x", "a"), CS.Shift(-1, "y", "b"), CS.Shift(-1, "z", "c")]
    assert CS.net_shift(CS.terrain_cap(three, DATA.tec.terrain_cap)) == -2
    assert CS.net_shift(CS.terrain_cap(three[:1], 2)) == -1


def test_snc_10_4_1_1_amb_snc_3_cap_scope() -> None:
    """SNC-10.4.1.1 (AMB-SNC-3): the overrun 1L is outside the cap under `in_hex_only`
    (standard) and inside it under `all_shifts` (the arithmetic on a town in marsh, 2606)."""
    kw: dict[str, object] = {"attacker_side": "JP", "overrun": True}
    inside = CS.shifts(DATA, BOARD, h("2606"), ("CH-13D",), variant(), **kw)  # type: ignore[arg-type]
    assert CS.net_shift(inside) == -3
    capped = CS.shifts(
        DATA,
        BOARD,
        h("2606"),
        ("CH-13D",),
        variant(terrain_cap_scope="all_shifts"),
        **kw,  # type: ignore[arg-type]
    )
    assert CS.net_shift(capped) == -2


def test_snc_10_4_1_3_amb_snc_4_unstated_terrain() -> None:
    """SNC-10.4.1.3 (AMB-SNC-4): rice paddy has no stated combat effect: none under
    `no_effect` (standard); the TEC's value under `tec_data` (a TEC giving paddy 1L)."""
    assert BOARD.terrain(h("3308")) == "paddy"
    assert terrain_left("3308") == 0
    defence = {**DATA.tec.defence, ("CH", "paddy"): 1, ("JP", "paddy"): 1}
    data = _with(tec=attrs.evolve(DATA.tec, defence=defence))
    board = Board(data)
    assert terrain_left("3308", board=board) == 0
    assert terrain_left("3308", v=variant(unstated_terrain="tec_data"), board=board) == 1


def test_snc_9_6_5_overrun_one_left() -> None:
    """SNC-9.6.5: an overrun shifts one more column left."""
    plain = CS.shifts(DATA, BOARD, h("3511"), ("CH-98D",), variant(), attacker_side="JP")
    over = CS.shifts(
        DATA, BOARD, h("3511"), ("CH-98D",), variant(), attacker_side="JP", overrun=True
    )
    assert CS.net_shift(over) == CS.net_shift(plain) - 1
    assert any(s.clause == "SNC-9.6.5" for s in over)


def test_snc_11_1_2_each_marker_one_column_for_its_owner() -> None:
    """SNC-11.1.2, SNC-10.4.0.2: each attacker marker is 1R, each defender marker 1L."""
    kw = {"attacker_side": "JP"}
    base = CS.net_shift(CS.shifts(DATA, BOARD, h("3511"), ("CH-98D",), variant(), **kw))  # type: ignore[arg-type]
    more = CS.shifts(
        DATA,
        BOARD,
        h("3511"),
        ("CH-98D",),
        variant(),
        attacker_markers=3,
        defender_markers=1,
        **kw,  # type: ignore[arg-type]
    )
    assert CS.net_shift(more) == base + 2


def test_snc_10_4_0_3_shifts_are_cumulative() -> None:
    """SNC-10.4.0.1 to SNC-10.4.0.3: terrain, overrun and fire support add into one net shift."""
    found = CS.shifts(
        DATA, BOARD, h("2707"), ("CH-13D",), variant(), attacker_side="JP", overrun=True,
        attacker_markers=1,
    )  # fmt: skip
    assert [s.columns for s in found] == [-1, -1, 1] and CS.net_shift(found) == -1


# --- the concentric attack (SNC-10.4.2.x) ------------------------------------------------------


def concentric_shift(
    dirs: tuple[int, ...], side: str = "JP", target: str = "2707", **over: str
) -> bool:
    around = hex_neighbors(h(target))
    froms = [around[d] for d in dirs]
    stacks: dict[Hex, tuple[str, ...]] = {h(target): ("CH-13D",)}
    found = CS.shifts(
        DATA, BOARD, h(target), ("CH-13D",), variant(**over), attacker_side=side,
        attacker_hexes=froms, stacks=stacks,
    )  # fmt: skip
    return any(s.clause == "SNC-10.4.2.1" for s in found)


@pytest.mark.parametrize(
    ("dirs", "expected"),
    [
        ((0, 3), True),  # (1) two opposite hexes
        ((1, 4), True),
        ((0, 2, 4), True),  # (2) three with one hex between each
        ((1, 3, 5), True),
        ((0, 1, 2, 3), True),  # (3) more than three
        ((0, 1, 2, 4), True),
        ((0, 1), False),
        ((0, 2), False),
        ((0, 1, 2), False),
        ((0,), False),
    ],
)
def test_snc_10_4_2_1_concentric_geometry(dirs: tuple[int, ...], expected: bool) -> None:
    """SNC-10.4.2.1 (AMB-SNC-27, `concentric=directions`): 1R from two opposite hexes, three
    hexes with one between each, or more than three hexes."""
    assert concentric_shift(dirs) is expected


def test_snc_10_4_2_2_never_into_a_city() -> None:
    """SNC-10.4.2.2: no concentric shift into a city (3512), even from opposite hexes."""
    assert concentric_shift((0, 3), target="3512") is False
    assert concentric_shift((0, 3), target="3511") is True


def test_snc_10_4_2_3_japanese_only() -> None:
    """SNC-10.4.2.3: only Japanese attacks earn the concentric shift."""
    assert concentric_shift((0, 3), side="CH") is False


def test_snc_10_4_2_1_amb_snc_27_empty_between() -> None:
    """SNC-10.4.2.1 (AMB-SNC-27, `concentric=empty_between`): three alternating hexes qualify
    only if the hexes between hold no Japanese unit; opposite pairs are unaffected."""
    target = h("2707")
    around = hex_neighbors(target)
    stacks = {target: ("CH-13D",), around[1]: ("JP-9D-1",)}
    froms = [around[0], around[2], around[4]]
    for reading, expected in (("directions", True), ("empty_between", False)):
        assert CS.concentric(DATA, target, froms, stacks, variant(concentric=reading)) is expected
    assert CS.concentric(
        DATA, target, froms, {target: ("CH-13D",)}, variant(concentric="empty_between")
    )
    assert CS.concentric(
        DATA, target, [around[1], around[4]], stacks, variant(concentric="empty_between")
    )


# --- the CRT (SNC-10.5.x, SNC-0.0.4) -----------------------------------------------------------


def test_snc_10_5_0_2_and_10_5_1_2_three_to_one_rolls_three() -> None:
    """SNC-10.5.0.1, SNC-10.5.0.2, SNC-10.5.1.1, SNC-10.5.1.2: at 3:1 a 3 gives 1/2: the
    attacker loses one step and the defender two."""
    assert O.crt_result(DATA, variant(), O.parse_column("3:1"), 3) == (1, 2)


def test_snc_0_0_4_errata_five_to_one_six() -> None:
    """SNC-0.0.4: at 5:1 a 6 gives 0/4 under `crt_5to1_six=errata` (standard), the cell the
    errata box corrects; `printed` reads the cell as printed on the map, which the correction
    changed (whatever value a transcription of the map gives it: here 1/3)."""
    five = O.parse_column("5:1")
    assert O.crt_result(DATA, variant(), five, 6) == (0, 4)
    printed = O.crt_result(DATA, variant(crt_5to1_six="printed"), five, 6)
    assert printed == DATA.crt.result("5:1", 6) != (0, 4)
    cells = {**DATA.crt.cells, ("5:1", 6): (1, 3)}
    data = _with(crt=attrs.evolve(DATA.crt, cells=cells))
    assert O.crt_result(data, variant(), five, 6) == (0, 4)
    assert O.crt_result(data, variant(crt_5to1_six="printed"), five, 6) == (1, 3)
    for face in range(1, 6):  # the other faces read the same table under both readings
        assert O.crt_result(DATA, variant(), five, face) == DATA.crt.result("5:1", face)


def test_snc_10_3_1_1_crt_reads_clamped_columns() -> None:
    """SNC-10.3.1.1: 8:1 is read on the 6:1 column and 1:5 on the 1:3 column."""
    for face in range(1, 7):
        assert O.crt_result(DATA, variant(), 7, face) == DATA.crt.result("6:1", face)
        assert O.crt_result(DATA, variant(), -4, face) == DATA.crt.result("1:3", face)
    with pytest.raises(InvalidInput):
        O.crt_result(DATA, variant(), 0, 7)


# --- the examples of play (section 12, SNC-9.6.9) ------------------------------------------------


def test_snc_8_4_0_5_example_gt2_wusong_landing() -> None:
    """SNC-8.4.0.5, SNC-11.1.3 (section 12, GT 2): the 3rd Division lands at Wusong (3510,
    clear): "16 halved to 8 on the attack and 3 on defense for a 2:1", plus "the maximum fire
    support of 4R" "for a 6:1". The rules agree."""
    found = O.landing_odds(
        DATA, BOARD, variant(), h("3510"), THIRD, ("CH-G-WUSONG",), frozenset(),
        attacker_markers=4,
    )  # fmt: skip
    assert (found.attack, found.defence, O.column_label(found.base)) == (8, 3, "2:1")
    assert found.net == 4 and found.label == "6:1"


def test_snc_10_3_0_2_example_gt3_attack_on_3511() -> None:
    """SNC-10.3.0.2, SNC-10.4.2.1 (section 12, GT 3; AMB-SNC-5 (i)): the 3rd Division across the
    creek from 3510 (16 halved to 8) and the SNLF out of Shanghai (8) attack 3511 (9). The
    example says "16:9 or 2:1"; the rules round 16/9 down to 1:1, which the test asserts under
    preset standard. The example's three fire-support shifts then give 4:1, and since 3510 and
    3512 are opposite hexes of 3511 the concentric 1R (which the example does not mention)
    brings the rules' final odds to the example's 5:1, where a 4 gives the narrated 0/3."""
    stacks = pos(
        {
            "3510": THIRD,
            "3512": ("JP-SNLF1", "JP-SNLF2", "JP-SNLF9", "JP-G-SHANGHAI"),
            "3611": ("JP-SNLF3", "JP-G-A"),
            "3511": ("CH-87D", "CH-98D", "CH-G-A"),
        }
    )
    attackers = {u: h("3510") for u in THIRD}
    attackers |= {u: h("3512") for u in ("JP-SNLF1", "JP-SNLF2", "JP-SNLF9")}
    attackers |= {"JP-SNLF3": h("3611")}
    found = O.battle_odds(
        DATA, BOARD, variant(), h("3511"), attackers, stacks, frozenset(), attacker_markers=3
    )
    assert (found.attack, found.defence) == (16, 9)
    assert O.column_label(found.base) == "1:1"  # not the example's 2:1 (AMB-SNC-5)
    assert [s.clause for s in found.shifts] == ["SNC-10.4.2.1"] + ["SNC-11.1.2"] * 3
    assert found.label == "5:1"
    assert O.crt_result(DATA, variant(), found.column, 4) == (0, 3)


def test_snc_10_4_1_4_example_gt3_loudian() -> None:
    """SNC-10.3.0.2, SNC-10.4.1.4 (section 12, GT 3): the 11th Division (12) from 3308 attacks
    Loudian (3208, town in rice paddy, 9): "12:9 or 1:1, shifting 1L for the town and 3R for
    Japanese fire support for a 3:1". The rules agree; a 2 gives the narrated 2/1."""
    stacks = pos({"3308": ELEVENTH, "3208": ("CH-36D", "CH-55D", "CH-45B")})
    found = O.battle_odds(
        DATA, BOARD, variant(), h("3208"), at(stacks, "3308"), stacks, frozenset(),
        attacker_markers=3,
    )  # fmt: skip
    assert (found.attack, found.defence, O.column_label(found.base)) == (12, 9, "1:1")
    assert found.net == 2 and found.label == "3:1"
    assert O.crt_result(DATA, variant(), found.column, 2) == (2, 1)


def test_snc_10_4_1_8_example_gt3_training_brigades() -> None:
    """SNC-10.4.1.8, SNC-10.3.0.4 (section 12, GT 3): the 3rd Division and a detachment (19)
    attack the Training Brigades in the town 3410 (10) across the creek from 3510: "19 halved to
    9 for the creek against 10 defense or 1:2. With 3R for fire support and 1L for the town,
    the odds are 2:1". The rules agree; a 3 gives the narrated 1/1."""
    stacks = pos({"3510": (*THIRD, "JP-SHIGETO"), "3410": ("CH-1TD", "CH-2TD")})
    found = O.battle_odds(
        DATA, BOARD, variant(), h("3410"), at(stacks, "3510"), stacks, frozenset(),
        attacker_markers=3,
    )  # fmt: skip
    assert (found.attack, found.defence, O.column_label(found.base)) == (9, 10, "1:2")
    assert found.net == 2 and found.label == "2:1"
    assert O.crt_result(DATA, variant(), found.column, 3) == (1, 1)


def test_snc_9_6_9_example_overrun_odds() -> None:
    """SNC-9.6.4, SNC-9.6.5, SNC-9.6.9: the 11th Division (two regiments reduced, 10) overruns
    the lone 2-CF division in marsh 2707 from 2806: "10:2 reduced to 5:1, then shifted 1L for
    marsh terrain, and 1L for the overrun", plus an artillery shift "up to 4:1". The rules
    agree."""
    stacks = pos({"2806": ELEVENTH, "2707": ("CH-13D",)})
    reduced = frozenset({"JP-11D-3", "JP-11D-4"})
    found = O.battle_odds(
        DATA, BOARD, variant(), h("2707"), at(stacks, "2806"), stacks, reduced,
        overrun=True, attacker_markers=1,
    )  # fmt: skip
    assert (found.attack, found.defence, O.column_label(found.base)) == (10, 2, "5:1")
    assert [s.columns for s in found.shifts] == [-1, -1, 1] and found.label == "4:1"


def test_snc_10_0_5_one_hex_attacked_from_several() -> None:
    """SNC-10.0.5: one attack targets one hex, with adjacent attackers from any number of hexes
    (3510, 3512 and 3611 against 3511); a unit not adjacent to the target may not join."""
    stacks = pos(
        {
            "3510": ("JP-3D-1",),
            "3512": ("JP-SNLF1",),
            "3611": ("JP-SNLF3",),
            "3509": ("JP-3D-2",),
            "3511": ("CH-98D",),
        }
    )
    assert (
        O.attack_problem(DATA, BOARD, h("3511"), at(stacks, "3510", "3512", "3611"), stacks) is None
    )
    far = at(stacks, "3510", "3509")
    problem = O.attack_problem(DATA, BOARD, h("3511"), far, stacks)
    assert problem is not None and "SNC-10.0.1" in problem


def test_snc_8_4_0_4_landing_attacks_every_chinese_unit_in_the_hex() -> None:
    """SNC-8.4.0.4, SNC-10.0.4: the landing attack is against the garrison and any other Chinese
    units in the landing hex, all defending together (Wusong garrison 3 + the 98th 3 = 6)."""
    found = O.landing_odds(
        DATA, BOARD, variant(), h("3510"), THIRD, ("CH-G-WUSONG", "CH-98D"), frozenset()
    )
    assert (found.attack, found.defence, found.label) == (8, 6, "1:1")


class _YangtzeSideBoard(Board):
    """The real board with a Yangtze hexside drawn between 3509 and 3510: the map data has
    none today (AMB-SNC-24), so the option is shown on this one."""

    def side_kind(self, a: Hex, b: Hex) -> str | None:
        if {a, b} == {h("3509"), h("3510")}:
            return "yangtze"
        return super().side_kind(a, b)


def test_snc_10_4_1_9_yangtze_hexside_combat_readings() -> None:
    """SNC-10.4.1.9 bans combat only across all-sea and all-lake hexsides; the found-here
    option `yangtze_hexside_combat`: `forbidden` (standard, after AMB-SNC-24's note) also bars
    an attack across a Yangtze hexside, `allowed` does not."""
    board = _YangtzeSideBoard(DATA)
    stacks = pos({"3509": ("JP-3D-1",), "3510": ("CH-3D",)})
    attack = at(stacks, "3509")
    problem = O.attack_problem(DATA, board, h("3510"), attack, stacks, variant())
    assert problem is not None and "SNC-10.4.1.9" in problem and "Yangtze" in problem
    allowed = variant(yangtze_hexside_combat="allowed")
    assert O.attack_problem(DATA, board, h("3510"), attack, stacks, allowed) is None
    assert O.no_combat_sides(variant()) == {"yangtze"} and not O.no_combat_sides(allowed)
    # without a variant the standard preset stands (callers written before the option)
    assert O.attack_problem(DATA, board, h("3510"), attack, stacks) == problem


def test_snc_8_4_0_5_landing_halving_base_readings() -> None:
    """SNC-8.4.0.5 halves "their printed combat factors"; the found-here option
    `landing_halving_base`: a reduced JP-3D-1 (4, reduced 2) lands with 2 // 2 = 1 under
    `current_side` (standard) and 4 // 2 = 2 under `printed_front`."""
    spec = DATA.unit("JP-3D-1")
    assert (spec.cf, spec.reduced) == (4, 2)
    flipped = frozenset({"JP-3D-1"})
    assert O.landing_strength(DATA, ("JP-3D-1",), flipped, variant()) == 1
    front = variant(landing_halving_base="printed_front")
    assert O.landing_strength(DATA, ("JP-3D-1",), flipped, front) == 2
    # a unit at full strength halves the same CF under both readings
    assert O.landing_strength(DATA, ("JP-3D-1",), frozenset(), front) == 2
