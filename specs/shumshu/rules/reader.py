"""The rules object as the parts below it read it.

The dispatcher (`specs.shumshu.game.Shumshu`) stands above the parts, so the roles built from
it (`io/`, `formal/`) and the bots name it by what they read of it: its board and data, its
sides and catalogue, whose move it is, and what a side may observe.
"""

from __future__ import annotations

from typing import Any, Protocol

from kernel.variants import Catalogue
from specs.shumshu.data.loader import ShumshuData
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.state import ShumshuState


class ShumshuRules(Protocol):
    """What the roles read of the rules object (`specs.shumshu.game.Shumshu`)."""

    name: str
    sides: tuple[str, ...]
    catalogue: Catalogue
    data: ShumshuData
    board: Board

    def to_move(self, s: ShumshuState) -> str | None: ...

    def observe(self, s: ShumshuState, side: str) -> dict[str, Any]: ...
