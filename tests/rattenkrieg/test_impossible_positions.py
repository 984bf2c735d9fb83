"""No reachable Rattenkrieg position is refused: every position of seeded playouts of every
preset passes the position check (the impossible ones it refuses: test_position_check.py and
the mutation suite, tests/conformance). Sizes are counts of positions, never times."""

from __future__ import annotations

import pytest

from tests.sizes import size
from tools.registry import get_game
from tools.testing.mutation_positions import playout_positions

GAME = get_game("rattenkrieg")
SEEDS = range(size(6, 30))


@pytest.mark.parametrize("preset", sorted(GAME.presets()))
def test_every_position_of_seeded_playouts_passes_the_check(preset: str) -> None:
    for seed in SEEDS:
        for state in playout_positions(GAME, GAME.presets()[preset], seed, 2000):
            GAME.check_position(state)
