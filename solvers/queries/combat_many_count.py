"""Counting a MANY shape's solutions over the nodes of its search (`count_structure`).

Split from `combat_many` (the search itself): where the frontier of `combat_count.count_many`
is wide (`frontier_width` at least `WIDE_FRONTIER`), `assignments` counts by the structure of
`combat_many.ManySearch` instead, memoised over what is left to place.
"""

from __future__ import annotations

from collections.abc import Hashable

from solvers.queries.combat_many import ManySearch
from solvers.queries.combat_shape import Shape

# `count` by the structure rather than by `count_many` where the frontier holds this many
# targets and there are at most twice as many attackers (measured on random dense components:
# 6 x 6 in 0.4 s against 2.7 s, 8 x 8 in 11 s against 200 s; with many more attackers than
# targets, 12 x 4, the frontier programme wins, 0.2 s against 4.6 s)
WIDE_FRONTIER = 5


def frontier_width(shape: Shape) -> int:
    """The most targets open at once in `count_many`'s sweep over the attackers (a target is
    open from its first attacker in contact to its last)."""
    span: dict[int, tuple[int, int]] = {}
    for a, t, _ in shape.contacts:
        lo, hi = span.get(t, (a, a))
        span[t] = (min(lo, a), max(hi, a))
    return max(
        (sum(1 for lo, hi in span.values() if lo <= a <= hi) for a in range(shape.n_attackers)),
        default=0,
    )


def count_structure(shape: Shape) -> int | None:
    """The number of solutions of a MANY shape, memoised over the search's nodes (what is
    left to place, in normal form), or None where a rule the structure does not see applies
    (also-attack, a hexside limit that binds). Exact otherwise: the structure alone decides
    the combats, the obligation to attack and the targets that must be attacked. Where the
    targets are all in contact with most attackers, `count_many`'s frontier holds them all
    at once and its states explode; the nodes here are sets of units left, far fewer."""
    search = ManySearch(shape, formula=False)
    if not search.only_targets:
        return None
    if search.must_a & ~search.engaged or not search._alive(0, 0, 0):
        return 0  # an obliged attacker with no target, a target out of every attacker's reach
    memo: dict[Hashable, int] = {}

    def below(key: Hashable) -> int:
        found = memo.get(key)
        if found is None:
            branches = search.node(key)
            found = 1 if branches is None else sum(below(k) for _, k, _ in branches)
            memo[key] = found
        return found

    return below(search.root())
