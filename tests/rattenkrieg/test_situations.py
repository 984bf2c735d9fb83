"""Rattenkrieg's situations (`specs.rattenkrieg.formal.situations`): each distance is 0 where
its option's readings part, play steered by it reaches 0 from a corpus, and there the
explorer, on counts alone (`budget=None`, no corpus comparison, no call-graph steering, no
guided game), finds the pair `differ` with a witness that replays from the set-up. Built
positions check each distance against the rules: 0 where the next step parts the readings,
more where it does not."""

from __future__ import annotations

import json
from typing import Any

import pytest

from kernel.game import CHANCE
from solvers.checking.corpus import build_corpus
from solvers.checking.differences import compare, rebind, same_position
from solvers.checking.explore import reading_variant
from solvers.checking.situations import reading_situations, toward
from specs.rattenkrieg.rules.actions import Action, Event, LoseStep, Move, Play, Stand
from specs.rattenkrieg.rules.state import GE, SU, Phase, RKState, Stage
from tests.rattenkrieg.positions import CATALOGUE as CAT
from tests.rattenkrieg.positions import GAME, active, draw, position, run
from tools.testing.witnesses import assert_witness_holds, situation_only

CORPUS = build_corpus(GAME, seeds=6, max_steps=3_000)
NODES = 1_500
"""Positions steered play may evaluate in these tests (the explorer's own share is less)."""

REACHED = ("hand_limit", "reattack_effects", "chuikov_raises", "effect_stacking")
"""Options whose situation play steered by the distance reaches within `NODES` from this
corpus (effect_duration needs a tie in a combat with an event in force, bombard_isolation a
T-34 left beside the enemy: rarer than these counts reach)."""

PRESET = "standard"


def _readings(option: str) -> tuple[str, str]:
    """The preset's reading of `option` and the other one."""
    mine = CAT.preset(PRESET).reading(option)
    other = next(r.name for r in CAT.option(option).readings if r.name != mine)
    return mine, other


def _both(option: str, s: RKState) -> tuple[RKState, RKState]:
    """`s` under the preset's reading of `option` and under the other."""
    ra, rb = _readings(option)
    va, vb = (reading_variant(CAT, PRESET, option, r) for r in (ra, rb))
    return rebind(GAME, s, va), rebind(GAME, s, vb)


def _parts(option: str, s: RKState, action: Action) -> bool:
    """Whether `action`, taken at `s` under both readings of `option`, leads to different
    positions (or is refused by one of them)."""
    a, b = _both(option, s)
    legal_a, legal_b = action in GAME.legal_actions(a), action in GAME.legal_actions(b)
    if legal_a != legal_b:
        return True
    return legal_a and not same_position(GAME, GAME.apply(a, action), GAME.apply(b, action))


def _parts_now(option: str, s: RKState) -> bool:
    """Whether the readings part at `s` or one step on, whatever is done there."""
    a, b = _both(option, s)
    if compare(GAME, a, b) is not None:
        return True
    moves: list[Any]
    if GAME.to_move(a) == CHANCE:
        moves = [x for x, _ in GAME.chance_outcomes(a)]
    else:
        moves = list(GAME.legal_actions(a))
    return any(_parts(option, s, m) for m in moves)


def test_every_situation_is_an_option_of_the_catalogue() -> None:
    """The hook offers distances for options of the game only, and none for an option the
    game proves moot (strength_floor, engineer_scope: `formal.moot_readings`)."""
    names = {o.name for o in CAT.options}
    offered = set(reading_situations(GAME))
    assert offered <= names
    assert not offered & {"strength_floor", "engineer_scope"}
    assert set(REACHED) <= offered


@pytest.mark.parametrize("option", REACHED)
def test_steered_play_reaches_the_situation_and_the_readings_part_there(option: str) -> None:
    """The distance reaches 0 from the corpus positions within `NODES` positions, the actions
    the search gives lead there from the set-up, and there (or one step on) the readings
    part."""
    s = toward(GAME, CORPUS, PRESET, reading_situations(GAME)[option], nodes=NODES)
    assert s.reached and s.best == 0
    here = s.reached[0]
    state = GAME.initial_state(CAT.preset(PRESET))
    for action in here.actions:
        state = GAME.apply(state, action)
    assert state == here.state
    assert _parts_now(option, here.state)


@pytest.mark.parametrize("option", REACHED)
def test_the_explorer_finds_the_pair_differ_at_the_situation(option: str) -> None:
    """With counts only and every other search off, the pair differs thanks to the
    situation, and its witness replays from the set-up under both readings."""
    f = situation_only(GAME, option, CORPUS, NODES)
    assert f.verdict == "differ", f.detail
    assert f.witness is not None
    d = f.witness.difference
    assert_witness_holds(GAME, f)
    if d.kind == "result_of_action":
        action = GAME.action_from_json(json.loads(d.only_a[0]))
        ra, rb = _readings(option)
        a = GAME.initial_state(reading_variant(CAT, PRESET, option, ra))
        b = GAME.initial_state(reading_variant(CAT, PRESET, option, rb))
        for data in f.witness.log:
            step = GAME.action_from_json(data)
            a, b = GAME.apply(a, step), GAME.apply(b, step)
        assert not same_position(GAME, GAME.apply(a, action), GAME.apply(b, action))


# The distances at built positions: 0 exactly where the next step parts the readings.


def _distance(option: str, s: RKState) -> int:
    return reading_situations(GAME)[option](s)


def test_amb_rks_19_hand_limit_is_0_at_a_discard_above_the_refill_target() -> None:
    """AMB-RKS-19, RKS-10.1.1, RKS-10.1.2: at the German's Recruiting Phase discard with 4
    cards and a target of 3 (the Soviets hold Mamayev Kurgan, RKS-10.2.1) the distance is 0
    and keeping all four is legal by one reading only; with 3 cards it is not 0 and the
    readings allow the same discards."""
    units = {"71": "gorodishche", "Rifle-2": "orlovka"}

    def discard(hand: list[str]) -> RKState:
        return position(
            units,
            hands={GE: hand},
            phase=Phase.RECRUITING,
            stage=Stage.DISCARD,
            player=GE,
            control={"gorodishche": GE},
        )

    big, small = discard(["2C", "3C", "4C", "5C"]), discard(["2C", "3C", "4C"])
    assert _distance("hand_limit", big) == 0 and _parts_now("hand_limit", big)
    assert _distance("hand_limit", small) == 1 and not _parts_now("hand_limit", small)


def _chuikov(**options: str) -> RKState:
    """Rifle-2 plays General Chuikov and enters Gorodishche, held by 71 (RKS-9.8.1)."""
    units = {"Rifle-2": ("orlovka", ["2H"]), "71": ("gorodishche", ["2C", "9C"])}
    s = active(
        "Rifle-2", units, hands={SU: ["KH", "5H"]}, control={"gorodishche": GE}, options=options
    )
    return s


def test_rks_9_8_1_chuikov_raises_is_0_at_the_soviet_declaration() -> None:
    """RKS-9.8.1, AMB-RKS-20 (iii): under General Chuikov the German declares first; at the
    Soviet's declaration the distance is 0 and his card sends the raises to the German first
    by one reading, to himself by the other. At the German's declaration it is 1, and
    without Chuikov the combat counts for nothing."""
    s = run(_chuikov(), Event("KH"), Move("gorodishche"))
    assert _distance("chuikov_raises", s) == 1
    assert not _parts("chuikov_raises", s, Play("2C"))
    s = run(s, Play("2C"))
    assert _distance("chuikov_raises", s) == 0
    assert _parts("chuikov_raises", s, Play("2H"))
    plain = run(_chuikov(), Move("gorodishche"))
    assert _distance("chuikov_raises", plain) > 3


def _molotov(defence: str) -> RKState:
    """13Gds plays a Molotov Cocktail, enters Gorodishche held by 71 and declares with 2D;
    71 answers with `defence` (RKS-9.7.1, RKS-8.4.1, RKS-8.5.2)."""
    units = {"13Gds": ("orlovka", []), "71": ("gorodishche", ["2C", "9C"])}
    s = active("13Gds", units, hands={SU: ["QH", "2D", "5H"]}, control={"gorodishche": GE})
    return run(s, Event("QH"), Move("gorodishche"), Play("2D"), Play(defence))


def test_rks_8_7_4_effect_duration_is_0_at_a_tie_on_the_table() -> None:
    """RKS-8.7.4, AMB-RKS-20 (iv): with the Molotov Cocktail in force, 2D against 2C is a tie
    (both hit, each his colour: RKS-8.7.2, RKS-8.7.3); at the raises the distance is 0 and
    letting the cards stand repeats the round with the event kept or dropped. 2D against 9C
    is no tie, and the distance is not 0."""
    tie = _molotov("2C")
    assert _distance("effect_duration", tie) == 0
    assert _parts("effect_duration", tie, Stand())
    won = _molotov("9C")
    assert _distance("effect_duration", won) > 0
    assert not _parts("effect_duration", won, Stand())


def test_rks_9_7_1_effect_stacking_is_0_with_a_second_card_in_hand() -> None:
    """RKS-9.7.1, AMB-RKS-20 (iv): two Molotov Cocktails in hand are 1 away; once one is in
    force for the acting unit the distance is 0 and the second adds +2 or nothing."""
    units = {"Rifle-2": ("orlovka", ["2H"]), "71": ("gorodishche", ["2C"])}
    s = active("Rifle-2", units, hands={SU: ["QH", "QD"]}, control={"gorodishche": GE})
    assert _distance("effect_stacking", s) == 1
    assert not _parts("effect_stacking", s, Event("QH"))
    s = run(s, Event("QH"))
    assert _distance("effect_stacking", s) == 0
    assert _parts("effect_stacking", s, Event("QD"))


def test_rks_8_11_2_reattack_effects_is_0_when_the_attacker_must_attack_again() -> None:
    """RKS-8.11.2, RKS-9.7.1: 13Gds beats 71 with the Molotov Cocktail in force; 71 loses a
    step and stays, so 13Gds must attack again or retreat: the distance is 0 there and the
    new combat has the event or not. During the combat it is 1."""
    s = _molotov("9C")
    assert _distance("reattack_effects", s) == 1
    s = run(s, Stand(), LoseStep("71", "2C"))
    assert s.stage == Stage.CONTINUE
    assert _distance("reattack_effects", s) == 0
    assert _parts_now("reattack_effects", s)


def _bombard(units: dict[str, Any]) -> RKState:
    """Rifle-2 acts in Gorodishche, which the Germans hold; the Soviet bombards 71 (no steps)
    and draws a hit (RKS-9.2.2)."""
    s = active("Rifle-2", units, hands={SU: ["JS"]}, control={"gorodishche": GE})
    return draw(run(s, Event("JS", "71")), "5D")


def test_amb_rks_16_bombard_isolation_is_0_when_others_stay_beside_the_bombarding_side() -> None:
    """AMB-RKS-16, RKS-9.2.2, RKS-8.10.1: 71, bombarded where 295 and the Soviet Rifle-2
    stand, may retreat: the distance is 0 and the retreat leaves 295 to RKS-8.10.1 by one
    reading only. Alone with Rifle-2, 71's retreat leaves nobody: not 0, and no difference."""
    with_295 = _bombard(
        {"Rifle-2": ("gorodishche", ["2H"]), "71": ("gorodishche", []), "295": "gorodishche"}
    )
    assert _distance("bombard_isolation", with_295) == 0
    assert _parts_now("bombard_isolation", with_295)
    alone = _bombard({"Rifle-2": ("gorodishche", ["2H"]), "71": ("gorodishche", [])})
    assert _distance("bombard_isolation", alone) > 0
    assert not _parts_now("bombard_isolation", alone)
