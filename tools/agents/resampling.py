"""States a side cannot tell from the real one, drawn from its observation alone.

`resampler(game)` is `Seat.sample`'s source for games with hidden information: given what one
side sees (`game.observe`), it draws a full state with exactly that observation that the
position check accepts, at random among such states (each game's module says with what
distribution). It is never given the real state, so a search that plays on the drawn state
learns nothing its side may not know.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from kernel.game import Game
from kernel.roles import rules_of
from tools.registry import package_of

Resampler = Callable[[Mapping[str, Any], str, random.Random], Any]


def resampler(game: Game[Any, Any]) -> Resampler:
    """The game's resampler: `resample(observation, side, rng) -> state`, from the
    `resample` module of the game's spec package (`specs/<game>/bots/resample.py`)."""
    if game.perfect_information:
        raise ValueError(f"{game.name} hides nothing: a seat samples the state itself")
    package = package_of(game)
    declared = None if package is None else package.resampler
    if declared is None:
        raise ValueError(f"no resampler for {game.name}")
    draw = declared()
    rules = rules_of(game)  # what the resampler reads
    return lambda observation, side, rng: draw(rules, observation, side, rng)
