"""Seeded SNC games pinned (issue 34): the fast paths of the rules must not change a game.

`wargame play snc1937 --seed N` draws every choice and die from one seeded stream, so any change
to what is listed, in what order, or to what a step does shows in its log. These logs were
recorded before the per-position fast paths (`position_delta`, `position_views`, the state
copy, the top units' offers); the same seeds must play the same games to the last action and
the final state.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from kernel.codec import dump_json
from kernel.playout import play
from tools.game_logs import make_log
from tools.registry import get_game

# the logs of `wargame play snc1937 --seed N` as recorded before these fast paths: steps, and
# the SHA-256 of the canonical log JSON (actions, final state, result)
PINNED = {
    ("standard", 1): (1142, "25f7b3ff1d7de4c60bf22f00263c12fecf0e52c199875c44bd5ba3b0587e7d6b"),
    ("standard", 8): (1071, "51d4a5cbf2cecd05b74f9e24ee10440b901555d946d44d7fccfdcb6451189731"),
    ("printed", 10): (1533, "c90cccfae75c4720125150b6bbaa6f1afb81b25e222b6b0d7aded801dbad4997"),
    ("printed", 6): (838, "12460c625b6eebae31b11bc0fb182e60aca4a4dd3c28e5b7e04c542b165926f9"),
}


@pytest.mark.parametrize(("preset", "seed"), sorted(PINNED))
def test_seeded_games_are_unchanged(preset: str, seed: int) -> None:
    """The same seed plays the same game, to the last action and the final state."""
    game = get_game("snc1937")
    variant = game.presets()[preset]
    p = play(game, game.initial_state(variant), random.Random(seed))
    text = dump_json(make_log(game, variant, seed, p).to_json())
    assert (len(p.actions), hashlib.sha256(text.encode()).hexdigest()) == PINNED[preset, seed]
