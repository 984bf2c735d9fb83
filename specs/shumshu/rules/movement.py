"""Movement (SHU-MOVE.1 to SHU-MOVE.4, SHU-RGT.3, SHU-DISRUPT.1).

An undisrupted unit moves once per player-turn: one hex into any hex free of enemy pieces, or
along the road one more hex (battalions) or two (tanks, AMB-SHU-12); regiments never get the
road bonus. A unit never enters a hex with an enemy piece, decoys included (SHU-STACK.1,
AMB-SHU-30). `move_problem` is the definition; `destinations` lists the same hexes.
"""

from __future__ import annotations

import functools
from collections import deque

from kernel.hexes import Hex
from specs.shumshu.rules.board import Board
from specs.shumshu.rules.state import Loc, ShumshuState, other
from specs.shumshu.rules.units import battalion_like_move, hex_sides, holder

Problem = tuple[str, str] | None


def allowance(b: Board, s: ShumshuState, unit: str) -> int:
    """Hexes a unit may move along a road: 2 for battalions and decoys, 3 (or 2) for tanks,
    1 for regiments (SHU-MOVE.1, SHU-MOVE.2, SHU-RGT.3, AMB-SHU-12)."""
    spec = b.unit(unit)
    if spec.is_tank:
        return 3 if s.variant.is_("tank_road", "three_hexes") else 2
    if battalion_like_move(b, unit):
        return 2
    return 1  # SHU-RGT.3: a regiment gets no road bonus


def mover_problem(b: Board, s: ShumshuState, unit: str) -> Problem:
    """Why `unit` may not move now at all, or None."""
    p = s.piece(unit)
    spec = b.unit(unit)
    if spec.side != s.side or p.loc is not Loc.MAP:
        return "SHU-SEQ.1", f"{unit} is not a unit of the moving side on the map"
    if p.disrupted:
        return "SHU-MOVE.4", f"{unit} is disrupted and cannot move (SHU-DISRUPT.1)"
    if unit in s.moved:
        return "SHU-MOVE.1", f"{unit} has already moved this player-turn"
    if unit in s.acted:
        if spec.is_regiment:
            return "SHU-RGT.1", f"{unit} formed this turn and may not act yet (AMB-SHU-10)"
        return "SHU-SEQ.1", f"{unit} landed this turn: the landing was its action (AMB-SHU-28)"
    if spec.is_decoy and s.variant.is_("decoy_movement", "fixed"):
        return "SHU-COMBAT.6", "decoys never move under decoy_movement=fixed (AMB-SHU-30)"
    return None


def destinations(b: Board, s: ShumshuState, unit: str) -> tuple[Hex, ...]:
    """Every hex `unit` may move to, sorted (empty when it may not move): the unit's own
    search, so that a move is checked without listing every unit's moves."""
    return destinations_among(b, s, unit, enemy_hexes(b, s))


def moves_of(b: Board, s: ShumshuState) -> dict[str, tuple[Hex, ...]]:
    """Each unit of the moving side on the map and the hexes it may move to, in data order
    (SHU-MOVE.1 to SHU-MOVE.4)."""
    blocked = enemy_hexes(b, s)
    return {
        p.id: destinations_among(b, s, p.id, blocked)
        for p in s.units
        if p.loc is Loc.MAP and b.side_of[p.id] == s.side
    }


def enemy_hexes(b: Board, s: ShumshuState) -> frozenset[Hex]:
    """The hexes the side not moving holds: the ones a move never enters (SHU-MOVE.3,
    SHU-STACK.1). The moving side's own pieces never bar a move (SHU-STACK.2), so the set is
    the same all through a movement phase. Kept for the last positions asked, as the listing
    and the check of a move ask it of the same one."""
    return _enemy_hexes(b, s)


@functools.lru_cache(maxsize=64)
def _enemy_hexes(b: Board, s: ShumshuState) -> frozenset[Hex]:
    return frozenset(h for h, side in hex_sides(b, s).items() if side != s.side)


def destinations_among(
    b: Board, s: ShumshuState, unit: str, blocked: frozenset[Hex]
) -> tuple[Hex, ...]:
    """The hexes `unit` may move to, sorted, the hexes the enemy holds being `blocked`."""
    if mover_problem(b, s, unit) is not None:
        return ()
    start = s.piece(unit).hex
    assert start is not None
    whole = s.variant.is_("road_path", "whole_move")
    return _reach(b, start, blocked, allowance(b, s, unit), whole)


@functools.lru_cache(maxsize=4096)
def _reach(
    b: Board, start: Hex, blocked: frozenset[Hex], limit: int, whole: bool
) -> tuple[Hex, ...]:
    """One hex into any hex not `blocked` (SHU-MOVE.1, SHU-MOVE.3, SHU-STACK.1), or along
    the road up to `limit` hexes (SHU-MOVE.2): every step on the road when `whole`
    (`road_path=whole_move`), else the extra ones. Kept by what it depends on: a unit's
    hex and the enemy's hexes recur from one position to the next."""
    # the basic move (SHU-MOVE.1), into any hex without enemies: friendly units stack without
    # limit (SHU-STACK.2)
    out = {n for n in b.neighbors(start) if n not in blocked}
    # along the road (SHU-MOVE.2): every step on the road, or only the extra ones
    first = [
        n for n in (b.road_neighbors(start) if whole else b.neighbors(start)) if n not in blocked
    ]
    depth = dict.fromkeys(first, 1)
    queue = deque(first)
    while queue:
        h = queue.popleft()
        if depth[h] >= limit:
            continue
        for n in b.road_neighbors(h):
            if n != start and n not in depth and n not in blocked:
                depth[n] = depth[h] + 1
                queue.append(n)
    out.update(depth)
    return tuple(sorted(out))


def move_problem(b: Board, s: ShumshuState, unit: str, to: Hex) -> Problem:
    """Why moving `unit` to `to` is illegal (clause, message), or None."""
    found = mover_problem(b, s, unit)
    if found is not None:
        return found
    if not b.on_island(to):
        return "SHU-MOVE.1", f"{to} is not a hex of Shumshu"
    if holder(b, s, to) == other(b.side_of[unit]):
        return "SHU-MOVE.3", f"{to} holds enemy units (SHU-STACK.1)"
    if to not in destinations(b, s, unit):
        spec = b.unit(unit)
        if spec.is_regiment:
            return "SHU-RGT.3", f"{unit} moves one hex: regiments get no road bonus"
        return (
            "SHU-MOVE.2",
            f"{to} is beyond {unit}'s move: one hex, or along the road one more hex for a "
            "battalion and two for a tank",
        )
    return None
