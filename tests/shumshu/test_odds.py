"""Odds, column shifts and reading the die (SHU-COMBAT.7 to SHU-COMBAT.12, SHU-DISRUPT.2,
SHU-TANK.1, SHU-TANK.2, SHU-AIR.1, SHU-BANZAI.1, SHU-PRESS.1, SHU-CRT.1, SHU-CRT.9,
SHU-LAND.6)."""

from __future__ import annotations

from fractions import Fraction

import attrs
import pytest

from specs.shumshu.rules import crt
from specs.shumshu.rules.actions import Roll
from specs.shumshu.rules.odds import odds, outcome
from specs.shumshu.rules.state import JP, Fight, ShumshuState, Stage
from tests.shumshu.positions import GAME, B, h, position, variant

COLUMNS = B.data.crt.columns


def fight(s: ShumshuState, target: str, attackers: tuple[str, ...], **kw: object) -> Fight:
    real = tuple(p.id for p in s.units if p.hex == h(target) and not B.unit(p.id).is_decoy)
    return Fight(h(target), attackers, defenders=real, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("attack", "defence", "column"),
    [
        (1, 3, "1:3"),
        (2, 5, "1:3"),
        (2, 3, "1:2"),
        (3, 3, "1:1"),
        (4, 3, "1:1"),
        (3, 2, "3:2"),
        (5, 2, "2:1"),
        (6, 2, "3:1"),
        (9, 2, "4:1"),
    ],
)
def test_shu_combat_7_odds_round_down_to_a_column(attack: int, defence: int, column: str) -> None:
    """SHU-COMBAT.7: attack over defence, rounded down to the printed columns."""
    assert COLUMNS[crt.basic_column(attack, defence)] == column


def test_shu_combat_7_odds_off_the_table() -> None:
    """SHU-COMBAT.7, AMB-SHU-16: below 1:3 and from 5:1 the odds leave the table; `clamp`
    reads the edge column, `automatic` gives AE or DE."""
    assert crt.basic_column(1, 4) == crt.BELOW and crt.basic_column(10, 2) == crt.ABOVE
    s = position({"RU-ENG": "0503", "JP-IB1": "0602", "JP-IB2": "0602"})
    f = fight(s, "0602", ("RU-ENG",))  # 1 vs 6
    assert odds(B, s, f).column == 0 and not odds(B, s, f).automatic
    auto = attrs.evolve(s, variant=variant(odds_beyond="automatic"))
    assert odds(B, auto, f).automatic == "AE"


def test_shu_combat_8_mountain_adds_one_to_the_hex() -> None:
    """SHU-COMBAT.8: +1 defence per mountain hex, not per unit; not against a landing."""
    s = position({"RU-1-138": "0602", "RU-2-138": "0602", "JP-IB1": "0702", "JP-IB2": "0702"})
    o = odds(B, s, fight(s, "0702", ("RU-1-138", "RU-2-138")))
    assert (o.attack, o.defence) == (4, 7)
    land = position({"JP-IB1": "0702"}, stage=Stage.MOVE)
    lo = odds(B, land, Fight(h("0702"), ("RU-NI",), landing=True, defenders=("JP-IB1",)))
    assert lo.defence == 3


def test_shu_combat_10_artillery_ranges_shift_both_ways() -> None:
    """SHU-COMBAT.10: an attack into the attacker's artillery range shifts right, into the
    defender's range left; Kamchatka (black) is Russian, Paramushir (red) Japanese."""
    s = position({"RU-1-138": "0901", "JP-IB1": "0801"})
    assert (1, "SHU-COMBAT.10") in odds(B, s, fight(s, "0801", ("RU-1-138",))).shifts
    j = position({"JP-IB1": "0801", "RU-1-138": "0901"}, side=JP)
    assert (-1, "SHU-COMBAT.10") in odds(B, j, fight(j, "0901", ("JP-IB1",))).shifts
    r = position({"RU-1-138": "0402", "JP-IB1": "0303"})
    assert (-1, "SHU-COMBAT.10") in odds(B, r, fight(r, "0303", ("RU-1-138",))).shifts


def test_shu_combat_11_more_than_half_across_a_river_shifts_left() -> None:
    """SHU-COMBAT.11: more than half the attackers across a river: one column left; not when
    Russian engineers attack across that hexside (AMB-SHU-18: units counted)."""
    base = {"JP-IB1": "0603", "RU-1-138": "0504", "RU-2-138": "0602"}
    s = position(base)
    half = fight(s, "0603", ("RU-1-138", "RU-2-138"))  # one of two across: not more than half
    assert (-1, "SHU-COMBAT.11") not in odds(B, s, half).shifts
    t = position({**base, "RU-3-138": "0504"})
    more = fight(t, "0603", ("RU-1-138", "RU-2-138", "RU-3-138"))
    assert (-1, "SHU-COMBAT.11") in odds(B, t, more).shifts
    e = position({**base, "RU-ENG": "0504"})
    eng = fight(e, "0603", ("RU-1-138", "RU-2-138", "RU-ENG"))
    assert (-1, "SHU-COMBAT.11") not in odds(B, e, eng).shifts


def test_shu_combat_12_swamp_defenders_shift_left() -> None:
    """SHU-COMBAT.12: defenders in a swamp: one column left."""
    s = position({"RU-1-138": "0503", "JP-IB1": "0504"})
    assert (-1, "SHU-COMBAT.12") in odds(B, s, fight(s, "0504", ("RU-1-138",))).shifts


def test_shu_disrupt_2_attacks_on_disrupted_units_shift_right() -> None:
    """SHU-DISRUPT.2, AMB-SHU-19: one column right when every defender is disrupted (any one,
    under any_disrupted)."""
    units = {"RU-1-138": "0602", "JP-IB1": "0702", "JP-IB2": "0702"}
    one = position(units, disrupted=["JP-IB1"])
    both = position(units, disrupted=["JP-IB1", "JP-IB2"])
    f = fight(one, "0702", ("RU-1-138",))
    assert (1, "SHU-DISRUPT.2") not in odds(B, one, f).shifts
    assert (1, "SHU-DISRUPT.2") in odds(B, both, f).shifts
    anyone = attrs.evolve(one, variant=variant(disrupted_shift="any_disrupted"))
    assert (1, "SHU-DISRUPT.2") in odds(B, anyone, f).shifts


def test_shu_tank_1_and_2_each_tank_shifts_until_the_at_guns_arrive() -> None:
    """SHU-TANK.1: each Japanese tank adds a shift, not across a river; SHU-TANK.2: none once
    the Russian AT guns have arrived (game_wide), or where they are (local)."""
    s = position({"JP-TK1": "0503", "JP-TK2": "0602", "RU-1-138": "0502"}, side=JP)
    f = fight(s, "0502", ("JP-TK1", "JP-TK2"))
    assert odds(B, s, f).shifts.count((1, "SHU-TANK.1")) == 2
    river = position({"JP-TK1": "0504", "RU-1-138": "0603"}, side=JP)
    assert (1, "SHU-TANK.1") not in odds(B, river, fight(river, "0603", ("JP-TK1",))).shifts
    arrived = attrs.evolve(s, at_arrived=True)
    assert (1, "SHU-TANK.1") not in odds(B, arrived, f).shifts
    local = attrs.evolve(arrived, variant=variant(at_guns="local"))
    assert odds(B, local, f).shifts.count((1, "SHU-TANK.1")) == 2


def test_shu_air_1_the_ki43_shifts_a_japanese_attack() -> None:
    """SHU-AIR.1: the airpower adds one column to a Japanese attack."""
    s = position({"JP-IB1": "0503", "RU-1-138": "0502"}, side=JP)
    f = fight(s, "0502", ("JP-IB1",))
    assert (1, "SHU-AIR.1") in odds(B, s, attrs.evolve(f, air=True)).shifts
    assert (1, "SHU-AIR.1") not in odds(B, s, f).shifts


def test_shu_combat_9_shifts_sum_then_clamp() -> None:
    """SHU-COMBAT.9, AMB-SHU-17: shifts are summed and then clamped, or clamped one by one."""
    v = variant()
    assert crt.shifted(v, 6, [1, 1, -1]) == 6
    each = variant(shift_order="clamp_each")
    assert crt.shifted(each, 6, [1, 1, -1]) == 5


def test_shu_crt_9_each_side_reads_its_own_die_number() -> None:
    """SHU-CRT.9, AMB-SHU-1 (by_nationality): the Japanese read the left number (6 best), the
    Russians the right (1 best); attacker_left has every attacker read the left."""
    v = variant()
    assert crt.row_of(B.data.crt, crt.reads_left(v, JP), 6) == 0
    assert crt.row_of(B.data.crt, crt.reads_left(v, "RU"), 1) == 0
    left = variant(die_reading="attacker_left")
    assert crt.row_of(B.data.crt, crt.reads_left(left, "RU"), 6) == 0


def test_shu_crt_1_one_d6_each_face_one_sixth() -> None:
    """SHU-CRT.1: a combat roll is one die, each face with probability 1/6."""
    s = position({"RU-1-138": "0602", "JP-IB1": "0702"})
    f = fight(s, "0702", ("RU-1-138",))
    rolling = attrs.evolve(s, stage=Stage.ROLL, fight=f)
    assert GAME.chance_outcomes(rolling) == [(Roll(x), Fraction(1, 6)) for x in range(1, 7)]


def test_shu_banzai_1_adds_one_to_the_japanese_roll() -> None:
    """SHU-BANZAI.1: +1 to the Japanese attack roll (a 6 stays 6, AMB-SHU-24)."""
    s = position({"JP-IB1": "0503", "RU-1-138": "0502"}, side=JP)
    f = fight(s, "0502", ("JP-IB1",))  # 2 vs 2: 1:1
    plain, banzai = outcome(B, s, f, 3), outcome(B, s, attrs.evolve(f, banzai=True), 3)
    assert (plain.result, banzai.result) == ("D", "DW")
    assert outcome(B, s, attrs.evolve(f, banzai=True), 6).modified == 6


def test_shu_press_1_best_two_up_a_column_worst_four_down() -> None:
    """SHU-PRESS.1: on the two best faces read one column right, on the four worst one left."""
    s = position({"RU-1-138": "0502", "JP-IB1": "0602"})  # 2 vs 3: 1:2
    f = attrs.evolve(fight(s, "0602", ("RU-1-138",)), press=True)
    assert COLUMNS[odds(B, s, f).column] == "1:2"
    assert COLUMNS[outcome(B, s, f, 1).column] == "1:1"  # the Russians' best face
    assert COLUMNS[outcome(B, s, f, 3).column] == "1:3"
    assert outcome(B, s, f, 2).result == "DW" and outcome(B, s, f, 6).result == "AE"


def test_shu_land_6_kamchatka_moves_the_landing_roll() -> None:
    """SHU-LAND.6, AMB-SHU-5 (die): in the black range the landing roll moves one face in the
    Russians' favour; under `column` it is a column shift instead."""
    s = position({"JP-IB1": "0801"})
    f = Fight(h("0801"), ("RU-NI",), landing=True, defenders=("JP-IB1",))
    assert outcome(B, s, f, 2).result == "DR"  # read as a 1 at 1:1
    plain = attrs.evolve(f, hex=h("0602"))
    assert outcome(B, s, plain, 2).result == "DW"  # outside the range: a 2 at 1:1
    col = attrs.evolve(s, variant=variant(kamchatka_shift="column"))
    assert (1, "SHU-LAND.6") in odds(B, col, f).shifts
    assert outcome(B, col, f, 2).result == "DW"  # 3:2, face 2
