"""The combat procedure: who fights, declarations face down, bluffs, raises, judgement in
order, ties fought again (RKS-8.1.1 to RKS-8.7.5, AMB-RKS-4, AMB-RKS-5, AMB-RKS-6, AMB-RKS-7,
AMB-RKS-8, AMB-RKS-21, AMB-RKS-24)."""

from __future__ import annotations

from typing import Any

import pytest

from kernel.errors import IllegalAction
from specs.rattenkrieg.rules.actions import (
    Accept,
    Attack,
    Defend,
    Move,
    Play,
    Stand,
)
from specs.rattenkrieg.rules.state import GE, HAND, SU, RKState, Stage, Step
from specs.rattenkrieg.rules.strength import judgement
from tests.rattenkrieg.positions import GAME, GREAR, active, legal, position, run, unit


def refused(s: RKState, action: Any) -> tuple[str, ...]:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, action)
    return err.value.clauses


def entered(
    att_steps: list[str] | None = None,
    def_steps: list[str] | None = None,
    hands: dict[str, list[str]] | None = None,
    extra: dict[str, Any] | None = None,
    defender: str = "Rifle-2",
    **kw: Any,
) -> RKState:
    """71 (German Infantry, strength 3) enters Orlovka (Normal), held by Rifle-2 (strength 2)
    or another defender."""
    units = {"71": (GREAR, att_steps or ["2C"]), defender: ("orlovka", def_steps or ["5H"])}
    s = active("71", units | (extra or {}), hands=hands or {}, **kw)
    return run(s, Move("orlovka"))


# --- judgement (RKS-8.7.1 to RKS-8.7.5) ---------------------------------------------------------

STANDARD = position({"71": GREAR})


@pytest.mark.parametrize(
    ("attack", "defence", "winner", "clause"),
    [
        ("2D", "9H", "attacker", "RKS-8.7.1"),  # only the attacker hits
        ("9D", "2H", "defender", "RKS-8.7.1"),  # only the defender hits
        ("3C", "2S", "attacker", "RKS-8.7.2"),  # both hit; only the German black card counts
        ("3D", "2H", "defender", "RKS-8.7.2"),  # both hit; only the Soviet red card counts
        ("3C", "2H", "defender", "RKS-8.7.3"),  # both meet the colour: lower number
        ("3H", "2C", "defender", "RKS-8.7.3"),  # neither meets it: lower number
        ("AC", "2H", "attacker", "RKS-8.7.3"),
        ("2C", "2H", "tie", "RKS-8.7.4"),  # equal numbers: fight again
        ("9C", "9H", "defender", "RKS-8.7.5"),  # both bluff: the defender wins
        ("KC", "QH", "defender", "RKS-8.7.5"),  # face cards never hit (RKS-8.4.2)
        ("KC", "2H", "defender", "RKS-8.7.1"),
    ],
)
def test_rks_8_7_judgement_in_order(attack: str, defence: str, winner: str, clause: str) -> None:
    """RKS-8.7.1 to RKS-8.7.5, RKS-8.4.2: German attacker of strength 3 against a Soviet
    defender of strength 2."""
    assert judgement(STANDARD, attack, 3, GE, defence, 2) == (winner, clause)


def test_amb_rks_5_when_neither_card_hits() -> None:
    """AMB-RKS-5 (a): neither hits, the defender wins (RKS-8.7.5); (b): the lower number wins
    (RKS-8.7.3), equal numbers fight again, and a card without a number leaves it to step 5."""
    lower = position({"71": GREAR}, options={"neither_hits": "lower_number"})
    assert judgement(STANDARD, "8C", 3, GE, "9H", 2) == ("defender", "RKS-8.7.5")
    assert judgement(lower, "8C", 3, GE, "9H", 2) == ("attacker", "RKS-8.7.3")
    assert judgement(lower, "9C", 3, GE, "9H", 2) == ("tie", "RKS-8.7.4")
    assert judgement(lower, "KC", 3, GE, "9H", 2) == ("defender", "RKS-8.7.5")


@pytest.mark.parametrize(
    ("reading", "hit"), [("one", True), ("fourteen", False), ("no_number", False)]
)
def test_amb_rks_4_the_ace(reading: str, hit: bool) -> None:
    """AMB-RKS-4, RKS-8.7.1: the Ace hits as 1, misses as 14 or as a card without a number."""
    s = position({"71": GREAR}, options={"ace": reading})
    assert judgement(s, "AC", 3, GE, "9H", 2)[0] == ("attacker" if hit else "defender")


# --- who fights --------------------------------------------------------------------------------


def test_rks_8_1_3_and_8_2_2_the_acting_unit_attacks_for_the_phasing_player() -> None:
    """RKS-8.1.3: the player of the Player Turn attacks; RKS-8.2.2: with the acting unit;
    RKS-8.1.1: the combat is in the Area both units are in."""
    s = entered()
    assert s.combat is not None and s.combat.attacker == "71" and s.combat.area == "orlovka"
    assert GAME.to_move(s) == GE and s.combat.step == Step.ATTACK
    s = run(s, Play("2C"))
    assert GAME.to_move(s) == SU and s.combat.step == Step.DEFENCE  # type: ignore[union-attr]


def test_rks_8_2_1_and_8_2_3_the_defender_chooses_one_unit() -> None:
    """RKS-8.2.1: one unit against one; RKS-8.2.3: with several defenders the defender chooses
    which fights."""
    s = entered(extra={"Rifle-3": ("orlovka", ["6H"])})
    assert s.combat is not None and s.combat.step == Step.CHOOSE and GAME.to_move(s) == SU
    assert set(legal(s)) == {Defend("Rifle-2"), Defend("Rifle-3")}
    assert refused(s, Defend("71")) == ("RKS-8.2.3",)
    s = run(s, Defend("Rifle-3"))
    assert s.combat is not None and s.combat.defender == "Rifle-3"


def test_rks_8_2_4_a_tie_is_fought_again_by_the_same_units() -> None:
    """RKS-8.7.4, RKS-8.2.4: after a tie both cards are discarded and the procedure starts
    again with the same two units (no new choice of defender)."""
    s = entered(["2C", "5C"], ["2H"], hands={SU: ["6H"]}, extra={"Rifle-3": ("orlovka", ["7H"])})
    s = run(s, Defend("Rifle-2"), Play("2C"), Play("2H"), Stand())
    assert s.combat is not None and s.combat.defender == "Rifle-2" and s.combat.refight
    assert s.combat.step == Step.ATTACK and {"2C", "2H"} <= s.discards
    assert unit(s, "71").steps == {"5C"} and not unit(s, "Rifle-2").steps
    assert not any(isinstance(a, Defend) for a in legal(s))


# --- declarations (RKS-8.3.1 to RKS-8.5.3) -------------------------------------------------------


def test_rks_8_3_1_and_8_4_1_the_attack_declaration() -> None:
    """RKS-8.3.1: attack, defence, raise, judgement in that order. RKS-8.4.1: the attacker puts
    a hand card or a step of the attacking unit face down; another unit's step is not his."""
    s = entered(["2C"], hands={GE: ["9D"]}, extra={"295": (GREAR, ["3C", "4C"])})
    assert {a.card for a in legal(s) if isinstance(a, Play)} == {"2C", "9D"}
    assert not any(isinstance(a, Accept | Stand) for a in legal(s))
    assert refused(s, Play("3C")) == ("RKS-8.4.1",)
    s = run(s, Play("9D"))
    assert s.combat is not None and s.combat.attack is not None
    assert (s.combat.attack.card, s.combat.attack.origin) == ("9D", HAND)
    assert "9D" not in s.hand_ge and s.combat.step == Step.DEFENCE


def test_rks_8_4_2_a_face_card_is_a_bluff_that_never_hits() -> None:
    """RKS-8.4.2: a face card may be put down as a bluff; it never hits."""
    s = entered(["KC"], ["AH"])
    s = run(s, Play("KC"), Play("AH"), Stand())
    assert s.stage == Stage.DAMAGE and s.damage is not None and s.damage.unit == "71"


def test_rks_8_5_1_the_defender_may_accept_damage_amb_rks_7() -> None:
    """RKS-8.5.1: the defender takes the damage without contest; the attacker's card is
    discarded (AMB-RKS-7 ii), or by the other reading returned unseen."""
    s = run(entered(["2C", "3C"]), Play("2C"), Accept())
    assert s.stage == Stage.DAMAGE and s.damage is not None and s.damage.unit == "Rifle-2"
    assert "2C" in s.discards and unit(s, "71").steps == {"3C"}
    back = run(
        entered(["2C", "3C"], options={"uncontested_card": "returned"}), Play("2C"), Accept()
    )
    assert "2C" not in back.discards and unit(back, "71").steps == {"2C", "3C"}


def test_rks_8_5_2_the_defence_declaration() -> None:
    """RKS-8.5.2: the defender puts down a hand card or a step of the defending unit, or
    accepts."""
    s = run(
        entered(["2C"], ["5H"], hands={SU: ["9D"]}, extra={"Rifle-3": ("gorodishche", ["7H"])}),
        Play("2C"),
    )
    assert {a.card for a in legal(s) if isinstance(a, Play)} == {"5H", "9D"}
    assert Accept() in legal(s)
    assert refused(s, Play("7H")) == ("RKS-8.4.1",)


def test_rks_8_5_3_bluffing_with_a_step_amb_rks_8() -> None:
    """RKS-8.5.3: the defender "should not" bluff with a step. AMB-RKS-8 (a): advice, legal;
    (b): a step card that cannot hit may not be played in defence."""
    s = run(entered(["2C"], ["9H"], hands={SU: ["9D"]}), Play("2C"))
    assert Play("9H") in legal(s)
    strict = run(
        entered(
            ["2C"],
            ["9H", "2H"],
            hands={SU: ["9D"]},
            defender="13Gds",
            options={"step_bluff": "prohibited"},
        ),
        Play("2C"),
    )
    assert Play("9H") not in legal(strict) and Play("2H") in legal(strict)
    assert Play("9D") in legal(strict)  # a hand bluff is fine
    assert refused(strict, Play("9H")) == ("RKS-8.5.3",)


# --- raises (RKS-8.6.1, RKS-8.6.2, AMB-RKS-6) ----------------------------------------------------


def test_rks_8_6_1_a_raise_replaces_the_card_which_is_lost() -> None:
    """RKS-8.6.1: after the defence the attacker may put down a different card; the first is
    not returned and is lost after the result; the last card is judged."""
    s = entered(["9C", "2C"], ["6H"], hands={SU: ["AH"]})
    s = run(s, Play("9C"), Play("6H"))
    assert s.combat is not None and s.combat.step == Step.RAISE and GAME.to_move(s) == GE
    assert Stand() in legal(s) and Play("2C") in legal(s)
    s = run(s, Play("2C"))
    assert s.combat is not None and [p.card for p in s.combat.spent] == ["9C"]
    s = run(s, Stand())  # 2C (hits 3) against 6H (misses 2)
    assert s.damage is not None and s.damage.unit == "Rifle-2"
    assert {"9C", "2C", "6H"} <= s.discards


def test_rks_8_6_2_the_defender_answers_a_raise_once() -> None:
    """RKS-8.6.2: if the attacker raised the defender may raise too; then the cards are judged
    (one raise each, AMB-RKS-6). Without an attacker raise there is no defender raise."""
    s = run(entered(["9C", "2C"], ["6H"], hands={SU: ["AH"]}), Play("9C"), Play("6H"))
    no_raise = run(s, Stand())
    assert no_raise.stage == Stage.DAMAGE  # judged at once: 9C and 6H both miss
    s = run(s, Play("2C"))
    assert GAME.to_move(s) == SU and Play("AH") in legal(s)
    s = run(s, Play("AH"))  # 2C hits, AH hits: both red/black fail -> lower number, AH
    assert s.stage == Stage.DAMAGE and s.damage is not None and s.damage.unit == "71"


def test_amb_rks_6_alternating_raises() -> None:
    """AMB-RKS-6 (ii): raises may alternate until a player declines."""
    s = entered(
        ["9C", "8C"], ["6H"], hands={GE: ["2C"], SU: ["7H"]}, options={"raising": "alternating"}
    )
    s = run(s, Play("9C"), Play("6H"), Play("8C"), Play("7H"))
    assert s.combat is not None and s.combat.step == Step.RAISE and GAME.to_move(s) == GE
    s = run(s, Play("2C"))
    assert GAME.to_move(s) == SU and Stand() in legal(s)


def test_amb_rks_6_accepting_after_a_raise() -> None:
    """AMB-RKS-6 (iv): by default the defender may not give up after a raise; by the other
    reading he may accept the damage, his card being lost."""
    base = dict(att_steps=["9C", "2C"], def_steps=["6H"])
    s = run(entered(**base), Play("9C"), Play("6H"), Play("2C"))  # type: ignore[arg-type]
    assert Accept() not in legal(s)
    assert refused(s, Accept()) == ("RKS-8.6.2",)
    yes = entered(**base, options={"raise_then_accept": "yes"})  # type: ignore[arg-type]
    s = run(yes, Play("9C"), Play("6H"), Play("2C"), Accept())
    assert s.damage is not None and s.damage.unit == "Rifle-2" and "6H" in s.discards


# --- ties (RKS-8.7.4, AMB-RKS-24) --------------------------------------------------------------


def test_amb_rks_24_after_a_tie() -> None:
    """AMB-RKS-24 (a): a full restart, the defender may now accept; (b): cards only, he must
    contest while he has a card."""
    full = run(entered(["2C", "5C"], ["2H"], {SU: ["6H"]}), Play("2C"), Play("2H"), Stand())
    full = run(full, Play("5C"))
    assert Accept() in legal(full)
    only = entered(["2C", "5C"], ["2H"], {SU: ["6H"]}, options={"tie_refight": "cards_only"})
    only = run(only, Play("2C"), Play("2H"), Stand(), Play("5C"))
    assert Accept() not in legal(only)
    assert refused(only, Accept()) == ("RKS-8.7.4",)


# --- combat without moving (AMB-RKS-21) -----------------------------------------------------------


def test_amb_rks_21_combat_against_enemies_in_the_own_area() -> None:
    """AMB-RKS-21 (a), RKS-8.1.1: the acting unit may attack enemy units in its Area; (b)
    combat only comes from entering (RKS-8.1.2) and continuing."""
    units = {"71": ("orlovka", ["2C"]), "Rifle-2": ("orlovka", ["5H"])}
    s = active("71", units, control={"orlovka": GE}, isolated={"Rifle-2"})
    assert Attack() in legal(s)
    s = run(s, Attack())
    assert s.combat is not None and s.combat.defender == "Rifle-2"
    b = active(
        "71",
        units,
        control={"orlovka": GE},
        isolated={"Rifle-2"},
        options={"voluntary_combat": "entry_only"},
    )
    assert refused(b, Attack()) == ("RKS-8.1.2",)
