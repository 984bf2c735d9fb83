"""The order of play: Player Turns until both pass, the Recruiting Phase, reinforcements, the
T-34's return and victory (RKS-4.1.1 to RKS-6.3.1, RKS-10.1.1 to RKS-10.3.1, AMB-RKS-1,
AMB-RKS-14, AMB-RKS-17, AMB-RKS-19, AMB-RKS-25)."""

from __future__ import annotations

from typing import Any

import pytest

from kernel.errors import IllegalAction
from kernel.game import CHANCE
from specs.rattenkrieg.rules.actions import Designate, Discard, End, Move, Pass, Pay
from specs.rattenkrieg.rules.state import GE, SU, Phase, RKState, Stage
from tests.rattenkrieg.positions import (
    ARROWS,
    GAME,
    GREAR,
    MK,
    SREAR,
    TW,
    draw,
    finish_recruiting,
    legal,
    position,
    run,
    unit,
)


def loop_end(s: RKState) -> RKState:
    """Both players pass in succession (RKS-5.1.2)."""
    return run(s, Pass(), Pass())


def test_rks_5_1_2_the_loop_ends_when_both_players_pass_in_succession() -> None:
    """RKS-5.1.2: German and Soviet Player Turns alternate; a pass followed by a non-pass does
    not end the loop, two passes in succession do, and the Recruiting Phase follows
    (RKS-5.1.1)."""
    s = position({"71": GREAR, "13Gds": (SREAR, ["2S"])}, hands={SU: ["3S"]})
    s = run(s, Pass())
    assert GAME.to_move(s) == SU and s.passes == 1
    s = run(s, Designate("13Gds"), End())
    assert GAME.to_move(s) == GE and s.passes == 0 and s.phase == Phase.PLAYER_TURNS
    s = run(s, Pass())
    assert s.phase == Phase.PLAYER_TURNS
    s = run(s, Pass())
    assert s.phase == Phase.RECRUITING and s.stage == Stage.DISCARD


def test_rks_5_1_3_the_german_player_turn_comes_first() -> None:
    """RKS-5.1.3: every turn's Player Turns begin with the German."""
    s = position({"71": GREAR, "13Gds": SREAR}, turn=3, player=SU, passes=1)
    s = finish_recruiting(run(s, Pass()))
    assert s.turn == 4 and s.phase == Phase.PLAYER_TURNS and GAME.to_move(s) == GE


def test_amb_rks_1_idle_activation_reading() -> None:
    """AMB-RKS-1 (b): a player passes by designating a unit that does nothing (it is flipped);
    passing without a unit is allowed only when none can be designated (RKS-7.4.1)."""
    s = position({"71": GREAR, "13Gds": SREAR}, options={"pass_rule": "idle_activation"})
    assert Pass() not in legal(s)
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Pass())
    assert err.value.clauses == ("RKS-7.4.1",)
    s = run(s, Designate("71"), End())
    assert unit(s, "71").flipped and s.passes == 1
    s = run(s, Designate("13Gds"), End())
    assert s.phase == Phase.RECRUITING


def test_amb_rks_1_every_turn_reading_ends_after_two_player_turns() -> None:
    """AMB-RKS-1 (a): every activation ends with a pass, so one German and one Soviet Player
    Turn end the loop, however much was done."""
    s = position(
        {"71": GREAR, "13Gds": SREAR}, options={"pass_rule": "every_turn"}, hands={GE: ["2C"]}
    )
    s = run(s, Designate("71"), Move("orlovka"), Pay("2C"), End())
    assert s.passes == 1 and GAME.to_move(s) == SU
    s = run(s, Designate("13Gds"), End())
    assert s.phase == Phase.RECRUITING


def test_amb_rks_1_standard_pass_is_designating_no_unit() -> None:
    """AMB-RKS-1 (c): an activation that does nothing is not a pass; a pass flips nothing."""
    s = position({"71": GREAR, "13Gds": SREAR})
    s = run(s, Designate("71"), End())
    assert s.passes == 0 and unit(s, "71").flipped
    s = run(s, Pass())
    assert s.passes == 1 and not unit(s, "13Gds").flipped


def test_rks_5_1_1_reinforcement_phase_only_on_turns_2_and_3() -> None:
    """RKS-5.1.1, RKS-6.1.1, RKS-6.1.2: after Turn 1 the Germans 16Pz and 100J enter the
    German Rear and are dealt their steps (4 and 1); RKS-6.2.1, RKS-6.2.2: after Turn 2, 39Gds
    enters the Soviet Rear with 3 steps; no unit arrives on Turn 4."""
    s = position({"71": GREAR, "13Gds": SREAR}, turn=1, player=SU, passes=1)
    s = run(s, Pass())
    s = finish_recruiting(s)
    assert s.turn == 2 and s.phase == Phase.REINFORCEMENT and GAME.to_move(s) == CHANCE
    assert unit(s, "16Pz").area == GREAR and unit(s, "100J").area == GREAR
    assert [d.who for d in s.draws] == ["16Pz"] * 4 + ["100J"]
    while GAME.to_move(s) == CHANCE:
        s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
    assert len(unit(s, "16Pz").steps) == 4 and len(unit(s, "100J").steps) == 1
    assert s.phase == Phase.PLAYER_TURNS and GAME.to_move(s) == GE
    s = finish_recruiting(run(s, Pass(), Pass()))
    assert s.turn == 3 and unit(s, "39Gds").area == SREAR
    while GAME.to_move(s) == CHANCE:
        s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
    assert len(unit(s, "39Gds").steps) == 3
    s = finish_recruiting(run(s, Pass(), Pass()))
    assert s.turn == 4 and GAME.to_move(s) == GE  # no Reinforcement Phase draws


def test_amb_rks_25_arrivals_flipped_reading() -> None:
    """AMB-RKS-25: reinforcements arrive face up and may act (standard), or flipped."""
    for reading, flipped in (("face_up", False), ("flipped", True)):
        s = position(
            {"71": GREAR, "13Gds": SREAR},
            turn=1,
            player=SU,
            passes=1,
            options={"arrival_state": reading},
        )
        s = finish_recruiting(run(s, Pass()))
        assert unit(s, "16Pz").flipped is flipped


def _revival(options: dict[str, str], lost: int, turn: int, tw: str = SU) -> RKState:
    """End of `turn - 1` with the T-34 eliminated on Turn `lost` and Tractor Works `tw`'s."""
    units = {"71": GREAR, "13Gds": SREAR}
    units |= {"14Pz": TW} if tw == GE else {}
    return position(
        units,
        turn=turn - 1,
        player=SU,
        passes=1,
        eliminated=(("T-34", lost),),
        options=options,
        control={TW: tw},
    )


@pytest.mark.parametrize(
    ("options", "lost", "turn", "tw", "back"),
    [
        ({}, 4, 5, SU, True),  # every turn, eliminated in the previous turn
        ({}, 3, 5, SU, False),  # two turns ago: the chance is lost (AMB-RKS-14 i)
        ({"t34_revival_window": "any_earlier"}, 3, 5, SU, True),
        ({}, 4, 5, GE, False),  # Tractor Works is German
        ({"t34_revival": "reinforcement_phases"}, 4, 5, SU, False),
        ({"t34_revival": "reinforcement_phases"}, 2, 3, SU, True),
    ],
)
def test_rks_6_3_1_the_t34_returns_to_tractor_works(
    options: dict[str, str], lost: int, turn: int, tw: str, back: bool
) -> None:
    """RKS-6.3.1: if the Soviets control Tractor Works and the T-34 was eliminated in the
    previous turn, it returns there; when this is checked is AMB-RKS-14."""
    s = finish_recruiting(run(_revival(options, lost, turn, tw), Pass()))
    while GAME.to_move(s) == CHANCE:
        s = GAME.apply(s, GAME.chance_outcomes(s)[0][0])
    assert s.turn == turn
    assert (unit(s, "T-34").area == TW) is back
    assert (s.eliminated_in("T-34") is None) is back


@pytest.mark.parametrize(("lost", "back"), [(3, True), (4, False), (2, False)])
def test_amb_rks_14_recruiting_phase_reading(lost: int, back: bool) -> None:
    """AMB-RKS-14 (c): the return is checked in the Recruiting Phase; in Turn 4's it needs an
    elimination in Turn 3 (the previous turn), and nothing is checked at the start of Turn 5."""
    s = _revival({"t34_revival": "recruiting_phase"}, lost, 5)
    assert s.turn == 4
    s = run(s, Pass())
    assert unit(s, "T-34").area is None
    s = finish_recruiting(s)
    assert s.turn == 5 and (unit(s, "T-34").area == TW) is back


def test_rks_10_1_1_and_10_1_2_discard_any_then_refill_to_three() -> None:
    """RKS-10.1.1: each player may discard any hand cards; RKS-10.1.2: a hand under 3 may be
    refilled to 3 from the deck. The German goes first here (`recruiting_order`)."""
    s = position(
        {"71": GREAR, "13Gds": SREAR, "Rifle-1": (MK, ["AS"])},
        hands={GE: ["2C", "3C", "4C", "5C"], SU: ["2H"]},
        player=SU,
        passes=1,
    )
    s = run(s, Pass())
    assert s.stage == Stage.DISCARD and GAME.to_move(s) == GE
    discards = [a for a in legal(s) if isinstance(a, Discard)]
    assert len({a.cards for a in discards}) == 16  # every subset of four cards
    assert {len(a.cards) for a in discards if not a.refill} == {2, 3, 4}  # refilling is optional
    no_refill = run(s, Discard(frozenset({"2C", "3C"}), refill=False))
    assert no_refill.hand_ge == {"4C", "5C"} and GAME.to_move(no_refill) == SU
    s = run(s, Discard(frozenset({"2C", "3C"})))
    assert {"2C", "3C"} <= s.discards
    s = draw(s, "9D")
    assert s.hand_ge == {"4C", "5C", "9D"} and GAME.to_move(s) == SU
    s = run(s, Discard(frozenset()))
    assert GAME.to_move(s) == CHANCE and len(s.draws) == 3  # SU occupies Mamayev Kurgan: 4


def test_rks_10_1_2_a_large_hand_is_kept_amb_rks_19() -> None:
    """AMB-RKS-19 (a): 3 is a refill target; a hand of 4 (filled up while the German occupied
    Mamayev Kurgan, RKS-10.2.1) keeps its cards. (b): a hard limit forces the discard down to
    3 once he no longer occupies it."""
    units = {"71": GREAR, "13Gds": SREAR, "Rifle-1": (MK, ["AS"])}
    hands = {GE: ["2C", "3C", "4C", "5C"], SU: ["2H"]}
    s = run(position(units, hands=hands, player=SU, passes=1), Pass())
    assert Discard(frozenset()) in legal(s)
    hard = position(units, hands=hands, player=SU, passes=1, options={"hand_limit": "hard_limit"})
    s = run(hard, Pass())
    assert Discard(frozenset()) not in legal(s)
    assert all(len(s.hand_ge - a.cards) <= 3 for a in legal(s) if isinstance(a, Discard))
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, Discard(frozenset()))
    assert err.value.clauses == ("RKS-10.2.1",)


@pytest.mark.parametrize(
    ("reading", "units", "ge_refill", "su_refill"),
    [
        ("controls", {"Rifle-1": (MK, ["AS"])}, 0, 4),
        ("controls", {"Rifle-1": (MK, ["AS"]), "71": (MK, ["2S"])}, 0, 4),  # contested: SU's
        ("present", {"Rifle-1": (MK, ["AS"]), "71": (MK, ["2S"])}, 1, 4),  # both are there
        ("sole_occupant", {"Rifle-1": (MK, ["AS"]), "71": (MK, ["2S"])}, 0, 3),
        ("sole_occupant", {}, 0, 3),  # empty: nobody occupies it
        ("controls", {}, 0, 4),  # empty but still Soviet-controlled
    ],
)
def test_rks_10_2_1_mamayev_kurgan_gives_four_cards_amb_rks_17(
    reading: str, units: dict[str, tuple[str, list[str]]], ge_refill: int, su_refill: int
) -> None:
    """RKS-10.2.1: the side occupying Mamayev Kurgan fills its hand to 4; who occupies it is
    AMB-RKS-17 (control, presence, or sole occupation)."""
    s = position(
        {"13Gds": SREAR, **units},
        hands={GE: ["2C", "3C", "4C"]},
        player=SU,
        passes=1,
        options={"occupying": reading},
    )
    s = run(s, Pass(), Discard(frozenset()))
    assert len(s.draws) == ge_refill
    s = draw(s, *sorted(s.deck)[:ge_refill])
    assert GAME.to_move(s) == SU and s.stage == Stage.DISCARD
    s = run(s, Discard(frozenset()))
    assert len(s.draws) == su_refill


def test_rks_10_3_1_every_unit_is_turned_face_up() -> None:
    """RKS-10.3.1: after the Recruiting Phase both sides' units are face up again."""
    s = position(
        {"71": GREAR, "14Pz": GREAR, "13Gds": SREAR},
        player=SU,
        passes=1,
        flipped={"71", "13Gds"},
    )
    s = finish_recruiting(run(s, Pass()))
    assert not any(u.flipped for u in s.units)


def test_recruiting_order_option() -> None:
    """The order of the Recruiting Phase is not stated (RKS-10.1.1): German first by default,
    Soviet first by option."""
    for reading, first in (("german_first", GE), ("soviet_first", SU)):
        s = position(
            {"71": GREAR, "13Gds": SREAR},
            player=SU,
            passes=1,
            options={"recruiting_order": reading},
        )
        assert GAME.to_move(run(s, Pass())) == first


@pytest.mark.parametrize("german_areas", [3, 2])
def test_rks_4_1_1_victory_at_the_end_of_turn_6(german_areas: int) -> None:
    """RKS-4.1.1: at the end of Turn 6 the German wins if he controls all three Areas joined to
    the Soviet Rear, else the Soviet; RKS-4.1.2: the game lasts six turns, no Turn 7."""
    held = list(ARROWS[:german_areas])
    germans = ["14Pz", "24Pz", "29Mot"]
    units: dict[str, Any] = {g: (a, []) for g, a in zip(germans, held, strict=False)}
    s = position({**units, "13Gds": SREAR}, turn=6, player=SU, passes=1)
    s = finish_recruiting(run(s, Pass()))
    assert s.stage == Stage.OVER and GAME.to_move(s) is None and s.turn == 6
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.clause == "RKS-4.1.1"
    assert outcome.winner == (GE if german_areas == 3 else SU)
    with pytest.raises(IllegalAction):
        GAME.apply(s, Pass())


def test_rks_4_1_1_no_victory_before_turn_6() -> None:
    """RKS-4.1.1, RKS-4.1.2: holding the three Areas earlier decides nothing."""
    units = {g: a for g, a in zip(["14Pz", "24Pz", "29Mot"], ARROWS, strict=True)}
    s = position({**units, "13Gds": SREAR}, turn=5, player=SU, passes=1)
    s = finish_recruiting(run(s, Pass()))
    assert s.turn == 6 and s.result is None


def test_rks_5_1_2_a_player_without_face_up_units_can_only_pass() -> None:
    """RKS-5.1.2, RKS-7.4.2: with every unit flipped (and no recruit) the only action is to
    pass."""
    s = position({"71": "orlovka", "13Gds": SREAR}, flipped={"71"}, control={"orlovka": GE})
    assert legal(s) == [Pass()]


def test_rks_10_1_2_refill_amount_partial_draws_fewer_cards() -> None:
    """RKS-10.1.2 (refill_amount): under `all_or_nothing` (both presets) a German hand of 1
    is filled up to 3 or not at all; under `partial` he may draw just 1 card and keep 2."""
    units = {"71": GREAR, "13Gds": SREAR, "Rifle-1": (MK, ["AS"])}
    hands = {GE: ["2C"], SU: ["2H"]}
    s = run(position(units, hands=hands, player=SU, passes=1), Pass())
    assert s.stage == Stage.DISCARD and GAME.to_move(s) == GE
    one = Discard(frozenset(), True, 1)
    assert len(legal(s)) == 4 and one not in legal(s)
    with pytest.raises(IllegalAction) as err:
        run(s, one)
    assert err.value.clauses == ("RKS-10.1.2",)
    p = run(
        position(units, hands=hands, player=SU, passes=1, options={"refill_amount": "partial"}),
        Pass(),
    )
    assert len(legal(p)) == 7 and one in legal(p) and Discard(frozenset(), True, 2) not in legal(p)
    p = run(p, one)
    assert GAME.to_move(p) == CHANCE and len(p.draws) == 1
    p = draw(p, "9D")
    assert p.hand_ge == {"2C", "9D"} and GAME.to_move(p) == SU
