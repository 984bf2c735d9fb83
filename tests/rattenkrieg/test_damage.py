"""Damage, isolation, continuation and the T-34 in combat (RKS-8.9.1 to RKS-8.12.5,
AMB-RKS-7, AMB-RKS-10, AMB-RKS-13, AMB-RKS-15, and the gaps `zero_steps`, `stuck_attacker`,
`isolation_choice`)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from kernel.errors import IllegalAction
from kernel.game import CHANCE
from specs.rattenkrieg.rules.actions import (
    Accept,
    Attack,
    Defend,
    Event,
    Isolate,
    LoseStep,
    Move,
    Pick,
    Play,
    Retreat,
    Sacrifice,
    Stand,
)
from specs.rattenkrieg.rules.sources import combat_cards
from specs.rattenkrieg.rules.state import GE, SU, RKState, Stage
from specs.rattenkrieg.rules.strength import combat_strength
from tests.rattenkrieg.positions import GAME, GREAR, SREAR, TW, B, active, legal, run, unit


def refused(s: RKState, action: Any) -> tuple[str, ...]:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, action)
    return err.value.clauses


def beaten_defender(
    defenders: dict[str, Any], *, area: str = "gorodishche", frm: str = "orlovka", **kw: Any
) -> RKState:
    """71 attacks `area` from `frm` and the (first) defender accepts the damage."""
    s = active("71", {"71": (frm, ["2C", "3C"]), **defenders}, control={frm: GE}, **kw)
    s = run(s, Move(area))
    if s.combat is not None and s.combat.defender is None:
        s = run(s, Defend(next(iter(defenders))))
    return run(s, Play("2C"), Accept())


def test_rks_8_9_1_the_loser_retreats_or_loses_a_step() -> None:
    """RKS-8.9.1: the loser's unit retreats into an adjacent friendly-controlled Area (and is
    flipped), or loses one step; the owner chooses which step (AMB-RKS-7 iii)."""
    s = beaten_defender({"13Gds": ("gorodishche", ["4H", "5H"])})
    assert GAME.to_move(s) == SU and s.stage == Stage.DAMAGE
    retreats = {a.to for a in legal(s) if isinstance(a, Retreat)}
    assert retreats == {a for a in B.adjacent["gorodishche"] if a != GREAR and a != "orlovka"}
    assert {a.card for a in legal(s) if isinstance(a, LoseStep)} == {"4H", "5H"}
    back = run(s, Retreat("13Gds", "barrikady"))
    assert unit(back, "13Gds").area == "barrikady" and unit(back, "13Gds").flipped
    lost = run(s, LoseStep("13Gds", "5H"))
    assert unit(lost, "13Gds").steps == {"4H"} and "5H" in lost.discards


def test_rks_8_9_2_no_retreat_and_no_step_means_elimination() -> None:
    """RKS-8.9.2: a unit with no Area to retreat into and no step is eliminated."""
    s = active(
        "71",
        {"71": ("orlovka", ["2C"]), "Rifle-2": ("gorodishche", [])},
        control={"orlovka": GE, "razgulyayevka": GE, "barrikady": GE},
    )
    s = run(s, Move("gorodishche"), Play("2C"), Accept())
    assert unit(s, "Rifle-2").area is None and s.eliminated_in("Rifle-2") == s.turn
    assert s.control[B.index["gorodishche"]] == GE


def test_rks_8_9_3_no_soviet_retreat_into_the_soviet_rear_amb_rks_10() -> None:
    """RKS-8.9.3: a Soviet unit may not retreat into the Soviet Rear; AMB-RKS-10 (a): a German
    unit may retreat into the German Rear, (b) not."""
    s = beaten_defender({"Rifle-2": (TW, ["4H"])}, area=TW, frm="orlovka")
    assert Retreat("Rifle-2", SREAR) not in legal(s)
    assert refused(s, Retreat("Rifle-2", SREAR)) == ("RKS-8.9.3",)
    for reading, allowed in (("own_rear_friendly", True), ("uncontrolled", False)):
        g = active(
            "Rifle-2",
            {"Rifle-2": ("gorodishche", ["4H"]), "71": ("orlovka", ["2C", "3C"])},
            control={"orlovka": GE},
            options={"rear_control": reading},
        )
        g = run(g, Move("orlovka"), Play("4H"), Accept())
        assert (Retreat("71", GREAR) in legal(g)) is allowed


def test_amb_rks_7_random_step_loss() -> None:
    """AMB-RKS-7 (iii): by the other reading the lost step is picked at random: a chance step
    over the unit's steps, each 1/n."""
    s = beaten_defender({"13Gds": ("gorodishche", ["4H", "5H"])}, options={"lost_step": "random"})
    assert LoseStep("13Gds", None) in legal(s)
    s = run(s, LoseStep("13Gds", None))
    assert GAME.to_move(s) == CHANCE
    assert GAME.chance_outcomes(s) == [(Pick("4H"), Fraction(1, 2)), (Pick("5H"), Fraction(1, 2))]
    s = run(s, Pick("4H"))
    assert unit(s, "13Gds").steps == {"5H"} and "4H" in s.discards


def test_amb_rks_7_removed_steps_leave_the_game() -> None:
    """AMB-RKS-7 (iv): lost step cards are discarded (and reshuffled), or leave the game."""
    s = beaten_defender({"13Gds": ("gorodishche", ["4H", "5H"])}, options={"used_steps": "removed"})
    s = run(s, LoseStep("13Gds", "5H"))
    assert "5H" in s.removed and "5H" not in s.discards


@pytest.mark.parametrize(
    ("reading", "eliminated"), [("survives", False), ("last_step_eliminates", True)]
)
def test_zero_steps_option(reading: str, eliminated: bool) -> None:
    """RKS-8.9.1, RKS-8.9.2 and the gap `zero_steps`: a Rifle losing its only step stays on the
    map without steps (literal text), or is eliminated."""
    s = beaten_defender({"Rifle-2": ("gorodishche", ["4H"])}, options={"zero_steps": reading})
    s = run(s, LoseStep("Rifle-2", "4H"))
    assert (unit(s, "Rifle-2").area is None) is eliminated


def test_rks_8_10_1_remaining_defenders_retreat_or_are_isolated() -> None:
    """RKS-8.10.1: when the defending unit retreated, the defender decides for his other units
    in the Area: retreat (flipped) or isolation. All together (the standard reading): one
    isolation isolates all."""
    defenders = {
        "Rifle-2": ("gorodishche", ["4H"]),
        "13Gds": ("gorodishche", ["5H"]),
        "39Gds": ("gorodishche", ["6H"]),
    }
    s = beaten_defender(defenders, turn=3)
    s = run(s, Retreat("Rifle-2", "barrikady"))
    assert s.stage == Stage.ISOLATION and GAME.to_move(s) == SU
    assert Isolate("13Gds") in legal(s) and Retreat("13Gds", "barrikady") in legal(s)
    iso = run(s, Isolate("13Gds"))
    assert unit(iso, "13Gds").isolated and unit(iso, "39Gds").isolated
    assert iso.control[B.index["gorodishche"]] == GE  # isolated units do not count (RKS-3.6.3)
    out = run(s, Retreat("13Gds", "barrikady"))
    assert Isolate("39Gds") not in legal(out)  # the others must retreat too
    out = run(out, Retreat("39Gds", "barrikady"))
    assert unit(out, "39Gds").flipped and unit(out, "39Gds").area == "barrikady"


def test_isolation_choice_per_unit() -> None:
    """RKS-8.10.1 and the gap `isolation_choice`: per unit, one may retreat and one stay; the
    isolations take effect together once every unit has its decision."""
    defenders = {
        "Rifle-2": ("gorodishche", ["4H"]),
        "13Gds": ("gorodishche", ["5H"]),
        "39Gds": ("gorodishche", ["6H"]),
    }
    s = beaten_defender(defenders, turn=3, options={"isolation_choice": "per_unit"})
    s = run(s, Retreat("Rifle-2", "barrikady"), Isolate("13Gds"))
    assert s.combat is not None and s.combat.staying == ("13Gds",)
    assert Retreat("39Gds", "barrikady") in legal(s) and Isolate("39Gds") in legal(s)
    s = run(s, Retreat("39Gds", "barrikady"))
    assert unit(s, "39Gds").area == "barrikady" and unit(s, "13Gds").isolated


def test_rks_8_10_2_no_retreat_area_means_isolation() -> None:
    """RKS-8.10.2: remaining units with nowhere to retreat are isolated automatically."""
    s = active(
        "71",
        {
            "71": ("orlovka", ["2C"]),
            "Rifle-2": ("gorodishche", []),
            "13Gds": ("gorodishche", ["5H"]),
        },
        control={"orlovka": GE, "razgulyayevka": GE, "barrikady": GE},
    )
    s = run(s, Move("gorodishche"), Defend("Rifle-2"), Play("2C"), Accept())
    assert unit(s, "Rifle-2").area is None  # eliminated (RKS-8.9.2)
    assert unit(s, "13Gds").isolated and s.stage == Stage.CONTINUE


def test_rks_8_10_4_and_8_10_5_isolated_units_in_combat() -> None:
    """RKS-8.10.4: an isolated unit fights with its own step cards only, never the hand;
    RKS-8.10.5: it may not retreat as a combat result."""
    s = active(
        "71",
        {"71": ("orlovka", ["2C", "3C"]), "13Gds": ("orlovka", ["5H"])},
        control={"orlovka": GE},
        isolated={"13Gds"},
        hands={SU: ["6H"]},
    )
    s = run(s, Attack(), Play("2C"))
    assert {a.card for a in legal(s) if isinstance(a, Play)} == {"5H"}
    assert refused(s, Play("6H")) == ("RKS-8.10.4",)
    s = run(s, Accept())
    assert not any(isinstance(a, Retreat) for a in legal(s))
    assert refused(s, Retreat("13Gds", "gorodishche")) in (("RKS-8.9.1",), ("RKS-8.10.5",))


def test_rks_8_11_1_a_beaten_attacker_retreats_and_its_action_ends() -> None:
    """RKS-8.11.1: the attacker that retreats is flipped and its action is over."""
    s = active("71", {"71": (GREAR, ["9C"]), "Rifle-2": ("orlovka", ["AH"])})
    s = run(s, Move("orlovka"), Play("9C"), Play("AH"), Stand())
    assert s.damage is not None and s.damage.unit == "71"
    s = run(s, Retreat("71", GREAR))
    assert unit(s, "71").flipped and s.stage == Stage.PLAYER_TURN and s.player == SU


def test_rks_8_11_2_both_remain_attack_again_or_retreat() -> None:
    """RKS-8.11.2: when both sides still have units in the Area after a combat, the attacker
    must attack again or retreat; he may not simply go on or stop."""
    s = active("71", {"71": (GREAR, ["2C", "3C"]), "13Gds": ("orlovka", ["5H", "6H"])})
    s = run(s, Move("orlovka"), Play("2C"), Accept(), LoseStep("13Gds", "5H"))
    assert s.stage == Stage.CONTINUE and GAME.to_move(s) == GE
    assert set(legal(s)) == {Attack(), Retreat("71", GREAR)}
    again = run(s, Attack())
    assert again.combat is not None and again.combat.defender == "13Gds"
    gone = run(s, Retreat("71", GREAR))
    assert unit(gone, "71").flipped and gone.player == SU


def test_amb_rks_13_isolated_defenders_and_continuation() -> None:
    """AMB-RKS-13 (a): isolated defenders still oblige the attacker to attack or retreat;
    (b): once only isolated units remain, the attacker's action goes on."""
    units = {
        "71": (GREAR, ["2C", "3C"]),
        "Rifle-2": ("orlovka", ["4H"]),
        "13Gds": ("orlovka", ["5H"]),
    }
    for reading, stage in (("must_continue", Stage.CONTINUE), ("may_stop", Stage.ACTIVE)):
        s = active("71", units, options={"isolated_remaining": reading})
        s = run(s, Move("orlovka"), Defend("Rifle-2"), Play("2C"), Accept())
        s = run(s, Retreat("Rifle-2", "gorodishche"), Isolate("13Gds"))
        assert s.stage == stage


@pytest.mark.parametrize(("reading", "area"), [("loses", None), ("stays", "orlovka")])
def test_stuck_attacker_option(reading: str, area: str | None) -> None:
    """RKS-8.11.2 and the gap `stuck_attacker`: the attacker must attack again or retreat but
    has no card and no friendly Area next to it: it loses (eliminated, RKS-8.9.2) or stays."""
    s = active(
        "T-34",
        {"T-34": ("orlovka", []), "14Pz": ("orlovka", ["2C"])},
        control={"orlovka": SU, "gorodishche": GE, TW: GE},
        hands={SU: ["5H"]},
        options={"stuck_attacker": reading},
    )
    s = run(s, Attack(), Play("5H"), Accept(), LoseStep("14Pz", "2C"))
    # 14Pz (no step left) and the T-34 (no card left) are both still in Orlovka.
    assert unit(s, "T-34").area == area
    assert s.player == GE and s.stage == Stage.PLAYER_TURN


def test_rks_8_12_1_and_8_12_2_the_t34_fights_with_the_hand_only() -> None:
    """RKS-8.12.1: the T-34 has no steps; RKS-8.12.2: it fights with hand cards only; isolated,
    it has no card and must accept (AMB-RKS-15 ii)."""
    s = active(
        "71",
        {"71": ("orlovka", ["2C"]), "T-34": (TW, [])},
        hands={SU: ["5H"]},
        control={"orlovka": GE},
    )
    s = run(s, Move(TW), Play("2C"))
    assert {a.card for a in legal(s) if isinstance(a, Play)} == {"5H"}
    iso = active(
        "71",
        {"71": ("orlovka", ["2C"]), "T-34": ("orlovka", [])},
        hands={SU: ["5H"]},
        control={"orlovka": GE},
        isolated={"T-34"},
    )
    iso = run(iso, Attack(), Play("2C"))
    assert not combat_cards(B, iso, "T-34") and legal(iso) == [Accept()]


def test_rks_8_12_3_support_is_the_soviets_first_card_only_amb_rks_15() -> None:
    """RKS-8.12.3: the T-34 adds its strength with the Soviet's first card of a round; by
    AMB-RKS-15 (v) also in attack (standard) or only in defence."""
    units = {"71": ("orlovka", ["2C"]), "Rifle-2": ("orlovka", ["4H"]), "T-34": ("orlovka", [])}
    s = active("Rifle-2", units, control={"orlovka": SU}, hands={SU: ["5H"]})
    s = run(s, Attack())
    assert Play("4H", True) in legal(s)
    d = active(
        "Rifle-2",
        units,
        control={"orlovka": SU},
        hands={SU: ["5H"]},
        options={"t34_support": "defence_only"},
    )
    d = run(d, Attack())
    assert refused(d, Play("4H", True)) == ("RKS-8.12.3",)
    g = run(s, Play("4H"), Play("2C"))  # a raise may not bring the T-34 in
    assert refused(g, Play("5H", True)) == ("RKS-8.12.3",)


def test_rks_8_12_5_the_t34_may_be_eliminated_instead() -> None:
    """RKS-8.12.5: if the Soviets lose a combat in which the T-34 took part, they may
    eliminate it instead of retreating or losing a step."""
    s = active(
        "71",
        {"71": ("orlovka", ["2C"]), "Rifle-2": (TW, ["9H"]), "T-34": (TW, [])},
        control={"orlovka": GE},
    )
    s = run(s, Move(TW), Defend("Rifle-2"), Play("2C"), Play("9H", True), Stand())
    assert s.damage is not None and s.damage.unit == "Rifle-2"
    assert Sacrifice("T-34") in legal(s)
    s = run(s, Sacrifice("T-34"))
    assert unit(s, "T-34").area is None and unit(s, "Rifle-2").area == TW
    no_support = active(
        "71",
        {"71": ("orlovka", ["2C"]), "Rifle-2": (TW, ["9H"]), "T-34": (TW, [])},
        control={"orlovka": GE},
    )
    no_support = run(no_support, Move(TW), Defend("Rifle-2"), Play("2C"), Play("9H"), Stand())
    assert Sacrifice("T-34") not in legal(no_support)
    assert refused(no_support, Sacrifice("T-34")) == ("RKS-8.12.5",)


def test_rks_8_11_2_reattack_events_effects_before_attacking_again() -> None:
    """RKS-8.11.2, RKS-7.1.3 (reattack_events): under `none` (both presets) the attacker that
    must attack again or retreat plays no event first; under `effects` it may play an event for
    the unit (Combat Engineer here), which is in the re-attack, but no Bombardment."""
    units = {"71": (GREAR, ["2C", "3C"]), "13Gds": ("orlovka", ["5H", "6H"])}
    hand = {GE: ["KS", "JD"]}
    s = active("71", units, hands=hand)
    s = run(s, Move("orlovka"), Play("2C"), Accept(), LoseStep("13Gds", "5H"))
    assert s.stage == Stage.CONTINUE
    assert set(legal(s)) == {Attack(), Retreat("71", GREAR)}
    assert refused(s, Event("KS")) == ("RKS-8.11.2",)
    e = active("71", units, hands=hand, options={"reattack_events": "effects"})
    e = run(e, Move("orlovka"), Play("2C"), Accept(), LoseStep("13Gds", "5H"))
    assert Event("KS") in legal(e) and refused(e, Event("JD", "13Gds")) == ("RKS-8.11.2",)
    e = run(e, Event("KS"))
    assert e.stage == Stage.CONTINUE and e.effects == ("engineer",) and "KS" in e.discards
    again = run(e, Attack())
    assert again.combat is not None and again.combat.effects == ("engineer",)
    assert again.effects == ()


def test_rks_8_11_2_reattack_effects_carried_into_the_attack_again() -> None:
    """RKS-8.11.2, RKS-9.5.1 (reattack_effects): the Combat Engineer played before a combat in
    Tractor Works (a City) cancels 13Gds's +2 there; under `spent` (both presets) the attack
    again is a new combat without it, under `carried` the combat continues with it."""
    units = {"71": ("orlovka", ["2C", "3C"]), "13Gds": (TW, ["5H", "6H"])}
    strengths = {}
    for reading in ("spent", "carried"):
        s = active(
            "71",
            units,
            hands={GE: ["KS"]},
            control={"orlovka": GE},
            options={"reattack_effects": reading},
        )
        s = run(s, Event("KS"), Move(TW))
        assert s.combat is not None and s.combat.effects == ("engineer",)
        assert combat_strength(B, s, s.combat, "13Gds") == 4
        s = run(s, Play("2C"), Accept(), LoseStep("13Gds", "5H"), Attack())
        assert s.combat is not None
        strengths[reading] = (s.combat.effects, combat_strength(B, s, s.combat, "13Gds"))
    assert strengths == {"spent": ((), 6), "carried": (("engineer",), 4)}


def test_rks_8_12_3_t34_support_card_any_card_brings_the_t34_with_a_raise() -> None:
    """RKS-8.12.3 (t34_support_card): under `first_card` (both presets) the T-34 is added only
    with the Soviet's first card of a round; under `any_card` also with a raise."""
    units = {"71": ("orlovka", ["2C"]), "Rifle-2": ("orlovka", ["4H"]), "T-34": ("orlovka", [])}
    for reading, allowed in (("first_card", False), ("any_card", True)):
        s = active(
            "Rifle-2",
            units,
            control={"orlovka": SU},
            hands={SU: ["5H"]},
            options={"t34_support_card": reading},
        )
        s = run(s, Attack(), Play("4H"), Play("2C"))  # the Soviet raises now
        assert (Play("5H", True) in legal(s)) is allowed
        if not allowed:
            assert refused(s, Play("5H", True)) == ("RKS-8.12.3",)
            continue
        s = run(s, Play("5H", True))
        assert s.combat is not None and s.combat.support == "T-34"


def test_rks_8_9_3_rear_retreat_ban_damage_only_frees_isolation_and_continuation() -> None:
    """RKS-8.9.3, RKS-8.10.1, RKS-8.11.2 (rear_retreat_ban): under `every_retreat` (both
    presets) no Soviet unit retreats into the Soviet Rear; under `damage_only` the beaten unit
    still may not, but the remaining units and a Soviet attacker going instead of attacking
    again may."""
    for reading, allowed in (("every_retreat", False), ("damage_only", True)):
        opts = {"rear_retreat_ban": reading}
        s = beaten_defender({"Rifle-2": (TW, ["4H"]), "13Gds": (TW, ["5H"])}, area=TW, options=opts)
        assert s.stage == Stage.DAMAGE and Retreat("Rifle-2", SREAR) not in legal(s)
        s = run(s, Retreat("Rifle-2", "barrikady"))
        assert s.stage == Stage.ISOLATION
        assert (Retreat("13Gds", SREAR) in legal(s)) is allowed
        assert Retreat("13Gds", "barrikady") in legal(s)
        c = active(
            "13Gds",
            {"13Gds": ("barrikady", ["5H", "6H"]), "71": (TW, ["2C", "3C"])},
            control={TW: GE},
            options=opts,
        )
        c = run(c, Move(TW), Play("5H"), Accept(), LoseStep("71", "2C"))
        assert c.stage == Stage.CONTINUE
        assert (Retreat("13Gds", SREAR) in legal(c)) is allowed
        if not allowed:
            assert refused(c, Retreat("13Gds", SREAR)) == ("RKS-8.9.3",)
