"""RKS-P-PICKS's bombarded unit (RKS-8.12.1, AMB-RKS-16, RKS-9.2.1, RKS-9.3.1) over
Rattenkrieg's abstraction (`specs.rattenkrieg.formal.symbolic`): the proof rests on each of its step
rules, the formal statement is false where the property is, and hand-made steps that record a
T-34's bombardment or damage to a unit no event may target are caught."""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from solvers.checking import prover, refinement
from solvers.checking.system import concrete_frame
from solvers.checking.terms import CONCRETE
from specs.rattenkrieg.formal import verification
from specs.rattenkrieg.formal.verification import PICKS, Link
from specs.rattenkrieg.rules.actions import Pass
from specs.rattenkrieg.rules.state import SU, Damage, Phase, RKState, Stage
from tests.rattenkrieg.positions import CATALOGUE, GAME, GAME_RULES, TW
from tests.rattenkrieg.symbolic_helpers import verdict_without

BOARD = GAME_RULES.board
RLIMIT = 50_000_000
RANDOM = {"lost_step": "random"}  # AMB-RKS-7 iii
AFTERMATH = "RKS-P-AFTERMATH"
RULES = [
    "damage recorded anew (another unit, or another cause) by bombardment",
    "damage recorded anew by bombardment or Air Force Support is its drawn target's",
    "while damage lasts a step",
]


def _acting(**kw: Any) -> RKState:
    """The Soviet T-34 acting in Tractor Works in the Player Turns, then changed by `kw`."""
    s = GAME.initial_state(CATALOGUE.preset("standard"))
    s = BOARD.update(s, "T-34", area=TW)
    s = attrs.evolve(s, phase=Phase.PLAYER_TURNS, stage=Stage.ACTIVE, player=SU, acting="T-34")
    return attrs.evolve(s, **kw)


def test_rks_8_9_1_picks_is_proved_with_random_lost_steps() -> None:
    """RKS-8.9.1, AMB-RKS-7 iii: with a lost step picked at random (damage lasting into the
    pick), RKS-P-PICKS is still proved by 1-induction (the presets prove it in `wargame
    verify`)."""
    link = Link(CATALOGUE.variant("standard", RANDOM))
    v = prover.check(link.system, link.formal()[PICKS], rlimit=RLIMIT)
    assert (v.status, v.method) == ("proved", "1-induction"), v.detail


@pytest.mark.parametrize("start", RULES)
def test_rks_8_12_1_the_picks_proof_rests_on_the_bombardment_rules(start: str) -> None:
    """RKS-8.12.1, AMB-RKS-16, RKS-9.2.1, RKS-8.9.1: without the rule that bombardment records
    no T-34's damage, the one that its damage is its target's, or the one that keeps the
    acting unit and the cause while damage lasts, RKS-P-PICKS is no longer inductive (Z3
    answers: no limit hit). Under lost_step=random, where damage lasts into a pick."""
    v = verdict_without(CATALOGUE.variant("standard", RANDOM), start, PICKS)
    assert v.status != "proved", v.detail
    assert v.method != "solver", v.detail


def test_rks_8_12_1_the_picks_statement_is_false_for_a_bombarded_t34() -> None:
    """RKS-8.12.1: a T-34 damaged by Air Force Support breaks RKS-P-PICKS and RKS-P-AFTERMATH,
    and the formal statement of RKS-P-PICKS over its projection fails too; the same T-34
    damaged in a combat breaks neither that part nor its statement."""
    link = verification.symbolic_model(CATALOGUE.preset("standard"))
    statement = link.formal()[PICKS]
    assert isinstance(statement, prover.Invariant)
    checks = {p.id: p.state_check for p in verification.properties()}
    picks, aftermath = checks[PICKS], checks[AFTERMATH]
    assert picks is not None and aftermath is not None

    def holds(s: RKState) -> bool:
        return bool(
            statement.holds(CONCRETE, concrete_frame(link.system.variables, link.project(s)))
        )

    bad = _acting(stage=Stage.DAMAGE, acted=True, damage=Damage("T-34", "air_support"))
    assert not picks(bad) and not aftermath(bad) and not holds(bad)
    fought = attrs.evolve(bad, damage=Damage("T-34", "combat"))
    assert picks(fought) and holds(fought)
    # a German unit far from the acting T-34 bombarded by the Soviet player
    far = next(u.id for u in bad.units if u.area is not None and u.area != TW and u.id != "T-34")
    assert BOARD.side_of[far] != SU and BOARD.unit(bad, far).area not in BOARD.adjacent[TW]
    aimed = attrs.evolve(bad, damage=Damage(far, "bombardment"))
    assert not picks(aimed) and not aftermath(aimed) and not holds(aimed)


def test_rks_8_12_1_a_t34_bombarded_and_kept_is_caught() -> None:
    """RKS-8.12.1, AMB-RKS-16, RKS-9.3.1: a step that records Air Force Support's damage for
    the T-34 is caught with RKS-8.12.1; the same damage to a Soviet Rifle breaks not that rule
    but the target's (Air Force Support is German and strikes an enemy)."""
    s = _acting()

    def clauses(after: RKState) -> tuple[str, ...]:
        link = Link(s.variant)
        link.known_step(s, Pass(), after)
        m = refinement.check_step(link, s, Pass(), after, "hand-made step")
        return () if m is None else m.clauses

    hit = attrs.evolve(s, stage=Stage.DAMAGE, acted=True, damage=Damage("T-34", "air_support"))
    assert "RKS-8.12.1" in clauses(hit)
    rifle = BOARD.update(s, "Rifle-1", area=TW)
    other = attrs.evolve(
        rifle, stage=Stage.DAMAGE, acted=True, damage=Damage("Rifle-1", "air_support")
    )
    assert "RKS-8.12.1" not in clauses(other) and "RKS-9.2.1" in clauses(other)
