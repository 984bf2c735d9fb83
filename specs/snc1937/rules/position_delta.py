"""A new position's stacks and unit hexes worked out from the position it was made from.

Most steps move one group a hex, or take a unit off the map: rebuilding every hex's stack and
every unit's hex from the whole position (a hundred-odd units) cost more than the rest of such
a step. Here the views of the old position are copied (in C) and only the hexes and units the
step touched are changed. The result must be exactly the full rebuild's, dict order included,
since listings iterate the stacks: a hex stands where its first unit (the lowest unit id, as
the position is sorted by unit) puts it, and its units are in unit order; each unit of the
locations stands in unit order. A change that would move a hex or unit elsewhere in that order
is spliced into the ordered items, and a new unit on the map asks for the full rebuild (None).
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Mapping

from kernel.hexes import Hex

Stacks = dict[Hex, tuple[str, ...]]


def moved_locations(
    old: Mapping[str, Hex], moves: Mapping[str, Hex | None]
) -> dict[str, Hex] | None:
    """Each unit's hex after `moves` (a hex, or None: off the map) from `old`; None when a unit
    comes onto the map (it would stand at the end of a copy, not in unit order)."""
    new = dict(old)
    for u, h in moves.items():
        if h is None:
            new.pop(u, None)
        elif u in new:
            new[u] = h
        else:
            return None
    return new


def moved_stacks(
    old: Mapping[Hex, tuple[str, ...]],
    old_loc: Mapping[str, Hex],
    moves: Mapping[str, Hex | None],
) -> Stacks:
    """Every occupied hex's units after `moves`, from the stacks `old` and unit hexes `old_loc`
    of the position the moves were made from, in the full rebuild's order."""
    changed = _one_group(old, old_loc, moves)
    return _spliced(old, changed if changed is not None else _changed(old, old_loc, moves))


def _one_group(
    old: Mapping[Hex, tuple[str, ...]],
    old_loc: Mapping[str, Hex],
    moves: Mapping[str, Hex | None],
) -> dict[Hex, tuple[str, ...]] | None:
    """The two stacks a group's step changes, where every unit moved leaves one hex for
    another (a move's step, most of play); None for any other change."""
    it = iter(moves.items())
    first = next(it, None)
    if first is None:
        return None
    unit, to = first
    start = old_loc.get(unit)
    if start is None or to is None or start == to:
        return None
    for u, h in it:
        if h != to or old_loc.get(u) != start:
            return None
    was = old[start]
    rest = () if len(moves) == len(was) else tuple([u for u in was if u not in moves])
    there = old.get(to, ())
    coming = (*there, *moves) if there or len(moves) > 1 else (unit,)
    return {start: rest, to: tuple(sorted(coming)) if len(coming) > 1 else coming}


def _changed(
    old: Mapping[Hex, tuple[str, ...]],
    old_loc: Mapping[str, Hex],
    moves: Mapping[str, Hex | None],
) -> dict[Hex, tuple[str, ...]]:
    """The units of every hex `moves` touch, after them."""
    leaving: dict[Hex, set[str]] = {}
    coming: dict[Hex, list[str]] = {}
    for u, h in moves.items():
        was = old_loc.get(u)
        if was is not None:
            leaving.setdefault(was, set()).add(u)
        if h is not None:
            coming.setdefault(h, []).append(u)
    changed: dict[Hex, tuple[str, ...]] = {}
    for h in leaving.keys() | coming.keys():
        gone = leaving.get(h, ())
        here = [u for u in old.get(h, ()) if u not in gone]
        here.extend(coming.get(h, ()))
        here.sort()
        changed[h] = tuple(here)
    return changed


def _spliced(old: Mapping[Hex, tuple[str, ...]], changed: Mapping[Hex, tuple[str, ...]]) -> Stacks:
    """`old` with the `changed` hexes' units, each hex in its place in the order."""
    new = dict(old)
    moved: list[tuple[Hex, tuple[str, ...]]] = []  # hexes whose place in the order changes
    for h, units in changed.items():
        before = old.get(h)
        if not units:
            del new[h]
        elif before is not None and before[0] == units[0]:
            new[h] = units  # same first unit: the same place
        else:
            new.pop(h, None)
            moved.append((h, units))
    if not moved:
        return new
    keys, values = list(new), list(new.values())
    for h, stack in moved:
        i = bisect.bisect_left(values, stack[0], key=_first)
        keys.insert(i, h)
        values.insert(i, stack)
    return dict(zip(keys, values, strict=True))


_first = operator.itemgetter(0)
