"""Events by side, suit and rank (RKS-9.1.1 to RKS-9.8.2, AMB-RKS-16, AMB-RKS-17, AMB-RKS-20,
AMB-RKS-23)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from kernel.errors import IllegalAction
from kernel.game import CHANCE
from specs.rattenkrieg.io.observation import observe
from specs.rattenkrieg.rules.actions import (
    End,
    Event,
    Isolate,
    LoseStep,
    Move,
    Pick,
    Play,
    Retreat,
    Stand,
)
from specs.rattenkrieg.rules.cards import event_of
from specs.rattenkrieg.rules.control import controller
from specs.rattenkrieg.rules.state import GE, SU, RKState, Stage, Step
from specs.rattenkrieg.rules.strength import combat_strength
from tests.rattenkrieg.positions import (
    GAME,
    GAME_RULES,
    GREAR,
    MK,
    SREAR,
    active,
    draw,
    legal,
    position,
    run,
    unit,
    with_options,
)
from tests.rattenkrieg.positions import B as BOARD


def refused(s: RKState, action: Any) -> tuple[str, ...]:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, action)
    return err.value.clauses


def test_rks_9_1_1_and_9_1_2_event_tables() -> None:
    """RKS-9.1.1: German black J/Q/K = Air Force Support, Assault Gun, Combat Engineer, red
    J/Q/K = Bombardment; RKS-9.1.2: Soviet red J/Q/K = Sniper, Molotov, Chuikov, black ones =
    Bombardment."""
    assert [event_of(GE, c) for c in ("JS", "QC", "KS")] == [
        "air_support",
        "assault_gun",
        "engineer",
    ]
    assert {event_of(GE, c) for c in ("JD", "QH", "KD")} == {"bombardment"}
    assert [event_of(SU, c) for c in ("JH", "QD", "KH")] == ["sniper", "molotov", "chuikov"]
    assert {event_of(SU, c) for c in ("JS", "QC", "KC")} == {"bombardment"}


def test_rks_9_1_3_events_come_from_the_hand_amb_rks_20() -> None:
    """RKS-9.1.3: a face card from the hand is played by the acting unit and discarded;
    AMB-RKS-20 (i): a face-card step may not be used (standard) or may (hand_or_step); (ii):
    without an acting unit no event (standard)."""
    units = {"71": ("orlovka", ["QS"]), "13Gds": SREAR}
    s = active("71", units, hands={GE: ["QC"]}, control={"orlovka": GE})
    assert Event("QC") in legal(s) and Event("QS") not in legal(s)
    assert refused(s, Event("QS")) == ("RKS-9.1.3",)
    s = run(s, Event("QC"))
    assert "QC" in s.discards and not s.hand_ge and s.effects == ("assault_gun",)
    steps = active("71", units, control={"orlovka": GE}, options={"event_source": "hand_or_step"})
    s = run(steps, Event("QS"))
    assert not unit(s, "71").steps and "QS" in s.discards
    turn = position(units, hands={GE: ["QC"]}, control={"orlovka": GE})
    assert refused(turn, Event("QC")) == ("RKS-9.1.3",)
    assert refused(
        active("71", units, hands={GE: ["5C"]}, control={"orlovka": GE}), Event("5C")
    ) == ("RKS-9.1.1",)


def bombard(card: str = "JS", **kw: Any) -> RKState:
    """Rifle-2 (strength 2) in Orlovka next to 71 in Gorodishche; the Soviet may bombard."""
    units = {
        "Rifle-2": ("orlovka", ["2H"]),
        "71": ("gorodishche", ["2C", "3C"]),
        "14Pz": (GREAR, ["4C"]),
        "T-34": ("gorodishche", []),
    }
    units |= kw.pop("units", {})
    return active("Rifle-2", units, hands={SU: [card]}, control={"gorodishche": GE}, **kw)


def test_rks_9_2_1_bombardment_targets_an_enemy_here_or_next_door() -> None:
    """RKS-9.2.1: one enemy unit in the acting unit's Area or an adjacent one; RKS-9.2.4: not
    in the enemy Rear."""
    s = bombard()
    targets = {a.target for a in legal(s) if isinstance(a, Event)}
    assert targets == {"71"}
    assert refused(s, Event("JS", "14Pz")) == ("RKS-9.2.4",)
    far = bombard(units={"295": ("minina", ["5C"])})
    assert refused(far, Event("JS", "295")) == ("RKS-9.2.1",)
    assert refused(s, Event("JS", "T-34")) == ("RKS-9.2.1",)  # not an enemy


def test_rks_9_2_2_the_drawn_card_hits_at_or_above_the_revised_strength() -> None:
    """RKS-9.2.2: the bombarding player draws from the deck (a chance step, 1/len each); a card
    at least the target's strength after revision damages it (German Infantry in a Normal Area:
    3)."""
    s = run(bombard(), Event("JS", "71"))
    assert GAME.to_move(s) == CHANCE
    outcomes = GAME.chance_outcomes(s)
    assert {p for _, p in outcomes} == {Fraction(1, len(s.deck))}
    miss = draw(s, "2D")
    assert (
        miss.stage == Stage.ACTIVE
        and "2D" in miss.discards
        and unit(miss, "71").steps == {"2C", "3C"}
    )
    hit = draw(s, "3D")
    assert hit.stage == Stage.DAMAGE and hit.damage is not None and hit.damage.unit == "71"
    assert GAME.to_move(hit) == GE
    hit = run(hit, LoseStep("71", "3C"))
    assert hit.stage == Stage.ACTIVE and GAME.to_move(hit) == SU


def test_rks_9_2_2_bombardment_uses_the_city_revision() -> None:
    """RKS-9.2.2, AMB-RKS-23 (i): "after the revision": infantry in a City counts 3 + 2."""
    s = active(
        "Rifle-2",
        {"Rifle-2": ("gorodishche", ["2H"]), "71": ("barrikady", ["2C"])},
        hands={SU: ["JS"]},
        control={"barrikady": GE},
    )
    s = run(s, Event("JS", "71"))
    assert draw(s, "4D").stage == Stage.ACTIVE
    assert draw(s, "5D").stage == Stage.DAMAGE


@pytest.mark.parametrize(("mk", "hit"), [(SU, True), (GE, False)])
def test_rks_9_2_3_face_cards_hit_for_the_occupier_of_mamayev_kurgan(mk: str, hit: bool) -> None:
    """RKS-9.2.3: a drawn face card hits if the bombarding army occupies Mamayev Kurgan
    (controls it, AMB-RKS-17 a), and misses otherwise."""
    extra = {"24Pz": (MK, ["5C"])} if mk == GE else {}
    s = run(bombard(units=extra), Event("JS", "71"))
    s = draw(s, "KD")
    assert (s.stage == Stage.DAMAGE) is hit


def test_rks_9_2_5_germans_may_not_bombard_the_t34_but_air_support_may() -> None:
    """RKS-9.2.5: the Germans may not bombard the T-34; RKS-9.3.1: Air Force Support may, and a
    T-34 that is hit is eliminated (AMB-RKS-16)."""
    units = {"71": ("gorodishche", ["2C"]), "T-34": ("barrikady", [])}
    s = active("71", units, hands={GE: ["JD", "JS"]}, control={"gorodishche": GE})
    assert refused(s, Event("JD", "T-34")) == ("RKS-9.2.5",)
    s = draw(run(s, Event("JS", "T-34")), "3D")
    assert unit(s, "T-34").area is None and s.stage == Stage.ACTIVE


def test_rks_9_3_1_air_support_ignores_terrain_and_face_cards_miss() -> None:
    """RKS-9.3.1: Air Force Support uses the unrevised strength (a Rifle in a City stays 2) and
    a drawn face card misses even for the occupier of Mamayev Kurgan."""
    units = {"71": ("gorodishche", ["2C"]), "Rifle-2": ("barrikady", ["2H"]), "14Pz": (MK, ["3C"])}
    s = run(
        active("71", units, hands={GE: ["JS"]}, control={"gorodishche": GE}), Event("JS", "Rifle-2")
    )
    assert draw(s, "2D").stage == Stage.DAMAGE  # 2 >= 2, no City +2
    assert draw(s, "KD").stage == Stage.ACTIVE  # GE holds Mamayev Kurgan, still a miss


def test_amb_rks_16_bombardment_damage_readings() -> None:
    """AMB-RKS-16 (a): the target may retreat or lose a step; (b): only a step loss."""
    hit = draw(run(bombard(), Event("JS", "71")), "5D")
    assert any(isinstance(a, Retreat) for a in legal(hit))
    strict = draw(run(bombard(options={"bombard_damage": "step_only"}), Event("JS", "71")), "5D")
    assert all(isinstance(a, LoseStep) for a in legal(strict))


def test_rks_9_4_1_assault_gun_until_the_action_ends() -> None:
    """RKS-9.4.1: the acting German unit gets +2 in combat until its action ends; not for a
    Panzer Division."""
    units = {"71": ("orlovka", ["2C"]), "Rifle-2": ("gorodishche", ["2H"]), "14Pz": GREAR}
    s = run(
        active("71", units, hands={GE: ["QS", "QC"]}, control={"orlovka": GE}),
        Event("QS"),
        Move("gorodishche"),
    )
    c = s.combat
    assert c is not None and combat_strength(BOARD, s, c, "71") == 5
    pz = active("14Pz", {**units, "14Pz": (GREAR, ["3C"])}, hands={GE: ["QS"]})
    assert refused(pz, Event("QS")) == ("RKS-9.4.1",)
    done = run(active("71", units, hands={GE: ["QS"]}, control={"orlovka": GE}), Event("QS"), End())
    assert done.effects == ()


def test_rks_9_5_1_combat_engineer_cancels_the_city_for_the_next_combat() -> None:
    """RKS-9.5.1: in the acting German unit's next combat the City's revision of the enemy is
    cancelled (a Rifle in a City fights at 2, not 4); the effect is then spent."""
    units = {"71": ("gorodishche", ["2C", "3C"]), "Rifle-2": ("barrikady", ["2H"])}
    s = run(
        active("71", units, hands={GE: ["KS"]}, control={"gorodishche": GE}),
        Event("KS"),
        Move("barrikady"),
    )
    c = s.combat
    assert c is not None and "engineer" in c.effects
    assert combat_strength(BOARD, s, c, "Rifle-2") == 2
    assert s.effects == ()


def test_rks_9_6_1_sniper_discards_a_random_german_card() -> None:
    """RKS-9.6.1: the Sniper makes the German discard one hand card at random: a chance step
    over the German hand."""
    s = active("Rifle-2", {"Rifle-2": ("orlovka", ["2H"])}, hands={SU: ["JH"], GE: ["2C", "3C"]})
    s = run(s, Event("JH"))
    assert GAME.chance_outcomes(s) == [(Pick("2C"), Fraction(1, 2)), (Pick("3C"), Fraction(1, 2))]
    s = run(s, Pick("3C"))
    assert s.hand_ge == {"2C"} and "3C" in s.discards and s.stage == Stage.ACTIVE


def test_rks_9_7_1_molotov_adds_2_in_the_next_combat() -> None:
    """RKS-9.7.1: the acting Soviet unit gets +2 in its next combat (and through its repeats,
    AMB-RKS-20 iv)."""
    units = {"Rifle-2": ("orlovka", ["2H"]), "71": ("gorodishche", ["2C"])}
    s = run(
        active("Rifle-2", units, hands={SU: ["QH", "5H"]}, control={"gorodishche": GE}),
        Event("QH"),
        Move("gorodishche"),
    )
    c = s.combat
    assert c is not None and combat_strength(BOARD, s, c, "Rifle-2") == 4


def test_amb_rks_20_effects_through_repeats_or_first_round() -> None:
    """AMB-RKS-20 (iv): a "next combat" effect lasts through the repeats after a tie (standard)
    or only the first round."""
    units = {
        "Rifle-2": ("orlovka", ["2H"]),
        "13Gds": ("orlovka", []),
        "71": ("gorodishche", ["2C"]),
    }
    for reading, kept in (("through_repeats", True), ("first_round", False)):
        s = active(
            "13Gds",
            units,
            hands={SU: ["QH", "2D", "5H"]},
            control={"gorodishche": GE},
            options={"effect_duration": reading},
        )
        s = run(s, Event("QH"), Move("gorodishche"), Play("2D"), Play("2C"), Stand())
        c = s.combat
        assert c is not None and c.refight and ("molotov" in c.effects) is kept


def test_amb_rks_20_effects_stack_or_not() -> None:
    """AMB-RKS-20 (iv): two Molotov Cocktails add +4 (standard) or +2."""
    units = {"Rifle-2": ("orlovka", ["2H"]), "71": ("gorodishche", ["2C"])}
    for reading, want in (("stack", 6), ("once", 4)):
        s = active(
            "Rifle-2",
            units,
            hands={SU: ["QH", "QD"]},
            control={"gorodishche": GE},
            options={"effect_stacking": reading},
        )
        s = run(s, Event("QH"), Event("QD"), Move("gorodishche"))
        assert s.combat is not None
        assert combat_strength(BOARD, s, s.combat, "Rifle-2") == want


def chuikov(**kw: Any) -> RKState:
    units = {"Rifle-2": ("orlovka", ["2H"]), "71": ("gorodishche", ["2C", "9C"])}
    s = active("Rifle-2", units, hands={SU: ["KH", "5H"]}, control={"gorodishche": GE}, **kw)
    return run(s, Event("KH"), Move("gorodishche"))


def test_rks_9_8_1_chuikov_the_german_places_first_face_up() -> None:
    """RKS-9.8.1: in the next combat the German puts his card down first and the Soviet sees it
    before placing his; by AMB-RKS-20 (iii) the German also raises first, face up."""
    s = chuikov()
    c = s.combat
    assert c is not None and c.step == Step.DEFENCE and GAME.to_move(s) == GE
    s = run(s, Play("2C"))
    view = observe(GAME_RULES, s, SU)
    assert view["combat"]["defence"]["card"] == "2C"  # seen by the Soviet
    assert GAME.to_move(s) == SU and s.combat is not None and s.combat.step == Step.ATTACK
    s = run(s, Play("2H"))
    assert s.combat is not None and s.combat.raiser == GE  # the German raises first
    s = run(s, Play("9C"))
    assert observe(GAME_RULES, s, SU)["combat"]["defence"]["card"] == "9C"


def test_amb_rks_20_chuikov_declaration_only() -> None:
    """AMB-RKS-20 (iii): by the other reading the raises go as usual: the Soviet attacker first,
    and the German's raise is face down."""
    options = {"chuikov_raises": "declaration_only", "raising": "alternating"}
    s = run(chuikov(options=options), Play("2C"), Play("2H"))
    assert s.combat is not None and s.combat.raiser == SU
    s = run(s, Play("5H"), Play("9C"))
    assert observe(GAME_RULES, s, SU)["combat"]["defence"]["card"] == "face-down"


def test_rks_9_8_2_chuikov_flips_a_soviet_unit_face_up() -> None:
    """RKS-9.8.2: instead, the Soviet discards General Chuikov to turn any flipped Soviet unit
    face up; a face-up unit is no target. AMB-RKS-20 (ii): by the other reading this is also a
    Player Turn of its own, without an acting unit."""
    units = {"Rifle-2": ("orlovka", ["2H"]), "13Gds": SREAR, "71": GREAR}
    s = active("Rifle-2", units, hands={SU: ["KH"]}, flipped={"13Gds"})
    assert refused(s, Event("KH", "71")) == ("RKS-9.8.2",)
    s = run(s, Event("KH", "13Gds"))
    assert not unit(s, "13Gds").flipped and "KH" in s.discards
    own = position(
        units,
        hands={SU: ["KH"]},
        flipped={"13Gds"},
        player=SU,
        options={"event_timing": "player_turn_too"},
    )
    own = run(own, Event("KH", "13Gds"))
    assert not unit(own, "13Gds").flipped and own.player == GE


def _bombard_beside(**options: str) -> RKState:
    """Rifle-2 acts in Gorodishche, which the Germans hold with 71 (no steps) and 295; the
    Soviet bombards 71 and draws a hit."""
    units = {
        "Rifle-2": ("gorodishche", ["2H"]),
        "71": ("gorodishche", []),
        "295": ("gorodishche", ["5C"]),
    }
    s = active("Rifle-2", units, hands={SU: ["JS"]}, control={"gorodishche": GE}, options=options)
    return draw(run(s, Event("JS", "71")), "5D")


def test_amb_rks_16_bombardment_isolation_readings() -> None:
    """AMB-RKS-16 (further gap), RKS-9.2.2, RKS-8.10.1, RKS-8.10.2, RKS-3.6.3: 71 is bombarded
    out of Gorodishche (it retreats into the German Rear). By the kernel note (`no`) 295 just
    stays and the Germans keep the Area; by `yes` the German must retreat 295 too or leave it
    isolated, and an isolated 295 hands the Area to the Soviets."""
    note = run(_bombard_beside(), Retreat("71", GREAR))
    assert note.stage == Stage.ACTIVE and not unit(note, "295").isolated
    assert controller(BOARD, note, "gorodishche") == GE

    s = run(_bombard_beside(bombard_isolation="yes"), Retreat("71", GREAR))
    assert s.stage == Stage.ISOLATION and GAME.to_move(s) == GE
    assert set(legal(s)) == {Retreat("295", GREAR), Isolate("295")}
    kept = run(s, Isolate("295"))
    assert kept.stage == Stage.ACTIVE and kept.combat is None and GAME.to_move(kept) == SU
    assert unit(kept, "295").isolated and controller(BOARD, kept, "gorodishche") == SU
    gone = run(s, Retreat("295", GREAR))
    assert unit(gone, "295").area == GREAR and unit(gone, "295").flipped


def test_amb_rks_16_bombardment_isolation_needs_the_bombarding_side_present() -> None:
    """AMB-RKS-16 `bombard_isolation=yes`, RKS-9.2.1, RKS-8.10.1: a target bombarded from the
    next Area leaves no one to isolate its neighbours against, so play goes straight back to
    the acting unit."""
    units = {"295": ("gorodishche", ["5C"]), "T-34": None}
    s = draw(
        run(bombard(units=units, options={"bombard_isolation": "yes"}), Event("JS", "71")), "5D"
    )
    s = run(s, Retreat("71", GREAR))
    assert s.stage == Stage.ACTIVE and not unit(s, "295").isolated


def test_rks_9_4_1_assault_gun_on_panzer_no_effect_discards_for_nothing() -> None:
    """RKS-9.4.1, RKS-9.1.3 (assault_gun_on_panzer): under `not_played` (both presets) an acting
    Panzer may not play the Assault Gun; under `no_effect` it may, the card is discarded, the
    Panzer acted, and no effect is in force: its strength is unchanged."""
    units = {"71": ("orlovka", ["2C"]), "14Pz": (GREAR, ["3C"])}
    base = active("14Pz", units, hands={GE: ["QS"]})
    assert refused(base, Event("QS")) == ("RKS-9.4.1",)
    s = with_options(base, assault_gun_on_panzer="no_effect")
    assert Event("QS") in legal(s)
    after = run(s, Event("QS"))
    assert "QS" in after.discards and not after.hand_ge
    assert after.effects == () and after.acted and after.acting == "14Pz"
