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
    """Every hex `unit` may move to, sorted (empty when it may not move); kept for the last
    positions asked, since the listing and the check of the chosen move ask the same."""
    return _destinations(b, s, unit)


@functools.lru_cache(maxsize=512)
def _destinations(b: Board, s: ShumshuState, unit: str) -> tuple[Hex, ...]:
    if mover_problem(b, s, unit) is not None:
        return ()
    start = s.piece(unit).hex
    assert start is not None
    enemy = other(b.side_of[unit])
    sides = hex_sides(b, s)

    def free(h: Hex) -> bool:
        return sides.get(h) != enemy  # SHU-MOVE.3, SHU-STACK.1: never into an enemy hex

    # the basic move (SHU-MOVE.1), into any hex without enemies: friendly units stack without
    # limit (SHU-STACK.2)
    out = {n for n in b.neighbors(start) if free(n)}
    reach = allowance(b, s, unit)
    whole = s.variant.is_("road_path", "whole_move")
    # along the road (SHU-MOVE.2): every step on the road, or only the extra ones
    first = [n for n in b.neighbors(start) if free(n) and (b.road_between(start, n) or not whole)]
    depth = dict.fromkeys(first, 1)
    queue = deque(first)
    while queue:
        h = queue.popleft()
        if depth[h] >= reach:
            continue
        for n in b.neighbors(h):
            if n != start and n not in depth and free(n) and b.road_between(h, n):
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
