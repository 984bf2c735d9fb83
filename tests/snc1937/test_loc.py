"""Lines of communication, Chinese rail placement and reinforcement placement (SNC-8.2.x,
SNC-8.3.5, SNC-8.3.8, SNC-9.5.2.x, SNC-0.0.2)."""

from __future__ import annotations

from kernel.hexes import Hex, hex_distance
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.loc import (
    adjacent_to_japanese,
    chinese_loc_hexes,
    has_japanese_loc,
    japanese_loc_hexes,
    place,
    rail_move_hexes,
    rail_reinforcement_hexes,
    reinforcement_hexes,
    reinforcement_moves,
    snlf_loc_targets,
)
from specs.snc1937.rules.zoc import zoc_hexes
from tests.snc1937.test_movement import at_start
from tests.snc1937.test_zoc import BOARD, CH, DATA, JP, STANDARD, h, pos, variant

CHINESE = [u.id for u in DATA.units if u.side == "CH" and not u.is_static]
JP2 = "JP-3D-2"


def ring(centre: str, distance: int) -> dict[Hex, tuple[str, ...]]:
    """A Chinese unit in every enterable hex at `distance` from `centre`."""
    hexes = sorted(
        x for x in BOARD.map.hexes if BOARD.enterable(x) and hex_distance(h(centre), x) == distance
    )
    assert len(hexes) <= len(CHINESE)
    return {x: (u,) for x, u in zip(hexes, CHINESE, strict=False)}


def test_places_come_from_the_map() -> None:
    """Nanking, Hangzhou and Wusong are found by name (SNC-9.5.2.2, SNC-8.3.8)."""
    assert place(BOARD, "Nanking") == h("0202")
    assert place(BOARD, "Hangzhou") == h("1824")
    assert place(BOARD, "Wusong") == h("3510")


def test_snc_8_2_4_rail_placement_from_gt_3() -> None:
    """SNC-8.2.4, SNC-9.5.2.1: no rail placement before GT 3; from GT 3 the open rail net,
    e.g. Zhenjiang (1102), from the at-start position."""
    stacks = at_start()
    assert rail_reinforcement_hexes(BOARD, DATA, STANDARD, stacks, 2) == frozenset()
    found = rail_reinforcement_hexes(BOARD, DATA, STANDARD, stacks, 3)
    assert h("1102") in found and h("0202") in found
    assert found <= BOARD.rail_hexes


def test_snc_8_2_5_loc_blocked_by_japanese_units() -> None:
    """SNC-8.2.5: a Japanese unit on the line cuts the LoC of the hexes beyond it: with
    Japanese units at Danyang (1304) and Jiaxing (2318), Changzhou (1605) has none; 0703 keeps
    its LoC to the west edge."""
    stacks = pos(h1304=JP, h2318=JP2)
    loc = chinese_loc_hexes(BOARD, DATA, STANDARD, stacks)
    assert h("0703") in loc and h("1605") not in loc
    assert h("1605") in chinese_loc_hexes(BOARD, DATA, STANDARD, pos(h2318=JP2))


def test_snc_8_2_5_loc_blocked_by_japanese_zoc() -> None:
    """SNC-8.2.5, SNC-7.2.2: a Japanese ZOC on the rail blocks the LoC, even with a Chinese unit
    standing in the hex."""
    stacks = pos(h0102=JP)  # its ZOC covers the west-edge railroad hex 0103
    assert h("0103") in zoc_hexes(BOARD, DATA, STANDARD, stacks, "JP")
    assert h("0103") not in chinese_loc_hexes(BOARD, DATA, STANDARD, stacks)
    with_friend = {**stacks, h("0103"): (CH,)}
    assert h("0103") not in chinese_loc_hexes(BOARD, DATA, STANDARD, with_friend)
    assert h("0103") in chinese_loc_hexes(BOARD, DATA, STANDARD, {})


def test_snc_0_0_2_no_loc_through_3513() -> None:
    """SNC-0.0.2: 3513 is never part of a LoC, Chinese or Japanese."""
    assert h("3513") not in chinese_loc_hexes(BOARD, DATA, STANDARD, {})
    assert h("3513") not in japanese_loc_hexes(BOARD, DATA, STANDARD, {})
    assert h("3512") in japanese_loc_hexes(BOARD, DATA, STANDARD, {})


def cut_off() -> dict[Hex, tuple[str, ...]]:
    """Japanese units next to Nanking's west-edge railroad hex (0102) and on the Hangzhou line
    (1923): the edge LoC survives only at Hangzhou, the rail route only from Nanking."""
    return dict(pos(h0102=JP, h1923=JP2))


def test_snc_9_5_2_2_rail_move_from_nanking_or_hangzhou() -> None:
    """SNC-9.5.2.2, SNC-9.5.2.3: the rail move starts at Nanking or Hangzhou and never enters a
    Japanese unit or EZOC: with 1923 held, Hangzhou reaches only 1825, Nanking the rest of the
    net up to 2022."""
    moved = rail_move_hexes(BOARD, DATA, STANDARD, cut_off())
    assert {h("0202"), h("1102"), h("2410"), h("1824"), h("1825")} <= moved
    assert h("0103") not in moved  # EZOC of 0102
    assert h("1923") not in moved and h("1924") not in moved  # unit and its EZOC


def test_snc_9_5_2_3_no_start_from_a_held_city() -> None:
    """SNC-9.5.2.3: a Japanese unit in Hangzhou stops every rail move from it."""
    moved = rail_move_hexes(BOARD, DATA, STANDARD, pos(h1824=JP, h1304=JP2))
    assert h("1824") not in moved and h("1825") not in moved
    assert h("1202") in moved  # from Nanking, short of Danyang's ZOC


def test_snc_8_2_4_chinese_rail_one_or_two_mechanisms() -> None:
    """SNC-8.2.4, SNC-9.5.2.1, AMB-SNC-21: with one mechanism a hex needs the edge LoC and a
    rail route from Nanking/Hangzhou (only Hangzhou and 1825 here); with two, either does."""
    stacks = cut_off()
    one = rail_reinforcement_hexes(BOARD, DATA, STANDARD, stacks, 3)
    two = rail_reinforcement_hexes(BOARD, DATA, variant(chinese_rail="two_mechanisms"), stacks, 3)
    assert one == {h("1824"), h("1825")}
    assert h("1102") in two and one < two


def test_snc_8_2_1_not_next_to_a_japanese_unit() -> None:
    """SNC-8.2.1: no Chinese reinforcement is placed next to a Japanese unit, by either
    method."""
    listed = [h("2410")]
    assert reinforcement_hexes(BOARD, DATA, {}, listed) == {h("2410")}
    assert reinforcement_hexes(BOARD, DATA, pos(h2510=JP), listed) == frozenset()
    assert reinforcement_hexes(BOARD, DATA, pos(h2610=JP), listed) == {h("2410")}
    rail = rail_reinforcement_hexes(
        BOARD, DATA, variant(chinese_rail="two_mechanisms"), pos(h1203=JP), 3
    )
    assert not rail & adjacent_to_japanese(BOARD, DATA, pos(h1203=JP))
    assert h("1102") in rail


def test_snc_8_2_2_listed_units_may_move() -> None:
    """SNC-8.2.2: a unit placed in its listed hex may move from it in the Reinforcement Phase."""
    got = reinforcement_moves(BOARD, DATA, STANDARD, pos(h2410=CH), [CH], h("2410"))
    assert len(got) > 20 and max(got.values()) == 8


def test_snc_8_2_3_never_moves_next_to_a_japanese_unit() -> None:
    """SNC-8.2.3: that move never enters a hex next to a Japanese unit."""
    stacks = pos(h2410=CH, h2213=JP)
    near = adjacent_to_japanese(BOARD, DATA, stacks)
    got = reinforcement_moves(BOARD, DATA, STANDARD, stacks, [CH], h("2410"))
    assert not set(got) & near
    assert set(near) & set(
        reinforcement_moves(BOARD, DATA, STANDARD, pos(h2410=CH), [CH], h("2410"))
    )


def test_snc_8_3_5_japanese_loc_to_a_landing_hex() -> None:
    """SNC-8.3.5, AMB-SNC-19: a Japanese unit inland with open ground has a LoC; one ringed at
    distance 2 by Chinese units with one gap has none while the ZOC blocks, and has one under
    japanese_loc=blocked_by_units."""
    assert has_japanese_loc(BOARD, DATA, STANDARD, pos(h1212=JP), JP, h("1212"))
    stacks = ring("1212", 2)
    gap = sorted(stacks)[0]
    del stacks[gap]
    stacks[h("1212")] = (JP,)
    assert not has_japanese_loc(BOARD, DATA, STANDARD, stacks, JP, h("1212"))
    units_only = variant(japanese_loc="blocked_by_units")
    assert has_japanese_loc(BOARD, DATA, units_only, stacks, JP, h("1212"))
    full = ring("1212", 2)
    full[h("1212")] = (JP,)
    assert not has_japanese_loc(BOARD, DATA, units_only, full, JP, h("1212"))


def test_snc_8_3_6_unit_in_ezoc_may_trace() -> None:
    """SNC-8.3.6: the unit being rebuilt may stand in an EZOC; its LoC starts from there."""
    stacks = pos(h1212=JP, h1211=CH)
    assert h("1212") in zoc_hexes(BOARD, DATA, STANDARD, stacks, "CH")
    assert has_japanese_loc(BOARD, DATA, STANDARD, stacks, JP, h("1212"))


def test_snc_7_2_2_friendly_units_do_not_open_a_japanese_loc() -> None:
    """SNC-7.2.2: Japanese units standing in the Chinese ZOC do not open the LoC."""
    stacks = ring("1212", 2)
    gap = sorted(stacks)[0]
    del stacks[gap]
    stacks[h("1212")] = (JP,)
    inner = [x for x in BOARD.neighbors(h("1212")) if BOARD.enterable(x)]
    stacks[inner[0]] = (JP2,)
    assert not has_japanese_loc(BOARD, DATA, STANDARD, stacks, JP, h("1212"))


def test_snc_8_3_8_snlf_needs_wusong_or_the_yangtze() -> None:
    """SNC-8.3.8: an SNLF unit traces to Wusong or a Yangtze hex, not to any landing: at
    Jinshanwei (3417, a landing on the south coast) ringed by Chinese units it has none, a
    regular unit there has one."""
    targets = snlf_loc_targets(BOARD, STANDARD)
    assert h("3510") in targets and h("0202") in targets and h("3417") not in targets
    stacks = ring("3417", 3)
    stacks[h("3417")] = ("JP-SNLF1",)
    assert not has_japanese_loc(BOARD, DATA, STANDARD, stacks, "JP-SNLF1", h("3417"))
    stacks[h("3417")] = (JP,)
    assert has_japanese_loc(BOARD, DATA, STANDARD, stacks, JP, h("3417"))
    open_ground = pos(h3417="JP-SNLF1")
    assert has_japanese_loc(BOARD, DATA, STANDARD, open_ground, "JP-SNLF1", h("3417"))


def test_snc_8_3_8_snlf_loc_target_readings() -> None:
    """SNC-8.3.8 "Wusong (3510) or another Yangtze River hex", found-here option
    `snlf_loc_target`: `yangtze_bank` (standard) ends the LoC in any land hex on the Yangtze
    or estuary, `yangtze_landings` only in a landing hex there (or Wusong). An SNLF battalion
    in Nanking (0202, on the Yangtze, no landing) ringed by Chinese units has a LoC only under
    `yangtze_bank`."""
    landings = variant(snlf_loc_target="yangtze_landings")
    bank, only = snlf_loc_targets(BOARD, STANDARD), snlf_loc_targets(BOARD, landings)
    assert h("0202") in bank and h("0202") not in only
    assert only < bank and h("3510") in only
    assert all(BOARD.is_landing(x) or x == h("3510") for x in only)
    stacks = ring("0202", 1)
    stacks[h("0202")] = ("JP-SNLF1",)
    assert has_japanese_loc(BOARD, DATA, STANDARD, stacks, "JP-SNLF1", h("0202"))
    assert not has_japanese_loc(BOARD, DATA, landings, stacks, "JP-SNLF1", h("0202"))


class _NoCityBoard(Board):
    """The real board with Hangzhou (1824, a provisional city, AMB-SNC-17) not a city, so a
    ZOC reaches it (SNC-7.1.2): on the real map no ZOC enters Nanking or Hangzhou."""

    def is_city(self, x: Hex) -> bool:
        return x != h("1824") and super().is_city(x)


def test_snc_9_5_2_3_rail_start_in_ezoc_readings() -> None:
    """SNC-9.5.2.3 (never enter an EZOC) against SNC-7.2.3 (a unit may leave one), found-here
    option `rail_start_in_ezoc`: with Hangzhou in the ZOC of a Japanese unit in 1823, `blocked`
    (standard) lets no rail move start there, `allowed` lets it run to the clear 1825."""
    board = _NoCityBoard(DATA)
    stacks = pos(h1823=JP)
    assert h("1824") in zoc_hexes(board, DATA, STANDARD, stacks, "JP")
    allowed = variant(rail_start_in_ezoc="allowed")
    blocked_moves = rail_move_hexes(board, DATA, STANDARD, stacks)
    allowed_moves = rail_move_hexes(board, DATA, allowed, stacks)
    assert h("1824") not in blocked_moves and h("1825") not in blocked_moves
    assert h("1825") in allowed_moves
    # a Japanese unit in the start hex blocks it under both readings
    held = pos(h1824=JP)
    assert h("1825") not in rail_move_hexes(board, DATA, allowed, held)
    # on the real map Hangzhou is a city: no ZOC enters it and the readings agree
    assert rail_move_hexes(BOARD, DATA, STANDARD, stacks) == rail_move_hexes(
        BOARD, DATA, allowed, stacks
    )
