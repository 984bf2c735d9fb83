"""What a role (codec, narration, picture, position check, data check) reads of the rules
object it is built from (`specs.nomonhan.game.Nomonhan`), so the roles name no module above
them."""

from __future__ import annotations

from typing import Protocol

from specs.nomonhan.data.loader import NomonhanData
from specs.nomonhan.rules.board import Board
from specs.nomonhan.rules.state import NomonhanState


class NomonhanRules(Protocol):
    """The Nomonhan rules object: its name, data and board, and who moves."""

    name: str
    data: NomonhanData
    board: Board

    def to_move(self, state: NomonhanState) -> str | None: ...
