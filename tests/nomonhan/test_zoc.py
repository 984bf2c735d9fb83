"""Zones of control (NOM-7.1 to NOM-7.5); option `pontoon_is_bridge` (AMB-NOM-16) for ZOC."""

from __future__ import annotations

import pytest

from kernel.hexes import Hex, parse_hex
from specs.nomonhan.rules.actions import Declare, EndPhase, Loss, Move, Roll
from specs.nomonhan.rules.board import enemy_zoc_hexes, in_enemy_zoc, occupancy
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase
from specs.nomonhan.rules.strength import combat_dice
from tests.nomonhan.helpers_seq import BOARD, contact
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_KOB,
    SU_9,
    SU_36,
    SU_ART,
    apply_all,
    clauses_of_illegal,
    legal,
    position,
)


def _h(text: str) -> Hex:
    return parse_hex(text)


def _moves(s: NomonhanState, unit: str) -> set[str]:
    return {str(a.to) for a in legal(s) if isinstance(a, Move) and a.unit == unit}


def _jp_in_ezoc(s: NomonhanState, unit: str = JP_KOB) -> bool:
    h = s.unit(unit).hex
    assert h is not None
    return in_enemy_zoc(BOARD, s, "JP", h, occupancy(s))


# --- NOM-7.1 ------------------------------------------------------------------------------------


def test_nom_7_1_zoc_is_the_six_adjacent_hexes() -> None:
    """NOM-7.1: a unit's ZOC is exactly its six adjacent hexes: a Japanese unit in any of them
    cannot move, one two hexes away can."""
    centre = _h("0605")
    ring = BOARD.neighbors(centre)
    assert len(ring) == 6
    s = position({SU_36: "0605", JP_KOB: "0801"})
    assert enemy_zoc_hexes(BOARD, s, "JP", occupancy(s)) == frozenset(ring)
    for n in ring:
        s = position({SU_36: "0605", JP_KOB: str(n)})
        assert clauses_of_illegal(s, Move(JP_KOB, _h("0801"))) == ("NOM-7.3",)
    far = position({SU_36: "0605", JP_KOB: "0603"})
    assert _moves(far, JP_KOB)


def test_nom_7_1_the_artillery_exerts_a_zoc_too() -> None:
    """NOM-7.1: every unit, the Artillery included, exerts a ZOC; friendly units exert none on
    their own side."""
    s = position({SU_ART: "0605", JP_KOB: "0606", JP_3TK: "0604"})
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0708"))) == ("NOM-7.3",)
    friendly = position({JP_3TK: "0605", JP_KOB: "0606", SU_ART: "0109"})
    assert "0708" in _moves(friendly, JP_KOB)
    assert not _jp_in_ezoc(friendly)


# --- NOM-7.2 ------------------------------------------------------------------------------------


def test_nom_7_2_a_unit_entering_an_ezoc_stops() -> None:
    """NOM-7.2: a moving unit may enter an EZOC hex but must stop there, so hexes reachable
    only through the EZOC are out of reach (Kobayashi, MA 3, from 0602; 36/149 in 0604)."""
    free = position({JP_KOB: "0602", SU_ART: "0109"})
    s = position({JP_KOB: "0602", SU_36: "0604", SU_ART: "0109"})
    ezoc = {str(h) for h in BOARD.neighbors(_h("0604"))}
    assert ezoc == {"0504", "0505", "0603", "0605", "0704", "0705"}
    reach = _moves(s, JP_KOB)
    assert {"0504", "0603", "0704"} <= reach  # entered, and stopped in
    assert {"0505", "0605", "0705"} <= _moves(free, JP_KOB)
    assert not {"0505", "0605", "0705"} & reach  # only through an EZOC hex
    assert reach == _moves(free, JP_KOB) - {"0505", "0604", "0605", "0705"}
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0605"))) == ("NOM-8.1",)


# --- NOM-7.3 ------------------------------------------------------------------------------------


def test_nom_7_3_a_unit_in_an_ezoc_cannot_move() -> None:
    """NOM-7.3: a unit that starts its Movement Phase in an EZOC cannot move, not even to
    another hex next to the same enemy; its side may still end the phase."""
    s = position({JP_KOB: "0603", SU_36: "0604", SU_ART: "0109"})
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0503"))) == ("NOM-7.3",)
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0504"))) == ("NOM-7.3",)  # still adjacent
    assert not _moves(s, JP_KOB)
    assert EndPhase() in legal(s)


def test_nom_7_3_retreat_may_leave_an_ezoc() -> None:
    """NOM-7.3: leaving an EZOC is allowed by retreat: 36/149, next to Kobayashi, may retreat
    into any free adjacent hex outside the Japanese ZOC."""
    s = apply_all(contact(), Declare((Combat((JP_KOB,), (SU_36,)),)), Roll(1, 0))
    jp_zoc = set(BOARD.neighbors(_h("0503")))
    assert _h("0504") in jp_zoc
    retreats = {a.retreat_to for a in legal(s) if isinstance(a, Loss) and a.retreat_to}
    assert retreats == {_h("0505"), _h("0404"), _h("0604")}
    assert not retreats & jp_zoc
    s = apply_all(s, Loss(SU_36, _h("0505")))
    assert s.unit(SU_36).hex == _h("0505")


# --- NOM-7.4 ------------------------------------------------------------------------------------


def test_nom_7_4_no_zoc_across_a_river_without_a_bridge() -> None:
    """NOM-7.4: ZOC does not reach across a river hexside without a bridge (0303/0203)."""
    assert BOARD.hexside_kind(_h("0303"), _h("0203"), False) == "river"
    s = position({SU_36: "0303", JP_KOB: "0203"})
    assert not _jp_in_ezoc(s)
    assert _moves(s, JP_KOB)


def test_nom_7_4_zoc_across_a_fixed_bridge() -> None:
    """NOM-7.4: across a bridged river hexside (the fixed bridge 0209/0309) ZOC does reach;
    the two units are then in contact for combat, with +1 to the defender (NOM-9.22)."""
    assert BOARD.hexside_kind(_h("0209"), _h("0309"), False) == "fixed"
    s = position({SU_36: "0309", JP_KOB: "0209", SU_ART: "0101"})
    assert _jp_in_ezoc(s)
    assert clauses_of_illegal(s, Move(JP_KOB, _h("0208"))) == ("NOM-7.3",)
    fight = position({SU_36: "0309", JP_KOB: "0209", SU_ART: "0101"}, phase=Phase.IP_COMBAT)
    assert legal(fight) == [Declare((Combat((JP_KOB,), (SU_36,)),))]
    assert combat_dice(BOARD, fight, Combat((JP_KOB,), (SU_36,))) == (4, 3 + 1)


@pytest.mark.parametrize("reading", ["yes", "no"])
def test_nom_7_4_pontoon_carries_zoc_by_reading(reading: str) -> None:
    """NOM-7.4 (AMB-NOM-16): under pontoon_is_bridge=yes the pontoon (0207/0308) is a bridge
    for ZOC and combat; under no, ZOC does not reach across it and no attack is possible."""
    units = {SU_36: "0308", JP_KOB: "0207", SU_ART: "0101", SU_9: "0109"}
    s = position(units, options={"pontoon_is_bridge": reading})
    assert _jp_in_ezoc(s) == (reading == "yes")
    move = Move(JP_KOB, _h("0206"))
    if reading == "yes":
        assert clauses_of_illegal(s, move) == ("NOM-7.3",)
    else:
        assert move in legal(s)
    combat = position(units, options={"pontoon_is_bridge": reading}, phase=Phase.IP_COMBAT)
    attack = Declare((Combat((JP_KOB,), (SU_36,)),))
    if reading == "yes":
        assert legal(combat) == [attack]
        assert combat_dice(BOARD, combat, attack.combats[0]) == (4, 3 + 1)
    else:
        assert "NOM-9.6" in clauses_of_illegal(combat, attack)
        ended = apply_all(position(units, options={"pontoon_is_bridge": "no"}), EndPhase())
        assert ended.phase == Phase.NIP_MOVEMENT  # no contact: nothing to fight


# --- NOM-7.5 ------------------------------------------------------------------------------------


def test_nom_7_5_zoc_of_0302_reaches_0201_but_not_0202() -> None:
    """NOM-7.5: a unit in 0302 exerts ZOC into 0201 but not into 0202 (river)."""
    s = position({SU_36: "0302", JP_KOB: "0801"})
    zoc = enemy_zoc_hexes(BOARD, s, "JP", occupancy(s))
    assert _h("0201") in zoc
    assert _h("0202") not in zoc
    assert {_h("0201"), _h("0202")} <= set(BOARD.neighbors(_h("0302")))
    in_0201 = position({SU_36: "0302", JP_KOB: "0201"})
    assert clauses_of_illegal(in_0201, Move(JP_KOB, _h("0301"))) == ("NOM-7.3",)
    in_0202 = position({SU_36: "0302", JP_KOB: "0202"})
    assert _moves(in_0202, JP_KOB)
    assert all(r.ok for r in GAME.data_facts() if r.clause == "NOM-7.5")


def test_nom_7_5_no_combat_between_0302_and_0202() -> None:
    """NOM-7.5: no combat can take place between 0302 and 0202, in either side's Combat Phase;
    between 0302 and 0201 it must."""
    units = {SU_36: "0302", JP_KOB: "0202", JP_3TK: "0801", SU_ART: "0109"}
    for phase in (Phase.IP_COMBAT, Phase.NIP_COMBAT):
        s = position(units, phase=phase)
        assert legal(s) == [Declare(())]
    s = position(units, phase=Phase.IP_COMBAT)
    assert clauses_of_illegal(s, Declare((Combat((JP_KOB,), (SU_36,)),))) == ("NOM-9.6",)
    moved_on = apply_all(position(units), EndPhase())
    assert moved_on.phase == Phase.NIP_MOVEMENT
    near = position({**units, JP_KOB: "0201"}, phase=Phase.IP_COMBAT)
    assert clauses_of_illegal(near, Declare(())) == ("NOM-9.2", "NOM-9.3")
