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
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules import combat_choices, losses, movement, reinforcement_steps, sequence, zoc
from specs.snc1937.rules import tables as flow
from specs.snc1937.rules.actions import (
    Attack,
    Declare,
    Done,
    Join,
    Land,
    Move,
    Overrun,
    Strike,
    Support,
)
from specs.snc1937.rules.state import CH, JP, MF_MOBILE, Order, Phase, SNCState, Step

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
    assert s.mp == 2 * MF_MOBILE - half_mp
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
    assert combat_choices.loss_choices(GAME.tables, v, units, reduced) == [first]
    outcomes = losses.loss_choices(GAME.tables.data, v, units, reduced, 1)
    assert {o.eliminated for o in outcomes} == {(first,)}


# --- the flow's former copies of combat, LoC, control and victory rules ---------------------------


def fight(side: str, where: dict[str, str], turn: int = 6, **options: str) -> SNCState:
    """`side`'s Fight phase (GT `turn`, Operations Phase 1 of a fight-fight order) with only the
    units of `where` and the Shanghai garrison on the map; every other unit dead."""
    s = GAME.initial_state(CATALOGUE.variant("standard", options))
    placed = {u: H(h) for u, h in {"JP-G-SHANGHAI": "3512", **where}.items()}
    dead = frozenset(GAME.tables.spec) - set(placed) - set(GAME.tables.jp_garrisons)
    s = attrs.evolve(
        s, where=tuple(sorted(placed.items())), trt=(), dead=dead, turn=turn, side=side
    )
    return GAME.apply(s, Declare(Order.FIGHT_FIGHT))


def _supports(s: SNCState) -> set[str]:
    return {a.kind for a in GAME.legal_actions(s) if isinstance(a, Support)}


def test_snc_11_4_2_naval_gunfire_supports_attacks_along_the_yangtze() -> None:
    """SNC-11.4.2 (naval_gunfire_adjacent=defender_hex, AMB-SNC-32): a Japanese attack on 0302,
    a woods hex on the Yangtze bank near Nanking far from the coast, may have naval gunfire;
    so may one on 0303, one hex inland from the Yangtze. The flow's former copy allowed naval
    gunfire only in the coastal Naval Gunfire Line of SNC-7.1.5, against
    `fire_support.naval_attack_allowed`."""
    for target in ("0302", "0303"):
        assert not GAME.board.in_naval_gunfire_line(H(target))
        s = fight(JP, {"JP-3D-1": "0402", "CH-3D": target, "CH-36D": "3511"})
        s = GAME.apply(GAME.apply(GAME.apply(s, Attack(H(target))), Join("JP-3D-1")), Strike())
        assert s.step == Step.SUPPORT_A
        assert "naval_gunfire" in _supports(s), target


def test_snc_11_4_3_naval_gunfire_defends_on_the_yangtze_bank_only() -> None:
    """SNC-11.4.3: a Japanese defender in 0302, next to the Yangtze, may add naval gunfire
    (the flow's former copy, reading the coastal Naval Gunfire Line, refused it); one in 0303,
    only one hex inland, may not."""
    for target, allowed in (("0302", True), ("0303", False)):
        s = fight(CH, {"JP-3D-1": target, "CH-3D": "0402", "CH-36D": "3511"})
        s = GAME.apply(GAME.apply(GAME.apply(s, Attack(H(target))), Join("CH-3D")), Strike())
        s = GAME.apply(s, Done())
        assert (s.step == Step.SUPPORT_D) == allowed, target
        if allowed:
            assert _supports(s) == {"naval_gunfire"}


def test_snc_8_3_8_snlf_loc_runs_to_wusong_or_the_yangtze() -> None:
    """SNC-8.3.8 (japanese_loc, AMB-SNC-19): an SNLF unit takes a replacement only with a LoC
    to Wusong or a Yangtze hex. Reduced in the Hangzhou Bay landing hex 3218 with every land
    neighbour held by Chinese units, a division's unit still has its LoC (it stands in a
    landing hex, SNC-8.3.5) but the SNLF has none. The flow's former copy gave the SNLF the
    landing-hex LoC of every other unit, against `loc.has_japanese_loc`."""
    ring = {"CH-3D": "3217", "CH-6D": "3318", "CH-7D": "3119", "CH-51D": "3118"}
    for unit, allowed in (("JP-SNLF1", False), ("JP-3D-1", True)):
        s = fight(JP, {unit: "3218", "CH-36D": "3511", **ring}, turn=3)
        s = attrs.evolve(s, phase=Phase.REINF, reduced=frozenset({unit}), replacements=2)
        assert (unit in reinforcement_steps.replace_choices(GAME.tables, s)) == allowed, unit


def test_snc_8_4_0_11_an_unopposed_landing_is_a_placement() -> None:
    """SNC-8.4.0.11, SNC-3.2.2 (control_entry=movement_and_advance, AMB-SNC-16): units landing
    in a hex without Chinese units are placed there, and a placement takes no control under
    that reading (it does under any_arrival). The flow's former copy counted an unopposed
    landing as entering, against `control.ARRIVALS`."""
    for reading, takes in (("movement_and_advance", False), ("any_arrival", True)):
        s = GAME.initial_state(CATALOGUE.variant("standard", {"control_entry": reading}))
        s = attrs.evolve(s, turn=2, side=JP)
        s = GAME.apply(GAME.apply(s, Declare(Order.MOVE_MOVE)), Done())
        while s.step == Step.REPLACE:
            s = GAME.apply(s, Done())
        land = next(a for a in GAME.legal_actions(s) if isinstance(a, Land))
        gone = flow.stacks(s.where).get(land.hex, ())  # the hex emptied: no landing combat
        s = attrs.evolve(
            s, where=tuple(p for p in s.where if p[0] not in gone), dead=s.dead | set(gone)
        )
        assert land in GAME.legal_actions(s) and land.hex not in s.jp_control
        s = GAME.apply(s, land)
        assert dict(s.where)[land.units[0]] == land.hex
        assert (land.hex in s.jp_control) == takes, reading


def test_snc_4_1_2_must_gain_is_not_met_by_standing_at_a_phase_end() -> None:
    """SNC-4.1.2 (gt8_adjacency=must_gain, AMB-SNC-14; sudden_defeat_timing=end_of_phase,
    AMB-SNC-15): on GT 8 a Chinese unit that has stood next to 3512 all along does not win when
    a phase ends; one moving next to it does. The flow's former copy, with no earlier
    position at a phase end, took every Chinese unit there as just arrived."""
    opts = {"gt8_adjacency": "must_gain", "sudden_defeat_timing": "end_of_phase"}
    s = position(CH, {"CH-87D": "3612", CH_UNIT: "3613"}, **opts)
    s = attrs.evolve(s, turn=8)
    assert sequence.next_phase(GAME.tables, s).result is None
    moved = GAME.apply(s, Move((CH_UNIT,), H("3612")))
    assert moved.result is not None and moved.result.clause == "SNC-4.1.2"
