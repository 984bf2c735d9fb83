"""`same_position` is `position_key` equality, with a fast path for states equal field by
field but for their variant: on every game, for positions of real play read under each
reading of each option, and for pairs of different positions of the same play."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernel.playout import play
from solvers.checking.differences import position_key, same_position
from tests.readings import rebound
from tests.sizes import size
from tools.registry import game_names, get_game


@pytest.mark.parametrize("name", game_names())
@settings(max_examples=size(3, 20), deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_same_position_is_key_equality_under_every_reading(
    name: str, seed: int, steps: int
) -> None:
    game = get_game(name)
    preset = game.catalogue.default_preset
    start = game.initial_state(game.presets()[preset])
    state = play(game, start, random.Random(seed), max_steps=steps).final
    key = position_key(game, state)
    assert same_position(game, state, state)
    compared = 0
    for _, other in rebound(game, preset, state):
        compared += 1
        assert same_position(game, state, other) == (key == position_key(game, other))
        assert same_position(game, other, state) == same_position(game, state, other)
    assert compared


@pytest.mark.parametrize("name", game_names())
def test_different_positions_of_one_play_are_told_apart(name: str) -> None:
    """The fast path never says "same" for positions whose keys differ (a step of play that
    changes the position is seen as a change)."""
    game = get_game(name)
    start = game.initial_state(game.presets()[game.catalogue.default_preset])
    playout = play(game, start, random.Random(7), max_steps=size(40, 200))
    states = [start]
    for action in playout.actions:
        states.append(game.apply(states[-1], action))
    changed = 0
    for before, after in itertools.pairwise(states):
        differ = position_key(game, before) != position_key(game, after)
        changed += differ
        assert same_position(game, before, after) == (not differ)
    assert changed
