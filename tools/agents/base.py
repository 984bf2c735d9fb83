"""What an agent is given: one side's seat at the table, never the state.

A `Seat` holds the side's observation (`Game.observe`), its legal actions (which the side may
know: they follow from what it sees), and `sample`, which draws a full state the side cannot
tell apart from the real one. In a game with perfect information that is the state itself; in
a game with hidden information it is a resampled state built from the observation alone
(`tools.agents.resampling`), so a search that plays forward on it learns nothing its side may not
know. An agent returns one of `seat.legal`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

import attrs

from kernel.game import Game

S = TypeVar("S")
A = TypeVar("A")


@attrs.frozen
class Seat(Generic[S, A]):
    """One decision of one side: what it sees, what it may do, and states it cannot rule out."""

    game: Game[S, A]
    side: str
    observation: Mapping[str, Any]
    legal: Sequence[A]
    sample: Callable[[random.Random], S]
    """A full state consistent with everything `side` may know (the state itself under perfect
    information), drawn with the given generator."""


class Agent(Protocol):
    """A player for one side. `choose` must return one of `seat.legal`; every random choice it
    makes comes from `rng`, so a seeded game replays exactly."""

    @property
    def name(self) -> str:
        """Read-only, so that frozen agents are agents too."""
        ...

    def choose(self, seat: Seat[Any, Any], rng: random.Random) -> Any: ...


@attrs.frozen
class RandomAgent:
    """Uniform over the legal actions."""

    name: str = "random"

    def choose(self, seat: Seat[Any, Any], rng: random.Random) -> Any:
        return rng.choice(seat.legal)
