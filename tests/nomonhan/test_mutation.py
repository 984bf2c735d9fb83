"""Mutation: break one rule in the Python code and the refinement check fails, naming the
clause. The proofs speak of the symbolic model; this is what ties them to the code that runs.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from solvers.checking import prover, refinement
from specs.nomonhan.formal import symbolic_actions
from specs.nomonhan.formal.properties import NO_STACKING, no_stacking
from specs.nomonhan.formal.verification import Link, symbolic_model
from specs.nomonhan.rules import resolve, sequence
from specs.nomonhan.rules.actions import Loss, Roll
from specs.nomonhan.rules.state import Phase, Stage
from tests.nomonhan.positions import GAME, JP_KOB, SU_9, SU_36, position


def link(preset: str) -> Link:
    model = symbolic_model(GAME.presets()[preset])
    assert model is not None
    return model


def test_nom_6_2_turn_that_goes_on_after_an_initiative_change_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Mutant: an IP unit's retreat or step loss no longer ends the turn (NOM-6.2, NOM-5.3)."""
    monkeypatch.setattr(
        sequence, "initiative_change", lambda board, state: resolve.continue_damage(board, state)
    )
    report = refinement.run(GAME, link("ja"), "ja", games=30, stop_after=1)
    assert not report.ok
    m = report.mismatches[0]
    assert m.direction == "a"
    assert m.schema in ("step_loss", "retreat")
    assert m.clauses == ("NOM-6.2",)
    assert "changed: model True, rules False" in m.detail


def _damage_to_su_36(preset: str) -> Any:
    """JP-KOB attacks SU-36-149, which has SU-9 beside it, and wins its roll."""
    state = position(
        {JP_KOB: "0505", SU_36: "0506", SU_9: "0606"},
        preset=preset,
        phase=Phase.IP_COMBAT,
        stage=Stage.DECLARE,
    )
    state = GAME.apply(state, GAME.legal_actions(state)[0])
    assert state.stage == Stage.ROLL
    rolls = [a for a, _ in GAME.chance_outcomes(state) if isinstance(a, Roll)]
    best = max(rolls, key=lambda a: a.attacker_hits)
    state = GAME.apply(state, best)
    assert state.stage == Stage.DAMAGE
    return state


def test_nom_9_26_retreat_into_a_friendly_unit_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mutant: a retreat may enter a hex held by a friendly unit (NOM-9.26)."""
    original = resolve.retreat_problem

    def lax(board: Any, state: Any, unit_id: str, to: Any) -> tuple[str, str] | None:
        problem = original(board, state, unit_id, to)
        return None if problem is not None and problem[0] == "NOM-9.26" else problem

    monkeypatch.setattr(resolve, "retreat_problem", lax)
    model = link("ja")
    state = _damage_to_su_36("ja")
    onto_friend = Loss(SU_36, state.unit(SU_9).hex)
    assert onto_friend in GAME.legal_actions(state)  # the mutant allows it
    after = GAME.apply(state, onto_friend)
    assert not no_stacking(after)  # and the code now stacks two units
    m = refinement.check_step(model, state, onto_friend, after, "mutant retreat")
    assert m is not None
    assert m.schema == "retreat"
    assert m.clauses == ("NOM-9.26",)
    succ = refinement.Successors(model)
    problems, _ = refinement.check_position(GAME, model, succ, state, "mutant position")
    assert any(p.direction == "a" and p.clauses == ("NOM-9.26",) for p in problems)
    assert any(p.direction == "b" for p in problems)  # no model step leads there either


def test_unmutated_rules_pass_the_same_checks() -> None:
    """The same position and playouts with the rules as written: no mismatch (so the failures
    above come from the mutations)."""
    model = link("ja")
    state = _damage_to_su_36("ja")
    assert Loss(SU_36, state.unit(SU_9).hex) not in GAME.legal_actions(state)
    succ = refinement.Successors(model)
    problems, _ = refinement.check_position(GAME, model, succ, state, "position")
    assert not problems
    assert refinement.run(GAME, model, "ja", games=30, stop_after=1).ok


def test_nom_8_6_model_without_the_empty_destination_rule_loses_its_proof(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The proofs are not vacuous: drop NOM-8.6 from the model's Move guard and, under EN
    (friendly units may be passed through, AMB-NOM-23, so only NOM-8.6 keeps a move from
    ending on one), no-stacking is refuted by a one-move witness instead of proved."""
    original = symbolic_actions.Move.guard

    def without_8_6(self: Any, o: Any, s: Any, c: Any) -> Any:
        return [g for g in original(self, o, s, c) if g.clause != "NOM-8.6"]

    monkeypatch.setattr(symbolic_actions.Move, "guard", without_8_6)
    model = Link(GAME.presets()["en"])  # a fresh model, built with the mutant guard
    statement = model.formal()[NO_STACKING]
    assert isinstance(statement, prover.Invariant)
    formal = attrs.evolve(statement, depth=2)
    v = prover.check(model.system, formal)
    assert v.status == "refuted"
    assert v.trace is not None and [name for name, _ in v.trace.steps] == ["move"]
