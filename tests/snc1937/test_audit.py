"""An auditor's reading of the SNC rules against the code: each test states a rule of the text
(or one reading of a named option) on a small position played through the game's own actions.

- SNC-2.2.1.8, SNC-9.1.1: a static unit never moves, so the Chinese garrison of the coastal hex
  a 10th Army unit advances into (SNC-8.4.1.3) cannot retreat: it has nowhere to go
  (`retreat_blocked`, AMB-SNC-11).
- SNC-10.0.8: whether a unit is attacked at most once a phase by landings too
  (`landing_defended_once`, found here).
- SNC-9.1.3: which cities a moving Japanese group occupies, and so garrisons
  (`garrison_occupation`, AMB-SNC-16 (iv)).
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from kernel.errors import IllegalAction
from kernel.hexes import Hex, parse_hex
from specs.snc1937.data.variants import CATALOGUE
from specs.snc1937.game import SNC
from specs.snc1937.rules.actions import (
    AdvanceOn,
    Attack,
    Declare,
    Done,
    Join,
    Land,
    Loss,
    Move,
    Retreat,
    Roll,
    Strike,
)
from specs.snc1937.rules.state import JP, Order, Phase, SNCState, Step
from specs.snc1937.rules.tables import stacks

GAME = SNC()
T = GAME.tables
TENTH_ARMY = tuple(
    sorted(u.id for u in T.data.units if u.id.startswith(("JP-6D", "JP-18D", "JP-114D", "JP-9B")))
)
DIV_101 = ("JP-101D-1", "JP-101D-2", "JP-101D-3", "JP-101D-4")


def H(text: str) -> Hex:
    return parse_hex(text)


def position(
    turn: int, due: tuple[str, ...], options: dict[str, str] | None = None, **units: str
) -> SNCState:
    """Only the named units on the map (unit id with '_' for '-' -> hex) and `due` in this
    GT's TRT box, at the start of the Japanese player turn; every other unit dead."""
    s = GAME.initial_state(CATALOGUE.variant("standard", options or {}))
    where = {u.replace("_", "-"): H(h) for u, h in units.items()}
    where.setdefault("JP-G-SHANGHAI", H("3512"))
    dead = frozenset(T.spec) - set(where) - set(T.jp_garrisons) - set(due)
    return attrs.evolve(
        s,
        where=tuple(sorted(where.items())),
        trt=tuple(sorted((u, turn) for u in due)),
        dead=dead,
        turn=turn,
        side=JP,
        jp_control=frozenset({H("3512")}),
    )


def run(s: SNCState, *actions: Any) -> SNCState:
    for a in actions:
        s = GAME.apply(s, a)
    return s


def at(s: SNCState, h: str) -> tuple[str, ...]:
    return stacks(s.where).get(H(h), ())


# --- SNC-8.4.1.3 with SNC-2.2.1.8: a static unit in the 10th Army's second hex -------------------


def _tenth_army_ashore(options: dict[str, str] | None = None, **extra: str) -> SNCState:
    """GT 7: the 10th Army lands at 3408 (SNC-8.4.1.1) against garrison H; every hex next to
    3408 holds Chinese units, so its second hex may be the coastal 3509 (SNC-8.4.1.3), where
    the Baoshan garrison, a static unit, stands."""
    units = dict(CH_G_H="3408", CH_G_BAOSHAN="3509", CH_3D="3409", CH_6D="3309", CH_G_G="3308")
    units.update(extra)
    s = position(7, TENTH_ARMY, options, **units)
    s = run(s, Declare(Order.MOVE_MOVE), Done())  # a First Operations Phase with no move
    s = run(s, Land(TENTH_ARMY, H("3408")), Done(), Roll(6))  # SNC-8.4.0.4: no markers
    while s.step == Step.LOSS_D:
        s = run(s, GAME.legal_actions(s)[0])
    assert s.step == Step.ADVANCE_ON and at(s, "3408") == TENTH_ARMY
    return s


def test_snc_2_2_1_8_a_static_unit_never_retreats_from_the_tenth_army_second_hex() -> None:
    """SNC-8.4.1.3 retreats "the occupying Chinese units one hex", but a static unit never
    moves once placed, except to the dead pile (SNC-2.2.1.8, SNC-9.1.1): the Baoshan garrison
    is offered no retreat; with nowhere to go it is eliminated (retreat_blocked=eliminated,
    AMB-SNC-11) and the 10th Army unit enters 3509."""
    s = _tenth_army_ashore()
    s = run(s, AdvanceOn("JP-6D-1", H("3509")))
    assert not any(isinstance(a, Retreat) for a in GAME.legal_actions(s))
    assert s.step != Step.RETREAT
    assert "CH-G-BAOSHAN" in s.dead
    assert at(s, "3509") == ("JP-6D-1",)


def test_snc_2_2_1_8_a_static_unit_stays_when_blocked_retreats_stay() -> None:
    """Under retreat_blocked=stays (AMB-SNC-11) the garrison, having no hex to retreat into
    (SNC-2.2.1.8), stays in 3509, so the 10th Army unit cannot enter it (SNC-6.0.1)."""
    s = _tenth_army_ashore({"retreat_blocked": "stays"})
    s = run(s, AdvanceOn("JP-6D-1", H("3509")))
    assert s.step != Step.RETREAT
    assert at(s, "3509") == ("CH-G-BAOSHAN",)
    assert "JP-6D-1" in at(s, "3408")


def test_snc_8_4_1_3_mobile_units_retreat_and_the_static_unit_does_not() -> None:
    """A mobile Chinese unit beside the garrison in the second hex retreats one hex
    (SNC-8.4.1.3); the garrison is never the unit asked to retreat (SNC-2.2.1.8)."""
    s = _tenth_army_ashore(CH_7D="3509")
    s = run(s, AdvanceOn("JP-6D-1", H("3509")))
    assert s.step == Step.RETREAT
    offered = GAME.legal_actions(s)
    assert offered and {a.unit for a in offered if isinstance(a, Retreat)} == {"CH-7D"}
    s = run(s, offered[0])
    assert "CH-G-BAOSHAN" in s.dead and "CH-7D" not in s.dead
    assert at(s, "3509") == ("JP-6D-1",)


# --- SNC-10.0.8 and landings (landing_defended_once) ---------------------------------------


def _second_landing(options: dict[str, str] | None = None) -> SNCState:
    """GT 3: the 101st Division lands at 3509 (SNC-13.29); the regular 3rd Division there
    survives a 1/0 result and retreats into the landing hex 3510 (SNC-8.4.0.9), where the
    Wusong garrison stands; the Shigeto Detachment is still to land."""
    s = position(
        3,
        (*DIV_101, "JP-SHIGETO"),
        options,
        CH_G_BAOSHAN="3509",
        CH_3D="3509",
        CH_G_WUSONG="3510",
        CH_36D="3511",
    )
    s = run(s, Declare(Order.MOVE_MOVE), Done(), Land(DIV_101, H("3509")), Done(), Roll(1))
    assert s.step == Step.RETREAT
    s = run(s, Retreat("CH-3D", H("3510")))
    while s.step == Step.LOSS_A:
        s = run(s, GAME.legal_actions(s)[0])
    assert s.phase == Phase.REINF and s.step == Step.MAIN
    assert set(at(s, "3510")) == {"CH-3D", "CH-G-WUSONG"}
    return s


def test_snc_10_0_8_no_landing_against_a_unit_a_landing_attacked_this_phase() -> None:
    """SNC-10.0.8 read literally (landing_defended_once=applies): "defending units may not be
    attacked more than once per phase". The 3rd Division defended at 3509 and retreated into
    3510: no landing of this Reinforcement Phase may attack it again there."""
    s = _second_landing({"landing_defended_once": "applies"})
    lands = {a.hex for a in GAME.legal_actions(s) if isinstance(a, Land)}
    assert H("3510") not in lands
    assert {H("3308"), H("3408"), H("3610")} <= lands
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(s, Land(("JP-SHIGETO",), H("3510")))
    assert "SNC-10.0.8" in refused.value.clauses


def test_snc_10_0_8_landing_defended_once_exempt_lands_again() -> None:
    """Under landing_defended_once=exempt (both presets: the per-phase limits are the Fight
    phases', SNC-10.0.1) each landing fights whoever stands in its hex: the Shigeto
    Detachment lands at 3510 against the 3rd Division a second time (SNC-8.4.0.4)."""
    s = _second_landing()
    s = run(s, Land(("JP-SHIGETO",), H("3510")))
    assert s.combat is not None and s.combat.landing
    assert set(s.combat.defenders) == {"CH-3D", "CH-G-WUSONG"}


@pytest.mark.parametrize("reading", ["applies", "exempt"])
def test_snc_10_0_8_a_first_phase_attack_does_not_bar_a_landing(reading: str) -> None:
    """Attacked once "per phase": the Reinforcement Phase is a new phase, so a hex attacked
    in the First Operations Phase may still be a landing's target (SNC-10.0.8, SNC-5.1.1)."""
    s = position(
        3,
        ("JP-SHIGETO",),
        {"landing_defended_once": reading},
        JP_3D_1="3410",
        CH_G_WUSONG="3510",
        CH_36D="3511",
    )
    s = run(s, Declare(Order.FIGHT_MOVE), Attack(H("3510")), Join("JP-3D-1"), Strike())
    s = run(s, Done(), Roll(1))  # no markers; a roll of 1 at 1:2 (4 / 2 = 2 vs 3)
    while s.step in (Step.LOSS_A, Step.LOSS_D):
        s = run(s, GAME.legal_actions(s)[0])
    assert at(s, "3510") == ("CH-G-WUSONG",)  # the garrison held
    s = run(s, Done())
    assert s.phase == Phase.REINF
    assert Land(("JP-SHIGETO",), H("3510")) in GAME.legal_actions(s)
    assert all(not isinstance(a, Loss) for a in GAME.legal_actions(s))


# --- SNC-9.1.3: the garrison of a city the Japanese occupy (garrison_occupation) ---------------


def _through_suzhou(reading: str, *, stop_there: bool) -> SNCState:
    """A Japanese regiment moves from 2511 into the empty city 2410 (Suzhou) and, unless
    `stop_there`, on to 2409, in a Move phase of GT 6."""
    s = position(6, (), {"garrison_occupation": reading}, JP_3D_1="2511", CH_36D="3511")
    s = run(s, Declare(Order.MOVE_MOVE), Move(("JP-3D-1",), H("2410")))
    if not stop_there:
        s = run(s, Move(("JP-3D-1",), H("2409")))
    return run(s, Done())


def _japanese_garrison_in(s: SNCState, h: str) -> bool:
    return any(T.spec[u].side == JP and T.spec[u].is_static for u in at(s, h))


def test_snc_9_1_3_every_city_entered_garrisons_a_city_passed_through() -> None:
    """garrison_occupation=every_city_entered (both presets): entering Suzhou occupies it, so
    a garrison is placed there at once (SNC-9.1.3), though the regiment moves on; control
    passes on entering (SNC-3.2.2)."""
    s = _through_suzhou("every_city_entered", stop_there=False)
    assert at(s, "2409") == ("JP-3D-1",)
    assert _japanese_garrison_in(s, "2410")
    assert H("2410") in s.jp_control


def test_snc_9_1_3_where_units_stay_garrisons_only_where_the_move_ends() -> None:
    """garrison_occupation=where_units_stay (AMB-SNC-16 (iv)): a city passed through is not
    occupied, so no garrison is placed there; the city a move ends in is."""
    passed = _through_suzhou("where_units_stay", stop_there=False)
    assert not _japanese_garrison_in(passed, "2410")
    assert at(passed, "2410") == ()
    stayed = _through_suzhou("where_units_stay", stop_there=True)
    assert _japanese_garrison_in(stayed, "2410")
    assert "JP-3D-1" in at(stayed, "2410")
