"""Control of the Areas and the end of isolation (RKS-3.6.1 to RKS-3.6.3, RKS-8.10.6,
AMB-RKS-10, AMB-RKS-11)."""

from __future__ import annotations

from typing import Any

from specs.rattenkrieg.rules.actions import End, Move, Pass, Pay
from specs.rattenkrieg.rules.control import controller
from specs.rattenkrieg.rules.state import GE, SU, Stage
from tests.rattenkrieg.positions import (
    ARROWS,
    GAME,
    GREAR,
    SREAR,
    B,
    active,
    finish_recruiting,
    position,
    run,
    unit,
)


def test_rks_3_6_1_the_soviets_control_all_of_stalingrad_at_the_start() -> None:
    """RKS-3.6.1: every one of the 12 Areas is Soviet at the start, even the empty ones."""
    s = GAME.initial_state(GAME.presets()["standard"])
    assert all(controller(B, s, a) == SU for a in B.stalingrad)


def test_rks_3_6_2_control_changes_at_once_and_stays_when_the_area_empties() -> None:
    """RKS-3.6.2: an Area with units of only one side is that side's at once; when the units
    leave, the Area stays with them (AMB-RKS-11 a)."""
    s = active("71", {"71": (GREAR, ["2C"])}, hands={GE: ["3C"]})
    s = run(s, Move("orlovka"), Pay("3C"))
    assert controller(B, s, "orlovka") == GE
    s = run(s, Move(GREAR))
    assert controller(B, s, "orlovka") == GE and not any(B.units_in(s, "orlovka"))


def test_rks_3_6_3_isolated_units_do_not_count_for_control() -> None:
    """RKS-3.6.3: an Area with a German unit and isolated Soviet units is German."""
    s = position(
        {"71": ("orlovka", ["2C"]), "Rifle-2": ("orlovka", ["2H"])},
        isolated={"Rifle-2"},
        control={"orlovka": GE},
    )
    assert controller(B, s, "orlovka") == GE


def test_rks_8_10_6_isolation_ends_when_the_area_becomes_friendly() -> None:
    """RKS-8.10.6: the isolated Rifle is freed the moment a Soviet unit makes its Area Soviet
    again (here after the German left it)."""
    s = active(
        "13Gds",
        {"Rifle-2": ("orlovka", ["2H"]), "13Gds": ("gorodishche", ["5H"])},
        isolated={"Rifle-2"},
        control={"orlovka": GE, "gorodishche": SU},
        hands={SU: ["6H"]},
    )
    assert unit(s, "Rifle-2").isolated
    s = run(s, Move("orlovka"), Pay("6H"))
    assert controller(B, s, "orlovka") == SU and not unit(s, "Rifle-2").isolated


def test_amb_rks_11_a_contested_area() -> None:
    """AMB-RKS-11 (a): an Area with both sides' (non-isolated) units stays with its controller;
    (b) it has none, and a contested arrow Area denies the German victory (RKS-4.1.1)."""
    germans: dict[str, Any] = {
        g: (a, []) for g, a in zip(["14Pz", "24Pz", "29Mot"], ARROWS, strict=True)
    }
    units = {**germans, "Rifle-2": (ARROWS[0], ["2H"]), "13Gds": SREAR}
    for reading, held, winner in (("last_controller", GE, GE), ("uncontrolled", None, SU)):
        s = position(
            units,
            control=dict.fromkeys(ARROWS, GE),
            options={"contested_control": reading},
            turn=6,
            player=SU,
            passes=1,
        )
        assert controller(B, s, ARROWS[0]) == held
        s = finish_recruiting(run(s, Pass()))
        assert s.stage == Stage.OVER and s.result is not None and s.result.winner == winner


def test_amb_rks_10_the_rears_and_control() -> None:
    """AMB-RKS-10 (a): a side's own Rear counts as friendly-controlled; (b) no Rear is."""
    s = position({"71": GREAR})
    assert controller(B, s, GREAR) == GE and controller(B, s, SREAR) == SU
    b = position({"71": GREAR}, options={"rear_control": "uncontrolled"})
    assert controller(B, b, GREAR) is None
    moved = run(
        active(
            "71",
            {"71": ("orlovka", ["2C"])},
            control={"orlovka": GE},
            options={"rear_control": "uncontrolled"},
        ),
        Move(GREAR),
        End(),
    )
    assert unit(moved, "71").area == GREAR  # a unit still moves into its own Rear freely
