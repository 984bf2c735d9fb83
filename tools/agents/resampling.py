"""States a side cannot tell from the real one, drawn from its observation alone.

`resampler(game)` is the strict draw: given what one side sees (`game.observe`), it draws a full
state with exactly that observation that the position check accepts, at random among such states
(each game's module says with what distribution), decoding each draw as a state document and
checking it. `sampler(game)` is `Seat.sample`'s source for games with hidden information: the same
draws from the same generator, prepared once per observation and built directly as states,
without the document or the checks (a search draws a state per simulation). The tests hold both
to the same states, and every fast draw to the observation and the position check, at every step
of seeded games; `check=True` runs the checks on each fast draw as well (debugging). Neither is
ever given the real state, so a search that plays on the drawn state learns nothing its side may
not know.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from typing import Any

from kernel.errors import ImpossiblePosition
from kernel.game import Game
from kernel.roles import rules_of
from tools.registry import package_of

Resampler = Callable[[Mapping[str, Any], str, random.Random], Any]
Sampler = Callable[[Mapping[str, Any], str], Callable[[random.Random], Any]]
"""`sampler(observation, side)`: a draw `rng -> state` prepared for that observation."""


def _declared(game: Game[Any, Any]) -> Callable[..., Any]:
    if game.perfect_information:
        raise ValueError(f"{game.name} hides nothing: a seat samples the state itself")
    package = package_of(game)
    declared = None if package is None else package.resampler
    if declared is None:
        raise ValueError(f"no resampler for {game.name}")
    draw: Callable[..., Any] = declared()
    return draw


def resampler(game: Game[Any, Any]) -> Resampler:
    """The game's strict resampler: `resample(observation, side, rng) -> state`, from the
    `resample` module of the game's spec package (`specs/<game>/bots/resample.py`)."""
    draw = _declared(game)
    rules = rules_of(game)  # what the resampler reads
    return lambda observation, side, rng: draw(rules, observation, side, rng)


def sampler(game: Game[Any, Any], *, check: bool = False) -> Sampler:
    """The game's fast draws: the `sampler(rules, observation, side)` of its resample module
    (the strict draw where the module has none). With `check`, each draw is held to the
    observation and the position check (ImpossiblePosition otherwise)."""
    draw = _declared(game)
    rules = rules_of(game)
    prepare = getattr(importlib.import_module(draw.__module__), "sampler", None)

    def prepared(observation: Mapping[str, Any], side: str) -> Callable[[random.Random], Any]:
        def strict(rng: random.Random) -> Any:
            return draw(rules, observation, side, rng)

        fast: Callable[[random.Random], Any] = (
            strict if prepare is None else prepare(rules, observation, side)
        )
        if not check:
            return fast
        return lambda rng: _checked(game, fast(rng), observation, side)

    return prepared


def _checked(game: Game[Any, Any], state: Any, observation: Mapping[str, Any], side: str) -> Any:
    """`state`, once its observation and the position check are found right."""
    if game.observe(state, side) != observation:
        raise ImpossiblePosition("a draw does not have the observation", field="observation")
    check = getattr(game, "check_position", None)
    if check is not None:
        check(state)
    return state
