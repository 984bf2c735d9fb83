"""Where two readings of a Shumshu option part: each option's situation as a distance over a
position (`reading_situations`, offered to the ambiguity explorer by the game:
`game.Shumshu`; `solvers.checking.situations`).

A distance is 0 where the readings' inputs differ, so that the next steps show it, and
otherwise counts the situation's conditions still missing. The situations of the options
that govern a combat are in `formal.situations_combat` (over the fights at hand,
`formal.situations_fights`), a landing's in `formal.situations_landing`, and those that need
a piece somewhere (a regiment formed, the Russians on a victory hex or on hex 33) in
`formal.situations_units`. A finished game is as far as can be.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from specs.shumshu.formal.situations_combat import combat_situations
from specs.shumshu.formal.situations_fights import OVER
from specs.shumshu.formal.situations_landing import landing_swamp_distance
from specs.shumshu.formal.situations_units import unit_situations
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.state import ShumshuState, Stage

Distance = Callable[[ShumshuState], int]


def situations(b: Board) -> Mapping[str, Distance]:
    """The distance of each option's situation, bound to the board `b`."""
    table: dict[str, Callable[[Board, ShumshuState], int]] = {
        **combat_situations(),
        "landing_swamp": landing_swamp_distance,
        **unit_situations(),
    }
    return {name: functools.partial(_unless_over, d, b) for name, d in table.items()}


def _unless_over(d: Callable[[Board, ShumshuState], int], b: Board, s: ShumshuState) -> int:
    """`d` of a position; a game over is as far as can be: nothing follows it."""
    return OVER if s.stage is Stage.OVER else d(b, s)


def reading_situations(game: Any) -> Mapping[str, Distance]:
    """The option -> distance mapping the explorer asks for (`solvers.checking.situations`),
    each bound to the rules' board."""
    board: Board = game.board
    return situations(board)
