"""The kernel's conformance suite, run on every registered game under every preset."""

from __future__ import annotations

import random

import pytest

from tests.sizes import cases, size
from tools.registry import game_names, get_game
from tools.testing.conformance import check_illegal, check_playout, check_step, sample_state

CASES = [(g, p) for g in game_names() for p in sorted(get_game(g).presets())]
# Positions checked in a seeded playout: SNC's games run ~1,000 steps of ~50 actions each, so
# its two playouts here check every 40th position (every 20th at full size; different ones per
# seed); `make bench` runs `python -m bench.conformance`, which checks every position of every
# game.
EVERY = {"snc1937": size(40, 20)}


@pytest.mark.parametrize(("game_name", "preset"), CASES)
def test_initial_position_conforms(game_name: str, preset: str) -> None:
    game = get_game(game_name)
    state = game.initial_state(game.presets()[preset])
    check_step(game, state)
    check_illegal(game, state, random.Random(0))
    assert game.to_move(state) in game.sides


SEEDED = [
    (g, p, seed)
    for g, p in CASES
    for seed in (cases([0], [1]) if g == "snc1937" else [0, 1])  # SNC's second seed: make bench
]


@pytest.mark.parametrize(("game_name", "preset", "seed"), SEEDED)
def test_seeded_playout_conforms_and_replays(game_name: str, preset: str, seed: int) -> None:
    """Every legal action applies, illegal ones raise with clauses, chance sums to one, JSON
    round-trips, equal states hash equally, and replay reproduces the final state."""
    game = get_game(game_name)
    check_playout(game, game.presets()[preset], seed, every=EVERY.get(game_name, 1))


@pytest.mark.parametrize(("game_name", "preset"), CASES)
def test_positions_mid_game_conform(game_name: str, preset: str) -> None:
    game = get_game(game_name)
    for seed in range(10):
        state = sample_state(game, game.presets()[preset], seed, steps=40 + 7 * seed)
        check_step(game, state)
        check_illegal(game, state, random.Random(seed))
