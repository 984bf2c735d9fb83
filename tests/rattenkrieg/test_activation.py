"""Designating a unit, its operations, movement and paying, passing and recruiting
(RKS-7.1.1 to RKS-7.5.5, RKS-3.5.1, RKS-8.10.3, RKS-8.12.4, AMB-RKS-3, AMB-RKS-15,
AMB-RKS-18)."""

from __future__ import annotations

import pytest

from kernel.errors import IllegalAction
from specs.rattenkrieg.rules.actions import (
    Attack,
    Designate,
    End,
    Event,
    Move,
    Pass,
    Pay,
    Recruit,
    Retreat,
)
from specs.rattenkrieg.rules.state import GE, SU, Stage, Step
from tests.rattenkrieg.positions import (
    GAME,
    GREAR,
    SREAR,
    TW,
    B,
    active,
    draw,
    legal,
    position,
    run,
    unit,
)


def refused(s: object, action: object) -> tuple[str, ...]:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, action)  # type: ignore[arg-type]
    return err.value.clauses


def test_rks_7_1_1_designate_one_face_up_friendly_unit() -> None:
    """RKS-7.1.1: the player designates one friendly unit to act; RKS-7.4.2: not a flipped one;
    an enemy unit never."""
    s = position({"71": GREAR, "295": GREAR, "13Gds": SREAR}, flipped={"295"})
    designations = {a.unit for a in legal(s) if isinstance(a, Designate)}
    assert designations == {"71"}
    assert refused(s, Designate("295")) == ("RKS-7.4.2",)
    assert refused(s, Designate("13Gds")) == ("RKS-7.1.1",)
    s = run(s, Designate("71"))
    assert s.stage == Stage.ACTIVE and s.acting == "71"


def test_rks_7_1_2_the_operations_of_the_acting_unit() -> None:
    """RKS-7.1.2: movement, combat, events and the end of the action (pass) are operations."""
    s = active(
        "71",
        {"71": ("orlovka", ["2S"]), "Rifle-1": ("orlovka", ["2H"])},
        hands={GE: ["JS"]},
        control={"orlovka": SU},
    )
    kinds = {type(a) for a in legal(s)}
    assert {Move, Attack, Event, End} <= kinds


def test_rks_7_2_1_free_endless_movement_in_friendly_areas() -> None:
    """RKS-7.2.1: moving into a friendly-controlled Area costs nothing and may be repeated
    without limit: the unit can go back and forth and the position repeats exactly."""
    s = active("71", {"71": ("orlovka", ["2S"])}, control={"orlovka": GE, "gorodishche": GE})
    there = run(s, Move("gorodishche"))
    assert there.stage == Stage.ACTIVE and unit(there, "71").steps == {"2S"}
    back = run(there, Move("orlovka"))
    assert back == run(s, Move("gorodishche"), Move("orlovka"))
    assert back.units == s.units and back.hand_ge == s.hand_ge


def test_rks_7_2_1_moves_go_to_adjacent_areas_only() -> None:
    """RKS-7.2.1: movement is into an adjacent Area."""
    s = active("71", {"71": ("orlovka", ["2S"])}, control={"orlovka": GE})
    far = next(a for a in B.stalingrad if a not in B.adjacent["orlovka"] and a != "orlovka")
    assert refused(s, Move(far)) == ("RKS-7.2.1",)


def test_rks_7_3_1_entering_an_empty_enemy_area_costs_one_card() -> None:
    """RKS-7.3.1: entering an enemy-controlled Area without enemy units costs a hand card or a
    step of the acting unit; RKS-3.6.2: the Area becomes friendly-controlled at once."""
    s = active("71", {"71": (GREAR, ["2S", "3S"])}, hands={GE: ["4D"]})
    s = run(s, Move("orlovka"))
    assert s.stage == Stage.PAY and unit(s, "71").area == GREAR
    assert {a.card for a in legal(s) if isinstance(a, Pay)} == {"2S", "3S", "4D"}
    assert refused(s, Pay("5D")) == ("RKS-7.3.1",)
    by_step = run(s, Pay("3S"))
    assert unit(by_step, "71").area == "orlovka" and unit(by_step, "71").steps == {"2S"}
    assert by_step.control[B.index["orlovka"]] == GE and "3S" in by_step.discards
    by_hand = run(s, Pay("4D"))
    assert not by_hand.hand_ge and "4D" in by_hand.discards


def test_rks_7_3_1_no_card_no_entry() -> None:
    """RKS-7.3.1: with no card to pay, the empty enemy Area cannot be entered."""
    s = active("T-34", {"T-34": (TW, [])}, control={"tractor-works": SU, "orlovka": GE})
    assert refused(s, Move("orlovka")) == ("RKS-7.3.1",)


def test_rks_7_3_2_entering_an_occupied_enemy_area_is_combat() -> None:
    """RKS-7.3.2, RKS-8.1.2: entering an enemy-controlled Area with an enemy unit starts a
    combat at once, with no card paid; without a card to fight with it is refused
    (RKS-8.4.1)."""
    s = active("71", {"71": (GREAR, ["2S"]), "Rifle-1": ("orlovka", ["2H"])})
    s = run(s, Move("orlovka"))
    assert s.stage == Stage.COMBAT and s.combat is not None
    assert s.combat.attacker == "71" and s.combat.defender == "Rifle-1"
    assert s.combat.step == Step.ATTACK and unit(s, "71").steps == {"2S"}
    broke = active("71", {"71": (GREAR, []), "Rifle-1": ("orlovka", ["2H"])})
    assert refused(broke, Move("orlovka")) == ("RKS-8.4.1",)


def test_rks_3_5_1_no_unit_enters_the_enemy_rear() -> None:
    """RKS-3.5.1: neither side enters the enemy Rear."""
    s = active("14Pz", {"14Pz": (TW, ["2S"])}, control={TW: GE}, hands={GE: ["3S"]})
    assert Move(SREAR) not in legal(s)
    assert refused(s, Move(SREAR)) == ("RKS-3.5.1",)


def test_rks_8_10_3_an_isolated_unit_may_not_move() -> None:
    """RKS-8.10.3: an isolated unit cannot move."""
    s = active(
        "Rifle-1",
        {"Rifle-1": ("orlovka", ["2H"]), "71": ("orlovka", ["2S"])},
        control={"orlovka": GE},
        isolated={"Rifle-1"},
    )
    assert not any(isinstance(a, Move) for a in legal(s))
    assert refused(s, Move("gorodishche")) == ("RKS-8.10.3",)


def test_rks_7_4_1_the_end_of_an_action_flips_the_unit() -> None:
    """RKS-7.4.1: the player declares the end ("pass") and flips the unit; RKS-7.4.2: it may
    not act again this turn."""
    s = active("71", {"71": (GREAR, ["2S"]), "13Gds": SREAR})
    s = run(s, End())
    assert unit(s, "71").flipped and s.stage == Stage.PLAYER_TURN and s.player == SU
    s = run(s, Pass())
    assert refused(s, Designate("71")) == ("RKS-7.4.2",)


def test_rks_7_1_3_as_far_as_there_is_a_card_amb_rks_3() -> None:
    """RKS-7.1.3: the unit operates "as far as there is a card". AMB-RKS-3 (c): each operation
    pays its own card, so a free move needs none; (a): with no hand card only the end is left;
    (b): a step card on the acting unit is enough."""
    units = {"71": ("orlovka", ["2S"])}
    s = active("71", units, control={"orlovka": GE, "gorodishche": GE})
    assert Move("gorodishche") in legal(s)
    a = active("71", units, control={"orlovka": GE}, options={"card_needed": "hand_card"})
    assert legal(a) == [End()]
    assert refused(a, Move("gorodishche")) == ("RKS-7.1.3",)
    b = active("71", units, control={"orlovka": GE}, options={"card_needed": "hand_or_step"})
    assert Move("gorodishche") in legal(b)


def test_rks_7_5_1_recruiting_in_the_own_rear() -> None:
    """RKS-7.5.1: a face-up unit in its own Rear is flipped without acting and draws one step
    from the deck; the Player Turn is over and it is not a pass (AMB-RKS-18 a)."""
    s = position({"71": (GREAR, ["2S"]), "14Pz": ("orlovka", ["3S"]), "13Gds": SREAR})
    assert {a.unit for a in legal(s) if isinstance(a, Recruit)} == {"71"}
    assert refused(s, Recruit("14Pz")) == ("RKS-7.5.1",)
    s = run(s, Recruit("71"))
    assert unit(s, "71").flipped
    s = draw(s, "9H")
    assert unit(s, "71").steps == {"2S", "9H"}
    assert s.player == SU and s.stage == Stage.PLAYER_TURN and s.passes == 0


def test_rks_7_5_2_and_7_5_3_no_recruit_when_flipped_or_full() -> None:
    """RKS-7.5.2: a flipped unit may not recruit; RKS-7.5.3: never above the original steps."""
    s = position({"71": (GREAR, ["2S"]), "295": (GREAR, ["3S", "4S"])}, flipped={"71"})
    assert refused(s, Recruit("71")) == ("RKS-7.5.2",)
    assert refused(s, Recruit("295")) == ("RKS-7.5.3",)


def test_rks_7_5_4_isolation_does_not_prevent_recruiting() -> None:
    """RKS-7.5.4: an isolated unit may still recruit. A unit in its own Rear is never isolated
    in play (no enemy enters it, RKS-3.5.1), so the position is built by hand: recruiting
    checks place, face and steps, never isolation."""
    s = position({"13Gds": (SREAR, ["2H"])}, player=SU)
    isolated = B.update(s, "13Gds", isolated=True)
    assert Recruit("13Gds") in legal(isolated)
    assert unit(draw(run(isolated, Recruit("13Gds")), "9H"), "13Gds").steps == {"2H", "9H"}


def test_rks_7_5_5_optional_rule_only_the_soviets_recruit() -> None:
    """RKS-7.5.5: by the optional rule the German may not recruit; the Soviet still may."""
    s = position(
        {"71": (GREAR, ["2S"]), "13Gds": (SREAR, ["2H"])},
        options={"recruiting": "soviet_only"},
    )
    assert refused(s, Recruit("71")) == ("RKS-7.5.5",)
    s = run(s, Pass())
    assert Recruit("13Gds") in legal(s)


def test_amb_rks_18_recruiting_in_addition_to_an_activation() -> None:
    """AMB-RKS-18 (b): after one recruit the same player goes on to designate or pass."""
    s = position({"71": (GREAR, ["2S"]), "14Pz": GREAR}, options={"recruit_turn": "extra"})
    s = draw(run(s, Recruit("71")), "9H")
    assert s.player == GE and s.stage == Stage.PLAYER_TURN and s.recruited
    assert Designate("14Pz") in legal(s) and not any(isinstance(a, Recruit) for a in legal(s))


def test_rks_8_12_4_the_t34_moves_along_face_up() -> None:
    """RKS-8.12.4: when another Soviet unit moves, a face-up T-34 in its Area may move with it;
    by AMB-RKS-15 (iv) it is not flipped and one card pays for both. A flipped T-34 may not."""
    units = {"Rifle-1": (TW, ["2H"]), "T-34": (TW, [])}
    s = active("Rifle-1", units, hands={SU: ["3H"]}, control={"barrikady": GE})
    s = run(s, Move("barrikady", "T-34"), Pay("3H"))
    assert unit(s, "T-34").area == "barrikady" and not unit(s, "T-34").flipped
    assert s.stage == Stage.ACTIVE
    flipped = active("Rifle-1", units, flipped={"T-34"}, control={"barrikady": GE})
    assert refused(flipped, Move("barrikady", "T-34")) == ("RKS-8.12.4",)
    each = active(
        "Rifle-1",
        units,
        hands={SU: ["3H"]},
        control={"barrikady": GE},
        options={"t34_escort": "flipped_paid_each"},
    )
    s = run(each, Move("barrikady", "T-34"), Pay("2H"))
    assert s.stage == Stage.PAY and refused(s, Pay("4H")) == ("RKS-7.3.1",)
    s = run(s, Pay("3H"))
    assert unit(s, "T-34").flipped and unit(s, "T-34").area == "barrikady"


def test_amb_rks_15_the_t34_as_acting_unit() -> None:
    """AMB-RKS-15 (iii): the T-34 may be designated (standard) or not (reading no)."""
    units = {"T-34": TW, "13Gds": SREAR}
    s = position(units, player=SU)
    assert Designate("T-34") in legal(s)
    s = position(units, player=SU, options={"t34_acts": "no"})
    assert refused(s, Designate("T-34")) == ("RKS-8.12.4",)


def test_rks_7_3_2_cardless_entry_combat_follows_and_the_attacker_is_stuck() -> None:
    """RKS-7.3.2, RKS-8.4.1 (cardless_entry): under `refused` (both presets) a unit with no card
    to fight with may not enter an enemy Area holding enemy units; under `combat_follows` it
    may, the combat occurs at once, and with no card to declare it loses (`stuck_attacker`):
    it retreats into the German Rear, flipped, and the Player Turn passes."""
    units = {"71": (GREAR, []), "Rifle-1": ("orlovka", ["2H"])}
    base = active("71", units)
    assert refused(base, Move("orlovka")) == ("RKS-8.4.1",)
    assert Move("orlovka") not in legal(base)
    s = active("71", units, options={"cardless_entry": "combat_follows"})
    assert Move("orlovka") in legal(s)
    s = run(s, Move("orlovka"))
    assert s.stage == Stage.DAMAGE and s.damage is not None and s.damage.unit == "71"
    assert legal(s) == [Retreat("71", GREAR)]
    s = run(s, Retreat("71", GREAR))
    assert unit(s, "71").flipped and unit(s, "Rifle-1").area == "orlovka" and s.player == SU


def test_rks_3_5_2_soviet_rear_entry_one_way_arrows() -> None:
    """RKS-3.5.2, RKS-7.2.1 (soviet_rear_entry): under `allowed` (both presets) a Soviet unit in
    an arrow Area moves back into the Soviet Rear for free; under `one_way` it may not."""
    units = {"13Gds": (TW, ["5H"])}
    s = active("13Gds", units)
    assert Move(SREAR) in legal(s)
    assert unit(run(s, Move(SREAR)), "13Gds").area == SREAR
    one_way = active("13Gds", units, options={"soviet_rear_entry": "one_way"})
    assert Move(SREAR) not in legal(one_way)
    assert refused(one_way, Move(SREAR)) == ("RKS-3.5.2",)
    assert Move("barrikady") in legal(one_way)
