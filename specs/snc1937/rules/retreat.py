"""Where a unit may retreat one hex (SNC-8.4.0.9, SNC-8.4.1.3; AMB-SNC-11).

The CRT has no retreat results (SNC-10.5.1.1); only amphibious landings make Chinese units
"retreat one hex", and the text gives no procedure (AMB-SNC-11). The kernel's: the owner picks an
adjacent hex that a unit could enter (SNC-9.4.6: no water, no Yangtze/all-sea/all-lake hexside;
SNC-0.0.1: never 3513) and that holds no enemy unit (SNC-9.0.12); whether the hex may be in an
EZOC is `retreat_into_ezoc`. With no such hex the unit is eliminated. Garrison (static) steps
never retreat: they are eliminated (SNC-8.4.0.9). Stacking is checked at its usual points, not
here (AMB-SNC-8).
"""

from __future__ import annotations

from collections.abc import Mapping

from kernel.hexes import Hex
from kernel.variants import Variant
from specs.snc1937.data.loader import SNCData
from specs.snc1937.rules.board import Board
from specs.snc1937.rules.zoc import enemy, hexes_of_side, zoc_hexes


def retreat_hexes(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    side: str,
    frm: Hex,
) -> tuple[Hex, ...]:
    """The hexes, in board order, a unit of `side` in `frm` may retreat into (SNC-8.4.0.9,
    SNC-8.4.1.3, AMB-SNC-11). Empty: the unit is eliminated. The enemy's ZOC comes from its
    units in `stacks` (Japanese units still at sea are not on the map)."""
    prohibited = data.tec.prohibited_sides
    foes = hexes_of_side(data, stacks, enemy(side))
    ezoc = (
        zoc_hexes(board, data, variant, stacks, enemy(side))
        if variant.is_("retreat_into_ezoc", "forbidden")
        else frozenset()
    )
    return tuple(
        n
        for n in board.neighbors(frm)
        if board.enterable(n)  # SNC-9.4.6, SNC-0.0.1
        and board.side_kind(frm, n) not in prohibited  # SNC-9.4.6
        and n not in foes  # SNC-9.0.12
        and n not in ezoc  # AMB-SNC-11 retreat_into_ezoc=forbidden
    )


def retreats(data: SNCData, unit: str) -> bool:
    """Whether `unit` retreats at all when told to: garrison (static) steps are eliminated
    instead (SNC-8.4.0.9)."""
    return not data.unit(unit).is_static


def retreat_outcome(
    board: Board,
    data: SNCData,
    variant: Variant,
    stacks: Mapping[Hex, tuple[str, ...]],
    unit: str,
    frm: Hex,
) -> tuple[Hex, ...]:
    """The hexes `unit` in `frm` may retreat into; empty when it is eliminated instead, being a
    garrison or having nowhere to go (SNC-8.4.0.9, AMB-SNC-11)."""
    if not retreats(data, unit):
        return ()
    return retreat_hexes(board, data, variant, stacks, data.unit(unit).side, frm)
