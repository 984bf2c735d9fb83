"""What a hexside lets through, and who is in whose ZOC.

One place decides what rivers, bridges and the pontoon bridge allow, per reading, so movement,
ZOC, combat, retreat and advance cannot disagree about a hexside.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import NamedTuple

from kernel.hexes import Hex, Hexside, hex_neighbors
from kernel.variants import Variant
from specs.nomonhan.data.loader import NomonhanData, UnitSpec
from specs.nomonhan.rules.state import NomonhanState, UnitState

OPEN, RIVER, FIXED, PONTOON, BLOWN = "open", "river", "fixed", "pontoon", "blown"

Steps = dict[Hex, tuple[tuple[Hex, int], ...]]  # hex -> (neighbour, MP cost to enter) pairs
Reach = dict[Hex, tuple[Hex, ...]]  # hex -> neighbours


class Masks(NamedTuple):
    """A board's steps as bit masks (`Board.masks`)."""

    shifts: tuple[tuple[int, int], ...]  # (bit offset, hexes that may step by it)
    by_cost: tuple[tuple[int, int], ...]  # (MP to enter, hexes), cheapest first
    pontoon: tuple[tuple[Hex, Hex, int, int, int], ...]  # (a, b, bit a, bit b, cost of b)


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
        self.unit_index: dict[str, int] = {u.id: i for i, u in enumerate(data.units)}
        self._steps: dict[bool, tuple[Steps, Steps]] = {}
        self._zoc_steps: dict[bool, tuple[Reach, Reach]] = {}
        # hexes as bits, for move generation over sets of hexes (`masks`)
        width = max((h.row for h in self.map.hexes), default=0) + 2
        order = sorted(self.map.hexes)
        self.bit: dict[Hex, int] = {h: h.col * width + h.row for h in order}
        self.hex_at: dict[int, Hex] = {i: h for h, i in self.bit.items()}
        self._masks: dict[bool, Masks] = {}
        self.reinforcements: tuple[UnitSpec, ...] = tuple(u for u in data.units if u.gt is not None)

    def steps(self, demolished: bool) -> tuple[Steps, Steps]:
        """The steps out of every hex, built once per state of the pontoon bridge: the
        (neighbour, MP cost) pairs across an open hexside or a fixed bridge, which every unit
        may cross (`can_cross`: NOM-8.4, NOM-8.2, NOM-8.3), and apart from them the unblown
        pontoon's crossings, which depend on the unit and the reading (NOM-8.5), so the
        caller asks `can_cross` for those. Rivers without a bridge and the blown pontoon
        (NOM-8.4, NOM-OPT.5) are in neither."""
        hit = self._steps.get(demolished)
        if hit is None:
            free: Steps = {}
            pontoon: Steps = {}
            for h in self.map.hexes:
                kinds = [(n, self.hexside_kind(h, n, demolished)) for n in self.neighbors(h)]
                free[h] = tuple((n, self.cost[n]) for n, k in kinds if k in (OPEN, FIXED))
                across = tuple((n, self.cost[n]) for n, k in kinds if k == PONTOON)
                if across:
                    pontoon[h] = across
            hit = self._steps[demolished] = (free, pontoon)
        return hit

    def on_map(self, h: Hex) -> bool:
        return h in self.map.hexes

    @functools.cache  # noqa: B019 - one Board per data file, kept for the process
    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        return tuple(n for n in hex_neighbors(h) if n in self.map.hexes)  # NOM-2.4: map hexes

    def hexside_kind(self, a: Hex, b: Hex, demolished: bool) -> str:
        """open, river (no bridge), fixed bridge, pontoon bridge, or blown pontoon."""
        kind = self._kinds.get((a, b), OPEN)
        return BLOWN if kind == PONTOON and demolished else kind

    def mask(self, hexes: Iterable[Hex]) -> int:
        """The map hexes among `hexes` as bits (`self.bit`); others are left out."""
        bit = self.bit
        out = 0
        for h in hexes:
            i = bit.get(h)
            if i is not None:
                out |= 1 << i
        return out

    def hexes(self, mask: int) -> list[Hex]:
        """The hexes of a mask, in hex order (a hex's bit grows with its column, then row)."""
        out = []
        hex_at = self.hex_at
        while mask:
            low = mask & -mask
            out.append(hex_at[low.bit_length() - 1])
            mask ^= low
        return out

    def masks(self, demolished: bool) -> Masks:
        """`steps` as bits: for each offset between a hex's bit and a neighbour's, the hexes
        whose neighbour at that offset is across an open hexside or a fixed bridge (NOM-8.4);
        the map hexes by cost to enter (NOM-8.2, NOM-8.3); and the unblown pontoon's
        crossings as (hex bit, neighbour bit, neighbour, cost) (NOM-8.5: per unit)."""
        hit = self._masks.get(demolished)
        if hit is None:
            free, pontoon = self.steps(demolished)
            bit = self.bit
            shifts: dict[int, int] = {}
            for h, pairs in free.items():
                for n, _ in pairs:
                    off = bit[n] - bit[h]
                    shifts[off] = shifts.get(off, 0) | 1 << bit[h]
            by_cost: dict[int, int] = {}
            for h in self.map.hexes:
                by_cost[self.cost[h]] = by_cost.get(self.cost[h], 0) | 1 << bit[h]
            crossings = tuple(
                (h, n, bit[h], bit[n], cost) for h, pairs in pontoon.items() for n, cost in pairs
            )
            hit = self._masks[demolished] = Masks(
                tuple(shifts.items()), tuple(sorted(by_cost.items())), crossings
            )
        return hit

    def zoc_steps(self, demolished: bool) -> tuple[Reach, Reach]:
        """Per hex, the neighbours a unit's ZOC reaches whatever the reading (across an open
        hexside or a fixed bridge: `carries_zoc`, NOM-7.4), and apart from them the
        neighbours across the pontoon, blown or not, for which the caller asks `carries_zoc`
        (AMB-NOM-16, AMB-NOM-17). Neighbours across a river without a bridge are in neither
        (NOM-7.4)."""
        hit = self._zoc_steps.get(demolished)
        if hit is None:
            sure: Reach = {}
            asked: Reach = {}
            for h in self.map.hexes:
                kinds = [(n, self.hexside_kind(h, n, demolished)) for n in self.neighbors(h)]
                sure[h] = tuple(n for n, k in kinds if k in (OPEN, FIXED))
                across = tuple(n for n, k in kinds if k in (PONTOON, BLOWN))
                if across:
                    asked[h] = across
            hit = self._zoc_steps[demolished] = (sure, asked)
        return hit

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


_occupied: list[tuple[NomonhanState | None, dict[Hex, UnitState]]] = [(None, {})]
"""The last state of `state_occupancy` with its occupancy: one tuple, replaced whole, so that
threads never see one state with another's occupancy."""


def state_occupancy(state: NomonhanState) -> dict[Hex, UnitState]:
    """`occupancy(state)`, kept for the last state asked (move generation asks it several
    times of one state). Shared: the caller must not change it."""
    last, occ = _occupied[0]
    if last is not state:
        occ = occupancy(state)
        _occupied[0] = (state, occ)
    return occ


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


@functools.lru_cache(maxsize=256)
def cached_enemy_zoc(board: Board, state: NomonhanState, side: str) -> frozenset[Hex]:
    """`enemy_zoc_hexes` of the state's own units, computed once per (state, side): every hex
    in the ZOC of a unit opposing `side` (NOM-7.1, NOM-7.4)."""
    return enemy_zoc_hexes(board, state, side, state_occupancy(state))


def enemy_zoc_hexes(
    board: Board, state: NomonhanState, side: str, occ: dict[Hex, UnitState]
) -> frozenset[Hex]:
    """Every hex in the ZOC of a unit opposing `side` (NOM-7.1, NOM-7.4), computed once."""
    out: set[Hex] = set()
    v, demolished = state.variant, state.demolished
    unit = board.data.unit
    sure, asked = board.zoc_steps(demolished)
    neighbors = board.neighbors
    for h, u in occ.items():
        if unit(u.id).side != side:
            # NOM-7.1: an enemy unit's ZOC covers its six adjacent hexes (NOM-7.4: rivers)
            reach = sure.get(h)
            if reach is None:  # not a map hex: ask every hexside, as `carries_zoc` does
                out.update(n for n in neighbors(h) if carries_zoc(board, v, demolished, h, n))
                continue
            out.update(reach)
            across = asked.get(h)
            if across is not None:
                out.update(n for n in across if carries_zoc(board, v, demolished, h, n))
    return frozenset(out)
