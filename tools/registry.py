"""The games this kernel knows, by name. Tools reach a game only through here: its rules
(`get_game`) and its other parts (`get_package`, `kernel.package.GamePackage`), never by
importing a spec module (a test holds tools to that)."""

from __future__ import annotations

import functools
from typing import Any

from kernel.errors import InvalidInput
from kernel.game import Game
from kernel.package import GamePackage
from kernel.roles import AssembledGame


@functools.cache
def _packages() -> dict[str, GamePackage]:
    from specs.nomonhan import PACKAGE as NOMONHAN
    from specs.rattenkrieg import PACKAGE as RATTENKRIEG
    from specs.shumshu import PACKAGE as SHUMSHU
    from specs.snc1937 import PACKAGE as SNC1937

    return {p.name: p for p in (NOMONHAN, RATTENKRIEG, SHUMSHU, SNC1937)}


@functools.cache
def _games() -> dict[str, AssembledGame[Any, Any]]:
    return {name: package.assemble() for name, package in _packages().items()}


def game_names() -> list[str]:
    return sorted(_packages())


def get_package(name: str) -> GamePackage:
    """The parts game `name` declares; InvalidInput (field `game`) for an unknown name."""
    try:
        return _packages()[name]
    except KeyError:
        known = ", ".join(game_names())
        raise InvalidInput(f"unknown game {name!r} (games: {known})", field="game") from None


def get_game(name: str) -> AssembledGame[Any, Any]:
    """Game `name`: its rules with every role of its package (`kernel.roles.AssembledGame`),
    assembled once per process."""
    get_package(name)
    return _games()[name]


def package_of(game: Game[Any, Any]) -> GamePackage | None:
    """The package of a registered game (tools that hold a game ask it for its other parts);
    None for a game the registry does not know (a test's own game): it declares no parts."""
    return _packages().get(game.name)
