"""Nomonhan's declared properties on real play: each concrete check after every step of
hypothesis playouts (where the property is expected to hold), each formal statement agreeing
with its concrete check on the projected states, and witnesses that replay as games.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.game import CHANCE
from kernel.playout import CycleWatch
from solvers.checking import prover, refinement
from solvers.checking.prover import Invariant, StepInvariant
from solvers.checking.system import concrete_frame
from solvers.checking.terms import CONCRETE
from specs.nomonhan.formal.properties import (
    ARTILLERY_NO_RETREAT,
    BREACHES,
    ENDS,
    HOLDS_UNDER,
    INITIATIVE_ENDS_TURN,
    PENDING_IN_CONTACT,
    POINTS,
    pending_in_contact,
    properties,
)
from specs.nomonhan.formal.verification import Link, symbolic_model
from specs.nomonhan.rules.state import Stage
from tests.nomonhan.positions import GAME, SU_ART
from tests.sizes import FULL

PRESETS = sorted(GAME.presets())
PROPS = {p.id: p for p in properties()}


def link(preset: str) -> Link:
    model = symbolic_model(GAME.presets()[preset])
    assert model is not None
    return model


def formal_holds(model: Link, pid: str, before: Any, after: Any) -> bool | None:
    """The formal statement on the projected step (None for termination)."""
    f = model.formal()[pid]
    a = concrete_frame(model.system.variables, model.project(before))
    b = concrete_frame(model.system.variables, model.project(after))
    if isinstance(f, Invariant):
        return bool(f.holds(CONCRETE, b))
    if isinstance(f, StepInvariant):
        return bool(f.holds(CONCRETE, a, b))
    return None


def test_every_property_is_declared_for_both_presets_with_clauses() -> None:
    assert set(PROPS) == {
        "NOM-P-INITIATIVE-ENDS-TURN",
        "NOM-P-INITIATIVE-PARITY",
        "NOM-P-NO-STACKING",
        "NOM-P-ZOC-EXIT",
        "NOM-P-ARTILLERY-NO-RETREAT",
        "NOM-P-POINTS",
        "NOM-P-PENDING-IN-CONTACT",
        "NOM-P-OFF-MAP",
        "NOM-P-REINFORCEMENTS-ON-TIME",
        "NOM-P-SUDDEN-DEATH",
        "NOM-P-STAGE-RECORDS",
        "NOM-P-ENDS",
    }
    for p in PROPS.values():
        assert set(p.expected) == set(PRESETS), p.id
        assert p.clauses and all(c.startswith("NOM-") for c in p.clauses)
        assert p.formal
        for preset in PRESETS:
            assert p.id in link(preset).formal()


def test_nom_9_28_artillery_expectation_follows_the_artillery_reading() -> None:
    """NOM-9.28 binds the JA Artillery; EN's generic Artillery may retreat (AMB-NOM-15)."""
    assert PROPS[ARTILLERY_NO_RETREAT].expected == {"ja": "holds", "en": "fails"}
    assert PROPS[ENDS].expected == {"ja": "fails", "en": "fails"}  # NOM-5.2


def test_nom_3_model_starts_at_the_set_up() -> None:
    """NOM-3.1 to NOM-3.4, NOM-6.1: the model's initial state, built from the data file, is the
    projection of the rules' initial position."""
    for preset in PRESETS:
        m = link(preset)
        assert m.project(GAME.initial_state(GAME.presets()[preset])) == m.system.initial()


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_properties_after_every_step_of_playouts(preset: str, data: st.DataObject) -> None:
    """Each concrete check holds after every step where the property is expected to hold, and
    the formal statement gives the same answer as the concrete check on the projected step."""
    m = link(preset)
    state = GAME.initial_state(GAME.presets()[preset])
    for _ in range(data.draw(st.integers(20, 250))):
        side = GAME.to_move(state)
        if side is None:
            break
        if side == CHANCE:
            options = [a for a, _ in GAME.chance_outcomes(state)]
        else:
            options = list(GAME.legal_actions(state))
        if not options:
            break
        action = data.draw(st.sampled_from(options))
        after = GAME.apply(state, action)
        for p in PROPS.values():
            concrete = p.holds_in(after) and p.holds_on(state, action, after)
            if p.expected[preset] == "holds":
                assert concrete, f"{p.id} broken by {GAME.action_to_json(action)}"
            formal = formal_holds(m, p.id, state, after)
            if formal is not None:
                assert formal == concrete, f"{p.id}: formal {formal}, concrete {concrete}"
        state = after


def test_nom_6_2_initiative_change_step_check_catches_a_turn_that_goes_on() -> None:
    """NOM-6.2, NOM-5.3: a step leaving an IP loss without the turn ending is refused by the
    concrete check (so the check can fail)."""
    check = PROPS[INITIATIVE_ENDS_TURN].step_check
    assert check is not None
    rng = random.Random(3)
    state = GAME.initial_state(GAME.presets()["ja"])
    for _ in range(3000):  # find a real IP loss, then pretend the turn went on
        if GAME.to_move(state) is None:
            break
        options = (
            [a for a, _ in GAME.chance_outcomes(state)]
            if GAME.to_move(state) == CHANCE
            else list(GAME.legal_actions(state))
        )
        action = rng.choice(options)
        after = GAME.apply(state, action)
        if after.turn_ending and not state.turn_ending:
            assert check(state, action, after)
            faked = attrs.evolve(after, turn_ending=False, stage=Stage.PICK)
            assert not check(state, action, faked)
            return
        state = after
    pytest.fail("no initiative change in 3000 steps")


def test_nom_4_5_points_check_sees_a_wrong_score() -> None:
    """NOM-4.5, NOM-4.6: the points check compares the rules' score with removed enemy steps."""
    check = PROPS[POINTS].state_check
    assert check is not None
    start = GAME.initial_state(GAME.presets()["ja"])
    assert check(start)
    hurt = attrs.evolve(
        start,
        units=tuple(attrs.evolve(u, steps=1) if u.id == "JP-3TK" else u for u in start.units),
    )
    assert check(hurt)  # the SU score follows the lost tank step
    from specs.nomonhan.formal.properties import enemy_steps_removed

    assert enemy_steps_removed(hurt) == {"JP": 0, "SU": 2}


def _lasso(preset: str, actions: list[Any]) -> Any:
    state = GAME.initial_state(GAME.presets()[preset])
    watch = CycleWatch(state)
    for a in actions:
        state = GAME.apply(state, a)
        watch.see(state)
    return watch.lasso


@pytest.mark.skipif(
    not FULL, reason="`wargame verify` (in make test) refutes NOM-P-ENDS and replays its lasso"
)
@pytest.mark.parametrize("preset", PRESETS)
def test_nom_5_2_lasso_witness_replays_as_a_game_that_repeats(preset: str) -> None:
    """NOM-5.2: the prover's lasso is a game the rules accept, whose position repeats."""
    m = link(preset)
    v = prover.check(m.system, m.formal()[ENDS])
    assert v.status == "refuted" and v.trace is not None and v.trace.loop is not None
    actions = refinement.replayed(GAME, m, preset, v.trace)
    lasso = _lasso(preset, actions)
    assert lasso is not None and lasso.end == len(actions)
    assert all(GAME.action_to_json(a) == {"type": "end_phase"} for a in actions)


def _en_witness_end(pid: str, depth: int, games: int) -> tuple[Any, Any, Any]:
    """Refute `pid` under EN (bounded search to `depth`, then seeded playouts), replay the
    witness, and return the position before its last action, that action, and the result."""
    m = link("en")
    statement = m.formal()[pid]
    assert isinstance(statement, (Invariant, StepInvariant, prover.Terminates))  # one run's
    formal = attrs.evolve(statement, depth=depth)
    paths = refinement.playout_paths(GAME, m, "en", games=games)
    v = prover.check(m.system, formal, paths=paths)
    assert v.status == "refuted" and v.trace is not None
    actions = refinement.replayed(GAME, m, "en", v.trace)
    state = GAME.initial_state(GAME.presets()["en"])
    for a in actions[:-1]:
        state = GAME.apply(state, a)
    return state, actions[-1], GAME.apply(state, actions[-1])


def test_nom_9_28_en_artillery_witness_replays_and_shows_a_retreat() -> None:
    """Under EN's generic Artillery (AMB-NOM-15) the Artillery can retreat: a witness (searched
    here on seeded playouts, the bounded search left short) replays as a game whose last step
    is that retreat."""
    state, last, after = _en_witness_end(ARTILLERY_NO_RETREAT, depth=2, games=40)
    assert state.stage == Stage.DAMAGE
    assert GAME.action_to_json(last)["unit"] == SU_ART and "retreat_to" in GAME.action_to_json(last)
    assert after.unit(SU_ART).hex != state.unit(SU_ART).hex


@pytest.mark.skipif(
    not FULL,
    reason="30 s of Z3 that `wargame verify` (in make test) repeats: the proof under ja and "
    "the en witness; run at full size by make bench",
)
def test_amb_nom_19_pending_combats_stay_in_contact_under_ja_only() -> None:
    """NOM-9.8, NOM-9.30, AMB-NOM-19: under JA only participants advance, so a pending combat
    is never disturbed (proved by 1-induction); under EN any friendly unit may advance, and a
    witness from seeded playouts replays as a game whose last step is an advance that breaks
    the contact of a combat still pending."""
    ja = link("ja")
    assert prover.check(ja.system, ja.formal()[PENDING_IN_CONTACT]).status == "proved"
    state, last, after = _en_witness_end(PENDING_IN_CONTACT, depth=0, games=20)
    assert pending_in_contact(state) and not pending_in_contact(after)
    assert GAME.action_to_json(last)["type"] == "advance"


NEW_INVARIANTS = ("NOM-P-OFF-MAP", "NOM-P-REINFORCEMENTS-ON-TIME", "NOM-P-SUDDEN-DEATH")


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("pid", [*NEW_INVARIANTS, "NOM-P-STAGE-RECORDS"])
def test_position_check_invariants_are_proved(preset: str, pid: str) -> None:
    """NOM-3.4, NOM-8.8, NOM-4.1, NOM-4.2, NOM-5.1, NOM-9.8: the invariants the position check
    added to the spec (issue 11) are proved over the symbolic model, so a position breaking
    one is unreachable, not merely unseen."""
    m = link(preset)
    verdict = prover.check(m.system, m.formal()[pid])
    assert verdict.status == "proved", verdict.detail


def test_invariants_rest_on_the_readings_declared() -> None:
    """An invariant is expected to hold under a preset exactly when the preset has every
    reading `HOLDS_UNDER` says it rests on, so the readings decide the invariants a variant
    that is no preset is held to (`invariants_for`)."""
    for p in PROPS.values():
        if p.kind != "invariant":
            continue
        for preset in PRESETS:
            v = GAME.presets()[preset]
            rests = all(v.is_(o, r) for o, r in HOLDS_UNDER.get(p.id, ()))
            assert (p.expected[preset] == "holds") == rests, (p.id, preset)
    assert set(BREACHES) == {p.id for p in PROPS.values() if p.kind == "invariant"}
