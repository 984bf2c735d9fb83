"""The games this kernel knows, by name. Tools import specs only through here."""

from __future__ import annotations

import functools
from typing import Any

from kernel.errors import InvalidInput
from kernel.game import Game


@functools.cache
def _games() -> dict[str, Game[Any, Any]]:
    from specs.nomonhan import Nomonhan
    from specs.rattenkrieg import Rattenkrieg
    from specs.shumshu import Shumshu
    from specs.snc1937 import SNC

    games: list[Game[Any, Any]] = [Nomonhan(), Rattenkrieg(), Shumshu(), SNC()]
    return {g.name: g for g in games}


def game_names() -> list[str]:
    return sorted(_games())


def get_game(name: str) -> Game[Any, Any]:
    try:
        return _games()[name]
    except KeyError:
        known = ", ".join(game_names())
        raise InvalidInput(f"unknown game {name!r} (games: {known})", field="game") from None
