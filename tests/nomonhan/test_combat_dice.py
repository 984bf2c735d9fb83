"""Dice, hits and the damage they make (NOM-9.9 to NOM-9.12, NOM-9.15, NOM-9.16, NOM-9.20,
NOM-9.22)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import attrs

from specs.nomonhan.rules.actions import Roll
from specs.nomonhan.rules.state import Phase, Stage
from specs.nomonhan.rules.strength import attack_strength, defence_strength
from tests.nomonhan.helpers_combat import (
    c,
    chances,
    combat_position,
    dice,
    legal_declarations,
    roll_distribution,
    rolling,
)
from tests.nomonhan.positions import (
    GAME,
    JP_3TK,
    JP_KOB,
    SU_9,
    SU_36,
    SU_615,
    SU_ART,
    apply_all,
    clauses_of_illegal,
    variant,
)

THIRD, SIXTH = Fraction(1, 3), Fraction(1, 6)


def binom(n: int, p: Fraction, k: int) -> Fraction:
    return comb(n, k) * p**k * (1 - p) ** (n - k)


def expected_distribution(
    att: int, dfn: int, pa: Fraction, pd: Fraction
) -> dict[tuple[int, int], Fraction]:
    return {
        (i, j): binom(att, pa, i) * binom(dfn, pd, j)
        for i in range(att + 1)
        for j in range(dfn + 1)
    }


# --- NOM-9.9, NOM-9.10: how many dice ------------------------------------------------------


def test_nom_9_9_dice_equal_total_strength_of_participants() -> None:
    """NOM-9.9: each side rolls as many dice as its participants' total strength: Kobayashi
    (4) and 3rd Tank (attack 4) against 36/149 (3) and 9 (defence 2)."""
    s = combat_position({JP_KOB: "0504", JP_3TK: "0505", SU_36: "0604", SU_9: "0605"})
    combat = c((JP_KOB, JP_3TK), (SU_36, SU_9))
    assert dice(s, combat) == (8, 5)
    assert dice(s, c(JP_KOB, SU_36)) == (4, 3)
    assert dice(s, c(JP_3TK, SU_9)) == (4, 2)


def test_nom_9_9_reduced_units_roll_their_reverse_side() -> None:
    """NOM-9.9, NOM-9.24: a flipped unit rolls its reverse-side strength."""
    s = combat_position(
        {JP_KOB: "0504", JP_3TK: "0505", SU_36: "0604", SU_9: "0605"},
        steps={JP_KOB: 1, JP_3TK: 1, SU_36: 1, SU_9: 1},
    )
    assert dice(s, c((JP_KOB, JP_3TK), (SU_36, SU_9))) == (2 + 2, 2 + 1)


def test_nom_9_9_the_roll_has_the_dice_of_the_declared_combat() -> None:
    """NOM-9.9: once declared, the combat's chance outcomes are every (attacker hits,
    defender hits) pair the two dice pools allow, and nothing else can be rolled."""
    s = rolling(
        combat_position({JP_KOB: "0504", JP_3TK: "0505", SU_36: "0604", SU_9: "0605"}),
        c((JP_KOB, JP_3TK), (SU_36, SU_9)),
    )
    dist = roll_distribution(s)
    assert set(dist) == {(i, j) for i in range(9) for j in range(6)}
    assert clauses_of_illegal(s, Roll(9, 0)) == ("NOM-9.9",)
    assert clauses_of_illegal(s, Roll(0, 6)) == ("NOM-9.9",)


def test_nom_9_10_tank_uses_attack_strength_attacking_defence_defending() -> None:
    """NOM-9.10: (tank_numbers=left_attack) 3rd Tank, printed 4-2, attacks with 4 and
    defends with 2; reduced (2-1) with 2 and 1."""
    units = {JP_3TK: "0505", SU_36: "0604"}
    jp = combat_position(units, options={"tank_numbers": "left_attack"})
    assert dice(jp, c(JP_3TK, SU_36)) == (4, 3)
    su = combat_position(units, phase=Phase.NIP_COMBAT, options={"tank_numbers": "left_attack"})
    assert dice(su, c(SU_36, JP_3TK)) == (3, 2)
    reduced = combat_position(
        units, steps={JP_3TK: 1}, phase=Phase.NIP_COMBAT, options={"tank_numbers": "left_attack"}
    )
    assert dice(reduced, c(SU_36, JP_3TK)) == (3, 1)
    reduced_jp = combat_position(units, steps={JP_3TK: 1}, options={"tank_numbers": "left_attack"})
    assert dice(reduced_jp, c(JP_3TK, SU_36)) == (2, 3)


def test_nom_9_10_tank_numbers_left_defence() -> None:
    """NOM-9.10: (tank_numbers=left_defence) the same counter attacks with 2 and defends
    with 4; a non-tank uses its single number either way."""
    units = {JP_3TK: "0505", SU_36: "0604"}
    jp = combat_position(units, options={"tank_numbers": "left_defence"})
    assert dice(jp, c(JP_3TK, SU_36)) == (2, 3)
    su = combat_position(units, phase=Phase.NIP_COMBAT, options={"tank_numbers": "left_defence"})
    assert dice(su, c(SU_36, JP_3TK)) == (3, 4)


# --- NOM-9.11, NOM-9.12: hits and damage ----------------------------------------------------


def test_nom_9_11_five_or_six_hits_exact_distribution() -> None:
    """NOM-9.11, NOM-2.3: each die hits on 5-6 (1/3): Kobayashi's 4 dice against 6/15's 2 dice
    give the exact product of two binomials, summing to 1."""
    s = rolling(combat_position({JP_KOB: "0504", SU_615: "0604"}), c(JP_KOB, SU_615))
    assert chances(s, c(JP_KOB, SU_615)) == (THIRD, THIRD)
    dist = roll_distribution(s)
    assert dist == expected_distribution(4, 2, THIRD, THIRD)
    assert dist[0, 0] == Fraction(64, 729)
    assert dist[4, 2] == Fraction(1, 729)
    assert sum(dist.values()) == 1


def test_nom_9_12_attacker_more_hits_defender_takes_difference() -> None:
    """NOM-9.12: 3 hits against 1: the defender takes 2 damage, allocated by its owner."""
    s = rolling(combat_position({JP_KOB: "0504", SU_615: "0604"}), c(JP_KOB, SU_615))
    s = apply_all(s, Roll(3, 1))
    assert s.stage == Stage.DAMAGE
    assert s.current is not None
    assert (s.current.loser, s.current.damage_left) == ("SU", 2)
    assert GAME.to_move(s) == "SU"


def test_nom_9_12_defender_more_hits_attacker_takes_difference() -> None:
    """NOM-9.12: 1 hit against 2: the attacker takes 1 damage."""
    s = rolling(combat_position({JP_KOB: "0504", SU_615: "0604"}), c(JP_KOB, SU_615))
    s = apply_all(s, Roll(1, 2))
    assert s.current is not None
    assert (s.current.loser, s.current.damage_left) == ("JP", 1)
    assert GAME.to_move(s) == "JP"


def test_nom_9_12_equal_hits_no_damage() -> None:
    """NOM-9.12: equal hits: neither side is damaged and the phase goes on."""
    before = combat_position({JP_KOB: "0504", SU_615: "0604"})
    s = apply_all(rolling(before, c(JP_KOB, SU_615)), Roll(2, 2))
    assert (s.phase, s.stage) == (Phase.NIP_MOVEMENT, Stage.MOVE)
    assert s.units == before.units
    assert (s.turn, s.initiative) == (1, "JP")


# --- NOM-9.15, NOM-9.16: hills -------------------------------------------------------------


def test_nom_9_15_attack_on_hill_hits_only_on_six_attacker_only() -> None:
    """NOM-9.15: (hill_hits=attacker_only) against 6/15 on hill 0103 Kobayashi's dice hit only
    on a 6 (1/6); the defender's still hit on 5-6 (1/3)."""
    s = rolling(
        combat_position({JP_KOB: "0203", SU_615: "0103"}, options={"hill_hits": "attacker_only"}),
        c(JP_KOB, SU_615),
    )
    assert chances(s, c(JP_KOB, SU_615)) == (SIXTH, THIRD)
    dist = roll_distribution(s)
    assert dist == expected_distribution(4, 2, SIXTH, THIRD)
    assert dist[0, 0] == Fraction(5, 6) ** 4 * Fraction(2, 3) ** 2
    assert sum(dist.values()) == 1


def test_nom_9_15_hill_hits_both_sides() -> None:
    """NOM-9.15: (hill_hits=both_sides) in an attack on a hill both sides hit only on a 6."""
    s = rolling(
        combat_position({JP_KOB: "0203", SU_615: "0103"}, options={"hill_hits": "both_sides"}),
        c(JP_KOB, SU_615),
    )
    assert chances(s, c(JP_KOB, SU_615)) == (SIXTH, SIXTH)
    dist = roll_distribution(s)
    assert dist == expected_distribution(4, 2, SIXTH, SIXTH)
    assert sum(dist.values()) == 1


def test_nom_9_15_hill_defenders_mixed_combat() -> None:
    """NOM-9.15: (hill_defenders) one defender on hill 0103, one on clear 0202: under
    any_on_hill it is an attack on a hill (1/6), under all_on_hill it is not (1/3); with both
    defenders on hills (0103, 0104) both readings need a 6."""
    mixed = {JP_KOB: "0203", SU_615: "0103", SU_9: "0202"}
    combat = c(JP_KOB, (SU_9, SU_615))
    anyh = combat_position(mixed, options={"hill_defenders": "any_on_hill"})
    allh = combat_position(mixed, options={"hill_defenders": "all_on_hill"})
    assert legal_declarations(anyh) == {(combat,)}
    assert chances(anyh, combat) == (SIXTH, THIRD)
    assert chances(allh, combat) == (THIRD, THIRD)
    both = {JP_KOB: "0203", SU_615: "0103", SU_9: "0104"}
    for reading in ("any_on_hill", "all_on_hill"):
        s = combat_position(both, options={"hill_defenders": reading})
        assert chances(s, combat) == (SIXTH, THIRD)


def test_nom_9_16_attack_from_hill_is_normal() -> None:
    """NOM-9.16: Kobayashi on hill 0102 attacking 6/15 on clear 0202 hits on 5-6, under every
    hill reading; attacking 9 on hill 0101 from the hill it needs a 6."""
    for hits in ("attacker_only", "both_sides"):
        s = combat_position(
            {JP_KOB: "0102", SU_615: "0202", SU_9: "0101"}, options={"hill_hits": hits}
        )
        assert chances(s, c(JP_KOB, SU_615)) == (THIRD, THIRD)
        assert chances(s, c(JP_KOB, SU_9))[0] == SIXTH


def test_nom_9_16_soviet_attack_from_hill_on_clear_is_normal() -> None:
    """NOM-9.16: the rule is the same for either side: a Soviet attack from a hill is normal,
    a Soviet attack on a Japanese unit on a hill needs a 6."""
    s = combat_position({SU_615: "0102", JP_KOB: "0202"}, phase=Phase.NIP_COMBAT)
    assert chances(s, c(SU_615, JP_KOB)) == (THIRD, THIRD)
    s = combat_position({SU_615: "0202", JP_KOB: "0102"}, phase=Phase.NIP_COMBAT)
    assert chances(s, c(SU_615, JP_KOB)) == (SIXTH, THIRD)


# --- NOM-9.20: the Artillery's strength ------------------------------------------------------


def test_nom_9_20_artillery_defends_with_one() -> None:
    """NOM-9.20: the Artillery attacked alone rolls one die."""
    s = combat_position({JP_KOB: "0504", SU_ART: "0604"})
    assert legal_declarations(s) == {(c(JP_KOB, SU_ART),)}
    assert dice(s, c(JP_KOB, SU_ART)) == (4, 1)
    assert sum(roll_distribution(rolling(s, c(JP_KOB, SU_ART))).values()) == 1


def test_nom_9_20_artillery_rules_fix_its_strength_whatever_the_counter() -> None:
    """NOM-9.20: (artillery_rules) under ja the Artillery defends at 1 and cannot attack,
    whatever numbers its counter shows; under generic its printed numbers count and it may
    attack. Shown with a counter printed 3."""
    spec = attrs.evolve(GAME.rules.data.unit(SU_ART), printed=(3,), reduced=(2,))
    ja, generic = variant("ja"), variant("ja", artillery_rules="generic")
    assert defence_strength(ja, spec, 2) == 1
    assert defence_strength(ja, spec, 1) == 1
    assert defence_strength(generic, spec, 2) == 3
    assert defence_strength(generic, spec, 1) == 2
    assert attack_strength(generic, spec, 2) == 3


# --- NOM-9.22: bridges -------------------------------------------------------------------


def test_nom_9_22_attack_across_fixed_bridge_adds_one_to_defender() -> None:
    """NOM-9.22: Kobayashi (0309) attacks 6/15 (0209) across the fixed bridge: 6/15 rolls
    2 + 1 dice; the Soviets attacking back the other way give Kobayashi 4 + 1."""
    units = {JP_KOB: "0309", SU_615: "0209"}
    assert dice(combat_position(units), c(JP_KOB, SU_615)) == (4, 3)
    su = combat_position(units, phase=Phase.NIP_COMBAT)
    assert dice(su, c(SU_615, JP_KOB)) == (2, 5)


def test_nom_9_22_one_attacker_across_the_bridge_is_enough_and_counts_once() -> None:
    """NOM-9.22: 3rd Tank (0208, same bank) and Kobayashi (0309, across the bridge) attack
    6/15 (0209) together: the defender gets +1 once."""
    s = combat_position({JP_KOB: "0309", JP_3TK: "0208", SU_615: "0209"})
    combat = c((JP_KOB, JP_3TK), SU_615)
    assert legal_declarations(s) == {(combat,)}
    assert dice(s, combat) == (8, 3)
    assert dice(s, c(JP_3TK, SU_615)) == (4, 2)


def test_nom_9_22_pontoon_is_bridge_for_the_plus_one() -> None:
    """NOM-9.22: (pontoon_is_bridge) Kobayashi (0308) attacks 6/15 (0207) across the pontoon:
    under yes the defender gets +1; under no there is no contact, so no attack at all."""
    units = {JP_KOB: "0308", SU_615: "0207"}
    yes = combat_position(units, options={"pontoon_is_bridge": "yes"})
    assert legal_declarations(yes) == {(c(JP_KOB, SU_615),)}
    assert dice(yes, c(JP_KOB, SU_615)) == (4, 3)
    no = combat_position(units, options={"pontoon_is_bridge": "no"})
    assert legal_declarations(no) == {()}
    assert dice(no, c(JP_KOB, SU_615)) == (4, 2)


def test_nom_9_22_no_bonus_without_a_bridge() -> None:
    """NOM-9.22: an attack over an open hexside gives the defender no +1."""
    s = combat_position({JP_KOB: "0504", SU_615: "0604"})
    assert dice(s, c(JP_KOB, SU_615)) == (4, 2)
