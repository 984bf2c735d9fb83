"""Sequence of play and the game's end (NOM-5.1 to NOM-5.5); options `game_end` (AMB-NOM-4)
and `end_roll_timing` (AMB-NOM-5)."""

from __future__ import annotations

import pytest

from kernel.game import CHANCE
from specs.nomonhan.rules.actions import Declare, EndAdvance, EndPhase, EndRoll, Loss
from specs.nomonhan.rules.state import NomonhanState, Phase, Stage
from tests.nomonhan.helpers_seq import NO_GT, contact, fight, ip_loses, points_of, quiet
from tests.nomonhan.positions import GAME, JP_KOB, SU_36, apply_all, clauses_of_illegal, position

END_ROLL = GAME.rules.data.end_roll  # die faces printed in the turn boxes (provisional data)


def _snapshot(s: NomonhanState) -> tuple[int, str, Phase, Stage, str | None]:
    return (s.turn, s.initiative, s.phase, s.stage, GAME.to_move(s))


def _tie_cycle(s: NomonhanState) -> list[tuple[int, str, Phase, Stage, str | None]]:
    """From phase 1 of a QUIET position, play one cycle in which every combat is a tie."""
    seen = []
    s = apply_all(s, EndPhase())
    seen.append(_snapshot(s))
    s = fight(s, 0, 0)
    seen.append(_snapshot(s))
    s = apply_all(s, EndPhase())
    seen.append(_snapshot(s))
    s = fight(s, 1, 1)
    seen.append(_snapshot(s))
    return seen


# --- NOM-5.1, NOM-5.2 -------------------------------------------------------------------------


def test_nom_5_1_four_phases_in_order() -> None:
    """NOM-5.1: a cycle is IP Movement, IP Combat, NIP Movement, NIP Combat, in that order,
    with the initiative player acting in the first two."""
    s = contact(phase=Phase.IP_MOVEMENT)
    assert _snapshot(s) == (1, "JP", Phase.IP_MOVEMENT, Stage.MOVE, "JP")
    assert _tie_cycle(s) == [
        (1, "JP", Phase.IP_COMBAT, Stage.DECLARE, "JP"),
        (1, "JP", Phase.NIP_MOVEMENT, Stage.MOVE, "SU"),
        (1, "JP", Phase.NIP_COMBAT, Stage.DECLARE, "SU"),
        (1, "JP", Phase.IP_MOVEMENT, Stage.MOVE, "JP"),
    ]


def test_nom_5_1_soviet_initiative_cycle() -> None:
    """NOM-5.1: in an even turn the Soviets hold the initiative and act first in the cycle."""
    s = contact(turn=2, phase=Phase.IP_MOVEMENT, eliminated=NO_GT)
    assert [snap[4] for snap in _tie_cycle(s)] == ["SU", "JP", "JP", "SU"]
    # a combat action in a Movement Phase is out of sequence
    assert clauses_of_illegal(s, Declare(())) == ("NOM-8.1",)


def test_nom_5_2_no_initiative_change_repeats_the_cycle_in_the_same_turn() -> None:
    """NOM-5.2: after phase 4 with no initiative change the turn does not end: play returns to
    phase 1 of the same turn with the same initiative, as many times as it happens."""
    s = contact(phase=Phase.IP_MOVEMENT)
    for _ in range(3):
        cycle = _tie_cycle(s)
        assert cycle[-1] == (1, "JP", Phase.IP_MOVEMENT, Stage.MOVE, "JP")
        s = apply_all(s, EndPhase())
        s = fight(s, 0, 0)
        s = apply_all(s, EndPhase())
        s = fight(s, 1, 1)
    assert (s.turn, s.initiative, s.phase) == (1, "JP", Phase.IP_MOVEMENT)
    assert s.unit(JP_KOB).steps == 2 and s.unit(SU_36).steps == 2


def test_nom_5_2_quiet_cycle_returns_to_the_same_position() -> None:
    """NOM-5.2: with no contact both Combat Phases have nothing to declare, and two ended
    Movement Phases bring back phase 1 of the same turn, with the same units in place."""
    s = position(quiet(SU_36="0108"), turn=3, eliminated=NO_GT)
    after = apply_all(s, EndPhase())
    assert (after.phase, GAME.to_move(after)) == (Phase.NIP_MOVEMENT, "SU")
    after = apply_all(after, EndPhase())
    assert (after.turn, after.initiative, after.phase, after.stage) == (
        3,
        "JP",
        Phase.IP_MOVEMENT,
        Stage.MOVE,
    )
    assert after.units == s.units
    assert after.nip_moved_this_turn  # the Soviets had their Movement Phase in this turn


# --- NOM-5.3 ------------------------------------------------------------------------------------


def test_nom_5_3_change_in_ip_combat_cancels_the_nip_phases() -> None:
    """NOM-5.3: an initiative change in the IP Combat Phase ends the turn at once: the NIP's
    Movement and Combat Phases of that cycle never happen, and the next state is the new
    turn's first phase."""
    s = ip_loses(contact(turn=1, phase=Phase.IP_COMBAT))
    assert _snapshot(s) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE, "SU")
    assert not s.nip_moved_this_turn
    assert s.unit(JP_KOB).steps == 1


def test_nom_5_3_change_in_a_later_cycle_ends_the_turn_too() -> None:
    """NOM-5.3: the change ends the turn wherever it happens, here in the second cycle's NIP
    Combat Phase after a first cycle without one."""
    s = contact(phase=Phase.IP_MOVEMENT)
    s = apply_all(s, EndPhase())
    s = fight(s, 0, 0)
    s = apply_all(s, EndPhase())
    s = fight(s, 0, 0)  # cycle 1 over, still Turn 1
    assert (s.turn, s.phase) == (1, Phase.IP_MOVEMENT)
    s = apply_all(s, EndPhase())
    s = fight(s, 0, 0)
    s = apply_all(s, EndPhase())
    assert s.phase == Phase.NIP_COMBAT
    s = ip_loses(s)
    assert _snapshot(s) == (2, "SU", Phase.IP_MOVEMENT, Stage.MOVE, "SU")


# --- NOM-5.4 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("turn", range(1, 8))
def test_nom_5_4_end_roll_only_at_the_end_of_turns_6_and_7(turn: int) -> None:
    """NOM-5.4: a die is rolled when Turn 6 or Turn 7 ends, and at no other turn's end."""
    s = ip_loses(contact(turn=turn, phase=Phase.IP_COMBAT))
    if turn in (6, 7):
        assert (s.turn, s.stage, GAME.to_move(s)) == (turn, Stage.END_ROLL, CHANCE)
    else:
        assert (s.turn, s.phase, s.stage) == (turn + 1, Phase.IP_MOVEMENT, Stage.MOVE)


@pytest.mark.parametrize("turn", [6, 7])
@pytest.mark.parametrize("face", range(1, 7))
def test_nom_5_4_die_face_printed_in_the_box_ends_the_game(turn: int, face: int) -> None:
    """NOM-5.4: the game ends when the die shows a face printed in the turn's box; otherwise
    the next turn begins with the other side's initiative."""
    assert set(END_ROLL) == {6, 7}
    s = apply_all(ip_loses(contact(turn=turn, phase=Phase.IP_COMBAT)), EndRoll(face))
    if face in END_ROLL[turn]:
        assert s.stage == Stage.OVER
        assert s.result is not None and s.result.clause == "NOM-5.4"
    else:
        assert s.result is None
        assert _snapshot(s)[:4] == (
            turn + 1,
            "SU" if turn == 7 else "JP",
            Phase.IP_MOVEMENT,
            Stage.MOVE,
        )


def _turn6_soviet_attack_lost_by_two(timing: str) -> NomonhanState:
    """Turn 6 (Soviet initiative): 36/149 attacks Kobayashi and takes 2 damage; the first point
    is a step loss, which changes the initiative."""
    s = contact(turn=6, phase=Phase.IP_COMBAT, options={"end_roll_timing": timing})
    s = fight(s, 0, 2)
    return apply_all(s, Loss(SU_36, None))


def test_nom_5_4_end_roll_timing_after_combat() -> None:
    """NOM-5.4 (AMB-NOM-5) under end_roll_timing=after_combat: the combat's damage and advance
    are completed first, then the die is rolled; if it ends the game, both steps count."""
    s = _turn6_soviet_attack_lost_by_two("after_combat")
    assert (s.stage, s.turn_ending) == (Stage.DAMAGE, True)
    assert s.current is not None and s.current.damage_left == 1
    s = apply_all(s, Loss(SU_36, None), EndAdvance())
    assert (s.stage, s.current) == (Stage.END_ROLL, None)
    over = apply_all(s, EndRoll(min(END_ROLL[6])))
    assert over.result is not None
    assert points_of(over) == {"JP": 2, "SU": 0}


def test_nom_5_4_end_roll_timing_at_change() -> None:
    """NOM-5.4 (AMB-NOM-5) under end_roll_timing=at_change: the die is rolled at the damage
    point that changes the initiative; if it ends the game the rest of the damage is never
    applied, and if not the combat goes on and no second die is rolled at the turn's end."""
    s = _turn6_soviet_attack_lost_by_two("at_change")
    assert s.stage == Stage.END_ROLL
    assert s.current is not None and s.current.damage_left == 1
    over = apply_all(s, EndRoll(min(END_ROLL[6])))
    assert over.result is not None
    assert points_of(over) == {"JP": 1, "SU": 0}
    go_on = apply_all(s, EndRoll(6))
    assert go_on.stage == Stage.DAMAGE and go_on.end_rolled
    s = apply_all(go_on, Loss(SU_36, None), EndAdvance())
    assert _snapshot(s) == (7, "JP", Phase.IP_MOVEMENT, Stage.MOVE, "JP")


# --- NOM-5.5 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["ja", "en"])
def test_nom_5_5_automatic_end_after_turn_8_only_under_turn8(preset: str) -> None:
    """NOM-5.5 (AMB-NOM-4): under game_end=turn8 (JA) the game ends when Turn 8 ends, with the
    winner on points; under rolls_only (EN) Turn 9 follows, and no die is rolled at the end of
    Turn 8 or 9."""
    s = ip_loses(contact(turn=8, phase=Phase.IP_COMBAT, preset=preset))
    if GAME.catalogue.presets[preset]["game_end"] == "turn8":
        assert s.stage == Stage.OVER
        assert s.result is not None
        assert (s.result.clause, s.result.winner) == ("NOM-5.5", "JP")  # one Soviet step lost
    else:
        assert _snapshot(s) == (9, "JP", Phase.IP_MOVEMENT, Stage.MOVE, "JP")
        s = ip_loses(contact(turn=9, phase=Phase.IP_COMBAT, preset=preset))
        assert _snapshot(s) == (10, "SU", Phase.IP_MOVEMENT, Stage.MOVE, "SU")


def test_nom_5_5_readings_of_game_end_differ() -> None:
    """NOM-5.5 (AMB-NOM-4): the two readings of game_end differ only after Turn 8; both roll
    at the end of Turn 7, and a face that does not end the game leads to Turn 8."""
    for reading in ("turn8", "rolls_only"):
        s = ip_loses(contact(turn=7, phase=Phase.IP_COMBAT, options={"game_end": reading}))
        assert s.stage == Stage.END_ROLL
        s = apply_all(s, EndRoll(6))
        assert (s.turn, s.result) == (8, None)
        s = ip_loses(contact(turn=8, phase=Phase.IP_COMBAT, options={"game_end": reading}))
        assert (s.stage == Stage.OVER) == (reading == "turn8")
    assert {r.name for r in GAME.catalogue.option("game_end").readings} == {"turn8", "rolls_only"}
