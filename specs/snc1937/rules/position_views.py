"""The units of each hex and the hex of each unit in a position, kept per position.

Each view is memoized by the identity of the position (`memo.py`: no hashing of the hundred-odd
pairs) over a cache by value (a position rebuilt equal, as a replay makes, still hits). A
position that `tables.put` made (`record`) from one whose views are known is worked out from
those (`position_delta`): only the hexes and units the step touched change, where a rebuild
went over every unit. `where` is sorted by unit, as every position play, the set-up and the
codec make is: a hex's units stand in unit order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, cast

from kernel.hexes import Hex
from specs.snc1937.rules.memo import SIZE, identity_memo
from specs.snc1937.rules.position_delta import moved_locations, moved_stacks

Where = tuple[tuple[str, Hex], ...]
Moves = Mapping[str, Hex | None]

# the positions `put` made lately, each with the one it was made from and the units it moved,
# so that a view of the new one can be worked out from the old one's (emptied when full)
MADE: dict[int, tuple[Where, Where, Moves]] = {}

CHAIN = 64  # positions followed back to one whose views are known, before a rebuild


def record(where: Where, old: Where, moves: Moves) -> None:
    """`where` was made from `old` by `moves` (kept alive with it: its id stays its own)."""
    if len(MADE) >= SIZE:
        MADE.clear()
    if where:  # the empty tuple is one object shared by every empty position
        MADE[id(where)] = (where, old, moves)


def made_from(where: Where) -> tuple[Where, Where, Moves] | None:
    """The position `where` was made from and the moves, if `put` made it lately."""
    made = MADE.get(id(where))
    return made if made is not None and made[0] is where else None


@functools.lru_cache(maxsize=256)
def _stacks(where: Where) -> dict[Hex, tuple[str, ...]]:
    out: dict[Hex, tuple[str, ...]] = {}
    for unit, h in where:
        us = out.get(h)
        out[h] = (unit,) if us is None else (*us, unit)
    return out


def _stacks_view(where: Where) -> dict[Hex, tuple[str, ...]]:
    """Worked out from the latest position `where` was made from whose views are known (the
    steps between, whose stacks no one asked for, taken as one move of each unit to where it
    ended), else built afresh."""
    chain: list[Moves] = []
    at = where
    while (made := made_from(at)) is not None and len(chain) < CHAIN:
        chain.append(made[2])
        at = made[1]
        before, was = _known_stacks(at), _known_locations(at)
        if before is not None and was is not None:
            if len(chain) == 1:
                return moved_stacks(before, was, chain[0])
            net: dict[str, Hex | None] = {}
            for moves in reversed(chain):
                net.update(moves)
            return moved_stacks(before, was, net)
    return _stacks(where)


stacks = identity_memo(_stacks_view)
"""The units of each occupied hex, by hex (shared: never change the dict returned)."""


@functools.lru_cache(maxsize=256)
def _locations(where: Where) -> dict[str, Hex]:
    return dict(where)


def _locations_view(where: Where) -> dict[str, Hex]:
    made = made_from(where)
    if made is not None:
        was = _known_locations(made[1])
        if was is not None:
            found = moved_locations(was, made[2])
            if found is not None:
                return found
    return _locations(where)


locations = identity_memo(_locations_view)
"""Each unit's hex (shared: never change the dict returned)."""


MASK = (1 << 64) - 1


def _where_hash_view(where: Where) -> int:
    """The position's hash by value: the sum of its pairs' hashes, which says as much as the
    tuple's own hash (a position is a set of pairs, one a unit, kept in unit order). Worked
    out from the position `put` made it from, where that one's is known: a move's step
    changes a pair or two of a hundred, and every playout step hashes its state
    (`kernel.playout.CycleWatch`)."""
    made = made_from(where)
    if made is not None:
        before, was = _known_hash(made[1]), _known_locations(made[1])
        if before is not None and was is not None and len(was) == len(made[1]):
            found = before
            for unit, to in made[2].items():
                at = was.get(unit)
                if at is not None:
                    found -= hash((unit, at))
                if to is not None:
                    found += hash((unit, to))
            return found & MASK
    return sum(map(hash, where)) & MASK


where_hash = identity_memo(_where_hash_view)
"""A hash of the position's value (equal positions, equal hashes)."""


# the views kept for a position, or None (computes nothing)
_known_hash: Callable[[Where], int | None] = cast(Any, where_hash).peek
_known_stacks: Callable[[Where], dict[Hex, tuple[str, ...]] | None] = cast(Any, stacks).peek
_known_locations: Callable[[Where], dict[str, Hex] | None] = cast(Any, locations).peek
