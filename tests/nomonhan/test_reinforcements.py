"""Reinforcements (NOM-8.8, NOM-8.9, NOM-3.4); options `reinforcement_timing` and
`reinforcement_movement` (AMB-NOM-18)."""

from __future__ import annotations

import pytest

from kernel.hexes import Hex, hex_distance, parse_hex
from specs.nomonhan.rules.actions import EndPhase, Enter, Move
from specs.nomonhan.rules.board import occupancy
from specs.nomonhan.rules.reach import destinations
from specs.nomonhan.rules.sequence import points
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage
from tests.nomonhan.helpers_seq import BOARD, contact, ip_loses, quiet
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_KOB,
    JP_YAM,
    SU_11TK,
    SU_36,
    SU_ART,
    apply_all,
    clauses_of_illegal,
    legal,
    position,
)

SU_FLAG = GAME.rules.data.map.flags["SU"][0]
JP_FLAG = GAME.rules.data.map.flags["JP"][0]


def _h(text: str) -> Hex:
    return parse_hex(text)


def _entries(s: NomonhanState, unit: str) -> set[tuple[Hex, Hex]]:
    return {(a.at, a.to) for a in legal(s) if isinstance(a, Enter) and a.unit == unit}


def _turn2(
    options: dict[str, str] | None = None, units: dict[str, str] | None = None
) -> NomonhanState:
    """Turn 2, Soviet (initiative) Movement Phase; the 11th Tank Brigade (GT 2) is due."""
    base = {JP_KOB: "0801", JP_3TK: "0807", SU_36: "0404", SU_ART: "0103"}
    base.update(units or {})
    return position(base, turn=2, options=options, eliminated=(JP_YAM,))


# --- NOM-8.8 ------------------------------------------------------------------------------------


def test_nom_8_8_enters_on_its_own_flag_hex_in_turn_n() -> None:
    """NOM-8.8: a GT n unit enters in its side's Movement Phase of turn n on a hex bearing its
    own flag, and nowhere else."""
    assert (GAME.rules.data.unit(SU_11TK).gt, str(SU_FLAG), str(JP_FLAG)) == (2, "0109", "0805")
    s = _turn2()
    assert (SU_FLAG, SU_FLAG) in _entries(s, SU_11TK)
    assert {at for at, _ in _entries(s, SU_11TK)} == {SU_FLAG}
    assert clauses_of_illegal(s, Enter(SU_11TK, JP_FLAG, JP_FLAG)) == ("NOM-8.8",)
    assert clauses_of_illegal(s, Enter(SU_11TK, _h("0108"), _h("0108"))) == ("NOM-8.8",)
    early = position({JP_KOB: "0801", SU_ART: "0103"}, turn=1, phase=Phase.NIP_MOVEMENT)
    assert clauses_of_illegal(early, Enter(SU_11TK, SU_FLAG, SU_FLAG)) == ("NOM-8.8",)
    s = apply_all(s, Enter(SU_11TK, SU_FLAG, SU_FLAG))
    assert s.unit(SU_11TK).hex == SU_FLAG
    assert clauses_of_illegal(s, Move(SU_11TK, _h("0108"))) == ("NOM-8.1",)  # its move is made


def test_nom_8_8_japanese_reinforcement_enters_in_its_own_phase() -> None:
    """NOM-8.8: Yamagata (GT 2) belongs to the Japanese, who in Turn 2 move in phase 3: it
    cannot enter in the Soviet phase, and can in the Japanese one."""
    s = position(quiet(), turn=2, eliminated=(SU_11TK,))
    assert not _entries(s, JP_YAM)
    assert clauses_of_illegal(s, Enter(JP_YAM, JP_FLAG, JP_FLAG)) == ("NOM-8.8",)
    nip = position(quiet(), turn=2, phase=Phase.NIP_MOVEMENT, eliminated=(SU_11TK,))
    assert (JP_FLAG, JP_FLAG) in _entries(nip, JP_YAM)


@pytest.mark.parametrize("reading", ["enter_and_move", "enter_only"])
def test_nom_8_8_moving_on_after_entry_by_reading(reading: str) -> None:
    """NOM-8.8 (AMB-NOM-18): under enter_and_move the unit pays the flag hex's 1 MP and may
    move on with the rest (tank MA 5: 4 more, so up to the hill 0106 but not 0105); under
    enter_only the flag hex is where it stops."""
    s = _turn2({"reinforcement_movement": reading})
    got = {to for _, to in _entries(s, SU_11TK)}
    if reading == "enter_only":
        assert got == {SU_FLAG}
        return
    spec = GAME.rules.data.unit(SU_11TK)
    expected = destinations(BOARD, s, spec, SU_FLAG, spec.ma - 1, occupancy(s)) | {SU_FLAG}
    assert got == expected
    assert _h("0106") in got and _h("0105") not in got
    assert max(hex_distance(SU_FLAG, h) for h in got) == 4


def test_nom_8_8_flag_hex_in_an_ezoc_entry_stops_there() -> None:
    """NOM-8.8 with NOM-7.2: a reinforcement entering a flag hex in an EZOC stops on it."""
    s = _turn2(units={JP_KOB: "0108"})
    assert _entries(s, SU_11TK) == {(SU_FLAG, SU_FLAG)}


@pytest.mark.parametrize(
    ("reading", "must"), [("first_phase", True), ("any_phase", False), ("lost", True)]
)
def test_nom_8_8_entry_is_mandatory_by_reading(reading: str, must: bool) -> None:
    """NOM-8.8 (AMB-NOM-18): under first_phase and lost a due reinforcement that can enter
    must, so the phase cannot end before it does; under any_phase the owner may wait."""
    s = _turn2({"reinforcement_timing": reading})
    if must:
        assert EndPhase() not in legal(s)
        assert clauses_of_illegal(s, EndPhase()) == ("NOM-8.8",)
    else:
        assert EndPhase() in legal(s)
        later = apply_all(s, EndPhase(), EndPhase())  # phases 3 and 4 pass: back to phase 1
        assert (later.turn, later.phase) == (2, Phase.IP_MOVEMENT)
        assert (SU_FLAG, SU_FLAG) in _entries(later, SU_11TK)


def _turn2_ends_before_japan_moves(reading: str) -> NomonhanState:
    """Turn 2: the Soviet initiative player loses a step in his own Combat Phase, so the turn
    ends before the Japanese Movement Phase in which Yamagata (GT 2) was due."""
    units = quiet(SU_11TK="0102")
    s = contact(turn=2, units=units, options={"reinforcement_timing": reading})
    s = ip_loses(s)
    assert (s.turn, s.initiative, s.phase, s.stage) == (3, "JP", Phase.IP_MOVEMENT, Stage.MOVE)
    return s


def test_nom_8_8_no_phase_in_turn_n_first_phase_enters_next() -> None:
    """NOM-8.8 (AMB-NOM-18) under first_phase: a reinforcement whose turn gave its side no
    Movement Phase enters in the next one, and must."""
    s = _turn2_ends_before_japan_moves("first_phase")
    assert (JP_FLAG, JP_FLAG) in _entries(s, JP_YAM)
    assert clauses_of_illegal(s, EndPhase()) == ("NOM-8.8",)


def test_nom_8_8_no_phase_in_turn_n_any_phase_may_wait() -> None:
    """NOM-8.8 (AMB-NOM-18) under any_phase: it may enter then or in any later phase."""
    s = _turn2_ends_before_japan_moves("any_phase")
    assert (JP_FLAG, JP_FLAG) in _entries(s, JP_YAM)
    assert EndPhase() in legal(s)


def test_nom_8_8_no_phase_in_turn_n_lost() -> None:
    """NOM-8.8 (AMB-NOM-18) under lost: the reinforcement is withdrawn for good; it neither
    enters nor scores."""
    s = _turn2_ends_before_japan_moves("lost")
    assert s.withdrawn == frozenset({JP_YAM})
    assert not _entries(s, JP_YAM)
    assert clauses_of_illegal(s, Enter(JP_YAM, JP_FLAG, JP_FLAG)) == ("NOM-8.8",)
    assert EndPhase() in legal(s)
    assert points(BOARD, s) == {"JP": 1, "SU": 0}  # 36/149's step; Yamagata counts nothing


# --- NOM-8.9 ------------------------------------------------------------------------------------


@pytest.mark.parametrize("reading", ["first_phase", "any_phase", "lost"])
def test_nom_8_9_enemy_on_the_flag_hex_postpones_entry(reading: str) -> None:
    """NOM-8.9: while an enemy unit holds the flag hex the reinforcement cannot enter (the
    phase may end); once the hex is empty it enters in a later friendly Movement Phase."""
    opts = {"reinforcement_timing": reading}
    s = _turn2(opts, units={JP_KOB: "0109"})
    assert not _entries(s, SU_11TK)
    assert clauses_of_illegal(s, Enter(SU_11TK, SU_FLAG, SU_FLAG)) == ("NOM-8.9",)
    s = apply_all(s, EndPhase())  # no contact: on to the Japanese Movement Phase
    assert s.phase == Phase.NIP_MOVEMENT
    s = apply_all(s, Move(JP_KOB, _h("0208")), EndPhase())
    assert (s.turn, s.phase, GAME.to_move(s)) == (2, Phase.IP_MOVEMENT, "SU")
    assert s.withdrawn == frozenset()
    assert (SU_FLAG, SU_FLAG) in _entries(s, SU_11TK)
    assert (EndPhase() in legal(s)) == (reading == "any_phase")


def test_nom_8_9_friendly_unit_on_the_flag_hex() -> None:
    """NOM-8.9 with NOM-8.6 (a gap of AMB-NOM-18): a friendly unit on the flag hex also keeps
    the reinforcement out, naming the stacking rule, and entry is not then compulsory."""
    s = _turn2(units={SU_36: "0109"})
    assert not _entries(s, SU_11TK)
    assert clauses_of_illegal(s, Enter(SU_11TK, SU_FLAG, SU_FLAG)) == ("NOM-8.6",)
    assert EndPhase() in legal(s)
