"""The position check refuses nothing real play reaches (issue 11): every position of seeded
and hypothesis-drawn play passes it, under both presets and under every reading of every option
(each preset with one option read otherwise, the readings the symbolic model does not encode
included). Since play starts at the set-up, which passes, this is also the closure of the check:
every state `apply` returns from an accepted state is accepted.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.chance import sample
from kernel.game import CHANCE
from kernel.variants import Variant
from specs.nomonhan.data.variants import CATALOGUE, PRESETS
from specs.nomonhan.formal.properties import POINTS, invariants_for
from specs.nomonhan.rules.state import NomonhanState
from tests.nomonhan.positions import GAME
from tests.sizes import size

GAMES_PER_PRESET = size(40, 200)  # tests.sizes: 200 in make bench


def playout(variant: Variant, seed: int, max_steps: int = 3000) -> list[NomonhanState]:
    rng = random.Random(seed)
    state = GAME.initial_state(variant)
    out = [state]
    for _ in range(max_steps):
        side = GAME.to_move(state)
        if side is None:
            break
        if side == CHANCE:
            action = sample(GAME.chance_outcomes(state), rng)
        else:
            legal = list(GAME.legal_actions(state))
            if not legal:
                break
            action = rng.choice(legal)
        state = GAME.apply(state, action)
        out.append(state)
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_position_of_seeded_play_passes_the_check(preset: str) -> None:
    """No false refusal: every position of the seeded games is accepted, and a sample of them
    reads back from JSON unchanged."""
    variant = GAME.presets()[preset]
    for seed in range(GAMES_PER_PRESET):
        for i, state in enumerate(playout(variant, seed)):
            GAME.check_position(state)
            if i % 11 == 0:
                assert GAME.state_from_json(GAME.state_to_json(state)) == state


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_apply_keeps_positions_possible(preset: str, data: st.DataObject) -> None:
    """Closure: from an accepted position, every action hypothesis draws leads to an accepted
    position."""
    state = GAME.initial_state(GAME.presets()[preset])
    GAME.check_position(state)
    for _ in range(data.draw(st.integers(20, 400))):
        side = GAME.to_move(state)
        if side is None:
            break
        if side == CHANCE:
            options = [a for a, _ in GAME.chance_outcomes(state)]
        else:
            options = list(GAME.legal_actions(state))
        if not options:
            break
        state = GAME.apply(state, data.draw(st.sampled_from(options)))
        GAME.check_position(state)


def _flips() -> list[tuple[str, str, str]]:
    return [
        (preset, o.name, r.name)
        for preset in sorted(PRESETS)
        for o in CATALOGUE.options
        for r in o.readings
        if PRESETS[preset][o.name] != r.name
    ]


@pytest.mark.parametrize(("preset", "option", "reading"), _flips())
def test_every_reading_plays_only_possible_positions(
    preset: str, option: str, reading: str
) -> None:
    """No false refusal in a variant that is no preset: the invariants checked there are those
    whose readings it has (`properties.HOLDS_UNDER`), and the other checks read the variant as
    the rules do. Two seeded games per single-option departure from each preset."""
    variant = CATALOGUE.variant(preset, {option: reading})
    assert variant.preset is None
    for seed in range(2):
        for state in playout(variant, seed, max_steps=1500):
            GAME.check_position(state)


def test_invariants_checked_follow_the_readings() -> None:
    """A variant that scores its own remaining steps (AMB-NOM-3) is not held to NOM-P-POINTS;
    one that lets any friendly unit advance (AMB-NOM-21) not to NOM-P-PENDING-IN-CONTACT."""
    ja = {p.id for p in invariants_for(GAME.presets()["ja"])}
    own = {p.id for p in invariants_for(CATALOGUE.variant("ja", {"scoring": "own_remaining"}))}
    anyone = {
        p.id for p in invariants_for(CATALOGUE.variant("ja", {"advance_units": "any_friendly"}))
    }
    assert ja - own == {POINTS}
    assert ja - anyone == {"NOM-P-PENDING-IN-CONTACT"}
