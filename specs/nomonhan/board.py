"""What a hexside lets through, and who is in whose ZOC.

One place decides what rivers, bridges and the pontoon bridge allow, per reading, so movement,
ZOC, combat, retreat and advance cannot disagree about a hexside.
"""

from __future__ import annotations

import functools

from kernel.hexes import Hex, Hexside, hex_neighbors
from kernel.variants import Variant
from specs.nomonhan.data import NomonhanData, UnitSpec
from specs.nomonhan.state import NomonhanState, UnitState

OPEN, RIVER, FIXED, PONTOON, BLOWN = "open", "river", "fixed", "pontoon", "blown"


class Board:
    """The static map of one data file, with neighbour lists cached per hex."""

    def __init__(self, data: NomonhanData) -> None:
        self.data = data
        self.map = data.map
        kinds: dict[Hexside, str] = {}
        for side in self.map.rivers:
            kinds[side] = RIVER
        for side, kind in self.map.bridges.items():
            kinds[side] = FIXED if kind == "fixed" else PONTOON
        # both crossing directions, so the hot path never builds a Hexside
        self._kinds: dict[tuple[Hex, Hex], str] = {}
        for side, kind in kinds.items():
            self._kinds[side.a, side.b] = kind
            self._kinds[side.b, side.a] = kind

        self.cost: dict[Hex, int] = {h: self.map.cost(h) for h in self.map.hexes}
        self.side_of: dict[str, str] = {u.id: u.side for u in data.units}

    def on_map(self, h: Hex) -> bool:
        return h in self.map.hexes

    @functools.cache  # noqa: B019 - one Board per data file, kept for the process
    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        return tuple(n for n in hex_neighbors(h) if n in self.map.hexes)  # NOM-2.4: map hexes

    def hexside_kind(self, a: Hex, b: Hex, demolished: bool) -> str:
        """open, river (no bridge), fixed bridge, pontoon bridge, or blown pontoon."""
        kind = self._kinds.get((a, b), OPEN)
        return BLOWN if kind == PONTOON and demolished else kind

    def is_hill(self, h: Hex) -> bool:
        return self.map.terrain.get(h) == "hill"


def carries_zoc(board: Board, v: Variant, demolished: bool, a: Hex, b: Hex) -> bool:
    """ZOC (and so contact for combat) reaches from `a` into adjacent `b`: not across a river
    without a bridge (NOM-7.4, NOM-9.6, NOM-9.23); the pontoon per AMB-NOM-16/17."""
    kind = board.hexside_kind(a, b, demolished)
    if kind in (OPEN, FIXED):
        return True
    if kind == RIVER:
        return False  # NOM-7.4 no ZOC across a bridgeless river: no contact (NOM-9.6, NOM-9.23)
    pontoon_counts = v.is_("pontoon_is_bridge", "yes")
    if kind == PONTOON:
        return pontoon_counts
    return pontoon_counts and v.is_("demolition_effect", "crossing_only")  # BLOWN


def across_bridge(board: Board, v: Variant, demolished: bool, a: Hex, b: Hex) -> bool:
    """An attack from `a` into `b` is across a bridge (+1 to the defender, NOM-9.22)."""
    kind = board.hexside_kind(a, b, demolished)
    return kind == FIXED or (kind in (PONTOON, BLOWN) and carries_zoc(board, v, demolished, a, b))


def can_cross(board: Board, v: Variant, demolished: bool, unit: UnitSpec, a: Hex, b: Hex) -> bool:
    """A unit may cross from `a` into adjacent `b`: never a river without a bridge (NOM-8.4);
    the pontoon only for some units (NOM-8.5); never once blown (NOM-OPT.5)."""
    kind = board.hexside_kind(a, b, demolished)
    if kind in (OPEN, FIXED):
        return True
    if kind == PONTOON:
        if v.is_("pontoon_users", "not_tanks"):
            return not unit.is_tank
        return unit.type in ("infantry", "cavalry")
    return False  # RIVER, BLOWN


def occupancy(state: NomonhanState) -> dict[Hex, UnitState]:
    return {u.hex: u for u in state.units if u.hex is not None}


def in_enemy_zoc(
    board: Board, state: NomonhanState, side: str, h: Hex, occ: dict[Hex, UnitState]
) -> bool:
    """`h` is in the ZOC of a unit of the side opposing `side` (NOM-7.1, NOM-7.4)."""
    for n in board.neighbors(h):
        u = occ.get(n)
        if (
            u is not None
            and board.data.unit(u.id).side != side
            and carries_zoc(board, state.variant, state.demolished, n, h)
        ):
            return True  # NOM-7.1: next to an enemy unit whose ZOC reaches here
    return False


def enemy_zoc_hexes(
    board: Board, state: NomonhanState, side: str, occ: dict[Hex, UnitState]
) -> frozenset[Hex]:
    """Every hex in the ZOC of a unit opposing `side` (NOM-7.1, NOM-7.4), computed once."""
    out: set[Hex] = set()
    v, demolished = state.variant, state.demolished
    for h, u in occ.items():
        if board.data.unit(u.id).side != side:
            # NOM-7.1: an enemy unit's ZOC covers its six adjacent hexes (NOM-7.4: rivers)
            out.update(n for n in board.neighbors(h) if carries_zoc(board, v, demolished, h, n))
    return frozenset(out)
