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

Resampler = Callable[[Mapping[str, Any], str, random.Random], Any]


def resampler(game: Game[Any, Any]) -> Resampler:
    """The game's resampler: `resample(observation, side, rng) -> state`."""
    if game.perfect_information:
        raise ValueError(f"{game.name} hides nothing: a seat samples the state itself")
    if game.name == "rattenkrieg":
        from specs.rattenkrieg import resample as rattenkrieg
        from specs.rattenkrieg.rules import Rattenkrieg

        assert isinstance(game, Rattenkrieg)
        rk = game
        return lambda observation, side, rng: rattenkrieg.resample(rk, observation, side, rng)
    if game.name == "shumshu":
        from specs.shumshu import resample as shumshu
        from specs.shumshu.rules import Shumshu

        assert isinstance(game, Shumshu)
        shu = game
        return lambda observation, side, rng: shumshu.resample(shu, observation, side, rng)
    if game.name == "snc1937":
        from specs.snc1937 import resample as snc
        from specs.snc1937.rules import SNC

        assert isinstance(game, SNC)
        sn = game
        return lambda observation, side, rng: snc.resample(sn, observation, side, rng)
    raise ValueError(f"no resampler for {game.name}")
