"""Combat declarations: who must attack, who must be attacked, and how combats are grouped
(NOM-9.1 to NOM-9.8, NOM-9.13, NOM-9.14, NOM-9.20, NOM-9.23)."""

from __future__ import annotations

from specs.nomonhan.rules.actions import Declare, Resolve, Roll
from specs.nomonhan.rules.state import Phase, Stage
from tests.nomonhan.helpers_combat import (
    c,
    combat_position,
    declare,
    decls,
    legal_declarations,
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
    legal,
)

# --- NOM-9.1: who attacks -------------------------------------------------------------------


def test_nom_9_1_initiative_player_attacks_in_ip_combat_phase() -> None:
    """NOM-9.1: in the IP Combat Phase the IP (Japan in Turn 1) attacks and the NIP defends;
    naming a Soviet attacker there is refused."""
    s = combat_position({JP_KOB: "0504", SU_36: "0604"}, phase=Phase.IP_COMBAT)
    assert s.phasing == "JP"
    assert legal_declarations(s) == decls([c(JP_KOB, SU_36)])
    assert clauses_of_illegal(s, declare(c(SU_36, JP_KOB))) == ("NOM-9.1", "NOM-9.2", "NOM-9.3")


def test_nom_9_1_roles_reverse_in_nip_combat_phase() -> None:
    """NOM-9.1: in the NIP Combat Phase the NIP (the Soviets in Turn 1) attacks, and a
    Japanese attacker is refused."""
    s = combat_position({JP_KOB: "0504", SU_36: "0604"}, phase=Phase.NIP_COMBAT)
    assert (s.initiative, s.phasing) == ("JP", "SU")
    assert GAME.to_move(s) == "SU"
    assert legal_declarations(s) == decls([c(SU_36, JP_KOB)])
    assert "NOM-9.1" in clauses_of_illegal(s, declare(c(JP_KOB, SU_36)))


def test_nom_9_1_soviet_initiative_turn() -> None:
    """NOM-9.1: in an even turn the Soviets hold the initiative and attack in the IP Combat
    Phase; Japan attacks in the NIP Combat Phase."""
    units = {JP_KOB: "0504", SU_36: "0604"}
    ip = combat_position(units, turn=2, phase=Phase.IP_COMBAT)
    nip = combat_position(units, turn=2, phase=Phase.NIP_COMBAT)
    assert legal_declarations(ip) == decls([c(SU_36, JP_KOB)])
    assert legal_declarations(nip) == decls([c(JP_KOB, SU_36)])


# --- NOM-9.2: must attack -----------------------------------------------------------------


def test_nom_9_2_unit_in_enemy_zoc_must_attack() -> None:
    """NOM-9.2: a unit in an enemy ZOC must attack; leaving it idle is refused naming
    NOM-9.2 (under EN, which has no must-be-attacked rule, NOM-9.2 alone)."""
    units = {JP_KOB: "0504", JP_3TK: "0506", SU_36: "0604"}
    en = combat_position(units, preset="en")
    assert clauses_of_illegal(en, declare()) == ("NOM-9.2",)
    assert legal_declarations(en) == decls([c(JP_KOB, SU_36)])
    # 3TK in 0506 is not in an enemy ZOC: it neither must nor can attack
    assert clauses_of_illegal(en, declare(c((JP_KOB, JP_3TK), SU_36))) == ("NOM-9.6",)
    ja = combat_position(units, preset="ja")
    assert clauses_of_illegal(ja, declare()) == ("NOM-9.2", "NOM-9.3")


def test_nom_9_2_every_obliged_attacker_is_named() -> None:
    """NOM-9.2: with two units in enemy ZOCs, a declaration using one of them is refused for
    the other, and only declarations using both are legal."""
    units = {JP_KOB: "0504", JP_3TK: "0507", SU_36: "0604", SU_9: "0607"}
    s = combat_position(units, preset="en")
    assert clauses_of_illegal(s, declare(c(JP_KOB, SU_36))) == ("NOM-9.2",)
    assert legal_declarations(s) == decls([c(JP_KOB, SU_36), c(JP_3TK, SU_9)])


# --- NOM-9.3 and its options ----------------------------------------------------------------


def test_nom_9_3_defenders_in_attacker_zoc_must_be_attacked_ja() -> None:
    """NOM-9.3: (must_be_attacked=required, JA) every defender in an attacker's ZOC must be
    attacked: Kobayashi next to two Soviet units must attack both."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_9: "0503"}
    ja = combat_position(units, preset="ja")
    assert legal_declarations(ja) == decls([c(JP_KOB, (SU_36, SU_9))])
    assert clauses_of_illegal(ja, declare(c(JP_KOB, SU_36))) == ("NOM-9.3",)
    assert clauses_of_illegal(ja, declare(c(JP_KOB, SU_9))) == ("NOM-9.3",)


def test_nom_9_3_not_required_under_en() -> None:
    """NOM-9.3: (must_be_attacked=not_required, EN) only attackers are obliged: Kobayashi may
    attack either Soviet unit or both."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_9: "0503"}
    en = combat_position(units, preset="en")
    assert legal_declarations(en) == decls(
        [c(JP_KOB, SU_36)], [c(JP_KOB, SU_9)], [c(JP_KOB, (SU_36, SU_9))]
    )
    ja_but_not_required = combat_position(
        units, preset="ja", options={"must_be_attacked": "not_required"}
    )
    assert legal_declarations(ja_but_not_required) == legal_declarations(en)


def test_nom_9_3_scope_hill_unit_obliges_only_under_any_attacker() -> None:
    """NOM-9.3, NOM-9.13: (must_be_attacked_scope) a Japanese unit on a hill need not attack.
    Under obliged_attackers the Soviet unit in its ZOC need not be attacked either; under
    any_attacker it must, so the hill unit is in effect forced to attack."""
    units = {JP_KOB: "0102", SU_615: "0202"}
    obliged = combat_position(units, options={"must_be_attacked_scope": "obliged_attackers"})
    assert legal_declarations(obliged) == decls([], [c(JP_KOB, SU_615)])
    anyone = combat_position(units, options={"must_be_attacked_scope": "any_attacker"})
    assert legal_declarations(anyone) == decls([c(JP_KOB, SU_615)])
    assert clauses_of_illegal(anyone, declare()) == ("NOM-9.3",)


def test_nom_9_3_scope_artillery_zoc_can_make_the_obligation_impossible() -> None:
    """NOM-9.3, NOM-9.20: (must_be_attacked_scope) the JA Artillery never attacks. Under
    obliged_attackers a Japanese unit next to it alone need not be attacked; under any_attacker
    it must be, which nobody can do: no declaration is legal, and the game names the clauses."""
    units = {SU_ART: "0504", JP_KOB: "0604"}
    obliged = combat_position(
        units, phase=Phase.NIP_COMBAT, options={"must_be_attacked_scope": "obliged_attackers"}
    )
    assert legal_declarations(obliged) == decls([])
    anyone = combat_position(
        units, phase=Phase.NIP_COMBAT, options={"must_be_attacked_scope": "any_attacker"}
    )
    assert legal(anyone) == []
    assert clauses_of_illegal(anyone, declare()) == ("NOM-9.3",)
    # The Artillery may not attack: the refusal names that, not the target's own obligation
    assert clauses_of_illegal(anyone, declare(c(SU_ART, JP_KOB))) == ("NOM-9.20",)
    assert {"NOM-9.3", "NOM-9.20"} <= set(GAME.no_action_clauses(anyone))


# --- NOM-9.4, NOM-9.5: once each ------------------------------------------------------------


def test_nom_9_4_attacker_attacks_at_most_once() -> None:
    """NOM-9.4: a unit may not attack in two combats of one phase."""
    s = combat_position({JP_KOB: "0504", SU_36: "0604", SU_9: "0503"}, preset="en")
    assert clauses_of_illegal(s, declare(c(JP_KOB, SU_36), c(JP_KOB, SU_9))) == ("NOM-9.4",)
    assert clauses_of_illegal(s, declare(c((JP_KOB, JP_KOB), SU_36))) == ("NOM-9.4",)


def test_nom_9_5_defender_attacked_at_most_once() -> None:
    """NOM-9.5: two combats against one defender are refused; the two attackers must join in
    one combat."""
    s = combat_position({JP_KOB: "0504", JP_3TK: "0505", SU_36: "0604"}, preset="en")
    assert clauses_of_illegal(s, declare(c(JP_KOB, SU_36), c(JP_3TK, SU_36))) == ("NOM-9.5",)
    assert clauses_of_illegal(s, declare(c((JP_KOB, JP_3TK), (SU_36, SU_36)))) == ("NOM-9.5",)
    assert legal_declarations(s) == decls([c((JP_KOB, JP_3TK), SU_36)])


# --- NOM-9.6, NOM-9.23: contact -------------------------------------------------------------


def test_nom_9_6_only_units_in_zoc_may_be_attacked() -> None:
    """NOM-9.6: an attack on a unit that is not adjacent is refused."""
    s = combat_position({JP_KOB: "0504", SU_36: "0604", SU_9: "0606"}, preset="en")
    assert legal_declarations(s) == decls([c(JP_KOB, SU_36)])
    assert clauses_of_illegal(s, declare(c(JP_KOB, SU_9))) == ("NOM-9.6",)
    assert clauses_of_illegal(s, declare(c(JP_KOB, (SU_36, SU_9)))) == ("NOM-9.6",)


def test_nom_9_6_zoc_example_0302_0202_and_0201() -> None:
    """NOM-9.6 (with NOM-7.5): a unit in 0302 exerts no ZOC into 0202 across the river, so no
    combat takes place between them; it does into 0201, so there it must attack."""
    across = combat_position({JP_KOB: "0302", SU_615: "0202"})
    assert legal_declarations(across) == decls([])
    assert clauses_of_illegal(across, declare(c(JP_KOB, SU_615))) == ("NOM-9.6",)
    bank = combat_position({JP_KOB: "0302", SU_615: "0201"})
    assert legal_declarations(bank) == decls([c(JP_KOB, SU_615)])


def test_nom_9_23_no_attack_across_a_river_without_bridge() -> None:
    """NOM-9.23: 0304 and 0204 are adjacent across a river with no bridge: no attack either
    way, in either side's Combat Phase."""
    units = {JP_KOB: "0304", SU_615: "0204"}
    for phase in (Phase.IP_COMBAT, Phase.NIP_COMBAT):
        s = combat_position(units, phase=phase)
        assert legal_declarations(s) == decls([])
    jp = combat_position(units, phase=Phase.IP_COMBAT)
    assert clauses_of_illegal(jp, declare(c(JP_KOB, SU_615))) == ("NOM-9.6",)
    su = combat_position(units, phase=Phase.NIP_COMBAT)
    assert clauses_of_illegal(su, declare(c(SU_615, JP_KOB))) == ("NOM-9.6",)


def test_nom_9_23_attack_across_a_fixed_bridge_allowed() -> None:
    """NOM-9.23, NOM-9.22: across the fixed bridge (0209/0309) an attack is allowed, and
    obliged."""
    s = combat_position({JP_KOB: "0309", SU_615: "0209"})
    assert legal_declarations(s) == decls([c(JP_KOB, SU_615)])


def test_nom_9_6_pontoon_contact_depends_on_pontoon_is_bridge() -> None:
    """NOM-9.6, NOM-9.22: (pontoon_is_bridge) across the pontoon bridge 0207/0308 units are in
    contact only when the pontoon counts as a bridge."""
    units = {JP_KOB: "0308", SU_615: "0207"}
    yes = combat_position(units, options={"pontoon_is_bridge": "yes"})
    assert legal_declarations(yes) == decls([c(JP_KOB, SU_615)])
    no = combat_position(units, options={"pontoon_is_bridge": "no"})
    assert legal_declarations(no) == decls([])
    assert clauses_of_illegal(no, declare(c(JP_KOB, SU_615))) == ("NOM-9.6",)


# --- NOM-9.7: grouping --------------------------------------------------------------------


def test_nom_9_7_attacker_chooses_any_grouping_ja() -> None:
    """NOM-9.7: Kobayashi (0504) touches 36/149 (0604); 3rd Tank (0505) touches 36/149 and 9
    (0605). Under JA both must attack and both defenders must be attacked: one combat of all
    four, or two separate combats."""
    units = {JP_KOB: "0504", JP_3TK: "0505", SU_36: "0604", SU_9: "0605"}
    s = combat_position(units, preset="ja")
    assert legal_declarations(s) == decls(
        [c((JP_KOB, JP_3TK), (SU_36, SU_9))],
        [c(JP_KOB, SU_36), c(JP_3TK, SU_9)],
    )
    assert clauses_of_illegal(s, declare(c((JP_KOB, JP_3TK), SU_36))) == ("NOM-9.3",)


def test_nom_9_7_attacker_chooses_any_grouping_en() -> None:
    """NOM-9.7: the same position under EN (no must-be-attacked): both attackers may also gang
    up on 36/149 and leave 9 alone. A unit must touch a defender of its own combat."""
    units = {JP_KOB: "0504", JP_3TK: "0505", SU_36: "0604", SU_9: "0605"}
    s = combat_position(units, preset="en")
    assert legal_declarations(s) == decls(
        [c((JP_KOB, JP_3TK), (SU_36, SU_9))],
        [c(JP_KOB, SU_36), c(JP_3TK, SU_9)],
        [c((JP_KOB, JP_3TK), SU_36)],
    )
    assert clauses_of_illegal(s, declare(c((JP_KOB, JP_3TK), SU_9))) == ("NOM-9.6",)


def test_nom_9_7_units_of_one_combat_form_a_connected_group() -> None:
    """NOM-9.7: two separate fights may not be merged into one combat."""
    units = {JP_KOB: "0504", JP_3TK: "0507", SU_36: "0604", SU_9: "0607"}
    s = combat_position(units)
    assert legal_declarations(s) == decls([c(JP_KOB, SU_36), c(JP_3TK, SU_9)])
    assert clauses_of_illegal(s, declare(c((JP_KOB, JP_3TK), (SU_36, SU_9)))) == ("NOM-9.7",)
    empty = declare(c(JP_KOB, SU_36), c(JP_3TK, SU_9), c((), SU_9))
    assert "NOM-9.7" in clauses_of_illegal(s, empty)


def test_nom_9_7_combat_grouping_one_defender() -> None:
    """NOM-9.7, NOM-9.9: (combat_grouping) under one_defender a combat has exactly one
    defending unit (several attackers are still allowed); under many_to_many it may have more."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_9: "0503"}
    many_en = combat_position(units, preset="en", options={"combat_grouping": "many_to_many"})
    one_en = combat_position(units, preset="en", options={"combat_grouping": "one_defender"})
    assert c(JP_KOB, (SU_36, SU_9)) in {d[0] for d in legal_declarations(many_en)}
    assert legal_declarations(one_en) == decls([c(JP_KOB, SU_36)], [c(JP_KOB, SU_9)])
    assert clauses_of_illegal(one_en, declare(c(JP_KOB, (SU_36, SU_9)))) == ("NOM-9.7",)
    two_attackers = combat_position(
        {JP_KOB: "0504", JP_3TK: "0505", SU_36: "0604"},
        options={"combat_grouping": "one_defender"},
    )
    assert legal_declarations(two_attackers) == decls([c((JP_KOB, JP_3TK), SU_36)])


def test_nom_9_7_one_defender_with_ja_must_be_attacked_can_be_impossible() -> None:
    """NOM-9.7, NOM-9.3: (combat_grouping=one_defender with JA) one unit next to two enemies
    must attack once, yet both must be attacked: no legal declaration (AMB-NOM-9)."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_9: "0503"}
    s = combat_position(units, preset="ja", options={"combat_grouping": "one_defender"})
    assert legal(s) == []
    assert clauses_of_illegal(s, declare(c(JP_KOB, SU_36))) == ("NOM-9.3",)
    assert clauses_of_illegal(s, declare(c(JP_KOB, (SU_36, SU_9)))) == ("NOM-9.7",)


def test_nom_9_7_attacker_targets_all_adjacent() -> None:
    """NOM-9.7, NOM-9.14: (attacker_targets) under free a non-hill attacker may pick its
    targets; under all_adjacent it must attack every enemy in its ZOC (refused naming
    NOM-9.14)."""
    units = {JP_KOB: "0504", SU_36: "0604", SU_9: "0503"}
    free = combat_position(units, preset="en", options={"attacker_targets": "free"})
    assert len(legal_declarations(free)) == 3
    every = combat_position(units, preset="en", options={"attacker_targets": "all_adjacent"})
    assert legal_declarations(every) == decls([c(JP_KOB, (SU_36, SU_9))])
    assert clauses_of_illegal(every, declare(c(JP_KOB, SU_36))) == ("NOM-9.14",)


# --- NOM-9.13, NOM-9.14: hills ------------------------------------------------------------


def test_nom_9_13_unit_on_hill_need_not_attack() -> None:
    """NOM-9.13: Kobayashi on hill 0102 next to 6/15 may attack or not; the same unit on clear
    0203 next to the same enemy must attack."""
    hill = combat_position({JP_KOB: "0102", SU_615: "0202"})
    assert legal_declarations(hill) == decls([], [c(JP_KOB, SU_615)])
    clear = combat_position({JP_KOB: "0203", SU_615: "0202"})
    assert legal_declarations(clear) == decls([c(JP_KOB, SU_615)])
    assert clauses_of_illegal(clear, declare()) == ("NOM-9.2", "NOM-9.3")


def test_nom_9_14_hill_unit_may_attack_any_single_unit_in_its_zoc() -> None:
    """NOM-9.14: a hill unit (0102) next to two enemies (0101, 0103) may attack one of them,
    both, or neither, even under attacker_targets=all_adjacent."""
    units = {JP_KOB: "0102", SU_9: "0101", SU_615: "0103"}
    expected = decls([], [c(JP_KOB, SU_9)], [c(JP_KOB, SU_615)], [c(JP_KOB, (SU_9, SU_615))])
    for preset in ("ja", "en"):
        for targets in ("free", "all_adjacent"):
            s = combat_position(units, preset=preset, options={"attacker_targets": targets})
            assert legal_declarations(s) == expected, (preset, targets)


# --- NOM-9.8: all pairings first, then resolution -----------------------------------------


TWO_FIGHTS = {JP_KOB: "0504", JP_3TK: "0507", SU_36: "0604", SU_9: "0607"}


def test_nom_9_8_resolution_order_chosen_each() -> None:
    """NOM-9.8: (resolution_order=chosen_each) every combat is declared first; the attacker
    then picks which to resolve, and a second declaration is refused."""
    s = combat_position(TWO_FIGHTS, options={"resolution_order": "chosen_each"})
    first, second = c(JP_KOB, SU_36), c(JP_3TK, SU_9)
    assert legal_declarations(s) == decls([first, second])
    # the same combats listed in another order are the same declaration
    assert GAME.apply(s, declare(second, first)) == GAME.apply(s, declare(first, second))
    s = apply_all(s, declare(first, second))
    assert s.stage == Stage.PICK and s.pending == (first, second)
    assert GAME.to_move(s) == "JP"
    assert legal(s) == [Resolve(0), Resolve(1)]
    assert clauses_of_illegal(s, declare(first, second)) == ("NOM-9.8",)
    assert clauses_of_illegal(s, Resolve(2)) == ("NOM-9.8",)
    s = apply_all(s, Resolve(1))
    assert s.stage == Stage.ROLL
    assert s.current is not None and s.current.combat == second
    s = apply_all(s, Roll(1, 1))  # a tie: nobody is damaged, the last combat follows
    assert s.stage == Stage.ROLL
    assert s.current is not None and s.current.combat == first
    s = apply_all(s, Roll(0, 0))
    assert (s.phase, s.stage) == (Phase.NIP_MOVEMENT, Stage.MOVE)


def test_nom_9_8_resolution_order_fixed_in_advance() -> None:
    """NOM-9.8: (resolution_order=fixed_in_advance) the declaration fixes the order: both
    orders are legal declarations and the first listed is resolved first, with no pick."""
    s = combat_position(TWO_FIGHTS, options={"resolution_order": "fixed_in_advance"})
    first, second = c(JP_KOB, SU_36), c(JP_3TK, SU_9)
    assert legal_declarations(s) == decls([first, second], [second, first])
    s = apply_all(s, declare(second, first))
    assert s.stage == Stage.ROLL
    assert s.current is not None and s.current.combat == second
    assert s.pending == (first,)
    s = apply_all(s, Roll(0, 0))
    assert s.current is not None and s.current.combat == first


def test_nom_9_8_units_within_a_combat_are_listed_once_in_one_order() -> None:
    """NOM-9.8: the game lists each declaration once, its units in data order; the same combat
    sent with its units in another order is the same declaration and gives the same state."""
    s = combat_position({JP_KOB: "0504", JP_3TK: "0505", SU_36: "0604", SU_9: "0605"})
    listed = declare(c((JP_KOB, JP_3TK), (SU_36, SU_9)))
    assert listed in legal(s)
    assert declare(c((JP_3TK, JP_KOB), (SU_36, SU_9))) not in legal(s)
    expected = GAME.apply(s, listed)
    assert GAME.apply(s, declare(c((JP_3TK, JP_KOB), (SU_36, SU_9)))) == expected
    assert GAME.apply(s, declare(c((JP_KOB, JP_3TK), (SU_9, SU_36)))) == expected


def test_nom_9_8_declaration_only_in_the_declare_stage() -> None:
    """NOM-9.8: combats are declared at the start of the Combat Phase, not during movement."""
    s = combat_position(TWO_FIGHTS, phase=Phase.IP_MOVEMENT)
    assert clauses_of_illegal(s, declare(c(JP_KOB, SU_36), c(JP_3TK, SU_9))) == ("NOM-8.1",)


def test_nom_9_8_empty_declaration_ends_the_phase() -> None:
    """NOM-9.8, NOM-9.13: with only a hill unit in contact, declaring no combat ends the
    Combat Phase."""
    s = combat_position({JP_KOB: "0102", SU_615: "0202"})
    s = apply_all(s, Declare(()))
    assert (s.phase, s.stage, s.pending) == (Phase.NIP_MOVEMENT, Stage.MOVE, ())
