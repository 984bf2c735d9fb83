"""A position read under each reading of each option: shared by the tests of `rebind` and of
the comparisons made between readings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kernel.errors import ImpossiblePosition
from kernel.roles import AssembledGame
from kernel.variants import Variant
from solvers.checking.differences import rebind
from solvers.checking.explore import reading_variant


def rebound(
    game: AssembledGame[Any, Any], preset: str, state: Any
) -> Iterator[tuple[Variant, Any]]:
    """(variant, `state` rebound to it) for each reading of each option of `preset` under
    which the position is possible (a reading that cannot reach it is left out)."""
    for option in game.catalogue.options:
        for reading in option.played():
            variant = reading_variant(game.catalogue, preset, option.name, reading.name)
            try:
                yield variant, rebind(game, state, variant)
            except ImpossiblePosition:  # a position this reading cannot reach
                continue
