"""The refinement check on real playouts: the symbolic model the prover reasons about is the
game the Python rules play (NOM-5 to NOM-9 as encoded in specs/nomonhan/symbolic*.py).

(a) every concrete step of the seeded games (GAMES) per preset, projected, is a transition of the
model; (b) at sampled positions every model transition is the projected result of a legal
action or chance outcome, and every legal action's result is a model transition.
"""

from __future__ import annotations

import pytest

from solvers.checking import refinement
from specs.nomonhan.formal.verification import Link, symbolic_model
from specs.nomonhan.rules.actions import Loss
from specs.nomonhan.rules.state import Phase, Stage
from tests.nomonhan.positions import GAME, JP_KOB, SU_9, SU_36, apply_all, position
from tests.sizes import size

PRESETS = sorted(GAME.presets())
GAMES = size(10, 100)  # tests.sizes: 100 in make bench
EVERY = size(50, 100)


def link(preset: str) -> Link:
    model = symbolic_model(GAME.presets()[preset])
    assert model is not None
    return model


@pytest.mark.parametrize("preset", PRESETS)
def test_model_refines_rules_on_seeded_playouts(preset: str) -> None:
    report = refinement.run(GAME, link(preset), preset, games=GAMES, every=EVERY)
    assert report.ok, "\n".join(str(m) for m in report.mismatches)
    assert report.steps > 100 * GAMES  # about 170 (ja) and 250 (en) steps a game
    assert report.positions > GAMES
    assert report.successors > report.positions  # most positions have several successors
    schemas = dict(report.schemas)
    for name in ("move", "enter", "end_phase", "declare", "roll", "step_loss", "retreat"):
        assert schemas.get(name, 0) > 0, f"no {name} step was checked"  # every kind of step
    print(
        f"refinement {preset}: {report.games} games, {report.steps} steps, "
        f"{report.positions} positions, {report.successors} successors, {report.seconds:.1f}s, "
        f"{schemas}"
    )


@pytest.mark.parametrize("preset", PRESETS)
def test_nom_9_24_damage_choices_match_both_ways(preset: str) -> None:
    """NOM-9.24 to NOM-9.27: at a damage point the model's successors (step losses, retreats)
    are exactly the projected results of the legal losses."""
    state = position(
        {JP_KOB: "0505", SU_36: "0506", SU_9: "0606"},
        preset=preset,
        phase=Phase.IP_COMBAT,
        stage=Stage.DECLARE,
    )
    m = link(preset)
    succ = refinement.Successors(m)
    state = apply_all(state, *GAME.legal_actions(state)[:1])
    while state.stage != Stage.DAMAGE:
        options = (
            [a for a, _ in GAME.chance_outcomes(state)]
            if state.stage in (Stage.ROLL, Stage.END_ROLL)
            else list(GAME.legal_actions(state))
        )
        # the roll with the largest attacker win, so that the defender takes damage
        state = GAME.apply(state, max(options, key=lambda a: getattr(a, "attacker_hits", 0)))
    problems, count = refinement.check_position(GAME, m, succ, state, f"{preset} damage")
    assert not problems, "\n".join(str(p) for p in problems)
    losses = [a for a in GAME.legal_actions(state) if isinstance(a, Loss)]
    results = {tuple(sorted(m.project(GAME.apply(state, a)).items())) for a in losses}
    assert count == len(results)
    assert any(a.retreat_to is None for a in losses) and any(a.retreat_to for a in losses)
