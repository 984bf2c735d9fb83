"""SNC reinforcements and replacements in the Reinforcement Phase (SNC-8.x, SNC-11.2.x,
SNC-11.3.3, SNC-9.1.3, SNC-5.4.1)."""

from __future__ import annotations

import attrs
import pytest

from kernel.errors import IllegalAction
from kernel.game import CHANCE
from kernel.hexes import Hex, parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules.actions import (
    Declare,
    Delay,
    Done,
    Intercept,
    Land,
    Loss,
    Move,
    Place,
    Remove,
    Replace,
    Retreat,
    Roll,
    Support,
)
from specs.snc1937.rules.state import CH, JP, Order, Phase, SNCState, Step
from specs.snc1937.rules.tables import stacks

GAME = SNC()


def H(text: str) -> Hex:
    return parse_hex(text)


def step_of(s: SNCState) -> Step:
    """The step, unnarrowed (the loops below change it)."""
    return s.step


def reinforcement_phase(side: str, turn: int, **options: str) -> SNCState:
    """The start of `side`'s Reinforcement Phase of GT `turn`, the set-up otherwise."""
    s = GAME.initial_state(CATALOGUE.variant("standard", options))
    s = attrs.evolve(s, turn=turn, side=side)
    s = GAME.apply(s, Declare(Order.MOVE_MOVE))
    return GAME.apply(s, Done())


def test_snc_8_2_2_chinese_reinforcements_at_their_listed_hex() -> None:
    """SNC-8.2.2, SNC-13.x: on GT 2 (before rail placement, SNC-8.2.4) a Chinese
    reinforcement arrives in its listed hex and may then move (SNC-8.2.2)."""
    s = reinforcement_phase(CH, 2)
    assert s.phase == Phase.REINF and s.step == Step.MAIN
    places = [a for a in GAME.legal_actions(s) if isinstance(a, Place)]
    assert places and all(not a.rail for a in places)
    first = places[0]
    assert first.hex in GAME.tables.record[first.unit].hexes
    s = GAME.apply(s, first)
    assert first.unit in s.movable
    assert any(isinstance(a, Move) and a.units == (first.unit,) for a in GAME.legal_actions(s))


def test_snc_8_2_1_never_next_to_a_japanese_unit() -> None:
    """SNC-8.2.1: no Chinese reinforcement is placed next to a Japanese unit."""
    s = reinforcement_phase(CH, 2)
    unit = next(a.unit for a in GAME.legal_actions(s) if isinstance(a, Place))
    listed = GAME.tables.record[unit].hexes[0]
    jp_next = next(n for n in GAME.board.neighbors(listed) if GAME.board.enterable(n))
    s = attrs.evolve(
        s,
        where=tuple(sorted((*s.where, ("JP-9D-1", jp_next)))),
        trt=tuple(p for p in s.trt if p[0] != "JP-9D-1"),
    )
    assert Place(unit, listed) not in GAME.legal_actions(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Place(unit, listed))
    assert "SNC-8.2.1" in err.value.clauses


def test_snc_8_2_3_method_a_move_stays_away_from_japanese() -> None:
    """SNC-8.2.3: a unit placed in its listed hex may not move next to a Japanese unit."""
    s = reinforcement_phase(CH, 2)
    place = next(a for a in GAME.legal_actions(s) if isinstance(a, Place))
    s = GAME.apply(s, place)
    jp_hexes = {h for h, us in stacks(s.where).items() if GAME.tables.spec[us[0]].side == JP}
    near = {n for h in jp_hexes for n in GAME.board.neighbors(h)}
    dests = {a.to for a in GAME.legal_actions(s) if isinstance(a, Move)}
    assert dests and not dests & near


def test_snc_8_2_4_rail_placement_from_gt3() -> None:
    """SNC-8.2.4, SNC-8.2.6, SNC-9.5.2.1: from GT 3 a reinforcement may arrive on a railroad
    hex with a LoC to the west or south edge, and may then not move."""
    s = reinforcement_phase(CH, 3)
    while GAME.to_move(s) == CHANCE or s.step != Step.MAIN:
        if GAME.to_move(s) == CHANCE:
            s = GAME.apply(s, Roll(6))
        else:
            s = GAME.apply(s, GAME.legal_actions(s)[0])
    rail = [a for a in GAME.legal_actions(s) if isinstance(a, Place) and a.rail]
    assert rail and all(a.hex in GAME.board.rail_hexes for a in rail)
    s = GAME.apply(s, rail[0])
    assert rail[0].unit not in s.movable


def test_snc_11_2_1_interdiction_from_gt3() -> None:
    """SNC-11.2.1, SNC-11.2.2, SNC-11.3.3: from GT 3 the Chinese may first try their air
    support, then the Japanese die removes CF of this GT's reinforcements, units of the
    Chinese choice, for the game (SNC-11.2.3)."""
    s = reinforcement_phase(CH, 3)
    assert s.step == Step.AIR_DEFENCE and GAME.to_move(s) == CH
    s = GAME.apply(s, Intercept(False))
    assert s.step == Step.INTERDICT_ROLL and GAME.to_move(s) == CHANCE
    s = GAME.apply(s, Roll(4))
    assert s.step == Step.INTERDICT and GAME.to_move(s) == CH
    removed = 0
    while step_of(s) == Step.INTERDICT:
        unit = GAME.legal_actions(s)[0]
        assert isinstance(unit, Remove)
        removed += GAME.tables.cf(unit.unit, s.reduced)
        s = GAME.apply(s, unit)
        assert unit.unit in s.dead
    assert removed >= 4


def test_snc_11_3_3_air_support_disrupts_interdiction() -> None:
    """SNC-11.3.3: a 6 on the Chinese air die cancels the interdiction; a 1 ends Chinese air
    support for the game (SNC-11.3.2)."""
    s = GAME.apply(reinforcement_phase(CH, 3), Intercept(True))
    assert GAME.to_move(s) == CHANCE
    t = GAME.apply(s, Roll(6))
    assert t.step == Step.MAIN and t.ch_air
    t = GAME.apply(s, Roll(1))
    assert t.step == Step.INTERDICT_ROLL and not t.ch_air


def test_snc_11_2_1_no_interdiction_before_gt3() -> None:
    """SNC-11.2.1: GT 2's Chinese reinforcements arrive without interdiction."""
    s = reinforcement_phase(CH, 2)
    assert s.step == Step.MAIN


def test_snc_8_0_2_delay_by_unit() -> None:
    """SNC-8.0.2 (AMB-SNC-6 delayable): a due unit may wait until the next GT; under
    mandatory (SNC-5.4.1) it may not."""
    s = reinforcement_phase(CH, 2)
    unit = next(a.unit for a in GAME.legal_actions(s) if isinstance(a, Place))
    s2 = GAME.apply(s, Delay(unit))
    assert (unit, 3) in s2.trt
    m = reinforcement_phase(CH, 2, reinforcement_delay="mandatory")
    assert Delay(unit) not in GAME.legal_actions(m)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(m, Delay(unit))
    assert "SNC-5.4.1" in err.value.clauses


def test_snc_5_4_1_phase_ends_only_when_all_arrived() -> None:
    """SNC-5.4.1: the Reinforcement Phase ends only once this GT's units are placed (or
    delayed)."""
    s = reinforcement_phase(CH, 2)
    assert Done() not in GAME.legal_actions(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Done())
    assert "SNC-5.4.1" in err.value.clauses


def test_snc_8_1_5_elite_return_vector() -> None:
    """SNC-8.1.2, SNC-8.1.5: an elite division eliminated on GT 4 with a die of 4 goes to
    the GT 8 box, reduced; SNC-8.1.3: past GT 12 it is gone."""
    s = reinforcement_phase(JP, 4)
    s = attrs.evolve(s, elite=("CH-14D",), trt=tuple(p for p in s.trt if p[0] != "CH-14D"))
    assert GAME.to_move(s) == CHANCE
    t = GAME.apply(s, Roll(4))
    assert ("CH-14D", 8) in t.trt and "CH-14D" in t.reduced
    late = GAME.apply(attrs.evolve(s, turn=9), Roll(4))
    assert "CH-14D" in late.dead


def test_snc_8_1_4_elite_returns_near_nanking() -> None:
    """SNC-8.1.4: a returning elite unit is placed, reduced, in or next to Nanking (0202)."""
    s = reinforcement_phase(CH, 2)
    s = attrs.evolve(
        s,
        trt=(("CH-87D", 2),),
        where=tuple(p for p in s.where if p[0] != "CH-87D"),
        reduced=frozenset({"CH-87D"}),
    )
    hexes = {a.hex for a in GAME.legal_actions(s) if isinstance(a, Place)}
    assert H("0202") in hexes
    assert hexes <= {H("0202"), *GAME.board.neighbors(H("0202"))}


def test_snc_8_4_0_11_landing_in_an_empty_hex() -> None:
    """SNC-8.4.0.1, SNC-8.4.0.3, SNC-8.4.0.11: a group landing in an empty landing hex is
    placed there without combat, and takes control (SNC-3.2.2)."""
    s = reinforcement_phase(JP, 2)
    lands = [a for a in GAME.legal_actions(s) if isinstance(a, Land)]
    assert lands
    s = attrs.evolve(s, where=tuple(p for p in s.where if p[1] != H("3308")))
    land = next(a for a in GAME.legal_actions(s) if isinstance(a, Land) and a.hex == H("3308"))
    s = GAME.apply(s, land)
    assert all(dict(s.where)[u] == H("3308") for u in land.units)
    assert H("3308") in s.jp_control


def test_snc_8_4_0_9_landing_combat_against_a_garrison() -> None:
    """SNC-8.4.0.4 to SNC-8.4.0.9, SNC-8.4.0.6: a landing against a garrison: support
    (amphibious included), the die, Chinese losses first; garrisons that survive are
    eliminated, the Japanese lose one more step, the survivors land."""
    s = reinforcement_phase(JP, 2)
    s = attrs.evolve(
        s, where=tuple(sorted((*[p for p in s.where if p[0] != "CH-87D"], ("CH-87D", H("3308")))))
    )
    land = next(a for a in GAME.legal_actions(s) if isinstance(a, Land) and a.hex == H("3308"))
    s = GAME.apply(s, land)
    assert s.combat is not None and s.combat.landing and s.step == Step.SUPPORT_A
    assert Support("amphibious") in GAME.legal_actions(s)
    s = GAME.apply(s, Done())
    from specs.snc1937.rules.tables import odds_column

    assert s.combat is not None
    col = odds_column(GAME.tables, s, s.combat)
    face = next(f for f in range(1, 7) if GAME.data.crt.result(col, f)[1] == 0)
    lost_a = GAME.data.crt.result(col, face)[0]
    s = GAME.apply(s, Roll(face))
    garrisons = [u for u, h in GAME.data.setup.at_start[0].place.items()]
    assert s.step == Step.RETREAT and GAME.to_move(s) == CH  # the elite retreats
    assert any(
        u in s.dead
        for u in GAME.tables.spec
        if GAME.tables.spec[u].is_static and GAME.tables.spec[u].side == CH
    )  # the garrison is eliminated
    retreat = GAME.legal_actions(s)[0]
    assert isinstance(retreat, Retreat) and retreat.unit == "CH-87D"
    s = GAME.apply(s, retreat)
    assert GAME.to_move(s) == JP and s.step == Step.LOSS_A
    assert s.combat is not None and s.combat.loss_a == lost_a + 1
    assert garrisons
    while step_of(s) == Step.LOSS_A:
        s = GAME.apply(s, GAME.legal_actions(s)[0])
    here = stacks(s.where).get(H("3308"), ())
    assert here and all(GAME.tables.spec[u].side == JP for u in here)
    assert Loss not in {type(a) for a in GAME.legal_actions(s)}


def test_snc_8_3_4_two_replacement_steps_from_gt3() -> None:
    """SNC-8.3.1, SNC-8.3.4, SNC-8.3.7: from GT 3 the Japanese flip up to two reduced units
    with a LoC to a landing hex, first thing in the phase; none on GT 2."""
    base = GAME.initial_state(CATALOGUE.preset("standard"))
    where = dict(base.where)
    for u in ("JP-3D-1", "JP-3D-2", "JP-3D-3"):
        where[u] = H("3509")
    for u, h in list(where.items()):
        if h == H("3509") and u.startswith("CH"):
            del where[u]
    trt = tuple(p for p in base.trt if not p[0].startswith("JP-3D"))
    s = attrs.evolve(
        base,
        where=tuple(sorted(where.items())),
        trt=trt,
        reduced=frozenset({"JP-3D-1", "JP-3D-2", "JP-3D-3"}),
    )
    s3 = GAME.apply(GAME.apply(attrs.evolve(s, turn=3, side=JP), Declare(Order.MOVE_MOVE)), Done())
    assert s3.step == Step.REPLACE
    assert set(GAME.legal_actions(s3)) == {
        Replace(u) for u in ("JP-3D-1", "JP-3D-2", "JP-3D-3")
    } | {Done()}
    s3 = GAME.apply(GAME.apply(s3, Replace("JP-3D-1")), Replace("JP-3D-2"))
    assert s3.step == Step.MAIN and s3.reduced == frozenset({"JP-3D-3"})
    s2 = GAME.apply(GAME.apply(attrs.evolve(s, turn=2, side=JP), Declare(Order.MOVE_MOVE)), Done())
    assert s2.step == Step.MAIN


def test_snc_9_1_3_garrison_placed_in_a_captured_city() -> None:
    """SNC-9.1.3 (AMB-SNC-37): a Japanese unit entering a city brings a garrison from the
    pool."""
    from specs.snc1937.rules import tables as flow

    s = GAME.initial_state(CATALOGUE.preset("standard"))
    s = flow.put(s, {"JP-3D-1": H("2410"), "CH-G-SUZHOU": None})
    s = attrs.evolve(
        s, trt=tuple(p for p in s.trt if p[0] != "JP-3D-1"), dead=s.dead | {"CH-G-SUZHOU"}
    )
    s = flow.arrive(GAME.tables, s, JP, [H("2410")], "move")
    here = stacks(s.where)[H("2410")]
    assert any(GAME.tables.spec[u].is_static and GAME.tables.spec[u].side == JP for u in here)
    assert H("2410") in s.jp_control


def test_snc_8_4_1_1_tenth_army_lands_east_of_32xx() -> None:
    """SNC-8.4.1.1 (AMB-SNC-43 columns): the 10th Army lands at one landing hex in column 32
    or east of it."""
    s = reinforcement_phase(JP, 7)
    while s.step == Step.REPLACE:
        s = GAME.apply(s, Done())
    s = attrs.evolve(s, trt=tuple(p for p in s.trt if p[1] >= 7))
    lands = [a for a in GAME.legal_actions(s) if isinstance(a, Land)]
    assert lands and all(a.hex.col >= 32 for a in lands)
    assert all(len(a.units) == 14 for a in lands)


def test_snc_8_4_0_10_landing_whatever_the_phase_order() -> None:
    """SNC-8.4.0.10: the Japanese land and fight in the Reinforcement Phase after a Fight/Fight
    or a Move/Move declaration alike."""
    for order in (Order.FIGHT_FIGHT, Order.MOVE_MOVE):
        s = GAME.initial_state(CATALOGUE.preset("standard"))
        s = GAME.apply(GAME.apply(attrs.evolve(s, turn=2, side=JP), Declare(order)), Done())
        assert any(isinstance(a, Land) for a in GAME.legal_actions(s))


def test_snc_8_4_0_1_snlf9_placed_or_landed() -> None:
    """SNC-8.4.0.1, SNC-13.27 (AMB-SNC-35): SNLF 9 is placed at 3512 or 3611 under
    snlf9_arrival=placed, and lands there under snlf9_arrival=landing."""
    s = reinforcement_phase(JP, 1)
    assert {a for a in GAME.legal_actions(s) if isinstance(a, Place)} == {
        Place("JP-SNLF9", H("3512")),
        Place("JP-SNLF9", H("3611")),
    }
    s = reinforcement_phase(JP, 1, snlf9_arrival="landing")
    assert Land(("JP-SNLF9",), H("3512")) in GAME.legal_actions(s)
