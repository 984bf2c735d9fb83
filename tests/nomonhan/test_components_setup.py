"""Components (NOM-2.1 to NOM-2.5) and set-up (NOM-3.1 to NOM-3.4)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kernel.errors import ImpossiblePosition, InvalidInput
from kernel.hexes import Hex, hex_distance, parse_hex
from specs.nomonhan.rules.actions import Declare, EndPhase, EndRoll, Enter, Loss, Move, Roll
from specs.nomonhan.rules.state import Combat, NomonhanState, Phase, Stage
from specs.nomonhan.rules.strength import attack_strength, combat_dice, defence_strength, full_steps
from tests.nomonhan.helpers_seq import BOARD, QUIET, contact, fight, quiet
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_4TK,
    JP_KOB,
    JP_YAM,
    SU_9,
    SU_11TK,
    SU_36,
    SU_615,
    SU_ART,
    apply_all,
    clauses_of_illegal,
    legal,
    position,
    variant,
)

DATA = GAME.rules.data


def _facts(prefix: str) -> dict[str, bool]:
    return {f"{r.clause}: {r.statement}": r.ok for r in GAME.data_facts() if r.clause == prefix}


# --- NOM-2.1 ------------------------------------------------------------------------------


def test_nom_2_1_two_armies_japanese_and_soviet() -> None:
    """NOM-2.1: every counter belongs to one of the two armies, Japanese or Soviet, and only
    that army moves it."""
    assert GAME.sides == ("JP", "SU")
    sides = {s.id: s.side for s in DATA.units}
    assert {u for u, s in sides.items() if s == "JP"} == {JP_KOB, JP_3TK, JP_4TK, JP_YAM}
    assert {u for u, s in sides.items() if s == "SU"} == {SU_36, SU_9, SU_615, SU_ART, SU_11TK}
    # a Japanese counter is not the Soviet player's to move
    su_turn = position(quiet(JP_KOB="0603", SU_36="0303"), turn=2)
    assert clauses_of_illegal(su_turn, Move(JP_KOB, parse_hex("0604"))) == ("NOM-8.1",)


# --- NOM-2.2 ------------------------------------------------------------------------------


def test_nom_2_2_tank_numbers_attack_and_defence_by_reading() -> None:
    """NOM-2.2: a tank has an attack and a defence number; which printed number is which is
    the tank_numbers option (AMB-NOM-22). Other units have one combat number."""
    tank = DATA.unit(JP_3TK)
    assert tank.printed == (4, 2)
    left_attack, left_defence = (
        variant(tank_numbers="left_attack"),
        variant(tank_numbers="left_defence"),
    )
    assert (attack_strength(left_attack, tank, 2), defence_strength(left_attack, tank, 2)) == (4, 2)
    assert (attack_strength(left_defence, tank, 2), defence_strength(left_defence, tank, 2)) == (
        2,
        4,
    )
    infantry = DATA.unit(JP_KOB)
    assert attack_strength(left_attack, infantry, 2) == defence_strength(left_attack, infantry, 2)
    assert attack_strength(left_attack, infantry, 2) == 4
    # the readings change the dice of a real combat: 3TK attacks 36/149 (defence 3)
    for reading, dice in (("left_attack", (4, 3)), ("left_defence", (2, 3))):
        s = contact(
            units=quiet(JP_3TK="0505", JP_KOB="0801", SU_36="0506"),
            options={"tank_numbers": reading},
        )
        assert combat_dice(BOARD, s, Combat((JP_3TK,), (SU_36,))) == dice


def _moves(state: NomonhanState, unit: str) -> set[Hex]:
    return {a.to for a in legal(state) if isinstance(a, Move) and a.unit == unit}


def test_nom_2_2_right_number_is_movement_allowance() -> None:
    """NOM-2.2: the right-hand number is the movement allowance: on open clear ground an
    infantry unit (MA 3) reaches exactly the hexes within 3, and a tank (MA 5) goes 5 hexes
    down a clear column but not 6."""
    assert (DATA.unit(JP_KOB).ma, DATA.unit(JP_3TK).ma) == (3, 5)
    start = parse_hex("0605")
    s = position(quiet(JP_KOB="0605", SU_36="0108", JP_3TK="0801", JP_4TK="0309"))
    assert all(hex_distance(start, parse_hex(h)) > 3 for h in ("0801", "0309", "0108"))
    expected = {h for h in BOARD.map.hexes if 1 <= hex_distance(start, h) <= 3}
    assert _moves(s, JP_KOB) == expected
    tank = _moves(s, JP_3TK)
    assert parse_hex("0806") in tank
    assert parse_hex("0807") not in tank
    assert max(hex_distance(parse_hex("0801"), h) for h in tank) == 5


# --- NOM-2.3 ------------------------------------------------------------------------------


def test_nom_2_3_dice_are_independent_d6() -> None:
    """NOM-2.3: each die is a fair d6: the end-of-turn die has six faces at 1/6, a combat roll
    of N dice is N independent d6 (binomial hit counts), and a face outside 1-6 is refused."""
    end = contact(turn=6, phase=Phase.IP_MOVEMENT, stage=Stage.END_ROLL)
    assert list(GAME.chance_outcomes(end)) == [(EndRoll(f), Fraction(1, 6)) for f in range(1, 7)]
    assert clauses_of_illegal(end, EndRoll(7)) == ("NOM-2.3",)
    assert clauses_of_illegal(end, EndRoll(0)) == ("NOM-2.3",)
    s = contact()  # Kobayashi (4 dice) attacks 36/149 (3 dice)
    rolling = apply_all(s, Declare((Combat((JP_KOB,), (SU_36,)),)))
    outcomes = dict(GAME.chance_outcomes(rolling))
    assert len(outcomes) == 5 * 4
    assert sum(outcomes.values()) == 1
    p, q = Fraction(1, 3), Fraction(2, 3)
    assert outcomes[Roll(4, 0)] == p**4 * q**3
    assert outcomes[Roll(2, 1)] == 6 * p**2 * q**2 * 3 * p * q**2


# --- NOM-2.4 ------------------------------------------------------------------------------


def test_nom_2_4_units_only_on_hexes_of_the_map() -> None:
    """NOM-2.4: units may be only in the map's hexes: a move off the map names NOM-2.4, and a
    state placing a unit off the map is refused when read."""
    s = position(quiet(JP_KOB="0805", SU_36="0303"))
    assert clauses_of_illegal(s, Move(JP_KOB, Hex(9, 5))) == ("NOM-2.4",)
    data = GAME.state_to_json(s)
    for u in data["units"]:
        if u["id"] == JP_KOB:
            u["hex"] = "0910"
    with pytest.raises(InvalidInput) as exc:
        GAME.state_from_json(data)
    assert exc.value.clauses == ("NOM-2.4",)
    assert all(_facts("NOM-2.4").values())


# --- NOM-2.5 ------------------------------------------------------------------------------


def test_nom_2_5_eleven_counters() -> None:
    """NOM-2.5: there are eleven counters (units and markers) in all."""
    assert DATA.counter_count == 11
    assert len(DATA.units) == 9
    assert {m for m, _ in DATA.markers} == {"TURN", "DEMOLITION"}
    assert all(_facts("NOM-2.5").values())


def test_nom_2_5_reverse_side_is_a_reduced_step() -> None:
    """NOM-2.5: a counter printed on both sides has two steps: the first loss flips it to its
    weaker reverse side, the second removes it."""
    s = contact()
    assert DATA.unit(SU_36).full_steps == 2
    s = fight(s, 2, 0)
    s = apply_all(s, Loss(SU_36, None))
    flipped = s.unit(SU_36)
    assert (flipped.hex, flipped.steps) == (parse_hex("0504"), 1)
    v = s.variant
    assert defence_strength(v, DATA.unit(SU_36), 1) == 2 < defence_strength(v, DATA.unit(SU_36), 2)
    s = apply_all(s, Loss(SU_36, None))
    assert (s.unit(SU_36).hex, s.unit(SU_36).steps) == (None, 0)


# --- NOM-3.1 to NOM-3.4 ----------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["ja", "en"])
def test_nom_3_1_japanese_units_on_their_setup_hexes(preset: str) -> None:
    """NOM-3.1: at start Kobayashi and tank regiments 3 and 4 stand on their set-up hexes."""
    s = GAME.initial_state(GAME.presets()[preset])
    on_map = {u.id for u in s.units if u.hex is not None and DATA.unit(u.id).side == "JP"}
    assert {DATA.unit(u).label for u in on_map} == {"小林", "3", "4"}
    assert {DATA.unit(u).type for u in (JP_3TK, JP_4TK)} == {"tank"}
    for uid in on_map:
        assert s.unit(uid).hex == DATA.unit(uid).setup
        assert s.unit(uid).steps == full_steps(s.variant, DATA.unit(uid))
    assert all(_facts("NOM-3.1").values())


@pytest.mark.parametrize("preset", ["ja", "en"])
def test_nom_3_2_soviet_units_on_their_setup_hexes(preset: str) -> None:
    """NOM-3.2: the Soviet at-start units are 36/149, 9, 6/15 and the Artillery (EN's list,
    which is also JA's "every Soviet counter without a GT number")."""
    s = GAME.initial_state(GAME.presets()[preset])
    on_map = {u.id for u in s.units if u.hex is not None and DATA.unit(u.id).side == "SU"}
    assert {DATA.unit(u).label for u in on_map} == {"36/149", "9", "6/15", "Artillery"}
    assert on_map == {s.id for s in DATA.units if s.side == "SU" and s.gt is None}
    for uid in on_map:
        assert s.unit(uid).hex == DATA.unit(uid).setup
    hexes = [u.hex for u in s.units if u.hex is not None]
    assert len(hexes) == len(set(hexes)) == 7
    assert all(_facts("NOM-3.2").values())


def test_nom_3_1_nom_3_2_at_start_unit_off_the_map_is_impossible() -> None:
    """NOM-3.1, NOM-3.2: an at-start unit that is neither on its hex nor eliminated cannot be
    read from a state."""
    data = GAME.state_to_json(GAME.initial_state(GAME.presets()["ja"]))
    for u in data["units"]:
        if u["id"] == SU_615:
            u["hex"] = None
    with pytest.raises(ImpossiblePosition) as exc:
        GAME.state_from_json(data)
    assert exc.value.clauses == ("NOM-P-OFF-MAP", "NOM-3.1", "NOM-3.2")
    assert exc.value.field == f"units[{[u['id'] for u in data['units']].index(SU_615)}].hex"


@pytest.mark.parametrize("preset", ["ja", "en"])
def test_nom_3_3_turn_marker_japanese_side_on_box_one(preset: str) -> None:
    """NOM-3.3: the game starts in Turn 1 with the Japanese side of the Turn marker up, in the
    Japanese Movement Phase."""
    s = GAME.initial_state(GAME.presets()[preset])
    assert (s.turn, s.initiative, s.phase, s.stage) == (1, "JP", Phase.IP_MOVEMENT, Stage.MOVE)
    assert GAME.to_move(s) == "JP"
    assert GAME.outcome(s) is None


def test_nom_3_4_reinforcements_wait_in_their_turn_box() -> None:
    """NOM-3.4: a GT n unit starts off the map, at full strength, and cannot enter before
    Turn n; in Turn n it may enter."""
    s = GAME.initial_state(GAME.presets()["ja"])
    gts = {u.id: u.gt for u in DATA.units if u.gt is not None}
    assert gts == {JP_YAM: 2, SU_11TK: 2}
    for uid in gts:
        assert (s.unit(uid).hex, s.unit(uid).steps) == (None, DATA.unit(uid).full_steps)
    flag = DATA.map.flags["JP"][0]
    turn1 = position(QUIET, turn=1)
    assert not [a for a in legal(turn1) if isinstance(a, Enter)]
    assert clauses_of_illegal(turn1, Enter(JP_YAM, flag, flag)) == ("NOM-8.8",)
    # Turn 2: Japan is the non-initiative player and moves in phase 3
    turn2 = position(QUIET, turn=2, phase=Phase.NIP_MOVEMENT)
    assert Enter(JP_YAM, flag, flag) in legal(turn2)
    entered = apply_all(turn2, Enter(JP_YAM, flag, flag))
    assert entered.unit(JP_YAM).hex == flag
    assert EndPhase() in legal(entered)
