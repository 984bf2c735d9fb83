"""Where a Nomonhan unit may move (NOM-7): the hexes within its movement allowance, around
enemy zones of control, other units and uncrossable hexsides, with the relaxations the
options name. Written once as a shortest-path search over the board and cached per position
(a bitmask of the destinations per unit), for the Movement Phase and the advance alike."""

from __future__ import annotations

import functools
import heapq
from collections.abc import Iterable

from kernel.hexes import Hex
from specs.nomonhan.data.loader import UnitSpec
from specs.nomonhan.rules.board import (
    Board,
    cached_enemy_zoc,
    can_cross,
    enemy_zoc_hexes,
    in_enemy_zoc,
    occupancy,
    state_occupancy,
)
from specs.nomonhan.rules.state import NomonhanState, UnitState

OccMap = dict[Hex, UnitState]


RELAXATIONS = (
    ("blown", "NOM-OPT.5", "the pontoon bridge is blown"),
    ("pontoon", "NOM-8.5", "it may not use the pontoon bridge"),
    ("rivers", "NOM-8.4", "it would have to cross a river without a bridge"),
    ("hills", "NOM-8.3", "entering a hill costs 2 MP, and it would not have them"),
    ("units", "NOM-8.7", "it would have to pass through another unit"),
    ("zoc", "NOM-7.2", "it would have to go on after entering an enemy ZOC"),
)
"""Each rule a move can break, relaxed one at a time to say which one stops a move."""


def destinations(
    board: Board,
    state: NomonhanState,
    spec: UnitSpec,
    start: Hex,
    mp: int,
    occ: dict[Hex, UnitState],
    relax: str | None = None,
) -> set[Hex]:
    """Hexes where a unit starting at `start` with `mp` points may end its move.

    Entering costs 1 (clear, NOM-8.2) or 2 (hill, NOM-8.3; not enterable with less); rivers per
    `can_cross` (NOM-8.4, NOM-8.5, NOM-OPT.5); a unit entering an EZOC stops (NOM-7.2); no unit
    is passed through (NOM-8.7) unless the reading lets friendly units be; no move ends in an
    occupied hex (NOM-8.6). `relax` lifts one of RELAXATIONS, to explain a refused move.
    """
    v = state.variant
    pass_friendly = v.is_("pass_through", "friendly")
    if relax is None and start in board.bit:
        zoc_bits = board.mask(enemy_zoc_hexes(board, state, spec.side, occ))
        blocked = board.mask(_blocking(board, occ, spec, pass_friendly))
        reached = _reach(board, state, spec, start, mp, blocked, zoc_bits)
        return _ends(board.hexes(reached), start, spec, occ)
    ezoc = frozenset() if relax == "zoc" else enemy_zoc_hexes(board, state, spec.side, occ)
    cost_of = board.cost
    side_of = board.side_of
    demolished = state.demolished
    best = {start: mp}
    heap = [(-mp, start)]
    while heap:
        neg, here = heapq.heappop(heap)
        left = -neg
        if best.get(here, -1) > left:
            continue
        if here != start and here in ezoc:
            continue  # NOM-7.2: stop on entering an EZOC
        for n in board.neighbors(here):
            cost = 1 if relax == "hills" else cost_of[n]
            if cost > left:
                continue  # NOM-8.1 up to the MA; NOM-8.3 no hill with fewer than 2 MP left
            if not can_cross(board, v, demolished, spec, here, n) and not _relaxed(
                board, relax, here, n, demolished
            ):
                continue
            occupant = occ.get(n)
            if (
                occupant is not None
                and occupant.id != spec.id
                and relax != "units"
                and not (pass_friendly and side_of[occupant.id] == spec.side)
            ):
                continue  # NOM-8.7
            rest = left - cost  # NOM-8.2 clear 1 MP, NOM-8.3 hill 2 MP
            if best.get(n, -1) < rest:
                best[n] = rest
                heapq.heappush(heap, (-rest, n))
    return _ends(best, start, spec, occ)


def _ends(best: Iterable[Hex], start: Hex, spec: UnitSpec, occ: dict[Hex, UnitState]) -> set[Hex]:
    """The hexes reached where the move may end: not the start, not occupied (NOM-8.6)."""
    return {h for h in best if h != start and (h not in occ or occ[h].id == spec.id)}


def _blocking(
    board: Board, occ: dict[Hex, UnitState], spec: UnitSpec, pass_friendly: bool
) -> set[Hex]:
    """The hexes `spec` may not pass through: another unit's, a friendly one's only when the
    reading forbids it (NOM-8.7, pass_through)."""
    side_of, side, me = board.side_of, spec.side, spec.id
    return {
        h
        for h, u in occ.items()
        if u.id != me and not (pass_friendly and side_of[u.id] == side)  # NOM-8.7
    }


def _reach(
    board: Board, state: NomonhanState, spec: UnitSpec, start: Hex, mp: int, blocked: int, ezoc: int
) -> int:
    """The hexes (as bits, `Board.masks`) a unit reaches from `start` with `mp` points: the
    search of `destinations` without a relaxation, level by level of MP left, each level a
    few shifts of a mask. `level[k]` holds the hexes reached with at least k MP left.

    Entering costs 1 (clear, NOM-8.2) or 2 (hill, NOM-8.3; not with less left, NOM-8.1);
    across open hexsides and fixed bridges only, the unblown pontoon per `can_cross`, asked as
    the search reaches it (NOM-8.4, NOM-8.5, NOM-OPT.5); a unit entering an EZOC stops
    (NOM-7.2); no unit passes through a `blocked` hex (NOM-8.7).
    """
    me = 1 << board.bit[start]
    if mp <= 0:
        return me
    shifts, by_cost, crossings = board.masks(state.demolished)
    v, demolished = state.variant, state.demolished
    free = ~blocked  # NOM-8.7: no unit passes through another unit
    stays = ~ezoc  # NOM-7.2: a unit entering an EZOC stops there
    level = [0] * (mp + 1)
    near = [0] * (mp + 1)  # near[j]: the neighbours a step from the hexes left with j MP
    bridge = [0] * (mp + 1)  # hexes across the pontoon, reached with that many MP left
    level[mp] = me
    asked: dict[int, bool] = {}
    for j in range(mp, -1, -1):
        if j < mp:
            got = bridge[j]
            for cost, hexes in by_cost:  # NOM-8.2 clear 1 MP, NOM-8.3 hill 2 MP
                if j + cost <= mp:  # NOM-8.1 up to the MA; NOM-8.3 no hill with < 2 MP left
                    got |= near[j + cost] & hexes
            level[j] = level[j + 1] | (got & free)  # NOM-8.7
        if j == 0:
            break
        here = (level[j] & stays) | me  # NOM-7.2: stop on entering an EZOC (not the start)
        step = 0
        for off, hexes in shifts:
            m = here & hexes
            if m:
                step |= m << off if off > 0 else m >> -off
        near[j] = step
        for k, (a, b, bit_a, bit_b, cost) in enumerate(crossings):
            if cost <= j and here >> bit_a & 1:
                ok = asked.get(k)
                if ok is None:  # NOM-8.5: the pontoon only for some units, by reading
                    ok = asked[k] = can_cross(board, v, demolished, spec, a, b)
                if ok:
                    bridge[j - cost] |= 1 << bit_b
    return level[0]


@functools.lru_cache(maxsize=256)
def _state_masks(
    board: Board, state: NomonhanState, side: str, pass_friendly: bool
) -> tuple[int, int, int]:
    """Once per state, as bits: the hexes a unit of `side` may not pass through (NOM-8.7; the
    unit's own hex among them, see `state_destinations`), the occupied hexes (NOM-8.6) and
    the enemy ZOC (NOM-7.1, NOM-7.2)."""
    side_of, bits = board.side_of, board.bit
    blocked = occupied = 0
    for h, u in state_occupancy(state).items():
        i = bits.get(h)
        if i is not None:
            occupied |= 1 << i
            if not (pass_friendly and side_of[u.id] == side):
                blocked |= 1 << i  # NOM-8.7
    return blocked, occupied, board.mask(cached_enemy_zoc(board, state, side))


def _relaxed(board: Board, relax: str | None, a: Hex, b: Hex, demolished: bool) -> bool:
    kind = board.hexside_kind(a, b, demolished)
    return (
        (relax == "rivers" and kind == "river")
        or (relax == "pontoon" and kind == "pontoon")
        or (relax == "blown" and kind == "blown")
    )


@functools.lru_cache(maxsize=64)
def unit_destinations(board: Board, state: NomonhanState, unit_id: str) -> frozenset[Hex]:
    """Where a unit on the map may move this phase (cached: legal-action generation and the
    check in `apply` ask the same question of the same state)."""
    return frozenset(board.hexes(_destination_mask(board, state, unit_id)))


@functools.lru_cache(maxsize=1024)
def _destination_mask(board: Board, state: NomonhanState, unit_id: str) -> int:
    """`unit_destinations` as bits (`Board.masks`)."""
    spec = board.data.unit(unit_id)
    here = state.unit(unit_id).hex
    assert here is not None
    return state_destinations(board, state, spec, here, spec.ma, None)


def state_destinations(
    board: Board, state: NomonhanState, spec: UnitSpec, start: Hex, mp: int, occ: OccMap | None
) -> int:
    """`destinations(board, state, spec, start, mp, occ)` as bits, where `occ` is the state's
    units (None: `occupancy(state)`), perhaps with `spec` placed at `start`: the enemy ZOC
    (NOM-7.1, NOM-7.2), the hexes no unit passes through (NOM-8.7) and the occupied hexes
    (NOM-8.6) are then the state's, from `_state_masks`. The unit itself blocks only
    `start`, which no step re-enters with more MP left than it started with, so the search is
    the same."""
    pass_friendly = state.variant.is_("pass_through", "friendly")
    if start not in board.bit:
        occ = occupancy(state) if occ is None else occ
        return board.mask(destinations(board, state, spec, start, mp, occ))
    blocked, occupied, ezoc = _state_masks(board, state, spec.side, pass_friendly)
    reached = _reach(board, state, spec, start, mp, blocked, ezoc)
    return reached & ~occupied & ~(1 << board.bit[start])  # NOM-8.6: not an occupied hex


@functools.lru_cache(maxsize=1024)
def move_targets(board: Board, state: NomonhanState, unit_id: str) -> int:
    """The hexes (as bits) a Move of `unit_id` may go to in this state: exactly those for
    which `move_problem` is None (NOM-8.1 the mover's unit, on the map, not yet moved;
    NOM-7.3 not starting in an enemy ZOC; then `unit_destinations`), none if it may not move.
    Cached per state, so `apply` checks a Move that `legal_actions` offered with a look-up."""
    spec = board.data.unit(unit_id)
    unit = state.unit(unit_id)
    if (
        spec.side != state.phasing
        or unit.hex is None
        or unit_id in state.moved
        or in_enemy_zoc(board, state, spec.side, unit.hex, state_occupancy(state))
    ):
        return 0  # NOM-8.1 not its phase or already moved; NOM-7.3 starts in an EZOC
    return _destination_mask(board, state, unit_id)
