"""The SNC as tools hold it: the rules with every role (`PACKAGE.assemble()`), and the rules
object itself (`GAME.rules`) for what only the game's own code knows (its tables, board, data)."""

from __future__ import annotations

from typing import Any

from kernel.roles import AssembledGame
from specs.snc1937.game import SNC


def rules_of(game: AssembledGame[Any, Any]) -> SNC:
    """The rules object of the assembled game (`game.rules`), as the dispatcher it is."""
    assert isinstance(game.rules, SNC)
    return game.rules
