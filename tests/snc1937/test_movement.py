"""Movement costs and reachable hexes (SNC-9.x, SNC-2.2.1.8 to SNC-2.2.1.10, SNC-7.2.x)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.errors import IllegalAction
from kernel.hexes import Hex
from specs.snc1937.rules.movement import (
    cost_between,
    group_problem,
    movement_factor,
    path_cost,
    reachable,
)
from specs.snc1937.rules.zoc import ezoc_hexes, hexes_of_side
from tests.snc1937.test_zoc import BOARD, CH, CH_STATIC, DATA, JP, STANDARD, h, pos, variant

JP2 = "JP-3D-2"
LAND = sorted(x for x in BOARD.map.hexes if BOARD.enterable(x))


def at_start() -> dict[Hex, tuple[str, ...]]:
    """The at-start set-up of section 13 (SNC-13.x), by hex."""
    out: dict[Hex, tuple[str, ...]] = {}
    for line in DATA.setup.at_start:
        for unit, where in line.place.items():
            out[where] = (*out.get(where, ()), unit)
    return out


def cost(side: str, a: str, b: str, **readings: str) -> Fraction | None:
    return cost_between(BOARD, DATA, variant(**readings), side, h(a), h(b))


def test_snc_9_0_2_mobile_mf_8_static_0() -> None:
    """SNC-9.0.2, SNC-2.2.1.9: mobile units have MF 8; static units 0."""
    assert movement_factor(DATA, [CH]) == 8
    assert movement_factor(DATA, [JP]) == 8
    assert movement_factor(DATA, [CH_STATIC]) == 0


def test_snc_9_1_1_static_units_never_move() -> None:
    """SNC-9.1.1, SNC-2.2.1.8: a garrison cannot leave its hex."""
    got = reachable(BOARD, DATA, STANDARD, pos(h2707=CH_STATIC), [CH_STATIC], h("2707"))
    assert got == {h("2707"): Fraction(0)}


def test_snc_9_0_1_mf_is_the_budget() -> None:
    """SNC-9.0.1, SNC-2.2.1.9: a Chinese unit on open ground spends at most its 8 MP, and does
    reach hexes 8 hexes away."""
    got = reachable(BOARD, DATA, STANDARD, pos(h0808=CH), [CH], h("0808"))
    assert min(got.values()) == 0
    assert all(0 <= left <= 8 for left in got.values())


def test_snc_9_0_9_staying_put_keeps_all_mp() -> None:
    """SNC-9.0.9: a unit need not spend its MP: its start hex is a legal end, with 8 left."""
    got = reachable(BOARD, DATA, STANDARD, pos(h0808=CH), [CH], h("0808"))
    assert got[h("0808")] == 8


def test_snc_9_4_1_chinese_pay_one_whatever_the_terrain() -> None:
    """SNC-9.4.1, SNC-2.2.1.10: Chinese pay 1 MP for clear, woods, marsh, paddy, town, city."""
    assert BOARD.terrain(h("2707")) == "marsh" and BOARD.terrain(h("0302")) == "woods"
    assert cost("CH", "2806", "2707") == 1  # marsh
    assert cost("CH", "0202", "0302") == 1  # woods (no road from Nanking to 0302)
    assert cost("CH", "2707", "2606") == 1  # a town in a marsh


def test_snc_9_4_2_chinese_creek_and_river_extra() -> None:
    """SNC-9.4.2 (AMB-SNC-23 (i)): Chinese pay +1 for a creek, +2 for a river hexside."""
    assert BOARD.side_kind(h("3510"), h("3511")) == "creek"
    assert cost("CH", "3510", "3511") == 2
    assert BOARD.side_kind(h("3510"), h("3609")) == "river"
    assert cost("CH", "3510", "3609") == 3


def test_snc_9_4_3_japanese_clear_one() -> None:
    """SNC-9.4.3: a clear hex costs the Japanese 1 MP."""
    assert BOARD.terrain(h("3610")) == "clear" and not BOARD.road(h("3511"), h("3610"))
    assert cost("JP", "3511", "3610") == 1


def test_snc_9_4_4_japanese_woods_marsh_paddy_two() -> None:
    """SNC-9.4.4: woods, marsh and rice paddy cost the Japanese 2 MP."""
    assert cost("JP", "2806", "2707") == 2  # marsh
    assert cost("JP", "0202", "0302") == 2  # woods
    assert BOARD.terrain(h("3509")) == "paddy"
    assert cost("JP", "3409", "3509") == 2  # paddy


def test_snc_9_4_5_japanese_river_plus_two_creek_plus_one() -> None:
    """SNC-9.4.5, SNC-9.3.2: Japanese pay +2 across a river, +1 across a creek, on top of the
    hex cost."""
    assert cost("JP", "3510", "3609") == 2 + 2  # paddy across the Huangpu
    assert BOARD.side_kind(h("3510"), h("3410")) == "creek" and not BOARD.road(h("3510"), h("3410"))
    assert cost("JP", "3510", "3410") == 1 + 1


def test_snc_9_4_6_prohibited_hexes_and_hexsides() -> None:
    """SNC-9.4.6, SNC-0.0.1: no entry into 3513, sea/lake/Yangtze/estuary hexes; no crossing of
    all-lake hexsides."""
    assert cost("JP", "3512", "3513") is None and cost("CH", "3512", "3513") is None
    assert BOARD.terrain(h("0201")) == "yangtze" and cost("CH", "0202", "0201") is None
    assert BOARD.terrain(h("1925")) == "sea" and cost("JP", "1824", "1925") is None
    lake = next(s for s, f in BOARD.map.sides.items() if f.kind == "all_lake")
    if BOARD.enterable(lake.b):
        assert cost_between(BOARD, DATA, STANDARD, "CH", lake.a, lake.b) is None
    stacks = pos(h3512=JP)
    with pytest.raises(IllegalAction, match=r"SNC-9\.4\.6"):
        path_cost(BOARD, DATA, STANDARD, stacks, [JP], h("3512"), [h("3513")])


def test_snc_0_0_1_international_settlement_never_reached() -> None:
    """SNC-0.0.1: 3513 is in no reachable set, for either side."""
    for side_unit, start in ((JP, "3512"), (CH, "3514")):
        got = reachable(BOARD, DATA, STANDARD, {h(start): (side_unit,)}, [side_unit], h(start))
        assert h("3513") not in got


def test_snc_9_5_0_2_city_costs_one_for_the_japanese() -> None:
    """SNC-9.5.0.2 (AMB-SNC-23 (ii)): Suzhou 2410 is a paddy hex but a city: 1 MP off-road."""
    assert BOARD.terrain(h("2410")) == "paddy"
    assert not BOARD.road(h("2510"), h("2410")) and not BOARD.rail(h("2510"), h("2410"))
    assert cost("JP", "2510", "2410") == 1


def test_snc_9_5_0_3_town_costs_its_natural_terrain() -> None:
    """SNC-9.5.0.3: the town Chang Sho (2606) in a marsh costs the Japanese 2, like the marsh."""
    assert BOARD.is_town(h("2606")) and BOARD.terrain(h("2606")) == "marsh"
    assert not BOARD.road(h("2707"), h("2606"))
    assert cost("JP", "2707", "2606") == 2


def test_snc_9_5_1_1_road_half_only_along_the_road() -> None:
    """SNC-9.5.1.1, SNC-9.5.0.4: Japanese pay 1/2 from route hex to route hex across a hexside
    the route crosses (railroads too); entering a road hex off the road costs the terrain."""
    assert BOARD.rail(h("0202"), h("0303")) and BOARD.terrain(h("0303")) == "woods"
    assert cost("JP", "0202", "0303") == Fraction(1, 2)
    assert not BOARD.road(h("0302"), h("0303")) and not BOARD.rail(h("0302"), h("0303"))
    assert cost("JP", "0302", "0303") == 2


def test_snc_9_5_1_2_road_keeps_river_cost() -> None:
    """SNC-9.5.1.2: a road does not cancel a river crossing (3215 -> 3316, Huangpu by road:
    1/2 + 2), under either `road_and_creek` reading."""
    assert BOARD.road(h("3215"), h("3316")) and BOARD.side_kind(h("3215"), h("3316")) == "river"
    assert cost("JP", "3215", "3316") == Fraction(5, 2)
    assert cost("JP", "3215", "3316", road_and_creek="roads_negate_creek") == Fraction(5, 2)


def test_snc_9_5_1_2_road_and_creek_option() -> None:
    """SNC-9.5.1.2, AMB-SNC-23 (iv): along the Wusong railway over the Yunzao Creek
    (3510 -> 3511) the creek costs +1 by default and nothing under roads_negate_creek."""
    assert cost("JP", "3510", "3511") == Fraction(3, 2)
    assert cost("JP", "3510", "3511", road_and_creek="roads_negate_creek") == Fraction(1, 2)


def test_snc_9_5_0_4_chinese_road_option() -> None:
    """SNC-9.5.0.4, SNC-9.4.1, AMB-SNC-22: Chinese pay 1 on a road by default, 1/2 under
    chinese_roads=half_mp."""
    assert cost("CH", "0202", "0303") == 1
    assert cost("CH", "0202", "0303", chinese_roads="half_mp") == Fraction(1, 2)
    assert cost("CH", "0302", "0303", chinese_roads="half_mp") == 1  # off the road


def test_snc_9_0_12_never_into_enemy_hexes() -> None:
    """SNC-9.0.12: a unit never enters a hex with enemy units."""
    stacks = pos(h0808=JP, h0809=CH)
    got = reachable(BOARD, DATA, STANDARD, stacks, [JP], h("0808"))
    assert h("0809") not in got
    with pytest.raises(IllegalAction, match=r"SNC-9\.0\.12"):
        path_cost(BOARD, DATA, STANDARD, stacks, [JP], h("0808"), [h("0809")])


def test_snc_7_2_1_stop_on_entering_ezoc() -> None:
    """SNC-7.2.1: a unit entering an EZOC hex stops there; it may not go on."""
    stacks = pos(h2707=CH, h2805=JP)  # 2806 is in the Chinese ZOC, 2805 is not
    ezoc = ezoc_hexes(BOARD, DATA, STANDARD, stacks, "JP")
    assert h("2806") in ezoc and h("2805") not in ezoc and h("2807") in ezoc
    got = reachable(BOARD, DATA, STANDARD, stacks, [JP], h("2805"))
    assert h("2806") in got
    with pytest.raises(IllegalAction, match=r"SNC-7\.2\.1"):
        path_cost(BOARD, DATA, STANDARD, stacks, [JP], h("2805"), [h("2806"), h("2807")])
    # with 4 MP 2807 could be reached only through 2806, where the move must end
    beyond = reachable(BOARD, DATA, STANDARD, stacks, [JP], h("2805"), mp=Fraction(4))
    assert h("2807") not in beyond and beyond[h("2806")] == 2
    around = reachable(BOARD, DATA, STANDARD, stacks, [JP], h("2805"), mp=Fraction(6))
    assert h("2807") in around  # round the ZOC, not through 2806


def test_snc_7_2_3_leaving_an_ezoc() -> None:
    """SNC-7.2.3: a unit starting in an EZOC may leave only into a hex without EZOC; after
    that it moves normally."""
    stacks = pos(h2707=CH, h2806=JP)
    ezoc = ezoc_hexes(BOARD, DATA, STANDARD, stacks, "JP")
    assert h("2706") in ezoc and h("2805") not in ezoc
    with pytest.raises(IllegalAction, match=r"SNC-7\.2\.3"):
        path_cost(BOARD, DATA, STANDARD, stacks, [JP], h("2806"), [h("2706")])
    spent = path_cost(BOARD, DATA, STANDARD, stacks, [JP], h("2806"), [h("2805"), h("2804")])
    assert spent == 4
    got = reachable(BOARD, DATA, STANDARD, stacks, [JP], h("2806"))
    assert h("2804") in got
    # 2706 (an EZOC hex) may only be reached from a hex outside the EZOC, never straight away
    assert h("2706") not in got or _entered_from_non_ezoc(got, stacks, h("2806"), h("2706"))


def _entered_from_non_ezoc(
    got: Mapping[Hex, Fraction], stacks: Mapping[Hex, tuple[str, ...]], start: Hex, x: Hex
) -> bool:
    ezoc = ezoc_hexes(BOARD, DATA, STANDARD, stacks, "JP")
    return any(p in got and p != start and p not in ezoc for p in BOARD.neighbors(x))


def test_snc_7_2_2_friendly_unit_does_not_open_ezoc() -> None:
    """SNC-7.2.2: a friendly unit standing in the EZOC hex does not let a mover pass through."""
    stacks = pos(h2707=CH, h2805=JP, h2806=JP2)
    with pytest.raises(IllegalAction, match=r"SNC-7\.2\.1"):
        path_cost(BOARD, DATA, STANDARD, stacks, [JP], h("2805"), [h("2806"), h("2807")])


def test_snc_9_0_3_no_skipping() -> None:
    """SNC-9.0.3: a path must go hex to adjacent hex."""
    with pytest.raises(IllegalAction, match=r"SNC-9\.0\.3"):
        path_cost(BOARD, DATA, STANDARD, pos(h0808=CH), [CH], h("0808"), [h("0810")])


def test_snc_9_0_11_must_pay_full_cost() -> None:
    """SNC-9.0.11: with too few MP left the hex cannot be entered."""
    stacks = pos(h2806=JP)
    with pytest.raises(IllegalAction, match=r"SNC-9\.0\.11"):
        path_cost(BOARD, DATA, STANDARD, stacks, [JP], h("2806"), [h("2805")], mp=Fraction(1))
    assert path_cost(BOARD, DATA, STANDARD, stacks, [JP], h("2806"), [h("2805")]) == 2


def test_snc_9_0_10_stack_movement_option() -> None:
    """SNC-9.0.10, AMB-SNC-44: two units of one hex move together under `stacks`, not under
    `units_only`; a group never mixes sides or takes units from another hex."""
    stacks = pos(h2806=(JP, JP2))
    assert group_problem(DATA, STANDARD, stacks, [JP, JP2], h("2806")) is None
    only = variant(stack_movement="units_only")
    assert "SNC-9.0.10" in (group_problem(DATA, only, stacks, [JP, JP2], h("2806")) or "")
    assert group_problem(DATA, only, stacks, [JP, JP2], h("2806"), together=True) is None
    with pytest.raises(IllegalAction):
        reachable(BOARD, DATA, only, stacks, [JP, JP2], h("2806"))
    assert group_problem(DATA, STANDARD, pos(h2806=JP), [JP2], h("2806")) is not None


def test_snc_9_0_2_group_moves_at_slowest() -> None:
    """SNC-9.0.2, SNC-9.1.1: a group with a static unit cannot move at all."""
    stacks = pos(h2806=(JP, "JP-G-A"))
    got = reachable(BOARD, DATA, STANDARD, stacks, [JP, "JP-G-A"], h("2806"))
    assert got == {h("2806"): 0}


def test_snc_9_0_4_at_start_position() -> None:
    """SNC-9.0.4, SNC-7.1.5, SNC-13.x: from the at-start set-up, the SNLF in Shanghai (3512)
    cannot enter Chinese-held 3511/3411/3412 and stop on entering Chinese ZOC."""
    stacks = at_start()
    got = reachable(BOARD, DATA, STANDARD, stacks, ["JP-SNLF1"], h("3512"))
    chinese = hexes_of_side(DATA, stacks, "CH")
    assert not set(got) & chinese
    assert h("3513") not in got


@settings(max_examples=60, deadline=None)
@given(start=st.sampled_from(LAND), side=st.sampled_from(["CH", "JP"]), foe=st.sampled_from(LAND))
def test_snc_9_3_2_reachable_is_a_consistent_shortest_path(start: Hex, side: str, foe: Hex) -> None:
    """SNC-9.3.2, SNC-9.0.11, SNC-7.2.1, SNC-9.0.12 (property): every hex reached with m MP
    left has a predecessor reached with m + its step cost left, so a path costing 8 - m exists;
    a predecessor (other than the start) is never in an EZOC; enemy hexes are never reached."""
    mover, enemy_unit = (CH, JP) if side == "CH" else (JP, CH)
    stacks = {start: (mover,)} if foe == start else {start: (mover,), foe: (enemy_unit,)}
    got = reachable(BOARD, DATA, STANDARD, stacks, [mover], start)
    ezoc = ezoc_hexes(BOARD, DATA, STANDARD, stacks, side)
    assert got[start] == 8
    for x, left in got.items():
        assert 0 <= left <= 8
        assert x != foe or foe == start
        if x == start:
            continue
        preds = [
            p
            for p in BOARD.neighbors(x)
            if p in got
            and (p == start or p not in ezoc)
            and (c := cost_between(BOARD, DATA, STANDARD, side, p, x)) is not None
            and got[p] - c == left
        ]
        assert preds, (x, left)


@settings(max_examples=40, deadline=None)
@given(a=st.sampled_from(LAND))
def test_snc_9_4_1_chinese_cost_never_above_one_plus_water(a: Hex) -> None:
    """SNC-9.4.1, SNC-9.4.2 (property): a Chinese step costs 1 plus the hexside's extra (at most
    1 + 2), whatever the terrain."""
    for b in BOARD.neighbors(a):
        c = cost_between(BOARD, DATA, STANDARD, "CH", a, b)
        if c is None:
            continue
        kind = BOARD.side_kind(a, b)
        extra = {"creek": 1, "river": 2}.get(kind or "", 0)
        assert c == 1 + extra <= 3


def test_snc_9_5_0_5_paddy_is_natural_terrain() -> None:
    """SNC-9.5.0.5, SNC-9.5.0.3: rice paddy counts as natural terrain, so the town of Danyang
    (1304) in a paddy hex costs the Japanese the paddy's 2 MP off the road, 1/2 along it."""
    assert BOARD.is_town(h("1304")) and BOARD.terrain(h("1304")) == "paddy"
    assert cost("JP", "1303", "1304") == 2
    assert BOARD.rail(h("1203"), h("1304")) or BOARD.road(h("1203"), h("1304"))
    assert cost("JP", "1203", "1304") == Fraction(1, 2)


def test_snc_9_0_4_cost_is_hex_plus_hexside() -> None:
    """SNC-9.0.4, SNC-9.3.2: the step cost is the entered hex's cost plus the hexside's: the
    paddy hex 3609 costs the Japanese 4 from 3610 (across the Huangpu), 2 from 3710."""
    assert BOARD.side_kind(h("3710"), h("3609")) is None
    assert cost("JP", "3710", "3609") == 2
    assert cost("JP", "3610", "3609") == 4


def test_snc_7_1_5_moving_onto_the_coast_under_gunfire() -> None:
    """SNC-7.1.5, SNC-7.2.1: a Japanese unit entering the empty coastal hex 3510 (within the
    Naval Gunfire Line, next to Chinese 3610) stops there by default: the hex was not occupied
    by Japanese units when entered (ngl_zoc_entry=occupied_before_entry, found here). Under
    ngl_zoc_entry=occupied_on_entry the entering unit itself shields the hex and may go on."""
    stacks = pos(h3610=CH, h3409=JP)
    path = [h("3510"), h("3509")]
    with pytest.raises(IllegalAction, match=r"SNC-7\.2\.1"):
        path_cost(BOARD, DATA, STANDARD, stacks, [JP], h("3409"), path)
    on_entry = variant(ngl_zoc_entry="occupied_on_entry")
    assert path_cost(BOARD, DATA, on_entry, stacks, [JP], h("3409"), path) <= 8
    # a unit already standing on that coast is not in the Chinese ZOC: SNC-7.2.3 does not bind
    # it, so its first step may be into the EZOC hex 3511 (railway over a creek: 1/2 + 1)
    held = pos(h3610=CH, h3510=JP)
    assert path_cost(BOARD, DATA, STANDARD, held, [JP], h("3510"), [h("3511")]) == Fraction(3, 2)


def test_road_creek_scope_chinese_on_a_road_across_a_creek() -> None:
    """road_creek_scope (found here), with chinese_roads=no_bonus and road_and_creek=
    roads_negate_creek (AMB-SNC-22, AMB-SNC-23): the road from 3009 to 2909 crosses a creek; a
    Chinese unit pays 1 MP plus the creek when the bridge comes with the road rate, 1 MP when
    the road bridges the creek for every unit (SNC-9.4.1, SNC-9.4.2, SNC-9.5.1.2)."""
    a, b = h("3009"), h("2909")
    assert BOARD.road(a, b) and BOARD.side_kind(a, b) == "creek"
    base = {"chinese_roads": "no_bonus", "road_and_creek": "roads_negate_creek"}
    costs = {
        scope: cost_between(BOARD, DATA, variant(**base, road_creek_scope=scope), "CH", a, b)
        for scope in ("with_road_rate", "every_unit")
    }
    assert costs == {"with_road_rate": 2, "every_unit": 1}
