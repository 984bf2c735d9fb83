"""No impossible SNC position is accepted, and no reachable one refused.

Positions of seeded playouts of every preset (and of random readings) all pass the position
check; each kind of impossible position (`tools.testing.mutation_kinds`), made from those
positions, is refused naming its field and a clause it breaks: a static unit away from its hex
(SNC-2.2.1.8), a static unit or an enemy unit among the attackers (SNC-10.2.1, SNC-10.0.3), a
reinforcement in a TRT box before its counter's GT (SNC-8.0.4), a step its phase does not have
(SNC-5.1.1), a hex the last stacking check covered left over the limits (SNC-6.0.2), a
Chinese unit free to move as a new arrival outside the Reinforcement Phase (SNC-8.2.2), a fire
support kind twice in one combat (SNC-11.1.3), a garrison set up on the map taken off to nowhere
(SNC-9.1.2), an attack that has struck with an adjusted strength that rounds down to 0
(SNC-10.4.1.8). Sizes are counts of positions, never times.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import attrs
import pytest

from kernel.errors import ImpossiblePosition
from specs.snc1937.formal.position_domains import phase_steps
from specs.snc1937.rules.state import Phase, Step
from tests.sizes import size
from tools.registry import get_game
from tools.testing.mutation import RandomChooser
from tools.testing.mutation_json import as_json
from tools.testing.mutation_positions import make_impossible, playout_positions

GAME = get_game("snc1937")
PRESETS = sorted(GAME.presets())
SEEDS = (0, 1)
STEPS = size(1200, 3000)
"""Steps of each seeded playout."""
PER_KIND = size(60, 400)
"""Impossible positions made and read per kind."""

CLAUSES = {
    "snc-static-unit-moved": {"SNC-2.2.1.8", "SNC-9.1.3"},
    "snc-static-attacker": {"SNC-10.2.1", "SNC-2.2.1.6", "SNC-9.6.2"},
    "snc-attacker-of-the-other-side": {"SNC-10.0.3", "SNC-9.6.2"},
    "snc-reinforcement-before-its-gt": {"SNC-8.0.4"},
    "snc-step-not-of-the-phase": {"SNC-5.1.1"},
    "snc-over-the-limits-after-a-check": {"SNC-6.0.2"},
    "snc-movable-outside-its-phase": {"SNC-8.2.2"},
    "snc-marker-kind-twice": {"SNC-11.1.3"},
    "snc-set-up-garrison-nowhere": {"SNC-9.1.2"},
    "snc-attack-too-weak-to-resolve": {"SNC-10.4.1.8"},
}
"""Each kind with the clauses its refusal may name (the overrun group's declaration has its own
check, SNC-9.6.2, which may refuse a wrong attacker first)."""
OFFERS: dict[str, Callable[[Any], bool]] = {
    "snc-static-attacker": lambda s: s.combat is not None,
    "snc-attacker-of-the-other-side": lambda s: s.combat is not None,
    "snc-over-the-limits-after-a-check": lambda s: bool(s.checked),
    "snc-marker-kind-twice": lambda s: s.combat is not None,
    "snc-attack-too-weak-to-resolve": lambda s: s.combat is not None,
}
"""Kinds that need a record most positions lack, to skip the others before writing them out."""


@functools.cache
def positions(preset: str) -> tuple[Any, ...]:
    out: list[Any] = []
    for seed in SEEDS:
        out += playout_positions(GAME, GAME.presets()[preset], seed, STEPS)
    return tuple(out)


def every_position() -> list[Any]:
    return [s for p in PRESETS for s in positions(p)]


@pytest.mark.parametrize("preset", PRESETS)
def test_every_position_of_seeded_playouts_passes_the_check(preset: str) -> None:
    """The check never refuses a position the rules reach (all of each playout)."""
    for state in positions(preset):
        GAME.check_position(state)


@pytest.mark.parametrize("seed", range(size(2, 8)))
def test_positions_under_random_readings_pass_the_check(seed: int) -> None:
    """The domains ask the variant where the rules do: random readings reach nothing the
    check refuses."""
    rng = random.Random(seed)
    choices = {o.name: rng.choice(o.played()).name for o in GAME.catalogue.options}
    variant = GAME.catalogue.variant(PRESETS[seed % len(PRESETS)], choices)
    for state in playout_positions(GAME, variant, seed, STEPS):
        GAME.check_position(state)


@pytest.mark.parametrize("kind", sorted(CLAUSES))
def test_each_kind_of_impossible_position_is_made_and_refused_naming_field_and_clause(
    kind: str,
) -> None:
    chooser = RandomChooser(random.Random(kind))
    states = every_position()
    made = 0
    for state in states:
        if made >= PER_KIND:
            break
        if kind in OFFERS and not OFFERS[kind](state):
            continue
        doc = as_json(GAME.state_to_json(state))
        found = make_impossible(GAME, state, doc, chooser, [kind])
        if found is None:
            continue
        made += 1
        with pytest.raises(ImpossiblePosition) as info:
            GAME.state_from_json(found.doc)
        assert (info.value.field or "").startswith(found.field), (found.detail, info.value)
        assert set(info.value.clauses) & CLAUSES[kind], (found.detail, info.value)
    assert made >= 1, f"no position of the playouts offers {kind}"


def test_snc_5_1_1_declare_with_the_interdiction_step_is_refused() -> None:
    """The issue's case: a declaration position whose step is `interdict`, a step of the
    Chinese Reinforcement Phase only (SNC-5.1.1, SNC-11.2.2)."""
    start = GAME.initial_state(GAME.presets()["standard"])
    assert start.phase == Phase.DECLARE and Step.INTERDICT not in phase_steps(start)
    doc = as_json(GAME.state_to_json(start))
    doc["step"] = "interdict"
    with pytest.raises(ImpossiblePosition) as info:
        GAME.state_from_json(doc)
    assert info.value.field == "step" and "SNC-5.1.1" in info.value.clauses


def test_snc_8_0_4_a_reinforcement_before_its_gt_is_refused_and_at_its_gt_accepted() -> None:
    start = GAME.initial_state(GAME.presets()["standard"])
    i, (unit, gt) = next((i, e) for i, e in enumerate(start.trt) if e[1] >= 3)
    early = attrs.evolve(start, trt=(*start.trt[:i], (unit, gt - 1), *start.trt[i + 1 :]))
    with pytest.raises(ImpossiblePosition) as info:
        GAME.check_position(early)
    assert info.value.field == f"trt[{i}].gt" and "SNC-8.0.4" in info.value.clauses
    GAME.check_position(start)  # each in its own GT's box (SNC-3.1.2)


def test_phase_steps_hold_every_step_play_takes() -> None:
    """`phase_steps` is the sequence of play's: every step play takes is among its phase's
    (the Reinforcement Phases' own steps are met, so the playouts reach them)."""
    met: dict[tuple[str, str], set[Step]] = {}
    for state in every_position():
        assert state.step in phase_steps(state), (state.phase, state.side, state.step)
        met.setdefault((state.phase.value, state.side), set()).add(state.step)
    assert Step.INTERDICT in met[("reinf", "CH")] and Step.REPLACE in met[("reinf", "JP")]
