"""The game flow asks the pure rule modules, so the played game and the modules agree: step
costs come from `movement.py` (SNC-9.3.2 to SNC-9.5.1.2), zones of control from `zoc.py`
(SNC-7.0.1 to SNC-7.1.5) and the EZOC of a moving group from `movement.movement_ezoc`
(SNC-7.2.1 to SNC-7.2.3, ngl_zoc_entry). Each test below is a case where the flow's former copy
of a rule disagreed with the module and the catalogue."""

from __future__ import annotations

import attrs
import pytest

from kernel.errors import IllegalAction
from kernel.hexes import Hex, parse_hex
from specs.snc1937 import flow, losses, movement, zoc
from specs.snc1937.actions import Done, Move, Overrun
from specs.snc1937.rules import SNC
from specs.snc1937.state import CH, JP, Order, Phase, SNCState, Step
from specs.snc1937.variants import CATALOGUE

GAME = SNC()
JP_UNIT = "JP-3D-1"
CH_UNIT = "CH-11D"
NEAR_SHANGHAI = {"CH-87D": "3612"}  # keeps SNC-4.2.1 (sudden defeat) from ending the game


def H(text: str) -> Hex:
    return parse_hex(text)


def position(side: str, where: dict[str, str], **options: str) -> SNCState:
    """A Move phase of `side` (GT 1, Operations Phase 1 of a move-fight order) with only the
    units of `where` on the map."""
    s = GAME.initial_state(CATALOGUE.variant("standard", options))
    placed = tuple(sorted((u, H(h)) for u, h in {**NEAR_SHANGHAI, **where}.items()))
    return attrs.evolve(
        s,
        where=placed,
        trt=(),
        turn=1,
        side=side,
        phase=Phase.OPS1,
        order=Order.MOVE_FIGHT,
        step=Step.MAIN,
        done=frozenset(),
        moving=(),
    )


def _steps(s: SNCState, units: tuple[str, ...]) -> set[Hex]:
    return {a.to for a in GAME.legal_actions(s) if isinstance(a, Move) and a.units == units}


def test_snc_7_1_5_entering_the_coast_under_gunfire_stops_by_default() -> None:
    """SNC-7.1.5, SNC-7.2.1 (ngl_zoc_entry=occupied_before_entry, the default): a Japanese unit
    entering the empty coastal hex 3510 (within the Naval Gunfire Line, next to Chinese 3610)
    is in the Chinese ZOC there, since no Japanese unit held the hex before, and its move ends
    but for an overrun of 3610 (SNC-9.6: the section 9.6 example overruns from an EZOC). The
    flow's own ZOC used to count the mover as already holding the hex (the other reading) and
    let it go on."""
    s = position(JP, {JP_UNIT: "3409", CH_UNIT: "3610"})
    assert H("3510") in _steps(s, (JP_UNIT,))
    s = GAME.apply(s, Move((JP_UNIT,), H("3510")))
    assert s.result is None
    assert not _steps(s, (JP_UNIT,))
    legal = GAME.legal_actions(s)
    assert Done() in legal and any(isinstance(a, Overrun) for a in legal)
    s = GAME.apply(s, Done())
    assert not s.moving and JP_UNIT in s.done
    assert not _steps(s, (JP_UNIT,))
    with pytest.raises(IllegalAction):
        GAME.apply(s, Move((JP_UNIT,), H("3509")))


def test_snc_7_1_5_entering_the_coast_under_gunfire_goes_on_when_occupied_on_entry() -> None:
    """SNC-7.1.5 under ngl_zoc_entry=occupied_on_entry: the entering unit itself shields 3510
    from the Chinese ZOC, so its move goes on (to 3509 as in `movement.path_cost`)."""
    s = position(JP, {JP_UNIT: "3409", CH_UNIT: "3610"}, ngl_zoc_entry="occupied_on_entry")
    s = GAME.apply(s, Move((JP_UNIT,), H("3510")))
    assert s.result is None
    assert s.moving == (JP_UNIT,) and JP_UNIT not in s.done
    assert H("3509") in _steps(s, (JP_UNIT,))
    s = GAME.apply(s, Move((JP_UNIT,), H("3509")))
    assert dict(s.where)[JP_UNIT] == H("3509")


@pytest.mark.parametrize(
    ("chinese_roads", "road_and_creek", "half_mp"),
    [
        ("no_bonus", "roads_keep_creek_cost", 4),
        ("no_bonus", "roads_negate_creek", 4),
        ("half_mp", "roads_keep_creek_cost", 3),
        ("half_mp", "roads_negate_creek", 1),
    ],
)
def test_snc_9_4_2_chinese_road_over_a_creek(
    chinese_roads: str, road_and_creek: str, half_mp: int
) -> None:
    """SNC-9.4.1, SNC-9.4.2, SNC-9.5.1.1 (AMB-SNC-22, AMB-SNC-23 (iv)): a Chinese unit moving
    3009 -> 2909 along a road across a creek pays 1 MP plus the creek's 1 MP unless it moves at
    the road rate (chinese_roads=half_mp: 1/2 MP, with the creek kept or negated by
    road_and_creek). Without the road rate (no_bonus) the road gives the Chinese nothing, so it
    does not negate the creek either: the flow's former cost table charged 1 MP there under
    no_bonus with roads_negate_creek, against `movement.step_cost`."""
    opts = {"chinese_roads": chinese_roads, "road_and_creek": road_and_creek}
    s = position(CH, {CH_UNIT: "3009"}, **opts)
    s = GAME.apply(s, Move((CH_UNIT,), H("2909")))
    assert s.result is None and s.moving == (CH_UNIT,)
    assert s.mp == 2 * flow.MF_MOBILE - half_mp
    expected = movement.cost_between(
        GAME.board, GAME.tables.data, s.variant, CH, H("3009"), H("2909")
    )
    assert expected is not None and expected * 2 == half_mp


@pytest.mark.parametrize("city_zoc", ["projects_out", "none"])
def test_snc_7_1_2_flow_zoc_is_the_zoc_module(city_zoc: str) -> None:
    """SNC-7.0.1 to SNC-7.1.5 (city_zoc, AMB-SNC-18): the ZOC the flow uses for LoC, rail
    placement and retreats is `zoc.zoc_hexes` of the position, for both sides, in the set-up
    (which has units in cities: Shanghai 3512)."""
    s = GAME.initial_state(CATALOGUE.variant("standard", {"city_zoc": city_zoc}))
    stacks = flow.stacks(s.where)
    assert H("3512") in stacks
    for side in (CH, JP):
        expected = zoc.zoc_hexes(GAME.board, GAME.tables.data, s.variant, stacks, side)
        assert flow.zoc_of(GAME.tables, s, side) == expected
    # the reading matters here: units in the city project a ZOC out of it or do not
    jp_city = {
        h for h in stacks if GAME.board.is_city(h) and flow.side_of_hex(GAME.tables, s, h) == JP
    }
    assert jp_city
    out_of_city = {n for c in jp_city for n in GAME.board.neighbors(c)}
    only_from_city = out_of_city - zoc.zoc_hexes(
        GAME.board,
        GAME.tables.data,
        s.variant,
        {h: us for h, us in stacks.items() if h not in jp_city},
        JP,
    )
    projected = only_from_city & flow.zoc_of(GAME.tables, s, JP)
    reach = {
        n
        for c in jp_city
        for n in GAME.board.neighbors(c)
        if zoc.projects_into(GAME.board, s.variant, c, n)
    }
    assert projected == (only_from_city & reach)
    assert bool(reach) == (city_zoc == "projects_out")


@pytest.mark.parametrize(
    ("strength_measure", "first"), [("current_cf", "CH-55D"), ("printed_cf", "CH-87D")]
)
def test_snc_10_5_2_2_strongest_by_strength_measure(strength_measure: str, first: str) -> None:
    """SNC-10.5.2.2 (strength_measure, AMB-SNC-28): a flipped 87th Division (printed 5, shown 2)
    and the one-step 55th Division (3) lose a step: the strongest goes first, measured by the
    CF shown (the 55th) or the CF printed (the 87th). The flow's former copy of the loss rule
    always measured the CF shown; it now asks `losses.next_loss`, whose steps are the first
    steps of `losses.loss_choices`."""
    v = CATALOGUE.variant("standard", {"strength_measure": strength_measure})
    units = ("CH-87D", "CH-55D")
    reduced = frozenset({"CH-87D"})
    assert flow.loss_choices(GAME.tables, v, units, reduced) == [first]
    outcomes = losses.loss_choices(GAME.tables.data, v, units, reduced, 1)
    assert {o.eliminated for o in outcomes} == {(first,)}
